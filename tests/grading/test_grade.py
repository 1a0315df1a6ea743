"""The instructor's grader: every submission gets a row with the right status, the batch never crashes.

One class is graded once for this module (each hostile kind, a solution and an untouched exercise, the
wrong answers of the mutant library, detached children, a vandal and a notebook of no lesson), then each test
reads its gradebook; the kind that runs past the time limit and ignores the interrupt is graded in a small class
of its own, with a shorter limit, since it costs the grader that limit twice (the other two runaway kinds are
graded in tests/test_under_load.py). That grading the same files again gives the same gradebook is shown in test_shards.py, whose
shard runs grade the whole run's learners a second time.
"""

from __future__ import annotations

import csv
import hashlib
import inspect
import json
import os
import sys
import textwrap
import time
from pathlib import Path

import nbformat
import psutil
import pytest

import packer.grading.grader as grade
from grader_cli import grade_cli, grade_main
from packer.grading.gradebook import Gradebook
from packer.grading.demo_class import KINDS, LESSON, RUNAWAY, definition_cell, solution, with_cell, write_submission
from packer.checking import questions
from packer.checking.exercises import exercise_name, solution_name, to_exercise

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "checking"))
from test_mutants import MUTANTS  # noqa: E402  (the same wrong answers the self-checks must catch)

LESSON_01_MUTANTS = [(qid, why, fn) for qid, why, fn in MUTANTS if qid.startswith("q1.") and qid != "q1.5"]
# The class has the first wrong answer of each lesson-01 question: tests/checking/test_mutants.py shows in process
# that every one of them loses points; this is the grader's path (a kernel per notebook, the counterexample in
# the row), which one per question exercises as well as all twenty.
GRADED_MUTANTS = sorted({qid: (qid, why, fn) for qid, why, fn in reversed(LESSON_01_MUTANTS)}.values())
TIMEOUT = 10  # seconds per cell and per check: over 30 times what a correct check takes here (bench-checks), and
# twice what the slowest cell of any worked answer (solution 09's) took on a saturated machine (tests/test_under_load.py),
# so a loaded machine does not time out a correct notebook of this class
SOLUTION, EXERCISE = "02_prompt_packer", "05_counting_units"  # graded as a learner hands them in
# The runaway kind graded here; the other two (a cell that loops, an answer that loops when checked) are graded by
# this grader in tests/test_under_load.py, their status, notes and points checked there.
UNSTOPPABLE = ("unstoppable",)
RUNAWAY_TIMEOUT = 3  # the runaway kinds' own class, lesson 01 alone, whose cells each take under half a second: each
# runaway costs the grader this long twice (a timed-out row is graded again on its own), so not TIMEOUT


def mutant_source(qid: str, function) -> str:
    """The code of a cell answering `qid` with a wrong answer from the mutant library (its helpers included)."""
    from packer.checking import question

    name = question(qid).name
    source = textwrap.dedent(inspect.getsource(function)).split("\n", 1)[1]  # drop the @mutant line
    source = source.replace(f"def {function.__name__}(", f"def {name}(", 1)
    helpers = inspect.getsource(sys.modules["test_mutants"]).split("# --- lesson 01")[0]
    return helpers + "\n\n" + source


def mutant_notebook(qid: str, function) -> nbformat.NotebookNode:
    """The lesson-01 solution with one answer replaced by a wrong one from the mutant library."""
    from packer.checking import question

    notebook = solution()
    definition_cell(notebook, question(qid).name).source = mutant_source(qid, function)
    return notebook


# A right answer to q1.3 that prints 1,000 lines on stdout and one on stderr every time it is called.
PRINTS_WHEN_CHECKED = """import sys
_quiet = assemble_prefix
def assemble_prefix(chunks, max_tokens, separator="\\n\\n"):
    for line in range(1000):
        print("debug line", line)
    print("and one on stderr", file=sys.stderr)
    return _quiet(chunks, max_tokens, separator)"""

AFTER = 2  # seconds a detached child waits, once its kernel is gone, before it writes its mark


