"""Lesson 03's practice points: characters and bytes, the reserve, when running totals are exact, the running total
itself, its work counted, and a trace read.

Objectives (the lesson's list): 1 code points, UTF-8 sizes by range, visible characters of several code points;
2 what a byte budget measures and what the reserve stands for; 3 the packer built step by step, up to the running
total; 4 why the running total is exact and linear, counted in work, and when a token total would be; 5 reading a
trace and finding where a passage flips.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

import packer.utf8
from packer.checking.engine import Question
from packer.checking.linear import encoded_characters
from packer.checking.practice.kinds import Choose, Option, Predict, Slip, Write
from packer.checking.questions_shared import PASSAGE_LIST
from packer.counters import count_utf8_bytes

COMBINED = "Jose\u0301 🙂"  # shows as 'José 🙂': the é is e and U+0301, the combining acute accent
HEADER_BYTES = count_utf8_bytes(packer.utf8.HEADER)
MIXED = [
    ("a", "café au lait"),
    ("b", "日本語の説明です"),
    ("c", "🙂 emoji note"),
    ("d", "naïve"),
]  # the lesson's Step 1
MIDDLE = [  # the lesson's oversized middle passage
    ("a", "short é"),
    ("b", "a much longer passage that mixes scripts: 日本語のテキスト, naïve café, 🙂🙂"),
    ("c", "日本"),
]
THREE = [("a", "x"), ("b", "y"), ("c", "z")]  # three 6-character lines, all kept at a limit of 99


def _reencoding(passages: list[tuple[str, str]], limit: int, reserve: int) -> tuple[str, list[str]]:
    """The lesson's Step 2: every candidate is the whole payload, encoded again (what its meter counts)."""
    if len(packer.utf8.HEADER.encode("utf-8")) + reserve > limit:
        raise ValueError("limit: header plus reserve exceed the limit")
    payload, kept = packer.utf8.HEADER, []
    for key, text in passages:
        candidate = payload + packer.utf8.source_line(key, text)
        if len(candidate.encode("utf-8")) + reserve <= limit:
            payload, kept = candidate, [*kept, key]
    return payload, kept


def _work_on_three() -> tuple[int, int]:
    """Characters handed to str.encode: re-encoding every candidate, then pack_utf8's running total."""
    args = (THREE, 99, 0)
    return encoded_characters(_reencoding, args), encoded_characters(packer.utf8.pack_utf8, args)


def _smallest_limit_keeping_b() -> tuple[int, list[str]]:
    """The smallest limit (reserve 21) at which MIDDLE's b is kept, and what pack_utf8 keeps there."""
    limit = next(limit for limit in range(30, 400) if "b" in packer.utf8.pack_utf8(MIDDLE, limit, 21)[1])
    return limit, packer.utf8.pack_utf8(MIDDLE, limit, 21)[1]


def _kept_ids(passages: list[tuple[str, str]], limit: int, reserve: int) -> list[str]:
    return packer.utf8.pack_utf8(passages, limit, reserve)[1]


def _running(size: Callable[[str], int], header: bool = True, reserve: bool = True, stop: bool = False) -> Callable:
    """kept_ids with a slip: lines measured by `size`, the header or the reserve left out, or the first misfit ending
    the loop."""

    def kept_ids(passages: list[tuple[str, str]], limit: int, reserve_: int) -> list[str]:
        used, kept = size(packer.utf8.HEADER) if header else 0, []
        for key, text in passages:
            line = size(f"[{key}] {text}\n")
            if used + line + (reserve_ if reserve else 0) <= limit:
                used += line
                kept.append(key)
            elif stop:
                break
        return kept

    return kept_ids


def _valid_args(passages: list, reserve: int, extra: int) -> tuple:
    """Passages, a limit at least the header plus the reserve (so every limit is valid), and the reserve."""
    return passages, HEADER_BYTES + reserve + extra, reserve


