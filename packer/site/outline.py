"""What a reader sees first on a page: how long the lesson takes, and its outline ("On this page").

The time of a lesson is its reading time plus its running time. Reading: the words of its Markdown and code cells
(not the outputs) at 238 words a minute, the average silent reading rate of adults for English non-fiction in
Brysbaert's meta-analysis of 190 studies (Journal of Memory and Language 109, 2019,
https://doi.org/10.1016/j.jml.2019.104047); code and a lesson's questions read slower than prose, so it is a floor.
Running: the lesson's Run All time as `make outputs` last measured it, the kernel's processor (CPU) time, which a
machine busy with other work does not inflate (packer/site/run_times.py)."""

from __future__ import annotations

import html
import math
import re

import nbformat

WORDS_A_MINUTE = 238
SOURCE = "https://doi.org/10.1016/j.jml.2019.104047"


def word_count(notebook: nbformat.NotebookNode) -> int:
    """The words (runs of letters or digits) of a notebook's Markdown and code cells."""
    text = "\n".join(cell.source for cell in notebook.cells if cell.cell_type in ("markdown", "code"))
    return len(re.findall(r"\w+", text))


def duration(seconds: float) -> str:
    """Seconds as a reader reads a duration: '40 s', '3 min', '1 h 5 min'."""
    if seconds < 90:
        return f"{max(1, math.ceil(seconds))} s"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


def lesson_minutes(words: int, run_seconds: int | None) -> int:
    """The whole estimate, in minutes (rounded up): reading plus running."""
    return math.ceil((words / WORDS_A_MINUTE * 60 + (run_seconds or 0)) / 60)


def time_line(words: int, run_seconds: int | None, guide: str) -> str:
    """The page's time estimate: the whole, then how it is made up, and a link to how it is made (`guide`, when
    the site has that guide)."""
    reading = f"{duration(words / WORDS_A_MINUTE * 60)} reading ({words:,} words at {WORDS_A_MINUTE} a minute)"
    running = (
        f"{duration(run_seconds)} running all its cells (measured as processor time)"
        if run_seconds is not None
        else "its running time not yet measured"
    )
    how = f' (<a href="{html.escape(guide, quote=True)}">how this is estimated</a>)' if guide else ""
    return (
        f'<p class="site-time"><strong>About {lesson_minutes(words, run_seconds)} min:</strong> {reading}, '
        f"{running}{how}.</p>\n"
    )


def outline(headings: list[tuple[int, str, str]]) -> str:
    """ "On this page": the page's sections (its h2 headings, each with the h3 headings under it) as links, in a
    <details> that site.js opens on a wide screen; nothing for a page of fewer than two sections. `headings` are
    (level, text as HTML, anchor), in the page's order."""
    sections: list[tuple[str, list[str]]] = []
    for level, text, anchor in headings:
        plain = html.escape(html.unescape(re.sub(r"<[^>]+>", "", text)).strip())
        link = f'<a href="#{html.escape(anchor, quote=True)}">{plain}</a>'
        if level == 2:
            sections.append((link, []))
        elif level == 3 and sections:
            sections[-1][1].append(link)
    if len(sections) < 2:
        return ""
    items = "".join(
        f"<li>{link}" + (f"<ol>{''.join(f'<li>{s}</li>' for s in under)}</ol>" if under else "") + "</li>"
        for link, under in sections
    )
    return (
        '<nav class="site-outline" aria-label="On this page" data-pagefind-ignore><details>'
        f"<summary>On this page</summary><ol>{items}</ol></details></nav>\n"
    )
