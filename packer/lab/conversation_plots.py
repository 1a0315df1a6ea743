"""Figures for lesson 09: how many turns each trimming policy keeps as the budget grows, each request's tokens
and the prefix it shares with the one before, and the cached share against the turns kept. Each plot_* function
returns the figure with a text description written by the describe_* function beside it, from the same data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure

from packer.lab.conversation import Step
from packer.lab.figures import (
    EDGE,
    BLACK,
    BLUE,
    BLUISH_GREEN,
    GREY,
    LIGHT_GREY,
    LINE_STYLES,
    ORANGE,
    REDDISH_PURPLE,
    VERMILLION,
    DescribedFigure,
    figure_with,
    ranks_text,
)

POLICY_COLOURS = (BLUE, BLUISH_GREEN, VERMILLION, REDDISH_PURPLE, ORANGE)
MARKER_WORDS = {"o": "circles", "s": "squares", "^": "triangles", "D": "diamonds"}


def describe_turns_kept(budgets: Sequence[int], kept: Mapping[str, Sequence[int]], turns: int) -> str:
    """What plot_turns_kept shows, in words: each policy's turns kept at each budget."""
    rows = [
        f"{name} ({MARKER_WORDS[marker]}): " + ", ".join(f"{v} at {b}" for b, v in zip(budgets, values))
        for (name, values), marker in zip(kept.items(), "os^D")
    ]
    return (
        f"Line chart of the turns kept, of {turns} (a dotted line), against the budget in tokens, one line per "
        f"policy. {'; '.join(rows)}."
    )


def plot_turns_kept(budgets: Sequence[int], kept: Mapping[str, Sequence[int]], turns: int) -> DescribedFigure:
    """Turns kept of `turns`, per policy, at each budget."""
    fig = Figure(figsize=(7.2, 3.4), dpi=80)
    fig.subplots_adjust(left=0.1, right=0.97, bottom=0.15, top=0.88)
    ax = fig.add_subplot()
    for (name, values), colour, marker, style in zip(kept.items(), POLICY_COLOURS, "os^D", LINE_STYLES):
        ax.plot(budgets, values, marker=marker, color=colour, linestyle=style, label=name)
    ax.axhline(turns, color=GREY, linestyle=":", linewidth=1)
    ax.set_ylim(0, turns + 2)
    ax.set_xlabel("budget (Mistral v7 tokens, the whole request with the search tool)")
    ax.set_ylabel(f"turns kept (of {turns})")
    ax.legend(loc="lower right", fontsize=8, frameon=False)
    ax.set_title(f"the agent's {turns} turns: how many each policy keeps")
    return figure_with(fig, describe_turns_kept(budgets, kept, turns))


def describe_steps(steps: Sequence[Step], limit: int, title: str) -> str:
    """What plot_steps shows, in words: the requests' sizes, what they share and what is cached, in totals."""
    tokens = sum(s.tokens for s in steps)
    shared, cached = sum(s.prefix for s in steps), sum(s.cached for s in steps)
    over = sum(s.tokens > limit for s in steps)
    drops = [i for i, (before, s) in enumerate(zip(steps, steps[1:]), 2) if s.turns <= before.turns]
    return (
        f"Bar chart, {title}: one bar per request (turns 1 to {len(steps)}): its tokens (grey), the part it shares "
        f"with the previous request (green, striped) and the part OpenAI's published rule for models before GPT-5.6 counts as cached "
        f"(outlined), with a dashed line at the limit, {limit} tokens. Requests run from "
        f"{min((s.tokens for s in steps), default=0)} to {max((s.tokens for s in steps), default=0)} tokens; "
        f"{over} of {len(steps)} are over the limit. In all {tokens} tokens sent, {shared} shared with the "
        f"request before, {cached} cached ({cached / tokens if tokens else 0:.1%}). "
        + (
            f"A turn is dropped before the requests at turns {ranks_text(drops)} (each keeps no more turns than the "
            f"one before); there the shared part is {min(steps[i - 1].prefix for i in drops)} to "
            f"{max(steps[i - 1].prefix for i in drops)} tokens."
            if drops
            else "No turn is dropped: each request keeps one turn more than the one before."
        )
    )


