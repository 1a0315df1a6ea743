"""Measure the grader on generated classes: wall time, submissions per second and peak memory, by class size.

Run with `make bench-grade` (not part of the test suite), or e.g.
`python tests/benchmarks/bench_grade.py --sizes 100 1000 5000` and `--sizes 60 --large-every 1` (60
notebooks that each carry ~20 MB of saved figures). Each class mixes the demo class's lesson-01
submissions (correct, wrong, half-done, untouched, hostile; no runaway loops, which cost their time limit
by design) with every `--large-every`-th one carrying `--megabytes` of saved PNG output. Classes are written
to a temporary folder (identical files are hard links, so 5,000 submissions fit on a small disk) and
removed afterwards. Peak memory is what the grader reports for its own process and its largest worker
(kernels excluded: each runs one notebook and ends).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from packer.grading.demo_class import KINDS, RUNAWAY, with_saved_figures


def make_class(folder: Path, size: int, large_every: int, megabytes: float) -> int:
    """Write `size` submissions into folder; returns how many carry large saved output."""
    templates = folder.parent / "templates"
    templates.mkdir(exist_ok=True)
    kinds = [kind for kind in KINDS if kind not in RUNAWAY]
    folder.mkdir()
    large = 0
    for number in range(size):
        kind = kinds[number % len(kinds)]
        big = large_every and number % large_every == 0 and not isinstance(KINDS[kind][1](), str)
        template = templates / f"{kind}{'-large' if big else ''}.ipynb"
        if not template.exists():
            made = KINDS[kind][1]()
            if big:
                made = with_saved_figures(made, megabytes)
            template.write_text(made if isinstance(made, str) else nbformat.writes(made))
        os.link(template, folder / f"learner{number:05d}-{kind}.ipynb")
        large += bool(big)
    return large


def grade(folder: Path, jobs: int, sandbox: str = "auto") -> tuple[float, float, float]:
    """(wall seconds, grader peak MB, largest worker peak MB) of one `python -m packer.grading` run."""
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "packer.grading",
                str(folder),
                "--out",
                str(Path(out) / "grades"),
                "--jobs",
                str(jobs),
                "--sandbox",
                sandbox,
            ],
            check=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        seconds = time.perf_counter() - started
    grader, worker = map(float, re.search(r"grader (\d+) MB, largest worker (\d+) MB", run.stdout).groups())
    return seconds, grader, worker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--large-every", type=int, default=10, help="every n-th submission carries large output")
    parser.add_argument("--megabytes", type=float, default=20, help="saved output in a large submission")
    args = parser.parse_args()
    print(f"--jobs {args.jobs}; every {args.large_every}th submission carries ~{args.megabytes:g} MB of saved output")
    print(
        f"{'submissions':>11} {'large':>6} {'class MB':>9} {'wall s':>8} {'subs/s':>7} {'grader MB':>10} "
        f"{'worker MB':>10}",
        flush=True,
    )
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch) / "class"
            large = make_class(folder, size, args.large_every, args.megabytes)
            megabytes = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
            seconds, grader, worker = grade(folder, args.jobs)
        print(
            f"{size:>11} {large:>6} {megabytes:>9.0f} {seconds:>8.1f} {size / seconds:>7.2f} {grader:>10.0f} "
            f"{worker:>10.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
