"""The generated inputs of a check, recorded once and replayed: why the grader's checks are cheap.

The search is derandomized: an answer that agrees with the reference on every generated input is handed
the same inputs, in the same order, on every run and in every process whose Hypothesis draws from the same
constants (it reads them from the local modules loaded: the workbook's own; engine.search_constants). So
the grader records each question's inputs once per run (`record`, in its warm-up process, which loads
what an exercise's kernel loads), and each submission's kernel replays them (`evaluate(...,
generated=...)`) instead of generating them again. The first input that disagrees sends the check back to
the search itself, which finds and shrinks the same smallest counterexample as ever; a kernel whose
constants differ searches as ever too. Nothing is weakened: the same inputs, as many, in the same order.

Recorded inputs travel as tagged JSON, so reading them runs no code, and are decoded against the modules of
the grader's own fresh copy of packer (`read`), so a counterexample holds that copy's Record and counters.
"""

from __future__ import annotations

import contextlib
import json
import types
from collections.abc import Iterable, Mapping
from typing import Any

from hypothesis import find
from hypothesis.errors import NoSuchExample

from packer.checking.engine import SEARCH, Question, search_constants
from packer.checking.inputs import Once, Record, SortedSet


def generated_inputs(question: Question) -> list[tuple]:
    """The inputs the search hands an answer that agrees with the reference on every one, in order."""
    seen: list[tuple] = []
    if question.inputs is not None:
        with contextlib.suppress(NoSuchExample):
            find(question.inputs, lambda args: seen.append(args) or False, settings=SEARCH)
    return seen


def encode(value: Any) -> Any:
    """A generated input as JSON data: plain values as they are, the rest tagged. A TypeError for a value
    it cannot rebuild exactly."""
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is list:
        return [encode(item) for item in value]
    if kind in (tuple, set, frozenset):
        return {kind.__name__: [encode(item) for item in value]}
    if kind is dict:
        return {"dict": [[encode(key), encode(item)] for key, item in value.items()]}
    if kind is bytes:
        return {"bytes": value.decode("latin-1")}
    if kind is Record:
        return {"Record": [[encode(key), encode(item)] for key, item in value.items()]}
    if kind is SortedSet:
        return {"SortedSet": [encode(item) for item in value]}
    if kind is Once:
        return {"once": [encode(item) for item in value._items[value._read :]]}
    if isinstance(value, types.FunctionType) and "." not in value.__qualname__:
        return {"function": [value.__module__, value.__qualname__]}
    raise TypeError(f"cannot record a generated input of type {kind.__name__}")


def decode(data: Any, modules: Mapping[str, types.ModuleType]) -> Any:
    """The input `encode` made `data` from, its functions looked up in `modules` (by module name)."""
    if not isinstance(data, (list, dict)):
        return data
    if isinstance(data, list):
        return [decode(item, modules) for item in data]
    ((tag, body),) = data.items()
    if tag == "function":
        module, name = body
        found = getattr(modules[module], name)
        if not isinstance(found, types.FunctionType):
            raise TypeError(f"{module}.{name} is not a function")
        return found
    if tag == "bytes":
        return body.encode("latin-1")
    items = [decode(item, modules) for item in body]
    builders = {"tuple": tuple, "set": set, "frozenset": frozenset, "dict": dict, "once": Once, "SortedSet": SortedSet}
    if tag == "Record":
        return Record(dict(items))
    return builders[tag](items)


def record(questions: Iterable[Question]) -> str:
    """Each question's generated inputs as JSON text, with the constants they were drawn from. Questions
    whose inputs cannot be recorded exactly are left out (their checks search as ever)."""
    inputs = {}
    for question in questions:
        if question.inputs is None:
            continue
        try:
            inputs[question.qid] = [encode(args) for args in generated_inputs(question)]
        except TypeError:
            continue
    return json.dumps({"constants": search_constants(), "inputs": inputs}, sort_keys=True)


def read(text: str, modules: Mapping[str, types.ModuleType]) -> tuple[str, dict[str, list[tuple]]]:
    """The constants digest and each question's inputs from `record`'s text."""
    data = json.loads(text)
    return data["constants"], {
        qid: [decode(args, modules) for args in inputs] for qid, inputs in data["inputs"].items()
    }


__all__ = ["decode", "encode", "generated_inputs", "read", "record"]
