"""Request counters for pack_request: the tokens a chat model receives for a whole list of messages.

A chat request is not one string. The provider's chat template wraps every message in control tokens and
role markers, may move the system prompt, and may add the tool definitions; what counts against the
context window is that rendered token sequence. Two kinds of counter ship here, both offline:

- `mistral_chat(version, tools=())`: exact. mistral-common renders the request with Mistral's own
  templates and SentencePiece models, which ship inside that package
  (https://github.com/mistralai/mistral-common), and the counter returns the number of token ids. The
  tokenizers are loaded as the package ships them (`MistralTokenizer.v7()` and the others), validating in
  `ValidationMode.test`, which checks the order of roles but not that every tool call has its result
  (`ValidationMode.serving` does): a conversation's pairs are packer.history's to check.
- `openai_chat(encoding)`: an estimate, published in OpenAI's cookbook ("How to count tokens with
  tiktoken", section 6): 3 tokens per message, 1 more for a `name`, 3 more for the reply's priming, plus
  the tokens of every value in the message; the cookbook calls these counts "an estimate, not a timeless
  guarantee". https://github.com/openai/openai-cookbook/blob/main/examples/How_to_count_tokens_with_tiktoken.ipynb
  OpenAI has published chat formats: ChatML (2023, in its Python library,
  https://github.com/openai/openai-python/blob/0116ffa241b080540d5ec8daeb908f6ac9b87148/chatml.md) and the
  harmony format of its open-weight gpt-oss models (https://github.com/openai/harmony; the installed tiktoken
  ships its encoding as `o200k_harmony`). The cookbook's rule is the count it publishes for a Chat
  Completions request, so that is what `openai_chat` implements.

Messages are in OpenAI's Chat Completions shape (packer/messages.py): the shape the `openai` SDK types, which
mistral-common reads with its own `ChatCompletionRequest.from_openai`. `for_mistral` readies a conversation for it:
"developer" becomes "system" (mistral-common knows no "developer"), and each tool call id that is not already 9
letters and digits is mapped to one that is, because Mistral's v3+ templates refuse any other id
(mistral-common's MistralRequestValidatorV3; OpenAI's ids look like "call_8f3a9b2c1d7e", Anthropic's like
"toolu_01A09q90qw90lq917835lq9"). The mapped id is a function of the id alone (the first 9 base-62 digits of its
SHA-256), so a call and its result get the same one in every request, and a count is then Mistral's for that
conversation with Mistral's ids. What mistral-common would leave out or cannot render under these tokenizers (an
image, audio or file part, a refusal, a `name`) is a ValueError naming the message index and the key, never a
count of less than the application sends. Mistral's v3 and v7 templates render calls and results;
mistral-common refuses tool messages under v1, and v2 drops every call and result before the last user message,
so `mistral_chat` refuses them for v1 and v2. `openai_chat` also takes a "name", and refuses tool traffic (see
it); `openai_request(encoding, tools)` counts tool calls, results and definitions too, by the cookbook's section 7
and this workbook's reading of its section 6 (packer/openai_request.py), an estimate all the same.
`from_anthropic` (packer/anthropic_messages.py) turns a conversation in Anthropic's Messages shape into this
one, `from_responses` (packer/responses.py) a list of OpenAI's Responses API items. An order of roles
mistral-common's validator refuses (a log ending on the assistant's answer, a user message right after a
tool result) is a ValueError naming the message and what to do (`require_mistral_order`), where
mistral-common's own error names none. Loading a tokenizer happens on a counter's first call, never on
`import packer`.

Each counter also knows, exactly, how many tokens one more source line adds to the user's prompt at one
of its line seams (see `line_cost_of` and packer/request.py), which lets pack_request skip re-measuring.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import string
from collections.abc import Callable, Mapping
from typing import Any

from packer.anthropic_messages import from_anthropic as from_anthropic  # packer.chat.from_anthropic
from packer.counters import BPE_ENCODINGS, bpe
from packer.messages import Message, calls_of, is_tool_traffic, require_messages, sent
from packer.responses import from_responses as from_responses  # packer.chat.from_responses

RequestCounter = Callable[[list[Message]], int]

MISTRAL_VERSIONS = ("v1", "v2", "v3", "v7")
MISTRAL_ID = re.compile(r"[A-Za-z0-9]{9}")  # the only tool call ids Mistral's v3+ templates take
BASE62 = string.digits + string.ascii_letters

# Every request counter made here, to the exact per-line cost it carries (compared by identity).
_LINE_COSTS: dict[int, tuple[RequestCounter, Callable[[str], int]]] = {}
# Every request counter made here, to whether it adds up by turns even with a system prompt (packer/history.py).
_BY_TURN: dict[int, tuple[RequestCounter, bool]] = {}


def line_cost_of(count: object) -> Callable[[str], int] | None:
    """The exact cost of one prompt line at a seam, if `count` was made by this module; else None."""
    entry = _LINE_COSTS.get(id(count))
    return entry[1] if entry is not None and entry[0] is count else None


def adds_up_by_turn(count: object, system: bool) -> bool:
    """Whether `count` was made here and counts a conversation as its base plus each earlier turn's own cost."""
    entry = _BY_TURN.get(id(count))
    return entry is not None and entry[0] is count and (entry[1] or not system)


