"""Lesson 06's four selection policies over one ranked retrieval run, under one real-token budget.

Every policy renders its choice with pack_prompt's own layout, in rank order, and is judged on the
re-measured prompt. Each one counts its counter calls and the characters it handed to the counter.

- first_overflow:    take passages in rank order and stop at the first one that does not fit;
- skip_and_continue: pack_prompt itself: skip a passage that does not fit, try the next;
- knapsack:          the subset with the most relevance whose precomputed costs fit (0/1 knapsack, DP);
- priority_cutoff:   drop passages scoring under a share of the best score, then skip and continue.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from packer.lab.retrieval import Hit
from packer.prompt import _line, _render, fold, pack_prompt
from packer.validation import require_count


class Tally:
    """A counter wrapped to count its calls and the characters it measured (a plain callable to pack_prompt)."""

    def __init__(self, count: Callable[[str], int]):
        self.count, self.calls, self.characters = count, 0, 0

    def __call__(self, text: str) -> int:
        self.calls += 1
        self.characters += len(text)
        return self.count(text)


@dataclass(frozen=True)
class Outcome:
    """What one policy chose, what the re-measured prompt costs, and what the choice was worth."""

    policy: str
    chosen: tuple[str, ...]  # ids, in rank order
    tokens: int  # the rendered prompt, re-measured
    limit: int
    relevance: float  # sum of the chosen passages' scores
    available: float  # sum of every candidate's score
    top_k: bool  # the choice is a prefix of the ranking: no passage left out ranks above a chosen one
    calls: int
    characters: int
    planned: int | None = None  # what the policy believed the prompt costs, when it did not measure it

    @property
    def over(self) -> bool:
        """The re-measured prompt is over the limit."""
        return self.tokens > self.limit


def _outcome(
    policy: str,
    question: str,
    hits: Sequence[Hit],
    keys: set[str],
    limit: int,
    tally: Tally,
    measure: Callable[[str], int],
    planned: int | None = None,
) -> Outcome:
    """Judge a choice on its rendered prompt, measured with `measure` (the tally itself when the policy
    must measure it to know; the plain counter when the policy measured it already)."""
    chosen = [h for h in hits if h.key in keys]
    ranks = [h.rank for h in chosen]
    prefix = ranks == list(range(1, len(ranks) + 1))
    tokens = measure(_render(question, [(h.key, h.text) for h in chosen]))
    return Outcome(
        policy,
        tuple(h.key for h in chosen),
        tokens,
        limit,
        round(sum(h.score for h in chosen), 2),
        round(sum(h.score for h in hits), 2),
        prefix,
        tally.calls,
        tally.characters,
        planned,
    )


def _check(question: str, hits: Sequence[Hit], limit: int) -> list[Hit]:
    require_count("limit", limit)
    if not isinstance(question, str):
        raise ValueError(f"question must be a str, got {type(question).__name__}")
    hits = list(hits)
    if not all(isinstance(h, Hit) for h in hits):
        raise ValueError("hits: expected a list of retrieval.Hit")
    if [h.rank for h in hits] != list(range(1, len(hits) + 1)):
        raise ValueError("hits: expected ranks 1, 2, 3, ... in order")
    return hits


def first_overflow(question: str, hits: Sequence[Hit], limit: int, count: Callable[[str], int]) -> Outcome:
    """Rank order, re-measuring the prompt for each candidate, until the first one that does not fit."""
    hits, tally = _check(question, hits, limit), Tally(count)
    if tally(_render(question, [])) > limit:
        raise ValueError(f"limit: the base prompt is over the limit of {limit}")
    kept: list[Hit] = []
    for hit in hits:
        if tally(_render(question, [(h.key, h.text) for h in kept + [hit]])) > limit:
            break
        kept.append(hit)
    return _outcome("stop at first overflow", question, hits, {h.key for h in kept}, limit, tally, count)


def skip_and_continue(question: str, hits: Sequence[Hit], limit: int, count: Callable[[str], int]) -> Outcome:
    """pack_prompt over the ranking: skip what does not fit, keep trying the rest."""
    hits, tally = _check(question, hits, limit), Tally(count)
    chosen, _, _ = pack_prompt(question, [(h.key, h.text) for h in hits], limit, tally)
    return _outcome("skip and continue", question, hits, {key for key, _ in chosen}, limit, tally, count)


def priority_cutoff(
    question: str, hits: Sequence[Hit], limit: int, count: Callable[[str], int], share: float = 0.5
) -> Outcome:
    """Only passages scoring at least `share` of the best score (compared exactly, each number as it is
    written), then skip and continue among them."""
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
        raise ValueError(f"share must be a number from 0 to 1, got {share!r}")
    hits, tally = _check(question, hits, limit), Tally(count)

    def exact(number: float) -> Fraction:  # as written: 0.28 is 7/25, so 7 is at least 0.28 of 25
        return Fraction(str(number))

    best = max((exact(h.score) for h in hits), default=Fraction(0))
    above = [(h.key, h.text) for h in hits if exact(h.score) >= exact(share) * best]
    chosen, _, _ = pack_prompt(question, above, limit, tally)
    return _outcome(
        f"priority cutoff ({share:.0%} of best)", question, hits, {key for key, _ in chosen}, limit, tally, count
    )


def knapsack_01(costs: Sequence[int], values: Sequence[float], capacity: int) -> list[int]:
    """Indices (ascending) of the subset with the largest total value whose costs sum to at most capacity.
    Dynamic programming over capacities 0..capacity: O(n·capacity) time; ties keep the earlier items' choice."""
    require_count("capacity", capacity)
    if len(costs) != len(values):
        raise ValueError(f"costs and values: {len(costs)} costs for {len(values)} values")
    for i, (cost, value) in enumerate(zip(costs, values)):
        require_count(f"costs[{i}]", cost)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ValueError(f"values[{i}] must be a non-negative number, got {value!r}")
    best = [0.0] * (capacity + 1)  # best[c]: the most value within c, using the items seen so far
    took: list[list[bool]] = []
    for cost, value in zip(costs, values):
        row = [False] * (capacity + 1)
        for c in range(capacity, cost - 1, -1):
            if best[c - cost] + value > best[c]:
                best[c], row[c] = best[c - cost] + value, True
        took.append(row)
    chosen, c = [], capacity
    for i in range(len(costs) - 1, -1, -1):
        if took[i][c]:
            chosen.append(i)
            c -= costs[i]
    return sorted(chosen)


