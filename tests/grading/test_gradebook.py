"""The instructor's path: a messy folder as course tools lay it out, a gradebook that is never lost, a regrade
of one learner, and what the grader hands to Gradescope, the instructor and the TAs.

One messy class is graded once for the module; the regrade works on a copy of its gradebook. Two of its learners
are hostile (or unlucky): their names, their file names, what their answers print and raise, and what they
wrote hold Markdown, HTML, a spreadsheet formula, line breaks and a bidirectional control, and every file the
grader writes shows that as text (test_written_text.py proves the same of every field, for many more strings).
The command line checks need no kernel: they must fail before any grading starts.
"""

from __future__ import annotations

import csv
import json
import shutil
import zipfile

import nbformat
import pytest

from class_files import notebook, write
from grader_cli import grade_cli, grade_main
from packer.grading.demo_class import LESSON, definition_cell, exercise, solution
from packer.grading.escaping import lines_of, md_text, one_line
from packer.grading.escaping import shown as escaped
from packer.grading.reports import GRADESCOPE_FIELDS, GRADESCOPE_TEST_FIELDS, feedback_name, gradescope_name
from written_files import csv_rows, formula_cells, html_shown, markdown_shown

TIMEOUT = "20"  # seconds per cell and per check: generous, so a heavily loaded machine does not time out a check
# Starts with a heading, as learners' answers often do: the answer is found by its cell, not by how it starts.
ANSWER = "# My answer\n\nWhen chunks build on each other, like steps of a procedure, skipping one misleads."


def answered(words: str = ANSWER) -> str:
    """The solution with the learner's own words in the first open question's answer cell."""
    notebook = solution()
    next(c for c in notebook.cells if c.get("metadata", {}).get("workbook", {}).get("open_answer")).source = words
    return nbformat.writes(notebook)


# The issue's own strings: what a learner's exception, output, folder and file names held.
FORGED = "see <script>alert(1)</script> | col |\n## not a heading\n- nor a bullet"
CANVAS_LEARNER = '=HYPERLINK("evil.example") eve <b>|x`\u202e'  # Canvas's name part has no "_"
CANVAS_FILE = f"{CANVAS_LEARNER}_12350_67895_01_assemble_context ## not a heading <i>|`x`\u2028.ipynb"
MOODLE_LEARNER = "Eve <b onclick=alert(1)> | col `x`\n- nor a bullet"  # a folder's name: no "/" in it
MOODLE_FILE = "<b>eve</b> |x.ipynb"


def forged() -> str:
    """The solution, but its assemble_context prints and raises the forged text, q1.3's answer does not parse,
    its prediction is wrong, and its last cell raises the forged text too."""
    notebook = solution()
    definition_cell(notebook, "assemble_context").source = (
        "def assemble_context(chunks, max_tokens, separator='\\n\\n'):\n"
        f"    print({FORGED!r})\n    raise ValueError({FORGED!r})"
    )
    definition_cell(notebook, "assemble_prefix").source = "def assemble_prefix(chunks, max_tokens:\n    return ('', 0)"
    definition_cell(notebook, "predict_q1_5").source = "def predict_q1_5():\n    return ('intro | method', 85)"
    notebook.cells.append(nbformat.v4.new_code_cell(f"raise ValueError({FORGED!r})"))
    return nbformat.writes(notebook)


def lost_its_metadata() -> str:
    """The solution as a notebook that lost its metadata and its check cells (only --lesson can tell)."""
    notebook = solution()
    notebook.metadata.pop("workbook")
    for cell in notebook.cells:
        cell.source = "\n".join(line for line in cell.source.splitlines() if "check(" not in line)
    return nbformat.writes(notebook)


