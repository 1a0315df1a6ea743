"""How a message is told apart as an item of OpenAI's Responses API (packer/responses.py turns those into messages).

packer/messages.py asks `responses_refusal` before it refuses a message: a Responses item (its `type`, or parts of
the Responses API's kinds such as `input_text`) is then named as one, and the error points at `from_responses`,
instead of a key or role the Chat Completions shape does not have. Types from the `openai` SDK's
src/openai/types/responses/ (`ResponseInputItemParam`'s members and their content parts).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ITEM_KEYS = {  # keys each item type may have (the SDK's param and response types); any other is refused
    "message": ("type", "role", "content", "id", "status", "phase"),
    "function_call": ("type", "call_id", "name", "arguments", "id", "status", "namespace", "caller", "async", "async_"),
    "function_call_output": ("type", "call_id", "output", "id", "status", "caller", "name", "namespace"),
    "reasoning": ("type", "id", "summary", "content", "encrypted_content", "status"),
}
# Item and part types only the Responses API has: how any other function tells a Responses item apart.
RESPONSES_TYPES = frozenset(ITEM_KEYS) | {
    "item_reference",
    "file_search_call",
    "web_search_call",
    "computer_call",
    "computer_call_output",
    "local_shell_call",
    "local_shell_call_output",
    "image_generation_call",
    "code_interpreter_call",
    "mcp_call",
    "custom_tool_call",
    "custom_tool_call_output",
}
RESPONSES_PARTS = frozenset({"input_text", "output_text", "input_image", "input_file", "input_audio"})


def responses_refusal(where: str, message: Any) -> str | None:
    """What to say of a message that is a Responses API item (by its item or part types), else None."""
    if not isinstance(message, Mapping):
        return None
    kind = message.get("type")
    content = message.get("content")
    parts = content if isinstance(content, (list, tuple)) else ()
    part_kinds = {part.get("type") for part in parts if isinstance(part, Mapping)}
    if kind in RESPONSES_TYPES or part_kinds & RESPONSES_PARTS:
        shown = kind if kind in RESPONSES_TYPES else f"message with {sorted(part_kinds & RESPONSES_PARTS)[0]} parts"
        return (
            f"{where}: a Responses API item ({shown}), not a Chat Completions message: turn the whole list "
            "into messages with packer.chat.from_responses(items)"
        )
    return None
