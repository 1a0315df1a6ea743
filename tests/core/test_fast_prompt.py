"""pack_prompt's fast path for bpe() counters: the same (chosen, skipped, prompt) as re-measuring, from exact counts.

The argument is in packer/prompt.py's docstring: every seam of the rendered prompt is a newline followed by
"[" or "A", which the pre-tokenizers of both encodings always cut, so counts add up exactly across it.
These tests check that claim where it could break (adversarial text on both sides of a seam), then check
the packer's results against the plain path on generated input and on lesson 05's real corpus.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import packer.prompt
from packer import pack_prompt, render_prompt
from packer.counters import BPE_ENCODINGS, bpe, bpe_encoding_of, count_words

pytest.importorskip(
    "bpe_openai", reason="bpe-openai (the real tokenizer's vocabulary) is not installed: run `make venv`"
)

# Pieces chosen to sit on either side of a seam: whitespace runs, line breaks, digits, CJK, emoji,
# apostrophes and contractions, combining marks, "/" (o200k's punctuation rule), and special-token look-alikes.
PIECES = [
    " ",
    "  ",
    "   ",
    "\t",
    "\n",
    "\n\n",
    "\r\n",
    " \n",
    "\n ",
    "\r",
    "0",
    "7",
    "42",
    "2026",
    "123456",
    "漢字",
    "かな",
    "한국",
    "नमस्ते",
    "ไทย",
    "🙂",
    "👍🏽",
    "'",
    "'s",
    "'ll",
    "’",
    "'RE",
    "Don't",
    "e\u0301",
    "<|endoftext|>",
    "<|endofprompt|>",
    "<|",
    "|>",
    "[",
    "]",
    "[a]",
    "A",
    "Answer:",
    "Sources:",
    "/",
    "//",
    ".",
    "...",
    ",",
    "-",
    "#",
    "x",
    "word",
    "The",
    "Ж",
    "\u00a0",
    "\u2028",
    "\x0b",
    "\x85",
]
texts = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
ids = st.text(alphabet="abz09-_ .'|/<>é漢🙂", min_size=1, max_size=4)
passage_lists = st.lists(st.tuples(ids, texts), max_size=8, unique_by=lambda p: p[0])
encodings = st.sampled_from(BPE_ENCODINGS)


def plain(count):
    """A learner's own callable with the same counts: pack_prompt re-measures with it."""
    return lambda text: count(text)


def tokenizer(name):
    """The extension's tokenizer, for its pre-tokenizer (not public API; the counter wraps the same object)."""
    from bpe_openai import _bindings

    return _bindings.tokenizer_for_encoding(name)


# --- the seam argument ------------------------------------------------------------------------------


@given(left=texts, text=texts, right=texts, key=ids, name=encodings, answer=st.booleans())
def test_a_newline_before_a_label_or_the_answer_cue_is_always_a_pre_token_cut(left, text, right, key, name, answer):
    before = left + "\n"
    after = "Answer:" + right if answer else f"[{key}] {text}\n" + right
    pieces = tokenizer(name).pretokenize(before + after)
    assert pieces == tokenizer(name).pretokenize(before) + tokenizer(name).pretokenize(after)
    count = bpe(name)
    assert count(before + after) == count(before) + count(after)


@given(question=texts, passages=passage_lists, name=encodings)
def test_the_prompt_counts_as_the_base_plus_each_line_alone(question, passages, name):
    count = bpe(name)
    lines = sum(count(packer.prompt._line(key, text)) for key, text in passages)
    assert count(render_prompt(question, passages)) == count(render_prompt(question, [])) + lines


def test_without_the_newline_the_seam_is_not_a_cut_so_the_argument_needs_it():
    """Counts do not add up across an arbitrary seam: the fast path relies on the newline, and says so."""
    count = bpe("cl100k_base")
    assert count("end." + "\n\nNext") < count("end.") + count("\n\nNext")
    assert count("word " + "x") < count("word ") + count("x")


# --- the packer: same result as re-measuring --------------------------------------------------------


