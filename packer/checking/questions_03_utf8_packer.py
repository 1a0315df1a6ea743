"""Exercise 03's questions (lesson 03, the UTF-8 byte packer), for whoever writes or changes that exercise's checks.

q3.1 pack_utf8 (exact bytes plus a framing reserve, in linear work), q3.2 the same refusing bad input,
q3.3 pack_utf8_report, q3.4 the prediction.

A learner never reads this module; they meet its names in counterexamples and in the exercise's setup cell,
which imports PREDICT_UTF8 (through packer.checking.bank, where notebooks have always found them).
packer.checking.bank registers `QUESTIONS` in exercise order; this module imports the engine, the inputs
and packer.checking.questions_shared, never the bank.
"""

from __future__ import annotations

from hypothesis import strategies as st

import packer.utf8
from packer.checking import variants
from packer.checking.engine import Question
from packer.checking.inputs import once
from packer.checking import linear
from packer.checking.linear import linear_in_passages
from packer.checking.questions_shared import (
    ANY_PASSAGES,
    BAD_CONTAINER,
    BOOL,
    FOLDED_PASSAGE_LIST,
    LONG_TEXT,
    NEGATIVE,
    NOT_A_COUNT,
    NOT_AN_INT,
    PASSAGE_LIST,
    PASSAGES,
    PASSAGES_ONE_BAD,
    PASSAGES_TWICE,
    PASSAGES_SKIPPED_BAD,
)

HEADER_BYTES = len(packer.utf8.HEADER.encode("utf-8"))

QUESTIONS: list[Question] = []  # exercise 03's questions, in order; packer.checking.bank registers them


def _utf8_args(passages: list, reserve: int, extra: int) -> tuple:
    return passages, HEADER_BYTES + reserve + extra, reserve


