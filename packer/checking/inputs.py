"""Inputs the checks pass to answers, each shown in a counterexample as the call that rebuilds it.

Every exercise's setup cell imports these names, so a counterexample such as
`pack_prompt('why', [('a', 'x')], 9, always_2_5)` or `assemble_context(once([...]), 10)` can be pasted
into a cell and run as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from packer.messages import content_text


class Record(Mapping):
    """A read-only mapping that is not a dict: `Record(text="a", token_count=1)`."""

    def __init__(self, items: Mapping[str, Any] | None = None, /, **fields: Any):
        self._fields = {**(items or {}), **fields}

    def __getitem__(self, key: str) -> Any:
        return self._fields[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __repr__(self) -> str:
        if all(isinstance(key, str) and key.isidentifier() for key in self._fields):
            return f"Record({', '.join(f'{key}={value!r}' for key, value in self._fields.items())})"
        return f"Record({self._fields!r})"


class Once(Iterator):
    """An ordered iterable that can be read only once, like a generator (a second pass sees nothing)."""

    def __init__(self, items: Iterable[Any]):
        self._items = list(items)
        self._read = 0

    def __next__(self) -> Any:
        if self._read >= len(self._items):
            raise StopIteration
        self._read += 1
        return self._items[self._read - 1]

    def __repr__(self) -> str:
        return f"once({self._items!r})"


class SortedSet(set):
    """A set shown with its items sorted, `{('a', 'b'), ('b', 'c')}`: the order Python shows a set of strings in
    changes with the hash seed from one process to the next, and a counterexample must not. Pasted, it is a
    plain set equal to this one."""

    def __repr__(self) -> str:
        return "{" + ", ".join(map(repr, sorted(self))) + "}" if self else "set()"


def once(items: Iterable[Any]) -> Once:
    """The items as a one-pass iterator, as a generator would hand them over: `once([("a", "x")])`."""
    return Once(items)


def always_minus_2(text: str) -> int:
    """A broken counter: measures every text as -2."""
    return -2


def always_minus_1(text: str) -> int:
    """A broken counter: measures every text as -1."""
    return -1


def always_1_0(text: str) -> float:
    """A broken counter: measures every text as 1.0 (a float, not an int)."""
    return 1.0


def always_2_5(text: str) -> float:
    """A broken counter: measures every text as 2.5."""
    return 2.5


def always_none(text: str) -> None:
    """A broken counter: returns None."""
    return None


def always_true(text: str) -> bool:
    """A broken counter: returns True (a bool, not a count)."""
    return True


def always_0(text: str) -> int:
    """A counter that measures every text as 0 (so only the limit itself is tested)."""
    return 0


BROKEN_COUNTERS = (always_minus_2, always_minus_1, always_1_0, always_2_5, always_none, always_true)


# --- request counters (lesson 07): cheap stand-ins for a chat template, messages -> int --------------------
def _messages(messages: Any, counter: str) -> list[tuple[str, str]]:
    """(role, text) of each message (null content beside tool calls is no text); a TypeError naming the counter
    when it was given something else."""
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        raise TypeError(f"{counter} measures a request, a list of message dicts, not {type(messages).__name__}")
    return [(message["role"], content_text(message)) for message in messages]


def count_request_words(messages: list[dict[str, str]]) -> int:
    """A request counter: the words of every message's content, plus 3 per message and 3 for the reply
    (the shape of OpenAI's cookbook estimate, over whitespace words instead of real tokens)."""
    return 3 + sum(3 + len(content.split()) for _, content in _messages(messages, "count_request_words"))


def count_template_div4(messages: list[dict[str, str]]) -> int:
    """A request counter: the characters of a made-up chat template, divided by 4 and rounded up. Each
    message is rendered `<|role|>content<|end|>`, and `<|assistant|>` primes the reply."""
    rendered = "".join(f"<|{role}|>{content}<|end|>" for role, content in _messages(messages, "count_template_div4"))
    return -(-len(rendered + "<|assistant|>") // 4)


def count_system_folded(messages: list[dict[str, str]]) -> int:
    """A request counter that charges the system prompt as Mistral's v1 to v3 templates place it: folded
    into the user's turn, `[INST] system + "\\n\\n" + user [/INST]`, measured in characters divided by 4,
    rounded up (a system message, even an empty one, adds its content and the two newlines)."""
    parts = _messages(messages, "count_system_folded")
    system = "".join(content + "\n\n" for role, content in parts if role == "system")
    user = "".join(content for role, content in parts if role != "system")
    return -(-len("<s>[INST] " + system + user + " [/INST]") // 4)


def words_then_2_5(messages: list[dict[str, str]]) -> int | float:
    """A broken request counter: count_request_words for a request without a source line, 2.5 once the
    user's turn holds one (so the base request measures fine and the first candidate does not)."""
    parts = _messages(messages, "words_then_2_5")
    if any("\n[" in content for _, content in parts):
        return 2.5
    return count_request_words(messages)


REQUEST_COUNTERS = (count_request_words, count_template_div4, count_system_folded)


@contextmanager
def _build_prompt_edited(tag: str, names: dict[str, Any]) -> Iterator[None]:
    """For the block, `names["build_prompt"]` writes `tag` as a careless hand would ("CONTEXT:" as "Context:")."""
    own = names.get("build_prompt")
    if not callable(own):
        raise ValueError("tag_lost: check_sections finds no build_prompt function to edit (answer q4.2 first)")

    def hand_edited(sections: Any) -> str:
        return own(sections).replace(tag, tag.capitalize())

    names["build_prompt"] = hand_edited
    try:
        yield
    finally:
        if names.get("build_prompt") is hand_edited:
            names["build_prompt"] = own


def tag_lost(tag: str, check_sections: Any, *args: Any) -> Any:
    """`check_sections(*args)` with the `build_prompt` it calls hand-edited for the call, writing `tag` as
    `"Context:"` for `"CONTEXT:"` (a prompt that lost a tag, as the lesson's hand-edited ones do); afterwards
    build_prompt is as it was. Exercise 04 grades check 2 of check_sections with it."""
    with _build_prompt_edited(tag, getattr(check_sections, "__globals__", {})):
        return check_sections(*args)


__all__ = [
    "BROKEN_COUNTERS",
    "Once",
    "REQUEST_COUNTERS",
    "Record",
    "SortedSet",
    "always_0",
    "always_1_0",
    "always_2_5",
    "always_minus_1",
    "always_minus_2",
    "always_none",
    "always_true",
    "count_request_words",
    "count_system_folded",
    "count_template_div4",
    "once",
    "tag_lost",
    "words_then_2_5",
]
