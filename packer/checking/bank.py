"""The exercise question bank: ids, points, reference answers, fixed cases and generated inputs.

Read it top to bottom: shared input generators, then each lesson's questions in order, each added to
BANK as it is defined, then the references an answer may not borrow.
"""

from __future__ import annotations

import types
from typing import Any

from hypothesis import strategies as st

import packer.chunks
import packer.counters
import packer.prompt
import packer.section_budget
import packer.utf8
import packer.validation
from packer.checking import units, variants
from packer.checking.engine import Question, forbid, plain
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
TEXT = st.text(alphabet="ab é日🙂", max_size=6)
KEY = st.text(alphabet="abxyz09", min_size=1, max_size=3)
CHUNK = st.fixed_dictionaries({"text": st.text(alphabet="abcdé", max_size=5), "token_count": st.integers(0, 60)})
CHUNKS = st.lists(CHUNK, max_size=7)
SEPARATOR = st.sampled_from(["\n\n", " | ", "", "\n---\n"])
PASSAGES = st.lists(st.tuples(KEY, TEXT), max_size=6, unique_by=lambda p: p[0])
QUESTION = st.sampled_from(["why", "Is the FIFO full?", "", "日本?"])
COUNTER = st.sampled_from([count_words, count_chars_div4, count_utf8_bytes])
NEGATIVE, BOOL, NOT_AN_INT = st.integers(-30, -1), st.booleans(), st.one_of(st.floats(-5, 50), st.just("10"), st.none())
NOT_A_COUNT = st.one_of(NEGATIVE, BOOL, NOT_AN_INT)
HEADER_BYTES = len(packer.utf8.HEADER.encode("utf-8"))

BAD_CHUNK = st.one_of(
    CHUNK.map(lambda c: {"text": c["text"]}),
    CHUNK.map(lambda c: {"token_count": c["token_count"]}),
    st.builds(lambda t, n: {"text": t, "token_count": n}, st.one_of(st.integers(), st.none()), st.integers(0, 9)),
    st.builds(lambda t, n: {"text": t, "token_count": n}, st.text(max_size=3), NOT_A_COUNT),
    st.sampled_from(["alpha", ("alpha", 4), None]),
)
BAD_KEY = st.sampled_from(["", "a]", "[a", "a\nb", "x\r", 7, None])
BAD_PASSAGE = st.one_of(
    st.tuples(BAD_KEY, TEXT), st.tuples(KEY, st.sampled_from([None, 3, b"x"])), st.sampled_from([("a",), "ab", None]),
)


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


POSITION = st.integers(0, 9)
CHUNKS_ONE_BAD = st.builds(_insert, CHUNKS, BAD_CHUNK, POSITION)


def _with_room(question: str, passages: list, extra: int, count: Any) -> tuple:
    """pack_prompt arguments whose limit leaves `extra` units above the base prompt."""
    return question, passages, count(_render(question, [])) + extra, count


def _constant_counter(result: Any):
    """A counter that measures every text as `result` (a bad result, or 0 to isolate the limit check)."""
    def counter(text: str) -> Any:
        return result
    counter.__name__ = f"counter_returning_{result!r}"
    return counter


BAD_COUNTER = st.sampled_from([_constant_counter(-2), _constant_counter(1.0), _constant_counter(None), _constant_counter(True)])


def section_result(result: Any) -> tuple:
    """Compare check_sections answers by their three promised attributes."""
    return (result.ok, result.message, result.total)


EXAMPLE = [{"text": "alpha", "token_count": 40}, {"text": "bravo", "token_count": 30},
           {"text": "charlie", "token_count": 50}, {"text": "delta", "token_count": 20}]
SEED_PASSAGES = [("a", "one two"), ("b", "one two three four five"), ("c", "six")]

