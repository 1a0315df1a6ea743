"""The workbook's message shape: OpenAI's Chat Completions request messages, as the API documents them and the
`openai` SDK types them (`ChatCompletionMessageParam`, openai-python's src/openai/types/chat/;
https://platform.openai.com/docs/api-reference/chat/create). Every function that takes a conversation takes it:

    {"role": "system", "content": "You are a search assistant."}                 (or "developer", OpenAI's newer name)
    {"role": "user", "content": "What is a generator?"}
    {"role": "assistant", "content": None, "tool_calls": [{"id": "call_8f3a9b2c1d7e", "type": "function",
                                                           "function": {"name": "search", "arguments": '{"query": "generator"}'}}]}
    {"role": "tool", "tool_call_id": "call_8f3a9b2c1d7e", "content": "[python-docs-3] A generator is ..."}
    {"role": "assistant", "content": "A generator is a function that yields [python-docs-3]."}

`content` is a str or a list of parts: text parts `{"type": "text", "text": ...}` for every role, and besides them
image, audio and file parts in a user's message and refusal parts in an assistant's; an assistant's content may be
null (None) or absent beside its `tool_calls` (or a reply's `refusal` or `audio`, which a reply of either has
instead of content: `ChatCompletionMessage`). A call's `arguments` is JSON text. The other keys the SDK's types
allow: `name` (system, developer, user, assistant), and an assistant's `refusal` and `audio`. A key the types do not
have, a deprecated `function` message or `function_call`, a call of a custom tool: a ValueError naming the message
index and the key. Counters may refuse more (a part they cannot count), each saying what and where.

An assistant message may also be a reply as the SDKs dump it (`.model_dump()`, `.model_dump(exclude_none=True)`,
`.to_dict()`): what a request never carries is read as absent, so that a logged reply goes back in as it is:
- `annotations`, a reply's URL citations: a field of the response type `ChatCompletionMessage`
  (openai-python src/openai/types/chat/chat_completion_message.py) that `ChatCompletionAssistantMessageParam`,
  the request's type, does not have;
- `provider_specific_fields`, LiteLLM's extras of a reply: a field of LiteLLM's response type `Message`
  (litellm/types/utils.py), never an OpenAI key;
- a null `refusal`, `audio`, `function_call` or `tool_calls`: `ChatCompletionMessage` types each `Optional`, and a
  dump keeps the None (`ChatCompletionAssistantMessageParam` makes the first three optional and nullable);
- a reply's `audio` with the fields of the response type `ChatCompletionAudio` (`id`, `data`, `expires_at`,
  `transcript`; chat_completion_audio.py), of which a request sends back the `id`.
`sent` gives a checked message's keys as a request sends them. A key that neither the request types nor these
response types have is still a ValueError naming it.

The APIs' rule for tool calls, which `require_calls_answered` holds a conversation to: a message with tool calls
is followed by the tool messages answering them before any other message. OpenAI answers 400 "An assistant message
with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'"; Anthropic wants each
tool_result in the very next user message (https://platform.claude.com/docs/en/agents-and-tools/tool-use/
handle-tool-calls); mistral-common's validator raises "Not the same number of function calls and responses" for an
assistant message before the results (`_validate_tool_calls_followed_by_tool_messages`, protocol/instruct/
validator.py, in every validation mode).

`require_messages` checks a conversation and returns the caller's own message objects, never copies: what a
packer keeps of a conversation is the caller's messages as given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from packer.responses_shape import responses_refusal

Message = Mapping[str, Any]

ROLES = ("system", "developer", "user", "assistant", "tool")
SYSTEM_ROLES = ("system", "developer")  # the system prompt: "developer" is OpenAI's name for it since its o1 models
MESSAGE_KEYS = {  # the keys of each role's TypedDict in openai-python's src/openai/types/chat/
    "system": ("role", "content", "name"),
    "developer": ("role", "content", "name"),
    "user": ("role", "content", "name"),
    "assistant": ("role", "content", "name", "refusal", "audio", "tool_calls", "function_call"),
    "tool": ("role", "content", "tool_call_id"),
}
PART_KEYS = {  # each content part's keys (prompt_cache_breakpoint: a caching mark, not content)
    "text": ("type", "text", "prompt_cache_breakpoint"),
    "image_url": ("type", "image_url", "prompt_cache_breakpoint"),
    "input_audio": ("type", "input_audio", "prompt_cache_breakpoint"),
    "file": ("type", "file", "prompt_cache_breakpoint"),
    "refusal": ("type", "refusal"),
}
PARTS_OF_ROLE = {
    "system": ("text",),
    "developer": ("text",),
    "user": ("text", "image_url", "input_audio", "file"),
    "assistant": ("text", "refusal"),
    "tool": ("text",),
}
RESPONSE_ONLY = ("annotations", "provider_specific_fields")  # a reply's keys no request carries (module doc)
NULL_AS_ABSENT = ("refusal", "audio", "function_call", "tool_calls")  # Optional in ChatCompletionMessage
REPLY_AUDIO_KEYS = {"id", "data", "expires_at", "transcript"}  # ChatCompletionAudio, a reply's audio
CALL_KEYS = ("id", "type", "function")
FUNCTION_KEYS = ("name", "arguments")


def require_messages(messages: Any) -> list[Message]:
    """A conversation in OpenAI's shape, checked: the caller's own messages in a list; ValueError naming the first
    message and key that break the shape."""
    if isinstance(messages, (str, bytes, Mapping)) or not isinstance(messages, (list, tuple)) or not messages:
        raise ValueError(f"messages must be a non-empty list of messages, got {messages!r:.80}")
    for index, message in enumerate(messages):
        try:
            _require_message(f"message {index}", message)
        except ValueError:
            said = responses_refusal(f"message {index}", message)
            if said is None:
                raise
            raise ValueError(said) from None
    return list(messages)


def _require_message(where: str, message: Any) -> None:
    """Raise naming `where` and the key unless `message` is one of ChatCompletionMessageParam's shapes."""
    if not isinstance(message, Mapping):
        hint = " (an SDK object: pass message.model_dump(exclude_none=True))" if hasattr(message, "model_dump") else ""
        raise ValueError(f"{where}: expected a dict with 'role' and 'content', got {type(message).__name__}{hint}")
    role = message.get("role")
    if role == "function":
        raise ValueError(f"{where}: role 'function' is OpenAI's deprecated shape: send tool messages instead")
    if role not in ROLES:
        raise ValueError(f"{where}: role must be one of {', '.join(ROLES)}, got {role!r}")
    present = sent(message)
    allowed = MESSAGE_KEYS[role]
    unknown = sorted((key for key in present if key not in allowed), key=str)
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} for a {role} message (allowed: {', '.join(allowed)})")
    for key in ("name", "tool_call_id", "refusal"):
        if key in present:
            require_text(f"{where}: {key}", present[key])
    if role == "tool" and "tool_call_id" not in present:
        raise ValueError(f"{where}: missing 'tool_call_id' (a tool message answers one call)")
    if "function_call" in present:
        raise ValueError(f"{where}: function_call is OpenAI's deprecated shape: send tool_calls instead")
    audio = present.get("audio")
    if audio is not None and not (isinstance(audio, Mapping) and set(audio) in ({"id"}, REPLY_AUDIO_KEYS)):
        raise ValueError(f"{where}: audio must be null or {{'id': ...}}, got {audio!r:.80}")
    if "tool_calls" in present:
        _require_tool_calls(where, present["tool_calls"])
    if role == "assistant" and present.get("content") is None:
        if not any(key in present for key in ("tool_calls", "refusal", "audio")):
            raise ValueError(f"{where}: content may be null or absent only beside tool_calls, a refusal or audio")
        return
    if "content" not in present:
        raise ValueError(f"{where}: missing 'content'")
    _require_content(f"{where}: content", present["content"], PARTS_OF_ROLE[role])


