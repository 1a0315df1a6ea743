"""The lessons as a static site: `python -m packer.site OUT [--solutions]` (`make site`, `make site SOLUTIONS=1`).

What it writes into OUT:

    index.html                      the README, the lessons in order, the exercises (the solutions, when asked), the guides
    README.html                     the README, beside README.md
    notebooks/NN_name.html          one page per lesson, with its saved outputs and figures
    notebooks/NN_name.ipynb         the notebook itself, byte for byte, for the page's download link
    exercises/exercise_NN_x.html    one page per exercise, linking to its .ipynb (copied beside it)
    solutions/...                   only with --solutions
    docs/learners.html, ...         the guides in docs/ (learners', instructors', contributors'), beside their .md
    .packer-site                    the marker that says the folder is ours (a rebuild replaces only such a folder)

How, and why this way:

- nbconvert's HTML exporter (its `lab` template), the tool JupyterLab's own File > Save and Export Notebook As >
  HTML uses, renders each notebook from its saved outputs. Nothing is executed (the exporter runs no preprocessor
  that executes unless told to, and this builder never tells it): the pages show exactly what strict nbval checked.
  Jupyter Book 1 and Jupyter Book 2 / mystmd were the alternatives. Jupyter Book 1 is Sphinx, whose MathJax comes
  from a CDN unless MathJax is shipped separately (https://github.com/sphinx-doc/sphinx/issues/3599: "MathJax (and
  the necessary fonts) is very large, it is not included in Sphinx"); mystmd renders its web pages with a separate
  theme application, a React/Remix app (https://mystmd.org/guide/theme-developer). Either is one more toolchain for
  what nbconvert, already installed with JupyterLab, does from the saved outputs.
- Nothing is loaded from the network when a page is viewed. nbconvert's lab template loads require.js and MathJax
  2.7.7 from cdnjs.cloudflare.com (`HTMLExporter.require_js_url`, `HTMLExporter.mathjax_url`, templates
  `lab/index.html.j2` and `base/mathjax.html.j2`), mermaid from cdnjs when a page has a diagram
  (`lab/mermaidjs.html.j2`), and, when a notebook saved widget state, the widgets' HTML manager from unpkg.com
  (`HTMLExporter.jupyter_widgets_base_url`, `base/jupyter_widgets.html.j2`). The template below (WORKBOOK_TEMPLATE)
  empties those four blocks, so the pages have no script at all; the CSS the template uses is inlined into every
  page (nbconvert's `resources.include_css`), with no web font.
- Math: the markdown renderer (a subclass of nbconvert's IPythonRenderer, fed by nbconvert's own math-aware mistune
  parser, so `$` inside code is left alone) writes each `$...$` and `$$...$$` as MathML with latex2mathml at build
  time. Browsers render MathML Core themselves (MDN marks it Baseline 2023, Chrome 109 the last to ship it:
  https://developer.mozilla.org/en-US/docs/Web/MathML): no MathJax to ship.
- Widgets: an explorer needs a kernel. Each widget view is replaced by one line saying how to run it live, the
  controls' saved values, and what its Output widget showed when the lesson was last run (the figure and text
  saved in the notebook's `metadata.widgets` state): a still of the explorer, with no JavaScript.
- Links: a lesson's relative link to another notebook or guide in the site becomes a link to that page (`.ipynb`
  or `.md` -> `.html`); a link to a file that is not in the site (a solution, when solutions are left out, or the
  README) becomes plain text.
- Guides: each Markdown page in docs/ is rendered as a notebook of one markdown cell, by the same exporter; its
  headings get GitHub's anchors (`#grading-a-class`), so the links between the guides, written for GitHub, reach
  the same headings in the site.
- The same notebooks give byte-identical pages: no timestamp, and no random ids (the template's widget block, the
  only one that made uuid4 ids for these notebooks, is replaced).
"""

from __future__ import annotations

import html
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from jinja2 import DictLoader, pass_context
from latex2mathml.converter import convert as latex_to_mathml
from nbconvert.exporters import HTMLExporter
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from traitlets import Bool, Dict, Unicode

MARKER = ".packer-site"
MARKER_TEXT = "Made by python -m packer.site (make site); a rebuild replaces this whole folder.\n"
LIVE_NOTE = "This explorer runs live in JupyterLab: <code>make lab</code> (or the class's JupyterHub link)."
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
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


