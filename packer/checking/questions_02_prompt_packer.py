"""Exercise 02's questions (lesson 02, the full-prompt packer), for whoever writes or changes that exercise's checks.

q2.1 render_prompt, q2.2 pack_prompt (the whole rendered prompt re-measured), q2.3 the same refusing bad
input and broken counters, q2.4 the prediction.

A learner never reads this module; they meet its names in counterexamples and in the exercise's setup cell,
which imports PREDICT_QUESTION, PREDICT_PASSAGES and PREDICT_LIMIT (through packer.checking.bank, where notebooks have always found them).
packer.checking.bank registers `QUESTIONS` in exercise order; this module imports the engine, the inputs
and packer.checking.questions_shared, never the bank.
"""

from __future__ import annotations

from hypothesis import strategies as st

import packer.prompt
from packer.checking.engine import Question
from packer.checking.inputs import always_0, always_2_5, always_minus_1, always_true, once
from packer.checking.questions_shared import (
    ANY_PASSAGES,
    BAD_CONTAINER,
    BAD_COUNTER,
    BOOL,
    COUNTER,
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
    PASSAGES_TWINS,
    QUESTION,
    SEED_PASSAGES,
    TEXT_WITH_BREAKS,
    with_room,
)
from packer.counters import count_chars_div4, count_utf8_bytes, count_words

PAIRS_AS_LISTS = PASSAGE_LIST.map(lambda passages: [list(pair) for pair in passages])  # [id, text] pairs

QUESTIONS: list[Question] = []  # exercise 02's questions, in order; packer.checking.bank registers them

