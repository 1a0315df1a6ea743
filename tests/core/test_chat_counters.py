"""Request counters (packer.chat): Mistral's templates counted exactly, OpenAI's cookbook estimate reproduced."""

from __future__ import annotations

import json
import subprocess
import sys
from types import SimpleNamespace

import pytest

import packer.chat
from packer.chat import (
    MISTRAL_VERSIONS,
    adds_up_by_turn,
    chat_counters,
    line_cost_of,
    mistral_chat,
    mistral_ids,
    mistral_text,
    mistral_tokens,
    openai_chat,
    require_messages,
)
from packer.counters import bpe

pytest.importorskip("mistral_common", reason="mistral-common (Mistral's templates) is not installed: run `make venv`")
pytest.importorskip(
    "sentencepiece", reason="sentencepiece (Mistral's tokenizer models) is not installed: run `make venv`"
)

CONVERSATION = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": "Hello"},
    {"role": "user", "content": "What is 2+2?"},
]
USER = [{"role": "user", "content": "Hi"}]
SEARCH_TOOL = {
    "type": "function",
    "function": {
        "name": "search",
        "description": "Search the docs",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
    },
}

# The worked example of OpenAI's cookbook, "How to count tokens with tiktoken", section 6: its function and the
# API both give 129 prompt tokens for gpt-4-0613 (cl100k_base) and 124 for gpt-4o (o200k_base).
COOKBOOK_MESSAGES = [
    {
        "role": "system",
        "content": "You are a helpful, pattern-following assistant that translates corporate jargon into plain English.",
    },
    {"role": "system", "name": "example_user", "content": "New synergies will help drive top-line growth."},
    {"role": "system", "name": "example_assistant", "content": "Things working well together will increase revenue."},
    {
        "role": "system",
        "name": "example_user",
        "content": "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
    },
    {
        "role": "system",
        "name": "example_assistant",
        "content": "Let's talk later when we're less busy about how to do better.",
    },
    {
        "role": "user",
        "content": "This late pivot means we don't have time to boil the ocean for the client deliverable.",
    },
]


# --- OpenAI: the cookbook's estimate ---------------------------------------------------------------


@pytest.mark.parametrize(("encoding", "expected"), [("cl100k_base", 129), ("o200k_base", 124)])
def test_openai_chat_reproduces_the_cookbooks_worked_example(encoding, expected):
    assert openai_chat(encoding)(COOKBOOK_MESSAGES) == expected


def test_openai_chat_is_3_per_message_the_values_tokens_1_per_name_and_3_for_the_reply():
    tokens = bpe("o200k_base")
    count = openai_chat("o200k_base")
    assert count([{"role": "user", "content": "Hi"}]) == 3 + tokens("user") + tokens("Hi") + 3
    named = [{"role": "user", "content": "Hi", "name": "ann"}]
    assert count(named) == 3 + tokens("user") + tokens("Hi") + tokens("ann") + 1 + 3
    two = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
    assert count(two) == count(two[1:]) + 3 + tokens("system") + tokens("Be brief.")


def test_openai_chat_counts_special_token_look_alikes_as_plain_text():
    count = openai_chat("cl100k_base")
    assert count([{"role": "user", "content": "<|endoftext|>"}]) == 3 + 1 + bpe("cl100k_base")("<|endoftext|>") + 3


@pytest.mark.parametrize("encoding", [None, "gpt2", "CL100K_BASE", 5, ["cl100k_base"]])
def test_openai_chat_refuses_an_unknown_encoding_naming_the_argument(encoding):
    with pytest.raises(ValueError, match="encoding must be one of cl100k_base, o200k_base"):
        openai_chat(encoding)


# --- Mistral: exact, through mistral-common ----------------------------------------------------------


def test_each_template_places_the_system_prompt_where_mistral_common_puts_it():
    texts = {version: mistral_text(CONVERSATION, version) for version in MISTRAL_VERSIONS}
    assert texts["v1"] == "<s>▁[INST]▁Be▁brief.<0x0A><0x0A>Hi▁[/INST]▁Hello</s>▁[INST]▁What▁is▁2+2?▁[/INST]"
    assert texts["v2"] == "<s>[INST]▁Hi[/INST]▁Hello</s>[INST]▁Be▁brief.<0x0A><0x0A>What▁is▁2+2?[/INST]"
    assert texts["v3"] == texts["v2"]
    assert (
        texts["v7"]
        == "<s>[SYSTEM_PROMPT]▁Be▁brief.[/SYSTEM_PROMPT][INST]▁Hi[/INST]▁Hello</s>[INST]▁What▁is▁2+2?[/INST]"
    )


