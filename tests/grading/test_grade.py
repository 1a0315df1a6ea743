"""The instructor's grader: every submission gets a row with the right status, the batch never crashes.

One class is graded once per test session (each hostile kind, the solutions, the untouched exercises
and the wrong answers of the mutant library), then each test reads the gradebook it produced.
"""

from __future__ import annotations

import csv
import hashlib
import inspect
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest

import packer.grading.grader as grade
from packer.grading.demo_class import KINDS, LESSON, definition_cell, solution, write_submission
from packer.checking.exercises import to_exercise

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "checking"))
from test_mutants import MUTANTS  # noqa: E402  (the same wrong answers the self-checks must catch)

LESSON_01_MUTANTS = [(qid, why, fn) for qid, why, fn in MUTANTS if qid.startswith("q1.") and qid != "q1.5"]
TIMEOUT = 3


def mutant_notebook(qid: str, function) -> nbformat.NotebookNode:
    """The lesson-01 solution with one answer replaced by a wrong one from the mutant library."""
    from packer.checking import question

    notebook = solution()
    name = question(qid).name
    source = textwrap.dedent(inspect.getsource(function)).split("\n", 1)[1]  # drop the @mutant line
    source = source.replace(f"def {function.__name__}(", f"def {name}(", 1)
    helpers = inspect.getsource(sys.modules["test_mutants"]).split("# --- lesson 01")[0]
    definition_cell(notebook, name).source = helpers + "\n\n" + source
    return notebook


