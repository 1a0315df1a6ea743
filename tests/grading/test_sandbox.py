"""A contained kernel: what a submission's code can and cannot reach, tried with real hostile code.

Each test runs code in a real kernel started the way the grader starts one under `--sandbox`, and checks
from outside that nothing got through. Where bubblewrap cannot run, the tests are skipped with the reason.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

from packer.grading import sandbox

pytestmark = pytest.mark.needs("bubblewrap")
PACKAGE_DIR = Path(sandbox.__file__).resolve().parents[1]
DEFAULT_LIMITS = sandbox.Limits()


class ContainedKernel:
    """A contained kernel in a fresh working folder, driven synchronously for tests."""

    def __init__(self, limits: sandbox.Limits = DEFAULT_LIMITS, slot: int = 0):
        self.base = Path(tempfile.mkdtemp(prefix="workbook-sandbox-test-"))
        self.runtime, self.workdir = self.base / "runtime", self.base / "work"
        self.uid = sandbox.kernel_uid(slot)
        for folder in (self.runtime, self.workdir):
            folder.mkdir()
            sandbox.hand_over(folder, self.uid)
        os.chmod(self.base, 0o755)
        # Its own event loop in a thread of its own: a test run may already have a loop running in the main
        # thread (Playwright's sync API does), and run_until_complete refuses to nest.
        self.thread = concurrent.futures.ThreadPoolExecutor(1)
        self.loop = asyncio.new_event_loop()

        async def start() -> None:
            self.km = sandbox.contained_kernel_manager(
                workdir=self.workdir,
                runtime=self.runtime,
                package_dir=PACKAGE_DIR,
                limits=limits,
                uid=self.uid,
                kernel_name="python3",
            )
            await self.km.start_kernel(cwd=str(self.workdir))
            self.kc = self.km.client()
            self.kc.start_channels()
            await self.kc.wait_for_ready(timeout=60)

        self.sync(start())

    def sync(self, coroutine):
        """Run a coroutine to completion on this kernel's loop, in its thread."""
        return self.thread.submit(self.loop.run_until_complete, coroutine).result()

    def run(self, code: str, timeout: float = 60) -> str:
        """Execute code; return its printed text, and 'ERROR Name: message' for an exception."""

        async def execute() -> str:
            msg_id = self.kc.execute(code)
            out = []
            while True:
                msg = await self.kc.get_iopub_msg(timeout=timeout)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                if msg["msg_type"] == "stream":
                    out.append(msg["content"]["text"])
                elif msg["msg_type"] == "error":
                    out.append(f"ERROR {msg['content']['ename']}: {msg['content']['evalue']}")
                elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    return "".join(out)

        return self.sync(execute())

    def close(self) -> None:
        async def stop() -> None:
            self.kc.stop_channels()
            await self.km.shutdown_kernel(now=True)

        self.sync(stop())
        self.thread.submit(self.loop.close).result()
        self.thread.shutdown()
        import shutil

        shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture(scope="module")
def kernel():
    contained = ContainedKernel()
    yield contained
    contained.close()


def test_the_kernel_imports_the_graders_packer_and_works_in_its_own_folder(kernel):
    out = kernel.run("import os, packer, packer.checking\nprint(packer.__file__)\nprint(os.getcwd())")
    assert out.split() == [str(PACKAGE_DIR / "__init__.py"), str(kernel.workdir)]


def test_it_cannot_reach_a_server_on_the_grading_machine(kernel):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    accepted: list = []
    server.settimeout(5)
    thread = threading.Thread(target=lambda: accepted.append(_accept(server)))
    thread.start()
    out = kernel.run(f"import socket\ns = socket.socket(); s.settimeout(3)\ns.connect(('127.0.0.1', {port}))")
    thread.join()
    server.close()
    assert out.startswith("ERROR") and accepted == [None], out


def _accept(server: socket.socket):
    try:
        return server.accept()
    except OSError:
        return None


def test_it_cannot_see_other_submissions_the_gradebook_or_the_home_folder(kernel, tmp_path):
    other = tmp_path / "submissions" / "bob" / "01_assemble_context.ipynb"
    other.parent.mkdir(parents=True)
    other.write_text("bob's answers")
    gradebook = tmp_path / "grades"
    gradebook.mkdir()
    home = Path.home()
    code = "import os\n" + "\n".join(
        f"print({str(path)!r}, os.path.exists({str(path)!r}))" for path in (other, gradebook, home / ".bashrc")
    )
    out = kernel.run(code)
    assert out.splitlines() == [f"{other} False", f"{gradebook} False", f"{home / '.bashrc'} False"], out


