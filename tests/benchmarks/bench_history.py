"""Measure pack_history with Mistral's v7 template: re-measuring every candidate request against the fast path.

Run with `make bench-history`. The conversation is lesson 09's agent transcript (packer.lab.agent_transcript:
a question, a search call, its result of four passages and an answer per turn), trimmed to an 8,192-token
limit under mistral_chat("v7") with the agent's search tool. For each number of turns it prints the time of

- once:  counting the final (kept) request once, through mistral-common's template;
- fast:  the path pack_history takes for that counter: the base, then each kept turn's own cost;
- plain: re-measuring the whole request for 0, 1, 2, ... dropped turns (what pack_history does with a
         learner's own callable),

after checking that fast and plain return identical results. The target: fast at most 10 times once. The
tokenizer is loaded, and the transcripts made, before timing.
"""

from __future__ import annotations

import timeit

from packer.chat import forget_counts, mistral_chat
from packer.history import pack_history
from packer.lab.agent_transcript import SEARCH_TOOL, agent_transcript

LIMIT = 8192
SIZES = (50, 100, 200)


def best_ms(run, repeat: int) -> float:
    """The fastest of `repeat` runs, in milliseconds, each with the counters' remembered counts forgotten."""
    return min(timeit.repeat(run, setup=forget_counts, number=1, repeat=repeat)) * 1000


def main() -> None:
    """Print the table: milliseconds of once, fast and plain per number of turns."""
    count = mistral_chat("v7", tools=[SEARCH_TOOL])
    transcripts = {turns: agent_transcript(turns) for turns in SIZES}

    def learner(messages):  # any other callable: pack_history re-measures the whole request
        return count(messages)

    print(
        f"{'turns':>5} {'tokens':>7} {'kept':>4} {'once ms':>8} {'fast ms':>8} {'plain ms':>9} {'fast/once':>9} {'plain/fast':>10}"
    )
    for turns, messages in transcripts.items():
        fast = pack_history(messages, LIMIT, count)
        assert fast == pack_history(messages, LIMIT, learner), "paths must agree"
        kept = turns - len(fast.dropped)
        once_ms = best_ms(lambda kept=fast.kept: count(kept), 5)
        fast_ms = best_ms(lambda m=messages: pack_history(m, LIMIT, count), 5)
        plain_ms = best_ms(lambda m=messages: pack_history(m, LIMIT, learner), 1)
        print(
            f"{turns:>5} {count(messages):>7} {kept:>4} {once_ms:>8.1f} {fast_ms:>8.1f} {plain_ms:>9.0f} "
            f"{fast_ms / once_ms:>9.1f} {plain_ms / fast_ms:>10.0f}"
        )


if __name__ == "__main__":
    main()