def sent(message: Message) -> dict[str, Any]:
    """A message's keys as a request sends them: an assistant's response-only keys and its nulls that a reply's dump
    keeps (module doc) left out."""
    if message.get("role") != "assistant":
        return dict(message)
    return {
        key: value
        for key, value in message.items()
        if key not in RESPONSE_ONLY and not (value is None and key in NULL_AS_ABSENT)
    }


def _require_content(what: str, content: Any, kinds: tuple[str, ...]) -> None:
    """Raise naming `what` unless `content` is a str or a non-empty list of parts of the given kinds."""
    if isinstance(content, str):
        require_text(what, content)
        return
    if not isinstance(content, (list, tuple)) or not content:
        raise ValueError(f"{what} must be a str or a non-empty list of parts, got {content!r:.80}")
    for number, part in enumerate(content):
        where = f"{what} part {number}"
        kind = part.get("type") if isinstance(part, Mapping) else None
        if kind not in kinds:
            raise ValueError(f"{where}: type must be one of {', '.join(kinds)} here, got {kind!r}")
        unknown = sorted((key for key in part if key not in PART_KEYS[kind]), key=str)
        if unknown or kind not in part:
            key = unknown[0] if unknown else kind
            raise ValueError(f"{where}: {'unknown' if unknown else 'missing'} key {key!r} in a {kind} part")
        if kind in ("text", "refusal"):
            require_text(f"{where}: {kind}", part[kind])


