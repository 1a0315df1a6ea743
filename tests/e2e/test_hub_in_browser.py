"""A class on a real JupyterHub, started as an instructor starts it (`make hub`), in the browser.

Two learners log in with their own names and the shared password. Each gets a server of their own and a copy
of the course in a folder of their own; alice runs lesson 00 (it imports packer) and moves its explorer's slider
(bob's server is made the same way: running it twice would show nothing more); each answers exercise 01's first
question, alice wrongly and bob rightly, and sees their own verdict. Neither
can reach the other's server, and the repository's own notebooks are never touched. The course link of the
instructors' guide, and "Run this lesson" on a course site built for this class (`make site` with the repository
and the hub), each clone the workbook into a folder of alice's and open their lesson there. Then one Ctrl-C stops the
hub, its proxy and every learner's server and kernel: each process, looked up by its id, is gone.

The proxy comes from the npm registry (`make hub-proxy`); where Node.js or npm is missing, or the install fails,
the tests are skipped with the reason.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import psutil
import pytest
from conftest import OWN_SETTINGS, ROOT, free_port, tracked_notebooks, written_under
from notebook_page import NotebookPage, wait_until
from test_exercise_path_in_browser import RIGHT, WRONG, answer
from test_lessons_in_browser import EXPLORERS, check_controls, wait_for_text
from test_site_launch import nbgitpuller_reads

from packer.checking import question
from packer.site.launch import repository_folder

LESSON = "notebooks/00_start_here.ipynb"
EXERCISE = "exercises/exercise_01_assemble_context.ipynb"
PASSWORD = "a shared classroom password"
README = ROOT / "docs" / "instructors.md"  # the instructors' guide, which has the course link
STARTUP_SECONDS = 90


@dataclass
class Hub:
    """A `make hub` running on 127.0.0.1: its process group, port, and folders."""

    process: subprocess.Popen
    port: int
    learners: Path
    log: Path
    home: Path  # the HOME `make hub` was started with: empty, and it must stay so
    contexts: list = field(default_factory=list)  # the browser contexts of the learners logged in

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def answers(self) -> bool:
        """The hub's REST API answers (it needs no login)."""
        try:
            with urllib.request.urlopen(self.url("/hub/api"), timeout=5) as answer_:
                return answer_.status == 200
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    def processes(self) -> list[psutil.Process]:
        """`make hub` and everything under it now: the hub, the proxy, each learner's server and its kernels."""
        top = psutil.Process(self.process.pid)
        return [top, *top.children(recursive=True)]


@dataclass
class LearnerServer:
    """One learner's own Jupyter server behind the hub, reached with their browser's login (what NotebookPage
    needs of a lab: the folder it serves, a notebook's URL, its REST API)."""

    name: str
    page: object
    hub: Hub

    @property
    def root(self) -> Path:
        return self.hub.learners / self.name

    def url(self, path: str, workspace: str) -> str:
        return self.hub.url(f"/user/{self.name}/lab/workspaces/{workspace}/tree/{path}")

    def api(self, path: str, method: str = "GET") -> object:
        answered = self.page.request.fetch(self.hub.url(f"/user/{self.name}/api/{path}"), method=method)
        assert answered.ok, f"{self.name}: {method} api/{path} answered {answered.status}"
        return answered.json()


