"""Issue 62, item 3: from_anthropic takes what the Messages API takes, as the Anthropic SDK's own types dump it.

An extended-thinking agent's transcript (thinking and redacted_thinking blocks, tool_use blocks with `caller`, an
error result, an image, consecutive user messages, cache marks) goes in; what becomes of each block is what
packer/anthropic_messages.py's docstring says, with Anthropic's documentation as its source; what OpenAI's shape
cannot hold is a ValueError naming the message and block. tests/core/test_logged_counts.py counts them with
mistral-common's own encoder.
"""

from __future__ import annotations

import pytest

from packer.chat import from_anthropic
from packer.history import group_turns
from tests.core.sdk_types import assert_anthropic_messages, assert_openai_messages

anthropic_types = pytest.importorskip("anthropic.types", reason="the anthropic SDK is in the contributor set")

SIGNATURE = "EqQBCkgIARABGAIiQL8"  # a thinking block's signature: opaque to everyone but Anthropic's API


def reply(*blocks) -> dict:
    """An assistant message as an app appends a reply: `response.content`'s blocks, each SDK object dumped."""
    return {"role": "assistant", "content": [block.model_dump() for block in blocks]}


def use(call_id: str, query: str):
    return anthropic_types.ToolUseBlock(
        type="tool_use", id=call_id, name="search", input={"query": query}, caller={"type": "direct"}
    )


def thinking(text: str):
    return anthropic_types.ThinkingBlock(type="thinking", thinking=text, signature=SIGNATURE)


def result(call_id: str, text: str, **extra) -> dict:
    return {"type": "tool_result", "tool_use_id": call_id, "content": text, **extra}


def thinking_agent() -> list[dict]:
    """Two turns of an extended-thinking agent as `.model_dump()` of each reply block, the second with an error
    result and a redacted thinking block; it ends on the assistant's answer, as a log does."""
    return [
        {"role": "user", "content": "What is a generator?"},
        reply(thinking("Search the docs first."), use("toolu_01NRLabsLyVHZPKxbKvkfSMn", "generator")),
        {"role": "user", "content": [result("toolu_01NRLabsLyVHZPKxbKvkfSMn", "[python-docs-3] yields values")]},
        reply(thinking("Cite it."), anthropic_types.TextBlock(type="text", text="It yields [python-docs-3].")),
        {"role": "user", "content": "And send()?"},
        reply(
            anthropic_types.RedactedThinkingBlock(type="redacted_thinking", data="EmwKAhgBEgy3va3pzix"),
            use("toolu_01EKqbqmZrGRXy18eN7m9kvY", "send"),
        ),
        {
            "role": "user",
            "content": [result("toolu_01EKqbqmZrGRXy18eN7m9kvY", "search timed out after 10 s", is_error=True)],
        },
        reply(anthropic_types.TextBlock(type="text", text="The search failed; send() resumes it with a value.")),
    ]


def test_an_extended_thinking_agents_transcript_goes_in_its_thinking_of_earlier_turns_left_out():
    messages = thinking_agent()
    dumped_without_nulls = [
        {**m, "content": [{k: v for k, v in b.items() if v is not None} for b in m["content"]]}
        if isinstance(m["content"], list)
        else m
        for m in messages
    ]
    assert_anthropic_messages(dumped_without_nulls)  # the SDK's own request types take it
    converted = from_anthropic(None, messages)
    assert converted == from_anthropic(None, dumped_without_nulls), "a null is read as absent"
    assert_openai_messages(converted)
    assert [m["role"] for m in converted] == ["user", "assistant", "tool", "assistant"] * 2
    assert converted[1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "toolu_01NRLabsLyVHZPKxbKvkfSMn",
                "type": "function",
                "function": {"name": "search", "arguments": '{"query": "generator"}'},
            }
        ],
    }
    assert converted[3] == {"role": "assistant", "content": [{"type": "text", "text": "It yields [python-docs-3]."}]}
    assert converted[6] == {
        "role": "tool",
        "tool_call_id": "toolu_01EKqbqmZrGRXy18eN7m9kvY",
        "content": "search timed out after 10 s",
    }, "an error result is the text the model reads"
    assert len(group_turns(converted)[1]) == 2


