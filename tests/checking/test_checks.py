"""The self-check engine as a specification: what a learner reads, what is graded, and what is not credited.

Learner answers are written as notebook code (executed in a fresh `__main__` namespace, as a kernel would),
so the engine sees them exactly as it sees a real learner's functions.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
import textwrap
import time
from dataclasses import replace

import pytest
from learner_cells import learner
from IPython.lib.pretty import pretty

import packer
import packer.checking
import packer.checking.bank
from packer.checking import (
    DEFER_VARIABLE,
    DEFERRED,
    FAILED,
    NOT_ATTEMPTED,
    PASSED,
    BANK,
    CheckResult,
    Question,
    check,
    evaluate,
    grade,
    questions,
    run_check,
)

LESSON_1 = "01_assemble_context"


# A correct learner answer to q1.1 and q1.2, with its own validation helper.
ASSEMBLE = """
from collections.abc import Iterable, Iterator, Mapping, Set

def _require_count(name, value):
    if type(value) is not int or value < 0:
        raise ValueError(f"{name} must be a non-negative int, got {value!r}")

def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    _require_count("max_tokens", max_tokens)
    if not isinstance(separator, str):
        raise ValueError("separator must be a str")
    if isinstance(chunks, (str, bytes, Mapping, Set)) or not isinstance(chunks, Iterable):
        raise ValueError("chunks must be a list")
    chunks = list(chunks)
    for index, chunk in enumerate(chunks):
        if not isinstance(chunk, Mapping) or "text" not in chunk or "token_count" not in chunk:
            raise ValueError(f"chunk {index}: needs text and token_count")
        if not isinstance(chunk["text"], str):
            raise ValueError(f"chunk {index}: text must be a str")
        _require_count(f"chunk {index}: token_count", chunk["token_count"])
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used
"""
good_assemble = learner(ASSEMBLE)["assemble_context"]

STUB = learner("""
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    \"\"\"Keep whole chunks in rank order while their token counts fit; skip the rest and continue.\"\"\"
    raise NotImplementedError("replace this line with your answer")
""")["assemble_context"]

STOPS_AT_FIRST_OVERFLOW = learner("""
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] > max_tokens:
            break
        kept.append(chunk["text"])
        used += chunk["token_count"]
    return separator.join(kept), used
""")["assemble_context"]

# A correct learner answer to q2.2 and q2.3; every measurement goes through _measure.
PACK_PROMPT = """
from collections.abc import Iterable, Mapping, Set

def fold(text):
    lines = text.splitlines(keepends=True)
    return "".join(line + " " if line.splitlines()[0] != line else line for line in lines)

def _render(question, passages):
    lines = "".join(f"[{k}] {fold(t)}\\n" for k, t in passages)
    return "Question: " + fold(question) + "\\nSources:\\n" + lines + "Answer:"

def _measure(count, text):
    units = count(text)
    if type(units) is not int or units < 0:
        raise ValueError(f"count must return a non-negative int, got {units!r}")
    return units

def pack_prompt(question, passages, limit, count):
    if not isinstance(question, str) or not callable(count):
        raise ValueError("bad question or count")
    if isinstance(passages, (str, bytes, Mapping, Set)) or not isinstance(passages, Iterable):
        raise ValueError("passages must be a list")
    passages = list(passages)
    if type(limit) is not int or limit < 0:
        raise ValueError(f"limit must be a non-negative int, got {limit!r}")
    seen = set()
    for item in passages:
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise ValueError(f"not an (id, text) pair: {item!r}")
        key, text = item
        if not isinstance(key, str) or not key or "[" in key or "]" in key or key.splitlines() != [key] or key in seen:
            raise ValueError(f"bad id {key!r}")
        if not isinstance(text, str):
            raise ValueError(f"text of {key!r} must be a str")
        seen.add(key)
    prompt = _render(question, [])
    if _measure(count, prompt) > limit:
        raise ValueError("the base prompt alone is over the limit")
    chosen, skipped = [], []
    for key, text in passages:
        candidate = _render(question, chosen + [(key, text)])
        if _measure(count, candidate) <= limit:
            chosen.append((key, text))
            prompt = candidate
        else:
            skipped.append(key)
    return chosen, skipped, prompt
"""

# Adds per-passage counts instead of re-measuring the whole prompt (q2.2's classic mistake).
PACK_PROMPT_ADDING = learner("""
def render(question, passages):
    return "Question: " + question + "\\nSources:\\n" + "".join(f"[{k}] {t}\\n" for k, t in passages) + "Answer:"

def pack_prompt(question, passages, limit, count):
    used = count(render(question, []))
    chosen, skipped = [], []
    for key, text in passages:
        cost = count(f"[{key}] {text}\\n")
        if used + cost <= limit:
            chosen.append((key, text))
            used += cost
        else:
            skipped.append(key)
    return chosen, skipped, render(question, chosen)
