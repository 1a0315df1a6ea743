"""Measure pack_utf8 (tracks the byte length) against the re-encode-every-candidate baseline.

Run with `make bench`. Prints milliseconds per call for growing inputs; the linear packer's time grows
with the input, the baseline's with its square.
"""

from __future__ import annotations

import random
import timeit

from packer import pack_utf8
from packer.utf8 import HEADER, source_line


def pack_utf8_reencoding(passages: list[tuple[str, str]], limit: int, reserve: int) -> tuple[str, list[str]]:
    """Baseline: build each candidate payload and encode all of it again (quadratic in the input)."""
    text, kept = HEADER, []  # type: str, list[str]
    for key, passage in passages:
        candidate = text + source_line(key, passage)
        if len(candidate.encode("utf-8")) + reserve <= limit:
            text = candidate
            kept.append(key)
    return text, kept


def make_passages(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """n passages of 20-200 characters mixing ASCII, accented letters, CJK and emoji."""
    rng = random.Random(seed)
    alphabet = "abcdefghij klmnop éàü 日本語 🙂"
    return [(f"p{i}", "".join(rng.choices(alphabet, k=rng.randint(20, 200)))) for i in range(n)]


def main() -> None:
    """Print a table of ms per call for both packers; the budget admits about half of the input."""
    print(f"{'passages':>9} {'bytes':>9} {'linear ms':>10} {'baseline ms':>12} {'ratio':>6}")
    for n in (500, 1000, 2000, 4000, 8000):
        passages = make_passages(n)
        total = sum(len(source_line(k, t).encode()) for k, t in passages)
        limit = total // 2
        assert pack_utf8(passages, limit, 16) == pack_utf8_reencoding(passages, limit, 16)
        runs = 5 if n <= 2000 else 1
        fast = min(timeit.repeat(lambda p=passages, b=limit: pack_utf8(p, b, 16), number=1, repeat=runs)) * 1000
        slow = (
            min(timeit.repeat(lambda p=passages, b=limit: pack_utf8_reencoding(p, b, 16), number=1, repeat=runs)) * 1000
        )
        print(f"{n:>9} {total:>9} {fast:>10.2f} {slow:>12.2f} {slow / fast:>6.1f}")


if __name__ == "__main__":
    main()
