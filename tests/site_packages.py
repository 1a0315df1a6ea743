"""The workbook installed as a hub image or Gradescope installs it: `pip install` (not editable) into the
site-packages of a fresh venv. For the tests that compare such an install with the checkout's editable one.

The fresh venv gets the package only; the packages it depends on are this environment's, reached through a
`.pth` line (a plain path, so this environment's own `.pth` files, the editable install's among them, are not
read there). It is built offline from a copy of the package's sources (pip would write build/ and *.egg-info
into the checkout), with this environment's setuptools (pyproject's [contributor] set) as the build backend.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "packer")


def purelib(python: Path | str) -> Path:
    """The site-packages folder of the environment whose interpreter is `python`."""
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return Path(subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True).stdout.strip())


def install(folder: Path) -> Path:
    """Make a fresh venv in `folder` with the workbook installed into its site-packages; return its python."""
    venv.create(folder / "venv", with_pip=False)
    python = folder / "venv" / "bin" / "python"
    (purelib(python) / "workbook-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    source = folder / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--disable-pip-version-check"]
        + ["--no-deps", "--no-build-isolation", "--no-index", str(source)],
        check=True,
        capture_output=True,
    )
    shutil.rmtree(source)
    return python