def plot_steps(steps: Sequence[Step], limit: int, title: str) -> DescribedFigure:
    """Each request of a run: its tokens (light), the prefix it shares with the previous one (green, striped), and
    the part OpenAI's published rule would count as cached (outlined)."""
    fig = Figure(figsize=(7.2, 3.0), dpi=80)
    fig.subplots_adjust(left=0.1, right=0.97, bottom=0.17, top=0.86)
    ax = fig.add_subplot()
    x = range(1, len(steps) + 1)
    ax.bar(x, [s.tokens for s in steps], color=LIGHT_GREY, label="request tokens")
    ax.bar(
        x,
        [s.prefix for s in steps],
        color=POLICY_COLOURS[1],
        hatch="//",
        edgecolor=EDGE,
        linewidth=0,
        label="shared with the previous request",
    )
    ax.bar(
        x,
        [s.cached for s in steps],
        fill=False,
        edgecolor=BLACK,
        linewidth=0.8,
        label="cached (OpenAI's rule before GPT-5.6)",
    )
    ax.axhline(limit, color=POLICY_COLOURS[2], linestyle="--", linewidth=1, label=f"limit {limit}")
    ax.set_xlabel("turn (one request per turn)")
    ax.set_ylabel("tokens")
    ax.set_xlim(0.4, len(steps) + 0.6)
    ax.set_ylim(0, 1.45 * max(limit, max((s.tokens for s in steps), default=0)))  # room for the legend
    ax.legend(loc="upper left", fontsize=7, frameon=False, ncol=2)
    ax.set_title(title, fontsize=10)
    return figure_with(fig, describe_steps(steps, limit, title))


def describe_cache_tradeoff(points: Sequence[tuple[str, float, float]]) -> str:
    """What plot_cache_tradeoff shows, in words: each run's mean turns kept and cached share."""
    watermark = [p for p in points if p[0].startswith("low")]
    others = [p for p in points if not p[0].startswith("low")]
    text = "; ".join(f"{label}: {turns:.1f} turns, {share:.1%} cached" for label, turns, share in watermark)
    rest = "; ".join(f"{label}: {turns:.1f} turns, {share:.1%} cached" for label, turns, share in others)
    return (
        "Scatter plot of the share of input tokens cached (OpenAI's rule before GPT-5.6) against the turns kept per request "
        f"(mean over the run), each point labelled. Trimming to a lower watermark when over (circles joined by a "
        f"line): {text}. Other policies (squares): {rest}."
    )


def plot_cache_tradeoff(points: Sequence[tuple[str, float, float]], highlight: int = 0) -> DescribedFigure:
    """(label, mean turns kept, cached share) per run: the watermark runs joined by a line, the others apart."""
    fig = Figure(figsize=(7.2, 3.6), dpi=80)
    fig.subplots_adjust(left=0.11, right=0.97, bottom=0.15, top=0.88)
    ax = fig.add_subplot()
    line = [(t, s) for label, t, s in points if label.startswith("low")]
    if line:
        ax.plot(*zip(*line), "o-", color=POLICY_COLOURS[1], label="trim to a lower watermark when over")
    for label, turns, share in points:
        watermark = label.startswith("low")
        ax.plot([turns], [share], "o" if watermark else "s", color=POLICY_COLOURS[1 if watermark else 2])
        offset = (5, 4) if watermark else (-5, -13)  # other policies' labels below, so that none overlap
        ax.annotate(
            label,
            (turns, share),
            textcoords="offset points",
            xytext=offset,
            fontsize=8,
            ha="left" if watermark else "right",
        )
    xs = [turns for _, turns, _ in points]
    ax.set_xlim(min(xs) - 0.5, max(xs) + 1.0)
    ax.set_ylim(0, 1)
    ax.set_xlabel("turns kept per request (mean over the run)")
    ax.set_ylabel("input tokens cached (OpenAI's rule before GPT-5.6)")
    ax.set_title("trimming one turn at every step against trimming several, rarely")
    ax.legend(loc="lower left", fontsize=8, frameon=False)
    return figure_with(fig, describe_cache_tradeoff(points))
