"""Summarising instead of dropping: the dropped turns give way to one short turn that says what they held.

`pack_with_summary` trims a conversation as pack_history does, oldest turns first, but puts a summary turn in
their place, right after the system prompt: the user's message "Summary of the earlier conversation: <text>"
and the assistant's "Noted.". A pair, not a second system message: group_turns allows one system message, and
Mistral's v1-v3 templates do not keep a system message where it stands (mistral-common joins every system
message into one system prompt and puts it into the first user message for v1, the last for v2 and v3). A
user turn renders alike under every template and is a complete turn, so the fast path of packer/history.py
holds for it too. The summary counts against the budget like everything else: the request with the summary
and the kept turns must fit.

The summary's text comes from `summarize(dropped turns) -> str`. The default, `first_sentences`, is
extractive and deterministic (no model is called): the first sentence of each dropped turn's user message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from packer.messages import Message, content_text
from packer.history import (
    History,
    RequestCounter,
    counts_that_fit,
    flatten,
    group_turns,
    measure,
    measure_base,
    require_counter,
    turn_cost,
)
from packer.validation import require_count, require_str

Summarize = Callable[[list[list[Message]]], str]
SUMMARY_INTRO = "Summary of the earlier conversation: "
ACKNOWLEDGEMENT = "Noted."
SENTENCE_END = re.compile(r"(?<=[.!?])\s|\n")  # a full stop, question or exclamation mark then a space, or a line break


def first_sentence(text: str) -> str:
    """The text up to its first sentence end (., ! or ? before whitespace) or line break, stripped."""
    return SENTENCE_END.split(text.strip())[0].strip()


def first_sentences(turns: list[list[Message]]) -> str:
    """The first sentence of each turn's user message (its text), in order, joined by spaces."""
    return " ".join(first_sentence(content_text(turn[0])) for turn in turns)


def summary_turn(text: str) -> list[Message]:
    """The turn that stands in for the dropped ones: the summary as the user's message, and the reply "Noted."."""
    return [{"role": "user", "content": SUMMARY_INTRO + text}, {"role": "assistant", "content": ACKNOWLEDGEMENT}]


def pack_with_summary(
    messages: Any, limit: int, count: RequestCounter, summarize: Summarize = first_sentences
) -> History:
    """Drop whole turns, oldest first, and put a summary turn of the dropped ones after the system prompt, until the
    whole request fits: History(request, dropped turns, summary text). A conversation that fits is kept whole,
    with no summary; when even the latest turn alone leaves no room for the summary, it is left out."""
    system, turns = group_turns(messages)
    require_count("limit", limit)
    require_counter(count)
    if not callable(summarize):
        raise ValueError(f"summarize must be callable, got {type(summarize).__name__}")
    base = measure_base(count, system, turns, limit)

    def candidate(k: int) -> tuple[str, list[Message]]:
        text = require_str("summarize's result", summarize(turns[:k]))
        return text, summary_turn(text)

    fits = counts_that_fit(count, system, turns, limit, base)
    if fits is not None:
        first = len(turns) - len(fits)
        if first == 0:
            return History(system + flatten(turns), [])
        cost = turn_cost(count)
        for k in range(first, len(turns)):
            text, summary = candidate(k)
            if fits[k - first] + cost(summary) <= limit:
                return History(system + summary + flatten(turns[k:]), turns[:k], text)
    else:
        if measure(count, system + flatten(turns)) <= limit:
            return History(system + flatten(turns), [])
        for k in range(1, len(turns)):
            text, summary = candidate(k)
            if measure(count, system + summary + flatten(turns[k:])) <= limit:
                return History(system + summary + flatten(turns[k:]), turns[:k], text)
    return History(system + turns[-1], turns[:-1])
