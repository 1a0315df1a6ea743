"""Lesson 09's explorer on a learner's own transcript: a file uploaded (ipywidgets' FileUpload) or a path, reported
on as `python -m packer.transcript` reports (packer/transcript.py). The logic is in plain functions
(`transcript_text`, `uploaded_file`, `report_html`) that tests call; the widget only collects values and shows them.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from packer.transcript import format_report, make_counter, parse_file, read_log, report

COUNTER_NAMES = ("mistral-v7", "mistral-v3", "openai-o200k", "openai-cl100k")


def transcript_text(data: bytes | str, name: str, limit: int | None = None, counter: str = "mistral-v7") -> str:
    """The report the command prints for a file's contents, or its one line naming what is wrong."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        log = read_log(parse_file(text))
        return format_report(report(log, make_counter(counter, log.tools), limit), name)
    except (ValueError, UnicodeDecodeError) as error:  # UnicodeDecodeError is a ValueError: named the same way
        return f"{name}: {error}".replace("\n", " ")


def uploaded_file(value: Any) -> tuple[str, bytes] | None:
    """(name, bytes) of the first file in a FileUpload's value (ipywidgets 8: a tuple of dicts), or None."""
    for item in value or ():
        return str(item["name"]), bytes(item["content"])
    return None


def report_html(text: str) -> str:
    """The report as preformatted HTML, its text escaped (a file's contents never become markup)."""
    return f"<pre>{html.escape(text)}</pre>"


def explore_transcript(path: str = "") -> Any:
    """A file upload, a path box, a limit and a counter; the report of the file below them on each click."""
    import ipywidgets as widgets

    upload = widgets.FileUpload(accept=".json,.jsonl", multiple=False, description="log file")
    where = widgets.Text(value=path, description="or a path", placeholder="transcript.json")
    limit = widgets.IntText(value=0, description="limit (0: default)")
    counter = widgets.Dropdown(options=COUNTER_NAMES, value="mistral-v7", description="counter")
    button = widgets.Button(description="Report")
    shown = widgets.HTML(report_html("Load a JSON or JSON Lines log, or type its path, then press Report."))

    def show(_: Any = None) -> None:
        loaded = uploaded_file(upload.value)
        if loaded is None and where.value.strip():
            try:
                loaded = (where.value.strip(), Path(where.value.strip()).read_bytes())
            except OSError as error:
                shown.value = report_html(f"{where.value.strip()}: cannot read it: {error}")
                return
        if loaded is None:
            shown.value = report_html("No file yet: load one, or type its path.")
            return
        shown.value = report_html(transcript_text(loaded[1], loaded[0], limit.value or None, counter.value))

    button.on_click(show)
    return widgets.VBox([widgets.HBox([upload, where]), widgets.HBox([limit, counter, button]), shown])
