"""Figures for lesson 05: teaching units against real tokens, sample by sample."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure
from matplotlib.patches import Patch

from matplotlib.lines import Line2D

from packer.lab.measure import RULE_OF_THUMB_CHARS_PER_TOKEN, Measured, Split, headroom_needed, median, nearest_rank

KIND_COLOURS = {"prose": "#2a9d8f", "code": "#264653", "names": "#e9c46a", "data": "#e76f51"}


def _kind_legend(ax, extra: list | None = None) -> None:
    handles = [Patch(color=colour, label=kind) for kind, colour in KIND_COLOURS.items()] + (extra or [])
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)


def plot_ratios(measured: Sequence[Measured]) -> Figure:
    """Median chars/4 ÷ real tokens per sample with its 5–95% range; the dotted line is the 4-characters rule."""
    fig = Figure(figsize=(7.6, 4.4), dpi=80)
    fig.subplots_adjust(left=0.25, right=0.8, bottom=0.12, top=0.92)
    ax = fig.add_subplot()
    rows = list(reversed(measured))
    for y, m in enumerate(rows):
        ratios = m.ratios()
        colour = KIND_COLOURS[m.sample.kind]
        ax.plot([nearest_rank(ratios, 0.05), nearest_rank(ratios, 0.95)], [y, y], color=colour, linewidth=2)
        ax.plot([median(ratios)], [y], "o", color=colour, markersize=7)
    ax.axvline(1.0, color="black", linewidth=0.8, linestyle=":")
    ax.set_yticks(range(len(rows)), [m.sample.name for m in rows])
    ax.set_xlim(0, max(1.5, max(nearest_rank(m.ratios(), 0.95) for m in measured) + 0.1))
    ax.set_xlabel("chars/4 estimate ÷ real tokens  (1 = exact, below 1 = under-counts)")
    ax.set_title(f"chars/4 against {measured[0].encoding}: median and 5–95% of passages")
    rule = f"{RULE_OF_THUMB_CHARS_PER_TOKEN} chars per token\n(OpenAI's rule for English)"
    _kind_legend(ax, [Line2D([], [], color="black", linewidth=0.8, linestyle=":", label=rule)])
    return fig


def plot_headroom(measured: Sequence[Measured], percents: tuple[int, int] = (95, 99)) -> Figure:
    """The headroom over a chars/4 plan that covers 95% and 99% of each sample's passages."""
    fig = Figure(figsize=(7.6, 4.4), dpi=80)
    fig.subplots_adjust(left=0.25, right=0.8, bottom=0.12, top=0.92)
    ax = fig.add_subplot()
    rows = list(reversed(measured))
    height = 0.38
    for y, m in enumerate(rows):
        colour = KIND_COLOURS[m.sample.kind]
        for offset, percent, alpha in ((height / 2, percents[0], 0.55), (-height / 2, percents[1], 1.0)):
            ax.barh([y + offset], [headroom_needed(m, percent)], height=height, color=colour, alpha=alpha)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [m.sample.name for m in rows])
    ax.set_xlabel("headroom to add to chars/4 (%)")
    ax.set_title(f"headroom for {percents[0]}% (light) and {percents[1]}% (dark) of passages, {measured[0].encoding}")
    _kind_legend(ax)
    return fig


def plot_bytes_bound(measured: Sequence[Measured]) -> Figure:
    """Real tokens against UTF-8 bytes for every passage: all on or below the line tokens = bytes."""
    fig = Figure(figsize=(7.6, 4.0), dpi=80)
    fig.subplots_adjust(left=0.1, right=0.8, bottom=0.13, top=0.92)
    ax = fig.add_subplot()
    top = max(max(m.counts["UTF-8 bytes"]) for m in measured)
    ax.plot([1, top], [1, top], color="black", linewidth=1, linestyle="--", label="tokens = bytes")
    for m in measured:
        ax.scatter(m.counts["UTF-8 bytes"], m.tokens, s=8, color=KIND_COLOURS[m.sample.kind], alpha=0.6)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("UTF-8 bytes of the passage")
    ax.set_ylabel(f"real tokens ({measured[0].encoding})")
    ax.set_title("every passage sits on or below tokens = bytes")
    _kind_legend(ax, [Patch(color="black", label="tokens = bytes")])
    return fig


def plot_splits(found: Sequence[tuple[str, Sequence[Split]]]) -> Figure:
    """Per sample: the share of cuts where the whole measures fewer, as many, or more tokens than its parts."""
    fig = Figure(figsize=(7.6, 4.4), dpi=80)
    fig.subplots_adjust(left=0.25, right=0.8, bottom=0.12, top=0.92)
    ax = fig.add_subplot()
    rows = list(reversed(found))
    colours = (("fewer", "#2a9d8f"), ("same", "#d9d9d9"), ("more", "#e76f51"))
    for y, (_, splits) in enumerate(rows):
        n = max(1, len(splits))
        shares = (
            sum(s.change < 0 for s in splits) / n,
            sum(s.change == 0 for s in splits) / n,
            sum(s.change > 0 for s in splits) / n,
        )
        left = 0.0
        for share, (_, colour) in zip(shares, colours):
            ax.barh([y], [share], left=left, color=colour)
            left += share
    ax.set_yticks(range(len(rows)), [name for name, _ in rows])
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of cuts at whitespace")
    ax.set_title("joined text against the sum of its two parts")
    ax.legend(
        handles=[Patch(color=c, label=f"whole: {label}") for label, c in colours],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8,
        frameon=False,
    )
    return fig


def plot_errors(measured: Measured, unit: str, index: int) -> Figure:
    """The unit ÷ real tokens of every passage of a sample, the chosen passage marked."""
    fig = Figure(figsize=(7.0, 2.8), dpi=80)
    fig.subplots_adjust(left=0.09, right=0.97, bottom=0.18, top=0.88)
    ax = fig.add_subplot()
    ratios = measured.ratios(unit)
    ax.hist(ratios, bins=24, color=KIND_COLOURS[measured.sample.kind], alpha=0.8)
    ax.axvline(1.0, color="black", linewidth=1, linestyle=":")
    ax.axvline(ratios[index], color="#e76f51", linewidth=2, label=f"passage {index}: {ratios[index]:.2f}")
    ax.set_xlabel(f"{unit} ÷ real tokens ({measured.encoding})")
    ax.set_ylabel("passages")
    ax.set_title(f"{measured.sample.name}: {unit} against real tokens")
    ax.legend(loc="upper right", fontsize=8, frameon=False)
    return fig
