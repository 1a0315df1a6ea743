"""pack_utf8: whole passages kept while the exact UTF-8 payload plus a framing reserve fits a byte limit."""

from __future__ import annotations

import pytest

from packer import pack_utf8

HEADER = "Sources:\n"


def nbytes(text: str) -> int:
    return len(text.encode("utf-8"))


# --- framing -----------------------------------------------------------------------------------


def test_header_is_nine_bytes():
    assert nbytes(HEADER) == 9


def test_no_passages_returns_just_the_header():
    assert pack_utf8([], 100, 0) == (HEADER, [])


def test_header_exactly_at_the_limit_is_accepted():
    assert pack_utf8([], 9, 0) == (HEADER, [])


def test_header_one_byte_over_the_limit_is_rejected():
    with pytest.raises(ValueError, match="limit"):
        pack_utf8([], 8, 0)


def test_header_plus_reserve_over_the_limit_is_rejected():
    with pytest.raises(ValueError, match="limit"):
        pack_utf8([("a", "x")], 20, 12)


@pytest.mark.parametrize("reserve", [0, 1, 11], ids=["no-reserve", "one-byte", "eleven-bytes"])
def test_header_plus_reserve_equal_to_the_limit_returns_only_the_header(reserve):
    passages = [("a", ""), ("b", "x"), ("c", "é")]
    assert pack_utf8(passages, 9 + reserve, reserve) == (HEADER, [])


# --- the é boundary ----------------------------------------------------------------------------


def test_passage_line_is_label_space_text_newline():
    text, kept = pack_utf8([("a", "é")], 100, 0)
    assert text == "Sources:\n[a] é\n"
    assert kept == ["a"]


def test_two_byte_character_payload_is_sixteen_bytes_but_fifteen_characters():
    payload = "Sources:\n[a] é\n"
    assert (nbytes(payload), len(payload)) == (16, 15)


def test_two_byte_character_fits_exactly_at_sixteen_bytes():
    assert pack_utf8([("a", "é")], 16, 0) == ("Sources:\n[a] é\n", ["a"])


def test_two_byte_character_does_not_fit_in_fifteen_bytes():
    # Counting characters (15) would wrongly keep it.
    assert pack_utf8([("a", "é")], 15, 0) == (HEADER, [])


def test_reserve_of_one_byte_needs_a_limit_of_seventeen():
    assert pack_utf8([("a", "é")], 17, 1) == ("Sources:\n[a] é\n", ["a"])


def test_reserve_of_one_byte_rejects_at_a_limit_of_sixteen():
    assert pack_utf8([("a", "é")], 16, 1) == (HEADER, [])


# --- multi-byte characters ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, line_bytes",
    [("日本", 4 + 6 + 1), ("🙂", 4 + 4 + 1), ("aé日🙂", 4 + 1 + 2 + 3 + 4 + 1)],
    ids=["cjk-three-bytes", "emoji-four-bytes", "mixed"],
)
def test_multi_byte_lines_are_counted_in_bytes(text, line_bytes):
    passages = [("j", text)]
    assert pack_utf8(passages, 9 + line_bytes, 0) == (f"Sources:\n[j] {text}\n", ["j"])
    assert pack_utf8(passages, 9 + line_bytes - 1, 0) == (HEADER, [])


def test_multi_byte_ids_are_counted_in_bytes():
    line = "[é] x\n"  # 7 bytes, 6 characters
    assert pack_utf8([("é", "x")], 9 + 7, 0) == (HEADER + line, ["é"])
    assert pack_utf8([("é", "x")], 9 + 6, 0) == (HEADER, [])


# --- selection ---------------------------------------------------------------------------------


OVERSIZED_MIDDLE = [("a", "x"), ("b", "y" * 100), ("c", "z")]


def test_oversized_middle_passage_is_skipped_and_the_later_one_kept():
    limit = 9 + 6 + 6  # header + "[a] x\n" + "[c] z\n"
    text, kept = pack_utf8(OVERSIZED_MIDDLE, limit, 0)
    assert kept == ["a", "c"]
    assert text == "Sources:\n[a] x\n[c] z\n"


def test_skipped_passage_leaves_no_line_in_the_payload():
    text, _ = pack_utf8(OVERSIZED_MIDDLE, 21, 0)
    assert "[b]" not in text
    assert "y" not in text


def test_payload_plus_reserve_stays_within_the_limit():
    for reserve in range(0, 6):
        for limit in range(9 + reserve, 140):
            text, _ = pack_utf8(OVERSIZED_MIDDLE, limit, reserve)
            assert nbytes(text) + reserve <= limit


