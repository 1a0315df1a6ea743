"""Figures for the lessons: each candidate against the budget, a prompt's sections against theirs, what
skipping buys over stopping (lesson 01) and how the work grows (lesson 03). Each plot_* function returns the
figure with a text description written by the describe_* function beside it, from the same data."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure
from matplotlib.patches import Patch

from packer.lab.figures import (
    EDGE,
    BLACK,
    BLUE,
    KEPT,
    LIGHT_GREY,
    SKIPPED,
    SKIPPED_HATCH,
    VERMILLION,
    DescribedFigure,
    category_style,
    figure_with,
    listing,
    ranks_text,
)
from packer.section_budget import SECTION_ORDER, BudgetPlan, SectionCheck, estimate_tokens
from packer.lab.trace import Trace

BEFORE, LIMIT = LIGHT_GREY, BLACK
FRAMING = tuple(category_style(i) for i in (2, 4, 5))  # sky blue dotted, purple crossed, yellow dashed
SECTION_STYLES = tuple(category_style(i) for i in (0, 1, 3, 6, 7))
TAGS = category_style(2)
HEADROOM = (LIGHT_GREY, "")


def describe_trace(trace: Trace, title: str = "") -> str:
    """What plot_trace shows, in words: the bars, the limit, and each candidate kept or skipped, with its numbers."""
    unit = trace.unit
    lines = [
        f"Bar chart{': ' + title if title else ''}. One bar per candidate, in the order the packer met them, "
        f"measured in {unit}. A dashed line marks the limit, {trace.limit} {unit}."
    ]
    if trace.fixed:
        framing = listing(f"{label} {amount}" for label, amount in trace.fixed if amount)
        lines.append(
            f"Each bar starts with the framing charged whatever is kept ({framing}), then what was already kept."
        )
    kept, skipped = [], []
    for step in trace.steps:
        total = trace.fixed_total + step.before + step.cost
        if step.kept:
            kept.append(f"{step.label} ({step.cost}, reaching {total})")
        else:
            skipped.append(f"{step.label} ({step.cost}: would reach {total}, over {trace.limit})")
    lines.append(f"Kept, solid bars: {listing(kept)}.")
    lines.append(f"Skipped, hatched bars: {listing(skipped)}.")
    lines.append(f"Used {trace.used} of {trace.limit} {unit}.")
    return " ".join(lines)


def plot_trace(trace: Trace, title: str = "") -> DescribedFigure:
    """One bar per candidate: framing, what was already kept, and the candidate's cost; the limit as a line."""
    fig = Figure(figsize=(7.0, 3.2), dpi=80)
    fig.subplots_adjust(left=0.09, right=0.72, bottom=0.12, top=0.9)  # fixed margins: no layout pass per redraw
    ax = fig.add_subplot()
    xs = range(len(trace.steps))
    bottom = [0] * len(trace.steps)
    for (label, amount), (colour, hatch) in zip(trace.fixed, FRAMING):
        if amount:
            ax.bar(xs, [amount] * len(trace.steps), bottom=bottom, color=colour, hatch=hatch, label=label)
            bottom = [b + amount for b in bottom]
    befores = [step.before for step in trace.steps]
    ax.bar(xs, befores, bottom=bottom, color=BEFORE, label="already kept")
    bottom = [b + before for b, before in zip(bottom, befores)]
    for x, (step, base) in enumerate(zip(trace.steps, bottom)):
        colour, hatch = (KEPT, None) if step.kept else (SKIPPED, SKIPPED_HATCH)
        ax.bar(x, step.cost, bottom=base, color=colour, hatch=hatch, edgecolor=EDGE)
    ax.axhline(trace.limit, color=LIMIT, linestyle="--", linewidth=1.5, label=f"limit {trace.limit}")
    handles, _ = ax.get_legend_handles_labels()
    handles += [
        Patch(color=KEPT, label="candidate: kept"),
        Patch(facecolor=SKIPPED, hatch=SKIPPED_HATCH, edgecolor=EDGE, label="candidate: skipped"),
    ]
    ax.set_xticks(list(xs), [step.label for step in trace.steps])
    ax.set_ylabel(trace.unit)
    ax.set_title(title or f"used {trace.used} of {trace.limit} {trace.unit}")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return figure_with(fig, describe_trace(trace, title))


Part = tuple[str, int, tuple[str, str]]  # label, tokens, (colour, hatch)


