"""The grading run's search cache: filled once by the grader, readable by every kernel's user, and a
warm-up that fails or hangs only costs speed (the grader says so), never a grade."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from packer.grading import kernels
from packer.grading.kernels import finish_search_cache, search_cache, warm_search_cache

PACKER = Path(kernels.__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def warmed(tmp_path_factory):
    """A run folder whose search cache one warm-up filled, and what finish_search_cache said of it."""
    folder = tmp_path_factory.mktemp("run")
    return folder, finish_search_cache(warm_search_cache(str(folder), "test-run"), str(folder))


def test_the_warm_up_fills_the_unicode_tables_and_the_workbooks_constants(warmed):
    folder, problem = warmed
    assert problem == ""
    cache = Path(search_cache(str(folder)))
    assert list(cache.glob("unicode_data/*/charmap.json.gz"))
    sources = {path.read_text(encoding="utf-8").splitlines()[0] for path in cache.glob("constants/*")}
    for module in ("chunks.py", "prompt.py", "checking/engine.py", "checking/bank.py"):
        assert f"# file: {PACKER / module}" in sources, sorted(sources)


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