def test_writes_outside_its_folder_fail_or_stay_inside_the_sandbox(kernel, tmp_path):
    marker = f"workbook-sandbox-marker-{os.getpid()}"
    gradebook = tmp_path / "grades"
    gradebook.mkdir()
    out = kernel.run(
        "import os\n"
        f"open('/tmp/{marker}', 'w').write('x')\n"  # a private /tmp: the host's never sees it
        f"for target in ({str(Path.home() / marker)!r}, {str(gradebook / 'grades.csv')!r}, "
        f"{str(PACKAGE_DIR / marker)!r}, '/etc/{marker}'):\n"
        "    try:\n"
        "        open(target, 'w').write('x')\n"
        "        print('wrote', target)\n"
        "    except OSError as error:\n"
        "        print('refused', type(error).__name__)\n"
    )
    assert not Path(f"/tmp/{marker}").exists()
    assert not (Path.home() / marker).exists() and not (gradebook / "grades.csv").exists()
    assert not (PACKAGE_DIR / marker).exists() and not Path(f"/etc/{marker}").exists()
    # a path whose folder does not exist inside cannot be created; the package and /etc are read-only
    assert all(line.startswith("refused") for line in out.splitlines()), out


def test_its_own_folder_is_writable_and_what_it_writes_lands_there(kernel):
    assert kernel.run("open('my_results.csv', 'w').write('a,b\\n'); print('ok')") == "ok\n"
    assert (kernel.workdir / "my_results.csv").read_text() == "a,b\n"


def test_a_file_larger_than_the_limit_is_refused(kernel):
    out = kernel.run("f = open('big.bin', 'wb')\nfor _ in range(768):\n    f.write(b'x' * (1 << 20))")
    assert out.startswith("ERROR OSError: [Errno 27] File too large"), out
    assert (kernel.workdir / "big.bin").stat().st_size <= sandbox.Limits().file_size


def test_allocating_past_the_memory_limit_raises_memory_error(kernel):
    out = kernel.run("data = bytearray(4 << 30)")
    assert out.startswith("ERROR MemoryError"), out
    assert kernel.run("print(sum(range(10)))") == "45\n"  # the kernel lives on


@pytest.mark.skipif(os.geteuid() != 0, reason="a per-kernel process limit needs a user of its own (root only)")
def test_starting_too_many_processes_fails_inside_the_limit():
    contained = ContainedKernel(sandbox.Limits(processes=32), slot=7)
    try:
        out = contained.run(
            "import subprocess\nstarted = []\n"
            "try:\n"
            "    for _ in range(200):\n"
            "        started.append(subprocess.Popen(['sleep', '30']))\n"
            "except OSError as error:\n"
            "    print('stopped after', len(started), type(error).__name__)\n"
        )
        words = out.split()
        assert words[:2] == ["stopped", "after"] and int(words[2]) < 32, out
    finally:
        contained.close()
    # the pid namespace dies with the kernel: none of its sleeping children survive it. The kernel kills them
    # all when the namespace's first process ends, but on a loaded machine they take a moment to be gone.
    deadline = time.monotonic() + 15
    while (leftovers := _processes_of(sandbox.kernel_uid(7))) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert leftovers == []


def _processes_of(uid: int) -> list[Path]:
    """The /proc entries of every process running as `uid`."""
    return [p for p in Path("/proc").iterdir() if p.name.isdigit() and _owner(p) == uid]


def _owner(proc: Path) -> int | None:
    try:
        return proc.stat().st_uid
    except OSError:
        return None


def test_an_interrupt_stops_the_running_cell_and_the_kernel_lives_on(kernel):
    async def interrupted() -> str:
        msg_id = kernel.kc.execute("import time\nwhile True:\n    time.sleep(0.05)")
        await asyncio.sleep(1)
        await kernel.km.interrupt_kernel()
        ename = ""
        while True:  # the error, then the end of that execution
            msg = await kernel.kc.get_iopub_msg(timeout=30)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "error":
                ename = msg["content"]["ename"]
            elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return ename

    assert kernel.sync(interrupted()) == "KeyboardInterrupt"
    assert kernel.sync(kernel.km.is_alive())
    assert kernel.run("print('alive')") == "alive\n"


def test_limits_are_validated():
    with pytest.raises(ValueError, match="memory"):
        sandbox.Limits(memory=0)
    with pytest.raises(ValueError, match="processes"):
        sandbox.Limits(processes=True)


def test_a_repository_under_tmp_is_bound_on_top_of_the_private_tmp(tmp_path):
    """A clean clone in /tmp (as CI makes one) must stay visible: the private /tmp is mounted first."""
    package = tmp_path / "clone" / "packer"
    package.mkdir(parents=True)
    words = sandbox.command_prefix(
        workdir=tmp_path / "work", runtime=tmp_path / "run", package_dir=package, limits=DEFAULT_LIMITS, uid=None
    )
    private_tmp = next(i for i in range(len(words) - 1) if words[i : i + 2] == ["--tmpfs", "/tmp"])
    bound = next(i for i in range(len(words) - 2) if words[i : i + 3] == ["--ro-bind", str(package), str(package)])
    assert private_tmp < bound
