"""Exercise 09's questions (lesson 09, the conversation), for whoever writes or changes that exercise's checks.

A learner never reads this module; they meet its names in counterexamples (`pack_history([...], 30,
count_message_words)`), which exercise 09's setup cell imports from here. Everything lesson 09's checks use
lives here: the stand-in request counters, the generators of valid and broken conversations with tool calls,
each question's fixed cases, and the questions themselves, in `QUESTIONS`. `packer.checking.bank` registers
them after lesson 08's (this module imports the engine and the inputs, never the bank).

The checks count requests with cheap stand-ins, never with a real tokenizer (Mistral's templates cost tens
of milliseconds a request, and the search measures hundreds): the rules do not depend on which counter is
given. The three valid counters differ in what a learner may assume:

- `count_message_words` adds up message by message, so it adds up turn by turn too;
- `count_request_words` (lesson 07's) adds 3 for the reply once per request: a turn measured alone is
  charged that 3 again, so adding up turns measured alone over-counts;
- `count_template_div4` (lesson 07's) divides the whole rendered request by 4 and rounds up once: nothing
  adds up. The questions say the counter must measure each whole candidate request, and this counter holds
  them to it.

The references are the core's own functions (packer.history, packer.clearing, packer.caching), wrapped where
a question returns less than they do.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import strategies as st

import packer.caching
import packer.clearing
import packer.history
import packer.summary
from packer.checking.engine import Question
from packer.checking.inputs import (
    BROKEN_COUNTERS,
    always_0,
    always_1_0,
    always_2_5,
    always_minus_2,
    always_true,
    count_request_words,
    count_template_div4,
)

Message = dict[str, Any]


# --- stand-in request counters (exercise 09's setup cell imports them) ------------------------------------
def count_message_words(messages: list[dict]) -> int:
    """A request counter: 4 per message, 2 more per tool call, plus the whitespace words of every content. It
    adds up: a request measures the sum of its messages' counts."""
    return sum(
        4 + 2 * len(message.get("tool_calls", ())) + len((message["content"] or "").split()) for message in messages
    )


def zero_for_one_turn(messages: list[dict]) -> int:
    """A request counter: 0 for a request of one user message (the system prompt and the latest turn), else
    count_message_words. A limit of 0 then fits the latest turn alone, and nothing more."""
    if sum(message["role"] == "user" for message in messages) <= 1:
        return 0
    return count_message_words(messages)


def words_then_minus_1(messages: list[dict]) -> int:
    """A broken request counter: count_message_words for a request of one turn (one user message), -1 once the
    request holds two (so the system prompt and the latest turn measure fine, and any earlier turn does not)."""
    if sum(message["role"] == "user" for message in messages) > 1:
        return -1
    return count_message_words(messages)


def words_then_minus_1_at_3(messages: list[dict]) -> int:
    """A broken request counter: count_message_words for a request of one or two turns (user messages), -1 once it
    holds three. Only the order q9.2 prescribes (the whole request first, then the oldest turn dropped, ...) is
    sure to meet it: growing the request from the latest turn, or halving, can stop before any three turns."""
    if sum(message["role"] == "user" for message in messages) > 2:
        return -1
    return count_message_words(messages)


CONVERSATION_COUNTERS = (count_message_words, count_request_words, count_template_div4)


# --- messages, as the lesson writes them -------------------------------------------------------------------
def _user(text: str) -> Message:
    return {"role": "user", "content": text}


def _reply(text: str) -> Message:
    return {"role": "assistant", "content": text}


def _call(*ids: str) -> Message:
    """An assistant's calls as OpenAI's SDK sends them: each nested as a function, null content beside them."""
    calls = [
        {"id": key, "type": "function", "function": {"name": "search", "arguments": json.dumps({"query": key})}}
        for key in ids
    ]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def _result(key: str, text: str) -> Message:
    return {"role": "tool", "tool_call_id": key, "content": text}


