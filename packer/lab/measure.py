"""Lesson 05's measurements: the teaching units against real BPE tokens, passage by passage."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from packer.counters import BPE_ENCODINGS, bpe, count_chars_div4, count_utf8_bytes, count_words
from packer.lab.corpus import Sample

# The published rule of thumb the lesson compares with: "1 token ≈ 4 characters", for English (OpenAI,
# https://help.openai.com/en/articles/4936856-what-are-tokens-and-how-to-count-them). It is stated for English
# only; for every other sample the lesson's own measurements are the only numbers.
RULE_OF_THUMB_CHARS_PER_TOKEN = 4

UNITS: dict[str, Callable[[str], int]] = {
    "whitespace words": count_words,
    "chars/4": count_chars_div4,
    "UTF-8 bytes": count_utf8_bytes,
}


def unit_counter(unit: str) -> Callable[[str], int]:
    """A teaching unit by name, or a real encoding's token counter; ValueError naming the known units."""
    if unit in UNITS:
        return UNITS[unit]
    if unit in BPE_ENCODINGS:
        return bpe(unit)
    raise ValueError(f"unit: unknown unit {unit!r}; known: {', '.join([*UNITS, *BPE_ENCODINGS])}")


@dataclass(frozen=True)
class Measured:
    """Every passage of a sample in every unit, with real tokens in one encoding."""

    sample: Sample
    encoding: str
    counts: dict[str, tuple[int, ...]]  # unit -> one count per passage
    tokens: tuple[int, ...]

    def ratios(self, unit: str = "chars/4") -> list[float]:
        """unit ÷ real tokens, per passage (1.0 = a perfect estimate, below 1 = under-counts)."""
        return [n / t for n, t in zip(self.counts[unit], self.tokens)]


def measure(sample: Sample, encoding: str = "cl100k_base") -> Measured:
    """Count every passage of a sample in the three teaching units and in real tokens."""
    if encoding not in BPE_ENCODINGS:
        raise ValueError(f"encoding: expected one of {', '.join(BPE_ENCODINGS)}, got {encoding!r}")
    count = bpe(encoding)
    counts = {unit: tuple(counter(p) for p in sample.passages) for unit, counter in UNITS.items()}
    return Measured(sample, encoding, counts, tuple(count(p) for p in sample.passages))


def characters_per_token(measured: Measured) -> float:
    """All the sample's characters divided by all its real tokens (the unit of the 4-characters rule)."""
    return sum(len(p) for p in measured.sample.passages) / sum(measured.tokens)


def nearest_rank(values: Sequence[float], q: float) -> float:
    """The q-quantile by the nearest-rank rule: the smallest value with at least q of the values at or below it."""
    if not values:
        raise ValueError("values: empty")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def median(values: Sequence[float]) -> float:
    """The middle value (mean of the two middle ones for an even count)."""
    ordered, n = sorted(values), len(values)
    return (ordered[(n - 1) // 2] + ordered[n // 2]) / 2


def headroom_needed(measured: Measured, percent: int) -> int:
    """The smallest whole percent of headroom over chars/4 under which `percent` % of the passages fit their
    real token count (tokens <= estimate * (1 + headroom / 100)); negative when chars/4 over-counts at least
    `percent` % of them.
    Integer arithmetic throughout, and the nearest-rank percentile."""
    needed = sorted(-((100 * (e - t)) // e) for t, e in zip(measured.tokens, measured.counts["chars/4"]))
    return needed[-((-percent * len(needed)) // 100) - 1]


@dataclass(frozen=True)
class Split:
    """A passage split in two: tokens of the parts measured alone, and of the whole."""

    left: str
    right: str
    parts: int
    whole: int

    @property
    def change(self) -> int:
        """whole - (left + right): negative when joining saves tokens, positive when it costs more."""
        return self.whole - self.parts


def whitespace_splits(passage: str, count: Callable[[str], int]) -> list[Split]:
    """Split the passage at both ends of every whitespace run, and measure the parts and the whole."""
    whole = count(passage)
    cuts = sorted({cut for m in re.finditer(r"\s+", passage) for cut in (m.start(), m.end()) if 0 < cut < len(passage)})
    return [Split(passage[:cut], passage[cut:], count(passage[:cut]) + count(passage[cut:]), whole) for cut in cuts]


def context_snippet(split: Split, width: int = 14) -> tuple[str, str]:
    """The few characters either side of the cut, for a readable example."""
    return split.left[-width:], split.right[:width]


def units_table(measured: Sequence[Measured]) -> str:
    """Totals per sample in every unit, and the median chars/4 ÷ tokens."""
    head = f"{'sample':<21} {'passages':>8} {'chars':>7} {'words':>6} {'chars/4':>7} {'bytes':>7} {'tokens':>7}  chars/4÷tokens"
    lines = [head]
    for m in measured:
        chars = sum(len(p) for p in m.sample.passages)
        words, estimate, size = (sum(m.counts[u]) for u in UNITS)
        lines.append(
            f"{m.sample.name:<21} {len(m.tokens):>8} {chars:>7} {words:>6} {estimate:>7} {size:>7} "
            f"{sum(m.tokens):>7}  {median(m.ratios()):>6.2f}"
        )
    lines.append(f"(tokens: {measured[0].encoding}; last column: median over passages)" if measured else "")
    return "\n".join(lines)
