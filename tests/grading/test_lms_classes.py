"""From the LMS's download to the LMS's import: classes laid out as Canvas, Moodle, nbgrader (its exchange and
its course folder) and Gradescope hand them out, graded with the command an instructor runs.

One mixed class is graded once for the module (resubmissions, late work, an empty file, a notebook handed in
to the wrong assignment, names in several scripts); the smaller classes below it need no kernel (their files
are not notebooks), so they test the gradebook's rules quickly.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile

import nbformat
import pytest

from class_files import GARBAGE, notebook, table, write
from grader_cli import ROOT, grade_cli
from packer.checking.exercises import solution_name, to_exercise

TIMEOUT = "20"
GRADESCOPE_METADATA = """\
submission_90001:
  :submitters:
  - :name: Ana Lima
    :sid: 'A0042'
    :email: ana.lima@example.edu
  :created_at: 2026-11-20 09:15:02.000000000 -0800
submission_90002:
  :submitters:
  - :name: Ana Lima
    :sid: 'A0042'
    :email: ana.lima@example.edu
  :created_at: 2026-11-20 21:40:00.000000000 -0800
"""


def lesson_02_exercise() -> str:
    source = nbformat.read(ROOT / "solutions" / solution_name("02_prompt_packer"), as_version=4)
    return nbformat.writes(to_exercise(source, "02_prompt_packer"))


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Downloads from every tool in one folder, graded once."""
    base = tmp_path_factory.mktemp("lms")
    d = base / "downloads"
    ex01 = "exercise_01_assemble_context"
    write(d / "canvas" / f"müllerjürgen_12353_67901_{ex01}.ipynb", notebook("correct"))
    write(d / "canvas" / f"obrienseán_LATE_12354_67950_{ex01}-1.ipynb", notebook("half-done"))
    write(d / "canvas" / f"obrienseán_LATE_12354_67990_{ex01}-2.ipynb", notebook("correct"))
    write(d / "canvas" / f"leeann_12356_67999_{ex01}.ipynb", "")  # an empty file
    d.joinpath("canvas-zip").mkdir(parents=True)
    with zipfile.ZipFile(d / "canvas-zip" / "submissions.zip", "w") as archive:
        archive.writestr(f"张伟_12355_67960_{ex01}.ipynb", GARBAGE)
        archive.writestr(f"smithjane_LATE_12357_67961_{ex01}.ipynb", GARBAGE)
    moodle = d / "moodle"  # Moodle's download without folders
    write(moodle / f"Ben Carter_100239_assignsubmission_file_{ex01}.ipynb", notebook("half-done"), 1_763_600_000)
    write(moodle / f"Ben Carter_100239_assignsubmission_file_{ex01} (copy).ipynb", notebook("correct"), 1_763_700_000)
    inbound = d / "exchange" / "course101" / "inbound"
    write(inbound / "alice+01_assemble_context+2026-11-20 10:00:00.000000 UTC+AAAA" / f"{ex01}.ipynb", GARBAGE)
    write(
        inbound / "alice+01_assemble_context+2026-11-21 09:30:00.000000 UTC+BBBB" / f"{ex01}.ipynb", notebook("correct")
    )
    bob = d / "nbgrader" / "submitted" / "bob" / "01_assemble_context"  # lesson 02 handed in to lesson 01
    write(bob / "exercise_02_prompt_packer.ipynb", lesson_02_exercise())
    write(bob / "timestamp.txt", "2026-11-22 08:00:00.000000 UTC")
    export = d / "gradescope" / "assignment_7001_export"
    write(export / "submission_metadata.yml", GRADESCOPE_METADATA)
    write(export / "submission_90001" / f"{ex01}.ipynb", GARBAGE)
    write(export / "submission_90002" / f"{ex01}.ipynb", notebook("correct"))
    out = base / "grades"
    run = grade_cli(
        str(d),
        "--out",
        str(out),
        "--jobs",
        "2",
        "--timeout",
        TIMEOUT,
        "--lesson",
        "01",
        "--due",
        "2026-11-21T23:59+00:00",
        "--canvas-column",
        "01=Exercise 01 (4821)",
        "--excel-bom",
    )
    assert run.returncode == 0, run.stderr
    rows = {r["submission"].split("/", 1)[1]: r for r in json.loads((out / "grades.json").read_text())["submissions"]}
    return rows, out, run


def by_learner(rows: dict, learner: str) -> list[dict]:
    return sorted((r for r in rows.values() if r["learner"] == learner), key=lambda r: r["submission"])


def test_every_learner_is_named_as_their_tool_names_them_in_any_script(mixed):
    rows, _, _ = mixed
    assert sorted({r["learner"] for r in rows.values()}) == sorted(
        ["müllerjürgen", "obrienseán", "leeann", "张伟", "smithjane", "Ben Carter", "alice", "bob", "Ana Lima"]
    )
    assert [r["late"] for r in by_learner(rows, "obrienseán")] == [True, True]  # Canvas's LATE, kept
    assert by_learner(rows, "smithjane")[0]["late"] is True  # from inside the zip too


