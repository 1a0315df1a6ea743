"""Command line: `python -m packer.transcript FILE [--limit N] [--counter NAME] [--json]` reports what each of lesson
09's policies keeps of a conversation log.

FILE is JSON or JSON Lines, in one of three shapes (`read_log` says which it read):

- Chat Completions messages: a list of messages, or a request body `{"messages": [...], "tools": [...]}`;
- Responses API items: a list of items, or a body `{"input": [...]}` (through packer.chat.from_responses);
- Anthropic Messages: `{"system": ..., "messages": [...]}` (through packer.chat.from_anthropic), or a list whose
  messages hold Anthropic's tool_use / tool_result blocks.

A request body's `tools` (each API's function tools, turned into Chat Completions' format by `function_tool`) are
counted with every request.

The request reported is the one that asked for the log's last answer, as lesson 09's agent sends it: the system
prompt, every earlier turn, and the last turn up to its last tool result (the user's message alone if it has none);
the request before it is the same for the turn before. For each policy (drop the oldest turns; clear old tool
results, then drop; a summary turn), at the limit: the turns kept, the tokens before and after, the tool results'
share of what is kept (the tokens their contents add, two counts subtracted) and the cached share (the tokens the
kept request begins with that the previous kept request began with too, over the kept request's tokens: measured
on token ids for Mistral's templates; for the OpenAI estimate, the estimate of the shared leading messages). The
counter is named with whether its counts are exact or an estimate.

A file that is not a log: one line on stderr naming what is wrong, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from packer.anthropic_messages import from_anthropic
from packer.caching import common_prefix_length
from packer.chat import mistral_chat, mistral_ids, openai_request, remembered
from packer.clearing import clear_then_drop
from packer.history import flatten, group_turns, pack_history
from packer.messages import Message, require_messages
from packer.recorded_counts import LABEL as RECORDED_LABEL
from packer.recorded_counts import load_recorded_counts
from packer.responses import from_responses
from packer.responses_shape import responses_refusal
from packer.summary import pack_with_summary

RequestCounter = Callable[[list[Message]], int]

POLICIES = {
    "drop the oldest turns": pack_history,
    "clear old tool results, then drop": clear_then_drop(3),
    "a summary turn": pack_with_summary,
}
COUNTERS = ("mistral-v7", "mistral-v3", "openai-o200k", "openai-cl100k", "anthropic:RECORDS.json")
ANTHROPIC_BLOCKS = {"tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document"}


class Log(NamedTuple):
    """A conversation read from a file: the shape it was in, its messages in the workbook's shape, its tools."""

    shape: str
    messages: list[Message]
    tools: list[Any]


class Counter(NamedTuple):
    """A counter as the report names it: its name, exact or not, the count, and token ids if it has them."""

    name: str
    exact: bool
    count: RequestCounter
    ids: Callable[[list[Message]], list[int]] | None


