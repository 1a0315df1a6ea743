"""Measure how long each self-check takes: per question, the median seconds for the solution's answer and for
the untouched stub.

Run with `make bench-checks` (not part of the test suite), or e.g.
`python tests/benchmarks/bench_checks.py --runs 9 --questions q1.1 q3.1`. The answers are the functions the
solution and exercise notebooks define (their code cells run in a fresh namespace, check cells left out);
each check runs as the check cell runs it (`evaluate` with the in-notebook time limit, nothing displayed).
"first s" is the solution's first check in this process, which also pays for what later checks reuse
(hypothesis building its strategies, a vocabulary loaded on first use); the medians are over `--runs` runs
after it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import time
from pathlib import Path

import nbformat

from packer.checking import DEFER_VARIABLE, TIME_LIMIT, evaluate, question, questions
from packer.checking.exercises import exercise_name, solution_lessons

ROOT = Path(__file__).resolve().parents[2]


def defined(path: Path) -> dict:
    """The names a notebook's code cells define, check cells left out (as a kernel would, without magics)."""
    namespace: dict = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):  # what the cells print (the data they show) is not the table
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code" and not cell.source.startswith("check("):
                exec(compile(cell.source, str(path), "exec"), namespace)
    return namespace


def timed(qid: str, answer: object) -> tuple[float, str]:
    """Seconds one check takes, and its status."""
    started = time.perf_counter()
    result = evaluate(question(qid), answer, TIME_LIMIT)
    return time.perf_counter() - started, result.status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per check, after the first")
    parser.add_argument("--questions", nargs="*", default=[], help="only these question ids")
    args = parser.parse_args()
    os.environ.pop(DEFER_VARIABLE, None)
    print(f"median of {args.runs} runs per check, after a first run (the solution's is shown as 'first s')")
    print(f"{'question':<8} {'function':<20} {'solution s':>10} {'first s':>8} {'stub s':>8}  verdicts", flush=True)
    totals = [0.0, 0.0]
    for lesson, path in solution_lessons(ROOT).items():
        solution, exercise = defined(path), defined(ROOT / "exercises" / exercise_name(lesson))
        for found in questions(lesson):
            if args.questions and found.qid not in args.questions:
                continue
            first, status = timed(found.qid, solution[found.name])
            right = statistics.median(timed(found.qid, solution[found.name])[0] for _ in range(args.runs))
            timed(found.qid, exercise[found.name])
            stub_times, stub_status = zip(*(timed(found.qid, exercise[found.name]) for _ in range(args.runs)))
            stub = statistics.median(stub_times)
            totals[0] += right
            totals[1] += stub
            print(
                f"{found.qid:<8} {found.name:<20} {right:>10.4f} {first:>8.4f} {stub:>8.4f}  {status}, {stub_status[0]}",
                flush=True,
            )
    print(f"{'total':<29} {totals[0]:>10.4f} {'':>8} {totals[1]:>8.4f}")


if __name__ == "__main__":
    main()
