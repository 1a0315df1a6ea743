"""Whose each submission is, when it was handed in, and which one counts, as each course tool lays a class
out (packer.grading.layouts). No kernels here: these tests are quick."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from packer.grading.layouts import (
    COPY,
    identify,
    iso_utc,
    late_by,
    mark_superseded,
    nbgrader_time,
    parse_due,
)
from packer.grading.outcome import Outcome
from packer.grading.submissions import check_paths, find_submissions, naming_root, nbgrader_course

NOTEBOOK = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
GRADESCOPE_METADATA = """\
submission_90001:
  :submitters:
  - :name: Ana Lima
    :sid: 'A0042'
    :email: ana.lima@example.edu
  :created_at: 2026-11-20 09:15:02.123456789 -0800
  :score: 0.0
submission_90002:
  :submitters:
  - :name: Ana Lima
    :sid: 'A0042'
    :email: ana.lima@example.edu
  :created_at: 2026-11-20 21:40:00.000000000 -0800
"""


def touch(path: Path, text: str = NOTEBOOK) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def found(*paths: Path):
    checked = check_paths([str(p) for p in paths])
    root, top = naming_root(checked)
    submissions, skipped = find_submissions(checked, root, top)
    return {s.name: s for s in submissions}, skipped


# --- who ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, learner, late, lms",
    [
        (
            "canvas/müllerjürgen_12353_67901_01_assemble_context.ipynb",
            "müllerjürgen",
            False,
            {"tool": "canvas", "user_id": "12353", "attachment_id": "67901", "resubmission": ""},
        ),
        (
            "canvas/obrienseán_LATE_12354_67950_exercise_01_assemble_context-2.ipynb",
            "obrienseán",
            True,
            {"tool": "canvas", "user_id": "12354", "attachment_id": "67950", "resubmission": "2"},
        ),
        (
            "class/submissions.zip/张伟_12355_67960_01_assemble_context.ipynb",  # Canvas's zip, not unpacked
            "张伟",
            False,
            {"tool": "canvas", "user_id": "12355", "attachment_id": "67960", "resubmission": ""},
        ),
        (
            "moodle/Ben Carter_100239_assignsubmission_file_01_assemble_context.ipynb",  # flat: no folders
            "Ben Carter",
            False,
            {"tool": "moodle", "participant_id": "100239", "name": "Ben Carter"},
        ),
        (
            "moodle/Jürgen Müller_100240_assignsubmission_file_/exercise_01_assemble_context.ipynb",
            "Jürgen Müller",
            False,
            {"tool": "moodle", "participant_id": "100240", "name": "Jürgen Müller"},
        ),
        (
            "course/submitted/s1234/ps1/01_assemble_context.ipynb",
            "s1234",
            False,
            {"tool": "nbgrader", "student_id": "s1234", "assignment": "ps1"},
        ),
        ("class/alice/ex.ipynb", "alice", False, {}),
        ("class/bob.ipynb", "bob", False, {}),
    ],
)
def test_each_tools_names_give_the_learner_and_the_tools_own_id(name, learner, late, lms):
    who = identify(name, top=1)
    assert (who.learner, who.late, who.lms) == (learner, late, lms)


def test_nbgrader_exchange_inbound_gives_the_student_not_the_course(tmp_path):
    folder = "exchange/course101/inbound/alice+01_assemble_context+2026-11-20 14:03:12.123456 UTC+Zm9vYmFy"
    touch(tmp_path / folder / "exercise_01_assemble_context.ipynb")
    touch(tmp_path / "exchange/course101/inbound/bob+01_assemble_context+2026-11-19 08:00:00.000000 UTC" / "x.ipynb")
    rows, _ = found(tmp_path / "exchange" / "course101")
    people = {s.learner: (s.lms, s.submitted_at, s.assignment) for s in rows.values()}
    assert people == {
        "alice": (
            {"tool": "nbgrader", "student_id": "alice", "assignment": "01_assemble_context"},
            "2026-11-20T14:03:12.123456+00:00",
            "01_assemble_context",
        ),
        "bob": (
            {"tool": "nbgrader", "student_id": "bob", "assignment": "01_assemble_context"},
            "2026-11-19T08:00:00+00:00",
            "01_assemble_context",
        ),
    }


def test_nbgrader_submitted_reads_the_timestamp_nbgrader_wrote_beside_it(tmp_path):
    touch(tmp_path / "course/submitted/alice/ps1/01_assemble_context.ipynb")
    touch(tmp_path / "course/submitted/alice/ps1/timestamp.txt", "2026-11-20 14:03:12.500000 UTC")
    rows, skipped = found(tmp_path / "course" / "submitted")
    (alice,) = rows.values()
    assert (alice.learner, alice.submitted_at, skipped) == ("alice", "2026-11-20T14:03:12.500000+00:00", [])


def test_an_nbgrader_course_folder_is_graded_by_its_submitted_folder_only(tmp_path):
    course = tmp_path / "course"
    touch(course / "source/ps1/01_assemble_context.ipynb")
    touch(course / "release/ps1/01_assemble_context.ipynb")
    touch(course / "submitted/alice/ps1/01_assemble_context.ipynb")
    assert nbgrader_course(course) == course / "submitted"
    assert nbgrader_course(course / "submitted") is None
    assert nbgrader_course(tmp_path) is None  # a folder of learners is not a course
    empty = tmp_path / "new-course"
    (empty / "source").mkdir(parents=True)
    assert nbgrader_course(empty) == empty  # a course with nothing collected: the grader refuses it


def test_a_gradescope_export_reads_name_email_and_sid_from_its_metadata(tmp_path):
    export = tmp_path / "assignment_7001_export"
    touch(export / "submission_metadata.yml", GRADESCOPE_METADATA)
    touch(export / "submission_90001" / "exercise_01_assemble_context.ipynb")
    touch(export / "submission_90002" / "exercise_01_assemble_context.ipynb")
    rows, skipped = found(export)
    assert skipped == []  # the metadata file is read, not listed as a stray file
    first = rows["assignment_7001_export/submission_90001/exercise_01_assemble_context.ipynb"]
    assert first.learner == "Ana Lima"
    assert first.lms == {
        "tool": "gradescope",
        "submission_id": "90001",
        "name": "Ana Lima",
        "sid": "A0042",
        "email": "ana.lima@example.edu",
    }
    assert first.submitted_at == "2026-11-20T17:15:02.123456+00:00"


def test_a_gradescope_export_still_zipped_is_read_the_same(tmp_path):
    with zipfile.ZipFile(tmp_path / "export.zip", "w") as archive:
        archive.writestr("assignment_7001_export/submission_metadata.yml", GRADESCOPE_METADATA)
        archive.writestr("assignment_7001_export/submission_90002/ex.ipynb", NOTEBOOK)
    rows, skipped = found(tmp_path / "export.zip")
    (only,) = rows.values()
    assert (only.learner, only.lms["sid"], only.submitted_at, skipped) == (
        "Ana Lima",
        "A0042",
        "2026-11-21T05:40:00+00:00",
        [],
    )


def test_canvas_names_from_a_zip_keep_each_learner_and_the_late_flag(tmp_path):
    with zipfile.ZipFile(tmp_path / "submissions.zip", "w") as archive:
        archive.writestr("müllerjürgen_12353_67901_01_assemble_context.ipynb", NOTEBOOK)
        archive.writestr("obrienseán_LATE_12354_67950_01_assemble_context-2.ipynb", NOTEBOOK)
    rows, _ = found(tmp_path / "submissions.zip")
    assert sorted((s.learner, s.late, s.lms["user_id"]) for s in rows.values()) == [
        ("müllerjürgen", False, "12353"),
        ("obrienseán", True, "12354"),
    ]


# --- when ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, iso",
    [
        ("2026-11-20 14:03:12.123456 UTC", "2026-11-20T14:03:12.123456+00:00"),
        ("2026-11-20 14:03:12", "2026-11-20T14:03:12+00:00"),  # no zone: taken as UTC
        ("not a time", ""),
    ],
)
def test_nbgrader_timestamps_are_read_in_its_default_format(text, iso):
    assert nbgrader_time(text) == iso


def test_gradescope_times_with_nanoseconds_and_a_spaced_zone_are_read():
    assert iso_utc("2026-11-20 09:15:02.123456789 -0800") == "2026-11-20T17:15:02.123456+00:00"
    assert iso_utc("2017-06-01T14:22:32.365935-07:00") == "2017-06-01T21:22:32.365935+00:00"


def test_due_dates_are_iso_and_lateness_is_measured_against_them():
    due = parse_due("2026-11-20T23:59+01:00")
    assert late_by("2026-11-20T22:58:00+00:00", due) is None
    assert str(late_by("2026-11-20T23:00:00+00:00", due)) == "0:01:00"
    assert late_by("", due) is None  # no recorded time: never called late by --due
    assert parse_due("2026-11-20 22:59Z") == parse_due("2026-11-20T23:59+01:00")


@pytest.mark.parametrize(
    "text, why",
    [
        ("friday", "is not a date and time in ISO 8601"),
        ("2026-11-20", "is a date without a time"),  # the start of the day, or its end?
        ("2026-11-20T23:59", "has no time zone"),  # whose 23:59?
    ],
)
def test_a_due_date_that_could_be_read_two_ways_is_refused(text, why):
    with pytest.raises(ValueError, match=f"--due: '{text}' {why}"):
        parse_due(text)


def test_a_missing_or_unreadable_nbgrader_timestamp_is_said_not_taken_as_on_time(tmp_path):
    touch(tmp_path / "course/submitted/bob/ps1/x.ipynb")
    touch(tmp_path / "course/submitted/bob/ps1/timestamp.txt", "yesterday")
    touch(tmp_path / "course/submitted/carol/ps1/x.ipynb")
    rows, _ = found(tmp_path / "course" / "submitted")
    notes = {s.learner: (s.submitted_at, s.note) for s in rows.values()}
    assert notes == {
        "bob": ("", "nbgrader's timestamp.txt holds 'yesterday', not a time: when it was handed in is unknown"),
        "carol": ("", "nbgrader's timestamp.txt is missing beside it: when it was handed in is unknown"),
    }


def test_an_nbgrader_exchange_course_folder_is_graded_by_its_inbound_only(tmp_path):
    course = tmp_path / "exchange" / "course101"
    touch(course / "outbound" / "01_assemble_context" / "exercise_01_assemble_context.ipynb")
    touch(course / "inbound" / "alice+01_assemble_context+2026-11-20 10:00:00.000000 UTC+AAAA" / "x.ipynb")
    assert nbgrader_course(course) == course / "inbound"


# --- which counts ----------------------------------------------------------------------------------------------------
def row(name: str, learner: str, lesson: str = "01_assemble_context", **fields) -> Outcome:
    return Outcome(name, "", fields.pop("sha256", ""), lesson, "graded", learner=learner, **fields)


def test_the_latest_nbgrader_attempt_counts_by_its_timestamp():
    early = row(
        "in/alice+a+1/x.ipynb",
        "alice",
        lms={"tool": "nbgrader", "student_id": "alice"},
        submitted_at="2026-11-20T10:00:00+00:00",
    )
    late = row(
        "in/alice+a+2/x.ipynb",
        "alice",
        lms={"tool": "nbgrader", "student_id": "alice"},
        submitted_at="2026-11-20T11:00:00+00:00",
    )
    assert mark_superseded([late, early]) == {"nbgrader's timestamp": 1}
    assert (early.superseded_by, late.superseded_by) == ("in/alice+a+2/x.ipynb", "")


def test_canvas_resubmissions_count_by_attachment_id_and_number():
    lms = {"tool": "canvas", "user_id": "12354"}
    first = row("c/obrienseán_12354_67901_ex.ipynb", "obrienseán", lms={**lms, "attachment_id": "67901"})
    second = row(
        "c/obrienseán_12354_67950_ex-1.ipynb", "obrienseán", lms={**lms, "attachment_id": "67950", "resubmission": "1"}
    )
    assert mark_superseded([second, first]) == {"Canvas's attachment id and resubmission number (-1, -2, …)": 1}
    assert first.superseded_by == second.name and second.superseded_by == ""


def test_without_a_recorded_time_the_file_time_decides_and_says_so():
    lms = {"tool": "moodle", "participant_id": "100239"}
    copy = row(
        "m/Ben Carter_100239_assignsubmission_file_ex (copy).ipynb",
        "Ben Carter",
        lms=lms,
        file_time="2026-11-20T12:00:00+00:00",
    )
    original = row(
        "m/Ben Carter_100239_assignsubmission_file_ex.ipynb",
        "Ben Carter",
        lms=lms,
        file_time="2026-11-20T11:00:00+00:00",
    )
    (what,) = mark_superseded([copy, original])
    assert "modification time" in what and original.superseded_by == copy.name


def test_different_learners_lessons_or_unknown_lessons_never_supersede_each_other():
    rows = [
        row("a/1.ipynb", "alice"),
        row("b/1.ipynb", "bob"),
        row("a/2.ipynb", "alice", lesson="02_prompt_packer"),
        row("a/3.ipynb", "alice", lesson=""),
        row("a/4.ipynb", "alice", lesson=""),
    ]
    assert mark_superseded(rows) == {} and all(not r.superseded_by for r in rows)


def test_the_same_name_at_two_ids_is_two_learners_and_one_id_under_two_names_is_one():
    namesakes = [
        row("c/smithjane_1_10_ex.ipynb", "smithjane", lms={"tool": "canvas", "user_id": "1", "attachment_id": "10"}),
        row("c/smithjane_2_11_ex.ipynb", "smithjane", lms={"tool": "canvas", "user_id": "2", "attachment_id": "11"}),
    ]
    assert mark_superseded(namesakes) == {}
    renamed = [
        row("g/submission_1/x.ipynb", "Ana", lms={"tool": "gradescope", "sid": "A1"}, submitted_at="2026-01-01"),
        row("g/submission_2/x.ipynb", "Ana Lima", lms={"tool": "gradescope", "sid": "A1"}, submitted_at="2026-01-02"),
    ]
    assert mark_superseded(renamed) == {"Gradescope's created_at": 1}


def test_an_identical_copy_is_counted_as_a_copy_not_as_a_later_submission():
    copies = [
        row(
            "class/submissions.zip/leeann_1_10_ex.ipynb",
            "leeann",
            sha256="ab",
            lms={"tool": "canvas", "user_id": "1", "attachment_id": "10"},
        ),
        row(
            "class/leeann_1_10_ex.ipynb",
            "leeann",
            sha256="ab",
            lms={"tool": "canvas", "user_id": "1", "attachment_id": "10"},
        ),
    ]
    assert mark_superseded(copies) == {COPY: 1}


def test_a_row_whose_file_is_gone_never_supersedes_one_that_is_there():
    there = row("a/1.ipynb", "alice", file_time="1")
    gone = row("a/2.ipynb", "alice", file_time="2", flags=["file gone: not found when its folder was graded again"])
    assert mark_superseded([there, gone]) == {} and there.superseded_by == ""


def test_a_regrade_marks_again_from_scratch():
    rows = [row("a/1.ipynb", "alice", file_time="1"), row("a/2.ipynb", "alice", file_time="2")]
    mark_superseded(rows)
    rows[1].lesson = "02_prompt_packer"  # regraded: the later file turned out to be another lesson
    mark_superseded(rows)
    assert [r.superseded_by for r in rows] == ["", ""]
