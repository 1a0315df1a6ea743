"""Lesson 09, the conversation: turns, trimming by whole turns, clearing old tool results, a summary in place
of the dropped turns, and what a real conversation's requests share (the rule functions of the cached prefix
are in test_caching.py).

The contract first, with a toy counter whose numbers can be worked by hand; then each refusal, naming the
message; then the fast path of packer/history.py: the claim its argument proves, and the same results as
re-measuring on generated, adversarial and real conversations for every shipped counter.
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import packer.chat
import packer.history
import packer.summary
from packer.caching import common_prefix_length
from packer.chat import adds_up_by_turn, chat_counters, mistral_chat, mistral_ids, mistral_text
from packer.clearing import PLACEHOLDER, clear_then_drop, clear_tool_results, edit_then_drop
from packer.history import History, flatten, group_turns, pack_history, turn_cost
from packer.summary import pack_with_summary

pytest.importorskip("mistral_common", reason="mistral-common (Mistral's templates) is not installed: run `make venv`")
pytest.importorskip(
    "sentencepiece", reason="sentencepiece (Mistral's tokenizer models) is not installed: run `make venv`"
)


def words(messages):
    """A toy request counter: 4 per message, 2 per tool call, plus the whitespace words of every content."""
    return sum(4 + 2 * len(m.get("tool_calls", ())) + len((m["content"] or "").split()) for m in messages)


def user(text):
    return {"role": "user", "content": text}


def reply(text):
    return {"role": "assistant", "content": text}


def call(*ids):
    """The assistant's calls, as OpenAI's SDK sends them: null content beside them."""
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": i, "type": "function", "function": {"name": "search", "arguments": "{}"}} for i in ids],
    }


def result(call_id, text="r"):
    return {"role": "tool", "tool_call_id": call_id, "content": text}


SYSTEM = {"role": "system", "content": "Be brief."}
TURNS = [
    [user("one two"), reply("a b c")],
    [user("three"), call("c1"), result("c1", "r r r r"), reply("done")],
    [user("four five six"), reply("ok")],
    [user("last")],
]
CONVERSATION = [SYSTEM, *flatten(TURNS)]
# Under `words`: the system message 6; the turns 13 (6 + 7), 24 (5 + 6 + 8 + 5), 12 (7 + 5) and 5. The whole
# request measures 60; the system prompt and the latest turn, the least that is ever sent, 11.


# --- turns ----------------------------------------------------------------------------------------------


def test_a_turn_is_a_user_message_and_everything_after_it_up_to_the_next_one():
    assert group_turns(CONVERSATION) == ([SYSTEM], TURNS)
    assert words(CONVERSATION) == 60


def test_the_system_message_is_optional_and_belongs_to_no_turn():
    assert group_turns(flatten(TURNS)) == ([], TURNS)
    assert group_turns([user("hi")]) == ([], [[user("hi")]])


def test_the_latest_turn_may_stop_at_a_tool_result_or_a_user_message():
    pending = [user("q"), call("c1"), result("c1")]
    assert group_turns(pending) == ([], [pending])


def test_call_ids_may_repeat_in_another_turn():
    again = [[user("a"), call("c1"), result("c1"), reply("x")], [user("b"), call("c1"), result("c1")]]
    assert group_turns(flatten(again)) == ([], again)


def test_several_calls_answered_in_any_order_within_their_turn():
    turn = [user("q"), call("c1", "c2"), result("c2"), result("c1"), call("c3"), result("c3"), reply("x")]
    assert group_turns([*turn, user("next")])[1] == [turn, [user("next")]]


def test_group_turns_and_pack_history_keep_the_callers_own_messages():
    system, turns = group_turns(CONVERSATION)
    assert system[0] is SYSTEM and all(a is b for turn, given in zip(turns, TURNS) for a, b in zip(turn, given))
    kept = pack_history(CONVERSATION, 1000, words).kept
    assert all(a is b for a, b in zip(kept, CONVERSATION))


BAD_CONVERSATIONS = [
    (None, "messages must be a non-empty list"),
    ([], "messages must be a non-empty list"),
    ([SYSTEM], "messages: a system message alone has no turn to keep"),
    ([{"role": "bot", "content": "x"}], "message 0: role must be one of system, developer, user, assistant, tool"),
    ([user("a"), {"role": "user"}], "message 1: missing 'content'"),
    ([user("a"), SYSTEM], "message 1: a system message may come only first, and only once"),
    ([SYSTEM, SYSTEM, user("a")], "message 1: a system message may come only first"),
    ([SYSTEM, reply("a"), user("b")], "message 1: the conversation must start with a user message"),
    ([result("c1"), user("b")], "message 0: the conversation must start with a user message"),
    ([user("a"), user("b")], "message 1: two user messages in a row"),
    ([SYSTEM, user("a"), reply("x"), user("b"), user("c")], "message 4: two user messages in a row"),
    ([user("a"), result("c1")], "message 1: a tool result for 'c1', no call in its turn awaits"),
    ([user("a"), reply("x"), result("c1")], "message 2: a tool result for 'c1'"),
    (
        [user("a"), call("c1"), result("c1"), reply("x"), user("b"), result("c1")],
        "message 5: a tool result for 'c1', no call in its turn awaits",
    ),
    ([user("a"), call("c1"), result("c1"), result("c1")], "message 3: a tool result for 'c1'"),
    ([user("a"), call("c1"), result("c2")], "message 2: a tool result for 'c2'"),
    ([user("a"), call("c1"), user("b")], "message 2: tool call 'c1' of message 1 has no result before this user"),
    ([user("a"), call("c1"), reply("hm"), user("b")], "message 2: tool call 'c1' of message 1 has no result before"),
    (  # the APIs' rule: a second call before the first one's result (mistral-common, OpenAI and Anthropic refuse it)
        [user("a"), call("c1"), call("c2"), result("c2"), result("c1")],
        "message 2: tool call 'c1' of message 1 has no result before this assistant message",
    ),
    ([SYSTEM, user("a"), call("c1")], "message 2: tool call 'c1' has no result in its turn"),
    ([user("a"), call("c1", "c2"), result("c1")], "message 1: tool call 'c2' has no result"),
    ([user("a"), call("c1", "c2"), result("c2")], "message 1: tool call 'c1' has no result"),
    ([user("a"), call("c1", "c1")], "message 1: tool call id 'c1' is used twice in one turn"),
    ([user("a"), call("c1"), result("c1"), call("c1"), result("c1")], "message 3: tool call id 'c1' is used twice"),
    ([user("a"), {**call("c1"), "tool_calls": [{"id": "c1"}]}], "message 1: tool call 0: type must be 'function'"),
]


@pytest.mark.parametrize(("messages", "error"), BAD_CONVERSATIONS)
def test_a_conversation_out_of_order_is_refused_naming_the_message(messages, error):
    with pytest.raises(ValueError, match=error):
        group_turns(messages)
    with pytest.raises(ValueError, match=error):
        pack_history(messages, 100, words)


# --- trimming by whole turns ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("limit", "dropped"),
    [(1000, 0), (60, 0), (59, 1), (47, 1), (46, 2), (23, 2), (22, 3), (11, 3)],
)
def test_whole_turns_are_dropped_oldest_first_until_the_request_fits(limit, dropped):
    kept, gone, summary = pack_history(CONVERSATION, limit, words)
    assert kept == [SYSTEM, *flatten(TURNS[dropped:])]
    assert gone == TURNS[:dropped]
    assert summary == ""
    assert words(kept) <= limit


def test_the_result_is_a_history_of_the_request_and_the_dropped_turns():
    history = pack_history(CONVERSATION, 47, words)
    assert isinstance(history, History)
    assert history.kept == [SYSTEM, *flatten(TURNS[1:])] and history.dropped == TURNS[:1]
    assert words(history.kept) == 47


def test_a_call_and_its_result_go_together_with_their_turn():
    kept = pack_history(CONVERSATION, 46, words).kept
    assert [m["role"] for m in kept] == ["system", "user", "assistant", "user"]


def test_without_a_system_prompt_the_latest_turn_alone_is_the_least():
    assert pack_history(flatten(TURNS), 5, words) == History([user("last")], TURNS[:3])
    with pytest.raises(ValueError, match="limit: the system prompt and the latest turn measure 5, over the limit of 4"):
        pack_history(flatten(TURNS), 4, words)


def test_a_limit_below_the_system_prompt_and_the_latest_turn_is_refused_saying_what_they_measure():
    with pytest.raises(
        ValueError, match="limit: the system prompt and the latest turn measure 11, over the limit of 10"
    ):
        pack_history(CONVERSATION, 10, words)


def test_the_plain_path_measures_the_least_then_each_candidate_from_none_dropped_and_stops_at_the_first_fit():
    seen = []

    def recording(messages):
        seen.append(len(messages))
        return words(messages)

    pack_history(CONVERSATION, 23, recording)
    assert seen == [2, 10, 8, 4], "the least (system, latest), then 0, 1 and 2 turns dropped"
    seen.clear()
    pack_history(CONVERSATION, 11, recording)
    assert seen == [2, 10, 8, 4], "the latest turn alone, measured first, is not measured again"


def test_the_first_candidate_that_fits_in_the_order_of_trying_is_kept_whatever_the_counter_does():
    """The contract is the order of trying, not the longest suffix: with a counter that is not monotone, the
    first candidate that fits wins."""
    costs = {10: 50, 8: 10, 4: 45, 2: 5}  # by number of messages: the whole request, 1, 2 and 3 turns dropped
    assert pack_history(CONVERSATION, 20, lambda m: costs[len(m)]).dropped == TURNS[:1]
    costs[8] = 30
    assert pack_history(CONVERSATION, 20, lambda m: costs[len(m)]).dropped == TURNS[:3]


def test_the_counter_gets_copies_so_it_cannot_change_what_is_returned():
    def vandal(messages):
        total = words(messages)
        for message in messages:
            message["content"] = "changed"
            for tool_call in message.get("tool_calls", ()):
                tool_call["id"] = "changed"
        messages.append(user("x"))
        return total

    assert pack_history(CONVERSATION, 47, vandal) == pack_history(CONVERSATION, 47, words)
    assert TURNS[1][1]["tool_calls"][0]["id"] == "c1"


def test_a_limit_of_zero_fits_a_request_that_counts_zero():
    assert pack_history(CONVERSATION, 0, lambda messages: 0).dropped == []


BAD_ARGUMENTS = [
    (dict(limit=-1), "limit must be a non-negative int"),
    (dict(limit=True), "limit must be a non-negative int"),
    (dict(limit=60.0), "limit must be a non-negative int"),
    (dict(count="words"), "count must be callable"),
    (dict(count=lambda m: 2.5), "count must return a non-negative int, got 2.5"),
    (dict(count=lambda m: -1), "count must return a non-negative int, got -1"),
    (dict(count=lambda m: True), "count must return a non-negative int, got True"),
]


@pytest.mark.parametrize(("change", "error"), BAD_ARGUMENTS)
def test_bad_arguments_are_a_value_error_naming_them(change, error):
    arguments = dict(messages=CONVERSATION, limit=60, count=words) | change
    with pytest.raises(ValueError, match=error):
        pack_history(**arguments)


def test_a_counter_result_is_checked_for_every_candidate_not_only_the_least():
    calls = iter([11, 70, None])
    with pytest.raises(ValueError, match="count must return a non-negative int, got None"):
        pack_history(CONVERSATION, 20, lambda messages: next(calls))


def test_the_conversation_is_checked_before_any_counting():
    def refuse(messages):
        raise AssertionError("counted before checking")

    with pytest.raises(ValueError, match="message 2: tool call 'c1' of message 1 has no result"):
        pack_history([user("a"), call("c1"), user("b")], 100, refuse)


# --- the fast path: its claim, and the same results as re-measuring ---------------------------------------

SEARCH_TOOL = {
    "type": "function",
    "function": {"name": "search", "description": "Search the docs", "parameters": {"type": "object"}},
}
COUNTERS = {
    **chat_counters(),
    "Mistral v3 with a tool": mistral_chat("v3", tools=[SEARCH_TOOL]),
    "Mistral v7 with a tool": mistral_chat("v7", tools=[SEARCH_TOOL]),
}
TOOL_READY = {name for name in COUNTERS if name.startswith(("Mistral v3", "Mistral v7"))}
# Pieces of text on either side of the joins between messages: whitespace runs, line breaks, byte-fallback
# characters, CJK, emoji, digits, look-alikes of the templates' control tokens, JSON.
PIECES = [
    *[" ", "  ", "\n", "\n\n", " \n", "\t", "\r\n", "\u00a0"],
    *["0", "42", "漢字", "🙂", "𝔘", "é", "Ж", "x", "word", "The", "'s", ".", "?"],
    *["[INST]", "[/INST]", "</s>", "[TOOL_CALLS]", "[TOOL_RESULTS]", "[SYSTEM_PROMPT]", "▁", '{"a": 1}', "[1, 2]"],
]
texts = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
replies = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join)
ARGUMENTS = ['{"query": "x"}', "{}", '{"q": "漢字\\n"}', "[1, 2]", '"text"', "null", '{"a": {"b": [1, "[INST]"]}}']


@st.composite
def conversations(draw, tools: bool, max_turns: int = 5):
    """A valid conversation (group_turns accepts it): an optional system prompt, earlier turns each ending
    with the assistant's text, the latest ending with the user's message or a tool result."""
    ids = (f"call{n:05d}" for n in itertools.count())  # 9 letters and digits, as Mistral's v3+ require
    system = draw(st.one_of(st.none(), st.just("Be brief."), texts))
    messages = [] if system is None else [{"role": "system", "content": system}]
    number = draw(st.integers(1, max_turns))
    for index in range(number):
        messages.append(user(draw(texts)))
        for _ in range(draw(st.integers(0, 2)) if tools else 0):
            calls = [
                {
                    "id": next(ids),
                    "type": "function",
                    "function": {
                        "name": draw(st.sampled_from(["search", "look_up"])),
                        "arguments": draw(st.sampled_from(ARGUMENTS)),
                    },
                }
                for _ in range(draw(st.integers(1, 2)))
            ]
            messages.append({"role": "assistant", "content": draw(st.sampled_from([None, ""])), "tool_calls": calls})
            messages += [result(c["id"], draw(texts)) for c in calls]
        if index < number - 1:
            messages.append(reply(draw(replies)))
    return messages


@st.composite
def cases(draw):
    """(counter name, conversation): tool traffic only for the counters that render it."""
    name = draw(st.sampled_from(sorted(COUNTERS)))
    return name, draw(conversations(tools=name in TOOL_READY and draw(st.booleans())))


def plain(count):
    """A learner's own callable with the same counts: pack_history re-measures with it."""
    return lambda messages: count(messages)


