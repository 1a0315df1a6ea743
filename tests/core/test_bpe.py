"""packer.counters.bpe: real byte-level BPE token counts, offline, accepted by pack_prompt like any counter."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import string
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from packer import pack_prompt, render_prompt
from packer.counters import BPE_ENCODINGS, bpe

pytest.importorskip(
    "bpe_openai", reason="bpe-openai (the real tokenizer's vocabulary) is not installed: run `make venv`"
)

ROOT = Path(__file__).resolve().parents[2]

# (text, cl100k_base tokens, o200k_base tokens): measured, and cross-checked by hand against tiktoken 0.14.
KNOWN = [
    ("", 0, 0),
    ("hello world", 2, 2),
    ("漢字かな交じり文", 9, 7),
    ("नमस्ते दुनिया", 13, 5),
    ("สวัสดีชาวโลก", 13, 7),
    ("안녕하세요 세계", 9, 3),
    ("Привет, мир", 6, 4),
    ("🙂🙂🙂", 6, 3),
    ("def f(x):\n    return x + 1\n", 11, 11),
    ("deadbeefcafebabe", 6, 6),
    ("<|endoftext|>", 7, 7),
]


@pytest.mark.parametrize("text, cl100k, o200k", KNOWN, ids=[repr(t[:12]) for t, _, _ in KNOWN])
def test_known_counts_in_both_encodings(text, cl100k, o200k):
    assert (bpe("cl100k_base")(text), bpe("o200k_base")(text)) == (cl100k, o200k)


def test_the_two_encodings_differ_where_the_larger_vocabulary_covers_more_scripts():
    differing = [text for text, cl100k, o200k in KNOWN if cl100k != o200k]
    assert len(differing) >= 5
    assert all(o200k < cl100k for _, cl100k, o200k in KNOWN if cl100k != o200k)


def test_the_issue_example():
    assert bpe("cl100k_base")("hello world") == 2


@pytest.mark.parametrize("name", BPE_ENCODINGS)
def test_special_token_look_alikes_are_plain_text_never_an_error(name):
    count = bpe(name)
    for text in ["<|endoftext|>", "<|endofprompt|>", "<|fim_prefix|>x<|fim_suffix|>", "a <|endoftext|> b"]:
        assert count(text) > 1, text  # as plain text it takes several tokens, never one special token


@pytest.mark.parametrize("name", BPE_ENCODINGS)
def test_counts_agree_with_the_packages_public_encode_ordinary(name):
    """The counter calls bpe-openai's extension directly; an upgrade that changes that path shows up here."""
    import bpe_openai

    encoding = bpe_openai.get_encoding(name)
    for text, *_ in KNOWN + [("Question: why\nSources:\n[a] one two\nAnswer:", 0, 0), ("  \n\n\t 42  ", 0, 0)]:
        assert bpe(name)(text) == len(encoding.encode_ordinary(text)), text


def test_the_counter_is_a_plain_cached_callable_named_by_its_encoding():
    count = bpe("o200k_base")
    assert bpe("o200k_base") is count, "loaded once, then cached"
    assert count.__name__ == "count_o200k_base"
    assert type(count("x")) is int


@pytest.mark.parametrize("name", ["gpt2", "CL100K_BASE", "", None, 100, "voyage3_base"])
def test_unknown_names_raise_value_error_naming_the_argument(name):
    with pytest.raises(ValueError, match=r"^name must be one of cl100k_base, o200k_base, got "):
        bpe(name)


@pytest.mark.parametrize("bad", [None, b"bytes", 3])
def test_a_non_string_text_raises_value_error_naming_it(bad):
    with pytest.raises(ValueError, match="^text must be a str"):
        bpe("cl100k_base")(bad)


def test_text_that_is_not_valid_utf8_raises_value_error_naming_it():
    with pytest.raises(ValueError, match="^text is not valid UTF-8 at index 1"):
        bpe("cl100k_base")("a\ud800b")