def _require_tool_calls(where: str, calls: Any) -> None:
    """Raise naming the call and key unless `calls` is a non-empty list of function calls with JSON arguments."""
    if not isinstance(calls, (list, tuple)) or not calls:
        raise ValueError(f"{where}: tool_calls must be a non-empty list of calls, got {calls!r:.80}")
    for number, call in enumerate(calls):
        what = f"{where}: tool call {number}"
        if not isinstance(call, Mapping):
            raise ValueError(f"{what}: expected a dict with {', '.join(CALL_KEYS)}, got {type(call).__name__}")
        if call.get("type") != "function":
            raise ValueError(f"{what}: type must be 'function' (a function tool's call), got {call.get('type')!r}")
        _require_exact_keys(what, call, CALL_KEYS)
        require_text(f"{what}: id", call["id"])
        function = call["function"]
        if not isinstance(function, Mapping):
            raise ValueError(f"{what}: function must be a dict with name and arguments, got {function!r:.80}")
        _require_exact_keys(f"{what}: function", function, FUNCTION_KEYS)
        for key in FUNCTION_KEYS:
            require_text(f"{what}: function: {key}", function[key])
        try:
            json.loads(function["arguments"])
        except json.JSONDecodeError:
            raise ValueError(
                f"{what}: function: arguments must be JSON text, got {function['arguments']!r:.80}"
            ) from None


def _require_exact_keys(what: str, value: Mapping[str, Any], keys: tuple[str, ...]) -> None:
    """Raise naming the first missing or unknown key."""
    missing = [key for key in keys if key not in value]
    if missing:
        raise ValueError(f"{what}: missing key {missing[0]!r}")
    unknown = sorted((key for key in value if key not in keys), key=str)
    if unknown:
        raise ValueError(f"{what}: unknown key {unknown[0]!r} (allowed: {', '.join(keys)})")


def require_text(what: str, value: Any) -> None:
    """Raise naming `what` unless `value` is a str that UTF-8 can encode."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a str, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(f"{what} is not valid UTF-8 at index {error.start}: {error.reason}") from None


def content_text(message: Message) -> str:
    """A checked message's text: its content str, or its text parts joined by a blank line (as mistral-common joins
    them), "" for null content; other parts (an image) are left out."""
    content = message.get("content")
    if content is None or isinstance(content, str):
        return content or ""
    return "\n\n".join(part["text"] for part in content if part["type"] == "text")


def is_tool_traffic(message: Message) -> bool:
    """Whether a checked message is a tool call or a tool result."""
    return message["role"] == "tool" or bool(calls_of(message))


def calls_of(message: Message) -> list[Mapping[str, Any]]:
    """A checked message's tool calls ([] for none, a null `tool_calls` included)."""
    return list(message.get("tool_calls") or ())


def require_calls_answered(messages: list[Message]) -> None:
    """ValueError naming the first call whose results do not all come right after it, and the message that came
    instead (module doc); calls still awaited at the end are left to the caller."""
    waiting: dict[str, int] = {}  # call id -> the index of the message that made it
    for index, message in enumerate(messages):
        if message["role"] == "tool":
            waiting.pop(message["tool_call_id"], None)
            continue
        if waiting:
            raise unanswered(index, message["role"], waiting)
        waiting = {call["id"]: index for call in calls_of(message)}


def unanswered(index: int, role: str, waiting: Mapping[str, int]) -> ValueError:
    """The error for message `index`, of `role`, coming while the calls `waiting` (id -> index of the message that
    made it) still await their results: it names the first of them."""
    call_id, at = next(iter(waiting.items()))
    return ValueError(
        f"message {index}: tool call {call_id!r} of message {at} has no result before this {role} message: the APIs "
        "want every call's results right after it; add its result there or drop the call"
    )
