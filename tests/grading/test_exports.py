"""The files a course tool imports (packer.grading.exports), read as the tools read them.

Canvas's gradebook import wants Student, ID, SIS User ID, SIS Login ID, Section, then a column per assignment,
and may have a Points Possible row; Moodle's grading worksheet is one assignment's, with "Participant N" as
the Identifier; nbgrader.csv has `nbgrader export`'s columns in its order. Only submissions that count (not
superseded) are in them, one grade per learner and lesson, and whoever a file cannot hold is named in
lms/README.md with the reason. Built from Outcome rows: no kernel, no grading.
"""

from __future__ import annotations

import csv
import io
import re

import pytest

from packer.grading.exports import LmsSettings, lms_files
from packer.grading.outcome import Outcome

ONE = "01_assemble_context"
TWO = "02_prompt_packer"
CANVAS_HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_HEADER = [
    "Identifier",
    "Full name",
    "Email address",
    "Status",
    "Grade",
    "Maximum Grade",
    "Grade can be changed",
    "Last modified (submission)",
    "Last modified (grade)",
]
NBGRADER_HEADER = [
    "assignment",
    "duedate",
    "timestamp",
    "student_id",
    "last_name",
    "first_name",
    "email",
    "raw_score",
    "late_submission_penalty",
    "score",
    "max_score",
]


def outcome(name: str, learner: str, points: tuple[int, ...], lesson: str = ONE, **fields) -> Outcome:
    """A graded submission: one question per entry of `points`, each worth 5."""
    results = [{"qid": f"q{i + 1}", "points": p, "max_points": 5} for i, p in enumerate(points)]
    return Outcome(name, name, "0" * 64, lesson, fields.pop("status", "graded"), results, learner=learner, **fields)


def canvas(user_id: str) -> dict[str, str]:
    return {"tool": "canvas", "user_id": user_id, "attachment_id": "6" + user_id}


def moodle(participant_id: str, name: str) -> dict[str, str]:
    return {"tool": "moodle", "participant_id": participant_id, "name": name}


def files(outcomes: list[Outcome], settings: LmsSettings | None = None) -> dict[str, bytes]:
    return dict(lms_files(outcomes, settings or LmsSettings()))


def rows(data: bytes, encoding: str = "utf-8") -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode(encoding), newline="")))


def readme(outcomes: list[Outcome]) -> str:
    return files(outcomes)["lms/README.md"].decode("utf-8")


def section(text: str, heading: str) -> str:
    """The README's text under one heading, up to the next heading of the same or a higher level."""
    level = len(heading.split(" ")[0])
    start = text.index(heading + "\n")
    later = re.search(rf"\n#{{1,{level}}} ", text[start + len(heading) :])
    return text[start : start + len(heading) + later.start()] if later else text[start:]


MUELLER = outcome(
    "canvas/müllerjürgen_12353_67901_ex01.ipynb",
    "Müller, Jürgen",
    (5, 2),
    lms=canvas("12353"),
    submitted_at="2026-03-01T10:15:00+01:00",
)
MUELLER_FIRST_TRY = outcome(
    "canvas/müllerjürgen_12353_60000_ex01.ipynb",
    "Müller, Jürgen",
    (1, 0),
    lms=canvas("12353"),
    submitted_at="2026-02-20T09:00:00+01:00",
    superseded_by=MUELLER.name,
)
OBRIEN = outcome("canvas/obrienseán_12360_67950_ex02.ipynb", "O'Brien, Seán", (4, 4), TWO, lms=canvas("12360"))
CARTER = outcome(
    "moodle/Ben Carter_100239_assignsubmission_file_/ex01.ipynb",
    "Ben Carter",
    (3, 3),
    lms=moodle("100239", "Ben Carter"),
    late=True,
)
ALICE = outcome("folders/alice/exercise_01.ipynb", "alice", (5, 5))
CLASS = [MUELLER, MUELLER_FIRST_TRY, OBRIEN, CARTER, ALICE]


def test_the_files_and_where_they_go():
    assert list(files([MUELLER, CARTER])) == ["lms/canvas.csv", "lms/moodle.csv", "lms/nbgrader.csv", "lms/README.md"]


def test_canvas_header_then_points_possible_row():
    """Canvas's own column names and order, one column per lesson named by its slug, then the Points Possible
    row as Canvas's export writes it (Canvas takes a new assignment's points from it)."""
    table = rows(files([MUELLER, OBRIEN])["lms/canvas.csv"])
    assert table[0] == [*CANVAS_HEADER, ONE, TWO]
    assert table[1] == ["    Points Possible", "", "", "", "", "10", "10"]


def test_canvas_one_row_per_canvas_user_with_the_latest_total_and_blank_where_nothing_came():
    table = rows(files(CLASS)["lms/canvas.csv"])
    assert table[2:] == [
        ["Müller, Jürgen", "12353", "", "", "", "7", ""],
        ["O'Brien, Seán", "12360", "", "", "", "", "8"],
    ]


