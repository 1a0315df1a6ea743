"""Figures for lesson 07: where a context window goes, one stacked bar per packed request. plot_budgets returns the
figure with a text description written by describe_budgets, from the same data."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from packer.lab.figures import BLACK, EDGE, GREY, DescribedFigure, category_style, figure_with, listing
from packer.lab.request_budget import PARTS, Budget

# Each part a colour and a hatch (headroom: hatched white, a pale fill alone vanishes against the page).
PART_STYLES = {name: category_style(i) for i, name in enumerate(PARTS)} | {"headroom": ("white", "///")}
PART_COLOURS = {name: colour for name, (colour, _) in PART_STYLES.items()}
WINDOW = BLACK


def describe_budgets(budgets: Sequence[Budget], labels: Sequence[str] | None = None) -> str:
    """What plot_budgets shows, in words: each request's parts in tokens, left to right, against its window."""
    labels = list(labels) if labels is not None else [f"Mistral {b.version}" for b in budgets]
    windows = sorted({b.window for b in budgets})
    rows = [
        f"{label}: {listing(f'{name} {tokens}' for name, tokens in budget.parts if tokens > 0)}"
        for label, budget in zip(labels, budgets)
    ]
    return (
        f"Stacked horizontal bar chart, one bar per request, top to bottom, its parts in tokens left to right up to "
        f"the window ({' / '.join(map(str, windows))} tokens, a dashed line); each part has its own colour and hatch. "
        f"{'. '.join(rows)}."
    )


def plot_budgets(budgets: Sequence[Budget], labels: Sequence[str] | None = None) -> DescribedFigure:
    """One horizontal bar per request (top to bottom), its parts stacked left to right to the window."""
    if not budgets:
        raise ValueError("budgets: expected at least one Budget")
    labels = list(labels) if labels is not None else [f"Mistral {b.version}" for b in budgets]
    if len(labels) != len(budgets):
        raise ValueError(f"labels: {len(labels)} labels for {len(budgets)} budgets")
    fig = Figure(figsize=(8.0, 1.6 + 0.5 * len(budgets)), dpi=80)
    fig.subplots_adjust(left=0.2, right=0.72, bottom=0.8 / (1.6 + 0.5 * len(budgets)), top=0.86)
    ax = fig.add_subplot()
    drawn: set[str] = set()
    for y, budget in enumerate(reversed(budgets)):
        left = 0
        for name, tokens in budget.parts:
            colour, hatch = PART_STYLES[name]
            ax.barh(
                [y],
                [tokens],
                left=left,
                color=colour,
                hatch=hatch or None,
                edgecolor=GREY if name == "headroom" else EDGE,  # the hatch takes the edge colour
                linewidth=0.6,
                label=name if name not in drawn and tokens > 0 else None,
            )
            if tokens > 0:
                drawn.add(name)
            left += tokens
    windows = sorted({b.window for b in budgets})
    for number, window in enumerate(windows):
        ax.axvline(window, color=WINDOW, linestyle="--", linewidth=1.2, label=None if number else "window")
    ax.set_xlim(0, max(1, windows[-1]) * 1.04)
    ax.set_yticks(range(len(budgets)), list(reversed(labels)), fontsize=8)
    ax.set_ylim(-0.6, len(budgets) - 0.4)
    ax.set_xlabel("tokens (each part a difference of real request counts)")
    window_text = " / ".join(map(str, windows))
    ax.set_title(f"where a {window_text}-token window goes", fontsize=10)
    handles, names = ax.get_legend_handles_labels()
    ranks = [*PARTS, "window"]
    order = sorted(range(len(names)), key=lambda i: ranks.index(names[i]))
    ax.legend(
        [handles[i] for i in order],
        [names[i] for i in order],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8,
        frameon=False,
    )
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return figure_with(fig, describe_budgets(budgets, labels))