WORKBOOK_TEMPLATE = r"""{%- extends 'index.html.j2' -%}
{#- Nothing from the network: no require.js, MathJax, mermaid or widget manager (see packer/site/build.py). -#}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block html_head_css -%}
<style type="text/css">
main { max-width: 1100px; margin: 0 auto; }
nav.site-nav { display: flex; flex-wrap: wrap; gap: 1.5em; padding: 0.8em 1em; margin: 0.5em 0;
  font-family: var(--jp-ui-font-family); font-size: 14px; background: var(--jp-layout-color2); }
nav.site-nav .site-download { margin-left: auto; }
.site-live-note { font-weight: bold; margin: 0.3em 0; }
.site-controls { margin: 0.3em 0 0.6em 0; padding: 0; list-style: none; }
.site-controls li { display: inline-block; margin-right: 1.5em; }
.site-controls .site-value { font-family: var(--jp-code-font-family); background: var(--jp-layout-color2);
  padding: 0 0.3em; }
math[display="block"] { margin: 0.8em 0; font-size: 1.15em; }
</style>
{%- endblock html_head_css -%}
{%- block body_header -%}
{{ super() }}
{{ resources.site_nav }}
{%- endblock body_header -%}
{% block body_footer %}
{{ resources.site_nav }}
{{ super() }}
{% endblock body_footer %}
{%- block data_widget_view scoped -%}{%- endblock data_widget_view -%}
"""


def github_slug(heading: str) -> str:
    """GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


class SiteRenderer(IPythonRenderer):
    """nbconvert's markdown renderer with math written as MathML and links to notebooks pointed at their pages."""

    def __init__(self, link_target: Any, github_anchors: bool = False, **options: Any):
        super().__init__(**options)
        self.link_target = link_target
        self.github_anchors = github_anchors
        self.slugs: dict[str, int] = {}

    def heading(self, text: str, level: int, **attrs: Any) -> str:
        """A heading with nbconvert's anchor, or GitHub's for a guide (a repeated one gets -1, -2, ...)."""
        if not self.github_anchors:
            return super().heading(text, level, **attrs)
        base = github_slug(html.unescape(re.sub(r"<[^>]+>", "", text)))
        count = self.slugs.get(base, 0)
        self.slugs[base] = count + 1
        anchor = base if count == 0 else f"{base}-{count}"
        return f'<h{level} id="{anchor}">{text}<a class="anchor-link" href="#{anchor}">¶</a></h{level}>\n'

    def block_math(self, body: str) -> str:
        """$$...$$ as display MathML."""
        return latex_to_mathml(body, display="block")

    def inline_math(self, body: str) -> str:
        """$...$ as inline MathML."""
        return latex_to_mathml(body, display="inline")

    def latex_environment(self, name: str, body: str) -> str:
        """A \\begin{name}...\\end{name} environment as display MathML."""
        return latex_to_mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", display="block")

    def link(self, text: str, url: str, title: str | None = None) -> str:
        """A link, with a relative one rewritten to its page in the site, or plain text when it has none."""
        target = self.link_target(url)
        return text if target is None else super().link(text, target, title)


class SiteExporter(HTMLExporter):
    """nbconvert's HTML exporter with the workbook's template and markdown renderer."""

    site_links = Dict(help="Repository path of each notebook in the site -> its page's path in the site")
    page_path = Unicode(help="The page being written, relative to the site's root")
    github_anchors = Bool(False, help="Whether headings get GitHub's anchors (a Markdown page: the README, a guide)")

    def __init__(self, **kwargs: Any):
        super().__init__(extra_loaders=[DictLoader({"workbook.html.j2": WORKBOOK_TEMPLATE})], **kwargs)
        self.template_file = "workbook.html.j2"

    def link_target(self, url: str) -> str | None:
        """Where a markdown link in the page being written should point (None: nowhere, show its text)."""
        if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:|#", url):
            return url  # a web page, a mail address or an anchor in this page
        path, _, anchor = url.partition("#")
        here = Path(self.page_path).parent
        resolved = _normalise(here / path)
        page = self.site_links.get(resolved)
        if page is None:
            return None
        return _relative(page, here) + (f"#{anchor}" if anchor else "")

    @pass_context
    def markdown2html(self, context: Any, source: str) -> str:
        """Markdown to HTML with SiteRenderer (nbconvert's own filter, with the renderer swapped)."""
        cell = context.get("cell", {})
        renderer = SiteRenderer(
            self.link_target,
            github_anchors=self.github_anchors,
            escape=False,
            attachments=cell.get("attachments", {}),
            embed_images=self.embed_images,
            anchor_link_text=self.anchor_link_text,
            exclude_anchor_links=self.exclude_anchor_links,
            **self.lexer_options,
        )
        return MarkdownWithMath(renderer=renderer).render(source)

    def default_filters(self) -> Iterable[tuple[str, Any]]:
        """nbconvert's filters, with markdown2html as above."""
        for name, value in super().default_filters():
            yield (name, self.markdown2html if name == "markdown2html" else value)