def _flat(system: list[Message], turns: list[list[Message]]) -> list[Message]:
    return system + [message for turn in turns for message in turn]


# --- generated conversations -------------------------------------------------------------------------------
# A turn is made from a shape (the steps after the user's message), the user's text and the size of its tool
# results. Texts are whitespace words (words decide count_message_words); tool results are 4 to 18 words, mostly
# more than the placeholder's 6, the bulk of a conversation as in the lesson's search agent. Call ids start again at c1 in every turn (an id need only be
# unique within its turn); "swapped" is a call of two tools answered in the other order. Every call's results come
# right after it, the APIs' rule (packer/messages.py): two call messages in a row, the second answered first, is
# one of the defects below, not a shape.
TEXTS = ("", "a", "b c", "a b c", "ab", "日 a")
SHAPES = (
    ("reply",),
    ("call", "reply"),
    ("calls", "reply"),
    ("swapped", "reply"),
    ("reply", "reply"),
    ("call", "call", "reply"),
    ("reply", "call", "reply"),
    ("call",),
    ("calls",),
    ("call", "swapped"),
)
RESULT_WORDS = ("doc", "p1 x", "日")


def _make_turn(shape: tuple[str, ...], text: str, size: int) -> list[Message]:
    """A turn of the given shape: the user's message, then replies and tool rounds (a call of one or two tools,
    then their results), the n-th result of the turn `size + n` words long."""
    messages, made = [_user(text)], 0

    def result(key: str) -> Message:
        words = size + int(key[1:])
        return _result(key, " ".join([RESULT_WORDS[words % 3]] * words))

    for step in shape:
        if step == "reply":
            messages.append(_reply(text[::-1]))
            continue
        ids = [f"c{made + n}" for n in range(1, 2 if step == "call" else 3)]
        made += len(ids)
        messages.append(_call(*ids))
        messages += [result(key) for key in (ids[::-1] if step == "swapped" else ids)]
    return messages


def _pool(size: int, seed: int = 9) -> list[tuple[list[Message], list[list[Message]]]]:
    """`size` valid conversations as (system, turns), drawn with random.Random(seed) (the same every run), smallest
    first: an optional system prompt, up to three earlier turns (each with a reply or a tool round after the
    user's message) and the latest turn (which may be the user's message alone)."""
    rng = random.Random(seed)
    found = []
    for _ in range(size):
        system = [] if rng.random() < 0.4 else [{"role": "system", "content": rng.choice(TEXTS)}]
        shapes = [rng.choice(SHAPES) for _ in range(rng.randint(0, 3))] + [rng.choice(((), *SHAPES))]
        turns = [_make_turn(shape, rng.choice(TEXTS), rng.randint(3, 14)) for shape in shapes]
        found.append((system, turns))
    return sorted(found, key=lambda parts: (len(_flat(*parts)), repr(parts)))


# Drawn by index, so that one draw makes a whole conversation (120 of them are generated in a fraction of a
# second) and a counterexample shrinks towards the smallest conversations, which come first.
POOL = _pool(400)
STRUCTURE = st.integers(0, len(POOL) - 1).map(POOL.__getitem__)
# The conversations of three turns or more: where dropping the oldest turns first and any other order part.
LONG_POOL = [parts for parts in POOL if len(parts[1]) >= 3]
LONG_STRUCTURE = st.integers(0, len(LONG_POOL) - 1).map(LONG_POOL.__getitem__)


CONVERSATION = STRUCTURE.map(lambda parts: _flat(*parts))

# One defect each, at a position the drawn number picks: every break of the rules q9.1 states.
DEFECTS = (
    "unknown role",
    "system later",
    "not user first",
    "two users",
    "result without call",
    "result twice",
    "result twice, apart",
    "result before its call",
    "result of an earlier turn",
    "dangling call",
    "dangling call, another call after it",
    "reply before the result",
    "call id twice",
)


