"""For learners: the practice points inside the lessons, checked in the kernel at once.

Every few minutes of reading, a lesson asks its learner to predict, write or choose something, tied to one of
its learning objectives, with a worked answer folded under it:

    predict("p2.1", prediction)   # what a piece of code returns, written as a literal before running it
    write("p2.2", words_in)       # a short function, checked as the exercises check theirs
    choose("p2.7")                # a multiple-choice question (radio buttons; or choose("p2.7", "A"))
    progress("02_prompt_packer")  # the lesson's last cell: how many this kernel answered right, what to revisit
    preview("p2.1", answer)       # what a point would say to an answer, not counted (lesson 00 shows feedback)

Each call shows its feedback at once. An unanswered point says so (that is what a lesson saves, so strict
nbval passes on it). Answers never count towards the graded exercises, and nothing is written anywhere: what
this kernel answered lives in its memory only. The points of each lesson are in `lesson_NN_<slug>.py` beside
this file; `kinds` says how each kind is checked.
"""

from __future__ import annotations

import html
from typing import Any

import importlib
import pkgutil
from pathlib import Path

from packer.checking.engine import _SHOWN_IN, _shell
from packer.checking.practice.kinds import (
    NOT_ANSWERED,
    RIGHT,
    Choose,
    Feedback,
    Option,
    Point,
    Predict,
    Write,
    check_choice,
    check_function,
    check_prediction,
)

LESSON_MODULES = tuple(  # lesson_NN_<slug>.py beside this file: one per lesson with practice points, in lesson order
    importlib.import_module(f"{__name__}.{name}")
    for _, name, _ in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]))
    if name.startswith("lesson_")
)
# lesson slug ('02_prompt_packer') -> its practice points, in the order the lesson asks them
BY_LESSON: dict[str, tuple[Point, ...]] = {
    module.__name__.rpartition(".")[2].removeprefix("lesson_"): tuple(module.POINTS) for module in LESSON_MODULES
}
POINTS: dict[str, Point] = {point.pid: point for points in BY_LESSON.values() for point in points}
if len(POINTS) != sum(map(len, BY_LESSON.values())):
    raise ValueError("practice points: an id is used twice")
# How a choice is answered by keyboard, said under its options (JupyterLab's arrow keys move between cells, so
# `make lab` and the class's hub load a key binding that leaves them to a focused option:
# jupyter-config/labconfig/default_setting_overrides.json). ipywidgets 8 gives its radio inputs no shared name, so
# each option is a tab stop of its own: Tab walks through the remaining options before it reaches Check.
KEYS_NOTE = (
    "Keys: Tab moves through the options, Space or the arrow keys pick one, keep pressing Tab to reach Check, "
    "then Enter."
)
# The feedback under a choice keeps its lines and wraps a long one between words (JupyterLab's widget styles would
# otherwise break it anywhere, mid-word).
FEEDBACK_STYLE = "white-space: pre-wrap; word-break: normal; overflow-wrap: break-word"
_ANSWERED: dict[str, str] = {}  # practice id -> the status of its last answer in this kernel (never on disk)


def point(pid: str) -> Point:
    """The practice point with this id, or a ValueError naming the known ones."""
    if pid not in POINTS:
        raise ValueError(f"pid: unknown practice point {pid!r}; known: {', '.join(POINTS)}")
    return POINTS[pid]


def _of_kind(pid: str, kind: type[Point]) -> Any:
    found = point(pid)
    if not isinstance(found, kind):
        raise ValueError(f"pid: practice {found.number} is a {found.kind} point, answered with {found.kind}(...)")
    return found


def _remember(feedback: Feedback) -> None:
    """Keep what this kernel answered: an unanswered point is no answer, and the last answer counts (a point
    answered right, then wrong, is to revisit: the progress cell says what the learner holds now)."""
    if feedback.status != NOT_ANSWERED:
        _ANSWERED[feedback.point.pid] = feedback.status


def _answered(feedback: Feedback) -> Feedback:
    """Remember the answer and show the feedback now."""
    _remember(feedback)
    return _shown(feedback)


def predict(pid: str, prediction: Any) -> Feedback:
    """Check a prediction written as a literal (`...` while unanswered): which of its parts are right."""
    return _answered(check_prediction(_of_kind(pid, Predict), prediction))


def write(pid: str, function: Any) -> Feedback:
    """Check a written function with the exercises' engine: fixed cases, then generated inputs."""
    return _answered(check_function(_of_kind(pid, Write), function))


def choose(pid: str, key: str | None = None) -> Any:
    """With a letter, check it; without one, show the options as radio buttons with a Check button."""
    found = _of_kind(pid, Choose)
    if key is not None:
        return _answered(check_choice(found, key))
    return ChoiceBox(found)


def preview(pid: str, answer: Any) -> Feedback:
    """What a practice point would say to `answer` (a prediction, a function or a letter), without counting it as
    this kernel's answer: for showing how feedback reads."""
    found = point(pid)
    if isinstance(found, Predict):
        return check_prediction(found, answer)
    if isinstance(found, Write):
        return check_function(found, answer)
    return check_choice(found, answer)


