"""The class report (report.md), read by an instructor: the statuses of every submission, then each lesson (the
assignment) on its own, with its scores, its questions' results and what its class misunderstands: the input
most wrong answers disagreed on with each distinct wrong result and how many gave it, a prediction's wrong values
(a prediction has no input), and an answer whose cell raised counted as 'did not run', apart from 'not
attempted'. Made from rows written here, no kernel."""

from __future__ import annotations

from class_files import result
from packer.grading.outcome import Outcome
from packer.grading.reports import figure_files, report_markdown

EXAMPLE = "assemble_context([{'text': 'alpha', 'token_count': 40}], 30)"


def lesson_01(name: str, actual: str | None, prediction: str | None = None, example: str = EXAMPLE) -> Outcome:
    """A lesson-01 row: q1.1 right (actual None) or wrong on `example`, q1.5 right or a wrong prediction."""
    q11 = (
        result("q1.1", "assemble_context", "passed", 3, 3)
        if actual is None
        else result(
            "q1.1", "assemble_context", "failed", 0, 3, counterexample=example, expected="('', 0)", actual=actual
        )
    )
    q15 = (
        result("q1.5", "predict_q1_5", "passed", 1, 1)
        if prediction is None
        else result("q1.5", "predict_q1_5", "failed", 0, 1, detail="wrong", actual=prediction)
    )
    return Outcome(f"class/{name}.ipynb", "", "0", "01_assemble_context", "graded", results=[q11, q15], learner=name)


def a_class() -> list[Outcome]:
    """Four wrong answers to q1.1, three on one input with two different results; two wrong predictions; a
    lesson-02 learner whose answer did not run; a superseded submission, which counts nowhere."""
    rows = [
        lesson_01("ana", "('alpha', 40)", "('intro', 25)"),
        lesson_01("ben", "('alpha', 40)", "('intro', 25)"),
        lesson_01("cy", "raised ZeroDivisionError: division by zero"),
        lesson_01("dee", "('', 1)", example="assemble_context([], 0)"),
        lesson_01("eve", None),
    ]
    rows.append(
        Outcome(
            "class/fay.ipynb",
            "",
            "0",
            "02_prompt_packer",
            "graded",
            results=[
                result("q2.1", "fits_prompt", "passed", 3, 3),
                result("q2.2", "prompt_packer", "did not run", 0, 5, detail="did not run: cell 7 raised SyntaxError"),
            ],
            learner="fay",
        )
    )
    earlier = lesson_01("eve", "('x', 0)")
    earlier.name, earlier.superseded_by = "class/eve-first.ipynb", "class/eve.ipynb"
    return [*rows, earlier]


def section(report: str, heading: str) -> str:
    """The part of the report under `heading`, up to the next heading of its level or above."""
    level = heading.split(" ")[0]
    start = report.index(heading + "\n")
    ends = [report.find("\n" + "#" * n + " ", start + 1) for n in range(1, len(level) + 1)]
    ends = [end for end in ends if end != -1]
    return report[start : min(ends) if ends else len(report)]


def test_each_lesson_has_its_own_scores_and_questions_and_the_status_table_counts_every_submission():
    report = report_markdown(a_class())
    assert "| graded | 7 |" in section(report, "## Status")
    one, two = section(report, "## 01_assemble_context"), section(report, "## 02_prompt_packer")
    assert "5 submissions count for this lesson." in one and "1 submission counts for this lesson." in two
    assert "| 0 / 4 | 2 |" in one and "| 1 / 4 | 2 |" in one and "| 4 / 4 | 1 |" in one and "/ 8 |" not in one
    assert "| 3 / 8 | 1 |" in two and "/ 4 |" not in two
    assert "![score distribution, 01_assemble_context](report/01_assemble_context/scores.png)" in one
    assert "| q1.1 assemble_context | 1 | 4 | 0 | 0 | 0 | 20% |" in one and "q2." not in one


def test_an_answer_whose_cell_raised_did_not_run_and_is_counted_apart_from_not_attempted():
    two = section(report_markdown(a_class()), "## 02_prompt_packer")
    assert "| question | passed | failed | did not run | not attempted | not graded | pass rate |" in two
    assert "| q2.2 prompt_packer | 0 | 0 | 1 | 0 | 0 | 0% |" in two


def test_the_input_most_wrong_answers_disagreed_on_is_shown_with_each_distinct_result_and_its_count():
    q11 = section(report_markdown(a_class()), "#### q1.1 assemble_context: 4 failing answers")
    assert (
        "3 of them disagreed with the reference on this input; each result they gave instead, with how many gave it:"
        in q11
    )
    assert (
        "```text\n"
        f"input:     {EXAMPLE}\n"
        "expected:  ('', 0)\n"
        "2 answers: ('alpha', 40)\n"
        "1 answer:  raised ZeroDivisionError: division by zero\n"
        "```"
    ) in q11
    assert "1 other answer disagreed on 1 other input" in q11
    assert "('x', 0)" not in q11  # the superseded submission counts nowhere


def test_a_predictions_failures_are_explained_and_its_wrong_values_counted():
    q15 = section(report_markdown(a_class()), "#### q1.5 predict_q1_5: 2 failing answers")
    assert "q1.5 is a prediction: it has no input, and its expected value is not shown here" in q15
    assert "```text\n2 answers: ('intro', 25)\n```" in q15


def test_each_lesson_has_its_own_two_figures():
    assert [name for name, png in figure_files(a_class()) if png.startswith(b"\x89PNG")] == [
        "report/01_assemble_context/scores.png",
        "report/01_assemble_context/questions.png",
        "report/02_prompt_packer/scores.png",
        "report/02_prompt_packer/questions.png",
    ]
