"""Tool results are the bulk of an agent's past: clear the old ones before dropping any turn.

A search agent's turn is a question, a call, a page of retrieved passages and a short answer: the passages
dwarf the rest, and once answered they are seldom needed again. Anthropic's context editing does this on
the server. Its page (https://platform.claude.com/docs/en/build-with-claude/context-editing, formerly on
docs.claude.com) says of the strategy `clear_tool_uses_20250919` that the API "clears the oldest tool results
in chronological order, replacing them with placeholder text to let Claude know the tool result was
removed", and that by default only the results are cleared, not the calls; Anthropic's SDKs describe its
`keep` setting as the "number of tool uses to retain in the conversation". The same page warns that
clearing invalidates the cached prompt prefix. `clear_tool_results` is that edit, done by the client: every
tool result but the last `keep_last` gets the placeholder as its content and keeps its `tool_call_id`, so
every call still has its result and the conversation keeps its shape.

A policy is a function (messages, limit, count) -> History (packer/history.py). `pack_history` is one: drop
turns only. `edit_then_drop(edit)` makes another: a conversation that fits is sent as it is (editing it would
only change the prefix a provider may have cached); one that does not is edited, then trimmed by whole turns
with pack_history. `clear_then_drop(keep_last)` is that with clear_tool_results as the edit, so a lesson can
count how many turns each policy keeps under one limit.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from packer.messages import Message
from packer.history import History, RequestCounter, copied, flatten, group_turns, pack_history
from packer.validation import require_count, require_str

PLACEHOLDER = "[tool result cleared to save context]"
Policy = Callable[[Any, int, RequestCounter], History]
Edit = Callable[[list[Message]], list[Message]]


def clear_tool_results(messages: Any, keep_last: int = 3, placeholder: str = PLACEHOLDER) -> list[Message]:
    """The conversation with every tool result but the last `keep_last` replaced by `placeholder` (ids kept)."""
    system, turns = group_turns(messages)
    require_count("keep_last", keep_last)
    require_str("placeholder", placeholder)
    cleared = system + flatten(turns)
    results = [index for index, message in enumerate(cleared) if message["role"] == "tool"]
    for index in results[: max(0, len(results) - keep_last)]:
        cleared[index] = {**cleared[index], "content": placeholder}
    return cleared


def edit_then_drop(edit: Edit) -> Policy:
    """A policy: send a conversation that fits as it is; else apply `edit` (which must keep every message's role
    and place) and drop whole turns of the edited conversation, oldest first. History.dropped holds the dropped
    turns as they were before the edit."""
    if not callable(edit):
        raise ValueError(f"edit must be callable, got {type(edit).__name__}")

    def policy(messages: Any, limit: int, count: RequestCounter) -> History:
        as_is = pack_history(messages, limit, count)
        if not as_is.dropped:
            return as_is
        system, turns = group_turns(messages)
        before = system + flatten(turns)
        edited_system, edited_turns = group_turns(edit(copied(before)))
        if [m["role"] for m in edited_system + flatten(edited_turns)] != [m["role"] for m in before]:
            raise ValueError("edit must keep every message's role and place")
        kept, dropped, _ = pack_history(edited_system + flatten(edited_turns), limit, count)
        return History(kept, turns[: len(dropped)])

    return policy


def clear_then_drop(keep_last: int = 3, placeholder: str = PLACEHOLDER) -> Policy:
    """A policy: when the conversation does not fit, clear all tool results but the last `keep_last`, then drop
    whole turns, oldest first."""
    require_count("keep_last", keep_last)
    require_str("placeholder", placeholder)
    return edit_then_drop(partial(clear_tool_results, keep_last=keep_last, placeholder=placeholder))
