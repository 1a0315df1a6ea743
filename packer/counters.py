"""Counters to inject into pack_prompt: three teaching units, and real byte-level BPE tokens.

`count_words`, `count_utf8_bytes` and `count_chars_div4` are teaching units, not model tokens.
`bpe(name)` returns a real token counter for the byte-level BPE encodings `cl100k_base` and `o200k_base`.
`pretokens(text, name)` shows the pieces those encodings cut a text into before any merge, and
`seam_is_cut(left, right, name)` says whether joining two texts leaves every piece as it was, which is
exactly when their counts are sure to add up (see its docstring).

Why this implementation of `bpe`: tiktoken downloads its vocabulary files on first use, which the workbook
may not do at run time. The `bpe-openai` package ships both vocabularies inside its wheel (compiled into a
Rust extension) and needs no network. Its tiktoken-style `Encoding.encode` raises on text that looks like a
special token (`<|endoftext|>`), and its `encode_ordinary` refuses texts of 1,000,000 characters or more and
results over 200,000 tokens, so a long passage would become an error instead of a count. The counter here
calls the extension's own `count` underneath that wrapper: it treats every text as plain text (special-token
look-alikes included), has no length cap and builds no list of token ids. It loads that extension module
straight from the installed package's folder: importing the package itself first decodes every vocabulary
into Python dictionaries the counter never uses (half a second on an idle machine, two on a busy one, which
matters inside a grader's time limit), while the extension loads an encoding in about 0.1 s. If that direct
load fails, it falls back to the ordinary `from bpe_openai import _bindings`.
The price is that `bpe_openai._bindings` is not public API: the dependency is pinned below 0.2, and
tests/core/test_bpe.py checks the counts against the package's public `encode_ordinary` and known values,
so an upgrade that changes it fails loudly. tests/benchmarks/bpe_crosscheck.py compares it with tiktoken's
`encode_ordinary`, built offline from the same vocabulary files: identical counts on all 21,297 texts tried
(lesson 05's passages and random mixed-script strings) in both encodings, with tiktoken 0.14.

`import packer` stays light: the 70 MB extension is loaded on the first call to `bpe`, and each
encoding is loaded once and cached.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from packer.section_budget import estimate_tokens

BPE_ENCODINGS = ("cl100k_base", "o200k_base")

# Every counter bpe() has made, to its encoding's name. pack_prompt takes its fast path only for a counter
# that IS one of these objects (compared by identity, never by name): any other callable is re-measured.
BPE_COUNTERS: dict[int, tuple[Callable[[str], int], str]] = {}


def bpe_encoding_of(count: object) -> str | None:
    """The encoding's name if `count` is a counter made by bpe(), else None (identity, not name or attributes)."""
    entry = BPE_COUNTERS.get(id(count))
    return entry[1] if entry is not None and entry[0] is count else None


def count_words(text: str) -> int:
    """Whitespace-separated words: the seed fixture's unit, deliberately NOT model tokens."""
    return len(text.split())


def count_utf8_bytes(text: str) -> int:
    """Length of the text encoded as UTF-8, in bytes."""
    return len(text.encode("utf-8"))


def count_chars_div4(text: str) -> int:
    """The chars/4 planning estimate, rounded up."""
    return estimate_tokens(text)


def bpe(name: str) -> Callable[[str], int]:
    """A real token counter (text -> int) for the byte-level BPE encoding `name`, loaded offline once."""
    if not isinstance(name, str) or name not in BPE_ENCODINGS:
        raise ValueError(f"name must be one of {', '.join(BPE_ENCODINGS)}, got {name!r}")
    return _bpe_counter(name)


def _extension_directly() -> ModuleType:
    """bpe-openai's compiled extension, loaded from its file without running the package's __init__."""
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("bpe-openai is not installed")
    folder = Path(next(iter(spec.submodule_search_locations)))
    [path] = [p for p in folder.iterdir() if p.name.startswith("_bindings.") and p.suffix in (".so", ".pyd")]
    loader = importlib.machinery.ExtensionFileLoader("bpe_openai._bindings", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_file_location(loader.name, path, loader=loader))
    loader.exec_module(module)
    return module


@functools.cache
def _extension() -> ModuleType:
    """The extension, loaded once: directly when possible, else through the package."""
    try:
        return _extension_directly()
    except (ImportError, OSError, ValueError):
        with warnings.catch_warnings():  # the package's own use of a deprecated importlib.resources call
            warnings.simplefilter("ignore", DeprecationWarning)
            from bpe_openai import _bindings
        return _bindings


@functools.cache
def _tokenizer(name: str) -> object:
    """One encoding, loaded once from the installed wheel (no network)."""
    return _extension().tokenizer_for_encoding(name)


def _on_text(argument: str, text: object, measure: Callable[[str], object]) -> object:
    """measure(text) for a str; a ValueError naming the argument for anything else or invalid UTF-8."""
    if not isinstance(text, str):
        raise ValueError(f"{argument} must be a str, got {type(text).__name__}")
    try:
        return measure(text)
    except UnicodeEncodeError as error:
        raise ValueError(f"{argument} is not valid UTF-8 at index {error.start}: {error.reason}") from None


@functools.cache
def _bpe_counter(name: str) -> Callable[[str], int]:
    """Wrap one encoding's count as a plain text -> int counter."""
    tokenizer = _tokenizer(name)

    def count(text: str) -> int:
        return _on_text("text", text, tokenizer.count)

    count.__name__ = count.__qualname__ = f"count_{name}"
    count.__doc__ = f"Real {name} tokens: byte-level BPE, special-token look-alikes counted as plain text."
    BPE_COUNTERS[id(count)] = (count, name)  # the entry keeps the counter alive, so its id is never reused
    return count


def _encoding(name: object) -> str:
    """The encoding's name, checked; ValueError naming the argument."""
    if not isinstance(name, str) or name not in BPE_ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(BPE_ENCODINGS)}, got {name!r}")
    return name


def pretokens(text: str, encoding: str) -> list[str]:
    """The pieces the encoding's pre-tokenizer cuts `text` into; BPE then merges bytes only inside a piece."""
    return list(_on_text("text", text, _tokenizer(_encoding(encoding)).pretokenize))


def seam_is_cut(left: str, right: str, encoding: str) -> bool:
    """True when joining `left + right` changes no piece of either: then their token counts add up exactly.

    A byte-level BPE tokenizer counts a text as the sum of its pieces' counts, each piece encoded on its
    own. If the pieces of the joined text are the pieces of `left` followed by those of `right`, the
    joined count is therefore the sum of the two counts. The converse does not hold: pieces can change
    and the totals still happen to agree, so False means "not guaranteed", not "counts differ".
    """
    split = _tokenizer(_encoding(encoding)).pretokenize
    apart = _on_text("left", left, split) + _on_text("right", right, split)
    return split(left + right) == apart


COUNTERS: dict[str, Callable[[str], int]] = {
    "whitespace words (fixture, not tokens)": count_words,
    "UTF-8 bytes": count_utf8_bytes,
    "chars/4 estimate": count_chars_div4,
}
