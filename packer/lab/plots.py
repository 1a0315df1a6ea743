"""Figures for the lessons: each candidate against the budget, and a prompt's sections against theirs."""

from __future__ import annotations

from collections.abc import Mapping

from matplotlib.figure import Figure
from matplotlib.patches import Patch

from packer.section_budget import SECTION_ORDER, BudgetPlan, SectionCheck, estimate_tokens
from packer.lab.trace import Trace

KEPT, SKIPPED, BEFORE, LIMIT = "#2a9d8f", "#e76f51", "#d9d9d9", "#264653"
FRAMING = ("#8d99ae", "#b8c0ff", "#ffd166")
SECTION_COLOURS = ("#264653", "#2a9d8f", "#e9c46a", "#f4a261", "#e76f51")
HEADROOM = "#eeeeee"


def plot_trace(trace: Trace, title: str = "") -> Figure:
    """One bar per candidate: framing, what was already kept, and the candidate's cost; the limit as a line."""
    fig = Figure(figsize=(7.0, 3.2), dpi=80)
    fig.subplots_adjust(left=0.09, right=0.72, bottom=0.12, top=0.9)  # fixed margins: no layout pass per redraw
    ax = fig.add_subplot()
    xs = range(len(trace.steps))
    bottom = [0] * len(trace.steps)
    for (label, amount), colour in zip(trace.fixed, FRAMING):
        if amount:
            ax.bar(xs, [amount] * len(trace.steps), bottom=bottom, color=colour, label=label)
            bottom = [b + amount for b in bottom]
    befores = [step.before for step in trace.steps]
    ax.bar(xs, befores, bottom=bottom, color=BEFORE, label="already kept")
    bottom = [b + before for b, before in zip(bottom, befores)]
    for x, (step, base) in enumerate(zip(trace.steps, bottom)):
        colour, hatch = (KEPT, None) if step.kept else (SKIPPED, "//")
        ax.bar(x, step.cost, bottom=base, color=colour, hatch=hatch, edgecolor="white")
    ax.axhline(trace.limit, color=LIMIT, linestyle="--", linewidth=1.5, label=f"limit {trace.limit}")
    handles, _ = ax.get_legend_handles_labels()
    handles += [
        Patch(color=KEPT, label="candidate: kept"),
        Patch(facecolor=SKIPPED, hatch="//", edgecolor="white", label="candidate: skipped"),
    ]
    ax.set_xticks(list(xs), [step.label for step in trace.steps])
    ax.set_ylabel(trace.unit)
    ax.set_title(title or f"used {trace.used} of {trace.limit} {trace.unit}")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return fig


def _stacked_budget_bars(
    rows: list[tuple[str, list[tuple[str, int, str]]]],
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
        for label, amount, colour in parts:
            name = label.split(" (")[0]
            legend = f"{label} {amount}" if len(rows) == 1 else name
            ax.barh(
                [y],
                [amount],
                left=left,
                color=colour,
                edgecolor="white",
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


def plot_plan(plan: BudgetPlan) -> Figure:
    """Two bars against the budget: the sum of the per-section estimates, and the assembled prompt (the
    same sections plus their tags and blank lines, rounded once), each with the headroom it leaves."""
    sections = [(key, tokens, colour) for (key, _, tokens), colour in zip(plan.rows, SECTION_COLOURS)]
    summed = list(sections) + ([("headroom", plan.headroom, HEADROOM)] if plan.headroom > 0 else [])
    framing = plan.assembled_tokens - plan.total_tokens
    assembled = list(sections) + [("tags and blank lines", framing, FRAMING[0])]
    assembled += [("headroom", plan.assembled_headroom, HEADROOM)] if plan.assembled_headroom > 0 else []
    title = f"{plan.total_tokens} summed, {plan.assembled_tokens} assembled, of {plan.budget} tokens"
    return _stacked_budget_bars(
        [(f"summed {plan.total_tokens}", summed), (f"assembled {plan.assembled_tokens}", assembled)], plan.budget, title
    )


def plot_check(result: SectionCheck, sections: Mapping[str, str]) -> Figure:
    """Per-section estimates, the cost of tags and separators, and the headroom of an assembled prompt;
    the tags and separators are labelled, since at a roomy budget their slice is only a few pixels wide."""
    estimates = [
        (key, estimate_tokens(sections.get(key, "")), colour) for key, colour in zip(SECTION_ORDER, SECTION_COLOURS)
    ]
    parts = list(estimates)
    note = None
    if result.total is not None:
        framing = result.total - sum(e for _, e, _ in estimates)
        parts.append(("tags and separators", framing, FRAMING[0]))
        if framing < 0.05 * max(result.budget, result.total):  # too thin to see: point at it
            note = (f"tags and separators: {framing:+d} tokens", sum(e for _, e, _ in estimates), framing)
        if result.headroom and result.headroom > 0:
            parts.append(("headroom", result.headroom, HEADROOM))
    return _stacked_budget_bars([("", parts)], result.budget, result.message, note)
