"""The files a course tool imports, made from the gradebook's rows: `lms/canvas.csv`, Moodle's grading
worksheet (`lms/moodle.csv`, or one `lms/moodle_<lesson>.csv` per lesson), `lms/nbgrader.csv`, and
`lms/README.md` (which file goes where, how to import it, and which submissions are in no file and why).

The rows that count are the outcomes with `superseded_by == ""`; the others are resubmissions that a later one
replaced. A file holds one grade per learner and lesson (the lesson slug is the assignment): the submission's
`score` out of its `max_score`. Should two counting submissions still share a learner and a lesson, the one
handed in last (`submitted_at`, then the submission name) goes in, and lms/README.md names the other. Every
CSV is UTF-8 with "\\n" line endings (as Canvas's and nbgrader's exports write; Moodle's reader takes either)
and the csv module's minimal quoting, its rows sorted; `LmsSettings.bom` puts the UTF-8 byte order mark
first, for Excel. No time of the run goes in: the same rows give the same bytes.

Canvas: `lms/canvas.csv`, imported from the Gradebook (Grades, Import).
  Guide: https://community.instructure.com/en/kb/articles/660862-how-do-i-import-grades-in-the-gradebook
  The rules below are read from Canvas's source:
  https://github.com/instructure/canvas-lms/blob/master/lib/gradebook_importer.rb (what the import reads),
  https://github.com/instructure/canvas-lms/blob/master/lib/gradebook_exporter.rb (what its export writes),
  https://github.com/instructure/canvas-lms/blob/master/ui/features/gradebook_uploads/jquery/index.js and
  process_gradebook_upload.js beside it (the review page, and what it sends).
  - Header: Student, ID, SIS User ID, SIS Login ID, Section, then one column per lesson. The importer wants
    "Student" and "ID" first and "Section" last among the student columns, and SIS User ID only followed by
    SIS Login ID.
  - Second row: "    Points Possible" (as Canvas's export writes it) and each lesson's points. The importer
    reads it for the points of an assignment it creates from a column.
  - Matching: by ID (the Canvas user id), then SIS User ID or SIS Login ID, then a Student name equal to a
    Canvas name or sortable name; a row still unmatched goes to a page where you pick the student or ignore
    it. The SIS columns and Section are blank here.
  - Who is in it: learners whose `lms` holds a Canvas `user_id`. Without one, Canvas could match only on the
    name, which it does without asking and which two students can share; lms/README.md lists them instead.
  - Columns: a header "Title (12345)" updates assignment 12345; any other header updates the assignment
    titled exactly so, or Canvas offers to create it (published, with the Points Possible row's points).
    The default header is the lesson slug (`01_assemble_context`): the lesson as the grader and grades.csv
    name it, and the name a new Canvas assignment would get. `LmsSettings.canvas_columns` gives the real
    ones. A header that is a reserved student column name, or that contains "Current Score", "Final Grade"
    and the like, is not read as an assignment, so it is refused here (ValueError).
  - A cell is blank where the learner handed nothing in for that lesson. A blank replacing a grade Canvas
    holds removes it (the review page highlights that), so lms/README.md lists those cells.
  - Canvas's own export writes "\\n" and offers the BOM as a per-user option.

Moodle: the assignment's offline grading worksheet, uploaded with "Upload grading worksheet". A worksheet
belongs to one assignment, so there is one per lesson when the gradebook holds several.
  The rules below are read from Moodle's source:
  https://github.com/moodle/moodle/blob/main/mod/assign/feedback/offline/importgradeslib.php and locallib.php
  beside it (the upload), https://github.com/moodle/moodle/blob/main/mod/assign/gradingtable.php (the
  downloaded worksheet's columns), https://github.com/moodle/moodle/blob/main/mod/assign/lang/en/assign.php
  and mod/assign/feedback/offline/lang/en/assignfeedback_offline.php (the column and menu names).
  - Header: Identifier, Full name, Email address, Status, Grade, Maximum Grade, Grade can be changed,
    Last modified (submission), Last modified (grade): the columns Moodle's download writes for a
    points-graded assignment showing email, less those that depend on its settings (marker, marking
    workflow, group, and the submission and feedback plugins' columns).
  - The upload finds its columns by exact name and reads Identifier, Grade and Last modified (grade), and
    any feedback plugin's column (Feedback comments), whose cell replaces the comment, empty or not. So
    Feedback comments is left out, and so is Online text (not read).
  - Identifier: "Participant " and the number Moodle put in the download's file names
    (`Ben Carter_100239_assignsubmission_file_`, `lms["participant_id"]`). The upload looks it up among the
    assignment's participants and skips a row it cannot place. Only learners with a participant id are in it.
  - Last modified (grade) is blank. Moodle then keeps a grade it already holds, unless "Allow updating
    records that have been modified more recently in Moodle than in the spreadsheet" is ticked.
  - Moodle skips a grade above the assignment's maximum grade (it does not rescale).
  - Email address and Grade can be changed are blank (not known here); Status is the grader's status.
  - The reader strips a BOM and accepts "\\r\\n" or "\\n".

nbgrader: `lms/nbgrader.csv`, the CSV `nbgrader export` writes, for whatever reads that file.
  https://github.com/jupyter/nbgrader/blob/main/nbgrader/plugins/export.py (CsvExportPlugin)
  https://nbgrader.readthedocs.io/en/stable/plugins/export-plugin.html
  - Columns, in its order: assignment, duedate, timestamp, student_id, last_name, first_name, email,
    raw_score, late_submission_penalty, score, max_score. Numbers are Python floats ("7.0"), a timestamp is
    naive UTC as `str(datetime)` ("2026-03-01 09:15:00"), as nbgrader keeps them; rows go by assignment,
    then last and first name, as nbgrader's queries order them.
  - assignment is the lesson slug; duedate is the grader's --due (blank, nbgrader's own blank for none,
    without one); student_id is the nbgrader student id where the submission came from nbgrader, Gradescope's
    sid (else email) where it came from Gradescope, else the learner's name; a name is split
    only at a comma ("Müller, Jürgen"), else all of it is the last name; email is Gradescope's where known;
    late_submission_penalty is 0.0 (the grader flags late work, it takes no points), so score = raw_score.
  - nbgrader writes a row of zeros for each student in its database who handed nothing in; the grader has
    no roster, so no such rows are made up here. nbgrader joins fields with bare commas; here a field with a
    comma or a quote is quoted, and the text is otherwise the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

from packer.grading.escaping import csv_text, md_code, md_text
from packer.grading.layouts import is_gone, lms_id
from packer.grading.outcome import Outcome

BOM = b"\xef\xbb\xbf"
TOOLS = {"canvas": "Canvas", "moodle": "Moodle", "gradescope": "Gradescope", "nbgrader": "nbgrader"}

CANVAS_FILE = "lms/canvas.csv"
CANVAS_STUDENT_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
CANVAS_POINTS_POSSIBLE = "    Points Possible"  # as Canvas's own export writes it
CANVAS_RESERVED = (*CANVAS_STUDENT_COLUMNS, "LastName", "FirstName", "Integration ID", "Root Account")
CANVAS_NOT_ASSIGNMENTS = (  # a header containing one of these is skipped as a total, not read as an assignment
    "Current Score",
    "Current Points",
    "Current Grade",
    "Final Score",
    "Final Points",
    "Final Grade",
    "Override Score",
    "Override Grade",
    "Override Status",
)

MOODLE_COLUMNS = (
    "Identifier",
    "Full name",
    "Email address",
    "Status",
    "Grade",
    "Maximum Grade",
    "Grade can be changed",
    "Last modified (submission)",
    "Last modified (grade)",
)
MOODLE_PARTICIPANT = "Participant "  # Moodle's string before the number in Identifier

NBGRADER_FILE = "lms/nbgrader.csv"
NBGRADER_COLUMNS = (
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
)
README_FILE = "lms/README.md"


@dataclass
class LmsSettings:
    """How the LMS files are written: the UTF-8 BOM for Excel, and each lesson's Canvas column name."""

    bom: bool = False
    canvas_columns: dict[str, str] = field(default_factory=dict)  # lesson slug -> e.g. "Exercise 01 (4821)"
    due: str = ""  # the run's --due (ISO 8601), nbgrader.csv's duedate; "" when none


