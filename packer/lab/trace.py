"""Replay a packer's decisions step by step, measuring what each candidate would have cost."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from packer.chunks import chunk_parts, select_chunks
from packer.prompt import _render, pack_prompt
from packer.utf8 import HEADER, pack_utf8, source_line
from packer.validation import require_passages


@dataclass(frozen=True)
class Step:
    """One candidate: what was already kept (`before`), what it adds (`cost`), and the decision."""

    label: str
    before: int
    cost: int
    kept: bool


@dataclass(frozen=True)
class Trace:
    """All candidates of one packing run, the limit, and the framing charged before any candidate."""

    steps: tuple[Step, ...]
    limit: int
    unit: str
    fixed: tuple[tuple[str, int], ...] = ()

    @property
    def fixed_total(self) -> int:
        """Framing charged whatever is kept (header, reserve, base prompt)."""
        return sum(amount for _, amount in self.fixed)

    @property
    def used(self) -> int:
        """Budget used by the final result, framing included."""
        return self.fixed_total + sum(step.cost for step in self.steps if step.kept)

    @property
    def kept(self) -> list[str]:
        """Labels of the kept candidates, in order."""
        return [step.label for step in self.steps if step.kept]

    @property
    def skipped(self) -> list[str]:
        """Labels of the skipped candidates, in order."""
        return [step.label for step in self.steps if not step.kept]


def _short(text: str, width: int = 16) -> str:
    """A label for a chunk: its text, shortened with an ellipsis when long."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _steps(labels: list[str], costs: list[int], kept: list[bool]) -> tuple[Step, ...]:
    """Build steps whose `before` is the running total of kept costs."""
    steps, before = [], 0
    for label, cost, keep in zip(labels, costs, kept):
        steps.append(Step(label, before, cost, keep))
        before += cost if keep else 0
    return tuple(steps)


def trace_chunks(chunks: Any, max_tokens: int) -> Trace:
    """Trace assemble_context: each chunk's precomputed token_count against max_tokens."""
    kept = select_chunks(chunks, max_tokens)
    parts = chunk_parts(chunks)
    return Trace(_steps([_short(text) for text, _ in parts], [cost for _, cost in parts], kept), max_tokens, "tokens")


def trace_prompt(question: str, passages: Any, limit: int, count: Callable[[str], int], unit: str = "units") -> Trace:
    """Trace pack_prompt: each passage's cost is the measured growth of the whole rendered prompt."""
    passages = require_passages(passages)
    chosen, _, _ = pack_prompt(question, passages, limit, count)
    chosen_ids = {key for key, _ in chosen}
    base = measured = count(_render(question, []))  # measured: the prompt with what was kept so far
    steps, so_far = [], []
    for key, text in passages:
        after = count(_render(question, so_far + [(key, text)]))
        keep = key in chosen_ids
        steps.append(Step(key, measured - base, after - measured, keep))
        if keep:
            so_far.append((key, text))
            measured = after
    return Trace(tuple(steps), limit, unit, (("question, heading, cue", base),))


def trace_utf8(passages: Any, limit: int, reserve: int) -> Trace:
    """Trace pack_utf8: each passage's serialized line in bytes, after the header and the reserve."""
    passages = require_passages(passages)
    _, kept_ids = pack_utf8(passages, limit, reserve)
    kept_set = set(kept_ids)
    labels = [key for key, _ in passages]
    costs = [len(source_line(key, text).encode("utf-8")) for key, text in passages]
    fixed = (("header", len(HEADER.encode("utf-8"))), ("reserve", reserve))
    return Trace(_steps(labels, costs, [key in kept_set for key in labels]), limit, "bytes", fixed)


def format_trace(trace: Trace) -> str:
    """A text table: one row per candidate with its cost, the total if taken, and the decision."""
    width = max([len(step.label) for step in trace.steps] + [9])
    lines = [f"{'candidate':<{width}} {'cost':>6} {'if taken':>9}  decision"]
    for step in trace.steps:
        total = trace.fixed_total + step.before + step.cost
        lines.append(f"{step.label:<{width}} {step.cost:>6} {total:>9}  {'kept' if step.kept else 'skipped'}")
    for label, amount in trace.fixed:
        lines.append(f"(framing: {label} {amount})")
    lines.append(f"used {trace.used} of {trace.limit} {trace.unit}; kept {trace.kept}, skipped {trace.skipped}")
    return "\n".join(lines)
