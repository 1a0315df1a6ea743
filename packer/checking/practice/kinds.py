"""The three kinds of practice point a lesson asks, and how an answer to each is checked.

- `Predict`: the learner writes, as a literal, what a piece of code will return before running it. The check
  says which parts are right (as the exercises' predictions do), never the expected value; a known wrong
  value also gets the misconception it stands for.
- `Write`: a short function, checked by the exercises' own engine (fixed cases, then generated inputs, the
  same counterexample format). A wrong one gets one hint, chosen by what went wrong: the hint of a known slip
  (`Slip`) whose wrong function it matches on every fixed case, or whose result type it returns, or whose fixed
  cases include the one it failed first; else the point's general hint.
- `Choose`: a multiple-choice question; a wrong option gets the one-line misconception it stands for.

Each check returns a `Feedback`: the lines the learner reads, and whether the answer was right. Nothing here
displays anything or keeps anything: packer.checking.practice does both.
"""

from __future__ import annotations

import copy
import io
import re
from contextlib import redirect_stderr, redirect_stdout
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from packer.checking.compare import PREDICT_NOTE, _predict_hint, plain, type_difference
from packer.checking.engine import _SHOWN_IN, NOT_ATTEMPTED, PASSED, TIME_LIMIT, Question, _shell, evaluate
from packer.checking.feedback import _show
from packer.checking.limits import _TimedOut, time_limit

RIGHT, NOT_YET, NOT_ANSWERED = "right", "not yet", "not answered yet"


@dataclass(frozen=True)
class Point:
    """What every practice point has: its id ('p2.1'), the learning objective it practises (its number in the
    lesson's list), and the question in one line (the lesson's progress cell lists it)."""

    pid: str
    objective: int
    title: str

    kind = ""

    @property
    def number(self) -> str:
        """'2.1' for 'p2.1': the number the lesson shows."""
        return self.pid[1:]


@dataclass(frozen=True)
class Predict(Point):
    """Predict what `result()` returns (the workbook's own code computes it: never a typed-in value)."""

    result: Callable[[], Any]
    answer_type: Any  # the annotation a prediction must match exactly: `tuple[list[str], int]`
    misconceptions: tuple[tuple[Any, str], ...] = ()  # (a wrong prediction, the misconception it shows)

    kind = "predict"


@dataclass(frozen=True)
class Slip:
    """A slip learners make on a write point, and the hint (one line: where to look, not the answer) that a wrong
    answer showing it gets. It shows it when it gives what `wrong` gives on every fixed case (a known wrong
    function matched), when it returns a `returns` on the first fixed case, or when the first fixed case it fails
    is one of `cases` (numbered from 1, as the feedback numbers them)."""

    hint: str
    wrong: Callable[..., Any] | None = None
    returns: type | tuple[type, ...] | None = None
    cases: tuple[int, ...] = ()


@dataclass(frozen=True)
class Write(Point):
    """Write a short function; `question` is its check (the exercises' engine: fixed cases, generated inputs)."""

    question: Question
    hint: str = ""  # one line under a wrong answer no slip explains: where to look, not the answer
    slips: tuple[Slip, ...] = ()  # the known slips, in the order they are tried

    kind = "write"


@dataclass(frozen=True)
class Option:
    """One option of a Choose point: its letter, its text, and why it is right or the misconception it stands for."""

    key: str
    text: str
    why: str
    right: bool = False


@dataclass(frozen=True)
class Choose(Point):
    """Pick one of `options`; exactly one is right."""

    options: tuple[Option, ...]

    kind = "choose"

    @property
    def keys(self) -> str:
        """'A, B or C'."""
        letters = [option.key for option in self.options]
        return ", ".join(letters[:-1]) + " or " + letters[-1]


@dataclass(frozen=True)
class Feedback:
    """What a check of one practice answer says: its status (right, not yet, not answered yet) and its lines."""

    point: Point
    status: str
    details: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        return [f"Practice {self.point.number} ({self.point.kind}): {self.status}", *self.details]

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))

    def _ipython_display_(self) -> None:
        """Shown again in the cell that already showed it (packer.checking.practice shows it at once), it adds
        nothing; elsewhere it shows."""
        shell = _shell()
        if shell is not None and getattr(self, _SHOWN_IN, None) == shell.execution_count:
            return
        from IPython.display import publish_display_data

        publish_display_data({"text/plain": str(self)})


def check_prediction(point: Predict, value: Any) -> Feedback:
    """Whether `value` is what point.result() returns: its type first, then which of its items are right."""
    if value is Ellipsis:
        return Feedback(point, NOT_ANSWERED, ("  write your prediction in place of ... and run this cell again",))
    expected = point.result()
    difference = type_difference(point.answer_type, value, "your prediction")
    if difference:
        details = [f"  wrong type: {difference}", f"  yours:    {_show(value)}"]
        return Feedback(point, NOT_YET, tuple(details))
    if plain(value) == plain(expected):
        return Feedback(point, RIGHT)
    details = [f"  {_prediction_hint(expected, value)} {PREDICT_NOTE}", f"  yours:    {_show(value)}"]
    exact = [why for wrong, why in point.misconceptions if plain(wrong) == plain(value)]
    details += [
        f"  {why}" for why in exact or [why for wrong, why in point.misconceptions if _shows(wrong, value, expected)]
    ]
    return Feedback(point, NOT_YET, tuple(details))