@dataclass
class Unplaced:
    """A counting submission one file leaves out, and why."""

    file: str
    outcome: Outcome
    why: str


@dataclass
class Part:
    """One CSV: its rows, how many counting submissions it was made from, those it leaves out, and notes."""

    path: str
    rows: list[list[str]]
    total: int
    unplaced: list[Unplaced] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def kept_settings(previous: dict, bom: bool | None, columns: dict[str, str]) -> dict:
    """A run's LMS settings as data: what the command line gives (`bom` None: not given), else what the
    gradebook kept from the run before."""
    settings = {"bom": False, "canvas_columns": {}, **previous}
    if bom is not None:
        settings["bom"] = bom
    settings["canvas_columns"] = {**settings["canvas_columns"], **columns}
    return settings


def counting(outcomes: list[Outcome]) -> list[Outcome]:
    """The rows that count (no later submission replaces them, and their file is still there), by name."""
    return sorted((o for o in outcomes if not o.superseded_by and not is_gone(o)), key=lambda o: o.name)


def lesson_slug(lesson: str) -> str:
    """The lesson as it names a file or a column: its slug, or `unknown_lesson` when the grader had none."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", lesson) or "unknown_lesson"


def handed_in(o: Outcome) -> tuple[datetime, str]:
    """Sort key for "handed in later": `submitted_at` (a time without a zone read as UTC), then the name."""
    try:
        when = datetime.fromisoformat(o.submitted_at)
    except ValueError:
        when = datetime.min
    return (when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)), o.name


def id_order(value: str) -> tuple[int, int, str]:
    """Sort key for ids: numbers by value, before any id that is not a number."""
    return (0, int(value), "") if value.isdigit() else (1, 0, value)


def no_id(o: Outcome, what: str, tool: str) -> str:
    """Why a submission lacks the id a file needs: where its ids come from instead."""
    came = o.lms.get("tool", "")
    if came == tool:
        return f"no {what} among its {TOOLS[tool]} ids"
    return f"no {what}; " + (
        f"its ids come from {TOOLS.get(came, came)}" if came else "a plain folder, no course tool ids"
    )


def split(
    outcomes: list[Outcome], has_id: Callable[[Outcome], bool], path: str, what: str, tool: str
) -> tuple[list[Outcome], list[Unplaced]]:
    """The submissions that carry the id a file needs, and the others as left out, with why."""
    placed = [o for o in outcomes if has_id(o)]
    return placed, [Unplaced(path, o, no_id(o, what, tool)) for o in outcomes if not has_id(o)]


def one_each(
    outcomes: list[Outcome], key: Callable[[Outcome], Hashable], path: str
) -> tuple[dict[Hashable, Outcome], list[Unplaced]]:
    """One submission per key (a learner and a lesson): the one handed in last; the others as left out."""
    groups: dict[Hashable, list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(key(o), []).append(o)
    chosen: dict[Hashable, Outcome] = {}
    left: list[Unplaced] = []
    for k, group in groups.items():
        best = chosen[k] = max(group, key=handed_in)
        why = f"{best.name} also counts for this learner and lesson, handed in later; one grade each"
        left += [Unplaced(path, o, why) for o in group if o is not best]
    return chosen, left


def canvas_columns(lessons: list[str], settings: LmsSettings) -> list[str]:
    """Each lesson's Canvas column header (from the settings, else the lesson slug); a ValueError for one that
    Canvas would not read as an assignment, or for two lessons sharing one."""
    columns = [settings.canvas_columns.get(lesson) or lesson_slug(lesson) for lesson in lessons]
    for lesson, column in zip(lessons, columns):
        if column in CANVAS_RESERVED or any(total in column for total in CANVAS_NOT_ASSIGNMENTS):
            raise ValueError(
                f"Canvas column {column!r} for lesson {lesson!r}: Canvas reads a column of that name as a "
                "student column or a total, not as an assignment; give the assignment's own column name"
            )
    shared = sorted({c for c in columns if columns.count(c) > 1})
    if shared:
        raise ValueError(f"Canvas columns {shared}: each lesson needs a column of its own")
    return columns


def cell(o: Outcome | None) -> str:
    """A grade cell: the points, or blank where nothing was handed in."""
    return "" if o is None else str(o.score)


def canvas_part(outcomes: list[Outcome], settings: LmsSettings) -> Part:
    """lms/canvas.csv: the header, the Points Possible row, then one row per Canvas user id."""
    placed, left = split(
        outcomes,
        lambda o: o.lms.get("tool") == "canvas" and bool(o.lms.get("user_id")),
        CANVAS_FILE,
        "Canvas user id",
        "canvas",
    )
    lessons = sorted({o.lesson for o in placed})  # a column for each lesson a Canvas learner handed in
    possible = [str(max(o.max_score for o in placed if o.lesson == lesson)) for lesson in lessons]
    rows = [
        [*CANVAS_STUDENT_COLUMNS, *canvas_columns(lessons, settings)],
        [CANVAS_POINTS_POSSIBLE, "", "", "", "", *possible],
    ]
    chosen, doubles = one_each(placed, lambda o: (o.lms["user_id"], o.lesson), CANVAS_FILE)
    users: dict[str, dict[str, Outcome]] = {}
    for (user_id, lesson), o in chosen.items():
        users.setdefault(user_id, {})[lesson] = o
    names = {user_id: max(graded.values(), key=handed_in).learner for user_id, graded in users.items()}
    blanks = []
    for user_id in sorted(users, key=lambda u: (names[u].casefold(), names[u], id_order(u))):
        graded = users[user_id]
        rows.append([names[user_id], user_id, "", "", "", *[cell(graded.get(lesson)) for lesson in lessons]])
        blanks += [f"{names[user_id]} (ID {user_id}): {lesson}" for lesson in lessons if lesson not in graded]
    return Part(CANVAS_FILE, rows, len(outcomes), left + doubles, blanks)


def moodle_parts(outcomes: list[Outcome]) -> list[Part]:
    """Moodle's grading worksheet: lms/moodle.csv for one lesson, else lms/moodle_<lesson>.csv for each."""
    lessons = sorted({o.lesson for o in outcomes})
    parts = []
    for lesson in lessons or [""]:
        path = "lms/moodle.csv" if len(lessons) <= 1 else f"lms/moodle_{lesson_slug(lesson)}.csv"
        mine = [o for o in outcomes if o.lesson == lesson]
        placed, left = split(
            mine,
            lambda o: o.lms.get("tool") == "moodle" and bool(o.lms.get("participant_id")),
            path,
            "Moodle participant id",
            "moodle",
        )
        chosen, doubles = one_each(placed, lambda o: o.lms["participant_id"], path)
        rows = [list(MOODLE_COLUMNS)]
        for participant in sorted(chosen, key=id_order):
            o = chosen[participant]
            status = o.status + (", late" if o.late else "")
            name = o.lms.get("name") or o.learner
            rows.append(
                [
                    MOODLE_PARTICIPANT + participant,
                    name,
                    "",
                    status,
                    str(o.score),
                    str(o.max_score),
                    "",
                    o.submitted_at,
                    "",
                ]
            )
        parts.append(Part(path, rows, len(mine), left + doubles))
    return parts


