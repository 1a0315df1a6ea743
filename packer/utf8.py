"""Pack passages so the exact UTF-8 payload plus a framing reserve fits a byte limit, in linear time."""

from __future__ import annotations

from typing import Any

from packer.prompt import fold
from packer.validation import require_count, require_passages

HEADER = "Sources:\n"


def source_line(key: str, text: str) -> str:
    """One serialized passage: its label, a space, the folded text (packer.prompt.fold: one space after every line
    break, so that no line of a passage can read as another source's label) and a newline."""
    return f"[{key}] {fold(text)}\n"


def pack_utf8(passages: Any, limit: int, reserve: int) -> tuple[str, list[str]]:
    """Return (payload, kept ids): whole passages in order while payload bytes + reserve <= limit."""
    require_count("limit", limit)
    require_count("reserve", reserve)
    checked = require_passages(passages)
    used = len(HEADER.encode("utf-8"))
    if used + reserve > limit:
        raise ValueError(
            f"limit: the header ({used} bytes) plus reserve ({reserve}) exceeds the limit of {limit} bytes"
        )
    lines = [HEADER]
    kept: list[str] = []
    for key, text in checked:
        line = source_line(key, text)
        size = len(line.encode("utf-8"))  # bytes add up, so the growing payload is never re-encoded
        if used + size + reserve <= limit:
            lines.append(line)
            used += size
            kept.append(key)
    return "".join(lines), kept
