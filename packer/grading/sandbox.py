"""Contain a submission's kernel: bubblewrap namespaces plus per-kernel resource limits (Linux).

A contained kernel runs under `bwrap` (Debian's `bubblewrap`) with:
- no network (its own network namespace; the grader talks to it over ZMQ's `ipc` transport, Unix sockets
  in a runtime folder both sides see, because loopback TCP does not cross the namespace);
- a read-only view of the system (/usr, /etc) and of the Python environment, of the grader's own
  `packer` package, and of the run's search cache (Hypothesis's Unicode tables, computed once by the
  grader so no kernel spends half a second of its own on them, and so no kernel can change what the
  next one's search sees); nothing else of the host's file system: not the
  instructor's home, not other submissions, not the gradebook;
- a private /tmp and /dev/shm, its own process ids, and one writable working folder for this submission;
- resource limits set with setrlimit through `prlimit` (util-linux): address space, processes, file size
  and CPU time. When the grader runs as root, each job slot's kernel also runs as a user id of its own
  (61000 + slot), so the process limit counts that kernel's processes only (RLIMIT_NPROC counts per user
  and does not apply to root).

`probe()` says why containment is not available here (None when it is), trying the same namespaces a
kernel would get; the grader then refuses to grade (`--sandbox on`, the default) unless told to grade
uncontained on purpose (`--sandbox off`). `INSTALL` says how to get bubblewrap.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SLOT_UID_BASE = 61000  # kernel user ids when the grader runs as root: one per job slot


@dataclass(frozen=True)
class Limits:
    """Per-kernel resource limits (bytes, processes, seconds)."""

    memory: int = 2 << 30
    processes: int = 64
    file_size: int = 100 << 20
    cpu_seconds: int = 600

    def __post_init__(self) -> None:
        for name in ("memory", "processes", "file_size", "cpu_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"{name}: expected a positive integer, got {value!r}")

    def describe(self) -> str:
        """The limits as a gradebook records them."""
        return (
            f"memory {self.memory >> 20} MiB, processes {self.processes}, "
            f"file size {self.file_size >> 20} MiB, CPU {self.cpu_seconds} s"
        )


# How to get bubblewrap, for a refusal (Debian and Ubuntu; `make system-deps` installs it with the rest of what the
# tests use beyond Python).
INSTALL = "sudo apt-get install bubblewrap (Debian, Ubuntu), or make system-deps in the workbook's folder"


def _tool(name: str) -> str | None:
    return shutil.which(name)


def _namespaces(uid: int | None) -> list[str]:
    """bwrap's namespace options for a kernel: as root no user namespace is needed (setpriv drops to the slot's
    own user inside); otherwise bwrap makes one, and the kernel keeps the caller's id."""
    if uid is None:
        return ["--unshare-all"]
    return ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]


