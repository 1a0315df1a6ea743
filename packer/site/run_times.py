"""How long each lesson takes to run top to bottom, measured when `make outputs` runs it, for the site's time
estimates (packer/site/outline.py).

`make outputs` executes every lesson with MeasuredExecute, nbconvert's ExecutePreprocessor (nbclient) that also
reads the kernel process's CPU time (user and system, its waited-for children's included: psutil's cpu_times, from
the operating system's own accounting) before and after each code cell, and stamps the difference on the cell
(`metadata["cpu_seconds"]`; nbformat's schema takes only timestamps in `metadata.execution`). CPU time is what
the lesson's own work costs, and a machine busy with other work barely changes it: the wall-clock span of the same
run grew four- to fivefold there (the site once said 30 s for lesson 02 and 40 s for 05, which take 5.9 and 8.0 s on
a quiet 2-core machine), their CPU time measured on the busy machine was 8 and 11 s. It leaves out the time a cell
waits on nothing but the clock (a sleep) or on a disk, which no lesson does for long. RecordRunTime, run after the
execution, adds the cells' CPU seconds up, about the time a learner's Run All takes once the kernel is up (the
kernel's own start is not counted), writes it into RUN_TIMES, and removes the stamps again, so the saved notebook is what it was without them. A notebook run
without MeasuredExecute (record_timing's stamps alone) falls back on the wall-clock span of the cells' stamps."""

from __future__ import annotations

import json
import math
from datetime import datetime
from pathlib import Path
from typing import Any

import psutil
from nbconvert.preprocessors import ExecutePreprocessor, Preprocessor
from traitlets import Unicode

from packer.site.saved_outputs import CHECKOUT

RUN_TIMES = Path("packer/site/run_times.json")  # relative to the repository
CPU = "cpu_seconds"
STAMPS = ("iopub.status.busy", "iopub.execute_input", "shell.execute_reply", "iopub.status.idle")
ABOUT = (
    "CPU seconds of the kernel running each lesson's code cells, added up, when make outputs last ran it "
    "(packer/site/run_times.py): about what Run All takes on a quiet machine; the kernel's start is not counted."
)


def kernel_cpu_seconds(pid: int) -> float:
    """The CPU time (user and system, waited-for children's included) the process `pid` has used so far."""
    times = psutil.Process(pid).cpu_times()
    return times.user + times.system + times.children_user + times.children_system


class MeasuredExecute(ExecutePreprocessor):
    """ExecutePreprocessor that stamps each code cell with the kernel's CPU seconds its execution took."""

    def preprocess_cell(self, cell: Any, resources: dict, index: int) -> tuple[Any, dict]:
        """Execute the cell as ExecutePreprocessor does, reading the kernel's CPU time before and after."""
        process = getattr(getattr(self.km, "provisioner", None), "process", None)
        if cell.get("cell_type") != "code" or process is None:
            return super().preprocess_cell(cell, resources, index)
        before = kernel_cpu_seconds(process.pid)
        cell, resources = super().preprocess_cell(cell, resources, index)
        cell.setdefault("metadata", {})[CPU] = kernel_cpu_seconds(process.pid) - before
        return cell, resources


def run_seconds(cells: list[Any]) -> float | None:
    """The seconds a run took: its code cells' CPU seconds added up (MeasuredExecute), or else the span of their
    execution stamps (None when the run recorded neither)."""
    measured = [
        cell["metadata"][CPU] for cell in cells if cell.get("cell_type") == "code" and CPU in cell.get("metadata", {})
    ]
    if measured:
        return float(sum(measured))
    starts, ends = [], []
    for cell in cells:
        stamps = cell.get("metadata", {}).get("execution", {})
        if cell.get("cell_type") == "code" and "shell.execute_reply" in stamps:
            starts.append(datetime.fromisoformat(stamps.get("iopub.status.busy", stamps["shell.execute_reply"])))
            ends.append(datetime.fromisoformat(stamps["shell.execute_reply"]))
    return (max(ends) - min(starts)).total_seconds() if starts else None


def read_run_times(root: Path) -> dict[str, int]:
    """The measured seconds of each lesson of the repository at `root`, by its path (notebooks/01_x.ipynb)."""
    path = root / RUN_TIMES
    if not path.is_file():
        return {}
    return dict(json.loads(path.read_text(encoding="utf-8"))["seconds"])


def record(root: Path, notebook: str, seconds: float) -> None:
    """Write a lesson's measured seconds (rounded up) into RUN_TIMES, keeping the other lessons'."""
    times = read_run_times(root) | {notebook: math.ceil(seconds)}
    text = json.dumps({"about": ABOUT, "seconds": dict(sorted(times.items()))}, indent=1)
    (root / RUN_TIMES).parent.mkdir(parents=True, exist_ok=True)
    (root / RUN_TIMES).write_text(text + "\n", encoding="utf-8")


class RecordRunTime(Preprocessor):
    """nbconvert preprocessor, after MeasuredExecute: a lesson's run time into RUN_TIMES, and the cells' stamps out
    of the saved notebook."""

    checkout = Unicode(str(CHECKOUT), help="The checkout whose lessons' times are kept").tag(config=True)
    enabled = True

    def preprocess(self, nb: Any, resources: dict) -> tuple[Any, dict]:
        """Record the run time of a lesson (a notebook in the checkout's notebooks/), then drop the stamps."""
        folder = Path(resources.get("metadata", {}).get("path") or ".").resolve()
        name = resources.get("metadata", {}).get("name")
        seconds = run_seconds(nb.cells)
        checkout = Path(self.checkout).resolve()
        if seconds is not None and name and folder == checkout / "notebooks":
            record(checkout, f"notebooks/{name}.ipynb", seconds)
        for cell in nb.cells:
            cell.get("metadata", {}).pop(CPU, None)
            stamps = cell.get("metadata", {}).get("execution")
            if isinstance(stamps, dict):
                for key in STAMPS:
                    stamps.pop(key, None)
                if not stamps:
                    del cell.metadata["execution"]
        return nb, resources
