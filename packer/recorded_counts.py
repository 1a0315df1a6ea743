"""Counts for Claude: a request counter that answers from counts recorded with Anthropic's count_tokens endpoint.

No tokenizer for Claude ships offline. Anthropic's token counting endpoint (`client.messages.count_tokens(model=...,
system=..., tools=..., messages=...)`, https://platform.claude.com/docs/en/build-with-claude/token-counting) takes a
Messages request and answers `{"input_tokens": N}`; Anthropic's page says the count "should be considered an
estimate" (the tokens a real request uses may differ by a small amount). A learner records, once and online, the
requests they want measured, as a JSON list of the endpoint's arguments plus its answer:

    [{"system": "You are a search assistant.", "messages": [{"role": "user", "content": "What is a generator?"}],
      "input_tokens": 31}, ...]

(`model` and `tools` may be kept in each record; every record must have the same tools, since a counter counts for
one tool set.) `recorded_counts(records)` turns each request into the workbook's shape (packer.chat.from_anthropic)
and returns a counter that gives a request's recorded count; a request that was not recorded is a ValueError saying
so (a count is never guessed). `load_recorded_counts(path)` reads such a file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from packer.anthropic_messages import from_anthropic
from packer.messages import Message, require_messages

RECORD_KEYS = ("system", "messages", "tools", "model", "input_tokens")
LABEL = "Anthropic count_tokens, recorded (Anthropic calls its counts an estimate)"


def request_key(messages: list[Message]) -> str:
    """A request's identity: its checked messages as canonical JSON."""
    return json.dumps(list(messages), sort_keys=True, ensure_ascii=False)


def recorded_counts(records: Any) -> Callable[[list[Message]], int]:
    """A request counter answering from recorded count_tokens results; ValueError naming the record of a bad one."""
    if isinstance(records, (str, bytes, Mapping)) or not isinstance(records, (list, tuple)) or not records:
        raise ValueError(
            "records must be a non-empty list of {system, messages, input_tokens} (count_tokens' arguments and "
            f"answer), got {records!r:.80}"
        )
    counts: dict[str, tuple[int, int]] = {}  # request key -> (count, record index)
    tools: Any = None
    for index, record in enumerate(records):
        where = f"record {index}"
        if not isinstance(record, Mapping):
            raise ValueError(f"{where}: expected a dict with system, messages and input_tokens, got {record!r:.80}")
        unknown = sorted((key for key in record if key not in RECORD_KEYS), key=str)
        if unknown:
            raise ValueError(f"{where}: unknown key {unknown[0]!r} (allowed: {', '.join(RECORD_KEYS)})")
        tokens = record.get("input_tokens")
        if type(tokens) is not int or tokens < 0:
            raise ValueError(f"{where}: input_tokens must be a non-negative int (count_tokens' answer), got {tokens!r}")
        if index == 0:
            tools = record.get("tools")
        elif record.get("tools") != tools:
            raise ValueError(f"{where}: tools differ from record 0's: one counter counts for one tool set")
        try:
            messages = from_anthropic(record.get("system"), record.get("messages"))
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        key = request_key(messages)
        earlier = counts.setdefault(key, (tokens, index))
        if earlier[0] != tokens:
            raise ValueError(
                f"{where}: the same request as record {earlier[1]} with another count ({tokens}, not {earlier[0]})"
            )

    def count(messages: list[Message]) -> int:
        checked = require_messages(messages)
        found = counts.get(request_key(checked))
        if found is None:
            raise ValueError(
                f"messages: this request ({len(checked)} messages, the last a {checked[-1]['role']} message) is not "
                f"among the {len(counts)} recorded: count it with Anthropic's count_tokens endpoint and add the record"
            )
        return found[0]

    count.__name__ = count.__qualname__ = "count_recorded_anthropic"
    count.__doc__ = f"The {LABEL}."
    return count


def load_recorded_counts(path: str | Path) -> Callable[[list[Message]], int]:
    """recorded_counts of a JSON file; ValueError naming the file when it is not JSON."""
    try:
        records = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not a JSON file of recorded counts: {error}") from None
    return recorded_counts(records)