def test_the_tools_own_ids_are_kept_in_the_csv_and_the_json(mixed):
    rows, out, _ = mixed
    csv_rows = {r["learner"]: r for r in table(out / "grades.csv") if r["counts"] == "yes"}
    assert {name: (r["lms"], r["lms_id"]) for name, r in csv_rows.items()} == {
        "müllerjürgen": ("canvas", "12353"),
        "obrienseán": ("canvas", "12354"),
        "leeann": ("canvas", "12356"),
        "张伟": ("canvas", "12355"),
        "smithjane": ("canvas", "12357"),
        "Ben Carter": ("moodle", "100239"),
        "alice": ("nbgrader", "alice"),
        "bob": ("nbgrader", "bob"),
        "Ana Lima": ("gradescope", "A0042"),
    }
    ana = by_learner(rows, "Ana Lima")[-1]
    assert ana["lms"] == {
        "tool": "gradescope",
        "submission_id": "90002",
        "name": "Ana Lima",
        "sid": "A0042",
        "email": "ana.lima@example.edu",
    }


def test_the_latest_submission_counts_by_each_layouts_own_evidence(mixed):
    rows, _, run = mixed
    counted = {
        learner: [r["superseded_by"] == "" for r in by_learner(rows, learner)]
        for learner in ("obrienseán", "Ben Carter", "alice", "Ana Lima")
    }
    # Canvas: -2 after -1; Moodle: the copy saved later; nbgrader: the later timestamp; Gradescope: created_at
    assert counted == {
        "obrienseán": [False, True],
        "Ben Carter": [True, False],  # "… (copy).ipynb" sorts first and is the later file
        "alice": [False, True],
        "Ana Lima": [False, True],
    }
    assert [r["score"] for r in by_learner(rows, "obrienseán")] == [5, 10]  # half-done, then right
    err = run.stderr
    assert (
        "superseded: 1 submission by a later one of the same learner and lesson (latest by Canvas's attachment id"
        in err
    )
    assert "(latest by nbgrader's timestamp)" in err and "(latest by Gradescope's created_at)" in err
    assert "(latest by the file's modification time (the layout records no submission time: check these))" in err


def test_due_marks_late_by_the_recorded_time_and_the_recorded_lesson_wins_over_the_option(mixed):
    rows, _, _ = mixed
    (bob,) = by_learner(rows, "bob")
    assert (bob["lesson"], bob["late"], bob["submitted_at"]) == ("02_prompt_packer", True, "2026-11-22T08:00:00+00:00")
    assert [r["late"] for r in by_learner(rows, "alice")] == [False, False]
    assert any(
        "--lesson 01_assemble_context applies only to notebooks that do not record theirs" in n for n in bob["notes"]
    )
    assert any(
        "a notebook of lesson 02_prompt_packer handed in to the assignment of lesson 01_assemble_context" in f
        for f in bob["flags"]
    )


def test_an_empty_file_says_so_and_carries_its_lessons_real_maximum(mixed):
    rows, _, _ = mixed
    (leeann,) = by_learner(rows, "leeann")
    assert (leeann["status"], leeann["score"], leeann["max_score"]) == ("unreadable", 0, 10)
    assert leeann["notes"] == ["the file is empty (0 bytes)"]


def test_canvas_csv_has_one_row_per_learner_with_the_latest_total(mixed):
    _, out, _ = mixed
    raw = (out / "lms" / "canvas.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # --excel-bom
    lines = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert lines[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Exercise 01 (4821)"]
    assert lines[1] == ["    Points Possible", "", "", "", "", "10"]
    assert sorted((r[0], r[1], r[5]) for r in lines[2:]) == [
        ("leeann", "12356", "0"),
        ("müllerjürgen", "12353", "10"),
        ("obrienseán", "12354", "10"),
        ("smithjane", "12357", "0"),
        ("张伟", "12355", "0"),
    ]


def test_moodle_worksheet_and_nbgrader_csv_hold_their_own_learners(mixed):
    _, out, _ = mixed
    moodle = table(out / "lms" / "moodle_01_assemble_context.csv", "utf-8-sig")
    assert [(r["Identifier"], r["Full name"], r["Grade"], r["Maximum Grade"]) for r in moodle] == [
        ("Participant 100239", "Ben Carter", "10", "10")
    ]
    nbgrader = table(out / "lms" / "nbgrader.csv", "utf-8-sig")
    assert {(r["assignment"], r["student_id"], r["timestamp"], r["score"]) for r in nbgrader} >= {
        ("01_assemble_context", "alice", "2026-11-21 09:30:00", "10.0"),
        ("02_prompt_packer", "bob", "2026-11-22 08:00:00", "0.0"),
    }


def test_the_class_report_counts_one_submission_per_learner_and_lesson(mixed):
    _, out, _ = mixed
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "13 submissions from 9 learners (4 of the submissions late, 4 superseded by another submission" in report
