"""Lesson 09's serving checks: what mistral-common says of a conversation in ValidationMode.serving (the v7
tokenizer and the v13 validator), beside the test mode mistral_chat counts with."""

from __future__ import annotations

import pytest

from packer.chat import mistral_chat
from packer.history import group_turns
from packer.lab.agent_transcript import SEARCH_TOOL, agent_transcript
from packer.lab.serving_checks import V7_SERVING, V13_SERVING, serving_checks

pytest.importorskip("mistral_common", reason="mistral-common (Mistral's templates) is not installed: run `make venv`")
pytest.importorskip(
    "sentencepiece", reason="sentencepiece (Mistral's tokenizer models) is not installed: run `make venv`"
)

COUNT = mistral_chat("v7", tools=[SEARCH_TOOL])
TRANSCRIPT = agent_transcript(3)
SYSTEM, ((Q1, CALL1, RESULT1, ANSWER1), (Q2, CALL2, RESULT2, _), _) = group_turns(TRANSCRIPT)
UNCOUNTED = "Not the same number of function calls and responses"


def test_mistral_chat_loads_the_tokenizer_in_test_mode():
    from mistral_common.protocol.instruct.validator import ValidationMode

    import packer.chat

    assert packer.chat._mistral("v7").mode == ValidationMode.test


def test_a_whole_conversation_passes_both_and_serving_counts_what_mistral_chat_counts():
    assert serving_checks(TRANSCRIPT) == {V7_SERVING: f"{COUNT(TRANSCRIPT)} tokens", V13_SERVING: "accepted"}


def test_a_call_without_its_result_is_counted_in_test_mode_and_refused_for_serving():
    dangling = [*SYSTEM, Q1, CALL1, Q2]
    assert COUNT(dangling) > 0
    assert serving_checks(dangling) == {V7_SERVING: f"refused: {UNCOUNTED}", V13_SERVING: f"refused: {UNCOUNTED}"}


def test_only_the_v13_validator_compares_call_ids():
    relabelled = {**RESULT2, "tool_call_id": CALL1["tool_calls"][0]["id"]}
    twice = {**CALL1, "tool_calls": CALL1["tool_calls"] * 2}
    for messages, refusal in [
        ([*SYSTEM, Q1, CALL1, RESULT1, ANSWER1, Q2, CALL2, relabelled], "Unexpected tool call id"),
        ([*SYSTEM, Q1, twice, RESULT1, RESULT1], "Duplicate tool call id"),
    ]:
        checks = serving_checks(messages)
        assert checks[V7_SERVING] == f"{COUNT(messages)} tokens"
        assert checks[V13_SERVING].startswith(f"refused: {refusal}")


def test_two_user_messages_in_a_row_pass_every_mode():
    two_users = [*SYSTEM, Q1, Q2, CALL2, RESULT2]
    assert serving_checks(two_users) == {V7_SERVING: f"{COUNT(two_users)} tokens", V13_SERVING: "accepted"}


def test_bad_messages_are_refused_naming_the_message():
    with pytest.raises(ValueError, match="message 0"):
        serving_checks([{"role": "robot", "content": "x"}])
