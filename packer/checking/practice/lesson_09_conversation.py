"""Lesson 09's practice points: turns, what a limit keeps, what clearing and a summary cost, and the cached prefix.

Objectives (the lesson's list): 1 cutting a conversation into turns and trimming it by whole turns with
pack_history (the system prompt and the latest turn stay, a call never without its result); 2 the share of tool
results, and the turns clear_then_drop keeps against dropping alone; 3 what a summary turn costs and leaves room
for; 4 the prefix two consecutive requests share, what breaks it, OpenAI's caching rule, trimming at every step
against trimming rarely.

The points ask about the packing ideas (which messages make a turn, which turns a limit keeps, what clearing
gives up, what a cache can reuse), not about how a message or a tool call is written down: only `_grouped`
builds messages, in the shape packer.chat takes.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import strategies as st

from packer.caching import openai_cached_tokens
from packer.checking.engine import Question
from packer.checking.practice.kinds import Choose, Option, Predict, Slip, Write
from packer.history import group_turns

# Practice 9.1: a conversation by its messages' roles, as the lesson lists it ("call" is an assistant message that
# calls the search tool, "calls" one that calls it twice; each call is answered by one tool message).
ROLES = [
    "system",
    "user",
    "call",
    "tool",
    "assistant",
    "user",
    "assistant",
    "user",
    "calls",
    "tool",
    "tool",
    "assistant",
    "user",
    "call",
    "tool",
]
# Practice 9.5: prefixes of 1,000, 1,100 and 1,500 tokens shared by a 5,000-token prompt.
PREFIXES, PROMPT = (1000, 1100, 1500), 5000


def _conversation(roles: list[str]) -> list[dict]:
    """Messages with these roles, each call answered by the tool messages after it (ids c1, c2, ... per turn)."""
    messages: list[dict] = []
    waiting: list[str] = []
    made = 0
    for role in roles:
        if role in ("call", "calls"):
            ids = [f"c{made + i}" for i in range(1, 2 if role == "call" else 3)]
            made += len(ids)
            waiting += ids
            calls = [
                {"id": key, "type": "function", "function": {"name": "search", "arguments": json.dumps({"query": key})}}
                for key in ids
            ]
            messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        elif role == "tool":
            messages.append({"role": "tool", "tool_call_id": waiting.pop(0), "content": "[p] a passage"})
        else:
            messages.append({"role": role, "content": f"a {role} message"})
    return messages


def _grouped() -> list[int]:
    """The number of messages in each turn group_turns finds in ROLES' conversation."""
    _, turns = group_turns(_conversation(ROLES))
    return [len(turn) for turn in turns]


def _kept_turns(base: int, costs: list[int], limit: int) -> int:
    """How many earlier turns pack_history keeps: the newest first, each added while the total stays within the
    limit, stopping at the first that does not fit (a kept history has no gaps)."""
    used, kept = base, 0
    for cost in reversed(costs):
        if used + cost > limit:
            break
        used += cost
        kept += 1
    return kept


def _kept_in_order(newest_first: bool = True, base_counted: bool = True, stop: bool = True) -> Callable:
    """kept_turns with a slip: the oldest turn first, the base forgotten, or a misfit skipped instead of ending it."""

    def kept_turns(base: int, costs: list[int], limit: int) -> int:
        used, kept = base if base_counted else 0, 0
        for cost in reversed(costs) if newest_first else costs:
            if used + cost > limit:
                if stop:
                    break
                continue
            used += cost
            kept += 1
        return kept

    return kept_turns


def _history(base: int, costs: list[int], room: int) -> tuple[int, list[int], int]:
    """kept_turns arguments whose limit leaves `room` tokens above the system prompt and the latest turn."""
    return base, costs, base + room


HISTORIES = st.builds(_history, st.integers(0, 60), st.lists(st.integers(0, 40), max_size=8), st.integers(0, 120))

