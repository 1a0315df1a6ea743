"""Reference answers for lesson 05's questions: headroom over an estimate, non-additive cuts, and a packer
that re-measures the joined context instead of adding counts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from packer.validation import require_count, require_str


def _require_a_list(name: str, value: Any) -> list:
    """`value` itself when it is a list (these questions ask for lists: a tuple, str or dict is refused)."""
    if not isinstance(value, list):
        raise ValueError(f"{name} must be a list, got {type(value).__name__}")
    return value


def headroom_percent(tokens: Any, estimates: Any, percent: int) -> int:
    """The smallest whole percent h with tokens <= estimate * (1 + h/100) for at least `percent` % of passages."""
    tokens, estimates = _require_a_list("tokens", tokens), _require_a_list("estimates", estimates)
    if not tokens or len(tokens) != len(estimates):
        raise ValueError(
            f"tokens and estimates must be non-empty and of equal length, got {len(tokens)} and {len(estimates)}"
        )
    for index, (t, e) in enumerate(zip(tokens, estimates)):
        require_count(f"tokens[{index}]", t)
        if type(e) is not int or e < 1:
            raise ValueError(f"estimates[{index}] must be a positive int, got {e!r}")
    if type(percent) is not int or not 1 <= percent <= 100:
        raise ValueError(f"percent must be an int from 1 to 100, got {percent!r}")
    needed = sorted(-((100 * (e - t)) // e) for t, e in zip(tokens, estimates))  # ceil(100 * (t - e) / e)
    return needed[-((-percent * len(needed)) // 100) - 1]  # nearest rank: position ceil(percent * n / 100)


def non_additive_cuts(passage: str, count: Callable[[str], int]) -> list[tuple[int, int, int]]:
    """(cut, tokens of the two parts, tokens of the whole) for every cut at either end of a whitespace run
    where the whole does not measure the sum of its parts."""
    require_str("passage", passage)
    cuts = sorted({i for i in range(1, len(passage)) if passage[i - 1].isspace() != passage[i].isspace()})
    whole = count(passage)
    found = []
    for cut in cuts:
        parts = count(passage[:cut]) + count(passage[cut:])
        if parts != whole:
            found.append((cut, parts, whole))
    return found


def assemble_measured(
    texts: Any, max_tokens: int, count: Callable[[str], int], separator: str = "\n\n"
) -> tuple[str, int]:
    """Lesson 01's skip-and-continue, but each candidate is kept only if the joined context, measured whole
    with `count`, stays within max_tokens; used is the measure of the returned context."""
    texts = _require_a_list("texts", texts)
    for index, text in enumerate(texts):
        require_str(f"texts[{index}]", text)
    require_count("max_tokens", max_tokens)
    require_str("separator", separator)
    if not callable(count):
        raise ValueError(f"count must be callable, got {type(count).__name__}")
    kept: list[str] = []
    used = 0
    for text in texts:
        measured = count(separator.join(kept + [text]))
        if type(measured) is not int or measured < 0:
            raise ValueError(f"count must return a non-negative int, got {measured!r}")
        if measured <= max_tokens:
            kept.append(text)
            used = measured
    return separator.join(kept), used
