"""The way from a page of the site to a running lesson, as Jupyter Book's launch buttons give one
(sphinx-book-theme's header_buttons/launch.py): `make site REPOSITORY=... [JUPYTERHUB=...]`.

- With a JupyterHub (its address as the browser shows any of its pages: packer/site/hub_address.py): an
  nbgitpuller link, the link the instructors' guide hands learners. The hub's
  /hub/user-redirect/ sends the learner to their own server, where nbgitpuller clones the repository's branch into
  a folder named after the repository (or pulls the instructor's changes into it, keeping the learner's own) and
  opens the notebook there. The query is nbgitpuller's own (docs/topic/url-options.rst): `repo`, `branch`,
  `targetPath` (the folder), `urlpath` (`lab/tree/<folder>/<notebook>`: JupyterLab, the notebook in the clone).
- Without a hub, with a repository on GitHub: Binder (mybinder.org), `/v2/gh/<owner>/<name>/<branch>?urlpath=
  lab/tree/<notebook>`, the link Jupyter Book builds; repo2docker builds the image from the root environment.yml.
- Neither (a repository elsewhere, and no hub): no link to run it, only the way to get the workbook.
- No repository at all: the page says how to get the workbook from the course.

"Get the workbook" is the repository (git clone) and the README's two commands (make lab, make test).
Every address is checked when the site is built, and escaped for the HTML it lands in."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from urllib.parse import quote, urlencode, urlsplit

from packer.site.hub_address import hub_base

BINDER = "https://mybinder.org"
NAME = re.compile(r"[A-Za-z0-9._-]+")
# What git clone takes, and nbgitpuller passes to it: a URL of one of these schemes, or scp-like user@host:path.
REPOSITORY_SCHEMES = ("https", "http", "git", "ssh", "file")
SCP_LIKE = re.compile(r"[\w.-]+@[\w.-]+:[\w./~-]+")


@dataclass(frozen=True)
class Launch:
    """Where the workbook comes from: its repository (None: the page says to ask the course), the branch, and the
    class's JupyterHub (None: Binder, for a repository on GitHub)."""

    repository: str | None = None
    branch: str = "main"
    hub: str | None = None

    def __post_init__(self) -> None:
        if self.repository is not None:
            check_repository(self.repository)
        if not NAME.fullmatch(self.branch) or self.branch.startswith("-"):
            raise ValueError(f"branch: {self.branch!r} is not a branch name (letters, digits, . _ -)")
        if self.hub is not None:
            object.__setattr__(self, "hub", hub_base(self.hub))  # the address as the browser shows it, made the base
            if self.repository is None:
                raise ValueError("hub: a JupyterHub link needs the repository it pulls (give the repository too)")

    @property
    def folder(self) -> str:
        """The folder a clone of the repository gets (its last path part, without .git), as git and nbgitpuller
        name it."""
        return repository_folder(self.repository or "")

    def run_link(self, notebook: str) -> tuple[str, str] | None:
        """(address, where it runs) for the notebook at `notebook` (its path in the repository), or None."""
        if self.repository is None:
            return None
        if self.hub is not None:
            return nbgitpuller_link(
                self.hub, self.repository, self.branch, self.folder, notebook
            ), "the class's JupyterHub"
        github = github_name(self.repository)
        if github is not None:
            return binder_link(github, self.branch, notebook), "Binder (mybinder.org)"
        return None


def check_repository(repository: str) -> None:
    """A repository address git clone takes: a URL of a known scheme with a path, or user@host:path."""
    if SCP_LIKE.fullmatch(repository):
        return
    parts = urlsplit(repository)
    if parts.scheme not in REPOSITORY_SCHEMES or not parts.path.strip("/") or parts.query or parts.fragment:
        raise ValueError(
            f"repository: {repository!r} is not a git repository's address "
            "(https://github.com/you/context-packing-workbook, git@host:you/workbook.git or file:///path)"
        )
    if not NAME.fullmatch(repository_folder(repository)):
        raise ValueError(f"repository: {repository!r} does not end in a plain folder name")


def repository_folder(repository: str) -> str:
    """The folder `git clone` and nbgitpuller make for a repository: its last path part, without .git."""
    last = repository.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return last.removesuffix(".git")


def github_name(repository: str) -> tuple[str, str] | None:
    """(owner, name) of a repository on GitHub, or None."""
    found = re.fullmatch(r"(?:https://github\.com/|git@github\.com:)([\w.-]+)/([\w.-]+?)(?:\.git)?/?", repository)
    return (found.group(1), found.group(2)) if found else None


def nbgitpuller_link(hub: str, repository: str, branch: str, folder: str, notebook: str) -> str:
    """nbgitpuller's link: the hub sends the learner to their server, which clones (or pulls) `branch` of
    `repository` into `folder` and opens `notebook` in JupyterLab."""
    query = urlencode(
        [("repo", repository), ("branch", branch), ("targetPath", folder), ("urlpath", f"lab/tree/{folder}/{notebook}")]
    )
    return f"{hub.rstrip('/')}/hub/user-redirect/git-pull?{query}"


def binder_link(github: tuple[str, str], branch: str, notebook: str) -> str:
    """Binder's link for a GitHub repository's branch, opening `notebook` in JupyterLab."""
    owner, name = github
    return f"{BINDER}/v2/gh/{owner}/{name}/{quote(branch)}?{urlencode({'urlpath': f'lab/tree/{notebook}'})}"


def commands(launch: Launch) -> str:
    """The commands that get the workbook and open it: git clone, then the README's two."""
    clone = f"git clone {launch.repository}\ncd {launch.folder}\n" if launch.repository else ""
    return (
        f"{clone}make lab     # installs the learner's set into .venv and opens JupyterLab\n"
        "make test    # installs every set and runs the whole test suite"
    )


def launch_block(launch: Launch, notebook: str, action: str) -> str:
    """The block at the top of a notebook's page: `action` ("Run this lesson") and "Get the workbook". `notebook`
    is the notebook in the repository (notebooks/01_x.ipynb)."""
    link = launch.run_link(notebook)
    shown = html.escape(notebook)
    if link is not None:
        address, where = link
        run = (
            f'<a class="site-run-link" href="{html.escape(address, quote=True)}">{action}</a> '
            f"on {where}: it opens <code>{shown}</code> in JupyterLab, in a copy of the workbook of your own."
        )
    elif launch.repository is not None:
        run = f"{action}: get the workbook (below), run <code>make lab</code> and open <code>{shown}</code>."
    else:
        run = (
            f"{action}: this page comes from the workbook your course hands out. Get the workbook from your "
            f"course (your instructor has its address, or a JupyterHub link that opens it), then run "
            f"<code>make lab</code> in it and open <code>{shown}</code>. A downloaded notebook alone does not run: "
            "its first cell imports <code>packer</code>, which comes with the workbook."
        )
    where = (
        f'from <a href="{html.escape(launch.repository, quote=True)}">its repository</a>'
        if launch.repository and urlsplit(launch.repository).scheme in ("https", "http")
        else f"from <code>{html.escape(launch.repository)}</code>"
        if launch.repository
        else "from your course"
    )
    return (
        '<div class="site-run" data-pagefind-ignore>\n'
        f'<p class="site-run-this">{run}</p>\n'
        f'<details class="site-get"><summary>Get the workbook</summary>\n<p>Get it {where} and open it with the '
        "README's two commands (they need Python 3.11 or later and <code>make</code>):</p>\n"
        f'<pre class="site-commands"><code>{html.escape(commands(launch))}</code></pre>\n</details>\n'
        "</div>\n"
    )
