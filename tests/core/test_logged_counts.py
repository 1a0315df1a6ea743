"""Issue 62: conversations as applications log them, counted, and judged by mistral-common's own encoder.

The shapes are tests/core/test_messages.py's and tests/core/test_anthropic_messages.py's (kept free of tokenizers
so that `make mutation` runs them first, fast); here the counters take them: a reply's SDK dump counts as the
request without its response-only keys, an Anthropic extended-thinking transcript counts as mistral-common counts
the same conversation built from its own classes, and what a counter cannot count is refused naming the message.
"""

from __future__ import annotations

import pytest

from packer.chat import from_anthropic, mistral_call_id, mistral_chat, openai_chat
from packer.messages import require_messages
from tests.core.test_anthropic_messages import thinking_agent
from tests.core.test_messages import CALL, DUMPS, completion_message, conversation, recorded

pytest.importorskip("mistral_common", reason="mistral-common (Mistral's templates) is not installed: run `make venv`")


@pytest.mark.parametrize("dump", sorted(DUMPS))
def test_a_replys_dump_counts_as_the_request_without_its_response_only_keys(dump):
    given = conversation(
        DUMPS[dump](completion_message(tool_calls=[CALL])),
        DUMPS[dump](completion_message(content="It yields values [python-docs-3].")),
    )
    request = conversation(
        {"role": "assistant", "content": None, "tool_calls": [CALL]},
        {"role": "assistant", "content": "It yields values [python-docs-3]."},
    )
    v7 = mistral_chat("v7")
    assert v7(given) == v7(request)
    assert openai_chat("o200k_base")(given[3:]) == openai_chat("o200k_base")(request[3:])


def test_a_refusal_or_audio_a_count_would_leave_out_is_refused_naming_the_message():
    refused = completion_message(content=None, refusal="I can't help with that.").model_dump(exclude_none=True)
    question, again = {"role": "user", "content": "x"}, {"role": "user", "content": "y"}
    with pytest.raises(ValueError, match="message 1: key 'refusal': mistral-common drops it"):
        mistral_chat("v7")([question, {**refused, "content": "no"}, again])
    with pytest.raises(ValueError, match="message 1: key 'audio': mistral-common drops it"):
        mistral_chat("v7")([question, {"role": "assistant", "content": "hi", "audio": {"id": "audio_1"}}, again])


@pytest.mark.parametrize("name", sorted(recorded("litellm")))
def test_litellms_replies_count_as_their_requests(name):
    messages = recorded("litellm")[name]
    request = [{k: v for k, v in m.items() if k != "provider_specific_fields" and v is not None} for m in messages]
    assert require_messages(request)
    assert mistral_chat("v7")(messages) == mistral_chat("v7")(request)


def test_langchains_user_text_before_the_results_is_refused_by_the_counter_naming_the_message():
    conversations = recorded("langchain")
    assert mistral_chat("v7")(conversations["tool_loop"]) > 0
    with pytest.raises(ValueError, match="message 3: a tool result right after a user message, which Mistral's"):
        mistral_chat("v7")(conversations["anthropic_text_after_results"])


def mistral_counts(messages) -> int:
    """mistral-common's own count of a conversation built from its own protocol classes (ids mapped as the
    counters map them), through its own encoder."""
    from mistral_common.protocol.instruct.messages import AssistantMessage, ToolMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.protocol.instruct.tool_calls import FunctionCall, ToolCall
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    built = []
    for role, *rest in messages:
        if role == "user":
            built.append(UserMessage(content=rest[0]))
        elif role == "tool":
            built.append(ToolMessage(tool_call_id=mistral_call_id(rest[0]), content=rest[1]))
        elif isinstance(rest[0], str):
            built.append(AssistantMessage(content=rest[0]))
        else:
            call_id, name, arguments = rest[0]
            call = ToolCall(id=mistral_call_id(call_id), function=FunctionCall(name=name, arguments=arguments))
            built.append(AssistantMessage(content=None, tool_calls=[call]))
    return len(MistralTokenizer.v7().encode_chat_completion(ChatCompletionRequest(messages=built)).tokens)


def test_an_extended_thinking_transcript_counts_as_mistral_common_counts_it_without_the_thinking():
    expected = [
        ("user", "What is a generator?"),
        ("assistant", ("toolu_01NRLabsLyVHZPKxbKvkfSMn", "search", '{"query": "generator"}')),
        ("tool", "toolu_01NRLabsLyVHZPKxbKvkfSMn", "[python-docs-3] yields values"),
        ("assistant", "It yields [python-docs-3]."),
        ("user", "And send()?"),
        ("assistant", ("toolu_01EKqbqmZrGRXy18eN7m9kvY", "search", '{"query": "send"}')),
        ("tool", "toolu_01EKqbqmZrGRXy18eN7m9kvY", "search timed out after 10 s"),
        ("assistant", "The search failed; send() resumes it with a value."),
        ("user", "Thanks."),
    ]
    converted = [*from_anthropic(None, thinking_agent()), {"role": "user", "content": "Thanks."}]
    assert mistral_chat("v7")(converted) == mistral_counts(expected)


def test_an_image_from_anthropic_is_refused_by_a_counter_that_reads_text_naming_the_message():
    image = {"type": "image", "source": {"type": "url", "url": "https://example.org/a.png"}}
    converted = from_anthropic(None, [{"role": "user", "content": [{"type": "text", "text": "What is this?"}, image]}])
    with pytest.raises(ValueError, match=r"message 0: content part 1: type 'image_url': mistral_chat counts text only"):
        mistral_chat("v7")(converted)
