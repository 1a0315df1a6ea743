"""Lesson 09's lab: the agent's requests, the tool-result share, the watermark trimming (trim_rarely), the cached
prefix of a run, the variants that break it, the figures and the explorer's view, without a browser."""

from __future__ import annotations

import pytest
from packer.lab.figures import DescribedFigure

import packer.history
from packer.caching import common_prefix_length, openai_cached_tokens
from packer.chat import mistral_chat, mistral_ids
from packer.clearing import PLACEHOLDER, clear_then_drop
from packer.history import group_turns, pack_history
from packer.lab import conversation as cv
from packer.lab.agent_transcript import SEARCH_TOOL, SYSTEM, agent_transcript
from packer.lab.retrieval import bm25_scores
from packer.ordering import ends_first
from packer.lab.conversation_plots import plot_cache_tradeoff, plot_steps, plot_turns_kept
from packer.lab.widgets import Explorer, conversation_view, explore_conversation

pytest.importorskip("mistral_common", reason="mistral-common (Mistral's templates) is not installed: run `make venv`")
pytest.importorskip(
    "sentencepiece", reason="sentencepiece (Mistral's tokenizer models) is not installed: run `make venv`"
)

COUNT = mistral_chat("v7", tools=[SEARCH_TOOL])
TRANSCRIPT = agent_transcript(12)


def words(messages):
    """A toy counter: 4 per message plus the whitespace words of every content."""
    return sum(4 + len((m["content"] or "").split()) for m in messages)


# --- the requests --------------------------------------------------------------------------------------
def test_requests_are_the_agents_request_at_each_turn():
    sent = cv.requests(TRANSCRIPT)
    assert len(sent) == 12
    assert sent[-1] == TRANSCRIPT  # the transcript itself stops at the last turn's result
    for turn, request in enumerate(sent, 1):
        assert request == agent_transcript(turn)  # a longer transcript begins with a shorter one's turns
        assert request[-1]["role"] == "tool"


def test_requests_stop_at_the_user_message_of_a_turn_without_tool_results():
    messages = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "b"},
        {"role": "user", "content": "c"},
    ]
    assert cv.requests(messages) == [messages[:1], messages]


def test_tool_result_tokens_is_a_difference_of_two_real_counts():
    results, whole = cv.tool_result_tokens(TRANSCRIPT, COUNT)
    assert whole == COUNT(TRANSCRIPT)
    assert results == whole - COUNT(cv.without_tool_results(TRANSCRIPT))
    assert 0.7 < results / whole < 0.95  # the lesson's claim: results are the bulk
    emptied = cv.without_tool_results(TRANSCRIPT)
    assert [m["role"] for m in emptied] == [m["role"] for m in TRANSCRIPT]
    assert all(m["content"] == "" for m in emptied if m["role"] == "tool")
    assert TRANSCRIPT[3]["content"]  # the caller's messages are untouched


# --- trimming every step, and rarely ---------------------------------------------------------------------
def test_trim_each_applies_the_policy_to_every_request():
    sent = cv.requests(TRANSCRIPT)
    assert cv.trim_each(sent, 900, words) == [pack_history(r, 900, words).kept for r in sent]
    cleared = cv.trim_each(sent, 900, words, clear_then_drop(1))
    assert any(m["content"] == PLACEHOLDER for m in cleared[-1])


def test_trim_rarely_with_low_at_the_limit_is_pack_history_at_every_step():
    sent = cv.requests(TRANSCRIPT)
    for limit in (600, 900, 1500, 10_000):
        assert cv.trim_rarely(sent, limit, limit, words) == cv.trim_each(sent, limit, words)


def test_trim_rarely_only_grows_at_the_end_until_it_trims_down_to_the_watermark():
    sent = cv.requests(TRANSCRIPT)
    limit, low = 1500, 900
    trimmed = cv.trim_rarely(sent, limit, low, words)
    trims = 0
    for step in range(1, len(sent)):
        before, after = trimmed[step - 1], trimmed[step]
        assert words(after) <= limit
        assert after[0]["content"] == SYSTEM and group_turns(after)[1][-1] == group_turns(sent[step])[1][-1]
        if after[: len(before)] == before:
            continue  # appended only
        trims += 1
        assert words(after) <= low  # a trim goes down to the watermark
    assert trims >= 2
    # fewer trims than dropping a turn whenever needed
    each = cv.trim_each(sent, limit, words)
    assert trims < sum(a[: len(b)] != b for b, a in zip(each, each[1:]))


def test_trim_rarely_keeps_the_newest_turns_and_refuses_a_bad_watermark():
    sent = cv.requests(TRANSCRIPT)
    for request, sent_request in zip(cv.trim_rarely(sent, 1400, 800, words), sent):
        _, kept = group_turns(request)
        _, whole = group_turns(sent_request)
        assert kept == whole[len(whole) - len(kept) :]
    for low in (0, -1, 1401):
        with pytest.raises(ValueError, match="^low"):
            cv.trim_rarely(sent, 1400, low, words)


# --- the cached prefix ------------------------------------------------------------------------------------
def test_cache_steps_measure_mistral_ids():
    sent = cv.requests(TRANSCRIPT)[:4]
    steps = cv.cache_steps(sent)
    ids = [mistral_ids(r, "v7", [SEARCH_TOOL]) for r in sent]
    assert steps[0] == cv.Step(1, len(ids[0]), 0, 0)
    for step, before, after, request in zip(steps[1:], ids, ids[1:], sent[1:]):
        assert step.tokens == len(after) == COUNT(request)
        assert step.prefix == common_prefix_length(before, after)
        assert step.cached == openai_cached_tokens(step.prefix, step.tokens)
    run = cv.totals(steps)
    assert run.tokens == sum(len(i) for i in ids) and run.mean_turns == 2.5
    assert run.cached_share == sum(s.cached for s in steps) / run.tokens


