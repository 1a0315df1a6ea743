"""The counters injected into pack_prompt: none is a model tokenizer."""

from __future__ import annotations

import pytest

from packer import COUNTERS, count_chars_div4, count_utf8_bytes, count_words, estimate_tokens


@pytest.mark.parametrize(
    "text, words",
    [("", 0), ("   ", 0), ("one", 1), ("one two", 2), ("one  two\tthree\nfour", 4), ("[a] x\n", 2), ("é 日 🙂", 3)],
    ids=["empty", "blank", "one", "two", "mixed-whitespace", "label-is-a-word", "non-ascii"],
)
def test_count_words_counts_whitespace_separated_words(text, words):
    assert count_words(text) == words


@pytest.mark.parametrize(
    "text, size",
    [("", 0), ("a", 1), ("é", 2), ("日", 3), ("🙂", 4), ("aé日🙂", 10)],
    ids=["empty", "ascii", "two-byte", "three-byte", "four-byte", "mixed"],
)
def test_count_utf8_bytes_counts_encoded_bytes(text, size):
    assert count_utf8_bytes(text) == size


@pytest.mark.parametrize(
    "text", ["", "a", "abcd", "abcde", "é日🙂", "x" * 101], ids=["empty", "1", "4", "5", "non-ascii", "101"]
)
def test_count_chars_div4_is_the_planning_estimate(text):
    assert count_chars_div4(text) == estimate_tokens(text)


def test_counters_table_holds_exactly_the_three_counters():
    assert sorted(COUNTERS.values(), key=lambda f: f.__name__) == [count_chars_div4, count_utf8_bytes, count_words]


def test_word_counter_is_labelled_as_not_tokens():
    [name] = [name for name, counter in COUNTERS.items() if counter is count_words]
    assert "not tokens" in name


def test_byte_and_estimate_counters_are_labelled_by_unit():
    names = {counter: name for name, counter in COUNTERS.items()}
    assert "byte" in names[count_utf8_bytes].lower()
    assert "4" in names[count_chars_div4]


@pytest.mark.parametrize("counter", [count_words, count_utf8_bytes, count_chars_div4])
def test_every_counter_returns_a_non_negative_int(counter):
    for text in ["", "Question: why\nSources:\nAnswer:", "é日🙂"]:
        result = counter(text)
        assert type(result) is int and result >= 0
