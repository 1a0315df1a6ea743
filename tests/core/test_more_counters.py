"""Issue 62, item 6: counters for the models practitioners use.

openai_request is the OpenAI cookbook's estimate with tool traffic and definitions: it gives the cookbook's own
published counts for its tool example (101 tokens on gpt-4o's o200k_base, 105 on gpt-4's cl100k_base, each equal
to the API's count in the cookbook's run). recorded_counts answers from counts recorded with Anthropic's
count_tokens endpoint, refusing bad records by index and a request that was not recorded. remembered keeps a
counter's counts and its fast path. Lesson 09's cache_steps takes any tokenizer.
"""

from __future__ import annotations

import json

import pytest

from packer.chat import mistral_chat, mistral_ids, openai_chat, openai_request, remembered
from packer.chat import adds_up_by_turn
from packer.history import pack_history
from packer.lab.agent_transcript import agent_transcript
from packer.lab.conversation import cache_steps, requests
from packer.recorded_counts import load_recorded_counts, recorded_counts

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
    assert "openai_request" in count.__name__ and "estimate" in count.__doc__


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


# --- Claude: counts recorded from Anthropic's count_tokens endpoint ---------------------------------------------

RECORDS = [
    {"model": "claude-x", "system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}], "input_tokens": 12},
    {
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "w", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "rain"}]},
        ],
        "input_tokens": 57,
    },
]


def test_recorded_counts_answer_for_the_requests_recorded_in_the_workbooks_shape():
    count = recorded_counts(RECORDS)
    assert count([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]) == 12
    assert (
        count(
            [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Weather?"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [{"id": "toolu_1", "type": "function", "function": {"name": "w", "arguments": "{}"}}],
                },
                {"role": "tool", "tool_call_id": "toolu_1", "content": "rain"},
            ]
        )
        == 57
    )
    with pytest.raises(
        ValueError,
        match=r"^messages: this request \(2 messages, the last a user message\) is not among the 2 recorded: count it with Anthropic's count_tokens",
    ):
        count([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello"}])


@pytest.mark.parametrize(
    ("records", "error"),
    [
        ({}, "records must be a non-empty list"),
        ([], "records must be a non-empty list"),
        ([RECORDS[0], 3], "record 1: expected a dict"),
        ([{**RECORDS[0], "usage": 1}], "record 0: unknown key 'usage'"),
        ([{**RECORDS[0], "input_tokens": -1}], "record 0: input_tokens must be a non-negative int"),
        ([{**RECORDS[0], "input_tokens": True}], "record 0: input_tokens must be a non-negative int"),
        ([RECORDS[0], {**RECORDS[1], "tools": [{"name": "w"}]}], "record 1: tools differ from record 0's"),
        (
            [RECORDS[0], {**RECORDS[0], "input_tokens": 13}],
            r"record 1: the same request as record 0 with another count \(13, not 12\)",
        ),
        (
            [{**RECORDS[0], "messages": [{"role": "tool", "content": "x"}]}],
            "record 0: message 0: role must be user or assistant",
        ),
    ],
)
def test_bad_records_are_refused_naming_the_record(records, error):
    with pytest.raises(ValueError, match="^" + error):
        recorded_counts(records)


def test_a_recorded_file_is_read_and_a_file_that_is_not_json_named(tmp_path):
    good, bad = tmp_path / "counts.json", tmp_path / "bad.json"
    good.write_text(json.dumps(RECORDS))
    bad.write_text("{not json")
    assert (
        load_recorded_counts(good)([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}])
        == 12
    )
    with pytest.raises(ValueError, match=f"^{bad}: not a JSON file of recorded counts"):
        load_recorded_counts(bad)


# --- remembered counters, and lesson 09's cache share on any tokenizer -------------------------------------------


def test_remembered_measures_each_request_once_and_keeps_the_fast_path():
    calls = []

    def counting(messages):
        calls.append(len(messages))
        return 7 * len(messages)

    again = remembered(counting)
    assert again(WEATHER_MESSAGES) == again(list(WEATHER_MESSAGES)) == 14 and calls == [2]
    assert not adds_up_by_turn(again, True)
    assert adds_up_by_turn(remembered(mistral_chat("v7")), True)


def test_cache_steps_takes_any_tokenizer():
    sent = requests(agent_transcript(3))
    by_mistral = cache_steps(sent, "v7", ())
    assert cache_steps(sent, tokenize=lambda request: mistral_ids(request, "v7")) == by_mistral
    words = cache_steps(
        sent, tokenize=lambda request: [hash(w) for m in request for w in str(m.get("content")).split()]
    )
    assert [step.prefix for step in words][0] == 0 and all(s.prefix < s.tokens for s in words)
    with pytest.raises(ValueError, match="^tokenize must be callable"):
        cache_steps(sent, tokenize=3)