def _stacked_budget_bars(
    rows: list[tuple[str, list[Part]]],
    budget: int,
    title: str,
    note: tuple[str, float, float] | None = None,
) -> Figure:
    """One horizontal bar per row (top to bottom) of labelled parts against a budget line; `note` is a
    (text, x, width) label pointed at a part that would otherwise be too thin to see."""
    fig = Figure(figsize=(7.0, 1.4 + 0.6 * len(rows)), dpi=80)
    fig.subplots_adjust(left=0.2 if len(rows) > 1 else 0.03, right=0.66, bottom=0.25, top=0.82)
    ax = fig.add_subplot()
    labelled: set[str] = set()
    for y, (_, parts) in enumerate(reversed(rows)):
        left = 0
        for label, amount, (colour, hatch) in parts:
            name = label.split(" (")[0]
            legend = f"{label} {amount}" if len(rows) == 1 else name
            ax.barh(
                [y],
                [amount],
                left=left,
                color=colour,
                hatch=hatch or None,
                edgecolor=EDGE,
                label=legend if name not in labelled else None,
            )
            labelled.add(name)
            left += amount
    ax.axvline(budget, color=LIMIT, linestyle="--", linewidth=1.5, label=f"budget {budget}")
    if len(rows) > 1:
        ax.set_yticks(range(len(rows)), [label for label, _ in reversed(rows)])
    else:
        ax.set_yticks([])
    if note:
        text, x, width = note
        ax.annotate(
            text,
            xy=(x + width / 2, len(rows) - 1),
            xytext=(x + width + budget * 0.08, len(rows) - 1),
            fontsize=8,
            va="center",
            arrowprops={"arrowstyle": "->", "color": LIMIT},
        )
    ax.set_ylim(-0.6, len(rows) - 0.2)
    ax.set_xlabel("estimated tokens (chars/4)")
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return fig


def _left(budget: int, total: int) -> str:
    """'headroom 38' or 'over the budget by 12'."""
    return f"headroom {budget - total}" if total <= budget else f"over the budget by {total - budget}"


def describe_plan(plan: BudgetPlan) -> str:
    """What plot_plan shows, in words: both bars' parts and what each leaves of the budget."""
    sections = listing(f"{key} {tokens}" for key, _, tokens in plan.rows)
    framing = plan.assembled_tokens - plan.total_tokens
    return (
        f"Horizontal bar chart of estimated tokens (chars/4) against a dashed budget line at {plan.budget}. "
        f"Top bar, the per-section estimates summed: {sections}, {plan.total_tokens} in all, "
        f"{_left(plan.budget, plan.total_tokens)}. Bottom bar, the assembled prompt: the same sections plus "
        f"{framing} for tags and blank lines (estimated once over the whole prompt), {plan.assembled_tokens} in all, "
        f"{_left(plan.budget, plan.assembled_tokens)}."
    )


def plot_plan(plan: BudgetPlan) -> DescribedFigure:
    """Two bars against the budget: the sum of the per-section estimates, and the assembled prompt (the
    same sections plus their tags and blank lines, rounded once), each with the headroom it leaves."""
    sections = [(key, tokens, style) for (key, _, tokens), style in zip(plan.rows, SECTION_STYLES)]
    summed = list(sections) + ([("headroom", plan.headroom, HEADROOM)] if plan.headroom > 0 else [])
    framing = plan.assembled_tokens - plan.total_tokens
    assembled = list(sections) + [("tags and blank lines", framing, TAGS)]
    assembled += [("headroom", plan.assembled_headroom, HEADROOM)] if plan.assembled_headroom > 0 else []
    title = f"{plan.total_tokens} summed, {plan.assembled_tokens} assembled, of {plan.budget} tokens"
    fig = _stacked_budget_bars(
        [(f"summed {plan.total_tokens}", summed), (f"assembled {plan.assembled_tokens}", assembled)], plan.budget, title
    )
    return figure_with(fig, describe_plan(plan))


def describe_check(result: SectionCheck, sections: Mapping[str, str]) -> str:
    """What plot_check shows, in words: the verdict, each section's estimate, the tags' cost and the headroom."""
    estimates = [(key, estimate_tokens(sections.get(key, ""))) for key in SECTION_ORDER]
    parts = listing(f"{key} {tokens}" for key, tokens in estimates)
    text = (
        f"Horizontal bar of estimated tokens (chars/4) against a dashed budget line at {result.budget}; "
        f"the check says: {result.message}. Sections: {parts}."
    )
    if result.total is None:
        return text + " No estimate of the assembled prompt: the check stopped before assembling it."
    framing = result.total - sum(tokens for _, tokens in estimates)
    return text + (
        f" Tags and separators {framing:+d}, so the assembled prompt is {result.total}, "
        f"{_left(result.budget, result.total)}."
    )


def plot_check(result: SectionCheck, sections: Mapping[str, str]) -> DescribedFigure:
    """Per-section estimates, the cost of tags and separators, and the headroom of an assembled prompt;
    the tags and separators are labelled, since at a roomy budget their slice is only a few pixels wide."""
    estimates = [
        (key, estimate_tokens(sections.get(key, "")), style) for key, style in zip(SECTION_ORDER, SECTION_STYLES)
    ]
    parts = list(estimates)
    note = None
    if result.total is not None:
        framing = result.total - sum(e for _, e, _ in estimates)
        parts.append(("tags and separators", framing, TAGS))
        if framing < 0.05 * max(result.budget, result.total):  # too thin to see: point at it
            note = (f"tags and separators: {framing:+d} tokens", sum(e for _, e, _ in estimates), framing)
        if result.headroom and result.headroom > 0:
            parts.append(("headroom", result.headroom, HEADROOM))
    fig = _stacked_budget_bars([("", parts)], result.budget, result.message, note)
    return figure_with(fig, describe_check(result, sections))