def test_the_same_conversation_costs_what_each_template_makes_of_it():
    assert {version: mistral_chat(version)(CONVERSATION) for version in MISTRAL_VERSIONS} == {
        "v1": 30,
        "v2": 20,
        "v3": 20,
        "v7": 20,
    }


@pytest.mark.parametrize("version", MISTRAL_VERSIONS)
def test_the_count_is_the_number_of_tokens_the_model_receives(version):
    pieces = mistral_tokens(CONVERSATION, version)
    assert mistral_chat(version)(CONVERSATION) == len(pieces)
    assert pieces[0] == "<s>" and "".join(pieces).endswith("[/INST]")  # v1 spells [/INST] as text: ▁[, /, INST, ]


def test_a_newline_is_two_tokens_for_one_byte_under_sentencepiece_byte_fallback():
    with_newline = [{"role": "user", "content": "Hi\n"}]
    assert mistral_tokens(with_newline, "v7") == ["<s>", "[INST]", "▁Hi", "<0x0A>", "[/INST]"]
    assert mistral_tokens([{"role": "user", "content": "\n"}], "v7")[2:4] == ["▁", "<0x0A>"]


@pytest.mark.parametrize("version", ["v2", "v3", "v7"])
def test_one_small_tool_adds_57_tokens_to_the_request(version):
    user = [{"role": "user", "content": "Hi"}]
    assert mistral_chat(version)(user) == 4
    assert mistral_chat(version, tools=[SEARCH_TOOL])(user) == 61
    assert "[AVAILABLE_TOOLS]" in mistral_text(user, version, tools=[SEARCH_TOOL])


def test_the_v1_template_has_no_tools_so_the_counter_refuses_them():
    with pytest.raises(ValueError, match="tools: the v1 template has no tool definitions"):
        mistral_chat("v1", tools=[SEARCH_TOOL])


@pytest.mark.parametrize("tools", ["search", SEARCH_TOOL, 5, [{"type": "function"}], [7]])
def test_malformed_tools_are_refused_naming_the_argument_or_item(tools):
    with pytest.raises(ValueError, match=r"^tools? "):
        mistral_chat("v7", tools=tools)


@pytest.mark.parametrize(
    ("tools", "error"),
    [
        ([{"type": "function"}], "tool 0: function: Field required"),
        ([SEARCH_TOOL, 7], "tool 1: the definition: Input should be a valid dictionary or instance of Tool"),
        ([{"type": "function", "function": {"name": 5}}], "tool 0: function.name: Input should be a valid string"),
    ],
)
def test_a_malformed_tool_is_named_with_the_first_field_at_fault(tools, error):
    with pytest.raises(ValueError) as raised:
        mistral_chat("v7", tools=tools)
    assert str(raised.value) == error


def test_a_missing_mistral_common_is_an_import_error_that_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "mistral_common.tokens.tokenizers.mistral", None)
    with pytest.raises(ImportError, match="mistral_chat needs mistral-common and sentencepiece"):
        packer.chat._mistral.__wrapped__("v7")


@pytest.mark.parametrize("version", [None, "v4", "V7", 7, "tekken"])
def test_an_unknown_template_version_is_refused(version):
    with pytest.raises(ValueError, match="version must be one of v1, v2, v3, v7"):
        mistral_chat(version)
    with pytest.raises(ValueError, match="version must be one of"):
        mistral_text(CONVERSATION, version)


# --- both kinds: one contract -------------------------------------------------------------------------

