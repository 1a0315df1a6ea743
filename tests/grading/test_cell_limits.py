"""The grader's time limits count the submission's own work: the CPU time of its kernel's process tree, with a
backstop on the clock for a cell that waits instead of working. A row a limit stopped is graded once more, alone.
Its note says what was measured: the CPU time the cell got in the time it ran on the clock and, when the backstop
stopped it, why so little: the machine was busy, or the cell was waiting. So a cell that loops for ever gets a
note of the same kind at any load (tests/test_under_load.py grades one with the machine saturated).

One small class is graded once for the module, with limits small enough to watch: 1 CPU second a cell, and a
backstop on the clock of 3 seconds (--wall-factor 3)."""

from __future__ import annotations

import csv
import json
import re

import pytest

from grader_cli import grade_main
from packer.grading.cells import Options, Spent
from packer.grading.demo_class import solution, with_cell

import nbformat

# The note of a cell a time limit stopped: the limit, then what was measured, then why it got so little CPU time
# when the clock's backstop stopped it.
STOPPED = re.compile(
    r"ran past the (?P<limit>[\d.]+ s cell limit of CPU time \(--timeout\)|[\d.]+ s cell backstop on the clock "
    r"\([\d.]+ × --timeout, --wall-factor\)) and was stopped: it got (?P<cpu>[\d.]+) s of CPU time in "
    r"(?P<clock>[\d.]+) s on the clock(?P<why>: it was still working when stopped, and the machine was busy \(it "
    r"waited [\d.]+ s for a CPU\)|: the machine was busy \(it waited [\d.]+ s for a CPU\), and it was waiting, not "
    r"working, the rest of the time|: it was waiting, not working)?"
)


def kind(note: str) -> str:
    """What a time limit's note says the cell was doing: 'working' (it kept a CPU busy, or would have on an idle
    machine) or 'waiting' (a sleep, a read); '' for a note of another kind."""
    found = STOPPED.search(note)
    if not found:
        return ""
    return "waiting" if found["why"] and "waiting, not working" in found["why"] else "working"


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
    rows = {row["submission"].removeprefix("class/").removesuffix(".ipynb"): row for row in book["submissions"]}
    return book, rows, out


def test_a_cell_that_waits_longer_than_the_limit_but_works_less_is_not_stopped(gradebook):
    _, rows, _ = gradebook
    for name in ("correct", "naps"):
        row = rows[name]
        assert row["status"] == "graded" and row["score"] == row["max_score"], row
        assert not any("ran past" in note or "a second time" in note for note in row["notes"]), row["notes"]


def test_a_cell_that_works_past_the_limit_is_stopped_and_its_note_says_it_was_working_at_any_load(gradebook):
    row = gradebook[1]["spins"]
    assert row["status"] == "timeout", row
    notes = [STOPPED.search(note) for note in row["notes"] if STOPPED.search(note)]
    assert [kind(found[0]) for found in notes] == ["working"], row["notes"]
    if notes[0]["limit"] == "1 s cell limit of CPU time (--timeout)":
        assert float(notes[0]["cpu"]) >= 1.0
    else:  # a machine so busy that the backstop on the clock came first: the note says so
        why = notes[0]["why"] or ""
        assert why.startswith(": it was still working when stopped, and the machine was busy"), row["notes"]
        assert float(notes[0]["clock"]) >= 3.0, row["notes"]


def test_a_cell_that_waits_for_ever_is_stopped_by_the_backstop_on_the_clock(gradebook):
    row = gradebook[1]["sleeps"]
    assert row["status"] == "timeout", row
    notes = [STOPPED.search(note) for note in row["notes"] if STOPPED.search(note)]
    assert [(found["limit"], kind(found[0])) for found in notes] == [
        ("3 s cell backstop on the clock (3 × --timeout, --wall-factor)", "waiting")
    ], row["notes"]
    assert float(notes[0]["clock"]) >= 3.0 and float(notes[0]["cpu"]) < 1.0


def test_grades_csv_flags_say_why_a_row_lost_points_to_a_time_limit(gradebook):
    _, rows, out = gradebook
    table = {r["submission"]: r for r in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))}
    for name in ("spins", "sleeps"):
        flags = table[rows[name]["submission"]]["flags"]
        assert kind(flags) == ("working" if name == "spins" else "waiting"), flags


@pytest.mark.parametrize(
    "spent, measure, words",
    [
        (Spent(10.02, 10.31, 0.12), "cpu", "it got 10.0 s of CPU time in 10.3 s on the clock"),
        (
            Spent(5.81, 60.0, 53.7),
            "clock",
            "it got 5.8 s of CPU time in 60.0 s on the clock: it was still working when stopped, and the machine was "
            "busy (it waited 53.7 s for a CPU)",
        ),
        (  # the guide's tight settings on a busy machine: a loop that got 1.0 s while it waited 2.1 s for a CPU
            Spent(1.0, 3.0, 2.1),
            "clock",
            "it got 1.0 s of CPU time in 3.0 s on the clock: it was still working when stopped, and the machine was "
            "busy (it waited 2.1 s for a CPU)",
        ),
        (  # busy, but the cell mostly slept the time it was not waiting for a CPU
            Spent(0.2, 6.0, 3.0),
            "clock",
            "it got 0.2 s of CPU time in 6.0 s on the clock: the machine was busy (it waited 3.0 s for a CPU), and it "
            "was waiting, not working, the rest of the time",
        ),
        (
            Spent(0.01, 60.0, 0.2),
            "clock",
            "it got 0.0 s of CPU time in 60.0 s on the clock: it was waiting, not working",
        ),
        (Spent(0.01, 60.0, None), "clock", "it got 0.0 s of CPU time in 60.0 s on the clock"),
    ],
)
def test_a_time_limit_says_what_was_measured_and_why_the_cell_got_so_little(spent, measure, words):
    assert spent.words(measure) == words


def test_a_looping_cell_gets_a_note_of_the_same_kind_on_an_idle_machine_and_a_busy_one():
    options = Options(cell_timeout=10, wall_factor=6)
    idle = f"cell 3 ran past {options.limit_words('cell', 'cpu')} and was stopped: " + Spent(10.0, 10.2, 0.0).words(
        "cpu"
    )
    busy = f"cell 3 ran past {options.limit_words('cell', 'clock')} and was stopped: " + Spent(5.8, 60.0, 53.9).words(
        "clock"
    )
    assert kind(idle) == kind(busy) == "working"
    assert "waiting, not working" not in busy and "it was still working when stopped" in busy


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
