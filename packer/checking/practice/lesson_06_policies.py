"""Lesson 06's practice points: a retrieval run, four selection policies, and what their counts prove.

Objectives (the lesson's list): 1 ranking with BM25; 2 comparing the four policies (budget used, relevance, top k,
counter calls); 3 when greedy in rank order is right and when a knapsack is worth it; 4 why a knapsack over
precomputed counts can go over, and which counts are safe to add; 5 how pack_prompt stays exact but fast.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import strategies as st

from packer.checking import variants
from packer.checking.compare import plain
from packer.checking.engine import Question
from packer.checking.practice.kinds import Choose, Option, Predict, Slip, Write
from packer.counters import bpe, count_words
from packer.prompt import _line, pack_prompt

# Practice 6.2: the ranked passages lesson 06 defines as `toy`, under a limit of 16 words (count_words).
TOY_QUESTION = "Why?"
TOY = [  # (id, text, BM25 score), ranked
    ("a", "The handled exception is kept.", 8.0),
    ("b", "Use raise from to chain one exception explicitly.", 6.0),
    ("c", "Exceptions propagate.", 5.0),
    ("d", "Tracebacks.", 3.0),
]
TOY_LIMIT = 16
K1, B = 1.5, 0.75  # BM25's parameters, as lesson 06's retriever sets them (packer.lab.retrieval)
# Practice 6.5: one English line, its text and its framing measured apart.
LINE_KEY, LINE_TEXT = "faq-7", "The exception is stored."


def _bm25(query_words: list[str], passage_words: list[str], idf: dict[str, float], average: float) -> float:
    """One passage's BM25 score, the sum lesson 06's bm25_scores makes for every passage (packer.lab.retrieval)."""
    bag = Counter(passage_words)
    length = len(passage_words)
    return sum(
        idf[t] * bag[t] * (K1 + 1) / (bag[t] + K1 * (1 - B + B * length / average))
        for t in sorted(set(query_words))
        if bag[t]
    )


def _score(value: Any) -> Any:
    """A score compared to 9 places, an int or a float alike (0 and 0.0 both say: no query word occurs)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return ("number", round(float(value), 9))
    return plain(value)


VOCABULARY = ["raise", "except", "the", "exception", "from"]
BM25_INPUTS = st.tuples(
    st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=4),
    st.lists(st.sampled_from(VOCABULARY), max_size=9),
    st.fixed_dictionaries({word: st.sampled_from([0.25, 0.5, 1.0, 2.0, 3.5]) for word in VOCABULARY}),
    st.sampled_from([2.0, 3.0, 4.5, 6.0]),
)
IDF = {"raise": 2.0, "except": 1.5, "the": 0.25}


def _policies() -> tuple[list[str], list[str], list[str]]:
    """What stopping at the first overflow, skipping and continuing, and the priority cutoff (half the best score,
    then skip and continue) keep of `toy`: the exercises' references and pack_prompt itself."""
    passages = [(key, text) for key, text, _ in TOY]
    stop = variants.pack_until_overflow(TOY_QUESTION, passages, TOY_LIMIT, count_words)
    skip = [key for key, _ in pack_prompt(TOY_QUESTION, passages, TOY_LIMIT, count_words)[0]]
    above = set(variants.above_cutoff([(key, score) for key, _, score in TOY], 0.5))
    cutoff = [
        key for key, _ in pack_prompt(TOY_QUESTION, [p for p in passages if p[0] in above], TOY_LIMIT, count_words)[0]
    ]
    return stop, skip, cutoff


