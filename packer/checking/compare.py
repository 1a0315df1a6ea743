"""Comparing an answer's results with the reference's, for whoever changes how the checks judge answers.

`plain` compares by content and by kind (a list is not the pair asked for, 90.0 is not 90); `_Outcome` is
what one call did (returned a value or raised), and `_agree` says whether two outcomes agree. A prediction
is compared by its annotated type first (`type_difference`), then `_predict_hint` says which of its items
are wrong, never what the expected value is. Any other result whose type differs from the reference's is told
so first (`kind_difference`): two long results that differ in one bracket are hard to tell apart.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from packer.checking.feedback import _clean, _full, _short, _show


def plain(value: Any) -> Any:
    """Compare results by content and by kind: lists and tuples (nested too) become tuples that remember
    which they were, and numbers their type, so a list is not the pair a question asks for, nor is 90.0
    (or True) the int 90, although Python calls them equal."""
    if isinstance(value, (list, tuple)):
        return (type(value) is list, tuple(plain(item) for item in value))
    if isinstance(value, (bool, int, float)):
        return (type(value).__name__, value)
    return value


@dataclass(frozen=True)
class _Outcome:
    """What a call did: returned a (normalized) value, or raised an exception of some kind. The text a
    learner reads is made only when a disagreement is reported (most calls agree)."""

    raised: str | None
    value: Any = None
    text: str | None = None  # the whole text, when it is known without the returned value
    returned: Any = field(default=None, compare=False)
    describe: Callable[[Any], str] | None = field(default=None, compare=False)

    @property
    def full(self) -> str:
        if self.text is not None:
            return self.text
        return _clean(self.describe(self.returned)) if self.describe else _full(self.returned)

    @property
    def shown(self) -> str:
        return _short(self.full)


def type_name(wanted: Any) -> str:
    """An annotation as it is written: `int`, `tuple[list[str], int]`."""
    return wanted.__name__ if typing.get_origin(wanted) is None and isinstance(wanted, type) else str(wanted)


def _a(name: str) -> str:
    return ("an " if name[:1] in "aeio" else "a ") + name


def type_difference(wanted: Any, value: Any, where: str = "") -> str | None:
    """How `value` is not of the annotated type `wanted`, or None when it is. Types must match exactly:
    65.0 is not an int, True is not an int, a list is not a tuple. A tuple has as many items as its
    annotation, each of the annotated type; each element of a list is of its one element type. `where`
    names the part being compared ("item 2", "element 1 of item 1"); "" is the whole answer."""
    origin, parts = typing.get_origin(wanted) or wanted, typing.get_args(wanted)
    if type(value) is not origin:
        kind = "None" if value is None else _a(type(value).__name__)
        return f"{where} is {kind} ({_show(value)}), not {_a(type_name(wanted))}" if where else f"it returned {kind}"
    if origin is tuple and parts:
        if len(value) != len(parts):
            return f"{where or 'it returned a tuple that'} has {len(value)} items, not {len(parts)}"
        found = (
            type_difference(part, item, f"item {number}{' of ' + where if where else ''}")
            for number, (part, item) in enumerate(zip(parts, value), 1)
        )
        return next((difference for difference in found if difference), None)
    if origin is list and parts:
        found = (
            type_difference(parts[0], item, f"element {number}{' of ' + where if where else ''}")
            for number, item in enumerate(value, 1)
        )
        return next((difference for difference in found if difference), None)
    return None


def _alike(value: Any) -> Any:
    """The value with the kinds plain() keeps apart erased: lists and tuples alike, 1, 1.0 and True alike."""
    if isinstance(value, (list, tuple)):
        return tuple(_alike(item) for item in value)
    if isinstance(value, dict):
        return {key: _alike(item) for key, item in value.items()}
    return value


def _scalar(value: Any) -> str:
    """` (value)` for a number, bool, None or short str: what tells 1.0 from 1; nothing for a container."""
    if value is None or isinstance(value, (bool, int, float)) or (isinstance(value, str) and len(value) <= 40):
        return f" ({_show(value)})"
    return ""


def kind_difference(expected: Any, actual: Any, where: str = "") -> str | None:
    """Where a result's type first differs from the reference's ("it returned a list; the reference returns a
    tuple", "element 1 of item 1 is a list; the reference's is a tuple"), or None when the types agree all
    through. Lists and tuples are walked item by item, dicts key by key."""
    if type(expected) is not type(actual):
        got, wanted = _a(type(actual).__name__), _a(type(expected).__name__)
        if where:
            return f"{where} is {got}{_scalar(actual)}; the reference's is {wanted}{_scalar(expected)}"
        return f"it returned {got}{_scalar(actual)}; the reference returns {wanted}{_scalar(expected)}"
    if isinstance(expected, (list, tuple)):
        part = "item" if isinstance(expected, tuple) else "element"
        for number, (want, got) in enumerate(zip(expected, actual), 1):
            found = kind_difference(want, got, f"{part} {number}{' of ' + where if where else ''}")
            if found:
                return found
    if isinstance(expected, dict):
        for key in expected:
            if key in actual:
                found = kind_difference(expected[key], actual[key], f"{key!r}{' of ' + where if where else ''}")
                if found:
                    return found
    return None


def type_note(expected: Any, actual: Any) -> str | None:
    """What a failure says first when the two results differ in type: the difference, and whether it is the
    only one."""
    found = kind_difference(expected, actual)
    if found is None:
        return None
    try:
        only = _alike(expected) == _alike(actual)
    except Exception:
        only = False
    return f"only the type differs: {found}" if only else found


def _predict_hint(expected: Any, actual: Any) -> str:
    """What a wrong prediction of the right type is told: which items of it are wrong, and for a list of
    the right elements, that only their order is; never what the expected value is."""
    if not isinstance(expected, tuple) or len(expected) < 2:
        return "not the result"
    verdicts = []
    for number, (want, got) in enumerate(zip(expected, actual), 1):
        if want == got:
            verdicts.append(f"item {number} is right")
        elif isinstance(want, list) and sorted(map(repr, want)) == sorted(map(repr, got)):
            verdicts.append(f"item {number} has the right elements in the wrong order")
        else:
            verdicts.append(f"item {number} is wrong")
    if all(verdict.endswith("is wrong") for verdict in verdicts):
        return "not the result: " + (
            "both items are wrong" if len(verdicts) == 2 else f"all {len(verdicts)} items are wrong"
        )
    return "not the result: " + ", ".join(verdicts)


PREDICT_NOTE = "(a check never shows the expected answer: work it through again)"


def _agree(expected: _Outcome, actual: _Outcome) -> bool:
    """Same exception kind, or both returned equal values."""
    return expected.raised == actual.raised and (expected.raised is not None or expected.value == actual.value)
