"""Lesson 05's write point: wrong answers typical of its step, as a learner would write them (see __init__.py)."""

from __future__ import annotations

HEAD = "import math\n\n\ndef headroom_for(tokens, estimates, percent):\n"
NEEDED = "    needed = sorted(-(-100 * (t - e) // e) for t, e in zip(tokens, estimates))\n"
RANK = "    rank = -(-percent * len(needed) // 100)\n"

WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "p5.3": [
        (
            "plans for the average passage, not the percentile",
            HEAD + "    factors = [t / e for t, e in zip(tokens, estimates)]\n"
            "    return math.ceil(100 * sum(factors) / len(factors)) - 100\n",
        ),
        ("takes the worst passage whatever the percent", HEAD + NEEDED + "    return needed[-1]\n"),
        (
            "the rank one too far (the index p·n, floored, without the - 1)",
            HEAD + NEEDED + "    return needed[min(len(needed) - 1, percent * len(needed) // 100)]\n",
        ),
        (
            "rounds each need down",
            HEAD
            + "    needed = sorted(100 * (t - e) // e for t, e in zip(tokens, estimates))\n"
            + RANK
            + "    return needed[rank - 1]\n",
        ),
        (
            "uses chars/4 ÷ tokens, the other way up",
            HEAD
            + "    needed = sorted(-(-100 * (e - t) // t) for t, e in zip(tokens, estimates) if t)\n"
            + RANK
            + "    return needed[rank - 1]\n",
        ),
        (
            "rounds a float up: (t / e - 1) * 100 is 5.000000000000004 for 21 / 20",
            HEAD
            + "    needed = sorted(math.ceil((t / e - 1) * 100) for t, e in zip(tokens, estimates))\n"
            + RANK
            + "    return needed[rank - 1]\n",
        ),
    ],
}