POINTS = [
    Predict(
        "p9.1",
        1,
        "how many messages each turn of the listed conversation holds",
        result=_grouped,
        answer_type=list[int],
        misconceptions=(
            ([5, 2, 5, 3], "the system prompt belongs to no turn: group_turns returns it apart, and it always stays"),
            (
                [4, 2, 5],
                "the latest turn counts too, unfinished as it is: the request is sent to have its answer written",
            ),
            (
                [4, 2, 4, 3],
                "every result is a message of its own: a call of two searches is answered by two tool messages",
            ),
        ),
    ),
    Write(
        "p9.2",
        1,
        "kept_turns(base, costs, limit): how many earlier turns pack_history keeps",
        question=Question(
            "p9.2",
            "kept_turns",
            1,
            "the number of earlier turns, newest first, that fit beside the system prompt and the latest turn",
            _kept_turns,
            cases=(
                (100, [50, 30, 20], 150),  # 20, then 30 fit exactly; 50 does not
                (100, [10, 60, 20], 150),  # 60 does not fit, and the older 10 goes with it
                (100, [20, 30, 90], 150),  # the newest does not fit: none is kept
                (100, [5, 5], 100),  # no room above the base
                (100, [], 150),  # no earlier turn
                (0, [0, 7, 0], 7),  # turns that cost nothing still count
            ),
            inputs=HISTORIES,
        ),
        hint="work the first two fixed cases by hand: start from base, add the newest earlier turn first, and "
        "once a turn does not fit, ask whether an older one may stay",
        slips=(
            Slip("return how many earlier turns are kept, an int, not the turns themselves", returns=(list, tuple)),
            Slip("the newest earlier turn comes first: costs ends with it", wrong=_kept_in_order(newest_first=False)),
            Slip(
                "the base (system prompt and latest turn) is charged before any earlier turn",
                wrong=_kept_in_order(base_counted=False),
            ),
            Slip(
                "once a turn does not fit, every older one goes with it: a kept history has no gaps",
                wrong=_kept_in_order(stop=False),
            ),
        ),
    ),
    Choose(
        "p9.3",
        2,
        "what the cleared request gives up",
        options=(
            Option(
                "A",
                "Nothing: a placeholder stands in for each result, so the model reads the same conversation.",
                "the belief that a placeholder keeps the content: it says a result was there, not what it said",
            ),
            Option(
                "B",
                "The old tool calls: a result's call goes with it, or the conversation would break.",
                "the belief that a call and its result go together: only the result's content is replaced; the "
                "result keeps its message and its call's id, so every call still has its result",
            ),
            Option(
                "C",
                "Whole turns: only the turns whose results were not cleared are kept.",
                "the confusion of clearing with dropping: clearing removes no message, and group_turns still found "
                "30 whole turns in the cleared conversation",
            ),
            Option(
                "D",
                "The old results' passages: one the model needs again must be searched for again.",
                "clearing replaces only the content of the old results: the model still sees what was asked, "
                "searched and answered, not what was found",
                right=True,
            ),
        ),
    ),
    Choose(
        "p9.4",
        3,
        "what decides whether a summary turn costs a kept turn",
        options=(
            Option(
                "A",
                "How many turns it summarises: past about twenty, the summary is too long to fit.",
                "the belief that the summary's length decides alone: it matters only against the room left, and at "
                "12,000 tokens it summarises 13 turns and still costs one",
            ),
            Option(
                "B",
                "Nothing: a summary always takes the room of exactly one kept turn, at any limit.",
                "the belief that the cost is fixed: at 8,192 it kept the same eleven turns as dropping, and itself "
                "beside them",
            ),
            Option(
                "C",
                "The room the newest turns leave under the limit: the summary stays only if it fits there.",
                "dropping keeps 6 turns in 3,963 tokens at 4,000, leaving 37, and 11 turns in 7,332 at 8,192, "
                "leaving 860: a summary of a few hundred tokens fits only in the second",
                right=True,
            ),
            Option(
                "D",
                "Whether it is longer than the system prompt, which the summary then replaces.",
                "the belief that the summary replaces the system prompt: the system prompt always stays, and the "
                "summary is a turn of its own after it",
            ),
        ),
    ),
    Predict(
        "p9.5",
        4,
        "what OpenAI's rule caches of prefixes of 1,000, 1,100 and 1,500 tokens of a 5,000-token prompt",
        result=lambda: tuple(openai_cached_tokens(prefix, PROMPT) for prefix in PREFIXES),
        answer_type=tuple[int, int, int],
        misconceptions=(
            ((0, 1100, 1500), "cache hits come in steps of 128 tokens: a prefix counts only up to the last step"),
            ((0, 1152, 1536), "a hit never covers tokens the prefix does not share: round down, not up"),
            ((1000, 1024, 1408), "under 1,024 shared tokens the rule caches nothing at all"),
        ),
    ),
    Choose(
        "p9.6",
        4,
        "how much of turn 20's request turn 21 shares, nothing trimmed",
        options=(
            Option(
                "A",
                "Up to where turn 20's request had its tool definitions, which v7 moves at every turn.",
                "mistral-common's v7 puts [AVAILABLE_TOOLS] just before the last user message: turn 21's has the new "
                "question there, so the prefix ends where turn 20 had the tools",
                right=True,
            ),
            Option(
                "B",
                "All 11,980 tokens: nothing was trimmed, so the whole earlier request is its start.",
                "the belief that an untrimmed conversation only grows at its end: that would hold if every message "
                "stayed where it was; look at where v7 writes the tool definitions in a request",
            ),
            Option(
                "C",
                "Only the system prompt: a new turn changes the request from the first user message on.",
                "the belief that a new turn disturbs the whole conversation: it comes at the end, and everything "
                "before the first token that differs is shared",
            ),
            Option(
                "D",
                "Nothing: each request is tokenized afresh, so all of its token ids differ.",
                "the belief that tokenizing is not repeatable: the same text tokenized the same way gives the same "
                "ids; only what changes breaks the prefix",
            ),
        ),
    ),
    Choose(
        "p9.7",
        4,
        "why trimming rarely to a lower watermark leaves more to the cache",
        options=(
            Option(
                "A",
                "Smaller requests cache a larger share: the cache rounds down in steps of 128 tokens.",
                "the belief that rounding explains it: rounding down to a step costs under 128 tokens a request; "
                "what differs between the policies is how often the prefix breaks",
            ),
            Option(
                "B",
                "Between two trims each request only grows at its end, and a low watermark makes trims rare.",
                "a trim changes what follows the system prompt and breaks the prefix; trimming rarely breaks it "
                "rarely, at the price of about one turn kept",
                right=True,
            ),
            Option(
                "C",
                "It sends fewer tokens in all, so the same cached tokens make a larger share of them.",
                "the belief that only the denominator changed: the cached tokens themselves grew, from 65,408 to "
                "112,384, while the input fell by a tenth",
            ),
            Option(
                "D",
                "It keeps the oldest turns longer, and a cache holds on to the oldest tokens best.",
                "the belief that it keeps other turns: it drops the oldest turns too; what it changes is when, not "
                "which",
            ),
        ),
    ),
]
