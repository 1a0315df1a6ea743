"""Lesson 08's practice points: where the evidence goes, what repeats, and what must stay.

Objectives (the lesson's list): 1 ends first, and that it changes neither the passages nor a bpe() count; 2 near
duplicates by the Jaccard index of word shingles, MinHash, a filter's recall and false removals; 3 MMR over BM25
vectors and distinct relevant passages per 1,000 tokens; 4 pack_parts: priorities, required parts, reserves,
the largest set at or above a cutoff that fits.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import packer.duplicates
import packer.mmr
import packer.ordering
import packer.priority
from packer.checking.engine import Question
from packer.checking.inputs import SortedSet
from packer.checking.practice.kinds import Choose, Option, Predict, Slip, Write
from packer.counters import count_words

SIX_RANKS = [1, 2, 3, 4, 5, 6]
# Practice 8.5: a passage, its mirror (cosine 1 with it) and another passage, at the lesson's λ of 0.7.
MMR_RELEVANCE = [1.0, 0.9, 0.6]
MMR_SIMILARITY = [[1, 1, 0.2], [1, 1, 0.2], [0.2, 0.2, 1]]
MMR_LAMBDA = 0.7
# Practice 8.6: the parts lesson 08 defines as `fifo_parts` (count_words: every text ends in whitespace, or is the
# last part, so the words add up), at a limit of 40 words.
FIFO_PARTS = [
    ("rules", "Answer from the sources only.\n", 0, True, 0),  # 5 words
    ("doc-1", "The FIFO blocks every write while it is full.\n", 3, False, 0),  # 9 words
    ("doc-2", "A reset empties the FIFO within one clock cycle and loses nothing.\n", 2, False, 0),  # 12 words
    ("doc-3", "It holds eight entries.\n", 1, False, 0),  # 4 words
    ("question", "Question: why does the write block?\nAnswer:", 0, True, 10),  # 7 words, 10 reserved
]
FIFO_LIMIT = 40


def _shingles_of(words: list[str], size: int) -> SortedSet:
    """packer.duplicates.shingles, for a text given as its words (lower-case letters, so they read back the same)."""
    return SortedSet(packer.duplicates.shingles(" ".join(words), size))


def _sorted_sets(value: Any) -> str:
    """A set shown with its items sorted (Python's order for strings changes from one process to the next)."""
    if isinstance(value, (set, frozenset)):
        try:
            return repr(SortedSet(value))
        except TypeError:  # items that do not sort: shown as they come
            return repr(value)
    return repr(value)


WORDS = st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat", "a"]), max_size=8)

POINTS = [
    Predict(
        "p8.1",
        1,
        "what ends_first makes of six ranked passages",
        result=lambda: packer.ordering.ends_first(SIX_RANKS),
        answer_type=list[int],
        misconceptions=(
            (
                [1, 3, 5, 2, 4, 6],
                "that puts the even ranks at the back in rank order, which leaves rank 2, the second best, in the "
                "middle, where evidence is used worst; reread where ends first puts rank 2",
            ),
            (
                [2, 4, 6, 5, 3, 1],
                "that is the mirror image (LangChain's LongContextReorder gives it for an even count); Haystack's "
                "order, ends_first, puts rank 1 first",
            ),
            (
                [1, 6, 2, 5, 3, 4],
                "that alternates best and worst from the front, so the worst is second; ends first puts the "
                "second best at the other end",
            ),
            (
                [6, 4, 2, 1, 3, 5],
                "that puts the best in the middle, where Liu et al. found evidence used worst; ends first puts it at "
                "the front",
            ),
        ),
    ),
    Choose(
        "p8.2",
        1,
        "why a bpe() counter needs no second measurement after ends first",
        options=(
            Option(
                "A",
                "Moving a text's lines around never changes its token count, whatever the tokenizer.",
                "the belief that order never matters to a count: nothing proves that for every counter, since counts "
                "add up only where the tokenizer always cuts, which is why pack_ends_first measures again with any "
                "other counter",
            ),
            Option(
                "B",
                "pack_ends_first chose the passages again in their new positions and found the same six.",
                "the belief that reordering chooses again: it never does; pack_prompt chose, and ends first only "
                "moves what was chosen",
            ),
            Option(
                "C",
                "Both prompts hold the same characters, and a token count follows the characters.",
                "the belief that characters fix the count: the same characters in another order can be cut into "
                "other tokens, since a merge depends on its neighbours",
            ),
            Option(
                "D",
                "Each line meets the prompt at a seam that is always cut, so the count is a sum, in any order.",
                "the count is the base prompt's plus each line's (lesson 02), and adding the same terms in another "
                "order gives the same sum",
                right=True,
            ),
        ),
    ),
    Write(
        "p8.3",
        2,
        "shingles_of(words, size): the set of a text's runs of size words",
        question=Question(
            "p8.3",
            "shingles_of",
            1,
            "the set of a text's size-shingles, given its words",
            _shingles_of,
            cases=(
                (["the", "cat", "sat", "on", "the", "mat"], 3),
                (["x", "y", "z"], 3),  # exactly one run: the last start is len(words) - size
                (["a", "b"], 3),  # shorter than size: one shingle of all its words
                ([], 3),  # no words: no shingles
                (["the", "the", "the", "the", "the"], 3),  # a repeated run is one shingle
                (["the", "quick", "brown", "fox"], 1),
                (["the", "quick", "brown", "fox"], 2),
            ),
            inputs=st.tuples(WORDS, st.integers(1, 4)),
            describe=_sorted_sets,
        ),
        hint="work out by hand what 'x y z' and 'a b' give with size 3, then compare with what your function returns",
        slips=(
            Slip(
                "the last run starts at len(words) - size: range(len(words) - size + 1)",
                wrong=lambda words, size: {tuple(words[i : i + size]) for i in range(len(words) - size)},
                cases=(2,),
            ),
            Slip(
                "a text shorter than size is one shingle of all its words, and no words are no shingles", cases=(3, 4)
            ),
            Slip("return a set of tuples: a repeated run is one shingle", cases=(5,)),
        ),
    ),
    Choose(
        "p8.4",
        2,
        "what a threshold of 0.9 costs the near-duplicate filter",
        options=(
            Option(
                "A",
                "It lets 14 of the 38 copies through, the edited ones and most quotes.",
                "at 0.9 it catches 24 of 38: every edit and all quotes but the longest stay under 0.9, and each "
                "spends budget on a repeat",
                right=True,
            ),
            Option(
                "B",
                "Nothing: every copy has a Jaccard index of 1.0 with the passage it copies.",
                "the belief that a copy is always identical: only mirrors and reformatted copies are; a quote's "
                "frame adds shingles and an edited word changes three, so their index is lower",
            ),
            Option(
                "C",
                "It removes more passages, because a higher threshold is stricter.",
                "the belief that a higher threshold filters harder: a passage goes when its index is at least the "
                "threshold, so a higher one removes fewer passages, copies and all",
            ),
            Option(
                "D",
                "Only time: at 0.9 the filter has fewer pairs of passages to compare.",
                "the belief that the threshold prunes comparisons: each passage is compared with every kept one at "
                "any threshold; the threshold decides what is dropped, not what is compared",
            ),
        ),
    ),
    Predict(
        "p8.5",
        3,
        "the MMR order of a passage, its mirror and another passage at λ = 0.7",
        result=lambda: packer.mmr.mmr_order(MMR_RELEVANCE, MMR_SIMILARITY, MMR_LAMBDA),
        answer_type=list[int],
        misconceptions=(
            (
                [0, 1, 2],
                "that is the plain ranking, λ = 1; at 0.7 the mirror's similarity of 1 to passage 0, once taken, "
                "costs it 0.3",
            ),
            ([0, 2], "MMR removes nothing: it orders every passage, and the mirror only comes later"),
            (
                [1, 0, 2],
                "the first pick has nothing taken to be like, so no penalty: the most relevant passage comes first",
            ),
        ),
    ),
    Predict(
        "p8.6",
        4,
        "what pack_parts keeps of fifo_parts in 40 words",
        result=lambda: packer.priority.pack_parts(FIFO_PARTS, FIFO_LIMIT, count_words)[0],
        answer_type=list[str],
        misconceptions=(
            (
                ["rules", "doc-1", "doc-3", "question"],
                "that skips doc-2 and goes on to lower priorities; pack_parts stops at the first level that does "
                "not fit, and every lower level is cut with it",
            ),
            (
                ["rules", "doc-1", "doc-2", "doc-3", "question"],
                "that fits only without the question's 10 reserved words: a kept part's reserve counts from the "
                "start, with the required parts' words",
            ),
            (["doc-1"], "kept names every part in the prompt, the required ones too"),
            (["doc-1", "rules", "question"], "kept lists the parts in the order they are written, not by priority"),
        ),
    ),
]