def _broken(parts: tuple[list[Message], list[list[Message]]], defect: str, at: int, pick: int = 0) -> list[Message]:
    """The conversation with one defect, at the place `at` picks (`pick` chooses an unknown role)."""
    system, turns = parts
    turns = [list(turn) for turn in turns]
    flat = _flat(system, turns)
    if defect == "unknown role":
        index = at % len(flat)
        role = ["bot", "System", "USER", "tools", "function", ""][pick % 6]
        return flat[:index] + [{"role": role, "content": flat[index]["content"]}] + flat[index + 1 :]
    if defect == "system later":
        index = 1 + at % len(flat)
        return flat[:index] + [{"role": "system", "content": "again"}] + flat[index:]
    if defect == "not user first":
        return system + [[_reply("hi"), _call("c1"), _result("c1", "r")][at % 3]] + flat[len(system) :]
    if defect == "two users":
        turn = turns[at % len(turns)]
        turn.insert(1, _user("more"))
        return _flat(system, turns)
    if defect == "result without call":
        turn = turns[at % len(turns)]
        turn.insert(1 + at % len(turn), _result("zz", "r"))
        return _flat(system, turns)
    calls = [(t, m) for t, turn in enumerate(turns) for m, message in enumerate(turn) if "tool_calls" in message]
    if not calls:  # a conversation without tool calls gets one that is never answered
        turns[-1].append(_call("c9"))
        return _flat(system, turns)
    t, m = calls[at % len(calls)]
    key = turns[t][m]["tool_calls"][0]["id"]
    answer = next(index for index, message in enumerate(turns[t]) if message.get("tool_call_id") == key)
    if defect == "result twice":
        turns[t].insert(answer + 1, turns[t][answer])
    elif defect == "result twice, apart":  # the second result after a reply, not next to the first
        turns[t] += [_reply("and"), turns[t][answer]]
    elif defect == "result before its call":  # the result moved to just before the message that calls it
        result = turns[t].pop(answer)
        turns[t].insert(m, result)
    elif defect == "result of an earlier turn":
        if t + 1 < len(turns):
            turns[t + 1].append(_result(key, "late"))
        else:
            turns.append([_user("next"), _result(key, "late")])
    elif defect == "dangling call":
        del turns[t][answer]
    elif defect == "dangling call, another call after it":  # still unanswered when the next call is made
        del turns[t][answer]
        turns[t][m + 1 : m + 1] = [_call("c8"), _result("c8", "r")]
    elif defect == "reply before the result":  # answered in its turn, but after another message: the APIs refuse it
        turns[t].insert(m + 1, _reply("wait"))
    else:  # "call id twice": the same id called again in the same turn, and answered
        turns[t] += [_call(key), _result(key, "again")]
    return _flat(system, turns)


# One branch per defect, each as likely as the others: drawn from one sampled_from, a run of 120 derandomized
# inputs could miss a defect altogether (it once drew no "two users").
BROKEN_CONVERSATION = st.one_of(
    *[st.builds(_broken, STRUCTURE, st.just(defect), st.integers(0, 11), st.integers(0, 5)) for defect in DEFECTS]
)
NOT_A_CONVERSATION = st.sampled_from([[], [{"role": "system", "content": "Be brief."}]])