def _normalise(path: Path) -> str:
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


def _relative(target: str, here: Path) -> str:
    """`target` (relative to the site's root) as a link from a page in folder `here` (also relative to the root)."""
    depth = len([p for p in here.as_posix().split("/") if p not in ("", ".")])
    return "../" * depth + target


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


def check_executed(notebook: nbformat.NotebookNode, source: Path) -> None:
    """A lesson must have been run and saved: every code cell executed, and some output saved."""
    code = [(i, c) for i, c in enumerate(notebook.cells) if c.cell_type == "code"]
    never_run = [i for i, c in code if c.get("execution_count") is None]
    if never_run:
        raise SiteError(
            f"{source}: code cells {never_run} were never run (no execution count): run `make outputs` first"
        )
    if code and not any(c.get("outputs") for _, c in code):
        raise SiteError(f"{source}: no saved outputs: run `make outputs` first")


def widget_stills(notebook: nbformat.NotebookNode, source: Path) -> None:
    """Replace every widget view by a still of it (the live note, the controls' values, its saved output) and drop
    the saved widget state, which the page then does not need."""
    state = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view is None:
                outputs.append(output)
                continue
            model_id = view["model_id"]
            if model_id not in state:
                raise SiteError(f"{source}: a widget view names model {model_id}, which the saved widget state lacks")
            controls: list[str] = []
            saved: list[Any] = []
            _walk(state, model_id, controls, saved)
            listed = "".join(controls)
            note = f'<p class="site-live-note">{LIVE_NOTE}</p>' + (
                f'<ul class="site-controls">{listed}</ul>' if listed else ""
            )
            outputs.append(nbformat.v4.new_output("display_data", data={"text/html": note}))
            outputs.extend(nbformat.from_dict(o) for o in saved)
        cell.outputs = outputs
    notebook.metadata.pop("widgets", None)


def _walk(state: dict[str, Any], model_id: str, controls: list[str], saved: list[Any]) -> None:
    """Collect a widget tree's controls (as list items) and its Output widgets' saved outputs, in page order."""
    model = state[model_id]
    name, values = model["model_name"], model["state"]
    if name == "OutputModel":
        saved.extend(values.get("outputs", []))
    elif name == "LabelModel" or name == "HTMLModel":
        controls.append(f"<li>{html.escape(str(values.get('value', '')))}</li>")
    elif "children" not in values and ("value" in values or "index" in values):
        label = values.get("description", "")
        value = values.get("value")
        if "index" in values and values.get("_options_labels"):
            index = values["index"]
            value = values["_options_labels"][index] if isinstance(index, int) else index
        shown = html.escape(str(value)).replace("\n", "<br>")
        controls.append(f'<li>{html.escape(label)}{": " if label else ""}<span class="site-value">{shown}</span></li>')
    for child in values.get("children", []):
        child_id = child.removeprefix("IPY_MODEL_")
        if child_id in state:
            _walk(state, child_id, controls, saved)


GUIDE_ORDER = ("learners.md", "instructors.md", "contributing.md")  # the guides in the order a reader needs them


def _guide_rank(path: Path) -> int:
    """Where a page stands among the others of its folder: guides by GUIDE_ORDER, any other page by its name."""
    return GUIDE_ORDER.index(path.name) if path.name in GUIDE_ORDER else len(GUIDE_ORDER)


def collect(root: Path, solutions: bool) -> list[Page]:
    """The site's notebooks in order: lessons, exercises, and solutions when asked."""
    pages = []
    for folder, _ in SECTIONS:
        if folder == "solutions" and not solutions:
            continue
        found = sorted((root / folder).glob(PATTERNS[folder]), key=lambda path: (_guide_rank(path), path.name))
        if not found:
            raise SiteError(f"{root / folder}: no notebooks matching {PATTERNS[folder]}")
        for source in found:
            pages.append(Page(source, folder, title_of(read_notebook(source), source)))
    return pages


