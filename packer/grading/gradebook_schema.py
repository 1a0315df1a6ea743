"""The shape of grades.json, checked when a gradebook is read: a hand-edited gradebook the grader cannot use is
refused before any grading, naming the file, the row and the field, and nothing is written. Beyond the schema, a
test's score must lie between 0 and its max_score, and a submission has one row.

The schema is JSON Schema (draft 2020-12: https://json-schema.org/draft/2020-12), checked with the `jsonschema`
package that nbformat itself validates notebooks with (a dependency of nbformat, so of every set the workbook
installs). It asks of each row what the grader reads from it: the keys it cannot do without (`submission`,
`status`, `tests`, and each test's `qid`, `name`, `status`, `score`, `max_score`), and the type of every other
key the grader reads, wherever it is present. Keys the grader does not read are left alone.

A row's `score` and `max_score` are not read back: they are the sums of its tests' `score` and `max_score`,
written again on every run. `edited_totals` finds the rows where they were changed by hand, for the grader to
say which (the way to change a grade by hand is a test's `score`, which the total then follows).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from packer.grading.outcome import DID_NOT_RUN, NOT_GRADED, STATUSES

TEST_STATUSES = ("passed", "failed", "not attempted", NOT_GRADED, DID_NOT_RUN)
TEXT = {"type": "string"}
TEXTS = {"type": "array", "items": TEXT}
TEXT_OR_NONE = {"type": ["string", "null"]}
POINTS = {"type": "number", "minimum": 0}
COUNT = {"type": "integer", "minimum": 0}
COUNT_OR_NONE = {"type": ["integer", "null"], "minimum": 0}

TEST = {
    "type": "object",
    "required": ["qid", "name", "status", "score", "max_score"],
    "properties": {
        "qid": {"type": "string", "pattern": r"^q[0-9]+(\.[0-9]+)+$"},
        "name": TEXT,
        "function": TEXT,
        "status": {"enum": list(TEST_STATUSES)},
        "score": POINTS,
        "max_score": POINTS,
        "output": TEXT,
        "detail": TEXT_OR_NONE,  # the grader writes null for a detail a result does not have
        "counterexample": TEXT_OR_NONE,
        "expected": TEXT_OR_NONE,
        "actual": TEXT_OR_NONE,
        "tried": COUNT_OR_NONE,
        "printed": TEXT_OR_NONE,
        "printed_lines": COUNT_OR_NONE,
    },
}
ROW = {
    "type": "object",
    "required": ["submission", "status", "tests"],
    "properties": {
        "submission": {"type": "string", "minLength": 1},
        "learner": TEXT,
        "lms": {"type": "object", "additionalProperties": TEXT},
        "late": {"type": "boolean"},
        "submitted_at": TEXT,
        "file_time": TEXT,
        "superseded_by": TEXT,
        "sha256": TEXT,
        "lesson": TEXT,
        "status": {"enum": list(STATUSES)},
        "score": POINTS,
        "max_score": POINTS,
        "flags": TEXTS,
        "notes": TEXTS,
        "output": TEXT,
        "checks_version": TEXT,
        "containment": TEXT,
        "written": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["question", "answer"],
                "properties": {"question": TEXT, "answer": TEXT},
            },
        },
        "tests": {"type": "array", "items": TEST},
    },
}
GRADEBOOK = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["grader", "submissions"],  # what the grader cannot read a gradebook without
    "properties": {
        "format": {"type": "integer"},
        "grader": {
            "type": "object",
            "required": ["checks_version"],
            "properties": {
                "checks_version": TEXT,
                "cell_timeout": {"type": "number", "exclusiveMinimum": 0},
                "notebook_timeout": {"type": "number", "exclusiveMinimum": 0},
                "wall_factor": {"type": "number", "minimum": 1},
                "questions": {"anyOf": [{"const": "all"}, TEXTS]},
                "lesson": TEXT,
            },
        },
        "gradebook": {
            "type": "object",
            "properties": {
                "root": TEXT,
                "top": COUNT,
                "files": TEXTS,
                "skipped": TEXTS,
                "changed_during_grading": TEXTS,
                "lms": {
                    "type": "object",
                    "properties": {
                        "bom": {"type": "boolean"},
                        "canvas_columns": {"type": "object", "additionalProperties": TEXT},
                        "due": TEXT,
                    },
                },
                "due": TEXT,
                "shard": {"type": "object"},
            },
        },
        "submissions": {"type": "array", "items": ROW},
    },
}
TYPE_WORDS = {
    "string": "text",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object ({...})",
    "null": "null",
}


def check_gradebook(data: Any, path: Path) -> None:
    """A ValueError naming `path`, the row and the field, when the gradebook read from it has a shape the grader
    cannot use; None when it can."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(GRADEBOOK)
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(part) for part in e.absolute_path])
    shown = [_where(error, data) for error in errors[:3]]
    problems = len(errors)
    if not errors:  # the shape is right: now what no schema keyword says (a score above its maximum, a row twice)
        found = beyond_the_schema(data)
        shown, problems = found[:3], len(found)
    if not shown:
        return
    more = f" (and {problems - 3} more)" if problems > 3 else ""
    raise ValueError(
        f"{path}: the gradebook cannot be read: {'; '.join(shown)}{more}. Put back what was changed, or grade into "
        f"a new folder{backup_words(path)}; nothing was graded or written"
    )


