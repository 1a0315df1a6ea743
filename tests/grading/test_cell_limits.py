"""The grader's time limits count the submission's own work: the CPU time of its kernel's process tree, with a
backstop on the clock for a cell that waits instead of working. A row a limit stopped is graded once more, alone.

One small class is graded once for the module, with limits small enough to watch: 1 CPU second a cell, and a
backstop on the clock of 3 seconds (--wall-factor 3)."""

from __future__ import annotations

import json

import pytest

from grader_cli import grade_main
from packer.grading.demo_class import solution, with_cell

import nbformat

CELLS = {
    "correct": None,
    "naps": "import time\ntime.sleep(2)  # longer than the cell limit on the clock, but no work",
    "sleeps": "import time\ntime.sleep(3600)  # waits for something that never comes",
    "spins": "while True:\n    pass",
}


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory):
    folder = tmp_path_factory.mktemp("limits")
    for name, source in CELLS.items():
        notebook = solution() if source is None else with_cell(source)
        (folder / "class").mkdir(exist_ok=True)
        (folder / "class" / f"{name}.ipynb").write_text(nbformat.writes(notebook), encoding="utf-8")
    out = folder / "grades"
    args = [str(folder / "class"), "--out", str(out), "--jobs", "2", "--timeout", "1", "--wall-factor", "3"]
    assert grade_main(args) == 0
    book = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    return book, {row["submission"].removeprefix("class/").removesuffix(".ipynb"): row for row in book["submissions"]}


def test_a_cell_that_waits_longer_than_the_limit_but_works_less_is_not_stopped(gradebook):
    _, rows = gradebook
    for name in ("correct", "naps"):
        row = rows[name]
        assert row["status"] == "graded" and row["score"] == row["max_score"], row
        assert not any("ran past" in note or "a second time" in note for note in row["notes"]), row["notes"]


def test_a_cell_that_works_past_the_limit_is_stopped_by_its_cpu_time(gradebook):
    row = gradebook[1]["spins"]
    assert row["status"] == "timeout", row
    assert any("ran past the 1 s cell limit of CPU time (--timeout) and was stopped" in note for note in row["notes"])


def test_a_cell_that_waits_for_ever_is_stopped_by_the_backstop_on_the_clock(gradebook):
    row = gradebook[1]["sleeps"]
    assert row["status"] == "timeout", row
    assert any(
        "ran past the 3 s cell backstop on the clock (3 × --timeout, --wall-factor; it was waiting, not working)"
        in note
        for note in row["notes"]
    ), row["notes"]


def test_a_row_a_limit_stopped_was_graded_a_second_time_on_its_own_and_says_so(gradebook):
    for name in ("sleeps", "spins"):
        row = gradebook[1][name]
        again = [note for note in row["notes"] if "a second time" in note]
        assert again == [
            "graded a second time, on its own, after a time limit stopped its first run (the first run: "
            f"{row['score']}/{row['max_score']} points, timeout); this row is the second run's"
        ], row["notes"]
        assert sum("ran past" in note for note in row["notes"]) == 1, "the notes are the second run's alone"


def test_the_gradebook_records_the_backstop_it_was_graded_with(gradebook):
    grader = gradebook[0]["grader"]
    assert (grader["cell_timeout"], grader["notebook_timeout"], grader["wall_factor"]) == (1.0, 60.0, 3.0)
