"""Figures for lesson 08: where the chosen passages stand, what the duplicate filter catches, what each
strategy keeps per token, and which parts a priority packer keeps as the budget grows."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib import colormaps
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from packer.lab.repeats import Choice
from packer.lab.retrieval import Hit

STRATEGY_COLOURS = ("#8d99ae", "#2a9d8f", "#e76f51")
COPY, RELEVANT, OTHER = "#e76f51", "#2a9d8f", "#ced4da"


def plot_layout(ranks_in_order: Sequence[int], laid_out: Sequence[int]) -> Figure:
    """Two rows of prompt positions: the ranks in rank order and in 'ends first' order (darker = better rank)."""
    n = len(ranks_in_order)
    cmap = colormaps["viridis"]
    fig = Figure(figsize=(7.6, 2.3), dpi=80)
    fig.subplots_adjust(left=0.14, right=0.98, bottom=0.26, top=0.82)
    ax = fig.add_subplot()
    for y, ranks in enumerate([laid_out, ranks_in_order]):
        for x, r in enumerate(ranks):
            ax.add_patch(Rectangle((x + 0.05, y + 0.05), 0.9, 0.8, color=cmap(0.85 * (r - 1) / max(1, n - 1))))
            ax.text(x + 0.5, y + 0.45, str(r), ha="center", va="center", color="white", fontsize=10)
    ax.set_xlim(0, n)
    ax.set_ylim(0, 2)
    ax.set_yticks([0.45, 1.45], ["ends first", "rank order"])
    ax.set_xticks([i + 0.5 for i in range(n)], [str(i + 1) for i in range(n)])
    ax.set_xlabel("position in the prompt (1 = the first passage after the heading)")
    ax.set_title("the same passages, numbered by rank: ends first puts the best at both ends")
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    ax.tick_params(length=0)
    return fig


def plot_threshold_sweep(thresholds: Sequence[float], totals: Sequence[tuple[int, int, int]]) -> Figure:
    """Recall of the injected copies and the number of false removals, as the Jaccard threshold moves."""
    fig = Figure(figsize=(7.2, 3.4), dpi=80)
    fig.subplots_adjust(left=0.1, right=0.88, bottom=0.15, top=0.88)
    ax = fig.add_subplot()
    recall = [caught / present for caught, present, _ in totals]
    ax.plot(thresholds, recall, "o-", color=STRATEGY_COLOURS[1], label="recall of injected copies (left)")
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("Jaccard threshold of the filter (word 3-shingles)")
    ax.set_ylabel("recall of injected copies")
    other = ax.twinx()
    other.plot(thresholds, [f for *_, f in totals], "s--", color=STRATEGY_COLOURS[2], label="false removals (right)")
    other.set_ylabel("false removals (passages not injected)")
    other.set_ylim(0, max(1, max(f for *_, f in totals)) * 1.2)
    lines = ax.get_lines() + other.get_lines()
    ax.legend(lines, [line.get_label() for line in lines], loc="lower left", fontsize=8, frameon=False)
    ax.set_title("the filter over the six questions' candidates: what it catches, what else it drops")
    return fig


def plot_per_token(questions: Sequence[str], table: Sequence[Sequence[Choice]]) -> Figure:
    """Distinct relevant passages per 1,000 prompt tokens, one group of bars per question, one bar per strategy."""
    fig = Figure(figsize=(8.0, 3.6), dpi=80)
    fig.subplots_adjust(left=0.09, right=0.98, bottom=0.2, top=0.88)
    ax = fig.add_subplot()
    width = 0.8 / len(table[0])
    for s, colour in enumerate(STRATEGY_COLOURS[: len(table[0])]):
        xs = [q + (s - (len(table[0]) - 1) / 2) * width for q in range(len(questions))]
        ax.bar(xs, [row[s].per_thousand for row in table], width * 0.95, color=colour, label=table[0][s].strategy)
    ax.set_xticks(range(len(questions)), [f"Q{q + 1}" for q in range(len(questions))])
    ax.set_xlabel("question (in the order of packer.lab.retrieval.QUESTIONS)")
    ax.set_ylabel("distinct relevant per 1,000 tokens")
    ax.set_title(f"at a budget of {table[0][0].limit} tokens: the same budget, fewer repeats")
    ax.legend(fontsize=8, frameon=False, loc="upper left")
    return fig


def plot_strategy_choices(
    choices: Sequence[Choice], hits: Sequence[Hit], relevant: set[str], copies: set[str]
) -> Figure:
    """One row per strategy, one cell per candidate (by retrieved rank): orange a copy, green relevant, grey other;
    a cell is filled when the strategy keeps the passage."""
    fig = Figure(figsize=(8.4, 0.55 * len(choices) + 1.5), dpi=80)
    fig.subplots_adjust(left=0.25, right=0.98, bottom=0.3, top=0.85)
    ax = fig.add_subplot()
    for y, choice in enumerate(reversed(choices)):
        for h in hits:
            colour = COPY if h.key in copies else RELEVANT if h.key in relevant else OTHER
            kept = h.key in choice.chosen
            ax.bar(
                h.rank,
                0.72,
                bottom=y - 0.36,
                width=0.86,
                color=colour if kept else "white",
                edgecolor=colour if colour != OTHER else "#6c757d",
                linewidth=0.8,
            )
    ax.set_xlim(0.4, len(hits) + 0.6)
    ax.set_yticks(
        range(len(choices)),
        [f"{c.strategy}\n{c.tokens} tokens, {c.distinct_relevant} relevant" for c in reversed(choices)],
        fontsize=8,
    )
    ax.set_xticks([1, *range(5, len(hits) + 1, 5)])
    ax.set_xlabel("retrieved rank (orange: an injected copy, green: relevant, grey: other)")
    ax.set_title(f"which candidates each strategy keeps at {choices[0].limit} tokens (filled = kept)")
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    return fig


def plot_parts_sweep(names: Sequence[str], budgets: Sequence[int], kept: Sequence[Sequence[str] | None]) -> Figure:
    """One row per part, one column per budget: filled where pack_parts keeps the part (blank: the request fails)."""
    fig = Figure(figsize=(8.0, 0.28 * len(names) + 1.4), dpi=80)
    fig.subplots_adjust(left=0.26, right=0.98, bottom=0.14, top=0.9)
    ax = fig.add_subplot()
    grid = [[1.0 if k is not None and name in k else 0.0 for k in kept] for name in names]
    step = budgets[1] - budgets[0] if len(budgets) > 1 else 1
    ax.imshow(
        grid,
        aspect="auto",
        cmap="Greens",
        vmin=0,
        vmax=1.3,
        interpolation="nearest",
        extent=(budgets[0] - step / 2, budgets[-1] + step / 2, len(names) - 0.5, -0.5),
    )
    ax.set_yticks(range(len(names)), list(names), fontsize=8)
    ax.set_xlabel("budget (cl100k_base tokens, prompt plus the answer's reserve)")
    ax.set_title("kept parts (green) only ever grow with the budget")
    return fig
