"""What some tests use beyond Python, `make` and git: which of it this machine lacks, and what installs it.

`make system-deps` installs every Debian package named here, with apt-get (the Makefile's SYSTEM_DEPS; a test
checks the two lists agree). A test that needs a part says so with `@pytest.mark.needs("<key>")` (a test that uses
the `chromium` fixture needs Chromium without saying so); where the part is missing the root conftest.py skips it
with the reason and the command, and `make test` says at its start and in its last lines what was not tested.

Every part is looked up on PATH, so a machine without it can be tried by leaving it off PATH (.ci/run does).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

INSTALL = "make system-deps"
SLURM_COMMANDS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel", "sinfo")


@dataclass(frozen=True)
class Part:
    """A system part some tests need: its name, the Debian packages that bring it, and the tests it turns on."""

    key: str
    name: str
    packages: tuple[str, ...]
    commands: tuple[str, ...]  # what it puts on PATH (a machine without the part lacks these)
    turns_on: str
    check: Callable[[], str] | None = None  # '' when the part works here, else why not (default: its commands on PATH)


def chromium_path() -> str | None:
    """The Chromium the browser tests drive: WORKBOOK_CHROMIUM, else `chromium` on PATH (Debian's package)."""
    return os.environ.get("WORKBOOK_CHROMIUM") or shutil.which("chromium")


def _not_on_path(*commands: str) -> str:
    absent = [command for command in commands if shutil.which(command) is None]
    return f"{', '.join(absent)} not found on PATH" if absent else ""


def _chromium() -> str:
    path = chromium_path()
    if path is None:
        return "chromium not found on PATH"
    return "" if os.access(path, os.X_OK) else f"{path} is not an executable file"


def _bubblewrap() -> str:
    from packer.grading import sandbox

    return sandbox.probe() or ""


PARTS = (
    Part(
        "chromium",
        "Chromium",
        ("chromium",),
        ("chromium",),
        "the browser tests (tests/e2e: lessons, exercise path, tabs, site, hub)",
        _chromium,
    ),
    Part(
        "bubblewrap",
        "bubblewrap",
        ("bubblewrap",),
        ("bwrap",),
        "the grader's containment tests (tests/grading/test_sandbox.py, test_containment.py, test_sandbox_modes.py)",
        _bubblewrap,
    ),
    Part(
        "slurm",
        "Slurm and munge",
        ("slurm-wlm", "munge"),
        SLURM_COMMANDS,
        "grading on a real Slurm cluster (tests/grading/test_shards.py)",
    ),
    Part(
        "node",
        "Node.js and npm",
        ("nodejs", "npm"),
        ("node", "npm"),
        "the JupyterHub test, whose proxy npm installs (tests/e2e/test_hub_in_browser.py), and the site's axe-core tests"
        " (tests/e2e/test_site_accessibility.py; npm installs axe-core)",
    ),
)
BY_KEY = {part.key: part for part in PARTS}


@cache
def why_missing(key: str) -> str:
    """Why part `key` cannot be used here ('' when it can), looked up once per test process."""
    part = BY_KEY[key]
    return part.check() if part.check else _not_on_path(*part.commands)


def skip_reason(keys: list[str]) -> str:
    """The reason a test that needs the missing parts `keys` is skipped: what, why, and what installs it."""
    parts = [BY_KEY[key] for key in keys]
    packages = " ".join(package for part in parts for package in part.packages)
    whys = "; ".join(f"{part.name}: {why_missing(part.key)}" for part in parts)
    them = "them" if len(parts) > 1 or len(parts[0].packages) > 1 else "it"
    return f"needs {' and '.join(part.name for part in parts)} ({whys}); `{INSTALL}` installs {them} (apt-get install {packages})"


def missing_block(counts: dict[str, int], verb: str) -> list[str]:
    """The lines that tell what this run could not test: each missing part, how many tests, and what installs it."""
    lines = [
        f"Not tested here, for want of system parts (`{INSTALL}` installs them with apt-get, as root or with sudo):"
    ]
    for part in PARTS:
        if why_missing(part.key):
            count = counts.get(part.key, 0)
            lines.append(
                f"  {part.name}: {count} test{'s' if count != 1 else ''} {verb} "
                f"({why_missing(part.key)}; apt-get install {' '.join(part.packages)})"
            )
    return lines


def path_without_parts(folder: Path, path: str) -> str:
    """A PATH on which no part is found: `folder`, filled with links to every other command on `path`."""
    hidden = {command for part in PARTS for command in part.commands}
    for directory in path.split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for entry in sorted(os.listdir(directory)):
            source, link = Path(directory, entry), folder / entry
            if entry not in hidden and not link.exists() and source.is_file() and os.access(source, os.X_OK):
                link.symlink_to(source)
    return str(folder)


# python tests/system_parts.py FOLDER: fill FOLDER and print a PATH as a machine without the parts has (.ci/run);
# --packages: every package; --missing-packages: those of the parts whose commands are not on PATH (make system-deps).
if __name__ == "__main__":
    import sys

    if len(sys.argv) == 2 and sys.argv[1] == "--packages":
        print(" ".join(package for part in PARTS for package in part.packages))
    elif len(sys.argv) == 2 and sys.argv[1] == "--missing-packages":  # `make system-deps`: the parts not on PATH
        print(" ".join(package for part in PARTS if _not_on_path(*part.commands) for package in part.packages))
    elif len(sys.argv) == 2:
        print(path_without_parts(Path(sys.argv[1]), os.environ.get("PATH", "")))
    else:
        sys.exit("usage: python tests/system_parts.py FOLDER | --packages | --missing-packages")
