"""Figures for the lessons: each candidate against the budget, and a prompt's sections against theirs."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Patch

from packer.section_budget import SECTION_ORDER, BudgetPlan, SectionCheck, estimate_tokens
from packer.lab.trace import Trace

KEPT, SKIPPED, BEFORE, LIMIT = "#2a9d8f", "#e76f51", "#d9d9d9", "#264653"
FRAMING = ("#8d99ae", "#b8c0ff", "#ffd166")
SECTION_COLOURS = ("#264653", "#2a9d8f", "#e9c46a", "#f4a261", "#e76f51")


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
    handles += [Patch(color=KEPT, label="candidate: kept"),
                Patch(facecolor=SKIPPED, hatch="//", edgecolor="white", label="candidate: skipped")]
    ax.set_xticks(list(xs), [step.label for step in trace.steps])
    ax.set_ylabel(trace.unit)
    ax.set_title(title or f"used {trace.used} of {trace.limit} {trace.unit}")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return fig


def _stacked_budget_bar(parts: list[tuple[str, int, str]], budget: int, title: str) -> Figure:
    """A single horizontal bar of labelled parts against a budget line."""
    fig = Figure(figsize=(7.0, 2.0), dpi=80)
    fig.subplots_adjust(left=0.03, right=0.66, bottom=0.25, top=0.85)
    ax = fig.add_subplot()
    left = 0
    for label, amount, colour in parts:
        ax.barh([0], [amount], left=left, color=colour, label=f"{label} {amount}", edgecolor="white")
        left += amount
    ax.axvline(budget, color=LIMIT, linestyle="--", linewidth=1.5, label=f"budget {budget}")
    ax.set_yticks([])
    ax.set_xlabel("estimated tokens (chars/4)")
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return fig


def plot_plan(plan: BudgetPlan) -> Figure:
    """The planned tokens of each section stacked against the budget, with the headroom left over."""
    parts = [(key, tokens, colour) for (key, _, tokens), colour in zip(plan.rows, SECTION_COLOURS)]
    if plan.headroom > 0:
        parts.append(("headroom", plan.headroom, "#eeeeee"))
    title = f"{plan.total_tokens} of {plan.budget} tokens planned, headroom {plan.headroom} ({plan.headroom_share:.0%})"
    return _stacked_budget_bar(parts, plan.budget, title)


def plot_check(result: SectionCheck, sections: dict[str, str]) -> Figure:
    """Per-section estimates, the cost of tags and separators, and the headroom of an assembled prompt."""
    estimates = [(key, estimate_tokens(sections.get(key, "")), colour) for key, colour in zip(SECTION_ORDER, SECTION_COLOURS)]
    parts = list(estimates)
    if result.total is not None:
        parts.append(("tags and separators", result.total - sum(e for _, e, _ in estimates), FRAMING[0]))
        if result.headroom and result.headroom > 0:
            parts.append(("headroom", result.headroom, "#eeeeee"))
    return _stacked_budget_bar(parts, result.budget, result.message)