BAD_MESSAGES = [
    (None, "messages must be a non-empty list"),
    ([], "messages must be a non-empty list"),
    ("hi", "messages must be a non-empty list"),
    ({"role": "user", "content": "x"}, "messages must be a non-empty list"),
    (["hi"], "message 0: expected a dict"),
    ([{"role": "user"}], "message 0: missing 'content'"),
    ([{"role": "bot", "content": "x"}], "message 0: role must be one of system, developer, user, assistant, tool"),
    ([{"role": "function", "name": "f", "content": "x"}], "message 0: role 'function' is OpenAI's deprecated shape"),
    ([{"content": "x"}], "message 0: role must be one of"),
    ([{"role": "user", "content": 5}], "message 0: content must be a str or a non-empty list of parts"),
    ([{"role": "user", "content": "x"}, {"role": "user", "content": None}], "message 1: content must be a str or a"),
    ([{"role": "assistant", "content": None}], "message 0: content may be null or absent only beside tool_calls"),
    ([{"role": "user", "content": []}], "message 0: content must be a str or a non-empty list of parts"),
    ([{"role": "user", "content": [{"text": "x"}]}], "message 0: content part 0: type must be one of text, image_url"),
    (
        [{"role": "system", "content": [{"type": "image_url", "image_url": {"url": "u"}}]}],
        "message 0: content part 0: type must be one of text here",
    ),
    ([{"role": "user", "content": [{"type": "text"}]}], "message 0: content part 0: missing key 'text' in a text part"),
    (
        [{"role": "user", "content": [{"type": "text", "text": "x", "z": 1}]}],
        "message 0: content part 0: unknown key 'z'",
    ),
    ([{"role": "user", "content": [{"type": "text", "text": 5}]}], "message 0: content part 0: text must be a str"),
    ([{"role": "user", "content": "x"}, SimpleNamespace(model_dump=dict)], "message 1: .* pass message.model_dump"),
    ([{"role": "user", "content": "x\ud800"}], "message 0: content is not valid UTF-8 at index 1"),
    ([{"role": "user", "content": "x", "tool_calls": "y"}], "message 0: unknown key 'tool_calls' for a user message"),
    (
        [{"role": "assistant", "content": "x", "function_call": {"name": "f"}}],
        "message 0: function_call is OpenAI's deprecated",
    ),
    ([{"role": "user", "content": "x", "zeta": "y", "alpha": "z"}], "message 0: unknown key 'alpha' "),
]


@pytest.mark.parametrize(("messages", "error"), BAD_MESSAGES)
@pytest.mark.parametrize("name", sorted(chat_counters()))
def test_every_counter_refuses_a_malformed_request_naming_the_message(name, messages, error):
    with pytest.raises(ValueError, match=error):
        chat_counters()[name](messages)