def test_canvas_column_names_come_from_the_settings():
    settings = LmsSettings(canvas_columns={ONE: "Exercise 01 (4821)"})
    assert rows(files([MUELLER, OBRIEN], settings)["lms/canvas.csv"])[0] == [*CANVAS_HEADER, "Exercise 01 (4821)", TWO]


@pytest.mark.parametrize("column", ["Section", "ID", "Final Grade", "Assignments Current Score"])
def test_a_canvas_column_canvas_would_not_read_as_an_assignment_is_refused(column):
    with pytest.raises(ValueError, match="not as an assignment"):
        files([MUELLER], LmsSettings(canvas_columns={ONE: column}))


def test_two_lessons_cannot_share_a_canvas_column():
    with pytest.raises(ValueError, match="a column of its own"):
        files([MUELLER, OBRIEN], LmsSettings(canvas_columns={ONE: "Exercise", TWO: "Exercise"}))


def test_blank_canvas_cells_are_listed_in_the_readme():
    text = section(readme(CLASS), "## lms/canvas.csv: Canvas")
    assert "Müller, Jürgen (ID 12353): 02_prompt_packer" in text
    assert "O'Brien, Seán (ID 12360): 01_assemble_context" in text


def test_learners_without_a_canvas_id_are_not_in_canvas_csv_but_in_the_readme_with_why():
    assert "Ben Carter" not in files(CLASS)["lms/canvas.csv"].decode("utf-8")
    text = section(readme(CLASS), "## lms/canvas.csv: Canvas")
    assert f"Ben Carter, `{CARTER.name}` ({ONE}): no Canvas user id; its ids come from Moodle" in text
    assert f"alice, `{ALICE.name}` ({ONE}): no Canvas user id; a plain folder, no course tool ids" in text


def test_moodle_worksheet_header_and_participant_identifier():
    table = rows(files(CLASS)["lms/moodle_01_assemble_context.csv"])
    assert table[0] == MOODLE_HEADER
    assert table[1:] == [["Participant 100239", "Ben Carter", "", "graded, late", "6", "10", "", "", ""]]


def test_one_lesson_one_moodle_csv_several_lessons_one_worksheet_each():
    assert "lms/moodle.csv" in files([CARTER, ALICE])
    several = files(CLASS)
    # lesson 02 has no learner with a Moodle participant id: its worksheet would place nobody, so it is not written
    assert [p for p in several if p.startswith("lms/moodle")] == ["lms/moodle_01_assemble_context.csv"]


def test_a_tools_file_is_written_only_when_a_learner_has_that_tools_id():
    plain = files([ALICE])
    assert sorted(plain) == ["lms/README.md", "lms/nbgrader.csv"]
    assert "so this file is not written" in section(plain["lms/README.md"].decode(), "## lms/canvas.csv: Canvas")


def test_a_submission_of_an_unknown_lesson_is_in_no_file_and_the_readme_says_so():
    lost = Outcome("class/zoe/homework.ipynb", "", "", "", "unknown lesson", learner="zoe")
    made = files([ALICE, lost])
    assert all(b"zoe" not in data for path, data in made.items() if path.endswith(".csv"))
    assert "- zoe, `class/zoe/homework.ipynb`: unknown lesson; grade it with --lesson" in made["lms/README.md"].decode()


def test_learners_without_a_moodle_id_are_named_under_their_worksheet():
    text = readme(CLASS)
    one = section(text, "### lms/moodle_01_assemble_context.csv")
    assert f"Müller, Jürgen, `{MUELLER.name}` ({ONE}): no Moodle participant id; its ids come from Canvas" in one
    assert f"alice, `{ALICE.name}` ({ONE}): no Moodle participant id" in one
    two = section(text, "### lms/moodle_02_prompt_packer.csv")
    assert "No counting submission has a Moodle participant id (1 in all), so this file is not written" in two


def test_nbgrader_csv_has_nbgrader_exports_columns_in_its_order():
    table = rows(files(CLASS)["lms/nbgrader.csv"])
    assert table[0] == NBGRADER_HEADER
    assert table[1:] == [
        [ONE, "", "", "alice", "alice", "", "", "10.0", "0.0", "10.0", "10.0"],
        [ONE, "", "", "Ben Carter", "Ben Carter", "", "", "6.0", "0.0", "6.0", "10.0"],
        [ONE, "", "2026-03-01 09:15:00", "Müller, Jürgen", "Müller", "Jürgen", "", "7.0", "0.0", "7.0", "10.0"],
        [TWO, "", "", "O'Brien, Seán", "O'Brien", "Seán", "", "8.0", "0.0", "8.0", "10.0"],
    ]


def test_nbgrader_csv_uses_nbgraders_student_id_and_gradescopes_sid_and_email():
    alice = outcome(
        "nb/submitted/alice/ps1/ex01.ipynb",
        "Alice Ng",
        (5,),
        lms={"tool": "nbgrader", "student_id": "alice", "assignment": "ps1"},
    )
    bob = outcome(
        "gs/submission_90001/ex01.ipynb",
        "Bob Li",
        (1,),
        lms={"tool": "gradescope", "submission_id": "90001", "sid": "S7", "email": "bob@example.edu", "name": "Bob Li"},
    )
    table = rows(files([alice, bob])["lms/nbgrader.csv"])
    assert [(r[3], r[6]) for r in table[1:]] == [("alice", ""), ("S7", "bob@example.edu")]  # the sid, not the name


