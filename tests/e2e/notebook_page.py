"""Driving one notebook in JupyterLab the way a learner does: menus, clicks and keys, read back from the page."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import nbformat

STDERR = "[data-mime-type='application/vnd.jupyter.stderr']"  # JupyterLab shows tracebacks as stderr
RUN_SECONDS = 180
# The prompt of a cell whose code is folded (nbformat's jupyter.source_hidden): JupyterLab shows the code's first line
# in its place, without the execution count, so whether it ran is read from the counts around it (ran_between).
FOLDED = "folded"


@dataclass(frozen=True)
class CellState:
    """What the page shows for one cell after a run."""

    kind: str  # "code", "markdown" or "raw"
    prompt: str  # "[3]:", "[*]:" or "[ ]:" for code cells; FOLDED for one whose code is folded
    stderr: str  # text of its error or warning outputs
    images: int  # figures rendered in its outputs with a real size (an explorer's own are not counted)


class NotebookPage:
    """A JupyterLab page showing one notebook."""

    def __init__(self, page, lab, path: str):
        self.page, self.lab, self.path = page, lab, path
        self.notebook = nbformat.read(lab.root / path, as_version=4)

    @classmethod
    def open(cls, page, lab, path: str, workspace: str) -> NotebookPage:
        """Go to the notebook's lab URL in a workspace of its own and wait until it is shown."""
        page.goto(lab.url(path, workspace))
        return cls.attach(page, lab, path)

    @classmethod
    def attach(cls, page, lab, path: str) -> NotebookPage:
        """The notebook the page shows now (after a link or a redirect), once every cell is in the page."""
        notebook = cls(page, lab, path)
        notebook.wait_until_shown()
        return notebook

    @classmethod
    def open_from_path(cls, page, lab, path: str) -> NotebookPage:
        """Open one more notebook in the same page, as a learner can: File > Open from Path…, type it, Enter."""
        menu(page, "File", "Open from Path…")
        page.locator(".jp-Dialog input").fill(path)
        page.keyboard.press("Enter")
        return cls.attach(page, lab, path)

    @property
    def tab(self):
        """This notebook's tab in the main area (its tooltip names the file's path on a line of its own)."""
        return self.page.locator(f'#jp-main-dock-panel .lm-TabBar-tab[title*="\\a Path: {self.path}\\a "]')

    def tab_label_shown(self) -> str:
        """The part of the tab's label a learner can read: the characters that end inside the label's box
        (JupyterLab clips a label too long for its tab; the cut is measured character by character)."""
        return self.tab.locator(".lm-TabBar-tabLabel").evaluate(
            """label => { const text = label.firstChild, right = label.getBoundingClientRect().right;
                if (!text) return '';
                const range = document.createRange(); let shown = 0;
                for (let i = 1; i <= text.length; i++) {
                    range.setStart(text, 0); range.setEnd(text, i);
                    if (range.getBoundingClientRect().right <= right + 0.5) shown = i;
                }
                return text.textContent.slice(0, shown); }"""
        )

    def close_tab(self) -> None:
        """Close the notebook with its tab's close icon; fail if JupyterLab asks anything (such as whether to save)."""
        self.tab.locator(".lm-TabBar-tabCloseIcon").click()
        dialog = self.page.locator(".jp-Dialog")
        wait_until(lambda: dialog.count() or not self.tab.count(), f"{self.path}: the tab did not close")
        assert not dialog.count(), f"closing {self.path} asked: {dialog.first.inner_text()}"

    def close_tab_discarding_changes(self) -> None:
        """Close the notebook with its tab's close icon and answer JupyterLab's "Save your work" with Discard: what a
        run changed is not written to the file, which later tests open as it was."""
        self.tab.locator(".lm-TabBar-tabCloseIcon").click()
        dialog = self.page.locator(".jp-Dialog")
        wait_until(lambda: dialog.count() or not self.tab.count(), f"{self.path}: the tab did not close")
        if dialog.count():
            assert "Save your work" in dialog.inner_text(), f"closing {self.path} asked: {dialog.inner_text()}"
            dialog.locator("button", has_text=re.compile("^Discard$")).click()
        wait_until(lambda: not dialog.count() and not self.tab.count(), f"{self.path}: the tab did not close")

    def wait_until_kernel_shown_idle(self) -> None:
        """The page itself shows the kernel connected and idle (its spec and language are known to the page then)."""
        self.panel.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for()

    @property
    def panel(self):
        """The notebook panel in the main area that is showing now."""
        return self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")

    def cells(self):
        return self.panel.locator(".jp-Notebook .jp-Cell")

    def cell(self, index: int):
        return self.cells().nth(index)

    def wait_until_shown(self) -> None:
        """The page's address names this notebook, every cell of the file is in the page (the shipped settings
        turn notebook windowing off), and its kernel is ready."""
        self.page.wait_for_function(
            "([path, count]) => { const p = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');"
            " return location.pathname.endsWith('/tree/' + path)"
            " && p && p.querySelectorAll('.jp-Notebook .jp-Cell').length === count; }",
            arg=[self.path, len(self.notebook.cells)],
        )
        deadline = time.monotonic() + 60
        while not self.kernel_idle():
            assert time.monotonic() < deadline, f"{self.path}: the kernel did not become idle"
            time.sleep(0.25)

    def kernel_idle(self) -> bool:
        sessions = [s for s in self.lab.api("sessions") if s["path"] == self.path]
        return bool(sessions) and sessions[0]["kernel"]["execution_state"] == "idle"

    def menu(self, menu_name: str, item: str) -> None:
        """Choose a menu item, as a learner does: the menu bar, then the item."""
        menu(self.page, menu_name, item)

    def run_all(self) -> list[CellState]:
        """Edit > Clear Outputs of All Cells, Run > Run All Cells, then wait until every code cell shows its
        execution count and the kernel is idle; or, when a cell without the `raises-exception` tag failed (which
        stops Run All), until the page has been still for a few seconds. Clearing first makes every output and
        count on the page this run's. JupyterLab sends the cells one at a time: a count is the only sure sign."""
        self.menu("Edit", "Clear Outputs of All Cells")
        self.menu("Run", "Run All Cells")
        tagged = {
            i for i, cell in enumerate(self.notebook.cells) if "raises-exception" in cell.metadata.get("tags", [])
        }
        deadline, still_since, last = time.monotonic() + RUN_SECONDS, time.monotonic(), None
        while True:
            states = self.states()
            if states != last:
                still_since, last = time.monotonic(), states
            code = [s for s in states if s.kind == "code"]
            ran = all(re.fullmatch(r"\[\d+\]:", s.prompt) or s.prompt == FOLDED for s in code)
            stopped = (
                any(s.stderr and i not in tagged for i, s in enumerate(states))
                and not any(s.prompt == "[*]:" for s in code)
                and time.monotonic() - still_since > 3
            )
            if (ran or stopped) and self.kernel_idle():
                time.sleep(0.5)  # the last outputs are rendered right after the kernel reports idle
                return self.states()
            assert time.monotonic() < deadline, f"{self.path}: Run All did not finish in {RUN_SECONDS} s: {states}"
            time.sleep(0.5)

    def states(self) -> list[CellState]:
        """Every cell's kind, prompt, error text and rendered images, read from the page in one go."""
        rows = self.panel.evaluate(
            """(panel, stderr) => [...panel.querySelectorAll('.jp-Notebook .jp-Cell')].map(cell => ({
                kind: cell.classList.contains('jp-CodeCell') ? 'code'
                    : cell.classList.contains('jp-MarkdownCell') ? 'markdown' : 'raw',
                prompt: cell.querySelector('.jp-InputPlaceholder') ? 'folded'
                    : (cell.querySelector('.jp-InputPrompt') || {}).textContent || '',
                stderr: [...cell.querySelectorAll('.jp-OutputArea-output' + stderr)].map(e => e.textContent).join('\\n'),
                images: [...cell.querySelectorAll('.jp-OutputArea-output img')]
                    .filter(img => !img.closest('.widget-output') && img.complete && img.naturalWidth > 0).length,
            }))""",
            STDERR,
        )
        return [CellState(**row) for row in rows]

    def code_cell_index(self, text: str) -> int:
        """Index of the first code cell whose source contains `text` (read from the notebook file)."""
        for index, cell in enumerate(self.notebook.cells):
            if cell.cell_type == "code" and text in cell.source:
                return index
        raise AssertionError(f"{self.path}: no code cell contains {text!r}")

    def screenshot(self, locator, path: Path) -> None:
        """Scroll `locator` into view and save the whole page as it looks then."""
        locator.scroll_into_view_if_needed()
        self.page.screenshot(path=str(path))


def ran_between(states: list[CellState], index: int) -> bool:
    """A cell whose code is folded ran in a Run All when the code cells before and after it show counts one
    execution apart (it took the count between them); the first or last code cell, when the next or previous does."""
    counts = [(i, s.prompt) for i, s in enumerate(states) if s.kind == "code"]
    at = [i for i, _ in counts].index(index)
    number = [int(p.strip("[]:")) if re.fullmatch(r"\[\d+\]:", p) else None for _, p in counts]
    before = number[at - 1] if at > 0 else None
    after = number[at + 1] if at + 1 < len(number) else None
    if before is not None and after is not None:
        return after == before + 2
    return (after is not None and after >= 2) or (before is not None and at == len(number) - 1)


def menu(page, menu_name: str, item: str) -> None:
    """Choose a menu item, as a learner does: the menu bar, then the item."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu_name}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).click()


def wait_until(condition: Callable[[], object], failure: str | Callable[[], str], seconds: float = 60) -> None:
    """Poll `condition` until it holds; fail with `failure` (or what it returns, read then) when it still does
    not after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure() if callable(failure) else failure
        time.sleep(0.2)
