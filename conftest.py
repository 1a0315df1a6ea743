"""Root pytest configuration: nbval's sanitize file is found from any working folder, the longest test files run
first, and the graders the tests start keep their warm-ups in a folder of the test run's own."""

import os
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent

# The test files that take longest, longest first (seconds on one of `make test`'s two workers, measured on a
# 2-core machine). pytest-xdist hands whole files (--dist loadfile) to whichever worker is free, in collection
# order once its own reordering by number of tests is off: started first, no long file is left for one worker at
# the end while the other has nothing to do (in the order xdist chose, the last minute and a half ran on one
# worker). Files not listed keep their order, after these. A stale list costs balance, never a test.
LONGEST_FIRST = [
    "tests/e2e/test_lessons_in_browser.py",  # 94 s
    "tests/grading/test_grade.py",  # 82
    "tests/grading/test_shards.py",  # 38 (+39 for the two on a real Slurm)
    "tests/grading/test_nbgrader_course.py",  # 61
    "tests/e2e/test_tabs_in_browser.py",  # 60
    "tests/grading/test_recorded_inputs.py",  # 52
    "tests/grading/test_gradescope_package.py",  # 51
    "tests/e2e/test_hub_in_browser.py",  # 44
    "tests/checking/test_exercises.py",  # 37
    "tests/grading/test_containment.py",  # 35
    "tests/mutation/test_check_score.py",  # 34
    "tests/grading/test_gradebook_rules.py",  # 34
    "tests/grading/test_gradebook.py",  # 34
    "tests/e2e/test_exercise_path_in_browser.py",  # 33
    "tests/grading/test_lms_classes.py",  # 33
    "tests/grading/test_interrupt.py",  # 31
    "tests/grading/test_pool.py",  # 27
    "tests/checking/test_mutants.py",  # 23
    "tests/e2e/test_make_lab_in_browser.py",  # 22
    "tests/grading/test_memory.py",  # 22
    "tests/checking/test_replay.py",  # 21
    "tests/checking/test_counterexamples.py",  # 20
    "tests/e2e/test_home_folder_in_browser.py",  # 16
]


def pytest_configure(config):
    """Point nbval at the repository's sanitize file unless one was given on the command line; keep the order
    of pytest_collection_modifyitems below when xdist distributes the files."""
    if getattr(config.option, "nbval_sanitize_with", "unset") is None:
        config.option.nbval_sanitize_with = str(ROOT / "tests" / "nbval_sanitize.cfg")
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False  # xdist would put files with the most tests first instead
    if "WORKBOOK_GRADER_CACHE" not in os.environ:  # the graders the tests run keep their warm-ups here, not in ~/.cache
        os.environ["WORKBOOK_GRADER_CACHE"] = config._workbook_warmups = tempfile.mkdtemp(prefix="workbook-warm-ups-")


def pytest_unconfigure(config):
    """Remove the tests' own folder of kept warm-ups (packer.grading.warmups)."""
    made = getattr(config, "_workbook_warmups", None)
    if made:
        shutil.rmtree(made, ignore_errors=True)
        os.environ.pop("WORKBOOK_GRADER_CACHE", None)


def pytest_collection_modifyitems(session, config, items):
    """The files of LONGEST_FIRST first, in its order; every other test after them, in the order collected."""
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}

    def key(item):
        path = Path(str(item.fspath)).resolve()
        name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        return rank.get(name, len(rank))

    items[:] = sorted(items, key=key)  # stable: within a file, and among the files not listed, nothing moves
