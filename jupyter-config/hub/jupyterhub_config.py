"""The class on one machine: the JupyterHub `make hub` starts (and the browser test in tests/e2e/test_hub_in_browser.py).

Every learner logs in with a name of their own and the one shared password, gets a Jupyter server of their own
running on this workbook's .venv, and works in a folder of their own under the learners' folder: a copy of the
course folders the instructor hands out (packer.classroom.course), never the repository itself. A learner's
files are never replaced; a file the course gained since their last start is added.

What `make hub` passes in (all optional):
    WORKBOOK_HUB_STATE     the hub's own folder: its database, cookie secret, proxy (default: .hub/)
    WORKBOOK_HUB_LEARNERS  where each learner's folder is made (default: the state folder's learners/)
    WORKBOOK_HUB_PORT      the port on 127.0.0.1 the class opens (default: 8000)
    WORKBOOK_HUB_COURSE    the course folders handed out (default: "notebooks exercises"; add solutions)
    WORKBOOK_HUB_PASSWORD  the shared password, 8 characters or more (default: a new one, printed at start)
    WORKBOOK_HUB_PROXY     configurable-http-proxy (default: .hub/proxy/, where `make hub-proxy` installs it)

This is a demo and a test fixture on one machine, not a secure class server: the single-user servers all run
as the user who started the hub (JupyterHub's SimpleLocalProcessSpawner), so a learner's kernel can read the
other learners' folders. The browser keeps learners apart (the hub lets each one reach only their own server);
the operating system does not. For a real class use the Zero to JupyterHub setup in jupyter-config/z2jh/.
"""

from __future__ import annotations

import os
import secrets
import socket
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]
sys.path.insert(0, str(REPOSITORY))  # packer.classroom, when the hub's Python does not have the workbook installed
from jupyterhub.spawner import SimpleLocalProcessSpawner  # noqa: E402

from packer.classroom.course import (  # noqa: E402
    LEARNER_NAME,
    check_learners_folder,
    course_folders,
    hand_out,
    learner_folder,
)

c = get_config()  # noqa: F821 (traitlets provides get_config when it loads this file)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (for the hub's and the proxy's own APIs)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


STATE = Path(os.environ.get("WORKBOOK_HUB_STATE") or REPOSITORY / ".hub").resolve()
LEARNERS = Path(os.environ.get("WORKBOOK_HUB_LEARNERS") or STATE / "learners").resolve()
PASSWORD = os.environ.get("WORKBOOK_HUB_PASSWORD") or secrets.token_urlsafe(9)
try:
    FOLDERS = course_folders(os.environ.get("WORKBOOK_HUB_COURSE") or "notebooks exercises")
except ValueError as error:
    sys.exit(f"make hub: HUB_COURSE: {error}")
PORT = os.environ.get("WORKBOOK_HUB_PORT") or "8000"
if not PORT.isdigit() or not 0 < int(PORT) < 65536:
    sys.exit(f"make hub: HUB_PORT: {PORT!r} is not a port number (1-65535)")
if len(PASSWORD) < 8:
    sys.exit(f"make hub: HUB_PASSWORD: {len(PASSWORD)} characters; the hub asks for 8 or more")
PROXY = Path(
    os.environ.get("WORKBOOK_HUB_PROXY") or REPOSITORY / ".hub/proxy/node_modules/.bin/configurable-http-proxy"
)

try:
    check_learners_folder(LEARNERS, REPOSITORY)
except ValueError as error:
    sys.exit(f"make hub: HUB_LEARNERS: {error}; choose a folder outside it")
if not PROXY.exists():
    sys.exit(f"make hub: no proxy at {PROXY}; `make hub-proxy` installs it (Node.js and npm are needed)")
STATE.mkdir(parents=True, exist_ok=True)
LEARNERS.mkdir(parents=True, exist_ok=True)

# The hub, its database and secrets, all in the state folder; only 127.0.0.1 is listened on.
c.JupyterHub.bind_url = f"http://127.0.0.1:{PORT}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{free_port()}"
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
c.ConfigurableHTTPProxy.command = [str(PROXY)]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{free_port()}"
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
# On Ctrl-C the hub stops every learner's server and the proxy it started (both are JupyterHub's defaults,
# written out because `make hub` promises to leave nothing running).
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True

# Any name, one shared password (JupyterHub's SharedPasswordAuthenticator: DummyAuthenticator's password is
# deprecated since JupyterHub 5.3). Names are kept to one plain folder name each.
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = PASSWORD
c.Authenticator.allow_all = True
c.Authenticator.username_pattern = LEARNER_NAME.pattern


# Each learner's server: this .venv's jupyterhub-singleuser, in the learner's own folder, opening lesson 00, with
# the lab settings `make lab` uses (jupyter-config/labconfig: no news pop-up, a kernel stops with its tab).
class CourseSpawner(SimpleLocalProcessSpawner):
    """JupyterHub's SimpleLocalProcessSpawner, stopping a learner's server with SIGTERM rather than SIGINT first.
    A server with no terminal keeps Python's default SIGINT (jupyter_server's init_signal installs its own only
    on a tty), so SIGINT raises KeyboardInterrupt wherever the server happens to be: under load it once landed in
    asyncio's exception handler, printed a traceback, and the server lingered until SIGTERM 10 s later. SIGTERM
    is handled in order (jupyter_server's _signal_stop: its kernels and extensions shut down)."""

    async def stop(self, now: bool = False) -> None:
        await super().stop(now=True)  # now=True: begin with SIGTERM, then SIGKILL (JupyterHub's own sequence)


c.JupyterHub.spawner_class = CourseSpawner
c.SimpleLocalProcessSpawner.home_dir_template = str(LEARNERS / "{username}")
c.Spawner.cmd = [str(Path(sys.executable).with_name("jupyterhub-singleuser"))]
if os.geteuid() == 0:
    c.Spawner.args = ["--allow-root"]  # Jupyter refuses root otherwise (containers and CI machines run as root)
c.Spawner.notebook_dir = str(LEARNERS / "{username}")
c.Spawner.default_url = "/lab/tree/notebooks/00_start_here.ipynb"
c.Spawner.environment = {"JUPYTER_CONFIG_PATH": str(REPOSITORY / "jupyter-config")}
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120


def hand_out_course(spawner) -> None:
    """Before a learner's server starts: copy the course files they do not have yet into their folder."""
    home = learner_folder(LEARNERS, spawner.user.name, course=REPOSITORY)
    copied = hand_out(REPOSITORY, home, FOLDERS)
    spawner.log.info("%s: %d course files handed out into %s", spawner.user.name, len(copied), home)


c.Spawner.pre_spawn_hook = hand_out_course

print(
    f"\nThe class: http://127.0.0.1:{PORT}/  (log in with any name and the password {PASSWORD})\n"
    f"Each learner's folder: {LEARNERS}/<name>/ with {', '.join(FOLDERS)}. Stop with Ctrl-C.\n",
    flush=True,
)