@pytest.fixture(scope="module")
def messy(tmp_path_factory):
    """A downloads folder from Canvas, Moodle and nbgrader, graded once with --lesson 01."""
    base = tmp_path_factory.mktemp("course")
    downloads = base / "downloads"
    canvas = downloads / "canvas"
    write(canvas / "smithjane_LATE_12345_67890_01_assemble_context.IPYNB", answered())
    with zipfile.ZipFile(canvas / "doejohn_12346_67891_lesson.zip", "w") as archive:
        archive.writestr("lesson/01_assemble_context.ipynb", notebook("strict-comparison"))
        archive.writestr("__MACOSX/lesson/._01_assemble_context.ipynb", "\x00\x05\x16\x07")
    write(canvas / "leemin_12347_67892_01_assemble_context.ipynb.json", notebook("half-done"))
    write(canvas / "wangwei_12348_67893_homework.ipynb", "this is not a notebook {")
    write(canvas / "kimsu_12349_67894_homework.ipynb", lost_its_metadata())
    write(canvas / "._smithjane_LATE_12345_67890_01_assemble_context.IPYNB", "\x00\x05\x16\x07")
    write(canvas / "syllabus.pdf", "%PDF-1.4")
    write(downloads / "moodle" / "张伟_1_assignsubmission_file_" / "01_assemble_context.ipynb", notebook("correct"))
    write(
        downloads / "moodle" / "李娜_2_assignsubmission_file_" / "01_assemble_context.ipynb",
        nbformat.writes(exercise()),
    )
    write(downloads / "nbgrader" / "submitted" / "s001" / "ps1" / "01_assemble_context.ipynb", notebook("correct"))
    write(downloads / "nbgrader" / "submitted" / "s001" / "ps1" / "timestamp.txt", "2026-11-01 10:00:00")
    write(canvas / CANVAS_FILE, forged())
    write(downloads / "moodle" / f"{MOODLE_LEARNER}_3_assignsubmission_file_" / MOODLE_FILE, answered(FORGED))
    out = base / "grades"
    run = grade_cli(str(downloads), "--out", str(out), "--jobs", "2", "--lesson", "01", "--timeout", TIMEOUT)
    assert run.returncode == 0, run.stderr
    rows = {r["submission"]: r for r in json.loads((out / "grades.json").read_text())["submissions"]}
    return rows, out, downloads, run


def row_of(rows: dict, learner: str) -> dict:
    return next(r for r in rows.values() if r["learner"] == learner)


def test_every_learner_of_every_layout_gets_one_row_and_nothing_else_does(messy):
    rows, _, _, run = messy
    assert sorted(r["learner"] for r in rows.values()) == sorted(
        ["smithjane", "doejohn", "leemin", "wangwei", "kimsu", "张伟", "李娜", "s001", CANVAS_LEARNER, MOODLE_LEARNER]
    )
    assert "skipped downloads/canvas/syllabus.pdf: not a notebook" in run.stderr
    assert "MACOSX" not in run.stderr and "._smithjane" not in run.stderr and "timestamp.txt" not in run.stderr


def test_the_csv_names_the_learner_and_flags_late_work(messy):
    _, out, *_ = messy
    table = {r["learner"]: r for r in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))}
    assert table["smithjane"]["late"] == "late" and table["doejohn"]["late"] == ""
    assert table["smithjane"]["submission"] == "downloads/canvas/smithjane_LATE_12345_67890_01_assemble_context.IPYNB"
    assert (
        table["doejohn"]["submission"]
        == "downloads/canvas/doejohn_12346_67891_lesson.zip/lesson/01_assemble_context.ipynb"
    )
    assert (table["张伟"]["total"], table["s001"]["total"], table["smithjane"]["total"]) == ("10", "10", "10")


def test_lesson_option_grades_a_notebook_that_lost_its_metadata(messy):
    rows, *_ = messy
    assert row_of(rows, "kimsu")["score"] == 10


def test_an_unreadable_row_carries_the_lessons_real_maximum(messy):
    rows, *_ = messy
    row = row_of(rows, "wangwei")
    assert (row["status"], row["score"], row["max_score"]) == ("unreadable", 0, 10)
    assert {t["status"] for t in row["tests"]} == {"not graded"}


