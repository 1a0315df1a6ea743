"""The check engine: run one Question against an answer, fixed cases first, then generated inputs.

`evaluate(question, answer)` returns a CheckResult (passed / failed / not attempted) that shows, on failure,
the smallest input found where the answer and the reference disagree, as a call that can be pasted into a
cell. The answer runs on a private copy of each input and must leave it as it was; with a time limit
(in-notebook checks), a call that runs longer is stopped and reported; an interrupt becomes one line. What
the answer prints while it is checked (sys.stdout and sys.stderr) is held back and counted, and the result
shows its first few lines under the verdict. The engine knows nothing of the question bank
(packer.checking.bank); the package (packer.checking) joins the two.

What it builds on, each in a module of its own: running an answer under limits (packer.checking.limits:
the time limit, what it prints), comparing results (packer.checking.compare), describing a counterexample
(packer.checking.feedback), the references an answer may not borrow (packer.checking.references) and the
generated-input search, whose inputs belong to the question alone (packer.checking.search). Their
names that callers have always imported from here (`forbid`, `plain`, `show_call`, `time_limit`, ...) still
are.
"""

from __future__ import annotations

import copy
import inspect
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from hypothesis.errors import Flaky, NoSuchExample
from hypothesis.strategies import SearchStrategy

from packer.checking.compare import (
    PREDICT_NOTE,
    _a,
    _agree,
    _Outcome,
    _predict_hint,
    plain,
    type_difference,
    type_name,
    type_note,
)
from packer.checking.feedback import _short, _show, first_difference, show_call
from packer.checking.inputs import Once  # imported with the engine: the grader's fresh copy must use its own
from packer.checking.limits import (
    PRINTED_SHOWN as PRINTED_SHOWN,
    WAIT_FACTOR as WAIT_FACTOR,
    _LIMIT,
    _PRINTED,
    Printed,
    _Stopped,
    _TimedOut,
    answer_output,
    current_limit,
    time_limit,
)
from packer.checking.references import (
    _Borrowed,
    _watched,
    borrowed_reference,
    code_key as code_key,
    forbid as forbid,
    forbid_copies as forbid_copies,
)
from packer.checking.search import (
    GENERATED_EXAMPLES as GENERATED_EXAMPLES,
    SEARCH as SEARCH,
    inputs_version as inputs_version,
    search,
    seeded_as_searched,
)

PASSED, FAILED, NOT_ATTEMPTED, DEFERRED = "passed", "failed", "not attempted", "deferred"
DEFER_VARIABLE = "PACKER_CHECKS_DEFERRED"  # set by the grader: in-notebook checks then wait for it
TIME_LIMIT = 2.0  # seconds one call of an answer may take in an in-notebook check before it is stopped
UNSTABLE = "the answer gave different results for the same input (is it random, or does it keep state between calls?)"


