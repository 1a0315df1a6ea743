"""Measure the grader on generated classes: wall time, submissions per second and peak memory, by class size.

Run with `make bench-grade` (not part of the test suite), or e.g.
`python tests/benchmarks/bench_grade.py --sizes 100 1000 5000` and `--sizes 60 --large-every 1` (60
notebooks that each carry ~20 MB of saved figures). Each class mixes the demo class's lesson-01
submissions (correct, wrong, half-done, untouched, hostile; no runaway loops, which cost their time limit
by design) with every `--large-every`-th one carrying `--megabytes` of saved PNG output. Classes are written
to a temporary folder (identical files are hard links, so 5,000 submissions fit on a small disk) and
removed afterwards. Peak memory is what the grader reports for its own process and its largest worker
(kernels excluded: each runs one notebook and ends).

Beside each class, in the same run, it measures the floor of any notebook grader that starts a fresh
kernel per submission: nbclient starting a kernel and running one cell (`print('hello')`) in it. "floor 1"
runs one notebook at a time (the time one such run takes, over half of `--floor-notebooks`), "floor N"
runs `--jobs` at a time in as many processes (wall time per notebook, over `--floor-notebooks`; both at
most the class size). "s/sub" is the grader's wall time per submission, start-up of the whole command
included; the two ratios divide it by each floor.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
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


def grade(folder: Path, jobs: int, sandbox: str = "on") -> tuple[float, float, float]:
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


FLOOR_CELL = "print('hello')"


def _quiet() -> None:
    """A floor process's kernels inherit its stderr: keep their start-up warnings off the table."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)


def _one_cell(path: str) -> None:
    """Run a one-cell notebook in a fresh kernel with nbclient, as the simplest grader would."""
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook, kernel_name="python3", timeout=60, resources={"metadata": {"path": str(Path(path).parent)}}
    ).execute()


def kernel_floor(notebooks: int, jobs: int) -> float:
    """Wall seconds per notebook for nbclient to start a kernel and run one cell, `jobs` notebooks at a time."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "one-cell.ipynb"
        kernelspec = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
        nbformat.write(
            nbformat.v4.new_notebook(
                cells=[nbformat.v4.new_code_cell(FLOOR_CELL)], metadata={"kernelspec": kernelspec}
            ),
            path,
        )
        started = time.perf_counter()
        with ProcessPoolExecutor(jobs, initializer=_quiet) as pool:
            list(pool.map(_one_cell, [str(path)] * notebooks))
        return (time.perf_counter() - started) / notebooks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--large-every", type=int, default=10, help="every n-th submission carries large output")
    parser.add_argument("--megabytes", type=float, default=20, help="saved output in a large submission")
    parser.add_argument("--floor-notebooks", type=int, default=100, help="one-cell notebooks timed for the floor")
    parser.add_argument("--sandbox", default="on", help="the grader's --sandbox (the floor is never contained)")
    args = parser.parse_args()
    print(
        f"--jobs {args.jobs} (N), --sandbox {args.sandbox}; every {args.large_every}th submission carries "
        f"~{args.megabytes:g} MB of saved output; floor: nbclient, a kernel and one cell per notebook"
    )
    print(
        f"{'submissions':>11} {'large':>6} {'class MB':>9} {'wall s':>8} {'subs/s':>7} {'s/sub':>6} "
        f"{'floor 1 s':>9} {'floor N s':>9} {'/floor 1':>8} {'/floor N':>8} {'grader MB':>10} {'worker MB':>10}",
        flush=True,
    )
    for size in args.sizes:
        serial = kernel_floor(min(size, max(1, args.floor_notebooks // 2)), 1)
        floor = kernel_floor(min(size, args.floor_notebooks), args.jobs)
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch) / "class"
            large = make_class(folder, size, args.large_every, args.megabytes)
            megabytes = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
            seconds, grader, worker = grade(folder, args.jobs, args.sandbox)
        print(
            f"{size:>11} {large:>6} {megabytes:>9.0f} {seconds:>8.1f} {size / seconds:>7.2f} {seconds / size:>6.2f} "
            f"{serial:>9.2f} {floor:>9.2f} {seconds / size / serial:>7.2f}x {seconds / size / floor:>7.2f}x "
            f"{grader:>10.0f} {worker:>10.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