# --- q9.1: group_turns -------------------------------------------------------------------------------------
SYSTEM = {"role": "system", "content": "Be brief."}
SEARCH_TURN = [_user("why"), _call("c1"), _result("c1", "doc doc doc doc"), _reply("because")]
TWO_CALLS_TURN = [_user("and"), _call("c1", "c2"), _result("c2", "b"), _result("c1", "a"), _reply("both")]
LATEST = [_user("so")]
GROUP_CASES = (
    ([SYSTEM, *SEARCH_TURN, *LATEST],),  # the system message belongs to no turn
    ([*SEARCH_TURN, _user("next"), _reply("ok"), *LATEST],),  # no system message: an empty list
    ([_user("hi")],),  # the latest turn may be the user's message alone
    ([SYSTEM, *SEARCH_TURN, *TWO_CALLS_TURN, *LATEST],),  # ids start again in each turn; results in any order
    ([_user("a"), _reply("b"), _reply("c"), _user("d"), _call("c1"), _result("c1", "e")],),  # ends on a result
    ([SYSTEM, _user("a"), _call("c1"), _result("c1", "x"), _call("c2"), _result("c2", "y"), _reply("z")],),
    ([],),  # nothing to group
    ([SYSTEM],),  # a system message alone has no turn
    ([_user("a"), {"role": "bot", "content": "b"}],),  # an unknown role
    ([_user("a"), {"role": "System", "content": "b"}],),  # roles are lower case
    ([{"role": "System", "content": "Be brief."}, _user("a")],),  # ... the system message's too
    ([_user("a"), _reply("b"), SYSTEM, _user("c")],),  # a system message later
    ([SYSTEM, SYSTEM, _user("a")],),  # two system messages
    ([_reply("hi"), _user("a")],),  # the assistant first
    ([SYSTEM, _result("c1", "x"), _user("a")],),  # a tool result first
    ([_user("a"), _user("b"), _reply("c")],),  # two user messages in a row
    ([_user("a"), _reply("b"), _user("c"), _user("d")],),  # ... at the end too
    ([_user("a"), _result("c1", "x"), _reply("b"), _user("c")],),  # a result with no call
    ([_user("a"), _call("c1"), _result("c2", "x"), _user("b")],),  # a result for another id
    ([_user("a"), _call("c1"), _result("c1", "x"), _result("c1", "x"), _user("b")],),  # answered twice
    ([_user("a"), _call("c1"), _user("b"), _result("c1", "x")],),  # answered in the next turn
    ([_user("a"), _call("c1"), _result("c1", "x"), _user("b"), _result("c1", "y")],),  # an earlier turn's call
    ([_user("a"), _call("c1"), _reply("b"), _user("c")],),  # a call never answered
    ([_user("a"), _call("c1", "c2"), _result("c1", "x"), _reply("b"), _user("c")],),  # one of two unanswered
    ([_user("a"), _call("c1")],),  # the latest turn's call needs its result too
    ([_user("a"), _call("c1"), _result("c1", "x"), _call("c1"), _result("c1", "y"), _user("b")],),  # id twice
    ([_user("a"), _call("c1", "c1"), _result("c1", "x"), _result("c1", "y"), _user("b")],),  # in one call
    ([_user("a"), _result("c1", "x"), _call("c1"), _reply("b"), _user("c")],),  # a result before its call
    ([_user("a"), _call("c1"), _call("c2"), _result("c2", "y"), _reply("b")],),  # c1 unanswered, c2 called
    ([_user("a"), _call("c1"), _call("c2"), _result("c2", "y"), _result("c1", "x"), _reply("b")],),  # c1 awaited
    ([_user("a"), _call("c1"), _reply("wait"), _result("c1", "x"), _reply("b")],),  # a reply before the result
    ([_user("a"), _call("c1", "c2"), _result("c1", "x"), _result("c2", "y"), _result("c1", "z"), _reply("b")],),
)
GROUP_INPUTS = st.one_of(st.tuples(CONVERSATION), st.tuples(BROKEN_CONVERSATION), st.tuples(NOT_A_CONVERSATION))

# --- q9.2: pack_history ------------------------------------------------------------------------------------
NOT_A_LIMIT = st.sampled_from([-1, -7, True, False, 12.0, "30", None])


def _suffix_count(parts: tuple[list[Message], list[list[Message]]], k: int, count: Any) -> int:
    """count(system + the turns from the k-th on), k taken modulo the number of turns."""
    system, turns = parts
    return count(_flat(system, turns[k % len(turns) :]))


