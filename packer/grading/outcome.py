"""What the grader learned about one submission: the gradebook row, as data that survives a regrade."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from packer.checking.engine import CheckResult

NOT_GRADED = "not graded"  # a question grading never reached (the notebook stopped), unlike "not attempted"
DID_NOT_RUN = "did not run"  # an answer written in a cell that raised (a syntax error), so it was never defined
STATUSES = (  # every row status the grader gives (docs/instructors.md's table)
    "graded",
    "no answers",
    "timeout",
    "kernel died",
    "flagged",
    "unreadable",
    "unknown lesson",
    "grader error",
)
RESULT_FIELDS = tuple(f.name for f in fields(CheckResult))  # a question result row, as the checks report it


@dataclass
class Outcome:
    """One gradebook row: who, what was graded, the results per question, and what was noticed."""

    name: str
    path: str
    sha256: str
    lesson: str
    status: str
    results: list[dict] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    learner: str = ""
    late: bool = False
    written: list[dict] = field(default_factory=list)  # open written answers: {"question", "answer"}
    checks_version: str = ""
    containment: str = ""  # how the kernel that ran it was contained (see Options.containment)
    lms: dict[str, str] = field(default_factory=dict)  # the course tool's own ids (see packer.grading.layouts)
    submitted_at: str = ""  # when it was handed in (ISO 8601), where the layout records it
    file_time: str = ""  # the file's modification time (ISO 8601), the order of last resort between resubmissions
    superseded_by: str = ""  # the submission that counts instead of this one ("" when this one counts)

    @property
    def score(self) -> int:
        """Points earned."""
        return sum(r["points"] for r in self.results)

    @property
    def max_score(self) -> int:
        """Points available."""
        return sum(r["max_points"] for r in self.results)

    def as_dict(self) -> dict[str, Any]:
        """Plain data (for a worker's reply)."""
        return asdict(self)


def not_graded(question: Any, why: str) -> dict:
    """The result of a question grading never reached, with the reason."""
    return {
        "qid": question.qid,
        "name": question.name,
        "status": NOT_GRADED,
        "points": 0,
        "max_points": question.points,
        "detail": f"not graded: {why}",
        "counterexample": None,
        "expected": None,
        "actual": None,
        "tried": 0,
    }


def did_not_run(question: Any, why: str) -> dict:
    """The result of a question whose answer was written but never defined: the cell holding it raised."""
    return {**not_graded(question, ""), "status": DID_NOT_RUN, "detail": f"did not run: {why}"}


def qid_order(qid: str) -> tuple[int, ...]:
    """Sort key for question ids: q1.10 after q1.9."""
    return tuple(int(n) for n in qid[1:].split("."))
