"""Exercise 06's questions (lesson 06, which passages should win?), for whoever writes or changes that exercise's
checks.

q6.1 pack_until_overflow, q6.2 knapsack_value, q6.3 above_cutoff (float scores at the exact bar),
q6.4 the prediction.

A learner never reads this module; they meet its names in counterexamples and in the exercise's setup cell,
which imports PREDICT_POLICY and PREDICT_ROOM (through packer.checking.bank, where notebooks have always found them).
packer.checking.bank registers `QUESTIONS` in exercise order; this module imports the engine, the inputs
and packer.checking.questions_shared, never the bank.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from packer.checking import variants
from packer.checking.engine import Question
from packer.checking.questions_shared import COUNTER, KEY, PASSAGES, QUESTION, SEED_PASSAGES, with_room
from packer.counters import count_chars_div4, count_utf8_bytes, count_words

QUESTIONS: list[Question] = []  # exercise 06's questions, in order; packer.checking.bank registers them

COSTS_AND_VALUES = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 30)), max_size=7)
SCORED = st.lists(st.tuples(KEY, st.sampled_from([0, 0.5, 1, 2, 3.5, 4, 7, 8])), max_size=7, unique_by=lambda p: p[0])


BAR_BEST = [3, 5, 6, 7, 10, 25, 25.0, 0.3, 2.5, 1.1]  # ints and floats, some of which make float products inexact
BAR_SHARE = [0.1, 0.2, 0.28, 0.33, 0.55, 0.5]


def _at_the_bar(best: float, share: float, nudge: int, others: list) -> tuple:
    """above_cutoff arguments with a passage scoring exactly share × best (as the decimal it is written as),
    or 1e-10 below or above it: float products, ratios and tolerances get these wrong, exact fractions do not.
    The bar score is an int when the product is a whole number and best is an int, a float otherwise."""
    bar = Fraction(str(share)) * Fraction(str(best)) + Fraction(nudge, 10**10)
    score: float = int(bar) if bar.denominator == 1 and type(best) is int else float(bar)
    rest = [(key, value) for key, value in others if key not in ("top", "bar") and value <= best]
    return [("top", best), *rest[:2], ("bar", score), *rest[2:]], share


AT_THE_BAR = st.builds(
    _at_the_bar, st.sampled_from(BAR_BEST), st.sampled_from(BAR_SHARE), st.sampled_from([0, 0, -1, 1]), SCORED
)


def _knapsack_args(items: list, capacity: int) -> tuple:
    return [cost for cost, _ in items], [value for _, value in items], capacity


QUESTIONS.append(
    Question(
        "q6.1",
        "pack_until_overflow",
        2,
        "stop at the first passage whose prompt is over the limit",
        variants.pack_until_overflow,
        cases=(
            ("why", SEED_PASSAGES, 9, count_words),
            ("why", SEED_PASSAGES, 13, count_words),
            ("why", [], 4, count_words),
            ("why", [("a", "aaaaa"), ("b", "b")], 8, count_chars_div4),
            ("why", SEED_PASSAGES, 6, count_words),
            ("why", [("a", "x\ny"), ("b", "z")], 38, count_utf8_bytes),  # render folds: a's prompt is 39 bytes
        ),
        inputs=st.builds(with_room, QUESTION, PASSAGES, st.integers(0, 40), COUNTER),
    )
)
QUESTIONS.append(
    Question(
        "q6.2",
        "knapsack_value",
        3,
        "the 0/1 knapsack: the most value that fits, by dynamic programming",
        variants.knapsack_value,
        cases=(
            ([6, 5, 5], [10, 9, 9], 10),
            ([], [], 5),
            ([3], [4], 2),
            ([3], [4], 3),
            ([0, 0], [2, 3], 0),
            ([4, 4], [5, 5], 8),
            ([2, 3, 4], [3, 4, 5], 5),
            ([1], [1], 2),
        ),
        inputs=st.builds(_knapsack_args, COSTS_AND_VALUES, st.integers(0, 40)),
    )
)
QUESTIONS.append(
    Question(
        "q6.3",
        "above_cutoff",
        1,
        "the priority cutoff: passages scoring at least a share of the best",
        variants.above_cutoff,
        cases=(
            ([("a", 8), ("b", 4), ("c", 3.5), ("d", 7)], 0.5),
            ([], 0.5),
            ([("a", 0), ("b", 0)], 0.5),
            ([("a", 4), ("b", 4)], 1),
            ([("a", 8), ("b", 1)], 0),
            ([("a", 25), ("b", 7)], 0.28),  # 7 is exactly 0.28 × 25 (floating point says 7.000000000000001)
            ([("a", 25.0), ("b", 7)], 0.28),  # a float best score is exact too: Fraction × float is a float
            ([("a", 3), ("b", 0.3)], 0.1),  # 0.3 / 3 is 0.09999999999999999 in floating point
            ([("a", 1), ("b", 0.4999999999)], 0.5),  # 1e-10 under the bar: no tolerance
        ),
        inputs=st.one_of(st.tuples(SCORED, st.sampled_from([0, 0.25, 0.5, 0.75, 1])), AT_THE_BAR),
    )
)
PREDICT_POLICY = [("a", 50, 9), ("b", 30, 7), ("c", 30, 6), ("d", 20, 2)]  # (id, tokens of its line, score), ranked
PREDICT_ROOM = 60


def _predict_q6_4() -> tuple[list[str], list[str]]:
    greedy, used = [], 0
    for key, cost, _ in PREDICT_POLICY:  # skip and continue over the precomputed costs
        if used + cost <= PREDICT_ROOM:
            greedy.append(key)
            used += cost
    subsets = [[item for i, item in enumerate(PREDICT_POLICY) if mask >> i & 1] for mask in range(16)]
    fitting = [s for s in subsets if sum(cost for _, cost, _ in s) <= PREDICT_ROOM]
    best = max(fitting, key=lambda s: sum(score for *_, score in s))
    return greedy, [key for key, _, _ in best]


QUESTIONS.append(
    Question(
        "q6.4",
        "predict_q6_4",
        1,
        "predict: what skip-and-continue and the knapsack keep in 60 tokens",
        _predict_q6_4,
        cases=((),),
        predict=tuple[list[str], list[str]],
    )
)