def test_learners_whose_names_differ_only_in_dropped_characters_get_their_own_feedback(messy):
    rows, out, *_ = messy
    for learner in ("张伟", "李娜"):
        row = row_of(rows, learner)
        text = (out / feedback_name(row["submission"])).read_text(encoding="utf-8")
        assert f"# Feedback: {md_text(row['submission'])}" in text and f"learner: {learner}" in text
    assert row_of(rows, "张伟")["score"] == 10 and row_of(rows, "李娜")["score"] == 0


def test_gradescope_gets_one_results_json_per_submission_in_its_published_format(messy):
    rows, out, *_ = messy
    for name, row in rows.items():
        result = json.loads((out / gradescope_name(name)).read_text(encoding="utf-8"))
        assert set(result) <= set(GRADESCOPE_FIELDS) and result["score"] == row["score"]
        for test in result["tests"]:
            assert set(test) <= set(GRADESCOPE_TEST_FIELDS)
            assert test["status"] in ("passed", "failed") and test["number"].startswith("q1.")
        assert result["extra_data"]["status"] == row["status"]
    untouched = json.loads((out / "gradescope" / row_of(rows, "李娜")["submission"] / "results.json").read_text())
    assert {t["status"] for t in untouched["tests"]} == {"failed"}
    assert {t["extra_data"]["status"] for t in untouched["tests"]} == {"not attempted"}


def test_the_class_report_shows_statuses_then_each_lessons_scores_questions_and_misunderstandings(messy):
    rows, out, *_ = messy
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "| unreadable | 1 |" in report and "| no answers | 1 |" in report
    assert "## 01_assemble_context\n\n10 submissions count for this lesson (8 ran)." in report
    assert "![score distribution, 01_assemble_context](report/01_assemble_context/scores.png)" in report
    assert "| 10 / 10 | 5 |" in report
    assert "| question | passed | failed | did not run | not attempted | not graded | pass rate |" in report
    # pass rates over the 8 that ran: the unreadable file and the untouched exercise are counted apart
    assert "| q1.1 assemble_context | 6 | 2 | 0 | 1 | 1 | 75% |" in report
    assert "| q1.3 assemble_prefix | 6 | 0 | 1 | 2 | 1 | 75% |" in report  # the answer that does not parse
    helped = report[report.index("### Who needs help") : report.index("### Scores")]
    assert "**wangwei**" in helped and "**李娜** (" in helped and "handed in no answer" in helped
    assert "#### q1.1 assemble_context: 2 failing answers" in report
    forged = next(t for t in row_of(rows, CANVAS_LEARNER)["tests"] if t["qid"] == "q1.1")
    assert f"input:    {forged['counterexample']}\n" in report
    assert f"1 answer: {one_line(forged['actual'])}\n" in report
    assert "1 other answer disagreed on 1 other input" in report  # the strict comparison's own counterexample
    assert "q1.5 is a prediction: it has no input" in report and "1 answer: ('intro | method', 85)" in report
    for figure in ("scores", "questions"):
        assert (out / "report" / LESSON / f"{figure}.png").read_bytes().startswith(b"\x89PNG")


# What the grader's Markdown is made of; an element of any other kind (a link, a script, a <b>) is not the grader's.
ELEMENTS = {"h1", "h2", "h3", "h4", "p", "ul", "li", "strong", "em", "pre", "code", "blockquote", "img"}
TABLES = {"table", "thead", "tbody", "tr", "th", "td"}


