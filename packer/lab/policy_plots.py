"""Figures for lesson 06: which passages each policy keeps, and what they are worth as the budget moves."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from matplotlib.figure import Figure
from matplotlib.patches import Patch

from packer.lab.policies import POLICIES, Outcome
from packer.lab.retrieval import Hit

POLICY_COLOURS = ("#264653", "#2a9d8f", "#e9c46a", "#e76f51", "#8d99ae")
OVER = "#d62828"


def plot_choices(outcomes: Sequence[Outcome], hits: Sequence[Hit], costs: Sequence[int]) -> Figure:
    """One row per policy, one cell per ranked passage (width = its tokens): filled when the policy keeps it."""
    fig = Figure(figsize=(8.0, 0.55 * len(outcomes) + 1.3), dpi=80)
    fig.subplots_adjust(left=0.27, right=0.97, bottom=0.3 if len(outcomes) < 4 else 0.22, top=0.86)
    ax = fig.add_subplot()
    rows = list(reversed(outcomes))
    for y, outcome in enumerate(rows):
        colour = OVER if outcome.over else POLICY_COLOURS[(len(rows) - 1 - y) % len(POLICY_COLOURS)]
        left = 0
        for hit, cost in zip(hits, costs):
            kept = hit.key in outcome.chosen
            ax.barh([y], [cost], left=left, height=0.7, color=colour if kept else "white",
                    edgecolor="#6c757d", linewidth=0.4)
            left += cost
    ax.axvline(outcomes[0].limit, color="black", linewidth=1, linestyle="--")
    ax.set_yticks(range(len(rows)), [f"{o.policy}\n{o.tokens} tokens, relevance {o.relevance:.0f}" for o in rows],
                  fontsize=8)
    ax.set_xlabel("ranked passages, best first, each as wide as its tokens (dashed: the budget)")
    ax.set_title(f"which passages win at a budget of {outcomes[0].limit} tokens (filled = kept)")
    return fig


def plot_sweep(budgets: Sequence[int], run: Callable[[int], Sequence[Outcome]]) -> Figure:
    """Relevance kept by each policy as the budget grows; a red cross where the re-measured prompt is over."""
    table = [run(budget) for budget in budgets]
    fig = Figure(figsize=(7.6, 3.8), dpi=80)
    fig.subplots_adjust(left=0.1, right=0.66, bottom=0.14, top=0.9)
    ax = fig.add_subplot()
    for column, colour in zip(range(len(table[0])), POLICY_COLOURS):
        points = [row[column] for row in table]
        ax.plot(budgets, [o.relevance for o in points], color=colour, linewidth=1.6, label=points[0].policy)
        over = [(b, o.relevance) for b, o in zip(budgets, points) if o.over]
        if over:
            ax.plot(*zip(*over), "x", color=OVER, markersize=6)
    ax.set_xlabel("budget (real tokens)")
    ax.set_ylabel("relevance kept (sum of BM25 scores)")
    ax.set_title("relevance kept as the budget grows")
    handles, labels = ax.get_legend_handles_labels()
    handles.append(Patch(color=OVER, label="over budget, re-measured"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return fig


__all__ = ["POLICIES", "plot_choices", "plot_sweep"]
