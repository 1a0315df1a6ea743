"""Figures for lesson 09: how many turns each trimming policy keeps as the budget grows, each request's tokens
and the prefix it shares with the one before, and the cached share against the turns kept."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure

from packer.lab.conversation import Step

POLICY_COLOURS = ("#8d99ae", "#2a9d8f", "#e76f51", "#264653", "#e9c46a")


def plot_turns_kept(budgets: Sequence[int], kept: Mapping[str, Sequence[int]], turns: int) -> Figure:
    """Turns kept of `turns`, per policy, at each budget."""
    fig = Figure(figsize=(7.2, 3.4), dpi=80)
    fig.subplots_adjust(left=0.1, right=0.97, bottom=0.15, top=0.88)
    ax = fig.add_subplot()
    for (name, values), colour, marker in zip(kept.items(), POLICY_COLOURS, "os^D"):
        ax.plot(budgets, values, marker=marker, color=colour, label=name)
    ax.axhline(turns, color="#adb5bd", linestyle=":", linewidth=1)
    ax.set_ylim(0, turns + 2)
    ax.set_xlabel("budget (Mistral v7 tokens, the whole request with the search tool)")
    ax.set_ylabel(f"turns kept (of {turns})")
    ax.legend(loc="lower right", fontsize=8, frameon=False)
    ax.set_title("the agent's 30 turns: how many each policy keeps")
    return fig


def plot_steps(steps: Sequence[Step], limit: int, title: str) -> Figure:
    """Each request of a run: its tokens (light), the prefix it shares with the previous one (dark), and the part
    OpenAI's published rule would count as cached (outlined)."""
    fig = Figure(figsize=(7.2, 3.0), dpi=80)
    fig.subplots_adjust(left=0.1, right=0.97, bottom=0.17, top=0.86)
    ax = fig.add_subplot()
    x = range(1, len(steps) + 1)
    ax.bar(x, [s.tokens for s in steps], color="#ced4da", label="request tokens")
    ax.bar(x, [s.prefix for s in steps], color=POLICY_COLOURS[1], label="shared with the previous request")
    ax.bar(x, [s.cached for s in steps], fill=False, edgecolor="#264653", linewidth=0.8, label="cached (OpenAI's rule)")
    ax.axhline(limit, color=POLICY_COLOURS[2], linestyle="--", linewidth=1, label=f"limit {limit}")
    ax.set_xlabel("turn (one request per turn)")
    ax.set_ylabel("tokens")
    ax.set_xlim(0.4, len(steps) + 0.6)
    ax.set_ylim(0, 1.45 * max(limit, max((s.tokens for s in steps), default=0)))  # room for the legend
    ax.legend(loc="upper left", fontsize=7, frameon=False, ncol=2)
    ax.set_title(title, fontsize=10)
    return fig


def plot_cache_tradeoff(points: Sequence[tuple[str, float, float]], highlight: int = 0) -> Figure:
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
    ax.set_ylabel("input tokens cached (OpenAI's rule)")
    ax.set_title("trimming one turn at every step against trimming several, rarely")
    ax.legend(loc="lower left", fontsize=8, frameon=False)
    return fig