def test_payload_is_the_header_followed_by_the_kept_lines_in_order():
    passages = [("a", "é"), ("b", "y" * 50), ("c", "日本"), ("d", "🙂")]
    texts = dict(passages)
    text, kept = pack_utf8(passages, 40, 2)
    assert text == HEADER + "".join(f"[{key}] {texts[key]}\n" for key in kept)


def test_reserve_is_not_appended_to_the_payload():
    text, kept = pack_utf8([("a", "x")], 100, 50)
    assert (text, kept) == ("Sources:\n[a] x\n", ["a"])


def test_rank_order_is_kept_not_sorted_by_size():
    passages = [("big", "b" * 20), ("small", "s"), ("mid", "m" * 5)]
    big, small = len("[big] " + "b" * 20 + "\n"), len("[small] s\n")
    _, kept = pack_utf8(passages, 9 + big + small, 0)
    assert kept == ["big", "small"]


def test_empty_text_still_costs_its_label():
    assert pack_utf8([("a", "")], 9 + 5, 0) == ("Sources:\n[a] \n", ["a"])
    assert pack_utf8([("a", "")], 9 + 4, 0) == (HEADER, [])


def test_tuple_and_generator_of_passages_are_accepted():
    expected = ("Sources:\n[a] x\n[c] z\n", ["a", "c"])
    assert pack_utf8(tuple(OVERSIZED_MIDDLE), 21, 0) == expected
    assert pack_utf8(iter(OVERSIZED_MIDDLE), 21, 0) == expected


# --- invalid input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "limit", [-1, True, False, 100.0, "100", None], ids=["negative", "true", "false", "float", "str", "none"]
)
def test_invalid_limit_is_rejected(limit):
    with pytest.raises(ValueError, match="limit"):
        pack_utf8([("a", "x")], limit, 0)


@pytest.mark.parametrize(
    "reserve", [-1, True, False, 1.0, "1", None], ids=["negative", "true", "false", "float", "str", "none"]
)
def test_invalid_reserve_is_rejected(reserve):
    with pytest.raises(ValueError, match="reserve"):
        pack_utf8([("a", "x")], 100, reserve)


def test_negative_reserve_is_rejected_even_when_it_would_make_room():
    # A reserve of -1 must not buy an extra byte for the é passage.
    with pytest.raises(ValueError, match="reserve"):
        pack_utf8([("a", "é")], 15, -1)


@pytest.mark.parametrize(
    "passages",
    ["a", b"a", {"a": "x"}, None, 1, {("a", "x")}],
    ids=["str", "bytes", "dict", "none", "int", "unordered-set"],
)
def test_passages_that_are_not_a_list_are_rejected(passages):
    with pytest.raises(ValueError, match="passages"):
        pack_utf8(passages, 100, 0)


@pytest.mark.parametrize(
    "passages, message",
    [
        pytest.param([("a",)], r"passage 0\b", id="one-element"),
        pytest.param(["ab"], r"passage 0\b", id="str-passage"),
        pytest.param([("", "x")], r"passage 0\b.*id", id="empty-id"),
        pytest.param([(3, "x")], r"passage 0\b.*id", id="int-id"),
        pytest.param([("a", "x"), ("a", "y")], r"passage 1\b.*duplicate", id="duplicate-id"),
        pytest.param([("[a", "x")], r"passage 0\b.*id", id="id-with-open-bracket"),
        pytest.param([("a]", "x")], r"passage 0\b.*id", id="id-with-close-bracket"),
        pytest.param([("a\n", "x")], r"passage 0\b.*id", id="id-with-newline"),
        pytest.param([("a\r", "x")], r"passage 0\b.*id", id="id-with-carriage-return"),
        pytest.param([("a", None)], r"passage 0\b.*text", id="text-none"),
        pytest.param([("a", b"x")], r"passage 0\b.*text", id="text-bytes"),
        pytest.param([("a", 1)], r"passage 0\b.*text", id="text-int"),
    ],
)
def test_invalid_passage_is_rejected(passages, message):
    with pytest.raises(ValueError, match=message):
        pack_utf8(passages, 100, 0)


def test_invalid_passage_at_the_end_raises_instead_of_a_partial_result():
    passages = OVERSIZED_MIDDLE + [("d", None)]
    with pytest.raises(ValueError, match=r"passage 3\b"):
        pack_utf8(passages, 21, 0)


def test_duplicate_id_after_the_budget_is_spent_is_still_rejected():
    passages = [("a", "x"), ("b", "y" * 100), ("a", "z")]
    with pytest.raises(ValueError, match=r"passage 2\b.*duplicate"):
        pack_utf8(passages, 15, 0)
