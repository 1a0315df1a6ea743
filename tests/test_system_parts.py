"""What the tests use beyond Python, make and git (tests/system_parts.py): a machine without it passes `make test`,
skipping each test that needs a missing part with the reason and the command that installs it, and the run says
at its start and in its last lines what it could not test. A machine without the parts is made by leaving their
commands off PATH, as .ci/run does before it installs them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import system_parts

ROOT = Path(__file__).resolve().parents[1]
# Two of test_sandbox_modes.py's tests that grade nothing: a refusal that needs no system part, and one that needs
# bubblewrap (it runs on a fully equipped machine, and is the one skip on a machine without the parts).
CHEAP = "(refuses_and_says_why and given0) or kernels_reason"


def run_as_a_fresh_machine(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest on the repository's own tests with a PATH that has none of the system parts."""
    path = system_parts.path_without_parts(tmp_path / "bin", os.environ["PATH"])
    return subprocess.run(
        [sys.executable, "-m", "pytest", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PATH": path},
        timeout=300,
    )


def test_a_path_without_the_parts_keeps_every_other_command(tmp_path):
    (tmp_path / "bin").mkdir()
    path = system_parts.path_without_parts(tmp_path / "bin", os.environ["PATH"])
    found = set(os.listdir(path))
    assert {"make", "git", "prlimit"} <= found
    assert not found & {command for part in system_parts.PARTS for command in part.commands}


def test_every_part_names_its_debian_packages_and_the_tests_it_turns_on():
    packages = subprocess.run(
        [sys.executable, "tests/system_parts.py", "--packages"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert packages == ["chromium", "bubblewrap", "slurm-wlm", "munge", "nodejs", "npm"]
    for part in system_parts.PARTS:
        for path in re.findall(r"tests/[\w/]+\.py", part.turns_on):
            assert (ROOT / path).is_file(), (part.key, path)


def test_make_system_deps_installs_only_what_is_missing_from_the_one_list(tmp_path):
    (tmp_path / "bin").mkdir()
    without = system_parts.path_without_parts(tmp_path / "bin", os.environ["PATH"])
    missing = subprocess.run(
        [sys.executable, "tests/system_parts.py", "--missing-packages"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PATH": without},
    ).stdout.split()
    assert missing == ["chromium", "bubblewrap", "slurm-wlm", "munge", "nodejs", "npm"]
    recipe = subprocess.run(["make", "-n", "system-deps"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "tests/system_parts.py --missing-packages" in recipe.stdout
    assert "apt-get install -y" in recipe.stdout


def test_a_machine_without_the_parts_skips_what_needs_them_and_says_so_at_the_start_and_the_end(tmp_path):
    (tmp_path / "bin").mkdir()
    run = run_as_a_fresh_machine(tmp_path, "tests/grading/test_sandbox_modes.py", "-k", CHEAP, "-rs")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    out = run.stdout
    start, end = out.index("Not tested here"), out.rindex("Not tested here")
    assert start < out.index("test_sandbox_modes.py ") < end, "a block before the first test and one after the last"
    assert "  bubblewrap: 1 test will skip (bwrap not found on PATH (Debian's bubblewrap package); " in out[:end]
    assert "  bubblewrap: 1 test skipped (bwrap not found on PATH" in out[end:]
    for name in ("Chromium", "Slurm and munge", "Node.js and npm"):  # none of these tests needs them: counted 0
        assert f"  {name}: 0 tests skipped (" in out[end:]
    assert "`make system-deps` installs them" in out[end:]
    assert "SKIPPED [1] tests/grading/test_sandbox_modes.py" in out
    assert "needs bubblewrap (bubblewrap: bwrap not found on PATH" in out and "`make system-deps` installs it" in out
    assert re.search(r"^=+ 1 passed, 1 skipped, \d+ deselected in ", out.splitlines()[-1]), out.splitlines()[-1]


def test_with_xdist_the_start_is_said_once_from_the_workers_collection(tmp_path):
    (tmp_path / "bin").mkdir()
    run = run_as_a_fresh_machine(tmp_path, "-n", "2", "tests/grading/test_sandbox_modes.py", "-k", CHEAP)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert run.stdout.count("Not tested here") == 2, run.stdout
    assert "  bubblewrap: 1 test will skip (" in run.stdout and "  bubblewrap: 1 test skipped (" in run.stdout


@pytest.mark.needs("chromium", "bubblewrap", "slurm", "node")
def test_a_fully_equipped_machine_prints_nothing_extra():
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/grading/test_sandbox_modes.py", "-k", CHEAP],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    assert "Not tested here" not in run.stdout and "could not test" not in run.stdout
