"""Exercise 04's questions (lesson 04, the section budget), for whoever writes or changes that exercise's checks.

q4.1 estimate_tokens, q4.2 build_prompt, q4.3 check_sections (compared by its three promised attributes,
section_result), q4.4 plan_headroom, q4.5 the prediction.

A learner never reads this module; they meet its names in counterexamples and in the exercise's setup cell,
which imports PREDICT_SECTIONS (through packer.checking.bank, where notebooks have always found them).
packer.checking.bank registers `QUESTIONS` in exercise order; this module imports the engine, the inputs
and packer.checking.questions_shared, never the bank.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import strategies as st

import packer.section_budget
from packer.checking import variants
from packer.checking.engine import Question
from packer.checking.inputs import Record, tag_lost
from packer.checking.limits import _Stopped, _TimedOut, current_limit, time_limit
from packer.checking.questions_shared import BOOL, NEGATIVE
from packer.section_budget import SECTION_ORDER


def section_result(result: Any) -> tuple:
    """Compare check_sections answers by their three promised attributes."""
    return (result.ok, result.message, result.total)


def describe_section_result(result: Any) -> str:
    """Show a check_sections result by the three attributes the check compares."""
    return f"ok={result.ok!r}, message={result.message!r}, total={result.total!r}"


QUESTIONS: list[Question] = []  # exercise 04's questions, in order; packer.checking.bank registers them

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

# Check 2 of check_sections (a tag absent) cannot fail on a prompt the learner's own build_prompt made, so it is
# graded with that build_prompt hand-edited for the call (packer.checking.inputs.tag_lost), on sections
# whose marker is absent too: check 2 comes before check 3, so only the tag check gives the right message.
TAG = "CONTEXT:"
NO_MARKER = {**packer.section_budget.FIFO_EXAMPLE, "format": "Free text."}


def _tag_check(answer: Any) -> tuple[str, str, str, str] | None:
    """None when check_sections fails a hand-edited prompt without the CONTEXT: tag as check 2 says; else the
    failure (detail, the input to paste, expected, actual)."""
    prompt = packer.section_budget.build_prompt(NO_MARKER).replace(TAG, TAG.capitalize())
    expected = (False, "FAIL: section tag absent", packer.section_budget.estimate_tokens(prompt))
    shown = f"tag_lost({TAG!r}, check_sections, {NO_MARKER!r}, 500)"
    try:
        with time_limit(current_limit()):
            result = tag_lost(TAG, answer, NO_MARKER, 500)
        actual = section_result(result)
    except _TimedOut as stop:
        raise _Stopped((NO_MARKER, 500), current_limit() or 0, stop.waited) from None
    except Exception as error:  # no build_prompt to edit, a result without .ok, or the answer raised
        actual = f"raised {type(error).__name__}: {error}"
    if actual == expected:
        return None

    def shown_result(parts: Any) -> str:
        return (
            parts
            if isinstance(parts, str)
            else describe_section_result(SimpleNamespace(ok=parts[0], message=parts[1], total=parts[2]))
        )

    return (
        f"check 2 (a tag absent) never failed: with your build_prompt hand-edited to write {TAG!r} as "
        f"{TAG.capitalize()!r} (as the lesson's hand-edited prompts lose a tag), check_sections must say so first",
        shown,
        shown_result(expected),
        shown_result(actual),
    )


QUESTIONS.append(
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
QUESTIONS.append(
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
QUESTIONS.append(
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
        requirement=_tag_check,
        requirement_note=f", and check 2 with build_prompt hand-edited to write {TAG!r} as {TAG.capitalize()!r}",
    )
)
QUESTIONS.append(
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


QUESTIONS.append(
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