def test_hostile_names_output_and_exceptions_show_as_text_in_every_file_the_grader_writes(messy):
    rows, out, _, run = messy
    assert "\u202e" not in run.stderr + run.stdout  # the progress bar names the file: its controls shown as escapes
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    kinds = {"feedback/", "gradescope/", "answers/", "report.md", "lms/README.md", "lms/canvas.csv", "lms/moodle.csv"}
    assert all(any(name.startswith(kind) for name in files) for kind in kinds | {"lms/nbgrader.csv", "grades.csv"})
    for name, data in files.items():
        assert "\u202e" not in name, name  # the learner's right-to-left override, in a folder's name: escaped
        if not name.endswith((".png", "grades.json")):  # grades.json is the data itself, kept as it came
            assert "\u202e" not in data.decode("utf-8-sig"), name
        if name.endswith(".md"):
            shown = markdown_shown(data.decode("utf-8"))
            tags = {element.strip("</>").split(" ")[0] for element in shown.elements}
            assert tags <= ELEMENTS | (TABLES if name == "report.md" else set()), (name, tags)
            for tag, text in shown.blocks:  # no heading, list item or cell the forged text made
                assert not text.startswith(("not a heading", "nor a bullet", "col")), (name, tag, text)
        elif name.endswith(".csv"):
            table = csv_rows(data)
            assert len({len(row) for row in table}) == 1 and formula_cells(table) == [], name
        elif name.endswith("results.json"):
            results = json.loads(data)
            assert (results["output_format"], results["test_output_format"]) == ("simple_format", "text"), name
            assert html_shown(results["output"]).elements == [], name
            assert all((t["output_format"], t["name_format"]) == ("text", "text") for t in results["tests"]), name

    row = row_of(rows, CANVAS_LEARNER)
    feedback = markdown_shown(files[feedback_name(row["submission"])].decode("utf-8"))
    headings = [text for tag, text in feedback.blocks if tag.startswith("h")]
    items = [text for tag, text in feedback.blocks if tag == "li"]
    assert headings[0] == f"Feedback: {one_line(row['submission'])}" and "\\u2028" in headings[0]
    assert len(headings) == 1 + 1 + len(row["tests"])  # the title, the notes, one per question: nothing forged
    assert len(items) == 5 + len(row["notes"]) and f"learner: {one_line(CANVAS_LEARNER)}" in items
    assert any(item.endswith(f"raised ValueError: {one_line(FORGED)}") for item in items)  # the last cell's
    assert "\n".join(f"  | {line}" for line in FORGED.splitlines()) in feedback.text  # what the answer printed
    results = json.loads(files[gradescope_name(row["submission"])])
    assert results["extra_data"]["learner"] == escaped(CANVAS_LEARNER)
    assert lines_of(FORGED) in html_shown(results["output"]).text and "<script>" in results["tests"][0]["output"]
    answers = markdown_shown(files[f"answers/{LESSON}/open-question-1.md"].decode("utf-8"))
    moodle = row_of(rows, MOODLE_LEARNER)
    assert ("h2", f"{one_line(MOODLE_LEARNER)} ({one_line(moodle['submission'])})") in answers.blocks
    assert lines_of(FORGED) in answers.text  # the written answer, as the learner typed it
    graded = {r[1]: r for r in csv_rows(files["grades.csv"])}
    canvas = "'" + escaped(CANVAS_LEARNER)  # a formula's start is quoted, the override shown as its escape
    assert canvas in graded and MOODLE_LEARNER in graded
    assert "q1.3 did not run: cell" in graded[canvas][-1]
    assert [canvas, "12350", "", "", "", "0"] in csv_rows(files["lms/canvas.csv"])
    assert MOODLE_LEARNER in [r[1] for r in csv_rows(files["lms/moodle.csv"])]


def test_open_written_answers_are_exported_per_question_for_manual_grading(messy):
    _, out, *_ = messy
    first = (out / "answers" / LESSON / "open-question-1.md").read_text(encoding="utf-8")
    assert "skip-and-continue" in first and ANSWER in first
    assert "## smithjane (" in first and "## 李娜 (" in first and "*(no answer)*" in first
    assert (out / "answers" / LESSON / "open-question-2.md").exists()


