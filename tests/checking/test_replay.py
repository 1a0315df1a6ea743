"""Recorded generated inputs, replayed: the grader's checks skip generating the search's inputs again, and
every verdict, counterexample and detail stays exactly what the search itself gives.

The search is derandomized, so an answer that agrees on every generated input is handed the same inputs
each time; a replay hands it those (recorded once), and any answer that disagrees is searched as ever.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import sys
from pathlib import Path

import nbformat
import pytest

from packer.checking import BANK, FAILED, PASSED, evaluate, questions, replay
from packer.checking.engine import show_call
from packer.checking.search import inputs_version
from packer.checking.exercises import solution_lessons

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mutants import MUTANTS  # noqa: E402  (the wrong answers every check must catch)

SEARCHED = [qid for qid, question in BANK.items() if question.inputs is not None]


@pytest.fixture(scope="module")
def recorded():
    """Every question's recorded inputs, read back as a kernel reads them (here against this process's modules)."""
    text = replay.record(BANK.values())
    return text, *replay.read(text, sys.modules)


def _solutions() -> list[tuple[str, str, object]]:
    answers = []
    for lesson, path in solution_lessons(ROOT).items():
        namespace: dict = {"__name__": "__main__"}
        with contextlib.redirect_stdout(io.StringIO()):
            for cell in nbformat.read(path, as_version=4).cells:
                if cell.cell_type == "code" and not cell.source.startswith("check("):
                    exec(compile(cell.source, str(path), "exec"), namespace)
        answers += [(q.qid, "the solution", namespace[q.name]) for q in questions(lesson) if q.inputs is not None]
    return answers


def test_every_searched_question_is_recorded_with_the_version_of_the_search_that_drew_it(recorded):
    _, version, inputs = recorded
    assert sorted(inputs) == sorted(SEARCHED)
    assert version == inputs_version() != ""
    assert all(len(inputs[qid]) == 120 for qid in SEARCHED), {qid: len(inputs[qid]) for qid in SEARCHED}


def test_recorded_inputs_come_back_exactly_as_they_were_generated(recorded):
    _, _, inputs = recorded
    for qid in SEARCHED:
        generated = replay.generated_inputs(BANK[qid])
        assert len(inputs[qid]) == len(generated) > 0
        for again, original in zip(inputs[qid], generated):
            assert show_call("f", again) == show_call("f", original), qid
            assert _types(again) == _types(original), qid


def _types(value):
    """The exact type of every part of a value (a list is not a tuple, True is not 1, 1.0 is not 1)."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return type(value), sorted(map(repr, map(_types, value))) if isinstance(value, (set, frozenset)) else [
            _types(item) for item in value
        ]
    if isinstance(value, dict):
        return dict, [(_types(k), _types(v)) for k, v in value.items()]
    if type(value).__name__ in ("Record", "Once"):
        return type(value), _types(dict(value) if type(value).__name__ == "Record" else list(value._items))
    return type(value)


def test_an_input_that_cannot_be_rebuilt_exactly_is_refused():
    with pytest.raises(TypeError):
        replay.encode([object()])
    with pytest.raises(TypeError):
        replay.encode(lambda text: 1)  # not importable by name


ANSWERS = [*[(qid, why, answer) for qid, why, answer in MUTANTS if qid in SEARCHED], *_solutions()]


@pytest.mark.parametrize("qid, why, answer", ANSWERS, ids=[f"{q}-{w}" for q, w, _ in ANSWERS])
def test_a_replayed_check_gives_exactly_the_searched_result(recorded, qid, why, answer):
    _, _, inputs = recorded
    searched = evaluate(BANK[qid], answer)
    assert evaluate(BANK[qid], answer, generated=inputs[qid]) == searched, why
    assert searched.status == (PASSED if why == "the solution" else FAILED) or qid == "q3.1", str(searched)


def test_the_replay_seeds_the_global_random_as_the_search_does(recorded):
    """An answer that draws from `random` sees what it would see under the search (Hypothesis seeds the
    global random for each input), so it gets the same verdict."""
    _, _, inputs = recorded
    seeded = _seeded_answer()
    searched = evaluate(BANK["q1.3"], seeded)
    assert searched.status == FAILED, str(searched)
    assert evaluate(BANK["q1.3"], seeded, generated=inputs["q1.3"]) == searched


def _honest_prefix():
    return next(answer for qid, why, answer in _solutions() if qid == "q1.3")


def _seeded_answer():
    """A right q1.3 answer, except when the global random was just seeded with 0 (as the search seeds it
    for each generated input, never for the fixed cases): then it keeps nothing."""
    import random

    honest, first = _honest_prefix(), random.Random(0).random()

    def assemble_prefix(chunks, max_tokens, separator="\n\n"):
        context, used = honest(chunks, max_tokens, separator)
        return ("", 0) if random.random() == first and used else (context, used)

    return assemble_prefix


def test_an_answer_wrong_only_on_one_call_still_fails_when_replayed(recorded):
    """A replayed input that disagrees sends the check to the search; an answer that then agrees everywhere
    (it keeps state between calls) fails as unstable instead of passing."""
    _, _, inputs = recorded
    honest, calls, wrong = _honest_prefix(), itertools.count(), [True]

    def assemble_prefix(chunks, max_tokens, separator="\n\n"):
        number = next(calls)
        context, used = honest(chunks, max_tokens, separator)
        if number >= len(BANK["q1.3"].cases) and wrong[0]:  # once, on the first valid generated input
            wrong[0] = False
            return context, used + 1
        return context, used

    result = evaluate(BANK["q1.3"], assemble_prefix, generated=inputs["q1.3"])
    assert (result.status, result.points) == (FAILED, 0), str(result)


def test_an_answer_that_loads_modules_mid_check_is_still_handed_the_recorded_inputs(recorded):
    """Loading a module no longer changes what the search draws (packer.checking.search), so the replay stands:
    the answer agrees on every recorded input and passes without a search after it."""
    _, _, inputs = recorded
    honest, calls = _honest_prefix(), []

    def assemble_prefix(chunks, max_tokens, separator="\n\n"):
        calls.append(1)
        import packer.lab.trace  # noqa: F401  (a local module: Hypothesis alone would take its constants)

        return honest(chunks, max_tokens, separator)

    result = evaluate(BANK["q1.3"], assemble_prefix, generated=inputs["q1.3"])
    assert result.status == PASSED
    assert len(calls) == len(BANK["q1.3"].cases) + len(inputs["q1.3"]), "the search ran after the replay"
