"""Reference versions of the exercise variants: each changes one rule of a lesson's packer."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from packer.chunks import chunk_parts
from packer.prompt import _render, pack_prompt
from packer.section_budget import plan_budget
from packer.utf8 import pack_utf8
from packer.validation import require_count, require_list, require_passages, require_str


def assemble_prefix(chunks: Any, max_tokens: int, separator: str = "\n\n") -> tuple[str, int]:
    """Like assemble_context, but stop at the first chunk that does not fit (a strict relevance prefix)."""
    require_count("max_tokens", max_tokens)
    require_str("separator", separator)
    parts = chunk_parts(chunks)
    selected, used = [], 0
    for text, cost in parts:
        if used + cost > max_tokens:
            break
        selected.append(text)
        used += cost
    return separator.join(selected), used


def assemble_charged(chunks: Any, max_tokens: int, separator_tokens: int) -> tuple[str, int]:
    """Like assemble_context, but every separator between two kept chunks costs separator_tokens."""
    require_count("max_tokens", max_tokens)
    require_count("separator_tokens", separator_tokens)
    parts = chunk_parts(chunks)
    selected, used = [], 0
    for text, cost in parts:
        extra = cost + (separator_tokens if selected else 0)
        if used + extra <= max_tokens:
            selected.append(text)
            used += extra
    return "\n\n".join(selected), used


def pack_utf8_report(passages: Any, limit: int, reserve: int) -> tuple[str, list[str], list[str]]:
    """pack_utf8 that also reports the ids it skipped, in order (passages may be any ordered iterable:
    it is read once, so a generator's passages are not lost to a second pass)."""
    passages = require_list("passages", passages)
    text, kept = pack_utf8(passages, limit, reserve)
    kept_set = set(kept)
    return text, kept, [key for key, _ in passages if key not in kept_set]


def plan_headroom(section_chars: Mapping[str, int], budget: int) -> tuple[int, int, int]:
    """(planned tokens, headroom tokens, headroom as a whole percent of the budget, rounded down)."""
    plan = plan_budget(section_chars, budget)
    return plan.total_tokens, plan.headroom, plan.headroom * 100 // plan.budget


def pack_until_overflow(question: str, passages: Any, limit: int, count: Any) -> list[str]:
    """Like pack_prompt, but stop at the first passage whose candidate prompt is over the limit; the kept ids."""
    chosen, _, _ = pack_prompt(question, passages, limit, count)  # validates exactly as pack_prompt does
    kept: list[tuple[str, str]] = []
    for key, text in require_passages(passages):
        if count(_render(question, kept + [(key, text)])) > limit:
            break
        kept.append((key, text))
    return [key for key, _ in kept]


def knapsack_value(costs: list[int], values: list[int], capacity: int) -> int:
    """The largest total value of items, each used at most once, whose costs sum to at most capacity."""
    best = [0] * (capacity + 1)
    for cost, value in zip(costs, values):
        for room in range(capacity, cost - 1, -1):
            best[room] = max(best[room], best[room - cost] + value)
    return best[capacity]


def exact(number: float) -> Fraction:
    """A number as the exact fraction it is written as: exact(0.28) is 7/25 (the float 0.28 is a hair
    above that, which makes 0.28 * 25 come out as 7.000000000000001)."""
    return Fraction(str(number))


def above_cutoff(scored: list[tuple[str, float]], share: float) -> list[str]:
    """The ids, in order, of the passages scoring at least `share` times the best score, compared exactly."""
    best = max((exact(score) for _, score in scored), default=Fraction(0))
    bar = exact(share) * best
    return [key for key, score in scored if exact(score) >= bar]


def fits(input_tokens: int, max_output: int, window: int) -> bool:
    """Whether a request of input_tokens leaves max_output tokens for the answer: input + max_output <= window."""
    require_count("input_tokens", input_tokens)
    require_count("max_output", max_output)
    require_count("window", window)
    return input_tokens + max_output <= window
