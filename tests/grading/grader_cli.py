"""The grader's command run as an instructor runs it, for the tests that need a whole grading run.

The grader contains every kernel with bubblewrap and refuses to grade where it cannot (packer.grading.sandbox).
Where bubblewrap cannot run here, the tests of everything else the grader does grade uncontained on purpose,
as an instructor would have to say (`--sandbox off`, added by `with_sandbox` unless a test chose its own);
the tests of containment itself need bubblewrap and skip without it (root conftest.py: `needs("bubblewrap")`).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from packer.grading import sandbox

ROOT = Path(__file__).resolve().parents[2]
CONTAINMENT_HERE = sandbox.probe() is None


def with_sandbox(args: Sequence[str]) -> list[str]:
    """The grader's arguments, with `--sandbox off` added where bubblewrap cannot run and no --sandbox is given."""
    args = list(args)
    if CONTAINMENT_HERE or any(arg == "--sandbox" or arg.startswith("--sandbox=") for arg in args):
        return args
    return [*args, "--sandbox", "off"]


def grader_command(*args: str) -> list[str]:
    """`python -m packer.grading ARGS` (see with_sandbox), for a test that starts the grader itself."""
    return [sys.executable, "-m", "packer.grading", *with_sandbox(args)]


def grade_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """`python -m packer.grading ARGS` from the repository root (see with_sandbox), its output captured as text."""
    return subprocess.run(grader_command(*args), capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env)


def grade_main(args: Sequence[str]) -> int:
    """The grader's main() in this process (see with_sandbox): its exit status."""
    from packer.grading import grader

    return grader.main(with_sandbox(args))
