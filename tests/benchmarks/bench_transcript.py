"""Measure `python -m packer.transcript`'s report on a log of 2,000 messages against one count of the whole log.

Run with `make bench-transcript`. The log is lesson 09's agent transcript (packer.lab.agent_transcript) of 500
turns: 2,000 messages (a question, a search call, its result and an answer per turn), in the Chat Completions
shape. It prints the time of

- once:   counting the whole request once under mistral_chat("v7") (the command's default counter, which
          remembers what it measured: packer.chat.remembered);
- report: packer.transcript.report on it, at its default limit: every policy's kept request, the tool results'
          share and the cached share, each measured;

and their ratio. The target: report at most about 10 times once. The tokenizer is loaded before timing.
"""

from __future__ import annotations

import timeit

from packer.chat import mistral_chat
from packer.lab.agent_transcript import agent_transcript
from packer.transcript import last_requests, make_counter, read_log, report

TURNS = 500


def best_s(run, repeat: int) -> float:
    """The fastest of `repeat` runs, in seconds."""
    return min(timeit.repeat(run, number=1, repeat=repeat))


def main() -> None:
    """Print once, report and their ratio for the 2,000-message log."""
    log = read_log(agent_transcript(TURNS))
    counter = make_counter("mistral-v7", log.tools)
    request, _ = last_requests(log.messages)
    count = mistral_chat("v7")
    count(request[:2])  # load the tokenizer
    once = best_s(lambda: count(request), 3)
    whole = best_s(lambda: report(log, counter, None), 1)
    print(f"{len(log.messages)} messages, {count(request)} tokens")
    print(f"once:   {once:.2f} s")
    print(f"report: {whole:.2f} s ({whole / once:.1f} times once; target: at most about 10)")


if __name__ == "__main__":
    main()
