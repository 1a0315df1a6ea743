"""The reference functions an answer may not borrow, for whoever changes which code an answer may use.

The question bank marks the references with `forbid` when it is imported; `borrowed_reference` finds an
answer that is one, or reaches one through its globals or closure (or is one of the lessons' own tools in
packer.lab), and `_watched` catches a call into one while the answer runs. `code_key` recognises another
import of the same code (a notebook's own import of packer, made before the grader loaded its fresh copy).
"""

from __future__ import annotations

import builtins
import dis
import hashlib
import sys
import types
from collections.abc import Callable
from typing import Any

LAB_PACKAGE = "packer.lab"  # the lessons' traces, measurements and figures: not an answer's building blocks


class _Borrowed(Exception):
    """The answer called a reference function directly."""


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

    return (
        code.co_name,
        code.co_code,
        code.co_names,
        code.co_varnames,
        code.co_freevars,
        code.co_cellvars,
        tuple(const(c) for c in code.co_consts),
    )


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
    found: list[Any] = [
        cell.cell_contents for cell in (getattr(answer, "__closure__", None) or ()) if _cell_is_set(cell)
    ]
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
        _ = cell.cell_contents  # reading an empty cell raises
    except ValueError:
        return False
    return True


def borrowed_reference(answer: Any) -> str | None:
    """The reference function an answer is, or calls through its globals; None when it is its own work
    (the question bank marks the references with `forbid` when it is imported)."""
    if _lesson_tool(answer) or id(answer) in _FORBIDDEN:
        return _lesson_tool(answer) or _FORBIDDEN[id(answer)]
    if getattr(answer, "__code__", None) is None:
        return None
    for value in _resolved_globals(answer):
        if _lesson_tool(value) or id(value) in _FORBIDDEN:
            return _lesson_tool(value) or _FORBIDDEN[id(value)]
    return None


def _lesson_tool(value: Any) -> str | None:
    """The name of a function from the lessons' own tools (packer.lab), which already compute what the
    exercises ask for. Recognised by module name, so the checks need not import the lab."""
    module = getattr(value, "__module__", None)
    if callable(value) and isinstance(module, str) and module.startswith(LAB_PACKAGE + "."):
        return f"{module}.{getattr(value, '__qualname__', type(value).__qualname__)}"
    return None