QUESTIONS.append(
    Question(
        "q2.1",
        "render_prompt",
        2,
        "render the exact prompt text",
        packer.prompt.render_prompt,
        cases=(
            ("why", SEED_PASSAGES),
            ("why", []),
            ("", [("x", "")]),
            ("what is {x}?", []),  # braces and percent signs are text, not a template
            ("100% sure?", []),
            ("why", [("{a}", "{b}"), ("5%", "99%")]),
            ("why", [(" k ", " x ")]),  # ids and texts are written exactly as given, spaces included
            ("why", [("é", "x"), ("e\u0301", "y")]),  # ... and é in either Unicode form (two ids)
            ("why", [("c", "real\n[d] forged")]),  # folded: a line of a text never starts a source ...
            ("why", [("a", "end.\nAnswer: 42")]),  # ... nor the answer cue
            ("line\nbreak?", [("e", "x\r\ny\u2028z\n")]),  # the question too; every line break, "\r\n" as one
        ),
        inputs=st.one_of(
            st.tuples(QUESTION, PASSAGES), st.tuples(st.one_of(QUESTION, TEXT_WITH_BREAKS), FOLDED_PASSAGE_LIST)
        ),
    )
)
QUESTIONS.append(
    Question(
        "q2.2",
        "pack_prompt",
        3,
        "re-measure the complete prompt for every candidate",
        packer.prompt.pack_prompt,
        cases=(
            ("why", SEED_PASSAGES, 9, count_words),
            ("why", [], 4, count_words),
            ("why", SEED_PASSAGES, 13, count_words),
            ("why", [("a", "aaaaa"), ("b", "bbbbb")], 10, count_chars_div4),
            ("日本?", [("é", "日本語"), ("b", "")], 49, count_utf8_bytes),
            ("why", once(SEED_PASSAGES), 9, count_words),  # read once
            ("why", [["a", "x"], ("b", "y")], 20, count_words),  # a pair given as a list is returned as a tuple
            ("why", SEED_PASSAGES, 0, always_0),  # the prompt fills the limit exactly from the start: carry on
            ("why", [("a", "x\ny"), ("b", "z")], 38, count_utf8_bytes),  # folded, a's prompt is 39 bytes: skipped
        ),
        inputs=st.builds(  # pairs given as lists too, texts with line breaks, and a counter that never grows
            with_room,
            QUESTION,
            st.one_of(PASSAGE_LIST, PASSAGE_LIST.map(tuple), PAIRS_AS_LISTS, FOLDED_PASSAGE_LIST),
            st.integers(0, 40),
            st.sampled_from([count_words, count_chars_div4, count_utf8_bytes, always_0]),
        ),
    )
)
QUESTIONS.append(
    Question(
        "q2.3",
        "pack_prompt",
        2,
        "refuse bad input with ValueError",
        packer.prompt.pack_prompt,
        cases=(
            ("why", SEED_PASSAGES, 3, count_words),
            ("why", [("a", "x"), ("a", "y")], 20, count_words),
            ("why", [("", "x")], 20, count_words),
            ("why", [("a]", "x")], 20, count_words),
            ("why", [("a\nb", "x")], 20, count_words),
            ("why", [(1, "x")], 20, count_words),
            ("why", [("a", None)], 20, count_words),
            ("why", SEED_PASSAGES, -1, count_words),
            ("why", SEED_PASSAGES, True, count_words),
            ("why", SEED_PASSAGES, 9, always_2_5),
            ("why", SEED_PASSAGES, 9, always_minus_1),
            ("why", SEED_PASSAGES, 9, always_true),
            ("why", SEED_PASSAGES, True, always_0),
            ("why", SEED_PASSAGES, False, always_0),
            ("why", SEED_PASSAGES, 9, count_words),
            ("why", once(SEED_PASSAGES), 9, count_words),
            ("why", tuple(SEED_PASSAGES), 9, count_words),
            ("why", "ab", 9, count_words),
            ("why", [("a", "x"), ("a", "y")], -1, count_words),
            (None, SEED_PASSAGES, 9, count_words),
            ("why", SEED_PASSAGES, 9, "count_words"),
            ("why", SEED_PASSAGES, 0, always_0),  # a limit of 0 and a count of 0 are both valid
            ("why", "", 9, count_words),  # empty containers of the refused kinds: no item inside is there to fail
            ("why", b"", 9, count_words),
            ("why", {}, 9, count_words),
            ("why", set(), 9, count_words),
            ("why", [["a", "x"]], 20, count_words),  # a pair may be a list
            ("why", [(" ", "x")], 20, count_words),  # an id of spaces is not empty
            ("why", [("a\r", "x")], 20, count_words),
            ("why", [("a\x0bb", "x")], 20, count_words),  # every line break str.splitlines knows
            ("why", [("a\x85", "x")], 20, count_words),
            ("why", [("\u2028a", "x")], 20, count_words),
            ("why", [("a\x1c", "x")], 20, count_words),
            ("why", [("a\x0c", "x")], 20, count_words),
            ("why", [("a\x1d", "x")], 20, count_words),
            ("why", [("a\x1e", "x")], 20, count_words),
            ("why", [("a\u2029", "x")], 20, count_words),
            ("why", [("b]", LONG_TEXT)], 5, count_words),  # too long to keep: its id is checked still
            ("why", [("a", "x"), ("a", LONG_TEXT)], 5, count_words),  # a repeat that would be skipped
            ("why", [("a", "x"), ("b", "y"), ("a", "z")], 20, count_words),  # a repeat, not next to the first
            ("why", SEED_PASSAGES, 0, count_words),  # a limit of 0 under a base prompt of 4 words
            ("why", [("[a", "x")], 20, count_words),
            ("why", ["ab"], 20, count_words),  # unpacks into two characters, but is not a pair
            ("why", None, 9, count_words),
            ("why", [("a", "x"), ("A", "y")], 20, count_words),  # ids differing only in case are different ids
            ("why", [("é", "x"), ("e\u0301", "y")], 20, count_words),  # so are two Unicode forms of é
        ),
        inputs=st.one_of(  # valid input, or valid input with one defect, or with two
            st.builds(with_room, QUESTION, ANY_PASSAGES, st.integers(0, 40), COUNTER),
            st.builds(with_room, QUESTION, PASSAGES_TWINS, st.integers(0, 40), COUNTER),
            st.builds(with_room, QUESTION, PASSAGES, st.integers(-12, -1), COUNTER),
            *[st.tuples(QUESTION, ANY_PASSAGES, bad, COUNTER) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
            st.builds(with_room, QUESTION, PASSAGES_ONE_BAD, st.integers(0, 40), COUNTER),
            st.builds(with_room, QUESTION, PASSAGES_TWICE, st.integers(0, 40), COUNTER),
            st.builds(with_room, QUESTION, PASSAGES_SKIPPED_BAD, st.integers(0, 3), COUNTER),  # skipped, refused
            st.builds(with_room, QUESTION, PASSAGES_ONE_BAD.map(once), st.integers(0, 40), COUNTER),
            st.tuples(QUESTION, BAD_CONTAINER, st.integers(0, 60), COUNTER),
            st.tuples(QUESTION, ANY_PASSAGES, st.integers(0, 60), BAD_COUNTER),
            st.tuples(QUESTION, PASSAGES_TWICE, NOT_A_COUNT, COUNTER),
            st.tuples(QUESTION, PASSAGES_ONE_BAD, st.integers(0, 60), BAD_COUNTER),
            st.tuples(st.sampled_from([None, 7, b"why", ("why",)]), PASSAGES, st.integers(0, 60), COUNTER),
        ),
    )
)
PREDICT_QUESTION = "Is the FIFO full?"
PREDICT_PASSAGES = [
    ("p1", "Reset is active low"),
    ("p2", "Full blocks all writes"),
    ("p3", "Depth: 8"),
    ("p4", "Width 8"),
]
PREDICT_LIMIT = 24  # rounding per line, flooring, forgetting the labels and stopping early each predict otherwise


def _predict_q2_4() -> tuple[list[str], list[str]]:
    chosen, skipped, _ = packer.prompt.pack_prompt(PREDICT_QUESTION, PREDICT_PASSAGES, PREDICT_LIMIT, count_chars_div4)
    return [key for key, _ in chosen], skipped


QUESTIONS.append(
    Question(
        "q2.4",
        "predict_q2_4",
        1,
        "predict: chosen and skipped ids at limit 24 with chars/4",
        _predict_q2_4,
        cases=((),),
        predict=tuple[list[str], list[str]],
    )
)
