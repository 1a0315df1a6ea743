"""The learner's path through lesson 01's exercise, in JupyterLab: follow the lesson's link, answer q1.1 wrong
and then right, see the check say so, save with the keyboard, and have the grader credit the saved file."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat

import packer
from packer.checking import question

from notebook_page import NotebookPage, wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "grading"))
from grader_cli import grader_command  # noqa: E402  (the grader as an instructor runs it)

LESSON = "notebooks/01_assemble_context.ipynb"
EXERCISE = "exercises/exercise_01_assemble_context.ipynb"

# q1.1 answered with the lesson's first wrong policy: stop at the first chunk that does not fit (printing as
# it goes, as a learner debugging it would: the check shows the verdict first, then a few of those lines).
WRONG = r'''def assemble_context(chunks, max_tokens, separator="\n\n"):
    """Keep whole chunks in rank order, stopping at the first one that does not fit."""
    kept, used = [], 0
    for chunk in chunks:
        print("looking at", chunk["text"], "with", used, "used")
        if used + chunk["token_count"] > max_tokens:
            break
        kept.append(chunk["text"])
        used += chunk["token_count"]
    return separator.join(kept), used'''

RIGHT = r'''def assemble_context(chunks, max_tokens, separator="\n\n"):
    """Keep whole chunks in rank order while their token counts fit; skip the rest and continue."""
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used'''


def test_a_learner_answers_q1_1_wrong_then_right_saves_and_is_graded(page, lab, screenshots, tmp_path):
    points = question("q1.1").points
    lesson = NotebookPage.open(page, lab, LESSON, workspace="learner")
    lesson.panel.get_by_role("link", name="the exercises for this lesson").click()
    exercise = NotebookPage.attach(page, lab, EXERCISE)  # opened inside JupyterLab, as a notebook tab

    run_cell(exercise, exercise.code_cell_index("from packer.checking import check"))
    stub = exercise.code_cell_index("def assemble_context(")
    check_cell = exercise.code_cell_index('check("q1.1", assemble_context)')

    failed = answer(exercise, stub, check_cell, WRONG)
    assert failed.startswith(f"q1.1 assemble_context: FAILED (0/{points} points)"), failed
    call, expected, actual = counterexample(failed)
    assert expected == repr(packer.assemble_context(*call)) != actual == repr(run_source(WRONG)(*call)), failed
    lines = failed.splitlines()  # what the answer printed comes after the verdict, as a short excerpt
    printed = lines.index("  the answer printed 3 lines while it was checked:")
    assert lines[printed - 1].startswith("  actual:   "), failed
    assert lines[printed + 1 :] == [
        "  | looking at alpha with 0 used",
        "  | looking at bravo with 40 used",
        "  | looking at charlie with 70 used",
    ], failed
    exercise.screenshot(exercise.cell(check_cell), screenshots / "exercise-q1.1-failed.png")

    passed = answer(exercise, stub, check_cell, RIGHT)
    assert passed.startswith(f"q1.1 assemble_context: PASSED ({points}/{points} points)"), passed
    exercise.screenshot(exercise.cell(check_cell), screenshots / "exercise-q1.1-passed.png")

    saved = lab.root / EXERCISE
    before = saved.read_bytes()
    page.keyboard.press("Control+s")
    wait_until(
        lambda: saved.read_bytes() != before and not page.locator(".jp-mod-current.jp-mod-dirty").count(),
        "Ctrl+S did not save the exercise",
    )
    cells = nbformat.reads(saved.read_text(), as_version=4).cells
    assert cells[stub].source == RIGHT
    assert "PASSED" in "".join(out.get("data", {}).get("text/plain", "") for out in cells[check_cell].outputs)

    grades = tmp_path / "grades"
    graded = subprocess.run(
        grader_command(str(saved), "--out", str(grades)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert graded.returncode == 0, graded.stdout + graded.stderr
    (submission,) = json.loads((grades / "grades.json").read_text())["submissions"]
    (q1_1,) = (test for test in submission["tests"] if test["qid"] == "q1.1")
    assert (submission["status"], q1_1["status"], q1_1["score"]) == ("graded", "passed", points), q1_1

    exercise.panel.get_by_role("link", name=re.compile("^01 · Packing chunks")).click()  # and back to the lesson
    NotebookPage.attach(page, lab, LESSON)


def run_cell(notebook: NotebookPage, index: int) -> str:
    """Select a cell, run it with Ctrl+Enter, wait for its new execution count; the text of its output."""
    cell = notebook.cell(index)
    before = cell.locator(".jp-InputPrompt").text_content()
    cell.locator(".jp-InputPrompt").click()
    notebook.page.keyboard.press("Control+Enter")
    wait_until(
        lambda: (
            re.fullmatch(r"\[\d+\]:", now := cell.locator(".jp-InputPrompt").text_content())
            and now != before
            and notebook.kernel_idle()
        ),
        f"cell {index} did not run",
    )
    return "\n".join(cell.locator(".jp-OutputArea-output").all_text_contents()).strip()


def answer(notebook: NotebookPage, stub: int, check: int, source: str) -> str:
    """Replace the stub cell's code by typing `source`, run it and its check; the check's report."""
    editor = notebook.cell(stub).locator(".cm-content")
    editor.click()
    notebook.page.keyboard.press("Control+a")
    notebook.page.keyboard.insert_text(source)  # as typed, without the editor's auto-indent and auto-close
    assert "\n".join(editor.locator(".cm-line").all_text_contents()) == source
    notebook.page.keyboard.press("Escape")
    assert run_cell(notebook, stub) == ""
    return run_cell(notebook, check)


def counterexample(report: str) -> tuple[list, str, str]:
    """The failing call's arguments and the expected and actual results a FAILED report shows."""
    found = re.search(r"^\s+input:\s+assemble_context\((.*)\)\n\s+expected: (.*)\n\s+actual:\s+(.*)$", report, re.M)
    assert found, f"no counterexample in:\n{report}"
    return ast.literal_eval(f"[{found.group(1)}]"), found.group(2), found.group(3)


def run_source(source: str):
    """The function a cell's source defines, run here in the test."""
    namespace: dict = {}
    exec(source, namespace)
    return namespace["assemble_context"]
