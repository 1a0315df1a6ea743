"""Lesson 08's priority demo: a chat prompt as parts with priorities and an answer reserve, packed with
packer.pack_parts; every cutoff measured, a budget sweep, and lesson 06's stop-at-first-overflow as parts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from packer.lab.policies import first_overflow
from packer.lab.retrieval import Hit
from packer.priority import Part, pack_parts, passage_parts, render_parts
from packer.prompt import _line, fold

RULES = "Answer the question from the sources below only, and cite each source you use by its id in brackets.\n"
EXAMPLE = (
    "Example:\nQuestion: What does len() return for an empty list?\n"
    "Sources:\n[s1] len() returns the number of items of a container.\nAnswer: 0, the number of its items [s1].\n\n"
)
HISTORY = (
    "Earlier in this conversation:\nUser: I am reading about exceptions in Python.\n"
    "Assistant: Ask me anything about them; I will answer from the sources.\n\n"
)
EXAMPLE_PRIORITY, HISTORY_PRIORITY, PASSAGE_PRIORITY = 1, 2, 100  # passage of rank r: PASSAGE_PRIORITY - r


def chat_parts(question: str, hits: Sequence[Hit], answer_reserve: int = 100) -> list[Part]:
    """Rules (required), an example and the chat history (optional, lowest priorities), the passages (priority
    falling with rank, above both), and the question with the answer cue (required, reserving the answer's room)."""
    return [
        Part("rules", RULES, required=True),
        Part("example", EXAMPLE, EXAMPLE_PRIORITY),
        Part("history", HISTORY, HISTORY_PRIORITY),
        Part("sources", "Sources:\n", required=True),
        *(Part(h.key, _line(h.key, h.text), PASSAGE_PRIORITY - h.rank) for h in hits),
        Part("question", f"Question: {fold(question)}\nAnswer:", required=True, reserve=answer_reserve),
    ]


@dataclass(frozen=True)
class Cutoff:
    """One candidate cutoff: every required part and every optional part at or above `priority`."""

    priority: int | None  # None: the required parts alone
    kept: tuple[str, ...]
    tokens: int  # the rendered prompt, measured
    reserved: int  # the kept parts' reserves
    limit: int

    @property
    def fits(self) -> bool:
        """The prompt plus the reserves is within the limit."""
        return self.tokens + self.reserved <= self.limit


def cutoffs(parts: Sequence[Part], limit: int, count: Callable[[str], int]) -> list[Cutoff]:
    """Every cutoff from the required parts alone down to the lowest priority, each prompt measured whole."""
    levels: list[int | None] = [None, *sorted({p.priority for p in parts if not p.required}, reverse=True)]
    table = []
    for level in levels:
        kept = {p.name for p in parts if p.required or (level is not None and p.priority >= level)}
        prompt = render_parts(list(parts), kept)
        reserved = sum(p.reserve for p in parts if p.name in kept)
        table.append(Cutoff(level, tuple(p.name for p in parts if p.name in kept), count(prompt), reserved, limit))
    return table


def largest_fitting(parts: Sequence[Part], limit: int, count: Callable[[str], int]) -> tuple[str, ...]:
    """By brute force: the largest set 'required + everything at or above a cutoff' whose prompt fits."""
    return max((c.kept for c in cutoffs(parts, limit, count) if c.fits), key=len)


def sweep(parts: Sequence[Part], budgets: Sequence[int], count: Callable[[str], int]) -> list[tuple[str, ...] | None]:
    """pack_parts' kept names at each budget (None where the required parts do not fit)."""
    kept: list[tuple[str, ...] | None] = []
    for budget in budgets:
        try:
            kept.append(tuple(pack_parts(parts, budget, count)[0]))
        except ValueError:
            kept.append(None)
    return kept


def same_as_first_overflow(question: str, hits: Sequence[Hit], limit: int, count: Callable[[str], int]) -> bool:
    """passage_parts + pack_parts keeps exactly the passages lesson 06's stop-at-first-overflow keeps."""
    kept, _, _ = pack_parts(passage_parts(question, [(h.key, h.text) for h in hits]), limit, count)
    passages = tuple(name for name in kept if name not in ("question", "sources", "answer"))
    return passages == first_overflow(question, hits, limit, count).chosen
