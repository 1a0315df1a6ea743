"""Mutation score of the packer core: `make mutation` (python tests/mutation/score.py [--jobs N]).

Every mutant of every core module (see mutate.py for the operators) is written into a scratch copy
of the repository, never into the working tree, and the core's fast unit tests are run against it
(pytest -x: the first failing test kills the mutant; the test files named after the module run first, on their
own). A mutant that survives is either listed in
equivalent.toml with the reason it cannot change behaviour ("equivalent, explained") or reported as
a gap in the tests. Exit status 0 only when every other mutant is killed and every entry of
equivalent.toml still matches a surviving mutant.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from mutate import Mutant, mutants_of

ROOT = Path(__file__).resolve().parents[2]
CORE = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "packer").glob("*.py"))
TESTS = ["tests/core", "tests/test_layout.py"]
COPIED = [
    "packer",
    "tests/core",
    "tests/test_layout.py",
    "tests/conftest.py",
    "tests/nbval_sanitize.cfg",
    "tests/system_parts.py",  # the root conftest.py imports it (which tests a missing system part skips)
    "conftest.py",
    "pyproject.toml",
]
EQUIVALENT = Path(__file__).resolve().parent / "equivalent.toml"


@dataclass(frozen=True)
class Equivalent:
    """A surviving mutant that cannot change behaviour, and why."""

    file: str
    function: str
    change: str
    why: str

    def matches(self, mutant: Mutant) -> bool:
        """Whether this entry explains the mutant (same file, function and change)."""
        return (self.file, self.function, self.change) == (mutant.path, mutant.function, mutant.change)


def load_equivalents(path: Path) -> list[Equivalent]:
    """The explained equivalent mutants; each entry needs file, function, change and a non-empty why."""
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", []) if path.exists() else []
    loaded = []
    for number, entry in enumerate(entries, 1):
        missing = [key for key in ("file", "function", "change", "why") if not str(entry.get(key, "")).strip()]
        if missing:
            raise ValueError(f"{path.name}: entry {number} lacks {', '.join(missing)}")
        loaded.append(Equivalent(entry["file"], entry["function"], entry["change"], entry["why"].strip()))
    return loaded


def copy_project(root: Path, items: Iterable[str], into: Path) -> None:
    """Copy the files and folders the tests need (no caches) into a scratch folder."""
    for item in items:
        source = root / item
        if source.is_dir():
            shutil.copytree(source, into / item, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif source.exists():
            (into / item).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / item)


def ordered_tests(workdir: Path, tests: Sequence[str], module: str) -> list[str]:
    """Every test file: those named after the module's stem first, then those that mention it, then the rest (so
    most mutants die in the first file: -x stops there)."""
    files: list[str] = []
    for test in tests:
        path = workdir / test
        found = sorted(path.rglob("test_*.py")) if path.is_dir() else [path]
        files += [f.relative_to(workdir).as_posix() for f in found]
    stem = Path(module).stem
    return sorted(
        files, key=lambda f: (stem not in Path(f).name, stem not in (workdir / f).read_text(encoding="utf-8"))
    )


def run_tests(workdir: Path, tests: Sequence[str], timeout: float) -> str:
    """Run the tests in a scratch copy: 'passed', 'failed' or 'timeout'.
    No notebooks are collected, so nbval is not loaded (its start-up would dominate every run)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(workdir)}
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:nbval",
        "-o",
        "addopts=",
        *tests,
    ]
    try:
        done = subprocess.run(command, cwd=workdir, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "passed" if done.returncode == 0 else "failed"


class Worker:
    """A scratch copy of the project in which one mutant at a time replaces its module."""

    def __init__(self, root: Path, copied: Iterable[str], tests: Sequence[str]) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="mutation-"))
        copy_project(root, copied, self.dir)
        self.root, self.tests = root, tests

    def outcome(self, mutant: Mutant, timeout: float) -> str:
        """'killed' (a test failed), 'timeout' (the run hung: counted as killed, but listed) or 'survived'."""
        target = self.dir / mutant.path
        target.write_text(mutant.source, encoding="utf-8")
        try:
            tests = ordered_tests(self.dir, self.tests, mutant.path)
            named = [test for test in tests if Path(mutant.path).stem in Path(test).name]
            result = "passed"
            for stage in (named, tests[len(named) :]):  # the named files alone first: most mutants die there, and
                if stage and result == "passed":  # a run of one file need not import every test module
                    result = run_tests(self.dir, stage, timeout)
            return {"passed": "survived", "failed": "killed", "timeout": "timeout"}[result]
        finally:
            shutil.copy2(self.root / mutant.path, target)

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def run_all(
    mutants: Sequence[Mutant],
    root: Path,
    copied: Iterable[str],
    tests: Sequence[str],
    jobs: int,
    timeout: float,
    progress: Callable[[int, int, Mutant, str], None] = lambda *_: None,
) -> list[str]:
    """The outcome of every mutant, in order, using `jobs` scratch copies in parallel."""
    workers = [Worker(root, copied, tests) for _ in range(max(1, jobs))]
    free = list(workers)
    outcomes: list[str] = [""] * len(mutants)

    def one(index: int) -> None:
        worker = free.pop()
        try:
            outcomes[index] = worker.outcome(mutants[index], timeout)
        finally:
            free.append(worker)
        progress(sum(1 for o in outcomes if o), len(mutants), mutants[index], outcomes[index])

    pool = ThreadPoolExecutor(max_workers=len(workers))
    try:
        for future in [pool.submit(one, i) for i in range(len(mutants))]:
            future.result()
    finally:  # on Ctrl-C: start no further mutant, wait for the running ones (they got the signal too)
        pool.shutdown(wait=True, cancel_futures=True)
        for worker in workers:
            worker.close()
    return outcomes


