"""Measure the grader on a generated class: seconds per submission with --jobs 1 and --jobs 2.

Run with `make bench-grade` (not part of the test suite). The class mixes correct, wrong, half-done,
untouched and hostile lesson-01 submissions (packer.grading.demo_class). Runaway submissions cost their
--timeout by design, so they are left out of the class and one is graded on its own line.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from packer.grading.demo_class import make_class, write_submission


def grade(folder: Path, jobs: int, extra: list[str]) -> float:
    """Wall-clock seconds for one `python -m packer.grading` run (process start included)."""
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "packer.grading", str(folder), "--out", out, "--jobs", str(jobs), *extra],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "class"
        make_class(folder, args.size, runaway=False)
        runaway = Path(scratch) / "runaway"
        write_submission(runaway, "runaway", "runaway")
        print(f"{args.size} submissions (lesson 01; correct, wrong, half-done, untouched, hostile), no runaway")
        print(f"{'assignment':<28} {'jobs':>4} {'total s':>8} {'s / submission':>15}")
        for label, extra in (("one question (q1.1)", ["--questions", "q1.1"]), ("whole exercise (5 questions)", [])):
            for jobs in (1, 2):
                seconds = grade(folder, jobs, extra)
                print(f"{label:<28} {jobs:>4} {seconds:>8.1f} {seconds / args.size:>15.2f}")
        seconds = grade(runaway, 1, ["--timeout", "10"])
        print(f"one runaway submission, --timeout 10: {seconds:.1f} s")


if __name__ == "__main__":
    main()