def describe_budget_used(budgets: Sequence[int], skip: Sequence[int], prefix: Sequence[int]) -> str:
    """What plot_budget_used shows, in words: where skipping uses more of the budget than stopping."""
    better = [b for b, s, p in zip(budgets, skip, prefix) if s > p]
    worse = [b for b, s, p in zip(budgets, skip, prefix) if s < p]
    where = f"at max_tokens {ranks_text(better)} (shaded)" if better else "nowhere"
    never = "and never less" if not worse else f"and less at max_tokens {ranks_text(worse)}"
    return (
        f"Step chart of tokens used against max_tokens from {budgets[0]} to {budgets[-1]}, with the line "
        f"tokens used = max_tokens dashed. Stop at first overflow (solid line) reaches {prefix[-1]}; "
        f"skip and continue (dash-dotted line) reaches {skip[-1]}. Skipping uses more {where}, {never}."
    )


def plot_budget_used(budgets: Sequence[int], skip: Sequence[int], prefix: Sequence[int]) -> DescribedFigure:
    """Tokens used at each max_tokens by skip-and-continue and by stop-at-first-overflow, the gap shaded."""
    fig = Figure(figsize=(7.0, 3.2), dpi=80, layout="constrained")
    ax = fig.add_subplot()
    ax.plot(budgets, budgets, color=BLACK, linestyle="--", linewidth=1, label="max_tokens")
    ax.fill_between(
        budgets, prefix, skip, step="post", color=KEPT, alpha=0.25, hatch="..", label="extra tokens from skipping"
    )
    ax.step(budgets, prefix, where="post", color=BLUE, linewidth=2, label="stop at first overflow")
    ax.step(budgets, skip, where="post", color=KEPT, linewidth=2, linestyle="-.", label="skip and continue")
    ax.set_xlabel("max_tokens")
    ax.set_ylabel("tokens used")
    ax.set_title("budget used on the example, by policy")
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    return figure_with(fig, describe_budget_used(budgets, skip, prefix))


def describe_work(work: Mapping[int, tuple[int, int]]) -> str:
    """What plot_work shows, in words: characters encoded by each packer at each n, and their ratio."""
    ns = list(work)
    slow = listing(f"{work[n][0]:,} at {n}" for n in ns)
    fast = listing(f"{work[n][1]:,} at {n}" for n in ns)
    ratios = listing(f"{work[n][0] / work[n][1]:.0f}" for n in ns)
    span = math.log(ns[-1] / ns[0]) if len(ns) > 1 else 0.0
    slopes = [math.log(work[ns[-1]][i] / work[ns[0]][i]) / span if span else 0.0 for i in (0, 1)]
    return (
        f"Two line charts of characters encoded against the number of passages n ({listing(map(str, ns))}), "
        f"on ordinary axes (left) and log-log axes (right). Re-encode every candidate (circles, solid line): "
        f"{slow}. Running byte total (squares, dashed line): {fast}. Re-encoding does {ratios} times the work; "
        f"on the log-log axes the slopes are {slopes[0]:.1f} and {slopes[1]:.1f}."
    )


def plot_work(work: Mapping[int, tuple[int, int]]) -> DescribedFigure:
    """Characters encoded by re-encoding and by a running total, per n (ordinary and log-log axes)."""
    ns = list(work)
    slow_work, fast_work = [work[n][0] for n in ns], [work[n][1] for n in ns]
    fig = Figure(figsize=(9, 3.4), dpi=80, layout="constrained")
    linear_ax, log_ax = fig.subplots(1, 2)
    for ax in (linear_ax, log_ax):
        ax.plot(ns, slow_work, "o-", color=VERMILLION, label="re-encode every candidate")
        ax.plot(ns, fast_work, "s--", color=BLUE, label="running byte total")
        ax.set_xlabel("passages n")
        ax.set_xticks(ns, [str(n) for n in ns])
    linear_ax.set_ylabel("characters encoded")
    linear_ax.yaxis.set_major_formatter("{x:,.0f}")
    linear_ax.set_title("ordinary axes")
    linear_ax.legend(fontsize=8, frameon=False)
    log_ax.set_xscale("log")
    log_ax.set_yscale("log")
    log_ax.set_xticks(ns, [str(n) for n in ns])
    log_ax.minorticks_off()
    log_ax.set_title("log-log: slope 2 vs slope 1")
    return figure_with(fig, describe_work(work))