def report(
    modules: Sequence[str], mutants: Sequence[Mutant], outcomes: Sequence[str], equivalents: Sequence[Equivalent]
) -> tuple[str, bool]:
    """The score table, the surviving mutants and the explained ones; and whether all is well."""
    explained = {
        i: next((e for e in equivalents if e.matches(m)), None)
        for i, m in enumerate(mutants)
        if outcomes[i] == "survived"
    }
    lines = [f"{'module':<26}{'mutants':>8}{'killed':>8}{'equivalent':>12}{'survived':>10}{'score':>8}"]
    totals = [0, 0, 0, 0]
    for module in modules:
        mine = [i for i, m in enumerate(mutants) if m.path == module]
        killed = sum(1 for i in mine if outcomes[i] in ("killed", "timeout"))
        equivalent = sum(1 for i in mine if explained.get(i))
        survived = len(mine) - killed - equivalent
        for k, n in enumerate((len(mine), killed, equivalent, survived)):
            totals[k] += n
        lines.append(_row(module, len(mine), killed, equivalent, survived))
    lines.append(_row("total", *totals))
    gaps = [mutants[i] for i, e in explained.items() if e is None]
    # Only entries for the modules mutated this run can be judged stale (`score.py packer/prompt.py`).
    stale = [e for e in equivalents if e.file in modules and not any(e.matches(mutants[i]) for i in explained)]
    lines.append("")
    lines.append(f"Surviving mutants (behaviour no test pins down): {len(gaps) or 'none'}")
    lines += [f"  {m.path}:{m.line}  {m.function}  {m.operator}: {m.change}" for m in gaps]
    lines.append("")
    lines.append(f"Equivalent, explained (tests/mutation/equivalent.toml): {len(explained) - len(gaps) or 'none'}")
    for i, e in explained.items():
        if e is not None:
            m = mutants[i]
            lines.append(f"  {m.path}:{m.line}  {m.function}  {m.operator}: {m.change}\n      why: {e.why}")
    timeouts = [m for m, outcome in zip(mutants, outcomes) if outcome == "timeout"]
    if timeouts:
        lines.append("")
        lines.append("Timed out (counted as killed; on a busy machine rerun them to be sure):")
        lines += [f"  {m.path}:{m.line}  {m.function}  {m.operator}: {m.change}" for m in timeouts]
    if stale:
        lines.append("")
        lines.append("Stale entries in equivalent.toml (no surviving mutant matches them; remove or fix):")
        lines += [f"  {e.file}  {e.function}: {e.change}" for e in stale]
    return "\n".join(lines), not gaps and not stale


def _row(name: str, total: int, killed: int, equivalent: int, survived: int) -> str:
    behaviour = total - equivalent
    score = f"{killed / behaviour:.1%}" if behaviour else "-"
    return f"{name:<26}{total:>8}{killed:>8}{equivalent:>12}{survived:>10}{score:>8}"


def baseline_passes(root: Path, modules: Iterable[str]) -> bool:
    """Whether the tests pass on a scratch copy whose modules are re-written as the mutants are (unparsed)."""
    with tempfile.TemporaryDirectory(prefix="mutation-baseline-") as scratch:
        copy_project(root, COPIED, Path(scratch))
        for module in modules:
            source = (root / module).read_text(encoding="utf-8")
            (Path(scratch) / module).write_text(ast.unparse(ast.parse(source)) + "\n", encoding="utf-8")
        return run_tests(Path(scratch), TESTS, timeout=600) == "passed"


def main(argv: list[str] | None = None) -> int:
    """Mutate every core module, run the core tests against each mutant and print the score."""
    parser = argparse.ArgumentParser(prog="python tests/mutation/score.py", description=main.__doc__)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel test runs (default: cores)")
    parser.add_argument("modules", nargs="*", default=CORE, help="core modules to mutate (default: all)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be a positive int, got {args.jobs}")
    unknown = [m for m in args.modules if m not in CORE]
    if unknown:
        parser.error(f"not a core module: {', '.join(unknown)} (choose from {', '.join(CORE)})")
    equivalents = load_equivalents(EQUIVALENT)
    mutants = [m for module in args.modules for m in mutants_of((ROOT / module).read_text(encoding="utf-8"), module)]

    start = time.monotonic()
    if not baseline_passes(ROOT, args.modules):
        print("The core tests fail on the unmutated (re-written) modules; fix that first.")
        return 2
    timeout = max(300.0, 10 * (time.monotonic() - start))  # generous: a busy machine must not fake a kill
    print(
        f"{len(mutants)} mutants of {len(args.modules)} core modules; tests: {' '.join(TESTS)}; {args.jobs} jobs",
        flush=True,
    )

    def progress(done: int, total: int, mutant: Mutant, outcome: str) -> None:
        if outcome == "survived":  # shown at once: on a busy machine the whole run takes a while
            print(f"  survived: {mutant.path}:{mutant.line}  {mutant.function}  {mutant.change}", flush=True)
        if done % 25 == 0 or done == total:
            print(f"  {done}/{total} mutants tested", flush=True)

    started = time.monotonic()
    outcomes = run_all(mutants, ROOT, COPIED, TESTS, args.jobs, timeout, progress)
    text, ok = report(args.modules, mutants, outcomes, equivalents)
    print(f"({time.monotonic() - started:.0f} s)\n")
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\nInterrupted: no source file was changed (mutants live in scratch copies only).", file=sys.stderr)
        sys.exit(130)
