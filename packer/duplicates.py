"""What repeats: near-duplicate passages found by the overlap of their word shingles.

A passage's w-shingles are its runs of w consecutive words; two passages resemble each other by the
Jaccard index of their shingle sets, |A ∩ B| / |A ∪ B| (Broder, "On the resemblance and containment of
documents", 1997, https://doi.org/10.1109/SEQUEN.1997.666900). `drop_near_duplicates` keeps passages in rank
order and drops each one whose resemblance to a passage already kept reaches the threshold, comparing every
pair (fine for the tens of passages a retriever hands a packer). MinHash, from the same paper, estimates the
resemblance from short signatures, for collections too large to compare pair by pair: each position of two
signatures agrees with probability J when the hash functions are min-wise independent (the term is Broder,
Charikar, Frieze and Mitzenmacher's, "Min-wise independent permutations", STOC 1998,
https://doi.org/10.1145/276698.276781). The linear hashes (a·x + b) mod p used here are only approximately so
(Bohman, Cooper and Frieze, "Min-wise independent linear permutations", 2000, https://doi.org/10.37236/1504).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from typing import Any

from packer.validation import Passage, require_passages

# Kana, Han and Hangul characters are a word each (Chinese and Japanese put no spaces between words), as in
# lesson 06's retriever.
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
Shingles = frozenset[tuple[str, ...]]
MERSENNE = (1 << 61) - 1  # the prime of the hash family h(x) = (a·x + b) mod p used for MinHash


def words(text: str) -> list[str]:
    """Lower-cased runs of letters and digits, and each CJK character on its own."""
    return re.findall(rf"[{CJK}]|[^\W_{CJK}]+", text.lower())


def _require_size(size: Any) -> int:
    if type(size) is not int or size < 1:
        raise ValueError(f"size must be a positive int, got {size!r}")
    return size


def shingles(text: str, size: int = 3) -> Shingles:
    """The set of runs of `size` consecutive words (a shorter text is one shingle of all its words; no words, none)."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    terms = words(text)
    if len(terms) < _require_size(size):
        return frozenset([tuple(terms)] if terms else [])
    return frozenset(tuple(terms[i : i + size]) for i in range(len(terms) - size + 1))


def jaccard(a: Shingles, b: Shingles) -> float:
    """|A ∩ B| / |A ∪ B|: 1.0 for equal sets (two empty ones included), 0.0 for disjoint ones."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def _check_threshold(threshold: Any) -> None:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
        raise ValueError(f"threshold must be a number from 0 to 1, got {threshold!r}")


def drop_near_duplicates(
    passages: Any, threshold: float = 0.5, size: int = 3
) -> tuple[list[Passage], list[tuple[str, str]]]:
    """(kept passages in rank order, dropped as (id, id of the kept passage it repeats)): a passage is dropped
    when its shingles' Jaccard index with an earlier kept passage is at least `threshold`."""
    checked = require_passages(passages)
    _check_threshold(threshold)
    _require_size(size)
    kept: list[tuple[Passage, Shingles]] = []
    dropped: list[tuple[str, str]] = []
    for key, text in checked:
        mine = shingles(text, size)
        match = next((other for other, theirs in kept if jaccard(mine, theirs) >= threshold), None)
        if match is None:
            kept.append(((key, text), mine))
        else:
            dropped.append((key, match[0]))
    return [passage for passage, _ in kept], dropped


def _hash64(shingle: tuple[str, ...]) -> int:
    """A stable 64-bit hash of one shingle (Python's hash() of a str changes from run to run)."""
    return int.from_bytes(hashlib.blake2b("\x1f".join(shingle).encode("utf-8"), digest_size=8).digest(), "big")


def minhash(items: Shingles, hashes: int = 128, seed: int = 0) -> tuple[int, ...]:
    """The MinHash signature: for each of `hashes` random hash functions, the least hash of any shingle."""
    _require_size(hashes)
    rng = random.Random(seed)
    family = [(rng.randrange(1, MERSENNE), rng.randrange(MERSENNE)) for _ in range(hashes)]
    values = [_hash64(shingle) for shingle in items]
    if not values:
        return tuple([MERSENNE] * hashes)  # no shingles: the same signature for every empty set
    return tuple(min((a * x + b) % MERSENNE for x in values) for a, b in family)


def estimated_jaccard(a: Sequence[int], b: Sequence[int]) -> float:
    """The share of positions where two MinHash signatures agree: an estimate of the Jaccard index (each position
    agrees with probability J when the hash functions are min-wise independent, Broder et al. 1998)."""
    if len(a) != len(b) or not a:
        raise ValueError(f"signatures must have the same non-zero length, got {len(a)} and {len(b)}")
    return sum(x == y for x, y in zip(a, b)) / len(a)
