"""A learner's written answer is found by the cell the exercise made for it, never by what it starts with.

The exercise marks each open question's answer cell (`metadata.workbook.open_answer`, written by
packer/checking/exercises.py); an exercise handed in from before the mark is read by its place, the first Markdown
cell after the question. Either way an answer that starts with a heading, a list, a rule, HTML or a blank line is
kept whole. No kernel runs here: the class-level proof (the answers file of a graded class) is in test_gradebook.py.
"""

from __future__ import annotations

import pytest

from packer.checking.exercises import OPEN_ANSWER
from packer.grading.demo_class import exercise
from packer.grading.running import answer_cells, written_answers

STARTS = {
    "a heading": "# My answer\n\nStop at the first overflow when order matters.",
    "a list": "- first, the chunks build on each other\n- second, a gap misleads",
    "a rule": "---\n\nA rule above my answer.",
    "HTML": "<b>Bold</b> answer: order matters.",
    "a blank line": "\n\nAfter a blank line: order matters.",
    "a second-level heading": "## Why\n\nBecause order matters.",
}


def answered(first: str, second: str = "My second answer.", marks: bool = True):
    """Lesson 01's exercise with both answer cells filled in (with or without the exercise's marks)."""
    notebook = exercise()
    cells = [cell for cell in notebook.cells if cell.get("metadata", {}).get("workbook", {}).get(OPEN_ANSWER)]
    assert len(cells) == 2, "lesson 01's exercise has two marked answer cells"
    cells[0].source, cells[1].source = first, second
    if not marks:
        for cell in cells:
            cell.metadata.pop("workbook")
    return notebook


@pytest.mark.parametrize("marks", [True, False], ids=["marked exercise", "exercise from before the mark"])
@pytest.mark.parametrize("start", sorted(STARTS))
def test_an_answer_is_kept_whole_whatever_it_starts_with(start, marks):
    answers = written_answers(answered(STARTS[start], marks=marks))
    assert [a["answer"] for a in answers] == [STARTS[start].strip(), "My second answer."]
    assert "skip-and-continue" in answers[0]["question"] and "reserve" in answers[1]["question"]


def test_the_untouched_exercise_has_no_answers_and_marks_each_answer_cell():
    notebook = exercise()
    assert [a["answer"] for a in written_answers(notebook)] == ["", ""]
    marked = answer_cells(notebook)
    assert [notebook.cells[i].metadata["workbook"][OPEN_ANSWER] for i in marked] == [1, 2]
    assert all(notebook.cells[i - 1].source.startswith("### Open question") for i in marked)


def test_cells_the_learner_added_after_the_answer_cell_are_part_of_it():
    notebook = answered("# Part one\n\nFirst part.")
    index = answer_cells(notebook)[0]
    notebook.cells.insert(index + 1, notebook.cells[index].copy())
    notebook.cells[index + 1].metadata = {}
    notebook.cells[index + 1].source = "Second part, in a cell of its own."
    assert written_answers(notebook)[0]["answer"] == "# Part one\n\nFirst part.\n\nSecond part, in a cell of its own."


def test_an_nbgrader_release_is_read_by_nbgrader_s_mark_of_the_answer_cell():
    notebook = answered("# Heading first\n\nthen the answer.", marks=False)
    for index in answer_cells(notebook):
        notebook.cells[index].metadata["nbgrader"] = {"solution": True, "grade": True, "points": 0}
    notebook.cells.insert(0, notebook.cells[answer_cells(notebook)[0] - 1].copy())  # no heading-based guessing
    assert written_answers(notebook)[0]["answer"] == "# Heading first\n\nthen the answer."
