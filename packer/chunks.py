"""Greedy packing of ranked chunks whose token counts were measured in advance."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from packer.validation import require_count, require_list, require_str


def _chunk_parts(index: int, chunk: Any) -> tuple[str, int]:
    """Return (text, token_count) of one chunk, or raise naming the chunk."""
    where = f"chunk {index}"
    if not isinstance(chunk, Mapping):
        raise ValueError(f"{where}: expected a mapping with 'text' and 'token_count', got {type(chunk).__name__}")
    for key in ("text", "token_count"):
        if key not in chunk:
            raise ValueError(f"{where}: missing {key!r}")
    text, cost = chunk["text"], chunk["token_count"]
    if not isinstance(text, str):
        raise ValueError(f"{where}: text must be a str, got {type(text).__name__}")
    if type(cost) is not int or cost < 0:
        raise ValueError(f"{where}: token_count must be a non-negative int, got {cost!r}")
    return text, cost


def chunk_parts(chunks: Any) -> list[tuple[str, int]]:
    """Every chunk's (text, token_count), all validated before any packing starts."""
    return [_chunk_parts(i, c) for i, c in enumerate(require_list("chunks", chunks))]


def select_chunks(chunks: Any, max_tokens: int) -> list[bool]:
    """For each chunk in rank order, whether it is kept: it is when its count still fits; else skip on."""
    require_count("max_tokens", max_tokens)
    parts = chunk_parts(chunks)
    decisions: list[bool] = []
    used = 0
    for _, cost in parts:
        fits = used + cost <= max_tokens
        if fits:
            used += cost
        decisions.append(fits)
    return decisions


def assemble_context(chunks: Any, max_tokens: int, separator: str = "\n\n") -> tuple[str, int]:
    """Keep whole chunks in rank order while their token counts fit; skip the rest and continue."""
    require_str("separator", separator)
    chunks = require_list("chunks", chunks)
    kept = [chunk for chunk, keep in zip(chunks, select_chunks(chunks, max_tokens)) if keep]
    return separator.join(c["text"] for c in kept), sum(c["token_count"] for c in kept)
