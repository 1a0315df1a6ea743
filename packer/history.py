"""A conversation's past, trimmed by whole turns: the system prompt and the latest turn stay, oldest turns go first.

A chat application or an agent sends its whole past again at every turn. `group_turns` cuts it into turns: a
turn is a user message and everything after it up to the next user message (the assistant's text, its tool
calls and their results); an optional system message comes first and belongs to no turn. `pack_history` drops
whole turns, oldest first, until the whole request measured with the injected counter fits:
`count(request) <= limit`. Whole turns keep every tool call with its result.

The rules group_turns holds a conversation to (each break is a ValueError naming the message index):

- at most one system message (or "developer", OpenAI's newer name for it), and only first;
- the first other message is a user message (an assistant or tool message before any user is refused);
- no two user messages in a row: every turn but the latest has a reply (Mistral's templates would merge the
  two into one, so they could not be dropped one at a time);
- a tool result answers a call made earlier in its own turn and not yet answered (mistral-common's v7
  tokenizer, validating in the ValidationMode.test that MistralTokenizer.v7() loads and packer.chat counts
  with, refuses only a result right after a user message and compares no ids; only the validator of its v13
  tokenizers compares them);
- every call's results come right after it, before any other message (the APIs' rule, packer/messages.py's
  `require_calls_answered`: OpenAI answers 400, Anthropic wants the results in the very next user message, and
  mistral-common refuses an assistant message before them), and a call left without its result at the end is
  refused too (in ValidationMode.test mistral-common encodes a call left without its result, followed by a user
  turn, without complaint; ValidationMode.serving refuses it; lesson 09 shows both);
- a call id appears once per turn.

What pack_history returns (a History): `kept`, the request to send, the system message (if any) and the kept
turns' messages; `dropped`, the dropped turns, oldest first, each its list of messages. The dropped turns are
always the oldest ones, so the kept turns are the newest `len(turns) - len(dropped)`.

The contract is the plain path: with any counter, measure the whole request with no turn dropped, then with
the oldest dropped, then the two oldest, ..., and keep the first that fits; the request of the system prompt
and the latest turn alone is measured first, and a limit below it is a ValueError. That is O(n) requests of
up to the whole conversation each: O(n²) tokens for n turns.

The fast path, for a counter made by packer.chat (`adds_up_by_turn`), gives the same answer from one
measurement per kept turn. Its claim: for any earlier turns T_1 ... T_m (complete, as group_turns checks)
and the latest turn L,

    count(system + T_1 + ... + T_m + L) = count(system + L) + cost(T_1) + ... + cost(T_m),
    where cost(T) = count(T + [u]) - count([u]) for one fixed user message u (PROBE).

Why, for mistral_chat: mistral-common's InstructTokenizer.encode_instruct returns BOS followed by each
message's own tokens, concatenated; each message is tokenized alone (its text by SentencePiece, with no piece
spanning two messages; control tokens as ids). A message's tokens depend on the others only through
(a) the tool definitions, and for v2/v3 the system prompt, both put into the last user message, which is in
L and in u alike, never in an earlier turn; (b) for v1, the system prompt, put into the first user message:
whichever turn is oldest, so v1 with a system prompt is left to the plain path (tests/core/test_history.py
shows a conversation where it does not add up); (c) for v2, calls and results before the last user message,
which it drops: mistral_chat refuses tool traffic under v2. Before tokenizing, mistral-common's normalizer
merges neighbouring messages of one role; a turn starts with its only user message and the message before
it is never a user's, so merges stay inside a turn, the same wherever it stands. v7's system prompt is a
message of its own at the start. Why, for openai_chat: the estimate is a sum over messages plus a constant.
So cost(T) is the number of tokens T's own messages add, never negative, and count(system + turns[k:]) can
only fall as k grows: the first k that fits, the plain path's answer, is found by adding turn costs from the
newest earlier turn backwards until one more would go over the limit. The fast path measures the base, u and
each kept turn plus one (with u each time: under v7 with lesson 09's search tool, 84 tokens, 81 of them the
tool definitions); anything the counter refuses on the way sends it to the plain path, which then
raises its own error (or, if it does not, gives the answer). tests/core/test_history.py checks the claim and
both paths' equality on generated and adversarial conversations for every shipped counter;
tests/benchmarks/bench_history.py measures the difference.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, NamedTuple

from packer.chat import adds_up_by_turn
from packer.messages import SYSTEM_ROLES, Message, calls_of, require_messages, unanswered
from packer.validation import require_count

RequestCounter = Callable[[list[Message]], int]
PROBE: Message = {"role": "user", "content": ""}  # u: the user message each turn's cost is measured before


class History(NamedTuple):
    """A trimmed conversation: the request to send, the dropped turns (oldest first, each its messages), and
    the summary that stands in for them ("" when none does)."""

    kept: list[Message]
    dropped: list[list[Message]]
    summary: str = ""


def group_turns(messages: Any) -> tuple[list[Message], list[list[Message]]]:
    """(system, turns): the system message in a list of zero or one, then each turn's messages, oldest first (the
    caller's own message objects)."""
    checked = require_messages(messages)
    system = checked[:1] if checked[0]["role"] in SYSTEM_ROLES else []
    turns: list[list[Message]] = []
    waiting: dict[str, int] = {}  # call id -> index of the message that made it, while its result is awaited
    called: set[str] = set()  # the call ids of the current turn
    for index, message in enumerate(checked[len(system) :], len(system)):
        role, where = message["role"], f"message {index}"
        if waiting and role != "tool":
            raise unanswered(index, role, waiting)
        if role in SYSTEM_ROLES:
            raise ValueError(f"{where}: a {role} message may come only first, and only once")
        if role == "user":
            if turns and len(turns[-1]) == 1:
                raise ValueError(f"{where}: two user messages in a row (every turn but the latest needs a reply)")
            turns.append([message])
            called = set()
            continue
        if not turns:
            raise ValueError(f"{where}: the conversation must start with a user message (after the system prompt)")
        if role == "tool":
            if message["tool_call_id"] not in waiting:
                raise ValueError(f"{where}: a tool result for {message['tool_call_id']!r}, no call in its turn awaits")
            del waiting[message["tool_call_id"]]
        for call in calls_of(message):
            if call["id"] in called:
                raise ValueError(f"{where}: tool call id {call['id']!r} is used twice in one turn")
            called.add(call["id"])
            waiting[call["id"]] = index
        turns[-1].append(message)
    if not turns:
        raise ValueError("messages: a system message alone has no turn to keep (add the user's message)")
    _require_answered(waiting)
    return system, turns


