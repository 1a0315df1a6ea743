"""Submissions as the grading tests lay them out: a learner's notebook of a demo kind, an unreadable file, a file
written where a course tool would put it, a question's result as a row keeps it, and the grader's CSV read back."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import nbformat

from packer.grading.demo_class import KINDS

GARBAGE = "this is not a notebook {"  # an unreadable file: a row, no kernel


def notebook(kind: str) -> str:
    """The text of a demo-class submission of this kind (packer.grading.demo_class.KINDS)."""
    made = KINDS[kind][1]()
    return made if isinstance(made, str) else nbformat.writes(made)


def write(path: Path, text: str, mtime: float | None = None) -> Path:
    """Write `text` at `path` (folders made), with the given modification time if any."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def table(path: Path, encoding: str = "utf-8") -> list[dict[str, str]]:
    """A CSV the grader wrote, as one dict per row."""
    return list(csv.DictReader(io.StringIO(path.read_text(encoding=encoding))))


def result(qid: str, name: str, status: str, points: int, top: int, **details) -> dict:
    """A question's result in a gradebook row (Outcome.results), for the tests that write rows without a kernel:
    `details` are the check's detail, counterexample, expected, actual, printed and printed_lines."""
    return {
        "qid": qid,
        "name": name,
        "status": status,
        "points": points,
        "max_points": top,
        "detail": details.get("detail", ""),
        "counterexample": details.get("counterexample"),
        "expected": details.get("expected"),
        "actual": details.get("actual"),
        "tried": 1,
        "printed": details.get("printed", ""),
        "printed_lines": details.get("printed_lines", 0),
    }
