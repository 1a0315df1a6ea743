"""Issue 62, item 6: an OpenAI request estimate that counts tool calls, results and definitions.

openai_request is the OpenAI cookbook's estimate with tool traffic and definitions: it gives the cookbook's own
published counts for its tool example (101 tokens on gpt-4o's o200k_base, 105 on gpt-4's cl100k_base, each equal
to the API's count in the cookbook's run). remembered keeps a counter's counts and its fast path.
"""

from __future__ import annotations


import json

import pytest

from packer.chat import adds_up_by_turn, mistral_chat, openai_chat, openai_request, remembered
from packer.history import pack_history
from packer.lab.agent_transcript import agent_transcript

# The cookbook's section 7 example (How_to_count_tokens_with_tiktoken.ipynb), its tool and its two messages.
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_current_weather",
        "description": "Get the current weather in a given location",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {
                    "type": "string",
                    "description": "The unit of temperature to return",
                    "enum": ["celsius", "fahrenheit"],
                },
            },
            "required": ["location"],
        },
    },
}
WEATHER_MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant that can answer to questions about the weather."},
    {"role": "user", "content": "What's the weather like in San Francisco?"},
]
CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "get_current_weather", "arguments": '{"location": "Paris"}'},
}
TOOL_TURN = [
    {"role": "assistant", "content": None, "tool_calls": [CALL]},
    {"role": "tool", "tool_call_id": "call_1", "content": "12 C, rain"},
]


@pytest.mark.parametrize(("encoding", "published"), [("o200k_base", 101), ("cl100k_base", 105)])
def test_the_estimate_gives_the_cookbooks_published_count_for_its_tool_example(encoding, published):
    assert openai_request(encoding, [WEATHER_TOOL])(WEATHER_MESSAGES) == published


def test_without_tools_or_tool_traffic_it_is_openai_chat():
    for encoding in ("o200k_base", "cl100k_base"):
        assert openai_request(encoding)(WEATHER_MESSAGES) == openai_chat(encoding)(WEATHER_MESSAGES)


def test_a_call_and_its_result_add_their_values_tokens():
    from packer.counters import bpe

    tokens = bpe("o200k_base")
    count = openai_request("o200k_base")
    added = count(WEATHER_MESSAGES + TOOL_TURN) - count(WEATHER_MESSAGES)
    call_values = (
        tokens("assistant") + tokens("call_1") + tokens("get_current_weather") + tokens('{"location": "Paris"}')
    )
    result_values = tokens("tool") + tokens("call_1") + tokens("12 C, rain")
    assert added == 3 + call_values + 3 + result_values
    assert count.__name__ == "count_openai_request_estimate_o200k_base" and "estimate" in count.__doc__


def test_the_estimate_takes_the_fast_path_and_packs_as_the_plain_path_does():
    count = openai_request("o200k_base", [WEATHER_TOOL])
    assert adds_up_by_turn(count, True)
    conversation = agent_transcript(8)
    for limit in (count(conversation) // 3, count(conversation) // 2):
        assert pack_history(conversation, limit, count) == pack_history(conversation, limit, lambda m: count(m))


@pytest.mark.parametrize(
    ("encoding", "tools", "error"),
    [
        ("p50k_base", (), "encoding must be one of o200k_base, cl100k_base"),
        ("o200k_base", "x", "tools must be a list"),
        ("o200k_base", 5, "tools must be a list of tool definitions, got int"),
        ("o200k_base", [{"type": "custom"}], "tool 0: expected {'type': 'function'"),
        ("o200k_base", [{"type": "function", "function": {}}], "tool 0: function must be a dict with a str name"),
        (
            "o200k_base",
            [{"type": "function", "function": {"name": "f", "parameters": {"properties": {"q": {"anyOf": []}}}}}],
            "tool 0: parameter 'q': the rule needs a str 'type'",
        ),
    ],
)
def test_bad_arguments_are_refused_by_name(encoding, tools, error):
    with pytest.raises(ValueError, match="^" + error.replace("{", r"\{").replace("(", r"\(")):
        openai_request(encoding, tools)


def test_an_image_part_is_refused_naming_the_message():
    image = {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x/y.png"}}]}
    with pytest.raises(ValueError, match="^message 1: content part 0: type 'image_url'"):
        openai_request("o200k_base")([WEATHER_MESSAGES[0], image])


# --- remembered counters -------------------------------------------


def test_remembered_measures_each_request_once_and_keeps_the_fast_path():
    calls = []

    def counting(messages):
        calls.append(len(messages))
        return 7 * len(messages)

    again = remembered(counting)
    assert again(WEATHER_MESSAGES) == again(list(WEATHER_MESSAGES)) == 14 and calls == [2]
    assert not adds_up_by_turn(again, True)
    assert adds_up_by_turn(remembered(mistral_chat("v7")), True)


def test_a_name_text_parts_and_a_refusal_count_as_the_rule_says():
    from packer.counters import bpe

    tokens = bpe("o200k_base")
    count = openai_request("o200k_base")
    named = [{**WEATHER_MESSAGES[0], "name": "ops"}, {"role": "user", "content": [{"type": "text", "text": "Hi"}]}]
    assert count(named) == openai_chat("o200k_base")(named)
    refused = {"role": "assistant", "content": [{"type": "refusal", "refusal": "No."}]}
    assert count([*WEATHER_MESSAGES, refused]) - count(WEATHER_MESSAGES) == 3 + tokens("assistant") + tokens("No.")
    keyed = {"role": "assistant", "content": "Sorry.", "refusal": "No."}
    assert count([*WEATHER_MESSAGES, keyed]) - count(WEATHER_MESSAGES) == 3 + tokens("assistant") + tokens(
        "Sorry."
    ) + tokens("No.")


def test_a_tool_without_parameters_and_a_final_period_follow_section_7():
    from packer.counters import bpe

    tokens = bpe("cl100k_base")
    bare = {"type": "function", "function": {"name": "now", "description": "The time."}}
    without = openai_request("cl100k_base")(WEATHER_MESSAGES)
    assert openai_request("cl100k_base", [bare])(WEATHER_MESSAGES) - without == 10 + tokens("now:The time") + 12
    dotted = json.loads(json.dumps(WEATHER_TOOL))
    dotted["function"]["description"] += "."
    dotted["function"]["parameters"]["properties"]["unit"]["description"] += "."
    assert openai_request("o200k_base", [dotted])(WEATHER_MESSAGES) == 101


@pytest.mark.parametrize(
    ("properties", "error"),
    [
        ([1], "tool 0: parameters: properties must be a dict"),
        ({"u": {"type": "string", "enum": [1]}}, "tool 0: parameter 'u': the rule counts str enum values only"),
    ],
)
def test_parameters_the_rule_cannot_count_are_refused(properties, error):
    tool = {"type": "function", "function": {"name": "f", "parameters": {"properties": properties}}}
    with pytest.raises(ValueError, match="^" + error):
        openai_request("o200k_base", [tool])