def learner_key(o: Outcome) -> tuple[str, str]:
    """Who a submission is from, by the course tool's own id (Gradescope: sid, else email), else the learner."""
    own = lms_id(o.lms)
    return (o.lms.get("tool", ""), own) if own else ("", o.learner)


def nbgrader_id(o: Outcome) -> str:
    """The student_id nbgrader.csv uses: nbgrader's own where the submission came from nbgrader, Gradescope's
    sid (else email) where it came from Gradescope, else the learner."""
    if o.lms.get("tool") == "nbgrader":
        return o.lms.get("student_id", "")
    return o.lms.get("sid") or o.lms.get("email") or o.learner


def split_name(name: str) -> tuple[str, str]:
    """(last_name, first_name): split at the first comma ("Müller, Jürgen"), else all of it is the last name."""
    last, _, first = name.partition(",")
    return last.strip(), first.strip()


def nbgrader_time(submitted_at: str) -> str:
    """An ISO 8601 time as nbgrader's CSV shows a timestamp: in UTC, without the zone, as `str(datetime)`."""
    try:
        when = datetime.fromisoformat(submitted_at)
    except ValueError:
        return submitted_at
    return str(when.astimezone(UTC).replace(tzinfo=None) if when.tzinfo else when)


def nbgrader_part(outcomes: list[Outcome], due: str = "") -> Part:
    """lms/nbgrader.csv: `nbgrader export`'s columns, one row per learner and assignment."""
    placed, left = split(
        outcomes, lambda o: bool(nbgrader_id(o)), NBGRADER_FILE, "learner name or nbgrader student id", "nbgrader"
    )
    chosen, doubles = one_each(placed, lambda o: (o.lesson, learner_key(o)), NBGRADER_FILE)
    rows = []
    for o in chosen.values():
        last, first = split_name(o.learner or o.lms.get("name", ""))
        raw, penalty = float(o.score), 0.0
        when = nbgrader_time(o.submitted_at)
        email = o.lms.get("email", "")
        rows.append(
            [
                o.lesson,
                nbgrader_time(due),
                when,
                nbgrader_id(o),
                last,
                first,
                email,
                str(raw),
                str(penalty),
                str(max(0.0, raw - penalty)),
                str(float(o.max_score)),
            ]
        )
    rows.sort(key=lambda row: (row[0], row[4].casefold(), row[5].casefold(), row[4], row[5], row[3]))
    return Part(NBGRADER_FILE, [list(NBGRADER_COLUMNS), *rows], len(outcomes), left + doubles)


