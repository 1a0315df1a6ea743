"""Every lesson, as a learner runs it in JupyterLab: Run All Cells, no unexpected error, figures drawn, each
explorer's controls rendered and answering a keyboard move with exactly what the `packer` functions give, and
every answer a lesson folds (a practice point's result or the code that answers it) still folded after Run All;
lesson 00's widget smoke test showing what its text says it shows, before and after running.

EXPLORERS lists each lesson's explorers; a lesson in notebooks/ without an entry fails, so a new lesson must
say what its explorers are.

The lessons are opened one after another in one JupyterLab page, as a learner goes through them (conftest's
SharedPage: the first by its URL, each next one with File > Open from Path…), and each is closed, its run's changes
discarded and its kernel shut down with its tab, before the next.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

import packer
from packer.counters import COUNTERS
from packer.lab.request_budget import PASSAGES as REQUEST_PASSAGES
from packer.lab.request_budget import QUESTION as REQUEST_QUESTION
from packer.lab.request_budget import SYSTEM as REQUEST_SYSTEM
from packer.lab.folded import FOLDED_CLASS, summary
from packer.lab.retrieval import QUESTIONS
from packer.lab.widgets import (
    beyond_view,
    chunks_view,
    conversation_view,
    counting_view,
    plan_view,
    policies_view,
    prompt_view,
    request_view,
    seams_view,
    sections_view,
    utf8_view,
)
from packer.section_budget import FIFO_EXAMPLE, STATED_SECTION_CHARS

from notebook_page import FOLDED as FOLDED_PROMPT
from notebook_page import ran_between, wait_until

ROOT = Path(__file__).resolve().parents[2]
FOLDED = f'<details class="{FOLDED_CLASS}">'  # how packer.lab.folded's output begins
LESSONS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))

# The data the lessons give their explorers (copied from the lessons: the expected views are computed here).
CHUNKS = [
    {"text": "alpha", "token_count": 40},
    {"text": "bravo", "token_count": 30},
    {"text": "charlie", "token_count": 50},
    {"text": "delta", "token_count": 20},
]
PASSAGES = [("a", "one two"), ("b", "one two three four five"), ("c", "six")]
UTF8_PASSAGES = [("a", "é"), ("b", "naïve café"), ("c", "日本語"), ("d", "🙂 ok")]
SEAM_PASSAGES = [
    ("a", "Tides follow the moon."),
    ("b", "東京の天気"),
    ("c", "x = f(1)  # 2"),
    ("d", "see the note}"),
    ("e", "2026 totals"),
]


def describe_budget(budget: int) -> str:
    """Lesson 00's smoke-test line: what packer.assemble_context keeps from the example at this budget."""
    context, used = packer.assemble_context(CHUNKS, budget)
    kept = context.split("\n\n") if context else []
    return f"budget {budget}: keeps {kept}, uses {used}"


@dataclass(frozen=True)
class Explorer:
    """One explorer on a lesson page: the cell that shows it, its controls, and the slider the test moves."""

    cell: str  # text of the code cell that displays it
    sliders: int
    start: int  # the moved slider's starting value
    expected: Callable[[int], str]  # the text the explorer shows at a value of the moved slider
    dropdowns: int = 0
    textareas: int = 0
    texts: int = 0  # one-line text boxes
    typed: tuple[int, str, Callable[[int], str]] | None = None  # box index, what to type, the text then shown
    moved: int = 0  # which of its sliders the test moves, counted from the top
    key: str = "ArrowRight"
    figure: bool = True  # it draws a figure that changes with the slider
    output: str = ".widget-output [data-mime-type='application/vnd.jupyter.stdout']"  # where its text shows