def backup_words(path: Path) -> str:
    """The words naming backup/grades.json beside a gradebook's file, when it is there ("" when not)."""
    backup = path.parent / "backup" / "grades.json"
    return f" ({backup} holds the gradebook as it was before the grader's last run there)" if backup.exists() else ""


def beyond_the_schema(data: dict[str, Any]) -> list[str]:
    """The problems of a well-shaped gradebook that its schema cannot state: a test's score above its max_score,
    and a submission with two rows (the grader would keep one of them without a word)."""
    problems = []
    seen: dict[str, int] = {}
    for number, row in enumerate(data["submissions"], start=1):
        name = json.dumps(row["submission"], ensure_ascii=False)
        if row["submission"] in seen:
            problems.append(
                f"row {number} ({name}) is a second row of the submission row {seen[row['submission']]} holds: "
                "keep one of them"
            )
        seen.setdefault(row["submission"], number)
        for index, test in enumerate(row["tests"]):
            if test["score"] > test["max_score"]:
                problems.append(
                    f"row {number} ({name}): tests[{index}] ({test['qid']}): score must be at most max_score "
                    f"({test['max_score']:g}), not {test['score']:g}"
                )
    return problems


def _where(error: Any, data: Any) -> str:
    """One problem, as 'row 3 (submissions/alice/ex.ipynb), tests[1]: score must be a number, not "3"'."""
    path = list(error.absolute_path)
    words, whole, here = [], "the file", data
    if len(path) >= 2 and path[0] == "submissions" and isinstance(path[1], int):
        here = data["submissions"][path[1]]
        name = here.get("submission") if isinstance(here, dict) else None
        words.append(
            f"row {path[1] + 1}" + (f" ({json.dumps(name, ensure_ascii=False)})" if isinstance(name, str) else "")
        )
        path, whole = path[2:], "the row"
        if len(path) >= 2 and path[0] == "tests" and isinstance(path[1], int):
            test = here["tests"][path[1]]
            qid = test.get("qid") if isinstance(test, dict) else None
            words.append(f"tests[{path[1]}]" + (f" ({qid})" if isinstance(qid, str) else ""))
            path, whole = path[2:], "the test"
    field = ".".join(str(part) for part in path) or whole
    if error.validator == "required":
        missing = [key for key in error.validator_value if key not in error.instance][0]
        problem = f"{missing if field == whole else field + '.' + missing} is missing"
    else:
        found = json.dumps(error.instance, ensure_ascii=False)
        found = found if len(found) <= 40 else found[:37] + "..."
        problem = f"{field} must be {_wanted(error)}, not {found}"
    return ": ".join([*words, problem])


def _wanted(error: Any) -> str:
    """What a field must be, in words, from the schema rule it broke."""
    rule, value = error.validator, error.validator_value
    if rule == "type":
        return " or ".join(TYPE_WORDS.get(kind, kind) for kind in (value if isinstance(value, list) else [value]))
    if rule == "enum":
        return "one of " + ", ".join(json.dumps(choice) for choice in value)
    if rule == "pattern":
        return "a question id such as q1.2"
    if rule in ("minimum", "exclusiveMinimum"):
        return f"{'at least' if rule == 'minimum' else 'more than'} {value}"
    if rule == "minLength":
        return "some text"
    if rule == "anyOf":
        return '"all" or a list of question ids'
    return f"as the grader writes it ({error.message})"


def edited_totals(data: dict[str, Any]) -> dict[str, str]:
    """The rows whose `score` or `max_score` is not the sum of their tests' (changed by hand), by submission, each
    as "score 9 where its tests' scores add up to 7"."""
    edited = {}
    for row in data["submissions"]:
        changes = [
            f"{key} {row[key]:g} where its tests' {key}s add up to {total:g}"
            for key in ("score", "max_score")
            if key in row and row[key] != (total := sum(test[key] for test in row["tests"]))
        ]
        if changes:
            edited[row["submission"]] = " and ".join(changes)
    return edited