def test_a_name_is_part_of_openais_format_but_mistral_common_drops_it_so_its_counter_refuses_it():
    named = [{"role": "user", "content": "x", "name": "ann"}]
    assert openai_chat("o200k_base")(named) > 0
    with pytest.raises(ValueError, match="message 0: key 'name': mistral-common drops it"):
        mistral_chat("v7")(named)
    with pytest.raises(ValueError, match="message 1: key 'refusal': mistral-common drops it"):
        mistral_chat("v7")(
            [{"role": "user", "content": "x"}, {"role": "assistant", "content": "no", "refusal": "I cannot"}]
        )
    replied = [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y", "refusal": None, "audio": None}]
    assert mistral_text(replied + [{"role": "user", "content": "z"}], "v7").count("[INST]") == 2, "null keys pass"
    with pytest.raises(ValueError, match="message 0: name must be a str"):
        openai_chat("o200k_base")([{"role": "user", "content": "x", "name": 1}])


def test_require_messages_returns_the_callers_own_messages():
    messages = ({"role": "user", "content": "x"},)
    checked = require_messages(messages)
    assert checked == list(messages) and checked[0] is messages[0]


def test_each_counter_is_made_once_so_its_identity_carries_its_line_cost():
    assert mistral_chat("v7") is mistral_chat("v7")
    assert mistral_chat("v7", tools=[SEARCH_TOOL]) is mistral_chat("v7", tools=(dict(SEARCH_TOOL),))
    assert mistral_chat("v7", tools=[SEARCH_TOOL]) is not mistral_chat("v7")
    schema = SEARCH_TOOL["function"]["parameters"]
    reordered = {**SEARCH_TOOL, "function": {**SEARCH_TOOL["function"], "parameters": dict(reversed(schema.items()))}}
    assert mistral_text(USER, "v7", [reordered]) != mistral_text(USER, "v7", [SEARCH_TOOL]), "rendered as given"
    assert mistral_chat("v7", tools=[reordered]) is not mistral_chat("v7", tools=[SEARCH_TOOL])
    assert openai_chat("cl100k_base") is openai_chat("cl100k_base")
    for counter in chat_counters().values():
        assert line_cost_of(counter) is not None
    look_alike = lambda messages: mistral_chat("v7")(messages)  # noqa: E731 - a learner's own callable
    assert line_cost_of(look_alike) is None
    assert line_cost_of(mistral_chat("v7").__call__) is None


def test_counters_are_named_for_what_they_count():
    assert mistral_chat("v3").__name__ == "count_mistral_v3"
    assert mistral_chat("v3", tools=[SEARCH_TOOL]).__name__ == "count_mistral_v3_with_tools"
    assert openai_chat("o200k_base").__name__ == "count_openai_chat_o200k_base"
    assert list(chat_counters()) == [
        "Mistral v1 (exact)",
        "Mistral v2 (exact)",
        "Mistral v3 (exact)",
        "Mistral v7 (exact)",
        "OpenAI cl100k_base (cookbook estimate)",
        "OpenAI o200k_base (cookbook estimate)",
    ]


def test_making_a_counter_loads_no_tokenizer(monkeypatch):
    def refuse(version):
        raise AssertionError("a tokenizer was loaded")

    monkeypatch.setattr(packer.chat, "_mistral", refuse)
    tool = {**SEARCH_TOOL, "function": {**SEARCH_TOOL["function"], "name": "made_here_only"}}
    counter = mistral_chat("v3", tools=[tool])
    with pytest.raises(AssertionError, match="loaded"):
        counter([{"role": "user", "content": "x"}])


def test_import_packer_loads_neither_mistral_common_nor_a_tokenizer():
    code = (
        "import sys, packer, packer.chat; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mistral_common', 'sentencepiece', 'pydantic')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --- tool calls and their results (lesson 09) -----------------------------------------------------------

CALL_ID = "aB3dE5gH7"  # Mistral's v3+ templates take 9 letters and digits
CALL = {  # as OpenAI's SDK sends a call: nested as a function, null content beside it
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": CALL_ID, "type": "function", "function": {"name": "search", "arguments": '{"query": "yield"}'}}
    ],
}
RESULT = {"role": "tool", "tool_call_id": CALL_ID, "content": "Yield pauses the generator."}
TOOL_CONVERSATION = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "What does yield do?"},
    CALL,
    RESULT,
    {"role": "assistant", "content": "It pauses."},
    {"role": "user", "content": "Thanks!"},
]


def test_v3_and_v7_render_a_call_and_its_result_where_they_stand():
    assert mistral_text(TOOL_CONVERSATION, "v3") == (
        '<s>[INST]▁What▁does▁yield▁do?[/INST][TOOL_CALLS]▁[{"name":▁"search",▁"arguments":▁{"query":▁"yield"},'
        '▁"id":▁"aB3dE5gH7"}]</s>[TOOL_RESULTS]▁{"content":▁"Yield▁pauses▁the▁generator.",▁"call_id":▁"aB3dE5gH7"}'
        "[/TOOL_RESULTS]▁It▁pauses.</s>[INST]▁Be▁brief.<0x0A><0x0A>Thanks![/INST]"
    )
    assert mistral_text(TOOL_CONVERSATION, "v7") == (
        "<s>[SYSTEM_PROMPT]▁Be▁brief.[/SYSTEM_PROMPT][INST]▁What▁does▁yield▁do?[/INST][TOOL_CALLS]▁"
        '[{"name":▁"search",▁"arguments":▁{"query":▁"yield"},▁"id":▁"aB3dE5gH7"}]</s>[TOOL_RESULTS]▁aB3dE5gH7'
        "[TOOL_CONTENT]▁Yield▁pauses▁the▁generator.[/TOOL_RESULTS]▁It▁pauses.</s>[INST]▁Thanks![/INST]"
    )
    assert mistral_chat("v3")(TOOL_CONVERSATION) == 85
    assert mistral_chat("v7")(TOOL_CONVERSATION) == 75


def test_a_request_may_end_with_a_tool_result_the_model_is_to_answer():
    assert mistral_text(TOOL_CONVERSATION[:4], "v7").endswith(
        "[TOOL_CONTENT]▁Yield▁pauses▁the▁generator.[/TOOL_RESULTS]"
    )
    assert mistral_chat("v7")(TOOL_CONVERSATION[:4]) == 66