@dataclass(frozen=True)
class Question:
    """One graded question: the learner's function name, points, the reference, and its inputs.

    `requirement`, when given, runs after the answer agrees with the reference on every input: it
    returns None when the answer meets a requirement results cannot show (linear time, say), or the
    (detail, input, expected, actual) of its failure.

    `predict`, set on a "predict the result" question, is the type its answer must return, written as
    an annotation (`tuple[list[str], int]`): an answer of another type fails with a message naming the
    type wanted, and a wrong answer is told which parts of it are wrong, never the expected value.

    `new_result`, when set, fails an answer that returns one of the arguments it was given (the very list
    object) where the question promises a new one, even when its items are the right ones."""

    qid: str
    name: str
    points: int
    title: str
    reference: Callable[..., Any]
    cases: tuple[tuple, ...]
    inputs: SearchStrategy | None = None
    normalize: Callable[[Any], Any] = plain
    requirement: Callable[[Callable[..., Any]], tuple[str, str, str, str] | None] | None = None
    requirement_note: str = ""  # added to a PASSED result's detail when the requirement is met
    describe: Callable[[Any], str] | None = None  # how a result is shown, when only some of it is compared
    predict: Any = None  # a predict question's answer type (`tuple[str, int]`); None for every other question
    new_result: bool = False  # the answer must return a new object, never one of its arguments itself


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check; str() gives the lines a learner reads."""

    qid: str
    name: str
    status: str
    points: int
    max_points: int
    detail: str = ""
    counterexample: str | None = None
    expected: str | None = None
    actual: str | None = None
    tried: int = 0
    printed: str = ""  # the first lines the answer printed while it was checked (at most PRINTED_SHOWN)
    printed_lines: int = 0  # how many lines it printed in all

    def lines(self) -> list[str]:
        """The readable report: a headline, then the failing input, expected and actual results, then (when
        the answer printed something while it was checked) the first lines of that and how many there were."""
        head = f"{self.qid} {self.name}: {self.status.upper()} ({self.points}/{self.max_points} points)"
        body = [f"  {self.detail}"] if self.detail else []
        if self.counterexample is not None:
            body.append(f"  input:    {self.counterexample}")
        if self.expected is not None:
            body.append(f"  expected: {self.expected}")
        if self.actual is not None:
            body.append(f"  actual:   {self.actual}")
        return [head, *body, *self._printed_lines()]

    def _printed_lines(self) -> list[str]:
        if not self.printed_lines:
            return []
        shown = self.printed.split("\n")
        count = self.printed_lines
        noun = "line" if count == 1 else "lines"
        if count <= len(shown):
            return [f"  the answer printed {count} {noun} while it was checked:", *[f"  | {line}" for line in shown]]
        return [
            f"  the answer printed {count:,} {noun} while it was checked; the first {len(shown)}:",
            *[f"  | {line}" for line in shown],
            f"  | … and {count - len(shown):,} more",
        ]

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON reports."""
        return asdict(self)

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))

    def _ipython_display_(self) -> None:
        """Shown again in the cell that already showed it (by `shown`), it adds nothing; elsewhere it shows."""
        shell = _shell()
        if shell is not None and getattr(self, _SHOWN_IN, None) == shell.execution_count:
            return
        from IPython.display import publish_display_data

        publish_display_data({"text/plain": str(self)})


_SHOWN_IN = "_shown_in_cell"  # set on a result to the execution count of the cell that showed it


def _shell() -> Any:
    """The running IPython shell (a notebook's kernel), or None in plain Python."""
    shell_module = sys.modules.get("IPython")
    return shell_module.get_ipython() if shell_module is not None else None


def shown(result: CheckResult) -> CheckResult:
    """Show the result in the running notebook cell at once, even when its call is not the cell's last
    line (outside IPython nothing is printed); return it."""
    shell = _shell()
    if shell is not None and getattr(shell, "display_pub", None) is not None:
        from IPython.display import publish_display_data

        publish_display_data({"text/plain": str(result)})
        object.__setattr__(result, _SHOWN_IN, shell.execution_count)
    return result


class CheckInterrupted(KeyboardInterrupt):
    """A check stopped by an interrupt; IPython shows it as its one-line message, not a traceback."""

    def _render_traceback_(self) -> list[str]:
        return [f"KeyboardInterrupt: {self}"]


class _NotAttempted(Exception):
    """The answer is still the exercise stub."""


def _changed(before: tuple, after: tuple, reference: Callable[..., Any]) -> str | None:
    """How an answer changed the input it was given (None when it left it as it was). One-pass
    iterables (`once(...)`) are meant to be read and are not compared."""
    for index, (old, new) in enumerate(zip(before, after)):
        if isinstance(old, Once) or callable(old):
            continue
        try:
            same = type(old) is type(new) and old == new
        except Exception:
            same = False
        if not same:
            try:
                names = list(inspect.signature(reference).parameters)
            except (TypeError, ValueError):
                names = []
            name = names[index] if index < len(names) else f"argument {index + 1}"
            return f"changed its input: {name} became {_show(new)} (it must leave its input as it was)"
    return None


def _run(
    question: Question, func: Callable[..., Any], args: tuple, *, stub_means_unattempted: bool, watch: bool = False
) -> _Outcome:
    """Call func on a private copy of args and record what happened. The answer (watch=True) runs under
    the time limit, and must leave its copy of the input as it found it."""
    given = copy.deepcopy(args)
    try:
        if watch:
            with answer_output(), time_limit(current_limit()):
                value = _watched(func, given)
        else:
            value = func(*given)
    except _TimedOut as stop:
        raise _Stopped(args, current_limit() or 0, stop.waited) from None
    except _Borrowed:
        raise
    except NotImplementedError as error:
        if stub_means_unattempted:
            raise _NotAttempted from error
        return _Outcome("NotImplementedError", text=f"raised NotImplementedError: {error}")
    except ValueError as error:
        return _Outcome("ValueError", text=f"raised ValueError: {error}")
    except Exception as error:  # a learner's bug of any kind is feedback, not a crash
        return _Outcome(type(error).__name__, text=f"raised {type(error).__name__}: {error}")
    if watch:
        changed = _changed(args, given, question.reference)
        if changed:
            return _Outcome("changed its input", text=changed)
        if question.new_result and any(value is arg for arg in given):
            return _Outcome(
                "returned its input", text=f"returned the {type(value).__name__} it was given, not a new one"
            )
    try:
        normalized = question.normalize(value)
    except Exception:
        shown = _show(value)
        return _Outcome(None, ("unreadable result", shown), f"{shown} (not the expected shape)")
    return _Outcome(None, normalized, returned=value, describe=question.describe)