def parse_file(text: str) -> Any:
    """A file's JSON value, or its JSON Lines as a list; ValueError naming the line that is neither."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        whole = error
    values = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                values.append(json.loads(line))
            except json.JSONDecodeError:
                raise ValueError(
                    f"neither JSON ({whole.msg} at line {whole.lineno}) nor JSON Lines (line {number})"
                ) from None
    if not values:
        raise ValueError("the file is empty")
    return values


def read_log(value: Any) -> Log:
    """The conversation in a parsed file, and the shape it was in; ValueError saying what is not a log."""
    if isinstance(value, Mapping):
        tools = [function_tool(index, tool) for index, tool in enumerate(value.get("tools") or [])]
        if "input" in value and isinstance(value["input"], list):
            return Log("Responses API items", from_responses(value["input"]), tools)
        if "messages" not in value:
            keys = ", ".join(sorted(map(str, value))[:5]) or "none"
            raise ValueError(f"a JSON object with no 'messages' or 'input' list (its keys: {keys})")
        if "system" in value or _anthropic_blocks(value["messages"]):
            return Log("Anthropic Messages", from_anthropic(value.get("system"), value["messages"]), tools)
        return Log("Chat Completions messages", require_messages(value["messages"]), tools)
    if not isinstance(value, list) or not value:
        raise ValueError(f"expected a list of messages or items, or an object holding one; got {type(value).__name__}")
    if any(responses_refusal("item", item) for item in value):
        return Log("Responses API items", from_responses(value), [])
    if _anthropic_blocks(value):
        return Log("Anthropic Messages", from_anthropic(None, value), [])
    return Log("Chat Completions messages", require_messages(value), [])


def function_tool(index: int, tool: Any) -> Any:
    """A request body's tool definition in Chat Completions' function format: Anthropic's {name, description,
    input_schema} and the Responses API's flat {type: function, name, description, parameters} turned into it."""
    if not isinstance(tool, Mapping) or "function" in tool:
        return tool  # Chat Completions' own (the counters check it)
    if "input_schema" in tool:  # Anthropic's custom tool
        function = {
            "name": tool.get("name"),
            "description": tool.get("description", ""),
            "parameters": tool["input_schema"],
        }
        return {"type": "function", "function": function}
    if tool.get("type") == "function":  # the Responses API's
        keys = ("name", "description", "parameters")
        return {"type": "function", "function": {key: tool[key] for key in keys if key in tool}}
    raise ValueError(f"tool {index}: not a function tool a counter can count, got {tool!r:.80}")


def _anthropic_blocks(messages: Any) -> bool:
    """Whether any message's content holds a block only Anthropic's shape has."""
    if not isinstance(messages, list):
        return False
    for message in messages:
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, list) and any(
            isinstance(b, Mapping) and b.get("type") in ANTHROPIC_BLOCKS for b in content
        ):
            return True
    return False


def last_requests(messages: list[Message]) -> tuple[list[Message], list[Message] | None]:
    """(the request for the last answer, the request for the answer before it, or None for a single turn)."""
    system, turns = group_turns(messages)

    def sent(number: int) -> list[Message]:
        turn = turns[number]
        results = [index for index, message in enumerate(turn) if message["role"] == "tool"]
        return system + flatten(turns[:number]) + turn[: results[-1] + 1 if results else 1]

    return sent(len(turns) - 1), (sent(len(turns) - 2) if len(turns) > 1 else None)


def make_counter(name: str, tools: Sequence[Any]) -> Counter:
    """The counter a --counter name stands for; ValueError naming the choices."""
    if name in ("mistral-v7", "mistral-v3"):
        version = name.split("-")[1]
        return Counter(
            f"Mistral {version} (exact: mistral-common's own template)",
            True,
            remembered(mistral_chat(version, tools)),
            lambda messages: mistral_ids(messages, version, tools),
        )
    if name in ("openai-o200k", "openai-cl100k"):
        encoding = name.split("-")[1] + "_base"
        label = f"OpenAI {encoding} (an estimate: OpenAI cookbook's rule, tool calls and definitions included)"
        return Counter(label, False, remembered(openai_request(encoding, tools)), None)
    if name.startswith("anthropic:"):
        return Counter(RECORDED_LABEL, False, load_recorded_counts(name.split(":", 1)[1]), None)
    raise ValueError(f"--counter must be one of {', '.join(COUNTERS)}, got {name!r}")


def share(part: int, whole: int) -> float:
    """part / whole, rounded to 3 places (0 for an empty whole)."""
    return round(part / whole, 3) if whole else 0.0


def without_tool_results(messages: list[Message]) -> list[Message]:
    """The messages with every tool result's content emptied."""
    return [{**m, "content": ""} if m["role"] == "tool" else m for m in messages]


def cached_tokens(
    counter: Counter, previous: list[Message], kept: list[Message], kept_ids: list[int] | None
) -> int | None:
    """Tokens `kept` begins with that `previous` began with too (None when the counter cannot measure them)."""
    if counter.ids is not None and kept_ids is not None:
        return common_prefix_length(counter.ids(previous), kept_ids)
    shared = 0
    while shared < min(len(previous), len(kept)) and previous[shared] == kept[shared]:
        shared += 1
    if not shared:
        return 0
    try:
        return min(counter.count(kept[:shared]), counter.count(kept))
    except ValueError:
        return None


