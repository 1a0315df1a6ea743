"""The worker pool hands a long-lived worker's slot to a fresh one without the two ever overlapping."""

from __future__ import annotations

import tempfile
import uuid

import nbformat

from packer.grading import pool as pool_module
from packer.grading.grader import grade_all
from packer.grading.running import Options
from packer.grading.submissions import find_submissions, naming_root
from packer.grading.demo_class import solution


def test_a_recycled_worker_is_gone_before_its_successor_starts_and_no_row_is_lost(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    folder.mkdir()
    for number in range(5):
        nbformat.write(solution(), folder / f"learner{number}-01_assemble_context.ipynb")
    root, top = naming_root([folder])
    submissions, _ = find_submissions([folder], root, top)
    monkeypatch.setattr(pool_module, "RECYCLE_AFTER", 2)
    overlaps, starts = [], []
    real_start = pool_module.Pool._start

    def start(self, slot):
        starts.append(slot)
        overlaps.extend(w.process.pid for w in getattr(self, "retired", []) if w.process.is_alive())
        return real_start(self, slot)

    monkeypatch.setattr(pool_module.Pool, "_start", start)
    run_dir = tempfile.mkdtemp(dir=tmp_path)
    options = Options(20, 120, (), "", run_dir, uuid.uuid4().hex, None)
    outcomes, _ = grade_all(submissions, options, jobs=1)
    assert starts == [0, 0, 0]  # the first worker, then one after the 2nd and one after the 4th submission
    assert overlaps == []
    assert [o.name.split("/")[-1] for o in outcomes] == [f"learner{n}-01_assemble_context.ipynb" for n in range(5)]
    assert all(o.status == "graded" and o.score == o.max_score for o in outcomes), [o.as_dict() for o in outcomes]
