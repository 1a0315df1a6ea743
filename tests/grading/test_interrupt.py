"""One Ctrl-C stops the grader cleanly: a real SIGINT to a real grading run, as a terminal sends it (to the
whole foreground process group), while notebooks are running in their kernels."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from grader_cli import with_sandbox
from packer.grading.demo_class import write_submission


# The grader as a terminal starts it: with Ctrl-C at its default. A process started in the background by a
# non-interactive shell (`make test &`, nohup) is born ignoring SIGINT, and the grader, like any well-behaved
# program, would then keep ignoring it; these tests must not depend on how the suite itself was started.
# (`--sandbox off` where bubblewrap cannot run: grader_cli.with_sandbox.)
GRADER = [
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    f"os.execv(sys.executable, [sys.executable, '-m', 'packer.grading', *sys.argv[1:], *{with_sandbox([])!r}])",
]


def processes_mentioning(text: str) -> list[psutil.Process]:
    """Live processes whose command line or environment mentions `text`."""
    found = []
    for process in psutil.process_iter():
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                continue
            if text in " ".join(process.cmdline()) or any(text in v for v in process.environ().values()):
                found.append(process)
        except psutil.Error:
            continue
    return found


def test_one_ctrl_c_stops_everything_cleans_up_and_leaves_the_gradebook_as_it_was(tmp_path):
    scratch = tmp_path / "tmp"  # the grader's temporary folder, watched for leftovers
    runtime = tmp_path / "runtime"  # Jupyter's runtime folder, where connection files usually go
    scratch.mkdir()
    runtime.mkdir()
    for number in range(3):
        write_submission(tmp_path / "class", f"learner{number}", "runaway")
    book = tmp_path / "grades"
    book.mkdir()
    (book / "grades.json").write_text(json.dumps({"format": 2, "grader": {"checks_version": "x"}, "submissions": []}))
    (book / "grades.csv").write_text("submission,status\nprevious,graded\n")
    before = {p.name: p.read_bytes() for p in book.iterdir()}
    env = {**os.environ, "TMPDIR": str(scratch), "JUPYTER_RUNTIME_DIR": str(runtime)}
    grader = subprocess.Popen(
        [
            *GRADER,
            str(tmp_path / "class"),
            "--out",
            str(book),
            "--jobs",
            "2",
            "--timeout",
            "60",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while len([p for p in processes_mentioning(str(scratch)) if "ipykernel" in " ".join(p.cmdline())]) < 2:
            assert grader.poll() is None and time.monotonic() < deadline, "the kernels never started"
            time.sleep(0.2)
        time.sleep(3)  # the runaway cells are running now
        os.killpg(grader.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        sent = time.monotonic()
        out, err = grader.communicate(timeout=30)
        seconds = time.monotonic() - sent
    finally:
        if grader.poll() is None:
            os.killpg(grader.pid, signal.SIGKILL)
    assert grader.returncode == 130, err
    assert seconds < 15
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted: every kernel stopped") and "is as it was" in last
    assert sum(line.startswith("interrupted") for line in err.splitlines()) == 1
    assert processes_mentioning(str(scratch)) == []  # no worker, kernel or child of a kernel left running
    assert list(scratch.iterdir()) == [] and list(runtime.iterdir()) == []  # no temp folders, no connection files
    assert {p.name: p.read_bytes() for p in book.iterdir()} == before


@pytest.mark.parametrize("after", [0.5, 1.5, 3.0])
def test_a_ctrl_c_at_any_moment_of_starting_up_stops_cleanly_too(tmp_path, after):
    """While the grader loads, checks its inputs, fills the search cache or starts its workers."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    for number in range(2):
        write_submission(tmp_path / "class", f"learner{number}", "correct")
    book = tmp_path / "grades"
    grader = subprocess.Popen(
        [*GRADER, str(tmp_path / "class"), "--out", str(book), "--jobs", "2"],
        env={**os.environ, "TMPDIR": str(scratch)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        time.sleep(after)
        os.killpg(grader.pid, signal.SIGINT)
        _, err = grader.communicate(timeout=30)
    finally:
        if grader.poll() is None:
            os.killpg(grader.pid, signal.SIGKILL)
    # -SIGINT only when the signal came before Python itself was running (nothing printed at all then)
    assert grader.returncode == 130 or (grader.returncode == -signal.SIGINT and err == ""), err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    if grader.returncode == 130:
        assert [line for line in err.splitlines() if line.startswith("interrupted")] == [err.strip().splitlines()[-1]]
    assert not book.exists()
    assert processes_mentioning(str(scratch)) == []
    assert list(scratch.iterdir()) == []


# Where a Ctrl-C once went wrong, each made to happen at that exact moment: a sitecustomize module, imported by
# the grader's own process only (not by its workers or kernels), sends the grader SIGINT from there.
MOMENTS = {
    # Starting the first worker starts multiprocessing's resource tracker, which unblocked SIGINT while the
    # grader held it ignored: the Ctrl-C was dropped and grading went on to the end (exit 0).
    "as the first worker is started": """
import multiprocessing.popen_spawn_posix as spawning
launch = spawning.Popen._launch
def interrupted_launch(self, process_object):
    if not getattr(spawning, "interrupted", False):
        spawning.interrupted = True
        os.kill(os.getpid(), signal.SIGINT)
    return launch(self, process_object)
spawning.Popen._launch = interrupted_launch
""",
    "just after the first worker started": """
import multiprocessing.popen_spawn_posix as spawning
launch = spawning.Popen._launch
def interrupted_launch(self, process_object):
    launch(self, process_object)
    if not getattr(spawning, "interrupted", False):
        spawning.interrupted = True
        os.kill(os.getpid(), signal.SIGINT)
spawning.Popen._launch = interrupted_launch
""",
    # A KeyboardInterrupt out of an exec of a string (fastjsonschema compiling nbformat's schema, in CI) made
    # CPython end the process by SIGINT after the grader had reported it and asked for 130.
    "while a string is being executed": """
import packer.grading.pool as pool
start = pool.Pool.start
def interrupted_start(self):
    exec("for _ in [os.kill(os.getpid(), signal.SIGINT), *range(10 ** 6)]: pass", {"os": os, "signal": signal})
    start(self)
pool.Pool.start = interrupted_start
""",
}


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_ctrl_c_at_a_moment_that_once_went_wrong_stops_cleanly(tmp_path, moment):
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(
        "import os, signal, sys\n"
        "if sys.orig_argv[1:3] == ['-m', 'packer.grading']:\n"
        + "".join(f"    {line}\n" for line in MOMENTS[moment].strip().splitlines())
    )
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    for number in range(2):
        write_submission(tmp_path / "class", f"learner{number}", "correct")
    book = tmp_path / "grades"
    path = os.pathsep.join([str(hooks), *filter(None, [os.environ.get("PYTHONPATH")])])
    grader = subprocess.run(
        [*GRADER, str(tmp_path / "class"), "--out", str(book), "--jobs", "2"],
        env={**os.environ, "TMPDIR": str(scratch), "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert grader.returncode == 130, grader.stderr
    assert grader.stderr.strip().splitlines()[-1].startswith("interrupted: every kernel stopped"), grader.stderr
    assert "Traceback" not in grader.stderr
    assert not book.exists()
    assert processes_mentioning(str(scratch)) == []


def test_a_grader_killed_before_writing_leaves_its_finished_rows_for_the_next_run(tmp_path):
    """A crash (here SIGKILL to the whole run: no clean-up at all) never loses the grades already finished:
    they are journaled as they come, and the next run into the same folder reuses them."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    for number in range(2):
        write_submission(tmp_path / "class", f"quick{number}", "not-json")  # graded at once
    write_submission(tmp_path / "class", "slow", "runaway")  # keeps the run busy
    book = tmp_path / "grades"
    env = {**os.environ, "TMPDIR": str(scratch)}
    grader = subprocess.Popen(
        [*GRADER, str(tmp_path / "class"), "--out", str(book), "--jobs", "2", "--timeout", "120"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    journal = book / ".grading-journal.jsonl"
    try:
        deadline = time.monotonic() + 120
        while not journal.exists() or len(journal.read_text().splitlines()) < 2:
            assert grader.poll() is None and time.monotonic() < deadline, grader.stderr.read()
            time.sleep(0.2)
    finally:
        os.killpg(grader.pid, signal.SIGKILL)
        grader.wait()
        for process in processes_mentioning(str(scratch)):  # what the kill left behind: kernels of their own
            with contextlib.suppress(psutil.NoSuchProcess):  # it may end on its own meanwhile
                process.kill()
    assert not (book / "grades.json").exists()  # it died before writing
    (tmp_path / "class" / "slow.ipynb").write_text("{}", encoding="utf-8")  # the slow one, fixed meanwhile
    again = subprocess.run(
        [*GRADER, str(tmp_path / "class"), "--out", str(book), "--jobs", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    assert "resumed: 2 submissions were graded by a run into" in again.stderr
    assert "graded 3 submissions" in again.stdout
    rows = {r["submission"]: r["status"] for r in json.loads((book / "grades.json").read_text())["submissions"]}
    assert rows == {
        "class/quick0.ipynb": "unreadable",
        "class/quick1.ipynb": "unreadable",
        "class/slow.ipynb": "unreadable",
    }
    assert not journal.exists()  # written: nothing left to resume from
