"""The bytes on the wire, for lesson 07: a chat request as a JSON body, and a byte packer over that body.

The body is `{"model": ..., "messages": [...], "max_tokens": ...}`, written by `json.dumps` with its default
separators, either escaping every non-ASCII character (`ensure_ascii=True`, Python's default: é becomes
the six bytes `\\u00e9`, a character outside the Basic Multilingual Plane a twelve-byte surrogate pair) or
writing it as UTF-8 (`ensure_ascii=False`).

Why `pack_body` may add line costs instead of re-encoding the body. JSON escapes a string one character at a
time, whatever stands next to it, so escape(a + b) = escape(a) + escape(b). A passage's line sits inside the
user turn's string; adding it changes nothing else in the body. So the body's bytes are the bytes of the
body without passages plus, for each kept line, the bytes of that line escaped: byte counts add up at every
seam, as in lesson 03's `pack_utf8`, and the packer is linear and exact. tests/lab/test_wire.py checks it
against re-encoding the whole body.
"""

from __future__ import annotations

import json
from typing import Any

from packer.chat import Message
from packer.prompt import _line
from packer.request import build_request
from packer.validation import Passage, require_count, require_passages, require_str

MODEL = "mistral-large-2411"  # served by the v7 template in mistral-common's MODEL_NAME_TO_TOKENIZER_CLS


def _require_flag(name: str, value: Any) -> bool:
    """A real bool, or a ValueError naming the argument."""
    if type(value) is not bool:
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


def request_body(messages: list[Message], max_tokens: int, ensure_ascii: bool, model: str = MODEL) -> str:
    """The request as the JSON text an HTTP client sends."""
    require_count("max_tokens", max_tokens)
    require_str("model", model)
    body = {"model": model, "messages": messages, "max_tokens": max_tokens}
    return json.dumps(body, ensure_ascii=_require_flag("ensure_ascii", ensure_ascii))


def body_bytes(body: str) -> int:
    """A JSON body's size on the wire: its UTF-8 bytes; ValueError for text UTF-8 cannot encode."""
    try:
        return len(body.encode("utf-8"))
    except UnicodeEncodeError as error:
        raise ValueError(f"body: not encodable as UTF-8 ({error.reason} at {error.start})") from None


def escaped(text: str, ensure_ascii: bool) -> str:
    """The text as it appears inside a JSON string (json.dumps without its quotes)."""
    return json.dumps(require_str("text", text), ensure_ascii=_require_flag("ensure_ascii", ensure_ascii))[1:-1]


def line_bytes(key: str, text: str, ensure_ascii: bool) -> int:
    """The bytes one passage's prompt line adds to the body: the line, escaped, in UTF-8."""
    return body_bytes(escaped(_line(key, text), ensure_ascii))


def pack_body(
    question: str,
    passages: Any,
    limit: int,
    max_tokens: int,
    ensure_ascii: bool,
    system: str = "",
    model: str = MODEL,
) -> tuple[list[Passage], list[str], str]:
    """Return (chosen, skipped ids, body): passages in rank order, skip and continue, body bytes <= limit."""
    require_str("question", question)
    checked = require_passages(passages)
    require_count("limit", limit)
    require_str("system", system)
    base = body_bytes(request_body(build_request(question, [], system), max_tokens, ensure_ascii, model))
    if base > limit:
        raise ValueError(f"limit: the body without passages is {base} bytes, over the limit of {limit}")
    used = base
    chosen: list[Passage] = []
    skipped: list[str] = []
    for index, (key, text) in enumerate(checked):
        try:
            cost = line_bytes(key, text, ensure_ascii)
        except ValueError:
            raise ValueError(f"passage {index} ({key!r}): not encodable as UTF-8 (a lone surrogate?)") from None
        if used + cost <= limit:
            chosen.append((key, text))
            used += cost
        else:
            skipped.append(key)
    return chosen, skipped, request_body(build_request(question, chosen, system), max_tokens, ensure_ascii, model)
