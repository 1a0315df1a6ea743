"""Cross-check packer.counters.bpe against tiktoken, offline: not part of `make test` (tiktoken is not a dependency).

tiktoken downloads its vocabularies on first use, so this builds its Encodings from the vocabulary files that
bpe-openai ships, with the same split patterns, and compares counts on lesson 05's corpus and on random
strings of mixed scripts, whitespace, digits and special-token look-alikes.
Run: .venv/bin/pip install tiktoken && .venv/bin/python tests/benchmarks/bpe_crosscheck.py
"""

from __future__ import annotations

import random
import sys

from packer.counters import BPE_ENCODINGS, bpe
from packer.lab import corpus

PIECES = list(" \n\t\r  0123456789abcXYZ.,'!?-_éü日本語한국어हिंदीไทย🙂\u200d<|>") + [
    "<|endoftext|>",
    "'s",
    "'ll",
    "\r\n",
]


def texts() -> list[str]:
    """The lesson's passages and 20,000 random strings (fixed seed)."""
    rng = random.Random(1)
    found = [p for s in corpus.samples() for p in s.passages]
    return found + ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40))) for _ in range(20_000)]


def main() -> int:
    try:
        import tiktoken
    except ImportError:
        print("skipped: tiktoken is not installed (pip install tiktoken; it is only needed for this check)")
        return 0
    from bpe_openai import registry

    sample = texts()
    failures = 0
    for name in BPE_ENCODINGS:
        spec = registry.ENCODING_CONSTRUCTORS[name]()
        reference = tiktoken.Encoding(
            name=f"{name}_offline",
            pat_str=spec["pat_str"],
            mergeable_ranks=spec["mergeable_ranks"],
            special_tokens=spec["special_tokens"],
        )
        count = bpe(name)
        differ = [t for t in sample if count(t) != len(reference.encode_ordinary(t))]
        failures += len(differ)
        print(
            f"{name}: {len(sample) - len(differ)} of {len(sample)} texts agree with tiktoken {tiktoken.__version__}"
            + (f"; first disagreement {differ[0][:60]!r}" if differ else "")
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
