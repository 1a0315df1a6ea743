"""The grader's three ways with containment: every kernel contained (the default, where bubblewrap runs), a refusal
that says why and what to do (where it cannot run), and uncontained on purpose (`--sandbox off`), which the
gradebook and each learner's feedback record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader_cli import ROOT
from packer.grading.demo_class import solution

NAMESPACE_LIMITS = ("user", "mnt", "pid", "net", "ipc", "uts", "cgroup")


def one_learner(tmp_path: Path) -> Path:
    folder = tmp_path / "class"
    folder.mkdir()
    nbformat.write(solution(), folder / "alice-01_assemble_context.ipynb")
    return folder


def grader(*args: str, env: dict[str, str] | None = None, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """The grader exactly as given (no --sandbox added), from the repository root."""
    command = [*prefix, sys.executable, "-m", "packer.grading", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)


def only_row(out: Path) -> dict:
    (row,) = json.loads((out / "grades.json").read_text(encoding="utf-8"))["submissions"]
    return row


def assert_refused(run: subprocess.CompletedProcess, reason: str, out: Path) -> None:
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert f"refusing to grade uncontained: {reason}" in run.stderr, run.stderr
    assert "install bubblewrap: sudo apt-get install bubblewrap" in run.stderr
    assert "--sandbox off" in run.stderr
    assert not out.exists(), "a refused run writes nothing"


@pytest.mark.parametrize("given", [[], ["--sandbox", "on"], ["--sandbox", "required"], ["--sandbox", "auto"]])
def test_without_bubblewrap_the_grader_refuses_and_says_why_and_what_to_do(tmp_path, given):
    env = {**os.environ, "PATH": str(tmp_path)}  # no bwrap on this PATH
    out = tmp_path / "grades"
    run = grader(str(one_learner(tmp_path)), "--out", str(out), *given, env=env)
    assert_refused(run, "bwrap not found on PATH (Debian's bubblewrap package)", out)


@pytest.mark.needs("bubblewrap")
def test_where_the_kernel_allows_no_namespaces_the_refusal_gives_the_kernels_reason(tmp_path):
    """As in a container that forbids them: in a user namespace of its own, every namespace limit set to 0."""
    limits = "; ".join(f"echo 0 > /proc/sys/user/max_{kind}_namespaces" for kind in NAMESPACE_LIMITS)
    prefix = ("unshare", "--user", "--map-root-user", "sh", "-c", f'{limits} && exec "$@"', "sh")
    out = tmp_path / "grades"
    run = grader(str(one_learner(tmp_path)), "--out", str(out), prefix=prefix)
    reason = "bwrap cannot create namespaces here: bwrap: Creating new namespace failed: "
    assert_refused(run, reason, out)
    assert "max_*_namespaces exceeded" in run.stderr, run.stderr  # the kernel's own reason, through bwrap


def test_sandbox_off_grades_uncontained_on_purpose_and_every_record_says_so(tmp_path):
    env = {**os.environ, "PATH": str(tmp_path)}  # no bwrap: off needs none
    out = tmp_path / "grades"
    run = grader(str(one_learner(tmp_path)), "--out", str(out), "--jobs", "1", "--sandbox", "off", env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "refusing" not in run.stderr and "WARNING" not in run.stderr
    row = only_row(out)
    assert row["containment"] == "none: the kernel ran with the grader's own rights"
    assert row["score"] == row["max_score"]
    feedback = (out / "feedback" / "class" / "alice-01_assemble_context.ipynb.md").read_text(encoding="utf-8")
    assert "- containment: none: the kernel ran with the grader's own rights" in feedback


@pytest.mark.needs("bubblewrap")
def test_by_default_every_kernel_is_contained_and_the_records_say_how(tmp_path):
    out = tmp_path / "grades"
    run = grader(str(one_learner(tmp_path)), "--out", str(out), "--jobs", "1")
    assert run.returncode == 0, run.stderr[-2000:]
    row = only_row(out)
    assert row["containment"].startswith("bubblewrap (no network, private /tmp, own folder only); memory 2048 MiB")
    assert row["score"] == row["max_score"]
    feedback = (out / "feedback" / "class" / "alice-01_assemble_context.ipynb.md").read_text(encoding="utf-8")
    assert f"- containment: {row['containment']}" in feedback
