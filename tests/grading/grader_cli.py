"""The grader's command run as an instructor runs it, for the tests that need a whole grading run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def grade_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """`python -m packer.grading ARGS` from the repository root, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "packer.grading", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
    )
