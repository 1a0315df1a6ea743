"""The lessons as a static site: `python -m packer.site OUT [--solutions] [--repository URL [--branch B] [--hub URL]]`
(`make site`, `make site SOLUTIONS=1`, `make site REPOSITORY=... JUPYTERHUB=...`).

What it writes into OUT:

    index.html                      the README, the lessons in order (each with its time), the exercises (the solutions,
                                    when asked), the guides, and the way to run the first lesson
    README.html                     the README, beside README.md
    notebooks/NN_name.html          one page per lesson, with its saved outputs
    notebooks/NN_name_files/        its figures: the copy the page shows, and the notebook's own PNG, NAME_full.png, with
                                    twice the pixels, which the figure's link opens (packer/site/figures.py)
    notebooks/NN_name.ipynb         the notebook itself, byte for byte, for the page's download link
    exercises/exercise_NN_x.html    one page per exercise, linking to its .ipynb (copied beside it)
    solutions/...                   only with --solutions
    docs/learners.html, ...         the guides in docs/ (learners', instructors', contributors'), beside their .md
    site.css                        the one stylesheet of every page (JupyterLab's, Pagefind's UI's, the site's)
    site.js                         the site's own script: the contents and outline open on a wide screen, a tab stop on
                                    each box that scrolls, the copy buttons, and the search box
    pagefind/                       the search index and Pagefind's search UI (packer/site/search.py)
    .packer-site                    the marker that says the folder is ours (a rebuild replaces only such a folder)

Every page has the header with the search box, the contents of the whole course (its own entry marked), and
previous/next links in the course's order: the README, each lesson followed by its exercise (and solution), the
guides, and back to the index (packer/site/chrome.py). The order comes from the files' names, so a new lesson
takes its place with no list to edit. Under its title, a lesson's page has the time it takes (packer/site/outline.py:
its words at 238 a minute, and its Run All time as `make outputs` measured it, packer/site/run_times.py), "Run this
lesson" and "Get the workbook" (packer/site/launch.py; an exercise's page too), and every page with two sections or
more its outline, "On this page".

How, and why this way:

- nbconvert's HTML exporter (its `lab` template), the tool JupyterLab's own File > Save and Export Notebook As >
  HTML uses, renders each notebook from its saved outputs (packer/site/render.py). Nothing is executed (the
  exporter runs no preprocessor that executes unless told to, and this builder never tells it): the pages show
  exactly what strict nbval checked. Jupyter Book 1 and Jupyter Book 2 / mystmd were the alternatives. Jupyter
  Book 1 is Sphinx, whose MathJax comes from a CDN unless MathJax is shipped separately
  (https://github.com/sphinx-doc/sphinx/issues/3599: "MathJax (and the necessary fonts) is very large, it is not
  included in Sphinx"); mystmd renders its web pages with a separate theme application, a React/Remix app
  (https://mystmd.org/guide/theme-developer). Either is one more toolchain for what nbconvert, already installed
  with JupyterLab, does from the saved outputs.
- Nothing is loaded from the network when a page is viewed. nbconvert's lab template loads require.js and MathJax
  2.7.7 from cdnjs.cloudflare.com (`HTMLExporter.require_js_url`, `HTMLExporter.mathjax_url`, templates
  `lab/index.html.j2` and `base/mathjax.html.j2`), mermaid from cdnjs when a page has a diagram
  (`lab/mermaidjs.html.j2`), and, when a notebook saved widget state, the widgets' HTML manager from unpkg.com
  (`HTMLExporter.jupyter_widgets_base_url`, `base/jupyter_widgets.html.j2`). The workbook's template empties
  those four blocks. The only scripts are Pagefind's search UI and site.js, both files of the site.
- One stylesheet: the CSS nbconvert's template would inline into every page (240 kB of JupyterLab's styles) is
  written once as site.css, with Pagefind's UI's and the site's own rules (packer/site/static/site.css); every
  page links it. No web font. (nbconvert has no way to keep only the rules a page uses, so all of them are kept.)
- Figures: nbconvert's ExtractOutputPreprocessor writes each image output as a file beside the page instead of
  inline base64; the page shows it at the width of the screen and links to the file, which opens full size.
- Math: the markdown renderer (a subclass of nbconvert's IPythonRenderer, fed by nbconvert's own math-aware mistune
  parser, so `$` inside code is left alone) writes each `$...$` and `$$...$$` as MathML with latex2mathml at build
  time. Browsers render MathML Core themselves (MDN marks it Baseline 2023, Chrome 109 the last to ship it:
  https://developer.mozilla.org/en-US/docs/Web/MathML): no MathJax to ship.
- Widgets: an explorer needs a kernel; each is shown as a still (packer/site/widgets.py).
- Links: a lesson's relative link to another notebook or guide in the site becomes a link to that page (`.ipynb`
  or `.md` -> `.html`); a link to a file that is not in the site (a solution, when solutions are left out, or the
  README) becomes plain text.
- Headings: each has a link to itself, labelled "Link to this section: ..." for a screen reader; its ¶ is drawn by
  site.css on hover or focus, not written in the page (so no screen reader, copied heading or search result carries
  it). A guide's headings get GitHub's anchors (`#grading-a-class`), so the
  links between the guides, written for GitHub, reach the same headings in the site.
- Accessibility (WCAG 2.1 AA, measured by tests/e2e/test_site_accessibility.py with axe-core in Chromium): links
  underlined; every text colour of code and tracebacks at 4.5:1 or more on its background (packer/site/contrast.py
  darkens JupyterLab's and Pygments' colours and a traceback's ANSI colours where they fell short); a skip link, a
  header, the contents and the two navigation bars named apart, the main content and a footer; code, printed
  outputs, tables and display math that scroll sideways in their own box, each a tab stop when it scrolls (site.js,
  packer/site/scrolling.py); a focus outline, never cut, on whatever has the keyboard's focus; targets of 24 px.
- Search: Pagefind, run on the written pages (packer/site/search.py). It needs the site served (any static
  host, or `python3 -m http.server`): opened from disk, the browser refuses to fetch its index.
- The same notebooks give byte-identical pages: no timestamp, and no random ids (the template's widget block, the
  only one that made uuid4 ids for these notebooks, is replaced).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from packer.site.chrome import SCRIPT, STYLESHEET, page_chrome, render_index
from packer.site.launch import Launch, launch_block
from packer.site.outline import time_line, word_count
from packer.site.pages import GUIDE_ORDER, SECTIONS, Page, SiteError, collect, course_order, read_notebook, relative
from packer.site.render import SiteExporter, render_page
from packer.site.run_times import read_run_times
from packer.site.search import index_for_search, search_stylesheet
from packer.site.widgets import LIVE_NOTE

__all__ = ["GUIDE_ORDER", "LIVE_NOTE", "MARKER", "SECTIONS", "Launch", "Page", "SiteError", "build", "course_order"]

MARKER = ".packer-site"
MARKER_TEXT = "Made by python -m packer.site (make site); a rebuild replaces this whole folder.\n"
STATIC = Path(__file__).resolve().parent / "static"
SCHEMES = ("dark.css", "print.css")  # the site's dark scheme and its printed page, added to the one stylesheet


def prepare_output(out: Path) -> None:
    """Make `out` an empty folder of ours: new, empty, or one an earlier build wrote (its marker says so)."""
    if out.exists():
        if not out.is_dir():
            raise SiteError(f"{out} exists and is not a folder: choose another output folder")
        if any(out.iterdir()):
            if not (out / MARKER).is_file():
                raise SiteError(
                    f"{out} exists and was not made by `python -m packer.site` (no {MARKER} in it): "
                    "refusing to replace it; choose another output folder or remove it yourself"
                )
            shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text(MARKER_TEXT, encoding="utf-8")


def write_page(out: Path, page: Page, body: str, figures: dict[str, bytes]) -> None:
    """A page, its figures in the folder beside it, and its notebook for the download link."""
    folder = out / page.folder
    folder.mkdir(exist_ok=True)
    (out / page.html_name).write_text(body, encoding="utf-8")
    for name, data in figures.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    shutil.copyfile(page.source, out / page.ipynb_name)


RUN = {"notebooks": "Run this lesson", "exercises": "Run this exercise", "solutions": "Run this solution"}
HOW_LONG = "docs/instructors.html#how-long-a-lesson-takes"  # where the guide says how a lesson's time is estimated


def lesson_minutes(pages: list[Page], root: Path) -> dict[Page, tuple[int, int | None]]:
    """Each lesson's words and measured Run All seconds (None: not measured yet)."""
    seconds = read_run_times(root)
    return {
        p: (word_count(read_notebook(p.source)), seconds.get(p.ipynb_name)) for p in pages if p.folder == "notebooks"
    }


