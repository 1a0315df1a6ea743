"""pack_utf8 does linear work: structural checks, not timings.

Every `str.encode` call made while pack_utf8 runs is observed through `sys.setprofile` (a C-call
event carries the bound method, whose `__self__` is the string being encoded). A packer that
re-encodes the growing payload for each candidate encodes a quadratic number of characters; one
that encodes each line once encodes about as many characters as it was given.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

from packer import pack_utf8

HEADER = "Sources:\n"
SLACK = 64  # characters allowed on top of the input for incidental encodes


@contextmanager
def encode_log():
    """Yield a list that receives the length of every str encoded while the block runs."""
    sizes: list[int] = []
    previous = sys.getprofile()

    def profile(frame, event, arg):
        if event == "c_call" and getattr(arg, "__name__", None) == "encode":
            target = getattr(arg, "__self__", None)
            if isinstance(target, str):
                sizes.append(len(target))

    sys.setprofile(profile)
    try:
        yield sizes
    finally:
        sys.setprofile(previous)


def make_passages(n: int) -> list[tuple[str, str]]:
    return [(f"p{i}", f"passage {i} é日🙂 " + "x" * (i % 7)) for i in range(n)]


def input_characters(passages) -> int:
    return len(HEADER) + sum(len(f"[{key}] {text}\n") for key, text in passages)


def test_encode_log_sees_str_encode_calls():
    with encode_log() as sizes:
        "abc".encode("utf-8")
        str.encode("hello", "utf-8")
    assert sizes == [3, 5]


def run_logged(passages, limit, reserve=0):
    with encode_log() as sizes:
        result = pack_utf8(passages, limit, reserve)
    assert sizes, "pack_utf8 no longer measures bytes with str.encode; update this structural test"
    return result, sizes


def test_every_passage_kept_encodes_each_character_about_once():
    passages = make_passages(2000)
    (_, kept), sizes = run_logged(passages, 10**9)
    assert len(kept) == 2000
    assert sum(sizes) <= input_characters(passages) + SLACK


def test_half_the_passages_kept_still_encodes_each_character_about_once():
    passages = make_passages(2000)
    limit = len(HEADER.encode()) + sum(len(f"[{key}] {text}\n".encode()) for key, text in passages[:1000])
    (_, kept), sizes = run_logged(passages, limit)
    assert len(kept) == 1000
    assert sum(sizes) <= input_characters(passages) + SLACK


def test_encode_calls_grow_with_the_number_of_passages_not_its_square():
    passages = make_passages(2000)
    _, sizes = run_logged(passages, 10**9)
    assert len(sizes) <= len(passages) + 8


def test_doubling_the_input_at_most_doubles_the_encoding_work():
    small, large = make_passages(1000), make_passages(2000)
    _, small_sizes = run_logged(small, 10**9)
    _, large_sizes = run_logged(large, 10**9)
    ratio = sum(large_sizes) / sum(small_sizes)
    assert ratio <= 2.5, f"encoding work grew {ratio:.1f}x for 2x input"
