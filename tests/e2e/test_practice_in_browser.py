"""A learner answers lesson 00's practice points in JupyterLab, one of each kind, wrong and then right, and reads
the feedback each time: a prediction typed into its cell, a function written in place of the stub, a choice made
with the radio buttons and the Check button (its feedback announced as a status); then the progress cell.

And the first minutes of lesson 02, the longest lesson (issue 52: a learner answers a question within its first
four minutes): the learner runs its cells from the top, as they read, to its first practice point, predicts wrong
the way a learner who forgets the labels does, is told which part is wrong and why, never the answer, then right.
And lesson 03's points, for what lesson 00's do not show (a generated counterexample, a borrowed reference).

The tests work one after another in one JupyterLab page (conftest's SharedPage), each closing what it opened."""

from __future__ import annotations

from notebook_page import NotebookPage, wait_until
from test_exercise_path_in_browser import run_cell

from packer.checking.practice import KEYS_NOTE, LAST_ANSWER_COUNTS, POINTS, check_choice

LESSON = "notebooks/00_start_here.ipynb"
LESSON_02 = "notebooks/02_prompt_packer.ipynb"
RIGHT_FUNCTION = 'def total_tokens(chunks):\n    return sum(chunk["token_count"] for chunk in chunks)'
WRONG_FUNCTION = "def total_tokens(chunks):\n    return len(chunks)"


def retype(notebook: NotebookPage, index: int, source: str) -> str:
    """Replace a cell's code by typing `source` and run it; the text of its output."""
    editor = notebook.cell(index).locator(".cm-content")
    editor.click()
    notebook.page.keyboard.press("Control+a")
    notebook.page.keyboard.insert_text(source)
    notebook.page.keyboard.press("Escape")
    return run_cell(notebook, index)


def focused(node) -> bool:
    """Whether the element `node` finds has the keyboard focus."""
    return node.evaluate("node => node === document.activeElement")


def where_focus(page) -> str:
    """The focused element, its classes, and whether its notebook is in command or edit mode (for a failure)."""
    return page.evaluate(
        """() => { const e = document.activeElement, nb = e && e.closest('.jp-Notebook');
        return `${e && e.tagName}.${e && e.className} in ${nb ? nb.className : 'no notebook'}`; }"""
    )


def kernel_has_picked(status, key: str) -> None:
    """Wait until the box says `key` is picked and not checked yet (picked_since): the kernel has the choice, so a
    press of Check now checks it (ipywidgets sends a change made while another is in flight after it, a press at
    once)."""
    note = f"{key} is picked now: press Check to check it."
    wait_until(lambda: (status.text_content() or "").startswith(note), f"the kernel never had {key}: no {note!r}")


