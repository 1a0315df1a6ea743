"""Issue 62, items 1 and 4: what the SDKs' own reply objects dump to goes in, and the APIs' rule for tool calls.

A Chat Completions reply's message, built with the `openai` SDK's own types and dumped the three ways apps dump it
(`.model_dump()`, `.model_dump(exclude_none=True)`, `.to_dict()`), is taken as the request it goes back in as: its
response-only `annotations` and its nulls read as absent, counted as mistral-common counts the request without
them (tests/core/test_logged_counts.py counts them); so are LiteLLM's and LangChain's recorded conversations
(tests/core/fixtures). A key that neither the request nor the response types have is still refused by name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packer.history import group_turns
from packer.messages import calls_of, is_tool_traffic, require_calls_answered, require_messages, sent
from tests.core.sdk_types import assert_openai_messages

chat_types = pytest.importorskip("openai.types.chat", reason="the openai SDK is in the contributor set")

FIXTURES = Path(__file__).parent / "fixtures"
CALL = {"id": "call_NKpApJybW1MzOjZO2FzwYw0d", "type": "function", "function": {"name": "search", "arguments": "{}"}}


def completion_message(**message) -> object:
    """A reply's message as the SDK builds it from the API's JSON (annotations [] and refusal null, as it sends)."""
    reply = {"role": "assistant", "content": None, "refusal": None, "annotations": [], **message}
    completion = chat_types.ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-4o",
            "choices": [{"index": 0, "finish_reason": "stop", "message": reply}],
        }
    )
    return completion.choices[0].message


DUMPS = {
    "model_dump": lambda m: m.model_dump(),
    "model_dump(exclude_none=True)": lambda m: m.model_dump(exclude_none=True),
    "to_dict": lambda m: m.to_dict(),
}


def without_null_content(message: dict) -> dict:
    """The message with a null content left out (absent and null are one to the request types)."""
    return {key: value for key, value in message.items() if not (key == "content" and value is None)}


def conversation(call_reply: dict, answer: dict) -> list[dict]:
    return [
        {"role": "user", "content": "What is a generator?"},
        call_reply,
        {"role": "tool", "tool_call_id": CALL["id"], "content": "[python-docs-3] It yields."},
        answer,
        {"role": "user", "content": "Thanks."},
    ]


@pytest.mark.parametrize("dump", sorted(DUMPS))
def test_a_replys_dump_goes_back_in_and_counts_as_the_request_without_its_response_only_keys(dump):
    calls = DUMPS[dump](completion_message(tool_calls=[CALL]))
    answer = DUMPS[dump](completion_message(content="It yields values [python-docs-3]."))
    assert "annotations" in calls and "annotations" in answer, "the dump keeps the response-only key"
    given = conversation(calls, answer)
    assert require_messages(given)[1] is calls, "the caller's own dicts"
    request = conversation(
        {"role": "assistant", "content": None, "tool_calls": [CALL]},
        {"role": "assistant", "content": "It yields values [python-docs-3]."},
    )
    assert_openai_messages(request)
    assert [without_null_content(sent(message)) for message in given] == [without_null_content(m) for m in request]


def test_a_reply_with_a_null_tool_calls_is_no_tool_traffic():
    answer = completion_message(content="Hi.").model_dump()
    assert answer["tool_calls"] is None and answer["function_call"] is None and answer["audio"] is None
    assert not is_tool_traffic(answer) and calls_of(answer) == []
    assert is_tool_traffic({"role": "tool", "tool_call_id": "a", "content": "r"})
    assert is_tool_traffic({"role": "assistant", "content": None, "tool_calls": [CALL]})


def test_a_replys_audio_is_taken_with_the_response_types_fields_and_refused_by_a_counter_that_drops_it():
    audio = (
        chat_types.ChatCompletion.model_validate(
            {
                "id": "c",
                "object": "chat.completion",
                "created": 1,
                "model": "gpt-4o-audio-preview",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {
                            "role": "assistant",
                            "content": None,
                            "audio": {"id": "audio_1", "data": "UklGR", "expires_at": 1, "transcript": "Hello."},
                        },
                    }
                ],
            }
        )
        .choices[0]
        .message.model_dump(exclude_none=True)
    )
    messages = [{"role": "user", "content": "Say hello."}, {**audio, "content": "Hello."}]
    assert require_messages(messages)[1]["audio"]["transcript"] == "Hello."
    assert "content" not in audio and require_messages([messages[0], audio])[1] is audio, "audio instead of content"
    assert require_messages([{"role": "assistant", "content": "x", "audio": {"id": "a"}}])


BAD = [
    ({"role": "assistant", "content": "x", "audio": {"id": "a", "x": 1}}, "message 0: audio must be null or"),
    ({"role": "assistant", "content": "x", "audio": "a"}, "message 0: audio must be null or"),
    ({"role": "assistant", "content": "x", "refusal": 5}, "message 0: refusal must be a str, got int"),
    ({"role": "assistant", "content": None, "refusal": None}, "message 0: content may be null or absent only beside"),
    (
        {"role": "assistant", "content": None, "function_call": {"name": "s", "arguments": "{}"}},
        "message 0: function_call is OpenAI's deprecated shape",
    ),
    ({"role": "assistant", "content": "x", "logprobs": None}, "message 0: unknown key 'logprobs' for a assistant"),
    ({"role": "user", "content": "x", "annotations": []}, "message 0: unknown key 'annotations' for a user message"),
    ({"role": "tool", "tool_call_id": "a", "content": "r", "refusal": None}, "message 0: unknown key 'refusal'"),
    ({"role": "assistant", "content": "x", "reasoning_content": "hm"}, "message 0: unknown key 'reasoning_content'"),
]


@pytest.mark.parametrize(("message", "error"), BAD)
def test_a_key_neither_the_request_nor_the_response_types_have_is_refused_by_name(message, error):
    with pytest.raises(ValueError, match=error):
        require_messages([message])


def test_a_refusal_is_text_a_request_may_send_back():
    refused = completion_message(content=None, refusal="I can't help with that.").model_dump(exclude_none=True)
    assert require_messages([{"role": "user", "content": "x"}, refused])[1]["refusal"] == "I can't help with that."


def recorded(name: str) -> dict[str, list[dict]]:
    return json.loads((FIXTURES / f"{name}_conversations.json").read_text(encoding="utf-8"))["conversations"]


@pytest.mark.parametrize("name", sorted(recorded("litellm")))
def test_litellms_replies_go_in_and_count_as_their_requests(name):
    messages = recorded("litellm")[name]
    assert any("provider_specific_fields" in m for m in messages)
    request = [sent(message) for message in require_messages(messages)]
    assert_openai_messages(request)
    assert all("provider_specific_fields" not in m and m.get("tool_calls", 1) is not None for m in request)
    assert len(group_turns(messages)[1]) == 2


def test_langchains_conversations_go_in_and_its_user_text_before_the_results_is_refused_naming_the_call():
    conversations = recorded("langchain")
    assert_openai_messages(conversations["tool_loop"])
    out_of_order = conversations["anthropic_text_after_results"]
    assert_openai_messages(out_of_order)
    error = r"message 2: tool call 'toolu_01NRLabsLyVHZPKxbKvkfSMn' of message 1 has no result before this user"
    with pytest.raises(ValueError, match=error):
        group_turns(out_of_order)


# --- the APIs' rule: a call's results right after it ------------------------------------------------------------


def test_every_call_answered_before_any_other_message_passes_and_a_call_awaited_at_the_end_is_left_to_the_caller():
    second = {**CALL, "id": "b"}
    require_calls_answered(
        [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": None, "tool_calls": [CALL, second]},
            {"role": "tool", "tool_call_id": "b", "content": "r"},
            {"role": "tool", "tool_call_id": CALL["id"], "content": "r"},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
        ]
    )


def test_a_second_call_message_before_the_first_ones_result_is_refused_naming_both():
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": None, "tool_calls": [CALL]},
        {"role": "assistant", "content": None, "tool_calls": [{**CALL, "id": "b"}]},
        {"role": "tool", "tool_call_id": "b", "content": "r"},
        {"role": "tool", "tool_call_id": CALL["id"], "content": "r"},
    ]
    match = rf"message 2: tool call '{CALL['id']}' of message 1 has no result before this assistant message"
    with pytest.raises(ValueError, match=match):
        require_calls_answered(messages)
    with pytest.raises(ValueError, match=match):
        group_turns(messages)
    with pytest.raises(ValueError, match="message 3: tool call 'b' of message 1 has no result before this user"):
        require_calls_answered(
            [
                *messages[:1],
                {"role": "assistant", "content": None, "tool_calls": [CALL, {**CALL, "id": "b"}]},
                messages[4],
                {"role": "user", "content": "next"},
            ]
        )


def test_the_first_of_two_missing_or_unknown_keys_is_the_one_named():
    two_unknown_in_a_part = {"role": "user", "content": [{"type": "text", "text": "x", "z": 1, "a": 2}]}
    with pytest.raises(ValueError, match="message 0: content part 0: unknown key 'a' in a text part"):
        require_messages([two_unknown_in_a_part])
    with pytest.raises(ValueError, match="message 0: tool call 0: missing key 'id'"):
        require_messages([{"role": "assistant", "content": None, "tool_calls": [{"type": "function"}]}])
    with pytest.raises(ValueError, match=r"message 0: tool call 0: unknown key 'a' \(allowed"):
        require_messages([{"role": "assistant", "content": None, "tool_calls": [{**CALL, "z": 1, "a": 2}]}])
