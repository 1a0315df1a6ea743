"""Running an answer under limits, for whoever changes how the checks run: the time limit and what it prints.

`time_limit(seconds)` stops the block once it has used that much CPU time, or has waited WAIT_FACTOR times as
long on the clock (an answer that sleeps or blocks); `_Stopped` carries the input it was stopped on. While
the answer runs, `answer_output()` sends sys.stdout and sys.stderr to the check's `Printed`, which keeps the
first PRINTED_SHOWN lines and counts the rest. The engine (packer.checking.engine) and q3.1's linear-work
requirement (packer.checking.linear) use them; this module knows nothing of questions.
"""

from __future__ import annotations

import io
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from packer.checking.feedback import _clean

_LIMIT: list[float | None] = [None]  # the limit of the check now running (None: the grader's own timeouts apply)
PRINTED_SHOWN = 5  # lines of what an answer printed while it was checked shown under the verdict
_PRINTED_WIDTH = 120  # characters of one such line shown before it is shortened


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
