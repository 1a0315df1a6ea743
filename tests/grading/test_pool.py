"""The worker pool hands a long-lived worker's slot to a fresh one without the two ever overlapping."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import uuid

import nbformat

from packer.grading import pool as pool_module
from packer.grading.grader import grade_all
from packer.grading.kernels import make_run_dir
from packer.grading.running import Options
from packer.grading.submissions import find_submissions, naming_root
from packer.grading.demo_class import solution


def test_a_recycled_worker_is_gone_before_its_successor_starts_and_no_row_is_lost(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    folder.mkdir()
    for number in range(5):
        nbformat.write(solution(), folder / f"learner{number}-01_assemble_context.ipynb")
    root, top = naming_root([folder])
    submissions, _ = find_submissions([folder], root, top)
    monkeypatch.setattr(pool_module, "RECYCLE_AFTER", 2)
    overlaps, starts = [], []
    real_start = pool_module.Pool._start

    def start(self, slot):
        starts.append(slot)
        overlaps.extend(w.process.pid for w in getattr(self, "retired", []) if w.process.is_alive())
        return real_start(self, slot)

    monkeypatch.setattr(pool_module.Pool, "_start", start)
    run_dir = make_run_dir()  # short enough for the kernels' Unix sockets, which a folder in tmp_path may not be
    options = Options(20, 120, (), "", run_dir, uuid.uuid4().hex, None)
    try:
        outcomes, _ = grade_all(submissions, options, jobs=1)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
    assert starts == [0, 0, 0]  # the first worker, then one after the 2nd and one after the 4th submission
    assert overlaps == []
    assert [o.name.split("/")[-1] for o in outcomes] == [f"learner{n}-01_assemble_context.ipynb" for n in range(5)]
    assert all(o.status == "graded" and o.score == o.max_score for o in outcomes), [o.as_dict() for o in outcomes]


HELD = """
import os, signal, time
from packer.grading.pool import _interrupts_held
signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal starts it, however this test was started
reached = []
try:
    with _interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)  # what a terminal's Ctrl-C does to the grader
        time.sleep(0.05)  # unheld, the handler would have run by now
        reached.append("registered")
except KeyboardInterrupt:
    print("raised after", reached, signal.getsignal(signal.SIGINT) is signal.default_int_handler)
"""


def test_a_ctrl_c_while_a_worker_is_being_born_is_raised_once_it_is_registered_never_lost():
    # In a process of its own, single-threaded like the grader: there a process-wide SIGINT can only reach
    # the thread that holds it back (the test run itself may have other threads).
    run = subprocess.run([sys.executable, "-c", HELD], capture_output=True, text=True, timeout=60)
    assert run.stdout == "raised after ['registered'] True\n", run.stderr


def test_a_process_born_meanwhile_ignores_ctrl_c_from_its_first_instruction():
    show = "print(next(l for l in open('/proc/self/status') if l.startswith('SigIgn')).split()[1])"
    with pool_module._interrupts_held():
        child = subprocess.run([sys.executable, "-c", show], capture_output=True, text=True, check=True)
    assert int(child.stdout, 16) & (1 << (signal.SIGINT - 1))