""")["pack_prompt"]


# --- what a learner reads ----------------------------------------------------------------------------
def test_a_passed_result_reads_as_headline_and_detail():
    result = CheckResult("q1.1", "assemble_context", PASSED, 3, 3, detail="6 fixed cases", tried=6)
    assert str(result) == "q1.1 assemble_context: PASSED (3/3 points)\n  6 fixed cases"


def test_a_failed_result_shows_input_expected_and_actual_aligned():
    result = CheckResult(
        "q1.1",
        "assemble_context",
        FAILED,
        0,
        3,
        detail="fixed case 1 of 6 disagrees",
        counterexample="assemble_context([], 5)",
        expected="('', 0)",
        actual="('', 1)",
    )
    assert result.lines() == [
        "q1.1 assemble_context: FAILED (0/3 points)",
        "  fixed case 1 of 6 disagrees",
        "  input:    assemble_context([], 5)",
        "  expected: ('', 0)",
        "  actual:   ('', 1)",
    ]
    assert str(result) == "\n".join(result.lines())


def test_a_not_attempted_result_reads_as_headline_and_detail():
    result = CheckResult("q2.4", "predict_q2_4", NOT_ATTEMPTED, 0, 1, detail="no predict_q2_4 defined")
    assert str(result) == "q2.4 predict_q2_4: NOT ATTEMPTED (0/1 points)\n  no predict_q2_4 defined"
    assert CheckResult("q2.4", "predict_q2_4", NOT_ATTEMPTED, 0, 1).lines() == [
        "q2.4 predict_q2_4: NOT ATTEMPTED (0/1 points)"
    ]


def test_real_results_have_the_documented_lines():
    passed, failed, stub = (
        run_check("q1.1", good_assemble),
        run_check("q1.1", STOPS_AT_FIRST_OVERFLOW),
        run_check("q1.1", STUB),
    )
    assert str(passed) == "q1.1 assemble_context: PASSED (3/3 points)\n  8 fixed cases and up to 120 generated inputs"
    assert failed.lines()[0] == "q1.1 assemble_context: FAILED (0/3 points)"
    assert [line[:12] for line in failed.lines()[2:]] == ["  input:    ", "  expected: ", "  actual:   "]
    assert failed.counterexample.startswith("assemble_context(") and failed.expected != failed.actual
    assert str(stub).splitlines()[0] == "q1.1 assemble_context: NOT ATTEMPTED (0/3 points)"


@pytest.mark.parametrize("answer", [good_assemble, STOPS_AT_FIRST_OVERFLOW, STUB], ids=["passed", "failed", "stub"])
def test_notebooks_display_the_same_text_as_str(answer):
    result = run_check("q1.1", answer)
    assert pretty(result) == str(result)


def test_as_dict_is_plain_json_data_that_round_trips():
    result = run_check("q1.1", STOPS_AT_FIRST_OVERFLOW)
    data = result.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert CheckResult(**data) == result
    assert {
        "qid",
        "name",
        "status",
        "points",
        "max_points",
        "detail",
        "counterexample",
        "expected",
        "actual",
        "tried",
        "printed",
        "printed_lines",
    } == set(data)


# --- what is graded how ------------------------------------------------------------------------------
@pytest.mark.parametrize("defer", [None, "1"])
def test_an_unknown_question_is_a_value_error_naming_it(monkeypatch, defer):
    if defer:
        monkeypatch.setenv(DEFER_VARIABLE, defer)
    with pytest.raises(ValueError, match=r"'q9\.9'"):
        check("q9.9", good_assemble)
    with pytest.raises(ValueError, match=r"'q1\.0'"):
        run_check("q1.0", good_assemble)


@pytest.mark.parametrize("answer, kind", [(42, "int"), ("assemble_context", "str"), (None, "NoneType")])
def test_a_non_callable_answer_fails_with_a_clear_detail(answer, kind):
    result = check("q1.1", answer)
    assert (result.status, result.points, result.max_points) == (FAILED, 0, 3)
    assert result.detail == f"expected a function named assemble_context, got {kind}"
    assert result.counterexample is None


def test_the_stub_is_not_attempted():
    result = check("q1.1", STUB)
    assert (result.status, result.points) == (NOT_ATTEMPTED, 0)
    assert "NotImplementedError" in result.detail and result.counterexample is None


def test_not_implemented_on_a_later_input_is_a_failure_not_a_stub():
    partial = learner(
        ASSEMBLE
        + """
_whole = assemble_context
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    if not chunks:
        raise NotImplementedError("empty input: todo")
    return _whole(chunks, max_tokens, separator)
"""
    )["assemble_context"]
    result = check("q1.1", partial)
    assert (result.status, result.points) == (FAILED, 0)
    assert result.counterexample == "assemble_context([], 100)"
    assert result.actual == "raised NotImplementedError: empty input: todo"


def test_the_wrong_exception_type_fails_and_says_which_was_raised():
    type_error = learner(
        ASSEMBLE
        + """
_whole = assemble_context
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    if type(max_tokens) is not int:
        raise TypeError("max_tokens must be an int")
    return _whole(chunks, max_tokens, separator)
"""
    )["assemble_context"]
    result = check("q1.2", type_error)
    assert (result.status, result.points) == (FAILED, 0)
    assert result.expected == "raises ValueError"
    assert result.actual == "raised TypeError: max_tokens must be an int"


def test_the_reference_and_the_answer_each_get_a_private_copy_of_the_input():
    shared = [[1, 2], [3]]
    calls: list[tuple[str, object]] = []

    def reference(rows):
        calls.append(("reference", rows))
        return sum(map(sum, rows))

    def answer(rows):
        calls.append(("answer", rows))
        total = sum(map(sum, rows))
        rows[0].append(100)  # a learner's function that scribbles on its input
        rows.clear()
        return total

    question = Question("q0.1", "total", 1, "sum of sums", reference, cases=((shared,), (shared,)))
    result = evaluate(question, answer)
    assert (result.status, result.counterexample) == (FAILED, "total([[1, 2], [3]])"), str(result)
    assert result.actual.startswith("changed its input: rows became []"), "the scribbling is caught and named"
    assert shared == [[1, 2], [3]], "the question's own input was modified"
    assert [who for who, _ in calls] == ["reference", "answer"]
    seen = [id(rows) for _, rows in calls] + [id(rows[0]) for _, rows in calls if rows]
    assert len(set(seen)) == len(seen) and id(shared) not in seen and id(shared[0]) not in seen


def test_a_question_promising_a_new_result_fails_an_answer_that_returns_its_argument():
    def reference(items):
        return list(items)

    def same(items):
        return items  # the right items, in the caller's own list

    promised = Question("q0.1", "copied", 1, "a new list", reference, cases=((["a"],),), new_result=True)
    result = evaluate(promised, same)
    assert (result.status, result.counterexample) == (FAILED, "copied(['a'])"), str(result)
    assert (result.expected, result.actual) == ("['a']", "returned the list it was given, not a new one")
    assert evaluate(promised, reference).status == PASSED
    assert evaluate(replace(promised, new_result=False), same).status == PASSED, "only where it is promised"


def test_an_answer_that_mutates_its_input_corrupts_neither_the_bank_nor_the_counterexample():
    example = copy.deepcopy(packer.checking.bank.EXAMPLE)
    scribbling = learner(
        ASSEMBLE
        + """
_whole = assemble_context
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    result = _whole(chunks, max_tokens, separator)
    for chunk in chunks:
        chunk["token_count"] = 0
    chunks.clear()
    return result
"""
    )["assemble_context"]
    scribbled = check("q1.1", scribbling)
    assert scribbled.status == FAILED and scribbled.actual.startswith("changed its input: chunks became"), str(
        scribbled
    )
    assert example == packer.checking.bank.EXAMPLE
    assert scribbled.counterexample == f"assemble_context({example!r}, 100)", "the input line shows the untouched input"

    reversing = learner(
        ASSEMBLE
        + """
