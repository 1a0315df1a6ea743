"""What must stay: a prompt made of parts with priorities, packed by re-measuring the whole rendered prompt.

Tools such as priompt (https://github.com/anysphere/priompt) and Microsoft's prompt-tsx
(https://github.com/microsoft/vscode-prompt-tsx) give each part of a prompt a priority: what must be there
always fits or the prompt is refused, and optional parts are cut lowest priority first. `pack_parts` does that
exactly, in the way of `pack_prompt`: it renders the prompt of every candidate cutoff, from the highest
priority down, measures the whole text with the injected counter, and stops at the first cutoff whose prompt
does not fit. Parts of one priority go in or out together, and a part may reserve tokens for something that
is not in the prompt yet (the answer). Every prompt it accepted would fit a larger budget too, so raising the
budget never removes a part.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from packer.prompt import _line, _measure, fold
from packer.validation import require_count, require_list, require_passages, require_str

Counter = Callable[[str], int]


class Part(NamedTuple):
    """One piece of the prompt, in the order it is written: name, text, priority (higher stays longer), whether
    it is required, and tokens it reserves for what comes after the prompt (the answer)."""

    name: str
    text: str
    priority: int = 0
    required: bool = False
    reserve: int = 0


def require_parts(parts: Any) -> list[Part]:
    """Check every part (a Part or a tuple of its fields), naming the first bad one; names are unique."""
    checked: list[Part] = []
    for index, item in enumerate(require_list("parts", parts)):
        where = f"part {index}"
        if not isinstance(item, tuple) or not 2 <= len(item) <= 5:
            raise ValueError(f"{where}: expected a Part or (name, text, priority, required, reserve), got {item!r}")
        part = Part(*item)
        if not isinstance(part.name, str) or not part.name:
            raise ValueError(f"{where}: name must be a non-empty str, got {part.name!r}")
        where = f"part {index} ({part.name!r})"
        if part.name in {p.name for p in checked}:
            raise ValueError(f"{where}: duplicate name")
        if not isinstance(part.text, str):
            raise ValueError(f"{where}: text must be a str, got {type(part.text).__name__}")
        if type(part.priority) is not int:
            raise ValueError(f"{where}: priority must be an int, got {part.priority!r}")
        if type(part.required) is not bool:
            raise ValueError(f"{where}: required must be True or False, got {part.required!r}")
        require_count(f"{where}: reserve", part.reserve)
        checked.append(part)
    return checked


def render_parts(parts: list[Part], kept: set[str]) -> str:
    """The prompt of the kept parts: their texts, in the parts' order, joined with nothing between them."""
    return "".join(part.text for part in parts if part.name in kept)


def pack_parts(parts: Any, limit: int, count: Counter) -> tuple[list[str], list[str], str]:
    """(kept names, cut names, prompt), both lists in the parts' order: the required parts, then each lower
    priority in turn while the whole prompt measured plus the kept parts' reserves stays within the limit."""
    checked = require_parts(parts)
    require_count("limit", limit)
    if not callable(count):
        raise ValueError(f"count must be callable, got {type(count).__name__}")

    def cost(kept: set[str]) -> int:
        reserved = sum(part.reserve for part in checked if part.name in kept)
        return _measure(count, render_parts(checked, kept)) + reserved

    kept = {part.name for part in checked if part.required}
    needed = cost(kept)
    if needed > limit:
        raise ValueError(
            f"limit: the required parts ({', '.join(sorted(kept)) or 'none'}) need {needed} with their reserves,"
            f" over the limit of {limit}"
        )
    for level in sorted({part.priority for part in checked if not part.required}, reverse=True):
        candidate = kept | {part.name for part in checked if not part.required and part.priority == level}
        if cost(candidate) > limit:
            break  # cut this priority and every lower one
        kept = candidate
    names = [part.name for part in checked]
    return [n for n in names if n in kept], [n for n in names if n not in kept], render_parts(checked, kept)


def passage_parts(question: str, passages: Any, answer_reserve: int = 0) -> list[Part]:
    """Lesson 02's prompt as parts: the question, the heading and the answer cue required (the cue reserving
    room for the answer), each passage optional with a priority that falls with its rank."""
    checked = require_passages(passages)
    return [
        Part("question", f"Question: {fold(require_str('question', question))}\n", required=True),
        Part("sources", "Sources:\n", required=True),
        *(Part(key, _line(key, text), len(checked) - rank) for rank, (key, text) in enumerate(checked)),
        Part("answer", "Answer:", required=True, reserve=require_count("answer_reserve", answer_reserve)),
    ]
