"""How a message is told apart as an OpenAI Responses API item (packer/responses_shape.py, issue 62 item 2).

responses_refusal says what to tell a caller who passed Responses items where Chat Completions messages belong: the
item's type, or the first Responses part type its content holds, and where to go instead (from_responses). Anything
else (a Chat Completions message, a part that is not a dict, a value that is not a dict at all) gets None, so the
Chat Completions shape's own error stands.
"""

from __future__ import annotations

import pytest

from packer.responses_shape import RESPONSES_PARTS, RESPONSES_TYPES, responses_refusal

POINTER = "not a Chat Completions message: turn the whole list into messages with packer.chat.from_responses(items)"


@pytest.mark.parametrize("kind", ["message", "function_call", "function_call_output", "reasoning", "item_reference"])
def test_an_item_is_named_by_its_type(kind):
    said = responses_refusal("message 3", {"type": kind, "role": "user", "content": "x"})
    assert said == f"message 3: a Responses API item ({kind}), {POINTER}"


def test_a_message_without_a_type_is_named_by_its_responses_part():
    message = {"role": "user", "content": [{"type": "input_text", "text": "x"}]}
    assert responses_refusal("message 0", message) == (
        f"message 0: a Responses API item (message with input_text parts), {POINTER}"
    )


def test_the_first_responses_part_type_in_sorted_order_is_the_one_named():
    parts = [{"type": "output_text", "text": "a"}, {"type": "text", "text": "b"}, {"type": "input_image"}]
    said = responses_refusal("m", {"role": "user", "content": parts})
    assert "(message with input_image parts)" in said


def test_a_tuple_of_parts_counts_like_a_list():
    said = responses_refusal("m", {"role": "user", "content": ({"type": "input_file"},)})
    assert "(message with input_file parts)" in said


def test_an_item_type_wins_over_its_parts():
    item = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "x"}]}
    assert "(message)," in responses_refusal("m", item)


@pytest.mark.parametrize(
    "message",
    [
        {"role": "user", "content": "hello"},
        {"role": "user", "content": [{"type": "text", "text": "x"}]},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]},
        {"role": "user", "content": ["input_text"]},  # a part that is not a dict is the chat shape's to refuse
        {"role": "user", "content": "input_text"},  # a string is not a list of parts
        {"type": "text", "content": None},
        {},
    ],
)
def test_a_chat_completions_message_is_not_a_responses_item(message):
    assert responses_refusal("m", message) is None


@pytest.mark.parametrize("value", [None, "message", ["message"], 3, ("type", "message")])
def test_a_value_that_is_not_a_dict_is_left_to_the_chat_shape(value):
    assert responses_refusal("m", value) is None


def test_the_part_types_are_the_responses_apis_own():
    assert {"input_text", "output_text", "input_image", "input_file", "input_audio"} == RESPONSES_PARTS
    assert {"message", "function_call", "function_call_output", "reasoning"} <= RESPONSES_TYPES
    assert not {"text", "image_url", "refusal", "tool_result"} & (RESPONSES_TYPES | RESPONSES_PARTS)
