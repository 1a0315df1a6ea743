"""Every counterexample a check prints is a call a learner can paste into the exercise notebook and run.

For every wrong answer in the mutants library, from the fixed cases and from the generated-input search
alone, the printed input is evaluated in the namespace the exercise's own setup cell creates (plus the
learner's function): it must be valid Python that names only what that cell imports, and with the
reference in the learner's place it must give exactly the printed expected result.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from packer.checking import question
from packer.checking.exercises import exercise_name

from test_mutants import FIXED_CASES_ONLY, MUTANTS, REQUIREMENT_ONLY, checked, searched

ROOT = Path(__file__).resolve().parents[2]
SLUGS = {
    slug[1]: slug for slug in (p.stem.removeprefix("exercise_") for p in (ROOT / "exercises").glob("exercise_0[1-9]_*"))
}  # "1" -> "01_assemble_context"


def setup_namespace(qid: str) -> dict:
    """The names an exercise notebook has after its setup cell (its first code cell) has run."""
    slug = SLUGS[qid[1]]
    nb = nbformat.read(ROOT / "exercises" / exercise_name(slug), as_version=4)
    setup = next(cell for cell in nb.cells if cell.cell_type == "code")
    namespace: dict = {"__name__": "__main__"}
    exec(compile(setup.source, f"<exercises/{exercise_name(slug)} setup cell>", "exec"), namespace)
    return namespace


def paste(qid: str, counterexample: str, function) -> object:
    """Run the printed input as a learner would, with `function` defined under the question's name."""
    namespace = setup_namespace(qid)
    namespace[question(qid).name] = function
    return eval(compile(counterexample, "<pasted counterexample>", "eval"), namespace)


def shown_as(qid: str, value) -> str:
    found = question(qid)
    return found.describe(value) if found.describe else repr(value)


def assert_pastes_and_reproduces(qid: str, result) -> None:
    assert result.counterexample, str(result)
    try:
        compile(result.counterexample, "<pasted counterexample>", "eval")
    except SyntaxError as error:
        pytest.fail(f"{qid}: the printed input is not Python: {result.counterexample!r} ({error})")
    found = question(qid)
    if result.expected.startswith("raises "):
        kind = result.expected.removeprefix("raises ")
        with pytest.raises(Exception) as raised:
            paste(qid, result.counterexample, found.reference)
        assert type(raised.value).__name__ == kind, str(result)
        return
    value = paste(qid, result.counterexample, found.reference)
    shown_whole = "…" not in result.expected
    if shown_whole and (found.requirement is None or result.detail.startswith(("fixed case", "smallest"))):
        assert shown_as(qid, value) == result.expected, str(result)


def _not_a_name_error(qid: str, result, answer) -> None:
    """Running the wrong answer on the pasted input may raise anything but a NameError."""
    try:
        paste(qid, result.counterexample, answer)
    except NameError as error:
        pytest.fail(f"{qid}: the counterexample uses a name the setup cell does not import: {error}")
    except Exception:
        pass


# A wrong prediction is shown no input and no expected value, only what is wrong with it (test_feedback.py).
PRINTED = [(q, w, f) for q, w, f in MUTANTS if question(q).predict is None]


@pytest.mark.parametrize("qid, why, answer", PRINTED, ids=[f"{q}-{w}" for q, w, _ in PRINTED])
def test_the_printed_input_runs_in_the_exercise_and_gives_the_expected_result(qid, why, answer):
    result = checked(qid, answer)
    assert_pastes_and_reproduces(qid, result)
    _not_a_name_error(qid, result, answer)


SEARCHED = [
    (q, w, f) for q, w, f in MUTANTS if question(q).inputs is not None and f not in REQUIREMENT_ONLY | FIXED_CASES_ONLY
]


@pytest.mark.parametrize("qid, why, answer", SEARCHED, ids=[f"{q}-{w}" for q, w, _ in SEARCHED])
def test_generated_counterexamples_run_in_the_exercise_too(qid, why, answer):
    result = searched(qid, answer)
    assert_pastes_and_reproduces(qid, result)
    _not_a_name_error(qid, result, answer)


@pytest.mark.parametrize("qid", sorted({q for q, _, _ in MUTANTS}))
def test_every_setup_cell_imports_every_helper_its_checks_can_show(qid):
    """The broken counters, Record and once may appear in any generated input of these lessons."""
    import packer.checking.inputs as inputs
    from packer.checking.questions_09_conversation import CONVERSATION_COUNTERS

    namespace = setup_namespace(qid)
    wanted = {
        "1": {"Record", "once"},
        "2": {
            "once",
            "count_words",
            "count_chars_div4",
            "count_utf8_bytes",
            *[c.__name__ for c in inputs.BROKEN_COUNTERS],
            "always_0",
        },
        "3": {"once"},
        "4": {"Record"},
        "5": {
            "count_words",
            "count_chars_div4",
            "count_utf8_bytes",
            "count_cl100k_base",
            "always_2_5",
            "always_minus_1",
        },
        "6": {"count_words", "count_chars_div4", "count_utf8_bytes"},
        "7": {
            "once",
            *[c.__name__ for c in inputs.REQUEST_COUNTERS],
            *[c.__name__ for c in inputs.BROKEN_COUNTERS],
            "always_0",
            "words_then_2_5",
        },
        "8": {"count_words", "count_chars_div4", "count_utf8_bytes"},
        "9": {
            *[c.__name__ for c in CONVERSATION_COUNTERS],
            *[c.__name__ for c in inputs.BROKEN_COUNTERS],
            "always_0",
            "words_then_minus_1",
            "PLACEHOLDER",
        },
    }[qid[1]]
    assert wanted <= set(namespace), f"missing from the setup cell: {sorted(wanted - set(namespace))}"