_whole = assemble_context
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    chunks.reverse()
    return _whole(chunks, max_tokens, separator)
"""
    )["assemble_context"]
    result = check("q1.1", reversing)
    assert result.status == FAILED and example == packer.checking.bank.EXAMPLE
    # the input line is the untouched input: pasting it into a cell reproduces the expected line
    assert repr(eval(result.counterexample, {"assemble_context": packer.assemble_context})) == result.expected


def _flip_flop():
    """An answer whose result changes on every call (as if it used an unseeded random number)."""
    calls = itertools.count()

    def assemble_context(chunks, max_tokens, separator="\n\n"):
        context, used = good_assemble(chunks, max_tokens, separator)
        return context, used + next(calls) % 2

    return assemble_context


def test_a_nondeterministic_answer_fails_without_crashing_the_check():
    result = run_check("q1.1", _flip_flop())
    assert (result.status, result.points) == (FAILED, 0)
    searched = evaluate(replace(packer.checking.question("q1.1"), cases=()), _flip_flop())
    assert (searched.status, searched.points) == (FAILED, 0)
    assert re.search(r"different results for the same input|search stopped", searched.detail), searched.detail


def test_deferred_checks_wait_for_the_grader(monkeypatch):
    calls = []

    def answer(*args):
        calls.append(args)
        return good_assemble(*args)

    monkeypatch.setenv(DEFER_VARIABLE, "1")
    deferred = check("q1.1", answer)
    assert (deferred.status, deferred.points, deferred.max_points) == (DEFERRED, 0, 3)
    assert str(deferred).splitlines()[0] == "q1.1 assemble_context: DEFERRED (0/3 points)"
    assert calls == [], "a deferred check does not run the answer"
    assert check("q1.1", 42).status == DEFERRED
    assert (run_check("q1.1", answer).status, run_check("q1.1", STOPS_AT_FIRST_OVERFLOW).status) == (PASSED, FAILED)
    assert grade({"assemble_context": answer}, "1")[0].status == PASSED, "the grader grades while deferred"
    monkeypatch.setenv(DEFER_VARIABLE, "0")
    assert check("q1.1", answer).status == PASSED


WRONG = [
    ("q1.1", STOPS_AT_FIRST_OVERFLOW, True),
    ("q1.1", STOPS_AT_FIRST_OVERFLOW, False),
    ("q2.2", PACK_PROMPT_ADDING, True),
    ("q2.2", PACK_PROMPT_ADDING, False),
]


@pytest.mark.parametrize("qid, answer, fixed", WRONG, ids=[f"{q}-{'fixed' if f else 'generated'}" for q, _, f in WRONG])
def test_results_are_deterministic(qid, answer, fixed):
    question = packer.checking.question(qid) if fixed else replace(packer.checking.question(qid), cases=())
    first, second = evaluate(question, answer), evaluate(question, answer)
    assert first.status == FAILED and first.counterexample
    assert first == second


def test_counterexamples_name_counters_and_never_show_an_address():
    found = evaluate(replace(packer.checking.question("q2.2"), cases=()), PACK_PROMPT_ADDING)
    assert found.detail.startswith("smallest generated input")
    assert re.search(r", (count_words|count_chars_div4|count_utf8_bytes)\)$", found.counterexample), (
        found.counterexample
    )
    fixed = run_check("q2.2", PACK_PROMPT_ADDING)
    assert fixed.counterexample.endswith(", count_chars_div4)"), fixed.counterexample
    trusting = learner(
        PACK_PROMPT
        + """
def _measure(count, text):
    return count(text)  # trusts whatever the counter returns
"""
    )["pack_prompt"]
    assert run_check("q2.3", learner(PACK_PROMPT)["pack_prompt"]).status == PASSED
    made_up = run_check("q2.3", trusting)
    assert made_up.counterexample.endswith(", always_2_5)"), str(made_up)
    from packer.checking.inputs import always_2_5

    assert always_2_5("any text") == 2.5, "the counterexample's counter is importable under the name it is shown by"
    for result in (found, fixed, made_up):
        assert "0x" not in str(result) and " at " not in result.counterexample, str(result)


def test_a_learner_result_object_is_shown_without_an_address():
    learner_object = learner("""
class Verdict:
    def __init__(self, ok, message, total):
        self.ok, self.message, self.total = ok, message, total

def check_sections(sections, budget=500):
    return Verdict(False, "FAIL: total outside budget", 0)
