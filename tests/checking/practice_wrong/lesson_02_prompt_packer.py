"""Lesson 02's write points: wrong answers typical of each step, as a learner would write them (see __init__.py)."""

from __future__ import annotations

WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "p2.4": [
        (
            "stops at the first passage that does not fit",
            "def keep_or_skip(passages, limit, prompt_size):\n    chosen, skipped = [], []\n"
            "    for passage in passages:\n        if prompt_size(chosen + [passage]) > limit:\n            break\n"
            "        chosen.append(passage)\n    skipped = [key for key, _ in passages[len(chosen):]]\n"
            "    return chosen, skipped",
        ),
        (
            "refuses an exact fit",
            "def keep_or_skip(passages, limit, prompt_size):\n    chosen, skipped = [], []\n"
            "    for passage in passages:\n        if prompt_size(chosen + [passage]) < limit:\n"
            "            chosen.append(passage)\n        else:\n            skipped.append(passage[0])\n"
            "    return chosen, skipped",
        ),
        (
            "measures the candidate alone, forgetting what is already kept",
            "def keep_or_skip(passages, limit, prompt_size):\n    chosen, skipped = [], []\n"
            "    for passage in passages:\n        if prompt_size([passage]) <= limit:\n"
            "            chosen.append(passage)\n        else:\n            skipped.append(passage[0])\n"
            "    return chosen, skipped",
        ),
        (
            "adds each passage's growth of the bare prompt (the adding packer again)",
            "def keep_or_skip(passages, limit, prompt_size):\n    chosen, skipped = [], []\n"
            "    total = prompt_size([])\n    for passage in passages:\n"
            "        growth = prompt_size([passage]) - prompt_size([])\n        if total + growth <= limit:\n"
            "            chosen.append(passage)\n            total += growth\n        else:\n"
            "            skipped.append(passage[0])\n    return chosen, skipped",
        ),
    ],
    "p2.6": [
        ("folds only '\\n'", "def fold(text):\n    return text.replace('\\n', '\\n ')"),
        (
            "puts a space inside '\\r\\n'",
            "def fold(text):\n    return text.replace('\\r', '\\r ').replace('\\n', '\\n ')",
        ),
        (
            "joins the lines with a space: a break at the very end gets none",
            "def fold(text):\n    return ' '.join(text.splitlines(keepends=True))",
        ),
        (
            "turns every break into '\\n' and loses the last one",
            "def fold(text):\n    return '\\n '.join(text.splitlines())",
        ),
    ],
}
