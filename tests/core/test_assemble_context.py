"""assemble_context: greedy skip-and-continue packing of ranked chunks with precomputed token counts."""

from __future__ import annotations

import pytest

from packer import assemble_context


def chunk(text, token_count):
    return {"text": text, "token_count": token_count}


@pytest.fixture
def ranked():
    """The worked example: four ranked chunks, the third too big for what is left of 100 tokens."""
    return [chunk("alpha", 40), chunk("bravo", 30), chunk("charlie", 50), chunk("delta", 20)]


# --- behaviour -------------------------------------------------------------------------------


def test_worked_example_skips_charlie_and_still_takes_delta(ranked):
    assert assemble_context(ranked, 100) == ("alpha\n\nbravo\n\ndelta", 90)


def test_max_tokens_can_be_passed_by_keyword(ranked):
    assert assemble_context(ranked, max_tokens=100) == ("alpha\n\nbravo\n\ndelta", 90)


def test_skip_and_continue_reaches_a_small_chunk_behind_an_overflowing_one(ranked):
    context, _ = assemble_context(ranked, 100)
    # Stopping at the first overflow (charlie) would return only alpha and bravo.
    assert "delta" in context.split("\n\n")
    assert "charlie" not in context


def test_used_tokens_is_the_sum_of_the_selected_counts_only(ranked):
    _, used = assemble_context(ranked, 100)
    assert used == 40 + 30 + 20


def test_empty_chunk_list_gives_empty_context_and_zero_tokens():
    assert assemble_context([], 100) == ("", 0)


@pytest.mark.parametrize("max_tokens", [0, 10, 19], ids=["zero", "ten", "one-below-smallest"])
def test_budget_too_small_for_every_chunk_gives_empty_context(ranked, max_tokens):
    assert assemble_context(ranked, max_tokens) == ("", 0)


def test_single_chunk_larger_than_the_budget_is_never_selected():
    assert assemble_context([chunk("huge", 101)], 100) == ("", 0)


def test_oversized_chunk_between_fitting_chunks_is_left_out():
    chunks = [chunk("first", 10), chunk("huge", 500), chunk("last", 10)]
    assert assemble_context(chunks, 100) == ("first\n\nlast", 20)


def test_exact_fit_is_accepted():
    assert assemble_context([chunk("sixty", 60), chunk("forty", 40)], 100) == ("sixty\n\nforty", 100)


def test_single_chunk_exactly_the_budget_is_accepted():
    assert assemble_context([chunk("whole", 100)], 100) == ("whole", 100)


def test_one_token_over_the_budget_is_rejected():
    assert assemble_context([chunk("sixty", 60), chunk("forty-one", 41)], 100) == ("sixty", 60)


def test_custom_separator_joins_the_selected_texts(ranked):
    assert assemble_context(ranked, 100, separator=" | ") == ("alpha | bravo | delta", 90)


def test_separator_is_not_charged_against_the_budget(ranked):
    long_separator = "\n" + "-" * 200 + "\n"
    context, used = assemble_context(ranked, 100, separator=long_separator)
    assert used == 90
    assert context == long_separator.join(["alpha", "bravo", "delta"])


def test_separator_is_not_charged_even_at_an_exact_fit():
    chunks = [chunk("a", 50), chunk("b", 50)]
    assert assemble_context(chunks, 100, separator="~" * 1000) == ("a" + "~" * 1000 + "b", 100)


def test_empty_separator_concatenates(ranked):
    assert assemble_context(ranked, 100, separator="") == ("alphabravodelta", 90)


def test_rank_order_is_kept_not_sorted_by_size():
    chunks = [chunk("big", 50), chunk("small", 5), chunk("medium", 20)]
    assert assemble_context(chunks, 60) == ("big\n\nsmall", 55)


def test_zero_cost_chunks_fit_a_zero_budget():
    assert assemble_context([chunk("free", 0), chunk("also free", 0)], 0) == ("free\n\nalso free", 0)


def test_zero_cost_chunk_fits_after_the_budget_is_full():
    chunks = [chunk("full", 100), chunk("paid", 1), chunk("free", 0)]
    assert assemble_context(chunks, 100) == ("full\n\nfree", 100)


def test_chunk_text_is_never_truncated():
    text = "a chunk whose text is much longer than its token count suggests " * 5
    context, used = assemble_context([chunk(text, 3)], 3)
    assert (context, used) == (text, 3)


