"""The browser tests' fixtures: a JupyterLab started exactly as `make lab` starts it (the environment
`make lab-env` prints, so jupyter-config/ and the .jupyter-state/ folder), on a copy of the repository and with
an empty home folder that must stay empty, and Debian's Chromium driven headless by Playwright.

Where Chromium is missing every test that needs it is skipped with the reason, and `make test` says so at
its start and end (tests/system_parts.py); the tests of the server alone still run.
"""

from __future__ import annotations

import fcntl
import hashlib
import html
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import system_parts

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# What the copy leaves out: the environment, caches, and what tests or graders wrote.
NOT_COPIED = shutil.ignore_patterns(
    ".git",
    ".venv",
    ".venv-learner",  # make test's learner-set environment (585 MB): the lab runs on .venv
    "*.egg-info",
    "__pycache__",
    ".hypothesis",
    ".pytest_cache",
    ".ipynb_checkpoints",
    "screenshots",
    "grades",
    "demo-class",
    "submissions",
    ".jupyter-state",
)
STARTUP_SECONDS = 90


def tracked_notebooks() -> dict[str, str]:
    """sha256 of every notebook of the repository itself, by path: the browser must never change them."""
    return {
        str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in ("notebooks", "exercises", "solutions")
        for p in sorted((ROOT / folder).glob("*.ipynb"))
    }


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Lab:
    """A running JupyterLab: where it serves from and how to reach it."""

    root: Path
    port: int
    token: str
    log: Path
    runtime: Path
    pid: int
    home: Path  # the HOME the server and its kernels were given: empty, and it must stay so

    def url(self, path: str, workspace: str) -> str:
        """The lab URL that opens `path` (relative to the root) in a workspace of its own."""
        return f"http://127.0.0.1:{self.port}/lab/workspaces/{workspace}/tree/{path}?token={self.token}"

    def api(self, path: str, method: str = "GET") -> object:
        """Call the server's REST API; the decoded JSON answer (None when empty)."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/api/{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            body = answer.read()
        return json.loads(body) if body else None

    def browser_open_url(self) -> str:
        """The URL `make lab` sends the learner's browser to: Jupyter writes it into a page in its runtime folder."""
        page = (self.runtime / f"jpserver-{self.pid}-open.html").read_text()
        return html.unescape(re.search(r'content="1;url=([^"]+)"', page).group(1))

    def shut_down_kernels(self) -> None:
        """Stop every kernel the browser started, so finished notebooks cost no CPU or memory."""
        for kernel in self.api("kernels"):
            try:
                self.api(f"kernels/{kernel['id']}", method="DELETE")
            except urllib.error.HTTPError as error:  # 404: it shut down meanwhile (its tab closed, the idle cull)
                if error.code != 404:
                    raise


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium (`chromium` on PATH, or WORKBOOK_CHROMIUM). A test that uses this fixture needs Chromium:
    where it is missing, the root conftest.py skips the test with the reason before this runs."""
    if system_parts.why_missing("chromium"):
        pytest.skip(system_parts.skip_reason(["chromium"]))
    return Path(system_parts.chromium_path())


# What the lab is started without: anything of the developer's own that would change where Jupyter, IPython,
# matplotlib or a cache reads or writes (make lab-env sets what the lab needs; HOME is a new, empty folder).
OWN_SETTINGS = ("JUPYTER", "IPYTHON", "MPL", "XDG_")


def make_lab_environment(root: Path, home: Path) -> dict[str, str]:
    """The environment `make lab` starts JupyterLab with in `root` (`make lab-env`), with `home` as HOME."""
    made = subprocess.run(["make", "-s", "lab-env"], cwd=root, capture_output=True, text=True, check=True).stdout
    inherited = {name: value for name, value in os.environ.items() if not name.startswith(OWN_SETTINGS)}
    return {**inherited, "HOME": str(home), **dict(line.split("=", 1) for line in made.splitlines())}


@contextmanager
def started_lab(base: Path) -> Iterator[Lab]:
    """JupyterLab on a fresh copy of the repository in `base` (it autosaves notebooks), started as `make lab`
    starts it, on a free port of 127.0.0.1, without a browser of its own, with the empty folder base/home as HOME.
    Stopped on leaving; what it wrote stays in the copy's .jupyter-state/ for the caller to look at."""
    root, home = base / "workbook", base / "home"
    shutil.copytree(ROOT, root, ignore=NOT_COPIED)
    home.mkdir()
    env = make_lab_environment(root, home)
    port, token = free_port(), hashlib.sha256(os.urandom(32)).hexdigest()
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
    ]
    if os.geteuid() == 0:
        command.append("--allow-root")  # as `make lab` does for root
    log = base / "jupyterlab.log"
    with open(log, "wb") as sink:
        server = subprocess.Popen(
            command,
            cwd=root,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        running = Lab(root, port, token, log, runtime_dir(env), server.pid, home)
        _wait_until_ready(server, running)
        yield running
    finally:
        _stop(server)


def runtime_dir(env: dict[str, str]) -> Path:
    """Where a Jupyter started with `env` keeps its runtime files (the page that opens the browser among them)."""
    asked = [sys.executable, "-m", "jupyter", "--runtime-dir"]
    return Path(subprocess.run(asked, env=env, capture_output=True, text=True, check=True).stdout.strip())


def written_under(folder: Path) -> list[str]:
    """Every file and folder under `folder`, as paths relative to it."""
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """The JupyterLab every browser test uses (see started_lab). Afterwards the repository's own notebooks must be
    as they were and the server's home folder still empty."""
    before = tracked_notebooks()
    with started_lab(tmp_path_factory.mktemp("lab")) as running:
        yield running
    assert tracked_notebooks() == before, "a tracked notebook changed while the browser tests ran"
    assert written_under(running.home) == [], "the lab wrote into its home folder"


def _wait_until_ready(server: subprocess.Popen, lab: Lab) -> None:
    """Block until the server answers its status API; fail with its log if it exits or takes too long."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"JupyterLab exited with {server.returncode}:\n{lab.log.read_text()}")
        try:
            lab.api("status")
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.25)
    pytest.fail(f"JupyterLab did not answer within {STARTUP_SECONDS} s:\n{lab.log.read_text()}")


def _stop(server: subprocess.Popen) -> None:
    """Stop the server we started (it shuts its kernels down first); kill its process group if it hangs."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)  # the group it leads: the server and the kernels it started
            server.wait(timeout=10)


@pytest.fixture(scope="session")
def browser(chromium: Path) -> Iterator[object]:
    """Headless Chromium under Playwright; Playwright's own browser downloads are never used."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(chromium), headless=True, args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser, lab: Lab) -> Iterator[object]:
    """A fresh browser page; its kernels are shut down afterwards."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(60_000)
    try:
        yield context.new_page()
    finally:
        context.close()
        lab.shut_down_kernels()


class SharedPage:
    """One JupyterLab page that a module's tests open their notebooks in, one test after another, as a learner
    goes from notebook to notebook: JupyterLab starts once for the module instead of once per test (a fresh page
    costs about 7 s and 8 CPU-s here, opening one more notebook in the running lab about 3 s). The first notebook
    is opened by its URL in a workspace of its own, every later one with File > Open from Path…; each test closes
    what it opened. After a test that did not (it failed), the page is closed and the next test gets a fresh one,
    so one failure cannot cascade into the tests after it."""

    def __init__(self, browser, lab: Lab, name: str):
        self.browser, self.lab, self.name = browser, lab, name  # the workspaces are named after it
        self.context = self.page = None
        self.opened: list = []  # the notebooks open in the page now
        self.pages = 0

    def open(self, path: str):
        """The notebook at `path` opened in the page and shown (a NotebookPage)."""
        from notebook_page import NotebookPage

        if self.page is None:
            self.context = self.browser.new_context(viewport={"width": 1400, "height": 1000})
            self.context.set_default_timeout(60_000)
            self.page = self.context.new_page()
            self.pages += 1
            notebook = NotebookPage.open(self.page, self.lab, path, workspace=f"{self.name}-{self.pages}")
        else:
            notebook = NotebookPage.open_from_path(self.page, self.lab, path)
        self.opened.append(notebook)
        return notebook

    def close(self, notebook, discarding_changes: bool = False) -> None:
        """Close a notebook's tab: asking nothing, or answering "Save your work" with Discard."""
        if discarding_changes:
            notebook.close_tab_discarding_changes()
        else:
            notebook.close_tab()
        self.opened.remove(notebook)

    def after_test(self) -> None:
        """Leave no kernel running for the next test; and no page, when this test left notebooks open."""
        if self.opened:
            self.discard()
            return
        deadline = time.monotonic() + 30  # each kernel stops with its tab (the shipped settings), a moment later
        while self.lab.api("kernels") and time.monotonic() < deadline:
            time.sleep(0.2)
        self.lab.shut_down_kernels()

    def discard(self) -> None:
        """Close the page, with whatever is still open in it, and stop every kernel."""
        if self.context is not None:
            self.context.close()
        self.context = self.page = None
        self.opened = []
        self.lab.shut_down_kernels()


@pytest.fixture(scope="module")
def module_page(browser, lab: Lab, request) -> Iterator[SharedPage]:
    shared = SharedPage(browser, lab, request.module.__name__.rpartition(".")[2])
    yield shared
    shared.discard()


@pytest.fixture
def lab_page(module_page: SharedPage) -> Iterator[SharedPage]:
    """The module's one JupyterLab page (SharedPage), made ready for the next test afterwards."""
    yield module_page
    module_page.after_test()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole site, built once for the run as `make site` builds it (packer.site.build), in a temporary
    folder: the site's browser tests read it, none changes it. Under pytest-xdist the workers share one build: the
    first to need it builds it in the folder their own temporary folders sit in, holding a lock the others wait on."""
    from packer.site.build import build

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, in which each worker has its own
    folder, out = shared / "built-site", shared / "built-site" / "_site"
    with open(shared / "built-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / "complete").exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build that stopped half-way
            folder.mkdir()
            build(ROOT, out)
            (folder / "complete").touch()
    return out


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """The git-ignored folder the browser tests leave their screenshots in, for a reviewer to look at."""
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
