"""Lesson 08's duplicates experiment: lesson 06's real collection with near-duplicates injected, re-ranked with
BM25, and three ways to pack it under one real-token budget (plain greedy, near-duplicate filter then greedy,
MMR then greedy), scored on what they spend on repeats.

There are no human relevance judgments here, so "relevant" has a stated, mechanical meaning: a passage is
relevant to a question when it is in the original collection's BM25 top 10 for that question (RELEVANT_TOP).
A copy stands for its source, and a passage and its copies count once.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from packer.duplicates import CJK, drop_near_duplicates, jaccard, shingles
from packer.lab.retrieval import QUESTIONS, Hit, bm25_vectors, collection, rank
from packer.mmr import cosine, mmr_order
from packer.prompt import _line, pack_prompt

SEED = 8  # the injection's fixed seed: the same copies on every run
KINDS = ("mirror", "reformatted", "quoted", "edited")
RELEVANT_TOP = 10  # "relevant" = in the original collection's BM25 top 10 for the question
CANDIDATES = 40  # as many as lesson 06's retriever hands the packer
QUOTE_FRAMES = (
    'As the reference puts it: "{}" That is the whole rule.',
    'One answer on a forum quoted the documentation, "{}", and added nothing else.',
    'The notes say "{}" and link to the source.',
)
CJK_QUOTE_FRAMES = ("文档里写道：“{}”。", "有人引用了原文：“{}”，没有补充。")
EDIT_WORDS = ("often", "also", "then", "usually", "still", "only")
CJK_EDIT_CHARS = "新旧大小"
WORD = re.compile(rf"[{CJK}]|[^\W_{CJK}]+")


@dataclass(frozen=True)
class Copy:
    """One injected near-duplicate: its id, its text, the passage it copies, how, and for which question."""

    key: str
    text: str
    source: str
    kind: str
    question: int  # index into QUESTIONS


def mirror(text: str) -> str:
    """An exact mirror: the same text (under a new id)."""
    return text


def reformat(text: str) -> str:
    """The same words, typeset differently: lines reflowed, straight and curly quotes swapped, capitals shouted."""
    straight = text.translate(str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"}))
    curly = re.sub(r'"([^"]*)"', "“\\1”", text).replace("'", "’")
    return " ".join((straight if straight != text else curly).split()).upper()


def quote(text: str, rng: random.Random) -> str:
    """The passage quoted inside a new sentence (a Chinese frame for text with CJK characters)."""
    frames = CJK_QUOTE_FRAMES if re.search(f"[{CJK}]", text) else QUOTE_FRAMES
    return rng.choice(frames).format(" ".join(text.split()))


def edit(text: str, rng: random.Random) -> str:
    """A light edit: about one word in twelve (at least one) replaced by another word."""
    found = list(WORD.finditer(text))
    chosen = sorted(rng.sample(range(len(found)), max(1, len(found) // 12)), reverse=True)
    for index in chosen:
        match = found[index]
        if re.fullmatch(f"[{CJK}]", match.group()):
            new = rng.choice([c for c in CJK_EDIT_CHARS if c != match.group()])
        else:
            new = rng.choice([w for w in EDIT_WORDS if w != match.group().lower()])
        text = text[: match.start()] + new + text[match.end() :]
    return text


def _make_copy(kind: str, text: str, rng: random.Random) -> str:
    """The copy of one kind (the random ones draw from rng, in the order the copies are made)."""
    if kind == "mirror":
        return mirror(text)
    if kind == "reformatted":
        return reformat(text)
    return quote(text, rng) if kind == "quoted" else edit(text, rng)


@functools.cache
def relevant(question: str) -> frozenset[str]:
    """The ids this lesson calls relevant to a question: the original collection's BM25 top RELEVANT_TOP."""
    return frozenset(h.key for h in rank(question)[:RELEVANT_TOP])