def test_thinking_in_an_ongoing_tool_loop_counts_as_input_so_it_is_refused_naming_the_block():
    loop = thinking_agent()[:7]  # ends on the error result: the redacted thinking before it is passed back
    with pytest.raises(ValueError, match=r"message 5: block 0: a redacted_thinking block in an ongoing tool loop"):
        from_anthropic(None, loop)
    without = [*loop[:5], {"role": "assistant", "content": loop[5]["content"][1:]}, loop[6]]
    assert from_anthropic(None, without)[-1]["role"] == "tool", "what to do: leave it out"
    assert len(from_anthropic(None, thinking_agent()[:3] + [{"role": "user", "content": "go on"}])) == 4
    with pytest.raises(ValueError, match=r"message 1: block 0: a thinking block in an ongoing tool loop"):
        from_anthropic(None, thinking_agent()[:3])


def test_a_loop_of_several_calls_since_the_last_question_keeps_each_of_its_thinking_blocks_refused():
    messages = thinking_agent()[:3] + [
        reply(thinking("One more search."), use("toolu_02", "yield")),
        {"role": "user", "content": [result("toolu_02", "r")]},
    ]
    with pytest.raises(ValueError, match=r"message 1: block 0: a thinking block"):
        from_anthropic(None, messages)


def test_a_loop_with_no_question_before_it_is_ongoing_from_the_first_message_and_a_reply_ends_it():
    opening = [
        reply(thinking("Start with a search."), use("toolu_05", "q")),
        {"role": "user", "content": [result("toolu_05", "r")]},
    ]
    with pytest.raises(ValueError, match=r"message 0: block 0: a thinking block in an ongoing tool loop"):
        from_anthropic(None, opening)
    answered = [*opening, reply(anthropic_types.TextBlock(type="text", text="Done."))]
    assert [m["role"] for m in from_anthropic(None, answered)] == ["assistant", "tool", "assistant"]


