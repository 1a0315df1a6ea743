"""A learner's text cannot forge the grader's words: every string that came from a submission, a file or folder
name, a course tool's names or a learner's code and output is escaped for the format it lands in
(packer.grading.escaping), and each file the grader writes, read back as its readers read it (written_files.py),
shows that text as text: no element, heading, list item, table cell or link the grader did not write.

The property: the grader writes the files of a class (the feedback files, Gradescope's results, the class
report, the written answers, grades.csv and every LMS file) twice from the same rows, once with hostile strings
in every field that comes from outside and once with plain placeholders in their place. Read back, both show
the same elements, the hostile text is shown where the placeholder was, and no CSV cell starts a formula.
No kernel runs here; tests/grading/test_gradebook.py grades such a class for real.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packer.grading.escaping import (
    GRADESCOPE_HTML,
    GRADESCOPE_TEXT,
    HIDDEN,
    LINE_BREAKS,
    csv_cell,
    html_text,
    lines_of,
    md_block,
    md_cell,
    md_code,
    md_text,
    one_line,
    plain_text,
    terminal,
)
from packer.grading.exports import LmsSettings, lms_files
from packer.grading.gradebook import to_csv
from class_files import result
from packer.grading.outcome import Outcome
from packer.grading.reports import gradescope_name, result_text, text_files
from written_files import csv_rows, formula_cells, html_shown, markdown_shown

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
# Pieces of what a hostile or unlucky learner's text holds: Markdown of every kind, HTML, what a spreadsheet runs,
# every line break str.splitlines knows, the bidirectional controls, terminal escapes.
PIECES = [
    "<script>alert(1)</script>",
    "<b>",
    "</b>",
    "<!-- c -->",
    "<![CDATA[x]]>",
    "|",
    " | col |",
    "`",
    "```",
    "~~~",
    "## not a heading",
    "- nor a bullet",
    "* star",
    "1. item",
    "2) item",
    "> quote",
    ">!spoiler!<",
    "[link](https://evil.example)",
    "![image](x.png)",
    "[^1]",
    "[ ] ",
    "https://evil.example",
    "www.evil.example",
    "eve@evil.example",
    "*em*",
    "_em_",
    "**strong**",
    "~~struck~~",
    "==mark==",
    "^sup^",
    "$x$",
    ":smile:",
    "&amp;",
    "&#60;",
    "\\",
    "---",
    "===",
    "    indented",
    ": definition",
    '=HYPERLINK("https://evil.example")',
    "+1",
    "-1",
    "@SUM(A1)",
    "\x1b[31m",
    "\x00",
    " ",
    "\t",
    ",",
    '"',
    "eve",
    *LINE_BREAKS,
    "\r\n",
    *BIDI,
]
HOSTILE = st.lists(st.sampled_from(PIECES) | st.text(min_size=1, max_size=3), min_size=1, max_size=5).map("".join)
SLOTS = 17  # the hostile strings one class holds (see a_class)
PLACEHOLDER = re.compile(r"PH([0-9]+)Z")


def a_class(t: list[str]) -> list[Outcome]:
    """A class whose every field from outside is one of the strings `t`: a Canvas learner with a wrong answer
    that raised and printed, a wrong prediction and an answer that did not run, and an earlier submission it
    supersedes; a Moodle learner; an nbgrader learner; a notebook of no known lesson; a row whose file is gone.
    (The grader names a question from its own question bank; a hand-edited gradebook may name it otherwise.)"""
    canvas = {"tool": "canvas", "user_id": "12350", "attachment_id": "67895"}
    latest = Outcome(
        f"downloads/canvas/{t[0]}_12350_67895_{t[1]}.ipynb",
        "",
        "0" * 64,
        "01_assemble_context",
        "graded",
        results=[
            result(
                "q1.1",
                "assemble_context",
                "failed",
                0,
                3,
                detail=t[2],
                counterexample=t[3],
                expected=t[4],
                actual=f"raised ValueError: {t[5]}",
                printed=t[6],
                printed_lines=3,
            ),
            result("q1.2", t[16], "passed", 2, 2),  # a question's name, as a hand-edited gradebook may give it
            result("q1.3", "assemble_prefix", "did not run", 0, 2, detail=f"did not run: {t[7]}"),
            result("q1.5", "predict_q1_5", "failed", 0, 1, detail="wrong", actual=t[8]),
        ],
        flags=[t[9]],
        notes=[f"cell 9 of 22 (q1.3), which starts `{t[10]}` raised ValueError: {t[5]}", t[11]],
        learner=t[0],
        written=[{"question": t[12], "answer": t[13]}],
        containment="none: the kernel ran with the grader's own rights",
        lms=canvas,
        submitted_at=t[14],
    )
    earlier = Outcome(
        f"downloads/canvas/{t[0]}_12350_60000_{t[1]}.ipynb",
        "",
        "1" * 64,
        "01_assemble_context",
        "graded",
        results=[result("q1.1", "assemble_context", "passed", 3, 3)],
        learner=t[0],
        lms={**canvas, "attachment_id": "60000"},
        superseded_by=latest.name,
    )
    moodle = Outcome(
        f"downloads/moodle/{t[15]}_3_assignsubmission_file_/{t[1]}.ipynb",
        "",
        "2" * 64,
        "01_assemble_context",
        "timeout",
        results=[result("q1.1", "assemble_context", "failed", 0, 3, detail=t[2], counterexample=t[3], actual=t[4])],
        notes=[f"cell 3 of 22 (q1.1), which starts `{t[10]}` ran past the 10 s cell limit of CPU time (--timeout)"],
        learner=t[15],
        written=[{"question": t[12], "answer": ""}],
        lms={"tool": "moodle", "participant_id": "3", "name": t[15]},
    )
    nbgrader = Outcome(
        f"downloads/nbgrader/submitted/{t[11]}/ps1/{t[1]}.ipynb",
        "",
        "3" * 64,
        "01_assemble_context",
        "graded",
        results=[result("q1.1", "assemble_context", "passed", 3, 3)],
        learner=t[11],
        lms={"tool": "nbgrader", "student_id": t[11], "assignment": "ps1"},
        submitted_at="2026-11-20T10:00:00+00:00",
    )
    unknown = Outcome(f"downloads/{t[13]}.ipynb", "", "4" * 64, "", "unknown lesson", learner=t[13], notes=[t[2]])
    gone = Outcome(
        f"downloads/{t[9]}/ex.ipynb",
        "",
        "5" * 64,
        "01_assemble_context",
        "unreadable",
        results=[result("q1.1", "assemble_context", "not graded", 0, 3, detail=f"not graded: {t[7]}")],
        flags=[f"file gone: {t[9]}"],
        notes=[f"not a readable notebook: {t[5]}"],
        learner=t[9],
    )
    return [latest, earlier, moodle, nbgrader, unknown, gone]


def written(outcomes: list[Outcome]) -> dict[str, bytes]:
    """Every text file the grader writes for these rows (all but grades.json, which is data, and the figures)."""
    files = dict(text_files(outcomes))
    files.update(lms_files(outcomes, LmsSettings(bom=True)))
    files["grades.csv"] = to_csv(outcomes).encode("utf-8")
    return files


def distinct(strings: list[str]) -> tuple[list[str], dict[str, str]]:
    """Placeholders for the strings (equal strings, equal placeholders), and each placeholder's string."""
    order = list(dict.fromkeys(strings))
    return [f"PH{order.index(s)}Z" for s in strings], {f"PH{i}Z": s for i, s in enumerate(order)}


