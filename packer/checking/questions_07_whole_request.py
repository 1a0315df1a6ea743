"""Exercise 07's questions (lesson 07, the whole request), for whoever writes or changes that exercise's checks.

q7.1 pack_request, q7.2 the same refusing bad input and broken counters, q7.3 fits, q7.4 the prediction,
with the template facts it is worked from (measured with mistral-common, stored here).

A learner never reads this module; they meet its names in counterexamples and in the exercise's setup cell,
which imports PREDICT_SYSTEM, PREDICT_USER, PREDICT_PIECES and SMALL_PIECES (through packer.checking.bank, where notebooks have always found them).
packer.checking.bank registers `QUESTIONS` in exercise order; this module imports the engine, the inputs
and packer.checking.questions_shared, never the bank.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import packer.chat
import packer.prompt
import packer.request
from packer.checking import variants
from packer.checking.engine import Question
from packer.checking.inputs import (
    BROKEN_COUNTERS,
    REQUEST_COUNTERS,
    always_0,
    always_1_0,
    always_2_5,
    always_minus_1,
    always_none,
    always_true,
    count_request_words,
    count_system_folded,
    count_template_div4,
    once,
    words_then_2_5,
)
from packer.checking.questions_shared import (
    ANY_PASSAGES,
    BAD_CONTAINER,
    BOOL,
    KEY,
    LONG_TEXT,
    NEGATIVE,
    NOT_A_COUNT,
    NOT_AN_INT,
    PASSAGES,
    PASSAGES_ONE_BAD,
    PASSAGES_TWICE,
    PASSAGES_SKIPPED_BAD,
    PASSAGES_TWINS,
    QUESTION,
    SEED_PASSAGES,
    TEXT,
)

QUESTIONS: list[Question] = []  # exercise 07's questions, in order; packer.checking.bank registers them

# The checks count requests with the cheap stand-ins of packer.checking.inputs (whitespace words with a
# per-message charge, chars/4 of a made-up template, a system prompt folded into the user's turn), never with
# a real tokenizer: pack_request's rules do not depend on which counter it is given, and a real template
# costs tens of milliseconds a call (its tokenizer loads in seconds), which the generated search would pay
# hundreds of times.
SYSTEM = st.one_of(st.sampled_from(["", "Be brief.", "Answer from the sources."]), TEXT)
REQUEST_COUNTER = st.sampled_from(REQUEST_COUNTERS)
MAX_OUTPUT = st.one_of(st.just(0), st.integers(0, 30))
TWO_PASSAGES = [("a", "one two"), ("b", "one two three four five")]


def _base_request(question: str, system: str, count: Any) -> int:
    """What a request counter measures for the request without passages."""
    return count(packer.request.build_request(question, [], system))


def _request_args(question: str, passages: list, system: str, extra: int, max_output: int, count: Any) -> tuple:
    """pack_request arguments whose window leaves max_output and `extra` tokens above the base request."""
    return question, passages, _base_request(question, system, count) + max_output + extra, max_output, count, system


def _request_over(question: str, passages: list, system: str, short: int, max_output: int, count: Any) -> tuple:
    """pack_request arguments whose base request plus max_output is `short` tokens over the window (or whose
    max_output is over the window, when the base request is smaller than `short`)."""
    window = max(_base_request(question, system, count) + max_output - short, 0)
    return question, passages, window, max_output, count, system


QUESTIONS.append(
    Question(
        "q7.1",
        "pack_request",
        3,
        "re-measure the whole request for every candidate, leaving max_output free",
        packer.request.pack_request,
        cases=(
            # count_request_words: the base request is 10 (3 + 3 + the prompt's 4 words); a adds 3, b 6, c 2.
            ("why", SEED_PASSAGES, 20, 5, count_request_words),  # 15 for the input: a, then c exactly (15)
            ("why", SEED_PASSAGES, 21, 5, count_request_words),  # 16: b alone (16) would fit, after a (19) not
            ("why", SEED_PASSAGES, 20, 0, count_request_words),  # no reserve: a and b (19)
            ("why", [], 10, 0, count_request_words),
            ("why", TWO_PASSAGES, 20, 5, count_request_words),  # the last candidate measured is not the request
            ("why", SEED_PASSAGES, 20, 5, count_request_words, "Be brief."),  # the system prompt's 2 words + 3
            ("why", SEED_PASSAGES, 26, 5, count_request_words, "Be brief."),  # ... leave room for a and c
            ("why", SEED_PASSAGES, 20, 5, count_request_words, ""),  # no system message at all when it is ""
            ("why", SEED_PASSAGES, 24, 4, count_template_div4),  # 15, a 18, b 25, c 20: a, then c exactly
            ("why", SEED_PASSAGES, 27, 3, count_template_div4, "Be brief."),
            ("why", SEED_PASSAGES, 20, 2, count_system_folded, "Be brief."),
            ("why", SEED_PASSAGES, 17, 2, count_system_folded, ""),
            ("why", once(SEED_PASSAGES), 20, 5, count_request_words),  # read once
            ("what is {x}?", [("{a}", "{b}"), ("5%", "99%")], 99, 9, count_template_div4, "{y} 100%"),
            ("why", [(" k ", " x ")], 99, 9, count_template_div4, " sys "),  # written exactly as given
            ("why", [["a", "one two"]], 20, 5, count_request_words),  # a pair may be a list
            ("why", [("a", "a\nb\nc\nd")], 18, 0, count_template_div4),  # folded, the request measures 19
        ),
        inputs=st.builds(_request_args, QUESTION, PASSAGES, SYSTEM, st.integers(0, 40), MAX_OUTPUT, REQUEST_COUNTER),
    )
)
BAD_REQUEST_COUNTER = st.sampled_from((*BROKEN_COUNTERS, words_then_2_5))
QUESTIONS.append(
    Question(
        "q7.2",
        "pack_request",
        2,
        "refuse bad input with ValueError",
        packer.request.pack_request,
        cases=(
            ("why", SEED_PASSAGES, -1, 0, count_request_words),
            ("why", SEED_PASSAGES, 20, -1, count_request_words),
            ("why", SEED_PASSAGES, True, 0, always_0),
            ("why", SEED_PASSAGES, 20, True, count_request_words),
            ("why", SEED_PASSAGES, 20, False, count_request_words),
            ("why", SEED_PASSAGES, 20.0, 5, count_request_words),
            ("why", SEED_PASSAGES, 20, 5.0, count_request_words),
            ("why", SEED_PASSAGES, 20, "5", count_request_words),
            ("why", SEED_PASSAGES, 20, None, count_request_words),
            ("why", SEED_PASSAGES, 20, 21, always_0),  # max_output over the window, whatever the request
            ("why", SEED_PASSAGES, 20, 20, always_0),  # max_output equal to the window is valid
            ("why", SEED_PASSAGES, 14, 5, count_request_words),  # base 10 + 5 is 15, over 14
            ("why", SEED_PASSAGES, 15, 5, count_request_words),  # exactly 15: valid
            ("why", SEED_PASSAGES, 10, 0, count_request_words, "Be brief."),  # the system prompt makes it 15
            ("why", SEED_PASSAGES, 20, 5, always_2_5),
            ("why", SEED_PASSAGES, 20, 5, always_1_0),
            ("why", SEED_PASSAGES, 20, 5, always_minus_1),
            ("why", SEED_PASSAGES, 20, 5, always_none),
            ("why", SEED_PASSAGES, 20, 5, always_true),
            ("why", SEED_PASSAGES, 20, 5, words_then_2_5),  # fine on the base request, 2.5 on a candidate
            ("why", [], 20, 5, words_then_2_5),  # no candidate, so never 2.5
            ("why", SEED_PASSAGES, 20, 5, "count_request_words"),
            ("why", SEED_PASSAGES, 20, 5, None),
            (None, SEED_PASSAGES, 20, 5, count_request_words),
            ("why", SEED_PASSAGES, 20, 5, count_request_words, None),
            ("why", SEED_PASSAGES, 20, 5, count_request_words, b"sys"),
            ("why", [("a", "x"), ("a", "y")], 99, 5, count_request_words),
            ("why", [("", "x")], 99, 5, count_request_words),
            ("why", [("a]", "x")], 99, 5, count_request_words),
            ("why", [("[a", "x")], 99, 5, count_request_words),
            ("why", [("a\nb", "x")], 99, 5, count_request_words),
            ("why", [("a\r", "x")], 99, 5, count_request_words),
            ("why", [("a\x0bb", "x")], 99, 5, count_request_words),  # every line break str.splitlines knows
            ("why", [("a\x85", "x")], 99, 5, count_request_words),
            ("why", [("\u2028a", "x")], 99, 5, count_request_words),
            ("why", [("a\x1c", "x")], 99, 5, count_request_words),
            ("why", [("a\x0c", "x")], 99, 5, count_request_words),
            ("why", [("a\x1d", "x")], 99, 5, count_request_words),
            ("why", [("a\x1e", "x")], 99, 5, count_request_words),
            ("why", [("a\u2029", "x")], 99, 5, count_request_words),
            ("why", [("b]", LONG_TEXT)], 20, 5, count_request_words),  # too long to keep: its id is checked still
            ("why", [("", LONG_TEXT)], 20, 5, count_request_words),
            ("why", [("b\u2029", LONG_TEXT)], 20, 5, count_request_words),
            ("why", [("a", "x"), ("a", LONG_TEXT)], 20, 5, count_request_words),  # a repeat that would be skipped
            ("why", [("a", "x"), ("b", "y"), ("a", "z")], 99, 5, count_request_words),  # a repeat, not next to it
            ("why", SEED_PASSAGES, 0, 0, count_request_words),  # a window of 0 under a base request of 10
            ("why", [(1, "x")], 99, 5, count_request_words),
            ("why", [("a", None)], 99, 5, count_request_words),
            ("why", ["ab"], 99, 5, count_request_words),  # unpacks into two characters, but is not a pair
            ("why", [("a", "x", "y")], 99, 5, count_request_words),
            ("why", [None], 99, 5, count_request_words),
            ("why", "ab", 99, 5, count_request_words),
            ("why", "", 99, 5, count_request_words),  # empty containers of the refused kinds
            ("why", b"", 99, 5, count_request_words),
            ("why", {}, 99, 5, count_request_words),
            ("why", set(), 99, 5, count_request_words),
            ("why", None, 99, 5, count_request_words),
            ("why", once(SEED_PASSAGES), 20, 5, count_request_words),
            ("why", once([("a", "x"), ("a", "y")]), 99, 5, count_request_words),
            ("why", tuple(SEED_PASSAGES), 20, 5, count_request_words),
            ("why", [["a", "x"]], 99, 5, count_request_words),  # a pair may be a list
            ("why", [(" ", "x")], 99, 5, count_request_words),  # an id of spaces is not empty
            ("why", SEED_PASSAGES, 0, 0, always_0),  # a window of 0 and a count of 0 are both valid
            ("why", SEED_PASSAGES, 20, 5, count_request_words),
            ("why", [("a", "x"), ("A", "y")], 99, 5, count_request_words),  # ids differing only in case: valid
            ("why", [("é", "x"), ("e\u0301", "y")], 99, 5, count_request_words),  # two Unicode forms of é: valid
        ),
        inputs=st.one_of(  # valid input, or valid input with one defect, or with two
            st.builds(_request_args, QUESTION, ANY_PASSAGES, SYSTEM, st.integers(0, 30), MAX_OUTPUT, REQUEST_COUNTER),
            st.builds(_request_args, QUESTION, PASSAGES_TWINS, SYSTEM, st.integers(0, 30), MAX_OUTPUT, REQUEST_COUNTER),
            st.builds(_request_over, QUESTION, PASSAGES, SYSTEM, st.integers(1, 12), MAX_OUTPUT, REQUEST_COUNTER),
            *[
                st.tuples(QUESTION, ANY_PASSAGES, bad, MAX_OUTPUT, REQUEST_COUNTER, SYSTEM)
                for bad in (NEGATIVE, BOOL, NOT_AN_INT)
            ],
            *[
                st.tuples(QUESTION, ANY_PASSAGES, st.integers(40, 90), bad, REQUEST_COUNTER, SYSTEM)
                for bad in (NEGATIVE, BOOL, NOT_AN_INT)
            ],
            st.builds(
                lambda args, over: (*args[:3], args[2] + over, *args[4:]),
                st.builds(_request_args, QUESTION, PASSAGES, SYSTEM, st.integers(0, 30), MAX_OUTPUT, REQUEST_COUNTER),
                st.integers(1, 9),
            ),  # max_output over the window
            st.builds(
                _request_args, QUESTION, PASSAGES_ONE_BAD, SYSTEM, st.integers(0, 30), MAX_OUTPUT, REQUEST_COUNTER
            ),
            st.builds(_request_args, QUESTION, PASSAGES_TWICE, SYSTEM, st.integers(0, 30), MAX_OUTPUT, REQUEST_COUNTER),
            st.builds(  # a bad or repeated id on a passage too long for the room left: refused all the same
                _request_args, QUESTION, PASSAGES_SKIPPED_BAD, SYSTEM, st.integers(0, 3), MAX_OUTPUT, REQUEST_COUNTER
            ),
            st.builds(
                _request_args,
                QUESTION,
                PASSAGES_ONE_BAD.map(once),
                SYSTEM,
                st.integers(0, 30),
                MAX_OUTPUT,
                REQUEST_COUNTER,
            ),
            st.tuples(QUESTION, BAD_CONTAINER, st.integers(40, 90), MAX_OUTPUT, REQUEST_COUNTER, SYSTEM),
            st.tuples(QUESTION, ANY_PASSAGES, st.integers(40, 90), MAX_OUTPUT, BAD_REQUEST_COUNTER, SYSTEM),
            st.tuples(  # a counter that goes wrong only once a passage is in the request
                QUESTION,
                st.lists(st.tuples(KEY, TEXT), min_size=1, max_size=4, unique_by=lambda p: p[0]),
                st.integers(40, 90),
                MAX_OUTPUT,
                st.just(words_then_2_5),
                SYSTEM,
            ),
            st.tuples(QUESTION, PASSAGES_TWICE, NOT_A_COUNT, MAX_OUTPUT, REQUEST_COUNTER, SYSTEM),
            st.tuples(QUESTION, PASSAGES_ONE_BAD, st.integers(40, 90), MAX_OUTPUT, BAD_REQUEST_COUNTER, SYSTEM),
            st.tuples(
                st.sampled_from([None, 7, b"why", ("why",)]), PASSAGES, st.integers(40, 90), MAX_OUTPUT, REQUEST_COUNTER
            ),
            st.tuples(
                QUESTION, PASSAGES, st.integers(40, 90), MAX_OUTPUT, REQUEST_COUNTER, st.sampled_from([None, 7, b"sys"])
            ),
        ),
    )
)
TOKENS = st.one_of(st.just(0), st.integers(0, 40))
QUESTIONS.append(
    Question(
        "q7.3",
        "fits",
        1,
        "the output reserve: input + max_output within the window",
        variants.fits,
        cases=(
            (90, 10, 100),  # an exact fit is allowed
            (91, 10, 100),
            (50, 10, 100),
            (0, 0, 0),
            (100, 0, 100),
            (0, 101, 100),
            (101, 0, 100),
            (-1, 10, 100),
            (10, -1, 100),
            (10, 10, -1),
            (True, 0, 100),
            (0, True, 100),
            (0, 0, True),
            (90.0, 10, 100),
            (90, 10.0, 100),
            (90, 10, 100.0),
            ("90", 10, 100),
            (90, None, 100),
            (-5, 10, 0),  # a negative input cannot make room
        ),
        inputs=st.one_of(
            st.tuples(TOKENS, TOKENS, st.integers(0, 80)),
            st.builds(lambda used, out, extra: (used, out, used + out + extra), TOKENS, TOKENS, st.integers(-2, 2)),
            st.tuples(NOT_A_COUNT, TOKENS, st.integers(0, 80)),
            st.tuples(TOKENS, NOT_A_COUNT, st.integers(0, 80)),
            st.tuples(TOKENS, TOKENS, NOT_A_COUNT),
        ),
    )
)
# Lesson 07's template facts for one request, measured with mistral-common (tests/checking/test_checks.py
# checks them against packer.chat.mistral_chat): the three texts' SentencePiece tokens, each encoded alone.
PREDICT_SYSTEM = "Answer only from the sources."
PREDICT_USER = packer.prompt.render_prompt("Is the FIFO full?", [("p1", "Full blocks all writes"), ("p3", "Depth: 8")])
JOINED = "the system prompt, two newlines and the user's prompt, as one text"
PREDICT_PIECES = {  # tokens of each text, encoded alone (with SentencePiece's leading "▁")
    "the system prompt": 6,  # PREDICT_SYSTEM
    "the user's prompt": 35,  # PREDICT_USER
    JOINED: 43,  # PREDICT_SYSTEM + "\n\n" + PREDICT_USER
}
# The tokens of a small request under both templates, shown in the exercise as q7.4's worked example (stored,
# so that grading a submission loads no tokenizer; the same test checks them).
SMALL_REQUEST = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
SMALL_PIECES = {
    "v1": ["<s>", "▁[", "INST", "]", "▁Be", "▁brief", ".", "<0x0A>", "<0x0A>", "Hi", "▁[", "/", "INST", "]"],
    "v7": ["<s>", "[SYSTEM_PROMPT]", "▁Be", "▁brief", ".", "[/SYSTEM_PROMPT]", "[INST]", "▁Hi", "[/INST]"],
}
V1_INST, V1_END_INST = 3, 4  # v1 writes [INST] and [/INST] as text: "▁[", "INST", "]" and "▁[", "/", "INST", "]"


def _predict_q7_4() -> tuple[int, int]:
    v1 = 1 + V1_INST + PREDICT_PIECES[JOINED] + V1_END_INST  # <s>, [INST] as text, the joined text, [/INST]
    system, user = PREDICT_PIECES["the system prompt"], PREDICT_PIECES["the user's prompt"]
    v7 = 2 + system + 2 + user + 1  # <s> [SYSTEM_PROMPT], [/SYSTEM_PROMPT] [INST], [/INST]: control tokens
    return v1, v7


QUESTIONS.append(
    Question(
        "q7.4",
        "predict_q7_4",
        1,
        "predict: the request's tokens under Mistral's v1 and v7 templates",
        _predict_q7_4,
        cases=((),),
        predict=tuple[int, int],
    )
)