def _nav(page: Page, previous: Page | None, following: Page | None) -> str:
    """The bar at the top and bottom of a page: the index, the previous and next pages of its kind, the download."""
    here = Path(page.html_name).parent
    items = [f'<a class="site-index" href="{_relative("index.html", here)}">Index</a>']
    if previous is not None:
        back = _relative(previous.html_name, here)
        items.append(f'<a class="site-prev" href="{back}">&larr; {html.escape(previous.title)}</a>')
    if following is not None:
        on = _relative(following.html_name, here)
        items.append(f'<a class="site-next" href="{on}">{html.escape(following.title)} &rarr;</a>')
    items.append(
        f'<a class="site-download" href="{page.source.name}" download>Download {html.escape(page.source.name)}</a>'
    )
    return '<nav class="site-nav">' + "".join(items) + "</nav>"


def render_page(exporter: SiteExporter, page: Page, previous: Page | None, following: Page | None) -> str:
    """One notebook's page: its saved outputs, widget stills, links into the site, and the navigation bar."""
    notebook = read_notebook(page.source)
    if page.folder in ("notebooks", "solutions"):  # exercises ship with their outputs cleared; guides have no code
        check_executed(notebook, page.source)
    widget_stills(notebook, page.source)
    notebook.metadata["title"] = page.title
    exporter.page_path = page.html_name
    exporter.github_anchors = page.source.suffix == ".md"
    body, _ = exporter.from_notebook_node(
        notebook, resources={"site_nav": _nav(page, previous, following), "metadata": {"name": page.title}}
    )
    return body


INDEX = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>The context-packing workbook</title>
<style type="text/css">
body {{ font-family: system-ui, sans-serif; max-width: 50em; margin: 2em auto; padding: 0 1em; line-height: 1.5; }}
li {{ margin: 0.2em 0; }}
code {{ background: #eee; padding: 0 0.2em; }}
</style>
</head>
<body>
<main>
<h1>The context-packing workbook</h1>
<p>Every lesson as it was last run and checked: its text, code, printed results and figures. The explorers
are shown as they were saved; to move their sliders, run the lessons live in JupyterLab with <code>make lab</code>
(or open them on the class's JupyterHub). Each page links to its notebook to download. The guides at the end
say more: how the lab and the self-checks work, how to run and grade a class, and how the workbook is tested.</p>
{sections}
</main>
</body>
</html>
"""


def render_index(pages: list[Page]) -> str:
    """The index: each section's pages in order, each with its download link."""
    sections = []
    for folder, heading in SECTIONS:
        items = [
            f'<li><a href="{p.html_name}">{html.escape(p.title)}</a> '
            f'(<a href="{p.ipynb_name}" download>{html.escape(p.source.name)}</a>)</li>'
            for p in pages
            if p.folder == folder
        ]
        if items:
            name = folder or "start"
            sections.append(f'<h2 id="{name}">{heading}</h2>\n<ol class="site-{name}">\n' + "\n".join(items))
            sections[-1] += "\n</ol>"
    return INDEX.format(sections="\n".join(sections))


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


def build(root: Path, out: Path, solutions: bool = False) -> list[Page]:
    """Write the site for the notebooks under `root` into `out`; return its pages in order."""
    pages = collect(root, solutions)
    exporter = SiteExporter()
    exporter.site_links = {p.ipynb_name: p.html_name for p in pages}
    rendered = {}
    for folder, _ in SECTIONS:
        kind = [p for p in pages if p.folder == folder]
        for i, page in enumerate(kind):
            previous = kind[i - 1] if i else None
            following = kind[i + 1] if i + 1 < len(kind) else None
            rendered[page] = render_page(exporter, page, previous, following)
    prepare_output(out)  # only once every page rendered: a bad notebook leaves an earlier site as it was
    for page, body in rendered.items():
        (out / page.folder).mkdir(exist_ok=True)
        (out / page.html_name).write_text(body, encoding="utf-8")
        shutil.copyfile(page.source, out / page.ipynb_name)
    (out / "index.html").write_text(render_index(pages), encoding="utf-8")
    return pages
