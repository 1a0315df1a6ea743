"""The grading run's search cache: filled once by the grader, readable by every kernel's user, and a
warm-up that fails or hangs only costs speed (the grader says so), never a grade. A finished warm-up is kept
for the next run of the same grader, which copies it instead of warming up again."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from packer.grading import kernels, warmups
from packer.grading.kernels import finish_search_cache, search_cache, warm_search_cache

PACKER = Path(kernels.__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def warmed(tmp_path_factory):
    """A run folder whose search cache one warm-up filled, and what finish_search_cache said of it."""
    folder = tmp_path_factory.mktemp("run")
    return folder, finish_search_cache(warm_search_cache(str(folder), "test-run"), str(folder))


def test_the_warm_up_fills_the_unicode_tables_and_reads_no_modules_constants(warmed):
    """The checks' search draws no constants from the modules loaded (packer.checking.search): none are cached."""
    folder, problem = warmed
    assert problem == ""
    cache = Path(search_cache(str(folder)))
    assert list(cache.glob("unicode_data/*/charmap.json.gz"))
    assert not (cache / "constants").exists()


def test_everything_in_the_cache_is_readable_by_other_users_and_writable_by_none(warmed):
    folder, _ = warmed
    for path in [Path(search_cache(str(folder))), *Path(search_cache(str(folder))).rglob("*")]:
        mode = path.stat().st_mode
        assert mode & stat.S_IROTH and not mode & stat.S_IWOTH and not mode & stat.S_IWGRP, path
        if path.is_dir():
            assert mode & stat.S_IXOTH, path


def test_a_warm_up_that_fails_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(kernels, "WARM_UP", "raise SystemExit('no vocabulary here')")
    problem = finish_search_cache(warm_search_cache(str(tmp_path), "test-run"), str(tmp_path))
    assert problem == "the search cache could not be prepared (no vocabulary here)"


def test_a_warm_up_that_hangs_is_stopped_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(kernels, "WARM_UP", "import time\ntime.sleep(60)")
    process = warm_search_cache(str(tmp_path), "test-run")
    assert finish_search_cache(process, str(tmp_path), timeout=0.5) == "the search cache was not ready after 0.5 s"
    assert process.poll() is not None


# --- a finished warm-up kept between runs (packer.grading.warmups) ---------------------------------------------
def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# A warm-up that writes what a real one writes, in a fraction of its time.
QUICK = (
    "import os, sys\n"
    "os.makedirs('constants', exist_ok=True)\n"
    "open('constants/0', 'w').write('# file: packer')\n"
    'open(sys.argv[1], \'w\').write(\'{"constants": "0", "inputs": {}}\')\n'
)


def test_a_second_run_of_the_same_grader_copies_the_finished_warm_up_and_starts_none(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBOOK_GRADER_CACHE", str(tmp_path / "kept"))
    monkeypatch.setattr(kernels, "WARM_UP", QUICK)
    first, second = tmp_path / "run1", tmp_path / "run2"
    assert finish_search_cache(warm_search_cache(str(first), "run-1"), str(first)) == ""
    (kept,) = (tmp_path / "kept").iterdir()
    assert kept.name == warmups.key(kernels.WARM_UP, PACKER) and (kept / "complete").is_file()
    process = warm_search_cache(str(second), "run-2")
    assert process is None and finish_search_cache(process, str(second)) == ""
    assert tree(second) == tree(first) and tree(first)  # the search cache and the recorded inputs, byte for byte
    for path in Path(search_cache(str(second))).rglob("*"):
        assert path.stat().st_mode & stat.S_IROTH, path


def test_the_key_changes_with_the_graders_code_and_the_warm_up(tmp_path):
    package = tmp_path / "packer"
    shutil.copytree(PACKER, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = warmups.key(kernels.WARM_UP, package)
    assert warmups.key(kernels.WARM_UP, package) == before and warmups.key(kernels.WARM_UP, PACKER) == before
    assert warmups.key(kernels.WARM_UP + "\n", package) != before
    (package / "checking" / "bank.py").write_text((package / "checking" / "bank.py").read_text() + "\nX = 1\n")
    assert warmups.key(kernels.WARM_UP, package) != before


def test_nothing_is_kept_when_told_off_or_when_the_cache_cannot_be_written(tmp_path, monkeypatch):
    monkeypatch.setattr(kernels, "WARM_UP", QUICK)
    for setting in ("off", str(tmp_path / "a-file" / "kept")):
        (tmp_path / "a-file").write_text("not a folder")
        monkeypatch.setenv("WORKBOOK_GRADER_CACHE", setting)
        for run in ("run1", "run2"):
            process = warm_search_cache(str(tmp_path / setting[-4:] / run), run)
            assert process is not None, f"{setting}: a warm-up was copied from where nothing can be kept"
            assert finish_search_cache(process, str(tmp_path / setting[-4:] / run)) == ""


def test_a_failed_warm_up_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBOOK_GRADER_CACHE", str(tmp_path / "kept"))
    monkeypatch.setattr(kernels, "WARM_UP", "raise SystemExit('no vocabulary here')")
    assert finish_search_cache(warm_search_cache(str(tmp_path / "run"), "run"), str(tmp_path / "run")) != ""
    assert not (tmp_path / "kept").exists() or not any((tmp_path / "kept").iterdir())


def test_only_the_newest_kept_warm_ups_stay_and_nothing_else_is_touched(tmp_path, monkeypatch):
    kept = tmp_path / "kept"
    monkeypatch.setenv("WORKBOOK_GRADER_CACHE", str(kept))
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    (kept / ("f" * 32)).mkdir()  # a folder named like a key, with no warm-up in it: not ours to remove
    made = tmp_path / "made"
    made.mkdir()
    (made / "generated.json").write_text("{}")
    for number in range(warmups.KEEP + 2):
        key = f"{number:032x}"
        warmups.keep(key, {"generated.json": str(made / "generated.json")})
        os.utime(kept / key, (1000 + number, 1000 + number))
    warmups.keep("a" * 32, {"generated.json": str(made / "generated.json")})  # the newest, kept now
    names = sorted(p.name for p in kept.iterdir())
    assert "notes.txt" in names and "f" * 32 in names
    assert len([n for n in names if (kept / n / "complete").is_file()]) == warmups.KEEP
    assert "a" * 32 in names and f"{0:032x}" not in names
