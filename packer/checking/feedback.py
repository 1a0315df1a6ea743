"""Describing a counterexample, for whoever changes what a failed check shows the learner.

A failing input is shown as a call the learner can paste into a cell (`show_call`: functions by name,
never shortened); results are shown without memory addresses and shortened to a window around their first
difference (`first_difference`), so that the same answer always reads the same. Strings that would print alike
but differ (`'\xe9'` and `'e\u0301'`, é in two Unicode normal forms) are told apart by escapes (`_distinct`).
"""

from __future__ import annotations

import re
import types
import unicodedata
from typing import Any

_SHOWN = 240  # characters of a value shown in feedback before it is shortened
_BEFORE = 40  # characters shown before the first difference of two long results
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _distinct(text: str) -> str:
    """The text, or, when it is not in Unicode's composed normal form (NFC), the text with every combining mark
    and every character NFC would replace written as an escape (`\u0301`): `'e\u0301'` prints as `'é'` otherwise,
    exactly as `'\xe9'` does, and a learner could not see why the two ids differ. In a repr the escape is still
    valid Python, so a counterexample stays pasteable."""
    if unicodedata.is_normalized("NFC", text):
        return text
    return "".join(
        ascii(char)[1:-1] if unicodedata.combining(char) or unicodedata.normalize("NFC", char) != char else char
        for char in text
    )


def _clean(text: str) -> str:
    """Feedback text without memory addresses (it must not change from run to run), and with strings that would
    print alike told apart (`_distinct`)."""
    return _distinct(_ADDRESS.sub("", text))


def _short(text: str) -> str:
    """Feedback text without memory addresses, shortened if long."""
    text = _clean(text)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _full(value: Any) -> str:
    """repr for feedback, with functions shown by name (the name the exercise's setup cell imports)."""
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
        return value.__name__
    return _clean(repr(value))


def _show(value: Any) -> str:
    return _short(_full(value))


def show_call(name: str, args: tuple) -> str:
    """How a failing input is shown: as the call the learner can paste into a cell (never shortened)."""
    return f"{name}({', '.join(_full(arg) for arg in args)})"


def first_difference(expected: str, actual: str) -> tuple[str, str]:
    """Both texts shortened to the same window around the first character where they differ, so a
    late difference (a trailing newline, say) is shown instead of cut off."""
    if len(expected) <= _SHOWN and len(actual) <= _SHOWN:
        return expected, actual
    at = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b), min(len(expected), len(actual)))
    start = max(0, at - _BEFORE) if at > _SHOWN - _BEFORE else 0

    def window(text: str) -> str:
        piece = text[start : start + _SHOWN]
        return ("…" if start else "") + piece + ("…" if start + _SHOWN < len(text) else "")

    return window(expected), window(actual)