""")["check_sections"]
    first, second = run_check("q4.3", learner_object), run_check("q4.3", learner_object)
    assert first.status == FAILED
    assert "0x" not in str(first)
    assert first == second


# --- not credited: the reference, however it is reached -----------------------------------------------
BORROWERS = {
    "is the reference": lambda: packer.assemble_context,
    "names it through a module global": lambda: learner("""
        from packer.chunks import assemble_context as ref
        def assemble_context(chunks, max_tokens, separator="\\n\\n"):
            return ref(chunks, max_tokens, separator)
    """)["assemble_context"],
    "names it through a module attribute chain": lambda: learner("""
        import packer
        def assemble_context(chunks, max_tokens, separator="\\n\\n"):
            return packer.chunks.assemble_context(chunks, max_tokens, separator)
    """)["assemble_context"],
    "re-exports it": lambda: learner("from packer import assemble_context")["assemble_context"],
    "imports it inside the body": lambda: learner("""
        def assemble_context(chunks, max_tokens, separator="\\n\\n"):
            from packer.chunks import assemble_context as ref
            return ref(chunks, max_tokens, separator)
    """)["assemble_context"],
    "reaches it through sys.modules and getattr": lambda: learner("""
        import sys
        def assemble_context(chunks, max_tokens, separator="\\n\\n"):
            module = sys.modules["packer" + ".chunks"]
            return getattr(module, "assemble_" + "context")(chunks, max_tokens, separator)
    """)["assemble_context"],
    "holds it in a closure": lambda: learner("""
        def make():
            import packer.chunks
            ref = packer.chunks.assemble_context
            def assemble_context(chunks, max_tokens, separator="\\n\\n"):
                return ref(chunks, max_tokens, separator)
            return assemble_context
        assemble_context = make()
    """)["assemble_context"],
    "holds it in a default argument": lambda: learner("""
        import packer
        def assemble_context(chunks, max_tokens, separator="\\n\\n", _ref=packer.assemble_context):
            return _ref(chunks, max_tokens, separator)
    """)["assemble_context"],
    "is a lambda around it": lambda: learner("""
        import packer
        assemble_context = lambda chunks, max_tokens, separator="\\n\\n": packer.assemble_context(chunks, max_tokens, separator)
    """)["assemble_context"],
    "uses a reference building block": lambda: learner(
        ASSEMBLE
        + textwrap.dedent("""
        from packer.validation import require_count
        _whole = assemble_context
        def assemble_context(chunks, max_tokens, separator="\\n\\n"):
            require_count("max_tokens", max_tokens)
            return _whole(chunks, max_tokens, separator)
    """)
    )["assemble_context"],
}


@pytest.mark.parametrize("how", list(BORROWERS))
def test_an_answer_that_uses_the_reference_is_not_credited(how):
    answer = BORROWERS[how]()
    for qid in ("q1.1", "q1.2"):
        result = check(qid, answer)
        assert (result.status, result.points) == (FAILED, 0), str(result)
        assert "not credited" in result.detail and "packer." in result.detail, result.detail
    assert grade({"assemble_context": answer}, LESSON_1)[0].status == FAILED


def test_a_predict_answer_that_runs_the_reference_is_not_credited():
    peeking = learner("""
        import packer
        from packer.checking.bank import PREDICT_CHUNKS
        def predict_q1_5():
            return packer.assemble_context(PREDICT_CHUNKS, 70, " | ")
    """)["predict_q1_5"]
    result = check("q1.5", peeking)
    assert result.status == FAILED and "not credited" in result.detail
    honest = learner('def predict_q1_5():\n    return ("intro | result | limits", 65)')["predict_q1_5"]
    assert check("q1.5", honest).status == PASSED


LAUNDERED = {
    "a functools.partial of the reference": (
        "q1.1",
        lambda: learner("""
        import functools, packer
        assemble_context = functools.partial(packer.assemble_context)
    """)["assemble_context"],
    ),
    "the chars/4 counter from packer.COUNTERS": (
        "q4.1",
        lambda: learner("""
        from packer import COUNTERS
        def estimate_tokens(text):
            return COUNTERS["chars/4 estimate"](text)
    """)["estimate_tokens"],
    ),
    "a lesson tool from packer.lab (the checks never import it)": (
        "q5.2",
        lambda: learner("""
        from packer.lab.measure import whitespace_splits
        def non_additive_cuts(text, count):
            return [(len(s.left), s.parts - s.whole) for s in whitespace_splits(text, count) if s.parts != s.whole]
    """)["non_additive_cuts"],
    ),
    "the lesson's trace of the packer": (
        "q1.1",
        lambda: learner("""
        from packer.lab import trace
        def assemble_context(chunks, max_tokens, separator="\\n\\n"):
            return trace.trace_chunks(chunks, max_tokens)
    """)["assemble_context"],
    ),
    "the question bank's own predictor": (
        "q2.4",
        lambda: learner("""
        import packer.checking.bank
        def predict_q2_4():
            return packer.checking.bank._predict_q2_4()
    """)["predict_q2_4"],
    ),
}


@pytest.mark.parametrize("how", list(LAUNDERED))
def test_the_reference_reached_through_a_packer_wrapper_is_not_credited(how):
    qid, make = LAUNDERED[how]
    result = check(qid, make())
    assert result.status == FAILED and "not credited" in result.detail, str(result)


# --- credited: the learner's own code, with the allowed helpers ----------------------------------------
def test_an_answer_may_call_the_learners_own_helpers():
    namespace = learner(
        ASSEMBLE
        + """
def assemble_prefix(chunks, max_tokens, separator="\\n\\n"):
    if isinstance(chunks, Iterator):  # a generator can be read only once: keep its chunks
        chunks = list(chunks)
    assemble_context(chunks, max_tokens, separator)  # my own validation, from q1.2
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] > max_tokens:
            break
        kept.append(chunk["text"])
        used += chunk["token_count"]
    return separator.join(kept), used
