"""Starting and stopping the kernels submissions run in: the one place to wrap them (e.g. in a container).

Every kernel gets its own empty working folder and connection file inside the grading run's temporary
folder, and carries a token in its environment. Stopping a kernel kills its whole process tree: its
children, anything it detached (a new session, a double fork), found by that token, and the folder.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from packer.grading import sandbox, warmups
from packer.grading.sandbox import Limits
import contextlib

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # the grader's own packer: the only project code a kernel sees

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


# Run once per grading run, before any kernel: fill the run's search cache (Hypothesis's Unicode tables),
# which every kernel would otherwise build for itself, about half a second each. A contained kernel sees the
# cache read-only (sandbox.command_prefix's `shared`). Then record every question's generated inputs
# (packer.checking.replay) into the file named by argv[1]: they belong to the question alone
# (packer.checking.search), so every kernel's search would draw exactly these, and each kernel replays them
# instead of spending most of its checks' time generating them again.
WARM_UP = (
    "import sys\n"
    "import packer, packer.checking, packer.checking.bank\n"
    "from hypothesis import strategies as st\n"
    "packer.checking.search.search(st.text(), lambda text: True)\n"
    "text = packer.checking.replay.record(packer.checking.BANK.values())\n"
    "open(sys.argv[1], 'w', encoding='utf-8').write(text)\n"
)


SOCKET_PATH_MAX = 107  # bytes in a Unix socket's path (sun_path, Linux): a kernel's ipc sockets


def make_run_dir() -> str:
    """The grading run's temporary folder: under TMPDIR as usual, unless a kernel's socket path
    would be too long there (a deep TMPDIR, as on many batch systems): then under /tmp."""
    run_dir = tempfile.mkdtemp(prefix="workbook-grade-")
    if not _sockets_fit(run_dir):
        os.rmdir(run_dir)
        run_dir = tempfile.mkdtemp(prefix="workbook-grade-", dir="/tmp")
    return run_dir


def _sockets_fit(run_dir: str) -> bool:
    """Whether the longest ipc socket path a kernel of this run binds (see start_kernel) fits a Unix socket."""
    return len(os.fsencode(os.path.join(run_dir, "runtime", "0" * 32, "kernel-99"))) <= SOCKET_PATH_MAX


def search_cache(run_dir: str) -> str:
    """The grading run's Hypothesis storage folder, shared by its kernels."""
    return os.path.join(run_dir, "hypothesis")


def recorded_inputs(run_dir: str) -> str:
    """The warm-up's record of every question's generated inputs (JSON text, read by the grader only)."""
    return os.path.join(run_dir, "generated.json")


def read_recorded_inputs(run_dir: str) -> dict:
    """The recorded generated inputs ({"inputs", "version"}), or {} when the warm-up wrote none."""
    try:
        with open(recorded_inputs(run_dir), encoding="utf-8") as source:
            recorded = json.load(source)
    except (OSError, ValueError):
        return {}
    return recorded if isinstance(recorded, dict) and {"inputs", "version"} <= set(recorded) else {}


def _warm_up_files(run_dir: str) -> dict[str, str]:
    """What a warm-up makes in a run folder, by the name it is kept under between runs (packer.grading.warmups)."""
    return {"hypothesis": search_cache(run_dir), "generated.json": recorded_inputs(run_dir)}


def warm_search_cache(run_dir: str, run_token: str) -> subprocess.Popen | None:
    """Start filling the run's search cache in a process of the grader's own (see WARM_UP); None when a warm-up
    an earlier run of this same grader finished was copied in instead (packer.grading.warmups)."""
    folder = search_cache(run_dir)
    os.makedirs(folder, exist_ok=True)
    if warmups.restore(warmups.key(WARM_UP, PACKAGE_DIR), _warm_up_files(run_dir)):
        _readable_by_every_kernel(folder)
        return None
    path = os.pathsep.join([str(PACKAGE_DIR.parent), *filter(None, [os.environ.get("PYTHONPATH")])])
    env = {
        **os.environ,
        "HYPOTHESIS_STORAGE_DIRECTORY": folder,
        "PYTHONHASHSEED": "0",
        "PYTHONPATH": path,  # the grader's own packer, whose questions the kernels will check
        RUN_TOKEN: run_token,
    }
    return subprocess.Popen(
        [sys.executable, "-c", WARM_UP, recorded_inputs(run_dir)],
        env=env,
        cwd=folder,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def finish_search_cache(process: subprocess.Popen | None, run_dir: str, timeout: float = 120) -> str:
    """Wait for the warm-up and make what it wrote readable by every kernel's user. Returns '' when the
    cache is ready, else why not (kernels then build their own, as they would without it)."""
    if process is None:  # copied from a finished warm-up
        return ""
    try:
        _, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return f"the search cache was not ready after {timeout:g} s"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    _readable_by_every_kernel(search_cache(run_dir))
    if process.returncode:
        last = (stderr.decode(errors="replace").strip().splitlines() or [f"exit status {process.returncode}"])[-1]
        return f"the search cache could not be prepared ({last})"
    warmups.keep(warmups.key(WARM_UP, PACKAGE_DIR), _warm_up_files(run_dir))
    return ""


def _readable_by_every_kernel(cache: str) -> None:
    """Let every kernel's user read the search cache (a contained kernel runs as a user of its own)."""
    for folder, _, files in os.walk(cache):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)