@functools.cache
def injected(seed: int = SEED) -> tuple[Copy, ...]:
    """One copy of each kind per question, each of a different source drawn from that question's relevant
    passages (no source copied twice), with a fixed seed."""
    rng = random.Random(seed)
    used: set[str] = set()
    copies: list[Copy] = []
    texts = dict(collection())
    for q, question in enumerate(QUESTIONS):
        pool = [h.key for h in rank(question)[:RELEVANT_TOP] if h.key not in used]
        for kind, source in zip(KINDS, rng.sample(pool, len(KINDS))):
            used.add(source)
            text = _make_copy(kind, texts[source], rng)
            copies.append(Copy(f"{kind}-{q + 1}", text, source, kind, q))
    return tuple(copies)


@functools.cache
def augmented(seed: int = SEED) -> tuple[tuple[str, str], ...]:
    """Lesson 06's collection with the injected copies appended (a tie in score goes to the original)."""
    return collection() + tuple((c.key, c.text) for c in injected(seed))


@functools.cache
def candidates(question: str, seed: int = SEED) -> tuple[Hit, ...]:
    """The augmented collection ranked with BM25 for the question: the best CANDIDATES, as a retriever hands them."""
    return tuple(rank(question, augmented(seed), CANDIDATES))


@functools.cache
def _vectors(seed: int) -> dict[str, dict[str, float]]:
    passages = augmented(seed)
    return dict(zip((key for key, _ in passages), bm25_vectors([text for _, text in passages])))


def vectors(hits: Sequence[Hit], seed: int = SEED) -> list[dict[str, float]]:
    """Each hit's BM25 term weights over the augmented collection (the vectors MMR compares)."""
    table = _vectors(seed)
    return [table[h.key] for h in hits]


def origin(key: str, seed: int = SEED) -> str:
    """What a passage stands for: a copy's source, else the passage itself."""
    return next((c.source for c in injected(seed) if c.key == key), key)


@dataclass(frozen=True)
class Choice:
    """What one strategy put in the prompt, in prompt order, and what it was worth."""

    strategy: str
    chosen: tuple[str, ...]  # ids in prompt order
    tokens: int  # the rendered prompt, measured
    limit: int
    copies: tuple[str, ...]  # chosen passages that repeat one chosen before them (same origin)
    distinct_relevant: int  # relevant origins in the prompt, each once
    repeat_tokens: int  # tokens spent on the lines of those repeats

    @property
    def per_thousand(self) -> float:
        """Distinct relevant passages per 1,000 prompt tokens."""
        return 1000 * self.distinct_relevant / self.tokens


def _choice(
    strategy: str,
    question: str,
    ordered: Sequence[Hit],
    limit: int,
    count: Callable[[str], int],
    seed: int,
) -> Choice:
    chosen, _, prompt = pack_prompt(question, [(h.key, h.text) for h in ordered], limit, count)
    seen: set[str] = set()
    repeats: list[str] = []
    repeat_tokens = 0
    for key, text in chosen:
        source = origin(key, seed)
        if source in seen:
            repeats.append(key)
            repeat_tokens += count(_line(key, text))
        seen.add(source)
    return Choice(
        strategy,
        tuple(key for key, _ in chosen),
        count(prompt),
        limit,
        tuple(repeats),
        len(seen & relevant(question)),
        repeat_tokens,
    )


def greedy(question: str, limit: int, count: Callable[[str], int], seed: int = SEED) -> Choice:
    """Plain greedy: pack_prompt over the ranking as retrieved, copies and all."""
    return _choice("greedy", question, candidates(question, seed), limit, count, seed)


def dedup_greedy(
    question: str, limit: int, count: Callable[[str], int], threshold: float = 0.5, seed: int = SEED
) -> Choice:
    """Drop near-duplicates (word 3-shingles, Jaccard at least `threshold`), then pack_prompt over what is left."""
    hits = candidates(question, seed)
    kept, _ = drop_near_duplicates([(h.key, h.text) for h in hits], threshold)
    keys = {key for key, _ in kept}
    return _choice(f"dedup ({threshold:g}) + greedy", question, [h for h in hits if h.key in keys], limit, count, seed)


