"""An estimate of an OpenAI Chat Completions request with tool traffic: messages, tool calls, tool results and the
tool definitions, over a real BPE (packer.chat's `openai_request(encoding, tools)` counts with it).

Its source is OpenAI's cookbook "How to count tokens with tiktoken"
(https://github.com/openai/openai-cookbook/blob/main/examples/How_to_count_tokens_with_tiktoken.ipynb), which calls
its counts "an estimate, not a timeless guarantee":

- messages, its section 6 (`num_tokens_from_messages`): 3 tokens per message, the tokens of every value in the
  message, 1 more for a `name`, 3 for the reply's priming (packer.chat's `openai_chat` implements that part alone);
- tool definitions, its section 7 (`num_tokens_for_tools`): per function 7 tokens (10 for gpt-3.5-turbo and gpt-4)
  plus the tokens of "name:description" (a final "." dropped); if it has parameters, 3 more, and per parameter 3
  plus the tokens of "name:type:description" (a final "." dropped), an enum adding -3 and then 3 plus its tokens per
  value; 12 once after the functions. The cookbook gives the 7 for gpt-4o and gpt-4o-mini (o200k_base) and the
  10 for gpt-3.5-turbo and gpt-4 (cl100k_base), and shows its function giving the API's own count on its example
  (101 and 105 tokens): `TOOL_INIT` keys them by encoding, the nearest this workbook can say.
- tool calls and results: the cookbook publishes no rule for them. A tool message's values are strs (its role,
  content and `tool_call_id`), so section 6's "every value" counts them as it is; an assistant's `tool_calls` is a
  list, which section 6's code cannot encode, and here each call adds the tokens of its id, its function's name
  and its arguments: this workbook's reading of "every value", not OpenAI's, and so an estimate twice over.

Content parts: each text part's text and each refusal part's refusal are counted as values; an image, audio or
file part is a ValueError naming the message and part (OpenAI bills them by other rules).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from packer.messages import Message

TOKENS_PER_MESSAGE = 3  # section 6
TOKENS_PER_NAME = 1
REPLY_PRIMING = 3
TOOL_INIT = {"o200k_base": 7, "cl100k_base": 10}  # section 7's func_init: gpt-4o / gpt-4o-mini, gpt-3.5-turbo / gpt-4
PROPERTIES_INIT = 3
PROPERTY_KEY = 3
ENUM_INIT = -3
ENUM_ITEM = 3
TOOLS_END = 12


def message_values(where: str, message: Message) -> list[str]:
    """The texts section 6's rule (and this module's reading of it for tool calls) counts in one checked message."""
    texts = [message["role"]]
    for key in ("name", "tool_call_id"):
        if key in message:
            texts.append(message[key])
    content = message.get("content")
    if isinstance(content, str):
        texts.append(content)
    elif content is not None:
        for number, part in enumerate(content):
            if part["type"] not in ("text", "refusal"):
                raise ValueError(
                    f"{where}: content part {number}: type {part['type']!r}: the estimate counts text only"
                )
            texts.append(part[part["type"]])
    if message.get("refusal") is not None:
        texts.append(message["refusal"])
    for call in message.get("tool_calls", ()):
        texts += [call["id"], call["function"]["name"], call["function"]["arguments"]]
    return texts


def message_tokens(where: str, message: Message, tokens: Callable[[str], int]) -> int:
    """One message's estimate: 3, its values' tokens, 1 for a name."""
    total = TOKENS_PER_MESSAGE + sum(tokens(text) for text in message_values(where, message))
    return total + (TOKENS_PER_NAME if "name" in message else 0)


def require_function_tools(tools: Any) -> tuple[Mapping[str, Any], ...]:
    """Tool definitions in Chat Completions' function format, checked; ValueError naming the tool and key."""
    if isinstance(tools, (str, bytes, Mapping)) or not isinstance(tools, (list, tuple)):
        raise ValueError(f"tools must be a list of tool definitions, got {type(tools).__name__}")
    for index, tool in enumerate(tools):
        where = f"tool {index}"
        if not isinstance(tool, Mapping) or tool.get("type") != "function":
            raise ValueError(f"{where}: expected {{'type': 'function', 'function': {{...}}}}, got {tool!r:.80}")
        function = tool.get("function")
        if not isinstance(function, Mapping) or not isinstance(function.get("name"), str):
            raise ValueError(f"{where}: function must be a dict with a str name, got {function!r:.80}")
        properties = (function.get("parameters") or {}).get("properties") or {}
        if not isinstance(properties, Mapping):
            raise ValueError(f"{where}: parameters: properties must be a dict, got {properties!r:.80}")
        for name, schema in properties.items():
            if not isinstance(schema, Mapping) or not isinstance(schema.get("type"), str):
                raise ValueError(f"{where}: parameter {name!r}: the rule needs a str 'type', got {schema!r:.80}")
            if not all(isinstance(item, str) for item in schema.get("enum", [])):
                raise ValueError(f"{where}: parameter {name!r}: the rule counts str enum values only")
    return tuple(tools)


def tools_tokens(tools: tuple[Mapping[str, Any], ...], encoding: str, tokens: Callable[[str], int]) -> int:
    """Section 7's estimate for checked tool definitions (0 for none)."""
    if not tools:
        return 0
    total = TOOLS_END
    for tool in tools:
        function = tool["function"]
        total += TOOL_INIT[encoding] + tokens(f"{function['name']}:{_stripped(function.get('description', ''))}")
        properties = (function.get("parameters") or {}).get("properties") or {}
        if properties:
            total += PROPERTIES_INIT
        for name, schema in properties.items():
            total += PROPERTY_KEY
            if "enum" in schema:
                total += ENUM_INIT + sum(ENUM_ITEM + tokens(item) for item in schema["enum"])
            total += tokens(f"{name}:{schema['type']}:{_stripped(schema.get('description', ''))}")
    return total


def _stripped(description: str) -> str:
    """A description without one final "." (as the cookbook strips it)."""
    return description[:-1] if description.endswith(".") else description
