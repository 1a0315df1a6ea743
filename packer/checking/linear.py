"""Grade a linear-time requirement by counting work, not by a stopwatch.

The work of a UTF-8 packer is the number of characters it hands to `str.encode`: a packer that encodes
the header once and each candidate line once encodes about 8 times as many characters for 8 times as
many passages; one that re-encodes the growing payload for every candidate encodes about 64 times as
many. The count comes from the profiler's `c_call` events, so the verdict is the same on a busy machine.
An answer that never calls `str.encode` (it measures bytes some other way) is timed instead: best of
several runs, against a margin far wider than timing noise.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from packer.checking.limits import _Stopped, _TimedOut, current_limit, time_limit

SMALL, GROWTH = 100, 8  # passages in the small input, and how many times more in the large one
WORK_MARGIN = 2.0  # fail when the work grows more than GROWTH * WORK_MARGIN times (quadratic: about GROWTH**2)
TIME_MARGIN = 3.0  # the wider margin for wall time
RUNS = 5


def passages_expression(n: int) -> str:
    """The passages as an expression a learner can paste into a cell."""
    return f'[(f"p{{i}}", "é日x" * 3) for i in range({n})]'


def passages(n: int) -> list[tuple[str, str]]:
    """n short multi-byte passages with distinct ids."""
    return [(f"p{i}", "é日x" * 3) for i in range(n)]


def roomy_limit(n: int) -> int:
    """A byte limit that keeps every one of n passages (the most work a packer can be asked to do)."""
    return 9 + sum(len(f"[{key}] {text}\n".encode("utf-8")) for key, text in passages(n))


def encoded_characters(answer: Callable[..., Any], args: tuple) -> int:
    """Characters the answer hands to str.encode during one call (under the check's time limit, if any)."""
    total = 0

    def profiler(frame: Any, event: str, arg: Any) -> None:
        nonlocal total
        if event == "c_call" and getattr(arg, "__name__", "") == "encode":
            owner = getattr(arg, "__self__", None)
            if isinstance(owner, str):
                total += len(owner)

    previous = sys.getprofile()
    try:
        with time_limit(current_limit()):
            sys.setprofile(profiler)
            try:
                answer(*args)
            finally:
                sys.setprofile(previous)
    except _TimedOut as stop:
        raise _Stopped(args, current_limit() or 0, stop.waited) from None
    return total


def _best_time(answer: Callable[..., Any], args: tuple) -> float:
    best = float("inf")
    for _ in range(RUNS):
        started = time.thread_time()  # the answer's own CPU time: other programs on the machine do not count
        try:
            with time_limit(current_limit()):
                answer(*args)
        except _TimedOut as stop:
            raise _Stopped(args, current_limit() or 0, stop.waited) from None
        best = min(best, time.thread_time() - started)
    return best


def linear_in_passages(name: str) -> Callable[[Callable[..., Any]], tuple[str, str, str, str] | None]:
    """The requirement that `name(passages, limit, 0)` does work linear in the number of passages."""

    def requirement(answer: Callable[..., Any]) -> tuple[str, str, str, str] | None:
        large = SMALL * GROWTH
        small_args = (passages(SMALL), roomy_limit(SMALL), 0)
        large_args = (passages(large), roomy_limit(large), 0)
        shown = f"{name}({passages_expression(large)}, {roomy_limit(large)}, 0)"
        small, big = encoded_characters(answer, small_args), encoded_characters(answer, large_args)
        if small and big:
            growth, margin, unit = big / small, WORK_MARGIN, "characters encoded"
        else:
            growth, margin, unit = _best_time(answer, large_args) / _best_time(answer, small_args), TIME_MARGIN, "time"
        if growth <= GROWTH * margin:
            return None
        return (
            f"not linear: from {SMALL} to {large} passages (all kept) the {unit} grew {growth:.0f} times; "
            f"encode the header once and each line once, and keep a running byte total",
            shown,
            f"about {GROWTH} times the {unit} of {SMALL} passages",
            f"{growth:.0f} times",
        )

    return requirement