def _prediction_hint(expected: Any, value: Any) -> str:
    """Which items are wrong (the exercises' words), for a tuple and a list alike; for a list, whether only its
    order is, or how many items it has is wrong (never how many the result has)."""
    if isinstance(expected, list):
        if sorted(map(repr, expected)) == sorted(map(repr, value)):
            return "not the result: the right elements in the wrong order"
        if len(value) != len(expected):
            return "not the result: the number of items is wrong"
        return _predict_hint(tuple(expected), tuple(value))
    return _predict_hint(expected, value)


def _shows(wrong: Any, value: Any, expected: Any) -> bool:
    """Whether a prediction shows the misconception `wrong` stands for: it is that value; or, for a tuple, it has
    every item where `wrong` departs from the result (so a prediction that mixes two misconceptions gets both)."""
    if plain(wrong) == plain(value):
        return True
    if not (isinstance(expected, tuple) and isinstance(wrong, tuple) and len(wrong) == len(expected) == len(value)):
        return False
    departs = [i for i, (bad, right) in enumerate(zip(wrong, expected)) if plain(bad) != plain(right)]
    return bool(departs) and all(plain(value[i]) == plain(wrong[i]) for i in departs)


def check_function(point: Write, function: Any) -> Feedback:
    """The exercises' engine on `function` (with the in-notebook time limit), its lines under the practice's head."""
    result = evaluate(point.question, function, TIME_LIMIT)
    body = result.lines()[1:]
    if result.status == NOT_ATTEMPTED:
        return Feedback(point, NOT_ANSWERED, ("  replace the line that raises NotImplementedError with your code",))
    if result.status == PASSED:
        return Feedback(point, RIGHT, tuple(body))
    borrowed = result.detail.startswith("not credited")  # the logic may be right: the hint would mislead
    hint = "" if borrowed else slip_hint(point, function, result.detail)
    return Feedback(point, NOT_YET, tuple([*body, *([f"  hint: {hint}"] if hint else [])]))


FIXED_CASE = re.compile(r"\Afixed case (\d+) of \d+ ")


def slip_hint(point: Write, function: Any, detail: str) -> str:
    """The hint for a wrong answer: the first slip it matches (its wrong function on every fixed case, then its
    result type, then the fixed case it failed first, `detail` being the check's), else the point's hint. An
    answer the time limit stopped is not run again: its hint comes from the case alone, at once."""
    stopped = detail.startswith("stopped:")
    for slip in point.slips if not stopped else ():
        if slip.wrong is not None and _behaves_as(point.question, function, slip.wrong):
            return slip.hint
    returned = _first_result(point.question, function) if not stopped and any(s.returns for s in point.slips) else None
    for slip in point.slips:
        if slip.returns is not None and isinstance(returned, slip.returns):
            return slip.hint
    failed = FIXED_CASE.match(detail)
    for slip in point.slips:
        if failed and int(failed.group(1)) in slip.cases:
            return slip.hint
    return point.hint


def _behaves_as(question: Question, function: Any, wrong: Callable[..., Any]) -> bool:
    """Whether `function` gives what `wrong` gives (the same values, the same exceptions) on every fixed case."""
    as_wrong = replace(question, reference=wrong, inputs=None, requirement=None, requirement_note="")
    return evaluate(as_wrong, function, TIME_LIMIT).status == PASSED


def _first_result(question: Question, function: Any) -> Any:
    """What `function` returns on the question's first fixed case (None when it raises or runs too long)."""
    try:
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()), time_limit(TIME_LIMIT):
            return function(*copy.deepcopy(question.cases[0]))
    except (Exception, _TimedOut):  # a stopped or failing answer has no result type to hint at
        return None


def check_choice(point: Choose, key: Any) -> Feedback:
    """Whether `key` ('B', or 'b') names the right option; a wrong one is told the misconception it stands for."""
    if key is None or (isinstance(key, str) and not key.strip()):
        return Feedback(point, NOT_ANSWERED, (f"  pick {point.keys}",))
    options = {option.key: option for option in point.options}
    chosen = options.get(key.strip().upper()) if isinstance(key, str) else None
    if chosen is None:
        return Feedback(point, NOT_YET, (f"  {_show(key)} is not one of the options: pick {point.keys}",))
    if chosen.right:
        return Feedback(point, RIGHT, (f"  {chosen.key}: {chosen.why}",))
    return Feedback(point, NOT_YET, (f"  {chosen.key} is not it: {chosen.why}", "  try another option"))


__all__ = [
    "NOT_ANSWERED",
    "NOT_YET",
    "RIGHT",
    "Choose",
    "Feedback",
    "Option",
    "Point",
    "Predict",
    "Slip",
    "Write",
    "check_choice",
    "check_function",
    "check_prediction",
    "slip_hint",
]
