"""Exercise 05's questions (lesson 05, counting units), for whoever writes or changes that exercise's checks.

q5.1 headroom_percent, q5.2 non_additive_cuts, q5.3 assemble_measured (counters that do not add up, real
cl100k_base tokens among them), q5.4 the prediction. The references are packer.checking.units.

A learner never reads this module; they meet its names in counterexamples and in the exercise's setup cell,
which imports PREDICT_UNITS (through packer.checking.bank, where notebooks have always found them).
packer.checking.bank registers `QUESTIONS` in exercise order; this module imports the engine, the inputs
and packer.checking.questions_shared, never the bank.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import packer.counters
import packer.utf8
from packer.checking import units
from packer.checking.engine import Question
from packer.checking.inputs import always_1_0, always_2_5, always_minus_1, always_none, always_true
from packer.checking.questions_shared import BOOL, NEGATIVE, POSITION, inserted
from packer.counters import count_chars_div4, count_utf8_bytes, count_words

QUESTIONS: list[Question] = []  # exercise 05's questions, in order; packer.checking.bank registers them


# Each question's first case uses a cheap counter, so an untouched stub is recognised before a real
# vocabulary is ever loaded.
def _count_cl100k_base(text: str) -> int:
    """Real cl100k_base tokens, the vocabulary loaded on first use (so importing the bank stays light)."""
    return packer.counters.bpe("cl100k_base")(text)


_count_cl100k_base.__name__ = "count_cl100k_base"
UNIT_TEXT = st.text(alphabet="ab .\n1日", max_size=14)
UNIT_COUNTER = st.sampled_from([count_words, count_chars_div4, count_utf8_bytes, _count_cl100k_base])
CUT_TEXT = st.text(alphabet="ab .\n1日\u3000\xa0", max_size=14)  # Unicode whitespace beyond ASCII too
MEASURED_BAD_COUNTER = st.sampled_from([always_true, always_2_5, always_1_0, always_minus_1, always_none])


def _tight(texts: list, count: Any, separator: str) -> tuple:
    """assemble_measured arguments whose budget is exactly the first text's own measure: a separator
    measured before the first text (which `count_chars_div4` charges for) pushes it over."""
    return texts, count(texts[0]), count, separator


HEADROOM_CASE = [9, 11, 12, 20], [10, 10, 10, 10]


def _headroom_args(pairs: list, percent: int) -> tuple:
    return [t for t, _ in pairs], [e for _, e in pairs], percent


HEADROOM_INPUTS = st.builds(
    _headroom_args,
    st.lists(st.tuples(st.integers(0, 60), st.integers(1, 30)), min_size=1, max_size=8),
    st.integers(1, 100),
)


def _list_or_tuple(items: st.SearchStrategy) -> st.SearchStrategy:
    """A list (as the question asks) or, refused, the same items as a tuple."""
    return st.one_of(st.lists(items, max_size=3), st.lists(items, max_size=3).map(tuple))


QUESTIONS.append(
    Question(
        "q5.1",
        "headroom_percent",
        2,
        "the headroom over an estimate that covers a share of passages",
        units.headroom_percent,
        cases=(
            (*HEADROOM_CASE, 50),
            (*HEADROOM_CASE, 25),
            (*HEADROOM_CASE, 75),
            (*HEADROOM_CASE, 100),
            ([7], [4], 95),
            ([], [], 50),
            ([1, 2], [1], 50),
            ([1], [0], 50),
            ([-1], [1], 50),
            ([1], [1], 0),
            ([1], [1], 101),
            ([1], [1], True),
            ([1], [1], 95.0),
            ({0: 9}, [10], 50),  # a dict is refused, even one whose keys are counts
            ([9], {1: 10}, 50),
            ([1.5], [1], 50),
            ([1], [2.5], 50),
            ([9, 11, 12], [10, 10, 10], 67),  # nearest rank: 67 % of 3 passages is 2.01, so the 3rd
            ([0], [1], 1),  # the smallest valid values
            ([4], [3], 100),  # 33.3... % rounds up to 34
            ([True], [1], 50),  # a bool is not a count (isinstance(True, int) is True)
            ([1], [True], 50),
            ([2**60 + 1], [3], 50),  # past 2**53 a float division rounds: the integer ceiling stays exact
            ((9, 11), [10, 10], 50),  # tuples are refused: the text asks for lists
            # the rank in integers: 7 passages at 100 % is rank 7 (7 / 100 * 100 is 7.000000000000001 in floats), and
            # 100 passages at 7 % rank 7, not 8
            ([10 + i for i in range(7)], [10] * 7, 100),
            ([100 + i for i in reversed(range(100))], [100] * 100, 7),
            ([9, 11], (10, 10), 50),
        ),
        inputs=st.one_of(
            HEADROOM_INPUTS,
            st.builds(  # round estimates, where float division gets whole percents wrong (11 / 10 - 1)
                _headroom_args,
                st.lists(st.tuples(st.integers(0, 60), st.sampled_from([10, 20, 25])), min_size=1, max_size=3),
                st.integers(1, 100),
            ),
            st.tuples(_list_or_tuple(st.integers(0, 9)), _list_or_tuple(st.integers(1, 9)), st.integers(1, 100)),
            HEADROOM_INPUTS.map(lambda args: (tuple(args[0]), *args[1:])),  # valid but for the tuple: refused
            st.builds(
                _headroom_args,
                st.lists(
                    st.tuples(st.one_of(st.integers(-5, 9), BOOL), st.one_of(st.integers(-2, 9), BOOL)),
                    min_size=1,
                    max_size=3,
                ),
                st.integers(1, 100),
            ),
            st.tuples(
                *map(st.just, HEADROOM_CASE), st.one_of(st.integers(-5, 0), st.integers(101, 120), st.just(True))
            ),
        ),
    )
)
QUESTIONS.append(
    Question(
        "q5.2",
        "non_additive_cuts",
        2,
        "find the cuts at whitespace where the whole is not the sum of its parts",
        units.non_additive_cuts,
        cases=(
            ("a b", count_words),
            ("end.\n\nNext", _count_cl100k_base),
            ("ab  123", _count_cl100k_base),
            ("", _count_cl100k_base),
            ("a\tb  c", count_chars_div4),
            (None, count_words),
            ("a\u3000b", count_chars_div4),  # str.isspace: the ideographic space is whitespace (string.whitespace
            # holds ASCII only)
            ("a\xa0\u2003b", count_chars_div4),  # so are the no-break and em spaces
        ),
        inputs=st.tuples(CUT_TEXT, UNIT_COUNTER),
    )
)
QUESTIONS.append(
    Question(
        "q5.3",
        "assemble_measured",
        3,
        "variant: re-measure the joined context instead of adding counts",
        units.assemble_measured,
        cases=(
            (["ab", "cd", "efgh"], 2, count_chars_div4, " "),
            (["end.", "Next", "aaaa"], 3, _count_cl100k_base),
            ([], 0, count_words),
            (["x"], -1, count_words),
            (["x"], True, count_words),
            (["x", 7], 9, count_words),
            (["x"], 9, count_words, None),
            (["x"], 9, always_2_5),
            ("ab", 9, count_words),  # a str is refused, although it iterates as texts
            (["x"], 9, always_minus_1),
            ([""], 0, count_words),  # a count of 0 is valid
            (["abcd"], 1, count_chars_div4),  # nothing is kept yet: no separator before the first text
            (("x",), 9, count_words),  # a tuple is refused: the text asks for a list
            (["x"], 9, always_true),  # True is a bool, not a count
            (["x"], 2, always_2_5),  # every result is checked, also one that does not fit
        ),
        inputs=st.one_of(
            st.builds(
                _tight, st.lists(UNIT_TEXT, min_size=1, max_size=4), UNIT_COUNTER, st.sampled_from(["\n\n", " "])
            ),
            st.tuples(st.lists(UNIT_TEXT, max_size=3), st.integers(0, 3), MEASURED_BAD_COUNTER),
            st.tuples(st.lists(UNIT_TEXT, max_size=3).map(tuple), st.integers(0, 40), UNIT_COUNTER),
            st.tuples(
                st.lists(UNIT_TEXT, max_size=6), st.integers(0, 40), UNIT_COUNTER, st.sampled_from(["\n\n", " ", ""])
            ),
            st.tuples(st.lists(UNIT_TEXT, max_size=3), st.one_of(NEGATIVE, BOOL), UNIT_COUNTER),
            st.tuples(
                st.builds(inserted, st.lists(UNIT_TEXT, max_size=3), st.sampled_from([None, 3, b"x"]), POSITION),
                st.integers(0, 40),
                UNIT_COUNTER,
            ),
        ),
    )
)
PREDICT_UNITS = [("k", "東京"), ("m", "naïve café"), ("n", "ok")]


def _predict_q5_4() -> tuple[list[str], int]:
    text, kept = packer.utf8.pack_utf8(PREDICT_UNITS, 30, 0)
    return kept, len(text.encode("utf-8"))


QUESTIONS.append(
    Question(
        "q5.4",
        "predict_q5_4",
        1,
        "predict: kept ids and the most tokens the payload can have",
        _predict_q5_4,
        cases=((),),
        predict=tuple[list[str], int],
    )
)
