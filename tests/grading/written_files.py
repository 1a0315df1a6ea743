"""The grader's written files read back as their readers read them, for the tests that prove a learner's text
shows as text: Markdown rendered by a real Markdown parser (mistune, the one nbconvert renders notebooks with, in
the instructor's set), with every extension it has that a course tool's renderer might share (GitHub's tables,
autolinks, strikethrough, footnotes and task lists; math; marks, superscripts, spoilers and the rest), and its
HTML read by html.parser; HTML text by html.parser; CSV by the csv module.

What a file shows is its `Shown`: the sequence of HTML elements (start and end tags, comments, declarations)
and the text between them. Two files the grader wrote from the same rows, one with a learner's hostile text and
one with plain placeholders in its place, must show the same elements: then the hostile text made none."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from html.parser import HTMLParser

import mistune

# Raw HTML kept (escape=False), as GitHub and JupyterLab keep the safe part of it: a tag the grader did not write
# would show up as an element.
MARKDOWN = mistune.create_markdown(
    escape=False,
    plugins=[
        "table",
        "url",
        "strikethrough",
        "footnotes",
        "task_lists",
        "math",
        "mark",
        "superscript",
        "subscript",
        "insert",
        "spoiler",
        "abbr",
        "def_list",
    ],
)
FORMULA = ("=", "+", "-", "@", "\t", "\r", "\n", "\0")  # a spreadsheet's formula starts (packer.grading.escaping)


BLOCKS = ("h1", "h2", "h3", "h4", "h5", "h6", "li", "th", "td", "a")  # elements whose text a test may read


@dataclass
class Shown:
    """What a browser would show of an HTML text: its elements in order, its text, and the text of each
    heading, list item, table cell and link, in order, as (tag, text)."""

    elements: list[str]
    text: str
    blocks: list[tuple[str, str]]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[str] = []
        self.parts: list[str] = []
        self.blocks: list[tuple[str, str]] = []
        self.open: list[tuple[str, int]] = []  # the blocks open now, with where their text starts

    def handle_starttag(self, tag, attrs):
        self.elements.append(f"<{tag} {' '.join(sorted(name for name, _ in attrs))}>")
        if tag in BLOCKS:
            self.open.append((tag, len(self.parts)))

    def handle_endtag(self, tag):
        self.elements.append(f"</{tag}>")
        if self.open and self.open[-1][0] == tag:
            _, start = self.open.pop()
            self.blocks.append((tag, "".join(self.parts[start:]).strip()))

    def handle_startendtag(self, tag, attrs):
        self.elements.append(f"<{tag} {' '.join(sorted(name for name, _ in attrs))}/>")

    def handle_data(self, data):
        self.parts.append(data)

    def handle_comment(self, data):
        self.elements.append("<!---->")

    def handle_decl(self, decl):
        self.elements.append("<!decl>")

    def handle_pi(self, data):
        self.elements.append("<?pi>")

    def unknown_decl(self, data):
        self.elements.append("<![unknown]>")


def html_shown(html: str) -> Shown:
    """What html.parser reads in an HTML text."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return Shown(reader.elements, "".join(reader.parts), reader.blocks)


def markdown_shown(markdown: str) -> Shown:
    """What a Markdown file shows once rendered."""
    return html_shown(MARKDOWN(markdown))


def csv_rows(data: bytes) -> list[list[str]]:
    """A CSV file's rows (a UTF-8 byte order mark ignored)."""
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def formula_cells(rows: list[list[str]]) -> list[str]:
    """The cells a spreadsheet would run as formulas."""
    return [cell for row in rows for cell in row if cell.startswith(FORMULA)]
