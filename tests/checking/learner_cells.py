"""A learner's notebook cells, run from their source, for the checks' tests."""

from __future__ import annotations

import textwrap


def learner(source: str) -> dict:
    """Run notebook cells' code in a fresh namespace and return it (the learner's names)."""
    namespace: dict = {"__name__": "__main__"}
    exec(compile(textwrap.dedent(source), "<learner cell>", "exec"), namespace)
    return namespace
