"""Every notebook names the kernel exactly as this environment's kernel describes itself.

JupyterLab writes the running kernel's spec (name, display name, language) and its language_info into the
notebook's metadata as soon as the kernel connects; when they differ from what the file holds, an untouched
notebook opens already marked modified and asks to be saved when its tab closes (tests/e2e checks that in the
browser). nbconvert --execute (`make outputs`) rewrites language_info but keeps the file's kernelspec, and the
exercise generator copies both from the solution, so the files themselves must be right.
"""

import re
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import start_new_kernel

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for folder in ("notebooks", "exercises", "solutions") for p in (ROOT / folder).glob("*.ipynb"))
KERNEL = "python3"  # the kernel every notebook names; ipykernel installs it into the environment


def _metadata(path: Path) -> dict:
    return nbformat.read(path, as_version=4).metadata


@pytest.fixture(scope="module")
def language_info() -> dict:
    """What this environment's kernel reports (and JupyterLab writes into the notebook) as its language_info."""
    manager, client = start_new_kernel(kernel_name=KERNEL)
    try:
        return client.kernel_info(reply=True, timeout=60)["content"]["language_info"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def pinned_python() -> str:
    """The Python version constraints.txt was made with: the one the saved outputs (and metadata) come from."""
    return re.search(r"^# Python (\d+\.\d+\.\d+)", (ROOT / "constraints.txt").read_text(), re.M).group(1)


def test_there_are_notebooks_in_all_three_folders():
    assert {p.parent.name for p in NOTEBOOKS} == {"notebooks", "exercises", "solutions"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_kernelspec_is_the_installed_kernels(path):
    spec = KernelSpecManager().get_kernel_spec(KERNEL)
    installed = {"display_name": spec.display_name, "language": spec.language, "name": KERNEL}
    assert dict(_metadata(path).get("kernelspec", {})) == installed, (
        f"{path.relative_to(ROOT)}: JupyterLab would rewrite the kernelspec (and mark the notebook modified) on opening"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_language_info_is_the_kernels(path, language_info):
    saved = dict(_metadata(path).get("language_info", {}))
    # The version is the pinned Python's (the one `make outputs` runs with), whatever Python runs this test.
    assert saved == {**language_info, "version": pinned_python()}, (
        f"{path.relative_to(ROOT)}: the kernel reports {language_info}; run `make outputs exercises`"
    )