def mmr_ranking(question: str, lam: float, seed: int = SEED) -> list[Hit]:
    """The candidates in MMR order: relevance = BM25 score / best score, similarity = cosine of BM25 vectors."""
    hits = candidates(question, seed)
    best = max(h.score for h in hits) or 1.0
    vecs = vectors(hits, seed)
    similarity = [[cosine(u, v) for v in vecs] for u in vecs]
    return [hits[i] for i in mmr_order([h.score / best for h in hits], similarity, lam)]


def mmr_greedy(question: str, limit: int, count: Callable[[str], int], lam: float = 0.7, seed: int = SEED) -> Choice:
    """MMR order (Carbonell and Goldstein 1998), then pack_prompt in that order."""
    return _choice(f"MMR (λ={lam:g}) + greedy", question, mmr_ranking(question, lam, seed), limit, count, seed)


def compare(
    question: str, limit: int, count: Callable[[str], int], threshold: float = 0.5, lam: float = 0.7, seed: int = SEED
) -> list[Choice]:
    """The three strategies on one question's augmented ranking at one budget."""
    return [
        greedy(question, limit, count, seed),
        dedup_greedy(question, limit, count, threshold, seed),
        mmr_greedy(question, limit, count, lam, seed),
    ]


def choices_table(choices: Sequence[Choice]) -> str:
    """One line per strategy: passages, tokens, repeats kept and their tokens, distinct relevant, per 1,000 tokens."""
    lines = [
        f"{'strategy':<22} {'kept':>4} {'tokens':>6} {'repeats':>7} {'their tokens':>12} {'relevant':>8} {'per 1k':>6}"
    ]
    for c in choices:
        lines.append(
            f"{c.strategy:<22} {len(c.chosen):>4} {c.tokens:>6} {len(c.copies):>7} {c.repeat_tokens:>12} "
            f"{c.distinct_relevant:>8} {c.per_thousand:>6.2f}"
        )
    return "\n".join(lines)


@dataclass(frozen=True)
class FilterScore:
    """How the near-duplicate filter did on one candidate list: which injected copies it caught and missed
    (copies whose source is among the candidates too), and what it dropped that we did not inject."""

    caught: tuple[str, ...]
    missed: tuple[str, ...]
    false_removals: tuple[tuple[str, str], ...]  # (dropped id, the kept id it was taken to repeat)


def score_filter(hits: Sequence[Hit], threshold: float = 0.5, seed: int = SEED) -> FilterScore:
    """Run drop_near_duplicates on the candidates and sort its drops: a copy is caught when the filter drops it,
    or drops its source as a repeat of it; any other drop of a passage we did not inject is a false removal."""
    _, dropped = drop_near_duplicates([(h.key, h.text) for h in hits], threshold)
    present = {h.key for h in hits}
    copies = [c for c in injected(seed) if c.key in present and c.source in present]
    gone = {key for key, _ in dropped}
    caught = tuple(c.key for c in copies if c.key in gone or (c.source, c.key) in dropped)
    own = {(c.source, c.key) for c in copies}
    injected_keys = {c.key for c in injected(seed)}
    false = tuple((d, k) for d, k in dropped if d not in injected_keys and (d, k) not in own)
    return FilterScore(caught, tuple(c.key for c in copies if c.key not in caught), false)


def filter_totals(threshold: float, seed: int = SEED) -> tuple[int, int, int]:
    """Over the six questions' candidate lists: (copies caught, copies present, false removals)."""
    scores = [score_filter(candidates(q, seed), threshold, seed) for q in QUESTIONS]
    return (
        sum(len(s.caught) for s in scores),
        sum(len(s.caught) + len(s.missed) for s in scores),
        sum(len(s.false_removals) for s in scores),
    )


def resemblance(a: str, b: str) -> float:
    """The Jaccard index of two texts' word 3-shingles (what the filter compares)."""
    return jaccard(shingles(a), shingles(b))


def containment(a: str, b: str) -> float:
    """Broder's containment of a in b: the share of a's shingles that b also has."""
    mine = shingles(a)
    return len(mine & shingles(b)) / len(mine) if mine else 1.0
