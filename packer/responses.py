"""OpenAI's Responses API items, turned into the workbook's shape (OpenAI's Chat Completions messages, packer/messages.py).

The Responses API (https://platform.openai.com/docs/api-reference/responses) and the Agents SDK built on it keep a
conversation as a flat list of items, typed in the `openai` SDK under src/openai/types/responses/:

    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What is a generator?"}]}
    {"type": "reasoning", "id": "rs_...", "summary": [], "encrypted_content": "..."}
    {"type": "function_call", "call_id": "call_8f3a", "name": "search", "arguments": "{\"query\": \"generator\"}"}
    {"type": "function_call_output", "call_id": "call_8f3a", "output": "[python-docs-3] A generator is ..."}
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "A generator ...",
                                                          "annotations": []}]}

(`EasyInputMessageParam`, `ResponseOutputMessageParam`, `ResponseReasoningItemParam`, `ResponseFunctionToolCallParam`
and `FunctionCallOutput` of `response_input_item_param.py`; the Agents SDK's `to_input_list()` gives the same items.)
`from_responses` maps them in order: a message item's `input_text` and `output_text` parts become text parts (an
`output_text` part's `annotations` and `logprobs` are left out: they annotate text, they are not text), a
`refusal` part a refusal part, a str content stays a str; `function_call` items become the `tool_calls` of one
assistant message (joined to the assistant message just before them, as Chat Completions returns text and calls in
one message), each with its `call_id` as the call's id; each `function_call_output` becomes a tool message whose
`tool_call_id` is its `call_id`, which must name a call made before it and not answered yet (the pairing is by
`call_id`, not by the items' `id`).

A `reasoning` item is left out. OpenAI's cookbook "Better performance from reasoning models using the Responses
API" (https://cookbook.openai.com/examples/responses_api/reasoning_items) says that in a multi-turn conversation the
reasoning tokens are discarded after each turn, while inputs and outputs are fed into the next; within a turn's
function calls, passing the reasoning items back lets the model continue its reasoning. Its text is OpenAI's
own, returned encrypted (`encrypted_content`) or only summarised, so no tokenizer can count it offline: a count of a
request sent in the middle of a tool loop leaves that reasoning out. Other item types (web search, file search,
computer, shell, image generation calls, item references) and image, file or audio parts have no place in a text
conversation: a ValueError naming the item's index and its type.

What every other function says when handed a Responses item is packer/responses_shape.py's: packer/messages.py asks
it before refusing a message, so a Responses item is named as one and the error points at `from_responses`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from packer.messages import Message, require_messages, require_text
from packer.responses_shape import ITEM_KEYS

MESSAGE_ROLES = ("user", "assistant", "system", "developer")
TEXT_PARTS = ("input_text", "output_text")


def from_responses(items: Any) -> list[Message]:
    """A Responses API item list in the workbook's shape (new dicts); reasoning items left out; ValueError naming the
    item index and type or key of anything that shape cannot hold, and any output without its call."""
    if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, (list, tuple)) or not items:
        raise ValueError(f"items must be a non-empty list of Responses API items, got {items!r:.80}")
    out: list[dict[str, Any]] = []
    waiting: dict[str, str] = {}  # call_id -> the item that made the call, until its output comes
    for index, value in enumerate(items):
        where = f"item {index}"
        item = _as_dict(where, value)
        kind = item.get("type", "message" if "role" in item else None)  # EasyInputMessage's type is optional
        if kind not in ITEM_KEYS:
            raise ValueError(
                f"{where}: type {kind!r}: only message, function_call, function_call_output and "
                "reasoning items have a place in a text conversation"
            )
        unknown = sorted((key for key in item if key not in ITEM_KEYS[kind]), key=str)
        if unknown:
            raise ValueError(f"{where}: unknown key {unknown[0]!r} in a {kind} item")
        if kind == "message":
            out.append(_message(where, item))
        elif kind == "function_call":
            _call(where, item, out, waiting)
        elif kind == "function_call_output":
            call_id = item.get("call_id")
            require_text(f"{where}: call_id", call_id)
            if waiting.pop(call_id, None) is None:
                raise ValueError(f"{where}: call_id {call_id!r}: no function_call before it awaits this output")
            out.append(
                {"role": "tool", "tool_call_id": call_id, "content": _output(f"{where}: output", item.get("output"))}
            )
    return require_messages(out)


def _as_dict(where: str, value: Any) -> Mapping[str, Any]:
    """An item as a dict: the SDK's response objects (response.output's items) dumped, nulls left out."""
    if isinstance(value, Mapping):
        return value
    if hasattr(value, "model_dump"):
        return value.model_dump(exclude_none=True)
    raise ValueError(f"{where}: expected a dict, got {type(value).__name__}")


def _message(where: str, item: Mapping[str, Any]) -> dict[str, Any]:
    """A message item as a chat message of the same role."""
    role = item.get("role")
    if role not in MESSAGE_ROLES:
        raise ValueError(f"{where}: role must be one of {', '.join(MESSAGE_ROLES)}, got {role!r}")
    if "content" not in item:
        raise ValueError(f"{where}: missing key 'content' in a message item")
    content = item["content"]
    if isinstance(content, str):
        return {"role": role, "content": content}
    if not isinstance(content, (list, tuple)) or not content:
        raise ValueError(f"{where}: content must be a str or a non-empty list of parts, got {content!r:.80}")
    return {"role": role, "content": [_part(f"{where}: part {number}", part) for number, part in enumerate(content)]}


def _part(where: str, value: Any) -> dict[str, str]:
    """An input_text, output_text or refusal part as the chat shape's text or refusal part."""
    part = _as_dict(where, value)
    kind = part.get("type")
    if kind in TEXT_PARTS:
        require_text(f"{where}: text", part.get("text"))
        return {"type": "text", "text": part["text"]}
    if kind == "refusal":
        require_text(f"{where}: refusal", part.get("refusal"))
        return {"type": "refusal", "refusal": part["refusal"]}
    raise ValueError(
        f"{where}: a {kind!r} part has no place in a text conversation (only input_text, output_text and refusal parts)"
    )


def _call(where: str, item: Mapping[str, Any], out: list[dict[str, Any]], waiting: dict[str, str]) -> None:
    """Add a function_call to the assistant message just before it (text or calls), or start one."""
    for key in ("call_id", "name", "arguments"):
        require_text(f"{where}: {key}", item.get(key))
    call_id = item["call_id"]
    if call_id in waiting:
        raise ValueError(f"{where}: call_id {call_id!r} is already awaiting its output ({waiting[call_id]})")
    waiting[call_id] = where
    call = {"id": call_id, "type": "function", "function": {"name": item["name"], "arguments": item["arguments"]}}
    last = out[-1] if out else None
    if last is not None and last["role"] == "assistant":
        last.setdefault("tool_calls", []).append(call)
    else:
        out.append({"role": "assistant", "content": None, "tool_calls": [call]})


def _output(where: str, output: Any) -> str | list[dict[str, str]]:
    """A function_call_output's output: a str, or its input_text parts as text parts."""
    if isinstance(output, str):
        return output
    if not isinstance(output, (list, tuple)) or not output:
        raise ValueError(f"{where} must be a str or a non-empty list of parts, got {output!r:.80}")
    parts = [_part(f"{where} part {number}", part) for number, part in enumerate(output)]
    refused = [number for number, part in enumerate(parts) if part["type"] != "text"]
    if refused:
        raise ValueError(f"{where} part {refused[0]}: a refusal part has no place in a tool's output")
    return parts
