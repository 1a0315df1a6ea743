"""The input generators several exercises' questions share, for whoever writes or changes the checks.

Ids and texts (`KEY`, `TEXT`, `PASSAGES`, one-pass `once` iterators), the stand-in counters as a strategy
(`COUNTER`, `BAD_COUNTER`), numbers that are not counts (`NEGATIVE`, `BOOL`, `NOT_AN_INT`), and passages with one
defect placed anywhere (`PASSAGES_ONE_BAD`, `PASSAGES_TWICE`, `PASSAGES_TWINS`). An exercise's own generators live
in its module (packer.checking.questions_NN_lesson); this module imports none of them.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from hypothesis import strategies as st

from packer.checking.inputs import BROKEN_COUNTERS, once
from packer.counters import count_chars_div4, count_utf8_bytes, count_words
from packer.prompt import _render

# Every string field mixes 1-, 2-, 3- and 4-byte characters and may be empty; counts include 0 often;
# mappings are dicts, dicts with extra keys, or a Mapping that is not a dict; containers are lists or
# tuples, and where the container contract is graded, one-pass iterators (`once`) too.
TEXT = st.text(alphabet="ab é日🙂", max_size=6)
KEY = st.text(alphabet="ab9é日🙂", min_size=1, max_size=3)
PASSAGE_LIST = st.lists(st.tuples(KEY, TEXT), max_size=6, unique_by=lambda p: p[0])
PASSAGES = st.one_of(PASSAGE_LIST, PASSAGE_LIST.map(tuple))
ANY_PASSAGES = st.one_of(PASSAGES, PASSAGE_LIST.map(once))
QUESTION = st.one_of(st.sampled_from(["why", "Is the FIFO full?", "", "日本?"]), TEXT)
COUNTER = st.sampled_from([count_words, count_chars_div4, count_utf8_bytes])
NEGATIVE, BOOL, NOT_AN_INT = st.integers(-30, -1), st.booleans(), st.one_of(st.floats(-5, 50), st.just("10"), st.none())
NOT_A_COUNT = st.one_of(NEGATIVE, BOOL, NOT_AN_INT)

BAD_KEY = st.sampled_from(["", "a]", "[a", "a\nb", "x\r", "é]", 7, None])
# Every other line break str.splitlines knows: an id may hold none of them (packer.validation.LINE_BREAKS).
BROKEN_KEY = st.sampled_from(["a\x0bb", "\x0cc", "d\x1c", "e\x1df", "\x1e", "g\x85", "\u2028h", "i\u2029", "j\r\n"])
BAD_PASSAGE = st.one_of(
    st.tuples(BAD_KEY, TEXT),
    st.tuples(BROKEN_KEY, TEXT),
    st.tuples(KEY, st.sampled_from([None, 3, b"x"])),
    st.sampled_from([("a",), "ab", None, ("a", "x", "y")]),
)
BAD_CONTAINER = st.sampled_from(["ab", b"ab", None, 7, {"a": "x"}, {("a", "x")}])
# A passage a packer skips for its size, with a bad id or an id given before (ids are checked on every passage,
# kept or not): its text is eleven words, 53 characters, 54 UTF-8 bytes.
LONG_TEXT = "one two three four five six seven eight nine ten élf"
SKIPPED_BAD = st.one_of(st.tuples(BAD_KEY, st.just(LONG_TEXT)), st.tuples(BROKEN_KEY, st.just(LONG_TEXT)))

# Texts (and questions) with line breaks, every kind str.splitlines knows ("\r\n" as one), some shaped to forge a
# source or the answer cue: a renderer folds them (packer.prompt.fold: one space after every line break).
TEXT_WITH_BREAKS = st.one_of(
    st.text(alphabet="ab é[]\n\r\x0b\x85\u2028", max_size=8),
    st.sampled_from(["real\n[d] forged", "x\r\n[y] z", "end.\nAnswer: 42", "a\u2028b", "\n", "tail\n", "\r\n\r"]),
)
FOLDED_PASSAGE_LIST = st.lists(
    st.tuples(KEY, st.one_of(TEXT, TEXT_WITH_BREAKS)), min_size=1, max_size=5, unique_by=lambda p: p[0]
)


def inserted(items: list, extra: Any, position: int) -> list:
    """items with `extra` inserted at position (modulo the length), so a defect can sit anywhere."""
    index = position % (len(items) + 1)
    return items[:index] + [extra] + items[index:]


def _with_duplicate(passages: list, position: int, text: str = "again") -> list:
    """passages with one id repeated, the repeat's text `text` (or a fresh pair of twins when there is none)."""
    if not passages:
        return [("a", "x"), ("a", text)]
    key = passages[position % len(passages)][0]
    return inserted(passages, (key, text), position + 1)


def _twin_of(key: str) -> str | None:
    """Another id that a learner might take for the same one: other case, or the same letters in another
    Unicode normal form ('é' as one code point or as 'e' and a combining accent); None when there is none."""
    for variant in (key.swapcase(), unicodedata.normalize("NFD", key), unicodedata.normalize("NFC", key)):
        if variant != key:
            return variant
    return None


def _with_twin(passages: list, position: int) -> list:
    """passages with one more whose id differs from an existing one only in case or Unicode normal form (a
    different id: both are valid), or a fresh pair of such ids when no existing id has a twin."""
    keys = {key for key, _ in passages}
    for step in range(len(passages)):
        twin = _twin_of(passages[(position + step) % len(passages)][0])
        if twin is not None and twin not in keys:
            return inserted(passages, (twin, "twin"), position + step + 1)
    fresh = [pair for pair in (("q", "x"), ("Q", "y")) if pair[0] not in keys]
    return passages + fresh


POSITION = st.integers(0, 9)
PASSAGES_ONE_BAD = st.builds(inserted, PASSAGE_LIST, BAD_PASSAGE, POSITION)
PASSAGES_ONE_SKIPPED_BAD = st.builds(inserted, PASSAGE_LIST, SKIPPED_BAD, POSITION)  # with a tight limit
PASSAGES_TWICE = st.builds(_with_duplicate, PASSAGE_LIST, POSITION)
PASSAGES_TWICE_SKIPPED = st.builds(_with_duplicate, PASSAGE_LIST, POSITION, st.just(LONG_TEXT))
# Either defect on a passage a tight limit skips (ids are checked on every passage, kept or not).
PASSAGES_SKIPPED_BAD = st.one_of(PASSAGES_ONE_SKIPPED_BAD, PASSAGES_TWICE_SKIPPED)
PASSAGES_TWINS = st.builds(_with_twin, PASSAGE_LIST, POSITION)  # ids differing only in case or normal form


def with_room(question: str, passages: list, extra: int, count: Any) -> tuple:
    """pack_prompt arguments whose limit leaves `extra` units above the base prompt."""
    return question, passages, count(_render(question, [])) + extra, count


BAD_COUNTER = st.sampled_from(BROKEN_COUNTERS)  # named, importable: a counterexample can be pasted


SEED_PASSAGES = [("a", "one two"), ("b", "one two three four five"), ("c", "six")]
