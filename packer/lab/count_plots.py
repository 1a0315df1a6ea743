"""Figures for lesson 05: teaching units against real tokens, sample by sample. Each plot_* function returns the
figure with a text description written by the describe_* function beside it, from the same data."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from packer.lab.figures import (
    EDGE,
    BLACK,
    BLUE,
    BLUISH_GREEN,
    LIGHT_GREY,
    ORANGE,
    REDDISH_PURPLE,
    VERMILLION,
    DescribedFigure,
    figure_with,
    listing,
)
from packer.lab.measure import RULE_OF_THUMB_CHARS_PER_TOKEN, Measured, Split, headroom_needed, median, nearest_rank

# Each kind of text: a colour, a marker (dots and scatter) and a hatch (bars), so that no kind is told by colour alone.
KIND_STYLES = {
    "prose": (BLUISH_GREEN, "o", ""),
    "code": (BLUE, "s", "//"),
    "names": (ORANGE, "^", ".."),
    "data": (REDDISH_PURPLE, "D", "xx"),
}
KIND_COLOURS = {kind: colour for kind, (colour, _, _) in KIND_STYLES.items()}
SPLIT_STYLES = (("fewer", BLUISH_GREEN, ""), ("same", LIGHT_GREY, ".."), ("more", VERMILLION, "//"))
MARKER_NAMES = {"o": "circle", "s": "square", "^": "triangle", "D": "diamond"}


def _kinds_text(measured: Sequence[Measured], cue: str) -> str:
    """'Kinds of text by marker: prose circle, code square' for the kinds present, in KIND_STYLES order."""
    present = {m.sample.kind for m in measured}
    if cue == "marker":
        named = [f"{kind} {MARKER_NAMES[marker]}" for kind, (_, marker, _) in KIND_STYLES.items() if kind in present]
    else:
        named = [f"{kind} {hatch_name(hatch)}" for kind, (_, _, hatch) in KIND_STYLES.items() if kind in present]
    return f"The kind of text is shown by colour and {cue}: {listing(named)}."


def hatch_name(hatch: str) -> str:
    """A hatch pattern in words."""
    return {"": "plain", "//": "striped", "..": "dotted", "xx": "crossed"}[hatch]


def _kind_legend(ax, extra: list | None = None, cue: str = "marker") -> None:
    handles = [
        Line2D([], [], color=colour, marker=marker, linestyle="", label=kind)
        if cue == "marker"
        else Patch(facecolor=colour, hatch=hatch or None, edgecolor=EDGE, label=kind)
        for kind, (colour, marker, hatch) in KIND_STYLES.items()
    ] + (extra or [])
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)


def describe_ratios(measured: Sequence[Measured]) -> str:
    """What plot_ratios shows, in words: each sample's median and 5–95% range of chars/4 ÷ real tokens."""
    rows = "; ".join(
        f"{m.sample.name} ({m.sample.kind}): median {median(m.ratios()):.2f}, "
        f"5–95% {nearest_rank(m.ratios(), 0.05):.2f} to {nearest_rank(m.ratios(), 0.95):.2f}"
        for m in measured
    )
    return (
        f"Dot and range chart, one row per sample: the chars/4 estimate divided by real tokens "
        f"({measured[0].encoding}) for each passage, the median as a marker and the middle 90% of passages as a "
        f"line; a dotted line at 1 ({RULE_OF_THUMB_CHARS_PER_TOKEN} characters per token exactly right, below 1 "
        f"under-counts). {_kinds_text(measured, 'marker')} Top to bottom: {rows}."
    )


def plot_ratios(measured: Sequence[Measured]) -> DescribedFigure:
    """Median chars/4 ÷ real tokens per sample with its 5–95% range; the dotted line is the 4-characters rule."""
    fig = Figure(figsize=(7.6, 4.4), dpi=80)
    fig.subplots_adjust(left=0.25, right=0.8, bottom=0.12, top=0.92)
    ax = fig.add_subplot()
    rows = list(reversed(measured))
    for y, m in enumerate(rows):
        ratios = m.ratios()
        colour, marker, _ = KIND_STYLES[m.sample.kind]
        ax.plot([nearest_rank(ratios, 0.05), nearest_rank(ratios, 0.95)], [y, y], color=colour, linewidth=2)
        ax.plot([median(ratios)], [y], marker, color=colour, markersize=7, markeredgecolor=BLACK)
    ax.axvline(1.0, color="black", linewidth=0.8, linestyle=":")
    ax.set_yticks(range(len(rows)), [m.sample.name for m in rows])
    ax.set_xlim(0, max(1.5, max(nearest_rank(m.ratios(), 0.95) for m in measured) + 0.1))
    ax.set_xlabel("chars/4 estimate ÷ real tokens  (1 = exact, below 1 = under-counts)")
    ax.set_title(f"chars/4 against {measured[0].encoding}: median and 5–95% of passages")
    rule = f"{RULE_OF_THUMB_CHARS_PER_TOKEN} chars per token\n(OpenAI's rule for English)"
    _kind_legend(ax, [Line2D([], [], color="black", linewidth=0.8, linestyle=":", label=rule)])
    return figure_with(fig, describe_ratios(measured))