def test_text_around_results_stays_in_its_place_and_the_first_of_two_unknown_block_keys_is_named():
    res = result("toolu_06", "r")
    around = from_anthropic(
        None, [{"role": "user", "content": [{"type": "text", "text": "a"}, res, {"type": "text", "text": "b"}]}]
    )
    assert [m["role"] for m in around] == ["user", "tool", "user"]
    after = from_anthropic(
        None, [{"role": "user", "content": [res, {"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]
    )
    assert after[1] == {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
    with pytest.raises(ValueError, match="message 0: block 0: unknown key 'a' in a text block"):
        from_anthropic(None, [{"role": "user", "content": [{"type": "text", "text": "x", "a": 1, "b": 2}]}])


def test_consecutive_messages_of_one_role_are_merged_as_the_api_merges_them():
    messages = [
        {"role": "user", "content": "First question."},
        {"role": "user", "content": [{"type": "text", "text": "Second question."}]},
        {"role": "assistant", "content": "Checking."},
        {"role": "assistant", "content": [use("toolu_03", "q").model_dump(exclude_none=True)]},
        {"role": "user", "content": [result("toolu_03", "r")]},
        {"role": "user", "content": "Thanks."},
    ]
    assert_anthropic_messages(messages)
    converted = from_anthropic("", messages)
    assert converted[0] == {
        "role": "user",
        "content": [{"type": "text", "text": "First question."}, {"type": "text", "text": "Second question."}],
    }
    assert converted[1]["content"] == [{"type": "text", "text": "Checking."}]
    assert converted[1]["tool_calls"][0]["id"] == "toolu_03"
    assert [m["role"] for m in converted] == ["user", "assistant", "tool", "user"]
    assert len(group_turns(converted)[1]) == 2, "the packers take it"


def test_a_message_alone_keeps_its_str_and_one_after_another_of_its_role_is_merged():
    assert from_anthropic("", [{"role": "user", "content": "a"}]) == [{"role": "user", "content": "a"}]
    merged = from_anthropic("", [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}])
    assert merged == [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]


def test_images_become_openais_image_parts_and_a_text_counter_refuses_them_naming_the_message():
    base64_image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    url_image = {"type": "image", "source": {"type": "url", "url": "https://example.org/a.png"}}
    messages = [{"role": "user", "content": [{"type": "text", "text": "What is this?"}, base64_image, url_image]}]
    assert_anthropic_messages(messages)
    converted = from_anthropic(None, messages)
    assert_openai_messages(converted)
    assert converted[0]["content"][1:] == [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "image_url", "image_url": {"url": "https://example.org/a.png"}},
    ]


BAD = [
    (["not a message"], "message 0: expected a dict, got str"),
    (  # a whole reply object's dump: the first of its extra keys named
        [{"role": "assistant", "content": "x", "id": "msg_01", "model": "claude", "type": "message"}],
        "message 0: unknown key 'id'",
    ),
    ([{"role": "user", "content": 5}], "message 0: content must be a str or a non-empty list of blocks, got 5"),
    (
        [{"role": "user", "content": [{"type": "image", "source": {"type": "file", "file_id": "file_01"}}]}],
        "message 0: block 0: source: type must be base64 or url",
    ),
    (
        [{"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": 7}}]}],
        "message 0: block 0: source: url must be a str",
    ),
    (
        [{"role": "user", "content": [{"type": "image", "source": {"type": "base64", "data": "x"}}]}],
        "message 0: block 0: source: media_type must be a str",
    ),
    (
        [{"role": "user", "content": [{"type": "image", "source": "https://example.org/a.png"}]}],
        "source: type must be base64 or url",
    ),
    ([{"role": "user", "content": [result("t", "boom", is_error="yes")]}], "message 0: block 0: is_error must be true"),
    ([{"role": "user", "content": [result("t", [])]}], "message 0: block 0: content must be a str or a non-empty list"),
    (
        [{"role": "user", "content": "q"}, {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}]}],
        "message 1: block 0: signature must be a str",
    ),
    (
        [{"role": "user", "content": "q"}, {"role": "assistant", "content": [{"type": "redacted_thinking"}]}],
        "message 1: block 0: data must be a str",
    ),
    (
        [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm", "signature": SIGNATURE}]},
        ],
        "message 1: block 0: an assistant turn of thinking alone leaves nothing",
    ),
    (  # two blocks and nothing else: the turn's first block named
        [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [thinking("hm").model_dump(), {"type": "redacted_thinking", "data": "x"}]},
        ],
        "message 1: block 0: an assistant turn of thinking alone leaves nothing",
    ),
    (
        [{"role": "user", "content": [{"type": "document", "source": {"type": "text", "data": "d"}}]}],
        "message 0: block 0: a 'document' block has no place in OpenAI's shape here",
    ),
    (
        [{"role": "user", "content": [{"type": "image", "source": {}, "transformations": {}}]}],
        "message 0: block 0: unknown key 'transformations' in a image block",
    ),
]


@pytest.mark.parametrize(("messages", "error"), BAD)
def test_what_openais_shape_cannot_hold_is_refused_naming_the_message_and_block(messages, error):
    with pytest.raises(ValueError, match=error):
        from_anthropic(None, messages)


def test_cache_marks_callers_and_toolsets_are_left_out_and_a_result_without_content_is_empty():
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "q", "cache_control": {"type": "ephemeral"}}]},
        {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_04",
                    "name": "search",
                    "input": {},
                    "caller": {"type": "direct"},
                    "toolset_name": "docs",
                }
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_04", "is_error": False}]},
    ]
    assert_anthropic_messages(messages)
    assert from_anthropic(None, messages) == [
        {"role": "user", "content": [{"type": "text", "text": "q"}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "toolu_04", "type": "function", "function": {"name": "search", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "toolu_04", "content": ""},
    ]