def shows(text: str, shown: str) -> bool:
    """Whether a string from outside shows in a file's text: on one line (inline text), as its own lines (a
    block), or line by line (the lines an answer printed, each after the check's `  | `)."""
    return (
        one_line(text) in shown or lines_of(text) in shown or all(lines_of(line) in shown for line in text.split("\n"))
    )


def assert_shown_as_text(strings: list[str]) -> None:
    """Write the class of `strings` and of placeholders in their place; read every file back and compare."""
    placeholders, meaning = distinct(strings)
    outcomes = a_class(strings)
    hostile, plain = written(outcomes), written(a_class(placeholders))
    # A name made from a submission's name shows its hidden characters and line breaks as escapes (file_name).
    named = {PLACEHOLDER.sub(lambda m: one_line(meaning[m[0]]), name): name for name in plain}
    assert set(hostile) == set(named), "the same files, named from the same rows"
    for name, data in hostile.items():
        # No character that hides or reorders text on screen (a right-to-left override, a terminal escape), raw, in
        # any name or file the grader writes: "Trojan Source", CVE-2021-42574.
        assert not HIDDEN.search(name) and not HIDDEN.search(data.decode("utf-8-sig")), name
        twin = plain[named[name]]
        if name.endswith(".md"):
            shown, expected = markdown_shown(data.decode("utf-8")), markdown_shown(twin.decode("utf-8"))
            assert shown.elements == expected.elements, name
            for placeholder in set(PLACEHOLDER.findall(expected.text)):
                assert shows(meaning[f"PH{placeholder}Z"], shown.text), (name, meaning[f"PH{placeholder}Z"])
        elif name.endswith(".csv"):
            rows, twin_rows = csv_rows(data), csv_rows(twin)
            assert [len(row) for row in rows] == [len(row) for row in twin_rows], name
            assert formula_cells(rows) == [], name
        else:
            outcome = next(o for o in outcomes if name == gradescope_name(o.name))
            results = json.loads(data)
            assert not HIDDEN.search(json.dumps(results["extra_data"], ensure_ascii=False)), name
            formats = (results["output_format"], results["test_output_format"], results["test_name_format"])
            assert formats == (GRADESCOPE_HTML, GRADESCOPE_TEXT, GRADESCOPE_TEXT), name
            shown = html_shown(results["output"])
            assert shown.elements == [], name
            assert shown.text == lines_of("\n".join([f"status: {outcome.status}", *outcome.flags, *outcome.notes]))
            for test, r in zip(results["tests"], outcome.results, strict=True):
                assert (test["output_format"], test["name_format"]) == (GRADESCOPE_TEXT, GRADESCOPE_TEXT)
                assert test["output"] == plain_text(result_text(r)), name