def outcome(function, *args):
    """The result, or the ValueError's text: both paths must agree on either."""
    try:
        return function(*args)
    except ValueError as error:
        return ("ValueError", str(error))


def remeasured(messages, limit, count):
    """An independent re-measurement, written from the contract: the first suffix of whole turns that fits."""
    system, turns = group_turns(messages)
    if count(system + turns[-1]) > limit:
        raise ValueError("limit")
    for k in range(len(turns)):
        request = system + [message for turn in turns[k:] for message in turn]
        if count(request) <= limit:
            return request, turns[:k]


def limits(count, messages, eighths):
    """A limit at eighths of the way from the least request to the whole one (1000 if the counter refuses)."""
    system, turns = group_turns(messages)
    try:
        least, whole = count(system + turns[-1]), count(messages)
    except ValueError:
        return 1000
    return least + (whole - least) * eighths // 8


@settings(max_examples=120, deadline=None)
@given(case=cases())
def test_a_request_counts_as_its_base_plus_each_earlier_turns_own_cost(case):
    name, messages = case
    count = COUNTERS[name]
    system, turns = group_turns(messages)
    assume(adds_up_by_turn(count, bool(system)))
    try:
        whole = count(messages)
    except ValueError:
        assume(False)
    cost = turn_cost(count)
    base = count(system + turns[-1])
    assert whole == base + sum(cost(turn) for turn in turns[:-1])
    for k in range(1, len(turns)):
        assert count(system + flatten(turns[k:])) == base + sum(cost(turn) for turn in turns[k:-1])


