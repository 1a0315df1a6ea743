"""The class report (report.md), read by an instructor: the statuses of every submission, then each lesson (the
assignment) on its own, with its scores, its questions' results and what its class misunderstands: the input
most wrong answers disagreed on with each distinct wrong result and how many gave it, a prediction's wrong values
(a prediction has no input), and an answer whose cell raised counted as 'did not run', apart from 'not
attempted'. It leads with what most of the class got wrong, says when two questions fail on the same answers, names
who needs help and why, and gives pass rates over the submissions that ran. Made from rows written here, no
kernel."""

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
    assert (
        "5 submissions count for this lesson (5 ran)." in one and "1 submission counts for this lesson (1 ran)." in two
    )
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


def a_troubled_class() -> list[Outcome]:
    """Lesson 01 as the issue's hostile class had it: ana and ben fail q1.1 and q1.2 with one bug, cy's q1.3 fails,
    dee's answer has a syntax error, eve's loop timed out, fay's answer tried to delete files (the sandbox stopped
    it), gus tampered with the checks, and hal handed in an empty file and ivy a notebook with no cells."""

    def row(name: str, status: str = "graded", q11="passed", q12="passed", q13="passed", **more) -> Outcome:
        results = [
            result("q1.1", "assemble_context", q11, 3 if q11 == "passed" else 0, 3, **bug(q11, "free")),
            result("q1.2", "assemble_context", q12, 2 if q12 == "passed" else 0, 2, **bug(q12, "zero")),
            result("q1.3", "assemble_prefix", q13, 2 if q13 == "passed" else 0, 2, **bug(q13, "prefix")),
        ]
        written = [{"question": "When would you stop?", "answer": "# When order matters" if name < "c" else ""}]
        return Outcome(
            f"class/{name}.ipynb",
            "",
            "0",
            "01_assemble_context",
            status,
            results=results,
            learner=name,
            written=written,
            **more,
        )

    def bug(status: str, example: str) -> dict:
        if status == "failed":
            return {"counterexample": example, "expected": "('free', 0)", "actual": "('', 0)"}
        if status == "did not run":
            return {"detail": "did not run: cell 9 raised SyntaxError: '(' was never closed"}
        return {}

    return [
        row("ana", q11="failed", q12="failed"),
        row("ben", q11="failed", q12="failed"),
        row("cy", q13="failed"),
        row("dee", q13="did not run"),
        row("eve", "timeout", notes=["cell 22 of 22 (q1.5), which starts `while True:` ran past the 10 s cell limit"]),
        row("fay", notes=["cell 23 of 23 raised OSError: [Errno 30] Read-only file system: '/work/grades'"]),
        row("gus", "flagged", flags=["redefined check"]),
        row("hal", "unreadable", "not graded", "not graded", "not graded", notes=["the file is empty (0 bytes)"]),
        row("ivy", "no answers", "not attempted", "not attempted", "not attempted"),
    ]


def test_the_report_leads_with_what_most_of_the_class_got_wrong():
    lesson = section(report_markdown(a_troubled_class()), "## 01_assemble_context")
    assert lesson.index("### What the class misunderstands") < lesson.index("### Who needs help")
    assert lesson.index("### Who needs help") < lesson.index("### Scores")
    assert "Most failing answers: q1.1 assemble_context, 2 of the 7 submissions that ran." in lesson
    assert lesson.index("#### q1.1") < lesson.index("#### q1.2") < lesson.index("#### q1.3")


def test_two_questions_failing_on_the_same_answers_read_as_one_mistake():
    report = report_markdown(a_troubled_class())
    q12 = section(report, "#### q1.2 assemble_context: 2 failing answers")
    assert "These are the answers of the same 2 submissions that fail q1.1 (the same function)" in q12
    assert "fail q1." not in section(report, "#### q1.1 assemble_context: 2 failing answers")
    assert "fail q1." not in section(report, "#### q1.3 assemble_prefix: 1 failing answer")  # cy alone


def test_who_needs_help_names_each_learner_and_why():
    helped = section(report_markdown(a_troubled_class()), "### Who needs help")
    lines = [line for line in helped.splitlines() if line.startswith("- ")]
    assert [line.split("**")[1] for line in lines] == ["dee", "eve", "fay", "gus", "hal", "ivy"]
    said = dict(zip(["dee", "eve", "fay", "gus", "hal", "ivy"], lines))
    assert "q1.3 did not run: cell 9 raised SyntaxError" in said["dee"]
    assert "timed out: cell 22 of 22 (q1.5), which starts \\`while True:\\` ran past" in said["eve"]
    assert "tried something the sandbox stopped: cell 23 of 23 raised OSError" in said["fay"]
    assert "flagged: redefined check" in said["gus"]
    assert "could not be read: the file is empty (0 bytes)" in said["hal"] and "handed in no answer" in said["ivy"]


def test_pass_rates_count_only_the_submissions_that_ran():
    questions = section(report_markdown(a_troubled_class()), "### Questions")
    assert "| q1.1 assemble_context | 5 | 2 | 0 | 1 | 1 | 71% |" in questions  # 5 of the 7 that ran, not 5 of 9
    assert "| q1.3 assemble_prefix | 5 | 1 | 1 | 1 | 1 | 71% |" in questions
    assert "Pass rates are over the 7 submissions that ran; the 2 that did not" in questions


def test_the_open_answers_are_summarised_naming_the_file_that_lists_them():
    written = section(report_markdown(a_troubled_class()), "### Written answers")
    assert "- open question 1: 2 of 9 answered, in `answers/01_assemble_context/open-question-1.md`" in written
    assert "### Written answers" not in report_markdown(a_class())  # rows that carry no open question