def test_long_text_is_counted_not_refused():
    """The package's tiktoken-style wrapper refuses 1,000,000 characters; a counter must not."""
    assert bpe("cl100k_base")("hello " * 200_000) == 200_001


NO_NETWORK = textwrap.dedent("""
    import socket

    def refuse(*args, **kwargs):
        raise OSError("network disabled by the test")

    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse
    assert "bpe_openai" not in __import__("sys").modules

    from packer.counters import bpe
    print(bpe("cl100k_base")("hello world"), bpe("o200k_base")("漢字かな交じり文"))
    print("package init run:", "bpe_openai.compat" in __import__("sys").modules)
""")


def test_the_vocabularies_load_and_count_with_networking_disabled():
    """A fresh interpreter, so the vocabulary load itself happens with the network refused."""
    run = subprocess.run([sys.executable, "-c", NO_NETWORK], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["2 7", "package init run: False"], "the extension is loaded directly"


def test_the_package_import_is_the_fallback_when_the_direct_load_fails(monkeypatch):
    import packer.counters as counters

    def unavailable():
        raise ImportError("pretend the extension file moved")

    monkeypatch.setattr(counters, "_extension_directly", unavailable)
    counters._extension.cache_clear()
    counters._bpe_counter.cache_clear()
    try:
        assert bpe("cl100k_base")("hello world") == 2
        assert counters._extension().__name__ == "bpe_openai._bindings"
    finally:
        counters._extension.cache_clear()
        counters._bpe_counter.cache_clear()


# --- accepted by pack_prompt ------------------------------------------------------------------------
words = st.text(alphabet=string.ascii_letters + string.digits + "  .,\n日本語é🙂<|>", max_size=40)
passage_lists = st.lists(
    st.tuples(st.text(alphabet="abcxyz0", min_size=1, max_size=3), words), max_size=6, unique_by=lambda p: p[0]
)


@pytest.mark.parametrize("name", BPE_ENCODINGS)
def test_pack_prompt_accepts_the_counter(name):
    passages = [("a", "one two"), ("b", "one two three four five"), ("c", "six")]
    chosen, skipped, prompt = pack_prompt("why", passages, 18, bpe(name))
    assert bpe(name)(prompt) == 17  # a (13 with the framing), b would make 21, c makes 17
    assert ([key for key, _ in chosen], skipped) == (["a", "c"], ["b"])


@given(question=words, passages=passage_lists, extra=st.integers(0, 60), name=st.sampled_from(BPE_ENCODINGS))
def test_pack_prompt_with_real_tokens_never_exceeds_the_limit_when_re_measured(question, passages, extra, name):
    count = bpe(name)
    limit = count(render_prompt(question, [])) + extra
    chosen, skipped, prompt = pack_prompt(question, passages, limit, count)
    assert prompt == render_prompt(question, chosen)
    assert count(prompt) <= limit
    kept = {key for key, _ in chosen}
    assert [key for key, _ in chosen] == [key for key, _ in passages if key in kept], "rank order kept"
    assert skipped == [key for key, _ in passages if key not in kept]


@pytest.mark.parametrize(
    "found",
    [None, importlib.machinery.ModuleSpec("bpe_openai", None)],
    ids=["package not found", "a plain module, not a package folder"],
)
def test_when_the_package_folder_cannot_be_found_the_counter_still_loads_through_the_package(monkeypatch, found):
    import packer.counters as counters

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *rest: found if name == "bpe_openai" else real_find_spec(name, *rest)
    )
    with pytest.raises(ImportError, match="bpe-openai is not installed"):
        counters._extension_directly()
    counters._extension.cache_clear()
    counters._bpe_counter.cache_clear()
    try:
        assert bpe("o200k_base")("hello world") == 2
    finally:
        counters._extension.cache_clear()
        counters._bpe_counter.cache_clear()
