"""Lesson 01's practice points: the question a greedy packer asks, stopping against skipping, why rank order
and whole chunks beat the tightest fit, the headroom the packer does not charge, and which input it refuses.

Objectives (the lesson's list): 1 a greedy packer of whole chunks in rank order under a budget; 2 skip and
continue against stopping at the first overflow, traced by hand; 3 never reorder or truncate, never chase the
tightest fit; 4 reserve headroom for what the packer does not charge; 5 the edge cases and the input checks.
"""

from __future__ import annotations

from hypothesis import strategies as st

import packer.chunks
from packer.checking.engine import Question
from packer.checking.practice.kinds import Choose, Option, Predict, Slip, Write
from packer.checking.variants import assemble_prefix

EXAMPLE = [  # the lesson's four ranked chunks
    {"text": "alpha", "token_count": 40},
    {"text": "bravo", "token_count": 30},
    {"text": "charlie", "token_count": 50},
    {"text": "delta", "token_count": 20},
]


def _take_while_room(chunks: list[dict], max_tokens: int, separator: str = "\n\n") -> tuple[str, int]:
    """The lesson's first naive loop: take the next chunk while the running total is below the budget."""
    kept, used = [], 0
    for chunk in chunks:
        if used >= max_tokens:
            break
        kept.append(chunk["text"])
        used += chunk["token_count"]
    return separator.join(kept), used


def _context_budget(
    window: int, instructions: int, question: int, answer: int, max_chunks: int, separator_tokens: int
) -> int:
    """What is left of the window for the chunks once everything the packer does not charge is set aside."""
    separators = max(max_chunks - 1, 0)
    return window - instructions - question - answer - separators * separator_tokens


POINTS = [
    Predict(
        "p1.1",
        1,
        "what the naive loop (take the next chunk while there is room) returns at a budget of 100",
        result=lambda: _take_while_room(EXAMPLE, 100),
        answer_type=tuple[str, int],
        misconceptions=(
            (
                ("alpha\n\nbravo", 70),
                "that is what a loop gives that asks whether the next chunk fits; this one asks only whether any "
                "room is left",
            ),
            (
                ("alpha\n\nbravo\n\ndelta", 90),
                "that is skip-and-continue; this loop never compares a chunk's cost with the room left",
            ),
            (
                ("alpha\n\nbravo\n\ncharlie\n\ndelta", 140),
                "the loop does stop: it checks the running total before each chunk, and ends once it reaches 100",
            ),
        ),
    ),
    Predict(
        "p1.2",
        2,
        "what stop-at-the-first-overflow and skip-and-continue return at a budget of 69",
        result=lambda: (assemble_prefix(EXAMPLE, 69), packer.chunks.assemble_context(EXAMPLE, 69)),
        answer_type=tuple[tuple[str, int], tuple[str, int]],
        misconceptions=(
            (
                (("alpha", 40), ("alpha", 40)),
                "skip-and-continue goes on after a chunk that does not fit: the smaller chunks behind it still get "
                "their turn",
            ),
            (
                (("alpha\n\ndelta", 60), ("alpha\n\ndelta", 60)),
                "stopping at the first overflow keeps a prefix of the ranking: nothing after the first chunk that "
                "does not fit is looked at",
            ),
            (
                (("alpha\n\nbravo", 70), ("alpha\n\nbravo", 70)),
                "a chunk fits only if the total stays at or below the budget: 40 + 30 is one over 69",
            ),
        ),
    ),
    Choose(
        "p1.3",
        3,
        "why the packer does not take the exact best fill at a budget of 100",
        options=(
            Option(
                "A",
                "Finding the best fill takes too long: every subset has to be tried",
                "the misconception that an exact fill needs every subset: dynamic programming finds it in about n × "
                "max_tokens steps (lesson 06); the reason is what that fill gives up",
            ),
            Option(
                "B",
                "Every token of evidence helps, but 10 more tokens are too few to be worth the work",
                "the belief that more text is always better: irrelevant context can lead a model astray (Shi et al., "
                "2023), so a fuller prompt is no gain in itself",
            ),
            Option(
                "C",
                "The best fill puts the chunks out of rank order, and the model reads them in order",
                "it does not reorder: bravo, charlie and delta stay in rank order; what it gives up is the "
                "best-ranked chunk",
            ),
            Option(
                "D",
                "It gives up alpha, the retriever's first choice, for 10 tokens of lower-ranked text",
                "the ranking is the only relevance signal the packer has, and the budget is a ceiling, not a target",
                right=True,
            ),
        ),
    ),
    Write(
        "p1.4",
        4,
        "context_budget(...): the window less everything the packer does not charge",
        question=Question(
            "p1.4",
            "context_budget",
            1,
            "the window less instructions, question, answer and a reserve for the separators between the chunks",
            _context_budget,
            cases=(
                (4096, 350, 60, 800, 8, 1),
                (4096, 350, 60, 800, 1, 1),  # one chunk: nothing to separate
                (4096, 350, 60, 800, 0, 1),  # no chunks at all: no separators either
                (1000, 0, 0, 0, 5, 3),
                (1000, 100, 20, 200, 3, 0),
            ),
            inputs=st.tuples(
                st.integers(2_000, 10_000),
                st.integers(0, 500),
                st.integers(0, 200),
                st.integers(0, 1_000),
                st.integers(0, 20),
                st.integers(0, 4),
            ),
        ),
        hint="set aside everything the packer does not charge; between k chunks lie at most k - 1 separators, none without chunks",
        slips=(
            Slip(
                "between k chunks lie k - 1 separators, not k",
                wrong=lambda window, instructions, question, answer, chunks, separator: (
                    window - instructions - question - answer - chunks * separator
                ),
            ),
            Slip("no chunks, no separators: 0 chunks do not have -1 separators between them", cases=(3,)),
        ),
    ),
    Choose(
        "p1.5",
        5,
        "which call returns ('', 0) instead of raising ValueError",
        options=(
            Option(
                "A",
                "packer.assemble_context(example, 0)",
                "a budget of 0 is a valid budget smaller than every chunk: all are skipped, and an empty context "
                "is a legitimate answer",
                right=True,
            ),
            Option(
                "B",
                "packer.assemble_context(example, True)",
                "True is an int to Python (bool is a subclass of int), but a flag passed in the budget's place is a "
                "bug, so it is refused",
            ),
            Option(
                "C",
                'packer.assemble_context([{"text": "refund", "token_count": -1}], 100)',
                "a negative count would act as a refund and let more text in than the budget allows: refused, "
                "naming the chunk's index",
            ),
            Option(
                "D",
                'packer.assemble_context("alpha", 100)',
                "a string would be walked character by character as if each were a chunk: refused rather than misread",
            ),
        ),
    ),
]
