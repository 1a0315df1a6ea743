"""The exercise question bank: ids, points, reference answers, fixed cases and generated inputs.

Read it top to bottom: shared input generators, then each lesson's questions in order, each added to
BANK as it is defined, then the references an answer may not borrow. Lesson 09's questions live in a module
of their own, packer.checking.questions_09_conversation, registered here after lesson 08's.
"""

from __future__ import annotations

import types
import unicodedata
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

import packer.chunks
import packer.counters
import packer.chat
import packer.duplicates
import packer.mmr
import packer.ordering
import packer.priority
import packer.prompt
import packer.request
import packer.section_budget
import packer.utf8
import packer.validation
from packer.checking import questions_09_conversation, units, variants
from packer.checking.engine import Question, forbid, plain
from packer.checking.inputs import (
    BROKEN_COUNTERS,
    REQUEST_COUNTERS,
    Record,
    SortedSet,
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
from packer.checking.linear import linear_in_passages
from packer.counters import count_chars_div4, count_utf8_bytes, count_words
from packer.prompt import _render
from packer.section_budget import SECTION_ORDER

BANK: dict[str, Question] = {}  # question id -> Question, in the order the questions are defined below


def register(question: Question) -> Question:
    """Add a question to the bank (ids are unique)."""
    if question.qid in BANK:
        raise ValueError(f"question {question.qid!r} registered twice")
    BANK[question.qid] = question
    return question


# --- shared input generators -------------------------------------------------------------------------
# Every string field mixes 1-, 2-, 3- and 4-byte characters and may be empty; counts include 0 often;
# mappings are dicts, dicts with extra keys, or a Mapping that is not a dict; containers are lists or
# tuples, and where the container contract is graded, one-pass iterators (`once`) too.
TEXT = st.text(alphabet="ab é日🙂", max_size=6)
KEY = st.text(alphabet="ab9é日🙂", min_size=1, max_size=3)
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
PASSAGE_LIST = st.lists(st.tuples(KEY, TEXT), max_size=6, unique_by=lambda p: p[0])
PASSAGES = st.one_of(PASSAGE_LIST, PASSAGE_LIST.map(tuple))
ANY_PASSAGES = st.one_of(PASSAGES, PASSAGE_LIST.map(once))
QUESTION = st.one_of(st.sampled_from(["why", "Is the FIFO full?", "", "日本?"]), TEXT)
COUNTER = st.sampled_from([count_words, count_chars_div4, count_utf8_bytes])
NEGATIVE, BOOL, NOT_AN_INT = st.integers(-30, -1), st.booleans(), st.one_of(st.floats(-5, 50), st.just("10"), st.none())
NOT_A_COUNT = st.one_of(NEGATIVE, BOOL, NOT_AN_INT)
HEADER_BYTES = len(packer.utf8.HEADER.encode("utf-8"))

BAD_CHUNK = st.one_of(
    CHUNK_DICT.map(lambda c: {"text": c["text"]}),
    CHUNK_DICT.map(lambda c: {"token_count": c["token_count"]}),
    CHUNK_DICT.map(lambda c: Record(text=c["text"], token_count=-1)),
    st.builds(lambda t, n: {"text": t, "token_count": n}, st.one_of(st.integers(), st.none()), st.integers(0, 9)),
    st.builds(lambda t, n: {"text": t, "token_count": n}, st.text(max_size=3), NOT_A_COUNT),
    st.sampled_from(["alpha", ("alpha", 4), None]),
)
BAD_KEY = st.sampled_from(["", "a]", "[a", "a\nb", "x\r", "é]", 7, None])
BAD_PASSAGE = st.one_of(
    st.tuples(BAD_KEY, TEXT),
    st.tuples(KEY, st.sampled_from([None, 3, b"x"])),
    st.sampled_from([("a",), "ab", None, ("a", "x", "y")]),
)
BAD_CONTAINER = st.sampled_from(["ab", b"ab", None, 7, {"a": "x"}, {("a", "x")}])


def _insert(items: list, extra: Any, position: int) -> list:
    """items with `extra` inserted at position (modulo the length), so a defect can sit anywhere."""
    index = position % (len(items) + 1)
    return items[:index] + [extra] + items[index:]


def _with_duplicate(passages: list, position: int) -> list:
    """passages with one id repeated (or a fresh pair of twins when there is none)."""
    if not passages:
        return [("a", "x"), ("a", "y")]
    key = passages[position % len(passages)][0]
    return _insert(passages, (key, "again"), position + 1)


def _twin_of(key: str) -> str | None:
    """Another id that a learner might take for the same one: other case, or the same letters in another
    Unicode normal form ('é' as one code point or as 'e' and a combining accent); None when there is none."""
    for variant in (key.swapcase(), unicodedata.normalize("NFD", key), unicodedata.normalize("NFC", key)):
        if variant != key:
            return variant
    return None


def _with_twin(passages: list, position: int) -> list:
    """passages with one more whose id differs from an existing one only in case or Unicode normal form (a
    different id: both are valid), or a fresh pair of such ids when no existing id has a twin."""
    keys = {key for key, _ in passages}
    for step in range(len(passages)):
        twin = _twin_of(passages[(position + step) % len(passages)][0])
        if twin is not None and twin not in keys:
            return _insert(passages, (twin, "twin"), position + step + 1)
    fresh = [pair for pair in (("q", "x"), ("Q", "y")) if pair[0] not in keys]
    return passages + fresh


POSITION = st.integers(0, 9)
CHUNKS_ONE_BAD = st.builds(_insert, CHUNK_LIST, BAD_CHUNK, POSITION)
PASSAGES_ONE_BAD = st.builds(_insert, PASSAGE_LIST, BAD_PASSAGE, POSITION)
PASSAGES_TWICE = st.builds(_with_duplicate, PASSAGE_LIST, POSITION)
PASSAGES_TWINS = st.builds(_with_twin, PASSAGE_LIST, POSITION)  # ids differing only in case or normal form
PAIRS_AS_LISTS = PASSAGE_LIST.map(lambda passages: [list(pair) for pair in passages])  # [id, text] pairs


def _with_room(question: str, passages: list, extra: int, count: Any) -> tuple:
    """pack_prompt arguments whose limit leaves `extra` units above the base prompt."""
    return question, passages, count(_render(question, [])) + extra, count


BAD_COUNTER = st.sampled_from(BROKEN_COUNTERS)  # named, importable: a counterexample can be pasted


def section_result(result: Any) -> tuple:
    """Compare check_sections answers by their three promised attributes."""
    return (result.ok, result.message, result.total)


def describe_section_result(result: Any) -> str:
    """Show a check_sections result by the three attributes the check compares."""
    return f"ok={result.ok!r}, message={result.message!r}, total={result.total!r}"


EXAMPLE = [
    {"text": "alpha", "token_count": 40},
    {"text": "bravo", "token_count": 30},
    {"text": "charlie", "token_count": 50},
    {"text": "delta", "token_count": 20},
]
SEED_PASSAGES = [("a", "one two"), ("b", "one two three four five"), ("c", "six")]

BUDGET = st.one_of(st.just(0), st.integers(0, 150))
CHUNK_INPUTS_MAYBE_BAD = st.one_of(  # valid input, or valid input with one defect (one branch per kind), or two
    st.tuples(ANY_CHUNKS, BUDGET, SEPARATOR),
    *[st.tuples(ANY_CHUNKS, bad, SEPARATOR) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
    st.tuples(CHUNKS_ONE_BAD, BUDGET, SEPARATOR),
    st.tuples(CHUNKS_ONE_BAD.map(once), BUDGET, SEPARATOR),
    st.tuples(BAD_CONTAINER, BUDGET, SEPARATOR),
    st.tuples(ANY_CHUNKS, BUDGET, st.sampled_from([0, None, b"\n\n"])),
    st.tuples(CHUNKS_ONE_BAD, NOT_A_COUNT, SEPARATOR),
)
CHARGED_INPUTS_MAYBE_BAD = st.one_of(
    st.tuples(ANY_CHUNKS, BUDGET, st.integers(0, 12)),
    *[st.tuples(ANY_CHUNKS, BUDGET, bad) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
    *[st.tuples(ANY_CHUNKS, bad, st.integers(0, 12)) for bad in (NEGATIVE, BOOL)],
    st.tuples(CHUNKS_ONE_BAD, BUDGET, st.integers(0, 12)),
    st.tuples(BAD_CONTAINER, BUDGET, st.integers(0, 12)),
)

# --- lesson 01: assemble_context ---------------------------------------------------------------------
register(
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
register(
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
register(
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
register(
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
register(
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

# --- lesson 02: the full-prompt packer ---------------------------------------------------------------
register(
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
        ),
        inputs=st.tuples(QUESTION, PASSAGES),
    )
)
register(
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
        ),
        inputs=st.builds(  # pairs given as lists too, and a counter that never grows (limit 0 + extra)
            _with_room,
            QUESTION,
            st.one_of(PASSAGE_LIST, PASSAGE_LIST.map(tuple), PAIRS_AS_LISTS),
            st.integers(0, 40),
            st.sampled_from([count_words, count_chars_div4, count_utf8_bytes, always_0]),
        ),
    )
)
register(
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
            ("why", [("[a", "x")], 20, count_words),
            ("why", ["ab"], 20, count_words),  # unpacks into two characters, but is not a pair
            ("why", None, 9, count_words),
            ("why", [("a", "x"), ("A", "y")], 20, count_words),  # ids differing only in case are different ids
            ("why", [("é", "x"), ("e\u0301", "y")], 20, count_words),  # so are two Unicode forms of é
        ),
        inputs=st.one_of(  # valid input, or valid input with one defect, or with two
            st.builds(_with_room, QUESTION, ANY_PASSAGES, st.integers(0, 40), COUNTER),
            st.builds(_with_room, QUESTION, PASSAGES_TWINS, st.integers(0, 40), COUNTER),
            st.builds(_with_room, QUESTION, PASSAGES, st.integers(-12, -1), COUNTER),
            *[st.tuples(QUESTION, ANY_PASSAGES, bad, COUNTER) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
            st.builds(_with_room, QUESTION, PASSAGES_ONE_BAD, st.integers(0, 40), COUNTER),
            st.builds(_with_room, QUESTION, PASSAGES_TWICE, st.integers(0, 40), COUNTER),
            st.builds(_with_room, QUESTION, PASSAGES_ONE_BAD.map(once), st.integers(0, 40), COUNTER),
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


register(
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


# --- lesson 03: the UTF-8 byte packer ----------------------------------------------------------------
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
    st.builds(_utf8_args, BAD_CONTAINER, RESERVE, st.integers(0, 50)),
    st.tuples(PASSAGES_ONE_BAD, st.integers(0, 60), NOT_A_COUNT),
    st.builds(_utf8_args, PASSAGES_TWICE, RESERVE, st.integers(-9, -1)),
)


register(
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
        ),
        inputs=st.builds(_utf8_args, PASSAGES, RESERVE, st.integers(0, 50)),
        requirement=linear_in_passages("pack_utf8"),
        requirement_note=", and its work grows linearly with the number of passages",
    )
)
register(
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
            ([("[a", "x")], 99, 0),
            (None, 99, 0),
            ([], 9, 0),  # the header alone, exactly at the limit, is allowed
        ),
        inputs=UTF8_INPUTS_MAYBE_BAD,
    )
)
register(
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


register(
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

# --- lesson 04: the section budget -------------------------------------------------------------------
SECTION_TEXT = st.one_of(
    st.text(alphabet="ab .:é日🙂\n", max_size=12),
    st.sampled_from(["", "  ", "\n", "\u3000", "Return KEY: VALUE lines.", "KEY: VALUE", "日本 KEY: VALUE"]),
)


def _sections(texts: dict, order: list, as_record: bool) -> Any:
    """The sections in the caller's own key order (any order), as a dict or as a Mapping that is not one."""
    ordered = {key: texts[key] for key in order if key in texts}
    return Record(ordered) if as_record else ordered


KEY_ORDER = st.permutations(SECTION_ORDER)
SECTIONS_ALL = st.builds(
    _sections, st.fixed_dictionaries({key: SECTION_TEXT for key in SECTION_ORDER}), KEY_ORDER, st.booleans()
)
SECTIONS_MAYBE_MISSING = st.builds(
    _sections,
    st.fixed_dictionaries({}, optional={key: SECTION_TEXT for key in SECTION_ORDER}),
    KEY_ORDER,
    st.booleans(),
)
WORDS = st.text(alphabet="ab.é日🙂", min_size=1, max_size=8)
SECTIONS_WITH_MARKER = st.builds(  # every section has text and the marker is there: only the budget decides
    _sections,
    st.fixed_dictionaries(
        {
            **{key: WORDS for key in SECTION_ORDER},
            "format": st.sampled_from(["KEY: VALUE", "Return KEY: VALUE lines.", "日本 KEY: VALUE"]),
        }
    ),
    KEY_ORDER,
    st.booleans(),
)
SECTIONS_WITHOUT_MARKER = st.builds(
    _sections, st.fixed_dictionaries({key: WORDS for key in SECTION_ORDER}), KEY_ORDER, st.booleans()
)  # marker absent, and often over budget too: two checks fail
SIZE = st.one_of(st.just(0), st.integers(0, 900))
SIZES = st.builds(_sections, st.fixed_dictionaries({key: SIZE for key in SECTION_ORDER}), KEY_ORDER, st.booleans())
BAD_SIZES = st.one_of(
    st.builds(
        lambda sizes, key, bad: {**sizes, key: bad},
        SIZES.map(dict),
        st.sampled_from(SECTION_ORDER),
        st.one_of(NEGATIVE, BOOL, st.sampled_from([4.0, "4", None])),
    ),
    st.builds(
        lambda sizes, key: {k: v for k, v in dict(sizes).items() if k != key}, SIZES, st.sampled_from(SECTION_ORDER)
    ),
    st.builds(lambda sizes: {**sizes, "intro": 5}, SIZES.map(dict)),
    st.sampled_from([[("task", 160)], "task", None]),
)
FIFO = packer.section_budget.FIFO_EXAMPLE
STATED = packer.section_budget.STATED_SECTION_CHARS
LOWER_CASE_MARKER = {"task": "t", "context": "c", "constraints": "r", "format": "key: value", "examples": "e"}

register(
    Question(
        "q4.1",
        "estimate_tokens",
        1,
        "the chars/4 estimate, rounded up",
        packer.section_budget.estimate_tokens,
        cases=(("",), ("a",), ("abcd",), ("abcde",), ("日本語",), ("🙂🙂🙂🙂🙂",)),
        inputs=st.tuples(st.text(max_size=40)),
    )
)
register(
    Question(
        "q4.2",
        "build_prompt",
        2,
        "the five tagged sections in order",
        packer.section_budget.build_prompt,
        cases=(
            (FIFO,),
            ({key: FIFO[key] for key in reversed(SECTION_ORDER)},),
            (Record(FIFO),),
            ({key: "" for key in SECTION_ORDER},),
            ({key: "{x} 100%" for key in SECTION_ORDER},),  # braces and percent signs are text, not a template
        ),
        inputs=st.tuples(SECTIONS_ALL),
    )
)
register(
    Question(
        "q4.3",
        "check_sections",
        3,
        "PASS/FAIL checks on the assembled prompt",
        packer.section_budget.check_sections,
        cases=(
            (FIFO, 500),
            (FIFO, 88),
            (FIFO, 87),
            ({**FIFO, "context": " "}, 500),
            ({**FIFO, "format": "free text"}, 500),
            ({k: v for k, v in FIFO.items() if k != "task"}, 500),
            ({**FIFO, "format": "Free text.", "examples": "Answer with KEY: VALUE lines."}, 500),
            ({**FIFO, "format": "Free text."}, 10),  # two checks fail: the marker check comes first
            ({**FIFO, "task": "\n", "format": "Free text."}, 10),  # three fail: missing text comes first
            ({k: v for k, v in FIFO.items() if k != "examples"}, 0),
            (Record(FIFO), 88),
            ({**FIFO, "context": "日本語のテキスト" * 10}, 100),
            ({**FIFO, "context": "日本語のテキスト" * 10}, 99),
            (LOWER_CASE_MARKER, 500),  # the marker is upper case: "key: value" is not it
            ({**FIFO, "context": "\u3000\xa0"}, 500),  # Unicode whitespace (str.strip) is still no text
        ),
        inputs=st.tuples(
            st.one_of(SECTIONS_WITH_MARKER, SECTIONS_WITHOUT_MARKER, SECTIONS_ALL, SECTIONS_MAYBE_MISSING),
            st.one_of(st.just(0), st.integers(0, 60)),
        ),
        normalize=section_result,
        describe=describe_section_result,
    )
)
register(
    Question(
        "q4.4",
        "plan_headroom",
        2,
        "variant: planned tokens, headroom and headroom percent",
        variants.plan_headroom,
        cases=(
            (STATED, 500),
            ({k: 0 for k in SECTION_ORDER}, 10),
            ({k: 401 for k in SECTION_ORDER}, 400),
            (STATED, 0),
            (STATED, True),
            ({**STATED, "intro": 5}, 500),
            ({k: v for k, v in STATED.items() if k != "task"}, 500),
            ({**STATED, "task": -1}, 500),
            ({**STATED, "task": 4.0}, 500),
            ({**STATED, "task": True}, 500),
            ([("task", 160)], 500),
            (Record(STATED), 500),
            ({**STATED, "task": 0}, 440),
            (None, 500),
            ({k: 0 for k in SECTION_ORDER}, 1),  # the smallest budget
            ({**STATED, "task": 2**55 + 1}, 3),  # past 2**53 a float division rounds: // stays exact
        ),
        inputs=st.one_of(  # valid plans mostly, and each kind of bad input the question lists
            st.tuples(SIZES, st.integers(1, 900)),
            st.tuples(SIZES, st.integers(1, 900)),
            st.tuples(BAD_SIZES, st.integers(1, 900)),
            st.tuples(SIZES, st.one_of(st.integers(-20, 0), BOOL, st.sampled_from([500.0, "500", None]))),
        ),
    )
)
PREDICT_SECTIONS = {
    "task": "Summarise the incident.",
    "context": "Disk full on node 7 at 02:10; writes failed for 12 minutes.",
    "constraints": "One paragraph.",
    "format": "Return KEY: VALUE lines.",
    "examples": "SUMMARY: disk full",
}


def _predict_q4_5() -> tuple[int, int]:
    estimate = packer.section_budget.estimate_tokens
    parts = sum(estimate(text) for text in PREDICT_SECTIONS.values())
    return parts, estimate(packer.section_budget.build_prompt(PREDICT_SECTIONS))


register(
    Question(
        "q4.5",
        "predict_q4_5",
        1,
        "predict: sum of section estimates vs estimate of the assembled prompt",
        _predict_q4_5,
        cases=((),),
        predict=tuple[int, int],
    )
)


# --- lesson 05: counting units ----------------------------------------------------------------------
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


register(
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
register(
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
register(
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
                st.builds(_insert, st.lists(UNIT_TEXT, max_size=3), st.sampled_from([None, 3, b"x"]), POSITION),
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


register(
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
forbid(
    *[value for value in vars(units).values() if callable(value) and getattr(value, "__module__", "") == units.__name__]
)


# --- lesson 06: which passages should win? ----------------------------------------------------------
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


register(
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
        ),
        inputs=st.builds(_with_room, QUESTION, PASSAGES, st.integers(0, 40), COUNTER),
    )
)
register(
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
register(
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


register(
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

# --- lesson 07: the whole request -------------------------------------------------------------------
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


register(
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
        ),
        inputs=st.builds(_request_args, QUESTION, PASSAGES, SYSTEM, st.integers(0, 40), MAX_OUTPUT, REQUEST_COUNTER),
    )
)
BAD_REQUEST_COUNTER = st.sampled_from((*BROKEN_COUNTERS, words_then_2_5))
register(
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
register(
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


register(
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

# --- lesson 08: beyond greedy -----------------------------------------------------------------------
# Where the evidence goes (ends_first), what repeats (jaccard, drop_near_duplicates, mmr_order) and what must
# stay (pack_parts). The references are the core's own functions.
RANKED_ITEM = st.one_of(st.integers(-3, 20), st.text(alphabet="abc", max_size=2), st.tuples(KEY, TEXT), st.none())
register(
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


register(
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
register(
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
register(
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
register(
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


register(
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

# --- lesson 09: the conversation (packer.checking.questions_09_conversation) -------------------------------
for _question in questions_09_conversation.QUESTIONS:
    register(_question)
del _question

# Answers may not be, or call, the reference implementations or their building blocks. (The lessons'
# traces in packer.lab call these same functions, so an answer that calls a trace is caught as it runs.)
for module in (
    packer.chunks,
    packer.prompt,
    packer.utf8,
    packer.section_budget,
    packer.validation,
    packer.request,
    packer.chat,
    packer.ordering,
    packer.duplicates,
    packer.mmr,
    packer.priority,
    *questions_09_conversation.REFERENCE_MODULES,
    variants,
):
    forbid(
        *[
            value
            for name, value in vars(module).items()
            if callable(value) and not isinstance(value, type) and getattr(value, "__module__", "") == module.__name__
        ]
    )
forbid(count_chars_div4)  # watched, except while it runs as a counter an answer was given
forbid(*[question.reference for question in BANK.values()])  # the predictions' references too
forbid(
    *[
        value
        for value in list(globals().values())
        if isinstance(value, types.FunctionType)
        and value.__module__ == __name__
        and value.__name__.startswith("_predict")
    ]
)
__all__ = ["BANK", "plain", "section_result"]
