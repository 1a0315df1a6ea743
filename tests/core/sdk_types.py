"""The SDKs' own message types as a test's oracle: pydantic's TypeAdapter over openai's ChatCompletionMessageParam
and anthropic's MessageParam (both in the contributor set; nothing here calls a network).

The SDKs type messages as TypedDicts, which pydantic validates leniently in two ways this module closes: an
Iterable field (content parts, tool calls) is validated only as it is iterated, so every one is walked here; and a
TypedDict ignores keys it does not declare, so each message, call, function and part is also held to exactly the
keys its TypedDict declares.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Union

import pytest

openai_chat_types = pytest.importorskip("openai.types.chat", reason="the openai SDK is in the contributor set")
anthropic_types = pytest.importorskip("anthropic.types", reason="the anthropic SDK is in the contributor set")
from pydantic import TypeAdapter  # noqa: E402 - after the skips: pydantic comes with both SDKs

OPENAI_MESSAGE = TypeAdapter(openai_chat_types.ChatCompletionMessageParam)
ANTHROPIC_MESSAGE = TypeAdapter(anthropic_types.MessageParam)
ANTHROPIC_SYSTEM = TypeAdapter(Union[str, Iterable[anthropic_types.TextBlockParam]])  # noqa: UP007 - as the SDK spells it
OPENAI_ROLES = {
    "system": openai_chat_types.ChatCompletionSystemMessageParam,
    "developer": openai_chat_types.ChatCompletionDeveloperMessageParam,
    "user": openai_chat_types.ChatCompletionUserMessageParam,
    "assistant": openai_chat_types.ChatCompletionAssistantMessageParam,
    "tool": openai_chat_types.ChatCompletionToolMessageParam,
}
OPENAI_PARTS = {
    "text": openai_chat_types.ChatCompletionContentPartTextParam,
    "image_url": openai_chat_types.ChatCompletionContentPartImageParam,
    "input_audio": openai_chat_types.ChatCompletionContentPartInputAudioParam,
    "refusal": openai_chat_types.ChatCompletionContentPartRefusalParam,
}
OPENAI_CALL = openai_chat_types.ChatCompletionMessageFunctionToolCallParam
ANTHROPIC_BLOCKS = {
    "text": anthropic_types.TextBlockParam,
    "tool_use": anthropic_types.ToolUseBlockParam,
    "tool_result": anthropic_types.ToolResultBlockParam,
    "image": anthropic_types.ImageBlockParam,
    "thinking": anthropic_types.ThinkingBlockParam,
    "redacted_thinking": anthropic_types.RedactedThinkingBlockParam,
    "document": anthropic_types.DocumentBlockParam,
}


def _walked(value: Any) -> Any:
    """The validated value with every lazily validated Iterable run through (raising what it holds)."""
    if isinstance(value, Mapping):
        return {key: _walked(item) for key, item in value.items()}
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
        return [_walked(item) for item in value]
    return value


def _declared(typed_dict: type) -> set[str]:
    """The keys a TypedDict declares (its bases' included)."""
    keys: set[str] = set()
    for cls in typed_dict.__mro__:
        keys |= set(getattr(cls, "__annotations__", {}))
    return keys


def _only_declared(what: str, value: Mapping[str, Any], typed_dict: type) -> None:
    extra = set(value) - _declared(typed_dict)
    assert not extra, f"{what}: keys {sorted(extra)} are not in {typed_dict.__name__}"


def assert_openai_messages(messages: Iterable[Mapping[str, Any]]) -> None:
    """Each message is a ChatCompletionMessageParam, with no key its TypedDicts do not declare."""
    for index, message in enumerate(messages):
        _walked(OPENAI_MESSAGE.validate_python(message))
        _only_declared(f"message {index}", message, OPENAI_ROLES[message["role"]])
        for number, call in enumerate(message.get("tool_calls", ())):
            _only_declared(f"message {index} call {number}", call, OPENAI_CALL)
            assert set(call["function"]) == {"name", "arguments"}, f"message {index} call {number}: function"
        content = message.get("content")
        for number, part in enumerate(content if isinstance(content, list) else ()):
            _only_declared(f"message {index} part {number}", part, OPENAI_PARTS[part["type"]])


def assert_anthropic_messages(messages: Iterable[Mapping[str, Any]]) -> None:
    """Each message is Anthropic's MessageParam, each dict block with no key its TypedDict does not declare."""
    for index, message in enumerate(messages):
        _walked(ANTHROPIC_MESSAGE.validate_python(message))
        content = message["content"]
        for number, block in enumerate(content if isinstance(content, list) else ()):
            if isinstance(block, Mapping):
                _only_declared(f"message {index} block {number}", block, ANTHROPIC_BLOCKS[block["type"]])


def assert_anthropic_system(system: Any) -> None:
    """`system` is what messages.create's `system` takes (message_create_params.py: `Union[str,
    Iterable[TextBlockParam]]`), each block with no undeclared key."""
    _walked(ANTHROPIC_SYSTEM.validate_python(system))
    for number, block in enumerate(system if isinstance(system, list) else ()):
        _only_declared(f"system block {number}", block, anthropic_types.TextBlockParam)