@settings(max_examples=150, deadline=None)
@given(case=cases(), eighths=st.integers(0, 8), nudge=st.integers(-1, 1))
def test_fast_and_plain_paths_return_identical_results(case, eighths, nudge):
    name, messages = case
    count = COUNTERS[name]
    limit = max(0, limits(count, messages, eighths) + nudge)
    fast = outcome(pack_history, messages, limit, count)
    assert fast == outcome(pack_history, messages, limit, plain(count))
    if isinstance(fast, History):
        assert tuple(fast[:2]) == remeasured(messages, limit, count)
        assert count(fast.kept) <= limit


def test_v1_with_a_system_prompt_does_not_add_up_by_turn_so_it_is_re_measured():
    """v1 writes the system prompt into the first user message kept, where the text after its "\\n\\n" loses
    SentencePiece's leading "▁": "yield" then costs 2 tokens instead of 1."""
    count = mistral_chat("v1")
    system, first, latest = [SYSTEM], [user("yield"), reply("ok")], [user("Why?")]
    assert count(system + first + latest) == 26
    assert count(system + latest) + turn_cost(count)(first) == 25
    assert not adds_up_by_turn(count, system=True) and adds_up_by_turn(count, system=False)
    assert "Be▁brief.<0x0A><0x0A>yield▁[/INST]" in mistral_text(system + first + latest, "v1")


