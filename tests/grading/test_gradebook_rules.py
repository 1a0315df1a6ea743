"""The gradebook's rules on small classes laid out as the course tools hand them out, graded with the command an
instructor runs: an nbgrader course folder, a regrade after a file was removed, two graders on one gradebook,
`make grade` on folder names with spaces, SIGTERM. Their files are not notebooks (no kernel), so they are quick;
the mixed class with real answers is in test_lms_classes.py."""

from __future__ import annotations

import csv
import io
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from grader_cli import ROOT, grade_cli
from packer.grading.demo_class import KINDS
from packer.grading.lock import gradebook_lock

import nbformat

GARBAGE = "this is not a notebook {"  # an unreadable file: a row, no kernel


def notebook(kind: str) -> str:
    made = KINDS[kind][1]()
    return made if isinstance(made, str) else nbformat.writes(made)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def table(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_an_nbgrader_course_folder_grades_only_submitted_and_says_so(tmp_path):
    course = tmp_path / "course101"
    write(course / "source" / "01_assemble_context" / "exercise_01_assemble_context.ipynb", notebook("correct"))
    write(course / "release" / "01_assemble_context" / "exercise_01_assemble_context.ipynb", notebook("untouched"))
    write(course / "submitted" / "alice" / "01_assemble_context" / "exercise_01_assemble_context.ipynb", GARBAGE)
    run = grade_cli(str(course), "--out", str(tmp_path / "grades"))
    assert run.returncode == 0, run.stderr
    assert "is an nbgrader course folder; grading only its submitted/" in run.stderr
    rows = table(tmp_path / "grades" / "grades.csv")
    assert [(r["submission"], r["learner"]) for r in rows] == [
        ("course101/submitted/alice/01_assemble_context/exercise_01_assemble_context.ipynb", "alice")
    ]


def test_an_nbgrader_course_folder_with_nothing_collected_is_refused_before_grading(tmp_path):
    write(tmp_path / "course101" / "source" / "01" / "exercise_01_assemble_context.ipynb", notebook("correct"))
    run = grade_cli(str(tmp_path / "course101"), "--out", str(tmp_path / "grades"))
    assert run.returncode == 2 and "with no submitted/ folder; run nbgrader collect first" in run.stderr
    assert not (tmp_path / "grades").exists()


def test_a_full_regrade_flags_a_row_whose_file_is_gone_and_a_partial_one_keeps_the_skipped_list(tmp_path):
    folder = tmp_path / "my class"  # a space in the name, as instructors' folders have
    write(folder / "alice" / "exercise_01_assemble_context.ipynb", GARBAGE)
    write(folder / "bob" / "exercise_01_assemble_context.ipynb", GARBAGE)
    write(folder / "bob" / "notes.txt", "a note")
    out = tmp_path / "grades"
    assert grade_cli(str(folder), "--out", str(out)).returncode == 0
    skipped = json.loads((out / "grades.json").read_text())["gradebook"]["skipped"]
    assert skipped == ["my class/bob/notes.txt: not a notebook (.ipynb, .ipynb.json) or a .zip"]

    (folder / "alice" / "exercise_01_assemble_context.ipynb").unlink()
    again = grade_cli(str(folder), "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert "1 row kept from an earlier run, whose file is gone from the folder graded now" in again.stderr
    rows = {r["learner"]: r for r in table(out / "grades.csv")}
    assert rows["alice"]["flags"].startswith("file gone: not found when its folder was graded again")
    assert rows["bob"]["flags"] == ""

    one = grade_cli(str(folder / "bob" / "exercise_01_assemble_context.ipynb"), "--out", str(out))
    assert one.returncode == 0, one.stderr
    book = json.loads((out / "grades.json").read_text())["gradebook"]
    assert book["skipped"] == skipped  # bob's notes.txt is still listed: this run never looked at it


def test_a_second_grader_on_the_same_gradebook_is_refused_at_once_or_waits(tmp_path):
    write(tmp_path / "class" / "alice" / "exercise_01_assemble_context.ipynb", GARBAGE)
    out = tmp_path / "grades"
    with gradebook_lock(out):  # another grader is writing (into a new folder: it made it, and holds the lock)
        started = time.monotonic()
        refused = grade_cli(str(tmp_path / "class"), "--out", str(out))
        assert refused.returncode == 2 and time.monotonic() - started < 30
        assert f"--out: another grader is writing to {out} now (pid {os.getpid()})" in refused.stderr
        assert "give --wait" in refused.stderr
        waiting = subprocess.Popen(
            [sys.executable, "-m", "packer.grading", str(tmp_path / "class"), "--out", str(out), "--wait"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(3)
        assert waiting.poll() is None  # still waiting for the lock
        assert [p.name for p in out.iterdir()] == [".grading.lock"]  # neither run wrote anything meanwhile
    _, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err
    assert (out / "grades.csv").is_file()
    assert not (out / ".grading.lock").exists()  # nothing of the lock is left in the instructor's folder


def test_a_refused_run_into_a_new_folder_leaves_no_folder_behind(tmp_path):
    (tmp_path / "class").mkdir()
    out = tmp_path / "grades"
    run = grade_cli(str(tmp_path / "class"), "--out", str(out))  # no notebooks: refused after the lock was taken
    assert run.returncode == 2 and "no notebooks" in run.stderr
    assert not out.exists()


def test_make_grade_quotes_folder_names_with_spaces_and_quotes():
    quiet = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}  # under make test
    line = (
        subprocess.run(
            [
                "make",
                "--no-print-directory",
                "-n",
                "grade",
                "SUBMISSIONS=../classes/O'Brien's class",
                "OUT=my grades",
                "GRADE_ARGS=--lesson 01",
            ],
            cwd=ROOT,
            env=quiet,
            capture_output=True,
            text=True,
            check=True,
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    assert shlex.split(line)[1:] == [
        "-m",
        "packer.grading",
        "../classes/O'Brien's class",
        "--out",
        "my grades",
        "--lesson",
        "01",
    ]


def test_two_real_graders_at_once_the_second_is_refused_and_sigterm_stops_the_first_with_143(tmp_path):
    write(tmp_path / "class" / "a" / "exercise_01_assemble_context.ipynb", notebook("runaway"))
    grader = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "packer.grading",
            str(tmp_path / "class"),
            "--out",
            str(tmp_path / "grades"),
            "--timeout",
            "60",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(8)  # the grader is running the notebook's endless loop by now
        second = grade_cli(str(tmp_path / "class"), "--out", str(tmp_path / "grades"))
        assert second.returncode == 2, second.stderr
        assert f"another grader is writing to {tmp_path / 'grades'} now (pid {grader.pid})" in second.stderr
        grader.send_signal(signal.SIGTERM)  # what a batch engine or `kill` sends
        _, err = grader.communicate(timeout=60)
    finally:
        if grader.poll() is None:
            grader.kill()
    assert grader.returncode == 143, err
    assert err.strip().splitlines()[-1].startswith("interrupted")
    assert not (tmp_path / "grades").exists()