def csv_bytes(rows: list[list[str]], settings: LmsSettings) -> bytes:
    """Rows as UTF-8 CSV with "\\n" line endings (escaping.csv_text), after the BOM when the settings ask for it."""
    return (BOM if settings.bom else b"") + csv_text(rows).encode("utf-8")


def left_out(part: Part, what: str) -> list[str]:
    """lms/README.md's lines on the counting submissions one file leaves out, and why."""
    if not part.unplaced:
        return ["Every counting submission is in this file."]
    if len(part.unplaced) == part.total and all(u.why.startswith(f"no {what}") for u in part.unplaced):
        return [
            f"No counting submission has a {what} ({part.total} in all), so this file is not written: the class "
            "came from another tool."
        ]
    lines = ["Not in this file:", ""]
    for u in sorted(part.unplaced, key=lambda u: (u.outcome.learner.casefold(), u.outcome.learner, u.outcome.name)):
        lines.append(
            f"- {md_text(u.outcome.learner or '(no name)')}, {md_code(u.outcome.name)} ({md_text(u.outcome.lesson)}): "
            + md_text(u.why)
        )
    return lines


def readme(superseded: int, lessons: list[str], canvas: Part, moodle: list[Part], nbgrader: Part) -> str:
    """lms/README.md: which file goes where, how to import it, and which submissions are in no file and why
    (`lessons`: the lessons canvas.csv has a column for)."""
    columns = canvas.rows[0][len(CANVAS_STUDENT_COLUMNS) :]
    lines = [
        "# Files for the course tools",
        "",
        f"Counting submissions: {canvas.total}. Superseded resubmissions, in no file: {superseded}. A grade is "
        "a submission's points (the total of its questions), out of the points it could earn. Every CSV is "
        "UTF-8 with \\n line endings.",
        "",
        "## lms/canvas.csv: Canvas",
        "",
        "In the course, Grades, then Import in the Gradebook, and choose the file. Canvas shows every change "
        "(From, To) before it saves any.",
        "",
        "A row is a Canvas user id (the ID column, from the download's file names), and Canvas matches on it; "
        "SIS User ID, SIS Login ID and Section are blank. The second row is Points Possible."
        + (" The lessons' columns:" if lessons else ""),
        "",
        *[f"- {md_text(lesson)}: {md_code(column)}" for lesson, column in zip(lessons, columns)],
        *([""] if lessons else []),
        *(
            [
                "A column named after the lesson creates a new assignment in Canvas. To update the assignment "
                "the course already has, grade again with `--canvas-column 01='<its column name>'`, the name "
                "as Canvas's own gradebook export (Grades, Export) writes it, `Title (assignment id)`.",
                "",
            ]
            if any(column == lesson for lesson, column in zip(lessons, columns))
            else []
        ),
        'A column named "Title (12345)" updates assignment 12345. Any other name updates the assignment with '
        "exactly that title, or Canvas offers to create one (published, its points from the Points Possible "
        "row). Canvas takes the points as they are: it does not rescale them to the assignment's points.",
        "",
    ]
    if canvas.notes:
        lines += [
            "Blank cells (nothing handed in for that lesson). Canvas reads a blank as no grade: where it already "
            "holds a grade there, the import removes it, and the review page highlights that:",
            "",
            *[f"- {md_text(note)}" for note in canvas.notes],
            "",
        ]
    lines += [*left_out(canvas, "Canvas user id"), "", "## Moodle: the grading worksheet", ""]
    if len(moodle) > 1:
        lines += ["A worksheet belongs to one assignment: upload each file to its own lesson's assignment.", ""]
    lines += [
        'In the assignment, on the page listing the submissions, the grading action "Upload grading '
        'worksheet", then the file (encoding UTF-8, separator comma). The action is there when the '
        'assignment\'s feedback types include "Offline grading worksheet". Moodle shows the changes to '
        "confirm before it saves them.",
        "",
        'Identifier is "Participant" and the number in Moodle\'s download file names; Moodle matches on it, '
        "among that assignment's participants. Last modified (grade) is blank, so Moodle keeps a grade it "
        'already holds unless you tick "Allow updating records that have been modified more recently in '
        "Moodle than in the spreadsheet.\" Moodle skips a grade above the assignment's maximum grade: set "
        "that to the Maximum Grade column. There is no Feedback comments column: Moodle would replace the "
        "comments already written with it.",
        "",
    ]
    for part in moodle:
        lines += [f"### {md_text(part.path)}", "", *left_out(part, "Moodle participant id"), ""]
    lines += [
        "## lms/nbgrader.csv",
        "",
        "The CSV `nbgrader export` writes (its columns, in its order), for whatever reads that file. "
        "assignment is the lesson; student_id is the nbgrader student id where the submission came from "
        "nbgrader, Gradescope's sid where it came from Gradescope, else the learner's name; duedate is --due's; late_submission_penalty is 0.0 (late work is "
        "flagged in grades.csv, not docked).",
        "",
        *left_out(nbgrader, "learner name or nbgrader student id"),
    ]
    return "\n".join(lines) + "\n"