def report(log: Log, counter: Counter, limit: int | None) -> dict[str, Any]:
    """What each policy keeps of the log's last request at the limit (by default halfway between the system prompt
    with the latest turn alone and the whole request)."""
    request, previous = last_requests(log.messages)
    whole = counter.count(request)
    system, request_turns = group_turns(request)
    if limit is None:  # halfway between the smallest request a policy can send and the whole one
        limit = (counter.count(system + request_turns[-1]) + whole) // 2
    turns = len(request_turns)
    rows = []
    for name, policy in POLICIES.items():
        history = policy(request, limit, counter.count)
        kept = history.kept
        ids = counter.ids(kept) if counter.ids is not None else None
        after = len(ids) if ids is not None else counter.count(kept)
        tools_add = after - counter.count(without_tool_results(kept)) if any(m["role"] == "tool" for m in kept) else 0
        cached = None
        if previous is not None:
            cached = cached_tokens(counter, policy(previous, limit, counter.count).kept, kept, ids)
        rows.append(
            {
                "policy": name,
                "turns_kept": turns - len(history.dropped),  # the log's turns: a summary turn is not one
                "tokens_before": whole,
                "tokens_after": after,
                "tool_results_share": share(tools_add, after),
                "cached_share": None if cached is None else share(cached, after),
            }
        )
    return {
        "shape": log.shape,
        "messages": len(log.messages),
        "request_messages": len(request),
        "turns": turns,
        "counter": counter.name,
        "exact": counter.exact,
        "limit": limit,
        "policies": rows,
    }


def format_report(result: dict[str, Any], path: str) -> str:
    """The report as text lines."""
    kind = "exact counts" if result["exact"] else "estimates"
    lines = [
        f"{path}: read as {result['shape']} ({result['messages']} messages); the request for the last answer: "
        f"{result['request_messages']} messages, {result['turns']} turns",
        f"counter: {result['counter']}",
        f"limit: {result['limit']} tokens ({kind})",
        f"{'policy':<36}{'turns kept':>11}{'before':>9}{'after':>9}{'tool results':>14}{'cached':>8}",
    ]
    for row in result["policies"]:
        cached = "n/a" if row["cached_share"] is None else f"{row['cached_share']:.0%}"
        lines.append(
            f"{row['policy']:<36}{row['turns_kept']:>6}/{result['turns']:<4}{row['tokens_before']:>9}"
            f"{row['tokens_after']:>9}{row['tool_results_share']:>14.0%}{cached:>8}"
        )
    lines.append(
        f"tokens are {kind}; tool results: their share of the tokens kept; cached: the share of the kept request "
        "that the previous request, trimmed the same way, began with too"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Report on FILE; exit status 0, or 2 (one line on stderr) when FILE is not a log this reads."""
    parser = argparse.ArgumentParser(
        prog="python -m packer.transcript",
        description="What each of lesson 09's policies keeps of a conversation log (JSON or JSON Lines of Chat "
        "Completions messages, Responses API items or Anthropic Messages); exit status 2 and one line for a file "
        "that is not one.",
    )
    parser.add_argument("file", help="a JSON or JSON Lines conversation log")
    parser.add_argument(
        "--limit", type=int, help="the token limit (default: halfway between the smallest request and the whole)"
    )
    parser.add_argument("--counter", default="mistral-v7", help=f"one of {', '.join(COUNTERS)} (default mistral-v7)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error(f"--limit must be a positive int, got {args.limit}")
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"{args.file}: cannot read it: {error}", file=sys.stderr)
        return 2
    try:
        log = read_log(parse_file(text))
        result = report(log, make_counter(args.counter, log.tools), args.limit)
    except ValueError as error:
        print(f"{args.file}: {error}".replace("\n", " "), file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if args.json else format_report(result, args.file))
    return 0


if __name__ == "__main__":
    sys.exit(main())
