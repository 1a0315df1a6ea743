"""Counters to inject into pack_prompt. None of them is a model tokenizer."""

from __future__ import annotations

from collections.abc import Callable

from packer.section_budget import estimate_tokens


def count_words(text: str) -> int:
    """Whitespace-separated words: the seed fixture's unit, deliberately NOT model tokens."""
    return len(text.split())


def count_utf8_bytes(text: str) -> int:
    """Length of the text encoded as UTF-8, in bytes."""
    return len(text.encode("utf-8"))


def count_chars_div4(text: str) -> int:
    """The chars/4 planning estimate, rounded up."""
    return estimate_tokens(text)


COUNTERS: dict[str, Callable[[str], int]] = {
    "whitespace words (fixture, not tokens)": count_words,
    "UTF-8 bytes": count_utf8_bytes,
    "chars/4 estimate": count_chars_div4,
}