FIRST_COUNTER = next(iter(COUNTERS))
EXPLORERS: dict[str, list[Explorer]] = {
    "00_start_here": [
        Explorer(
            "slider = widgets.IntSlider(",
            sliders=1,
            start=100,
            expected=describe_budget,
            key="ArrowLeft",
            figure=False,
            output=".widget-vbox > .widget-label",
        ),
    ],
    "01_assemble_context": [
        Explorer(
            "explore_chunks(example",
            sliders=1,
            start=100,
            key="ArrowLeft",
            expected=lambda v: chunks_view(CHUNKS, v).text,
        ),
    ],
    "02_prompt_packer": [
        Explorer(
            "explore_prompt(",
            sliders=1,
            dropdowns=1,
            start=9,
            key="ArrowLeft",
            expected=lambda v: prompt_view("why", PASSAGES, v, FIRST_COUNTER).text,
        ),
        Explorer(
            "explore_seams(",
            sliders=1,
            dropdowns=1,
            texts=2,
            start=5,
            key="ArrowLeft",
            figure=False,
            expected=lambda v: seams_view("why", SEAM_PASSAGES, "[{id}] {text}\\n", "", "cl100k_base", v).text,
            # a line break at the start of each line instead of the end: seams that were cut no longer are
            typed=(
                0,
                "\\n[{id}] {text}",
                lambda v: seams_view("why", SEAM_PASSAGES, "\\n[{id}] {text}", "", "cl100k_base", v).text,
            ),
        ),
    ],
    "03_utf8_packer": [
        Explorer("explore_utf8(", sliders=2, start=40, expected=lambda v: utf8_view(UTF8_PASSAGES, v, 0).text),
    ],
    "04_section_budget": [
        Explorer(
            "explore_plan(",
            sliders=6,
            start=500,
            key="ArrowLeft",
            expected=lambda v: plan_view(v, **STATED_SECTION_CHARS).text,
        ),
        Explorer(
            "explore_sections(",
            sliders=1,
            textareas=5,
            start=500,
            key="ArrowLeft",
            expected=lambda v: sections_view(v, **FIFO_EXAMPLE).text,
        ),
    ],
    "05_counting_units": [
        Explorer(
            'explore_counting("Japanese names", "chars/4", 3)',
            sliders=1,
            dropdowns=2,
            start=3,
            expected=lambda v: counting_view("Japanese names", "chars/4", v).text,
        ),
    ],
    "06_policies": [
        Explorer(
            "explore_policies(QUESTIONS[2], 1050)",
            sliders=1,
            dropdowns=1,
            start=1050,
            expected=lambda v: policies_view(QUESTIONS[2], v).text,
        ),
    ],
    "07_whole_request": [
        Explorer(
            "explore_request(",
            sliders=3,
            dropdowns=2,
            start=256,
            key="ArrowLeft",  # the window slider: 255 tokens, and the headroom shrinks
            expected=lambda v: (
                request_view(REQUEST_QUESTION, REQUEST_PASSAGES, "v7", (), v, 64, 6, REQUEST_SYSTEM).text
            ),
        ),
    ],
    "08_beyond_greedy": [
        Explorer(
            "explore_beyond(QUESTIONS[4], 600)",
            sliders=3,
            dropdowns=1,
            start=600,  # the budget slider: 601 tokens
            expected=lambda v: beyond_view(QUESTIONS[4], v, 0.5, 0.7).text,
        ),
    ],
    "09_conversation": [
        Explorer(
            'explore_conversation(8192, "drop turns")',
            sliders=1,
            dropdowns=1,
            start=8192,
            key="ArrowLeft",  # the budget slider: 8,191 tokens
            expected=lambda v: conversation_view(v, "drop turns").text,
        ),
    ],
}


