"""Up-front input checks shared by every packer: each failure is a ValueError naming the culprit."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from typing import Any

Passage = tuple[str, str]

# Every line boundary str.splitlines() knows: "\r\n" first (one boundary), then each single character.
LINE_BREAKS = ("\r\n", "\n", "\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def require_count(name: str, value: Any) -> int:
    """Return `value` if it is a non-negative int (bools excluded), else raise naming `name`."""
    if type(value) is not int or value < 0:
        raise ValueError(f"{name} must be a non-negative int, got {value!r}")
    return value


def require_str(name: str, value: Any) -> str:
    """Return `value` if it is a str, else raise naming `name`."""
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a str, got {type(value).__name__}")
    return value


def require_list(name: str, value: Any) -> list:
    """Materialise an ordered iterable as a list, refusing strings, bytes, mappings and (unordered) sets."""
    if isinstance(value, (str, bytes, Mapping, Set)) or not isinstance(value, Iterable):
        raise ValueError(f"{name} must be an ordered iterable such as a list, got {type(value).__name__}")
    return list(value)


def require_passages(passages: Any) -> list[Passage]:
    """Check (id, text) pairs: ids non-empty, unique, label-safe (no "[", "]" or line boundary of
    `LINE_BREAKS`); texts are str (any text: the renderers fold its line breaks, packer.prompt.fold)."""
    items = require_list("passages", passages)
    seen: set[str] = set()
    checked: list[Passage] = []
    for index, item in enumerate(items):
        where = f"passage {index}"
        if isinstance(item, (str, bytes)) or not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ValueError(f"{where}: expected an (id, text) pair, got {item!r}")
        key, text = item
        if not isinstance(key, str) or not key:
            raise ValueError(f"{where}: id must be a non-empty str, got {key!r}")
        if "[" in key or "]" in key or key.splitlines() != [key]:
            raise ValueError(
                f"{where}: id {key!r} contains '[', ']' or a line break (any that str.splitlines knows), "
                "which would make its label ambiguous"
            )
        if key in seen:
            raise ValueError(f"{where}: duplicate id {key!r}")
        if not isinstance(text, str):
            raise ValueError(f"{where} ({key!r}): text must be a str, got {type(text).__name__}")
        seen.add(key)
        checked.append((key, text))
    return checked
