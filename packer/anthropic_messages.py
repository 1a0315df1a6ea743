"""Anthropic's Messages shape, turned into the workbook's (OpenAI's Chat Completions shape, packer/messages.py).

Anthropic's Messages API (https://platform.claude.com/docs/en/api/messages) takes the system prompt apart, as the
`system` argument (a str or a list of text blocks), and a list of user and assistant messages whose content is a
str or a list of blocks. A call is a `tool_use` block in the assistant's message, `{"type": "tool_use", "id",
"name", "input": {...}}`; its result is a `tool_result` block at the start of the next user message,
`{"type": "tool_result", "tool_use_id", "content": str or blocks}`
(https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls). `from_anthropic` maps them in
order: the system prompt becomes a system message; an assistant's text blocks its content (null when it has none
beside its calls) and its tool_use blocks its `tool_calls`, each `input` written as JSON text; each tool_result
block a tool message of its own; a user's text and image blocks, in their place among those, a user message. A str
stays a str and a list of text blocks becomes a list of text parts. What becomes of the rest, and why:

- Consecutive messages of one role are merged into one, as the API merges them: "Consecutive `user` or
  `assistant` turns in your request will be combined into a single turn" (the `messages` parameter of
  `messages.create`, anthropic-sdk-python src/anthropic/types/message_create_params.py).
- `thinking` and `redacted_thinking` blocks of earlier turns are left out: "previous thinking blocks are
  automatically stripped from the context window calculation by the Anthropic API"
  (https://platform.claude.com/docs/en/build-with-claude/context-windows, "The context window with extended
  thinking"; its models list says which newer models keep them, https://platform.claude.com/docs/en/build-with-
  claude/extended-thinking). In an ongoing tool loop (the conversation ends on a user message of tool results
  only) the same page says the thinking blocks of the assistant turns since the last user message that is not
  results must be passed back and count as input tokens: OpenAI's shape has no place for them, so they are a
  ValueError naming the message and block, rather than a count that leaves them out.
- A `tool_result` with `is_error: true` becomes a tool message of its content: the handle-tool-calls page has the
  error's text returned as the result's content, which is what the model reads; OpenAI's tool message has no
  error flag, so the flag itself is left out.
- An image block becomes OpenAI's `image_url` part (a base64 source as a `data:` URL, a URL source as it is), so a
  counter that cannot count images refuses it naming the message (packer/chat.py); an image by file id, or in a
  tool result (OpenAI's tool message holds text parts only), is a ValueError naming it.
- `cache_control` (a prompt-cache breakpoint, https://platform.claude.com/docs/en/build-with-claude/prompt-caching:
  it marks where a cached prefix ends and adds no text), `citations` (they annotate text), a tool_use's `caller`
  (who invoked the tool: the model directly or its code, ToolUseBlockParam's `Caller`) and `toolset_name` are left
  out; a null value, as the SDK's response models dump an unset Optional field (`TextBlock.citations`,
  `ToolUseBlock.caller`), is read as absent.

Anything else (a document, a key the block's type does not have) is a ValueError naming the message, block and
type or key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from packer.messages import Message, require_messages, require_text

BLOCK_KEYS = {  # the keys mapped or left out knowingly; any other is refused
    "text": ("type", "text", "cache_control", "citations"),
    "image": ("type", "source", "cache_control"),
    "tool_use": ("type", "id", "name", "input", "cache_control", "caller", "toolset_name"),
    "tool_result": ("type", "tool_use_id", "content", "is_error", "cache_control", "toolset_name"),
    "thinking": ("type", "thinking", "signature"),
    "redacted_thinking": ("type", "data"),
}
BLOCKS_OF_ROLE = {
    "user": ("text", "image", "tool_result"),
    "assistant": ("text", "tool_use", "thinking", "redacted_thinking"),
    "text": ("text",),
    "result": ("text", "image"),
}
THINKING_KEYS = {"thinking": ("thinking", "signature"), "redacted_thinking": ("data",)}
THINKING = tuple(THINKING_KEYS)
Block = tuple[str, Mapping[str, Any]]  # (where, checked block)


def from_anthropic(system: Any, messages: Any) -> list[Message]:
    """The conversation of Anthropic's `messages.create(system=..., messages=...)` in OpenAI's shape (new dicts);
    ValueError naming the message, block and key of anything that shape cannot hold."""
    out: list[dict[str, Any]] = []
    if system is not None and system != "" and system != []:
        out.append({"role": "system", "content": _text("system", system)})
    if isinstance(messages, (str, bytes, Mapping)) or not isinstance(messages, (list, tuple)) or not messages:
        raise ValueError(f"messages must be a non-empty list of Anthropic messages, got {messages!r:.80}")
    turns = _merged([_checked(f"message {index}", message) for index, message in enumerate(messages)])
    loop = _ongoing_loop(turns)
    for number, (role, blocks, content) in enumerate(turns):
        if role == "assistant":
            out.append(_assistant(blocks, content, in_loop=number in loop))
        else:
            out += _user(blocks, content)
    return require_messages(out)


def _checked(where: str, value: Any) -> tuple[str, list[Block], Any]:
    """(role, its blocks checked, the content as given): one message; ValueError naming the message or block."""
    message = _as_dict(where, value)
    role = message.get("role")
    if role not in ("user", "assistant"):
        raise ValueError(f"{where}: role must be user or assistant (the system prompt goes apart), got {role!r}")
    unknown = sorted((key for key in message if key not in ("role", "content")), key=str)
    if unknown or "content" not in message:
        raise ValueError(f"{where}: {'unknown' if unknown else 'missing'} key {(unknown or ['content'])[0]!r}")
    content = message["content"]
    if isinstance(content, str):
        return role, [(where, {"type": "text", "text": content})], content
    if not isinstance(content, (list, tuple)) or not content:
        raise ValueError(f"{where}: content must be a str or a non-empty list of blocks, got {content!r:.80}")
    blocks = [(f"{where}: block {n}", _block(f"{where}: block {n}", block, role)) for n, block in enumerate(content)]
    return role, blocks, None


def _merged(messages: list[tuple[str, list[Block], Any]]) -> list[tuple[str, list[Block], Any]]:
    """Consecutive messages of one role as one (their blocks in order); a message alone keeps its str content."""
    turns: list[tuple[str, list[Block], Any]] = []
    for role, blocks, content in messages:
        if turns and turns[-1][0] == role:
            turns[-1] = (role, turns[-1][1] + blocks, None)
        else:
            turns.append((role, blocks, content))
    return turns


def _ongoing_loop(turns: list[tuple[str, list[Block], Any]]) -> set[int]:
    """The numbers of the assistant turns of an ongoing tool loop: when the conversation ends on tool results,
    those after the last user turn that is not tool results alone (none when it ends on the assistant)."""
    if turns[-1][0] == "assistant":
        return set()
    loop: set[int] = set()
    for number, (role, blocks, _) in reversed(list(enumerate(turns))):
        if role == "assistant":
            loop.add(number)
        elif not all(block["type"] == "tool_result" for _, block in blocks):
            break
    return loop


def _as_dict(where: str, value: Any) -> Mapping[str, Any]:
    """A message or block as a dict: the SDK's response objects (response.content's blocks) dumped, nulls left out."""
    if isinstance(value, Mapping):
        return value
    if hasattr(value, "model_dump"):
        return value.model_dump()  # its nulls are read as absent by _block
    raise ValueError(f"{where}: expected a dict, got {type(value).__name__}")


def _block(where: str, value: Any, role: str) -> Mapping[str, Any]:
    """A content block, checked: a kind this role may have here, with known keys, nulls read as absent; ValueError
    naming it."""
    block = {key: item for key, item in _as_dict(where, value).items() if item is not None}
    kind = block.get("type")
    if kind not in BLOCKS_OF_ROLE[role]:
        allowed = " or ".join(BLOCKS_OF_ROLE[role])
        raise ValueError(f"{where}: a {kind!r} block has no place in OpenAI's shape here (only {allowed} blocks)")
    unknown = sorted((key for key in block if key not in BLOCK_KEYS[kind]), key=str)
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} in a {kind} block")
    if kind == "text":
        require_text(f"{where}: text", block.get("text"))
    elif kind == "image":
        return {"type": "image_url", "image_url": {"url": _image_url(f"{where}: source", block.get("source"))}}
    elif kind == "tool_use":
        for key in ("id", "name"):
            require_text(f"{where}: {key}", block.get(key))
        if not isinstance(block.get("input"), Mapping):
            raise ValueError(f"{where}: input must be a dict of the call's arguments, got {block.get('input')!r:.80}")
    elif kind == "tool_result":
        require_text(f"{where}: tool_use_id", block.get("tool_use_id"))
        if "is_error" in block and not isinstance(block["is_error"], bool):
            raise ValueError(f"{where}: is_error must be true or false, got {block['is_error']!r:.80}")
        return {**block, "content": _text(f"{where}: content", block.get("content", ""), "result")}
    else:
        for key in THINKING_KEYS[kind]:
            require_text(f"{where}: {key}", block.get(key))
    return block


def _image_url(where: str, source: Any) -> str:
    """An image block's source as the URL of OpenAI's image_url part: a base64 source as a data: URL."""
    kind = source.get("type") if isinstance(source, Mapping) else None
    if kind == "url":
        require_text(f"{where}: url", source.get("url"))
        return source["url"]
    if kind == "base64":
        for key in ("media_type", "data"):
            require_text(f"{where}: {key}", source.get(key))
        return f"data:{source['media_type']};base64,{source['data']}"
    raise ValueError(f"{where}: type must be base64 or url (OpenAI's image_url part has no file id), got {kind!r}")


def _text(where: str, content: Any, role: str = "text") -> str | list[dict[str, Any]]:
    """A str as it is, or a list of text blocks as text parts; ValueError naming a block of another kind."""
    if isinstance(content, str):
        return content
    if not isinstance(content, (list, tuple)) or not content:
        raise ValueError(f"{where} must be a str or a non-empty list of text blocks, got {content!r:.80}")
    parts = [_part(_block(f"{where}: block {number}", block, role)) for number, block in enumerate(content)]
    for number, part in enumerate(parts):
        if part["type"] != "text":
            raise ValueError(
                f"{where}: block {number}: an image in a tool result: OpenAI's tool message holds text only"
            )
    return parts


def _part(block: Mapping[str, Any]) -> dict[str, Any]:
    """A checked text block as OpenAI's text part (an image, already OpenAI's part, as it is)."""
    if block["type"] == "image_url":
        return dict(block)
    return {"type": "text", "text": block["text"]}


def _user(blocks: list[Block], content: Any) -> list[dict[str, Any]]:
    """A user turn as OpenAI messages in order: each tool_result a tool message, the blocks between them a user's."""
    if content is not None:
        return [{"role": "user", "content": content}]
    out: list[dict[str, Any]] = []
    for _, block in blocks:
        if block["type"] == "tool_result":
            out.append({"role": "tool", "tool_call_id": block["tool_use_id"], "content": block["content"]})
        elif out and out[-1]["role"] == "user":
            out[-1]["content"].append(_part(block))
        else:
            out.append({"role": "user", "content": [_part(block)]})
    return out


def _assistant(blocks: list[Block], content: Any, in_loop: bool) -> dict[str, Any]:
    """An assistant turn as one message: its text blocks the content (None beside calls alone), its tool_use blocks
    the tool_calls, its thinking left out (a ValueError in an ongoing tool loop: module doc)."""
    if content is not None:
        return {"role": "assistant", "content": content}
    for where, block in blocks:
        if in_loop and block["type"] in THINKING:
            raise ValueError(
                f"{where}: a {block['type']} block in an ongoing tool loop counts as input (Anthropic's context "
                "windows page) and OpenAI's shape has no place for it: end the log on a reply, or leave it out"
            )
    texts = [_part(block) for _, block in blocks if block["type"] == "text"]
    calls = [
        {
            "id": block["id"],
            "type": "function",
            "function": {"name": block["name"], "arguments": json.dumps(block["input"], ensure_ascii=False)},
        }
        for _, block in blocks
        if block["type"] == "tool_use"
    ]
    if not texts and not calls:
        raise ValueError(f"{blocks[0][0]}: an assistant turn of thinking alone leaves nothing in OpenAI's shape")
    message: dict[str, Any] = {"role": "assistant", "content": texts or None}
    if calls:
        message["tool_calls"] = calls
    return message
