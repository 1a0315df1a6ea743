"""Ctrl-C and SIGTERM while grading, for instructors: both stop the grader cleanly, with the status a shell expects.

SIGTERM (a batch engine's cancel, `kill`) is raised as `Terminated`, a KeyboardInterrupt, so both stop the
same way; `exit_status` gives 130 after Ctrl-C and 143 after SIGTERM; `no_interrupts` holds Ctrl-C off while
a gradebook is written, so that it is never cut in two. Used by packer.grading.grader and packer.grading.merge.
"""

from __future__ import annotations

import contextlib
import signal
import threading


class Terminated(KeyboardInterrupt):
    """SIGTERM: stop as Ctrl-C does, and exit 143 (128 + 15) as a process stopped by SIGTERM."""


def exit_status(interrupt: KeyboardInterrupt) -> int:
    """130 after Ctrl-C (128 + SIGINT), 143 after SIGTERM (128 + SIGTERM), as a shell reports them."""
    return 128 + (signal.SIGTERM if isinstance(interrupt, Terminated) else signal.SIGINT)


@contextlib.contextmanager
def interrupts_as_keyboard_interrupt():
    """SIGTERM stops the grader the way Ctrl-C does (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(*_):
        raise Terminated

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def no_interrupts():
    """Hold Ctrl-C off for a moment that must not be cut in two (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
