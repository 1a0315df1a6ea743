"""Code blocks and tables that scroll sideways instead of running off a phone's screen, each reachable by the
keyboard: a box that scrolls must take the focus for its arrow keys to scroll it (WCAG 2.1.1; axe-core's rule
scrollable-region-focusable). site.css gives them `overflow-x: auto` and the focus outline."""

from __future__ import annotations

import re

CELL_WRAPPER = '<div class="jp-Cell-inputWrapper" tabindex="0">'


def scrolling_blocks(body: str) -> str:
    """A page's HTML with every <pre> a tab stop, every <table> in a box of its own that scrolls (a tab stop too),
    and nbconvert's tab stop on each cell's input taken away (JupyterLab's command mode, which a static page does
    not have: without it a reader tabs from link to code block instead of through every cell)."""
    body = body.replace(CELL_WRAPPER, '<div class="jp-Cell-inputWrapper">')
    body = re.sub(r"<pre(?=[\s>])(?![^>]*\btabindex=)", '<pre tabindex="0"', body)
    body = re.sub(r"<table(?=[\s>])", '<div class="site-table" tabindex="0"><table', body)
    return body.replace("</table>", "</table></div>")
