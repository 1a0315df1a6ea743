"""Grading a class `--jobs` at a time, streaming: each worker is handed the next submission when it is free.

The grader process holds only the list of submissions found and each finished row; a worker reads, hashes
and parses one notebook at a time (saved outputs dropped), so memory is bounded by the number of jobs, not
by the class. Workers talk to the grader over one pipe each (no queue threads that could hang at exit),
start their next kernel while the current notebook runs, and on SIGTERM kill their kernels' process trees
and exit at once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import multiprocessing.resource_tracker
import os
import resource
import signal
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from packer.grading.kernels import (
    KERNEL_TOKEN,
    RUN_TOKEN,
    become_subreaper,
    kill_processes,
    start_kernel,
    stop_kernel,
    tokened,
    tree,
)
from packer.grading.outcome import Outcome
from packer.grading.running import Options, error_outcome, grade_submission
from packer.grading.submissions import Submission
import contextlib


def peak_memory_mb() -> float:
    """This process's peak resident memory so far, in MB. On Linux from /proc (getrusage's figure also
    counts the parent this process was forked from before it started Python)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


# --- the worker side ---------------------------------------------------------------------------------------
def _worker(conn: Any, options: Options, slot: int) -> None:
    """Grade each submission the grader sends until it sends None; reply with the row (and peak memory)."""
    signal.signal(signal.SIGINT, lambda *_: None)  # Ctrl-C is the grader's to handle; it will SIGTERM us
    # Born while the grader held SIGINT blocked (see _interrupts_held). Without this unblock, half the
    # uncontained kernels' looping checks could no longer be interrupted (measured: 2 of 4 rows lost the
    # questions after such a check; with it, 12 of 12 kept them).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGTERM, _die)
    become_subreaper()
    asyncio.run(_worker_loop(conn, options, slot))


def _die(*_: Any) -> None:
    """Stop now: kill every kernel this worker started (and what they started), then exit."""
    me = os.getpid()
    kill_processes({p for child in tree(me) if child.pid != me for p in tree(child.pid)})
    os._exit(143)


async def _worker_loop(conn: Any, options: Options, slot: int) -> None:
    loop = asyncio.get_running_loop()
    warm: asyncio.Task | None = None
    started = 0
    recorded: dict = {}  # the questions' recorded generated inputs, as the grader hands them over

    def start() -> asyncio.Task:
        # Two kernels per worker can be alive at once (the current one and the next, warming up): give
        # each of the two its own contained user, so one kernel's processes never count against another's.
        nonlocal started
        started += 1
        return asyncio.create_task(
            start_kernel(options.run_dir, options.run_token, options.limits, 2 * slot + started % 2)
        )

    async def take_kernel():
        # A kernel that fails to start has run nothing of the submission's: one fresh start is tried before
        # the row is lost to a grader error (a machine busy enough to starve one start seldom starves two).
        nonlocal warm
        if warm is None:
            warm = start()
        current, warm = warm, None
        try:
            kernel = await current
        except Exception:
            kernel = await start()
        finally:
            warm = start()
        return kernel

    readable = asyncio.Event()
    loop.add_reader(conn.fileno(), readable.set)
    try:
        while True:
            while not conn.poll():
                readable.clear()
                await readable.wait()
            submission = conn.recv()
            if submission is None:
                break
            if isinstance(submission, tuple) and submission[0] == SHARED:
                recorded = submission[1]
                continue
            try:
                outcome = await grade_submission(submission, options, take_kernel, recorded)
            except Exception as error:  # never lose the row, whatever went wrong
                outcome = error_outcome(submission, error)
            conn.send((outcome.as_dict(), peak_memory_mb()))
    finally:
        loop.remove_reader(conn.fileno())
        if warm is not None:
            with contextlib.suppress(Exception):
                await stop_kernel(await warm)


