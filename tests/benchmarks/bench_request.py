"""Measure pack_request with Mistral's v7 template: re-measuring every candidate request against the fast path.

Run with `make bench-request`. Candidates are bench_prompt's real passages (lesson 05's corpus, then
CPython's documentation paragraphs, shuffled once), the window is 8,192 tokens with 1,024 reserved for the
answer, and the request has a system prompt. For each size it prints the time of

- full:  the plain path, counting the whole candidate request through mistral-common's template for every
         passage (what pack_request does with a learner's own callable);
- fast:  the path pack_request takes for mistral_chat("v7"): each line's seam cost, measured once;
- floor: SentencePiece encoding each candidate line once, which any exact packer must at least do,

after checking that full and fast return identical results. The tokenizer is loaded before timing.
"""

from __future__ import annotations

import timeit

from bench_prompt import real_passages

from packer import build_request, pack_request
from packer.chat import _mistral, forget_counts, mistral_chat
from packer.prompt import _line

QUESTION = "How does Python decide which passages belong in the prompt?"
SYSTEM = "Answer from the sources only, and cite them by id."
WINDOW, MAX_OUTPUT = 8192, 1024
SIZES = (200, 1000, 5000)


def best_ms(run, repeat: int) -> float:
    """The fastest of `repeat` runs, in milliseconds, each with the counters' remembered counts forgotten."""
    return min(timeit.repeat(run, setup=forget_counts, number=1, repeat=repeat)) * 1000


def main() -> None:
    """Print the table: milliseconds of full, fast and floor per number of candidates."""
    count = mistral_chat("v7")
    encode = _mistral("v7").instruct_tokenizer.tokenizer._model.encode
    count(build_request(QUESTION, [], SYSTEM))  # load the tokenizer outside the timings

    def learner(messages):  # any other callable: pack_request re-measures the whole request
        return count(messages)

    print(
        f"{'passages':>8} {'chosen':>6} {'full ms':>9} {'fast ms':>8} {'floor ms':>8} {'full/fast':>9} {'fast/floor':>10}"
    )
    for n in SIZES:
        passages = real_passages(n)
        fast = pack_request(QUESTION, passages, WINDOW, MAX_OUTPUT, count, SYSTEM)
        assert fast == pack_request(QUESTION, passages, WINDOW, MAX_OUTPUT, learner, SYSTEM), "paths must agree"
        assert count(fast[2]) + MAX_OUTPUT <= WINDOW
        full_ms = best_ms(lambda p=passages: pack_request(QUESTION, p, WINDOW, MAX_OUTPUT, learner, SYSTEM), 1)
        fast_ms = best_ms(lambda p=passages: pack_request(QUESTION, p, WINDOW, MAX_OUTPUT, count, SYSTEM), 5)
        floor_ms = best_ms(lambda p=passages: [encode(_line(key, text)) for key, text in p], 5)
        print(
            f"{n:>8} {len(fast[0]):>6} {full_ms:>9.0f} {fast_ms:>8.1f} {floor_ms:>8.1f} {full_ms / fast_ms:>9.0f} "
            f"{fast_ms / floor_ms:>10.2f}"
        )


if __name__ == "__main__":
    main()