ADVERSARIAL = [
    [SYSTEM, user("yield"), reply("ok"), user("Python"), reply(" okay "), user("1")],  # v1's seams
    [user("\n"), reply("\n\n"), user(" "), reply("[INST]"), user("漢字")],
    [user("a"), call("aaaaaaaa1"), result("aaaaaaaa1", '{"x": [1, 2]}'), reply("b"), user("c")],
    [user("a"), call("aaaaaaaa1", "aaaaaaaa2"), result("aaaaaaaa2"), result("aaaaaaaa1"), reply("b"), user("c")],
    [user("a"), call("aaaaaaaa1"), result("aaaaaaaa1"), user("refused by Mistral: a user after a tool result")],
    [user("a"), reply(""), user("refused by Mistral: an empty reply")],
    [{"role": "system", "content": ""}, user("a"), reply("b"), user("c")],
]


@pytest.mark.parametrize("messages", ADVERSARIAL)
@pytest.mark.parametrize("name", sorted(COUNTERS))
def test_fast_and_plain_paths_agree_on_adversarial_conversations(name, messages):
    count = COUNTERS[name]
    for eighths in range(9):
        limit = limits(count, messages, eighths)
        assert outcome(pack_history, messages, limit, count) == outcome(pack_history, messages, limit, plain(count))


