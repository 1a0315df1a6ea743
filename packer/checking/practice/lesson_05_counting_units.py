"""Lesson 05's practice points: passing a real counter, what the rule of thumb says outside English, the headroom a
chars/4 plan needs, the bounds bytes and characters give, when a byte budget is a token budget, and joins that do
not add up.

Objectives (the lesson's list): 1 counting real tokens offline with bpe() and passing the counter to pack_prompt;
2 measuring chars/4 against real tokens per language or content, against OpenAI's English rule; 3 the headroom a
chars/4 plan needs for 95% or 99% of passages; 4 tokens <= UTF-8 bytes <= 4 x characters, and when a byte budget is
a safe token budget; 5 real text whose tokens do not add up, and why an adding packer can go over.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from hypothesis import strategies as st

from packer.checking.engine import Question
from packer.checking.practice.kinds import Choose, Option, Predict, Slip, Write
from packer.counters import bpe, count_chars_div4, count_utf8_bytes

RUSSIAN = "Привет, мир"  # practice 5.4
PAIRS = [("end!", "\n\nNext"), ("   ", "42"), ("Hello,", " world")]  # practice 5.6


def _headroom_for(tokens: list[int], estimates: list[int], percent: int) -> int:
    """The smallest whole percent h with tokens <= estimate * (1 + h/100) for `percent` % of the passages: each
    passage's need rounded up, then the nearest-rank percentile (integers throughout)."""
    needed = sorted(-((100 * (estimate - count)) // estimate) for count, estimate in zip(tokens, estimates))
    return needed[-((-percent * len(needed)) // 100) - 1]


def _measured(pairs: list[tuple[int, int]], percent: int) -> tuple[list[int], list[int], int]:
    """(tokens, estimates, percent) from (tokens, estimate) pairs: one per passage."""
    return [count for count, _ in pairs], [estimate for _, estimate in pairs], percent


PASSAGES = st.lists(st.tuples(st.integers(0, 400), st.integers(1, 200)), min_size=1, max_size=40)


def _headroom_with(need: Callable[[int, int], int], rank: Callable[[int, int], int]) -> Callable:
    """headroom_for with a slip in how each need, or the rank, is worked out."""

    def headroom_for(tokens: list[int], estimates: list[int], percent: int) -> int:
        needed = sorted(need(count, estimate) for count, estimate in zip(tokens, estimates))
        return needed[rank(percent, len(needed)) - 1]

    return headroom_for


def _need(count: int, estimate: int) -> int:
    return -((100 * (estimate - count)) // estimate)


def _rank(percent: int, n: int) -> int:
    return -((-percent * n) // 100)


HUNDRED_TOKENS = [100 + need for need in reversed(range(100))]  # each needs its own whole percent, 99 .. 0
HUNDRED_ESTIMATES = [100] * 100
PERCENT = st.one_of(st.sampled_from([50, 90, 95, 99, 100]), st.integers(1, 100))


def _changes() -> tuple[int, ...]:
    count = bpe("cl100k_base")
    return tuple(count(left + right) - count(left) - count(right) for left, right in PAIRS)


POINTS = [
    Choose(
        "p5.1",
        1,
        "what to pass pack_prompt as its counter to keep a GPT-4o model's token limit",
        options=(
            Option(
                "A",
                'bpe("o200k_base")(prompt), the count of the prompt it sends',
                "the confusion of a count with a counter: that is a number, the count of one text, and pack_prompt "
                "needs the function itself, to measure every candidate prompt it builds",
            ),
            Option(
                "B",
                'bpe("o200k_base"), the counter of GPT-4o\'s own encoding',
                "tiktoken maps the GPT-4o models to o200k_base, and bpe() gives its counter: a function from text to "
                "int, which pack_prompt calls on every candidate prompt",
                right=True,
            ),
            Option(
                "C",
                'bpe("cl100k_base"): the GPT-4 models share one vocabulary',
                "the belief that GPT-4 and GPT-4o count alike: tiktoken maps GPT-4 to cl100k_base and GPT-4o to "
                "o200k_base, a vocabulary about twice as large, and their counts differ (the Japanese line: 9 "
                "against 7)",
            ),
            Option(
                "D",
                "count_chars_div4: an estimate is close enough for a limit",
                "the belief that an estimate can keep a limit: chars/4 is off in both directions (lesson 04 measured "
                "it against these tokenizers), and a limit needs the count of the model's own tokenizer",
            ),
        ),
    ),
    Choose(
        "p5.2",
        2,
        "what this lesson measured for chars/4 on Japanese names, against OpenAI's rule of thumb",
        options=(
            Option(
                "A",
                "The rule holds for any language: it counts characters, and every language has them.",
                "the belief that the rule is universal: OpenAI states it for English; measured here, chars/4 ÷ "
                "tokens is 0.22 for the Japanese names in cl100k_base, so the estimate is about a quarter of the "
                "real count",
            ),
            Option(
                "B",
                "It holds within about a fifth for them, as it does for English prose.",
                "the belief that English results carry over: a fifth is English prose (a median of 1.17); the same "
                "rule is off about four times for the Japanese names",
            ),
            Option(
                "C",
                "chars/4 over-counts them, because each character takes three UTF-8 bytes.",
                "the belief that more bytes mean a higher estimate: more bytes per character go with more tokens per "
                "character, so a ratio below 1 is an under-count, and the Japanese names sit at 0.22",
            ),
            Option(
                "D",
                "chars/4 gives them about a quarter of their real count; names were measured, not prose.",
                "the measured medians (0.22 in cl100k_base, 0.30 in o200k_base), and what they cover: names, which "
                "may tokenize worse than prose would",
                right=True,
            ),
        ),
    ),
    Write(
        "p5.3",
        3,
        "headroom_for(tokens, estimates, percent): the whole-percent headroom a chars/4 plan needs",
        question=Question(
            "p5.3",
            "headroom_for",
            1,
            "the smallest whole percent of headroom under which `percent` % of the passages fit their real count",
            _headroom_for,
            cases=(
                ([21], [20], 100),
                ([10], [20], 95),
                ([9, 8, 12, 40], [8, 8, 10, 10], 50),
                ([9, 8, 12, 40], [8, 8, 10, 10], 75),
                ([9, 8, 12, 40], [8, 8, 10, 10], 95),
                ([13, 7, 7, 7, 7, 7, 7, 7, 7, 7], [7, 7, 7, 7, 7, 7, 7, 7, 7, 7], 90),
                # 100 passages needing 99 % down to 0 %: the rank is the percent itself, in integers (in floats,
                # 7 / 100 * 100 is 7.000000000000001 and its ceiling 8; the same at 14, 28 and 55)
                *((HUNDRED_TOKENS, HUNDRED_ESTIMATES, percent) for percent in (7, 14, 28, 55)),
                (HUNDRED_TOKENS[-40:], HUNDRED_ESTIMATES[:40], 53),  # rank ⌈21.2⌉ = 22 of 40
                # needs of exactly 500 % (15 over 3) and 220 % (11 over 5): in floats, 100 / 3 * 15 and 11 / 5 * 100
                # are a little over, and their ceilings 501 and 221
                ([18, 16], [3, 5], 100),
                ([18, 16], [3, 5], 50),
                ([6, 9, 12, 6, 9, 12, 6], [3] * 7, 100),  # rank 7 of 7 (7 / 100 * 100 would make it 8)
            ),
            inputs=st.builds(_measured, PASSAGES, PERCENT),
        ),
        hint="take each passage's need first, rounded up to a whole percent in integers (as lesson 04's (n + 3) // 4 "
        "did), then the value at rank ⌈percent/100 · n⌉ in sorted order",
        slips=(
            Slip(
                "work the rank out in integers, -(-percent * n // 100): in floats 7 / 100 * 100 is 7.000000000000001, "
                "and its ceiling 8",
                wrong=_headroom_with(_need, lambda percent, n: math.ceil(percent / 100 * n)),
                cases=(7, 8, 9, 10, 11, 14),
            ),
            Slip(
                "round each need up, not down: a passage 0.5 % over its estimate needs 1 % of headroom",
                wrong=_headroom_with(lambda count, estimate: 100 * (count - estimate) // estimate, _rank),
            ),
            Slip(
                "a float division of the need can land just above a whole percent: keep it in integers",
                cases=(12, 13),
            ),
            Slip("the rank is ⌈percent/100 · n⌉, rounded up: at 50 % of 4 passages it is 2", cases=(3, 4, 5)),
        ),
    ),
    Predict(
        "p5.4",
        4,
        'the bounds bytes, 4 × characters and 16 × chars/4 give on the tokens of "Привет, мир"',
        result=lambda: (count_utf8_bytes(RUSSIAN), 4 * len(RUSSIAN), 16 * count_chars_div4(RUSSIAN)),
        answer_type=tuple[int, int, int],
        misconceptions=(
            ((11, 44, 48), "Cyrillic letters are above U+007F, so they are not one byte each (lesson 03's ranges)"),
            ((22, 44, 48), "the comma and the space are ASCII: one byte each, while the Cyrillic letters take more"),
            ((20, 44, 44), "the chars/4 estimate rounds up before it is multiplied by 16"),
        ),
    ),
    Choose(
        "p5.5",
        4,
        "when a budget of N UTF-8 bytes is also a budget of at most N tokens",
        options=(
            Option(
                "A",
                "With cl100k_base or o200k_base, for the payload counted on its own.",
                "byte-level BPE's merges only ever remove tokens from one per byte; what a chat request adds around "
                "the payload is outside the bound",
                right=True,
            ),
            Option(
                "B",
                "With any tokenizer at all: no token can cover less than one byte.",
                "the belief that every tokenizer starts from bytes: Mistral's SentencePiece counts a lone line "
                "break, one byte, as two tokens (its word-start piece and the byte)",
            ),
            Option(
                "C",
                "With cl100k_base, for the whole chat request the payload goes into.",
                "the belief that the bound covers what the template adds: a request adds tokens with no bytes in "
                "your payload (role markers, control tokens such as [INST]), and a seam the tokenizer does not "
                "always cut can cost more",
            ),
            Option(
                "D",
                "Only for English text: other scripts take more tokens.",
                "the belief that other scripts break the bound: they take more tokens per character, not per byte, "
                "and no passage of any script here reached one token per byte",
            ),
        ),
    ),
    Predict(
        "p5.6",
        5,
        "whole minus parts, in cl100k_base tokens, for three joins",
        result=_changes,
        answer_type=tuple[int, int, int],
        misconceptions=(
            ((0, 0, 0), "token counts add up only at a seam the tokenizer always cuts: look at what each join does"),
            (
                (-1, 0, 0),
                "before a digit a run of spaces splits, and its last space stands alone: digits take no space",
            ),
            ((-1, 1, -1), "a comma ends its piece, and a word with its leading space starts one: that seam is cut"),
            ((0, 1, 0), "punctuation followed by line breaks is one piece, so the join merges"),
        ),
    ),
    Choose(
        "p5.7",
        5,
        "why the adding assemble_context went over its budget with real tokens and pack_prompt never did",
        options=(
            Option(
                "A",
                "assemble_context counted with another tokenizer than the one that measured the context.",
                "the belief that two tokenizers were mixed: both were counted with cl100k_base, the chunks' counts "
                "and the context",
            ),
            Option(
                "B",
                "pack_prompt never adds counts: it always re-measures the whole prompt.",
                "the belief that adding is always unsafe: pack_prompt does add, line by line, for cl100k_base and "
                "o200k_base, and adding is exact where every seam is cut",
            ),
            Option(
                "C",
                "assemble_context charged nothing for its separators; pack_prompt adds only at seams that are always "
                "cut.",
                "the excess was one token per separator; pack_prompt's seams (a line break before [ or A) are cuts "
                "in cl100k_base, so its sums are exact",
                right=True,
            ),
            Option(
                "D",
                "assemble_context rounds each chunk's token count down before adding it.",
                "the belief that the counts are approximate: they are exact integers and nothing is rounded; the "
                "excess comes from what the joins cost",
            ),
        ),
    ),
]