"""
    )
    for qid, name in (("q1.1", "assemble_context"), ("q1.2", "assemble_context"), ("q1.3", "assemble_prefix")):
        result = check(qid, namespace[name])
        assert (result.status, result.points) == (PASSED, result.max_points), str(result)


def test_q4_3_grades_check_2_on_a_hand_edited_prompt_and_gives_build_prompt_back():
    """Check 2 (a tag absent) cannot fail on the learner's own prompts: tag_lost edits their build_prompt for one
    call, and an answer without check 2 loses its points (issue 57)."""
    from packer.checking.inputs import tag_lost

    source = """
        import packer
        ORDER = ("task", "context", "constraints", "format", "examples")

        def build_prompt(sections):
            return "\\n\\n".join(f"{name.upper()}:\\n{sections[name]}" for name in ORDER)

        def check_sections(sections, budget=500):
            if any(name not in sections or not sections[name].strip() for name in ORDER):
                return packer.SectionCheck(False, "FAIL: missing section text", None, budget, None)
            prompt = build_prompt(sections)
            total = (len(prompt) + 3) // 4
            if any(f"{name.upper()}:" not in prompt for name in ORDER):
                return packer.SectionCheck(False, "FAIL: section tag absent", total, budget, prompt)
            if "KEY: VALUE" not in prompt:
                return packer.SectionCheck(False, "FAIL: parseable marker absent", total, budget, prompt)
            if total > budget:
                return packer.SectionCheck(False, "FAIL: total outside budget", total, budget, prompt)
            return packer.SectionCheck(True, f"PASS: 5 sections assembled within {budget} token budget", total,
                                       budget, prompt)
    """
    cells = learner(source)
    own = cells["build_prompt"]
    fifo = packer.section_budget.FIFO_EXAMPLE
    lost = tag_lost("CONTEXT:", cells["check_sections"], fifo, 500)
    assert (lost.ok, lost.message) == (False, "FAIL: section tag absent") and "Context:\n" in lost.prompt
    assert cells["build_prompt"] is own, "the learner's build_prompt is theirs again"
    with pytest.raises(ValueError, match="no build_prompt"):
        tag_lost("CONTEXT:", len, fifo)  # a function that finds no build_prompt: nothing to edit
    without = learner(source.replace('if any(f"{name.upper()}:" not in prompt for name in ORDER)', "if False"))
    result = check("q4.3", without["check_sections"])
    assert result.status == FAILED and result.detail.startswith("check 2 (a tag absent) never failed"), str(result)
    assert result.counterexample.startswith("tag_lost('CONTEXT:', check_sections, {")


def test_an_answer_using_packer_section_check_is_credited():
    check_sections = learner("""
        import packer
        ORDER = ("task", "context", "constraints", "format", "examples")

        def build_prompt(sections):
            return "\\n\\n".join(f"{name.upper()}:\\n{sections[name]}" for name in ORDER)

        def check_sections(sections, budget=500):
            if any(name not in sections or not sections[name].strip() for name in ORDER):
                return packer.SectionCheck(False, "FAIL: missing section text", None, budget, None)
            prompt = build_prompt(sections)
            total = (len(prompt) + 3) // 4
            if any(f"{name.upper()}:" not in prompt for name in ORDER):
                message = "FAIL: section tag absent"
            elif "KEY: VALUE" not in prompt:
                message = "FAIL: parseable marker absent"
            elif total <= 0 or total > budget:
                message = "FAIL: total outside budget"
            else:
                return packer.SectionCheck(True, f"PASS: 5 sections assembled within {budget} token budget",
                                           total, budget, prompt)
            return packer.SectionCheck(False, message, total, budget, prompt)
    """)["check_sections"]
    result = check("q4.3", check_sections)
    assert (result.status, result.points) == (PASSED, 3), str(result)


def test_an_answer_using_packer_count_words_is_credited():
    pack_prompt = learner("""
        import packer.counters

        def fold(text):
            return "".join(line + " " if line.splitlines()[0] != line else line for line in text.splitlines(True))

        def render(question, passages):
            lines = "".join(f"[{k}] {fold(t)}\\n" for k, t in passages)
            return "Question: " + fold(question) + "\\nSources:\\n" + lines + "Answer:"

        def pack_prompt(question, passages, limit, count=None):
            count = count or packer.counters.count_words  # words unless told otherwise
            chosen, skipped = [], []
            for key, text in passages:
                if count(render(question, chosen + [(key, text)])) <= limit:
                    chosen.append((key, text))
                else:
                    skipped.append(key)
            return chosen, skipped, render(question, chosen)
    """)["pack_prompt"]
    result = check("q2.2", pack_prompt)  # its cases also pass count_chars_div4, which calls packer code itself
    assert (result.status, result.points) == (PASSED, 3), str(result)
    assert pack_prompt("why", [("a", "one two")], 7)[0] == [("a", "one two")]


# --- grade() and the question bank ----------------------------------------------------------------------
def test_grade_checks_each_present_name_and_skips_missing_ones():
    results = grade(
        {
            "assemble_context": good_assemble,
            "assemble_prefix": STOPS_AT_FIRST_OVERFLOW,
            "predict_q1_5": 42,
            "unrelated": print,
        },
        LESSON_1,
    )
    assert [(r.qid, r.status, r.points) for r in results] == [
        ("q1.1", PASSED, 3),
        ("q1.2", PASSED, 2),
        ("q1.3", FAILED, 0),
        ("q1.4", NOT_ATTEMPTED, 0),
        ("q1.5", FAILED, 0),
    ]
    assert results[3].detail == "no assemble_charged defined"
    assert results[2].counterexample, "a present but wrong answer gets a counterexample"
    assert all(r.max_points == q.points for r, q in zip(results, questions(LESSON_1)))


def test_grade_of_an_empty_namespace_is_all_not_attempted():
    for lesson in "123456789":
        results = grade({}, lesson)
        assert results and all((r.status, r.points) == (NOT_ATTEMPTED, 0) for r in results)


def test_questions_are_found_by_slug_or_number_in_order():
    assert [q.qid for q in questions(LESSON_1)] == ["q1.1", "q1.2", "q1.3", "q1.4", "q1.5"]
    assert questions(LESSON_1) == questions("1") == questions("01")
    assert [q.qid for q in questions("04_section_budget")] == [f"q4.{i}" for i in range(1, 6)]


def test_the_question_bank_is_well_formed():
    every = [q for lesson in "123456789" for q in questions(lesson)]
    assert sorted(q.qid for q in every) == sorted(BANK), "a registered question belongs to no lesson"
    assert len({q.qid for q in every}) == len(every)
    for lesson in "123456789":
        qids = [q.qid for q in questions(lesson)]
        assert 3 <= len(qids) <= 6, f"lesson {lesson} has {len(qids)} graded questions"
        assert qids == [f"q{lesson}.{i}" for i in range(1, len(qids) + 1)], "numbered consecutively from 1"
    for q in every:
        assert type(q.points) is int and q.points >= 1, q.qid
        assert isinstance(q.title, str) and q.title.strip(), q.qid
        assert q.name.isidentifier() and q.cases and callable(q.reference), q.qid


def test_a_question_cannot_be_registered_twice():
    with pytest.raises(ValueError, match="registered twice"):
        packer.checking.bank.register(BANK["q1.1"])


# --- no check hangs, and an interrupt is one line -------------------------------------------------------
LOOPING = """
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    kept, used, index = [], 0, 0
    while index < len(chunks):  # forgets to move on when a chunk does not fit
        try:
            chunk = chunks[index]
            if used + chunk["token_count"] <= max_tokens:
                kept.append(chunk["text"])
                used += chunk["token_count"]
                index += 1
        except Exception:  # swallowing errors must not swallow the time limit
            pass
    return separator.join(kept), used
"""


def test_a_looping_answer_is_stopped_after_the_limit_of_cpu_time_with_a_plain_message():
    import time

    started = time.process_time()
    result = check("q1.1", learner(LOOPING)["assemble_context"])
    used = time.process_time() - started
    assert used < packer.checking.TIME_LIMIT + 1.5, f"it worked for {used:.1f} s of CPU time"
    assert (result.status, result.points) == (FAILED, 0)
    assert (
        result.detail
        == f"stopped: the answer was still running after {packer.checking.TIME_LIMIT:g} s of CPU time on this input "
        "(a loop that never ends?)"
    )
    assert result.counterexample.startswith("assemble_context([{'text': 'alpha'")
    assert result.expected == "('alpha\\n\\nbravo\\n\\ndelta', 90)"
    assert result.actual == f"still running after {packer.checking.TIME_LIMIT:g} s of CPU time"


SLEEPING = """
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    import time
    time.sleep(3600)  # waits for something that never comes