def refuse_tool_traffic(messages: list[Message], why: str) -> list[Message]:
    """The checked messages, unless one is a tool call or result: then ValueError naming it and saying why."""
    for index, message in enumerate(messages):
        if is_tool_traffic(message):
            raise ValueError(f"message {index}: {why}")
    return messages


# --- Mistral: exact, through mistral-common ---------------------------------------------------------------


def _require_version(version: object) -> str:
    """The template version, checked; ValueError naming the argument."""
    if not isinstance(version, str) or version not in MISTRAL_VERSIONS:
        raise ValueError(f"version must be one of {', '.join(MISTRAL_VERSIONS)}, got {version!r}")
    return version


@functools.cache
def _mistral(version: str) -> Any:
    """mistral-common's tokenizer for one instruct version, loaded once from the installed package."""
    try:
        from mistral_common.tokens.tokenizers.mistral import MistralTokenizer
    except ImportError as error:  # the project installs it: say what is missing
        raise ImportError(f"mistral_chat needs mistral-common and sentencepiece: {error}") from error
    return getattr(MistralTokenizer, version)()


def _require_tools(tools: Any) -> tuple[Any, ...]:
    """Tool definitions as mistral-common's Tool objects (OpenAI's function format); ValueError if malformed."""
    if isinstance(tools, (str, bytes, Mapping)) or not isinstance(tools, (list, tuple)):
        raise ValueError(f"tools must be a list of tool definitions, got {type(tools).__name__}")
    if not tools:
        return ()
    from mistral_common.protocol.instruct.tool_calls import Tool
    from pydantic import ValidationError

    checked = []
    for index, tool in enumerate(tools):
        try:
            checked.append(Tool.model_validate(tool))
        except ValidationError as error:
            first = error.errors()[0]
            place = ".".join(str(part) for part in first["loc"]) or "the definition"
            raise ValueError(f"tool {index}: {place}: {first['msg']}") from None
    return tuple(checked)


def mistral_call_id(call_id: str) -> str:
    """The id a tool call gets for Mistral's templates: itself if it is 9 letters and digits, else the first 9
    base-62 digits of its SHA-256 (the same id always gets the same one)."""
    if MISTRAL_ID.fullmatch(call_id):
        return call_id
    number = int.from_bytes(hashlib.sha256(call_id.encode("utf-8")).digest(), "big")
    digits = []
    for _ in range(9):
        number, digit = divmod(number, 62)
        digits.append(BASE62[digit])
    return "".join(digits)


# Keys mistral-common's from_openai drops (protocol/instruct/messages.py): a count would leave them out.
MISTRAL_DROPS = ("name", "refusal", "audio")


