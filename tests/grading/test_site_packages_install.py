"""The workbook installed into site-packages, as a hub image or Gradescope's autograder installs it, grades exactly
as the checkout's editable install does: the install holds every file of the package, the grader records
byte-identical generated inputs, its kernels replay them (no search again), and the demo class gets the same
gradebook rows.

Both graders run uncontained (--sandbox off): the site-packages venv reaches its dependencies through this
environment's folder, which a contained kernel could not read; containment is tested in test_containment.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import site_packages
from kernel_probe import LESSON_01_SEARCHED
from packer.grading.demo_class import KINDS, solution, write_submission

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
# The demo class's kinds whose rows the checks and the tampering guard decide, each reading packer where the install
# put it. The rest (a kernel that dies, input asked for, unreadable files, the runaways, ...) are decided before any
# check runs, by the grader's process, the same in any install: tests/grading/test_grade.py and
# tests/test_under_load.py grade every kind.
IMPORTING_PACKER = (
    "correct",
    "strict-comparison",
    "half-done",
    "untouched",
    "raises",
    "redefines-check",
    "patches-packer",
    "fake-results",
)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The python of a fresh venv with the workbook installed into its site-packages."""
    return site_packages.install(tmp_path_factory.mktemp("site-packages"))


def test_the_install_holds_every_file_of_the_package(installed):
    def files(folder: Path) -> list[str]:
        return sorted(
            p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
        )

    assert files(site_packages.purelib(installed) / "packer") == files(ROOT / "packer")


@pytest.fixture(scope="module")
def graded(tmp_path_factory, installed) -> dict[str, tuple[dict, Path]]:
    """The demo class's kinds whose rows come from the checks (IMPORTING_PACKER) graded by each install's grader,
    each keeping its warm-up in a cache folder of its own: {install: (gradebook, cache)}."""
    base = tmp_path_factory.mktemp("demo")
    folder = base / "class"
    folder.mkdir()
    for kind in IMPORTING_PACKER:
        write_submission(folder, kind, kind)
    books = {}
    for name, python in (("editable", Path(sys.executable)), ("site-packages", installed)):
        out, cache = base / f"grades-{name}", base / f"warm-ups-{name}"
        env = {**os.environ, "WORKBOOK_GRADER_CACHE": str(cache)}
        done = subprocess.run(
            [str(python), "-m", "packer.grading", str(folder), "--out", str(out), "--jobs", "2", "--timeout", "30"]
            + ["--sandbox", "off"],
            cwd=base,  # not the checkout: `python -m` would import its packer first
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        books[name] = (json.loads((out / "grades.json").read_text(encoding="utf-8")), cache)
    return books


def test_the_demo_class_gets_the_same_gradebook_rows_in_both_installs(graded):
    (editable, _), (installed, _) = graded["editable"], graded["site-packages"]
    differences = [
        (row["submission"], key, row[key], other.get(key))
        for row, other in zip(installed["submissions"], editable["submissions"])
        for key in row
        if row[key] != other.get(key)
    ]
    assert differences == []
    assert installed["submissions"] == editable["submissions"]
    assert installed["grader"] == editable["grader"]
    assert any(row["score"] == row["max_score"] > 0 for row in editable["submissions"])
    assert [row["status"] for row in editable["submissions"]] == [KINDS[kind][0] for kind in sorted(IMPORTING_PACKER)]


def test_both_graders_record_byte_identical_generated_inputs(graded):
    recorded = {}
    for name, (_, cache) in graded.items():
        (kept,) = [p for p in cache.iterdir() if p.is_dir()]
        recorded[name] = (kept / "generated.json").read_bytes()
    assert recorded["site-packages"] == recorded["editable"]
    assert len(json.loads(recorded["editable"])["inputs"]) > 30


def test_a_site_packages_kernel_replays_the_recorded_inputs(installed, tmp_path):
    nbformat.write(solution(), tmp_path / "solution.ipynb")
    done = subprocess.run(
        [str(installed), str(HERE / "kernel_probe.py"), str(tmp_path / "solution.ipynb")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    probed = json.loads(done.stdout.strip().splitlines()[-1])
    assert probed["kernel_packer"].startswith(str(site_packages.purelib(installed))), probed
    assert probed["accepted"] == LESSON_01_SEARCHED
