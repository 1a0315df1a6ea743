"""The check engine: run one Question against an answer, fixed cases first, then generated inputs.

`evaluate(question, answer)` returns a CheckResult (passed / failed / not attempted) that shows, on failure,
the smallest input found where the answer and the reference disagree, as a call that can be pasted into a
cell. The answer runs on a private copy of each input and must leave it as it was; with a time limit
(in-notebook checks), a call that runs longer is stopped and reported; an interrupt becomes one line. What
the answer prints while it is checked (sys.stdout and sys.stderr) is held back and counted, and the result
shows its first few lines under the verdict. The engine knows nothing of the question bank
(packer.checking.bank); the package (packer.checking) joins the two.
"""

from __future__ import annotations

import builtins
import copy
import dis
import hashlib
import inspect
import io
import re
import signal
import sys
import threading
import time
import types
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis.errors import Flaky, NoSuchExample
from hypothesis.strategies import SearchStrategy

from packer.checking.inputs import Once  # imported with the engine: the grader's fresh copy must use its own

PASSED, FAILED, NOT_ATTEMPTED, DEFERRED = "passed", "failed", "not attempted", "deferred"
DEFER_VARIABLE = "PACKER_CHECKS_DEFERRED"  # set by the grader: in-notebook checks then wait for it
GENERATED_EXAMPLES = 120
TIME_LIMIT = 2.0  # seconds one call of an answer may take in an in-notebook check before it is stopped
_LIMIT: list[float | None] = [None]  # the limit of the check now running (None: the grader's own timeouts apply)
SEARCH = settings(
    database=None,
    derandomize=True,
    max_examples=GENERATED_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.generate, Phase.shrink],
    verbosity=Verbosity.quiet,
    print_blob=False,
)
_SHOWN = 240  # characters of a value shown in feedback before it is shortened
_BEFORE = 40  # characters shown before the first difference of two long results
LAB_PACKAGE = "packer.lab"  # the lessons' traces, measurements and figures: not an answer's building blocks
UNSTABLE = "the answer gave different results for the same input (is it random, or does it keep state between calls?)"
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
PRINTED_SHOWN = 5  # lines of what an answer printed while it was checked shown under the verdict
_PRINTED_WIDTH = 120  # characters of one such line shown before it is shortened


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


class _Borrowed(Exception):
    """The answer called a reference function directly."""


class _TimedOut(BaseException):
    """An answer ran past the time limit (a BaseException, so the answer's own `except Exception` cannot
    swallow it, and the generated-input search stops at once instead of retrying a slow input). `waited`:
    stopped by the clock's backstop (it was waiting, not working), not by its CPU time."""

    def __init__(self, waited: bool = False):
        super().__init__()
        self.waited = waited


class _Stopped(Exception):
    """One call of the answer ran out of time: carries the input, how long it was given, and whether the
    clock's backstop stopped it (`waited`) rather than its CPU time."""

    def __init__(self, args: tuple, seconds: float, waited: bool = False):
        super().__init__(args, seconds, waited)
        self.args_given, self.seconds, self.waited = args, seconds, waited

    def words(self) -> str:
        """How the learner reads it: 'still running after 2 s of CPU time' or 'still waiting after 20 s'."""
        if self.waited:
            return f"still waiting after {self.seconds * WAIT_FACTOR:g} s"
        return f"still running after {self.seconds:g} s of CPU time"


def current_limit() -> float | None:
    """Seconds one call of the answer may take in the check now running (None: no limit)."""
    return _LIMIT[0]


class Printed(io.TextIOBase):
    """Where sys.stdout and sys.stderr point while an answer runs in a check: it keeps the first
    PRINTED_SHOWN lines (each shortened) and only counts the rest, so an answer that prints in an endless
    loop neither fills the memory nor the notebook, and is still stopped by the time limit."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self) -> None:
        super().__init__()
        self.head: list[str] = []  # the first complete lines, shortened
        self.current = ""  # the line being written, while the head is not full yet (shortened)
        self.line_ends = 0
        self.open_line = False  # characters were written after the last newline

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if not text:
            return 0
        if len(self.head) < PRINTED_SHOWN:
            *complete, self.current = (self.current + text).split("\n")
            self.head += [line[: _PRINTED_WIDTH + 1] for line in complete[: PRINTED_SHOWN - len(self.head)]]
            self.current = self.current[: _PRINTED_WIDTH + 1] if len(self.head) < PRINTED_SHOWN else ""
        self.line_ends += text.count("\n")
        self.open_line = text[-1] != "\n"
        return len(text)

    def close(self) -> None:
        """An answer that closes sys.stdout closes nothing: the notebook's own stream is restored after it."""

    @property
    def lines(self) -> int:
        """How many lines were printed (a last line without its newline counts)."""
        return self.line_ends + self.open_line

    def excerpt(self) -> str:
        """The first lines printed, as they are shown under the verdict (addresses removed, control
        characters escaped, long lines shortened)."""
        kept = self.head + ([self.current] if self.open_line and len(self.head) < PRINTED_SHOWN else [])
        return "\n".join(_printed_line(line) for line in kept[: min(PRINTED_SHOWN, self.lines)])