def test_every_lesson_says_what_its_explorers_are():
    """Runs without a browser too: a new lesson cannot slip past the browser tests unlisted."""
    assert sorted(EXPLORERS) == LESSONS, "add the new lesson's explorers to EXPLORERS (or drop a removed one)"


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_runs_and_its_explorers_answer_the_keyboard(lesson, lab_page, screenshots):
    assert lesson in EXPLORERS, f"{lesson} has no entry in EXPLORERS: list its explorers"
    notebook = lab_page.open(f"notebooks/{lesson}.ipynb")
    folds = check_folds(notebook, "as the lesson opens")
    if lesson == SMOKE_TEST_LESSON:
        check_smoke_test(notebook, screenshots, ran=False)
    states = notebook.run_all()
    assert check_folds(notebook, "after Run All") == folds
    if lesson == SMOKE_TEST_LESSON:
        check_smoke_test(notebook, screenshots, ran=True)

    for index, (cell, state) in enumerate(zip(notebook.notebook.cells, states, strict=True)):
        where = f"{lesson} cell {index}:\n{cell.source}"
        assert state.kind == cell.cell_type, where
        if cell.cell_type != "code":
            continue
        if state.prompt == FOLDED_PROMPT:  # its code folded: JupyterLab shows no count for it
            assert ran_between(states, index), f"{where}\nwas not run (the counts around it: {states})"
        else:
            assert state.prompt.strip("[]:").isdigit(), f"{where}\nwas not run (prompt {state.prompt!r})"
        if "raises-exception" in cell.metadata.get("tags", []):
            saved_error = next(out for out in cell.outputs if out.output_type == "error")
            assert saved_error.ename in state.stderr, (
                f"{where}\nshould raise {saved_error.ename}, shows {state.stderr!r}"
            )
        else:
            assert not state.stderr, f"{where}\nshows an error or warning:\n{state.stderr}"
        saved_figures = sum("image/png" in out.get("data", {}) for out in cell.outputs)
        assert state.images == saved_figures, (
            f"{where}\nrendered {state.images} figures, the saved run has {saved_figures}"
        )

    for number, explorer in enumerate(EXPLORERS[lesson], start=1):
        cell = notebook.cell(notebook.code_cell_index(explorer.cell))
        check_controls(cell, explorer)
        text = cell.locator(explorer.output)
        wait_for_text(text, explorer.expected(explorer.start))
        figure = cell.locator(".widget-output img")
        before = figure.get_attribute("src") if explorer.figure else None

        handle = cell.locator(".widget-slider .noUi-handle").nth(explorer.moved)
        handle.focus()
        handle.press(explorer.key)
        value = explorer.start + (1 if explorer.key == "ArrowRight" else -1)
        readout = cell.locator(".widget-slider .widget-readout").nth(explorer.moved)
        wait_for_text(readout, str(value))
        wait_for_text(text, explorer.expected(value))
        if explorer.figure:  # the explorer prints its text first, then displays the new figure
            wait_until(
                lambda figure=figure, before=before: figure.count() == 1 and figure.get_attribute("src") != before,
                "the figure was not redrawn for the new value",
            )
            assert figure.evaluate("img => img.complete && img.naturalWidth > 0"), "the new figure did not load"
        if explorer.typed:
            box, typed, shown = explorer.typed
            cell.locator(".widget-text input").nth(box).fill(typed)
            wait_for_text(text, shown(value))
        notebook.screenshot(cell, screenshots / f"{lesson}-explorer-{number}.png")
    lab_page.close(notebook, discarding_changes=True)


# Lesson 00's widget smoke test. A widget is not live until the kernel runs the cell that makes it: before that
# JupyterLab shows the saved text (`VBox(children=(IntSlider(…`), which the lesson once said meant the widget
# extension was missing. The paragraph above the cell names that text as what to expect before running, and a
# slider after; its slider answering the keyboard is the lesson's explorer (EXPLORERS).
SMOKE_TEST_LESSON = "00_start_here"
SMOKE_TEST = "slider = widgets.IntSlider("  # the smoke test's code cell
SAVED_TEXT = "VBox(children=(IntSlider("  # how its saved output starts: the widget's text form