def probe() -> str | None:
    """None when a contained process can start here, else the reason it cannot (the kernel's own, when bwrap
    runs but may not make the namespaces a kernel gets)."""
    if not sys.platform.startswith("linux"):
        return f"containment needs Linux (bubblewrap); this is {sys.platform}"
    for name, package in (("bwrap", "bubblewrap"), ("prlimit", "util-linux")):
        if _tool(name) is None:
            return f"{name} not found on PATH (Debian's {package} package)"
    try:
        run = subprocess.run(
            [
                _tool("bwrap"),
                *_namespaces(kernel_uid(0)),
                "--die-with-parent",
                "--ro-bind",
                "/",
                "/",
                "--proc",
                "/proc",
                "--dev",
                "/dev",
                "true",
            ],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap could not start: {error}"
    if run.returncode != 0:
        return f"bwrap cannot create namespaces here: {run.stderr.strip() or run.returncode}"
    return None


def _readable_paths(package_dir: Path, shared: Path | None = None) -> list[str]:
    """What a kernel may read: the system, the Python environment, the grader's packer package (and the
    run's shared read-only folder, when there is one)."""
    paths = ["/usr", "/etc", "/opt", sys.base_prefix, sys.prefix, str(package_dir), *([str(shared)] if shared else [])]
    seen: list[str] = []
    for path in paths:
        real = os.path.realpath(path)
        if os.path.isdir(real) and real not in seen and not any(real.startswith(p + os.sep) for p in seen):
            seen.append(real)
    return seen


def _ancestors(paths: list[str]) -> list[str]:
    """The folders above each path, parents first (without / itself)."""
    found: set[str] = set()
    for path in paths:
        found.update(str(parent) for parent in Path(path).parents if str(parent) != "/")
    return sorted(found, key=lambda folder: (folder.count("/"), folder))


def kernel_uid(slot: int) -> int | None:
    """The user id a slot's kernel runs as: its own when the grader is root, else the grader's (None)."""
    return SLOT_UID_BASE + slot if os.geteuid() == 0 else None


def command_prefix(
    *, workdir: Path, runtime: Path, package_dir: Path, limits: Limits, uid: int | None, shared: Path | None = None
) -> list[str]:
    """The words to put before a kernel's command line to run it contained (`shared`: a folder every
    kernel of the run may read and none may change)."""
    prefix = [
        _tool("prlimit") or "prlimit",
        f"--as={limits.memory}",
        f"--fsize={limits.file_size}",
        f"--cpu={limits.cpu_seconds}",
        "--core=0",
    ]
    if uid is not None:
        prefix += [f"--nproc={limits.processes}"]
    # As root, bwrap mounts with root's rights (it can reach a Python under /root), then setpriv drops to
    # the slot's own user inside; otherwise bwrap makes a user namespace and the kernel keeps the caller's id.
    prefix += ["--", _tool("bwrap") or "bwrap", *_namespaces(uid), "--die-with-parent", "--new-session"]
    # The private /tmp and /dev come first: a repository (and its .venv) checked out under /tmp is then
    # bound on top of the private /tmp rather than hidden by it.
    prefix += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/tmp"]
    prefix += ["--perms", "1777", "--tmpfs", "/dev/shm"]
    readable = _readable_paths(package_dir, shared)
    mounted = {"/tmp", "/dev", "/dev/shm", "/proc"}
    for folder in _ancestors([*readable, str(runtime), str(workdir)]):  # bwrap would make them 0700
        if folder not in mounted:
            prefix += ["--perms", "0755", "--dir", folder]
    for path in readable:
        prefix += ["--ro-bind", path, path]
    for name in ("bin", "sbin", "lib", "lib64"):  # merged-/usr symlinks, where the host has them
        if os.path.islink(f"/{name}"):
            prefix += ["--symlink", os.readlink(f"/{name}"), f"/{name}"]
    prefix += [
        "--bind",
        str(runtime),
        str(runtime),
        "--bind",
        str(workdir),
        str(workdir),
        "--chdir",
        str(workdir),
        "--setenv",
        "HOME",
        str(workdir),
        "--setenv",
        "TMPDIR",
        "/tmp",
        # What IPython, matplotlib and other tools keep under HOME goes to the private /tmp instead, so the
        # kernel's own housekeeping never reads in the gradebook as files the notebook wrote.
        "--setenv",
        "IPYTHONDIR",
        "/tmp/ipython",
        "--setenv",
        "MPLCONFIGDIR",
        "/tmp/matplotlib",
        "--setenv",
        "XDG_CACHE_HOME",
        "/tmp/cache",
        "--setenv",
        "XDG_CONFIG_HOME",
        "/tmp/config",
        "--setenv",
        "JPY_PARENT_PID",
        "1",  # in its own pid namespace the parent's pid means nothing
        "--",
    ]
    if uid is not None:
        prefix += [
            _tool("setpriv") or "setpriv",
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--no-new-privs",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--",
        ]
    return prefix


def hand_over(path: Path, uid: int | None) -> None:
    """Let a slot's kernel user own a folder the grader made for it (no-op when not switching users)."""
    if uid is not None:
        os.chown(path, uid, uid)


def contained_kernel_manager(
    *,
    workdir: Path,
    runtime: Path,
    package_dir: Path,
    limits: Limits,
    uid: int | None,
    shared: Path | None = None,
    **kwargs: object,
):
    """An AsyncKernelManager (ipc transport, sockets in `runtime`) whose kernel starts contained."""
    from jupyter_client.manager import AsyncKernelManager

    prefix = command_prefix(
        workdir=workdir, runtime=runtime, package_dir=package_dir, limits=limits, uid=uid, shared=shared
    )

    class ContainedKernelManager(AsyncKernelManager):
        def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
            command = super().format_kernel_cmd(extra_arguments)
            if uid is not None and self.connection_file:  # the kernel user must read its connection file
                os.chown(self.connection_file, uid, uid)
            return prefix + command

    manager = ContainedKernelManager(
        transport="ipc", ip=str(runtime / "kernel"), connection_file=str(runtime / "connection.json"), **kwargs
    )
    # A SIGINT would reach bwrap, not the kernel (and end both): interrupt with a message on the control
    # channel instead, which ipykernel turns into a SIGINT to itself inside the sandbox.
    manager.kernel_spec.interrupt_mode = "message"
    return manager
