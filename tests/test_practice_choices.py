"""Choose points that cannot be answered without the lesson (issue 61, part 3).

A test-wise learner picks the longest option, the letter that is usually right, or the option that repeats a
sentence they just read. Haladyna, Downing and Rodriguez's item-writing guidelines (Applied Measurement in
Education 15(3), 2002) list all three as cues: keep the choices about equal in length, vary the place of the right
answer, and copy no wording from the text. So, over every choose point of the course:

- in at most one point in six is the right option longer than every other by more than a quarter, and no option
  is under half as long as its point's longest;
- each of A, B, C and D is the right letter of at least one point in ten;
- no option repeats five words in a row of the prose the learner read since the previous point (the question
  included), nor four words of a bolded phrase anywhere in the lesson before it.

Each wrong option is a misconception with its own feedback: tests/checking/test_practice.py holds every option
to having one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from packer.checking.practice import BY_LESSON
from packer.checking.practice.kinds import Choose

ROOT = Path(__file__).resolve().parents[1]
HEADING = re.compile(r"^### Practice (\d+)\.(\d+) · (predict|write|choose)", re.M)
OPTION = re.compile(r"^- \*\*[A-Z]\.\*\* ", re.M)
BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
LONGER_BY = 1.25  # the right option longer than every other by more than a quarter...
AT_MOST_ONE_IN = 6  # ...in at most one point in six
SHORTEST_SHARE = 0.5  # no option under half as long as its point's longest
EACH_LETTER_ONE_IN = 10  # each letter right in at least one point in ten
RUN_OF_PROSE = 5  # words in a row an option may not share with the prose read since the previous point
RUN_OF_BOLD = 4  # words in a row an option may not share with a bolded phrase of the lesson


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def runs(text: str, length: int) -> set[tuple[str, ...]]:
    found = words(text)
    return {tuple(found[i : i + length]) for i in range(len(found) - length + 1)}


@dataclass
class Read:
    """A choose point with what its learner read before its options."""

    point: Choose
    since_previous: str  # the Markdown since the previous point's worked answer, and the question itself
    bolded: list[str]  # every bolded phrase of the lesson up to the question


def read_before_choices() -> list[Read]:
    found = []
    for slug, points in BY_LESSON.items():
        nb = nbformat.read(ROOT / "notebooks" / f"{slug}.ipynb", as_version=4)
        by_pid = {p.pid: p for p in points}
        since: list[str] = []
        bolded: list[str] = []
        skip = 0
        for cell in nb.cells:
            if skip:  # the answer cell and the worked answer of the point just asked
                skip -= 1
                continue
            if cell.cell_type != "markdown":
                continue
            heading = HEADING.search(cell.source)
            if not heading:
                since.append(cell.source)
                bolded += BOLD.findall(cell.source)
                continue
            pid = f"p{heading.group(1)}.{heading.group(2)}"
            question = OPTION.split(cell.source, maxsplit=1)[0]
            if isinstance(by_pid[pid], Choose):
                found.append(Read(by_pid[pid], "\n".join([*since, question]), [*bolded, *BOLD.findall(question)]))
            since, skip = [], 2
    return found


READ = read_before_choices()
CHOICES = [read.point for read in READ]


def right(point: Choose) -> str:
    (key,) = [option.key for option in point.options if option.right]
    return key


def test_every_choose_point_of_the_course_is_found_in_its_lesson():
    held = {p.pid for points in BY_LESSON.values() for p in points if isinstance(p, Choose)}
    assert len(CHOICES) >= 20 and {p.pid for p in CHOICES} == held


def test_the_options_are_keyed_a_b_c_d_in_order():
    for point in CHOICES:
        assert [o.key for o in point.options] == list("ABCD"[: len(point.options)]), point.pid


def standing_out(point: Choose) -> bool:
    """Whether the right option is longer than every other by more than a quarter."""
    others = max(len(o.text) for o in point.options if not o.right)
    return len(next(o for o in point.options if o.right).text) > LONGER_BY * others


def test_the_right_option_is_rarely_the_longest_by_far():
    long = [p.pid for p in CHOICES if standing_out(p)]
    assert len(long) * AT_MOST_ONE_IN <= len(CHOICES), f"the right option stands out by its length in {long}"


@pytest.mark.parametrize("point", CHOICES, ids=[p.pid for p in CHOICES])
def test_the_options_of_a_point_are_of_like_length(point):
    lengths = [len(o.text) for o in point.options]
    assert min(lengths) >= SHORTEST_SHARE * max(lengths), f"{point.pid}: option lengths {lengths}"


def test_every_letter_is_right_in_at_least_one_point_in_ten():
    letters = [right(p) for p in CHOICES]
    counts = {key: letters.count(key) for key in "ABCD"}
    assert all(count * EACH_LETTER_ONE_IN >= len(CHOICES) for count in counts.values()), counts


@pytest.mark.parametrize("read", READ, ids=[r.point.pid for r in READ])
def test_no_option_copies_the_prose_just_read_or_a_bolded_phrase(read):
    prose = runs(read.since_previous, RUN_OF_PROSE)
    bold = set().union(*(runs(phrase, RUN_OF_BOLD) for phrase in read.bolded))
    for option in read.point.options:
        copied = runs(option.text, RUN_OF_PROSE) & prose
        assert not copied, f"{read.point.pid} {option.key} repeats the prose: {sorted(map(' '.join, copied))}"
        echoed = runs(option.text, RUN_OF_BOLD) & bold
        assert not echoed, f"{read.point.pid} {option.key} repeats a bolded phrase: {sorted(map(' '.join, echoed))}"


def test_the_copy_rule_catches_an_option_that_repeats_the_prose():
    """The rule above can fail: 5.5's right option as it was, copied from the sentence before it."""
    (before_5_5,) = [r for r in READ if r.point.pid == "p5.5"]
    copied = "For a byte-level BPE tokenizer such as cl100k_base, for the payload measured alone."
    assert runs(copied, RUN_OF_PROSE) & runs(before_5_5.since_previous, RUN_OF_PROSE)
