"""Lesson 08's write point: wrong answers typical of its step, as a learner would write them (see __init__.py)."""

from __future__ import annotations

HEAD = "def shingles_of(words, size):\n"

WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "p8.3": [
        (
            "stops one run early (range(len(words) - size))",
            HEAD + "    if len(words) < size:\n        return {tuple(words)} if words else set()\n"
            "    return {tuple(words[i : i + size]) for i in range(len(words) - size)}",
        ),
        (
            "joins each run into a string",
            HEAD + "    if len(words) < size:\n        return {' '.join(words)} if words else set()\n"
            "    return {' '.join(words[i : i + size]) for i in range(len(words) - size + 1)}",
        ),
        (
            "gives a short text no shingles",
            HEAD + "    return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}",
        ),
        (
            "gives no words one empty shingle",
            HEAD + "    if len(words) < size:\n        return {tuple(words)}\n"
            "    return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}",
        ),
        (
            "returns a list, repeats and all",
            HEAD + "    if len(words) < size:\n        return [tuple(words)] if words else []\n"
            "    return [tuple(words[i : i + size]) for i in range(len(words) - size + 1)]",
        ),
    ],
}