@settings(max_examples=60)
@given(st.lists(HOSTILE, min_size=SLOTS, max_size=SLOTS))
def test_hostile_text_shows_as_text_in_every_file_the_grader_writes(strings):
    if not any(PLACEHOLDER.search(s) for s in strings):  # one that looks like a placeholder would count as one
        assert_shown_as_text(strings)


def test_a_right_to_left_override_in_a_learner_s_name_is_escaped_in_every_file_and_name_the_grader_writes():
    names = ["eve\u202emoc.elpmaxe", "eve\u2066x\u2069", "a\x1b[31mred", "=HYPERLINK(\u202e)"]
    files = written(a_class([names[i % len(names)] for i in range(SLOTS)]))
    assert {name.split("/", 1)[0] for name in files} >= {"feedback", "gradescope", "lms", "grades.csv"}
    for name, data in files.items():
        for raw in ("\u202e", "\u2066", "\u2069", "\x1b"):
            assert raw not in name and raw not in data.decode("utf-8-sig"), (name, raw)
    assert "eve\\u202emoc.elpmaxe" in files["grades.csv"].decode("utf-8")
    assert "eve\\u202emoc.elpmaxe" in files["lms/canvas.csv"].decode("utf-8-sig")
    assert any(name.startswith("feedback/downloads/canvas/eve\\u202emoc.elpmaxe_12350") for name in files)
    extra = json.loads(next(data for name, data in files.items() if name.startswith("gradescope/")))["extra_data"]
    assert extra["learner"] == "eve\\u202emoc.elpmaxe"


