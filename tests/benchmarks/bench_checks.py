"""How long each question's check takes, on the worked answer and on the untouched stub: `make bench-checks`.

Every graded question's check (packer.checking.evaluate with the in-notebook time limit, as `check()` runs
it in a learner's kernel) is run --runs times on the worked answer from solutions/ and on the exercise's
stub, and the median CPU time is printed in milliseconds (CPU time, not wall time, so that other jobs on the
machine change it little). A learner waits for the first column each time a check
passes, and the grader spends it on every submission that answers the question. The measuring runs in a
fresh process (the modules it loads change no check's inputs: packer.checking.search).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mutation"))

from answers import Answer, answers, namespace  # noqa: E402 (the tools' own folder, added above)


def stub(*args, **kwargs):
    raise NotImplementedError("replace this line with your answer")


def measure(task: tuple[Answer, int]) -> tuple[float, float, str]:
    """(median CPU ms on the worked answer, median CPU ms on the stub, the answer's status)."""
    from packer.checking import TIME_LIMIT, evaluate, question

    answer, runs = task
    found = question(answer.qid)
    defined = namespace(answer)[answer.name]
    timings: dict[str, list[float]] = {"answer": [], "stub": []}
    status = ""
    for _ in range(runs):
        for kind, function in (("answer", defined), ("stub", stub)):
            started = time.process_time()
            result = evaluate(found, function, TIME_LIMIT)
            timings[kind].append((time.process_time() - started) * 1000)
            if kind == "answer":
                status = result.status
    return statistics.median(timings["answer"]), statistics.median(timings["stub"]), status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tests/benchmarks/bench_checks.py", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=7, help="runs per question (default 7; the median is shown)")
    parser.add_argument("questions", nargs="*", help="question ids (default: every graded question)")
    args = parser.parse_args(argv)
    found = answers()
    qids = args.questions or list(found)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        results = pool.map(measure, [(found[qid], args.runs) for qid in qids])
    print(f"median of {args.runs} runs, CPU milliseconds per check")
    print(f"{'question':<9}{'function':<22}{'answer ms':>10}{'stub ms':>9}  status")
    total = 0.0
    for qid, (answer_ms, stub_ms, status) in zip(qids, results):
        total += answer_ms
        print(f"{qid:<9}{found[qid].name:<22}{answer_ms:>10.1f}{stub_ms:>9.2f}  {status}")
    print(f"{'total':<31}{total:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