def stopped(process: psutil.Process) -> bool:
    """The process has ended (a zombie waiting for its parent to read its status has ended too)."""
    try:
        return not process.is_running() or process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def hub_proxy() -> None:
    """Install the hub's proxy as `make hub` would (`make hub-proxy`), or skip with the reason."""
    made = subprocess.run(["make", "-s", "hub-proxy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    if made.returncode:
        pytest.skip(f"JupyterHub tests skipped: make hub-proxy could not install the proxy:\n{made.stderr[-3000:]}")


@pytest.fixture
def hub(chromium, tmp_path: Path) -> Iterator[Hub]:
    """`make hub` on a free port, with its state and the learners' folders in tmp_path and an empty HOME. The
    repository's notebooks must be as they were afterwards; anything still running is killed by its id."""
    hub_proxy()
    before = tracked_notebooks()
    home, log = tmp_path / "home", tmp_path / "hub.log"
    home.mkdir()
    port = free_port()
    env = {name: value for name, value in os.environ.items() if not name.startswith(OWN_SETTINGS)}
    command = [
        "make",
        "-s",
        "hub",
        f"HUB_PORT={port}",
        f"HUB_STATE={tmp_path / 'state'}",
        f"HUB_LEARNERS={tmp_path / 'learners'}",
        f"HUB_PASSWORD={PASSWORD}",
    ]
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**env, "HOME": str(home)},
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a process group of its own, as a terminal gives `make hub`
        )
    running = Hub(process, port, tmp_path / "learners", log, home)
    everything: list[psutil.Process] = []
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not running.answers():
            assert process.poll() is None, f"make hub exited with {process.returncode}:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"the hub did not answer in {STARTUP_SECONDS} s:\n{log.read_text()}"
            time.sleep(0.25)
        yield running
    finally:
        for context in running.contexts:
            context.close()
        if process.poll() is None:
            everything = running.processes()
            os.killpg(process.pid, signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=60)
        for leftover in (p for p in everything if not stopped(p)):
            leftover.kill()
    assert tracked_notebooks() == before, "a notebook of the repository changed while the class worked"


def log_in(browser, hub: Hub, name: str) -> LearnerServer:
    """Log in on the hub's page as a learner does; the hub starts their server and opens lesson 00 in it."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(90_000)
    hub.contexts.append(context)
    page = context.new_page()
    page.goto(hub.url("/hub/login"))
    page.fill("#username_input", name)
    page.fill("#password_input", PASSWORD)
    page.click("#login_submit")
    page.wait_for_url(f"**/user/{name}/lab/tree/{LESSON}")
    return LearnerServer(name, page, hub)


def run_lesson_00(server: LearnerServer) -> None:
    """Run lesson 00 on a learner's server as its page opens it: no error but the tagged one, `import packer` prints
    what the saved lesson shows, and its explorer's slider answers the keyboard."""
    explorer = EXPLORERS["00_start_here"][0]
    lesson = NotebookPage.attach(server.page, server, LESSON)
    states = lesson.run_all()
    imports = lesson.code_cell_index("import packer")
    for index, (cell, state) in enumerate(zip(lesson.notebook.cells, states, strict=True)):
        tagged = "raises-exception" in cell.metadata.get("tags", [])  # the cell that shows a ValueError
        assert tagged or not state.stderr, f"lesson 00 cell {index} shows an error:\n{state.stderr}"
    saved = lesson.notebook.cells[imports].outputs[0]["text"]
    shown = lesson.cell(imports).locator(".jp-OutputArea-output").inner_text()
    assert shown.strip() == saved.strip(), f"`import packer` printed {shown!r}"

    cell = lesson.cell(lesson.code_cell_index(explorer.cell))
    check_controls(cell, explorer)
    handle = cell.locator(".widget-slider .noUi-handle").nth(explorer.moved)
    handle.focus()
    handle.press(explorer.key)
    moved = explorer.start - 1 if explorer.key == "ArrowLeft" else explorer.start + 1
    wait_for_text(cell.locator(".widget-slider .widget-readout").nth(explorer.moved), str(moved))
    wait_for_text(cell.locator(explorer.output), explorer.expected(moved))


