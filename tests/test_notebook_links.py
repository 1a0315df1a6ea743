"""Links between lessons, exercises and solutions: every relative link in a notebook's text names a file that
exists, so it opens from inside JupyterLab (which serves the repository root; see jupyter-config/)."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for folder in ("notebooks", "exercises", "solutions") for p in (ROOT / folder).glob("*.ipynb"))
LINK = re.compile(r"\]\(([^)\s]+)\)")


def relative_links(path: Path) -> list[str]:
    """The targets of the markdown links in a notebook that point at files, not web pages or anchors."""
    cells = nbformat.read(path, as_version=4).cells
    targets = [t for cell in cells if cell.cell_type == "markdown" for t in LINK.findall(cell.source)]
    return [t.split("#")[0] for t in targets if not re.match(r"[a-z]+:|#", t)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_opens_a_file_inside_the_repository(path):
    for target in relative_links(path):
        resolved = (path.parent / target).resolve()
        assert resolved.is_file(), f"{path.relative_to(ROOT)} links to {target}, which does not exist"
        assert resolved.is_relative_to(ROOT), f"{path.relative_to(ROOT)} links outside the repository: {target}"


# A path the text names in backticks, such as `packer/prompt.py` or `tests/core/test_linear_time.py`.
NAMED_PATH = re.compile(r"`((?:packer|tests|notebooks|exercises|solutions)/[^`\s]*)`")


def named_paths(path: Path) -> list[str]:
    """The repository paths a notebook's text names in backticks (relative to the repository root)."""
    cells = nbformat.read(path, as_version=4).cells
    return [p for cell in cells if cell.cell_type == "markdown" for p in NAMED_PATH.findall(cell.source)]


def test_named_paths_are_found_in_plain_and_linked_text():
    text = "see `packer/prompt.py` and [`tests/core/x.py`](../tests/core/x.py), not `chars/4`"
    assert NAMED_PATH.findall(text) == ["packer/prompt.py", "tests/core/x.py"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_repository_path_a_notebook_names_exists(path):
    """A lesson that cites a file by its path (a test, a module) must not outlive a move of that file."""
    for named in named_paths(path):
        assert (ROOT / named.rstrip("/")).exists(), f"{path.relative_to(ROOT)} names {named}, which does not exist"
