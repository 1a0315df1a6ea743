"""Grade a linear-work requirement by counting work, not by a stopwatch, however the answer encodes.

A UTF-8 packer that encodes the header once and each candidate line once does about 8 times the work for 8
times as many passages; one that re-encodes (or re-joins, or re-measures) the growing payload for every
candidate does about 64 times. The check runs the answer on 100 and on 800 passages that all fit, in its own
thread, and counts two things that grow with that work whatever the answer calls:

- the bytes made by C code: the memory allocated while a built-in function runs (`str.encode`,
  `codecs.encode`, `"".join`, ...: tracemalloc's peak over each call, less what was in use when it began),
  plus the length of every `bytes(...)` and `bytearray(...)` the answer makes (a type is called without a
  profiler event, so the answer's module sees counting stand-ins of the two for the time of the run);
- the steps it runs: every call of a Python or C function (a loop over the payload's characters, measuring
  them by hand with `ord` or a generator, counts too).

Both are counts, so the verdict is the same on every run and on a busy machine. `payload += line` counts as
the one step it is, not as a copy (CPython grows the string in place when nothing watches it; under a
profiler it copies, which is why only memory allocated inside built-in calls is counted). What neither count
sees is C code that walks memory already allocated without allocating or calling (`sum(map(len, lines))`
for every candidate, say): the PASSED line says what was measured, not more.
"""

from __future__ import annotations

import builtins
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from packer.checking.limits import _Stopped, _TimedOut, current_limit, time_limit

SMALL, GROWTH = 100, 8  # passages in the small input, and how many times more in the large one
WORK_MARGIN = 2.0  # fail when a count grows more than GROWTH * WORK_MARGIN times (quadratic: about GROWTH**2)
NOTE = (  # what a PASSED line adds: what was measured, and no more
    f", and from {SMALL} to {SMALL * GROWTH} passages ({GROWTH} times as many) neither the bytes made by its "
    f"built-in calls, bytes() and bytearray() nor the calls it made grew more than {GROWTH * WORK_MARGIN:g} times"
)


def passages_expression(n: int) -> str:
    """The passages as an expression a learner can paste into a cell."""
    return f'[(f"p{{i}}", "é日x" * 3) for i in range({n})]'


def passages(n: int) -> list[tuple[str, str]]:
    """n short multi-byte passages with distinct ids."""
    return [(f"p{i}", "é日x" * 3) for i in range(n)]


def roomy_limit(n: int) -> int:
    """A byte limit that keeps every one of n passages (the most work a packer can be asked to do)."""
    return 9 + sum(len(f"[{key}] {text}\n".encode("utf-8")) for key, text in passages(n))


@dataclass(frozen=True)
class Work:
    """What one call of an answer did: the bytes made by built-in calls and by bytes() and bytearray(), and the
    calls it made."""

    allocated: int
    steps: int


class _Counting:
    """Stand-ins for `bytes` and `bytearray` in the answer's module while it is measured: each call makes the
    real object and adds its length to `made`."""

    def __init__(self) -> None:
        self.made = 0
        counting = self

        class CountedBytes(builtins.bytes):
            def __new__(cls, *args: Any, **kwargs: Any) -> Any:
                value = builtins.bytes(*args, **kwargs)
                counting.made += len(value)
                return value  # the real bytes: not an instance of this class, so __init__ is not called

        class CountedBytearray(builtins.bytearray):
            def __new__(cls, *args: Any, **kwargs: Any) -> Any:
                value = builtins.bytearray(*args, **kwargs)
                counting.made += len(value)
                return value

        self.stand_ins = {"bytes": CountedBytes, "bytearray": CountedBytearray}

    @contextmanager
    def installed(self, namespace: dict[str, Any]) -> Iterator[None]:
        """The stand-ins in `namespace` (an answer's globals) where it has no name of its own for them."""
        added = [name for name in self.stand_ins if name not in namespace]
        namespace.update({name: self.stand_ins[name] for name in added})
        try:
            yield
        finally:
            for name in added:
                if namespace.get(name) is self.stand_ins[name]:
                    del namespace[name]


def measured_work(answer: Callable[..., Any], args: tuple) -> Work:
    """The work of one call of the answer (under the check's time limit, if any), counted in this thread only:
    the bytes made by built-in calls and by `bytes(...)` and `bytearray(...)`, and the calls it made."""
    counting = _Counting()
    allocated = steps = 0
    mark = 0
    in_c = False  # a built-in function began at the last event
    traced, reset = tracemalloc.get_traced_memory, tracemalloc.reset_peak

    def profiler(frame: Any, event: str, arg: Any) -> None:
        nonlocal allocated, steps, mark, in_c
        if in_c:  # the built-in call has returned, raised or called back into Python: what did it allocate?
            allocated += max(0, traced()[1] - mark)
            in_c = False
        if event == "c_call":
            steps += 1
            reset()
            mark, in_c = traced()[0], True
        elif event == "call":
            steps += 1

    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        _call_profiled(answer, args, profiler, counting.installed(getattr(answer, "__globals__", {})))
    finally:
        if started:
            tracemalloc.stop()
    return Work(allocated + counting.made, steps)


def encoded_characters(answer: Callable[..., Any], args: tuple) -> int:
    """Characters the answer hands to str.encode during one call (under the check's time limit, if any): lesson
    03's meter of re-encoding (practice 3.5 predicts it), not the check's measure of work (measured_work)."""
    total = 0

    def profiler(frame: Any, event: str, arg: Any) -> None:
        nonlocal total
        if event == "c_call" and getattr(arg, "__name__", "") == "encode":
            owner = getattr(arg, "__self__", None)
            if isinstance(owner, str):
                total += len(owner)

    _call_profiled(answer, args, profiler)
    return total


def _call_profiled(
    answer: Callable[..., Any], args: tuple, profiler: Callable[..., None], setup: AbstractContextManager | None = None
) -> None:
    """One call of the answer with `profiler` installed (inside `setup`), under the check's time limit, if any."""
    previous = sys.getprofile()
    try:
        with setup or nullcontext(), time_limit(current_limit()):
            sys.setprofile(profiler)
            try:
                answer(*args)
            finally:
                sys.setprofile(previous)
    except _TimedOut as stop:
        raise _Stopped(args, current_limit() or 0, stop.waited) from None


def linear_in_passages(name: str) -> Callable[[Callable[..., Any]], tuple[str, str, str, str] | None]:
    """The requirement that `name(passages, limit, 0)` does work linear in the number of passages."""

    def requirement(answer: Callable[..., Any]) -> tuple[str, str, str, str] | None:
        large = SMALL * GROWTH
        small = measured_work(answer, (passages(SMALL), roomy_limit(SMALL), 0))
        big = measured_work(answer, (passages(large), roomy_limit(large), 0))
        growths = {
            "bytes made by built-in calls": big.allocated / max(small.allocated, 1),
            "calls made": big.steps / max(small.steps, 1),
        }
        unit, growth = max(growths.items(), key=lambda item: item[1])
        if growth <= GROWTH * WORK_MARGIN:
            return None
        return (
            f"not linear: from {SMALL} to {large} passages (all kept) the {unit} grew {growth:.0f} times; "
            f"encode the header once and each line once, and keep a running byte total",
            f"{name}({passages_expression(large)}, {roomy_limit(large)}, 0)",
            f"about {GROWTH} times the {unit} of {SMALL} passages",
            f"{growth:.0f} times",
        )

    return requirement
