"""Lesson 06's retrieval run: lesson 05's real corpus as a collection, ranked for a few questions with BM25.

BM25 is the classic bag-of-words relevance score, introduced by Robertson, Walker, Jones, Hancock-Beaulieu
and Gatford in "Okapi at TREC-3" (1994, https://trec.nist.gov/pubs/trec3/papers/city.ps.gz): a query word
counts for more when it is rare in the collection (idf), when it recurs in the passage (tf, with diminishing
returns set by k1), and less in a long passage (length normalised by b). Two choices differ from the 1994
form: the idf is the one Lucene's BM25Similarity computes, log(1 + (N - n + 0.5) / (n + 0.5)), which is never
negative (the 1994 log((N - n + 0.5) / (n + 0.5)) is negative for a word in more than half the passages),
and each distinct query word counts once. It is written out here in a few lines, deterministic, with no
index to build or download.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from packer.lab import corpus

QUESTIONS = (
    "What happens to the exception when a raise statement runs inside an except clause?",
    "When is an object considered true or false in a Boolean context?",
    "How does a generator function run when it uses yield?",
    "How do dictionaries keep the insertion order of their keys?",
    "How does the debugger run commands and set breakpoints?",
    "如何运行单元格并重启服务？",  # "How do I run cells and restart the server?", for the Chinese UI messages
)
# Kana, Han and Hangul: each character is a term of its own. Chinese and Japanese put no spaces between words;
# Korean does, and splitting its Hangul into syllables is this retriever's choice, to treat the three alike.
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
K1, B = 1.5, 0.75


@dataclass(frozen=True)
class Hit:
    """One retrieved passage: its id, text, BM25 score and rank (1 = best)."""

    key: str
    text: str
    score: float
    rank: int


def words(text: str) -> list[str]:
    """The terms BM25 matches: lower-cased runs of letters and digits, and each CJK character on its own
    (combining marks, such as Devanagari vowel signs, are not letters here and split a word)."""
    return re.findall(rf"[{CJK}]|[^\W_{CJK}]+", text.lower())


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@functools.cache
def collection() -> tuple[tuple[str, str], ...]:
    """Every passage of lesson 05's corpus as (id, text), ids like 'english-prose-017', in sample order."""
    return tuple((f"{_slug(s.name)}-{i:03d}", text) for s in corpus.samples() for i, text in enumerate(s.passages))


def bm25_scores(query: str, documents: Sequence[str], k1: float = K1, b: float = B) -> list[float]:
    """The BM25 score of every document for the query (0.0 where no query word occurs)."""
    if isinstance(documents, str) or not documents:
        raise ValueError("documents: expected a non-empty list of texts")
    bags = [Counter(words(text)) for text in documents]
    lengths = [sum(bag.values()) for bag in bags]
    average = sum(lengths) / len(bags) or 1.0
    frequency = Counter(term for bag in bags for term in bag)
    terms = sorted(set(words(query)))
    idf = {t: math.log(1 + (len(bags) - frequency[t] + 0.5) / (frequency[t] + 0.5)) for t in terms}
    return [
        sum(idf[t] * bag[t] * (k1 + 1) / (bag[t] + k1 * (1 - b + b * length / average)) for t in terms if bag[t])
        for bag, length in zip(bags, lengths)
    ]


class Index(NamedTuple):
    """What bm25_scores computes of its documents whatever the query, kept for many queries: each document's term
    counts and length, their average length, and in how many documents each term occurs."""

    bags: list[Counter[str]]
    lengths: list[int]
    average: float
    frequency: Counter[str]


def bm25_index(documents: Sequence[str]) -> Index:
    """The documents' Index, made once (lesson 06 shows bm25_scores, which makes it again for each query)."""
    if isinstance(documents, str) or not documents:
        raise ValueError("documents: expected a non-empty list of texts")
    bags = [Counter(words(text)) for text in documents]
    lengths = [sum(bag.values()) for bag in bags]
    return Index(bags, lengths, sum(lengths) / len(bags) or 1.0, Counter(term for bag in bags for term in bag))


def indexed_bm25_scores(query: str, index: Index, k1: float = K1, b: float = B) -> list[float]:
    """bm25_scores(query, documents), from the documents' Index: the same numbers, computed in the same order."""
    bags, lengths, average, frequency = index
    terms = sorted(set(words(query)))
    idf = {t: math.log(1 + (len(bags) - frequency[t] + 0.5) / (frequency[t] + 0.5)) for t in terms}
    return [
        sum(idf[t] * bag[t] * (k1 + 1) / (bag[t] + k1 * (1 - b + b * length / average)) for t in terms if bag[t])
        for bag, length in zip(bags, lengths)
    ]


def bm25_vectors(documents: Sequence[str], k1: float = K1, b: float = B) -> list[dict[str, float]]:
    """Each document's BM25 weight for every term it holds, the terms of bm25_scores' sum: a query's score for a
    document is the sum of that document's weights over the query's distinct terms."""
    if isinstance(documents, str) or not documents:
        raise ValueError("documents: expected a non-empty list of texts")
    bags = [Counter(words(text)) for text in documents]
    lengths = [sum(bag.values()) for bag in bags]
    average = sum(lengths) / len(bags) or 1.0
    frequency = Counter(term for bag in bags for term in bag)
    idf = {t: math.log(1 + (len(bags) - n + 0.5) / (n + 0.5)) for t, n in frequency.items()}
    return [
        {t: idf[t] * f * (k1 + 1) / (f + k1 * (1 - b + b * length / average)) for t, f in sorted(bag.items())}
        for bag, length in zip(bags, lengths)
    ]


def rank(question: str, passages: Sequence[tuple[str, str]] | None = None, k: int = 40) -> list[Hit]:
    """The k best passages for the question, best first (ties by collection order), scores rounded to 0.01."""
    if type(k) is not int or k < 1:
        raise ValueError(f"k must be a positive int, got {k!r}")
    if passages is None:
        return list(_rank_collection(question, k))
    scores = bm25_scores(question, [text for _, text in passages])
    order = sorted(range(len(passages)), key=lambda i: (-scores[i], i))[:k]
    return [Hit(passages[i][0], passages[i][1], round(scores[i], 2), r) for r, i in enumerate(order, 1)]


@functools.lru_cache(maxsize=32)
def _rank_collection(question: str, k: int) -> tuple[Hit, ...]:
    """rank() over the whole collection, once per question (the lesson and its explorer ask again and again)."""
    passages = collection()
    scores = indexed_bm25_scores(question, _collection_index())
    order = sorted(range(len(passages)), key=lambda i: (-scores[i], i))[:k]
    return tuple(Hit(passages[i][0], passages[i][1], round(scores[i], 2), r) for r, i in enumerate(order, 1))


@functools.cache
def _collection_index() -> Index:
    """The BM25 index of the whole collection, made once: re-made for every question, it was most of the time of
    lesson 09's first cell (27 questions over 1,297 passages)."""
    return bm25_index([text for _, text in collection()])
