"""Issue 62, item 2: OpenAI's Responses API items (and the Agents SDK's lists of them) go through from_responses.

The items are held to the openai SDK's own Responses types (ResponseInputItemParam, and its response models built
and dumped as an application would), and what from_responses returns is a Chat Completions conversation
(tests/core/sdk_types.py) that lesson 09's functions trim and count. Anywhere else, a Responses item is refused
with a message naming the shape and pointing at from_responses.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from packer.chat import from_responses, mistral_chat
from packer.history import group_turns, pack_history
from packer.messages import require_messages
from tests.core.sdk_types import assert_openai_messages

responses_types = pytest.importorskip("openai.types.responses", reason="the openai SDK is in the contributor set")
from pydantic import TypeAdapter  # noqa: E402 - after the skip: pydantic comes with the SDK

INPUT_ITEM = TypeAdapter(responses_types.ResponseInputItemParam)
AGENTS_RUN = Path(__file__).parent / "fixtures" / "agents_sdk_run.json"


def sdk_items() -> list:
    """A turn as an application on the SDK keeps it: the user's input item, then response.output's own objects."""
    return [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What is a generator?"}]},
        responses_types.ResponseReasoningItem(id="rs_1", summary=[], type="reasoning", encrypted_content="opaque"),
        responses_types.ResponseFunctionToolCall(
            arguments='{"query": "generator"}', call_id="call_Qm3xT9vB", name="search", type="function_call", id="fc_1"
        ),
        {"type": "function_call_output", "call_id": "call_Qm3xT9vB", "output": "[docs-3] A generator yields."},
        responses_types.ResponseOutputMessage(
            id="msg_1",
            role="assistant",
            status="completed",
            type="message",
            content=[
                responses_types.ResponseOutputText(type="output_text", text="It yields [docs-3].", annotations=[])
            ],
        ),
    ]


def test_the_fixtures_are_the_sdks_own_input_items():
    for item in json.loads(AGENTS_RUN.read_text()):
        INPUT_ITEM.validate_python(item)
    for item in sdk_items():
        INPUT_ITEM.validate_python(item if isinstance(item, dict) else item.model_dump(exclude_none=True))


def test_sdk_objects_become_the_workbooks_shape_with_calls_paired_by_call_id():
    messages = from_responses(sdk_items())
    assert messages == [
        {"role": "user", "content": [{"type": "text", "text": "What is a generator?"}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_Qm3xT9vB",
                    "type": "function",
                    "function": {"name": "search", "arguments": '{"query": "generator"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_Qm3xT9vB", "content": "[docs-3] A generator yields."},
        {"role": "assistant", "content": [{"type": "text", "text": "It yields [docs-3]."}]},
    ]
    assert_openai_messages(messages)


def test_an_agents_sdk_run_keeps_parallel_calls_in_one_assistant_message_and_drops_reasoning():
    messages = from_responses(json.loads(AGENTS_RUN.read_text()))
    assert_openai_messages(messages)
    assert [m["role"] for m in messages] == [
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
    ]
    assert [c["id"] for c in messages[1]["tool_calls"]] == [
        "call_Qm3xT9vB2kLp7WzR4nYc8Hd1",
        "call_Zr8pV1nK6sDq2LmX9tBw3Fg5",
    ]
    assert messages[7]["content"] == [
        {"type": "text", "text": "[python-docs-9] send() resumes a generator and sends it a value."}
    ]
    assert "opaque" not in json.dumps(messages) and "Looking up send" not in json.dumps(messages)
    system, turns = group_turns(messages)
    assert (system, len(turns)) == ([], 2)
    request = messages[:-1]  # the request that asks for the last answer
    count = mistral_chat("v7")
    assert pack_history(request, count(request), count).kept == request
    assert pack_history(request, count(request) - 1, count).kept == request[5:]  # the first turn dropped whole


def test_an_assistant_text_then_calls_is_one_message_as_chat_completions_returns_it():
    items = [
        {"role": "user", "content": "Look it up."},
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Searching.", "annotations": []}],
        },
        {"type": "function_call", "call_id": "c1", "name": "search", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "found"},
    ]
    messages = from_responses(items)
    assert messages[1]["content"] == [{"type": "text", "text": "Searching."}]
    assert [c["id"] for c in messages[1]["tool_calls"]] == ["c1"]


@pytest.mark.parametrize(
    ("items", "error"),
    [
        ("hello", "items must be a non-empty list of Responses API items"),
        ([], "items must be a non-empty list"),
        ([{"type": "web_search_call", "id": "ws_1", "status": "completed"}], "item 0: type 'web_search_call'"),
        (
            [{"type": "message", "role": "user", "content": "x", "zz": 1, "metadata": 1}],
            "item 0: unknown key 'metadata'",
        ),
        ([{"type": "message", "role": "tool", "content": "x"}], "item 0: role must be one of user, assistant"),
        ([{"type": "message", "role": "user"}], "item 0: missing key 'content'"),
        (
            [{"type": "message", "role": "user", "content": [{"type": "input_image", "image_url": "https://x"}]}],
            "item 0: part 0: a 'input_image' part has no place",
        ),
        (
            [{"role": "user", "content": "x"}, {"type": "function_call_output", "call_id": "c9", "output": "r"}],
            "item 1: call_id 'c9': no function_call before it awaits this output",
        ),
        (
            [
                {"role": "user", "content": "x"},
                {"type": "function_call", "call_id": "c1", "name": "s", "arguments": "{}"},
                {"type": "function_call", "call_id": "c1", "name": "s", "arguments": "{}"},
            ],
            "item 2: call_id 'c1' is already awaiting its output (item 1)",
        ),
        ([{"type": "function_call", "call_id": "c1", "name": 3, "arguments": "{}"}], "item 0: name must be a str"),
        ([7], "item 0: expected a dict, got int"),
        ([{"content": "x"}], "item 0: type None: only message, function_call"),
        ([{"role": "user", "content": []}], "item 0: content must be a str or a non-empty list of parts"),
        ([{"role": "user", "content": [{"type": "input_text", "text": 3}]}], "item 0: part 0: text must be a str"),
        (
            [
                {"role": "user", "content": "x"},
                {"type": "function_call", "call_id": "c1", "name": "s", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "c1", "output": []},
            ],
            "item 2: output must be a str or a non-empty list of parts",
        ),
        (
            [
                {"role": "user", "content": "x"},
                {"type": "function_call", "call_id": "c1", "name": "s", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "c1", "output": [{"type": "refusal", "refusal": "no"}]},
            ],
            "item 2: output part 0: a refusal part has no place in a tool's output",
        ),
    ],
)
def test_what_has_no_place_is_refused_naming_the_item(items, error):
    with pytest.raises(ValueError, match="^" + error.replace("(", r"\(").replace(")", r"\)")):
        from_responses(items)


def test_a_call_left_without_its_output_is_refused_by_the_checks_that_follow():
    items = [
        {"role": "user", "content": "x"},
        {"type": "function_call", "call_id": "c1", "name": "s", "arguments": "{}"},
    ]
    assert from_responses(items)[1]["tool_calls"][0]["id"] == "c1"  # a log may end on a call: group_turns says so
    with pytest.raises(ValueError, match="c1"):
        group_turns(from_responses(items + [{"role": "user", "content": "y"}]))


@pytest.mark.parametrize(
    ("item", "shown"),
    [
        ({"type": "message", "role": "user", "content": "x"}, "(message)"),
        ({"role": "user", "content": [{"type": "input_text", "text": "x"}]}, "(message with input_text parts)"),
        ({"type": "function_call", "call_id": "c1", "name": "s", "arguments": "{}"}, "(function_call)"),
        ({"type": "reasoning", "id": "rs_1", "summary": []}, "(reasoning)"),
    ],
)
def test_a_responses_item_anywhere_else_is_named_and_pointed_at_from_responses(item, shown):
    with pytest.raises(ValueError) as raised:
        require_messages([{"role": "system", "content": "s"}, item])
    assert str(raised.value).startswith(f"message 1: a Responses API item {shown}")
    assert "packer.chat.from_responses(items)" in str(raised.value)


def test_a_chat_message_with_an_unknown_key_keeps_its_own_error():
    with pytest.raises(ValueError, match="^message 0: unknown key 'metadata' for a user message"):
        require_messages([{"role": "user", "content": "x", "metadata": 1}])


def test_a_refusal_part_stays_a_refusal_part():
    items = [
        {"role": "user", "content": "x"},
        {"type": "message", "role": "assistant", "content": [{"type": "refusal", "refusal": "I can't."}]},
    ]
    assert from_responses(items)[1] == {"role": "assistant", "content": [{"type": "refusal", "refusal": "I can't."}]}


def test_a_part_that_is_not_a_dict_keeps_the_chat_shapes_own_error():
    with pytest.raises(ValueError, match="^message 0: content part 0: type must be one of"):
        require_messages([{"role": "user", "content": ["x"]}])


def test_an_sdk_objects_unset_fields_are_read_as_absent():
    question = responses_types.EasyInputMessage(role="user", content="And send()?")  # its type is None, unset
    assert from_responses([question]) == [{"role": "user", "content": "And send()?"}]


def test_an_sdk_objects_unset_fields_are_left_out_not_refused_as_unknown_keys():
    class NewerCall(responses_types.ResponseFunctionToolCall):  # a field a later SDK might add, left unset
        trace: str | None = None

    call = NewerCall(arguments="{}", call_id="c1", name="s", type="function_call")
    items = [{"role": "user", "content": "x"}, call, {"type": "function_call_output", "call_id": "c1", "output": "r"}]
    assert from_responses(items)[1]["tool_calls"][0]["function"] == {"name": "s", "arguments": "{}"}


def test_the_first_refusal_part_of_an_output_is_the_one_named():
    items = [
        {"role": "user", "content": "x"},
        {"type": "function_call", "call_id": "c1", "name": "s", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": [{"type": "input_text", "text": "a"}]},
        {"type": "function_call", "call_id": "c2", "name": "s", "arguments": "{}"},
    ]
    parts = [{"type": "input_text", "text": "a"}, {"type": "refusal", "refusal": "no"}]
    items.append({"type": "function_call_output", "call_id": "c2", "output": [*parts, parts[1]]})
    assert from_responses(items[:3])[2]["content"] == [{"type": "text", "text": "a"}]
    with pytest.raises(ValueError, match=r"^item 4: output part 1: a refusal part has no place"):
        from_responses(items)