def detached_child(marker: Path, how: str) -> nbformat.NotebookNode:
    """The solution, plus a last cell that leaves a process behind: it waits for its kernel to end, then
    writes `marker` (so it proves it outlived the kernel however slow the machine)."""
    wait = (
        "import os, sys, time\nkernel = int(sys.argv[1])\n{detach}"
        "while True:\n    try:\n        os.kill(kernel, 0)\n    except ProcessLookupError:\n        break\n"
        f"    time.sleep(0.2)\ntime.sleep({AFTER})\nopen({str(marker)!r}, 'w').write('I outlived the grader')\n"
    )
    if how == "new session":
        code = (
            f"import os, subprocess, sys\nsubprocess.Popen([sys.executable, '-c', {wait.format(detach='')!r}, "
            "str(os.getpid())], start_new_session=True)"
        )
    else:  # a double fork with an empty environment: no parent, no group, no marks of its origin
        child = wait.format(detach="if os.fork():\n    os._exit(0)\nos.setsid()\n")
        code = (
            f"import os, subprocess, sys\nsubprocess.Popen([sys.executable, '-c', {child!r}, str(os.getpid())], "
            "env={})"
        )
    notebook = solution()
    notebook.cells.append(nbformat.v4.new_code_cell(code))
    return notebook


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory):
    """Grade a class made of every kind of submission; return (rows by file name, output folder, inputs, ...).

    Uncontained (--sandbox off), so that the grader's own safety nets are what is tested: killing each
    kernel's whole process tree and noticing a submission another one changed. tests/grading/
    test_containment.py grades hostile notebooks contained, where neither can happen at all."""
    folder = tmp_path_factory.mktemp("class")
    marks = tmp_path_factory.mktemp("marks")
    for kind in KINDS:
        if kind not in RUNAWAY:  # graded in a class of their own, with a shorter time limit (runaways below)
            write_submission(folder, kind, kind)
    write_submission(folder, "exits-again", "exits")
    for number, (qid, _, function) in enumerate(GRADED_MUTANTS):
        path = folder / f"mutant{number:02d}-{qid}.ipynb"
        path.write_text(nbformat.writes(mutant_notebook(qid, function)))
    # as learners hand them in, named as the workbook names them (solution_02_…, exercise_05_…): a solution and an
    # untouched exercise. Every solution is graded by this grader in tests/test_under_load.py, and every exercise
    # is run in a kernel and graded in tests/checking/test_exercises.py.
    for folder_name, name in (("solutions", solution_name(SOLUTION)), ("exercises", exercise_name(EXERCISE))):
        (folder / name).write_bytes((ROOT / folder_name / name).read_bytes())
    for how, name in (("new session", "detaches"), ("double fork", "double-forks")):
        (folder / f"{name}.ipynb").write_text(nbformat.writes(detached_child(marks / name, how)))
    (folder / "prints-when-checked.ipynb").write_text(nbformat.writes(with_cell(PRINTS_WHEN_CHECKED)))
    (folder / "homework.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))  # of no lesson it could tell
    write_submission(folder, "aaa-victim", "correct")  # graded first...
    vandal = solution()  # ...then changed by the last one
    vandal.cells.append(nbformat.v4.new_code_cell(f"open({str(folder / 'aaa-victim.ipynb')!r}, 'a').write(' ')"))
    (folder / "zzz-vandal.ipynb").write_text(nbformat.writes(vandal))
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}
    out = tmp_path_factory.mktemp("grades")
    run = grade_cli(
        str(folder), "--out", str(out), "--jobs", "2", "--timeout", str(TIMEOUT), "--sandbox", "off", timeout=900
    )
    finished = time.monotonic()
    assert run.returncode == 0, run.stderr
    data = json.loads((out / "grades.json").read_text())
    rows = {s["submission"].split("/", 1)[1]: s for s in data["submissions"]}
    return rows, out, folder, before, run, marks, finished


