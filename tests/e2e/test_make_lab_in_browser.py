"""What a learner sees first: the page `make lab` opens shows lesson 00 from the repository root, with the
exercises and solutions in the file browser and no JupyterLab news pop-up. (Lesson 00's widget smoke test, before
and after running, is checked where every lesson is run: test_lessons_in_browser.py.)"""

import json
import re
import time
import urllib.request

from notebook_page import NotebookPage


def test_the_server_serves_the_repository_root(lab):
    assert f"Serving notebooks from local directory: {lab.root}" in lab.log.read_text()
    top = {item["name"] for item in lab.api("contents")["content"]}
    assert {"notebooks", "exercises", "solutions", "packer"} <= top


def test_the_shipped_settings_turn_the_news_off_keep_every_cell_in_the_page_and_stop_kernels_on_close(lab):
    def defaults(plugin: str) -> dict:
        """The plugin's defaults as this lab serves them: the schema's, with the shipped overrides applied."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{lab.port}/lab/api/settings/{plugin}", headers={"Authorization": f"token {lab.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            properties = json.loads(answer.read())["schema"]["properties"]
        return {name: spec.get("default") for name, spec in properties.items()}

    notification = defaults("@jupyterlab/apputils-extension:notification")
    assert (notification["fetchNews"], notification["checkForUpdates"]) == ("false", False)
    tracker = defaults("@jupyterlab/notebook-extension:tracker")
    assert (tracker["windowingMode"], tracker["kernelShutdown"]) == ("none", True)


def test_the_opened_page_shows_lesson_00_the_whole_repository_and_no_news(page, lab, screenshots):
    url = lab.browser_open_url()
    assert re.fullmatch(
        rf"http://127\.0\.0\.1:{lab.port}/lab/tree/notebooks/00_start_here\.ipynb\?token=\w+"
        r"&file-browser-path=/",
        url,
    ), url
    page.goto(url)
    lesson = NotebookPage.attach(page, lab, "notebooks/00_start_here.ipynb")
    listing = page.locator(".jp-FileBrowser .jp-DirListing-itemName")
    wait = time.monotonic() + 30
    while not {"exercises", "notebooks", "solutions"} <= set(listing.all_inner_texts()):
        assert time.monotonic() < wait, f"the file browser shows {listing.all_inner_texts()}"
        time.sleep(0.2)
    assert page.locator(".jp-FileBrowser .jp-BreadCrumbs").inner_text().strip() in ("", "/")
    time.sleep(3)  # JupyterLab asks about news a moment after it starts
    assert "Jupyter news" not in page.locator("body").inner_text()
    assert lesson.cells().count() == len(lesson.notebook.cells)
    page.screenshot(path=str(screenshots / "make-lab.png"))
