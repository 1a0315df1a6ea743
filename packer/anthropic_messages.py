"""Anthropic's Messages shape, turned into the workbook's (OpenAI's Chat Completions shape, packer/messages.py).

Anthropic's Messages API (https://platform.claude.com/docs/en/api/messages) takes the system prompt apart, as the
`system` argument (a str or a list of text blocks), and a list of user and assistant messages whose content is a
str or a list of blocks. A call is a `tool_use` block in the assistant's message, `{"type": "tool_use", "id",
"name", "input": {...}}`; its result is a `tool_result` block at the start of the next user message,
`{"type": "tool_result", "tool_use_id", "content": str or text blocks}`
(https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls). `from_anthropic` maps them in
order: the system prompt becomes a system message; an assistant's text blocks its content (null when it has none
beside its calls) and its tool_use blocks its `tool_calls`, each `input` written as JSON text; each tool_result
block a tool message of its own; a user's text blocks, in their place among those, a user message. A str stays a
str and a list of text blocks becomes a list of text parts. `cache_control` and `citations` are left out (they
mark and annotate text, they are not text). Anything with no place in OpenAI's shape is a ValueError naming the
message, block and type or key: an image or document, a `thinking` block, an error result (`is_error`), which
OpenAI's tool messages cannot say.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from packer.messages import Message, require_messages, require_text

BLOCK_KEYS = {  # the keys mapped or left out knowingly; any other is refused
    "text": ("type", "text", "cache_control", "citations"),
    "tool_use": ("type", "id", "name", "input", "cache_control"),
    "tool_result": ("type", "tool_use_id", "content", "is_error", "cache_control"),
}
BLOCKS_OF_ROLE = {"user": ("text", "tool_result"), "assistant": ("text", "tool_use"), "text": ("text",)}


def from_anthropic(system: Any, messages: Any) -> list[Message]:
    """The conversation of Anthropic's `messages.create(system=..., messages=...)` in OpenAI's shape (new dicts);
    ValueError naming the message, block and key of anything that shape cannot hold."""
    out: list[dict[str, Any]] = []
    if system is not None and system != "" and system != []:
        out.append({"role": "system", "content": _text("system", system)})
    if isinstance(messages, (str, bytes, Mapping)) or not isinstance(messages, (list, tuple)) or not messages:
        raise ValueError(f"messages must be a non-empty list of Anthropic messages, got {messages!r:.80}")
    for index, message in enumerate(messages):
        out += _converted(f"message {index}", _as_dict(f"message {index}", message))
    return require_messages(out)


def _as_dict(where: str, value: Any) -> Mapping[str, Any]:
    """A message or block as a dict: the SDK's response objects (response.content's blocks) dumped, nulls left out."""
    if isinstance(value, Mapping):
        return value
    if hasattr(value, "model_dump"):
        return value.model_dump(exclude_none=True)
    raise ValueError(f"{where}: expected a dict, got {type(value).__name__}")


def _converted(where: str, message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One Anthropic message as one or more OpenAI messages, in order."""
    role = message.get("role")
    if role not in BLOCKS_OF_ROLE:
        raise ValueError(f"{where}: role must be user or assistant (the system prompt goes apart), got {role!r}")
    unknown = sorted((key for key in message if key not in ("role", "content")), key=str)
    if unknown or "content" not in message:
        raise ValueError(f"{where}: {'unknown' if unknown else 'missing'} key {(unknown or ['content'])[0]!r}")
    content = message["content"]
    if isinstance(content, str):
        return [{"role": role, "content": content}]
    if not isinstance(content, (list, tuple)) or not content:
        raise ValueError(f"{where}: content must be a str or a non-empty list of blocks, got {content!r:.80}")
    blocks = [_block(f"{where}: block {number}", block, role) for number, block in enumerate(content)]
    if role == "assistant":
        return [_assistant(blocks)]
    out: list[dict[str, Any]] = []
    for block in blocks:
        if block["type"] == "tool_result":
            out.append(_tool_message(block))
        elif out and out[-1]["role"] == "user":
            out[-1]["content"].append(_part(block))
        else:
            out.append({"role": "user", "content": [_part(block)]})
    return out


def _block(where: str, value: Any, role: str) -> Mapping[str, Any]:
    """A content block, checked: a kind this role may have here, with known keys; ValueError naming it."""
    block = _as_dict(where, value)
    kind = block.get("type")
    if kind not in BLOCKS_OF_ROLE[role]:
        allowed = " or ".join(BLOCKS_OF_ROLE[role])
        raise ValueError(f"{where}: a {kind!r} block has no place in OpenAI's shape here (only {allowed} blocks)")
    unknown = sorted((key for key in block if key not in BLOCK_KEYS[kind]), key=str)
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} in a {kind} block")
    if kind == "text":
        require_text(f"{where}: text", block.get("text"))
    elif kind == "tool_use":
        for key in ("id", "name"):
            require_text(f"{where}: {key}", block.get(key))
        if not isinstance(block.get("input"), Mapping):
            raise ValueError(f"{where}: input must be a dict of the call's arguments, got {block.get('input')!r:.80}")
    else:
        require_text(f"{where}: tool_use_id", block.get("tool_use_id"))
        if block.get("is_error"):
            raise ValueError(f"{where}: is_error: an error result has no place in OpenAI's tool message")
        return {**block, "content": _text(f"{where}: content", block.get("content", ""))}
    return block


def _text(where: str, content: Any) -> str | list[dict[str, str]]:
    """A str as it is, or a list of text blocks as text parts; ValueError naming a block of another kind."""
    if isinstance(content, str):
        return content
    if not isinstance(content, (list, tuple)) or not content:
        raise ValueError(f"{where} must be a str or a non-empty list of text blocks, got {content!r:.80}")
    return [_part(_block(f"{where}: block {number}", block, "text")) for number, block in enumerate(content)]


def _part(block: Mapping[str, Any]) -> dict[str, str]:
    """A checked text block as OpenAI's text part."""
    return {"type": "text", "text": block["text"]}


def _assistant(blocks: list[Mapping[str, Any]]) -> dict[str, Any]:
    """An assistant's blocks as one message: its text blocks the content (None beside calls alone), its tool_use
    blocks the tool_calls."""
    texts = [_part(block) for block in blocks if block["type"] == "text"]
    calls = [
        {
            "id": block["id"],
            "type": "function",
            "function": {"name": block["name"], "arguments": json.dumps(block["input"], ensure_ascii=False)},
        }
        for block in blocks
        if block["type"] == "tool_use"
    ]
    message: dict[str, Any] = {"role": "assistant", "content": texts or None}
    if calls:
        message["tool_calls"] = calls
    return message


def _tool_message(block: Mapping[str, Any]) -> dict[str, Any]:
    """A tool_result block as a tool message."""
    return {"role": "tool", "tool_call_id": block["tool_use_id"], "content": block["content"]}