def test_v2_drops_calls_and_results_before_the_last_user_message_so_its_counter_refuses_them():
    rendered = mistral_text(TOOL_CONVERSATION, "v2")  # mistral-common's own rendering: the tool traffic is gone
    assert rendered == "<s>[INST]▁What▁does▁yield▁do?[/INST]▁It▁pauses.</s>[INST]▁Be▁brief.<0x0A><0x0A>Thanks![/INST]"
    with pytest.raises(ValueError, match="message 2: the v2 template drops tool calls and results before the last"):
        mistral_chat("v2")(TOOL_CONVERSATION)


def test_v1_has_no_tool_calls_mistral_common_refuses_them_and_so_does_the_counter():
    with pytest.raises(ValueError, match="cannot render this request: Tools not implemented for tokenizer V1"):
        mistral_text(TOOL_CONVERSATION, "v1")
    with pytest.raises(ValueError, match="message 2: the v1 template has no tool calls or results"):
        mistral_chat("v1")(TOOL_CONVERSATION)
    answered_in_text = [TOOL_CONVERSATION[1], {"role": "assistant", "content": "x"}, RESULT]
    with pytest.raises(ValueError, match="message 2: the v1 template"):
        mistral_chat("v1")(answered_in_text)


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_openais_estimate_has_no_rule_for_tool_traffic_and_refuses_it_naming_the_message(encoding):
    with pytest.raises(ValueError, match=r"message 2: openai_chat \(the cookbook's estimate\) has no published rule"):
        openai_chat(encoding)(TOOL_CONVERSATION)
    with pytest.raises(ValueError, match="message 1: openai_chat"):
        openai_chat(encoding)([{"role": "user", "content": "x"}, RESULT])


def test_mistral_common_refuses_a_tool_result_with_no_call_before_it():
    orphan = [{"role": "user", "content": "Hi"}, RESULT]
    for version in ("v3", "v7"):
        with pytest.raises(ValueError, match="message 1: a tool result right after a user message"):
            mistral_chat(version)(orphan)


def test_mistral_common_counts_a_call_left_without_its_result_and_a_result_answering_no_call_it_made():
    """What keeping pairs whole has to guard against: mistral-common renders both without complaint
    (packer.history.group_turns refuses them)."""
    dangling = [TOOL_CONVERSATION[1], CALL, {"role": "user", "content": "Never mind."}]
    assert mistral_text(dangling, "v7").endswith('"id":▁"aB3dE5gH7"}]</s>[INST]▁Never▁mind.[/INST]')
    assert mistral_chat("v7")(dangling) == 47
    stranger = [TOOL_CONVERSATION[1], CALL, {**RESULT, "tool_call_id": "zZ9yY8xX7"}, *TOOL_CONVERSATION[4:]]
    assert "[TOOL_RESULTS]▁zZ9yY8xX7[TOOL_CONTENT]" in mistral_text(stranger, "v7")


def with_id(call_id):
    """TOOL_CONVERSATION's first turn with another call id."""
    call = {**CALL, "tool_calls": [{**CALL["tool_calls"][0], "id": call_id}]}
    return [TOOL_CONVERSATION[1], call, {**RESULT, "tool_call_id": call_id}]


@pytest.mark.parametrize(
    "call_id", ["call_8f3a9b2c1d7e", "toolu_01A09q90qw90lq917835lq9", "aB3dE5gH", "aB3dE5-H7", "7"]
)
def test_an_id_mistral_refuses_is_mapped_to_9_letters_and_digits_the_same_for_the_call_and_its_result(call_id):
    mapped = packer.chat.mistral_call_id(call_id)
    assert len(mapped) == 9 and mapped.isascii() and mapped.isalnum() and mapped == packer.chat.mistral_call_id(call_id)
    shaped = packer.chat.for_mistral(with_id(call_id))
    assert shaped[1]["tool_calls"][0]["id"] == shaped[2]["tool_call_id"] == mapped
    for version in ("v3", "v7"):
        assert mistral_chat(version)(with_id(call_id)) == mistral_chat(version)(with_id(mapped))


def test_an_id_mistral_takes_is_kept_so_a_count_is_the_one_mistral_gives_that_conversation():
    assert packer.chat.mistral_call_id(CALL_ID) == CALL_ID
    assert packer.chat.mistral_call_id("call_a") != packer.chat.mistral_call_id("call_b")
    assert packer.chat.mistral_call_id("call_8f3a9b2c1d7e") == "i18BlYg55", "a function of the id alone, every run"