def _printed_line(line: str) -> str:
    line = _clean(line.expandtabs(4).rstrip())
    line = "".join(char if char.isprintable() else repr(char)[1:-1] for char in line)
    return line if len(line) <= _PRINTED_WIDTH else line[: _PRINTED_WIDTH - 1] + "…"


_PRINTED: list[Printed | None] = [None]  # what the answer printed in the check now running


@contextmanager
def answer_output() -> Iterator[None]:
    """While the block runs (a call of the answer), what is written to sys.stdout and sys.stderr goes to
    the running check's Printed; both streams are put back afterwards, whatever happens (an exception, the
    time limit, an interrupt, an answer that replaced them itself). Outside a check it changes nothing."""
    printed = _PRINTED[0]
    if printed is None:
        yield
        return
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = printed
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


WAIT_FACTOR = 10  # an answer that waits instead of working (a sleep, a blocked read) is stopped after this many limits


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise _TimedOut inside the block once it has used `seconds` of CPU time, or has waited WAIT_FACTOR times
    as long on the clock (None: no limit). CPU time is the answer's own work: a busy machine slows the clock
    down for it, not its CPU time, so a correct answer is not stopped because other programs ran. In the main
    thread (a Jupyter kernel runs cells there) two interval timers do it (ITIMER_PROF counts this process's
    CPU time, ITIMER_REAL the clock), each restoring any timer and handler it found; elsewhere a trace
    function checks the thread's CPU time and the clock as the Python code runs."""
    if seconds is None:
        yield
        return
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        waited = [False]

        def on_cpu(signum: int, frame: Any) -> None:
            raise _TimedOut

        def on_clock(signum: int, frame: Any) -> None:
            waited[0] = True
            raise _TimedOut

        with (
            _timer(signal.ITIMER_PROF, signal.SIGPROF, seconds, on_cpu),
            _timer(signal.ITIMER_REAL, signal.SIGALRM, seconds * WAIT_FACTOR, on_clock),
        ):
            try:
                yield
            except _TimedOut as stop:
                stop.waited = waited[0]
                raise
        return
    cpu_deadline = time.thread_time() + seconds
    clock_deadline = time.monotonic() + seconds * WAIT_FACTOR

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if time.thread_time() > cpu_deadline:
            raise _TimedOut
        if time.monotonic() > clock_deadline:
            raise _TimedOut(waited=True)
        return tracer

    previous_trace = sys.gettrace()
    sys.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(previous_trace)


@contextmanager
def _timer(which: int, signum: int, seconds: float, handler: Callable[[int, Any], None]) -> Iterator[None]:
    """Run `handler` on `signum` once interval timer `which` has counted `seconds`; afterwards give back the
    handler and whatever was left of a timer someone else had running."""
    clock = time.process_time if which == signal.ITIMER_PROF else time.monotonic
    started = clock()
    previous = signal.signal(signum, handler)
    outer_delay, outer_interval = signal.setitimer(which, seconds)
    try:
        yield
    finally:
        signal.setitimer(which, 0)
        signal.signal(signum, previous)
        if outer_delay:
            left = outer_delay - (clock() - started)
            signal.setitimer(which, max(left, 0.001), outer_interval)


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


def _clean(text: str) -> str:
    """Feedback text without memory addresses (it must not change from run to run)."""
    return _ADDRESS.sub("", text)


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


def search_constants() -> str:
    """A digest of the constants the search draws some of its inputs from. Hypothesis reads them from the
    local modules loaded in the process (the workbook's own), so two processes generate the same inputs
    for a question only when this digest is the same in both; "" when this Hypothesis does not say."""
    try:
        from hypothesis.internal.conjecture.providers import _get_local_constants
    except ImportError:
        return ""
    pool = _get_local_constants()
    kinds = ("integers", "floats", "bytes", "strings")
    return hashlib.sha256(repr([list(getattr(pool, kind, ())) for kind in kinds]).encode()).hexdigest()


def _replayed(generated: list[tuple], disagreement: Callable) -> bool | None:
    """Hand the answer the recorded inputs of the search, as the search would (the global random seeded as
    Hypothesis seeds it for each input). True: it agreed on every one, where the search would have handed
    it exactly these and found nothing; False: one disagreed (or raised), None: the constants the search
    draws from changed meanwhile (the answer loaded a module). Either sends the check to the search itself."""
    try:
        from hypothesis.internal.entropy import deterministic_PRNG
    except ImportError:
        return None
    before = search_constants()
    if not before:
        return None
    for args in generated:
        with deterministic_PRNG():
            try:
                if disagreement(args) is not None:
                    return False
            except Exception:
                return False
    return True if search_constants() == before else None


def evaluate(
    question: Question, answer: Any, seconds: float | None = None, generated: list[tuple] | None = None
) -> CheckResult:
    """Run one question's fixed cases, then its generated-input search, against an answer; with
    `seconds`, a call of the answer that runs longer is stopped and reported (an endless loop). What the
    answer prints meanwhile is held back: the result shows its first lines and counts the rest.

    `generated` (the grader's, packer.checking.replay) is the question's generated inputs recorded in a
    process that draws from the same constants: an answer that agrees on all of them passes the search
    without generating them again; any other answer is searched as ever (the same smallest input)."""
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
            found = find(question.inputs, lambda args: disagreement(args) is not None, settings=SEARCH)
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
