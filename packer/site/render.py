"""One notebook (or Markdown guide) as the HTML of its page, with nbconvert's HTML exporter and the workbook's
template: its saved outputs, math as MathML, links into the site, figures as files that open at full size, and
the site's header, contents and navigation (made by packer.site.chrome) around it."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import nbformat
from jinja2 import DictLoader, pass_context
from latex2mathml.converter import convert as latex_to_mathml
from markupsafe import Markup
from nbconvert.exporters import HTMLExporter
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor
from pygments.formatters import HtmlFormatter
from traitlets import Bool, Dict, Unicode
from traitlets.config import Config

from packer.site.chrome import SITE_NAME
from packer.site.contrast import CODE_BACKGROUND, ERROR_BACKGROUND, legible_colours, legible_styles
from packer.site.figures import light_figures
from packer.site.outline import outline
from packer.site.pages import Page, SiteError, normalise, read_notebook, relative
from packer.site.practice import SCRIPT as PRACTICE_SCRIPT
from packer.site.practice import practice_on_page
from packer.site.scrolling import scrolling_blocks
from packer.site.widgets import widget_stills

WORKBOOK_TEMPLATE = r"""{%- extends 'index.html.j2' -%}
{#- The head is the workbook's own: nothing from the network (no require.js, MathJax, mermaid or widget manager:
    see packer/site/build.py) and no CSS inlined (nbconvert's lab template inlines JupyterLab's styles, Pygments'
    and any custom.css of the builder's Jupyter folder): every page links the one stylesheet (resources.site_head). -#}
{%- block html_head -%}
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{{ nb.metadata.get('title', resources['metadata']['name']) | escape_html_keep_quotes }}</title>
{{ resources.site_head }}
{%- endblock html_head -%}
{%- block body_header -%}
<body class="jp-Notebook" data-jp-theme-light="true" data-jp-theme-name="JupyterLab Light">
{{ resources.site_top }}
<main id="content" data-pagefind-body>
{{ resources.site_nav }}
{%- endblock body_header -%}
{% block body_footer %}
</main>
{{ resources.site_bottom }}
</body>
{% endblock body_footer %}
{#- A cell whose code JupyterLab folds (nbformat's jupyter.source_hidden) is folded here too, under its first line,
    which says what it holds (packer/lab/folded.py folds an output the same way, as a <details> of its own). -#}
{%- block input_group -%}
{%- if cell.metadata.get('jupyter', {}).get('source_hidden') -%}
<details class="workbook-folded"><summary>{{ cell.source.split('\n', 1)[0].lstrip('# ') | escape_html_keep_quotes }}</summary>
{{ super() }}
</details>
{%- else -%}
{{ super() }}
{%- endif -%}
{%- endblock input_group -%}
{%- block data_widget_view scoped -%}{%- endblock data_widget_view -%}
{%- block data_png scoped -%}{{ super() | figure_link(output | get_metadata('alt', 'image/png')) }}{%- endblock data_png -%}
{%- block data_jpg scoped -%}{{ super() | figure_link }}{%- endblock data_jpg -%}
{%- block data_svg scoped -%}{{ super() | figure_link }}{%- endblock data_svg -%}
"""
FIGURE_TEXT = "Open the figure at full size"


def github_slug(heading: str) -> str:
    """GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def figure_link(rendered: str, alt: str | None = None) -> Markup:
    """An image output's HTML with its image wrapped in a link to the image file, and a line saying so (a cue
    that is not a colour, and the link's name for a screen reader). `alt`, the output's own text alternative
    (metadata["image/png"]["alt"], which the lab template leaves out), becomes the image's alt."""
    if alt:
        rendered = str(rendered).replace("<img ", f'<img alt="{html.escape(alt, quote=True)}" ', 1)
    linked = re.sub(
        r'(<img [^>]*?src="([^"]+)"[^>]*>)',
        rf'<a class="site-figure" href="\2">\1<span class="site-figure-open">{FIGURE_TEXT}</span></a>',
        str(rendered),
        count=1,
    )
    return Markup(linked)  # noqa: S704 - nbconvert's own HTML, with a link added around its <img>


def anchored_heading(level: int, text: str, anchor: str) -> str:
    """A heading with a link to itself, labelled for a screen reader ("Link to this section: ..."). Its ¶ is drawn
    by site.css, not written in the page: no screen reader reads it, and neither a copied heading nor the search
    index's titles carry it. The link is left out of the search index (data-pagefind-ignore)."""
    name = html.escape(html.unescape(re.sub(r"<[^>]+>", "", text)).strip(), quote=True)
    return (
        f'<h{level} id="{anchor}">{text}<a class="anchor-link" href="#{anchor}" data-pagefind-ignore '
        f'aria-label="Link to this section: {name}"></a></h{level}>\n'
    )


class SiteRenderer(IPythonRenderer):
    """nbconvert's markdown renderer with math written as MathML and links to notebooks pointed at their pages."""

    def __init__(
        self,
        link_target: Any,
        github_anchors: bool = False,
        headings: list[tuple[int, str, str]] | None = None,
        **options: Any,
    ):
        super().__init__(**options)
        self.link_target = link_target
        self.github_anchors = github_anchors
        self.slugs: dict[str, int] = {}
        self.headings = headings if headings is not None else []  # (level, text, anchor) of each heading written

    def heading(self, text: str, level: int, **attrs: Any) -> str:
        """A heading with nbconvert's anchor, or GitHub's for a guide (a repeated one gets -1, -2, ...); each is
        noted in `headings` (the page's outline)."""
        if not self.github_anchors:
            made = re.search(r'id="([^"]+)"', super().heading(text, level, **attrs))
            if not made:
                return super().heading(text, level, **attrs)
            anchor = made.group(1)
        else:
            base = github_slug(html.unescape(re.sub(r"<[^>]+>", "", text)))
            count = self.slugs.get(base, 0)
            self.slugs[base] = count + 1
            anchor = base if count == 0 else f"{base}-{count}"
        self.headings.append((level, text, anchor))
        return anchored_heading(level, text, anchor)

    def block_math(self, body: str) -> str:
        """$$...$$ as display MathML, in a box that scrolls sideways when it is wider than the screen."""
        return f'<span class="site-math">{latex_to_mathml(body, display="block")}</span>'

    def inline_math(self, body: str) -> str:
        """$...$ as inline MathML."""
        return latex_to_mathml(body, display="inline")

    def latex_environment(self, name: str, body: str) -> str:
        """A \\begin{name}...\\end{name} environment as display MathML."""
        return self.block_math(f"\\begin{{{name}}}{body}\\end{{{name}}}")

    def link(self, text: str, url: str, title: str | None = None) -> str:
        """A link, with a relative one rewritten to its page in the site, or plain text when it has none."""
        target = self.link_target(url)
        return text if target is None else super().link(text, target, title)


class SiteExporter(HTMLExporter):
    """nbconvert's HTML exporter with the workbook's template and markdown renderer; figures are written as files
    beside the page (nbconvert's ExtractOutputPreprocessor) instead of inline."""

    site_links = Dict(help="Repository path of each notebook in the site -> its page's path in the site")
    page_path = Unicode(help="The page being written, relative to the site's root")
    github_anchors = Bool(False, help="Whether headings get GitHub's anchors (a Markdown page: the README, a guide)")

    headings: list[tuple[int, str, str]]  # the page being written's headings, for its outline (render_page)

    def __init__(self, **kwargs: Any):
        self.headings = []
        # Figures as files; no CSS gathered per page (the template does not use it: site.css has it once); and a
        # cell's consecutive prints as one output, as JupyterLab shows them (a kernel that flushes in the middle of a
        # printed table under load saves it in pieces, which would otherwise scroll apart on a phone).
        config = Config(
            {
                "ExtractOutputPreprocessor": {"enabled": True},
                "CSSHTMLHeaderPreprocessor": {"enabled": False},
                "CoalesceStreamsPreprocessor": {"enabled": True},
            }
        )
        super().__init__(extra_loaders=[DictLoader({"workbook.html.j2": WORKBOOK_TEMPLATE})], config=config, **kwargs)
        self.template_file = "workbook.html.j2"

    def link_target(self, url: str) -> str | None:
        """Where a markdown link in the page being written should point (None: nowhere, show its text)."""
        if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:|#", url):
            return url  # a web page, a mail address or an anchor in this page
        path, _, anchor = url.partition("#")
        here = Path(self.page_path).parent
        page = self.site_links.get(normalise(here / path))
        if page is None:
            return None
        return relative(page, here) + (f"#{anchor}" if anchor else "")

    @pass_context
    def markdown2html(self, context: Any, source: str) -> str:
        """Markdown to HTML with SiteRenderer (nbconvert's own filter, with the renderer swapped)."""
        cell = context.get("cell", {})
        renderer = SiteRenderer(
            self.link_target,
            github_anchors=self.github_anchors,
            headings=self.headings,
            escape=False,
            attachments=cell.get("attachments", {}),
            embed_images=self.embed_images,
            anchor_link_text=self.anchor_link_text,
            exclude_anchor_links=self.exclude_anchor_links,
            **self.lexer_options,
        )
        return MarkdownWithMath(renderer=renderer).render(source)

    def default_filters(self) -> Iterable[tuple[str, Any]]:
        """nbconvert's filters, with markdown2html as above, ansi2html's colours made legible, and figure_link."""
        for name, value in super().default_filters():
            if name == "markdown2html":
                value = self.markdown2html
            elif name == "ansi2html":
                value = legible_ansi(value)
            yield (name, value)
        yield ("figure_link", figure_link)

    def stylesheet(self) -> str:
        """The CSS nbconvert's lab template inlines into every page: JupyterLab's styles, its light theme, and the
        code's colours (Pygments, in the style nbconvert uses, JupyterLab's own), every text colour of code and
        of tracebacks darkened where it had less than 4.5:1 contrast on its background (packer.site.contrast)."""
        env = self.environment
        index, theme = (env.loader.get_source(env, name)[0] for name in ("static/index.css", "static/theme-light.css"))
        index = re.sub(r"\.ansi-[\w-]+-fg\s*\{[^}]*\}", lambda m: legible_colours(m[0], ERROR_BACKGROUND), index)
        theme = legible_colours(theme, CODE_BACKGROUND, properties=r"--jp-mirror-editor-[\w-]+-color")
        pygments = HtmlFormatter(style=CSSHTMLHeaderPreprocessor().style).get_style_defs(".highlight")
        return "\n".join([index, theme, legible_colours(pygments, CODE_BACKGROUND)])


def legible_ansi(ansi2html: Any) -> Any:
    """nbconvert's ansi2html filter with the colours it writes into style attributes (a traceback's 256-colour
    codes) darkened to 4.5:1 on the error background, the darkest that ANSI text is shown on."""

    def filter_(text: str, *args: Any, **kwargs: Any) -> str:
        return legible_styles(ansi2html(text, *args, **kwargs), ERROR_BACKGROUND)

    return filter_


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


def render_page(
    exporter: SiteExporter,
    page: Page,
    chrome: dict[str, str],
    overview: str = "",
    run: tuple[str, str] | None = None,
) -> tuple[str, dict[str, bytes]]:
    """One notebook's page (its saved outputs, widget stills, links into the site, and `chrome`: the site's head,
    top, navigation and bottom), and its figures: file name (relative to the page's folder) -> bytes. Under the
    page's title come `overview` (a lesson's time and its way to run it) and the page's outline. A lesson's
    practice points are answered on the page (packer.site.practice; `run`: the lesson's run link, if any)."""
    notebook = read_notebook(page.source)
    if page.folder in ("notebooks", "solutions"):  # exercises ship with their outputs cleared; guides have no code
        check_executed(notebook, page.source)
    forms = page.folder == "notebooks" and practice_on_page(notebook, page.ipynb_name, run)
    widget_stills(notebook, page.source)
    notebook.metadata["title"] = f"{page.title} \u00b7 {SITE_NAME}"  # the <title>: the page, then the site
    exporter.page_path = page.html_name
    exporter.github_anchors = page.source.suffix == ".md"
    exporter.headings = []
    resources = {
        **chrome,
        "metadata": {"name": page.title},
        "unique_key": "figure",
        "output_files_dir": f"{page.source.stem}_files",
    }
    body, written = exporter.from_notebook_node(notebook, resources=resources)
    body = under_the_title(body, overview + outline(exporter.headings))
    if forms:
        script = relative(PRACTICE_SCRIPT, Path(page.html_name).parent)
        body = body.replace("</body>", f'<script src="{script}" defer></script>\n</body>', 1)
    return light_figures(scrolling_blocks(body), written.get("outputs", {}))


def under_the_title(body: str, block: str) -> str:
    """The page with `block` after its first h1 (the page's title), or at the top of its content."""
    if not block:
        return body
    end = body.find("</h1>") + len("</h1>")
    if end < len("</h1>"):  # no title heading: at the top of the content, under the navigation bar
        end = body.index("</nav>", body.index('<main id="content"')) + len("</nav>")
    return body[:end] + '\n<div class="site-overview" data-pagefind-ignore>\n' + block + "</div>\n" + body[end:]
