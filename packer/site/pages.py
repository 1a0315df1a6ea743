"""Which pages the site has, what each is titled, and the course's order through them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

SECTIONS = (
    ("", "Start here"),
    ("notebooks", "Lessons"),
    ("exercises", "Exercises"),
    ("solutions", "Solutions"),
    ("docs", "Guides"),
)
PATTERNS = {
    "": "README.md",
    "notebooks": "[0-9][0-9]_*.ipynb",
    "exercises": "exercise_*.ipynb",
    "solutions": "solution_*.ipynb",
    "docs": "*.md",
}
GUIDE_ORDER = ("learners.md", "instructors.md", "contributing.md")  # the guides in the order a reader needs them
COMPANIONS = {"exercises": "exercise_", "solutions": "solution_"}  # a lesson's exercise and solution, by name
# The README's page, by another name than its heading: that is the site's name, which the header's link to the
# index carries (two links of one name to two pages would mislead a reader).
README_TITLE = "About the workbook"


class SiteError(Exception):
    """A notebook or an output folder the site cannot be built from; the message names it."""


@dataclass(frozen=True)
class Page:
    """One notebook of the site: where it comes from, where its page goes, and its title."""

    source: Path  # the notebook (or Markdown page) in the repository
    folder: str  # notebooks, exercises, solutions, docs, or "" for the README at the top
    title: str

    @property
    def html_name(self) -> str:
        return f"{self.folder}/{self.source.stem}.html".lstrip("/")

    @property
    def ipynb_name(self) -> str:
        return f"{self.folder}/{self.source.name}".lstrip("/")

    @property
    def lesson_stem(self) -> str | None:
        """The lesson an exercise or solution belongs to (exercise_01_x -> 01_x), the lesson's own stem for a
        lesson, None for the README and the guides."""
        if self.folder == "notebooks":
            return self.source.stem
        prefix = COMPANIONS.get(self.folder)
        return self.source.stem.removeprefix(prefix) if prefix else None


def title_of(notebook: nbformat.NotebookNode, source: Path) -> str:
    """The text of the notebook's first markdown heading, without markdown marks."""
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            heading = re.match(r"#{1,6}\s+(.+?)\s*#*\s*$", line)
            if heading:
                return re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1)).strip()
    raise SiteError(f"{source}: no markdown heading to take the page's title from")


def read_notebook(source: Path) -> nbformat.NotebookNode:
    """A notebook as saved, or a Markdown guide as a notebook of one markdown cell."""
    if source.suffix == ".md":
        cell = nbformat.v4.new_markdown_cell(source.read_text(encoding="utf-8"), id=source.stem)  # not a random id
        return nbformat.v4.new_notebook(cells=[cell])
    return nbformat.read(source, as_version=4)


def _guide_rank(path: Path) -> int:
    """Where a page stands among the others of its folder: guides by GUIDE_ORDER, any other page by its name."""
    return GUIDE_ORDER.index(path.name) if path.name in GUIDE_ORDER else len(GUIDE_ORDER)


def collect(root: Path, solutions: bool) -> list[Page]:
    """The site's notebooks by section: the README, lessons, exercises, solutions when asked, guides."""
    pages = []
    for folder, _ in SECTIONS:
        if folder == "solutions" and not solutions:
            continue
        found = sorted((root / folder).glob(PATTERNS[folder]), key=lambda path: (_guide_rank(path), path.name))
        if not found:
            raise SiteError(f"{root / folder}: no notebooks matching {PATTERNS[folder]}")
        for source in found:
            title = README_TITLE if folder == "" else title_of(read_notebook(source), source)
            pages.append(Page(source, folder, title))
    return pages


def course_order(pages: list[Page]) -> list[Page]:
    """The order a learner reads the site in: the README, then each lesson followed by its exercise (and its
    solution, when built), then any exercise whose lesson is not in the site, then the guides."""
    lessons = [p for p in pages if p.folder == "notebooks"]
    companions = [p for p in pages if p.folder in COMPANIONS]
    order = [p for p in pages if p.folder == ""]
    for lesson in lessons:
        order += [lesson] + [p for p in companions if p.lesson_stem == lesson.lesson_stem]
    known = {lesson.lesson_stem for lesson in lessons}
    order += [p for p in companions if p.lesson_stem not in known]
    order += [p for p in pages if p.folder == "docs"]
    return order


def normalise(path: Path) -> str:
    """A relative path with its `..` folded away, as a posix string (foo/../bar -> bar)."""
    parts: list[str] = []
    for part in path.as_posix().split("/"):
        if part == "..":
            if parts and parts[-1] != "..":
                parts.pop()
            else:
                parts.append(part)
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def relative(target: str, here: Path) -> str:
    """`target` (relative to the site's root) as a link from a page in folder `here` (also relative to the root)."""
    depth = len([p for p in here.as_posix().split("/") if p not in ("", ".")])
    return "../" * depth + target