def test_a_learner_answers_one_practice_point_of_each_kind_and_reads_the_feedback(lab_page, screenshots):
    lesson, page = lab_page.open(LESSON), lab_page.page
    lesson.run_all()

    predicted = lesson.code_cell_index('predict("p0.1", prediction)')
    said = retype(lesson, predicted, 'prediction = ("alpha", 40)\npredict("p0.1", prediction)')
    assert said.startswith("Practice 0.1 (predict): not yet"), said
    assert "stops at the first chunk that does not fit" in said and "60" not in said, said
    said = retype(lesson, predicted, 'prediction = ("alpha\\n\\ndelta", 60)\npredict("p0.1", prediction)')
    assert said == "Practice 0.1 (predict): right", said

    stub = lesson.code_cell_index('write("p0.2", total_tokens)')
    said = retype(lesson, stub, WRONG_FUNCTION + '\n\n\nwrite("p0.2", total_tokens)')
    assert said.startswith("Practice 0.2 (write): not yet\n  fixed case 1 of 4 disagrees with the reference"), said
    assert "  input:    total_tokens([{'text': 'alpha'" in said and "  actual:   4" in said, said
    said = retype(lesson, stub, RIGHT_FUNCTION + '\n\n\nwrite("p0.2", total_tokens)')
    assert said.startswith("Practice 0.2 (write): right"), said

    box = lesson.cell(lesson.code_cell_index('choose("p0.3")')).locator(".workbook-practice")
    box.wait_for()
    status = box.locator("[role=status]")
    box.get_by_role("radio", name="B. pack_prompt, measuring the whole prompt with count_words").check()
    box.get_by_role("button", name="Check").click()
    wait_until(lambda: "B is not it" in (status.text_content() or ""), "no feedback for a wrong choice")
    assert "words are not bytes either" in status.text_content()
    lesson.screenshot(box, screenshots / "practice-choose-wrong.png")
    box.get_by_role("radio", name="C. pack_utf8, with the exact UTF-8 bytes and a reserve for the framing").check()
    check = box.get_by_role("button", name="Check")
    kernel_has_picked(status, "C")
    check.focus()  # the keyboard works as well as the mouse: Enter on the focused button
    wait_until(lambda: focused(check), "the Check button did not keep the focus")
    page.keyboard.press("Enter")
    wait_until(
        lambda: (status.text_content() or "").startswith("Practice 0.3 (choose): right"),
        lambda: f"no feedback for C: the status reads {status.text_content()!r}, the focus is on {where_focus(page)}",
    )

    progress = run_cell(lesson, lesson.code_cell_index('progress("00_start_here")'))
    assert progress.splitlines()[0] == "Practice in this lesson: 3 of 3 answered right in this kernel", progress

    # By keyboard alone, as KEYS_NOTE says, from the first option: Space picks it, ArrowDown moves the choice to
    # the next (JupyterLab's own binding would move the cell selection: `make lab`'s settings leave the arrow keys
    # to a focused option). ipywidgets' radios share no name, so each is a tab stop: Tab walks through the options
    # left (keeping the choice) and only then reaches Check, where Enter checks; the last answer counts, so the
    # point answered right and then wrong is to revisit.
    assert KEYS_NOTE in (box.text_content() or ""), "how to answer by keyboard, under the options"
    options = POINTS["p0.3"].options
    radios = box.get_by_role("radio")
    radios.nth(0).focus()
    page.keyboard.press("Space")
    wait_until(lambda: radios.nth(0).is_checked(), "Space did not pick the focused option")
    page.keyboard.press("ArrowDown")
    wait_until(lambda: radios.nth(1).is_checked(), "ArrowDown did not move the choice to the next option")
    assert focused(radios.nth(1)), "the focus did not follow the choice"
    kernel_has_picked(status, options[1].key)
    assert not options[1].right and len(options) > 2, "a wrong answer to revisit, with options to Tab past"
    for index in range(2, len(options)):  # one Tab is not enough: it lands on the next option, not on Check
        page.keyboard.press("Tab")
        assert focused(radios.nth(index)), f"Tab did not move on to option {options[index].key}"
        assert radios.nth(1).is_checked() and not radios.nth(index).is_checked(), "Tab changed the choice"
    page.keyboard.press("Tab")
    assert focused(check), "Tab past the last option did not reach Check"
    page.keyboard.press("Enter")
    expected = str(check_choice(POINTS["p0.3"], options[1].key))
    wait_until(lambda: (status.text_content() or "") == expected, f"no feedback for {options[1].key}")
    progress = run_cell(lesson, lesson.code_cell_index('progress("00_start_here")'))
    assert progress.splitlines()[:2] == [
        "Practice in this lesson: 2 of 3 answered right in this kernel",
        LAST_ANSWER_COUNTS,
    ], progress
    assert "to revisit (the last answer was not right):\n    Practice 0.3" in progress, progress
    lab_page.close(lesson, discarding_changes=True)


def test_a_learner_answers_lesson_02s_first_point_after_running_the_cells_above_it(lab_page):
    lesson = lab_page.open(LESSON_02)
    predicted = lesson.code_cell_index('predict("p2.1", prediction)')
    above = [i for i, cell in enumerate(lesson.notebook.cells[:predicted]) if cell.cell_type == "code"]
    assert len(above) == 2, "the first point follows the setup cell and the rendered prompt"
    lesson.menu("Edit", "Clear Outputs of All Cells")  # a fresh kernel counts from [1], as the saved lesson shows
    for index in above:  # run as read, top to bottom: the setup cell, then the prompt the model reads
        said = run_cell(lesson, index)
        assert not lesson.states()[index].stderr, said
    assert said.startswith("Question: why\nSources:\n[a] one two"), said

    said = retype(lesson, predicted, 'prediction = (4, 2)\npredict("p2.1", prediction)')  # the label forgotten
    assert said.startswith("Practice 2.1 (predict): not yet"), said
    assert "item 1 is right, item 2 is wrong" in said and "`[a]` is a word of the prompt" in said, said
    assert "3" not in said, f"the feedback gave the answer away: {said}"
    said = retype(lesson, predicted, 'prediction = (4, 3)\npredict("p2.1", prediction)')
    assert said == "Practice 2.1 (predict): right", said

    measured = run_cell(lesson, lesson.code_cell_index("growth of the prompt"))  # the cell after the worked answer
    assert "base prompt:          4 words" in measured and "growth of the prompt: 3 words" in measured, measured
    progress = run_cell(lesson, lesson.code_cell_index('progress("02_prompt_packer")'))
    assert progress.splitlines()[0] == "Practice in this lesson: 1 of 8 answered right in this kernel", progress
    lab_page.close(lesson, discarding_changes=True)


