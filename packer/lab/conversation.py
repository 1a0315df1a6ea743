"""Lesson 09's measurements of a conversation: the agent's request at every turn, the share of tokens in tool
results, what each trimming policy sends at every step, and the prefix consecutive requests share.

The agent of packer/lab/agent_transcript.py sends one request per turn, when its search result is in (the
request that asks for the answer): the system prompt, every earlier turn, and the new turn up to its result.
`requests` cuts those out of one transcript. A policy trims each request on its own (`trim_each`), or keeps
state between steps (`trim_rarely`: the hysteresis a watermark gives: keep the same oldest turn until the
request goes over the limit, then drop whole turns until it fits a lower watermark, so that the requests in
between only grow at their end). `cache_steps` measures, in Mistral's real token ids (or any tokenizer's), how many leading
tokens each request shares with the one before it, and what OpenAI's published caching rule for its models before
GPT-5.6 (packer.caching.openai_cached_tokens) would give a prompt with that prefix.
"""

from __future__ import annotations

import functools
import json

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import packer.history
from packer.caching import common_prefix_length, openai_cached_tokens
from packer.chat import mistral_ids
from packer.messages import Message, content_text
from packer.clearing import Policy, clear_then_drop
from packer.history import flatten, group_turns, pack_history
from packer.lab.agent_transcript import SEARCH_TOOL
from packer.lab.retrieval import bm25_scores
from packer.ordering import ends_first
from packer.summary import pack_with_summary

RequestCounter = Callable[[list[Message]], int]


def requests(messages: Any) -> list[list[Message]]:
    """The request sent at each turn: the system prompt, the earlier turns whole, and the turn up to its last tool
    result (the user's message alone when the turn has none)."""
    system, turns = group_turns(messages)
    sent = []
    for number, turn in enumerate(turns):
        results = [index for index, message in enumerate(turn) if message["role"] == "tool"]
        upto = results[-1] + 1 if results else 1
        sent.append(system + flatten(turns[:number]) + turn[:upto])
    return sent


def without_tool_results(messages: Any) -> list[Message]:
    """The conversation with every tool result's content emptied (ids and places kept)."""
    system, turns = group_turns(messages)
    return [{**m, "content": ""} if m["role"] == "tool" else m for m in system + flatten(turns)]


def tool_result_tokens(messages: Any, count: RequestCounter) -> tuple[int, int]:
    """(tokens the tool results' contents add, tokens of the whole request): two real counts, subtracted."""
    whole = count(messages)
    return whole - count(without_tool_results(messages)), whole


def searches(messages: list[Message]) -> int:
    """The number of the agent's turns a request holds (each of its turns makes one search; a summary turn none)."""
    return sum(m["role"] == "tool" for m in messages)


def trim_each(sent: Sequence[list[Message]], limit: int, count: RequestCounter, policy: Policy = pack_history):
    """The requests a stateless policy sends: each request trimmed on its own to the limit."""
    return [policy(request, limit, count).kept for request in sent]


def trim_rarely(sent: Sequence[list[Message]], limit: int, low: int, count: RequestCounter) -> list[list[Message]]:
    """The requests sent with a watermark: the oldest kept turn stays the same until a request measures over
    `limit`; then whole turns go, oldest first, until it fits `low` (low = limit drops as few as fit)."""
    if not 0 < low <= limit:
        raise ValueError(f"low must be above 0 and at most the limit ({limit}), got {low!r}")
    trimmed, dropped = [], 0
    for request in sent:
        system, turns = group_turns(request)
        candidate = system + flatten(turns[dropped:])
        if count(candidate) > limit:
            history = pack_history(candidate, low, count)
            dropped += len(history.dropped)
            candidate = history.kept
        trimmed.append(candidate)
    return trimmed


class Step(NamedTuple):
    """One request of a run: its turns, its tokens, the tokens it shares with the previous request, and what
    OpenAI's published rule would count as cached for such a prefix."""

    turns: int
    tokens: int
    prefix: int
    cached: int