# --- each escaping function, on the issue's own strings ------------------------------------------------------
FORGED = "see <script>alert(1)</script> | col |\n## not a heading\n- nor a bullet"


def test_a_forged_heading_bullet_and_script_in_an_exception_stay_on_one_line_of_text():
    assert (
        md_text(FORGED)
        == "see \\<script\\>alert(1)\\</script\\> \\| col \\|\\\\n\\#\\# not a heading\\\\n- nor a bullet"
    )
    shown = markdown_shown(f"- {md_text(FORGED)}\n")
    assert shown.elements == ["<ul >", "<li >", "</li>", "</ul>"] and shown.text.strip() == one_line(FORGED)


def test_a_folder_name_with_markup_and_a_pipe_is_text_in_a_heading_a_table_cell_and_a_code_span():
    name = "eve <b>|x"
    assert markdown_shown(f"# Feedback: {md_text(name)}\n").elements == ["<h1 >", "</h1>"]
    table = markdown_shown(f"| a | b |\n|---|---|\n| {md_cell(name)} | 1 |\n")
    assert table.elements.count("<td >") == 2 and name in table.text
    assert markdown_shown(f"- {md_code('x`` y')}\n").text.strip() == "x`` y"


def test_plain_names_stay_readable_in_the_markdown_source():
    for name in ("submissions/learner01-right.ipynb", "assemble_context", "张伟", "müllerjürgen", "ValueError: x"):
        assert md_text(name) == name


def test_every_line_break_and_bidi_control_is_shown_as_its_escape():
    assert (
        one_line("a" + "b".join(LINE_BREAKS) + "c") == "a\\nb\\rb\\x0bb\\x0cb\\x1cb\\x1db\\x1eb\\x85b\\u2028b\\u2029c"
    )
    assert one_line("\u202eevil\u2066") == "\\u202eevil\\u2066"
    assert one_line("שלום\u200f") == "שלום\u200f"  # a mark, used in right-to-left names, stays
    assert lines_of("a\r\nb\u2028c") == "a\nb\nc"


def test_a_block_of_text_cannot_close_its_own_fence():
    text = "```\n## heading\n````"
    shown = markdown_shown(md_block(text))
    assert shown.elements == ["<pre >", "<code class>", "</code>", "</pre>"] and shown.text.rstrip("\n") == text


def test_a_name_printed_on_the_terminal_cannot_move_the_cursor_recolour_or_reorder_the_line():
    assert terminal("skipped a\x1b[2J\rb\u202e.pdf\nnext line") == "skipped a\\x1b[2J\\rb\\u202e.pdf\nnext line"


def test_html_text_shows_markup_as_text():
    shown = html_shown(html_text(FORGED))
    assert shown.elements == [] and shown.text == FORGED


@pytest.mark.parametrize(
    "value, cell",
    [
        ('=HYPERLINK("https://evil.example")', '\'=HYPERLINK("https://evil.example")'),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("Müller, Jürgen", "Müller, Jürgen"),
        (10, "10"),
        ("", ""),
    ],
)
def test_a_csv_cell_that_a_spreadsheet_would_run_gets_a_leading_quote(value, cell):
    assert csv_cell(value) == cell


def test_gradescope_results_name_every_format_and_escape_for_it():
    outcome = a_class(["eve <b>|x"] * SLOTS)[0]
    files = written([outcome])
    results = json.loads(files[f"gradescope/{outcome.name}/results.json"])
    assert results["output_format"] == "simple_format" and "&lt;b&gt;" in results["output"]
    test = results["tests"][0]
    assert (test["output_format"], test["name_format"]) == ("text", "text")
    assert test["output"] == result_text(outcome.results[0]) and "<b>" in test["output"]
