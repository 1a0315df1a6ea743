"""`make lab` changes nothing in the home folder: a learner's session (open a lesson and an exercise, run them,
complete a name with Tab, save, close) leaves the server's HOME empty, because the lab and its kernels write their
state into the repository's git-ignored .jupyter-state/ instead (see the Makefile's LAB_STATE)."""

from __future__ import annotations

import re

from conftest import started_lab, written_under
from notebook_page import NotebookPage, wait_until

LESSON = "notebooks/00_start_here.ipynb"
EXERCISE = "exercises/exercise_01_assemble_context.ipynb"

# What such a session writes, measured with an empty HOME before the lab was given .jupyter-state/, and where it
# goes now: the test also finds each of them there, so an empty home folder is not an idle session's.
WRITTEN = {
    "config/lab/workspaces/*.jupyterlab-workspace": "the open tabs (were ~/.jupyter/lab/workspaces/)",
    "runtime/jupyter_cookie_secret": "the server's cookie secret (was ~/.local/share/jupyter/runtime/)",
    "data/nbsignatures.db": "the notebook-signature database (was ~/.local/share/jupyter/)",
    "data/notebook_secret": "its signing key (was ~/.local/share/jupyter/)",
    "ipython/profile_default/history.sqlite": "the kernels' IPython history (was ~/.ipython/)",
    "matplotlib/fontlist-*.json": "matplotlib's font cache (was ~/.cache/matplotlib/)",
    "cache/jedi/*": "jedi's cache, filled by Tab completion (would be ~/.cache/jedi/)",
}


def test_a_session_in_the_lab_leaves_the_home_folder_empty(browser, tmp_path, screenshots):
    with started_lab(tmp_path) as lab:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(60_000)
        try:
            page = context.new_page()
            lesson = NotebookPage.open(page, lab, LESSON, workspace="home")
            lesson.run_all()
            complete_with_tab(lesson, "packer.assemble_c", "packer.assemble_context")
            exercise = NotebookPage.open_from_path(page, lab, EXERCISE)
            exercise.run_all()
            page.screenshot(path=str(screenshots / "home-folder-session.png"))
            for notebook in (exercise, lesson):
                save(notebook)
                notebook.close_tab()
            while_running = written_under(lab.home)
        finally:
            context.close()
    assert while_running == [], "the lab wrote into the home folder while running"
    assert written_under(lab.home) == [], "the lab wrote into the home folder"
    state = lab.root / ".jupyter-state"
    missing = {pattern: what for pattern, what in WRITTEN.items() if not list(state.glob(pattern))}
    assert not missing, f"not in .jupyter-state/: {missing}; it holds {written_under(state)}"


def complete_with_tab(notebook: NotebookPage, typed: str, completed: str) -> None:
    """Type `typed` on a new last line of the cell that imports packer, press Tab and take what the kernel offers."""
    cell = notebook.cell(notebook.code_cell_index("import packer"))
    editor = cell.locator(".cm-content")
    editor.click()
    notebook.page.keyboard.press("Control+End")
    notebook.page.keyboard.insert_text(f"\n{typed}")
    notebook.page.keyboard.press("Tab")
    offered = notebook.page.locator(".jp-Completer:not(.lm-mod-hidden) .jp-Completer-item")
    name = completed.rpartition(".")[2]
    wait_until(lambda: any(name in item for item in offered.all_inner_texts()), f"Tab did not offer {name}")
    notebook.page.keyboard.press("Enter")
    wait_until(
        lambda: re.search(rf"^{re.escape(completed)}$", editor.inner_text(), re.M),
        f"Tab did not complete {typed!r} to {completed!r}",
        seconds=30,
    )
    notebook.page.keyboard.press("Escape")


def save(notebook: NotebookPage) -> None:
    """Bring the notebook's tab forward and save it with Ctrl+S (it signs the notebook), until it is no longer
    marked modified."""
    notebook.tab.click()
    notebook.page.keyboard.press("Control+s")
    wait_until(lambda: "jp-mod-dirty" not in notebook.tab.get_attribute("class"), f"{notebook.path} was not saved")