def test_mapping_ids_leaves_the_callers_messages_as_they_were():
    conversation = with_id("call_8f3a9b2c1d7e")
    before = json.dumps(conversation)
    mistral_chat("v7")(conversation)
    assert json.dumps(conversation) == before


def test_text_beside_a_call_renders_under_v7_and_is_refused_under_v3():
    talking = [TOOL_CONVERSATION[1], {**CALL, "content": "Let me look."}, RESULT]
    assert "▁Let▁me▁look.[TOOL_CALLS]" in mistral_text(talking, "v7")
    with pytest.raises(ValueError, match="must have either content or tool_calls, but not both"):
        mistral_chat("v3")(talking)


def function_call(call_id, arguments='{"query": "a"}', name="search"):
    """One call as OpenAI's SDK types it (ChatCompletionMessageFunctionToolCallParam)."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def test_several_calls_in_one_message_each_with_its_result():
    conversation = [
        TOOL_CONVERSATION[1],
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [function_call("aaaaaaaa1"), function_call("aaaaaaaa2", '{"query": "b"}')],
        },
        {"role": "tool", "tool_call_id": "aaaaaaaa1", "content": "A"},
        {"role": "tool", "tool_call_id": "aaaaaaaa2", "content": "B"},
    ]
    assert '"id":▁"aaaaaaaa1"},▁{"name":▁"search"' in mistral_text(conversation, "v7")
    assert mistral_chat("v7")(conversation) == 74


def assistant_calls(*calls):
    return {"role": "assistant", "content": None, "tool_calls": list(calls)}


BAD_TOOL_MESSAGES = [
    ([{"role": "user", "content": "x"}, {"role": "tool", "content": "r"}], "message 1: missing 'tool_call_id'"),
    ([{"role": "tool", "tool_call_id": 5, "content": "r"}], "message 0: tool_call_id must be a str, got int"),
    ([{"role": "user", "content": "x", "tool_call_id": "a"}], "message 0: unknown key 'tool_call_id' for a user"),
    ([{"role": "tool", "tool_call_id": "a", "content": "r", "tool_calls": []}], "message 0: unknown key 'tool_calls'"),
    ([{"role": "tool", "tool_call_id": "a", "content": None}], "message 0: content must be a str or a non-empty list"),
    (
        [{"role": "tool", "tool_call_id": "a", "name": "search", "content": "r"}],
        "message 0: unknown key 'name' for a tool",
    ),
    ([{"role": "assistant", "content": None, "tool_calls": []}], "message 0: tool_calls must be a non-empty list"),
    (  # a reply's null tool_calls is read as absent (packer/messages.py), which leaves null content alone
        [{"role": "assistant", "content": None, "tool_calls": None}],
        "message 0: content may be null or absent only beside tool_calls",
    ),
    ([{"role": "assistant", "content": "", "tool_calls": "search"}], "message 0: tool_calls must be a non-empty list"),
    ([assistant_calls("search")], "message 0: tool call 0: expected a dict with id, type, function, got str"),
    ([assistant_calls({"id": "a", "name": "s", "arguments": "{}"})], "message 0: tool call 0: type must be 'function'"),
    (
        [assistant_calls({"id": "a", "type": "custom", "custom": {"name": "s", "input": "x"}})],
        "tool call 0: type must be 'function'",
    ),
    ([assistant_calls({"id": "a", "type": "function"})], "message 0: tool call 0: missing key 'function'"),
    ([assistant_calls({**function_call("a"), "x": 1})], "message 0: tool call 0: unknown key 'x'"),
    ([assistant_calls({**function_call("a"), "function": "s"})], "message 0: tool call 0: function must be a dict"),
    (
        [assistant_calls({**function_call("a"), "function": {"name": "s"}})],
        "tool call 0: function: missing key 'arguments'",
    ),
    ([assistant_calls(function_call(1))], "message 0: tool call 0: id must be a str, got int"),
    (
        [assistant_calls(function_call("a", name="s\ud800"))],
        "message 0: tool call 0: function: name is not valid UTF-8",
    ),
    (
        [assistant_calls(function_call("a", "{query"))],
        "tool call 0: function: arguments must be JSON text, got '{query'",
    ),
    ([assistant_calls(function_call("a", {"query": "x"}))], "tool call 0: function: arguments must be a str, got dict"),
]


@pytest.mark.parametrize(("messages", "error"), BAD_TOOL_MESSAGES)
@pytest.mark.parametrize("name", sorted(chat_counters()))
def test_every_counter_checks_the_shape_of_tool_calls_and_results_naming_the_message(name, messages, error):
    with pytest.raises(ValueError, match=error):
        chat_counters()[name](messages)


@pytest.mark.parametrize("version", ["v3", "v7"])
def test_null_absent_and_empty_content_beside_a_call_count_alike(version):
    count = mistral_chat(version)
    absent = {key: value for key, value in CALL.items() if key != "content"}
    assert count(TOOL_CONVERSATION) == count([*TOOL_CONVERSATION[:2], absent, *TOOL_CONVERSATION[3:]])
    assert count(TOOL_CONVERSATION) == count([*TOOL_CONVERSATION[:2], {**CALL, "content": ""}, *TOOL_CONVERSATION[3:]])


@pytest.mark.parametrize("version", ["v3", "v7"])
def test_text_parts_are_counted_as_mistral_common_joins_them_with_a_blank_line(version):
    parts = [
        {"role": "user", "content": [{"type": "text", "text": "What does"}, {"type": "text", "text": "yield do?"}]}
    ]
    assert mistral_chat(version)(parts) == mistral_chat(version)(
        [{"role": "user", "content": "What does\n\nyield do?"}]
    )


@pytest.mark.parametrize("version", ["v3", "v7"])
def test_developer_is_openais_name_for_the_system_prompt_and_counts_as_one(version):
    as_developer = [{**TOOL_CONVERSATION[0], "role": "developer"}, *TOOL_CONVERSATION[1:]]
    assert mistral_chat(version)(as_developer) == mistral_chat(version)(TOOL_CONVERSATION)


CANNOT_COUNT = [  # OpenAI's shape allows them; mistral-common's tokenizers here read text only
    ({"type": "image_url", "image_url": {"url": "https://example.org/a.png"}}, "type 'image_url'"),
    ({"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}, "type 'input_audio'"),
    ({"type": "file", "file": {"file_id": "file-1"}}, "type 'file'"),
]


@pytest.mark.parametrize(("part", "error"), CANNOT_COUNT)
@pytest.mark.parametrize("name", sorted(chat_counters()))
def test_a_part_a_counter_cannot_count_is_a_value_error_naming_the_message_and_part(name, part, error):
    messages = [{"role": "user", "content": [{"type": "text", "text": "Look:"}, part]}]
    require_messages(messages)  # OpenAI's shape
    with pytest.raises(ValueError, match=f"message 0: content part 1: {error}"):
        chat_counters()[name](messages)


def test_a_refusal_part_is_the_assistants_and_no_counter_counts_it():
    refused = [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "I can't."}]},
        {"role": "user", "content": "y"},
    ]
    require_messages(refused)
    for count in chat_counters().values():
        with pytest.raises(ValueError, match="message 1: content part 0: type 'refusal'"):
            count(refused)


def test_openais_estimate_counts_each_text_part_as_the_cookbook_counts_a_value():
    count, tokens = openai_chat("o200k_base"), bpe("o200k_base")
    parts = [{"role": "user", "content": [{"type": "text", "text": "Hello"}, {"type": "text", "text": " world"}]}]
    assert count(parts) == 3 + 3 + tokens("user") + tokens("Hello") + tokens(" world")


@pytest.mark.parametrize("version", ["v3", "v7"])
def test_mistral_ids_are_the_tokens_the_counter_counts(version):
    ids = mistral_ids(TOOL_CONVERSATION, version, tools=[SEARCH_TOOL])
    assert len(ids) == mistral_chat(version, tools=[SEARCH_TOOL])(TOOL_CONVERSATION)
    assert all(type(i) is int for i in ids) and ids[0] == 1  # BOS
    model = packer.chat._mistral(version).instruct_tokenizer.tokenizer._model
    assert [model.id_to_piece(i) for i in ids] == mistral_tokens(TOOL_CONVERSATION, version, tools=[SEARCH_TOOL])


def test_mistral_ids_refuse_what_the_counter_refuses():
    with pytest.raises(ValueError, match="tools: the v1 template has no tool definitions"):
        mistral_ids(USER, "v1", tools=[SEARCH_TOOL])
    with pytest.raises(ValueError, match="message 2: the v2 template drops"):
        mistral_ids(TOOL_CONVERSATION, "v2")
    with pytest.raises(ValueError, match="version must be one of"):
        mistral_ids(USER, "v4")
    with pytest.raises(ValueError, match="tool 0: function"):
        mistral_ids(USER, "v7", tools=[{"type": "function"}])
    assert len(mistral_ids(USER, "v1")) == mistral_chat("v1")(USER)


def test_every_shipped_counter_adds_up_by_turn_but_v1_with_a_system_prompt():
    for name, counter in chat_counters().items():
        assert adds_up_by_turn(counter, system=False), name
        assert adds_up_by_turn(counter, system=True) is (name != "Mistral v1 (exact)"), name
    assert adds_up_by_turn(mistral_chat("v7", tools=[SEARCH_TOOL]), system=True)
    assert not adds_up_by_turn(lambda messages: mistral_chat("v7")(messages), system=False)
    assert not adds_up_by_turn(mistral_chat("v7").__call__, system=False)


def test_a_mistral_counter_encodes_a_request_once_and_a_changed_request_afresh(monkeypatch):
    """Policies compared over one conversation count the same requests again and again: the counter remembers a
    request's count by its JSON text, so a request changed in place (the same list object) is counted again."""
    encoded: list[int] = []
    original = packer.chat._encode

    def recording(version, messages, tools, counted=False):
        encoded.append(len(messages))
        return original(version, messages, tools, counted)

    monkeypatch.setattr(packer.chat, "_encode", recording)
    count = mistral_chat("v3")
    request = [{"role": "user", "content": "How long is the Kyoto train ride today?"}]
    first = count(request)
    assert count([dict(m) for m in request]) == first and encoded == [1]  # an equal request: not encoded again
    request[0]["content"] += " And back?"
    assert count(request) > first and encoded == [1, 1]
    request.append({"role": "assistant", "content": "Two hours."})
    request.append({"role": "user", "content": "Thanks."})
    assert count(request) > first + 3 and len(encoded) == 3
    packer.chat.forget_counts()  # as the benchmarks do before each timed run
    count(request)
    assert len(encoded) == 4
    for _ in range(2):  # refused each time: a refusal is not remembered as a count
        with pytest.raises(ValueError, match="not valid UTF-8"):
            count([{"role": "user", "content": "\ud800"}])


