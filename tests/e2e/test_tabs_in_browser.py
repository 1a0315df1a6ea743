"""Opening and closing notebooks in JupyterLab as a learner does when following the links between a lesson, its
exercise and its solution: an untouched notebook is not marked modified and closes without a question, the three
tabs can be told apart, and a closed notebook leaves no kernel running.

The tests work one after another in one JupyterLab page (conftest's SharedPage), each closing what it opened."""

from __future__ import annotations

import re
import time

from notebook_page import NotebookPage, menu, wait_until

LESSON = "notebooks/01_assemble_context.ipynb"
EXERCISE = "exercises/exercise_01_assemble_context.ipynb"
SOLUTION = "solutions/solution_01_assemble_context.ipynb"
MORE_TABS = 9  # beside the three (and a launcher JupyterLab may show): twelve tabs or more, as a walk left open


def open_all(lab_page, paths: list[str]) -> list[NotebookPage]:
    """Each notebook opened in the page (the first of the module by its URL, the others with File > Open from Path…)."""
    return [lab_page.open(path) for path in paths]


def test_untouched_notebooks_open_unmodified_and_close_without_asking(lab_page, screenshots):
    """JupyterLab writes the running kernel's spec and language into the notebook once the kernel connects; a
    saved kernelspec that differs (its display name was "Python 3", the kernel's is "Python 3 (ipykernel)") made
    every notebook open marked modified and ask to be saved on closing."""
    notebooks = open_all(lab_page, [LESSON, EXERCISE, SOLUTION])
    for notebook in notebooks:
        notebook.tab.click()
        notebook.wait_until_kernel_shown_idle()
    time.sleep(2)  # give a late metadata update the time to mark a tab
    lab_page.page.screenshot(path=str(screenshots / "tabs-untouched.png"))
    for notebook in notebooks:
        assert "jp-mod-dirty" not in notebook.tab.get_attribute("class"), f"{notebook.path} opened marked modified"
    for notebook in reversed(notebooks):
        lab_page.close(notebook)  # fails if JupyterLab asks anything


def test_a_lesson_its_exercise_and_its_solution_show_three_different_tab_labels(lab_page, screenshots):
    """They were all `01_assemble_context.ipynb`. JupyterLab clips a label too long for its tab at its end (22 or
    23 characters showed with three tabs open, 4 to 6 with twelve), so the kind comes first in the file name:
    `exercise_01_…`, `solution_01_…`. The labels are compared as far as the page shows them, with the three
    open and again with nine more tabs open (File > New Launcher: a tab's width depends on how many tabs share the
    bar, not on what they show, and a launcher starts no kernel), when each tab is narrow."""
    notebooks = open_all(lab_page, [LESSON, EXERCISE, SOLUTION])
    shown = [notebook.tab_label_shown() for notebook in notebooks]
    assert all(shown) and len(set(shown)) == 3, f"the three tabs read {shown}"
    lab_page.page.screenshot(path=str(screenshots / "tabs-lesson-exercise-solution.png"))

    page = lab_page.page
    tabs = page.locator("#jp-main-dock-panel .lm-TabBar-tab")
    launchers = tabs.filter(has_text=re.compile("^Launcher$"))
    before = launchers.count()  # JupyterLab shows one when the last tab of the main area closes
    for opened in range(1, MORE_TABS + 1):
        menu(page, "File", "New Launcher")
        wait_until(
            lambda opened=opened: launchers.count() == before + opened,
            lambda: f"File > New Launcher opened no tab: the tabs read {tabs.all_text_contents()}",
        )
    narrow = [notebook.tab_label_shown() for notebook in notebooks]
    assert all(narrow) and len(set(narrow)) == 3, f"with {tabs.count()} tabs open the three read {narrow}"
    assert all(len(n) < len(s) for n, s in zip(narrow, shown)), "the tabs did not get narrower"
    page.screenshot(path=str(screenshots / "tabs-many.png"))
    while launchers.count() > before:  # for the next test
        left = launchers.count()
        launchers.last.locator(".lm-TabBar-tabCloseIcon").click()
        wait_until(lambda left=left: launchers.count() < left, "a launcher's tab did not close")
    for notebook in reversed(lab_page.opened):
        lab_page.close(notebook)


def running_kernels(lab) -> set[str]:
    return {kernel["id"] for kernel in lab.api("kernels")}


def test_closing_notebooks_stops_their_kernels(lab_page):
    """A walk through the lessons left a kernel running per notebook opened (15 of them): the shipped settings shut a
    notebook's kernel down when its tab closes. Counted through the server's REST API (/api/kernels)."""
    lab = lab_page.lab
    assert running_kernels(lab) == set(), "a kernel of an earlier test is still running"
    lesson, exercise = open_all(lab_page, [LESSON, EXERCISE])
    kernel_of = {session["path"]: session["kernel"]["id"] for session in lab.api("sessions")}
    assert running_kernels(lab) == {kernel_of[LESSON], kernel_of[EXERCISE]}

    lab_page.close(exercise)
    wait_until(
        lambda: running_kernels(lab) == {kernel_of[LESSON]},
        "closing the exercise did not stop its kernel alone",
        seconds=30,
    )
    lab_page.close(lesson)
    wait_until(lambda: running_kernels(lab) == set(), "closing the lesson did not stop its kernel", seconds=30)
    assert lab.api("sessions") == []
