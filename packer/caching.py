"""The cached prefix: the part of a request that repeats from the previous one, which providers bill apart.

A conversation sends its past again at every turn, so consecutive requests share a beginning. A provider that
kept the model's state for a recent request can start from there: the shared beginning is the cached prefix,
measured in tokens. `common_prefix_length` measures it on two requests' token ids (Mistral's: packer.chat's
`mistral_ids`). Dropping the oldest turn changes the request right after the system prompt, so everything
after it is new again; clearing an old tool result changes it from that result on.

The providers' published rules:

- OpenAI caches automatically. Its prompt caching guide (https://platform.openai.com/docs/guides/prompt-caching,
  quoted from a copy of its text from before GPT-5.6) said:
  "Caching is available for prompts containing 1024 tokens or more, with cache hits occurring in increments of
  128 tokens. Therefore, the number of cached tokens in a request will always fall within the following
  sequence: 1024, 1152, 1280, 1408, and so on", and "For requests under 1024 tokens, `cached_tokens` will be
  zero". OpenAI's cookbook "Prompt Caching 201" (github.com/openai/openai-cookbook,
  examples/Prompt_Caching_201.ipynb), which opens "This guide applies only to models before GPT-5.6", repeats
  the rule ("works automatically for prompts containing 1024 tokens or more, with cache hits occurring in
  increments of 128 tokens") and shows 1920 cached of a 2006-token prompt. For GPT-5.6 and later model
  families the current guide (https://developers.openai.com/api/docs/guides/prompt-caching) adds explicit
  cache breakpoints and bills cache writes at 1.25x the uncached input rate; no rule here covers them.
  `openai_cached_tokens` is the rule for models before GPT-5.6; a cache hit also needs the same machine to
  have seen the prefix recently, which no rule can promise.
- Anthropic caches what the request marks: its prompt caching page
  (https://platform.claude.com/docs/en/build-with-claude/prompt-caching) describes a `cache_control` field,
  either at the top level (automatic: the breakpoint moves to the last cacheable block as the conversation
  grows) or on chosen content blocks (explicit breakpoints), and a cache that holds the whole prompt, tools,
  system and messages in that order, up to and including the marked block. Its limits and prices vary by
  model; no rule function is given here.
"""

from __future__ import annotations

from collections.abc import Sequence

from packer.validation import require_count

OPENAI_MIN_CACHED = 1024  # the shortest prompt, and the smallest hit, OpenAI caches
OPENAI_CACHE_STEP = 128  # hits grow in steps of this many tokens


def common_prefix_length(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading token ids two requests share."""
    for name, ids in (("a", a), ("b", b)):
        if isinstance(ids, (str, bytes)) or not isinstance(ids, Sequence):
            raise ValueError(f"{name} must be a sequence of token ids, got {type(ids).__name__}")
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return shared


def openai_cached_tokens(prefix_len: int, prompt_len: int) -> int:
    """The cached tokens OpenAI's published rule for models before GPT-5.6 gives a prompt of `prompt_len` tokens
    whose first `prefix_len` repeat a recent request's: 0 under 1024, else the prefix rounded down to a multiple
    of 128."""
    require_count("prefix_len", prefix_len)
    require_count("prompt_len", prompt_len)
    if prefix_len > prompt_len:
        raise ValueError(f"prefix_len ({prefix_len}) must not exceed prompt_len ({prompt_len})")
    if prefix_len < OPENAI_MIN_CACHED:
        return 0
    return prefix_len // OPENAI_CACHE_STEP * OPENAI_CACHE_STEP
