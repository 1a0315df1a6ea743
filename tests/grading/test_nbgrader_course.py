"""The workbook's exercises in a course that grades with nbgrader (make nbgrader; packer.grading.nbgrader_course).

nbgrader itself (the package this project installs) generates the lesson-01 assignment from the course `make
nbgrader` writes; the grader's demo class (each kind once, the runaway ones aside) and a wrong answer for each
question, all made on nbgrader's release, are laid out as nbgrader's `submitted/`; `nbgrader autograde` grades
them, and so does the workbook's own grader, from the same folder. Every learner gets the same points for every
question from both, except where the instructors' guide says why not (DIFFERENCES).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from packer.checking import questions
from packer.checking.exercises import exercise_name
from packer.grading.nbgrader_course import HANDED_IN, answered, grade_id, right_answers, write_course, write_demo_class

sys.path.insert(0, str(Path(__file__).resolve().parent))
from grader_cli import grader_command  # noqa: E402  (the workbook's grader, as an instructor runs it)
from nbgrader_demo import nbgrader_points  # noqa: E402  (nbgrader's points, read as make check-nbgrader reads them)
from test_grade import GRADED_MUTANTS, mutant_source  # noqa: E402  (the wrong answers the checks must catch)

ROOT = Path(__file__).resolve().parents[2]
LESSON = "01_assemble_context"
NOTEBOOK = exercise_name(LESSON)
BIN = Path(sys.executable).parent  # nbgrader runs `alembic` from the environment it is installed in


def wrong_answer(qid: str) -> tuple[str, str]:
    """(the function's name, a wrong answer's cell) for a question, from the mutant library."""
    qid_, _, function = next(m for m in GRADED_MUTANTS if m[0] == qid)
    name = next(q.name for q in questions(LESSON) if q.qid == qid_)
    return name, mutant_source(qid_, function)


ALL_RIGHT = right_answers(LESSON, ROOT)
# Of the demo class's kinds (make check-nbgrader grades all 40 learners, every kind): the right, wrong, half-done and
# untouched ones, the two where the graders differ, one that tampers and one that is not a notebook. And a wrong
# answer for each question those kinds leave right. nbgrader takes about 3 s a notebook here, so the class is small.
KINDS = [
    "correct",
    "strict-comparison",
    "half-done",
    "untouched",
    "raises",
    "kernel-dies",
    "patches-packer",
    "not-json",
]
WRONG = {
    **{f"wrong-{qid.replace('.', '-')}": ALL_RIGHT | dict([wrong_answer(qid)]) for qid in ("q1.2", "q1.3", "q1.4")},
    "wrong-prediction": ALL_RIGHT | {"predict_q1_5": 'def predict_q1_5():\n    return ("alpha | bravo", 70)'},
}
# Where the two graders differ, by kind: (nbgrader's points, the workbook's), and why (docs/instructors.md: "A course that grades
# with nbgrader"). raises: a cell after the test cells redefines assemble_prefix, and nbgrader checked q1.3 where
# its test cell stands, the workbook's grader the final definition. kernel-dies: the last cell ends the kernel;
# nbgrader cannot grade the notebook, the workbook's grader checks what the kernel had defined.
DIFFERENCES = {
    "raises": {"q1.3": (2, 0)},
    "kernel-dies": {"q1.1": (0, 3), "q1.2": (0, 2), "q1.3": (0, 2), "q1.4": (0, 2), "q1.5": (0, 1)},
}
NOT_GRADED_BY_NBGRADER = {"kernel-dies", "not-json"}  # nbgrader autograde reports an error for each


def nbgrader(course: Path, *args: str, may_fail: bool = False) -> subprocess.CompletedProcess:
    """Run nbgrader in the course folder; fail with its output if it fails (autograde exits 1 when it could not
    grade some notebooks: `may_fail`)."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    ran = subprocess.run(
        [str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True, timeout=900
    )
    assert ran.returncode == 0 or may_fail, f"nbgrader {' '.join(args)} failed:\n{ran.stdout}\n{ran.stderr}"
    return ran


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """(nbgrader's points, the workbook grader's points, {learner: kind}, nbgrader's output, the course folder):
    points by (learner, qid), None where nbgrader recorded none."""
    if not (BIN / "nbgrader").exists():
        pytest.skip(f"nbgrader tests skipped: no nbgrader in {BIN} (make venv installs it)")
    course = tmp_path_factory.mktemp("nbgrader") / "course"
    write_course(course, ROOT)
    nbgrader(course, "generate_assignment", LESSON)
    learners = write_demo_class(course, ROOT, size=len(KINDS), kinds=KINDS)
    release = nbformat.read(course / "release" / LESSON / NOTEBOOK, as_version=4)
    for learner, answers in WRONG.items():
        path = course / "submitted" / learner / LESSON / NOTEBOOK
        path.parent.mkdir(parents=True)
        nbformat.write(answered(release, answers), path)
        (path.parent / "timestamp.txt").write_text(HANDED_IN)
        learners[learner] = learner
    out = tmp_path_factory.mktemp("workbook-grades")
    # the workbook's grader reads the same submitted/ while nbgrader grades it (each writes only its own results)
    log = out.parent / "workbook-grader.log"
    with open(log, "wb") as sink:
        workbook = subprocess.Popen(
            grader_command(str(course / "submitted"), "--out", str(out)),
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        autograde = nbgrader(course, "autograde", LESSON, may_fail=True)
        workbook.wait(timeout=900)
    finally:
        if workbook.poll() is None:
            workbook.kill()
            workbook.wait()
    assert workbook.returncode == 0, log.read_text()

    by_nbgrader = nbgrader_points(course, list(learners))
    rows = {row["learner"]: row for row in json.loads((out / "grades.json").read_text())["submissions"]}
    by_workbook = {(learner, test["qid"]): test["score"] for learner, row in rows.items() for test in row["tests"]}
    return by_nbgrader, by_workbook, learners, autograde, course, rows


def test_the_course_has_one_assignment_per_lesson_with_nbgraders_own_cells(tmp_path):
    written = write_course(tmp_path / "course", ROOT)
    lessons = sorted(p.parent.name for p in written if p.suffix == ".ipynb")
    assert lessons == sorted(re.sub(r"^solution_|\.ipynb$", "", p.name) for p in (ROOT / "solutions").glob("*.ipynb"))
    source = nbformat.read(tmp_path / "course" / "source" / LESSON / NOTEBOOK, as_version=4)
    tests = {c.metadata["nbgrader"]["grade_id"]: c for c in source.cells if c.metadata["nbgrader"]["grade"]}
    points = {q.qid: q.points for q in questions(LESSON)}
    assert {k: c.metadata["nbgrader"]["points"] for k, c in tests.items() if k.startswith("q")} == {
        grade_id(qid): p for qid, p in points.items()
    }
    answers = [c for c in source.cells if c.metadata["nbgrader"]["solution"] and c.cell_type == "code"]
    assert answers and all("### BEGIN SOLUTION" in c.source and "### END SOLUTION" in c.source for c in answers)
    assert all(c.metadata["nbgrader"]["locked"] for c in source.cells if not c.metadata["nbgrader"]["solution"])


def test_a_course_folder_that_exists_is_never_written_into(tmp_path):
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "gradebook.db").write_bytes(b"an instructor's gradebook")
    with pytest.raises(ValueError, match="already exists"):
        write_course(tmp_path / "course", ROOT)
    assert [p.name for p in (tmp_path / "course").iterdir()] == ["gradebook.db"]


