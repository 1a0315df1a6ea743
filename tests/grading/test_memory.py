"""The grader's memory is bounded by --jobs, not by the class: a class of notebooks carrying large saved
figures is streamed to the workers one notebook at a time, with the saved outputs dropped before a kernel
sees them. (Throughput at 100 to 5,000 submissions is measured by tests/benchmarks/bench_grade.py.)"""

from __future__ import annotations

import re

import nbformat

from grader_cli import grade_cli
from packer.grading.demo_class import KINDS, with_saved_figures

MEGABYTES = 20  # saved output per notebook
LEARNERS = 6  # 120 MB of notebooks: more than the bound below leaves room for
GRADER_BOUND_MB = 160  # the grader process's peak, whatever the class size (about 105 MB of it is imports)
WORKER_BOUND_MB = 250  # one worker's peak: its imports plus the one notebook it reads at a time


def test_grading_large_notebooks_keeps_the_graders_memory_under_a_bound_set_by_jobs_not_class_size(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for number in range(LEARNERS):
        notebook = with_saved_figures(KINDS["no-functions"][1](), MEGABYTES, seed=number)
        (folder / f"learner{number}.ipynb").write_text(nbformat.writes(notebook))
    assert sum(p.stat().st_size for p in folder.iterdir()) > LEARNERS * MEGABYTES * 0.95e6
    run = grade_cli(str(folder), "--out", str(tmp_path / "grades"), "--jobs", "2")
    assert run.returncode == 0, run.stderr
    grader, worker = map(float, re.search(r"grader (\d+) MB, largest worker (\d+) MB", run.stdout).groups())
    assert grader < GRADER_BOUND_MB, run.stdout
    assert worker < WORKER_BOUND_MB, run.stdout
    assert run.stdout.startswith(f"graded {LEARNERS} submissions")
