"""Figures for lesson 06: which passages each policy keeps, and what they are worth as the budget moves. Each
plot_* function returns the figure with a text description written by the describe_* function beside it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from packer.lab.figures import (
    GREY,
    EDGE,
    BLUE,
    BLUISH_GREEN,
    LINE_STYLES,
    MARKERS,
    ORANGE,
    REDDISH_PURPLE,
    SKY_BLUE,
    VERMILLION,
    DescribedFigure,
    figure_with,
    listing,
    number,
    ranks_text,
)
from packer.lab.policies import POLICIES, Outcome
from packer.lab.retrieval import Hit

POLICY_COLOURS = (BLUE, BLUISH_GREEN, ORANGE, REDDISH_PURPLE, SKY_BLUE)
OVER, OVER_HATCH = VERMILLION, "xx"


def _kept_ranks(outcome: Outcome, hits: Sequence[Hit]) -> str:
    """The ranks a policy keeps, as runs ('1–3, 5 and 9')."""
    return ranks_text([h.rank for h in hits if h.key in outcome.chosen])


def describe_choices(outcomes: Sequence[Outcome], hits: Sequence[Hit], costs: Sequence[int]) -> str:
    """What plot_choices shows, in words: each policy's kept ranks, tokens and relevance, and the passages' costs."""
    rows = []
    for o in outcomes:
        over = f", over the limit of {o.limit} (cross-hatched)" if o.over else ""
        rows.append(
            f"{o.policy} keeps ranks {_kept_ranks(o, hits)}: {o.tokens} tokens, relevance {o.relevance:.0f}{over}"
        )
    priced = listing(f"{h.rank}: {c}" for h, c in zip(hits, costs))
    return (
        f"Grid, one row per policy and one cell per retrieved passage by rank (1 to {len(hits)}), a cell filled "
        f"when the policy keeps the passage, at a budget of {outcomes[0].limit} tokens. {'. '.join(rows)}. "
        f"Each passage's tokens, written above the top row, by rank: {priced}."
    )


def plot_choices(outcomes: Sequence[Outcome], hits: Sequence[Hit], costs: Sequence[int]) -> DescribedFigure:
    """One row per policy, one cell per ranked passage (its tokens written above): filled when the policy keeps it;
    a row over the limit is cross-hatched and says so."""
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
            hatch=OVER_HATCH if outcome.over else None,
            edgecolor=EDGE if outcome.over else GREY,  # the hatch takes the edge colour
            linewidth=0.5,
        )
    for hit, cost in zip(hits, costs):
        ax.text(hit.rank, len(rows) - 0.5, str(cost), ha="center", va="bottom", fontsize=6.5, rotation=90)
    ax.set_xlim(0.4, len(hits) + 0.6)
    ax.set_ylim(-0.6, len(rows) + 0.35)
    ax.set_yticks(
        range(len(rows)),
        [f"{o.policy}{' (OVER)' if o.over else ''}\n{o.tokens} tokens, relevance {o.relevance:.0f}" for o in rows],
        fontsize=8,
    )
    ax.set_xticks([1, *range(5, len(hits) + 1, 5)])
    ax.set_xlabel("rank of the passage (its tokens written above the top row)")
    ax.set_title(f"which passages win at a budget of {outcomes[0].limit} tokens (filled = kept)", pad=24)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    return figure_with(fig, describe_choices(outcomes, hits, costs))


def describe_sweep(budgets: Sequence[int], table: Sequence[Sequence[Outcome]]) -> str:
    """What plot_sweep shows, in words: each policy's relevance at the smallest and largest budget, and where it
    goes over."""
    lines = []
    for column in range(len(table[0])):
        points = [row[column] for row in table]
        over = [str(b) for b, o in zip(budgets, points) if o.over]
        over_text = f", over the limit at {listing(over)}" if over else ""
        lines.append(
            f"{points[0].policy} ({MARKER_WORDS[MARKERS[column]]}) from {points[0].relevance:.1f} at {budgets[0]} "
            f"to {points[-1].relevance:.1f} at {budgets[-1]}{over_text}"
        )
    crosses = "; crosses mark a prompt over budget when re-measured" if any(o.over for r in table for o in r) else ""
    return (
        f"Line chart of the relevance kept (sum of BM25 scores) against the budget in real tokens, "
        f"{number(budgets[0])} to {number(budgets[-1])}, one line per policy{crosses}. {'; '.join(lines)}."
    )


MARKER_WORDS = {"o": "circles", "s": "squares", "^": "triangles", "D": "diamonds", "v": "down triangles", "P": "pluses"}


def plot_sweep(budgets: Sequence[int], run: Callable[[int], Sequence[Outcome]]) -> DescribedFigure:
    """Relevance kept by each policy as the budget grows; a cross where the re-measured prompt is over."""
    table = [run(budget) for budget in budgets]
    fig = Figure(figsize=(7.6, 3.8), dpi=80)
    fig.subplots_adjust(left=0.1, right=0.66, bottom=0.14, top=0.9)
    ax = fig.add_subplot()
    for column, colour in zip(range(len(table[0])), POLICY_COLOURS):
        points = [row[column] for row in table]
        ax.plot(
            budgets,
            [o.relevance for o in points],
            color=colour,
            linewidth=1.6,
            marker=MARKERS[column],
            markersize=4,
            linestyle=LINE_STYLES[column % len(LINE_STYLES)],
            label=points[0].policy,
        )
        over = [(b, o.relevance) for b, o in zip(budgets, points) if o.over]
        if over:
            ax.plot(*zip(*over), "x", color=OVER, markersize=8, markeredgewidth=2)
    ax.set_xlabel("budget (real tokens)")
    ax.set_ylabel("relevance kept (sum of BM25 scores)")
    ax.set_title("relevance kept as the budget grows")
    handles, labels = ax.get_legend_handles_labels()
    if any(o.over for row in table for o in row):
        handles.append(Line2D([], [], color=OVER, marker="x", linestyle="", label="over budget, re-measured"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return figure_with(fig, describe_sweep(budgets, table))


__all__ = ["POLICIES", "describe_choices", "describe_sweep", "plot_choices", "plot_sweep"]
