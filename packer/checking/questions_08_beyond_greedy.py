"""Exercise 08's questions (lesson 08, beyond greedy), for whoever writes or changes that exercise's checks.

q8.1 ends_first, q8.2 jaccard, q8.3 drop_near_duplicates, q8.4 mmr_order (exact ties), q8.5 pack_parts,
q8.6 the prediction.

A learner never reads this module; they meet its names in counterexamples and in the exercise's setup cell,
which imports PREDICT_PARTS and PREDICT_PARTS_LIMIT (through packer.checking.bank, where notebooks have always found them).
packer.checking.bank registers `QUESTIONS` in exercise order; this module imports the engine, the inputs
and packer.checking.questions_shared, never the bank.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

import packer.duplicates
import packer.mmr
import packer.ordering
import packer.priority
from packer.checking.engine import Question, plain
from packer.checking.inputs import SortedSet
from packer.checking.questions_shared import COUNTER, KEY, TEXT
from packer.counters import count_chars_div4, count_utf8_bytes, count_words

QUESTIONS: list[Question] = []  # exercise 08's questions, in order; packer.checking.bank registers them

# Where the evidence goes (ends_first), what repeats (jaccard, drop_near_duplicates, mmr_order) and what must
# stay (pack_parts). The references are the core's own functions.
RANKED_ITEM = st.one_of(st.integers(-3, 20), st.text(alphabet="abc", max_size=2), st.tuples(KEY, TEXT), st.none())
QUESTIONS.append(
    Question(
        "q8.1",
        "ends_first",
        2,
        "the best evidence at both ends: best first, second best last",
        packer.ordering.ends_first,
        cases=(
            (list(range(1, 10)),),  # Haystack's LostInTheMiddleRanker: 1 3 5 7 9 8 6 4 2
            ([1, 2, 3, 4],),  # even: 1 3 4 2
            ([1, 2, 3, 4, 5],),  # odd: the middle item once
            ([],),
            (["a"],),
            (["a", "b"],),
            (["c", "a", "e", "b", "d"],),  # ranked, not sorted: positions move, the items are not compared
            ([7, 7, 3],),
            ([("p2", "x"), ("p1", "y"), ("p3", "z")],),
        ),
        inputs=st.tuples(st.lists(RANKED_ITEM, max_size=12)),
        new_result=True,  # "a new list": never `ranked` itself, even where its order would not change
    )
)
SHINGLE_POOL = [("the", "fifo", "is"), ("fifo", "is", "full"), ("is", "full", "the"), ("a", "b", "c"), ("b", "c", "a")]
SHINGLE_POOL += [("the", "the", "the"), ("full",), ("a", "b"), ()]  # short texts' shingles, and the empty one
SHINGLE_SET = st.sets(st.sampled_from(SHINGLE_POOL), max_size=6).map(
    SortedSet
)  # shown sorted: a counterexample is the same every run


def shingle_set(*texts: str) -> SortedSet:
    return SortedSet(tuple(text.split()) for text in texts)


def _rounded(value: Any) -> Any:
    """A Jaccard index compared to 12 places (1 - |A △ B| / |A ∪ B| may differ in its last bit), kind and all."""
    return ("float", round(value, 12)) if type(value) is float else plain(value)


QUESTIONS.append(
    Question(
        "q8.2",
        "jaccard",
        1,
        "the Jaccard index of two sets of shingles",
        packer.duplicates.jaccard,
        cases=(
            (shingle_set("a b c", "b c d"), shingle_set("b c d", "c d e")),  # 1 shared of 3: 1/3
            (shingle_set("a b c"), shingle_set("a b c", "b c d")),  # a subset: 1/2
            (shingle_set("a b c", "b c d", "c d e", "d e f"), shingle_set("c d e", "d e f", "e f g")),  # 2/5
            (SortedSet(), SortedSet()),  # two empty sets are equal: 1.0
            (shingle_set("a b c"), SortedSet()),  # 0.0
            (SortedSet(), shingle_set("a b c")),  # 0.0 either way round
            (shingle_set("a b c"), shingle_set("x y z")),
            (shingle_set("a b c", "b c d"), shingle_set("b c d", "a b c")),
        ),
        inputs=st.tuples(SHINGLE_SET, SHINGLE_SET),
        normalize=_rounded,
    )
)
NEAR_WORD = st.sampled_from(["the", "The", "FIFO", "fifo", "is", "full", "Full.", "blocks", "writes,"])
NEAR_BASE = "a reset clears the FIFO every cycle, the FIFO is full"  # its overlapping slices resemble
NEAR_TEXT = st.one_of(
    st.lists(NEAR_WORD, max_size=6).map(" ".join),
    st.builds(
        lambda start, size: " ".join(NEAR_BASE.split()[start : start + size]), st.integers(0, 6), st.integers(0, 7)
    ),
)
NEAR_PASSAGES = st.lists(st.tuples(st.sampled_from("abcdefgh"), NEAR_TEXT), max_size=6, unique_by=lambda p: p[0])
THRESHOLD = st.sampled_from([0, 0.25, 0.4, 0.5, 0.75, 1.0])
RESET = [  # b repeats a (J = 0.5) and is dropped; c resembles b (2/3) but not a (0.4): c is kept
    ("a", "reset clears the fifo every cycle"),
    ("b", "reset clears the fifo"),
    ("c", "a reset clears the fifo"),
]
BLOCKS = [  # a and b are kept (J = 1/6); c resembles a (0.4) and b more (0.6): it repeats a, the first kept
    ("a", "the fifo blocks writes today"),
    ("b", "fifo blocks writes when full again"),
    ("c", "the fifo blocks writes when full"),
]
QUESTIONS.append(
    Question(
        "q8.3",
        "drop_near_duplicates",
        3,
        "drop a passage that repeats an earlier kept one",
        packer.duplicates.drop_near_duplicates,
        cases=(
            (RESET, 0.5),  # J exactly at the threshold drops; c is compared with the kept passages only
            (BLOCKS, 0.4),  # c repeats a, the first kept passage it resembles enough
            ([("a", "The FIFO is full."), ("b", "the fifo is FULL")], 0.5),  # words, lower-cased
            ([("a", "fifo is full"), ("b", "full is fifo")], 0.5),  # the same letters, other words
            ([("a", "the fifo is full"), ("b", "the fifo is full"), ("c", "reset")], 1.0),
            ([("a", "x"), ("b", "")], 0.5),
            ([("a", ""), ("b", "")], 1.0),  # no words: two empty sets, Jaccard 1.0
            ([], 0.5),
            ([("a", "one two three"), ("b", "four five six")], 0),  # a threshold of 0 drops all but the first
        ),
        inputs=st.tuples(NEAR_PASSAGES, THRESHOLD),
    )
)
EXACT = [-1, -0.5, 0, 0.25, 0.5, 0.75, 1, 2]  # dyadic: every formula for the MMR score gives the same float
SIMILAR = [-0.5, -0.25, 0, 0.25, 0.5, 0.75, 1]


def _mmr_args(relevance: list, cells: list, lam: float) -> tuple:
    """relevance, a symmetric table filled from its lower triangle (the diagonal too), and lam."""
    n = len(relevance)
    table = [[0.0] * n for _ in range(n)]
    lower = iter(cells)
    for i in range(n):
        for j in range(i + 1):
            table[i][j] = table[j][i] = next(lower)
    return relevance, table, lam


DECIMAL = [-0.3, -0.1, 0.1, 0.3, 0.5, 0.7, 0.9]  # not dyadic: float formulas round them differently, so exact
# ties in decimal arithmetic (the question's rule) come out as unequal floats


def _mmr_inputs(values: list, cells: list, lambdas: list) -> st.SearchStrategy:
    return st.integers(0, 5).flatmap(
        lambda n: st.builds(
            _mmr_args,
            st.lists(st.sampled_from(values), min_size=n, max_size=n),
            st.lists(st.sampled_from(cells), min_size=n * (n + 1) // 2, max_size=n * (n + 1) // 2),
            st.sampled_from(lambdas),
        )
    )


def _mmr_tie(relevance: list, first: float, cells: list, lam: float) -> tuple:
    """Three passages where the two not picked first tie exactly (in decimal arithmetic) for the second pick:
    passage j's similarity to the first pick is set so that lam·rel[i] - (1 - lam)·s[i] = lam·rel[j] - (1 -
    lam)·s[j]. Most float formulas of the score put one of the two a hair ahead."""
    _, table, _ = _mmr_args(relevance, cells, lam)
    top = max(range(3), key=lambda k: (Fraction(str(relevance[k])), -k))
    i, j = [k for k in range(3) if k != top]
    table[i][top] = table[top][i] = first
    weight = Fraction(str(lam)) / (1 - Fraction(str(lam)))
    tied = Fraction(str(first)) + weight * (Fraction(str(relevance[j])) - Fraction(str(relevance[i])))
    table[j][top] = table[top][j] = float(tied)
    return relevance, table, lam


MMR_INPUTS = st.one_of(
    _mmr_inputs(EXACT, SIMILAR, [0, 0.25, 0.5, 0.75, 1]),
    _mmr_inputs(DECIMAL, DECIMAL, [0.3, 0.5, 0.7]),
    st.builds(
        _mmr_tie,
        st.lists(st.sampled_from(DECIMAL), min_size=3, max_size=3),
        st.sampled_from(DECIMAL),
        st.lists(st.sampled_from(DECIMAL), min_size=6, max_size=6),
        st.sampled_from([0.2, 0.5, 0.8]),
    ),
)
QUESTIONS.append(
    Question(
        "q8.4",
        "mmr_order",
        3,
        "maximal marginal relevance: relevant, and unlike what is taken",
        packer.mmr.mmr_order,
        cases=(
            ([1.0, 0.875, 0.5], [[1, 0.875, 0], [0.875, 1, 0.125], [0, 0.125, 1]], 0.5),  # 0 2 1
            ([1.0, 0.875, 0.5], [[1, 0.875, 0], [0.875, 1, 0.125], [0, 0.125, 1]], 1),  # plain ranking
            ([1, 0.75, 0.5], [[1, 0.5, 0], [0.5, 1, 0], [0, 0, 1]], 0.75),  # (1 - lam) weighs the penalty
            ([1, 1, 0.5, 0.5], [[1, 0, 0.5, 0.75], [0, 1, 0.5, 0], [0.5, 0.5, 1, 0], [0.75, 0, 0, 1]], 0.5),  # max
            ([1.0, 0.875], [[1, 0], [0, 0]], 0.5),  # the first pick has no penalty (a diagonal of 0 too)
            ([0.5, 0.5000000001], [[1, 0], [0, 1]], 1),  # 1e-10 apart is not a tie: no tolerance
            ([0.5, 0.5, 0.5], [[1, 0, 0], [0, 1, 0], [0, 0, 1]], 0.5),  # ties go to the lower index
            ([1, 0.5, 0.625], [[1, -0.5, 0], [-0.5, 1, 0], [0, 0, 1]], 0.5),  # a negative similarity helps
            ([2, 0, 1], [[1, 1, 1], [1, 1, 1], [1, 1, 1]], 0),  # lam 0: the first pick is index 0, a tie
            # 0 and 2 tie at -0.1 exactly after 1 (0.5·0.1 - 0.5·0.3 = 0.5·0.5 - 0.5·0.7); floats round them apart
            ([0.1, 0.9, 0.5], [[0.5, 0.3, -0.3], [0.3, 0.9, 0.7], [-0.3, 0.7, 0.5]], 0.5),
            ([0.5, 0.7, 0.1], [[0.5, 0.1, 0.5], [0.1, 0.9, -0.3], [0.5, -0.3, 0.3]], 0.5),  # 0 and 2 tie at 0.2
            ([], [], 0.5),
        ),
        inputs=MMR_INPUTS,
    )
)
PART_TEXT = st.text(alphabet="ab .\n日", max_size=6)
PART = st.tuples(
    st.sampled_from(["q", "s", "d1", "d2", "d3", "h", "x"]),
    PART_TEXT,
    st.integers(-1, 2),
    st.one_of(st.just(False), st.booleans()),
    st.one_of(st.just(0), st.integers(0, 4)),
)
PARTS = st.lists(PART, max_size=6, unique_by=lambda p: p[0])


def _required_cost(parts: list, count: Any) -> int:
    """What the required parts of a pack_parts call measure, with their reserves."""
    kept = {part[0] for part in parts if part[3]}
    return count(packer.priority.render_parts(packer.priority.require_parts(parts), kept)) + sum(
        part[4] for part in parts if part[3]
    )


def _parts_args(parts: list, extra: int, count: Any) -> tuple:
    """pack_parts arguments whose limit is `extra` over what the required parts need (under it when negative)."""
    return parts, max(_required_cost(parts, count) + extra, 0), count


QUESTION_PART = ("question", "Question: why?\n", 0, True, 0)  # 2 words
ANSWER_PART = ("answer", "Answer:", 0, True, 5)  # 1 word, 5 reserved for the answer
QUESTIONS.append(
    Question(
        "q8.5",
        "pack_parts",
        3,
        "priorities: required parts always, then whole levels while the prompt fits",
        packer.priority.pack_parts,
        cases=(
            # count_words: question 2, d1 4 (priority 2), d2 3 (priority 1), answer 1 + 5 reserved.
            ([QUESTION_PART, ("d1", "one two three four\n", 2, False, 0), ANSWER_PART], 12, count_words),
            ([QUESTION_PART, ("d1", "one two three four\n", 2, False, 0), ANSWER_PART], 11, count_words),
            (  # d1 does not fit, so d2 (lower) is cut too: stop at the first level that does not fit
                [
                    QUESTION_PART,
                    ("d1", "one two three four\n", 2, False, 0),
                    ("d2", "five six\n", 1, False, 0),
                    ANSWER_PART,
                ],
                11,
                count_words,
            ),
            (  # one level, two parts: a alone would fit, together they do not, so both go
                [QUESTION_PART, ("a", "one two\n", 1, False, 0), ("b", "three four\n", 1, False, 0), ANSWER_PART],
                10,
                count_words,
            ),
            (  # a part's reserve counts while it is kept, and only then
                [QUESTION_PART, ("cite", "Cite sources.\n", 2, False, 4), ("d", "one two\n", 1, False, 0)],
                8,
                count_words,
            ),
            ([QUESTION_PART, ("cite", "Cite sources.\n", 2, False, 4), ANSWER_PART], 9, count_words),
            ([QUESTION_PART, ("cite", "Cite sources.\n", 2, False, 4), ANSWER_PART], 14, count_words),  # exactly
            ([("x", "ab", 1, False, 0), ("y", "cd", 1, False, 0), ("z", "e", 0, False, 0)], 1, count_chars_div4),
            ([("x", "a", 1, False, 0), ("y", "b", 1, False, 0)], 1, count_words),  # "ab" is one word
            ([("low", "a ", 0, False, 0), ("high", "b ", 5, False, 0), ("req", "c", -3, True, 0)], 9, count_words),
            ([QUESTION_PART, ANSWER_PART], 7, count_words),  # the required parts need 8: ValueError
            ([("q", "", 0, False, 0), ("s", "a", 0, True, 0)], 0, count_words),  # ... and a limit of 0 under 1
            ([QUESTION_PART, ("d", "one two three\n", 1, False, 0)], 3, count_words),  # optional: returned, cut
            ([], 0, count_words),
            ([("d", "日本語", 0, False, 0), ("e", "ab", -1, False, 0)], 9, count_utf8_bytes),
        ),
        inputs=st.builds(_parts_args, PARTS, st.integers(-3, 20), COUNTER),
    )
)
# q8.6: five parts, each text's words stated (count_words; every text ends in whitespace, so words add up).
PREDICT_PARTS = [
    ("cite", "Cite your sources.\n", 1, False, 8),  # 3 words; asks for citations, so reserves 8 for them
    ("doc-1", "The FIFO blocks all writes while it is full and drops nothing.\n", 3, False, 0),  # 12 words
    ("doc-2", "Reset empties the FIFO in a single clock cycle.\n", 2, False, 0),  # 9 words
    ("doc-3", "The FIFO is eight entries deep.\n", 2, False, 0),  # 6 words
    ("question", "Question: is the FIFO full?\nAnswer:", 0, True, 20),  # 6 words, 20 reserved for the answer
]
PREDICT_PARTS_LIMIT = 50


def _predict_q8_6() -> tuple[list[str], int]:
    kept, _, prompt = packer.priority.pack_parts(PREDICT_PARTS, PREDICT_PARTS_LIMIT, count_words)
    return kept, count_words(prompt) + sum(part[4] for part in PREDICT_PARTS if part[0] in kept)


QUESTIONS.append(
    Question(
        "q8.6",
        "predict_q8_6",
        1,
        "predict: what pack_parts keeps of five parts in 50 words",
        _predict_q8_6,
        cases=((),),
        predict=tuple[list[str], int],
    )
)
