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
    """One row per policy, one cell per ranked passage (its tokens written above): filled when the policy keeps it."""
    fig = Figure(figsize=(8.4, 0.5 * len(outcomes) + 1.5), dpi=80)
    fig.subplots_adjust(left=0.27, right=0.98, bottom=0.2 if len(outcomes) > 3 else 0.28, top=0.8)
    ax = fig.add_subplot()
    rows = list(reversed(outcomes))
    for y, outcome in enumerate(rows):
        colour = OVER if outcome.over else POLICY_COLOURS[(len(rows) - 1 - y) % len(POLICY_COLOURS)]
        kept = [hit.key in outcome.chosen for hit in hits]
        ax.bar(
            [h.rank for h in hits],
            [0.72] * len(hits),
            bottom=y - 0.36,
            width=0.86,
            color=[colour if k else "white" for k in kept],
            edgecolor="#6c757d",
            linewidth=0.5,
        )
    for hit, cost in zip(hits, costs):
        ax.text(hit.rank, len(rows) - 0.5, str(cost), ha="center", va="bottom", fontsize=6.5, rotation=90)
    ax.set_xlim(0.4, len(hits) + 0.6)
    ax.set_ylim(-0.6, len(rows) + 0.35)
    ax.set_yticks(
        range(len(rows)), [f"{o.policy}\n{o.tokens} tokens, relevance {o.relevance:.0f}" for o in rows], fontsize=8
    )
    ax.set_xticks([1, *range(5, len(hits) + 1, 5)])
    ax.set_xlabel("rank of the passage (its tokens written above the top row)")
    ax.set_title(f"which passages win at a budget of {outcomes[0].limit} tokens (filled = kept)", pad=24)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
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
    if any(o.over for row in table for o in row):
        handles.append(Patch(color=OVER, label="over budget, re-measured"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return fig


__all__ = ["POLICIES", "plot_choices", "plot_sweep"]