def _history_args(parts: tuple, k: int, offset: int, count: Any) -> tuple:
    """pack_history arguments whose limit is a request's own count, one under or one over it (never under the
    system prompt and the latest turn): the boundaries where `<` and `<=` part."""
    system, turns = parts
    base = count(_flat(system, turns[-1:]))
    return _flat(system, turns), max(base, _suffix_count(parts, k, count) + offset), count


def _history_under(parts: tuple, short: int, count: Any) -> tuple:
    """pack_history arguments whose limit is `short` under the system prompt and the latest turn."""
    system, turns = parts
    return _flat(system, turns), count(_flat(system, turns[-1:])) - short, count


def _pack_history(messages: Any, limit: int, count: Any) -> tuple[list[Message], list[list[Message]]]:
    """q9.2's reference: (kept request, dropped turns) of packer.history.pack_history."""
    kept, dropped, _ = packer.history.pack_history(messages, limit, count)
    return kept, dropped


# count_message_words: SYSTEM 6; SEARCH_TURN 5 + 6 + 8 + 5 = 24 (a call with no text is 4 + 2), the reply turn
# ("next", "ok") 5 + 5 = 10, LATEST 5. The whole request 45, without its oldest turn 21, the system prompt and
# the latest turn (the least that is ever sent) 11.
TRIM = [SYSTEM, *SEARCH_TURN, _user("next"), _reply("ok"), *LATEST]
HISTORY_CASES = (
    (TRIM, 45, count_message_words),  # everything fits exactly
    (TRIM, 44, count_message_words),  # the oldest turn goes, with its call and result
    (TRIM, 21, count_message_words),  # exactly the system prompt, the reply turn and the latest
    (TRIM, 20, count_message_words),  # one under: only the latest turn stays
    (TRIM, 11, count_message_words),  # the least that is ever sent, exactly
    (TRIM[1:], 39, count_message_words),  # no system message
    ([_user("a b c")], 7, count_message_words),  # a single turn: nothing to drop
    # count_request_words: 3 for the reply once, 3 per message. The requests measure 38, 20 and 12; a turn
    # measured alone is charged the reply's 3 again (the reply turn alone: 11, so 12 + 11 = 23, not 20).
    (TRIM, 38, count_request_words),
    (TRIM, 37, count_request_words),
    (TRIM, 22, count_request_words),
    (TRIM, 20, count_request_words),
    # count_template_div4: the whole rendered request, divided by 4 and rounded up once: 48, 25 and 14 (the
    # reply turn alone measures 14, and 14 + 14 is not 25).
    (TRIM, 48, count_template_div4),
    (TRIM, 47, count_template_div4),
    (TRIM, 25, count_template_div4),
    (TRIM, 24, count_template_div4),
    (TRIM, 14, count_template_div4),
    (TRIM, 0, always_0),  # a limit of 0 and a count of 0 are both valid: everything fits
    (TRIM, 0, zero_for_one_turn),  # a limit of 0 that the latest turn alone fits: the earlier turns go
    (TRIM, 10, count_message_words),  # under the system prompt and the latest turn: ValueError
    (TRIM, -1, count_message_words),
    (TRIM, True, count_message_words),
    (TRIM, True, always_0),  # True is not a limit, even where a limit of 1 would do
    (TRIM, False, always_0),
    (TRIM, 50.0, count_message_words),
    (TRIM, "50", count_message_words),
    (TRIM, None, count_message_words),
    (TRIM, 50, "count_message_words"),
    (TRIM, 50, None),
    (TRIM, 50, always_minus_2),
    (TRIM, 50, always_1_0),
    (TRIM, 50, always_true),
    (TRIM, 50, words_then_minus_1),  # fine on the system prompt and the latest turn, -1 with an earlier one
    (TRIM, 20, words_then_minus_1_at_3),  # -1 on the whole request (three turns), the first one measured after
    (TRIM, 45, words_then_minus_1_at_3),  # the base: its order is prescribed, so every answer meets the -1
    (TRIM, 0, count_message_words),  # a limit of 0 under a base of 11: ValueError, like any limit under it
    (TRIM, 0, count_template_div4),
    ([_user("a b c")], 7, words_then_minus_1),  # one turn: never -1
    ([_user("a"), _call("c1"), _reply("b"), _user("c")], 99, count_message_words),  # q9.1's rules
    ([_user("a"), {"role": "bot", "content": "b"}], 99, count_message_words),
    ([_result("c1", "x"), _user("a")], 99, count_message_words),
    ([], 99, count_message_words),
)
VALID_HISTORY = st.builds(
    _history_args, STRUCTURE, st.integers(0, 3), st.sampled_from([0, -1, -1, 1]), st.sampled_from(CONVERSATION_COUNTERS)
)
LONG_HISTORY = st.builds(  # one or two of three or more turns dropped: the order of the measurements shows
    _history_args, LONG_STRUCTURE, st.integers(1, 2), st.sampled_from([0, -1]), st.sampled_from(CONVERSATION_COUNTERS)
)
HISTORY_INPUTS = st.one_of(  # valid input three times as often as each kind of defect
    VALID_HISTORY,
    VALID_HISTORY,
    LONG_HISTORY,
    st.builds(_history_under, STRUCTURE, st.integers(1, 4), st.sampled_from(CONVERSATION_COUNTERS)),
    st.tuples(CONVERSATION, st.just(0), st.sampled_from(CONVERSATION_COUNTERS)),  # a limit of 0: under every base
    st.tuples(CONVERSATION, st.just(0), st.just(zero_for_one_turn)),  # a limit of 0 the latest turn alone fits
    st.builds(  # a counter that breaks on three turns: the prescribed order meets it first thing after the base
        _history_args, LONG_STRUCTURE, st.integers(0, 3), st.sampled_from([0, -1, 1]), st.just(words_then_minus_1_at_3)
    ),
    st.tuples(CONVERSATION, NOT_A_LIMIT, st.sampled_from((*CONVERSATION_COUNTERS, always_0))),
    st.tuples(
        CONVERSATION, st.integers(40, 99), st.sampled_from([*BROKEN_COUNTERS, words_then_minus_1, None, "count"])
    ),
    st.tuples(BROKEN_CONVERSATION, st.integers(40, 99), st.sampled_from(CONVERSATION_COUNTERS)),
)

