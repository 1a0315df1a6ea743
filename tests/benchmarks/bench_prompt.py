"""Measure pack_prompt with a real tokenizer: the plain re-measuring path against the fast path and the floor.

Run with `make bench-prompt`. Candidates are real passages: lesson 05's corpus (fourteen samples, many
scripts) followed by the paragraphs of CPython's documentation topics, in a fixed shuffled order (past the
end, the list repeats under new ids). The budget is 8,000 cl100k_base tokens. For each size it prints the
time and the characters handed to the tokenizer by

- full:  the plain path, re-measuring the whole candidate prompt for every passage (a learner's callable);
- fast:  the path pack_prompt takes for a counter made by packer.counters.bpe;
- floor: encoding each candidate passage once, which any exact packer must at least do,

and checks first that full and fast return identical results.
"""

from __future__ import annotations

import random
import timeit

from packer import pack_prompt
from packer.counters import BPE_COUNTERS, bpe
from packer.lab import corpus

QUESTION = "How does Python decide which passages belong in the prompt?"
LIMIT = 8000
SIZES = (200, 1000, 5000)


def real_passages(n: int) -> list[tuple[str, str]]:
    """n real passages with unique ids (lesson 05's corpus, then documentation paragraphs, shuffled once)."""
    from pydoc_data.topics import topics

    pool = [p for s in corpus.samples() for p in s.passages]
    pool += [p.strip() for key in sorted(topics) for p in topics[key].split("\n\n") if p.strip()]
    random.Random(14).shuffle(pool)
    return [(f"p{i}", pool[i % len(pool)]) for i in range(n)]


def characters_encoded(passages: list[tuple[str, str]], fast: bool) -> int:
    """Characters the counter is asked to encode by one pack (the fast path's counter registered as bpe's)."""
    count, seen = bpe("cl100k_base"), [0]

    def tally(text: str) -> int:
        seen[0] += len(text)
        return count(text)

    if fast:
        BPE_COUNTERS[id(tally)] = (tally, "cl100k_base")
    try:
        pack_prompt(QUESTION, passages, LIMIT, tally)
    finally:
        BPE_COUNTERS.pop(id(tally), None)
    return seen[0]


def best_ms(run, repeat: int) -> float:
    """The fastest of `repeat` runs, in milliseconds."""
    return min(timeit.repeat(run, number=1, repeat=repeat)) * 1000


def main() -> None:
    """Print the table: time (ms) and characters encoded by full, fast and floor, per number of candidates."""
    count = bpe("cl100k_base")
    learner = lambda text: count(text)  # any other callable: pack_prompt re-measures the whole prompt
    print(
        f"{'passages':>8} {'chosen':>6} {'full ms':>9} {'fast ms':>8} {'floor ms':>8} {'full/fast':>9} "
        f"{'fast/floor':>10} {'full chars':>11} {'fast chars':>10} {'floor chars':>11}"
    )
    for n in SIZES:
        passages = real_passages(n)
        fast = pack_prompt(QUESTION, passages, LIMIT, count)
        assert fast == pack_prompt(QUESTION, passages, LIMIT, learner), "fast and full paths must agree"
        assert count(fast[2]) <= LIMIT
        repeat = 3 if n <= 1000 else 1
        full_ms = best_ms(lambda: pack_prompt(QUESTION, passages, LIMIT, learner), repeat)
        fast_ms = best_ms(lambda: pack_prompt(QUESTION, passages, LIMIT, count), 5)
        floor_ms = best_ms(lambda: [count(text) for _, text in passages], 5)
        full_chars, fast_chars = characters_encoded(passages, False), characters_encoded(passages, True)
        floor_chars = sum(len(text) for _, text in passages)
        print(
            f"{n:>8} {len(fast[0]):>6} {full_ms:>9.1f} {fast_ms:>8.2f} {floor_ms:>8.2f} {full_ms / fast_ms:>9.0f} "
            f"{fast_ms / floor_ms:>10.2f} {full_chars:>11,} {fast_chars:>10,} {floor_chars:>11,}"
        )


if __name__ == "__main__":
    main()
