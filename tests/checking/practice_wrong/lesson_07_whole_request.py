"""Lesson 07's write points: wrong answers typical of their steps, as a learner would write them (see __init__.py)."""

from __future__ import annotations

JSON = "import json\n\n\ndef json_string_bytes(text, ensure_ascii):\n"
PARTS = "def window_parts(measured, window, max_output):\n"

WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "p7.5": [
        ("counts the two quotes", JSON + "    return len(json.dumps(text, ensure_ascii=ensure_ascii).encode('utf-8'))"),
        ("counts characters, not bytes", JSON + "    return len(json.dumps(text, ensure_ascii=ensure_ascii)) - 2"),
        ("ignores ensure_ascii (json.dumps's default)", JSON + "    return len(json.dumps(text).encode('utf-8')) - 2"),
        ("counts the raw UTF-8 bytes, no escapes", JSON + "    return len(text.encode('utf-8'))"),
        (
            "writes an emoji as one six-byte escape",
            JSON + "    total = 0\n"
            "    for ch in text:\n"
            "        if ch in '\"\\n':\n"
            "            total += 2\n"
            "        elif ord(ch) < 128:\n"
            "            total += 1\n"
            "        else:\n"
            "            total += 6 if ensure_ascii else len(ch.encode('utf-8'))\n"
            "    return total",
        ),
    ],
    "p7.7": [
        (
            "takes each count as its part, not the difference",
            PARTS + "    parts = list(measured)\n"
            "    used = measured[-1][1]\n"
            "    return parts + [('output reserve', max_output), ('headroom', window - max_output - used)]",
        ),
        (
            "leaves the reserve out of the headroom",
            PARTS + "    parts, before = [], 0\n"
            "    for name, count in measured:\n"
            "        parts.append((name, count - before))\n"
            "        before = count\n"
            "    return parts + [('output reserve', max_output), ('headroom', window - before)]",
        ),
        (
            "takes the headroom from the sum of the counts",
            PARTS + "    parts, before = [], 0\n"
            "    for name, count in measured:\n"
            "        parts.append((name, count - before))\n"
            "        before = count\n"
            "    used = sum(count for _, count in measured)\n"
            "    return parts + [('output reserve', max_output), ('headroom', window - max_output - used)]",
        ),
        (
            "starts at the second count, losing the first part",
            PARTS
            + "    parts = [(measured[i][0], measured[i][1] - measured[i - 1][1]) for i in range(1, len(measured))]\n"
            "    return parts + [('output reserve', max_output), ('headroom', window - max_output - measured[-1][1])]",
        ),
    ],
}