def for_mistral(messages: Any) -> list[dict[str, Any]]:
    """The conversation as handed to mistral-common's from_openai: new dicts, "developer" as "system", tool call ids
    mapped by mistral_call_id; ValueError naming the message index and key mistral-common would drop or cannot
    render (its tokenizers here read text only)."""
    checked = require_messages(messages)
    mapped: dict[str, str] = {}  # mapped id -> the id it stands for, to refuse two ids mapped to one
    out = []
    for index, message in enumerate(checked):
        where = f"message {index}"
        dropped = [key for key in MISTRAL_DROPS if message.get(key) is not None]
        if dropped:
            raise ValueError(f"{where}: key {dropped[0]!r}: mistral-common drops it, so a count would leave it out")
        role = "system" if message["role"] == "developer" else message["role"]
        shaped: dict[str, Any] = {"role": role, "content": _mistral_content(where, message.get("content"))}
        if calls_of(message):
            shaped["tool_calls"] = [
                {"id": _mapped(where, call["id"], mapped), "type": "function", "function": dict(call["function"])}
                for call in calls_of(message)
            ]
        if "tool_call_id" in message:
            shaped["tool_call_id"] = _mapped(where, message["tool_call_id"], mapped)
        out.append(shaped)
    return out


def _mistral_content(where: str, content: Any) -> Any:
    """A message's content for mistral-common: a str, None, or its text parts (ValueError naming another part)."""
    if content is None or isinstance(content, str):
        return content
    for number, part in enumerate(content):
        if part["type"] != "text":
            raise ValueError(
                f"{where}: content part {number}: type {part['type']!r}: mistral_chat counts text only "
                "(the tokenizers mistral-common ships read no images, audio or files)"
            )
    return [{"type": "text", "text": part["text"]} for part in content]


def _mapped(where: str, call_id: str, mapped: dict[str, str]) -> str:
    """mistral_call_id of `call_id`, refusing (astronomically unlikely) two ids of one request mapped to one."""
    new = mistral_call_id(call_id)
    if mapped.setdefault(new, call_id) != call_id:
        raise ValueError(f"{where}: tool call ids {mapped[new]!r} and {call_id!r} map to the same Mistral id {new!r}")
    return new


def _mistral_request(messages: Any, tools: tuple[Any, ...]) -> Any:
    """The chat request as mistral-common's ChatCompletionRequest, made by its own from_openai."""
    from mistral_common.protocol.instruct.request import ChatCompletionRequest

    shaped = for_mistral(messages)
    try:
        return ChatCompletionRequest.from_openai(shaped, tools=[tool.model_dump() for tool in tools] or None)
    except Exception as error:  # pydantic's or mistral-common's refusal of a message the checks above let through
        raise ValueError(f"messages: mistral-common cannot read this conversation: {_first_line(error)}") from None


def _first_line(error: Exception) -> str:
    """An exception's message, its first line only (pydantic's run on for many)."""
    return str(error).strip().split("\n")[0]


# Why a Mistral template's count would leave tool traffic out: mistral-common's InstructTokenizerV1 raises
# "Tools not implemented", and InstructTokenizerV2 skips every call and result before the last user message.
NO_TOOL_TRAFFIC = {
    "v1": "the v1 template has no tool calls or results (mistral-common refuses them); use v3 or v7",
    "v2": "the v2 template drops tool calls and results before the last user message, so a count would leave "
    "them out; use v3 or v7",
}


