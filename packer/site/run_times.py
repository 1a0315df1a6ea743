"""How long each lesson takes to run top to bottom, measured when `make outputs` runs it, for the site's time
estimates (packer/site/outline.py).

`make outputs` executes every lesson with nbconvert's ExecutePreprocessor (nbclient) with `record_timing` on: the
kernel stamps each code cell with the times its execution began and its reply was sent
(`metadata.execution`, Jupyter's messaging protocol's `iopub.status.busy` and `shell.execute_reply`). This
preprocessor, run after the execution, takes the span from the first cell's start to the last cell's reply, the
time a learner's Run All takes once the kernel is up (the kernel's own start is not counted), writes it into
RUN_TIMES, and removes those timestamps again, so the saved notebook is what it was without them."""

from __future__ import annotations

import json
import math
from datetime import datetime
from pathlib import Path
from typing import Any

from nbconvert.preprocessors import Preprocessor
from traitlets import Unicode

from packer.site.saved_outputs import CHECKOUT

RUN_TIMES = Path("packer/site/run_times.json")  # relative to the repository
STAMPS = ("iopub.status.busy", "iopub.execute_input", "shell.execute_reply", "iopub.status.idle")
ABOUT = (
    "Seconds from the first code cell's start to the last cell's reply when make outputs last ran each lesson "
    "(packer/site/run_times.py); the kernel's start is not counted."
)


def run_seconds(cells: list[Any]) -> float | None:
    """The span of the code cells' execution stamps, in seconds (None when the run recorded none)."""
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
    """nbconvert preprocessor, after ExecutePreprocessor with record_timing: a lesson's run time into RUN_TIMES,
    and the cells' execution stamps out of the saved notebook."""

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
            stamps = cell.get("metadata", {}).get("execution")
            if isinstance(stamps, dict):
                for key in STAMPS:
                    stamps.pop(key, None)
                if not stamps:
                    del cell.metadata["execution"]
        return nb, resources
