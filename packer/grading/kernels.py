"""Starting and stopping the kernels submissions run in: the one place to wrap them (e.g. in a container).

Every kernel gets its own empty working folder and connection file inside the grading run's temporary
folder, and carries a token in its environment. Stopping a kernel kills its whole process tree: its
children, anything it detached (a new session, a double fork), found by that token, and the folder.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

RUN_TOKEN = "WORKBOOK_GRADE_RUN"  # the grading run a process belongs to
KERNEL_TOKEN = "WORKBOOK_GRADE_KERNEL"  # the kernel a process belongs to
PR_SET_CHILD_SUBREAPER = 36
# Run in each kernel before the notebook: import the workbook (so its time is not the notebook's), and make
# exit()/quit() stop only the cell they are in (a SystemExit the notes report) rather than end the kernel
# at some moment after the cell, which graded the same notebook 3/10 one run and 0/10 the next.
PRELUDE = (
    "import packer, packer.checking, packer.checking.bank\n"
    "get_ipython().ask_exit = lambda: (_ for _ in ()).throw(SystemExit("
    "'exit() ends the kernel; while grading it stops only this cell'))"
)


@dataclass
class Kernel:
    """A started kernel, the client talking to it, and its working folder."""

    km: Any
    kc: Any
    cwd: str
    token: str
    pid: int


def become_subreaper() -> None:
    """Make processes orphaned below this one its children (Linux), so none can slip away unseen."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the environment tokens still find them
        pass


async def start_kernel(run_dir: str, run_token: str) -> Kernel:
    """Start a fresh kernel in a new empty folder under `run_dir`, stdin refused, the workbook imported."""
    from jupyter_client.manager import AsyncKernelManager

    token = uuid.uuid4().hex
    cwd = os.path.join(run_dir, "kernels", token)
    os.makedirs(cwd)
    env = {
        **os.environ,
        "PACKER_CHECKS_DEFERRED": "1",
        "PYTHONHASHSEED": "0",
        "MPLBACKEND": "Agg",
        "HYPOTHESIS_STORAGE_DIRECTORY": os.path.join(run_dir, "hypothesis"),
        RUN_TOKEN: run_token,
        KERNEL_TOKEN: token,
    }
    km = AsyncKernelManager(
        kernel_name="python3", connection_file=os.path.join(run_dir, "connections", f"kernel-{token}.json")
    )
    os.makedirs(os.path.dirname(km.connection_file), exist_ok=True)
    kernel = Kernel(km, None, cwd, token, 0)
    try:
        await km.start_kernel(
            cwd=cwd,
            env=env,
            extra_arguments=["--HistoryManager.enabled=False"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        kernel.pid = km.provisioner.process.pid
        kernel.kc = km.client()
        kernel.kc.start_channels(stdin=False)
        kernel.kc.allow_stdin = False  # input() fails at once instead of waiting for an answer
        await kernel.kc.wait_for_ready(timeout=60)
        kernel.kc.execute(PRELUDE, silent=True, store_history=False)
    except BaseException:
        await stop_kernel(kernel)
        raise
    return kernel


async def stop_kernel(kernel: Kernel) -> None:
    """Kill the kernel and everything it started, then remove its connection file and folder."""
    try:
        if kernel.kc is not None:
            kernel.kc.stop_channels()
        kill_processes(tree(kernel.pid) | tokened(KERNEL_TOKEN, kernel.token))
        try:
            await kernel.km.shutdown_kernel(now=True)
        except Exception:
            kernel.km.cleanup_resources()
    finally:
        shutil.rmtree(kernel.cwd, ignore_errors=True)
        Path(kernel.km.connection_file).unlink(missing_ok=True)
        reap_orphans()


def tree(pid: int) -> set[psutil.Process]:
    """The process and all its descendants (empty when it is gone)."""
    if not pid:
        return set()
    try:
        root = psutil.Process(pid)
        return {root, *root.children(recursive=True)}
    except psutil.Error:
        return set()


def tokened(variable: str, value: str) -> set[psutil.Process]:
    """Every process whose environment carries variable=value (however it detached), with its descendants."""
    found: set[psutil.Process] = set()
    me = os.getpid()
    for process in psutil.process_iter():
        if process.pid == me:
            continue
        try:
            if process.environ().get(variable) == value:
                found |= tree(process.pid) or {process}
        except psutil.Error:
            continue
    return found


def kill_processes(processes: set[psutil.Process]) -> None:
    """SIGKILL each process (stopped first, so none can start another meanwhile)."""
    for process in processes:
        try:
            process.send_signal(signal.SIGSTOP)
        except psutil.Error:
            pass
    for process in processes:
        try:
            process.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(list(processes), timeout=3)


def reap_orphans() -> None:
    """Kill and reap children of this process that are not kernels: orphans handed to it as a subreaper,
    even ones that cleared their environment to hide."""
    for child in psutil.Process().children():
        try:
            if child.status() == psutil.STATUS_ZOMBIE or not child.environ().get(KERNEL_TOKEN):
                child.kill()
                os.waitpid(child.pid, 0)
        except (psutil.Error, ChildProcessError, OSError):
            pass
