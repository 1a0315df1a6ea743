"""Lesson 01's write point: wrong answers typical of its step, as a learner would write them (see __init__.py)."""

from __future__ import annotations

HEAD = "def context_budget(window, instructions, question, answer, max_chunks, separator_tokens):\n"

WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "p1.4": [
        (
            "one separator per chunk",
            HEAD + "    return window - instructions - question - answer - max_chunks * separator_tokens",
        ),
        (
            "k - 1 separators even when there are no chunks (a reserve of -1 adds budget)",
            HEAD + "    return window - instructions - question - answer - (max_chunks - 1) * separator_tokens",
        ),
        (
            "forgets the answer's room",
            HEAD + "    return window - instructions - question - max(max_chunks - 1, 0) * separator_tokens",
        ),
        ("reserves nothing for the separators", HEAD + "    return window - instructions - question - answer"),
    ],
}
