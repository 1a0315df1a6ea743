"""The lessons tell one story about when token counts add up, and do not repeat claims the package disproves.

The rule, in the words every lesson that needs it uses: token counts add up exactly at a seam the tokenizer
always cuts (lesson 02 demonstrates it with packer.counters.seam_is_cut; tests/core/test_seams.py checks the
function against brute force). The sentences listed as retracted were once in the lessons and are false for
the workbook's own code; they must not come back.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
RULE = "token counts add up exactly at a seam the tokenizer always cuts"
# Where the rule is taught (02) or relied on (03: running totals, 05: the adding packer, 06 and 07: the fast paths,
# 08: the reordered prompt's unchanged count, 09: a turn's cost wherever it stands).
TOLD_IN = [
    "notebooks/02_prompt_packer.ipynb",
    "notebooks/03_utf8_packer.ipynb",
    "notebooks/05_counting_units.ipynb",
    "notebooks/06_policies.ipynb",
    "notebooks/07_whole_request.ipynb",
    "notebooks/08_beyond_greedy.ipynb",
    "notebooks/09_conversation.ipynb",
    "docs/learners.md",
]
RETRACTED = [
    "because it never adds",  # pack_prompt adds line counts for bpe() counters
    "do not work at all",  # real counts add exactly at this prompt's seams
    "downloading one is not allowed",  # real vocabularies ship offline (lesson 05)
    "glue a newline to the punctuation after it",  # no cl100k_base token holds a newline then non-whitespace
    "published measurements",  # no primary source was found for lesson 05's former ratios
    "hopeless for 40",  # dynamic programming solves it in n * C steps (lesson 06)
    "the usual knapsack heuristic",  # the classic greedy sorts by value per unit of size
    "whatever the text, with no tokenizer",  # the byte bound holds for byte-level BPE only
    # Issue 44's fact-check:
    "in every byte-level bpe encoding",  # HF's ByteLevel adds a prefix space by default; BOS tokens have no bytes
    "is a safe reserve",  # what a separator adds depends on its neighbours (lesson 05)
    "and both are about the space at the cut",  # a cut inside a word is a third mechanism (lesson 05)
    'describe characters "set solid"',  # the layout specifications' "solid" is about typesetting, not word spaces
    "a chinese character rarely joins a space",  # replaced by the count lesson 06 measures
    "the first general rule of the",  # Korean word spacing is article 2 of the general rules (총칙 제2항)
    "the example name from",  # mistral-large-2411 comes from mistral-common's model table
    "collapse spaces across a line break",  # not in SentencePiece's options page, not measured
    "with a lone `▁` for the space the template writes after the content",  # lesson 07's own output has none
]


def prose(path: Path) -> str:
    """The text a reader sees: markdown cells of a notebook, or the whole Markdown file, whitespace folded."""
    if path.suffix == ".ipynb":
        cells = nbformat.read(path, as_version=4).cells
        text = "\n".join(cell.source for cell in cells if cell.cell_type == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", text).lower()


def everything() -> list[Path]:
    folders = ("notebooks", "exercises", "solutions")
    guides = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return [*guides, *sorted(p for folder in folders for p in (ROOT / folder).glob("*.ipynb"))]


@pytest.mark.parametrize("name", TOLD_IN)
def test_the_rule_is_told_in_the_same_words(name):
    assert RULE in prose(ROOT / name), f"{name} should state the rule as: {RULE!r}"


@pytest.mark.parametrize("path", everything(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_retracted_claim_comes_back(path):
    text = prose(path)
    assert [claim for claim in RETRACTED if claim in text] == []


def test_the_check_sees_what_a_reader_sees():
    assert "a b" in re.sub(r"\s+", " ", "a\n  b")
    assert RULE in prose(ROOT / "notebooks/02_prompt_packer.ipynb")


def outputs(path: Path) -> str:
    """Every printed output of a notebook's code cells, joined."""
    cells = nbformat.read(path, as_version=4).cells
    return "\n".join(
        output.get("text", "") for cell in cells if cell.cell_type == "code" for output in cell.get("outputs", [])
    )


def test_lesson_02_states_what_folding_costs_as_its_run_measured_it():
    lesson = ROOT / "notebooks/02_prompt_packer.ipynb"
    printed = outputs(lesson)
    for name in ("cl100k_base", "o200k_base"):
        found = re.search(rf"{name}: (\d+) tokens unfolded, (\d+) folded: \+(\d+)", printed)
        assert found, f"lesson 02 no longer prints the folding cost for {name}"
        unfolded, _, extra = map(int, found.groups())
        assert re.search(rf"{extra:,} (tokens more )?on {unfolded:,} in `{name}`", prose(lesson)), name
    found = re.search(r"Mistral v7: (\d+) tokens unfolded, (\d+) folded: \+(\d+)", printed)
    assert found, "lesson 02 no longer prints the folding cost under Mistral's v7 template"
    unfolded, _, extra = map(int, found.groups())
    assert f"{extra:,} on {unfolded:,} under mistral's v7 template" in prose(lesson)
    breaks = re.search(r"(\d+) line breaks inside them", printed)
    assert breaks and f"for {int(breaks.group(1)):,} line breaks" in prose(lesson)


def test_lesson_05_states_the_mid_word_cuts_it_measured():
    lesson = ROOT / "notebooks/05_counting_units.ipynb"
    found = re.search(r"(\d+) cuts inside base64 lines: the whole costs more at (\d+)", outputs(lesson))
    assert found, "lesson 05 no longer prints its mid-word cuts"
    cuts, costlier = map(int, found.groups())
    assert f"at {costlier:,} of these {cuts:,} cuts" in prose(lesson)


def test_lesson_06_states_how_often_the_chinese_lines_join_their_neighbours():
    lesson = ROOT / "notebooks/06_policies.ipynb"
    found = re.search(r"joins it in (\d+) of (\d+) lines, the line break after it in (\d+)", outputs(lesson))
    assert found, "lesson 06 no longer prints how often a space and a line break join the text"
    space, lines, newline = found.groups()
    assert f"joins the first character in only {space} of the {lines}" in prose(lesson)
    assert f"joins the end of the text in {newline}" in prose(lesson)
