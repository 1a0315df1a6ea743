"""Pack passages by re-measuring the complete rendered prompt with an injected counter.

With any counter, `pack_prompt` measures the whole candidate prompt for every passage: exact for any
counter, and O(n·L) work (n candidates, L the length of the prompt). With a real BPE counter made by
`packer.counters.bpe`, it takes a fast path that returns exactly the same result from exact counts.

The rendered prompt, and why no passage can forge a source. The prompt is
`head + line_1 + ... + line_k + "Answer:"`, where `head = "Question: …\\nSources:\\n"` and every
`line_i = "[id] " + fold(text) + "\\n"`. Retrieved text is untrusted input (OWASP LLM01, prompt injection:
https://genai.owasp.org/llmrisk/llm01-prompt-injection/), and the renderer is the last place that knows where
one passage ends and the next begins, so it holds two rules:

- ids: no "[", "]" or line boundary that `str.splitlines` knows (packer.validation refuses them, naming the
  passage);
- texts, and the question: folded (`fold`): every line boundary in them is followed by one space, so a line
  that starts with a space continues the line before it (the convention of e-mail's folded header lines, RFC
  5322, section 2.2.3, which break before existing whitespace instead). So every line of the prompt that
  starts with "[" is a source's label and the only line that starts with "Answer:" is the cue: a passage
  `("c", "real\\n[d] forged")` renders as "[c] real\\n [d] forged\\n", a continuation of source c, not a
  source d. Unfolding (dropping the first space after each line boundary) gives back exactly the texts
  given; tests/core/test_forged_sources.py parses every renderer's output back into exactly the passages
  given. Folding does not stop a passage from carrying instructions: those still reach the model as the
  passage's text (Greshake et al. 2023, https://arxiv.org/abs/2302.12173).

Why the fast path is exact. Every seam between two parts is a newline (the end of the heading or of a
line, which folding leaves as it is) followed by "[" or by "A". Byte-level BPE (cl100k_base, o200k_base)
first splits the text into pre-tokens with a pattern, then merges bytes only inside a pre-token, so the
count of a text is the sum of the counts of its pre-tokens. Three facts about the two patterns (as
bpe-openai runs them and tiktoken defines them) make each seam a cut that nothing appended or prepended
can move:

1. A newline inside a pre-token is followed, within that pre-token, only by whitespace (or by "/" in
   o200k's punctuation rule ` ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*`). Check every alternative: letter and
   contraction rules exclude "\\r\\n" from their optional first character; digits have none; the
   punctuation rule ends with newlines only; the remaining rules match whitespace only. So no pre-token
   contains "\\n[" or "\\nA": the pre-tokenizer always cuts there, whatever surrounds the seam.
2. Each pre-token is matched anchored at the end of the previous one, with no look-behind and no start
   anchor, so the pre-tokens after a cut are those of the text after it, counted alone.
3. Before the cut, the text ends in "\\n". Only `$` and the look-ahead of `\\s+(?!\\S)` can see past the
   end of a match, and both act on the final whitespace run only; that run ends in a newline, and the
   higher-priority rule for it (`\\s*[\\r\\n]+`, `\\s*[\\r\\n]`, or punctuation followed by newlines)
   takes it whole whether the text ends there or "[" or "A" follows. So the pre-tokens before the cut
   are those of the text before it, counted alone.

Hence count(head + lines + "Answer:") = count(head + "Answer:") + the sum of count(line_i), exactly:
the fast path measures the base prompt once (as the plain path does) and each candidate's line once, and
accepts a line when the running total stays within the limit, the same test on the same numbers as the
plain path. tests/core/test_fast_prompt.py checks the seam property on adversarial text (runs of spaces,
"\\n\\n", digits, CJK, emoji, apostrophes, special-token look-alikes) and the equality of both paths on
lesson 05's real corpus. Any case this argument does not cover takes the plain path: a counter that is
not one bpe() made (compared by identity, so a learner's own callable is always re-measured), and any
error while counting (text that is not valid UTF-8), so error messages stay those of the plain path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar

from packer.counters import bpe_encoding_of
from packer.validation import LINE_BREAKS, Passage, require_count, require_passages, require_str

Counter = Callable[[str], int]
T = TypeVar("T")


_BREAK = re.compile("|".join(map(re.escape, LINE_BREAKS)))  # "\r\n" first, so it stays one boundary


def fold(text: str) -> str:
    """`text` with one space after every line boundary str.splitlines knows ("\\r\\n" counts as one): no line
    of a folded text but its first can start with "[" or "Answer:" (module doc)."""
    return _BREAK.sub(lambda match: match.group() + " ", text)


def _line(key: str, text: str) -> str:
    """One passage as the prompt shows it: label, folded text, newline."""
    return f"[{key}] {fold(text)}\n"


def _render(question: str, passages: Sequence[Passage]) -> str:
    """Render without validation (callers have validated already)."""
    lines = "".join(_line(key, text) for key, text in passages)
    return f"Question: {fold(question)}\nSources:\n{lines}Answer:"


def render_prompt(question: str, passages: Any) -> str:
    """The exact prompt text: question, sources heading, one labelled line per passage, answer cue; the
    question and every text folded (`fold`), so that no passage can forge a source or the cue (module doc)."""
    return _render(require_str("question", question), require_passages(passages))


def _measure(count: Counter, prompt: str) -> int:
    """Call the counter and insist on a non-negative int result."""
    result = count(prompt)
    if type(result) is not int or result < 0:
        raise ValueError(f"count must return a non-negative int, got {result!r}")
    return result


def pack_prompt(question: str, passages: Any, limit: int, count: Counter) -> tuple[list[Passage], list[str], str]:
    """Return (chosen passages, skipped ids, measured prompt); every candidate is the whole prompt."""
    require_str("question", question)
    checked = require_passages(passages)
    require_count("limit", limit)
    if not callable(count):
        raise ValueError(f"count must be callable, got {type(count).__name__}")
    prompt = _render(question, [])
    base = _measure(count, prompt)
    if base > limit:
        raise ValueError(
            f"limit: the base prompt (question, heading, answer cue) measures {base}, over the limit of {limit}"
        )
    if bpe_encoding_of(count) is not None:
        try:
            return _pack_at_seams(question, checked, limit, count, base)
        except ValueError:
            pass  # not covered by the seam argument: the plain path raises its own error
    return _pack_by_remeasuring(question, checked, limit, count)


def _pack_by_remeasuring(
    question: str, checked: list[Passage], limit: int, count: Counter
) -> tuple[list[Passage], list[str], str]:
    """The plain path: measure the whole candidate prompt for every passage."""
    return keep_candidates_that_fit(checked, limit, lambda chosen: _render(question, chosen), partial(_measure, count))


def keep_candidates_that_fit(
    checked: list[Passage], limit: int, build: Callable[[list[Passage]], T], measure: Callable[[T], int]
) -> tuple[list[Passage], list[str], T]:
    """Skip and continue, measuring the whole candidate built from the chosen passages plus the next one:
    (chosen passages, skipped ids, the last candidate kept, or build([]) when none is)."""
    kept = build([])
    chosen: list[Passage] = []
    skipped: list[str] = []
    for passage in checked:
        candidate = build(chosen + [passage])
        if measure(candidate) <= limit:
            chosen.append(passage)
            kept = candidate
        else:
            skipped.append(passage[0])
    return chosen, skipped, kept


def _pack_at_seams(
    question: str, checked: list[Passage], limit: int, count: Counter, base: int
) -> tuple[list[Passage], list[str], str]:
    """The fast path for a bpe() counter: base + the sum of line counts is the exact prompt count (module doc)."""
    chosen, skipped = keep_lines_that_fit(checked, limit, count, base)
    return chosen, skipped, _render(question, chosen)


def keep_lines_that_fit(
    checked: list[Passage], limit: int, line_cost: Counter, base: int
) -> tuple[list[Passage], list[str]]:
    """Skip and continue over exact line costs added to `base`: (chosen passages, skipped ids)."""
    used = base
    chosen: list[Passage] = []
    skipped: list[str] = []
    for key, text in checked:
        cost = line_cost(_line(key, text))
        if used + cost <= limit:
            chosen.append((key, text))
            used += cost
        else:
            skipped.append(key)
    return chosen, skipped
