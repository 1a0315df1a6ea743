"""What every lesson figure shares: a colour-blind-safe palette, a second cue beside colour, and a figure that
carries its own text description into the notebook.

The palette is Okabe and Ito's eight colours, chosen to stay distinct for the common colour-vision
deficiencies (Okabe and Ito, "Color Universal Design", https://jfly.uni-koeln.de/color/). Colour is never the
only cue: each category also gets a hatch pattern, a marker or a line style (`CATEGORY_STYLES`, `MARKERS`).
"""

from __future__ import annotations

import html
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib.figure import Figure

BLACK, ORANGE, SKY_BLUE, BLUISH_GREEN = "#000000", "#E69F00", "#56B4E9", "#009E73"
YELLOW, BLUE, VERMILLION, REDDISH_PURPLE = "#F0E442", "#0072B2", "#D55E00", "#CC79A7"
OKABE_ITO = (BLACK, ORANGE, SKY_BLUE, BLUISH_GREEN, YELLOW, BLUE, VERMILLION, REDDISH_PURPLE)
GREY, LIGHT_GREY = "#999999", "#dddddd"  # neutral: "already counted", "other", "headroom"
# Edges of hatched fills: matplotlib before 3.11 draws a hatch in its patch's edge colour (3.11 added `hatchcolor`),
# so the edge is dark wherever a hatch must show on a coloured fill, in every version pyproject.toml allows.
EDGE = "#222222"

KEPT, SKIPPED = BLUISH_GREEN, VERMILLION  # kept bars are solid, skipped ones hatched (SKIPPED_HATCH)
SKIPPED_HATCH = "//"
# (colour, hatch) for the n-th category of a stacked bar or a group of bars: no two share either.
CATEGORY_STYLES = (
    (BLUE, ""),
    (ORANGE, "//"),
    (SKY_BLUE, ".."),
    (BLUISH_GREEN, "\\\\"),
    (REDDISH_PURPLE, "xx"),
    (YELLOW, "--"),
    (VERMILLION, "++"),
    (GREY, "oo"),
)
MARKERS = ("o", "s", "^", "D", "v", "P")
LINE_STYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1)))


def category_style(index: int) -> tuple[str, str]:
    """The (colour, hatch) of the index-th category, cycling through CATEGORY_STYLES."""
    return CATEGORY_STYLES[index % len(CATEGORY_STYLES)]


# A figure is saved with ZOOM times the pixels it is shown with: its PNG's width and height metadata (which JupyterLab
# and nbconvert's HTML give the <img>) are its pixels over ZOOM, as IPython's "retina" figures do. It looks the same
# size, and its labels stay legible when zoomed in: on a high-density screen, and from the course site's "Open the
# figure at full size" on a phone (packer/site/figures.py).
ZOOM = 2


def png_bytes(figure: Figure | DescribedFigure) -> bytes:
    """The figure as PNG at ZOOM times its dpi, cropped to what is drawn (as the notebook's inline backend crops
    it)."""
    buffer = io.BytesIO()
    figure = figure.figure if isinstance(figure, DescribedFigure) else figure
    figure.savefig(buffer, format="png", bbox_inches="tight", dpi=figure.dpi * ZOOM)
    return buffer.getvalue()


def shown_size(png: bytes) -> dict[str, int]:
    """The width and height a PNG of png_bytes is shown at: its pixels (from the PNG's header) over ZOOM."""
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    return {"width": width // ZOOM, "height": height // ZOOM}


SUMMARY = "The figure in words"


@dataclass(frozen=True)
class DescribedFigure:
    """A figure and a text alternative written from the same data. A notebook shows two outputs: the PNG, with the
    description as its text/plain and as its `alt` (output metadata, which nbconvert's HTML reads); then the
    description again as a collapsed "The figure in words" (JupyterLab 4 gives an image no alt text, so this is
    what a screen reader there can read)."""

    figure: Figure
    description: str

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> tuple[dict, dict]:
        """PNG plus the description (text/plain); the description as the PNG's alt text, and the size it is shown at."""
        png = png_bytes(self.figure)
        data = {"image/png": png, "text/plain": self.description}
        return data, {"image/png": {"alt": self.description, **shown_size(png)}}

    def in_words(self) -> dict[str, str]:
        """The description as a collapsed HTML disclosure (text/html), with the plain text beside it."""
        shown = f"<details><summary>{SUMMARY}</summary><p>{html.escape(self.description)}</p></details>"
        return {"text/html": shown, "text/plain": f"{SUMMARY}: {self.description}"}

    def _ipython_display_(self) -> None:
        """Display the figure, then its description in words (both outputs carry the description)."""
        from IPython.display import display

        data, metadata = self._repr_mimebundle_()
        display(data, metadata=metadata, raw=True)
        display(self.in_words(), raw=True)

    @property
    def axes(self) -> list:
        """The figure's axes (what tests inspect)."""
        return self.figure.axes


def figure_with(figure: Figure, description: str) -> DescribedFigure:
    """Attach a description to a figure; an empty description is refused (every figure says what it shows)."""
    if not description.strip():
        raise ValueError("description: a figure needs a text alternative")
    return DescribedFigure(figure, description)


def listing(items: Iterable[str], empty: str = "none") -> str:
    """Items joined as English prose: 'a', 'a and b', 'a, b and c' ('none' when there are none)."""
    items = list(items)
    if not items:
        return empty
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def number(value: float, digits: int = 2) -> str:
    """A number as a description says it: integers plainly, others to `digits` decimals."""
    return str(int(value)) if float(value).is_integer() else f"{value:.{digits}f}"


def ranks_text(ranks: Sequence[int]) -> str:
    """Ranks as runs: [1, 2, 3, 7, 9, 10] -> '1-3, 7 and 9-10'."""
    runs: list[list[int]] = []
    for rank in sorted(ranks):
        if runs and rank == runs[-1][-1] + 1:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    return listing([str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs])
