"""How a grading kernel starts: over sockets no other kernel can take, and a failed start says why and is retried."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import shutil
import textwrap
import uuid
from pathlib import Path

import nbformat
import pytest

from packer.grading import kernels
from packer.grading.demo_class import solution
from packer.grading.grader import grade_all
from packer.grading.running import Options
from packer.grading.submissions import find_submissions, naming_root

# Put first on a kernel's PYTHONPATH, this stands in for ipykernel's launcher (`python -m ipykernel_launcher`):
# it fails the way a kernel that cannot start fails, once or always, then hands over to the real launcher.
FAILING_LAUNCHER = textwrap.dedent(
    """
    import os, runpy, sys
    marker = os.environ["TEST_FAILED_START_MARKER"]
    if os.environ.get("TEST_FAIL_EVERY_START") or not os.path.exists(marker):
        open(marker, "a").close()
        sys.exit("this kernel cannot start: the test stopped it")
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or ".") != here]
    runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
    """
)


def run_alone(coroutine):
    """asyncio.run in a thread of its own: a test run may already have a loop running in the main thread
    (Playwright's sync API does, in the browser tests that share this worker), and asyncio.run refuses to nest."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result(timeout=300)


@pytest.fixture
def run_dir():
    folder = kernels.make_run_dir()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def failing_starts(tmp_path, monkeypatch):
    """Kernels started from now on fail to start once (the marker file records that one did)."""
    launcher = tmp_path / "launcher"
    launcher.mkdir()
    (launcher / "ipykernel_launcher.py").write_text(FAILING_LAUNCHER)
    monkeypatch.setenv("PYTHONPATH", str(launcher))
    monkeypatch.setenv("TEST_FAILED_START_MARKER", str(tmp_path / "a-start-failed"))
    return tmp_path / "a-start-failed"


def test_an_uncontained_kernel_talks_over_unix_sockets_in_a_folder_of_its_own(run_dir):
    """No TCP ports: a port picked free can be taken by another kernel before this one binds it."""

    async def start_and_stop() -> tuple[dict, Path]:
        kernel = await kernels.start_kernel(run_dir, "token")
        try:
            connection = json.loads(Path(kernel.km.connection_file).read_text())
            return connection, Path(kernel.runtime)
        finally:
            await kernels.stop_kernel(kernel)

    connection, runtime = run_alone(start_and_stop())
    assert connection["transport"] == "ipc"
    assert Path(connection["ip"]).parent == runtime and runtime.parent == Path(run_dir, "runtime")
    assert not runtime.exists()  # sockets, connection file and log go with the kernel


def test_a_run_folder_too_deep_for_unix_sockets_is_refused_before_any_kernel_starts(tmp_path):
    deep = tmp_path / ("d" * 100)
    deep.mkdir()
    with pytest.raises(ValueError, match="run_dir: .* too deep"):
        run_alone(kernels.start_kernel(str(deep), "token"))
    assert list(deep.iterdir()) == []


def test_a_kernel_that_cannot_start_says_so_in_its_own_words(run_dir, failing_starts, monkeypatch):
    monkeypatch.setenv("TEST_FAIL_EVERY_START", "1")
    with pytest.raises(RuntimeError, match="the kernel's last words: this kernel cannot start: the test stopped it"):
        run_alone(kernels.start_kernel(run_dir, "token"))
    assert failing_starts.exists()
    assert list(Path(run_dir, "runtime").iterdir()) == []  # nothing of it is left


def test_a_kernel_that_fails_to_start_is_started_again_and_the_row_is_graded(tmp_path, run_dir, failing_starts):
    """Nothing of the submission ran in a kernel that never started: the grader starts another, once."""
    folder = tmp_path / "class"
    folder.mkdir()
    nbformat.write(solution(), folder / "ana-01_assemble_context.ipynb")
    root, top = naming_root([folder])
    submissions, _ = find_submissions([folder], root, top)
    outcomes, _ = grade_all(submissions, Options(20, 120, (), "", run_dir, uuid.uuid4().hex, None), jobs=1)
    assert failing_starts.exists(), "the first kernel was meant to fail"
    [outcome] = outcomes
    assert (outcome.status, outcome.score) == ("graded", outcome.max_score), outcome.as_dict()