def refuse(*args):
    raise AssertionError("the plain path was taken")


@pytest.mark.parametrize("name", sorted(COUNTERS))
def test_a_shipped_counter_takes_the_fast_path(name, monkeypatch):
    monkeypatch.setattr(packer.history, "_first_kept", refuse)
    count = COUNTERS[name]
    messages = flatten([[user(f"q{i}"), reply(f"a{i}")] for i in range(5)]) + [user("q")]
    limit = count(messages[-5:])
    kept, dropped, _ = pack_history(messages, limit, count)
    assert kept == messages[-5:] and len(dropped) == 3


def test_v1_with_a_system_prompt_and_any_other_callable_take_the_plain_path(monkeypatch):
    monkeypatch.setattr(packer.history, "_first_kept", refuse)
    for count, system in ((mistral_chat("v1"), [SYSTEM]), (plain(mistral_chat("v7")), []), (words, [])):
        with pytest.raises(AssertionError, match="plain path"):
            pack_history(system + [user("a"), reply("b"), user("c")], 1000, count)


@pytest.mark.parametrize("name", sorted(COUNTERS))
def test_text_that_is_not_utf_8_is_refused_before_counting(name):
    messages = [user("a"), reply("x\ud800"), user("c")]
    with pytest.raises(ValueError, match="message 1: content is not valid UTF-8"):
        pack_history(messages, 500, COUNTERS[name])