POINTS = [
    Write(
        "p6.1",
        1,
        "bm25(query_words, passage_words, idf, average): one passage's BM25 score",
        question=Question(
            "p6.1",
            "bm25",
            1,
            "one passage's BM25 score, k1 = 1.5 and b = 0.75",
            _bm25,
            cases=(
                (["raise", "except"], ["raise", "the", "exception", "raise"], IDF, 4.0),  # average length
                (["raise", "raise"], ["raise", "the", "exception", "raise"], IDF, 4.0),  # a word counts once
                (["except"], ["raise", "the", "exception", "raise"], IDF, 4.0),  # no query word: 0
                (["raise"], ["raise"] * 6 + ["the", "the"], IDF, 4.0),  # twice the average length, f = 6
                (["raise", "the"], ["the", "raise"], IDF, 4.0),  # half the average length
                (["raise"], [], IDF, 4.0),
            ),
            inputs=BM25_INPUTS,
            normalize=_score,
        ),
        hint="work one fixed case through the formula by hand, a term at a time: f, the length against the "
        "average, then idf",
        slips=(
            Slip(
                "a query word counts once, however often the query repeats it: loop over set(query_words)", cases=(2,)
            ),
            Slip(
                "a query word the passage lacks adds nothing (f = 0), and neither does an empty passage", cases=(3, 6)
            ),
            Slip("the length term is the passage's length against the average: |D| / avgdl", cases=(4, 5)),
        ),
    ),
    Predict(
        "p6.2",
        2,
        "what stop, skip and the priority cutoff keep of the toy ranking in 16 words",
        result=_policies,
        answer_type=tuple[list[str], list[str], list[str]],
        misconceptions=(
            (
                (["a", "c", "d"], ["a", "c", "d"], ["a", "c"]),
                "stopping at the first overflow does not skip: at b, the first passage that does not fit, it ends",
            ),
            (
                (["a"], ["a", "c", "d"], ["a", "c", "d"]),
                "the cutoff drops every passage scoring under half the best score, however much room is left: "
                "compare each passage's score with that bar",
            ),
            (
                (["a"], ["a", "c", "d"], ["a"]),
                "after the cutoff comes skip and continue, not stop: a passage over the bar still gets its chance "
                "after one that does not fit",
            ),
            (
                (["a", "b"], ["a", "b"], ["a", "b"]),
                "that leaves out the base prompt: the question, the heading and the answer cue cost 4 words "
                "before any passage",
            ),
        ),
    ),
    Choose(
        "p6.3",
        3,
        "which policy for short FAQ answers, a large budget and the best first",
        options=(
            Option(
                "A",
                "The knapsack: it keeps the most relevance, so it is always worth its n · C steps.",
                "the belief that the optimum is always worth it: with passages small against the budget greedy loses "
                "at most about one passage's room, so the knapsack gains little, and it gives up the rank order and "
                "its stability as the budget moves",
            ),
            Option(
                "B",
                "Skip and continue in rank order: the knapsack would gain little here.",
                "small passages against a large budget: greedy loses at most about one passage's room, keeps the "
                "best first, and is easy to explain",
                right=True,
            ),
            Option(
                "C",
                "A priority cutoff alone: it keeps what is good enough and nothing else.",
                "the confusion of quality with room: a cutoff answers 'good enough to show at all?', not 'what "
                "fits'; it is worth having next to either policy, not instead of one",
            ),
            Option(
                "D",
                "The knapsack, because two answers scoring 14 are worth one scoring 28.",
                "the belief that scores add up: two passages that say the same thing are worth less than their sum",
            ),
        ),
    ),
    Choose(
        "p6.4",
        5,
        "why pack_prompt may add line counts for a bpe() counter",
        options=(
            Option(
                "A",
                "The counts of the lines add up to the count of the whole text, for any tokenizer.",
                "the belief that token counts always add up: not in general (lesson 05 met tokens that do not), and "
                "for any other counter pack_prompt measures every whole candidate prompt",
            ),
            Option(
                "B",
                "It only estimates, and the token or two it may miss is absorbed by the budget.",
                "the belief that the fast path is approximate: both paths return identical results (the next cell "
                "checks), and an estimate could go over a budget",
            ),
            Option(
                "C",
                "Each line meets the prompt at a break followed by [ or A, and both encodings cut there.",
                "such a seam is always cut in cl100k_base and o200k_base, and counts add up at a cut, so the base "
                "prompt's count plus each line's is the whole prompt's count",
                right=True,
            ),
            Option(
                "D",
                "A token never joins a line break to the text before it, so each line counts alone.",
                "the belief that a line break always ends a token: '.\\n' is one cl100k_base token; what matters is "
                "the cut after the break, before [ or Answer:",
            ),
        ),
    ),
    Predict(
        "p6.5",
        4,
        "what one English line costs against its text and its framing",
        result=lambda: bpe("cl100k_base")(_line(LINE_KEY, LINE_TEXT)),
        answer_type=int,
        misconceptions=(
            (
                11,
                "that is text + framing: counts add up only at a seam the tokenizer always cuts; look at what the "
                "framing's space and line break meet inside the line",
            ),
            (
                9,
                "count the framing's tokens again: measured as an empty line, its space and its line break are "
                "not two tokens but one, ' \\n'",
            ),
            (
                12,
                "one more is what a Chinese line paid when its space or its line break joined nothing: look at what "
                "they meet in this English line",
            ),
        ),
    ),
]