"""

NAPPING = """
def predict_q1_5():
    import time
    time.sleep(0.4)  # longer than the limit on the clock, but no work at all
    return "intro | result | limits", 65
"""


def test_the_limit_counts_the_answers_own_cpu_time_not_the_clock():
    """A call that sleeps longer than the limit is not stopped (on a busy machine a correct answer's clock time
    grows, not its CPU time); one that waits WAIT_FACTOR times the limit is, and is told it was waiting."""
    from packer.checking import evaluate, question
    from packer.checking.engine import WAIT_FACTOR

    napping = evaluate(question("q1.5"), learner(NAPPING)["predict_q1_5"], 0.1)
    assert not napping.detail.startswith("stopped"), napping.detail
    sleeping = evaluate(question("q1.1"), learner(SLEEPING)["assemble_context"], 0.1)
    assert (sleeping.status, sleeping.points) == (FAILED, 0)
    assert sleeping.actual == f"still waiting after {0.1 * WAIT_FACTOR:g} s"
    assert sleeping.detail.endswith("on this input (waiting for something that never comes?)")


def test_the_time_limit_also_works_outside_the_main_thread():
    import threading

    from packer.checking.engine import WAIT_FACTOR

    found: list = []
    used: list[float] = []  # the worker thread's own CPU time over the whole check

    def in_a_thread() -> None:
        started = time.thread_time()
        found.append(check("q1.1", learner(LOOPING)["assemble_context"]))
        used.append(time.thread_time() - started)

    thread = threading.Thread(target=in_a_thread)
    thread.start()
    thread.join(timeout=packer.checking.TIME_LIMIT * WAIT_FACTOR + 20)  # at most the clock's backstop
    assert not thread.is_alive() and found, "the check in a worker thread was not stopped"
    on_cpu = f"still running after {packer.checking.TIME_LIMIT:g} s of CPU time"
    on_clock = f"still waiting after {packer.checking.TIME_LIMIT * WAIT_FACTOR:g} s"
    # The CPU limit stops the loop, unless the machine was so busy that the thread got less than a tenth of a
    # core: then the clock's backstop comes first, and only then (measured under make test-under-load).
    assert found[0].actual in (on_cpu, on_clock), str(found[0])
    if found[0].actual == on_clock:
        assert used[0] < packer.checking.TIME_LIMIT + 0.5, (used, str(found[0]))


@pytest.mark.parametrize("timer", ["ITIMER_REAL", "ITIMER_PROF"])
def test_the_time_limit_gives_back_a_timer_that_was_already_running(timer):
    """The clock's timer (SIGALRM) and the CPU-time timer (SIGPROF, a profiler's) are both borrowed and given back."""
    import signal

    which, signum = getattr(signal, timer), signal.SIGALRM if timer == "ITIMER_REAL" else signal.SIGPROF
    fired: list[int] = []
    previous = signal.signal(signum, lambda *_: fired.append(1))
    try:
        signal.setitimer(which, 30)
        assert check("q1.1", good_assemble).status == PASSED
        left, _ = signal.getitimer(which)
        # (each of the check's calls re-arms it with what was left, which the kernel rounds up to its timer tick:
        # a CPU-time timer can come back a fraction of a second later, never reset to a new full period)
        assert 20 < left <= 31, "the outer timer was lost or reset"
        assert signal.getsignal(signum) is not None and not fired
    finally:
        signal.setitimer(which, 0)
        signal.signal(signum, previous)


def test_an_interrupt_becomes_one_short_line_naming_the_input():
    def interrupted(chunks, max_tokens, separator="\n\n"):
        raise KeyboardInterrupt  # what Ctrl-C (or Jupyter's stop button) raises inside a long answer

    with pytest.raises(KeyboardInterrupt) as caught:  # still a KeyboardInterrupt: Run All stops there
        check("q1.1", interrupted)
    assert isinstance(caught.value, packer.checking.CheckInterrupted)
    lines = caught.value._render_traceback_()  # what IPython prints instead of a traceback
    assert len(lines) == 1 and lines[0].startswith("KeyboardInterrupt: check q1.1 interrupted on assemble_context(")
    assert lines[0].endswith("; no points recorded")


# --- feedback that helps ---------------------------------------------------------------------------------
def test_long_results_that_differ_late_are_shown_from_where_they_differ():
    build = learner("""
ORDER = ("task", "context", "constraints", "format", "examples")
def build_prompt(sections):
    return "\\n\\n".join(name.upper() + ":\\n" + sections[name] for name in ORDER) + "\\n\\n"
""")["build_prompt"]
    result = check("q4.2", build)
    assert result.status == FAILED
    assert result.expected.startswith("…") and result.actual.startswith("…"), str(result)
    assert result.expected.endswith("backpressure.'") and result.actual.endswith("backpressure.\\n\\n'"), str(result)
    assert "agree up to character" in result.detail


def test_short_results_are_shown_whole():
    from packer.checking.engine import first_difference

    assert first_difference("('a', 1)", "('a', 2)") == ("('a', 1)", "('a', 2)")
    long = "x" * 1000
    expected, actual = first_difference(long + "a", long + "b")
    assert (expected, actual) == ("…" + "x" * 40 + "a", "…" + "x" * 40 + "b")


# --- q3.1's linear time is graded, and the verdict does not flicker ---------------------------------------
FOLD = """
def fold(text):
    lines = text.splitlines(keepends=True)
    return "".join(line + " " if line.splitlines()[0] != line else line for line in lines)
"""
LINEAR_UTF8 = (
    FOLD
    + """
def pack_utf8(passages, limit, reserve):
    header = "Sources:\\n"
    used, lines, kept = len(header.encode("utf-8")), [header], []
    if used + reserve > limit:
        raise ValueError("header and reserve exceed the limit")
    for key, text in passages:
        line = f"[{key}] {fold(text)}\\n"
        size = len(line.encode("utf-8"))
        if used + size + reserve <= limit:
            lines.append(line)
            used += size
            kept.append(key)
    return "".join(lines), kept
"""
)
QUADRATIC_UTF8 = (
    FOLD
    + """