def test_nbgrader_and_the_workbook_give_every_learner_the_same_points_for_every_question(graded):
    by_nbgrader, by_workbook, learners, *_ = graded
    differ: dict[str, dict[str, tuple]] = {}
    for (learner, qid), theirs in by_nbgrader.items():
        ours = by_workbook.get((learner, qid), 0)
        if (theirs or 0) != ours:
            differ.setdefault(learners[learner], {})[qid] = (theirs, ours)
    assert differ == DIFFERENCES
    full = sum(q.points for q in questions(LESSON))
    totals = {
        kind: sum(by_nbgrader[learner, q.qid] or 0 for q in questions(LESSON)) for learner, kind in learners.items()
    }
    assert totals["correct"] == full and totals["untouched"] == 0, totals
    assert all(0 < totals[kind] < full for kind in (*WRONG, "strict-comparison", "half-done")), totals


def test_nbgrader_says_which_notebooks_it_could_not_grade(graded):
    _, _, learners, autograde, *_ = graded
    failed = {kind for learner, kind in learners.items() if f"for student '{learner}'" in autograde.stderr}
    assert failed == NOT_GRADED_BY_NBGRADER, autograde.stderr[-3000:]


def test_nbgraders_feedback_shows_the_workbooks_verdict_and_counterexample(graded):
    course = graded[4]
    autograded = nbformat.read(course / "autograded" / "wrong-q1-2" / LESSON / NOTEBOOK, as_version=4)
    test = next(c for c in autograded.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "q1_2")
    shown = "".join(o.get("data", {}).get("text/plain", "") + o.get("text", "") for o in test.outputs)
    assert "q1.2 assemble_context: FAILED (0/2 points)" in shown and "input:" in shown, shown


def test_the_workbooks_grader_reads_an_nbgrader_release_as_it_reads_its_own_exercises(graded):
    learners, rows = graded[2], graded[5]
    for learner, row in rows.items():
        # its test cells wait for the grader instead of raising (no "deferred ... raised AssertionError" notes)
        assert not [note for note in row["notes"] if "deferred" in note], (learner, row["notes"])
    untouched = next(learner for learner, kind in learners.items() if kind == "untouched")
    # two open questions, and nbgrader's "YOUR ANSWER HERE" in each is no answer
    assert [w["answer"] for w in rows[untouched]["written"]] == ["", ""], rows[untouched]["written"]


def test_nothing_of_the_checks_search_lands_in_what_learners_get_back(graded):
    course = graded[4]
    assert not list((course / "autograded").rglob(".hypothesis")), (
        "Hypothesis' caches in autograded/ reach the feedback"
    )


def test_the_release_links_to_no_notebook_it_does_not_hold(graded):
    course = graded[4]
    release = nbformat.read(course / "release" / LESSON / NOTEBOOK, as_version=4)
    text = "\n".join(c.source for c in release.cells if c.cell_type == "markdown")
    assert "](../" not in text and "solution_" not in text
    assert (
        release.cells[-1].source.startswith("## Done?") and "submit it as your course asks" in release.cells[-1].source
    )