def describe_headroom(measured: Sequence[Measured], percents: tuple[int, int] = (95, 99)) -> str:
    """What plot_headroom shows, in words: each sample's headroom for both percentiles."""
    low, high = percents
    rows = "; ".join(
        f"{m.sample.name} {headroom_needed(m, low):+d}% and {headroom_needed(m, high):+d}%" for m in measured
    )
    return (
        f"Horizontal bar chart, two bars per sample: the headroom to add to a chars/4 plan so that it covers "
        f"{low}% (upper, lighter bar) and {high}% (lower, darker bar) of the sample's passages in "
        f"{measured[0].encoding} tokens; a negative headroom means chars/4 already over-counts. "
        f"{_kinds_text(measured, 'hatch')} Top to bottom: {rows}."
    )


def plot_headroom(measured: Sequence[Measured], percents: tuple[int, int] = (95, 99)) -> DescribedFigure:
    """The headroom over a chars/4 plan that covers 95% and 99% of each sample's passages."""
    fig = Figure(figsize=(7.6, 4.4), dpi=80)
    fig.subplots_adjust(left=0.25, right=0.8, bottom=0.12, top=0.92)
    ax = fig.add_subplot()
    rows = list(reversed(measured))
    height = 0.38
    for y, m in enumerate(rows):
        colour, _, hatch = KIND_STYLES[m.sample.kind]
        for offset, percent, alpha in ((height / 2, percents[0], 0.55), (-height / 2, percents[1], 1.0)):
            ax.barh(
                [y + offset],
                [headroom_needed(m, percent)],
                height=height,
                color=colour,
                alpha=alpha,
                hatch=hatch or None,
                edgecolor=EDGE,
            )
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [m.sample.name for m in rows])
    ax.set_xlabel("headroom to add to chars/4 (%)")
    ax.set_title(f"headroom for {percents[0]}% (light) and {percents[1]}% (dark) of passages, {measured[0].encoding}")
    _kind_legend(ax, cue="hatch")
    return figure_with(fig, describe_headroom(measured, percents))


def describe_bytes_bound(measured: Sequence[Measured]) -> str:
    """What plot_bytes_bound shows, in words: how many passages, and how close the nearest comes to the line."""
    points = [(t / b, m.sample.name) for m in measured for t, b in zip(m.tokens, m.counts["UTF-8 bytes"])]
    above = sum(share > 1 for share, _ in points)
    top, where = max(points)
    verdict = "every passage is on or below the line" if not above else f"{above} passages are above the line"
    return (
        f"Scatter plot on log-log axes: real tokens ({measured[0].encoding}) against UTF-8 bytes for each of "
        f"{len(points)} passages from {len(measured)} samples, with the dashed line tokens = bytes. "
        f"{_kinds_text(measured, 'marker')} {verdict[0].upper() + verdict[1:]}: the most tokens per byte is "
        f"{top:.2f} ({where})."
    )


def plot_bytes_bound(measured: Sequence[Measured]) -> DescribedFigure:
    """Real tokens against UTF-8 bytes for every passage: all on or below the line tokens = bytes."""
    fig = Figure(figsize=(7.6, 4.0), dpi=80)
    fig.subplots_adjust(left=0.1, right=0.8, bottom=0.13, top=0.92)
    ax = fig.add_subplot()
    top = max(max(m.counts["UTF-8 bytes"]) for m in measured)
    ax.plot([1, top], [1, top], color="black", linewidth=1, linestyle="--", label="tokens = bytes")
    for m in measured:
        colour, marker, _ = KIND_STYLES[m.sample.kind]
        ax.scatter(m.counts["UTF-8 bytes"], m.tokens, s=10, color=colour, marker=marker, alpha=0.6)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("UTF-8 bytes of the passage")
    ax.set_ylabel(f"real tokens ({measured[0].encoding})")
    ax.set_title("every passage sits on or below tokens = bytes")
    _kind_legend(ax, [Line2D([], [], color="black", linewidth=1, linestyle="--", label="tokens = bytes")])
    return figure_with(fig, describe_bytes_bound(measured))