def test_superseded_submissions_are_in_no_file():
    ghost = outcome("canvas/ghost_99_1_ex01.ipynb", "Ghost, Gil", (5, 5), lms=canvas("99"), superseded_by=MUELLER.name)
    everything = files([*CLASS, ghost])
    for path, data in everything.items():
        assert "Ghost" not in data.decode("utf-8"), path
        assert MUELLER_FIRST_TRY.name not in data.decode("utf-8"), path
    assert "Superseded resubmissions, in no file: 2." in everything["lms/README.md"].decode("utf-8")


def test_two_counting_submissions_for_one_learner_and_lesson_give_one_grade_and_the_readme_names_the_other():
    later = outcome(
        "canvas/müllerjürgen_12353_70000_ex01.ipynb",
        "Müller, Jürgen",
        (0, 1),
        lms=canvas("12353"),
        submitted_at="2026-03-02T08:00:00Z",
    )
    made = files([MUELLER, later])
    assert rows(made["lms/canvas.csv"])[2:] == [["Müller, Jürgen", "12353", "", "", "", "1"]]
    text = section(made["lms/README.md"].decode("utf-8"), "## lms/canvas.csv: Canvas")
    assert f"`{MUELLER.name}` ({ONE}): {later.name} also counts for this learner and lesson, handed in later" in text


def test_names_round_trip_as_utf8_and_are_quoted_as_csv_quotes():
    quoted = outcome("canvas/jo_12400_1_ex01.ipynb", 'Smith, Jo "JJ"', (1,), lms=canvas("12400"))
    data = files([MUELLER, OBRIEN, quoted])["lms/canvas.csv"]
    assert '"Müller, Jürgen",12353'.encode() in data
    assert b'"Smith, Jo ""JJ""",12400' in data
    assert [r[0] for r in rows(data)[2:]] == ["Müller, Jürgen", "O'Brien, Seán", 'Smith, Jo "JJ"']


def test_the_bom_is_there_only_when_asked_for_and_excel_encoding_reads_it():
    plain = files(CLASS)
    assert not any(data.startswith(b"\xef\xbb\xbf") for data in plain.values())
    with_bom = files(CLASS, LmsSettings(bom=True))
    for path in ("lms/canvas.csv", "lms/moodle_01_assemble_context.csv", "lms/nbgrader.csv"):
        assert with_bom[path] == b"\xef\xbb\xbf" + plain[path]
        assert rows(with_bom[path], "utf-8-sig") == rows(plain[path])
    assert rows(with_bom["lms/canvas.csv"], "utf-8-sig")[2][0] == "Müller, Jürgen"
    assert not with_bom["lms/README.md"].startswith(b"\xef\xbb\xbf")


def test_lines_end_with_a_newline_only():
    for path, data in files(CLASS).items():
        assert b"\r" not in data, path
        assert data.endswith(b"\n"), path


def test_the_same_rows_give_the_same_bytes_in_any_order():
    assert files(CLASS) == files(CLASS)
    assert files(CLASS) == files(list(reversed(CLASS)))


def test_the_readme_says_where_each_file_goes():
    text = readme(CLASS)
    assert "Grades, then Import" in text
    assert '"Upload grading worksheet"' in text
    assert "Allow updating records that have been modified more recently in Moodle than in the spreadsheet." in text
    assert "`nbgrader export`" in text


def test_a_row_whose_file_is_gone_is_in_no_file_and_the_readme_names_it():
    gone = outcome(
        "canvas/nguyenlan_12355_67912_ex01.ipynb",
        "nguyenlan",
        (3, 3),
        lms=canvas("12355"),
        flags=["file gone: not found when its folder was graded again"],
    )
    made = files([MUELLER, gone])
    assert b"12355" not in made["lms/canvas.csv"]
    assert "## In no file: the file is gone" in made["lms/README.md"].decode()
    assert f"- nguyenlan, `{gone.name}`: kept in grades.csv from an earlier run" in made["lms/README.md"].decode()


def test_the_due_date_fills_nbgraders_duedate_column():
    table = rows(files([ALICE], LmsSettings(due="2026-11-20T22:59:00+00:00"))["lms/nbgrader.csv"])
    assert table[1][1] == "2026-11-20 22:59:00"


def test_a_canvas_column_named_after_the_lesson_comes_with_the_way_to_name_the_real_one():
    default = section(readme([MUELLER]), "## lms/canvas.csv: Canvas")
    assert "creates a new assignment in Canvas" in default and "--canvas-column 01=" in default
    named = files([MUELLER], LmsSettings(canvas_columns={ONE: "Exercise 01 (4821)"}))["lms/README.md"].decode()
    assert "creates a new assignment" not in named


def test_without_canvas_learners_the_readme_lists_no_empty_column_list():
    assert "The lessons' columns:" not in readme([ALICE])
