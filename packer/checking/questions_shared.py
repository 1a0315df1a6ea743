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
BAD_PASSAGE = st.one_of(
    st.tuples(BAD_KEY, TEXT),
    st.tuples(KEY, st.sampled_from([None, 3, b"x"])),
    st.sampled_from([("a",), "ab", None, ("a", "x", "y")]),
)
BAD_CONTAINER = st.sampled_from(["ab", b"ab", None, 7, {"a": "x"}, {("a", "x")}])


def inserted(items: list, extra: Any, position: int) -> list:
    """items with `extra` inserted at position (modulo the length), so a defect can sit anywhere."""
    index = position % (len(items) + 1)
    return items[:index] + [extra] + items[index:]


def _with_duplicate(passages: list, position: int) -> list:
    """passages with one id repeated (or a fresh pair of twins when there is none)."""
    if not passages:
        return [("a", "x"), ("a", "y")]
    key = passages[position % len(passages)][0]
    return inserted(passages, (key, "again"), position + 1)


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
PASSAGES_TWICE = st.builds(_with_duplicate, PASSAGE_LIST, POSITION)
PASSAGES_TWINS = st.builds(_with_twin, PASSAGE_LIST, POSITION)  # ids differing only in case or normal form


def with_room(question: str, passages: list, extra: int, count: Any) -> tuple:
    """pack_prompt arguments whose limit leaves `extra` units above the base prompt."""
    return question, passages, count(_render(question, [])) + extra, count


BAD_COUNTER = st.sampled_from(BROKEN_COUNTERS)  # named, importable: a counterexample can be pasted


SEED_PASSAGES = [("a", "one two"), ("b", "one two three four five"), ("c", "six")]
