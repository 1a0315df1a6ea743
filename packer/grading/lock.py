"""One grader at a time per gradebook: an advisory lock on a file of ours inside the gradebook folder, there
only while a run holds it.

Two runs into the same --out would each write the gradebook from what they read at the start, and the
second would drop the first's rows. The second run is refused at once (or waits, with --wait) instead.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from collections.abc import Iterator
from pathlib import Path

LOCK_NAME = ".grading.lock"  # never listed as a gradebook file, never counted as content of the folder


class Busy(ValueError):
    """Another grader holds the gradebook's lock."""


@contextlib.contextmanager
def gradebook_lock(out: Path, wait: bool = False) -> Iterator[None]:
    """Hold the lock on gradebook folder `out` (created when missing, and removed again at the end when
    nothing was written into it); Busy at once when another run holds it, unless `wait`."""
    created = False
    path = out / LOCK_NAME
    while True:
        if not out.exists():  # new, or removed by the run before us when it wrote nothing
            out.mkdir(parents=True, exist_ok=True)
            created = True
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except FileNotFoundError:  # the folder went between the two lines: make it again
            continue
        try:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if not wait:
                    raise
                holder = os.pread(descriptor, 200, 0).decode("utf-8", "replace").strip()
                print(
                    f"waiting: another grader is writing to {out} ({holder or 'a running grader'}) …", file=sys.stderr
                )
                fcntl.flock(descriptor, fcntl.LOCK_EX)
        except BlockingIOError:
            holder = os.pread(descriptor, 200, 0).decode("utf-8", "replace").strip()
            os.close(descriptor)
            raise Busy(
                f"--out: another grader is writing to {out} now ({holder or 'a running grader'}); wait for it to "
                "finish, or give --wait to start when it has (nothing was changed)"
            ) from None
        except BaseException:
            os.close(descriptor)
            raise
        try:
            same = os.stat(path).st_ino == os.fstat(descriptor).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(descriptor)  # the holder before us removed the file: lock the new one
    try:
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"pid {os.getpid()}\n".encode(), 0)
        yield
    finally:
        path.unlink(missing_ok=True)  # while still held: a run waiting on it sees it gone and locks a new one
        os.close(descriptor)
        if created:
            with contextlib.suppress(OSError):
                out.rmdir()  # only when empty: the run wrote nothing