def test_a_measurement_refused_on_the_fast_path_sends_it_to_the_plain_path():
    """mistral-common refuses a user message right after a tool result; the plain path then raises the counter's
    error, which names the message."""
    messages = ADVERSARIAL[4]
    with pytest.raises(ValueError, match=r"message \d+: a user message right after a tool result"):
        pack_history(messages, 1000, COUNTERS["Mistral v7 (exact)"])


# --- clearing old tool results -------------------------------------------------------------------------

AGENT = [
    [user("q1"), call("c1"), result("c1", "a b c d e f g h"), reply("x")],
    [user("q2"), call("c2"), result("c2", "a b c d e f g h"), reply("x")],
    [user("q3"), call("c3"), result("c3", "a b c d e f g h"), reply("x")],
    [user("q4"), call("c4"), result("c4", "a b c d e f g h")],
]
# Under `words`: each earlier turn 5 + 6 + 12 + 5 = 28, the latest 23, the whole 107. A cleared result, with
# the 6 words of PLACEHOLDER, costs 10 instead of 12.


def test_old_tool_results_give_way_to_a_placeholder_that_keeps_the_call_id():
    cleared = clear_tool_results(flatten(AGENT), keep_last=1)
    results = [m for m in cleared if m["role"] == "tool"]
    assert results == [result("c1", PLACEHOLDER), result("c2", PLACEHOLDER), result("c3", PLACEHOLDER), AGENT[3][2]]
    assert [m for m in cleared if m["role"] != "tool"] == [m for m in flatten(AGENT) if m["role"] != "tool"]
    assert group_turns(cleared)[1][0] == [user("q1"), call("c1"), result("c1", PLACEHOLDER), reply("x")]


@pytest.mark.parametrize(("keep_last", "cleared"), [(0, 4), (1, 3), (3, 1), (4, 0), (9, 0)])
def test_the_last_keep_last_results_stay(keep_last, cleared):
    after = clear_tool_results([SYSTEM, *flatten(AGENT)], keep_last=keep_last, placeholder="gone")
    assert [m["content"] for m in after if m["role"] == "tool"] == ["gone"] * cleared + ["a b c d e f g h"] * (
        4 - cleared
    )
    assert after[0] == SYSTEM


def test_clearing_keeps_the_last_three_results_by_default_and_leaves_the_callers_messages_alone():
    messages = flatten(AGENT)
    after = clear_tool_results(messages)
    assert [m["content"] for m in after if m["role"] == "tool"][0] == PLACEHOLDER
    assert [m["content"] for m in after if m["role"] == "tool"][1:] == ["a b c d e f g h"] * 3
    assert messages == flatten(AGENT)


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        (dict(keep_last=-1), "keep_last must be a non-negative int"),
        (dict(keep_last=1.0), "keep_last must be a non-negative int"),
        (dict(placeholder=None), "placeholder must be a str"),
        (dict(messages=[user("a"), result("c1")]), "message 1: a tool result"),
    ],
)
def test_clearing_refuses_bad_arguments(arguments, error):
    with pytest.raises(ValueError, match=error):
        clear_tool_results(**(dict(messages=flatten(AGENT)) | arguments))
    if "messages" not in arguments:
        with pytest.raises(ValueError, match=error):
            clear_then_drop(**arguments)


