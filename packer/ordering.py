"""Where the evidence goes: the chosen passages, best at the two ends of the prompt and worst in the middle.

Liu et al. ("Lost in the Middle: How Language Models Use Long Contexts", TACL 2024,
https://aclanthology.org/2024.tacl-1.9/) found that models use relevant information best when it stands at
the beginning or the end of the input and worst when it stands in the middle. `ends_first` is the reordering
that Haystack's LostInTheMiddleRanker applies: rank 1 first, rank 2 last, rank 3 second, rank 4 second to
last, and so on. LangChain's LongContextReorder gives the same order for an odd number of documents and its
mirror image for an even number (rank 1 last, rank 2 first): it reverses the list, then puts the documents
alternately at the front and at the back. It only permutes what was chosen; `pack_ends_first`
chooses with `pack_prompt` and then proves or re-measures that the reordered prompt still fits.
"""

from __future__ import annotations

from typing import Any, TypeVar

from packer.counters import bpe_encoding_of
from packer.prompt import Counter, _measure, _render, pack_prompt
from packer.validation import Passage, require_list

T = TypeVar("T")


def ends_first(ranked: Any) -> list[T]:
    """The items in 'ends first' order: best first, second best last, third second, ..., worst in the middle."""
    items = require_list("ranked", ranked)
    front, back = items[0::2], items[1::2]  # ranks 1, 3, 5, ... from the front; 2, 4, 6, ... from the back
    return front + back[::-1]


def pack_ends_first(question: str, passages: Any, limit: int, count: Counter) -> tuple[list[Passage], list[str], str]:
    """Choose with pack_prompt (rank order), then lay the chosen passages out ends first:
    (passages in prompt order, skipped ids in rank order, the prompt, measured within the limit)."""
    ranked = require_list("passages", passages)  # read a one-pass iterator once
    chosen, skipped, _ = pack_prompt(question, ranked, limit, count)
    if bpe_encoding_of(count) is not None:
        # Exact without measuring: for a bpe() counter the prompt's count is the base prompt's plus each
        # line's (packer/prompt.py proves it), and a sum does not depend on the order of its terms.
        return ends_first(chosen), skipped, _render(question, ends_first(chosen))
    order = {key: i for i, (key, _) in enumerate(ranked)}
    while _measure(count, _render(question, ends_first(chosen))) > limit:
        # Any other counter may count the same lines differently in another order: re-measure, and give
        # up the lowest-ranked chosen passage until the reordered prompt fits (the base prompt always does).
        skipped.append(chosen.pop()[0])
    skipped.sort(key=order.__getitem__)
    return ends_first(chosen), skipped, _render(question, ends_first(chosen))
