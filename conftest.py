"""Root pytest configuration: nbval's sanitize file is found from any working folder, the longest test files run
first, the graders the tests start keep their warm-ups in a folder of the test run's own, and a test that needs a
system part this machine lacks (tests/system_parts.py) is skipped with the reason, the run saying so at its start
and in its last lines."""

import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests"))
import system_parts  # noqa: E402  (tests/system_parts.py: the parts, and what installs them)

NEEDS_REPORTS = "WORKBOOK_NEEDS_REPORTS"  # a folder where each xdist worker writes what it will skip, for the start

# The test files that take longest, longest first (seconds on one of `make test`'s two workers, measured in a clean
# clone on a quiet 2-core machine, 2026-12-07). pytest-xdist hands whole files (--dist loadfile) to whichever worker
# is free, in collection order once its own reordering by number of tests is off: started first, no long file is
# left for one worker at the end while the other has nothing to do (in the order xdist chose, the last minute and a
# half ran on one worker). Files not listed keep their order, after these. A stale list costs balance, never a test.
LONGEST_FIRST = [
    "tests/e2e/test_site_accessibility.py",  # 125 s (the site built, then axe on every page at two widths)
    "tests/e2e/test_lessons_in_browser.py",  # 117
    "tests/mutation/test_check_score.py",  # 77 (check-mutation, then three questions in a site-packages install)
    "tests/mutation/test_score.py",  # 66 (make mutation on packer/utf8.py: the core tests once, then 7 mutants)
    "tests/grading/test_grade.py",  # 66
    "tests/e2e/test_hub_in_browser.py",  # 55
    "tests/grading/test_site_packages_install.py",  # 45 (two graders, one in a site-packages install)
    "tests/grading/test_nbgrader_course.py",  # 38
    "tests/grading/test_shards.py",  # 38 (with the two on a real Slurm)
    "tests/checking/test_exercises.py",  # 36
    "tests/checking/test_mutants.py",  # 33
    "tests/e2e/test_practice_in_browser.py",  # 30
    "tests/test_site.py",  # 29
    "tests/e2e/test_tabs_in_browser.py",  # 29
    "tests/e2e/test_site_in_browser.py",  # 28
    "tests/grading/test_recorded_inputs.py",  # 27
    "tests/checking/test_replay.py",  # 23
    "tests/checking/test_search.py",  # 23 (a kernel and six processes, each generating one question's inputs)
    "tests/checking/test_checks.py",  # 22
    "tests/mutation/test_mutate.py",  # 18
    "tests/grading/test_gradebook_rules.py",  # 18
    "tests/e2e/test_exercise_path_in_browser.py",  # 17
    "tests/grading/test_interrupt.py",  # 17
    "tests/grading/test_gradebook.py",  # 16
    "tests/e2e/test_home_folder_in_browser.py",  # 15
    "tests/grading/test_cell_limits.py",  # 14
    "tests/mutation/test_learner.py",  # 14
    "tests/grading/test_containment.py",  # 12
]


def pytest_configure(config):
    """Point nbval at the repository's sanitize file unless one was given on the command line; keep the order
    of pytest_collection_modifyitems below when xdist distributes the files."""
    if getattr(config.option, "nbval_sanitize_with", "unset") is None:
        config.option.nbval_sanitize_with = str(ROOT / "tests" / "nbval_sanitize.cfg")
    if getattr(config.option, "nbval_kernel_name", None):  # make test: the learner set's kernel (Makefile)
        config.option.nbval_current_env = False  # else addopts' --nbval-current-env wins over the kernel named
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False  # xdist would put files with the most tests first instead
    config.addinivalue_line(
        "markers", "load: run with the machine saturated on purpose; make test runs these on their own, after the rest"
    )
    config.addinivalue_line(
        "markers", "needs(part, ...): the test needs a system part (tests/system_parts.py); skipped where it is missing"
    )
    if not hasattr(config, "workerinput") and NEEDS_REPORTS not in os.environ:  # before xdist starts its workers
        os.environ[NEEDS_REPORTS] = config._workbook_needs = tempfile.mkdtemp(prefix="workbook-needs-")
    if "WORKBOOK_GRADER_CACHE" not in os.environ:  # the graders the tests run keep their warm-ups here, not in ~/.cache
        os.environ["WORKBOOK_GRADER_CACHE"] = config._workbook_warmups = tempfile.mkdtemp(prefix="workbook-warm-ups-")