CHUNK_INPUTS_MAYBE_BAD = st.one_of(  # valid input, or valid input with exactly one defect (one branch per kind)
    st.tuples(CHUNKS, st.integers(0, 150), SEPARATOR),
    *[st.tuples(CHUNKS, bad, SEPARATOR) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
    st.tuples(CHUNKS_ONE_BAD, st.integers(0, 150), SEPARATOR),
    st.tuples(CHUNKS, st.integers(0, 150), st.sampled_from([0, None, b"\n\n"])),
)
CHARGED_INPUTS_MAYBE_BAD = st.one_of(
    st.tuples(CHUNKS, st.integers(0, 150), st.integers(0, 12)),
    *[st.tuples(CHUNKS, st.integers(0, 150), bad) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
    *[st.tuples(CHUNKS, bad, st.integers(0, 12)) for bad in (NEGATIVE, BOOL)],
    st.tuples(CHUNKS_ONE_BAD, st.integers(0, 150), st.integers(0, 12)),
)

# --- lesson 01: assemble_context ---------------------------------------------------------------------
register(Question(
    "q1.1", "assemble_context", 3, "greedy packing with skip-and-continue",
    packer.chunks.assemble_context,
    cases=((EXAMPLE, 100), ([], 100), (EXAMPLE, 10), (EXAMPLE, 90), (EXAMPLE, 100, " | "),
           ([{"text": "big", "token_count": 500}, {"text": "small", "token_count": 5}], 20)),
    inputs=st.tuples(CHUNKS, st.integers(0, 150), SEPARATOR),
))
register(Question(
    "q1.2", "assemble_context", 2, "refuse bad input with ValueError",
    packer.chunks.assemble_context,
    cases=((EXAMPLE, -1), (EXAMPLE, True), (EXAMPLE, 10.0), (EXAMPLE, "100"), (EXAMPLE, 100, None),
           ([{"text": "a"}], 10), ([{"token_count": 1}], 10), ([{"text": 1, "token_count": 1}], 10),
           ([{"text": "a", "token_count": -1}], 10), ([{"text": "a", "token_count": True}], 10),
           ([{"text": "a", "token_count": 2.0}], 10), (EXAMPLE + [{"text": "z", "token_count": -3}], 100),
           ("alpha", 10), ({}, 10), ("", 10), (EXAMPLE, 100)),
    inputs=CHUNK_INPUTS_MAYBE_BAD,
))
register(Question(
    "q1.3", "assemble_prefix", 2, "variant: stop at the first chunk that does not fit",
    variants.assemble_prefix,
    cases=((EXAMPLE, 100), ([], 5), (EXAMPLE, 70), (EXAMPLE, True), (EXAMPLE, 100, None),
           (EXAMPLE + [{"text": "z", "token_count": -3}], 70), ([{"text": "a", "token_count": 1}, None], 0)),
    inputs=CHUNK_INPUTS_MAYBE_BAD,
))
register(Question(
    "q1.4", "assemble_charged", 2, "variant: the separator costs tokens too",
    variants.assemble_charged,
    cases=((EXAMPLE, 100, 5), (EXAMPLE, 100, 0), ([], 10, 3), (EXAMPLE, 40, 50), (EXAMPLE, 30, 5),
           (EXAMPLE, 100, True), (EXAMPLE, 100, -1), (EXAMPLE, -1, 5), (EXAMPLE + [{"text": "z", "token_count": -3}], 100, 5)),
    inputs=CHARGED_INPUTS_MAYBE_BAD,
))
PREDICT_CHUNKS = [{"text": "intro", "token_count": 25}, {"text": "method", "token_count": 60},
                  {"text": "result", "token_count": 30}, {"text": "limits", "token_count": 10}]
register(Question(
    "q1.5", "predict_q1_5", 1, "predict: assemble_context(PREDICT_CHUNKS, 70, ' | ')",
    lambda: packer.chunks.assemble_context(PREDICT_CHUNKS, 70, " | "), cases=((),),
))

# --- lesson 02: the full-prompt packer ---------------------------------------------------------------
register(Question(
    "q2.1", "render_prompt", 2, "render the exact prompt text",
    packer.prompt.render_prompt,
    cases=(("why", SEED_PASSAGES), ("why", []), ("", [("x", "")])),
    inputs=st.tuples(QUESTION, PASSAGES),
))
register(Question(
    "q2.2", "pack_prompt", 3, "re-measure the complete prompt for every candidate",
    packer.prompt.pack_prompt,
    cases=(("why", SEED_PASSAGES, 9, count_words), ("why", [], 4, count_words),
           ("why", SEED_PASSAGES, 13, count_words), ("why", [("a", "aaaaa"), ("b", "bbbbb")], 10, count_chars_div4)),
    inputs=st.builds(_with_room, QUESTION, PASSAGES, st.integers(0, 40), COUNTER),
))
register(Question(
    "q2.3", "pack_prompt", 2, "refuse bad input with ValueError",
    packer.prompt.pack_prompt,
    cases=(("why", SEED_PASSAGES, 3, count_words), ("why", [("a", "x"), ("a", "y")], 20, count_words),
           ("why", [("", "x")], 20, count_words), ("why", [("a]", "x")], 20, count_words),
           ("why", [("a\nb", "x")], 20, count_words), ("why", [(1, "x")], 20, count_words),
           ("why", [("a", None)], 20, count_words), ("why", SEED_PASSAGES, -1, count_words),
           ("why", SEED_PASSAGES, True, count_words), ("why", SEED_PASSAGES, 9, _constant_counter(2.5)),
           ("why", SEED_PASSAGES, 9, _constant_counter(-1)), ("why", SEED_PASSAGES, 9, _constant_counter(True)),
           ("why", SEED_PASSAGES, True, _constant_counter(0)), ("why", SEED_PASSAGES, False, _constant_counter(0)),
           ("why", SEED_PASSAGES, 9, count_words)),
    inputs=st.one_of(  # valid input, or valid input with exactly one defect
        st.builds(_with_room, QUESTION, PASSAGES, st.integers(0, 40), COUNTER),
        st.builds(_with_room, QUESTION, PASSAGES, st.integers(-12, -1), COUNTER),
        *[st.tuples(QUESTION, PASSAGES, bad, COUNTER) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
        st.builds(_with_room, QUESTION, st.builds(_insert, PASSAGES, BAD_PASSAGE, POSITION), st.integers(0, 40), COUNTER),
        st.builds(_with_room, QUESTION, st.builds(_with_duplicate, PASSAGES, POSITION), st.integers(0, 40), COUNTER),
        st.tuples(QUESTION, PASSAGES, st.integers(0, 60), BAD_COUNTER),
    ),
))
PREDICT_QUESTION = "Is the FIFO full?"
PREDICT_PASSAGES = [("p1", "Reset is active low."),
                    ("p2", "The FIFO holds eight entries and asserts full when all are used."),
                    ("p3", "Full blocks writes.")]


def _predict_q2_4() -> tuple[list[str], list[str]]:
    chosen, skipped, _ = packer.prompt.pack_prompt(PREDICT_QUESTION, PREDICT_PASSAGES, 30, count_chars_div4)
    return [key for key, _ in chosen], skipped


register(Question(
    "q2.4", "predict_q2_4", 1, "predict: chosen and skipped ids at limit 30 with chars/4",
    _predict_q2_4, cases=((),),
))

# --- lesson 03: the UTF-8 byte packer ----------------------------------------------------------------
def _utf8_args(passages: list, reserve: int, extra: int) -> tuple:
    return passages, HEADER_BYTES + reserve + extra, reserve


UTF8_INPUTS_MAYBE_BAD = st.one_of(  # valid input, or valid input with exactly one defect
    st.builds(_utf8_args, PASSAGES, st.integers(0, 8), st.integers(0, 50)),
    st.builds(_utf8_args, PASSAGES, st.integers(0, 8), st.integers(-9, -1)),
    *[st.tuples(PASSAGES, bad, st.integers(0, 8)) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
    *[st.tuples(PASSAGES, st.integers(9, 60), bad) for bad in (NEGATIVE, BOOL, NOT_AN_INT)],
    st.builds(_utf8_args, st.builds(_insert, PASSAGES, BAD_PASSAGE, POSITION), st.integers(0, 8), st.integers(0, 50)),
    st.builds(_utf8_args, st.builds(_with_duplicate, PASSAGES, POSITION), st.integers(0, 8), st.integers(0, 50)),
)


register(Question(
    "q3.1", "pack_utf8", 3, "keep whole passages while payload bytes plus reserve fit",
    packer.utf8.pack_utf8,
    cases=(([("a", "é")], 16, 0), ([("a", "é")], 15, 0), ([("a", "é")], 17, 1), ([], 9, 0),
           ([("a", "x"), ("b", "y" * 40), ("c", "z")], 30, 0)),
    inputs=st.builds(_utf8_args, PASSAGES, st.integers(0, 8), st.integers(0, 50)),
))
register(Question(
    "q3.2", "pack_utf8", 2, "refuse bad input with ValueError",
    packer.utf8.pack_utf8,
    cases=(([("a", "é")], 16, -1), ([("a", "é")], True, 0), ([("a", "é")], 16, False), ([("a", "é")], 16.0, 0),
           ([], 8, 0), ([], 10, 2), ([("a", "x"), ("a", "y")], 99, 0), ([("", "x")], 99, 0),
           ([("a]", "x")], 99, 0), ([("a", 5)], 99, 0), ([("a", "x"), ("b\n", "y")], 99, 0), ([("a", "é")], 16, 0)),
    inputs=UTF8_INPUTS_MAYBE_BAD,
))
register(Question(
    "q3.3", "pack_utf8_report", 2, "variant: also report the skipped ids",
    variants.pack_utf8_report,
    cases=(([("a", "x"), ("b", "y" * 40), ("c", "z")], 30, 0), ([], 9, 0), ([], 8, 0), ([("a", "x"), ("a", "y")], 99, 0)),
    inputs=UTF8_INPUTS_MAYBE_BAD,
))
PREDICT_UTF8 = [("q", "naïve café"), ("r", "日本語のテキスト"), ("s", "ok")]


def _predict_q3_4() -> tuple[list[str], int]:
    text, kept = packer.utf8.pack_utf8(PREDICT_UTF8, 40, 4)
    return kept, len(text.encode("utf-8"))


register(Question(
    "q3.4", "predict_q3_4", 1, "predict: kept ids and payload bytes at limit 40, reserve 4",
    _predict_q3_4, cases=((),),
))

# --- lesson 04: the section budget -------------------------------------------------------------------
SECTION_TEXT = st.one_of(st.text(alphabet="ab .:", max_size=12), st.sampled_from(["", "  ", "Return KEY: VALUE lines."]))
SECTIONS_MAYBE_MISSING = st.fixed_dictionaries({}, optional={key: SECTION_TEXT for key in SECTION_ORDER})
SECTIONS_ALL = st.fixed_dictionaries({key: SECTION_TEXT for key in SECTION_ORDER})
FIFO = packer.section_budget.FIFO_EXAMPLE
STATED = packer.section_budget.STATED_SECTION_CHARS

register(Question(
    "q4.1", "estimate_tokens", 1, "the chars/4 estimate, rounded up",
    packer.section_budget.estimate_tokens,
    cases=(("",), ("a",), ("abcd",), ("abcde",), ("日本語",)),
    inputs=st.tuples(st.text(max_size=40)),
))
register(Question(
    "q4.2", "build_prompt", 2, "the five tagged sections in order",
    packer.section_budget.build_prompt,
    cases=((FIFO,),),
    inputs=st.tuples(SECTIONS_ALL),
))
register(Question(
    "q4.3", "check_sections", 3, "PASS/FAIL checks on the assembled prompt",
    packer.section_budget.check_sections,
    cases=((FIFO, 500), (FIFO, 88), (FIFO, 87), ({**FIFO, "context": " "}, 500),
           ({**FIFO, "format": "free text"}, 500), ({k: v for k, v in FIFO.items() if k != "task"}, 500),
           ({**FIFO, "format": "Free text.", "examples": "Answer with KEY: VALUE lines."}, 500)),
    inputs=st.tuples(st.one_of(SECTIONS_ALL, SECTIONS_MAYBE_MISSING), st.integers(0, 60)),
    normalize=section_result,
))
register(Question(
    "q4.4", "plan_headroom", 2, "variant: planned tokens, headroom and headroom percent",
    variants.plan_headroom,
    cases=((STATED, 500), ({k: 0 for k in SECTION_ORDER}, 10), ({k: 401 for k in SECTION_ORDER}, 400),
           (STATED, 0), (STATED, True), ({**STATED, "intro": 5}, 500), ({k: v for k, v in STATED.items() if k != "task"}, 500),
           ({**STATED, "task": -1}, 500), ({**STATED, "task": 4.0}, 500), ({**STATED, "task": True}, 500),
           ([("task", 160)], 500)),
    inputs=st.tuples(st.fixed_dictionaries({key: st.integers(0, 900) for key in SECTION_ORDER}), st.integers(1, 900)),
))
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


register(Question(
    "q4.5", "predict_q4_5", 1, "predict: sum of section estimates vs estimate of the assembled prompt",
    _predict_q4_5, cases=((),),
))

# --- lesson 05: counting units ----------------------------------------------------------------------
# Each question's first case uses a cheap counter, so an untouched stub is recognised before a real
# vocabulary is ever loaded.
def _count_cl100k_base(text: str) -> int:
    """Real cl100k_base tokens, the vocabulary loaded on first use (so importing the bank stays light)."""
    return packer.counters.bpe("cl100k_base")(text)


_count_cl100k_base.__name__ = "count_cl100k_base"
UNIT_TEXT = st.text(alphabet="ab .\n1日", max_size=14)
UNIT_COUNTER = st.sampled_from([count_words, count_chars_div4, count_utf8_bytes, _count_cl100k_base])
HEADROOM_CASE = [9, 11, 12, 20], [10, 10, 10, 10]


def _headroom_args(pairs: list, percent: int) -> tuple:
    return [t for t, _ in pairs], [e for _, e in pairs], percent


HEADROOM_INPUTS = st.builds(_headroom_args, st.lists(st.tuples(st.integers(0, 60), st.integers(1, 30)), min_size=1, max_size=8),
                            st.integers(1, 100))
register(Question(
    "q5.1", "headroom_percent", 2, "the headroom over an estimate that covers a share of passages",
    units.headroom_percent,
    cases=((*HEADROOM_CASE, 50), (*HEADROOM_CASE, 25), (*HEADROOM_CASE, 75), (*HEADROOM_CASE, 100), ([7], [4], 95),
           ([], [], 50), ([1, 2], [1], 50), ([1], [0], 50), ([-1], [1], 50), ([1], [1], 0), ([1], [1], 101),
           ([1], [1], True), ([1], [1], 95.0)),
    inputs=st.one_of(
        HEADROOM_INPUTS,
        st.tuples(st.lists(st.integers(0, 9), max_size=3), st.lists(st.integers(1, 9), max_size=3), st.integers(1, 100)),
        st.builds(_headroom_args, st.lists(st.tuples(st.integers(-5, 9), st.integers(-2, 9)), min_size=1, max_size=3),
                  st.integers(1, 100)),
        st.tuples(*map(st.just, HEADROOM_CASE), st.one_of(st.integers(-5, 0), st.integers(101, 120), st.just(True))),
    ),
))
register(Question(
    "q5.2", "non_additive_cuts", 2, "find the cuts at whitespace where the whole is not the sum of its parts",
    units.non_additive_cuts,
    cases=(("a b", count_words), ("end.\n\nNext", _count_cl100k_base), ("ab  123", _count_cl100k_base),
           ("", _count_cl100k_base), ("a\tb  c", count_chars_div4), (None, count_words)),
    inputs=st.tuples(UNIT_TEXT, UNIT_COUNTER),
))
register(Question(
    "q5.3", "assemble_measured", 3, "variant: re-measure the joined context instead of adding counts",
    units.assemble_measured,
    cases=((["ab", "cd", "efgh"], 2, count_chars_div4, " "), (["end.", "Next", "aaaa"], 3, _count_cl100k_base),
           ([], 0, count_words), (["x"], -1, count_words), (["x"], True, count_words), (["x", 7], 9, count_words),
           (["x"], 9, count_words, None), (["x"], 9, _constant_counter(1.5))),
    inputs=st.one_of(
        st.tuples(st.lists(UNIT_TEXT, max_size=6), st.integers(0, 40), UNIT_COUNTER, st.sampled_from(["\n\n", " ", ""])),
        st.tuples(st.lists(UNIT_TEXT, max_size=3), st.one_of(NEGATIVE, BOOL), UNIT_COUNTER),
        st.tuples(st.builds(_insert, st.lists(UNIT_TEXT, max_size=3), st.sampled_from([None, 3, b"x"]), POSITION),
                  st.integers(0, 40), UNIT_COUNTER),
    ),
))
PREDICT_UNITS = [("k", "東京"), ("m", "naïve café"), ("n", "ok")]


def _predict_q5_4() -> tuple[list[str], int]:
    text, kept = packer.utf8.pack_utf8(PREDICT_UNITS, 30, 0)
    return kept, len(text.encode("utf-8"))


register(Question(
    "q5.4", "predict_q5_4", 1, "predict: kept ids and the most tokens the payload can have",
    _predict_q5_4, cases=((),),
))
forbid(*[value for value in vars(units).values() if callable(value) and getattr(value, "__module__", "") == units.__name__])

# Answers may not be, or call, the reference implementations or their building blocks. (The lessons'
# traces in packer.lab call these same functions, so an answer that calls a trace is caught as it runs.)
for module in (packer.chunks, packer.prompt, packer.utf8, packer.section_budget, packer.validation,
               variants):
    forbid(*[value for name, value in vars(module).items()
             if callable(value) and not isinstance(value, type) and getattr(value, "__module__", "") == module.__name__])
forbid(count_chars_div4)  # watched, except while it runs as a counter an answer was given
forbid(*[question.reference for question in BANK.values()])  # the predictions' references too
forbid(*[value for value in list(globals().values()) if isinstance(value, types.FunctionType)
         and value.__module__ == __name__ and value.__name__.startswith("_predict")])
__all__ = ["BANK", "plain", "section_result"]
