"""Pack passages into a whole chat request: the rendered request plus the output reserve must fit the window.

The user's turn carries pack_prompt's prompt (question, sources heading, one labelled line per passage,
answer cue; the question and texts folded, so that no passage can forge a source: packer/prompt.py); an
optional system prompt comes first. Whatever the chat template adds around the messages
(control tokens, role markers, tool definitions) is the injected counter's business: `count(messages)`
returns the tokens the model receives for the whole request. A passage is kept when
`count(request with it) + max_output <= window`, in rank order, skip and continue; `max_output` is the room
the application reserves for the model's answer, since input and output share one context window.

With any counter, every candidate is the whole request, re-measured: exact, and O(n·L) work. With a
counter from packer.chat, each candidate's line is measured once instead and added to the base request's
count, which gives the same result because, for those counters, a line's tokens are the same wherever it
stands at a line seam of the prompt:

- openai_chat: the estimate is a sum over messages of the content's BPE count plus constants, and the
  content's BPE count adds up at these seams (the argument in packer/prompt.py).
- mistral_chat: Mistral's SentencePiece models (BPE type, identity normalizer, byte fallback; checked in
  tests/core/test_pack_request.py) have no piece containing "\\n", so a newline is always its own
  byte-fallback token and no merge crosses it: what follows a newline is segmented the same whatever
  precedes it (though not as it would be alone, which would give it the dummy prefix "▁"). Each line
  starts just after a newline and ends with one, so the tokens it adds are those of "\\n" + line, less
  the 2 tokens ("▁", "<0x0A>") that the dummy prefix and the newline cost there. Whatever the template
  puts before the prompt (v1's "[INST] ", v2/v3's system prompt and blank line) or after it (" [/INST]")
  stays outside the lines, and control tokens and tools are encoded as texts of their own.

tests/core/test_pack_request.py checks both paths give the same result on random and adversarial requests
for every shipped counter; tests/benchmarks/bench_request.py measures the difference.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from packer.chat import Message, line_cost_of
from packer.prompt import _render, keep_candidates_that_fit, keep_lines_that_fit
from packer.validation import Passage, require_count, require_passages, require_str

RequestCounter = Callable[[list[Message]], int]


def build_request(question: str, passages: Any, system: str = "") -> list[Message]:
    """The chat request: the system prompt (if any), then the user's turn carrying the rendered prompt."""
    return _request(require_str("question", question), require_passages(passages), require_str("system", system))


def _request(question: str, passages: list[Passage], system: str) -> list[Message]:
    """Build without validation (callers have validated already)."""
    user = {"role": "user", "content": _render(question, passages)}
    return [{"role": "system", "content": system}, user] if system else [user]


def _measure(count: RequestCounter, messages: list[Message]) -> int:
    """Call the counter on a copy of the request and insist on a non-negative int result."""
    result = count([dict(message) for message in messages])
    if type(result) is not int or result < 0:
        raise ValueError(f"count must return a non-negative int, got {result!r}")
    return result


def pack_request(
    question: str, passages: Any, window: int, max_output: int, count: RequestCounter, system: str = ""
) -> tuple[list[Passage], list[str], list[Message]]:
    """Return (chosen passages, skipped ids, measured request): each kept passage leaves max_output free."""
    require_str("question", question)
    checked = require_passages(passages)
    require_count("window", window)
    require_count("max_output", max_output)
    require_str("system", system)
    if max_output > window:
        raise ValueError(f"max_output ({max_output}) must not exceed window ({window})")
    if not callable(count):
        raise ValueError(f"count must be callable, got {type(count).__name__}")
    limit = window - max_output
    request = _request(question, [], system)
    base = _measure(count, request)
    if base > limit:
        raise ValueError(
            f"window: the base request (system, question, heading, answer cue) measures {base} tokens; "
            f"with max_output {max_output} that is {base + max_output}, over the window of {window}"
        )
    line_cost = line_cost_of(count)
    if line_cost is not None:
        try:
            return _pack_at_seams(question, checked, system, limit, line_cost, base)
        except ValueError:
            pass  # text the counter refuses: the plain path raises its own error
    return _pack_by_remeasuring(question, checked, system, limit, count)


def _pack_by_remeasuring(
    question: str, checked: list[Passage], system: str, limit: int, count: RequestCounter
) -> tuple[list[Passage], list[str], list[Message]]:
    """The plain path: measure the whole candidate request for every passage."""
    build = partial(_request, question, system=system)
    return keep_candidates_that_fit(checked, limit, build, partial(_measure, count))


def _pack_at_seams(
    question: str, checked: list[Passage], system: str, limit: int, line_cost: Callable[[str], int], base: int
) -> tuple[list[Passage], list[str], list[Message]]:
    """The fast path for a packer.chat counter: base + the sum of line costs is the exact request count."""
    chosen, skipped = keep_lines_that_fit(checked, limit, line_cost, base)
    return chosen, skipped, _request(question, chosen, system)
