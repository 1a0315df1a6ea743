"""The three kinds of practice point a lesson asks, and how an answer to each is checked.

- `Predict`: the learner writes, as a literal, what a piece of code will return before running it. The check
  says which parts are right (as the exercises' predictions do), never the expected value; a known wrong
  value also gets the misconception it stands for.
- `Write`: a short function, checked by the exercises' own engine (fixed cases, then generated inputs, the
  same counterexample format).
- `Choose`: a multiple-choice question; a wrong option gets the one-line misconception it stands for.

Each check returns a `Feedback`: the lines the learner reads, and whether the answer was right. Nothing here
displays anything or keeps anything: packer.checking.practice does both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from packer.checking.compare import PREDICT_NOTE, _predict_hint, plain, type_difference
from packer.checking.engine import _SHOWN_IN, NOT_ATTEMPTED, PASSED, TIME_LIMIT, Question, _shell, evaluate
from packer.checking.feedback import _show

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
class Write(Point):
    """Write a short function; `question` is its check (the exercises' engine: fixed cases, generated inputs)."""

    question: Question
    hint: str = ""  # one line under a wrong answer: where to look, not the answer

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
    details += [f"  {why}" for wrong, why in point.misconceptions if _shows(wrong, value, expected)]
    return Feedback(point, NOT_YET, tuple(details))


def _prediction_hint(expected: Any, value: Any) -> str:
    """Which items are wrong (the exercises' words); for a prediction that is one list, whether only its order is."""
    if isinstance(expected, list) and sorted(map(repr, expected)) == sorted(map(repr, value)):
        return "not the result: the right elements in the wrong order"
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
    return Feedback(point, NOT_YET, tuple([*body, *([f"  hint: {point.hint}"] if point.hint and not borrowed else [])]))


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
    "Write",
    "check_choice",
    "check_function",
    "check_prediction",
]
