"""The gradebook's rules on small classes laid out as the course tools hand them out, graded with the command an
instructor runs: an nbgrader course folder, a regrade after a file was removed, two graders on one gradebook,
`make grade` on folder names with spaces, SIGTERM, a gradebook edited by hand. Their files are not notebooks (no
kernel), so they are quick; the mixed class with real answers is in test_lms_classes.py."""

from __future__ import annotations

import json
import os
import select
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from class_files import GARBAGE, notebook, table, write
from grader_cli import ROOT, grade_cli, grade_main, grader_command
from packer.grading.lock import gradebook_lock


def test_nbgrader_course_and_exchange_folders_grade_only_what_learners_handed_in_and_say_so(tmp_path):
    course = tmp_path / "course101"
    write(course / "source" / "01_assemble_context" / "exercise_01_assemble_context.ipynb", notebook("correct"))
    write(course / "release" / "01_assemble_context" / "exercise_01_assemble_context.ipynb", notebook("untouched"))
    write(course / "submitted" / "alice" / "01_assemble_context" / "exercise_01_assemble_context.ipynb", GARBAGE)
    exchange = tmp_path / "exchange" / "course101"
    write(exchange / "outbound" / "01_assemble_context" / "exercise_01_assemble_context.ipynb", notebook("untouched"))
    attempt = "bob+01_assemble_context+2026-11-20 10:00:00.000000 UTC+AAAA"
    write(exchange / "inbound" / attempt / "exercise_01_assemble_context.ipynb", GARBAGE)
    run = grade_cli(str(course), str(exchange), "--out", str(tmp_path / "grades"))
    assert run.returncode == 0, run.stderr
    assert "is an nbgrader course folder; grading only its submitted/" in run.stderr
    assert "is an nbgrader exchange folder; grading only its inbound/" in run.stderr
    rows = table(tmp_path / "grades" / "grades.csv")
    assert [(r["submission"], r["learner"]) for r in rows] == [
        ("course101/submitted/alice/01_assemble_context/exercise_01_assemble_context.ipynb", "alice"),
        (f"exchange/course101/inbound/{attempt}/exercise_01_assemble_context.ipynb", "bob"),
    ]  # neither source/, release/ nor outbound/ is a learner


def test_an_nbgrader_course_folder_with_nothing_collected_is_refused_before_grading(tmp_path):
    write(tmp_path / "course101" / "source" / "01" / "exercise_01_assemble_context.ipynb", notebook("correct"))
    run = grade_cli(str(tmp_path / "course101"), "--out", str(tmp_path / "grades"))
    assert run.returncode == 2 and "with no submitted/ or inbound/ folder; nothing has been handed in" in run.stderr
    assert "usage:" not in run.stderr  # the reason, not the whole usage text
    assert not (tmp_path / "grades").exists()


def test_regrades_flag_gone_files_keep_the_skipped_list_and_judge_lateness_by_the_latest_due_date(tmp_path):
    folder = tmp_path / "my class" / "submitted"  # nbgrader's layout, in a folder whose name has a space
    for learner, stamp in (("alice", "2026-11-20 14:03:00.000000 UTC"), ("bob", "2026-11-20 20:00:00.000000 UTC")):
        write(folder / learner / "01_assemble_context" / "exercise_01_assemble_context.ipynb", GARBAGE)
        write(folder / learner / "01_assemble_context" / "timestamp.txt", stamp)
    write(folder / "bob" / "01_assemble_context" / "notes.txt", "a note")
    out = tmp_path / "grades"
    first = grade_cli(str(folder), "--out", str(out), "--due", "2026-11-20T12:00Z")
    assert first.returncode == 0, first.stderr
    assert {r["learner"]: r["late"] for r in table(out / "grades.csv")} == {"alice": "late", "bob": "late"}
    skipped = json.loads((out / "grades.json").read_text())["gradebook"]["skipped"]
    assert skipped == ["submitted/bob/01_assemble_context/notes.txt: not a notebook (.ipynb, .ipynb.json) or a .zip"]

    (folder / "alice" / "01_assemble_context" / "exercise_01_assemble_context.ipynb").unlink()
    again = grade_cli(str(folder), "--out", str(out), "--due", "2026-11-20T23:59Z")  # the due date was extended
    assert again.returncode == 0, again.stderr
    assert "1 row kept from an earlier run, whose file is gone from the folder graded now" in again.stderr
    rows = {r["learner"]: r for r in table(out / "grades.csv")}
    assert rows["alice"]["flags"].startswith("file gone: not found when its folder was graded again")
    assert (rows["alice"]["late"], rows["bob"]["late"]) == ("", "")
    assert rows["bob"]["flags"].startswith("not a readable notebook")  # why it scored 0, as its notes say

    one = grade_cli(str(folder / "bob"), "--out", str(out))  # no --due: the gradebook's own holds
    assert one.returncode == 0, one.stderr
    book = json.loads((out / "grades.json").read_text())["gradebook"]
    assert book["skipped"] == skipped  # bob's notes.txt is still listed: this run never looked at it
    assert book["due"] == "2026-11-20T23:59:00+00:00"
    assert {r["learner"]: r["late"] for r in table(out / "grades.csv")} == {"alice": "", "bob": ""}
    assert b"alice" not in (out / "lms" / "nbgrader.csv").read_bytes()  # her file is gone: in no import file