def require_mistral_order(messages: list[Message]) -> None:
    """ValueError naming the message and what to do, for each order of roles mistral-common's validator refuses in
    every mode (`_validate_message_order`, `_validate_tool_calls_followed_by_tool_messages` and
    `_validate_last_message` in protocol/instruct/validator.py), before it refuses with no message index."""
    waiting = 0  # results still due to the last message with calls
    for index, message in enumerate(messages):
        role, previous = message["role"], messages[index - 1]["role"] if index else None
        if role == "tool" and previous not in ("assistant", "tool"):
            place = f"right after a {previous} message" if previous else "first"
            raise ValueError(
                f"message {index}: a tool result {place}, which Mistral's templates refuse (a result follows its "
                "call or another result): move it right after its call"
            )
        if previous == "tool" and role not in ("assistant", "tool"):
            raise ValueError(
                f"message {index}: a {role} message right after a tool result, which Mistral's templates refuse "
                f"(the assistant answers the results first): add the assistant's reply before it, or count the "
                f"request up to message {index - 1}"
            )
        if role == "assistant" and waiting > 0:
            raise ValueError(
                f"message {index}: an assistant message before the results of the calls of an earlier one, which "
                "Mistral's templates refuse: put each call's results right after it"
            )
        waiting = len(calls_of(message)) if role == "assistant" else waiting - (role == "tool")
    if messages[-1]["role"] == "assistant":
        raise ValueError(
            f"message {len(messages) - 1}: the request ends on the assistant's message, and Mistral's templates "
            "render a request for the next reply (ending on a user message or a tool result): count the request "
            "that got this reply (the messages before it), or add the next user message"
        )


def _encode(version: str, messages: Any, tools: tuple[Any, ...], counted: bool = False) -> Any:
    """mistral-common's tokenized request; its refusals (say, a last message that is not the user's) as ValueError.
    `counted`: refuse, as the counter does, tool traffic the template would leave out."""
    checked = require_messages(messages)
    if counted and version in NO_TOOL_TRAFFIC:
        refuse_tool_traffic(checked, NO_TOOL_TRAFFIC[version])
    request = _mistral_request(checked, tools)
    require_mistral_order(checked)
    tokenizer = _mistral(version)
    try:
        return tokenizer.encode_chat_completion(request)
    except Exception as error:  # mistral-common's own exceptions for a request its template cannot render
        raise ValueError(f"messages: the {version} template cannot render this request: {error}") from None


def mistral_text(messages: Any, version: str, tools: Any = ()) -> str:
    """The request as the model receives it, control tokens written out (mistral-common's rendering).

    It shows what mistral-common does, including that the v1 template drops tools; mistral_chat refuses
    tools for v1 instead, so that a count never leaves out tools the application means to send.
    """
    return _encode(_require_version(version), messages, _require_tools(tools)).text


def mistral_tokens(messages: Any, version: str, tools: Any = ()) -> list[str]:
    """The request's tokens as SentencePiece pieces, control tokens included, one string per token."""
    version, tools = _require_version(version), _require_tools(tools)
    ids = _encode(version, messages, tools).tokens
    model = _mistral(version).instruct_tokenizer.tokenizer._model
    return [model.id_to_piece(token) for token in ids]


def mistral_ids(messages: Any, version: str, tools: Any = ()) -> list[int]:
    """The request's token ids, exactly those mistral_chat counts (and refusing what it refuses)."""
    version, tools = _require_version(version), _require_tools(tools)
    if tools and version == "v1":
        raise ValueError("tools: the v1 template has no tool definitions (mistral-common drops them)")
    return list(_encode(version, messages, tools, counted=True).tokens)


def _mistral_line_cost(version: str, line: str) -> int:
    """Tokens one line adds after a newline of the prompt: encode("\\n" + line) minus its "▁" and "\\n" tokens.

    The tokenizer loads on the first call (it is cached), so making a counter loads nothing."""
    line.encode("utf-8")  # a lone surrogate: UnicodeEncodeError (a ValueError), as the counter refuses it
    return len(_mistral(version).instruct_tokenizer.tokenizer._model.encode("\n" + line)) - 2


def mistral_chat(version: str, tools: Any = ()) -> RequestCounter:
    """An exact request counter (messages -> int) for Mistral's `version` template, tools included if given."""
    version = _require_version(version)
    checked = _require_tools(tools)
    if checked and version == "v1":
        raise ValueError("tools: the v1 template has no tool definitions (mistral-common drops them)")
    key = tuple(json.dumps(tool.model_dump()) for tool in checked)  # key order kept: the template renders it
    return _mistral_counter_for(version, key)


