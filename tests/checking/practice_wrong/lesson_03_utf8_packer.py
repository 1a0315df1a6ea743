"""Lesson 03's write point: wrong answers typical of its step, as a learner would write them (see __init__.py)."""

from __future__ import annotations

IMPORTS = "HEADER = 'Sources:\\n'\n\n\ndef nbytes(text):\n    return len(text.encode('utf-8'))\n\n\n"


def _kept_ids(body: str) -> str:
    """A cell defining kept_ids(passages, limit, reserve) with this body, and the lesson's helpers above it."""
    return IMPORTS + "def kept_ids(passages, limit, reserve):\n" + body


WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "p3.4": [
        (
            "counts characters, as Step 1 did",
            _kept_ids(
                "    used, kept = len(HEADER), []\n    for key, text in passages:\n"
                '        size = len(f"[{key}] {text}\\n")\n        if used + size + reserve <= limit:\n'
                "            used += size\n            kept.append(key)\n    return kept\n"
            ),
        ),
        (
            "forgets the header: the total starts at 0",
            _kept_ids(
                "    used, kept = 0, []\n    for key, text in passages:\n"
                '        size = nbytes(f"[{key}] {text}\\n")\n        if used + size + reserve <= limit:\n'
                "            used += size\n            kept.append(key)\n    return kept\n"
            ),
        ),
        (
            "measures the bare text, not the line with its label and newline",
            _kept_ids(
                "    used, kept = nbytes(HEADER), []\n    for key, text in passages:\n"
                "        size = nbytes(text)\n        if used + size + reserve <= limit:\n"
                "            used += size\n            kept.append(key)\n    return kept\n"
            ),
        ),
        (
            "stops at the first passage that does not fit",
            _kept_ids(
                "    used, kept = nbytes(HEADER), []\n    for key, text in passages:\n"
                '        size = nbytes(f"[{key}] {text}\\n")\n        if used + size + reserve > limit:\n'
                "            break\n        used += size\n        kept.append(key)\n    return kept\n"
            ),
        ),
        (
            "charges 5 bytes of framing, right for a one-letter id only",
            _kept_ids(
                "    used, kept = nbytes(HEADER), []\n    for key, text in passages:\n"
                "        size = 5 + nbytes(text)\n        if used + size + reserve <= limit:\n"
                "            used += size\n            kept.append(key)\n    return kept\n"
            ),
        ),
        (
            "leaves out the reserve",
            _kept_ids(
                "    used, kept = nbytes(HEADER), []\n    for key, text in passages:\n"
                '        size = nbytes(f"[{key}] {text}\\n")\n        if used + size <= limit:\n'
                "            used += size\n            kept.append(key)\n    return kept\n"
            ),
        ),
        (
            "refuses the exact fit (< for <=)",
            _kept_ids(
                "    used, kept = nbytes(HEADER), []\n    for key, text in passages:\n"
                '        size = nbytes(f"[{key}] {text}\\n")\n        if used + size + reserve < limit:\n'
                "            used += size\n            kept.append(key)\n    return kept\n"
            ),
        ),
        (
            "never adds a kept line to the total",
            _kept_ids(
                "    used, kept = nbytes(HEADER), []\n    for key, text in passages:\n"
                '        size = nbytes(f"[{key}] {text}\\n")\n        if used + size + reserve <= limit:\n'
                "            kept.append(key)\n    return kept\n"
            ),
        ),
    ],
}
