"""What every page of the site has around its content: the head's links to the one stylesheet and the site's
script, a skip link, the header with the search box (its link to the index carries the site's name), the contents of
the whole course (the current page marked), and the previous/next links in the course's order (from the index, back
to the index), above the content and again in the footer; and the index itself."""

from __future__ import annotations

import html
from pathlib import Path

from packer.site.launch import Launch, launch_block
from packer.site.outline import lesson_minutes
from packer.site.pages import SECTIONS, Page, relative

SITE_NAME = "The context-packing workbook"
STYLESHEET = "site.css"
SCRIPT = "site.js"
SEARCH_NOTE = (
    "Search runs in the browser when the site is served (any static host, or "
    "<code>python3 -m http.server -d _site</code>); opened from the folder itself it is off."
)


def head(here: Path) -> str:
    """The page's links to the site's stylesheet and scripts (Pagefind's search UI, then the site's own)."""
    return (
        f'<link rel="stylesheet" href="{relative(STYLESHEET, here)}">\n'
        f'<script src="{relative("pagefind/pagefind-ui.js", here)}" defer></script>\n'
        f'<script src="{relative(SCRIPT, here)}" defer></script>\n'
    )


def header(here: Path) -> str:
    """A link past the header to the content, the site's name (a link to the index) and the search box."""
    return (
        '<a class="site-skip" href="#content">Skip to the content</a>\n'
        '<header class="site-header">\n'
        f'<a class="site-name" href="{relative("index.html", here)}">{SITE_NAME}</a>\n'
        '<label class="site-search-label" hidden>Search</label>'
        f'<div id="site-search" class="site-search" role="search" aria-label="Search the site">'
        f'<p class="site-search-note">{SEARCH_NOTE}</p></div>\n'
        "</header>\n"
    )


def _item(page: Page, current: Page | None, here: Path) -> str:
    """One page in the contents: a link, or the current page marked (bold, a marker, and aria-current)."""
    title = html.escape(page.title)
    if page == current:
        return f'<a href="{relative(page.html_name, here)}" aria-current="page">{title}</a>'
    return f'<a href="{relative(page.html_name, here)}">{title}</a>'


def contents(order: list[Page], current: Page | None, here: Path) -> str:
    """Every page of the course in order, a lesson's exercise (and solution) under it; collapsible (a <details>,
    which site.js opens on a wide screen)."""
    items: list[str] = []
    lessons = {p.lesson_stem for p in order if p.folder == "notebooks"}
    for i, page in enumerate(order):
        if page.folder in ("exercises", "solutions") and page.lesson_stem in lessons:
            continue  # listed under its lesson
        under = [p for p in order[i + 1 :] if p.folder != "notebooks" and p.lesson_stem == page.lesson_stem]
        nested = "".join(f"<li>{_item(p, current, here)}</li>" for p in under) if page.folder == "notebooks" else ""
        items.append(f"<li>{_item(page, current, here)}" + (f"<ol>{nested}</ol>" if nested else "") + "</li>")
    return (
        '<nav class="site-contents" aria-label="Contents"><details><summary>Contents</summary>\n'
        f"<ol>\n{chr(10).join(items)}\n</ol>\n</details></nav>\n"
    )


def _neighbour(page: Page | None, here: Path, rel: str, arrow_before: bool) -> str:
    """A previous or next link: to `page`, or to the index when there is none."""
    href = relative(page.html_name if page else "index.html", here)
    title = html.escape(page.title) if page else "Index"
    label = ("Previous: " if rel == "prev" else "Next: ") + title
    text = f"&larr; {label}" if arrow_before else f"{label} &rarr;"
    return f'<a class="site-{rel}" rel="{rel}" href="{href}">{text}</a>'


def navigation(page: Page | None, order: list[Page], label: str = "Previous and next") -> str:
    """The bar at the top and bottom of a page: the previous and next pages in the course's order (the index
    before the first and after the last), and the page's download. `page` None: the index. `label` names the
    bar for a screen reader's list of landmarks (the two bars of a page are named apart)."""
    position = order.index(page) if page else -1
    here = Path(page.html_name).parent if page else Path(".")
    previous = order[position - 1] if position > 0 else None
    following = order[position + 1] if position + 1 < len(order) else None
    items = [_neighbour(following, here, "next", arrow_before=False)]
    if page is not None:
        items.insert(0, _neighbour(previous, here, "prev", arrow_before=True))
        name = html.escape(page.source.name)
        items.append(f'<a class="site-download" href="{name}" download>Download {name}</a>')
    return f'<nav class="site-nav" aria-label="{label}" data-pagefind-ignore>' + "".join(items) + "</nav>"


def footer(nav: str) -> str:
    """The page's footer (its contentinfo landmark): the navigation bar again, at the end of the page."""
    return f'<footer class="site-footer">\n{nav}\n</footer>\n'


def page_chrome(page: Page, order: list[Page]) -> dict[str, str]:
    """What the workbook template puts around a page's content (the template's resources.site_*)."""
    here = Path(page.html_name).parent
    return {
        "site_head": head(here),
        "site_top": header(here) + '<div class="site-layout">\n' + contents(order, page, here),
        "site_nav": navigation(page, order),
        "site_bottom": footer(navigation(page, order, "Previous and next, at the end of the page")) + "</div>",
    }


INDEX = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{name}</title>
{head}</head>
<body class="site-index-page">
{header}<main id="content">
<h1>{name}</h1>
<p>Every lesson as it was last run and checked: its text, code, printed results and figures. The explorers
are shown as they were saved; to move their sliders, run the lessons live in JupyterLab with <code>make lab</code>
(or open them on the class's JupyterHub). Each page links to its notebook to download, and says how long the lesson
takes and how to run it. The guides at the end say more: how the lab and the self-checks work, how to run and grade
a class, and how the workbook is tested.</p>
{run}{sections}
</main>
{footer}</body>
</html>
"""


def render_index(
    pages: list[Page], order: list[Page], times: dict[Page, tuple[int, int | None, tuple[int, int]]], launch: Launch
) -> str:
    """The index: the way to run the first lesson, each section's pages in order (each with its download link, a
    lesson with its time), and the way into the course."""
    sections = []
    for folder, heading in SECTIONS:
        items = [
            f'<li><a href="{p.html_name}">{html.escape(p.title)}</a> '
            f'(<a href="{p.ipynb_name}" download>{html.escape(p.source.name)}</a>)'
            + (f", about {lesson_minutes(*times[p])} min" if p in times else "")
            + "</li>"
            for p in pages
            if p.folder == folder
        ]
        if items:
            name = folder or "start"
            sections.append(
                f'<h2 id="{name}">{heading}</h2>\n<ol class="site-{name}">\n' + "\n".join(items) + "\n</ol>"
            )
    lessons = [p for p in order if p.folder == "notebooks"]
    run = launch_block(launch, lessons[0].ipynb_name, "Run the first lesson") if lessons else ""
    here = Path(".")
    return INDEX.format(
        name=SITE_NAME,
        head=head(here),
        header=header(here),
        run=run,
        sections="\n".join(sections),
        footer=footer(navigation(None, order)),
    )