def line_costs(hits: Sequence[Hit], count: Callable[[str], int]) -> list[int]:
    """Each passage's cost as the prompt shows it: its whole line '[id] text\\n', measured once."""
    return [count(_line(h.key, h.text)) for h in hits]


def text_costs(hits: Sequence[Hit], count: Callable[[str], int]) -> list[int]:
    """Each passage's cost as parts: the text alone, as the prompt shows it (folded: packer.prompt.fold), plus its
    framing, an empty line."""
    return [count(fold(h.text)) + count(_line(h.key, "")) for h in hits]


def knapsack(
    question: str, hits: Sequence[Hit], limit: int, count: Callable[[str], int], costs: str = "line"
) -> Outcome:
    """The most relevance whose precomputed costs fit the room left by the base prompt; measured once at the end.
    costs='line' measures each rendered line (exact for a bpe() counter); 'text' adds up the parts."""
    if costs not in ("line", "text"):
        raise ValueError(f"costs must be 'line' or 'text', got {costs!r}")
    hits, tally = _check(question, hits, limit), Tally(count)
    base = tally(_render(question, []))
    if base > limit:
        raise ValueError(f"limit: the base prompt is over the limit of {limit}")
    each = (line_costs if costs == "line" else text_costs)(hits, tally)
    picked = knapsack_01(each, [h.score for h in hits], limit - base)
    keys = {hits[i].key for i in picked}
    planned = base + sum(each[i] for i in picked)  # then measured once, by the tally: the check a caller must make
    return _outcome(f"knapsack ({costs} counts)", question, hits, keys, limit, tally, tally, planned)


POLICIES: dict[str, Callable[..., Outcome]] = {
    "stop at first overflow": first_overflow,
    "skip and continue": skip_and_continue,
    "knapsack": knapsack,
    "priority cutoff": priority_cutoff,
}


def compare(question: str, hits: Sequence[Hit], limit: int, count: Callable[[str], int]) -> list[Outcome]:
    """The four policies on one ranking and budget, in the lesson's order."""
    return [policy(question, hits, limit, count) for policy in POLICIES.values()]


def outcomes_table(outcomes: Sequence[Outcome]) -> str:
    """One line per policy: passages, tokens of the re-measured prompt, relevance kept, order, counter calls."""
    lines = [
        f"{'policy':<30} {'kept':>4} {'tokens':>6} {'of':>5} {'relevance':>9} {'share':>6} "
        f"{'top k':>5} {'calls':>5} {'chars measured':>14}"
    ]
    for o in outcomes:
        flag = " OVER" if o.over else ""
        lines.append(
            f"{o.policy:<30} {len(o.chosen):>4} {o.tokens:>6} {o.limit:>5} {o.relevance:>9.2f} "
            f"{o.relevance / o.available if o.available else 0:>6.0%} {'yes' if o.top_k else 'no':>5} "
            f"{o.calls:>5} {o.characters:>14,}{flag}"
        )
    return "\n".join(lines)
