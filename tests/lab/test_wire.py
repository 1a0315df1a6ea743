"""Lesson 07's JSON body and its byte packer: escaping as Python's json writes it, and exact linear packing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import packer
from packer.lab.request_budget import PASSAGES, QUESTION, SYSTEM
from packer.lab.wire import body_bytes, escaped, line_bytes, pack_body, request_body

texts = st.text(alphabet='ab é"\\\n\t日😀\x01', max_size=10)
passage_lists = st.lists(
    st.tuples(st.text(alphabet="xyz", min_size=1, max_size=3), texts), max_size=6, unique_by=lambda p: p[0]
)


def remeasured(question, passages, limit, max_tokens, ensure_ascii, system=""):
    """The plain byte packer: encode the whole candidate body for every passage."""
    base = request_body(packer.build_request(question, [], system), max_tokens, ensure_ascii)
    if body_bytes(base) > limit:
        raise ValueError("limit: the body without passages is over the limit")
    chosen, skipped = [], []
    for passage in passages:
        candidate = request_body(packer.build_request(question, chosen + [passage], system), max_tokens, ensure_ascii)
        if body_bytes(candidate) <= limit:
            chosen.append(passage)
        else:
            skipped.append(passage[0])
    return chosen, skipped, request_body(packer.build_request(question, chosen, system), max_tokens, ensure_ascii)


def test_escapes_as_the_json_docs_and_rfc_8259_say():
    assert escaped("é", True) == "\\u00e9" and len(escaped("é", True).encode()) == 6
    assert escaped("😀", True) == "\\ud83d\\ude00" and len(escaped("😀", True).encode()) == 12
    assert escaped("é😀", False) == "é😀" and len(escaped("é😀", False).encode()) == 6
    assert escaped('a\nb"', False) == 'a\\nb\\"'


@pytest.mark.parametrize("ensure_ascii", [True, False])
@given(question=texts, passages=passage_lists, system=texts, limit=st.integers(0, 600))
def test_adding_escaped_line_bytes_gives_the_same_result_as_re_encoding(
    ensure_ascii, question, passages, system, limit
):
    try:
        expected = remeasured(question, passages, limit, 128, ensure_ascii, system)
    except ValueError:
        with pytest.raises(ValueError):
            pack_body(question, passages, limit, 128, ensure_ascii, system)
        return
    got = pack_body(question, passages, limit, 128, ensure_ascii, system)
    assert got == expected
    assert body_bytes(got[2]) <= limit


@pytest.mark.parametrize("ensure_ascii", [True, False])
@given(question=texts, passages=passage_lists)
def test_the_body_is_the_base_plus_its_escaped_lines(ensure_ascii, question, passages):
    base = body_bytes(request_body(packer.build_request(question, []), 0, ensure_ascii))
    whole = body_bytes(request_body(packer.build_request(question, passages), 0, ensure_ascii))
    assert whole == base + sum(line_bytes(key, text, ensure_ascii) for key, text in passages)


def test_the_body_is_the_json_a_client_sends():
    body = request_body(packer.build_request(QUESTION, PASSAGES[:1], SYSTEM), 64, True)
    assert json.loads(body) == {
        "model": "mistral-large-2411",
        "messages": packer.build_request(QUESTION, PASSAGES[:1], SYSTEM),
        "max_tokens": 64,
    }
    assert body.isascii()


def test_the_lesson_limit_chooses_differently_by_escaping():
    ascii_only = pack_body(QUESTION, PASSAGES, 700, 64, True, SYSTEM)
    utf8 = pack_body(QUESTION, PASSAGES, 700, 64, False, SYSTEM)
    assert [k for k, _ in ascii_only[0]] != [k for k, _ in utf8[0]]


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="ensure_ascii must be True or False"):
        pack_body(QUESTION, PASSAGES, 700, 64, 1)
    with pytest.raises(ValueError, match="limit must be a non-negative int"):
        pack_body(QUESTION, PASSAGES, -1, 64, True)
    with pytest.raises(ValueError, match="max_tokens must be a non-negative int"):
        pack_body(QUESTION, PASSAGES, 700, -64, True)
    with pytest.raises(ValueError, match="limit: the body without passages is"):
        pack_body(QUESTION, PASSAGES, 10, 64, True)
    with pytest.raises(ValueError, match=r"passage 0 \('a'\): not encodable as UTF-8"):
        pack_body("q", [("a", "\ud800")], 700, 64, False)
    assert pack_body("q", [("a", "\ud800")], 700, 64, True)[0] == [("a", "\ud800")]
    with pytest.raises(ValueError, match="text must be a str"):
        escaped(3, True)
