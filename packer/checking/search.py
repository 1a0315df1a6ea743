"""The generated-input search, with inputs that belong to the question alone: the checks' one contact with
Hypothesis's internals.

Hypothesis (6.131 and later) mixes into what it generates the literals of every *local* module loaded in the
process (`hypothesis.internal.conjecture.providers._get_local_constants`: a module outside site-packages and
the standard library), and caches them, with its Unicode tables, in a `.hypothesis/` folder of the working
directory. Left on, a check would hand other inputs to the same answer in an editable checkout than in a
site-packages install, in a kernel that imported a lesson's helpers or a module of the learner's own than in
a fresh one, and would write into the learner's folder. `question_alone()` switches both off for the time of
a search, so a question's inputs depend on the question and the pinned Hypothesis alone: the same inputs, in
the same order, in every kernel, install, working folder and hash seed (tests/checking/test_search.py). It
is the only place the checks touch Hypothesis's internals; that test fails if an upgrade of Hypothesis
changes what it relies on.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import hypothesis
from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis import configuration as _configuration
from hypothesis.internal.conjecture import providers as _providers
from hypothesis.internal.entropy import deterministic_PRNG
from hypothesis.strategies import SearchStrategy

GENERATED_EXAMPLES = 120
# Built on Hypothesis's own defaults, not on whatever profile the process loaded (a test suite's, or the "ci"
# profile Hypothesis loads where CI is set), so every setting the search uses is this one.
SEARCH = settings(
    settings.get_profile("default"),
    database=None,
    derandomize=True,
    max_examples=GENERATED_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.generate, Phase.shrink],
    verbosity=Verbosity.quiet,
    print_blob=False,
)
# Where Hypothesis's caches go during a search when nobody chose a folder (HYPOTHESIS_STORAGE_DIRECTORY, which
# the grader sets for its kernels): a path that cannot be created, so each cache is computed in memory and its
# write fails quietly, as Hypothesis allows (best-effort caching). Nothing lands in the learner's folder.
NOWHERE = Path(os.devnull) / "hypothesis"
_HOME = "__hypothesis_home_directory"  # hypothesis.configuration's chosen storage folder (None: .hypothesis/)


def _no_local_constants() -> Any:
    """Stands in for Hypothesis's collection of the local modules' literals: none."""
    return _providers.Constants()


@contextmanager
def question_alone() -> Iterator[None]:
    """Within the block, Hypothesis draws no constants from the modules loaded and writes no cache into the
    working folder; both are as they were after it."""
    saved_constants = _providers._get_local_constants
    saved_home = getattr(_configuration, _HOME)
    _providers._get_local_constants = _no_local_constants
    _providers.CONSTANTS_CACHE.cache.clear()  # the pools it built from the local modules before
    if saved_home is None and not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        _configuration.set_hypothesis_home_dir(NOWHERE)
    try:
        yield
    finally:
        _providers._get_local_constants = saved_constants
        _providers.CONSTANTS_CACHE.cache.clear()  # the empty pools built within the block
        setattr(_configuration, _HOME, saved_home)


def search(strategy: SearchStrategy, condition: Callable[[Any], bool]) -> Any:
    """The smallest input `strategy` generates for which `condition` holds (hypothesis.find, derandomized, with
    the question's inputs alone); NoSuchExample when none of the GENERATED_EXAMPLES inputs tried does."""
    with question_alone():
        return find(strategy, condition, settings=SEARCH)


@contextmanager
def seeded_as_searched() -> Iterator[None]:
    """The global `random` seeded as the search seeds it for each input it hands over (a replayed input)."""
    with deterministic_PRNG():
        yield


def inputs_version() -> str:
    """What a question's generated inputs depend on besides the question: the Hypothesis release (its
    generator and its built-in constants) and this module's settings. Two processes with the same digest
    generate the same inputs for every question."""
    return hashlib.sha256(f"hypothesis {hypothesis.__version__}; {SEARCH!r}".encode()).hexdigest()


__all__ = [
    "GENERATED_EXAMPLES",
    "NOWHERE",
    "SEARCH",
    "inputs_version",
    "question_alone",
    "search",
    "seeded_as_searched",
]
