"""Lesson 09's write point: wrong answers typical of its step, as a learner would write them (see __init__.py)."""

from __future__ import annotations

HEAD = "def kept_turns(base, costs, limit):\n    used, kept = base, 0\n"

WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "p9.2": [
        (
            "skips a turn that does not fit and goes on to older ones",
            HEAD + "    for cost in reversed(costs):\n"
            "        if used + cost <= limit:\n"
            "            used += cost\n"
            "            kept += 1\n"
            "    return kept",
        ),
        (
            "keeps the oldest turns first",
            HEAD + "    for cost in costs:\n"
            "        if used + cost > limit:\n"
            "            break\n"
            "        used += cost\n"
            "        kept += 1\n"
            "    return kept",
        ),
        (
            "forgets the system prompt and the latest turn",
            "def kept_turns(base, costs, limit):\n    used, kept = 0, 0\n"
            "    for cost in reversed(costs):\n"
            "        if used + cost > limit:\n"
            "            break\n"
            "        used += cost\n"
            "        kept += 1\n"
            "    return kept",
        ),
        (
            "refuses an exact fit",
            HEAD + "    for cost in reversed(costs):\n"
            "        if used + cost >= limit:\n"
            "            break\n"
            "        used += cost\n"
            "        kept += 1\n"
            "    return kept",
        ),
        (
            "returns the turns dropped",
            HEAD + "    for cost in reversed(costs):\n"
            "        if used + cost > limit:\n"
            "            break\n"
            "        used += cost\n"
            "        kept += 1\n"
            "    return len(costs) - kept",
        ),
    ],
}