def overview(page: Page, times: dict[Page, tuple[int, int | None]], launch: Launch, guide: bool) -> str:
    """What goes under a page's title besides its outline: a lesson's time, and the way to run a notebook."""
    here = Path(page.html_name).parent
    parts = []
    if page in times:
        parts.append(time_line(*times[page], guide=relative(HOW_LONG, here) if guide else ""))
    if page.folder in RUN:
        parts.append(launch_block(launch, page.ipynb_name, RUN[page.folder]))
    return "".join(parts)


def build(root: Path, out: Path, solutions: bool = False, launch: Launch | None = None) -> list[Page]:
    """Write the site for the notebooks under `root` into `out`, each notebook's page with its way to run it
    (`launch`: the repository and JupyterHub, if any); return its pages in the course's order."""
    launch = launch or Launch()
    pages = collect(root, solutions)
    order = course_order(pages)
    times = lesson_minutes(pages, root)
    guide = any(p.html_name == HOW_LONG.partition("#")[0] for p in pages)
    exporter = SiteExporter()
    exporter.site_links = {p.ipynb_name: p.html_name for p in pages}
    rendered = {
        page: render_page(exporter, page, page_chrome(page, order), overview(page, times, launch, guide))
        for page in order
    }
    prepare_output(out)  # only once every page rendered: a bad notebook leaves an earlier site as it was
    for page, (body, figures) in rendered.items():
        write_page(out, page, body, figures)
    (out / "index.html").write_text(render_index(pages, order, times, launch), encoding="utf-8")
    shutil.copyfile(STATIC / SCRIPT, out / SCRIPT)
    index_for_search(out)
    css = [
        exporter.stylesheet(),
        search_stylesheet(out),
        (STATIC / STYLESHEET).read_text(encoding="utf-8"),
        *((STATIC / extra).read_text(encoding="utf-8") for extra in SCHEMES),
    ]  # ours last, the dark scheme and print after the rules they change
    (out / STYLESHEET).write_text("\n".join(css), encoding="utf-8")
    return order
