"""Request counters (packer.chat): Mistral's templates counted exactly, OpenAI's cookbook estimate reproduced."""

from __future__ import annotations

import subprocess
import sys

import pytest

import packer.chat
from packer.chat import (
    MISTRAL_VERSIONS,
    chat_counters,
    line_cost_of,
    mistral_chat,
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


@pytest.mark.parametrize(
    "messages",
    [
        [{"role": "assistant", "content": "x"}],  # a conversation cannot open with the assistant
        [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}],  # nor end with it
    ],
)
def test_a_request_the_template_cannot_render_is_a_value_error(messages):
    with pytest.raises(ValueError, match="messages: the v7 template cannot render this request"):
        mistral_chat("v7")(messages)


# --- both kinds: one contract -------------------------------------------------------------------------

BAD_MESSAGES = [
    (None, "messages must be a non-empty list"),
    ([], "messages must be a non-empty list"),
    ("hi", "messages must be a non-empty list"),
    ({"role": "user", "content": "x"}, "messages must be a non-empty list"),
    (["hi"], "message 0: expected a dict"),
    ([{"role": "user"}], "message 0: missing 'content'"),
    ([{"role": "bot", "content": "x"}], "message 0: role must be one of system, user, assistant"),
    ([{"content": "x"}], "message 0: role must be one of"),
    ([{"role": "user", "content": 5}], "message 0: content must be a str"),
    ([{"role": "user", "content": "x"}, {"role": "user", "content": None}], "message 1: content must be a str"),
    ([{"role": "user", "content": "x\ud800"}], "message 0: content is not valid UTF-8 at index 1"),
    ([{"role": "user", "content": "x", "tool_calls": "y"}], "message 0: unknown key 'tool_calls'"),
    ([{"role": "user", "content": "x", "zeta": "y", "alpha": "z"}], "message 0: unknown key 'alpha' "),
]


@pytest.mark.parametrize(("messages", "error"), BAD_MESSAGES)
@pytest.mark.parametrize("name", sorted(chat_counters()))
def test_every_counter_refuses_a_malformed_request_naming_the_message(name, messages, error):
    with pytest.raises(ValueError, match=error):
        chat_counters()[name](messages)


def test_a_name_is_part_of_openais_format_but_not_of_mistrals():
    named = [{"role": "user", "content": "x", "name": "ann"}]
    assert openai_chat("o200k_base")(named) > 0
    with pytest.raises(ValueError, match="message 0: unknown key 'name'"):
        mistral_chat("v7")(named)
    with pytest.raises(ValueError, match="message 0: name must be a str"):
        openai_chat("o200k_base")([{"role": "user", "content": "x", "name": 1}])


def test_require_messages_returns_copies_so_a_counter_cannot_change_the_callers_request():
    messages = [{"role": "user", "content": "x"}]
    checked = require_messages(messages)
    checked[0]["content"] = "changed"
    assert messages == [{"role": "user", "content": "x"}]
    assert require_messages(({"role": "user", "content": "x"},)) == [{"role": "user", "content": "x"}]


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