LESSON_03 = "notebooks/03_utf8_packer.ipynb"
KEPT_IDS = (  # lesson 03's practice 3.4, written with the lesson's own HEADER and nbytes: {size} is the line's cost
    "def kept_ids(passages, limit, reserve):\n"
    "    used, kept = nbytes(HEADER), []\n"
    "    for key, text in passages:\n"
    "        size = {size}\n"
    "        if used + size + reserve <= limit:\n"
    "            used += size\n"
    "            kept.append(key)\n"
    "    return kept\n\n\n"
    'write("p3.4", kept_ids)'
)


def test_a_learner_answers_lesson_03_with_its_own_helpers_and_meets_a_generated_counterexample(lab_page, screenshots):
    """What lesson 00 does not show: a written function that uses the lesson's own names (HEADER, nbytes), a
    wrong answer that passes every fixed case and is caught by a generated input, one that borrows the packer's
    source_line, a prediction holding a list, and a choice whose wrong option names its misconception."""
    lesson = lab_page.open(LESSON_03)
    lesson.run_all()

    stub = lesson.code_cell_index('write("p3.4", kept_ids)')
    said = retype(lesson, stub, KEPT_IDS.format(size="4 + len(key) + nbytes(text)"))  # an id's characters, not bytes
    assert said.startswith("Practice 3.4 (write): not yet\n  smallest generated input found that disagrees"), said
    assert "  input:    kept_ids([(" in said and "  hint: go back to the rule" in said, said
    said = retype(lesson, stub, KEPT_IDS.format(size="nbytes(source_line(key, text))"))
    assert "not credited: this answer uses the reference packer.utf8.source_line" in said, said
    said = retype(lesson, stub, KEPT_IDS.format(size='nbytes(f"[{key}] {text}\\n")'))
    assert said.startswith("Practice 3.4 (write): right"), said

    predicted = lesson.code_cell_index('predict("p3.6", prediction)')
    said = retype(lesson, predicted, 'prediction = (138, ["a", "b", "c"])\npredict("p3.6", prediction)')
    assert said.startswith("Practice 3.6 (predict): not yet\n  not the result: item 1 is right, item 2 is wrong"), said
    assert "its bar starts where b's ends" in said and "149" not in said, said
    said = retype(lesson, predicted, 'prediction = (138, ["a", "b"])\npredict("p3.6", prediction)')
    assert said == "Practice 3.6 (predict): right", said

    box = lesson.cell(lesson.code_cell_index('choose("p3.2")')).locator(".workbook-practice")
    box.wait_for()
    status = box.locator("[role=status]")
    box.get_by_role("radio", name="B. The 70 bytes include the 21 reserved bytes").check()
    box.get_by_role("button", name="Check").click()
    wait_until(lambda: "B is not it" in (status.text_content() or ""), "no feedback for a wrong choice")
    assert "never added to the returned text" in status.text_content()
    lesson.screenshot(box, screenshots / "practice-03-choose-wrong.png")
    box.get_by_role("radio", name="C. After you add an envelope").check()
    kernel_has_picked(status, "C")
    box.get_by_role("button", name="Check").click()
    wait_until(lambda: "Practice 3.2 (choose): right" in (status.text_content() or ""), "no feedback for C")

    progress = run_cell(lesson, lesson.code_cell_index('progress("03_utf8_packer")'))
    assert progress.splitlines()[0] == "Practice in this lesson: 3 of 6 answered right in this kernel", progress
    assert "not answered yet:\n    Practice 3.1 (predict, objective 1)" in progress, progress
    lab_page.close(lesson, discarding_changes=True)
