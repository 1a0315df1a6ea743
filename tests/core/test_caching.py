"""Lesson 09, the cached prefix: how many leading token ids two requests share, and the cached tokens OpenAI's
published rule gives a prompt (packer/caching.py). What a real conversation's requests share under Mistral's
templates is in test_history.py, beside the transcript it is measured on.
"""

from __future__ import annotations

import pytest

from packer.caching import common_prefix_length, openai_cached_tokens


@pytest.mark.parametrize(
    ("a", "b", "shared"),
    [([1, 2, 3], [1, 2, 3, 4], 3), ([1, 2, 3], [1, 9, 3], 1), ([], [1], 0), ([5], [6], 0), ((1, 2), [1, 2], 2)],
)
def test_the_common_prefix_is_how_many_leading_ids_two_requests_share(a, b, shared):
    assert common_prefix_length(a, b) == shared == common_prefix_length(b, a)


@pytest.mark.parametrize("bad", ["123", b"12", 5, None, {1, 2}])
def test_the_common_prefix_needs_two_sequences_of_ids(bad):
    with pytest.raises(ValueError, match="a must be a sequence of token ids"):
        common_prefix_length(bad, [1])
    with pytest.raises(ValueError, match="b must be a sequence of token ids"):
        common_prefix_length([1], bad)


@pytest.mark.parametrize(
    ("prefix", "prompt", "cached"),
    [
        (0, 0, 0),
        (1023, 5000, 0),
        (1024, 1024, 1024),
        (1151, 1200, 1024),
        (1152, 1152, 1152),
        (1279, 3000, 1152),
        (2006, 2006, 1920),  # the guide's example: 1920 of a 2006-token prompt
    ],
)
def test_openai_caches_from_1024_tokens_in_steps_of_128(prefix, prompt, cached):
    assert openai_cached_tokens(prefix, prompt) == cached


@pytest.mark.parametrize(
    ("prefix", "prompt", "error"),
    [
        (-1, 5, "prefix_len must be a non-negative int"),
        (True, 5, "prefix_len must be a non-negative int"),
        (5, 2.0, "prompt_len must be a non-negative int"),
        (2000, 1999, r"prefix_len \(2000\) must not exceed prompt_len \(1999\)"),
    ],
)
def test_openai_cached_tokens_refuses_bad_lengths(prefix, prompt, error):
    with pytest.raises(ValueError, match=error):
        openai_cached_tokens(prefix, prompt)