def _shares(splits: Sequence[Split]) -> tuple[float, float, float]:
    """Shares of cuts whose whole measures fewer, as many, and more tokens than its parts."""
    n = max(1, len(splits))
    return (
        sum(s.change < 0 for s in splits) / n,
        sum(s.change == 0 for s in splits) / n,
        sum(s.change > 0 for s in splits) / n,
    )


def describe_splits(found: Sequence[tuple[str, Sequence[Split]]]) -> str:
    """What plot_splits shows, in words: per sample, the shares of cuts in each outcome."""
    rows = []
    for name, splits in found:
        fewer, same, more = _shares(splits)
        rows.append(f"{name} ({len(splits)} cuts): {fewer:.0%} fewer, {same:.0%} as many, {more:.0%} more")
    return (
        "Stacked horizontal bars, one per sample: of the cuts at whitespace, the share where the joined text "
        "measures fewer tokens than its two parts (plain bar), as many (dotted) or more (striped). "
        f"Top to bottom: {'; '.join(rows)}."
    )


def plot_splits(found: Sequence[tuple[str, Sequence[Split]]]) -> DescribedFigure:
    """Per sample: the share of cuts where the whole measures fewer, as many, or more tokens than its parts."""
    fig = Figure(figsize=(7.6, 4.4), dpi=80)
    fig.subplots_adjust(left=0.25, right=0.8, bottom=0.12, top=0.92)
    ax = fig.add_subplot()
    rows = list(reversed(found))
    for y, (_, splits) in enumerate(rows):
        left = 0.0
        for share, (_, colour, hatch) in zip(_shares(splits), SPLIT_STYLES):
            ax.barh([y], [share], left=left, color=colour, hatch=hatch or None, edgecolor=EDGE)
            left += share
    ax.set_yticks(range(len(rows)), [name for name, _ in rows])
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of cuts at whitespace")
    ax.set_title("joined text against the sum of its two parts")
    ax.legend(
        handles=[
            Patch(facecolor=c, hatch=h or None, edgecolor=EDGE, label=f"whole: {label}") for label, c, h in SPLIT_STYLES
        ],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8,
        frameon=False,
    )
    return figure_with(fig, describe_splits(found))


def describe_errors(measured: Measured, unit: str, index: int) -> str:
    """What plot_errors shows, in words: the spread of unit ÷ real tokens and where the chosen passage falls."""
    ratios = measured.ratios(unit)
    return (
        f"Histogram of {unit} divided by real tokens ({measured.encoding}) over the {len(ratios)} passages of "
        f"{measured.sample.name}: from {min(ratios):.2f} to {max(ratios):.2f}, median {median(ratios):.2f}. "
        f"A dotted line marks 1 (exact); a solid line marks passage {index} at {ratios[index]:.2f}."
    )


def plot_errors(measured: Measured, unit: str, index: int) -> DescribedFigure:
    """The unit ÷ real tokens of every passage of a sample, the chosen passage marked."""
    fig = Figure(figsize=(7.0, 2.8), dpi=80)
    fig.subplots_adjust(left=0.09, right=0.97, bottom=0.18, top=0.88)
    ax = fig.add_subplot()
    ratios = measured.ratios(unit)
    ax.hist(ratios, bins=24, color=KIND_COLOURS[measured.sample.kind], alpha=0.8)
    ax.axvline(1.0, color="black", linewidth=1, linestyle=":")
    ax.axvline(ratios[index], color=VERMILLION, linewidth=2, label=f"passage {index}: {ratios[index]:.2f}")
    ax.set_xlabel(f"{unit} ÷ real tokens ({measured.encoding})")
    ax.set_ylabel("passages")
    ax.set_title(f"{measured.sample.name}: {unit} against real tokens")
    ax.legend(loc="upper right", fontsize=8, frameon=False)
    return figure_with(fig, describe_errors(measured, unit, index))
