"""What repeats, by relevance: maximal marginal relevance (MMR) orders passages so that each next one is
relevant to the question and unlike those already taken.

Carbonell and Goldstein ("The use of MMR, diversity-based reranking for reordering documents and producing
summaries", SIGIR 1998, https://doi.org/10.1145/290941.291025) choose, among the passages not yet taken,

    argmax  λ · relevance(d)  -  (1 - λ) · max over taken t of similarity(d, t)

λ = 1 is the plain ranking; smaller λ trades relevance for novelty. `mmr_order` applies it until every
passage is placed, keeping each passage's largest similarity to the taken ones up to date: n² steps for n
passages. It compares the scores exactly: each number is taken as the decimal it is written as (0.1 is 1/10,
`Fraction(str(0.1))`, not the float a hair above it), so two passages whose scores are equal in decimal
arithmetic tie, and a tie goes to the lower index. In floating point, 0.5 · 0.1 - 0.5 · 0.3 and
0.5 · 0.5 - 0.5 · 0.7 both ought to be -0.1, yet they come out as two different floats.
`cosine` is the similarity lesson 08 uses, over sparse term-weight vectors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from packer.validation import require_list


def _number(where: str, value: Any) -> Fraction:
    """A finite int or float as the exact fraction it is written as (0.1 -> 1/10)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{where} must be a finite number, got {value!r}")
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def mmr_order(relevance: Any, similarity: Any, lam: float) -> list[int]:
    """The indices of all passages in MMR order; similarity is an n × n table. Scores are compared exactly,
    each number taken as the decimal it is written as; ties go to the lower index."""
    scores = [_number(f"relevance[{i}]", value) for i, value in enumerate(require_list("relevance", relevance))]
    rows = require_list("similarity", similarity)
    if len(rows) != len(scores):
        raise ValueError(f"similarity must have one row per passage ({len(scores)}), got {len(rows)}")
    table = []
    for i, row in enumerate(rows):
        cells = require_list(f"similarity[{i}]", row)
        if len(cells) != len(scores):
            raise ValueError(f"similarity[{i}] must have {len(scores)} entries, got {len(cells)}")
        table.append([_number(f"similarity[{i}][{j}]", value) for j, value in enumerate(cells)])
    weight = _number("lam", lam)
    if not 0 <= weight <= 1:
        raise ValueError(f"lam must be from 0 to 1, got {lam!r}")
    closest: list[Fraction | None] = [None] * len(scores)  # each remaining passage's largest similarity to a taken one
    remaining = list(range(len(scores)))
    order: list[int] = []
    while remaining:
        # Nothing is taken yet for the first choice, so there is no similarity to subtract: the most relevant wins.
        best = max(remaining, key=lambda i: (weight * scores[i] - (1 - weight) * (closest[i] or 0), -i))
        order.append(best)
        remaining.remove(best)
        for i in remaining:
            closest[i] = table[i][best] if closest[i] is None else max(closest[i], table[i][best])
    return order


def cosine(u: Mapping[str, float], v: Mapping[str, float]) -> float:
    """The cosine of two sparse vectors (term -> weight); 0.0 when either is all zeros."""
    dot = sum(weight * v[term] for term, weight in u.items() if term in v)
    norms = math.sqrt(sum(w * w for w in u.values())) * math.sqrt(sum(w * w for w in v.values()))
    return dot / norms if norms else 0.0