def cache_steps(
    sent: Sequence[list[Message]],
    version: str = "v7",
    tools: Any = (SEARCH_TOOL,),
    tokenize: Callable[[list[Message]], Sequence[int]] | None = None,
) -> list[Step]:
    """Each request's Step, measured on Mistral's token ids, or on `tokenize`'s (any tokenizer of a whole request:
    messages -> token ids) when given (the first request shares nothing)."""
    if tokenize is not None and not callable(tokenize):
        raise ValueError(f"tokenize must be callable (messages -> token ids), got {type(tokenize).__name__}")
    steps, previous = [], []
    for request in sent:
        ids = _ids(json.dumps([request, version, list(tools)])) if tokenize is None else list(tokenize(request))
        prefix = common_prefix_length(previous, ids)
        steps.append(Step(searches(request), len(ids), prefix, openai_cached_tokens(prefix, len(ids))))
        previous = ids
    return steps


@functools.lru_cache(maxsize=512)
def _ids(key: str) -> tuple[int, ...]:
    """mistral_ids of a (request, version, tools) given as JSON, remembered: runs of different policies send
    many of the same requests."""
    request, version, tools = json.loads(key)
    return tuple(mistral_ids(request, version, tools))


class Run(NamedTuple):
    """A run's totals: input tokens sent, tokens shared with the previous request, cached by OpenAI's rule (models before GPT-5.6)."""

    tokens: int
    prefix: int
    cached: int
    mean_turns: float

    @property
    def cached_share(self) -> float:
        return self.cached / self.tokens


def totals(steps: Sequence[Step]) -> Run:
    """Add up a run's steps."""
    return Run(
        sum(s.tokens for s in steps),
        sum(s.prefix for s in steps),
        sum(s.cached for s in steps),
        sum(s.turns for s in steps) / len(steps),
    )


def with_timestamps(sent: Sequence[list[Message]], start_minute: int = 0) -> list[list[Message]]:
    """Each request with the time of its sending written at the end of the system prompt (one minute apart)."""
    stamped = []
    for number, request in enumerate(sent):
        minute = start_minute + number
        clock = f" Current time: 2026-12-02 {9 + minute // 60:02d}:{minute % 60:02d}."
        stamped.append([{**request[0], "content": request[0]["content"] + clock}, *request[1:]])
    return stamped


def reranked(sent: Sequence[list[Message]]) -> list[list[Message]]:
    """Each request with the lines of every tool result re-ranked for its latest question (BM25 over the lines)
    and laid out ends first, as an application that re-sorts its evidence per query would send it."""
    out = []
    for request in sent:
        question = next(content_text(m) for m in reversed(request) if m["role"] == "user")
        out.append([_reordered(m, question) if m["role"] == "tool" else m for m in request])
    return out


def _reordered(message: Message, question: str) -> Message:
    """A tool result's lines, best first for `question`, laid out ends first."""
    lines = content_text(message).split("\n")
    scores = bm25_scores(question, lines)
    ranked = [line for _, line in sorted(zip(scores, lines), key=lambda pair: -pair[0])]  # stable for ties
    return {**message, "content": "\n".join(ends_first(ranked))}


@contextmanager
def measured_requests() -> Iterator[list[int]]:
    """Within the block, record the result of every request packer.history measures (both of pack_history's
    paths measure through packer.history.measure); yields the list of results."""
    results: list[int] = []
    original = packer.history.measure

    def recording(count: RequestCounter, messages: list[Message]) -> int:
        result = original(count, messages)
        results.append(result)
        return result

    packer.history.measure = recording
    try:
        yield results
    finally:
        packer.history.measure = original


def _each(policy: Policy) -> Callable[[Sequence[list[Message]], int, RequestCounter], list[list[Message]]]:
    return lambda sent, limit, count: trim_each(sent, limit, count, policy)


def _rarely(sent: Sequence[list[Message]], limit: int, count: RequestCounter) -> list[list[Message]]:
    return trim_rarely(sent, limit, limit * 3 // 4, count)


# The explorer's policies: each maps (requests, limit, counter) to the requests it sends.
POLICIES = {
    "drop turns": _each(pack_history),
    "clear then drop": _each(clear_then_drop(3)),
    "summary": _each(pack_with_summary),
    "trim rarely (to 3/4)": _rarely,
}