def pack_utf8(passages, limit, reserve):
    payload, kept = "Sources:\\n", []
    if len(payload.encode("utf-8")) + reserve > limit:
        raise ValueError("header and reserve exceed the limit")
    for key, text in passages:
        candidate = payload + f"[{key}] {fold(text)}\\n"
        if len(candidate.encode("utf-8")) + reserve <= limit:  # re-encodes everything kept so far
            payload = candidate
            kept.append(key)
    return payload, kept
"""
)


def test_q3_1_grades_linear_work_with_the_same_verdict_20_times_in_a_row():
    from packer.checking.linear import NOTE, linear_in_passages

    requirement = linear_in_passages("pack_utf8")
    linear, quadratic = learner(LINEAR_UTF8)["pack_utf8"], learner(QUADRATIC_UTF8)["pack_utf8"]
    assert [requirement(linear) for _ in range(20)] == [None] * 20
    verdicts = [requirement(quadratic) for _ in range(20)]
    assert len(set(verdicts)) == 1 and verdicts[0] is not None
    detail, shown, expected, actual = verdicts[0]
    assert detail.startswith("not linear: from 100 to 800 passages") and "bytes made by built-in calls" in detail
    assert shown.startswith('pack_utf8([(f"p{i}", "é日x" * 3) for i in range(800)], ')
    assert len(eval(shown, {"pack_utf8": packer.pack_utf8})[1]) == 800, "the input line runs as shown"
    passed, failed = check("q3.1", linear), check("q3.1", quadratic)
    assert passed.status == PASSED and passed.detail.endswith(NOTE)
    assert failed.status == FAILED and failed.detail == detail


# The same loops, encoding another way: the count does not depend on which way (issue 57: a quadratic loop
# measured with bytes(...) once passed, and its PASSED line said "its work grows linearly").
ENCODINGS = {
    "str.encode": 'len(CANDIDATE.encode("utf-8"))',
    "bytes()": 'len(bytes(CANDIDATE, "utf-8"))',
    "bytearray()": 'len(bytearray(CANDIDATE, "utf-8"))',
    "codecs.encode": 'len(__import__("codecs").encode(CANDIDATE, "utf-8"))',
    "memoryview": "memoryview(CANDIDATE.encode()).nbytes",
}


@pytest.mark.parametrize("way", ENCODINGS)
def test_a_quadratic_answer_fails_and_a_linear_one_passes_however_it_encodes(way):
    measure = ENCODINGS[way]
    linear = LINEAR_UTF8.replace('len(line.encode("utf-8"))', measure.replace("CANDIDATE", "line")).replace(
        'len(header.encode("utf-8"))', measure.replace("CANDIDATE", "header")
    )
    quadratic = QUADRATIC_UTF8.replace('len(candidate.encode("utf-8"))', measure.replace("CANDIDATE", "candidate"))
    assert linear != LINEAR_UTF8 or way == "str.encode"
    passed, failed = check("q3.1", learner(linear)["pack_utf8"]), check("q3.1", learner(quadratic)["pack_utf8"])
    assert (passed.status, failed.status) == (PASSED, FAILED), (str(passed), str(failed))
    assert failed.detail.startswith("not linear: from 100 to 800 passages (all kept) the bytes made by built-in")


def test_a_payload_grown_with_plus_equals_and_a_running_total_is_linear():
    """CPython grows `payload += line` in place when nothing watches; under the check's profiler it copies, and
    that copy is not counted (only bytes made inside built-in calls are)."""
    grown = (
        FOLD
        + """
def pack_utf8(passages, limit, reserve):
    payload = "Sources:\\n"
    used, kept = len(payload.encode("utf-8")), []
    if used + reserve > limit:
        raise ValueError("header and reserve exceed the limit")
    for key, text in passages:
        line = f"[{key}] {fold(text)}\\n"
        size = len(line.encode("utf-8"))
        if used + size + reserve <= limit:
            payload += line
            used += size
            kept.append(key)
    return payload, kept
