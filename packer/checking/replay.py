"""The generated inputs of a check, recorded once and replayed: why the grader's checks are cheap.

The search is derandomized and draws on nothing but the question and the pinned Hypothesis
(packer.checking.search): an answer that agrees with the reference on every generated input is handed the
same inputs, in the same order, on every run and in every process, whatever else it has loaded and wherever
packer is installed. So the grader records each question's inputs once per run (`record`, in its warm-up
process), and each submission's kernel replays them (`evaluate(..., generated=...)`) instead of generating
them again. The first input that disagrees sends the check back to the search itself, which finds and
shrinks the same smallest counterexample as ever; a kernel whose Hypothesis differs (its
`search.inputs_version`) searches as ever too. Nothing is weakened: the same inputs, as many, in the same
order.

Recorded inputs travel as tagged JSON, so reading them runs no code, and are decoded against the modules of
the grader's own fresh copy of packer (`read`), so a counterexample holds that copy's Record and counters.
A set is written in a fixed order (its members' JSON, sorted), so the record does not depend on the hash seed.
"""

from __future__ import annotations

import contextlib
import json
import types
from collections.abc import Iterable, Mapping
from typing import Any

from hypothesis.errors import NoSuchExample

from packer.checking.engine import Question
from packer.checking.inputs import Once, Record, SortedSet
from packer.checking.search import inputs_version, search


def generated_inputs(question: Question) -> list[tuple]:
    """The inputs the search hands an answer that agrees with the reference on every one, in order."""
    seen: list[tuple] = []
    if question.inputs is not None:
        with contextlib.suppress(NoSuchExample):
            search(question.inputs, lambda args: seen.append(args) or False)
    return seen


def encode(value: Any) -> Any:
    """A generated input as JSON data: plain values as they are, the rest tagged. A TypeError for a value
    it cannot rebuild exactly."""
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is list:
        return [encode(item) for item in value]
    if kind is tuple:
        return {"tuple": [encode(item) for item in value]}
    if kind in (set, frozenset):
        return {kind.__name__: sorted((encode(item) for item in value), key=_json_text)}
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


def _json_text(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


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
    """Each question's generated inputs as JSON text, with the version of the search that drew them
    (search.inputs_version). Questions whose inputs cannot be recorded exactly are left out (their checks
    search as ever)."""
    inputs = {}
    for question in questions:
        if question.inputs is None:
            continue
        try:
            inputs[question.qid] = [encode(args) for args in generated_inputs(question)]
        except TypeError:
            continue
    return json.dumps({"inputs": inputs, "version": inputs_version()}, sort_keys=True)


def read(text: str, modules: Mapping[str, types.ModuleType]) -> tuple[str, dict[str, list[tuple]]]:
    """The search's version and each question's inputs from `record`'s text."""
    data = json.loads(text)
    return data["version"], {qid: [decode(args, modules) for args in inputs] for qid, inputs in data["inputs"].items()}


__all__ = ["decode", "encode", "generated_inputs", "read", "record"]
