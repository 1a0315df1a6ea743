"""Exercise 01's questions (lesson 01, assemble_context), for whoever writes or changes that exercise's checks.

q1.1 assemble_context (greedy packing, skip and continue), q1.2 the same refusing bad input, q1.3 assemble_prefix
and q1.4 assemble_charged (the variants), q1.5 the prediction. The chunk generators here (valid chunks, one
defect each, bad containers) are this exercise's alone.

A learner never reads this module; they meet its names in counterexamples and in the exercise's setup cell,
which imports EXAMPLE (the lesson's four chunks) and PREDICT_CHUNKS (through packer.checking.bank, where notebooks have always found them).
packer.checking.bank registers `QUESTIONS` in exercise order; this module imports the engine, the inputs
and packer.checking.questions_shared, never the bank.
"""

from __future__ import annotations

from hypothesis import strategies as st

import packer.chunks
from packer.checking import variants
from packer.checking.engine import Question
from packer.checking.inputs import Record, once
from packer.checking.questions_shared import BAD_CONTAINER, BOOL, NEGATIVE, NOT_A_COUNT, NOT_AN_INT, POSITION, inserted

COST = st.one_of(st.just(0), st.integers(0, 60))
CHUNK_DICT = st.fixed_dictionaries({"text": st.text(alphabet="ab é日🙂", max_size=5), "token_count": COST})
CHUNK = st.one_of(
    CHUNK_DICT,
    CHUNK_DICT.map(lambda c: {**c, "source": "wiki"}),  # other keys are allowed and ignored
    CHUNK_DICT.map(Record),  # any mapping, not only a dict
)
CHUNK_LIST = st.lists(CHUNK, max_size=7)
CHUNKS = st.one_of(CHUNK_LIST, CHUNK_LIST.map(tuple))
ANY_CHUNKS = st.one_of(CHUNKS, CHUNK_LIST.map(once))  # the container contract: any ordered iterable, read once
SEPARATOR = st.sampled_from(["\n\n", " | ", "", "\n---\n", " · ", "日"])
BAD_CHUNK = st.one_of(
    CHUNK_DICT.map(lambda c: {"text": c["text"]}),
    CHUNK_DICT.map(lambda c: {"token_count": c["token_count"]}),
    CHUNK_DICT.map(lambda c: Record(text=c["text"], token_count=-1)),
    st.builds(lambda t, n: {"text": t, "token_count": n}, st.one_of(st.integers(), st.none()), st.integers(0, 9)),
    st.builds(lambda t, n: {"text": t, "token_count": n}, st.text(max_size=3), NOT_A_COUNT),
    st.sampled_from(["alpha", ("alpha", 4), None]),
)
CHUNKS_ONE_BAD = st.builds(inserted, CHUNK_LIST, BAD_CHUNK, POSITION)
EXAMPLE = [
    {"text": "alpha", "token_count": 40},
    {"text": "bravo", "token_count": 30},
    {"text": "charlie", "token_count": 50},
    {"text": "delta", "token_count": 20},
]
BUDGET = st.one_of(st.just(0), st.integers(0, 150))
# A one-shot generator of at least one chunk under a budget its first chunk always fits (no COST exceeds 60): an
# answer that reads its input twice (checks it, then packs what is left) returns ("", 0) where one chunk was due.
# ANY_CHUNKS alone rarely draws that among the defect branches below.
ONE_SHOT_THAT_FITS = st.tuples(st.lists(CHUNK, min_size=1, max_size=7).map(once), st.integers(60, 150), SEPARATOR)
CHUNK_INPUTS_MAYBE_BAD = st.one_of(  # valid input, or valid input with one defect (one branch per kind), or two
    st.tuples(ANY_CHUNKS, BUDGET, SEPARATOR),
    ONE_SHOT_THAT_FITS,
    *[st.tuples(ANY_CHUNKS, bad, SEPARATOR) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
    st.tuples(CHUNKS_ONE_BAD, BUDGET, SEPARATOR),
    st.tuples(CHUNKS_ONE_BAD.map(once), BUDGET, SEPARATOR),
    st.tuples(BAD_CONTAINER, BUDGET, SEPARATOR),
    st.tuples(ANY_CHUNKS, BUDGET, st.sampled_from([0, None, b"\n\n"])),
    st.tuples(CHUNKS_ONE_BAD, NOT_A_COUNT, SEPARATOR),
)
# A first chunk over the budget, then chunks that may fit, with a separator that costs: the first chunk kept is
# not the first given, and carries no separator (an answer that charges it by position is one separator over).
FIRST_TOO_BIG = st.builds(
    lambda big, rest, budget, separator_tokens: ([{**big, "token_count": budget + 1}, *rest], budget, separator_tokens),
    CHUNK_DICT,
    st.lists(CHUNK, min_size=1, max_size=6),
    st.integers(0, 60),
    st.integers(1, 12),
)
CHARGED_INPUTS_MAYBE_BAD = st.one_of(
    st.tuples(ANY_CHUNKS, BUDGET, st.integers(0, 12)),
    FIRST_TOO_BIG,
    *[st.tuples(ANY_CHUNKS, BUDGET, bad) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
    *[st.tuples(ANY_CHUNKS, bad, st.integers(0, 12)) for bad in (NEGATIVE, BOOL)],
    st.tuples(CHUNKS_ONE_BAD, BUDGET, st.integers(0, 12)),
    st.tuples(BAD_CONTAINER, BUDGET, st.integers(0, 12)),
)

QUESTIONS: list[Question] = []  # exercise 01's questions, in order; packer.checking.bank registers them

QUESTIONS.append(
    Question(
        "q1.1",
        "assemble_context",
        3,
        "greedy packing with skip-and-continue",
        packer.chunks.assemble_context,
        cases=(
            (EXAMPLE, 100),
            ([], 100),
            (EXAMPLE, 10),
            (EXAMPLE, 90),
            (EXAMPLE, 100, " | "),
            ([{"text": "big", "token_count": 500}, {"text": "small", "token_count": 5}], 20),
            ([{"text": "free", "token_count": 0}, {"text": "", "token_count": 0}], 0),
            (once(EXAMPLE), 100),  # read once: a generator has nothing left for a second pass
        ),
        inputs=st.tuples(CHUNKS, BUDGET, SEPARATOR),
    )
)
QUESTIONS.append(
    Question(
        "q1.2",
        "assemble_context",
        2,
        "refuse bad input with ValueError",
        packer.chunks.assemble_context,
        cases=(
            (EXAMPLE, -1),
            (EXAMPLE, True),
            (EXAMPLE, 10.0),
            (EXAMPLE, "100"),
            (EXAMPLE, 100, None),
            ([{"text": "a"}], 10),
            ([{"token_count": 1}], 10),
            ([{"text": 1, "token_count": 1}], 10),
            ([{"text": "a", "token_count": -1}], 10),
            ([{"text": "a", "token_count": True}], 10),
            ([{"text": "a", "token_count": 2.0}], 10),
            (EXAMPLE + [{"text": "z", "token_count": -3}], 100),
            ("alpha", 10),
            ({}, 10),
            ("", 10),
            (EXAMPLE, 100),
            ([Record(text="a", token_count=1)], 10),
            ([{"text": "a", "token_count": 1, "source": "wiki"}], 10),
            (tuple(EXAMPLE), 100),
            (once(EXAMPLE), 100),
            (once(EXAMPLE + [{"text": "z", "token_count": -3}]), 100),
            ([Record(text="a", token_count=-1)], 10),
            ({"alpha"}, 10),
            (b"", 10),  # empty containers of the refused kinds: no chunk inside is there to fail
            (set(), 10),
            ([None], 10),  # not a mapping at all: `"text" in None` is a TypeError, not a ValueError
            (None, 10),
            ([{"text": "free", "token_count": 0}], 0),  # a budget of 0 and a count of 0 are both valid
        ),
        inputs=CHUNK_INPUTS_MAYBE_BAD,
    )
)
QUESTIONS.append(
    Question(
        "q1.3",
        "assemble_prefix",
        2,
        "variant: stop at the first chunk that does not fit",
        variants.assemble_prefix,
        cases=(
            (EXAMPLE, 100),
            ([], 5),
            (EXAMPLE, 70),
            (EXAMPLE, True),
            (EXAMPLE, 100, None),
            (EXAMPLE + [{"text": "z", "token_count": -3}], 70),
            ([{"text": "a", "token_count": 1}, None], 0),
            (once(EXAMPLE), 100),
        ),
        inputs=CHUNK_INPUTS_MAYBE_BAD,
    )
)
QUESTIONS.append(
    Question(
        "q1.4",
        "assemble_charged",
        2,
        "variant: the separator costs tokens too",
        variants.assemble_charged,
        cases=(
            (EXAMPLE, 100, 5),
            (EXAMPLE, 100, 0),
            ([], 10, 3),
            (EXAMPLE, 40, 50),
            (EXAMPLE, 30, 5),
            (EXAMPLE, 100, True),
            (EXAMPLE, 100, -1),
            (EXAMPLE, -1, 5),
            (EXAMPLE + [{"text": "z", "token_count": -3}], 100, 5),
            (once(EXAMPLE), 100, 5),
            ([{"text": "a", "token_count": 0}, {"text": "b", "token_count": 0}], 0, 0),
        ),
        inputs=CHARGED_INPUTS_MAYBE_BAD,
    )
)
PREDICT_CHUNKS = [
    {"text": "intro", "token_count": 25},
    {"text": "method", "token_count": 60},
    {"text": "result", "token_count": 30},
    {"text": "limits", "token_count": 10},
]
QUESTIONS.append(
    Question(
        "q1.5",
        "predict_q1_5",
        1,
        "predict: assemble_context(PREDICT_CHUNKS, 70, ' | ')",
        lambda: packer.chunks.assemble_context(PREDICT_CHUNKS, 70, " | "),
        cases=((),),
        predict=tuple[str, int],
    )
)
