"""The check engine: run one Question against an answer, fixed cases first, then generated inputs.

`evaluate(question, answer)` returns a CheckResult (passed / failed / not attempted) that shows, on failure,
the smallest input found where the answer and the reference disagree. The engine knows nothing of the
question bank (packer.checking.bank); the package (packer.checking) joins the two.
"""

from __future__ import annotations

import builtins
import copy
import dis
import hashlib
import re
import sys
import types
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis.errors import Flaky, NoSuchExample
from hypothesis.strategies import SearchStrategy

PASSED, FAILED, NOT_ATTEMPTED, DEFERRED = "passed", "failed", "not attempted", "deferred"
DEFER_VARIABLE = "PACKER_CHECKS_DEFERRED"  # set by the grader: in-notebook checks then wait for it
GENERATED_EXAMPLES = 120
SEARCH = settings(
    database=None, derandomize=True, max_examples=GENERATED_EXAMPLES, deadline=None,
    suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
    verbosity=Verbosity.quiet, print_blob=False,
)
_SHOWN = 240  # characters of a value shown in feedback before it is shortened
UNSTABLE = "the answer gave different results for the same input (is it random, or does it keep state between calls?)"
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def plain(value: Any) -> Any:
    """Compare sequences by content: lists and tuples (nested too) become tuples."""
    if isinstance(value, (list, tuple)):
        return tuple(plain(item) for item in value)
    return value


@dataclass(frozen=True)
class Question:
    """One graded question: the learner's function name, points, the reference, and its inputs."""

    qid: str
    name: str
    points: int
    title: str
    reference: Callable[..., Any]
    cases: tuple[tuple, ...]
    inputs: SearchStrategy | None = None
    normalize: Callable[[Any], Any] = plain


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

    def lines(self) -> list[str]:
        """The readable report: a headline, then the failing input, expected and actual results."""
        head = f"{self.qid} {self.name}: {self.status.upper()} ({self.points}/{self.max_points} points)"
        body = [f"  {self.detail}"] if self.detail else []
        if self.counterexample is not None:
            body += [f"  input:    {self.counterexample}", f"  expected: {self.expected}", f"  actual:   {self.actual}"]
        return [head, *body]

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON reports."""
        return asdict(self)

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


class _NotAttempted(Exception):
    """The answer is still the exercise stub."""


class _Borrowed(Exception):
    """The answer called a reference function directly."""


@dataclass(frozen=True)
class _Outcome:
    """What a call did: returned a (normalized) value, or raised an exception of some kind."""

    raised: str | None
    value: Any = None
    shown: str = ""


def _short(text: str) -> str:
    """Feedback text without memory addresses (it must not change from run to run), shortened if long."""
    text = _ADDRESS.sub("", text)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _show(value: Any) -> str:
    """repr for feedback, with functions shown by name."""
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
        return value.__name__
    return _short(repr(value))


def show_call(name: str, args: tuple) -> str:
    """How a failing input is shown: as the call the learner can paste into a cell."""
    return f"{name}({', '.join(_show(arg) for arg in args)})"


def _watched(func: Callable[..., Any], args: tuple) -> Any:
    """Call an answer while watching for calls into reference code. Calls made inside a function the
    answer was given as an argument (a counter passed to pack_prompt, say) are the caller's, not the
    answer's, and are not watched."""
    borrowed: list[str] = []
    given = {getattr(arg, "__code__", None) for arg in args if callable(arg)} - {None}
    inside_given = 0

    def profiler(frame: types.FrameType, event: str, arg: Any) -> None:
        nonlocal inside_given
        if event == "call":
            if inside_given or frame.f_code in given:
                inside_given += 1
            elif frame.f_code in _WATCHED:
                borrowed.append(_WATCHED[frame.f_code])
        elif event == "return" and inside_given:
            inside_given -= 1

    previous = sys.getprofile()
    sys.setprofile(profiler)
    try:
        return func(*args)
    finally:
        sys.setprofile(previous)
        if borrowed:
            raise _Borrowed(borrowed[0])