# --- q9.3: common_prefix_length ----------------------------------------------------------------------------
IDS = st.lists(st.integers(0, 3), max_size=5)
PREFIX_CASES = (
    ([1, 2, 3], [1, 2, 4]),
    ([1, 2], [1, 2, 3]),  # one request is the start of the other
    ([1, 2, 3], [1, 2]),
    ([1, 2, 3], [1, 2, 3]),
    ([1, 9, 3], [1, 8, 3]),  # only the leading run counts: the 3s match after a difference
    ([5, 1], [6, 1]),
    ([], [1]),
    ([], []),
    ([7, 7, 7], [7, 7]),
)
PREFIX_INPUTS = st.builds(lambda shared, a, b: (shared + a, shared + b), IDS, IDS, IDS)


# --- q9.4: clear_then_drop ---------------------------------------------------------------------------------
def _clear_then_drop(messages: Any, limit: int, count: Any, keep_last: int) -> list[Message]:
    """q9.4's reference: the request packer.clearing.clear_then_drop(keep_last) sends."""
    return packer.clearing.clear_then_drop(keep_last)(messages, limit, count).kept


def _policy_args(parts: tuple, k: int, offset: int, cleared: bool, count: Any, keep_last: int) -> tuple:
    """clear_then_drop arguments whose limit is a request's own count (of the conversation as it is, or with its
    tool results cleared), one under or one over it, never under the system prompt and the latest turn."""
    system, turns = parts
    flat = _flat(system, turns)
    if cleared and any(message["role"] == "tool" for message in flat):
        parts = packer.history.group_turns(packer.clearing.clear_tool_results(flat, keep_last))
    base = count(_flat(system, turns[-1:]))
    return flat, max(base, _suffix_count(parts, k, count) + offset), count, keep_last


