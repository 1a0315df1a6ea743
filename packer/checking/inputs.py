"""Inputs the checks pass to answers, each shown in a counterexample as the call that rebuilds it.

Every exercise's setup cell imports these names, so a counterexample such as
`pack_prompt('why', [('a', 'x')], 9, always_2_5)` or `assemble_context(once([...]), 10)` can be pasted
into a cell and run as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any


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

__all__ = [
    "BROKEN_COUNTERS",
    "Once",
    "Record",
    "always_0",
    "always_1_0",
    "always_2_5",
    "always_minus_1",
    "always_minus_2",
    "always_none",
    "always_true",
    "once",
]