def test_tuple_of_chunks_is_accepted(ranked):
    assert assemble_context(tuple(ranked), 100) == ("alpha\n\nbravo\n\ndelta", 90)


def test_generator_of_chunks_is_accepted(ranked):
    assert assemble_context((c for c in ranked), 100) == ("alpha\n\nbravo\n\ndelta", 90)


def test_extra_keys_in_a_chunk_are_ignored():
    assert assemble_context([{"text": "x", "token_count": 1, "score": 0.9, "id": "doc-1"}], 5) == ("x", 1)


def test_input_chunks_are_not_modified(ranked):
    before = [dict(c) for c in ranked]
    assemble_context(ranked, 100)
    assert ranked == before


# --- invalid input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "max_tokens",
    [-1, 1.0, 100.5, "100", None, True, False],
    ids=["negative", "float-whole", "float", "str", "none", "true", "false"],
)
def test_invalid_max_tokens_is_rejected_naming_the_argument(ranked, max_tokens):
    with pytest.raises(ValueError, match="max_tokens"):
        assemble_context(ranked, max_tokens)


@pytest.mark.parametrize("separator", [None, 0, b"\n\n", ["\n"]], ids=["none", "int", "bytes", "list"])
def test_non_str_separator_is_rejected_naming_the_argument(ranked, separator):
    with pytest.raises(ValueError, match="separator"):
        assemble_context(ranked, 100, separator=separator)


@pytest.mark.parametrize(
    "chunks",
    ["alpha", b"alpha", {"text": "alpha", "token_count": 1}, None, 7, frozenset()],
    ids=["str", "bytes", "dict", "none", "int", "unordered-set"],
)
def test_chunks_that_are_not_a_sequence_of_chunks_are_rejected(chunks):
    with pytest.raises(ValueError, match="chunks"):
        assemble_context(chunks, 100)


@pytest.mark.parametrize(
    "bad, message",
    [
        ("alpha", r"chunk 0\b.*mapping"),
        (("alpha", 40), r"chunk 0\b.*mapping"),
        (None, r"chunk 0\b.*mapping"),
        ({"token_count": 1}, r"chunk 0\b.*'text'"),
        ({"text": "x"}, r"chunk 0\b.*'token_count'"),
        ({"text": None, "token_count": 1}, r"chunk 0\b.*text"),
        ({"text": b"x", "token_count": 1}, r"chunk 0\b.*text"),
        ({"text": "x", "token_count": -1}, r"chunk 0: token_count must be a non-negative int, got -1"),
        ({"text": "x", "token_count": 1.0}, r"chunk 0\b.*token_count"),
        ({"text": "x", "token_count": True}, r"chunk 0\b.*token_count"),
        ({"text": "x", "token_count": False}, r"chunk 0\b.*token_count"),
        ({"text": "x", "token_count": "1"}, r"chunk 0\b.*token_count"),
        ({"text": "x", "token_count": None}, r"chunk 0\b.*token_count"),
    ],
    ids=[
        "str-chunk",
        "tuple-chunk",
        "none-chunk",
        "missing-text",
        "missing-token-count",
        "text-none",
        "text-bytes",
        "count-negative",
        "count-float",
        "count-true",
        "count-false",
        "count-str",
        "count-none",
    ],
)
def test_invalid_chunk_is_rejected_naming_its_index(bad, message):
    with pytest.raises(ValueError, match=message):
        assemble_context([bad], 100)


def test_invalid_chunk_after_valid_ones_is_reported_with_its_zero_based_index(ranked):
    with pytest.raises(ValueError, match=r"chunk 3: token_count must be a non-negative int, got -1"):
        assemble_context(ranked[:3] + [chunk("delta", -1)], 100)


def test_invalid_chunk_at_the_end_raises_instead_of_a_partial_result(ranked):
    # The bad chunk would never be reached by the budget (it comes after the budget is spent).
    chunks = ranked + [chunk("late", 10), {"text": 42, "token_count": 1}]
    with pytest.raises(ValueError, match=r"chunk 5\b"):
        assemble_context(chunks, 90)


def test_invalid_chunk_beyond_the_budget_is_still_rejected():
    chunks = [chunk("fills", 10), {"text": "x", "token_count": 1.5}]
    with pytest.raises(ValueError, match=r"chunk 1\b"):
        assemble_context(chunks, 10)