@pytest.fixture(scope="session")
def notebook_kernel(pytestconfig) -> str:
    """The kernel a test runs a lesson's or an exercise's notebook in: the one nbval runs the notebooks in when
    named (--nbval-kernel-name; make test names the learner set's), else this environment's python3."""
    return getattr(pytestconfig.option, "nbval_kernel_name", None) or "python3"


def pytest_unconfigure(config):
    """Remove the tests' own folder of kept warm-ups (packer.grading.warmups)."""
    made = getattr(config, "_workbook_warmups", None)
    if made:
        shutil.rmtree(made, ignore_errors=True)
        os.environ.pop("WORKBOOK_GRADER_CACHE", None)
    made = getattr(config, "_workbook_needs", None)
    if made:
        shutil.rmtree(made, ignore_errors=True)
        os.environ.pop(NEEDS_REPORTS, None)


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected: the counts are of the tests that run
def pytest_collection_modifyitems(session, config, items):
    """The files of LONGEST_FIRST first, in its order; every other test after them, in the order collected."""
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}

    def key(item):
        path = Path(str(item.fspath)).resolve()
        name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        return rank.get(name, len(rank))

    items[:] = sorted(items, key=key)  # stable: within a file, and among the files not listed, nothing moves
    skip_what_this_machine_lacks(config, items)


def needed_parts(item) -> list[str]:
    """The system parts a test needs: its `needs` markers, and Chromium for a test that uses the browser."""
    keys = [key for mark in item.iter_markers("needs") for key in mark.args]
    if "chromium" in getattr(item, "fixturenames", ()):
        keys.append("chromium")
    unknown = sorted(set(keys) - set(system_parts.BY_KEY))
    if unknown:
        raise pytest.UsageError(f"{item.nodeid}: needs({', '.join(unknown)}): no such part in tests/system_parts.py")
    return list(dict.fromkeys(keys))


def skip_what_this_machine_lacks(config, items) -> None:
    """Skip each test that needs a missing part, saying which and what installs it; count them for the start."""
    counts: Counter = Counter()
    for item in items:
        missing = [key for key in needed_parts(item) if system_parts.why_missing(key)]
        if missing:
            item.add_marker(pytest.mark.skip(reason=system_parts.skip_reason(missing)))
            item.user_properties.extend(("needs missing", key) for key in missing)
            counts.update(missing)
    config._workbook_will_skip = dict(counts)
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker and os.environ.get(NEEDS_REPORTS):
        Path(os.environ[NEEDS_REPORTS], f"{worker}.json").write_text(json.dumps(counts))


def _say(config, lines: list[str]) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line("")
        for line in lines:
            reporter.write_line(line, yellow=True, bold=line is lines[0])


def pytest_collection_finish(session):
    """Without xdist: what this machine lacks, before the first test runs."""
    config = session.config
    will_skip = getattr(config, "_workbook_will_skip", {})
    if not hasattr(config, "workerinput") and will_skip:  # (a run of tests that need no part has nothing to say)
        _say(config, system_parts.missing_block(will_skip, "will skip"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """With xdist: the same, once, when the first worker has collected (each collects every test)."""
    config = node.config
    if getattr(config, "_workbook_said_start", False):
        return
    config._workbook_said_start = True
    report = Path(os.environ.get(NEEDS_REPORTS, ""), f"{node.gateway.id}.json")
    counts = json.loads(report.read_text()) if report.is_file() else {}
    if counts:
        _say(config, system_parts.missing_block(counts, "will skip"))


@pytest.hookimpl(wrapper=True, tryfirst=True)  # outermost: after pytest's short test summary, before its last line
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """In the last lines: what this run could not test, counted from the tests that did skip for it."""
    result = yield
    if hasattr(config, "workerinput") or not any(system_parts.why_missing(p.key) for p in system_parts.PARTS):
        return result
    counts: Counter = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        counts.update(value for name, value in getattr(report, "user_properties", ()) if name == "needs missing")
    if not counts:  # no test of this run needed a missing part
        return result
    lines = system_parts.missing_block(dict(counts), "skipped")
    terminalreporter.write_sep("=", "what this machine could not test", yellow=True)
    for line in lines:
        terminalreporter.write_line(line, yellow=True)
    return result