"""
    )
    assert check("q3.1", learner(grown)["pack_utf8"]).status == PASSED


def test_the_stand_ins_for_bytes_are_removed_after_the_measurement():
    from packer.checking.linear import measured_work, passages, roomy_limit

    answer = learner(LINEAR_UTF8.replace('len(line.encode("utf-8"))', 'len(bytes(line, "utf-8"))'))["pack_utf8"]
    work = measured_work(answer, (passages(10), roomy_limit(10), 0))
    assert work.allocated > 0 and work.steps > 0
    assert "bytes" not in answer.__globals__ and "bytearray" not in answer.__globals__
    assert answer(passages(2), 99, 0)[1] == ["p0", "p1"]


# --- the container contract: any ordered iterable, read once ---------------------------------------------
def test_the_reference_variants_read_a_real_generator_once():
    from packer.checking import variants

    passages = [("a", "x"), ("b", "y" * 40), ("c", "z")]
    expected = ("Sources:\n[a] x\n[c] z\n", ["a", "c"], ["b"])
    assert variants.pack_utf8_report((p for p in passages), 30, 0) == expected
    assert variants.pack_utf8_report(tuple(passages), 30, 0) == expected
    chunks = packer.checking.bank.EXAMPLE
    assert variants.assemble_prefix((c for c in chunks), 100) == variants.assemble_prefix(chunks, 100)
    assert variants.assemble_charged((c for c in chunks), 100, 5) == variants.assemble_charged(chunks, 100, 5)
    for bad in ("ab", {"a": "x"}, {("a", "x")}, None):
        with pytest.raises(ValueError, match="passages"):
            variants.pack_utf8_report(bad, 30, 0)


def test_once_behaves_like_a_generator_and_shows_as_the_call_that_makes_it():
    from packer.checking.inputs import Record, once

    items = once([("a", "x")])
    assert repr(items) == "once([('a', 'x')])" and eval(repr(items), {"once": once}).__class__ is items.__class__
    assert list(items) == [("a", "x")] and list(items) == [], "a second pass sees nothing, as with a generator"
    record = Record(text="a", token_count=1)
    assert repr(record) == "Record(text='a', token_count=1)" and dict(record) == {"text": "a", "token_count": 1}
    assert not isinstance(record, dict) and record == {"text": "a", "token_count": 1}


def test_a_set_of_shingles_shows_sorted_whatever_the_hash_seed_and_pastes_as_a_plain_set():
    import copy
    import subprocess
    import sys

    from packer.checking import replay
    from packer.checking.inputs import SortedSet

    shingles = SortedSet({("the", "fifo", "is"), ("fifo", "is", "full"), ("a", "b", "c")})
    shown = "{('a', 'b', 'c'), ('fifo', 'is', 'full'), ('the', 'fifo', 'is')}"
    assert repr(shingles) == shown and eval(shown) == shingles and repr(SortedSet()) == "set()"
    assert type(copy.deepcopy(shingles)) is SortedSet and replay.decode(replay.encode(shingles), {}) == shingles
    code = "from packer.checking.inputs import SortedSet; print(repr(SortedSet({('b',), ('a',), ('c', 'd')})))"
    for seed in ("1", "2"):  # a plain set of strings is shown in another order under another hash seed
        run = subprocess.run([sys.executable, "-c", code], env={"PYTHONHASHSEED": seed}, capture_output=True, text=True)
        assert run.stdout == "{('a',), ('b',), ('c', 'd')}\n", run.stderr


def test_above_cutoff_compares_exactly_as_the_numbers_are_written():
    """q6.3's rule: 7 is at least 0.28 × 25, although floating point computes 0.28 * 25 as 7.000000000000001."""
    from packer.checking.variants import above_cutoff

    assert 7 < 0.28 * 25 and 7 < 0.14 * 50, "floating point puts the bar a hair too high"
    assert above_cutoff([("a", 25), ("b", 7)], 0.28) == ["a", "b"]
    assert above_cutoff([("a", 50), ("b", 7), ("c", 6.99)], 0.14) == ["a", "b"]
    assert above_cutoff([("a", 25), ("b", 7)], 0.29) == ["a"]
    floats = learner("""
def above_cutoff(scored, share):
    best = max((score for _, score in scored), default=0)
    return [key for key, score in scored if score >= share * best]
""")["above_cutoff"]
    exact = learner("""
from fractions import Fraction

def above_cutoff(scored, share):
    best = max((Fraction(str(score)) for _, score in scored), default=0)
    return [key for key, score in scored if Fraction(str(score)) >= Fraction(str(share)) * best]
""")["above_cutoff"]
    result = run_check("q6.3", floats)
    assert result.status == FAILED and result.counterexample == "above_cutoff([('a', 25), ('b', 7)], 0.28)"
    assert (result.expected, result.actual) == ("['a', 'b']", "['a']")
    assert run_check("q6.3", exact).status == PASSED


def test_a_list_where_a_tuple_is_expected_or_a_float_where_an_int_is_fails():
    """Python calls ['a', 90] equal to ('a', 90) after `plain` flattening, and 90.0 equal to 90; the checks do not."""
    from packer.checking.engine import plain

    assert plain([1, 2]) != plain((1, 2)) and plain(1.0) != plain(1) and plain(True) != plain(1)
    assert plain([("a", 1)]) == plain([("a", 1)]) and plain("a") == "a"
    as_list = learner(ASSEMBLE.replace("return separator.join(kept), used", "return [separator.join(kept), used]"))
    as_float = learner(
        ASSEMBLE.replace("return separator.join(kept), used", "return separator.join(kept), float(used)")
    )
    listed, floated = run_check("q1.1", as_list["assemble_context"]), run_check("q1.1", as_float["assemble_context"])
    assert listed.status == FAILED and listed.detail.startswith("fixed case 1 of ")
    assert (listed.expected, listed.actual) == (
        "('alpha\\n\\nbravo\\n\\ndelta', 90)",
        "['alpha\\n\\nbravo\\n\\ndelta', 90]",
    )
    assert (floated.status, floated.actual) == (FAILED, "('alpha\\n\\nbravo\\n\\ndelta', 90.0)")


# --- lesson 07: the request counters the checks use, and the template facts q7.4 gives ------------------
def test_the_checks_request_counters_count_what_their_docstrings_say():
    from packer.checking.inputs import count_request_words, count_system_folded, count_template_div4

    user = {"role": "user", "content": "Question: why\nSources:\nAnswer:"}
    system = {"role": "system", "content": "Be brief."}
    assert count_request_words([user]) == 3 + 3 + 4 and count_request_words([system, user]) == 3 + 5 + 7
    rendered = "<|user|>Question: why\nSources:\nAnswer:<|end|><|assistant|>"
    assert count_template_div4([user]) == -(-len(rendered) // 4)
    folded = "<s>[INST] Be brief.\n\nQuestion: why\nSources:\nAnswer: [/INST]"
    assert count_system_folded([system, user]) == -(-len(folded) // 4)
    # an empty system message still costs its two newlines, so adding one changes the count
    empty = {"role": "system", "content": ""}
    assert (count_system_folded([user]), count_system_folded([empty, user])) == (12, 13)  # 48 characters, then 50
    with pytest.raises(TypeError, match="count_request_words measures a request"):
        count_request_words("Question: why")


def test_q7_4s_pieces_and_its_answer_are_what_mistral_common_measures():
    """The token counts q7.4 prints, and the totals its reference derives from them, are the real ones."""
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    from packer.chat import mistral_chat
    from packer.checking.bank import JOINED, PREDICT_PIECES, PREDICT_SYSTEM, PREDICT_USER, _predict_q7_4

    request = [{"role": "system", "content": PREDICT_SYSTEM}, {"role": "user", "content": PREDICT_USER}]
    texts = {
        "the system prompt": PREDICT_SYSTEM,
        "the user's prompt": PREDICT_USER,
        JOINED: PREDICT_SYSTEM + "\n\n" + PREDICT_USER,
    }
    for version in ("v1", "v7"):
        tokenizer = getattr(MistralTokenizer, version)().instruct_tokenizer.tokenizer
        measured = {piece: len(tokenizer.encode(text, bos=False, eos=False)) for piece, text in texts.items()}
        assert measured == PREDICT_PIECES, version
    assert _predict_q7_4() == (mistral_chat("v1")(request), mistral_chat("v7")(request))


def test_q7_4s_worked_example_shows_the_tokens_mistral_common_gives():
    from packer.chat import mistral_tokens
    from packer.checking.bank import SMALL_PIECES, SMALL_REQUEST

    assert {version: mistral_tokens(SMALL_REQUEST, version) for version in ("v1", "v7")} == SMALL_PIECES
