"""The way from a page to a running lesson (packer/site/launch.py): `make site REPOSITORY=... [JUPYTERHUB=...]`.

Each lesson's and exercise's page gets "Run this lesson" (nbgitpuller on the class's JupyterHub, or Binder for a
GitHub repository without one) and "Get the workbook"; without a repository, the page says to get the workbook from
the course. A built nbgitpuller link is read by nbgitpuller's own request handler (the one a learner's server runs),
which must clone the right branch into the right folder and then open this very notebook; the browser test of the
hub (tests/e2e/test_hub_in_browser.py) follows one into a real `make hub` class. Addresses are checked when the site
is built and escaped where they land."""

from __future__ import annotations

import contextlib
import html
import urllib.parse
import warnings
from pathlib import Path
from unittest import mock

import pytest
from test_site import parse, run_lines, small_repository

from packer.site.__main__ import main
from packer.site.build import build
from packer.site.launch import Launch, binder_link, nbgitpuller_link

GITHUB = "https://github.com/example-org/context-packing-workbook"
HUB = "https://hub.example.org"


def nbgitpuller_reads(link: str) -> dict:
    """What nbgitpuller's own UIHandler (the page /git-pull on a learner's server) makes of a link: the repository,
    branch and folder it pulls, and the page it sends the learner to afterwards (`path`)."""
    from tornado.web import MissingArgumentError

    with warnings.catch_warnings():  # "Guessing base JupyterHandler class": it finds jupyter_server's, as a server does
        warnings.simplefilter("ignore", UserWarning)
        from nbgitpuller import handlers

    query = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
    rendered: dict = {}
    missing = object()

    class Template:
        def render(self, **values: object) -> str:
            rendered.update(values)
            return ""

    class Request:
        """What UIHandler.get uses of a tornado request handler."""

        current_user = "learner"
        template_namespace: dict = {}

        def get_argument(self, name: str, default: object = missing) -> object:
            if name in query:
                return query[name][-1]
            if default is missing:
                raise MissingArgumentError(name)
            return default

        def write(self, text: str) -> None:
            pass

        async def flush(self) -> None:
            pass

    with mock.patch.object(handlers.jinja_env, "get_template", return_value=Template()):
        # past @authenticated (the learner is logged in); run to its end here, nothing in it waits (no asyncio.run: a
        # browser test calls this with Playwright's event loop running)
        running = handlers.UIHandler.get.__wrapped__(Request())
        with contextlib.suppress(StopIteration):
            running.send(None)
            raise AssertionError("nbgitpuller's UIHandler.get waited for something")
    return rendered


@pytest.mark.parametrize(
    "repository", [GITHUB, GITHUB + ".git", "file:///srv/courses/context-packing-workbook", "git@gitlab.com:a/b.git"]
)
def test_nbgitpuller_s_own_handler_pulls_the_branch_into_the_repository_s_folder_and_opens_the_notebook(repository):
    launch = Launch(repository, "main", HUB + "/")
    link, where = launch.run_link("notebooks/01_assemble_context.ipynb")
    assert link.startswith(f"{HUB}/hub/user-redirect/git-pull?") and where == "the class's JupyterHub"
    read = nbgitpuller_reads(link)
    folder = launch.folder
    assert folder == repository.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
    assert (read["repo"], read["branch"], read["targetpath"]) == (repository, "main", folder)
    assert read["path"] == f"lab/tree/{folder}/notebooks/01_assemble_context.ipynb"  # this lesson, in the clone


def test_the_hub_link_has_what_jupyter_book_s_has_and_names_the_folder_so_a_git_suffix_does_not_change_it():
    """sphinx-book-theme's JupyterHub button: {hub}/hub/user-redirect/git-pull?repo=&urlpath=lab/tree/{repo}/{path}
    &branch=. nbgitpuller names the clone after the address's last part, .git and all (handlers.py), so the link
    says targetPath: the clone of ...workbook.git is the folder context-packing-workbook, as git clone makes it."""
    link = nbgitpuller_link(HUB, GITHUB + ".git", "main", "context-packing-workbook", "notebooks/00_start_here.ipynb")
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))
    assert query == {
        "repo": GITHUB + ".git",
        "branch": "main",
        "targetPath": "context-packing-workbook",
        "urlpath": "lab/tree/context-packing-workbook/notebooks/00_start_here.ipynb",
    }


def test_without_a_hub_a_github_repository_runs_on_binder_and_another_gets_no_link():
    link, where = Launch(GITHUB, "course-2026").run_link("exercises/exercise_01_assemble_context.ipynb")
    assert link == (
        "https://mybinder.org/v2/gh/example-org/context-packing-workbook/course-2026"
        "?urlpath=lab%2Ftree%2Fexercises%2Fexercise_01_assemble_context.ipynb"
    )
    assert where == "Binder (mybinder.org)"
    assert binder_link(("o", "n"), "main", "notebooks/x.ipynb").startswith("https://mybinder.org/v2/gh/o/n/main?")
    assert Launch("https://gitlab.com/a/context-packing-workbook").run_link("notebooks/x.ipynb") is None
    assert Launch().run_link("notebooks/x.ipynb") is None