# How many requests a Mistral counter remembers the count of (its JSON text as the key): policies compared over
# one conversation count the same requests again and again (lesson 09's five policies over 30 turns asked for
# 1,643 counts of 184 different requests), and encoding one is milliseconds of SentencePiece and validation.
REMEMBERED = 4096
_REMEMBERED_COUNTS: list[dict[str, int]] = []  # every Mistral counter's remembered counts, for forget_counts


def forget_counts() -> None:
    """Forget every count the Mistral counters remember, so that the next counts encode again (a benchmark times
    the encoding itself)."""
    for remembered in _REMEMBERED_COUNTS:
        remembered.clear()


@functools.cache
def _mistral_counter_for(version: str, tool_key: tuple[str, ...]) -> RequestCounter:
    """One counter per (version, tools' JSON), made once so that its identity is stable; it remembers the counts
    of the last REMEMBERED requests it counted (a request is the same when its JSON text is)."""
    tools = _require_tools([json.loads(text) for text in tool_key])

    remembered: dict[str, int] = {}
    _REMEMBERED_COUNTS.append(remembered)

    def count(messages: list[Message]) -> int:
        try:
            key = json.dumps(messages)
        except (TypeError, ValueError):  # not JSON (an object mistral-common may still read): counted afresh
            return len(_encode(version, messages, tools, counted=True).tokens)
        if key not in remembered:
            if len(remembered) >= REMEMBERED:
                remembered.pop(next(iter(remembered)))  # the oldest first
            remembered[key] = len(_encode(version, messages, tools, counted=True).tokens)
        return remembered[key]

    count.__name__ = count.__qualname__ = f"count_mistral_{version}" + ("_with_tools" if tools else "")
    count.__doc__ = f"Exact tokens of the request under Mistral's {version} instruct template (mistral-common)."
    _LINE_COSTS[id(count)] = (
        count,
        functools.partial(_mistral_line_cost, version),
    )  # the entry keeps the counter alive: its id is never reused
    _BY_TURN[id(count)] = (count, version != "v1")  # v1 puts the system prompt into the first turn kept
    return count


# --- OpenAI: the cookbook's published estimate over a real BPE ----------------------------------------------

TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING = 3


# The cookbook's function adds the tokens of every value of a message, so it has no rule for a list of tool
# calls, and OpenAI publishes none for how calls and results are rendered: this estimate refuses them.
OPENAI_NO_TOOLS = (
    "openai_chat (the cookbook's estimate) has no published rule for tool calls or results; use mistral_chat, or "
    "openai_request, which reads the rule's 'every value' for them (an estimate)"
)


def openai_chat(encoding: str) -> RequestCounter:
    """The cookbook's estimate (messages -> int) for chat models on `encoding`: 3 per message, 1 per name, 3 for the
    reply; tool calls and results are refused (ValueError naming the message), having no published rule."""
    if not isinstance(encoding, str) or encoding not in BPE_ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(BPE_ENCODINGS)}, got {encoding!r}")
    return _openai_counter(encoding)


@functools.cache
def _openai_counter(encoding: str) -> RequestCounter:
    """One counter per encoding, made once so that its identity is stable."""
    tokens = bpe(encoding)

    def count(messages: list[Message]) -> int:
        total = REPLY_PRIMING
        for index, message in enumerate(refuse_tool_traffic(require_messages(messages), OPENAI_NO_TOOLS)):
            total += TOKENS_PER_MESSAGE + sum(tokens(text) for text in _openai_values(f"message {index}", message))
            if "name" in message:
                total += TOKENS_PER_NAME
        return total

    count.__name__ = count.__qualname__ = f"count_openai_chat_{encoding}"
    count.__doc__ = f"OpenAI cookbook's chat estimate over real {encoding} tokens (not the provider's own count)."
    _LINE_COSTS[id(count)] = (count, tokens)  # a line's cost is its own count: pack_prompt's seams (prompt.py)
    _BY_TURN[id(count)] = (count, True)  # a sum over messages
    return count