# --- the grader side ---------------------------------------------------------------------------------------
@contextlib.contextmanager
def _interrupts_held():
    """Hold Ctrl-C back while a worker is born, without losing it. The new process must be born ignoring
    SIGINT (a disposition it inherits; it then ignores it for good, so it never prints a traceback), so the
    grader ignores it for that moment too, with SIGINT blocked: a blocked signal is never discarded as
    ignored but kept pending, and is raised here as KeyboardInterrupt once the handler is back. The grader
    runs no other thread (tqdm's monitor is off), which could otherwise take the signal and drop it.
    Main thread only; elsewhere it holds nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # one held back is raised now


RECYCLE_AFTER = 100  # submissions a worker grades before a fresh one takes over (what it leaks, it takes along)
SHARED = "recorded inputs"  # the message that hands a worker the questions' recorded generated inputs


@dataclass
class Worker:
    process: Any
    conn: Any
    busy: Submission | None = None
    graded: int = 0


class Pool:
    """`jobs` worker processes, each handed one submission at a time."""

    def __init__(self, jobs: int, options: Options):
        self.jobs = jobs
        self.options = options
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[Worker] = []
        self.retired: list[Worker] = []
        self.worker_peak_mb = 0.0
        self.recorded: dict = {}

    def start(self) -> None:
        """Start the workers (each one registered at once, so close() stops whichever started)."""
        # Spawning the first worker would start multiprocessing's resource tracker, and starting it unblocks
        # SIGINT (bpo-33613's mask, undone with SIG_UNBLOCK rather than restored): inside _interrupts_held,
        # where SIGINT is ignored, a Ctrl-C held back was then dropped and grading went on to the end. Started
        # here, before anything is held, a Ctrl-C meanwhile is an ordinary KeyboardInterrupt.
        multiprocessing.resource_tracker.ensure_running()
        for slot in range(self.jobs):
            self._start(slot)

    def _start(self, slot: int) -> Worker:
        """Start the worker for `slot`; a Ctrl-C that comes meanwhile is raised once it is registered."""
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(child, self.options, slot), daemon=True)
        with _interrupts_held():
            process.start()
            child.close()
            worker = Worker(process, parent)
            if slot < len(self.workers):
                self.workers[slot] = worker
            else:
                self.workers.append(worker)
        if self.recorded:
            worker.conn.send((SHARED, self.recorded))
        return worker

    def share(self, recorded: dict) -> None:
        """Hand every worker, and every worker started later, the questions' recorded generated inputs
        (packer.checking.replay); each writes them for its kernels, so no kernel generates them again."""
        self.recorded = recorded
        for worker in self.workers if recorded else []:
            worker.conn.send((SHARED, recorded))

    def grade(
        self, submissions: Iterable[Submission], on_outcome: Callable[[Outcome], None], at_once: int | None = None
    ) -> None:
        """Grade every submission, calling on_outcome with each row as it comes; `at_once` workers at most."""
        todo = iter(submissions)
        for worker in self.workers[:at_once]:
            self._hand_out(worker, todo)
        while any(w.busy for w in self.workers):
            busy = [w for w in self.workers if w.busy]
            ready = multiprocessing.connection.wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
            for worker in busy:
                if worker.conn in ready or worker.process.sentinel in ready:
                    on_outcome(self._receive(worker))
                    worker.graded += 1
                    if worker.graded >= RECYCLE_AFTER and worker.process.is_alive():
                        self._retire(worker)
                    if not worker.process.is_alive() or worker in self.retired:
                        slot = self.workers.index(worker)  # the new worker's kernels keep the slot's user ids
                        worker = self._start(slot)
                    self._hand_out(worker, todo)

    def _retire(self, worker: Worker) -> None:
        """Let a worker stop its warm kernel and exit, and wait for that: its successor's kernels take the
        same slot's user ids, whose process limit must not count a kernel of the old worker."""
        with contextlib.suppress(OSError):
            worker.conn.send(None)
        worker.process.join(10)
        if worker.process.is_alive():  # SIGTERM: it kills its kernels' process trees and exits at once
            worker.process.terminate()
            worker.process.join(3)
        self.retired.append(worker)

    def _hand_out(self, worker: Worker, todo: Any) -> None:
        worker.busy = next(todo, None)
        if worker.busy is not None:
            worker.conn.send(worker.busy)

    def _receive(self, worker: Worker) -> Outcome:
        submission, worker.busy = worker.busy, None
        try:
            row, peak = worker.conn.recv()
            self.worker_peak_mb = max(self.worker_peak_mb, peak)
            return Outcome(**row)
        except (EOFError, OSError):  # the worker process itself died (killed, out of memory)
            worker.process.join(1)
            return error_outcome(
                submission,
                RuntimeError(
                    f"the grading worker exited (exit code {worker.process.exitcode}) while grading this submission"
                ),
            )

    def close(self, interrupted: bool = False) -> None:
        """Stop every worker: ask nicely after a normal run, SIGTERM at once after an interrupt; then make
        sure nothing of this run is left running."""
        for worker in self.workers:
            if not interrupted and worker.process.is_alive():
                with contextlib.suppress(OSError):
                    worker.conn.send(None)
        for worker in self.retired + self.workers:
            if interrupted:
                worker.process.terminate()
            worker.process.join(3 if interrupted else 30)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(3)
            worker.conn.close()
        kill_processes(tokened(RUN_TOKEN, self.options.run_token))


__all__ = ["Pool", "peak_memory_mb", "KERNEL_TOKEN"]