def _expected_text(outcome: _Outcome) -> str:
    return f"raises {outcome.raised}" if outcome.raised else outcome.shown


def _replayed(generated: list[tuple], disagreement: Callable) -> bool:
    """Hand the answer the recorded inputs of the search, as the search would (the global random seeded as
    Hypothesis seeds it for each input). True: it agreed on every one, where the search would have handed
    it exactly these and found nothing; False: one disagreed (or raised), which sends the check to the
    search itself."""
    for args in generated:
        with seeded_as_searched():
            try:
                if disagreement(args) is not None:
                    return False
            except Exception:
                return False
    return True


def evaluate(
    question: Question, answer: Any, seconds: float | None = None, generated: list[tuple] | None = None
) -> CheckResult:
    """Run one question's fixed cases, then its generated-input search, against an answer; with
    `seconds`, a call of the answer that runs longer is stopped and reported (an endless loop). What the
    answer prints meanwhile is held back: the result shows its first lines and counts the rest.

    `generated` (the grader's, packer.checking.replay) is the question's generated inputs recorded by a
    process with the same Hypothesis (search.inputs_version): an answer that agrees on all of them passes the
    search without generating them again; any other answer is searched as ever (the same smallest input)."""
    outer, _LIMIT[0] = _LIMIT[0], seconds
    outer_printed, _PRINTED[0] = _PRINTED[0], Printed()
    streams = sys.stdout, sys.stderr
    try:
        return _evaluate(question, answer, generated)
    finally:
        sys.stdout, sys.stderr = streams  # already restored after each call; again, in case an interrupt cut in
        _LIMIT[0], _PRINTED[0] = outer, outer_printed


def _evaluate(question: Question, answer: Any, generated: list[tuple] | None = None) -> CheckResult:
    qid = question.qid

    def result(status: str, **details: Any) -> CheckResult:
        points = question.points if status == PASSED else 0
        printed = _PRINTED[0]
        if printed is not None and printed.lines:
            details.update(printed=printed.excerpt(), printed_lines=printed.lines)
        return CheckResult(qid, question.name, status, points, question.points, **details)

    if not callable(answer):
        return result(FAILED, detail=f"expected a function named {question.name}, got {type(answer).__name__}")
    borrowed = borrowed_reference(answer)
    if borrowed:
        return result(FAILED, detail=f"not credited: this answer uses the reference {borrowed}; write your own code")
    running: list[tuple] = [()]  # the input being tried, for the message when an interrupt stops the check

    def disagreement(args: tuple, first: bool = False) -> tuple[_Outcome, _Outcome] | None:
        running[0] = args
        expected = _run(question, question.reference, args, stub_means_unattempted=False)
        actual = _run(question, answer, args, stub_means_unattempted=first, watch=True)
        returned = question.predict is not None and actual.raised is None and actual.text is None
        if returned and type_difference(question.predict, actual.returned):
            return expected, actual
        return None if _agree(expected, actual) else (expected, actual)

    def predict_failure(pair: tuple[_Outcome, _Outcome]) -> CheckResult:
        """A wrong prediction: its type, or which of its parts are wrong; the expected value is never shown."""
        expected, actual = pair
        wanted = type_name(question.predict)
        if actual.raised is not None or actual.text is not None:
            detail = f"{question.name}() must return its prediction, {_a(wanted)}, written as a literal"
        else:
            difference = type_difference(question.predict, actual.returned)
            if difference:
                detail = f"wrong type: {question.name}() must return {_a(wanted)}; {difference}"
            else:
                detail = f"{_predict_hint(expected.returned, actual.returned)} {PREDICT_NOTE}"
        return result(FAILED, detail=detail, actual=actual.shown)

    def failure(args: tuple, pair: tuple[_Outcome, _Outcome], detail: str) -> CheckResult:
        if question.predict is not None:
            return predict_failure(pair)
        expected, actual = pair
        expected_text, actual_text = _expected_text(expected), actual.shown
        if not expected.raised and not actual.raised and expected.text is None and actual.text is None:
            if question.normalize is plain:  # the kinds a custom comparison looks at are its own
                kind = type_note(expected.returned, actual.returned)
                detail += f": {kind}" if kind else ""
            expected_text, actual_text = first_difference(expected.full, actual.full)
            if expected_text.startswith("…"):
                at = next(
                    (i for i, (a, b) in enumerate(zip(expected.full, actual.full)) if a != b),
                    min(len(expected.full), len(actual.full)),
                )
                detail += f" (both agree up to character {at} of the result, shown from just before it)"
        return result(
            FAILED,
            detail=detail,
            counterexample=show_call(question.name, args),
            expected=expected_text,
            actual=actual_text,
        )

    def stopped(error: _Stopped) -> CheckResult:
        if question.predict is not None:
            return result(
                FAILED,
                detail=f"stopped: the answer was {error.words()} (a prediction returns a literal)",
                actual=error.words(),
            )
        expected = _run(question, question.reference, error.args_given, stub_means_unattempted=False)
        return result(
            FAILED,
            detail=f"stopped: the answer was {error.words()} on this input "
            + ("(waiting for something that never comes?)" if error.waited else "(a loop that never ends?)"),
            counterexample=show_call(question.name, error.args_given),
            expected=_expected_text(expected),
            actual=error.words(),
        )

    try:
        return _search(question, answer, disagreement, failure, stopped, result, generated)
    except KeyboardInterrupt:
        where = f" on {show_call(question.name, running[0])}" if running[0] else ""
        raise CheckInterrupted(f"check {qid} interrupted{_short(where)}; no points recorded") from None


