"""A cell's printed result folded away until the learner opens it: the answer to a practice point asked above.

    with folded("2.3"):
        print(pack_by_adding(...))

What the block prints is shown as one output, an HTML `<details>` closed under a one-line summary (JupyterLab,
nbconvert and the course site all render it folded, and it stays folded when the cell runs again, as Run All
does), with the same text as its `text/plain` (what strict nbval compares, and what a text-only front end shows).
Outside IPython the text is printed as it would have been.
"""

from __future__ import annotations

import contextlib
import html
import io
import re
import sys
from collections.abc import Iterator

FOLDED_CLASS = "workbook-folded"  # the <details> element's class: the site's CSS and the tests find it by it
NUMBER = re.compile(r"\d+\.\d+")


def summary(number: str) -> str:
    """The fold's one line: what it holds, and when to open it."""
    if not isinstance(number, str) or not NUMBER.fullmatch(number):
        raise ValueError(f"number: expected a practice number such as '2.3', got {number!r}")
    return f"Practice {number}: the result, which answers it (open it once you have answered)"


def folded_html(number: str, text: str) -> str:
    """The fold as HTML: a closed `<details>` whose summary says what it holds, the text escaped in a `<pre>`."""
    return (
        f'<details class="{FOLDED_CLASS}"><summary>{html.escape(summary(number))}</summary>'
        f"<pre>{html.escape(text)}</pre></details>"
    )


@contextlib.contextmanager
def folded(number: str) -> Iterator[None]:
    """Fold what the block prints under practice `number`'s summary (one output, shown when the block ends)."""
    summary(number)  # a bad number fails before the block runs
    caught = io.StringIO()
    with contextlib.redirect_stdout(caught):
        yield
    text = caught.getvalue().removesuffix("\n")
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # pragma: no cover (the learner's set has IPython)
        shell = None
    else:
        shell = get_ipython()
    if shell is None:
        print(text, file=sys.stdout)
        return
    display({"text/plain": text, "text/html": folded_html(number, text)}, raw=True)