@dataclass
class Kernel:
    """A started kernel, the client talking to it, its working folder, and a folder it can write results to."""

    km: Any
    kc: Any
    cwd: str
    token: str
    pid: int
    results_root: str = ""  # where the grader's own code in the kernel may write (the kernel sees it)
    uid: int | None = None  # the kernel's own user id when contained as root
    runtime: str = ""  # its connection file, ipc sockets and stderr log
    process: Any = None  # psutil.Process taken at start: it knows its start time, so a reused pid is never it


_subreaper = False  # set in a grading worker only: elsewhere this process's children are not ours to reap


def become_subreaper() -> None:
    """Make processes orphaned below this one its children (Linux), so none can slip away unseen. Only a
    grading worker does this: its one job is kernels, so any other child of it is an orphan to reap."""
    global _subreaper
    _subreaper = True
    with contextlib.suppress(OSError, AttributeError):  # not Linux: the environment tokens still find them
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


async def start_kernel(run_dir: str, run_token: str, limits: Limits | None = None, slot: int = 0) -> Kernel:
    """Start a fresh kernel in a new empty folder under `run_dir`, stdin refused, the workbook imported.
    With `limits`, the kernel is contained (packer.grading.sandbox): no network, nothing of the host but
    the system, the environment and its own folder, and these resource limits; `slot` picks its user id."""
    from jupyter_client.manager import AsyncKernelManager

    if not _sockets_fit(run_dir):
        raise ValueError(
            f"run_dir: {run_dir!r} is too deep for a kernel's Unix sockets ({SOCKET_PATH_MAX} bytes at most in "
            "a socket's path); make it with make_run_dir()"
        )
    token = uuid.uuid4().hex
    cwd = os.path.join(run_dir, "kernels", token)
    os.makedirs(cwd)
    env = {
        **os.environ,
        "PACKER_CHECKS_DEFERRED": "1",
        "PYTHONHASHSEED": "0",
        "MPLBACKEND": "Agg",
        "HYPOTHESIS_STORAGE_DIRECTORY": search_cache(run_dir),
        RUN_TOKEN: run_token,
        KERNEL_TOKEN: token,
    }
    # Every kernel, contained or not, talks over Unix sockets in a folder of its own (ZMQ's ipc transport).
    # Over TCP, the kernel manager picks ports that are free, and the kernel binds them a moment later: any
    # process starting meanwhile (another worker's kernel, another grading run) can take one first, a race
    # Jupyter's protocol has (https://github.com/posit-dev/positron/issues/5799 explains it). A socket's
    # path holds this kernel's own token: nothing else takes it. (A kernel that fails to start for any other
    # reason is started again once: see pool._worker_loop.)
    runtime = Path(run_dir, "runtime", token)
    runtime.mkdir(parents=True)
    if limits is None:
        km = AsyncKernelManager(
            kernel_name="python3",
            transport="ipc",
            ip=str(runtime / "kernel"),
            connection_file=str(runtime / "connection.json"),
        )
        kernel = Kernel(km, None, cwd, token, 0, results_root=os.path.join(run_dir, "results"), runtime=str(runtime))
    else:
        uid = sandbox.kernel_uid(slot)
        for folder in (runtime, Path(cwd)):
            sandbox.hand_over(folder, uid)
        for folder in (Path(run_dir), runtime.parent, Path(cwd).parent):  # reachable by the kernel's user
            os.chmod(folder, 0o711)
        shared = Path(search_cache(run_dir))  # read-only inside: no kernel can change what the next one reads
        shared.mkdir(exist_ok=True)
        km = sandbox.contained_kernel_manager(
            workdir=Path(cwd),
            runtime=runtime,
            package_dir=PACKAGE_DIR,
            limits=limits,
            uid=uid,
            shared=shared,
            kernel_name="python3",
        )
        kernel = Kernel(km, None, cwd, token, 0, results_root=str(runtime), uid=uid, runtime=str(runtime))
    log = runtime / "stderr"  # what the kernel process itself prints (not its cells': those go to the client)
    try:
        with open(log, "wb") as stderr:
            await km.start_kernel(
                cwd=cwd,
                env=env,
                extra_arguments=["--HistoryManager.enabled=False"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        kernel.pid = km.provisioner.process.pid
        with contextlib.suppress(psutil.Error):  # gone already: nothing of it to kill by pid
            kernel.process = psutil.Process(kernel.pid)
        kernel.kc = km.client()
        kernel.kc.start_channels(stdin=False)
        kernel.kc.allow_stdin = False  # input() fails at once instead of waiting for an answer
        await kernel.kc.wait_for_ready(timeout=60)
        kernel.kc.execute(PRELUDE, silent=True, store_history=False)
    except Exception as error:
        said = last_line(log)
        await stop_kernel(kernel)
        if said:
            raise RuntimeError(f"{error}; the kernel's last words: {said}") from error
        raise
    except BaseException:
        await stop_kernel(kernel)
        raise
    return kernel


def last_line(path: Path, limit: int = 300) -> str:
    """The last non-blank line of a file (its end only: a file can be long), shortened to `limit` characters."""
    try:
        with open(path, "rb") as file:
            file.seek(max(0, file.seek(0, os.SEEK_END) - 4096))
            lines = file.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return ""
    said = next((line.strip() for line in reversed(lines) if line.strip()), "")
    return said if len(said) <= limit else said[: limit - 1] + "…"


def results_folder(kernel: Kernel) -> str:
    """A new private folder the kernel can write the grader's results to, and nobody else can read."""
    folder = os.path.join(kernel.results_root, os.urandom(8).hex())
    os.makedirs(folder, mode=0o700)
    sandbox.hand_over(Path(folder), kernel.uid)
    return folder


async def stop_kernel(kernel: Kernel) -> None:
    """Kill the kernel and everything it started, then remove its connection file and folder."""
    try:
        if kernel.kc is not None:
            kernel.kc.stop_channels()
        kill_processes(tree(kernel.process) | tokened(KERNEL_TOKEN, kernel.token))
        # Nothing is left to deliver to the dead kernel: shutdown_kernel first sends an interrupt on the control
        # channel (a contained kernel is interrupted by message), and closing that socket would otherwise wait
        # its 100 ms linger for a reader that is gone, on every submission.
        control = getattr(kernel.km, "_control_socket", None)
        if control is not None:
            with contextlib.suppress(Exception):
                control.linger = 0
        try:
            await kernel.km.shutdown_kernel(now=True)
        except Exception:
            kernel.km.cleanup_resources()
    finally:
        shutil.rmtree(kernel.cwd, ignore_errors=True)
        shutil.rmtree(kernel.runtime, ignore_errors=True)
        reap_orphans()


def tree(root: psutil.Process | int | None) -> set[psutil.Process]:
    """The process and all its descendants (empty when it is gone). Give a psutil.Process taken while the process
    ran: a pid alone may by now belong to another program (pids are reused, and a test run or a large class
    wraps them), and that program, a browser or a server, must never be killed in its place."""
    try:
        if isinstance(root, int):
            root = psutil.Process(root) if root else None
        if root is None or not root.is_running():  # is_running compares start times: False for a reused pid
            return set()
        return {root, *root.children(recursive=True)}
    except psutil.Error:
        return set()


def cpu_seconds(kernel: Kernel) -> float:
    """CPU time (user and system) the kernel's process tree has used so far, with what its reaped children used."""
    total = 0.0
    for process in tree(kernel.process):
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
    return total


def run_queue_seconds(kernel: Kernel) -> float | None:
    """Seconds the threads of the kernel's process tree have spent ready to run but waiting for a CPU (the
    second field of Linux's /proc/PID/task/TID/schedstat, in nanoseconds:
    https://docs.kernel.org/scheduler/sched-stats.html); None where the system does not say."""
    total = 0
    found = False
    for process in tree(kernel.process):
        try:
            threads = os.listdir(f"/proc/{process.pid}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                with open(f"/proc/{process.pid}/task/{thread}/schedstat", encoding="ascii") as stats:
                    total += int(stats.read().split()[1])
                found = True
            except (OSError, ValueError, IndexError):
                continue
    return total / 1e9 if found else None


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
        with contextlib.suppress(psutil.Error):
            process.send_signal(signal.SIGSTOP)
    for process in processes:
        with contextlib.suppress(psutil.Error):
            process.kill()
    # Wait until each is gone or a zombie: a killed process whose parent was killed too (a contained
    # kernel inside bwrap) stays a zombie until its new parent reaps it, and it holds nothing meanwhile.
    deadline = time.monotonic() + 3
    pending = list(processes)
    while pending and time.monotonic() < deadline:
        pending = [process for process in pending if _still_running(process)]
        if pending:
            time.sleep(0.01)


def _still_running(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def reap_orphans() -> None:
    """Kill and reap children of this process that are not kernels: orphans handed to it as a subreaper,
    even ones that cleared their environment to hide. Only in a grading worker (become_subreaper): in any other
    process, a test run's or a notebook's, its children (a browser, a server) are its own business."""
    if not _subreaper:
        return
    for child in psutil.Process().children():
        try:
            if child.status() == psutil.STATUS_ZOMBIE or not child.environ().get(KERNEL_TOKEN):
                child.kill()
                os.waitpid(child.pid, 0)
        except (psutil.Error, ChildProcessError, OSError):
            pass
