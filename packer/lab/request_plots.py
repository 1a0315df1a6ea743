"""Figures for lesson 07: where a context window goes, one stacked bar per packed request."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from packer.lab.request_budget import PARTS, Budget

PART_COLOURS = dict(
    zip(PARTS, ("#6c757d", "#adb5bd", "#e9c46a", "#2a9d8f", "#8d99ae", "#b8c0ff", "#e76f51", "#eeeeee"))
)
WINDOW = "#264653"


def plot_budgets(budgets: Sequence[Budget], labels: Sequence[str] | None = None) -> Figure:
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
            headroom = name == "headroom"  # drawn hatched: a pale fill alone vanishes against the page
            ax.barh(
                [y],
                [tokens],
                left=left,
                color="white" if headroom else PART_COLOURS[name],
                hatch="///" if headroom else None,
                edgecolor="#adb5bd" if headroom else "white",
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
    return fig