def _run(question: Question, func: Callable[..., Any], args: tuple, *, stub_means_unattempted: bool,
         watch: bool = False) -> _Outcome:
    """Call func on a private copy of args and record what happened."""
    try:
        value = _watched(func, copy.deepcopy(args)) if watch else func(*copy.deepcopy(args))
    except _Borrowed:
        raise
    except NotImplementedError as error:
        if stub_means_unattempted:
            raise _NotAttempted from error
        return _Outcome("NotImplementedError", shown=_short(f"raised NotImplementedError: {error}"))
    except ValueError as error:
        return _Outcome("ValueError", shown=_short(f"raised ValueError: {error}"))
    except Exception as error:  # a learner's bug of any kind is feedback, not a crash
        return _Outcome(type(error).__name__, shown=_short(f"raised {type(error).__name__}: {error}"))
    try:
        normalized = question.normalize(value)
    except Exception:
        shown = _show(value)
        return _Outcome(None, ("unreadable result", shown), _short(f"{shown} (not the expected shape)"))
    return _Outcome(None, normalized, _show(value))


def _agree(expected: _Outcome, actual: _Outcome) -> bool:
    """Same exception kind, or both returned equal values."""
    return expected.raised == actual.raised and (expected.raised is not None or expected.value == actual.value)


def _expected_text(outcome: _Outcome) -> str:
    return f"raises {outcome.raised}" if outcome.raised else outcome.shown


_FORBIDDEN: dict[int, str] = {}
_WATCHED: dict[types.CodeType, str] = {}
_FORBIDDEN_CODE: dict[str, tuple[str, bool]] = {}  # code_key -> (name, watched), to spot copies


def code_key(function: Any) -> str:
    """A digest of a function's compiled code that is equal for two imports of the same definition
    (unlike marshal, it ignores reference counts and the hash seed's set order)."""
    code = getattr(function, "__code__", None)
    if not isinstance(code, types.CodeType):
        return "builtin:" + getattr(function, "__qualname__", type(function).__qualname__)
    return hashlib.sha256(repr(_code_shape(code)).encode()).hexdigest()


def _code_shape(code: types.CodeType) -> tuple:
    def const(value: Any) -> Any:
        if isinstance(value, types.CodeType):
            return _code_shape(value)
        if isinstance(value, frozenset):
            return ("frozenset", sorted(repr(const(v)) for v in value))
        if isinstance(value, tuple):
            return tuple(const(v) for v in value)
        return repr(value)
    return (code.co_name, code.co_code, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars,
            tuple(const(c) for c in code.co_consts))


def forbid(*functions: Callable[..., Any], watch: bool = True) -> None:
    """Mark reference functions an answer may not be, name, or (when watched) call while it runs."""
    for function in functions:
        name = f"{function.__module__}.{function.__qualname__}"
        _FORBIDDEN[id(function)] = name
        if hasattr(function, "__code__"):
            _FORBIDDEN_CODE[code_key(function)] = (name, watch)
            if watch:
                _WATCHED[function.__code__] = name


def forbid_copies(modules: Any) -> None:
    """Forbid every function in `modules` compiled from the same code as a forbidden one (another import
    of packer, such as the one a notebook made before the grader loaded its own fresh copy)."""
    for module in modules:
        for function in list(vars(module).values()):
            code = getattr(function, "__code__", None)
            known = _FORBIDDEN_CODE.get(code_key(function)) if isinstance(code, types.CodeType) else None
            if known:
                name, watch = known
                _FORBIDDEN[id(function)] = name
                if watch:
                    _WATCHED[code] = name


def _code_objects(code: types.CodeType) -> list[types.CodeType]:
    nested = [const for const in code.co_consts if isinstance(const, types.CodeType)]
    return [code] + [inner for c in nested for inner in _code_objects(c)]