# Each turn's call has an id of its own (c1, c2, c3; an id need only be unique within its turn), so that a
# counterexample shows which result differs.
LONG_TURN = [_user("why"), _call("c1"), _result("c1", " ".join(["doc"] * 20)), _reply("because")]
OTHER_TURN = [_user("how"), _call("c2"), _result("c2", " ".join(["page"] * 12)), _reply("so")]
AGENT = [SYSTEM, *LONG_TURN, *OTHER_TURN, _user("now"), _call("c3"), _result("c3", "a b c d e")]
POLICY_CASES = (
    # count_message_words: the system prompt 6, LONG_TURN 5 + 6 + 24 + 5 = 40, OTHER_TURN 5 + 6 + 16 + 5 = 32, the
    # latest turn 5 + 6 + 9 = 20; a cleared result measures 4 + 6 = 10. As it is, the requests measure 98, 58
    # and 26; with every result but the last cleared 78, 52 and 26; but the last two 84, 58, 26; all 79, 53, 27.
    (AGENT, 98, count_message_words, 1),  # everything fits: sent as it is, nothing cleared
    (AGENT, 97, count_message_words, 1),  # cleared, all the turns fit (78)
    (AGENT, 78, count_message_words, 1),  # exactly
    (AGENT, 77, count_message_words, 1),  # one under: the oldest turn goes too, cleared OTHER_TURN stays (52)
    (AGENT, 84, count_message_words, 2),  # keep the last two results: only the oldest is cleared
    (AGENT, 83, count_message_words, 2),
    (AGENT, 79, count_message_words, 0),  # keep none: the latest turn's result is cleared too
    (AGENT, 78, count_message_words, 0),
    (AGENT, 97, count_message_words, 3),  # three results kept: nothing to clear, only turns dropped
    (AGENT, 97, count_message_words, 4),  # more than there are: nothing to clear either
    (AGENT, 97, count_message_words, 5),
    (AGENT, 52, count_message_words, 1),
    (AGENT, 51, count_message_words, 1),  # only the latest turn stays
    (AGENT, 26, count_message_words, 1),  # the system prompt and the latest turn as they are, exactly
    (AGENT, 26, count_message_words, 0),  # cleared, the latest result grows from 9 to 10: ValueError
    (AGENT, 25, count_message_words, 1),  # under the system prompt and the latest turn: ValueError
    (AGENT, 63, count_request_words, 1),  # 83, 49, 23 as it is; 63, 43, 23 cleared
    (AGENT, 62, count_request_words, 1),
    (AGENT, 98, count_template_div4, 1),  # 99, 59, 26 as it is; 83, 54, 26 cleared
    (AGENT, 83, count_template_div4, 1),
    (AGENT, 82, count_template_div4, 1),
    (AGENT, 32, count_template_div4, 0),  # 26 as it is; cleared, the latest turn measures 33: ValueError
    (AGENT, 97, count_message_words, -1),
    (AGENT, 97, count_message_words, True),
    (AGENT, 97, count_message_words, 1.0),
    (AGENT, 200, count_message_words, None),  # a bad keep_last is refused even when everything fits
    (AGENT, 97, always_2_5, 1),
    (AGENT, 97.0, count_message_words, 1),
    ([_user("a"), _call("c1"), _reply("b"), _user("c")], 99, count_message_words, 1),
)
KEEP_LAST = st.integers(0, 3)
POLICY_INPUTS = st.one_of(
    st.builds(
        _policy_args,
        STRUCTURE,
        st.integers(0, 3),
        st.sampled_from([0, 0, -1, 1]),
        st.booleans(),
        st.sampled_from(CONVERSATION_COUNTERS),
        KEEP_LAST,
    ),
    st.builds(
        lambda args, keep_last: (*args, keep_last),
        st.builds(_history_under, STRUCTURE, st.integers(1, 4), st.sampled_from(CONVERSATION_COUNTERS)),
        KEEP_LAST,
    ),
    st.tuples(CONVERSATION, st.integers(40, 99), st.sampled_from(CONVERSATION_COUNTERS), NOT_A_LIMIT),
    st.tuples(CONVERSATION, NOT_A_LIMIT, st.sampled_from(CONVERSATION_COUNTERS), KEEP_LAST),
    st.tuples(BROKEN_CONVERSATION, st.integers(40, 99), st.sampled_from(CONVERSATION_COUNTERS), KEEP_LAST),
)