POINTS = [
    Predict(
        "p3.1",
        1,
        'the code points and UTF-8 bytes of "Jose\\u0301 🙂"',
        result=lambda: (len(COMBINED), count_utf8_bytes(COMBINED)),
        answer_type=tuple[int, int],
        misconceptions=(
            (
                (6, 10),
                "that counts what you see: this é is two code points, e and the combining accent, and len counts both",
            ),
            ((6, 6), "len counts code points, and UTF-8 spends more than one byte on every code point above U+007F"),
            ((7, 7), "UTF-8 spends more than one byte on every code point above U+007F: bytes and code points differ"),
            ((7, 9), "not every non-ASCII code point is two bytes: the size depends on the code point's range"),
            ((7, 10), "U+0301 is above U+007F, so it is not one byte: look its range up in the list above the table"),
        ),
    ),
    Choose(
        "p3.2",
        2,
        "what a 70-byte payload from pack_utf8(passages, limit=100, reserve=21) promises",
        options=(
            Option(
                "A",
                "The 70 bytes are the kept passages' texts; the header and the labels come on top of them.",
                "the header and every line's label, brackets, space and newline are in the payload and were counted: "
                "the budget measures the payload as it is sent, framing included",
            ),
            Option(
                "B",
                "The 70 bytes include the 21 reserved bytes, so the payload can be sent as it is.",
                "the reserve is charged against the limit but never added to the returned text: the caller adds "
                "those bytes afterwards",
            ),
            Option(
                "C",
                "After you add an envelope of at most 21 bytes, the message is at most 91 bytes, within the limit.",
                "the packer kept payload + reserve <= limit, and the reserve stands for the bytes you add later: "
                "70 + 21 = 91 <= 100",
                right=True,
            ),
            Option(
                "D",
                "Any envelope may be added afterwards: the packer has already checked the limit.",
                "the packer checked the payload plus 21 bytes only: an envelope larger than the reserve you declared "
                "is not covered, and with a fuller payload it breaks the limit",
            ),
        ),
    ),
    Choose(
        "p3.3",
        4,
        "when a running token total gives exactly what re-measuring the whole prompt gives",
        options=(
            Option(
                "A",
                "Always: a token count, like a byte count, belongs to each piece of text on its own.",
                "the belief that token counts add up like byte counts: across a join a tokenizer may count the whole "
                "differently from its parts, so they add up only at a seam the tokenizer always cuts (lesson 02)",
            ),
            Option(
                "B",
                "Never: only bytes add up, so a token total must always be measured again.",
                "too strong: at a seam the tokenizer always cuts, token counts do add up, which is why pack_prompt "
                "keeps a running total for cl100k_base and o200k_base (lesson 02)",
            ),
            Option(
                "C",
                "When the counter is the chars/4 estimate, since characters add up.",
                "the belief that an estimate from characters adds up as characters do: chars/4 rounds each part, so "
                "'ab' + 'cd' counts 1 + 1 = 2 while 'abcd' counts 1",
            ),
            Option(
                "D",
                "When every seam between the pieces is one the tokenizer always cuts.",
                "that is lesson 02's rule: at such a seam the counts add up, so a running total equals re-measuring",
                right=True,
            ),
        ),
    ),
    Write(
        "p3.4",
        3,
        "kept_ids(passages, limit, reserve): the ids a running byte total keeps",
        question=Question(
            "p3.4",
            "kept_ids",
            1,
            "the ids kept while header + kept lines + this line, in UTF-8 bytes, plus the reserve fit the limit",
            _kept_ids,
            cases=(
                ([("a", "é")], 16, 0),
                ([("a", "é")], 15, 0),
                ([("a", "é")], 17, 1),
                ([("a", "é")], 16, 1),
                (MIXED, 40, 0),
                (MIDDLE, 54, 21),
                ([], 9, 0),
                ([(" a ", " x ")], 18, 0),  # id and text are kept as written, spaces and all: 19 bytes do not fit 18
                ([("{0}%", "{1}%")], 21, 0),  # braces and % are text like any other
            ),
            inputs=st.builds(_valid_args, PASSAGE_LIST, st.integers(0, 8), st.integers(0, 50)),
        ),
        hint="go back to the rule: header + every kept line + this line, in UTF-8 bytes, plus the reserve, at most "
        "the limit; and a misfit does not end the loop",
        slips=(
            Slip("count UTF-8 bytes, not characters: 'é' is one character and two bytes", wrong=_running(len)),
            Slip(
                "the header's bytes are in the payload before any line", wrong=_running(count_utf8_bytes, header=False)
            ),
            Slip(
                "the reserve is set aside at every step: header + lines + reserve",
                wrong=_running(count_utf8_bytes, reserve=False),
            ),
            Slip(
                "a line that does not fit is skipped and the loop goes on: a later, shorter one may fit",
                wrong=_running(count_utf8_bytes, stop=True),
            ),
        ),
    ),
    Predict(
        "p3.5",
        4,
        "characters handed to str.encode for three kept passages: re-encoding, then the running total",
        result=_work_on_three,
        answer_type=tuple[int, int],
        misconceptions=(
            (
                (27, 27),
                "re-encoding hands str.encode the whole candidate payload every time, not only the new line",
            ),
            (
                (54, 18),
                "the header is encoded too: by the running total once, and by re-encoding inside every candidate",
            ),
            ((63, 27), "re-encoding also measures the header alone first, before any candidate (does it fit at all?)"),
        ),
    ),
    Predict(
        "p3.6",
        5,
        "the smallest limit (reserve 21) at which the oversized passage b is kept, and what is kept then",
        result=_smallest_limit_keeping_b,
        answer_type=tuple[int, list[str]],
        misconceptions=(
            (
                (95, ["b"]),
                "a candidate's cost is only its own line: the limit must also hold the header, the reserve and the "
                "lines kept before it",
            ),
            ((117, ["a", "b"]), "the reserve is charged at every limit, like the header: each bar starts with both"),
            (
                (138, ["a", "b", "c"]),
                "once b is kept, c is measured on top of it: its bar starts where b's ends",
            ),
        ),
    ),
]
