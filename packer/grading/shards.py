"""Grading a class on many machines: which share of the class a shard grades, and what it records.

`--shard K/N` grades the submissions whose name hashes to K of N. The hash is of the row's name (the
submission's path from the folder given), so a shard is the same whatever order the files are listed or
found in, and every submission lands in exactly one shard. Each shard gradebook records K, N and a
digest of the whole class it saw, so a merge can tell that it has every shard exactly once, of one class.
"""

from __future__ import annotations

import hashlib
import json
import re

SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def parse_shard(raw: str) -> tuple[int, int]:
    """'2/8' -> (2, 8); a ValueError naming --shard unless 1 <= K <= N."""
    match = SHARD.match(raw)
    if not match:
        raise ValueError(f"--shard: {raw!r} is not K/N (for example 2/8: the second of 8 shards)")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"--shard: {raw!r} needs 1 <= K <= N (K is the shard, from 1, N how many shards)")
    return index, count


def shard_of(name: str, count: int) -> int:
    """The shard (1..count) a submission's row name belongs to: a stable hash, not a position in a list."""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big") % count + 1


def class_digest(names: list[str], skipped: list[str]) -> str:
    """A digest of the whole class a shard saw (every submission's name and every file skipped)."""
    text = json.dumps([sorted(names), sorted(skipped)], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