def check_smoke_test(notebook, screenshots: Path, ran: bool) -> None:
    """Before Run All the smoke test shows the saved text its paragraph names and no slider; after it, a slider."""
    index = notebook.code_cell_index(SMOKE_TEST)
    cell = notebook.cell(index)
    if ran:
        wait_until(lambda: cell.locator(".widget-slider .noUi-handle").count() == 1, "no live slider after running")
        assert SAVED_TEXT not in cell.locator(".jp-OutputArea").text_content()
        assert cell.locator(".widget-slider .widget-readout").text_content().strip() == "100"
    else:
        paragraph = notebook.notebook.cells[index - 1].source
        assert f"`{SAVED_TEXT}`" in paragraph and "slider" in paragraph, paragraph
        output = cell.locator(".jp-OutputArea-output")
        wait_until(lambda: output.count() == 1 and output.text_content().startswith(SAVED_TEXT), "no saved text shown")
        assert cell.locator(".widget-slider").count() == 0, "a slider before the cell ran"
    notebook.screenshot(cell, screenshots / f"lesson-00-smoke-test-{'after' if ran else 'before'}-running.png")


def check_folds(notebook, when: str) -> int:
    """Every fold the saved lesson holds is closed on the page, as it opens and after Run All (which shows an output
    hidden by nbformat's `outputs_hidden` again, so answers are folded in the output itself: packer/lab/folded.py):
    its one line is shown, what it holds is not. A cell whose code is folded (`source_hidden`) shows its first line
    in place of the code. Returns how many folds there are."""
    folds = 0
    for index, cell in enumerate(notebook.notebook.cells):
        if cell.cell_type != "code":
            continue
        on_page, where = notebook.cell(index), f"{notebook.path} cell {index}, {when}"
        if cell.metadata.get("jupyter", {}).get("source_hidden"):
            folds += 1
            placeholder = on_page.locator(".jp-InputPlaceholder")
            assert placeholder.is_visible(), f"{where}: its code is not folded"
            assert cell.source.splitlines()[0] in placeholder.text_content(), f"{where}: the fold does not say what"
            assert not on_page.locator(".jp-InputArea-editor").is_visible(), f"{where}: its code shows"
        if any(out.get("data", {}).get("text/html", "").startswith(FOLDED) for out in cell.outputs):
            folds += 1
            fold = on_page.locator(f"details.{FOLDED_CLASS}")
            wait_until(lambda fold=fold: fold.count() == 1, f"{where}: no folded output on the page")
            assert fold.get_attribute("open") is None, f"{where}: the fold is open"
            assert summary(cell.source.split('"')[1]) in fold.locator("summary").inner_text(), where
            assert not fold.locator("pre").is_visible(), f"{where}: what the fold holds is visible"
    return folds


def check_controls(cell, explorer: Explorer) -> None:
    """The explorer's widgets are on the page (not their text fallback), with its output under them. Widgets
    render a moment after the cell's output arrives, so each count is awaited."""
    wanted = {
        ".widget-slider": explorer.sliders,
        ".widget-dropdown": explorer.dropdowns,
        ".widget-textarea": explorer.textareas,
        ".widget-text": explorer.texts,
        explorer.output: 1,
        ".widget-output img": 1 if explorer.figure else 0,
    }
    for selector, count in wanted.items():
        wait_until(
            lambda selector=selector, count=count: cell.locator(selector).count() == count,
            f"{explorer.cell}: the page does not show {count} of {selector}",
        )


def wait_for_text(locator, expected: str, seconds: float = 30) -> None:
    """Wait until the element shows exactly `expected` (ignoring a final newline); fail showing what it shows.
    The locator is asked again each time: the explorer replaces its output element when it redraws."""
    deadline = time.monotonic() + seconds
    while (shown := locator.text_content().rstrip("\n")) != expected and time.monotonic() < deadline:
        time.sleep(0.2)
    assert shown == expected
