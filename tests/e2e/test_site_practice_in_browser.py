"""A reader answers a lesson's practice points on the site, where no kernel runs (packer/site/practice.py,
practice.js): a choose point by keyboard alone, a radio group whose arrow keys move the choice, told what the
kernel tells (the misconception of a wrong option); and every predict point judged as check_prediction judges it,
over many answers right and wrong, written as a Python literal. The site is the session's (tests/e2e/conftest.py's
built_site), opened from its folder (file://): no server, no network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from packer.checking.practice import BY_LESSON, Choose, Predict, check_choice, check_prediction


@pytest.fixture(scope="module")
def reader(built_site: Path, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(30_000)
    page = context.new_page()
    yield page
    context.close()


def open_lesson(page, site: Path, lesson: str) -> None:
    page.goto((site / "notebooks" / f"{lesson}.html").as_uri())
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.workbookPractice !== undefined")


def said(form) -> str:
    status = form.get_by_role("status")
    status.page.wait_for_function("node => node.textContent !== ''", arg=status.element_handle())
    return status.text_content()


def test_a_choose_point_is_a_radio_group_answered_by_keyboard_with_the_kernels_feedback(reader, built_site):
    found = next(p for p in BY_LESSON["02_prompt_packer"] if isinstance(p, Choose))
    open_lesson(reader, built_site, "02_prompt_packer")
    form = reader.locator(f'form[data-practice="{found.pid}"]')
    group = form.get_by_role("group", name=f"Practice {found.number}: pick one option")
    for option in found.options:  # each option named by its letter and text, for a screen reader
        assert group.get_by_role("radio", name=f"{option.key}. {option.text}", exact=True).count() == 1

    form.get_by_role("button", name="Check").focus()
    reader.keyboard.press("Enter")  # nothing picked yet
    assert said(form) == str(check_choice(found, None))

    reader.keyboard.press("Shift+Tab")  # back into the group: its first option, as a radio group does
    radios = form.get_by_role("radio")
    assert radios.nth(len(found.options) - 1).evaluate("node => node === document.activeElement")
    reader.keyboard.press("Space")
    for index in range(len(found.options)):  # the arrow keys move the choice; Tab then Enter checks it
        if index:
            reader.keyboard.press("ArrowDown")
        at = (len(found.options) - 1 + index) % len(found.options)
        assert radios.nth(at).is_checked() and radios.nth(at).evaluate("node => node === document.activeElement")
        reader.keyboard.press("Tab")
        reader.keyboard.press("Enter")
        reader.wait_for_function(
            "([node, text]) => node.textContent === text",
            arg=[form.get_by_role("status").element_handle(), str(check_choice(found, found.options[at].key))],
        )
        reader.keyboard.press("Shift+Tab")


def answers(value: Any) -> list[Any]:
    """Answers a learner might give for `value`: it, and each one-part slip of it (a number off by one, a string
    changed, a list reordered, shortened or grown, the wrong kind of number or sequence)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, float(value), str(value), True]
    if isinstance(value, str):
        return [value + "x", value[:-1], value.upper(), 1, None]
    slips: list[Any] = []
    if isinstance(value, list):
        slips += [value[::-1], value[:-1], value + value[:1], [], tuple(value)]
        slips += [[*value[:i], slip, *value[i + 1 :]] for i, item in enumerate(value) for slip in answers(item)[:2]]
    if isinstance(value, tuple):
        slips += [list(value), value[:-1], (*value, value[0])]
        slips += [(*value[:i], slip, *value[i + 1 :]) for i, item in enumerate(value) for slip in answers(item)]
    return slips


def test_every_predict_point_is_judged_on_the_page_as_check_prediction_judges_it(reader, built_site):
    compared, misconceived, mistyped = 0, 0, 0
    for lesson, points in BY_LESSON.items():
        predicted = [p for p in points if isinstance(p, Predict)]
        if not predicted:
            continue
        open_lesson(reader, built_site, lesson)
        for found in predicted:
            expected = found.result()
            tried = [expected, *(wrong for wrong, _ in found.misconceptions), *answers(expected)]
            texts = [repr(answer) for answer in tried]
            page_says = reader.evaluate(
                "([pid, texts]) => texts.map(text => window.workbookPractice.judge(pid, text))", [found.pid, texts]
            )
            kernel_says = [str(check_prediction(found, answer)) for answer in tried]
            assert page_says == kernel_says, found.pid
            compared += len(tried)
            assert page_says[0] == f"Practice {found.number} (predict): right"
            misconceived += sum(any(f"  {why}" in said for _, why in found.misconceptions) for said in page_says)
            mistyped += sum("  wrong type: " in said for said in page_says)
    assert compared > 400 and misconceived > 50 and mistyped > 100, (compared, misconceived, mistyped)

    # Typed into the box, by keyboard: a known wrong value gets its misconception, the right one "right".
    found = next(p for p in BY_LESSON["02_prompt_packer"] if isinstance(p, Predict))
    open_lesson(reader, built_site, "02_prompt_packer")
    form = reader.locator(f'form[data-practice="{found.pid}"]')
    box = form.get_by_role("textbox", name=f"Practice {found.number}: your prediction")
    wrong, why = found.misconceptions[0]
    box.fill(f"prediction = {wrong!r}")  # the cell's own form is read too
    box.press("Enter")
    assert said(form) == str(check_prediction(found, wrong)) and why in said(form)
    box.fill(" " + repr(found.result()).replace("'", '"') + " ")  # double quotes, spaces around
    box.press("Enter")
    reader.wait_for_function(
        "node => node.textContent.endsWith(': right')", arg=form.get_by_role("status").element_handle()
    )
    box.fill("(4, 3")
    box.press("Enter")
    reader.wait_for_function(
        "node => node.textContent.includes('could not read this as a Python literal')",
        arg=form.get_by_role("status").element_handle(),
    )
