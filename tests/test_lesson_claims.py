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