# --- q9.5: predict -----------------------------------------------------------------------------------------
PREDICT_CONVERSATION = [
    {"role": "system", "content": "Answer from the search results and cite their ids."},
    *[_user("What does yield do?"), _call("c1"), _result("c1", " ".join(["[p1] yield pauses a generator"] * 6))],
    _reply("It pauses the generator [p1]."),
    *[_user("And return?"), _call("c1"), _result("c1", " ".join(["[p2] return ends a function"] * 5))],
    _reply("It ends the function [p2]."),
    *[_user("Is raise a statement?"), _call("c1"), _result("c1", " ".join(["[p3] raise is a statement"] * 3))],
]
PREDICT_LIMIT = 110
PREDICT_KEEP_LAST = 1


def _turns_in(request: list[Message]) -> int:
    return sum(message["role"] == "user" for message in request)


def _predict_q9_5() -> tuple[int, int, int]:
    dropped_only = _pack_history(PREDICT_CONVERSATION, PREDICT_LIMIT, count_message_words)[0]
    cleared = _clear_then_drop(PREDICT_CONVERSATION, PREDICT_LIMIT, count_message_words, PREDICT_KEEP_LAST)
    return _turns_in(dropped_only), _turns_in(cleared), count_message_words(cleared)


QUESTIONS = (
    Question(
        "q9.1",
        "group_turns",
        3,
        "group a conversation into turns, refusing one that breaks the rules",
        packer.history.group_turns,
        cases=GROUP_CASES,
        inputs=GROUP_INPUTS,
    ),
    Question(
        "q9.2",
        "pack_history",
        3,
        "drop whole turns, oldest first, until the whole request fits",
        _pack_history,
        cases=HISTORY_CASES,
        inputs=HISTORY_INPUTS,
    ),
    Question(
        "q9.3",
        "common_prefix_length",
        1,
        "the cached prefix: how many leading token ids two requests share",
        packer.caching.common_prefix_length,
        cases=PREFIX_CASES,
        inputs=PREFIX_INPUTS,
    ),
    Question(
        "q9.4",
        "clear_then_drop",
        3,
        "a policy: clear old tool results before dropping turns",
        _clear_then_drop,
        cases=POLICY_CASES,
        inputs=POLICY_INPUTS,
    ),
    Question(
        "q9.5",
        "predict_q9_5",
        1,
        "predict: how many turns dropping alone and clearing first keep",
        _predict_q9_5,
        cases=((),),
        predict=tuple[int, int, int],
    ),
)
REFERENCE_MODULES = (packer.history, packer.clearing, packer.summary, packer.caching)  # answers may not call them

__all__ = [
    "CONVERSATION_COUNTERS",
    "PREDICT_CONVERSATION",
    "PREDICT_KEEP_LAST",
    "PREDICT_LIMIT",
    "QUESTIONS",
    "REFERENCE_MODULES",
    "count_message_words",
    "words_then_minus_1",
    "words_then_minus_1_at_3",
]
