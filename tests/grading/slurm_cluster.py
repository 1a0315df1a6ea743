"""A real single-node Slurm cluster in a temporary folder, for testing the grader's job scripts.

Debian's slurm-wlm and munge (`make system-deps` installs them; the tests that need them are marked
`needs("slurm")`, tests/system_parts.py): munged with a key of its own, slurmctld and slurmd
on ports of their own on 127.0.0.1, every file (configuration, state, spool, logs, pid files, the munge
socket) under one folder, so nothing of the machine's own Slurm or munge is read or touched. Each daemon runs
in the foreground as a child of the test and is stopped by its pid.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _command(name: str) -> str:
    return shutil.which(name) or name


class Cluster:
    """munged, slurmctld and slurmd, started in `folder`; `env` is what the Slurm commands need."""

    def __init__(self, folder: Path, cpus: int = 2, memory_mb: int = 8192) -> None:
        self.folder = folder
        self.daemons: dict[str, subprocess.Popen] = {}
        for sub in ("munge", "state", "spool", "log"):
            (folder / sub).mkdir(parents=True)
        (folder / "munge").chmod(0o700)
        key = folder / "munge" / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o600)
        self.socket = folder / "munge" / "munge.socket"
        node = socket.gethostname().split(".")[0]
        self.conf = folder / "slurm.conf"
        self.conf.write_text(
            "\n".join(
                [
                    "ClusterName=workbook-test",
                    f"SlurmctldHost={node}(127.0.0.1)",
                    f"SlurmctldPort={free_port()}",
                    f"SlurmdPort={free_port()}",
                    "SlurmUser=root",
                    "SlurmdUser=root",
                    "AuthType=auth/munge",
                    f"AuthInfo=socket={self.socket}",
                    "CredType=cred/munge",
                    f"StateSaveLocation={folder / 'state'}",
                    f"SlurmdSpoolDir={folder / 'spool'}",
                    f"SlurmctldPidFile={folder / 'slurmctld.pid'}",
                    f"SlurmdPidFile={folder / 'slurmd.pid'}",
                    f"SlurmctldLogFile={folder / 'log' / 'slurmctld.log'}",
                    f"SlurmdLogFile={folder / 'log' / 'slurmd.log'}",
                    "ProctrackType=proctrack/linuxproc",  # no cgroups: none are delegated to a test
                    "TaskPlugin=task/none",
                    "JobAcctGatherType=jobacct_gather/none",
                    "AccountingStorageType=accounting_storage/none",
                    "JobCompType=jobcomp/none",
                    "MpiDefault=none",
                    "SchedulerType=sched/builtin",
                    "SelectType=select/cons_tres",
                    "SelectTypeParameters=CR_Core_Memory",
                    "ReturnToService=2",
                    "KillWait=10",  # SIGTERM, then SIGKILL 10 s later (30 by default)
                    "MinJobAge=600",  # finished jobs stay visible to scontrol for the test to read
                    f"NodeName={node} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={memory_mb} State=UNKNOWN",
                    f"PartitionName=class Nodes={node} Default=YES MaxTime=INFINITE State=UP",
                    "",
                ]
            )
        )
        self.env = {**os.environ, "SLURM_CONF": str(self.conf)}

    def start(self, timeout: float = 60) -> None:
        """Start the three daemons and wait until the node is idle; a RuntimeError with their logs if not."""
        munge = self.folder / "munge"
        self._run(
            "munged",
            "--foreground",
            "--force",  # as root, and with the key in a folder of the test's
            f"--socket={self.socket}",
            f"--key-file={munge / 'munge.key'}",
            f"--pid-file={munge / 'munged.pid'}",
            f"--seed-file={munge / 'munged.seed'}",
            f"--log-file={self.folder / 'log' / 'munged.log'}",
        )
        self._wait(lambda: self.socket.exists(), timeout, "munged made no socket")
        self._run("slurmctld", "-D", "-i", "-f", str(self.conf))
        self._run("slurmd", "-D", "-f", str(self.conf))
        self._wait(lambda: self.slurm("sinfo", "-h", "-o", "%t").strip() == "idle", timeout, "the node is not idle")

    def _run(self, name: str, *args: str) -> None:
        log = (self.folder / "log" / f"{name}.out").open("wb")
        self.daemons[name] = subprocess.Popen(
            [_command(name), *args], env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def _wait(self, ready, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            for name, daemon in self.daemons.items():
                if daemon.poll() is not None:
                    raise RuntimeError(f"{name} exited with {daemon.returncode}:\n{self.logs()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} after {timeout} s:\n{self.logs()}")
            time.sleep(0.2)

    def logs(self) -> str:
        """The tail of every daemon's log, for a failure message."""
        return "\n".join(
            f"--- {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:])
            for log in sorted((self.folder / "log").iterdir())
        )

    def slurm(self, *command: str, cwd: Path | None = None) -> str:
        """Run a Slurm command against this cluster; its standard output (a CalledProcessError if it fails)."""
        done = subprocess.run(command, env=self.env, cwd=cwd, capture_output=True, text=True, timeout=60, check=False)
        if done.returncode:
            raise subprocess.CalledProcessError(done.returncode, command, done.stdout, done.stderr)
        return done.stdout

    def state(self, job: str) -> str:
        """A job's state as scontrol shows it (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ...)."""
        for field in self.slurm("scontrol", "show", "job", "-o", job).split():
            if field.startswith("JobState="):
                return field.split("=", 1)[1]
        raise RuntimeError(f"scontrol shows no state for job {job}")

    def wait_done(self, timeout: float) -> None:
        """Wait until the queue is empty (every job finished, failed or was cancelled)."""
        self._wait(
            lambda: not self.slurm("squeue", "-h").strip(), timeout, f"jobs still queued:\n{self.slurm('squeue')}"
        )

    def stop(self) -> None:
        """Cancel every job, then stop each daemon by its pid (SIGTERM, then SIGKILL after 10 s)."""
        if self.daemons.get("slurmctld") and self.daemons["slurmctld"].poll() is None:
            subprocess.run(["scancel", "--full", "--user=root"], env=self.env, capture_output=True, timeout=30)
            with contextlib.suppress(RuntimeError):  # stop the daemons anyway; leftovers() tells what is left
                self.wait_done(30)
        for name in ("slurmd", "slurmctld", "munged"):
            daemon = self.daemons.get(name)
            if daemon is None or daemon.poll() is not None:
                continue
            daemon.send_signal(signal.SIGTERM)
            try:
                daemon.wait(10)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait(10)

    def running(self) -> list[int]:
        """Pids of the daemons started here that are still running."""
        return [d.pid for d in self.daemons.values() if d.poll() is None]

    def leftovers(self) -> list[str]:
        """Processes still running with this cluster's SLURM_CONF in their environment (daemons, job steps and
        what the jobs started), as 'pid command'."""
        mark = f"SLURM_CONF={self.conf}".encode()
        found = []
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                if mark in (proc / "environ").read_bytes().split(b"\0"):
                    command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                    found.append(f"{proc.name} {command}")
            except OSError:  # gone, or not ours to read
                continue
        return found