def test_regrading_one_learner_updates_only_their_row_and_keeps_everything_else(messy, tmp_path):
    rows, out, downloads, _ = messy
    book = tmp_path / "grades"
    shutil.copytree(out, book)
    (book / "feedback" / "ta-notes.txt").write_text("Talk to leemin about q1.3")
    (book / "moderation.md").write_text("moderated by the TA")
    before = {p.relative_to(book).as_posix(): p.read_bytes() for p in book.rglob("*") if p.is_file()}
    leemin = downloads / "canvas" / "leemin_12347_67892_01_assemble_context.ipynb.json"
    original = leemin.read_text()
    write(leemin, notebook("correct"))
    try:
        run = grade_cli(str(leemin), "--out", str(book), "--jobs", "1", "--lesson", "01", "--timeout", TIMEOUT)
    finally:
        write(leemin, original)
    assert run.returncode == 0, run.stderr
    assert "graded 1 submission in" in run.stdout and "kept 9 rows" in run.stdout
    after = {r["submission"]: r for r in json.loads((book / "grades.json").read_text())["submissions"]}
    name = row_of(rows, "leemin")["submission"]
    assert set(after) == set(rows) and (rows[name]["score"], after[name]["score"]) == (5, 10)
    assert {n: r for n, r in after.items() if n != name} == {n: r for n, r in rows.items() if n != name}
    assert (book / "feedback" / "ta-notes.txt").read_text() == "Talk to leemin about q1.3"
    assert (book / "moderation.md").read_text() == "moderated by the TA"
    assert (book / "backup" / "grades.csv").read_bytes() == before["grades.csv"]
    for other in (feedback_name(n) for n in rows if n != name):
        assert (book / other).read_bytes() == before[other]


# --- the command line refuses before any grading -------------------------------------------------------------
def refused(capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as stop:
        grade_main(list(args))
    assert stop.value.code == 2
    return capsys.readouterr().err


@pytest.fixture
def ours(tmp_path):
    """A gradebook of ours, with a TA's note in it, and a class folder."""
    book = tmp_path / "grades"
    write(book / "grades.json", json.dumps({"format": 2, "grader": {"checks_version": "x"}, "submissions": []}))
    write(book / "grades.csv", "submission,status\n")
    write(book / "feedback" / "ta-notes.txt", "keep me")
    write(tmp_path / "class" / "alice.ipynb", notebook("correct"))
    return book, {p: p.read_bytes() for p in book.rglob("*") if p.is_file()}


def test_a_typo_in_a_submissions_path_stops_before_grading_and_keeps_the_gradebook(capsys, tmp_path, ours):
    book, before = ours
    assert "submissions: " in refused(capsys, str(tmp_path / "clas"), "--out", str(book))
    assert {p: p.read_bytes() for p in book.rglob("*") if p.is_file()} == before


def test_out_naming_a_file_is_an_error_before_grading(capsys, tmp_path, ours):
    (tmp_path / "grades.csv").write_text("my spreadsheet\n")
    assert "is a file" in refused(capsys, str(tmp_path / "class"), "--out", str(tmp_path / "grades.csv"))
    assert (tmp_path / "grades.csv").read_text() == "my spreadsheet\n"
    assert "looks like a file name" in refused(capsys, str(tmp_path / "class"), "--out", str(tmp_path / "marks.csv"))
    assert not (tmp_path / "marks.csv").exists()


def test_a_folder_that_is_not_our_gradebook_is_refused_untouched(capsys, tmp_path, ours):
    course = tmp_path / "course"  # an nbgrader course root
    write(course / "feedback" / "s001" / "ps1" / "ps1.html", "<p>nbgrader's feedback</p>")
    write(course / "nbgrader_config.py", "c = get_config()")
    assert "holds no gradebook written by this grader" in refused(capsys, str(tmp_path / "class"), "--out", str(course))
    assert (course / "feedback" / "s001" / "ps1" / "ps1.html").exists()


def test_out_inside_the_submissions_folder_is_refused(capsys, tmp_path, ours):
    assert "inside the submissions folder" in refused(
        capsys, str(tmp_path / "class"), "--out", str(tmp_path / "class" / "grades")
    )


def test_unknown_question_ids_and_lessons_are_refused(capsys, tmp_path, ours):
    assert "unknown question id q1.9" in refused(
        capsys, str(tmp_path / "class"), "--out", str(tmp_path / "o"), "--questions", "q1.1", "q1.9"
    )
    assert "unknown question id q2.1" in refused(
        capsys, str(tmp_path / "class"), "--out", str(tmp_path / "o"), "--lesson", "01", "--questions", "q2.1"
    )
    assert "unknown lesson '99'" in refused(
        capsys, str(tmp_path / "class"), "--out", str(tmp_path / "o"), "--lesson", "99"
    )
