"""Lesson 09's agent: a search assistant's conversation over lesson 06's collection, made here, the same every run.

Each turn is a user's question about Python's documentation, the assistant's call `search(query)`, the tool's
result (the BM25 top-k passages of packer.lab.retrieval, one "[id] text" line each, so the results are the bulk
of the conversation), and the assistant's answer: the first sentence of the best passage, with its id. The
last turn stops at its tool result: it is the request the agent sends to have that question answered.

The questions: lesson 06's five English ones first, then one per drawn passage of CPython's help topics
("english prose"), asking about three of its longest words; every draw, and each call's id (9 letters and
digits, as Mistral's v3+ templates require), comes from `random.Random(seed)`, turn by turn, so a longer
transcript begins with a shorter one's turns. No model is called.

The messages are in OpenAI's Chat Completions shape (packer/messages.py), as the `openai` SDK would send them: the
call nested as a function, with null content beside it. `anthropic_transcript` is the same conversation in
Anthropic's Messages shape (the system prompt apart, the call a tool_use block, the result a tool_result block),
which packer.chat.from_anthropic turns back into this one.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Iterator
from typing import Any

from packer.messages import Message
from packer.lab.retrieval import QUESTIONS, Hit, collection, rank, words
from packer.summary import first_sentence

SYSTEM = (
    "You are a search assistant for Python's documentation. Call search to find passages, "
    "then answer from them and cite their ids."
)
SEARCH_TOOL = {
    "type": "function",
    "function": {
        "name": "search",
        "description": "Search Python's documentation; returns the best passages, one per line, with their ids.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "what to look for"}},
            "required": ["query"],
        },
    },
}
TOP_K = 4
ID_CHARACTERS = string.ascii_letters + string.digits


def search(query: str, k: int = TOP_K) -> str:
    """The tool's result: the k best passages of the collection for the query, one "[id] text" line each."""
    return _result(rank(query, k=k))


def _result(hits: list[Hit]) -> str:
    """Retrieved passages as the tool returns them: one "[id] text" line each, the text's whitespace runs as one space."""
    return "\n".join(f"[{hit.key}] {' '.join(hit.text.split())}" for hit in hits)


def _questions(rng: random.Random) -> Iterator[tuple[str, str]]:
    """(question, query) pairs without end: lesson 06's English questions, then questions about drawn passages."""
    yield from ((question, question) for question in QUESTIONS if question.isascii())
    prose = [text for key, text in collection() if key.startswith("english-prose-")]
    while True:
        terms = sorted(set(words(rng.choice(prose))), key=lambda term: (-len(term), term))[:3]
        if len(terms) == 3 and all(term.isalpha() for term in terms):
            yield f"What do the docs say about {terms[0]}, {terms[1]} and {terms[2]}?", " ".join(terms)


def agent_transcript(turns: int = 30, seed: int = 9, k: int = TOP_K) -> list[Message]:
    """The conversation: the system prompt, then `turns` turns (question, search call, result, answer), the last
    one stopping at its result."""
    if type(turns) is not int or turns < 1:
        raise ValueError(f"turns must be a positive int, got {turns!r}")
    rng = random.Random(seed)
    messages: list[Message] = [{"role": "system", "content": SYSTEM}]
    used: set[str] = set()
    for number, (question, query) in zip(range(turns), _questions(rng)):
        call_id = "".join(rng.choices(ID_CHARACTERS, k=9))
        while call_id in used:
            call_id = "".join(rng.choices(ID_CHARACTERS, k=9))
        used.add(call_id)
        call = {
            "id": call_id,
            "type": "function",
            "function": {"name": "search", "arguments": json.dumps({"query": query})},
        }
        hits = rank(query, k=k)
        messages += [
            {"role": "user", "content": question},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call_id, "content": _result(hits)},
        ]
        if number < turns - 1:
            answer = first_sentence(" ".join(hits[0].text.split()))
            messages.append({"role": "assistant", "content": f"[{hits[0].key}] {answer}"})
    return messages


def anthropic_transcript(turns: int = 30, seed: int = 9, k: int = TOP_K) -> tuple[str, list[dict[str, Any]]]:
    """(system, messages): the same conversation as Anthropic's Messages API takes it, the system prompt apart."""
    system, *rest = agent_transcript(turns, seed, k)
    messages: list[dict[str, Any]] = []
    for message in rest:
        if message["role"] == "tool":
            result = {"type": "tool_result", "tool_use_id": message["tool_call_id"], "content": message["content"]}
            messages.append({"role": "user", "content": [result]})
        elif "tool_calls" in message:
            uses = [
                {
                    "type": "tool_use",
                    "id": c["id"],
                    "name": c["function"]["name"],
                    "input": json.loads(c["function"]["arguments"]),
                }
                for c in message["tool_calls"]
            ]
            messages.append({"role": "assistant", "content": uses})
        else:
            messages.append({"role": message["role"], "content": message["content"]})
    return system["content"], messages