def on_check(pid: str, key: str | None) -> Feedback:
    """What the Check button does with the option selected (a plain function: testable without a browser)."""
    feedback = check_choice(_of_kind(pid, Choose), key)
    _remember(feedback)
    return feedback


def picked_since(checked: str, picked: str | None) -> str:
    """What the box says above a check's feedback once another option is picked: that feedback is not about it.

    ipywidgets sends a change of the radio buttons only after the kernel has taken the last one (one message in
    flight per widget), but a press of Check at once: a choice moved quickly and checked can reach the kernel after
    the press that was meant for it. The box never lets the feedback of one option pass for another's."""
    if picked is None or picked == checked:
        return ""
    return f"{picked} is picked now: press Check to check it. (Below: the feedback for {checked}.)"


LAST_ANSWER_COUNTS = "  each point counts its last answer in this kernel (right, then wrong, is to revisit)"


class Progress:
    """The lesson's practice in this kernel: how many of its points were answered right, and what to revisit;
    each point counts by its last answer."""

    def __init__(self, lesson: str) -> None:
        if lesson not in BY_LESSON:
            raise ValueError(f"lesson: no practice points for {lesson!r}; known: {', '.join(BY_LESSON)}")
        self.points = BY_LESSON[lesson]
        self.right = [p for p in self.points if _ANSWERED.get(p.pid) == RIGHT]
        self.revisit = [p for p in self.points if _ANSWERED.get(p.pid) not in (None, RIGHT)]
        self.unanswered = [p for p in self.points if p.pid not in _ANSWERED]

    def lines(self) -> list[str]:
        lines = [f"Practice in this lesson: {len(self.right)} of {len(self.points)} answered right in this kernel"]
        if self.right or self.revisit:
            lines.append(LAST_ANSWER_COUNTS)
        if self.revisit:
            lines.append("  to revisit (the last answer was not right):")
            lines += [f"    {_named(p)}" for p in self.revisit]
        if self.unanswered:
            lines.append("  not answered yet:")
            lines += [f"    {_named(p)}" for p in self.unanswered]
        if not self.revisit and not self.unanswered:
            lines.append("  every one of them: on to the exercise")
        return lines

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


def _named(found: Point) -> str:
    return f"Practice {found.number} ({found.kind}, objective {found.objective}): {found.title}"


def progress(lesson: str) -> Progress:
    """How many of a lesson's practice points this kernel answered right, and which to revisit."""
    return Progress(lesson)


def _shown(feedback: Feedback) -> Feedback:
    """Show the feedback in the running notebook cell at once (outside IPython, nothing); return it."""
    shell = _shell()
    if shell is not None and getattr(shell, "display_pub", None) is not None:
        from IPython.display import publish_display_data

        publish_display_data({"text/plain": str(feedback)})
        object.__setattr__(feedback, _SHOWN_IN, shell.execution_count)
    return feedback


def ChoiceBox(found: Choose) -> Any:  # noqa: N802  (a widget, named as one)
    """The options as radio buttons, a Check button, and the feedback under them (announced to screen readers)."""
    import ipywidgets as widgets

    class _ChoiceBox(widgets.VBox):
        def __repr__(self) -> str:  # what a saved notebook and the text view show (ipywidgets cuts it at 110)
            return f"Practice {found.number}: pick {found.keys}, then press Check"

    choices = widgets.RadioButtons(
        options=[(f"{option.key}. {option.text}", option.key) for option in found.options],
        value=None,
        description=f"Practice {found.number}",
        layout=widgets.Layout(width="auto"),
        style={"description_width": "initial"},
    )
    button = widgets.Button(description="Check", tooltip=f"Check your answer to practice {found.number}")
    said = widgets.HTML(value="")
    keys = widgets.HTML(value=f'<span class="workbook-practice-keys">{html.escape(KEYS_NOTE)}</span>')

    checked: dict[str, Any] = {}  # the option the feedback shown is for, and that feedback

    def show(text: str) -> None:
        text = html.escape(text)
        said.value = f'<pre role="status" class="workbook-practice-feedback" style="{FEEDBACK_STYLE}">{text}</pre>'

    def pressed(_: Any) -> None:
        checked.update(key=choices.value, feedback=str(on_check(found.pid, choices.value)))
        show(checked["feedback"])

    def picked(change: dict) -> None:
        if checked.get("key") is not None:
            note = picked_since(checked["key"], change["new"])
            show(f"{note}\n\n{checked['feedback']}" if note else checked["feedback"])

    button.on_click(pressed)
    choices.observe(picked, names="value")
    box = _ChoiceBox([choices, button, said, keys])
    box.add_class("workbook-practice")
    return box


__all__ = [
    "BY_LESSON",
    "KEYS_NOTE",
    "LAST_ANSWER_COUNTS",
    "POINTS",
    "Choose",
    "Feedback",
    "Option",
    "Predict",
    "Write",
    "choose",
    "on_check",
    "picked_since",
    "point",
    "predict",
    "preview",
    "progress",
    "write",
]
