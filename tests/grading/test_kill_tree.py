"""Stopping a kernel kills what it started and nothing else: a pid may by now belong to another program (pids
are reused: a test run or a large class wraps them), and that program must never be killed in its place."""

from __future__ import annotations

import subprocess
import sys

import psutil

from packer.grading.kernels import kill_processes, tree


def test_a_process_and_its_children_are_one_tree():
    parent = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys, time; subprocess.Popen(['sleep', '60']); time.sleep(60)"]
    )
    try:
        process = psutil.Process(parent.pid)
        deadline = 100
        while not process.children() and deadline:
            psutil.wait_procs([], timeout=0.05)
            deadline -= 1
        found = tree(process)
        assert process in found and len(found) == 2
        kill_processes(found)
        parent.wait(timeout=10)  # reaped: gone, and its pid free for another program
        assert tree(process) == set()
    finally:
        parent.kill()
        parent.wait()


def test_a_process_taken_before_its_pid_was_reused_is_never_the_new_owner():
    bystander = subprocess.Popen(["sleep", "60"])  # the program that now has the pid
    try:
        stale = psutil.Process(bystander.pid)
        started = stale.create_time()
        stale._create_time = started - 100  # the kernel that had this pid earlier, as psutil remembers it
        stale._ident = (stale.pid, stale._create_time)
        assert tree(stale) == set()
        kill_processes(tree(stale))
        assert bystander.poll() is None  # the bystander lives on
    finally:
        bystander.kill()
        bystander.wait()


def test_stopping_a_kernel_outside_a_grading_worker_leaves_the_callers_other_children_alone():
    """A test run or a notebook that starts and stops a kernel in its own process also runs a browser, a server:
    those children are not orphans to reap (only a grading worker, a subreaper, reaps its children)."""
    import asyncio
    import concurrent.futures
    import shutil

    from packer.grading.kernels import make_run_dir, start_kernel, stop_kernel

    bystander = subprocess.Popen(["sleep", "60"])  # the caller's own child: a browser, say
    run_dir = make_run_dir()
    try:

        async def start_and_stop() -> None:
            kernel = await start_kernel(run_dir, "token")
            await stop_kernel(kernel)

        with concurrent.futures.ThreadPoolExecutor(1) as thread:  # a loop of its own: the browser tests' may run here
            thread.submit(asyncio.run, start_and_stop()).result(timeout=120)
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()
        shutil.rmtree(run_dir, ignore_errors=True)