@pytest.mark.parametrize(
    ("shown", "base"),
    [
        ("https://hub.example.org", HUB),
        ("https://hub.example.org/", HUB),
        ("hub.example.org", HUB),  # as Chromium shows it, the scheme hidden
        ("hub.example.org/hub/login", HUB),
        ("https://hub.example.org/hub/", HUB),
        ("https://hub.example.org/hub", HUB),
        ("https://hub.example.org/hub/login?next=%2Fhub%2F", HUB),
        ("https://hub.example.org/hub/home", HUB),
        ("https://hub.example.org/hub/spawn-pending/ada", HUB),
        ("https://hub.example.org/user/ada/lab/tree/notebooks/01_x.ipynb", HUB),
        ("https://hub.example.org/user/ada/lab?reset#x", HUB),
        ("http://127.0.0.1:8000/hub/login", "http://127.0.0.1:8000"),
        ("https://example.org/jupyter/hub/login?next=%2Fjupyter%2Fhub%2F", "https://example.org/jupyter"),
        ("https://example.org/jupyter/", "https://example.org/jupyter"),
        ("  https://hub.example.org/hub/home  ", HUB),  # pasted with spaces around
    ],
)
def test_a_hub_address_as_the_browser_shows_any_of_its_pages_links_to_the_hub_s_own_user_redirect(shown, base):
    """JupyterHub serves its pages under {base_url}hub/ and learners' servers under {base_url}user/NAME/."""
    link, _ = Launch(GITHUB, "main", shown).run_link("notebooks/01_assemble_context.ipynb")
    assert Launch(GITHUB, "main", shown).hub == base
    assert link.startswith(f"{base}/hub/user-redirect/git-pull?repo=")
    assert "/hub/hub/" not in link and "//hub/" not in link.removeprefix("https://").removeprefix("http://")


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (("javascript:alert(1)",), "repository"),
        (("https://github.com/a/b?x=1",), "repository"),
        (("https://github.com/",), "repository"),
        ((GITHUB, "main; rm -rf"), "branch"),
        ((GITHUB, "-x"), "branch"),
        ((GITHUB, "main", "ftp://hub.example.org"), "hub"),
        ((GITHUB, "main", "https://hub.example.org/?next=x"), "hub"),
        ((GITHUB, "main", "https://"), "hub"),
        ((GITHUB, "main", "hub example org"), "hub"),
        ((GITHUB, "main", "javascript:alert(1)"), "hub"),
        ((GITHUB, "main", 'https://hub.example.org"><script>'), "hub"),
        ((GITHUB, "main", ""), "hub"),
        ((None, "main", HUB), "hub"),
    ],
)
def test_an_address_that_is_not_one_is_refused_naming_the_setting(arguments, named):
    with pytest.raises(ValueError, match=f"^{named}: "):
        Launch(*arguments)


# A repository address with a character HTML gives a meaning to (&), which must show as text and stay one attribute.
ODD = "https://git.example.org/a&b/context-packing-workbook"


@pytest.fixture(scope="module")
def hub_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small site (tests/test_site.py) built for a class on a hub, from a repository at ODD."""
    out = tmp_path_factory.mktemp("launch") / "site"
    build(small_repository(out.parent), out, launch=Launch(ODD, "main", HUB))
    return out


def test_every_lesson_and_exercise_page_runs_its_own_notebook_on_the_hub_and_says_how_to_get_the_workbook(hub_site):
    pages = sorted((hub_site / "notebooks").glob("*.html")) + sorted((hub_site / "exercises").glob("*.html"))
    assert len(pages) == 5
    for page in pages:
        links, block = run_lines(page)
        notebook = f"{page.parent.name}/{page.stem}.ipynb"
        read = nbgitpuller_reads(links[0])
        assert len(links) == 1 and read["path"].endswith(f"/{notebook}") and read["repo"] == ODD, page.name
        kind = "lesson" if page.parent.name == "notebooks" else "exercise"
        assert f">Run this {kind}</a>" in block, page.name
        assert "Get the workbook" in block and f"git clone {html.escape(ODD)}" in block and "make lab" in block
    guides = [hub_site / "README.html", hub_site / "docs" / "learners.html"]
    assert all(run_lines(page) == ([], "") for page in guides)  # a guide runs nothing
    index_links, index_block = run_lines(hub_site / "index.html")
    assert nbgitpuller_reads(index_links[0])["path"].endswith("/notebooks/00_start_here.ipynb")
    assert "Run the first lesson" in index_block


def test_a_repository_address_is_escaped_in_the_page_and_one_that_would_break_out_is_refused(hub_site):
    with pytest.raises(ValueError, match="^repository: "):
        Launch('https://git.example.org/a&b/x"onmouseover="alert(1)')  # not a folder name at its end
    text = (hub_site / "exercises" / "exercise_01_assemble_context.html").read_text(encoding="utf-8")
    assert "a&amp;b" in text and "a&b/" not in text.replace("%26", "")
    assert [
        a.get("href") for t, a in parse(hub_site / "index.html").tags if t == "a" and "a&b" in (a.get("href") or "")
    ]


def test_make_site_s_command_passes_the_settings_on_and_refuses_bad_ones(tmp_path, capsys, monkeypatch):
    import packer.site.__main__ as command

    given = {}
    monkeypatch.setattr(command, "build", lambda root, out, solutions, launch: given.update(launch=launch) or [])
    assert command.main([str(tmp_path / "ok"), "--repository", GITHUB, "--branch", "b1", "--hub", HUB]) == 0
    assert given["launch"] == Launch(GITHUB, "b1", HUB)
    assert f"opens the lesson on {HUB} (nbgitpuller, branch b1 of {GITHUB})" in capsys.readouterr().out
    assert command.main([str(tmp_path / "ok"), "--repository", "", "--hub", ""]) == 0  # make site's empty settings
    assert given["launch"] == Launch() and "get the workbook from the course" in capsys.readouterr().out
    assert main([str(tmp_path / "bad"), "--hub", HUB]) == 2
    assert "hub: a JupyterHub link needs the repository" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()