@pytest.mark.needs("node")
def test_two_learners_work_apart_on_the_hub_and_one_ctrl_c_stops_everything_it_started(
    hub, browser, screenshots, tmp_path_factory
):
    points = question("q1.1").points
    answers = {"alice": WRONG, "bob": RIGHT}
    verdicts = {
        "alice": f"q1.1 assemble_context: FAILED (0/{points} points)",
        "bob": f"q1.1 assemble_context: PASSED ({points}/{points} points)",
    }
    servers = {name: log_in(browser, hub, name) for name in answers}
    run_lesson_00(servers["alice"])  # on a server of the hub, widgets and all (bob's is made the same way)

    for name, server in servers.items():
        # their own folder: the course folders the hub hands out (not solutions/), and nothing of the other's
        assert sorted(entry["name"] for entry in server.api("contents")["content"]) == ["exercises", "notebooks"]
        assert (server.root / LESSON).read_bytes() == (ROOT / LESSON).read_bytes()

        exercise = NotebookPage.open(server.page, server, EXERCISE, workspace=f"{name}-exercise")
        setup = exercise.code_cell_index("from packer.checking import check")
        exercise.cell(setup).locator(".jp-InputPrompt").click()
        server.page.keyboard.press("Control+Enter")
        wait_until(lambda exercise=exercise: exercise.kernel_idle(), f"{name}: the setup cell did not run")
        stub = exercise.code_cell_index("def assemble_context(")
        report = answer(exercise, stub, exercise.code_cell_index('check("q1.1", assemble_context)'), answers[name])
        assert report.startswith(verdicts[name]), f"{name}: {report}"
        exercise.screenshot(exercise.cell(stub), screenshots / f"hub-{name}-exercise-01.png")

        mine = server.root / EXERCISE
        before = mine.read_bytes()
        server.page.keyboard.press("Control+s")
        wait_until(lambda mine=mine, before=before: mine.read_bytes() != before, f"{name}: Ctrl+S did not save")

    for name, other in (("alice", "bob"), ("bob", "alice")):
        # each one's saved work is in their own folder only
        cells = nbformat.read(hub.learners / name / EXERCISE, as_version=4).cells
        stub = next(i for i, c in enumerate(cells) if c.cell_type == "code" and "def assemble_context(" in c.source)
        assert cells[stub].source == answers[name]
        # and the hub lets no one into another learner's server, by its API or its pages
        page = servers[name].page
        assert page.request.get(hub.url(f"/user/{other}/api/contents/{EXERCISE}")).status == 403
        assert page.goto(hub.url(f"/user/{other}/lab")).status == 403
        assert "You do not have permission to access" in page.locator("body").inner_text()
    assert not (hub.learners / "alice" / "solutions").exists()

    # the course link the instructors' guide hands learners on Zero to JupyterHub, pointed at this repository on disk: it clones
    # the branch into a folder of alice's own and opens lesson 00 there
    link = course_link(hub, repo=ROOT.as_uri())
    page = servers["alice"].page
    page.goto(link)
    cloned = f"{dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))['targetPath']}/{LESSON}"
    page.wait_for_url(f"**/user/alice/lab/tree/{cloned}")
    NotebookPage.attach(page, servers["alice"], cloned)
    committed = subprocess.run(["git", "show", f"main:{LESSON}"], cwd=ROOT, capture_output=True, check=True).stdout
    assert (hub.learners / "alice" / cloned).read_bytes() == committed

    # "Run this lesson" on a course site built for this class (make site REPOSITORY=<this repository on disk>
    # JUPYTERHUB=<this hub>), followed from lesson 01's page: nbgitpuller clones the branch into a folder of alice's
    # own, named after the repository, and opens lesson 01 there
    lesson = "notebooks/01_assemble_context.ipynb"
    with class_site(tmp_path_factory.mktemp("class-site"), hub) as site:
        page.goto(site + "notebooks/01_assemble_context.html")
        run = page.get_by_role("link", name="Run this lesson", exact=True)
        assert nbgitpuller_reads(run.get_attribute("href"))["path"].endswith(f"/{lesson}")
        run.click()
        folder = repository_folder(ROOT.as_uri())
        page.wait_for_url(f"**/user/alice/lab/tree/{folder}/{lesson}")
        NotebookPage.attach(page, servers["alice"], f"{folder}/{lesson}")
    committed = subprocess.run(["git", "show", f"main:{lesson}"], cwd=ROOT, capture_output=True, check=True).stdout
    assert (hub.learners / "alice" / folder / lesson).read_bytes() == committed

    # the instructor's Ctrl-C: what the terminal sends to `make hub`'s whole process group
    running = {p: role(p) for p in hub.processes()}
    counted = Counter(running.values())
    assert (counted["hub"], counted["proxy"], counted["server"]) == (1, 1, 2) and counted["kernel"] >= 2, counted
    os.killpg(hub.process.pid, signal.SIGINT)
    hub.process.wait(timeout=60)
    wait_until(lambda: all(stopped(p) for p in running), "processes of make hub outlived its Ctrl-C", seconds=30)
    assert not hub.answers(), "the hub's port still answers after Ctrl-C"
    log = without_closed_websocket_noise(hub.log.read_text())
    assert "Traceback" not in log, log
    assert written_under(hub.home) == [], "make hub wrote into its home folder"


