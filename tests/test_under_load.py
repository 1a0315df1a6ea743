"""A correct answer never loses points because the machine was busy (run by `make test` on its own, after the
rest of the suite: the load would slow every other test down).

While this module runs, twice as many processes as there are cores do nothing but spin (tests/load.py). The
grader's limits count each kernel's CPU time, and the self-checks' limit each call's, so the load may stretch the
clock but not the limits: every worked answer still earns full marks from both, without being retried, and a
submission that loops for ever is still stopped, with a note of the same kind as on an idle machine (it was working:
stopped by its CPU time, or by the backstop on the clock because the machine was busy; never "waiting")."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from load import saturated

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "grading"))
sys.path.insert(0, str(ROOT / "tests" / "checking"))
from grader_cli import grade_cli  # noqa: E402
from test_cell_limits import STOPPED, kind  # noqa: E402
from test_exercises import LESSONS, assert_solution_earns_full_marks  # noqa: E402

from packer.checking.exercises import solution_name  # noqa: E402
from packer.grading.demo_class import write_submission  # noqa: E402

pytestmark = pytest.mark.load
# CPU seconds a cell or a check may use: below the grader's default (10), to keep the looping submissions short, and
# over twice what the heaviest cell of a worked answer uses when the machine is quiet (solution 09's Mistral v7 cell,
# about 2.5 s with its tokenizer's loading). A saturated machine's shared caches make the same work cost more CPU
# time: that cell once used 5.1 s here under the load, over the 5 s this limit was.
LIMIT = 8
LOOPING = ("runaway", "loops-when-checked")  # a cell that never ends; an answer that never returns when checked


@pytest.fixture(scope="module", autouse=True)
def busy_machine():
    with saturated() as spinners:
        yield spinners
    assert all(spinner.returncode is not None for spinner in spinners), "a spinning process was left running"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    for lesson in LESSONS:
        name = solution_name(lesson)
        (folder / name).write_bytes((ROOT / "solutions" / name).read_bytes())
    for looping in LOOPING:
        write_submission(folder, looping, looping)
    out = tmp_path_factory.mktemp("grades")
    run = grade_cli(str(folder), "--out", str(out), "--jobs", "2", "--timeout", str(LIMIT), timeout=1500)
    assert run.returncode == 0, run.stderr
    book = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    return {Path(row["submission"]).stem: row for row in book["submissions"]}


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_worked_answer_earns_full_marks_from_the_grader_on_a_busy_machine(graded, lesson):
    row = graded[Path(solution_name(lesson)).stem]
    assert (row["status"], row["score"]) == ("graded", row["max_score"]), row
    assert not any("ran past" in note or "a second time" in note for note in row["notes"]), row["notes"]


@pytest.mark.parametrize("looping", LOOPING)
def test_a_submission_that_loops_for_ever_is_still_stopped_with_a_note_of_the_same_kind(graded, looping):
    row = graded[looping]
    assert row["status"] == "timeout", row
    stopped = [note for note in row["notes"] if STOPPED.search(note)]
    assert [kind(note) for note in stopped] == ["working"], row["notes"]  # as in tests/grading/test_cell_limits.py
    assert any(note.startswith("graded a second time, on its own") for note in row["notes"]), row["notes"]


def test_a_runaway_cell_is_stopped_and_named_and_every_answer_still_counts(graded):
    """The loop was interrupted and the notebook's every answer still checked (the kind that ignores the
    interrupt is graded in tests/grading/test_grade.py)."""
    row = graded["runaway"]
    assert any("ran past the" in note and "(q1.3), which starts `while True:`" in note for note in row["notes"]), row
    assert row["score"] == row["max_score"] > 0, row


def test_an_answer_that_loops_forever_when_checked_loses_only_that_question(graded):
    row = graded["loops-when-checked"]
    test = next(t for t in row["tests"] if t["qid"] == "q1.3")
    assert test["score"] == 0 and any("checking q1.3 ran past" in note for note in row["notes"]), row["notes"]
    assert row["score"] == row["max_score"] - test["max_score"] > 0, row


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_worked_answer_passes_its_self_checks_on_a_busy_machine(lesson):
    assert_solution_earns_full_marks(lesson)
