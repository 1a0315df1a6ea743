"""Each figure twice: the page shows a light copy, and its link opens the notebook's own PNG at full size.

The lessons save each figure with twice the pixels it is shown with (packer/lab/figures.py: the PNG's
`width` and `height` metadata are half its pixels, as IPython's "retina" figures are), so its labels can be read
when a phone's reader opens it and zooms in. The page's copy has the same pixels in a palette of 256 colours,
which a chart's few flat colours and their anti-aliased edges fit: under half the bytes of the full PNG (36-40% on
the lessons), and fewer than the figure the site showed before at half the pixels, so no page grows. A figure saved without such
metadata (shown at its own size) is left as it is, one file for both."""

from __future__ import annotations

import io
import re

from PIL import Image

FULL = "_full"  # figure_3_0.png is shown, figure_3_0_full.png opens from its link
COLOURS = 256


def palette_png(data: bytes) -> bytes:
    """The same picture as a PNG of at most COLOURS colours (on white, where it was transparent)."""
    image = Image.open(io.BytesIO(data))
    flat = Image.new("RGB", image.size, "white")
    flat.paste(image, mask=image.getchannel("A") if image.mode == "RGBA" else None)
    out = io.BytesIO()
    flat.quantize(COLOURS, dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def shown_larger_than_saved(data: bytes, width: str) -> bool:
    """Whether a PNG has more pixels across than the width it is shown at (a figure saved for zooming in)."""
    return Image.open(io.BytesIO(data)).size[0] > float(width) * 1.5


def light_figures(body: str, figures: dict[str, bytes]) -> tuple[str, dict[str, bytes]]:
    """A page's HTML and figures with each figure saved larger than shown split in two: the page's <img> shows
    the palette copy, and its link (figure_link's) leads to the notebook's PNG, renamed NAME_full.png."""
    files = dict(figures)
    for tag in re.findall(r"<img [^>]*>", body):
        source, width = re.search(r'src="([^"]+)"', tag), re.search(r'(?<![-\w])width="?([\d.]+)', tag)
        if not (source and width and source.group(1) in figures and source.group(1).endswith(".png")):
            continue
        name = source.group(1)
        if not shown_larger_than_saved(figures[name], width.group(1)):
            continue
        full = name.removesuffix(".png") + FULL + ".png"
        files[full] = figures[name]
        files[name] = palette_png(figures[name])
        body = body.replace(f'<a class="site-figure" href="{name}">', f'<a class="site-figure" href="{full}">')
    return body, files