def test_a_second_grader_on_the_same_gradebook_is_refused_at_once_or_waits(tmp_path):
    write(tmp_path / "class" / "alice" / "exercise_01_assemble_context.ipynb", GARBAGE)
    out = tmp_path / "grades"
    with gradebook_lock(out):  # another grader is writing (into a new folder: it made it, and holds the lock)
        # It returns while the lock is still held, so it refused rather than waited (a wall-clock bound
        # would only measure how busy the machine was: under load a refusal took 32 s).
        refused = grade_cli(str(tmp_path / "class"), "--out", str(out))
        assert refused.returncode == 2
        assert f"--out: another grader is writing to {out} now (pid {os.getpid()})" in refused.stderr
        assert "give --wait" in refused.stderr
        waiting = subprocess.Popen(
            grader_command(str(tmp_path / "class"), "--out", str(out), "--wait"),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        said = []  # it says it waits (after whatever else it has to say), then it waits
        while not said or not said[-1].startswith("waiting: "):
            ready, _, _ = select.select([waiting.stderr], [], [], 120)
            assert ready and (line := waiting.stderr.readline()), f"the waiting grader said only {said}"
            said.append(line)
        assert said[-1].startswith(f"waiting: another grader is writing to {out} (pid {os.getpid()})"), said
        time.sleep(1)
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
    write(tmp_path / "class" / "b" / "exercise_01_assemble_context.ipynb", GARBAGE)  # graded before the signal
    grader = subprocess.Popen(
        grader_command(str(tmp_path / "class"), "--out", str(tmp_path / "grades"), "--timeout", "60"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    journal = tmp_path / "grades" / ".grading-journal.jsonl"
    try:
        deadline = time.monotonic() + 120
        while not journal.is_file() or not journal.read_text(encoding="utf-8").strip():  # b's row is done
            assert grader.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
        second = grade_cli(str(tmp_path / "class"), "--out", str(tmp_path / "grades"))
        assert second.returncode == 2, second.stderr
        assert f"another grader is writing to {tmp_path / 'grades'} now (pid {grader.pid})" in second.stderr
        grader.send_signal(signal.SIGTERM)  # what a batch engine or `kill` sends
        _, err = grader.communicate(timeout=60)
    finally:
        if grader.poll() is None:
            grader.kill()
    assert grader.returncode == 143, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted by SIGTERM: every kernel stopped") and "the 1 row graded so far is kept" in last
    # a batch engine's time limit sends SIGTERM: the job run again reuses what was graded
    assert [p.name for p in (tmp_path / "grades").iterdir()] == [".grading-journal.jsonl"]


# --- a gradebook edited by hand -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def graded_once(tmp_path_factory):
    """A class of two unreadable files (no kernel) graded as lesson 01: a gradebook of ours to edit by hand."""
    base = tmp_path_factory.mktemp("edited")
    for learner in ("alice", "bob"):
        write(base / "class" / learner / "ex.ipynb", GARBAGE)
    assert grade_main([str(base / "class"), "--out", str(base / "grades"), "--lesson", "01"]) == 0
    return base


def edited(graded_once: Path, tmp_path: Path, edit) -> tuple[Path, Path, dict[str, bytes]]:
    """A copy of the gradebook with grades.json changed by `edit(data)`; (class, gradebook, its files' bytes)."""
    shutil.copytree(graded_once / "grades", tmp_path / "grades")
    book = tmp_path / "grades" / "grades.json"
    data = json.loads(book.read_text(encoding="utf-8"))
    edit(data)
    book.write_text(json.dumps(data, indent=2), encoding="utf-8")
    files = {
        p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in (tmp_path / "grades").rglob("*") if p.is_file()
    }
    return graded_once / "class", tmp_path / "grades", files


def row(data: dict, index: int = 0) -> dict:
    return data["submissions"][index]


BROKEN = {  # a hand edit, and the words the refusal names its row and field with
    "a key removed": (lambda d: row(d).pop("status"), 'row 1 ("class/alice/ex.ipynb"): status is missing'),
    "a test's key removed": (
        lambda d: row(d)["tests"][2].pop("qid"),
        'row 1 ("class/alice/ex.ipynb"): tests[2]: qid is missing',
    ),
    "a number typed as text": (
        lambda d: row(d, 1)["tests"][0].update(score="3"),
        'row 2 ("class/bob/ex.ipynb"): tests[0] (q1.1): score must be a number, not "3"',
    ),
    "a flag for true": (lambda d: row(d).update(late="yes"), 'late must be true or false, not "yes"'),
    "a status of one's own": (lambda d: row(d, 1).update(status="excellent"), 'status must be one of "graded"'),
    "a list made a text": (
        lambda d: row(d).update(flags="none"),
        'row 1 ("class/alice/ex.ipynb"): flags must be a list',
    ),
    "a row made a text": (lambda d: d["submissions"].__setitem__(1, "bob"), "row 2: the row must be an object"),
    "a name made a number": (lambda d: row(d).update(submission=5), "row 1: submission must be text, not 5"),
    "the gradebook's own section": (lambda d: d["gradebook"].update(top="1"), "gradebook.top must be a whole number"),
    "a score above its maximum": (  # 30 typed for a 3-point question
        lambda d: row(d, 1)["tests"][0].update(score=30),
        'row 2 ("class/bob/ex.ipynb"): tests[0] (q1.1): score must be at most max_score (3), not 30',
    ),
    "a negative score": (lambda d: row(d)["tests"][1].update(score=-1), "tests[1] (q1.2): score must be at least 0"),
    "a row duplicated, then changed": (
        lambda d: d["submissions"].append({**row(d, 1), "tests": [{**row(d, 1)["tests"][0], "score": 2}]}),
        'row 3 ("class/bob/ex.ipynb") is a second row of the submission row 2 holds: keep one of them',
    ),
}


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_a_hand_edited_gradebook_of_a_shape_the_grader_cannot_use_is_refused_naming_its_row_and_field(
    graded_once, tmp_path, capsys, broken
):
    edit, words = BROKEN[broken]
    folder, out, before = edited(graded_once, tmp_path, edit)
    with pytest.raises(SystemExit) as stop:
        grade_main([str(folder), "--out", str(out)])
    error = capsys.readouterr().err
    assert stop.value.code == 2 and f"{out / 'grades.json'}: the gradebook cannot be read: " in error
    assert words in error and error.endswith("nothing was graded or written\n") and error.count("\n") == 1
    after = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before  # nothing written, no lock or journal left


def test_a_score_edited_by_hand_is_put_back_to_the_sum_of_its_tests_and_the_run_says_which_row(
    graded_once, tmp_path, capsys
):
    folder, out, _ = edited(graded_once, tmp_path, lambda d: row(d).update(score=9))
    assert grade_main([str(folder / "bob"), "--out", str(out)]) == 0
    assert (
        f"warning: 1 row of {out / 'grades.json'} had a total that is not the sum of its tests' "
        "(class/alice/ex.ipynb: score 9 where its tests' scores add up to 0); a row's score is always that sum"
    ) in capsys.readouterr().err
    assert row(json.loads((out / "grades.json").read_text()))["score"] == 0
    assert row(json.loads((out / "backup" / "grades.json").read_text()))["score"] == 9  # the edit, kept aside


def refusal(capsys, folder: Path, out: Path) -> str:
    """The grader's refusal (exit status 2) of a run into `out`, as the instructor sees it."""
    with pytest.raises(SystemExit) as stop:
        grade_main([str(folder), "--out", str(out)])
    assert stop.value.code == 2
    return capsys.readouterr().err


def test_a_gradebook_cut_short_is_refused_naming_its_line_and_column_and_the_backup_that_holds_the_last_good_one(
    graded_once, tmp_path, capsys
):
    folder, out, _ = edited(graded_once, tmp_path, lambda d: None)
    book = out / "grades.json"
    (out / "backup").mkdir()
    shutil.copy(book, out / "backup" / "grades.json")  # as a second run into the folder leaves it
    text = book.read_text(encoding="utf-8")
    book.write_text(text[: len(text) // 2], encoding="utf-8")  # a copy cut short, a disk that filled up
    before = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    error = refusal(capsys, folder, out)
    assert f"{book}: the gradebook cannot be read: it is not JSON at line " in error and ", column " in error
    assert f"{out / 'backup' / 'grades.json'} holds the gradebook as it was before the grader's last run" in error
    assert "holds no gradebook written by this grader" not in error and "nothing was graded or written" in error
    assert {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_gradebook_saved_with_a_byte_order_mark_is_the_same_gradebook(graded_once, tmp_path, capsys):
    folder, out, _ = edited(graded_once, tmp_path, lambda d: None)
    book = out / "grades.json"
    book.write_bytes(b"\xef\xbb\xbf" + book.read_bytes())  # as Notepad and other Windows editors save UTF-8
    assert grade_main([str(folder / "bob"), "--out", str(out)]) == 0
    assert "kept 1 row of the previous gradebook" in capsys.readouterr().out
    assert [r["learner"] for r in table(out / "grades.csv")] == ["alice", "bob"]


def test_a_change_made_in_grades_csv_stops_the_next_run_saying_where_it_belongs(graded_once, tmp_path, capsys):
    folder, out, _ = edited(graded_once, tmp_path, lambda d: None)
    sheet = out / "grades.csv"
    lines = sheet.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[2].startswith("class/bob/ex.ipynb,bob,") and ",0,0,0,0,0,0,10," in lines[2]
    lines[2] = lines[2].replace(",0,0,0,0,0,0,10,", ",3,0,0,0,0,3,10,", 1)  # a TA gave bob q1.1's 3 points there
    sheet.write_text("".join(lines), encoding="utf-8")
    error = refusal(capsys, folder / "bob", out)
    assert f"{sheet}: changed since the grader wrote it (line 3, " in error
    assert 'column q1.1: "3", not "0" as written' in error
    assert f"make it in {out / 'grades.json'} (a test's score" in error and "then delete grades.csv" in error
    assert sheet.read_text(encoding="utf-8") == "".join(lines)  # nothing written over


def test_a_row_added_by_hand_for_a_file_that_does_not_exist_never_supersedes_the_learner_s_real_one(
    graded_once, tmp_path, capsys
):
    def add_a_copy(data: dict) -> None:  # alice's row, copied by hand for a file that was never handed in
        copy = {**row(data), "submission": "class/emailed in late/ex.ipynb", "file_time": "2099-01-01T00:00:00+00:00"}
        data["submissions"].append(copy)

    folder, out, _ = edited(graded_once, tmp_path, add_a_copy)
    assert grade_main([str(folder / "alice"), "--out", str(out)]) == 0  # alice regraded on her own
    rows = {r["submission"]: r for r in table(out / "grades.csv")}
    assert rows["class/alice/ex.ipynb"]["counts"] == "yes"
    assert rows["class/emailed in late/ex.ipynb"]["flags"].startswith("file gone: no such file under")
    assert "1 row kept from an earlier run, whose file is gone" in capsys.readouterr().err