def test_the_tool_definitions_move_and_without_them_a_request_is_a_prefix_of_the_next():
    sent = cv.requests(TRANSCRIPT)
    with_tools = cv.cache_steps(sent[5:7])[1]
    without = cv.cache_steps(sent[5:7], tools=())[1]
    assert with_tools.prefix < without.prefix == len(mistral_ids(sent[5], "v7"))


def test_what_breaks_the_prefix():
    sent = cv.requests(TRANSCRIPT)
    plain = cv.cache_steps(sent[8:10])[1].prefix
    stamped = cv.with_timestamps(sent[8:10], start_minute=8)
    assert stamped[0][0]["content"].endswith("09:08.") and stamped[1][0]["content"].endswith("09:09.")
    assert cv.cache_steps(stamped)[1].prefix < 100 < plain
    assert cv.with_timestamps(sent, 59)[1][0]["content"].endswith("10:00.")
    dropped = cv.trim_each(sent[8:10], 3000, COUNT)
    assert len(group_turns(dropped[1])[1]) < 10 and cv.cache_steps(dropped)[1].prefix < 100


def test_reranked_results_keep_their_lines_and_put_the_best_at_the_ends():
    sent = cv.requests(TRANSCRIPT)
    for request, again in zip(sent, cv.reranked(sent)):
        assert [m["role"] for m in request] == [m["role"] for m in again]
        for m, n in zip(request, again):
            assert sorted((m["content"] or "").split("\n")) == sorted((n["content"] or "").split("\n"))
            if m["role"] != "tool":
                assert m == n
    lines = ["x y z", "yield yield generator", "nothing here", "a generator", "one yield"]
    question = "How does a generator yield?"
    ranked = [line for _, line in sorted(zip(bm25_scores(question, lines), lines), key=lambda p: -p[0])]
    result = {"role": "tool", "tool_call_id": "abcdefghi", "content": "\n".join(lines)}
    assert cv._reordered(result, question)["content"].split("\n") == ends_first(ranked)
    assert ranked[-1] in ("x y z", "nothing here")  # no word of the question


def test_measured_requests_records_both_paths_and_restores_measure():
    original = packer.history.measure
    with cv.measured_requests() as fast:
        kept = pack_history(TRANSCRIPT, 4000, COUNT)
    with cv.measured_requests() as plain:
        assert pack_history(TRANSCRIPT, 4000, lambda m: COUNT(m)) == kept
    assert packer.history.measure is original
    assert sum(fast) < sum(plain) / 3
    assert COUNT(kept.kept) in plain


# --- figures and the explorer -------------------------------------------------------------------------------
def test_the_figures_draw():
    steps = cv.cache_steps(cv.requests(TRANSCRIPT)[:3])
    assert isinstance(plot_turns_kept([100, 200], {"a": [1, 2], "b": [2, 3]}, 3), DescribedFigure)
    assert isinstance(plot_steps(steps, 1000, "t"), DescribedFigure)
    assert isinstance(
        plot_cache_tradeoff([("low 1", 2.0, 0.5), ("low 2", 1.0, 0.6), ("other", 3.0, 0.2)]), DescribedFigure
    )


def test_conversation_view_reports_what_the_lesson_prints():
    view = conversation_view(6000, "drop turns", turns=12)
    sent = cv.trim_each(cv.requests(TRANSCRIPT), 6000, COUNT)
    run = cv.totals(cv.cache_steps(sent))
    kept = len(group_turns(sent[-1])[1])
    assert f"turns {12 - kept + 1}-12 kept ({kept} of 12)" in view.text
    assert f"{run.tokens} input tokens, {run.prefix} shared" in view.text
    assert isinstance(view.figure, DescribedFigure)


def test_conversation_view_policies_and_errors():
    cleared = conversation_view(3000, "clear then drop", turns=12).text
    assert "tool results cleared" in cleared and " 0 tool results cleared" not in cleared
    assert "summary of turns 1-" in conversation_view(3000, "summary", turns=12).text
    assert conversation_view(3000, "nope", turns=12).text.startswith("ValueError: policy")
    assert conversation_view(100, "drop turns", turns=12).text.startswith("ValueError: limit")


def test_explore_conversation_is_an_explorer_over_the_view():
    explorer = explore_conversation(5000, "summary", high=9000)
    assert isinstance(explorer, Explorer)
    assert explorer.values() == {"limit": 5000, "policy": "summary"}
    assert explorer.last.text == conversation_view(5000, "summary").text
    assert list(cv.POLICIES) == list(explorer.controls["policy"].options)


def test_cache_steps_takes_any_tokenizer():
    sent = cv.requests(agent_transcript(3))
    by_mistral = cv.cache_steps(sent, "v7", ())
    assert cv.cache_steps(sent, tokenize=lambda request: mistral_ids(request, "v7")) == by_mistral
    by_characters = cv.cache_steps(sent, tokenize=lambda request: [ord(c) for c in str(request)])
    assert by_characters[0].prefix == 0 and all(0 < s.prefix < s.tokens for s in by_characters[1:])
    assert by_characters[1].tokens == len(str(sent[1]))
    with pytest.raises(ValueError, match="^tokenize must be callable"):
        cv.cache_steps(sent, tokenize=3)
