"""Lesson 00's write point: wrong answers typical of its step, as a learner would write them (see __init__.py)."""

from __future__ import annotations

WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "p0.2": [
        ("counts the texts' characters", "def total_tokens(chunks):\n    return sum(len(c['text']) for c in chunks)"),
        ("counts the chunks", "def total_tokens(chunks):\n    return len(chunks)"),
        (
            "stops at an empty text",
            "def total_tokens(chunks):\n    total = 0\n    for c in chunks:\n        if not c['text']:\n"
            "            break\n        total += c['token_count']\n    return total",
        ),
    ],
}