# What a learner's server may log while it shuts down kernels whose browser tabs are still connected: a kernel's
# last messages written to a websocket the shutdown has closed (jupyter/notebook#5867, voila-dashboards/voila#237).
# Seen under load (tests/load.py), about one Ctrl-C in three, in two forms (an unawaited task, a ZMQ stream
# callback); every traceback of the kind ends in tornado's WebSocketClosedError, and none is the workbook's.
LOG_RECORD = re.compile(r"^(?:\[[A-Z] \d{4}-|ERROR:|WARNING:|\d{4}-\d\d-\d\dT|make)", re.M)


def without_closed_websocket_noise(log: str) -> str:
    """The hub's log without the records whose traceback ends in tornado's WebSocketClosedError."""
    starts = [m.start() for m in LOG_RECORD.finditer(log)]
    records = [log[a:b] for a, b in zip([0, *starts], [*starts, len(log)])]
    closed = "tornado.websocket.WebSocketClosedError"
    return "".join(r for r in records if not r.strip() or r.rstrip().splitlines()[-1].strip() != closed)


@contextlib.contextmanager
def class_site(base: Path, hub: Hub) -> Iterator[str]:
    """A small course site (lesson 01, its exercise and the guides) built for this class: its repository this one on
    disk, its hub this hub; served from 127.0.0.1, its address."""
    from test_site import small_repository
    from test_site_in_browser import serving

    from packer.site.build import Launch, build

    root, out = small_repository(base), base / "site"
    for other in (root / "notebooks").glob("*.ipynb"):
        if other.name != "01_assemble_context.ipynb":
            other.unlink()
    build(root, out, launch=Launch(ROOT.as_uri(), "main", hub.url("/")))
    with serving(out) as url:
        yield url


def course_link(hub: Hub, repo: str) -> str:
    """The instructors' guide's nbgitpuller link, on this hub and with its repository swapped for `repo`."""
    (link,) = re.findall(r"^https://\S+/hub/user-redirect/git-pull\?\S+$", README.read_text(encoding="utf-8"), re.M)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query)) | {"repo": repo}
    return hub.url(f"/hub/user-redirect/git-pull?{urllib.parse.urlencode(query)}")


def role(process: psutil.Process) -> str:
    """What a process under `make hub` is, from the words of its command line (its name is cut to 15 characters,
    and make's shell names every program in the one line it runs)."""
    words = process.cmdline()
    for name, ends in (
        ("server", "/jupyterhub-singleuser"),
        ("kernel", "ipykernel_launcher"),
        ("proxy", "/configurable-http-proxy"),
        ("hub", "/jupyterhub"),
    ):
        if len(words) > 1 and any(word.endswith(ends) for word in words[:3]) and words[0] != "/bin/sh":
            return name
    return "other"  # make and its shell
