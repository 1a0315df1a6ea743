"""Finished warm-ups kept between grading runs, so that a run of the same grader reuses one instead of redoing it.

The warm-up (packer.grading.kernels.WARM_UP) fills a run's search cache and records every question's generated
inputs: about 5 s of one core, more than the rest of a run of one small notebook (under 3 s, measured 2026-12-07).
What it writes depends only on what it runs: the warm-up's code, the grader's own `packer` sources (its questions
and their inputs), the Python and Hypothesis it runs with, and Hypothesis's settings in the environment. Those make
the key. A run whose key was kept copies the kept files into its own run folder and starts no warm-up; any other
run warms up as before and keeps what it made. Each kernel still checks the recorded inputs' version against its
own search's and ignores a record that differs, so a stale copy could cost speed, never a grade.

Kept under $WORKBOOK_GRADER_CACHE when set (`off` keeps nothing), else $XDG_CACHE_HOME or ~/.cache, in
context-packing-workbook/grader-warm-up/KEY/; the newest KEEP keys stay, older ones of ours are removed. A cache
folder that cannot be written is no error: the run only warms up as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import platform
import shutil
import sys
import tempfile
from importlib import metadata
from pathlib import Path

KEEP = 4  # warm-ups kept: one per grader version lately used
NAME = "context-packing-workbook/grader-warm-up"


def root() -> Path | None:
    """The folder warm-ups are kept in (None when $WORKBOOK_GRADER_CACHE is `off`)."""
    chosen = os.environ.get("WORKBOOK_GRADER_CACHE", "")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / NAME


def key(warm_up: str, package_dir: Path) -> str:
    """What a warm-up's files depend on, as a digest: its code, the grader's packer, Python, Hypothesis."""
    digest = hashlib.sha256()
    settings = sorted(f"{k}={v}" for k, v in os.environ.items() if k.startswith("HYPOTHESIS"))
    for part in (warm_up, sys.version, platform.machine(), metadata.version("hypothesis"), *settings):
        digest.update(part.encode("utf-8") + b"\0")
    for path in sorted(package_dir.rglob("*.py")):
        digest.update(path.relative_to(package_dir).as_posix().encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def restore(kept_key: str, into: dict[str, str]) -> bool:
    """Copy a kept warm-up's files to where this run wants them ({name in the cache: path}); False if none."""
    folder = root()
    if folder is None:
        return False
    try:
        if not (folder / kept_key / "complete").is_file():  # (a folder this user may not read raises)
            return False
        for name, target in into.items():
            _copy(folder / kept_key / name, Path(target))
    except OSError:
        return False
    with contextlib.suppress(OSError):  # used now: the last to be removed (a folder of another user's may refuse)
        os.utime(folder / kept_key)
    return True


def keep(new_key: str, made: dict[str, str]) -> None:
    """Keep a finished warm-up's files ({name in the cache: path in the run}) under its key, whole or not at all."""
    folder = root()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if (folder / new_key).exists():
            return
        staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=folder))
    except OSError:
        return
    try:
        for name, source in made.items():
            _copy(Path(source), staging / name)
        (staging / "complete").write_text("a finished warm-up of the workbook's grader\n", encoding="utf-8")
        staging.rename(folder / new_key)  # atomic: a reader sees a whole warm-up or none
        _prune(folder)
    except OSError:  # a full disk, or another run kept the same warm-up first
        pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # gone already when renamed


def _copy(source: Path, target: Path) -> None:
    """Copy a file, or a folder into a folder that may exist already."""
    if source.is_dir():
        shutil.copytree(source, target, dirs_exist_ok=True)
    else:
        shutil.copyfile(source, target)


def _prune(folder: Path) -> None:
    """Remove all but the KEEP most recently used warm-ups (only folders named as this module names them)."""
    kept = [p for p in folder.iterdir() if _is_key(p.name) and (p / "complete").is_file()]
    for old in sorted(kept, key=lambda p: p.stat().st_mtime, reverse=True)[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)


def _is_key(name: str) -> bool:
    """Whether a folder's name is a key this module makes (32 lower-case hex digits)."""
    return len(name) == 32 and all(c in "0123456789abcdef" for c in name)