@pytest.fixture(scope="module")
def runaways(tmp_path_factory) -> dict[str, dict]:
    """The rows of a class of the runaway kind that ignores the interrupt and a correct notebook, graded with the
    time limit RUNAWAY_TIMEOUT."""
    folder = tmp_path_factory.mktemp("runaways")
    for kind in (*UNSTOPPABLE, "correct"):
        write_submission(folder, kind, kind)
    out = tmp_path_factory.mktemp("runaway-grades")
    run = grade_cli(
        str(folder),
        "--out",
        str(out),
        "--jobs",
        "2",
        "--timeout",
        str(RUNAWAY_TIMEOUT),
        "--sandbox",
        "off",
        timeout=900,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads((out / "grades.json").read_text())
    return {s["submission"].split("/", 1)[1]: s for s in data["submissions"]}


@pytest.mark.parametrize("kind", sorted(set(KINDS) - set(RUNAWAY)))
def test_each_kind_of_submission_gets_its_status(gradebook, kind):
    rows, *_ = gradebook
    assert rows[f"{kind}.ipynb"]["status"] == KINDS[kind][0], rows[f"{kind}.ipynb"]["output"]


@pytest.mark.parametrize("kind", [*UNSTOPPABLE, "correct"])
def test_each_runaway_kind_gets_its_status_and_a_correct_notebook_beside_them_its_points(runaways, kind):
    row = runaways[f"{kind}.ipynb"]
    assert row["status"] == KINDS[kind][0], row["output"]
    if kind == "correct":  # the short limit is no limit for cells that need it not
        assert row["score"] == row["max_score"] and row["notes"] == [], row["notes"]


def test_correct_work_gets_full_marks_and_a_solution_named_as_the_workbook_names_it_too(gradebook):
    rows, *_ = gradebook
    for name in ["correct.ipynb", solution_name(SOLUTION)]:
        assert rows[name]["status"] == "graded" and rows[name]["score"] == rows[name]["max_score"] > 0, name
    assert {t["qid"] for t in rows[solution_name(SOLUTION)]["tests"]} == {q.qid for q in questions(SOLUTION)}


def test_an_untouched_exercise_scores_zero_with_every_question_not_attempted(gradebook):
    rows, *_ = gradebook
    row = rows[exercise_name(EXERCISE)]
    assert row["status"] == "no answers" and row["score"] == 0
    assert [t["qid"] for t in row["tests"]] == [q.qid for q in questions(EXERCISE)]
    assert {t["status"] for t in row["tests"]} == {"not attempted"}


@pytest.mark.parametrize("number, qid, why", [(n, q, w) for n, (q, w, _) in enumerate(GRADED_MUTANTS)])
def test_every_wrong_answer_loses_its_question_with_a_counterexample(gradebook, number, qid, why):
    rows, *_ = gradebook
    row = rows[f"mutant{number:02d}-{qid}.ipynb"]
    test = next(t for t in row["tests"] if t["qid"] == qid)
    assert test["score"] == 0 and test["status"] == "failed", why
    assert test["counterexample"] and "input:" in test["output"] and "expected:" in test["output"]


def test_a_cell_that_ignores_the_interrupt_is_cut_off_and_the_answers_before_it_still_count(runaways):
    row = runaways["unstoppable.ipynb"]
    assert any(
        "ran past" in note and "(q1.3)" in note and "which starts `while True:`" in note for note in row["notes"]
    )
    status = {t["qid"]: t["status"] for t in row["tests"]}
    assert status["q1.1"] == status["q1.2"] == "passed"  # defined above the cell: re-run in a fresh kernel
    assert status["q1.3"] == "not graded"  # defined below it: grading never got there, and the row says so
    test = next(t for t in row["tests"] if t["qid"] == "q1.3")
    assert "not graded: cell 9 of" in test["output"] and "NOT ATTEMPTED" not in test["output"]


def test_a_dying_kernel_still_grades_the_answers_defined_before_it_died(gradebook):
    rows, *_ = gradebook
    row = rows["kernel-dies.ipynb"]
    assert row["status"] == "kernel died" and row["score"] == row["max_score"]
    assert any("kernel died while running cell" in note and "which starts `import os`" in note for note in row["notes"])
    assert rows["correct.ipynb"]["status"] == "graded"


def test_exit_in_the_last_cell_is_graded_in_full_the_same_every_time(gradebook):
    rows, *_ = gradebook
    for name in ("exits.ipynb", "exits-again.ipynb"):
        row = rows[name]
        assert (row["status"], row["score"], row["max_score"]) == ("graded", 10, 10), row["output"]
        assert any("called exit()" in note and "which starts `exit()`" in note for note in row["notes"])


def test_input_is_refused_at_once_with_a_clear_note(gradebook):
    rows, *_ = gradebook
    row = rows["asks-input.ipynb"]
    assert any("called input(): reading from stdin is not allowed" in note for note in row["notes"])
    assert not any("ran past" in note for note in row["notes"])  # it failed at once, not at the cell limit
    assert row["score"] == row["max_score"]


def test_saving_a_figure_or_a_csv_is_not_tampering(gradebook):
    rows, *_ = gradebook
    row = rows["saves-figure.ipynb"]
    assert row["status"] == "graded" and row["flags"] == []
    assert any("my_results.png" in note and "harmless" in note for note in row["notes"])


def test_no_process_a_submission_detached_outlives_the_grader(gradebook):
    rows, _, _, _, _, marks, finished = gradebook
    assert rows["detaches.ipynb"]["score"] == rows["double-forks.ipynb"]["score"] == 10
    survivors = []
    for process in psutil.process_iter(["cmdline"]):
        if str(marks) in " ".join(process.info["cmdline"] or []):
            survivors.append(process)
    assert survivors == []
    time.sleep(max(0.0, AFTER + 2 - (time.monotonic() - finished)))
    assert list(marks.iterdir()) == []


def test_a_submission_changed_by_another_during_grading_is_noted(gradebook):
    rows, *_, run, _, _ = gradebook
    row = rows["aaa-victim.ipynb"]
    assert any("changed (sha256" in note and "while the class was being graded" in note for note in row["notes"])
    assert "warning: class" in run.stderr and "aaa-victim.ipynb changed" in run.stderr


def test_unreadable_files_are_reported_not_run(gradebook):
    rows, *_ = gradebook
    for name in ("not-json.ipynb", "not-a-notebook.ipynb"):
        assert rows[name]["status"] == "unreadable" and "not a readable notebook" in rows[name]["output"]


def test_an_answer_that_raises_is_feedback_not_a_crash(gradebook):
    rows, *_ = gradebook
    test = next(t for t in rows["raises.ipynb"]["tests"] if t["qid"] == "q1.3")
    assert test["score"] == 0 and "ZeroDivisionError" in test["output"]
    assert rows["raises.ipynb"]["score"] == rows["raises.ipynb"]["max_score"] - test["max_score"]


def test_an_answer_that_prints_when_checked_is_graded_with_a_short_excerpt_in_its_feedback(gradebook):
    rows, out, *_ = gradebook
    row = rows["prints-when-checked.ipynb"]
    assert (row["status"], row["score"], row["max_score"]) == ("graded", 10, 10), row["output"]
    test = next(t for t in row["tests"] if t["qid"] == "q1.3")
    printed = test["printed_lines"]  # 1,001 lines for every input the answer was called on
    assert printed % 1001 == 0 and printed > 1001 * 100, test
    lines = test["output"].splitlines()
    assert lines[0] == "q1.3 assemble_prefix: PASSED (2/2 points)"
    assert lines[2:] == [
        f"  the answer printed {printed:,} lines while it was checked; the first 5:",
        *(f"  | debug line {n}" for n in range(5)),
        f"  | … and {printed - 5:,} more",
    ]
    feedback = (out / grade.feedback_name(row["submission"])).read_text()
    assert "\n".join(lines) in feedback and "debug line 5" not in feedback
    assert len(json.dumps(row)) < 20_000, "the gradebook row holds the excerpt, not the output"
    assert not any("the rest was dropped" in note for note in row["notes"])


def test_huge_output_is_cut_and_the_grade_kept(gradebook):
    rows, *_ = gradebook
    row = rows["huge-output.ipynb"]
    assert row["score"] == row["max_score"] and any("the rest was dropped" in n for n in row["notes"])


@pytest.mark.parametrize(
    "kind, flag",
    [
        ("redefines-check", "redefined check"),
        ("patches-packer", "replaced packer.checking.run_check"),
        ("patches-packer", "replaced packer.assemble_context"),
        ("fake-results", "names the grader's files"),
    ],
)
def test_tampering_is_flagged_and_graded_with_the_graders_own_checks(gradebook, kind, flag):
    rows, *_ = gradebook
    row = rows[f"{kind}.ipynb"]
    assert any(flag in f for f in row["flags"]), row["flags"]
    assert row["score"] == row["max_score"]  # the real answers are correct; the tampering changed nothing


def test_submissions_are_never_modified_by_the_grader(gradebook):
    _, _, folder, before, *_ = gradebook
    after = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}
    assert after.pop("aaa-victim.ipynb") != before.pop("aaa-victim.ipynb")  # the vandal's doing, not the grader's
    assert after == before


