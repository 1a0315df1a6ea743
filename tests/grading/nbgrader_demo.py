"""The grader's demo class graded by nbgrader and by the workbook's grader, question by question.

    make check-nbgrader            (python tests/grading/nbgrader_demo.py [--out DIR] [--size 40])

Writes the nbgrader course (make nbgrader), generates lesson 01's assignment with nbgrader itself, writes the demo
class (packer.grading.demo_class: right, wrong, half-done, untouched and hostile submissions) on nbgrader's
release as nbgrader's submitted/, runs `nbgrader autograde` with nbgrader's own settings and the workbook's grader
(`python -m packer.grading`) with its own, and prints every learner whose points differ, question by question.
It takes minutes (the runaway kinds cost each grader its time limit), so make test runs the smaller class of
tests/grading/test_nbgrader_course.py instead; the instructors' guide (docs/instructors.md) shows this script's last run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from packer.checking import questions
from packer.checking.exercises import exercise_name
from packer.grading.demo_class import KINDS, LESSON
from packer.grading.nbgrader_course import grade_id, write_course, write_demo_class

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def run(command: list[str], cwd: Path, may_fail: bool = False) -> float:
    """Run a command (nbgrader needs its environment's bin first on PATH); its seconds. Exits when it fails,
    unless `may_fail` (nbgrader autograde exits 1 when it could not grade some submissions)."""
    started = time.monotonic()
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    ran = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if ran.returncode and not may_fail:
        sys.exit(f"{' '.join(command)} failed ({ran.returncode}):\n{ran.stdout[-3000:]}\n{ran.stderr[-3000:]}")
    if ran.returncode:
        failed = sorted({line.rsplit("'", 2)[-2] for line in ran.stderr.splitlines() if "for student '" in line})
        print(
            f"{' '.join(Path(c).name for c in command[:2])} exited {ran.returncode}; it could not grade: {', '.join(failed)}"
        )
    return time.monotonic() - started


def nbgrader_points(course: Path, learners: list[str]) -> dict[tuple[str, str], float | None]:
    """nbgrader's points for each (learner, question); None where nbgrader recorded no grade."""
    from nbgrader.api import Gradebook, MissingEntry

    found: dict[tuple[str, str], float | None] = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as book:
        for learner in learners:
            for q in questions(LESSON):
                try:
                    notebook = exercise_name(LESSON).removesuffix(".ipynb")
                    found[learner, q.qid] = book.find_grade(grade_id(q.qid), notebook, LESSON, learner).score
                except MissingEntry:
                    found[learner, q.qid] = None
    return found


def workbook_points(grades: Path) -> dict[str, tuple[str, dict[str, int]]]:
    """The workbook grader's (status, points per question) for each learner."""
    rows = json.loads((grades / "grades.json").read_text())["submissions"]
    return {row["learner"]: (row["status"], {t["qid"]: t["score"] for t in row["tests"]}) for row in rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="a new folder for the course and the gradebooks (default: a temp one)")
    parser.add_argument("--size", type=int, default=40)
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="nbgrader-demo-"))
    course = out / "course"
    write_course(course, ROOT)
    seconds = {"generate_assignment": run([str(BIN / "nbgrader"), "generate_assignment", LESSON], course)}
    learners = write_demo_class(course, ROOT, args.size)
    seconds["nbgrader autograde"] = run([str(BIN / "nbgrader"), "autograde", LESSON], course, may_fail=True)
    grades = out / "grades"
    seconds["workbook grader"] = run(
        [sys.executable, "-m", "packer.grading", str(course / "submitted"), "--out", str(grades)], ROOT
    )
    by_nbgrader, by_workbook = nbgrader_points(course, list(learners)), workbook_points(grades)
    qids = [q.qid for q in questions(LESSON)]
    print(f"{len(learners)} learners of the demo class, lesson {LESSON}, in {out}")
    print(", ".join(f"{step} {s:.0f} s" for step, s in seconds.items()))
    print()
    print("| learner | kind | workbook status | question: nbgrader / workbook |")
    print("|---|---|---|---|")
    agree = 0
    for learner, kind in learners.items():
        theirs = {qid: by_nbgrader[learner, qid] for qid in qids}
        status, ours = by_workbook[learner]
        if None in theirs.values():
            print(
                f"| {learner} | {kind} | {status} | nbgrader recorded no grades; workbook {sum(ours.values())} in all |"
            )
            continue
        differ = [f"{qid}: {theirs[qid]:g} / {ours.get(qid, 0)}" for qid in qids if theirs[qid] != ours.get(qid, 0)]
        if differ:
            print(f"| {learner} | {kind} | {status} | {'; '.join(differ)} |")
        else:
            agree += 1
    print()
    print(f"{agree} of {len(learners)} learners get the same points for every question from both graders.")
    print(f"kinds in the class: {len(KINDS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
