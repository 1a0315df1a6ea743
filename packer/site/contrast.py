"""Text colours made legible: WCAG 2.1's contrast ratio (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio), and a
colour darkened, its hue kept, until it reaches 4.5:1 on the background it is shown on (success criterion 1.4.3,
https://www.w3.org/WAI/WCAG21/Understanding/contrast-minimum.html). The site uses it for the code's syntax colours
(Pygments') on the code background and for the ANSI colours of tracebacks on the error background."""

from __future__ import annotations

import re
from functools import cache

MINIMUM = 4.5  # WCAG 2.1 AA for text under 18 pt (the site's code and outputs)
CODE_BACKGROUND = "#f5f5f5"  # JupyterLab's --jp-cell-editor-background (--md-grey-100), behind every code cell
ERROR_BACKGROUND = "#ffdddd"  # JupyterLab's --jp-rendermime-error-background (#fdd), behind tracebacks and stderr
HEX = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
RGB = re.compile(r"rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)")


def rgb(colour: str) -> tuple[int, int, int]:
    """#rgb, #rrggbb or rgb(r, g, b) as three 0-255 numbers."""
    found = RGB.fullmatch(colour.strip())
    if found:
        return tuple(int(v) for v in found.groups())  # type: ignore[return-value]
    digits = HEX.fullmatch(colour.strip())
    if not digits:
        raise ValueError(f"not a colour: {colour!r}")
    text = digits.group(1)
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def luminance(colour: str) -> float:
    """WCAG's relative luminance (0 black, 1 white)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(foreground: str, background: str) -> float:
    """WCAG's contrast ratio of two colours, 1 to 21."""
    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@cache  # a traceback repeats its few colours in every span
def legible(colour: str, background: str, minimum: float = MINIMUM) -> str:
    """`colour` as #rrggbb, darkened step by step (each channel scaled alike, so the hue stays) until its contrast
    on `background` is at least `minimum`; unchanged when it already is."""
    r, g, b = rgb(colour)
    for step in range(101):
        scale = 1 - step / 100
        shade = "#{:02x}{:02x}{:02x}".format(*(int(v * scale) for v in (r, g, b)))
        if ratio(shade, background) >= minimum:
            return shade
    raise ValueError(f"no shade of {colour} reaches {minimum}:1 on {background}")


def legible_colours(css: str, background: str, properties: str = "color") -> str:
    """Every declaration of the properties `properties` (a regular expression; by default `color`, not
    background-color or border-color) whose value is a #hex or rgb() colour, made legible on `background`."""

    def fix(found: re.Match) -> str:
        return found.group(1) + legible(found.group(2), background)

    pattern = rf"((?<![-\w])(?:{properties}):\s*)(#[0-9a-fA-F]{{3}}(?:[0-9a-fA-F]{{3}})?\b|rgb\([^)]*\))"
    return re.sub(pattern, fix, css)


def legible_styles(html: str, background: str) -> str:
    """The `color:` in every style attribute of `html` made legible on `background` (the text is left alone)."""
    return re.sub(r'style="([^"]*)"', lambda m: f'style="{legible_colours(m.group(1), background)}"', html)