def test_csv_has_a_row_per_submission_and_a_column_per_question(gradebook):
    rows, out, folder, *_ = gradebook
    table = list(csv.DictReader((out / "grades.csv").open()))
    assert [r["submission"] for r in table] == sorted(f"{folder.name}/{p.name}" for p in folder.iterdir())
    assert {"learner", "late", "q1.1", "q1.5", "q2.4", "q5.4", "total", "max", "status", "flags"} <= set(table[0])
    correct = next(r for r in table if r["submission"] == f"{folder.name}/correct.ipynb")
    assert correct["learner"] == "correct"
    assert (correct["q1.1"], correct["total"], correct["max"]) == ("3", "10", "10")


def test_json_records_what_was_graded_with_for_an_audit(gradebook):
    rows, out, folder, *_ = gradebook
    data = json.loads((out / "grades.json").read_text())
    assert data["grader"]["checks_version"] == grade.checks_version()
    assert rows["correct.ipynb"]["checks_version"] == grade.checks_version()
    assert rows["correct.ipynb"]["sha256"] == hashlib.sha256((folder / "correct.ipynb").read_bytes()).hexdigest()
    assert {"score", "max_score", "output", "tests"} <= set(rows["correct.ipynb"])


def test_every_submission_has_a_feedback_report(gradebook):
    rows, out, *_ = gradebook
    reports = {p.relative_to(out).as_posix() for p in (out / "feedback").rglob("*.md")}
    assert reports == {grade.feedback_name(row["submission"]) for row in rows.values()}
    text = (out / grade.feedback_name(rows["strict-comparison.ipynb"]["submission"])).read_text()
    assert "FAILED" in text and "input:" in text


