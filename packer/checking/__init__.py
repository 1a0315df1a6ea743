"""For learners: the self-checks in the exercises (the instructor's grader reuses them).

A learner calls `check("q1.1", assemble_context)` in an exercise notebook; the grader calls the same
functions in each submission's kernel. Inside: `engine` (how one question is checked, on `limits`: running
an answer under the time limit, `compare`: comparing results, `feedback`: describing a counterexample,
`references`: the references an answer may not borrow, and `search`: the generated inputs, which belong to the
question alone, whatever the kernel loaded and wherever packer is installed), `questions_01_...`
to `questions_09_...` (one module per exercise, named after its lesson: its questions, fixed cases, generated
inputs and references), `questions_shared` (the input generators several exercises share), `bank` (BANK, the
questions of every exercise in order), `inputs` (the pasteable helpers counterexamples may show),
`linear` (q3.1's linear-work requirement), `variants` (reference answers to the variant questions),
`replay` (the grader's recorded generated inputs, replayed instead of generated again) and `exercises`
(`python -m packer.checking.exercises` writes exercises/ from solutions/).
Imports point down only: this package uses the core `packer`, never `packer.lab` or `packer.grading`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from packer.checking.engine import (
    DEFER_VARIABLE,
    DEFERRED,
    FAILED,
    GENERATED_EXAMPLES,
    NOT_ATTEMPTED,
    PASSED,
    TIME_LIMIT,
    CheckInterrupted,
    CheckResult,
    Question,
    borrowed_reference,
    code_key,
    evaluate,
    forbid_copies,
    shown,
)
from packer.checking.bank import BANK
from packer.checking import replay


def question(qid: str) -> Question:
    """The question with this id, or a ValueError naming the known ids."""
    if qid not in BANK:
        raise ValueError(f"qid: unknown question {qid!r}; known: {', '.join(sorted(BANK))}")
    return BANK[qid]


def check(qid: str, answer: Any) -> CheckResult:
    """Check one answer: fixed cases, then generated inputs; report the first failing case or smallest disagreement.
    In a notebook the result is shown at once, wherever the call sits in its cell."""
    if os.environ.get(DEFER_VARIABLE) == "1":
        found = question(qid)
        result = CheckResult(
            qid, found.name, DEFERRED, 0, found.points, detail="the grader checks this after the notebook has run"
        )
    else:
        result = evaluate(question(qid), answer, TIME_LIMIT)
    return shown(result)


def require_full_marks(qid: str, answer: Any) -> None:
    """check(), then an AssertionError unless the answer earned every point: the body of an nbgrader test cell.
    nbgrader gives a test cell no points when it raises (or writes to stderr), and a cell whose result is a
    number that many points (its utils.determine_grade); every workbook check is all or nothing, so this raises
    on anything short of full marks and returns nothing to be read as a grade. The verdict and its
    counterexample are shown first, so they become nbgrader's feedback. Under the workbook's own grader, which
    checks every answer after the notebook has run, it raises nothing."""
    result = check(qid, answer)
    if result.points != result.max_points and result.status != DEFERRED:  # the workbook's grader checks it later
        raise AssertionError(f"{qid}: {result.status}, {result.points} of {result.max_points} points")


def run_check(qid: str, answer: Any, generated: list[tuple] | None = None) -> CheckResult:
    """check() for the grader: always runs the cases and the search now, shows nothing, and sets no time
    limit of its own (the grader times the kernel; an interrupt still stops the check). `generated`: the
    question's recorded generated inputs (packer.checking.replay), replayed before any search."""
    return evaluate(question(qid), answer, generated=generated)


def questions(lesson: str) -> list[Question]:
    """The questions of one lesson ('1' .. '4' or '01_assemble_context'), in order."""
    match = re.match(r"\d+", str(lesson))
    if not match:
        raise ValueError(f"lesson: expected a number or a slug like '01_assemble_context', got {lesson!r}")
    number = str(int(match.group()))
    return [q for qid, q in sorted(BANK.items(), key=lambda kv: _order(kv[0])) if qid.split(".")[0] == f"q{number}"]


def _order(qid: str) -> tuple[int, int]:
    major, minor = qid[1:].split(".")
    return int(major), int(minor)


def grade(namespace: Mapping[str, Any], lesson: str) -> list[CheckResult]:
    """Check every question of a lesson against the names a notebook defined."""
    results = []
    for found in questions(lesson):
        answer = namespace.get(found.name)
        if answer is None:
            results.append(
                CheckResult(found.qid, found.name, NOT_ATTEMPTED, 0, found.points, detail=f"no {found.name} defined")
            )
        else:
            results.append(run_check(found.qid, answer))
    return results


__all__ = [
    "BANK",
    "DEFERRED",
    "DEFER_VARIABLE",
    "FAILED",
    "GENERATED_EXAMPLES",
    "NOT_ATTEMPTED",
    "PASSED",
    "TIME_LIMIT",
    "CheckInterrupted",
    "CheckResult",
    "Question",
    "borrowed_reference",
    "check",
    "code_key",
    "evaluate",
    "forbid_copies",
    "grade",
    "question",
    "questions",
    "replay",
    "require_full_marks",
    "run_check",
]
