"""Pack passages by re-measuring the complete rendered prompt with an injected counter."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from packer.validation import Passage, require_count, require_passages, require_str

Counter = Callable[[str], int]


def _render(question: str, passages: Sequence[Passage]) -> str:
    """Render without validation (callers have validated already)."""
    lines = "".join(f"[{key}] {text}\n" for key, text in passages)
    return f"Question: {question}\nSources:\n{lines}Answer:"


def render_prompt(question: str, passages: Any) -> str:
    """The exact prompt text: question, sources heading, one labelled line per passage, answer cue."""
    return _render(require_str("question", question), require_passages(passages))


def _measure(count: Counter, prompt: str) -> int:
    """Call the counter and insist on a non-negative int result."""
    result = count(prompt)
    if type(result) is not int or result < 0:
        raise ValueError(f"count must return a non-negative int, got {result!r}")
    return result


def pack_prompt(
    question: str, passages: Any, limit: int, count: Counter
) -> tuple[list[Passage], list[str], str]:
    """Return (chosen passages, skipped ids, measured prompt); every candidate is the whole prompt."""
    require_str("question", question)
    checked = require_passages(passages)
    require_count("limit", limit)
    if not callable(count):
        raise ValueError(f"count must be callable, got {type(count).__name__}")
    prompt = _render(question, [])
    base = _measure(count, prompt)
    if base > limit:
        raise ValueError(f"limit: the base prompt (question, heading, answer cue) measures {base}, over the limit of {limit}")
    chosen: list[Passage] = []
    skipped: list[str] = []
    for passage in checked:
        candidate = _render(question, chosen + [passage])
        if _measure(count, candidate) <= limit:
            chosen.append(passage)
            prompt = candidate
        else:
            skipped.append(passage[0])
    return chosen, skipped, prompt