def test_progress_is_a_tqdm_bar_that_reaches_the_whole_class(gradebook):
    rows, *_, run, _, _ = gradebook
    assert f"{len(rows)}/{len(rows)} [" in run.stderr and "notebook/s" in run.stderr


def test_a_crash_while_writing_leaves_the_previous_gradebook_whole(tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    (out / "grades.csv").write_text("previous gradebook\n")
    outcome = grade.Outcome("a.ipynb", "a.ipynb", "0", LESSON, "graded")

    def crash(_outcome):
        raise OSError("disk full")

    monkeypatch.setattr("packer.grading.reports.to_markdown", crash)
    with pytest.raises(OSError):
        grade.write_gradebook(Gradebook({"a.ipynb": outcome}), grade.Options(), out, None)
    assert (out / "grades.csv").read_text() == "previous gradebook\n"
    assert sorted(p.name for p in out.iterdir()) == ["grades.csv"]


def test_the_lesson_comes_from_metadata_or_the_file_name(tmp_path):
    notebook = to_exercise(nbformat.read(ROOT / "solutions" / solution_name(LESSON), as_version=4), LESSON)
    assert grade.lesson_of(notebook, "anything.ipynb") == LESSON
    notebook.metadata.pop("workbook")
    assert grade.lesson_of(notebook, "/x/03_my_copy.ipynb") == "03_utf8_packer"
    assert grade.lesson_of(notebook, "/x/alice-02_prompt.ipynb") == "02_prompt_packer"
    assert grade.lesson_of(notebook, "/x/homework.ipynb") == LESSON  # its check cells name q1.x
    notebook.cells = [nbformat.v4.new_code_cell("print('hello')")]
    assert grade.lesson_of(notebook, "/x/homework.ipynb") == ""


def test_a_notebook_of_no_known_lesson_gets_its_own_status(gradebook):
    rows, *_ = gradebook
    row = rows["homework.ipynb"]
    assert row["status"] == "unknown lesson" and "which lesson" in row["output"]


def test_command_line_refuses_bad_options(tmp_path):
    for args in (["--jobs", "0"], ["--timeout", "0"]):
        with pytest.raises(SystemExit):
            grade_main([str(tmp_path), "--out", str(tmp_path / "o"), *args])
    with pytest.raises(SystemExit):
        grade_main([str(tmp_path), "--out", str(tmp_path / "o")])  # no notebooks there


def test_a_run_where_no_kernel_could_start_says_so_and_fails_so_a_batch_job_retries(tmp_path):
    """Every row written (a `grader error` each, with the cause), a loud line, and exit status 3."""
    spec = tmp_path / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {"argv": ["/nonexistent/python", "-f", "{connection_file}"], "display_name": "x", "language": "python"}
        )
    )
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("alice", "bob"):
        nbformat.write(solution(), folder / f"{name}-01_assemble_context.ipynb")
    run = grade_cli(
        str(folder),
        "--out",
        str(tmp_path / "grades"),
        "--sandbox",
        "off",
        env={**os.environ, "JUPYTER_PATH": str(tmp_path / "jupyter")},
        timeout=300,
    )
    assert run.returncode == 3, run.stderr[-2000:]
    assert "ERROR: no submission could be graded: the grader itself failed" in run.stderr
    assert "/nonexistent/python" in run.stderr
    rows = json.loads((tmp_path / "grades" / "grades.json").read_text(encoding="utf-8"))["submissions"]
    assert [row["status"] for row in rows] == ["grader error", "grader error"]