@pytest.fixture(scope="session")
def gradebook(tmp_path_factory):
    """Grade a class made of every kind of submission; return (outcomes by name, output folder, inputs)."""
    folder = tmp_path_factory.mktemp("class")
    for kind in KINDS:
        write_submission(folder, kind, kind)
    for number, (qid, _, function) in enumerate(LESSON_01_MUTANTS):
        path = folder / f"mutant{number:02d}-{qid}.ipynb"
        path.write_text(nbformat.writes(mutant_notebook(qid, function)))
    for lesson in ("01_assemble_context", "02_prompt_packer", "03_utf8_packer", "04_section_budget", "05_counting_units"):
        (folder / f"solution-{lesson}.ipynb").write_bytes((ROOT / "solutions" / f"{lesson}.ipynb").read_bytes())
        (folder / f"exercise-{lesson}.ipynb").write_bytes((ROOT / "exercises" / f"{lesson}.ipynb").read_bytes())
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}
    out = tmp_path_factory.mktemp("grades")
    run = subprocess.run([sys.executable, "-m", "packer.grading", str(folder), "--out", str(out), "--jobs", "2",
                          "--timeout", str(TIMEOUT)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    data = json.loads((out / "grades.json").read_text())
    return {s["submission"]: s for s in data["submissions"]}, out, folder, before, run


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_of_submission_gets_its_status(gradebook, kind):
    rows, *_ = gradebook
    assert rows[f"{kind}.ipynb"]["status"] == KINDS[kind][0], rows[f"{kind}.ipynb"]["output"]


def test_correct_work_gets_full_marks_and_every_solution_too(gradebook):
    rows, *_ = gradebook
    for name in ["correct.ipynb"] + [n for n in rows if n.startswith("solution-")]:
        assert rows[name]["status"] == "graded" and rows[name]["score"] == rows[name]["max_score"] > 0, name


def test_untouched_exercises_score_zero_with_every_question_not_attempted(gradebook):
    rows, *_ = gradebook
    for name in [n for n in rows if n.startswith("exercise-")]:
        assert rows[name]["status"] == "no answers" and rows[name]["score"] == 0
        assert {t["status"] for t in rows[name]["tests"]} == {"not attempted"}


@pytest.mark.parametrize("number, qid, why", [(n, q, w) for n, (q, w, _) in enumerate(LESSON_01_MUTANTS)])
def test_every_wrong_answer_loses_its_question_with_a_counterexample(gradebook, number, qid, why):
    rows, *_ = gradebook
    row = rows[f"mutant{number:02d}-{qid}.ipynb"]
    test = next(t for t in row["tests"] if t["qid"] == qid)
    assert test["score"] == 0 and test["status"] == "failed", why
    assert test["counterexample"] and "input:" in test["output"] and "expected:" in test["output"]


def test_a_runaway_cell_is_stopped_and_named_and_the_rest_still_counts(gradebook):
    rows, *_ = gradebook
    row = rows["runaway.ipynb"]
    assert any(f"ran past the {TIMEOUT} s cell limit" in note and "(q1.3)" in note for note in row["notes"])
    assert row["score"] == row["max_score"]  # the loop was interrupted; every answer was still checked


def test_a_cell_that_ignores_the_interrupt_is_cut_off_and_the_batch_goes_on(gradebook):
    rows, *_ = gradebook
    row = rows["unstoppable.ipynb"]
    assert any("ran past" in note and "(q1.3)" in note for note in row["notes"])
    assert row["score"] == 0 and {t["status"] for t in row["tests"]} == {"not attempted"}


def test_an_answer_that_loops_forever_when_checked_loses_only_that_question(gradebook):
    rows, *_ = gradebook
    row = rows["loops-when-checked.ipynb"]
    test = next(t for t in row["tests"] if t["qid"] == "q1.3")
    assert test["score"] == 0 and any("checking q1.3 ran past" in note for note in row["notes"])
    assert row["score"] == row["max_score"] - test["max_score"]


def test_a_dying_kernel_costs_only_that_submission(gradebook):
    rows, *_ = gradebook
    assert rows["kernel-dies.ipynb"]["score"] == 0
    assert any("kernel died" in note for note in rows["kernel-dies.ipynb"]["notes"])
    assert rows["correct.ipynb"]["status"] == "graded"


def test_unreadable_files_are_reported_not_run(gradebook):
    rows, *_ = gradebook
    for name in ("not-json.ipynb", "not-a-notebook.ipynb"):
        assert rows[name]["status"] == "unreadable" and "not a readable notebook" in rows[name]["output"]


def test_an_answer_that_raises_is_feedback_not_a_crash(gradebook):
    rows, *_ = gradebook
    test = next(t for t in rows["raises.ipynb"]["tests"] if t["qid"] == "q1.3")
    assert test["score"] == 0 and "ZeroDivisionError" in test["output"]
    assert rows["raises.ipynb"]["score"] == rows["raises.ipynb"]["max_score"] - test["max_score"]


def test_huge_output_is_cut_and_the_grade_kept(gradebook):
    rows, *_ = gradebook
    row = rows["huge-output.ipynb"]
    assert row["score"] == row["max_score"] and any("the rest was dropped" in n for n in row["notes"])


@pytest.mark.parametrize("kind, flag", [
    ("redefines-check", "redefined check"),
    ("patches-packer", "replaced packer.checking.run_check"),
    ("patches-packer", "replaced packer.assemble_context"),
    ("fake-results", "results files: grades.json"),
])
def test_tampering_is_flagged_and_graded_with_the_graders_own_checks(gradebook, kind, flag):
    rows, *_ = gradebook
    row = rows[f"{kind}.ipynb"]
    assert any(flag in f for f in row["flags"]), row["flags"]
    assert row["score"] == row["max_score"]  # the real answers are correct; the tampering changed nothing


def test_submissions_are_never_modified(gradebook):
    _, _, folder, before, _ = gradebook
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()} == before


def test_csv_has_a_row_per_submission_and_a_column_per_question(gradebook):
    rows, out, folder, *_ = gradebook
    table = list(csv.DictReader((out / "grades.csv").open()))
    assert [r["submission"] for r in table] == sorted(p.name for p in folder.iterdir())
    assert {"q1.1", "q1.5", "q2.4", "q4.5", "total", "max", "status", "flags"} <= set(table[0])
    correct = next(r for r in table if r["submission"] == "correct.ipynb")
    assert (correct["q1.1"], correct["total"], correct["max"]) == ("3", "10", "10")


def test_json_records_what_was_graded_with_for_an_audit(gradebook):
    rows, out, folder, *_ = gradebook
    data = json.loads((out / "grades.json").read_text())
    assert data["grader"]["checks_version"] == grade.checks_version()
    assert rows["correct.ipynb"]["sha256"] == hashlib.sha256((folder / "correct.ipynb").read_bytes()).hexdigest()
    assert {"score", "max_score", "output", "tests"} <= set(rows["correct.ipynb"])


def test_every_submission_has_a_feedback_report(gradebook):
    rows, out, *_ = gradebook
    reports = {p.name for p in (out / "feedback").iterdir()}
    assert reports == {grade.feedback_name(name) for name in rows}
    text = (out / "feedback" / grade.feedback_name("strict-comparison.ipynb")).read_text()
    assert "FAILED" in text and "input:" in text


def test_progress_is_shown_for_every_submission(gradebook):
    rows, *_, run = gradebook
    assert run.stderr.count("] ") >= len(rows)


def test_regrading_gives_identical_gradebooks(tmp_path):
    for kind in ("correct", "strict-comparison"):
        write_submission(tmp_path / "class", kind, kind)
    outputs = []
    for attempt in range(2):
        out = tmp_path / f"out{attempt}"
        assert grade.main([str(tmp_path / "class"), "--out", str(out), "--jobs", "1"]) == 0
        outputs.append(((out / "grades.csv").read_bytes(), (out / "grades.json").read_bytes()))
    assert outputs[0] == outputs[1]


def test_a_crash_while_writing_leaves_the_previous_gradebook_whole(tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    (out / "grades.csv").write_text("previous gradebook\n")
    outcome = grade.Outcome("a.ipynb", "a.ipynb", "0", LESSON, "graded")

    def crash(_outcome):
        raise OSError("disk full")
    monkeypatch.setattr(grade, "to_markdown", crash)
    with pytest.raises(OSError):
        grade.write_reports([outcome], grade.Options(), out)
    assert (out / "grades.csv").read_text() == "previous gradebook\n"
    assert sorted(p.name for p in out.iterdir()) == ["grades.csv"]


def test_the_lesson_comes_from_metadata_or_the_file_name(tmp_path):
    notebook = to_exercise(nbformat.read(ROOT / "solutions" / f"{LESSON}.ipynb", as_version=4), LESSON)
    assert grade.lesson_of(notebook, "anything.ipynb") == LESSON
    notebook.metadata.pop("workbook")
    assert grade.lesson_of(notebook, "/x/03_my_copy.ipynb") == "03_utf8_packer"
    assert grade.lesson_of(notebook, "/x/alice-02_prompt.ipynb") == "02_prompt_packer"
    assert grade.lesson_of(notebook, "/x/homework.ipynb") == LESSON  # its check cells name q1.x
    notebook.cells = [nbformat.v4.new_code_cell("print('hello')")]
    assert grade.lesson_of(notebook, "/x/homework.ipynb") == ""


def test_a_notebook_of_no_known_lesson_gets_its_own_status(tmp_path):
    (tmp_path / "homework.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))
    assert grade.main([str(tmp_path), "--out", str(tmp_path / "out")]) == 0
    row = json.loads((tmp_path / "out" / "grades.json").read_text())["submissions"][0]
    assert row["status"] == "unknown lesson" and "which lesson" in row["output"]


def test_command_line_refuses_bad_options(tmp_path):
    for args in (["--jobs", "0"], ["--timeout", "0"]):
        with pytest.raises(SystemExit):
            grade.main([str(tmp_path), "--out", str(tmp_path / "o"), *args])
    with pytest.raises(SystemExit):
        grade.main([str(tmp_path), "--out", str(tmp_path / "o")])  # no notebooks there
