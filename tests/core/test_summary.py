"""Lesson 09, summarising instead of dropping: the first sentences of the dropped turns, the summary turn that
stands in for them, and pack_with_summary's trimming on both paths (packer/summary.py). The toy counter, the
conversations and the shipped counters are test_history.py's.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import packer.summary
from packer.chat import mistral_chat, mistral_ids, mistral_text
from packer.history import History, flatten, pack_history
from packer.summary import first_sentence, first_sentences, pack_with_summary, summary_turn
from tests.core.test_history import (
    COUNTERS,
    SYSTEM,
    call,
    cases,
    limits,
    outcome,
    plain,
    refuse,
    reply,
    result,
    user,
    words,
)


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("What is yield? And why.", "What is yield?"),
        ("  Hi!  Then more", "Hi!"),
        ("No end", "No end"),
        ("Line one\nline two. More", "Line one"),
        ("e.g.x is fine. Next", "e.g.x is fine."),
        ("", ""),
    ],
)
def test_the_first_sentence_ends_at_a_full_stop_question_or_exclamation_mark_then_space_or_at_a_line_break(text, first):
    assert first_sentence(text) == first


def test_the_extractive_summary_is_the_first_sentence_of_each_dropped_question():
    turns = [[user("What is yield? Tell me."), reply("x")], [user("Why? Because."), reply("y")]]
    assert first_sentences(turns) == "What is yield? Why?"


def test_the_summary_turn_is_the_users_summary_and_the_assistants_acknowledgement():
    assert summary_turn("Q1 Q2") == [user("Summary of the earlier conversation: Q1 Q2"), reply("Noted.")]


SUMMED = [
    [user("one. two"), reply("a b c d e f g h i j")],
    [user("three. x"), call("call00001"), result("call00001", "r r r r"), reply("done")],
    [user("four five six"), reply("ok")],
    [user("last")],
]
# Under `words`: the system 6; the turns 20, 25, 12 and 5; the whole request 68. A summary turn of w words costs
# 4 + 5 + w (the user's "Summary of the earlier conversation:" is 5 words) + 5 (the assistant's "Noted.").
# One turn dropped: 48 + 15 ("one.") = 63; two: 23 + 16 ("one. three.") = 39; three: 11 + 19 = 30.


@pytest.mark.parametrize(
    ("limit", "dropped", "summary"),
    [
        (68, 0, ""),
        (67, 1, "one."),
        (63, 1, "one."),
        (62, 2, "one. three."),
        (39, 2, "one. three."),
        (38, 3, "one. three. four five six"),
        (30, 3, "one. three. four five six"),
    ],
)
def test_dropped_turns_give_way_to_a_summary_turn_after_the_system_prompt(limit, dropped, summary):
    kept, gone, text = pack_with_summary([SYSTEM, *flatten(SUMMED)], limit, words)
    assert gone == SUMMED[:dropped] and text == summary
    middle = summary_turn(summary) if summary else []
    assert kept == [SYSTEM, *middle, *flatten(SUMMED[dropped:])]
    assert words(kept) <= limit


def test_the_summary_counts_against_the_limit():
    assert words([SYSTEM, *summary_turn("one."), *flatten(SUMMED[1:])]) == 63
    assert pack_history([SYSTEM, *flatten(SUMMED)], 62, words).dropped == SUMMED[:1], "without a summary, 48 fits"
    assert pack_with_summary([SYSTEM, *flatten(SUMMED)], 62, words).dropped == SUMMED[:2]


def test_when_even_the_latest_turn_alone_leaves_no_room_for_a_summary_it_is_left_out():
    assert pack_with_summary([SYSTEM, *flatten(SUMMED)], 29, words) == History([SYSTEM, *SUMMED[3]], SUMMED[:3])
    assert pack_with_summary([SYSTEM, *flatten(SUMMED)], 11, words) == History([SYSTEM, *SUMMED[3]], SUMMED[:3])
    with pytest.raises(
        ValueError, match="limit: the system prompt and the latest turn measure 11, over the limit of 10"
    ):
        pack_with_summary([SYSTEM, *flatten(SUMMED)], 10, words)


def test_summarising_measures_the_whole_then_each_number_of_dropped_turns_with_its_summary_in_turn():
    seen = []

    def recording(messages):
        seen.append([m["content"] for m in messages if (m["content"] or "").startswith("Summary")])
        return words(messages)

    pack_with_summary([SYSTEM, *flatten(SUMMED)], 38, recording)
    expected = ["one.", "one. three.", "one. three. four five six"]
    assert seen == [[], [], *[[f"Summary of the earlier conversation: {text}"] for text in expected]]


@pytest.mark.parametrize("name", ["Mistral v7 (exact)", "OpenAI o200k_base (cookbook estimate)"])
def test_a_summarised_request_that_exactly_fits_is_kept_on_both_paths(name):
    count = COUNTERS[name]
    turns = (
        SUMMED
        if name.startswith("Mistral")
        else [[m for m in t if m["role"] != "tool" and m["content"]] for t in SUMMED]
    )
    exact = count([SYSTEM, *summary_turn("one. three."), *flatten(turns[2:])])
    for limit, dropped in ((exact, 2), (exact - 1, 3)):
        history = pack_with_summary([SYSTEM, *flatten(turns)], limit, count)
        assert len(history.dropped) == dropped
        assert history == pack_with_summary([SYSTEM, *flatten(turns)], limit, plain(count))


def test_the_caller_may_write_the_summary():
    kept, _, text = pack_with_summary([SYSTEM, *flatten(SUMMED)], 46, words, lambda turns: f"{len(turns)} turns")
    assert text == "2 turns" and kept[1] == user("Summary of the earlier conversation: 2 turns")


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        (dict(summarize="first"), "summarize must be callable, got str"),
        (dict(summarize=lambda turns: None), "summarize's result must be a str, got NoneType"),
        (dict(limit=-1), "limit must be a non-negative int"),
        (dict(count=None), "count must be callable"),
        (dict(messages=[user("a"), user("b")]), "message 1: two user messages in a row"),
    ],
)
def test_summarising_refuses_bad_arguments(arguments, error):
    with pytest.raises(ValueError, match=error):
        pack_with_summary(**(dict(messages=[SYSTEM, *flatten(SUMMED)], limit=46, count=words) | arguments))


@pytest.mark.parametrize("version", ["v1", "v2", "v3", "v7"])
def test_every_mistral_template_renders_the_summary_turn(version):
    request = [SYSTEM, *summary_turn("What is yield?"), user("And send?")]
    rendered = mistral_text(request, version)
    assert "Summary▁of▁the▁earlier▁conversation:▁What▁is▁yield?" in rendered and "Noted.</s>" in rendered
    assert mistral_chat(version)(request) == len(mistral_ids(request, version))


@settings(max_examples=80, deadline=None)
@given(case=cases(), eighths=st.integers(0, 8))
def test_summaries_fast_and_plain_paths_return_identical_results(case, eighths):
    name, messages = case
    count = COUNTERS[name]
    limit = limits(count, messages, eighths)
    fast = outcome(pack_with_summary, messages, limit, count)
    assert fast == outcome(pack_with_summary, messages, limit, plain(count))
    if isinstance(fast, History):
        assert count(fast.kept) <= limit


def test_a_shipped_counter_summarises_on_the_fast_path(monkeypatch):
    count = mistral_chat("v7")
    messages = flatten([[user(f"Question {i}. More"), reply(f"a{i}")] for i in range(5)]) + [user("q")]
    remeasured_history = pack_with_summary(messages, count(messages) - 1, plain(count))
    monkeypatch.setattr(packer.summary, "measure", refuse)
    history = pack_with_summary(messages, count(messages) - 1, count)
    assert history.dropped and history.summary == first_sentences(history.dropped)
    assert history == remeasured_history