def _search(
    question: Question,
    answer: Any,
    disagreement: Callable,
    failure: Callable,
    stopped: Callable,
    result: Callable,
    generated: list[tuple] | None = None,
) -> CheckResult:
    """The fixed cases, then the generated inputs (replayed when recorded), then the question's extra
    requirement."""
    try:
        for index, args in enumerate(question.cases):
            pair = disagreement(args, first=index == 0)
            if pair:
                return failure(
                    args, pair, f"fixed case {index + 1} of {len(question.cases)} disagrees with the reference"
                )
    except _NotAttempted:
        return result(NOT_ATTEMPTED, detail="the stub still raises NotImplementedError: replace it with your code")
    except _Borrowed as error:
        return result(FAILED, detail=f"not credited: this answer calls the reference {error}; write your own code")
    except _Stopped as error:
        return stopped(error)
    tried = len(question.cases)
    detail = f"{len(question.cases)} fixed case{'' if len(question.cases) == 1 else 's'}"
    replay = _replayed(generated, disagreement) if question.inputs is not None and generated is not None else None
    if replay:
        tried += GENERATED_EXAMPLES
        detail += f" and up to {GENERATED_EXAMPLES} generated inputs"
    elif question.inputs is not None:
        try:
            found = search(question.inputs, lambda args: disagreement(args) is not None)
        except _Borrowed as error:
            return result(FAILED, detail=f"not credited: this answer calls the reference {error}; write your own code")
        except _Stopped as error:
            return stopped(error)
        except NoSuchExample:
            if replay is False:  # a recorded input disagreed, then the same inputs agreed: it keeps state
                return result(FAILED, detail=UNSTABLE)
            tried += GENERATED_EXAMPLES
            detail += f" and up to {GENERATED_EXAMPLES} generated inputs"
        except Flaky:
            return result(FAILED, detail=UNSTABLE)
        except Exception as error:
            return result(FAILED, detail=f"the generated-input search stopped: {type(error).__name__}: {error}")
        else:
            try:
                pair = disagreement(found)
            except _Stopped as error:
                return stopped(error)
            if pair is None:
                return result(FAILED, detail=UNSTABLE)
            return failure(found, pair, "smallest generated input found that disagrees with the reference")
    if question.requirement is not None:
        try:
            with answer_output():
                unmet = question.requirement(answer)
        except _Stopped as error:
            return stopped(error)
        if unmet:
            what, shown, expected, actual = unmet
            return result(FAILED, detail=what, counterexample=shown, expected=expected, actual=actual)
        detail += question.requirement_note
    return result(PASSED, detail=detail, tried=tried)
