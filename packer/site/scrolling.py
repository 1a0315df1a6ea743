"""Code blocks, outputs and tables that scroll sideways instead of running off a phone's screen.

site.css gives every code block and output `<pre>`, and the box this module puts around each table, `overflow-x:
auto` (an output is printed as it was, its columns aligned, never wrapped mid-word). Which boxes scroll depends on
the screen's width, so site.js makes each box that does scroll a tab stop (a box that scrolls must take the focus
for its arrow keys to scroll it: WCAG 2.1.1, axe-core's rule scrollable-region-focusable), and no other: one tab
stop per box that scrolls, none for a box that does not. This module takes away the tab stops nbconvert writes,
which were there whatever the width: each cell's input (JupyterLab's command mode, which a static page does not
have) and each output's box (around the output's own <pre>, so an output was two tab stops)."""

from __future__ import annotations

import re

CELL_WRAPPER = '<div class="jp-Cell-inputWrapper" tabindex="0">'
OUTPUT_BOX = re.compile(r'(<div class="[^"]*\bjp-OutputArea-output\b[^"]*"[^>]*?) tabindex="0"')


def scrolling_blocks(body: str) -> str:
    """A page's HTML with each <table> in a box of its own (which scrolls sideways), and nbconvert's tab stops on
    cells' inputs and on outputs' boxes taken away."""
    body = body.replace(CELL_WRAPPER, '<div class="jp-Cell-inputWrapper">')
    body = OUTPUT_BOX.sub(r"\1", body)
    body = re.sub(r"<table(?=[\s>])", '<div class="site-table"><table', body)
    return body.replace("</table>", "</table></div>")
