"""Figures for lesson 08: where the chosen passages stand, what the duplicate filter catches, what each
strategy keeps per token, and which parts a priority packer keeps as the budget grows. Each plot_* function returns
the figure with a text description written by the describe_* function beside it, from the same data."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib import colormaps
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from packer.lab.figures import (
    EDGE,
    BLUE,
    BLUISH_GREEN,
    GREY,
    LIGHT_GREY,
    ORANGE,
    VERMILLION,
    DescribedFigure,
    category_style,
    figure_with,
    listing,
    ranks_text,
)
from packer.lab.repeats import Choice
from packer.lab.retrieval import Hit

STRATEGY_COLOURS = (BLUE, BLUISH_GREEN, VERMILLION)
STRATEGY_STYLES = tuple(category_style(i) for i in (0, 3, 6))  # blue plain, green back-striped, vermillion crossed
# A candidate's kind: a colour and a hatch; a kept candidate is filled, a left-out one white with the same hatch.
COPY, RELEVANT, OTHER = ORANGE, BLUISH_GREEN, LIGHT_GREY
KIND_HATCHES = {COPY: "xx", RELEVANT: "//", OTHER: ""}


def describe_layout(ranks_in_order: Sequence[int], laid_out: Sequence[int]) -> str:
    """What plot_layout shows, in words: the ranks at each prompt position, in both orders."""
    return (
        f"Two rows of {len(ranks_in_order)} prompt positions, left to right, each cell showing the rank of the "
        f"passage placed there (darker = better rank, and the number is written in the cell). Rank order: "
        f"{', '.join(map(str, ranks_in_order))}. Ends first: {', '.join(map(str, laid_out))}."
    )


def plot_layout(ranks_in_order: Sequence[int], laid_out: Sequence[int]) -> DescribedFigure:
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
    return figure_with(fig, describe_layout(ranks_in_order, laid_out))


def describe_threshold_sweep(thresholds: Sequence[float], totals: Sequence[tuple[int, int, int]]) -> str:
    """What plot_threshold_sweep shows, in words: recall and false removals at each threshold."""
    points = "; ".join(
        f"{t}: {caught} of {present} copies caught, {false} false removals"
        for t, (caught, present, false) in zip(thresholds, totals)
    )
    return (
        "Line chart with two vertical axes against the filter's Jaccard threshold (word 3-shingles): the recall "
        "of the injected copies (circles, solid line, left axis) and the number of passages removed that were not "
        f"injected (squares, dashed line, right axis). By threshold: {points}."
    )


def plot_threshold_sweep(thresholds: Sequence[float], totals: Sequence[tuple[int, int, int]]) -> DescribedFigure:
    """Recall of the injected copies and the number of false removals, as the Jaccard threshold moves."""
    fig = Figure(figsize=(7.2, 3.4), dpi=80)
    fig.subplots_adjust(left=0.1, right=0.88, bottom=0.15, top=0.88)
    ax = fig.add_subplot()
    recall = [caught / present for caught, present, _ in totals]
    ax.plot(thresholds, recall, "o-", color=STRATEGY_COLOURS[0], label="recall of injected copies (left)")
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
    return figure_with(fig, describe_threshold_sweep(thresholds, totals))


def describe_per_token(questions: Sequence[str], table: Sequence[Sequence[Choice]]) -> str:
    """What plot_per_token shows, in words: each strategy's distinct relevant passages per 1,000 tokens, per question."""
    styles = listing(
        f"{choice.strategy} ({hatch_words(hatch)})" for choice, (_, hatch) in zip(table[0], STRATEGY_STYLES)
    )
    rows = [f"Q{q + 1}: " + ", ".join(f"{c.strategy} {c.per_thousand:.1f}" for c in row) for q, row in enumerate(table)]
    return (
        f"Grouped bar chart of distinct relevant passages per 1,000 prompt tokens at a budget of {table[0][0].limit} "
        f"tokens, one group per question and one bar per strategy: {styles}. {'; '.join(rows)}."
    )


def hatch_words(hatch: str) -> str:
    """A hatch pattern in words."""
    return {"": "plain", "\\\\": "back-striped", "++": "crossed", "xx": "cross-hatched", "//": "striped"}[hatch]