def lms_files(outcomes: list[Outcome], settings: LmsSettings) -> Iterator[tuple[str, bytes]]:
    """Every file under lms/ as (path in the gradebook folder, bytes): canvas.csv, the Moodle worksheet(s),
    nbgrader.csv and README.md."""
    rows = [o for o in counting(outcomes) if o.lesson]  # a grade needs an assignment: the lesson
    unknown = [o for o in counting(outcomes) if not o.lesson]
    canvas, moodle, nbgrader = canvas_part(rows, settings), moodle_parts(rows), nbgrader_part(rows, settings.due)
    for part in (canvas, *moodle, nbgrader):
        if part is nbgrader or len(part.rows) > (2 if part is canvas else 1):  # a tool's file, when it has a learner
            yield part.path, csv_bytes(part.rows, settings)
    lessons = sorted({o.lesson for o in rows if o.lms.get("tool") == "canvas" and o.lms.get("user_id")})
    gone = sorted((o for o in outcomes if is_gone(o)), key=lambda o: o.name)
    text = readme(sum(bool(o.superseded_by) for o in outcomes), lessons, canvas, moodle, nbgrader)
    if gone:
        text += "\n## In no file: the file is gone\n\n" + "".join(
            f"- {md_text(o.learner or '(no name)')}, {md_code(o.name)}: kept in grades.csv from an earlier run, but no "
            "longer in the folder graded; grade it again if it was only moved\n"
            for o in gone
        )
    if unknown:
        text += "\n## In no file: the lesson is unknown\n\n" + "".join(
            f"- {md_text(o.learner or '(no name)')}, {md_code(o.name)}: {md_text(o.status)}; grade it with --lesson, or "
            "enter it by hand\n"
            for o in unknown
        )
    yield README_FILE, text.encode("utf-8")