def _require_answered(waiting: dict[str, int]) -> None:
    """ValueError naming the first call still awaiting its result, if any."""
    if waiting:
        call_id, index = next(iter(waiting.items()))
        raise ValueError(
            f"message {index}: tool call {call_id!r} has no result in its turn (a call stays only with it)"
        )


def flatten(turns: list[list[Message]]) -> list[Message]:
    """The turns' messages, in order."""
    return [message for turn in turns for message in turn]


def copied(messages: list[Message]) -> list[dict[str, Any]]:
    """Deep copies of the messages (calls and content parts too), so that nobody handed them can change the caller's."""
    return [copy.deepcopy(dict(message)) for message in messages]


def measure(count: RequestCounter, messages: list[Message]) -> int:
    """Call the counter on a copy of the request and insist on a non-negative int result."""
    result = count(copied(messages))
    if type(result) is not int or result < 0:
        raise ValueError(f"count must return a non-negative int, got {result!r}")
    return result


def require_counter(count: Any) -> None:
    """Raise naming the argument unless `count` is callable."""
    if not callable(count):
        raise ValueError(f"count must be callable, got {type(count).__name__}")


def measure_base(count: RequestCounter, system: list[Message], turns: list[list[Message]], limit: int) -> int:
    """count(system + latest turn): the smallest request; ValueError naming `limit` when it does not fit."""
    base = measure(count, system + turns[-1])
    if base > limit:
        raise ValueError(f"limit: the system prompt and the latest turn measure {base}, over the limit of {limit}")
    return base


def turn_cost(count: RequestCounter) -> Callable[[list[Message]], int]:
    """cost(turn) = count(turn + [PROBE]) - count([PROBE]): what a turn adds, for an adds_up_by_turn counter."""
    alone = measure(count, [PROBE])
    return lambda turn: measure(count, [*turn, PROBE]) - alone


def counts_that_fit(
    count: RequestCounter, system: list[Message], turns: list[list[Message]], limit: int, base: int
) -> list[int] | None:
    """The fast path: count(system + turns[k:]) for every k that fits, in order of k (the first is the oldest
    turn kept); None when the counter does not add up by turn or refuses a measurement (module doc)."""
    if not adds_up_by_turn(count, bool(system)):
        return None
    try:
        cost = turn_cost(count)
        fits = [base]
        for turn in reversed(turns[:-1]):
            used = fits[-1] + cost(turn)
            if used > limit:
                break
            fits.append(used)
    except ValueError:
        return None  # the plain path measures again and raises its own error
    return fits[::-1]


def pack_history(messages: Any, limit: int, count: RequestCounter) -> History:
    """Drop whole turns, oldest first, until the whole request fits the limit: History(kept request, dropped
    turns); the system prompt and the latest turn always stay (a limit below them is a ValueError)."""
    system, turns = group_turns(messages)
    require_count("limit", limit)
    require_counter(count)
    base = measure_base(count, system, turns, limit)
    fits = counts_that_fit(count, system, turns, limit, base)
    first = len(turns) - len(fits) if fits is not None else _first_kept(count, system, turns, limit)
    return History(system + flatten(turns[first:]), turns[:first])


def _first_kept(count: RequestCounter, system: list[Message], turns: list[list[Message]], limit: int) -> int:
    """The plain path: the whole request with 0, 1, 2, ... oldest turns dropped until one fits (the latest
    turn alone, already measured, fits)."""
    last = len(turns) - 1
    return next((k for k in range(last) if measure(count, system + flatten(turns[k:])) <= limit), last)