def _resolved_globals(answer: Any) -> list[Any]:
    """Objects an answer's code reaches through its globals and closure, following attribute chains
    (`packer.chunks.assemble_context` resolves to the function itself)."""
    found: list[Any] = [cell.cell_contents for cell in (getattr(answer, "__closure__", None) or ())
                        if _cell_is_set(cell)]
    for code in _code_objects(answer.__code__):
        current: Any = None
        for instruction in dis.get_instructions(code):
            if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                current = answer.__globals__.get(instruction.argval, getattr(builtins, str(instruction.argval), None))
                found.append(current)
            elif instruction.opname in ("LOAD_ATTR", "LOAD_METHOD") and isinstance(current, types.ModuleType):
                current = getattr(current, instruction.argval, None)
                found.append(current)
            else:
                current = None
    return found


def _cell_is_set(cell: Any) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def borrowed_reference(answer: Any) -> str | None:
    """The reference function an answer is, or calls through its globals; None when it is its own work
    (the question bank marks the references with `forbid` when it is imported)."""
    if id(answer) in _FORBIDDEN:
        return _FORBIDDEN[id(answer)]
    if getattr(answer, "__code__", None) is None:
        return None
    for value in _resolved_globals(answer):
        if id(value) in _FORBIDDEN:
            return _FORBIDDEN[id(value)]
    return None


def evaluate(question: Question, answer: Any) -> CheckResult:
    """Run one question's fixed cases, then its generated-input search, against an answer."""
    qid = question.qid

    def result(status: str, **details: Any) -> CheckResult:
        points = question.points if status == PASSED else 0
        return CheckResult(qid, question.name, status, points, question.points, **details)

    if not callable(answer):
        return result(FAILED, detail=f"expected a function named {question.name}, got {type(answer).__name__}")
    borrowed = borrowed_reference(answer)
    if borrowed:
        return result(FAILED, detail=f"not credited: this answer uses the reference {borrowed}; write your own code")

    def disagreement(args: tuple, first: bool = False) -> tuple[_Outcome, _Outcome] | None:
        expected = _run(question, question.reference, args, stub_means_unattempted=False)
        actual = _run(question, answer, args, stub_means_unattempted=first, watch=True)
        return None if _agree(expected, actual) else (expected, actual)

    def failure(args: tuple, pair: tuple[_Outcome, _Outcome], detail: str) -> CheckResult:
        expected, actual = pair
        return result(FAILED, detail=detail, counterexample=show_call(question.name, args),
                      expected=_expected_text(expected), actual=actual.shown)

    try:
        for index, args in enumerate(question.cases):
            pair = disagreement(args, first=index == 0)
            if pair:
                return failure(args, pair, f"fixed case {index + 1} of {len(question.cases)} disagrees with the reference")
    except _NotAttempted:
        return result(NOT_ATTEMPTED, detail="the stub still raises NotImplementedError: replace it with your code")
    except _Borrowed as error:
        return result(FAILED, detail=f"not credited: this answer calls the reference {error}; write your own code")
    if question.inputs is None:
        return result(PASSED, detail=f"{len(question.cases)} fixed cases", tried=len(question.cases))
    try:
        found = find(question.inputs, lambda args: disagreement(args) is not None, settings=SEARCH)
    except _Borrowed as error:
        return result(FAILED, detail=f"not credited: this answer calls the reference {error}; write your own code")
    except NoSuchExample:
        tried = len(question.cases) + GENERATED_EXAMPLES
        return result(PASSED, detail=f"{len(question.cases)} fixed cases and up to {GENERATED_EXAMPLES} generated inputs",
                      tried=tried)
    except Flaky:
        return result(FAILED, detail=UNSTABLE)
    except Exception as error:
        return result(FAILED, detail=f"the generated-input search stopped: {type(error).__name__}: {error}")
    pair = disagreement(found)
    if pair is None:
        return result(FAILED, detail=UNSTABLE)
    return failure(found, pair, "smallest generated input found that disagrees with the reference")
