"""The real vocabularies behind packer.counters.bpe, read from the files bpe-openai ships (never downloaded).

bpe-openai's wheel carries each encoding as `<name>.tiktoken.gz`: one token per line, base64 bytes and
rank, the format tiktoken publishes. Lesson 02 reads them to see which tokens hold a line break, and what
stands next to it.
"""

from __future__ import annotations

import base64
import functools
import gzip
import importlib.resources
import re
from collections import Counter

from packer.counters import BPE_ENCODINGS

NEWLINE_THEN_TEXT = re.compile(r"\n(\S)")  # a line break followed by a character that is not whitespace
PUNCTUATION_THEN_NEWLINES = re.compile(r"[^\w\s]+\n+")  # such as ".\n", ");\n", ":\n\n"


@functools.cache
def vocabulary(encoding: str) -> tuple[str, ...]:
    """Every ordinary token of the encoding, by merge rank, as text (bytes that are not UTF-8 alone show as U+FFFD)."""
    if encoding not in BPE_ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(BPE_ENCODINGS)}, got {encoding!r}")
    data = importlib.resources.files("bpe_openai.data") / f"{encoding}.tiktoken.gz"
    with data.open("rb") as raw, gzip.open(raw, "rt", encoding="ascii") as lines:
        ranked = sorted((int(rank), token) for token, rank in (line.split() for line in lines if line.strip()))
    return tuple(base64.b64decode(token).decode("utf-8", errors="replace") for _, token in ranked)


def after_a_newline(encoding: str) -> Counter[str]:
    """For each non-whitespace character, how many tokens hold a line break followed by it."""
    return Counter(char for token in vocabulary(encoding) for char in set(NEWLINE_THEN_TEXT.findall(token)))


def punctuation_before_newlines(encoding: str) -> list[str]:
    """The tokens that are punctuation followed by line breaks, by merge rank."""
    return [token for token in vocabulary(encoding) if PUNCTUATION_THEN_NEWLINES.fullmatch(token)]