def plot_per_token(questions: Sequence[str], table: Sequence[Sequence[Choice]]) -> DescribedFigure:
    """Distinct relevant passages per 1,000 prompt tokens, one group of bars per question, one bar per strategy."""
    fig = Figure(figsize=(8.0, 3.6), dpi=80)
    fig.subplots_adjust(left=0.09, right=0.98, bottom=0.2, top=0.88)
    ax = fig.add_subplot()
    width = 0.8 / len(table[0])
    for s, (colour, hatch) in enumerate(STRATEGY_STYLES[: len(table[0])]):
        xs = [q + (s - (len(table[0]) - 1) / 2) * width for q in range(len(questions))]
        ax.bar(
            xs,
            [row[s].per_thousand for row in table],
            width * 0.95,
            color=colour,
            hatch=hatch or None,
            edgecolor=EDGE,
            label=table[0][s].strategy,
        )
    ax.set_xticks(range(len(questions)), [f"Q{q + 1}" for q in range(len(questions))])
    ax.set_xlabel("question (in the order of packer.lab.retrieval.QUESTIONS)")
    ax.set_ylabel("distinct relevant per 1,000 tokens")
    ax.set_title(f"at a budget of {table[0][0].limit} tokens: the same budget, fewer repeats")
    ax.legend(fontsize=8, frameon=False, loc="upper left")
    return figure_with(fig, describe_per_token(questions, table))


def describe_strategy_choices(
    choices: Sequence[Choice], hits: Sequence[Hit], relevant: set[str], copies: set[str]
) -> str:
    """What plot_strategy_choices shows, in words: the kinds of candidate by rank, and which each strategy keeps."""
    copy_ranks = [h.rank for h in hits if h.key in copies]
    relevant_ranks = [h.rank for h in hits if h.key in relevant and h.key not in copies]
    rows = []
    for c in choices:
        kept = [h for h in hits if h.key in c.chosen]
        kept_copies = [h.rank for h in kept if h.key in copies]
        rows.append(
            f"{c.strategy} keeps ranks {ranks_text([h.rank for h in kept])} ({c.tokens} tokens, "
            f"{c.distinct_relevant} distinct relevant, {len(kept_copies)} injected copies)"
        )
    return (
        f"Grid, one row per strategy and one cell per candidate by retrieved rank (1 to {len(hits)}), a cell filled "
        f"when the strategy keeps the candidate, at {choices[0].limit} tokens. Injected copies (orange, "
        f"cross-hatched) are ranks {ranks_text(copy_ranks)}; relevant passages (green, striped) are ranks "
        f"{ranks_text(relevant_ranks)}; the others are grey and plain. {'; '.join(rows)}."
    )


def plot_strategy_choices(
    choices: Sequence[Choice], hits: Sequence[Hit], relevant: set[str], copies: set[str]
) -> DescribedFigure:
    """One row per strategy, one cell per candidate (by retrieved rank): a copy orange and cross-hatched, a relevant
    passage green and striped, another grey and plain; a cell is filled when the strategy keeps the passage."""
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
                hatch=KIND_HATCHES[colour] or None,
                edgecolor=EDGE if kept else colour if colour != OTHER else GREY,  # the hatch takes this colour
                linewidth=0.8,
            )
    ax.set_xlim(0.4, len(hits) + 0.6)
    ax.set_yticks(
        range(len(choices)),
        [f"{c.strategy}\n{c.tokens} tokens, {c.distinct_relevant} relevant" for c in reversed(choices)],
        fontsize=8,
    )
    ax.set_xticks([1, *range(5, len(hits) + 1, 5)])
    ax.set_xlabel("retrieved rank (crossed orange: an injected copy, striped green: relevant, plain grey: other)")
    ax.set_title(f"which candidates each strategy keeps at {choices[0].limit} tokens (filled = kept)")
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    return figure_with(fig, describe_strategy_choices(choices, hits, relevant, copies))


def _budget_runs(budgets: Sequence[int], flags: Sequence[bool]) -> str:
    """The budgets where a flag holds, as ranges of consecutive budgets ('100–150 and 300–1500')."""
    runs: list[list[int]] = []
    previous = False
    for budget, flag in zip(budgets, flags):
        if flag and previous:
            runs[-1].append(budget)
        elif flag:
            runs.append([budget])
        previous = flag
    return listing([str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs], empty="no budget")


def describe_parts_sweep(names: Sequence[str], budgets: Sequence[int], kept: Sequence[Sequence[str] | None]) -> str:
    """What plot_parts_sweep shows, in words: the budgets at which each part is kept, and where the request fails."""
    failed = _budget_runs(budgets, [k is None for k in kept])
    rows = [f"{name}: kept at {_budget_runs(budgets, [k is not None and name in k for k in kept])}" for name in names]
    return (
        f"Grid, one row per part and one column per budget from {budgets[0]} to {budgets[-1]} tokens, a cell "
        f"filled (dark) where pack_parts keeps the part and blank where it does not. The request fails (every "
        f"cell blank) at {failed}. {'; '.join(rows)}."
    )


def plot_parts_sweep(
    names: Sequence[str], budgets: Sequence[int], kept: Sequence[Sequence[str] | None]
) -> DescribedFigure:
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
    ax.set_title("kept parts (filled) only ever grow with the budget")
    return figure_with(fig, describe_parts_sweep(names, budgets, kept))
