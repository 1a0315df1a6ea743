"""packer.counters.pretokens and seam_is_cut: when do two texts' real token counts add up when joined?

The rule under test: byte-level BPE counts a text piece by piece (the pre-tokenizer's pieces), so when
joining `left + right` leaves every piece of both as it was, count(left + right) == count(left) + count(right).
seam_is_cut says exactly whether the pieces survive; brute force over many pairs checks it never claims a
seam that does not add up, in both encodings, and that it is not vacuous (it says False where counts differ).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from packer.counters import BPE_ENCODINGS, bpe, pretokens, seam_is_cut

pytest.importorskip(
    "bpe_openai", reason="bpe-openai (the real tokenizer's vocabulary) is not installed: run `make venv`"
)

# Characters that change pieces at a seam: whitespace runs and line breaks, digits, letters of several
# scripts, punctuation (o200k glues "/" after a newline), apostrophes for contractions, brackets and emoji.
ALPHABET = "ab AZ19 \n\n\t\r[]{}/.,:'s’é日本한국🙂-"


def apart_and_joined(left: str, right: str, encoding: str) -> tuple[int, int]:
    count = bpe(encoding)
    return count(left) + count(right), count(left + right)


# The pairs the lessons show: (left, right, encoding, tokens apart, tokens joined).
COUNTEREXAMPLES = [
    ("a\n", "\n[b", "cl100k_base", 4, 3),
    ("a\n", "\n[b", "o200k_base", 4, 3),
    ("x}\n", "// y", "o200k_base", 4, 3),
    ("  ", "123", "cl100k_base", 2, 3),
    ("  ", "123", "o200k_base", 2, 3),
]


@pytest.mark.parametrize("left, right, encoding, apart, joined", COUNTEREXAMPLES)
def test_the_lessons_counterexamples_do_not_add_up_and_their_seams_are_not_cut(left, right, encoding, apart, joined):
    assert apart_and_joined(left, right, encoding) == (apart, joined)
    assert not seam_is_cut(left, right, encoding)


def test_the_same_pair_adds_up_in_cl100k_where_o200k_glues_the_slash_after_a_newline():
    assert pretokens("x}\n// y", "cl100k_base") == ["x", "}\n", "//", " y"]
    assert pretokens("x}\n// y", "o200k_base") == ["x", "}\n//", " y"]
    assert seam_is_cut("x}\n", "// y", "cl100k_base")
    assert apart_and_joined("x}\n", "// y", "cl100k_base") == (4, 4)


def test_pieces_show_why_a_newline_run_merges():
    assert pretokens("a\n", "cl100k_base") == ["a", "\n"]
    assert pretokens("\n[b", "cl100k_base") == ["\n", "[b"]
    assert pretokens("a\n\n[b", "cl100k_base") == ["a", "\n\n", "[b"]


@pytest.mark.parametrize("encoding", BPE_ENCODINGS)
def test_brute_force_a_cut_seam_always_adds_up_and_most_failures_are_seen(encoding):
    rng = random.Random(21)
    cut = additive_uncut = not_additive = 0
    for _ in range(20_000):
        left = "".join(rng.choices(ALPHABET, k=rng.randint(0, 8)))
        right = "".join(rng.choices(ALPHABET, k=rng.randint(0, 8)))
        apart, joined = apart_and_joined(left, right, encoding)
        if seam_is_cut(left, right, encoding):
            assert joined == apart, (left, right)
            cut += 1
        elif joined == apart:
            additive_uncut += 1
        else:
            not_additive += 1
    # Not vacuous: both verdicts are common, and every pair that failed to add up was flagged (asserted above).
    assert cut > 5_000 and not_additive > 2_000
    # Pieces can change while the totals happen to agree: False means "not guaranteed", not "differs".
    assert additive_uncut > 0


@pytest.mark.parametrize("encoding", BPE_ENCODINGS)
@given(left=st.text(ALPHABET, max_size=12), right=st.text(ALPHABET, max_size=12))
def test_a_cut_seam_adds_up_on_generated_pairs(encoding, left, right):
    if seam_is_cut(left, right, encoding):
        apart, joined = apart_and_joined(left, right, encoding)
        assert joined == apart


@pytest.mark.parametrize("encoding", BPE_ENCODINGS)
@given(before=st.text(ALPHABET, max_size=12), after=st.text(ALPHABET, max_size=12), start=st.sampled_from("[A"))
def test_the_renderers_seams_are_always_cut(encoding, before, after, start):
    """Every seam of render_prompt is a newline followed by "[" (a label) or "A" (the answer cue)."""
    assert seam_is_cut(before + "\n", start + after, encoding)


@pytest.mark.parametrize("encoding", BPE_ENCODINGS)
@given(text=st.text(ALPHABET, max_size=24))
def test_a_text_is_its_pieces_and_costs_the_sum_of_their_counts(encoding, text):
    pieces = pretokens(text, encoding)
    assert "".join(pieces) == text
    assert all(pieces), "no empty piece"
    assert sum(bpe(encoding)(piece) for piece in pieces) == bpe(encoding)(text)


def test_an_empty_side_never_changes_anything():
    for encoding in BPE_ENCODINGS:
        assert pretokens("", encoding) == []
        assert seam_is_cut("", "  123", encoding)
        assert seam_is_cut("a\n\n", "", encoding)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: seam_is_cut("a", "b", "gpt2"), "encoding must be one of cl100k_base, o200k_base, got 'gpt2'"),
        (lambda: seam_is_cut("a", "b", None), "encoding must be one of cl100k_base, o200k_base, got None"),
        (lambda: seam_is_cut(b"a", "b", "cl100k_base"), "left must be a str, got bytes"),
        (lambda: seam_is_cut("a", 7, "cl100k_base"), "right must be a str, got int"),
        (
            lambda: seam_is_cut("a\ud800", "b", "o200k_base"),
            "left is not valid UTF-8 at index 1: surrogates not allowed",
        ),
        (
            lambda: seam_is_cut("a", "\udfff", "o200k_base"),
            "right is not valid UTF-8 at index 0: surrogates not allowed",
        ),
        (lambda: pretokens(["a"], "cl100k_base"), "text must be a str, got list"),
        (lambda: pretokens("a", "p50k_base"), "encoding must be one of cl100k_base, o200k_base, got 'p50k_base'"),
        (lambda: pretokens("ok\ud800", "cl100k_base"), "text is not valid UTF-8 at index 2: surrogates not allowed"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_argument(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert str(error.value) == message
