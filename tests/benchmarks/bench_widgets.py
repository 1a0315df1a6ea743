"""Measure how long an explorer takes to answer a slider move on the lesson data (target: well under 100 ms).

Run with `make bench-widgets`. Each number is the median over repeated moves of: recompute the view
(pack + trace + table + figure) and render its figure to PNG (packer.lab.widgets.png_bytes), which is what
the explorer shows.
"""

from __future__ import annotations

import statistics
import time

from packer.section_budget import FIFO_EXAMPLE, STATED_SECTION_CHARS
from packer.lab.figures import png_bytes
from packer.lab.widgets import chunks_view, plan_view, prompt_view, sections_view, utf8_view

EXAMPLE = [
    {"text": "alpha", "token_count": 40},
    {"text": "bravo", "token_count": 30},
    {"text": "charlie", "token_count": 50},
    {"text": "delta", "token_count": 20},
]
PASSAGES = [("a", "one two"), ("b", "one two three four five"), ("c", "six")]
MIXED = [("a", "short é"), ("b", "日本語のテキスト" * 4), ("c", "日本"), ("d", "ok 🙂")]
MOVES = {
    "01 chunks (max_tokens)": lambda v: chunks_view(EXAMPLE, 60 + v),
    "02 prompt (limit, words)": lambda v: prompt_view(
        "why", PASSAGES, 8 + v % 6, "whitespace words (fixture, not tokens)"
    ),
    "03 utf8 (limit)": lambda v: utf8_view(MIXED, 40 + v, 4),
    "04 plan (context chars)": lambda v: plan_view(500, **{**STATED_SECTION_CHARS, "context": 600 + 10 * v}),
    "04 sections (budget)": lambda v: sections_view(80 + v, **FIFO_EXAMPLE),
}


def main() -> None:
    print(f"{'explorer':<28} {'view ms':>8} {'view + PNG ms':>14}")
    for name, move in MOVES.items():
        png_bytes(move(0).figure)  # warm up fonts and caches
        view_ms, total_ms = [], []
        for value in range(20):
            started = time.perf_counter()
            view = move(value)
            middle = time.perf_counter()
            png_bytes(view.figure)
            done = time.perf_counter()
            view_ms.append((middle - started) * 1000)
            total_ms.append((done - started) * 1000)
        print(f"{name:<28} {statistics.median(view_ms):>8.1f} {statistics.median(total_ms):>14.1f}")


if __name__ == "__main__":
    main()