RESERVE = st.one_of(st.just(0), st.integers(0, 8))
UTF8_INPUTS_MAYBE_BAD = st.one_of(  # valid input, or valid input with one defect, or with two
    st.builds(_utf8_args, ANY_PASSAGES, RESERVE, st.integers(0, 50)),
    st.builds(_utf8_args, st.one_of(PASSAGE_LIST.map(tuple), PASSAGE_LIST.map(once)), RESERVE, st.integers(0, 50)),
    st.builds(_utf8_args, PASSAGES, RESERVE, st.integers(-9, -1)),
    *[st.tuples(ANY_PASSAGES, bad, RESERVE) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
    *[st.tuples(ANY_PASSAGES, st.integers(9, 60), bad) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
    st.builds(_utf8_args, PASSAGES_ONE_BAD, RESERVE, st.integers(0, 50)),
    st.builds(_utf8_args, PASSAGES_ONE_BAD.map(once), RESERVE, st.integers(0, 50)),
    st.builds(_utf8_args, PASSAGES_TWICE, RESERVE, st.integers(0, 50)),
    st.builds(_utf8_args, PASSAGES_SKIPPED_BAD, RESERVE, st.integers(0, 9)),  # skipped for its size, refused
    st.builds(_utf8_args, BAD_CONTAINER, RESERVE, st.integers(0, 50)),
    st.tuples(PASSAGES_ONE_BAD, st.integers(0, 60), NOT_A_COUNT),
    st.builds(_utf8_args, PASSAGES_TWICE, RESERVE, st.integers(-9, -1)),
)


QUESTIONS.append(
    Question(
        "q3.1",
        "pack_utf8",
        3,
        "keep whole passages while payload bytes plus reserve fit",
        packer.utf8.pack_utf8,
        cases=(
            ([("a", "é")], 16, 0),
            ([("a", "é")], 15, 0),
            ([("a", "é")], 17, 1),
            ([], 9, 0),
            ([("a", "x"), ("b", "y" * 40), ("c", "z")], 30, 0),
            ([("é", "x")], 15, 0),
            ([("é", "x")], 16, 0),
            ([("日", ""), ("b", "")], 17, 0),
            ([("a", "x")], 16, 0),
            ([("a", "x")], 16, 2),  # 15 payload bytes fit in 16, but not with the 2 reserved
            (once([("a", "x"), ("b", "y")]), 99, 0),  # read once
            ([("{a}", "{b}"), ("5%", "99%")], 99, 0),  # braces and percent signs are text, not a template
            ([(" k ", " x ")], 99, 0),  # ids and texts are written exactly as given, spaces included
            ([("c", "real\n[d] forged"), ("e", "x\r\ny\u2028z\n")], 99, 0),  # texts folded, "\r\n" as one break
            ([("a", "x\ny")], 17, 0),  # folded, the line is 9 bytes, not 8: 18 is over 17
        ),
        inputs=st.builds(_utf8_args, st.one_of(PASSAGES, FOLDED_PASSAGE_LIST), RESERVE, st.integers(0, 50)),
        requirement=linear_in_passages("pack_utf8"),
        requirement_note=linear.NOTE,
    )
)
QUESTIONS.append(
    Question(
        "q3.2",
        "pack_utf8",
        2,
        "refuse bad input with ValueError",
        packer.utf8.pack_utf8,
        cases=(
            ([("a", "é")], 16, -1),
            ([("a", "é")], True, 0),
            ([("a", "é")], 16, False),
            ([("a", "é")], 16.0, 0),
            ([], 8, 0),
            ([], 10, 2),
            ([("a", "x"), ("a", "y")], 99, 0),
            ([("a", "x"), ("A", "y")], 99, 0),  # ids differing only in case are two ids
            ([("", "x")], 99, 0),
            ([("a]", "x")], 99, 0),
            ([("a", 5)], 99, 0),
            ([("a", "x"), ("b\n", "y")], 99, 0),
            ([("a", "é")], 16, 0),
            (once([("a", "x"), ("b", "y")]), 99, 0),
            ((("a", "x"),), 99, 0),
            ("ab", 99, 0),
            ({"a": "x"}, 99, 0),
            (once([("a", "x"), ("a", "y")]), 99, 0),
            ([("a", "x"), ("a", "y")], 99, -1),
            ("", 99, 0),  # empty containers of the refused kinds: no item inside is there to fail
            (b"", 99, 0),
            ({}, 99, 0),
            (set(), 99, 0),
            (["ab"], 99, 0),  # unpacks into two characters, but is not a pair
            ([["a", "x"]], 99, 0),  # a pair may be a list
            ([(7, "x")], 99, 0),
            ([(" ", "x")], 99, 0),  # an id of spaces is not empty
            ([("a\r", "x")], 99, 0),
            ([("a\x0bb", "x")], 99, 0),  # every line break str.splitlines knows
            ([("a\x85", "x")], 99, 0),
            ([("a\x0c", "x")], 99, 0),
            ([("a\x1c", "x")], 99, 0),
            ([("a\x1d", "x")], 99, 0),
            ([("a\x1e", "x")], 99, 0),
            ([("\u2028a", "x")], 99, 0),
            ([("a\u2029", "x")], 99, 0),
            ([("\u2029a", "x")], 99, 0),
            ([("a\x1e", "x")], 99, 0),
            ([("a", "x"), ("b]", LONG_TEXT)], 20, 0),  # too long to keep: its id is checked still
            ([("a", "x"), ("a", LONG_TEXT)], 20, 0),  # a repeat that would be skipped
            ([("a", "x"), ("b", "y"), ("a", "z")], 99, 0),  # a repeat, not next to the first
            ([], 0, 0),  # a limit of 0 under the header's 9 bytes
            ([("[a", "x")], 99, 0),
            (None, 99, 0),
            ([], 9, 0),  # the header alone, exactly at the limit, is allowed
        ),
        inputs=UTF8_INPUTS_MAYBE_BAD,
    )
)
QUESTIONS.append(
    Question(
        "q3.3",
        "pack_utf8_report",
        2,
        "variant: also report the skipped ids",
        variants.pack_utf8_report,
        cases=(
            ([("a", "x"), ("b", "y" * 40), ("c", "z")], 30, 0),
            ([], 9, 0),
            ([], 8, 0),
            ([("a", "x"), ("a", "y")], 99, 0),
            (once([("a", "x"), ("b", "y" * 40), ("c", "z")]), 30, 0),
            ([("é", "x"), ("b", "y")], 16, 0),
        ),
        inputs=st.one_of(
            UTF8_INPUTS_MAYBE_BAD, st.builds(_utf8_args, PASSAGE_LIST.map(once), RESERVE, st.integers(0, 20))
        ),
    )
)
PREDICT_UTF8 = [("q", "naïve café"), ("r", "日本語のテキスト"), ("s", "ok")]


def _predict_q3_4() -> tuple[list[str], int]:
    text, kept = packer.utf8.pack_utf8(PREDICT_UTF8, 40, 4)
    return kept, len(text.encode("utf-8"))


QUESTIONS.append(
    Question(
        "q3.4",
        "predict_q3_4",
        1,
        "predict: kept ids and payload bytes at limit 40, reserve 4",
        _predict_q3_4,
        cases=((),),
        predict=tuple[list[str], int],
    )
)