@given(question=texts, passages=passage_lists, extra=st.integers(0, 80), name=encodings)
def test_fast_and_plain_paths_return_identical_results(question, passages, extra, name):
    count = bpe(name)
    limit = count(render_prompt(question, [])) + extra
    assert pack_prompt(question, passages, limit, count) == pack_prompt(question, passages, limit, plain(count))


def corpus_passages() -> list[tuple[str, str]]:
    """Every passage of lesson 05's real corpus (fourteen samples, many scripts), in a fixed shuffled order."""
    from packer.lab import corpus

    texts_ = [(f"s{j}p{i}", p) for j, s in enumerate(corpus.samples()) for i, p in enumerate(s.passages)]
    random.Random(6).shuffle(texts_)
    return texts_


@pytest.mark.parametrize("name", BPE_ENCODINGS)
@pytest.mark.parametrize("limit", [60, 700, 4000])
def test_fast_and_plain_paths_agree_on_lesson_05s_real_corpus(name, limit):
    passages = corpus_passages()[:500]
    count = bpe(name)
    fast = pack_prompt("What does the documentation say about this?", passages, limit, count)
    assert fast == pack_prompt("What does the documentation say about this?", passages, limit, plain(count))
    assert fast[0] and fast[1], "the limit both admits and skips passages, so both branches are compared"
    assert count(fast[2]) <= limit


@pytest.mark.parametrize("name", BPE_ENCODINGS)
def test_the_seam_count_equals_the_full_count_for_every_prefix_of_the_real_corpus(name):
    count = bpe(name)
    passages = corpus_passages()
    running = count(render_prompt("q?", []))
    for i in range(0, 300):
        running += count(packer.prompt._line(*passages[i]))
        if i % 25 == 24:
            assert running == count(render_prompt("q?", passages[: i + 1])), i


# --- which path is taken ----------------------------------------------------------------------------


def refuse(*args):
    raise AssertionError("the plain path was taken")


@pytest.mark.parametrize("name", BPE_ENCODINGS)
def test_a_bpe_counter_takes_the_fast_path(name, monkeypatch):
    monkeypatch.setattr(packer.prompt, "_pack_by_remeasuring", refuse)
    chosen, skipped, _ = pack_prompt(
        "why", [("a", "one two"), ("b", "one two three four five"), ("c", "six")], 18, bpe(name)
    )
    assert ([key for key, _ in chosen], skipped) == (["a", "c"], ["b"])


def test_any_other_callable_takes_the_plain_path_even_one_that_looks_like_a_bpe_counter(monkeypatch):
    monkeypatch.setattr(packer.prompt, "_pack_by_remeasuring", refuse)
    count = bpe("cl100k_base")
    look_alike = plain(count)
    look_alike.__name__ = count.__name__
    look_alike.__dict__.update(vars(count))
    for other in (look_alike, count_words, count.__call__):
        assert bpe_encoding_of(other) is None
        with pytest.raises(AssertionError, match="plain path"):
            pack_prompt("why", [("a", "x")], 100, other)
    assert [bpe_encoding_of(bpe(name)) for name in BPE_ENCODINGS] == list(BPE_ENCODINGS)


@pytest.mark.parametrize("name", BPE_ENCODINGS)
def test_errors_are_the_plain_paths_errors(name):
    count = bpe(name)
    bad = [("a", "fine"), ("b", "broken \ud800 text")]
    with pytest.raises(ValueError) as fast:
        pack_prompt("q", bad, 100, count)
    with pytest.raises(ValueError) as slow:
        pack_prompt("q", bad, 100, plain(count))
    assert str(fast.value) == str(slow.value) == "text is not valid UTF-8 at index 41: surrogates not allowed"
    for args in [("q", "ab", 10), ("q", [], -1), (3, [], 10), ("q", [], 2)]:
        with pytest.raises(ValueError) as fast:
            pack_prompt(*args, count)
        with pytest.raises(ValueError) as slow:
            pack_prompt(*args, plain(count))
        assert str(fast.value) == str(slow.value)