@pytest.mark.parametrize(
    ("messages", "error"),
    [
        ([{"role": "assistant", "content": "x"}], "message 0: the request ends on the assistant's message"),
        (  # a log as kept, ending on the answer: the request that got it is the one to count
            [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}],
            r"message 1: the request ends on the assistant's message.*count the request that got this reply",
        ),
        (  # Anthropic's "tool_result, then text" in one user message, or an interrupted tool loop
            [*TOOL_CONVERSATION[:4], {"role": "user", "content": "Also, thanks!"}],
            r"message 4: a user message right after a tool result.*add the assistant's reply before it",
        ),
        (
            [TOOL_CONVERSATION[1], CALL, {**CALL, "tool_calls": [function_call("bbbbbbbb2")]}, RESULT],
            r"message 2: an assistant message before the results of the calls of an earlier one",
        ),
        ([TOOL_CONVERSATION[0], RESULT], r"message 1: a tool result right after a system message"),
        ([RESULT, TOOL_CONVERSATION[1]], r"message 0: a tool result first, which Mistral's templates refuse"),
        (  # one call of two answered: the reply comes too early
            [
                TOOL_CONVERSATION[1],
                {**CALL, "tool_calls": [function_call("aaaaaaaa1"), function_call("aaaaaaaa2")]},
                {**RESULT, "tool_call_id": "aaaaaaaa1"},
                {"role": "assistant", "content": "Done."},
                TOOL_CONVERSATION[1],
            ],
            r"message 3: an assistant message before the results of the calls of an earlier one",
        ),
    ],
)
def test_a_request_the_template_cannot_render_is_a_value_error_naming_the_message_and_what_to_do(messages, error):
    for version in ("v3", "v7"):
        with pytest.raises(ValueError, match=error):
            mistral_chat(version)(messages)