def test_clearing_old_results_keeps_more_turns_than_dropping_turns_alone():
    messages = flatten(AGENT)
    assert pack_history(messages, 100, words).dropped == AGENT[:1]  # 107 - 28 = 79 fits
    assert pack_history(messages, 78, words).dropped == AGENT[:2]  # 51
    policy = clear_then_drop(keep_last=1)
    assert words(clear_tool_results(messages, keep_last=1)) == 101
    assert policy(messages, 101, words) == History(clear_tool_results(messages, keep_last=1), [])
    kept, dropped, _ = policy(messages, 78, words)  # 101 - 26 = 75 fits with one turn dropped
    assert dropped == AGENT[:1] and words(kept) == 75
    assert kept == clear_tool_results(messages, keep_last=1)[4:]


def test_the_clearing_policy_keeps_the_last_three_results_by_default():
    messages = flatten(AGENT)
    assert words(clear_tool_results(messages, keep_last=3)) == 105
    assert clear_then_drop()(messages, 105, words) == History(clear_tool_results(messages, keep_last=3), [])
    assert clear_then_drop(keep_last=4)(messages, 105, words).dropped == AGENT[:1]


def test_a_conversation_that_fits_is_not_edited():
    def edit(messages):
        raise AssertionError("edited a conversation that fits")

    assert edit_then_drop(edit)(flatten(AGENT), 107, words) == History(flatten(AGENT), [])


def test_the_dropped_turns_are_returned_as_they_were_before_the_edit():
    kept, dropped, _ = clear_then_drop(keep_last=0)(flatten(AGENT), 60, words)
    assert dropped == AGENT[:2]
    assert kept == [m if m["role"] != "tool" else {**m, "content": PLACEHOLDER} for m in flatten(AGENT[2:])]


@pytest.mark.parametrize(
    "edit",
    [
        lambda messages: [*messages, reply("y")][-len(messages) :],  # one message shifted out: q1's place taken
        lambda messages: [*messages[:3], reply("y"), *messages[4:], reply("z")],  # a reply added at the end
    ],
)
def test_an_edit_must_keep_every_message_role_and_place(edit):
    with pytest.raises(ValueError, match="edit must keep every message's role and place|message 0: the conversation"):
        edit_then_drop(edit)(flatten(AGENT), 60, words)


def test_an_edit_that_breaks_the_pairs_is_refused_naming_the_message():
    with pytest.raises(ValueError, match="message 2: a tool result for 'zz'"):
        edit_then_drop(lambda m: [*m[:2], {**m[2], "tool_call_id": "zz"}, *m[3:]])(flatten(AGENT), 60, words)


def test_an_edit_must_be_callable():
    with pytest.raises(ValueError, match="edit must be callable, got str"):
        edit_then_drop("clear")


# --- a real agent's conversation, with Mistral's templates -----------------------------------------------


@pytest.fixture(scope="module")
def transcript():
    from packer.lab.agent_transcript import agent_transcript

    return agent_transcript(30)


@pytest.fixture(scope="module")
def v7():
    from packer.lab.agent_transcript import SEARCH_TOOL

    return mistral_chat("v7", tools=[SEARCH_TOOL])