def _openai_values(where: str, message: Message) -> list[str]:
    """The texts the cookbook's rule counts in a message: its role, name and content (each text part's text on its
    own: the cookbook has no rule for parts, so this is the nearest); ValueError naming another key or part."""
    extra = [
        key for key, value in sent(message).items() if key not in ("role", "content", "name") and value is not None
    ]
    if extra:
        raise ValueError(f"{where}: key {extra[0]!r}: the cookbook's estimate has no rule for it")
    content = message["content"]
    texts = [message["role"], *([message["name"]] if "name" in message else [])]
    if isinstance(content, str):
        return [*texts, content]
    for number, part in enumerate(content):
        if part["type"] != "text":
            raise ValueError(f"{where}: content part {number}: type {part['type']!r}: the estimate counts text only")
    return [*texts, *(part["text"] for part in content)]


def chat_counters() -> dict[str, RequestCounter]:
    """Every shipped request counter, by a name a learner can read (made here, loaded on first call)."""
    named = {f"Mistral {version} (exact)": mistral_chat(version) for version in MISTRAL_VERSIONS}
    named |= {f"OpenAI {name} (cookbook estimate)": openai_chat(name) for name in ("cl100k_base", "o200k_base")}
    return named


# --- OpenAI with tools: the cookbook's estimate, tool calls, results and definitions counted too ----------------


def openai_request(encoding: str, tools: Any = ()) -> RequestCounter:
    """An estimate (messages -> int) of a Chat Completions request with tool traffic and `tools` (Chat Completions'
    function definitions), by the cookbook's sections 6 and 7 (packer/openai_request.py says which part is whose)."""
    from packer.openai_request import TOOL_INIT, require_function_tools

    if not isinstance(encoding, str) or encoding not in TOOL_INIT:
        raise ValueError(f"encoding must be one of {', '.join(TOOL_INIT)}, got {encoding!r}")
    checked = require_function_tools(tools)
    return _openai_request_for(encoding, json.dumps(checked))


@functools.cache
def _openai_request_for(encoding: str, tools_json: str) -> RequestCounter:
    """One counter per (encoding, tools' JSON), made once so that its identity is stable."""
    from packer.openai_request import REPLY_PRIMING as PRIMING
    from packer.openai_request import message_tokens, tools_tokens

    tools = tuple(json.loads(tools_json))
    tokens = bpe(encoding)
    fixed: list[int] = []  # the tools' tokens, measured on the first call (bpe loads then)

    def count(messages: list[Message]) -> int:
        if not fixed:
            fixed.append(tools_tokens(tools, encoding, tokens))
        checked = require_messages(messages)
        return PRIMING + fixed[0] + sum(message_tokens(f"message {i}", m, tokens) for i, m in enumerate(checked))

    count.__name__ = count.__qualname__ = f"count_openai_request_estimate_{encoding}" + ("_with_tools" if tools else "")
    count.__doc__ = f"OpenAI cookbook's estimate over real {encoding} tokens, tool traffic and definitions included."
    _LINE_COSTS[id(count)] = (count, tokens)  # a line's cost is its own count, as for openai_chat
    _BY_TURN[id(count)] = (count, True)  # a sum over messages plus a constant
    return count


def remembered(count: RequestCounter) -> RequestCounter:
    """The same counter, measuring each distinct request once (remembered by its JSON's SHA-256); made from a counter
    of this module, it keeps that counter's fast paths (packer.history and packer.request see it as theirs)."""
    seen: dict[str, int] = {}

    def again(messages: list[Message]) -> int:
        key = hashlib.sha256(json.dumps(list(messages), sort_keys=True, default=repr).encode()).hexdigest()
        if key not in seen:
            seen[key] = count(messages)
        return seen[key]

    again.__name__ = again.__qualname__ = getattr(count, "__name__", "count")
    again.__doc__ = getattr(count, "__doc__", None)
    line_cost = line_cost_of(count)
    if line_cost is not None:
        _LINE_COSTS[id(again)] = (again, line_cost)
    entry = _BY_TURN.get(id(count))
    if entry is not None and entry[0] is count:
        _BY_TURN[id(again)] = (again, entry[1])
    return again
