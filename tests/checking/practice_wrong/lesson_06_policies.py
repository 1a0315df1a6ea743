"""Lesson 06's write point: wrong answers typical of its step, as a learner would write them (see __init__.py)."""

from __future__ import annotations


def _bm25(loop: str, term: str) -> str:
    """A bm25 answer looping `loop` over the query words and adding `term` for each one the passage holds."""
    return (
        "def bm25(query_words, passage_words, idf, average):\n"
        "    length = len(passage_words)\n"
        "    score = 0.0\n"
        f"    for t in {loop}:\n"
        "        f = passage_words.count(t)\n"
        "        if f:\n"
        f"            score += {term}\n"
        "    return score"
    )


RIGHT_TERM = "idf[t] * f * (1.5 + 1) / (f + 1.5 * (1 - 0.75 + 0.75 * length / average))"

WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "p6.1": [
        ("counts a repeated query word twice", _bm25("query_words", RIGHT_TERM)),
        ("lets f count in full, with no diminishing returns", _bm25("set(query_words)", "idf[t] * f")),
        (
            "turns the length normalisation upside down",
            _bm25("set(query_words)", "idf[t] * f * (1.5 + 1) / (f + 1.5 * (1 - 0.75 + 0.75 * average / length))"),
        ),
        (
            "leaves out k1 + 1",
            _bm25("set(query_words)", "idf[t] * f / (f + 1.5 * (1 - 0.75 + 0.75 * length / average))"),
        ),
        (
            "weighs the length by 1 - b and the rest by b",
            _bm25("set(query_words)", "idf[t] * f * (1.5 + 1) / (f + 1.5 * (0.75 + (1 - 0.75) * length / average))"),
        ),
    ],
}