def test_the_transcript_is_made_here_the_same_every_run(transcript):
    from packer.lab.agent_transcript import agent_transcript

    system, turns = group_turns(transcript)
    assert len(turns) == 30 and system[0]["content"].startswith("You are a search assistant")
    assert [m["role"] for m in turns[0]] == ["user", "assistant", "tool", "assistant"]
    assert [m["role"] for m in turns[-1]] == ["user", "assistant", "tool"]
    assert agent_transcript(30) == transcript and agent_transcript(30, seed=1) != transcript
    assert agent_transcript(3, seed=1) == agent_transcript(30, seed=1)[:12], "a longer transcript begins the same"
    calls = [c for m in transcript for c in m.get("tool_calls", ())]
    assert all(len(c["id"]) == 9 and c["id"].isalnum() for c in calls) and len({c["id"] for c in calls}) == 30
    assert json.loads(calls[0]["function"]["arguments"]) == {"query": turns[0][0]["content"]}


def test_tool_results_are_the_bulk_of_the_transcript(transcript, v7):
    cleared = clear_tool_results(transcript, keep_last=0, placeholder="")
    assert v7(transcript) == 18730
    assert v7(cleared) == 3317


def test_real_mistral_counts_trim_the_transcript_to_an_8k_window(transcript, v7):
    history = pack_history(transcript, 8192, v7)
    assert len(history.dropped) == 19 and v7(history.kept) == 7332
    assert history == pack_history(transcript, 8192, plain(v7))
    cleared = clear_then_drop(keep_last=3)(transcript, 8192, v7)
    assert cleared.dropped == [] and v7(cleared.kept) == 4815
    assert clear_then_drop(keep_last=3)(transcript, 4815, v7).dropped == [], "all 30 turns down to 4,815 (lesson 09)"
    assert len(clear_then_drop(keep_last=3)(transcript, 4814, v7).dropped) == 1
    summarised = pack_with_summary(transcript, 8192, v7)
    assert len(summarised.dropped) == 19 and v7(summarised.kept) == 7619
    assert summarised.summary.startswith("What happens to the exception when a raise statement runs inside")
    assert summarised == pack_with_summary(transcript, 8192, plain(v7))


def test_the_fast_paths_probe_costs_what_the_docstring_says(v7):
    """packer/history.py: u, the empty user message, is 84 tokens under v7 with lesson 09's search tool, 81 of
    them the tool definitions."""
    assert v7([packer.history.PROBE]) == 84 and mistral_chat("v7")([packer.history.PROBE]) == 3


def test_mistral_v3_counts_the_transcript_too(transcript):
    from packer.lab.agent_transcript import SEARCH_TOOL

    v3 = mistral_chat("v3", tools=[SEARCH_TOOL])
    history = pack_history(transcript, 8192, v3)
    assert history == pack_history(transcript, 8192, plain(v3))
    assert len(history.dropped) == 19 and v3(history.kept) == 7563


def test_appending_a_turn_keeps_the_cached_prefix_up_to_where_the_template_moves_the_tools(transcript):
    from packer.lab.agent_transcript import SEARCH_TOOL

    earlier, later = transcript[:-4], transcript
    bare = mistral_ids(earlier, "v7"), mistral_ids(later, "v7")
    assert common_prefix_length(*bare) == len(bare[0]), "without tools, v7's request only grows at its end"
    tooled = mistral_ids(earlier, "v7", [SEARCH_TOOL]), mistral_ids(later, "v7", [SEARCH_TOOL])
    available_tools = packer.chat._mistral("v7").instruct_tokenizer.BEGIN_AVAILABLE_TOOLS  # before the last user
    assert available_tools == 6  # message, wherever it is: v7 moves the tools as the conversation grows
    assert common_prefix_length(*tooled) == len(tooled[0]) - tooled[0][::-1].index(available_tools) - 1
    trimmed = mistral_ids(pack_history(later, 8192, mistral_chat("v7")).kept, "v7")
    up_to_inst = len(mistral_ids([transcript[0], user("")], "v7")) - 1  # BOS, the system prompt, [INST]
    assert common_prefix_length(bare[1], trimmed) == up_to_inst + 1, "and '▁What', which both questions begin with"
