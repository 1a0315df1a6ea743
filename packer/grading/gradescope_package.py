"""Gradescope's autograder: the zip its Configure Autograder page takes, and the Python half of run_autograder.

    python -m packer.grading.gradescope_package build [--lesson 01] [--out dist]    (make gradescope LESSON=01)
    python -m packer.grading.gradescope_package pick --root /autograder --into DIR [--lesson SLUG]
    python -m packer.grading.gradescope_package report --root /autograder --gradebook DIR --status N [...]

`build` writes dist/gradescope-<lesson>.zip: setup.sh and run_autograder at its root (from packer/grading/gradescope_files/ in the
repository, run_autograder with the lesson written in), the grader's packer/ (every .py file, as
checks_version counts them), pyproject.toml and constraints.txt (setup.sh installs from them), and one
placeholder notebook per lesson in solutions/: the grader knows the lessons by those file names
(running.lessons) and never reads them, so the worked answers stay out of the container a submission runs
in. Members, their order, timestamps and modes are fixed: two builds of one tree are the same bytes.
`pick` and `report` are run_autograder's steps that need Python: choosing the one submitted notebook, and
writing results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/) whatever happened.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

# Only what run_autograder's steps need is imported here: nbformat, which the build needs, takes seconds to
# import, twice per submission.
from packer.grading.escaping import (
    GRADESCOPE_HTML,
    GRADESCOPE_TEXT,
    html_text,
    one_line,
    plain_text,
    shown_values,
    terminal,
)
from packer.grading.submissions import find_submissions, naming_root, read_bytes

SCRIPTS = ("setup.sh", "run_autograder")  # in packer/grading/gradescope_files/; at the zip's root, executable
TOP_FILES = ("pyproject.toml", "constraints.txt")
LESSON_LINE = 'BUILT_FOR_LESSON=""'  # the line of run_autograder that build rewrites
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip can record: no build time leaks into the bytes
RESULTS_NAME = "results/results.json"
METADATA_NAME = "submission_metadata.json"
SHOWN_NAMES = 10  # file names listed, at most, when a submission holds the wrong files
Member = tuple[str, bytes, int]  # (name in the zip, bytes, Unix mode)


# --- building the zip -------------------------------------------------------------------------------------------
def placeholder(slug: str) -> bytes:
    """A small valid notebook standing for a lesson's solution notebook (only its name is ever read)."""
    notebook = {
        "cells": [
            {
                "cell_type": "markdown",
                "id": "placeholder",
                "metadata": {},
                "source": f"Placeholder for lesson {slug}'s worked answers, which the autograder does not ship: "
                "the grader knows the lessons by these file names (packer.grading.running.lessons).",
            }
        ],
        "metadata": {"workbook": {"lesson": slug}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return (json.dumps(notebook, indent=1, sort_keys=True) + "\n").encode("utf-8")


def with_lesson(script: str, lesson: str) -> str:
    """run_autograder's text with the lesson it grades as written in ("" leaves each notebook's own)."""
    if script.count(LESSON_LINE) != 1:
        raise ValueError(f"run_autograder must hold the line {LESSON_LINE!r} exactly once")
    return script.replace(LESSON_LINE, f'BUILT_FOR_LESSON="{lesson}"')


def members(lesson: str, root: Path | None = None) -> list[Member]:
    """Everything the zip holds (from the grader's own folder by default): the scripts first, the rest by name."""
    from packer.checking.exercises import solution_lessons, solution_name
    from packer.grading.running import GRADER_ROOT

    root = root or GRADER_ROOT
    texts = {
        name: (root / "packer" / "grading" / "gradescope_files" / name).read_text(encoding="utf-8") for name in SCRIPTS
    }
    texts["run_autograder"] = with_lesson(texts["run_autograder"], lesson)
    scripts = [(name, texts[name].encode("utf-8"), 0o755) for name in SCRIPTS]
    rest = [(name, (root / name).read_bytes(), 0o644) for name in TOP_FILES]
    rest += [(path.relative_to(root).as_posix(), path.read_bytes(), 0o644) for path in (root / "packer").rglob("*.py")]
    rest += [(f"solutions/{solution_name(slug)}", placeholder(slug), 0o644) for slug in solution_lessons(root)]
    return scripts + sorted(rest)


def write_zip(entries: list[Member], path: Path) -> None:
    """Write the entries as a zip with fixed timestamps, modes and compression (replaced in one step)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(partial, "w") as archive:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.create_system = 3  # Unix, so that the mode below is read
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data, compresslevel=9)
    os.replace(partial, path)


def build(lesson: str, out: Path) -> Path:
    """Write the autograder zip for a lesson ('01', '1' or a slug; '' for any lesson) into `out`; its path."""
    from packer.grading.command_line import resolve_lesson

    slug = resolve_lesson(lesson)
    path = out / f"gradescope-{slug or 'all'}.zip"
    write_zip(members(slug), path)
    return path


# --- run_autograder's steps -------------------------------------------------------------------------------------
def learner_names(root: Path) -> str:
    """The submitters' names from submission_metadata.json (a group's joined with commas); "" when unknown."""
    try:
        metadata = json.loads((root / METADATA_NAME).read_text(encoding="utf-8"))
        users = metadata.get("users") or []
        return ", ".join(str(user["name"]) for user in users if isinstance(user, dict) and user.get("name"))
    except (OSError, ValueError, AttributeError, TypeError):
        return ""


def wanted_file(lesson: str) -> str:
    """What the learner should hand in, in words."""
    from packer.checking.exercises import exercise_name

    if not lesson:
        return "your exercise notebook (a .ipynb file)"
    return f"your exercise notebook (a .ipynb file: your copy of {exercise_name(lesson)})"


def not_graded_tests(lesson: str, why: str) -> list[dict[str, Any]]:
    """Every question of the lesson at 0 points with the reason, so the learner sees what the assignment holds."""
    if not lesson:
        return []
    from packer.checking import questions

    try:
        found = questions(lesson)
    except ValueError:
        return []
    return [
        {
            "score": 0,
            "max_score": q.points,
            "status": "failed",
            "name": plain_text(f"{q.qid} {q.name}"),
            "name_format": GRADESCOPE_TEXT,
            "number": q.qid,
            "output": plain_text(f"not graded: {why}"),
            "output_format": GRADESCOPE_TEXT,
        }
        for q in found
    ]


def failure(message: str, lesson: str, why: str, learner: str = "", **extra: Any) -> dict[str, Any]:
    """A results.json for a submission that was not graded: score 0 and, for the learner, what went wrong (each text
    field in the format it is written for, as packer.grading.reports.to_gradescope writes them)."""
    return {
        "score": 0,
        "output": html_text(message),
        "output_format": GRADESCOPE_HTML,
        "test_output_format": GRADESCOPE_TEXT,
        "test_name_format": GRADESCOPE_TEXT,
        "visibility": "visible",
        "extra_data": shown_values({"learner": learner, "lesson": lesson, "status": "not graded", **extra}),
        "tests": not_graded_tests(lesson, why),
    }


def write_results(root: Path, results: dict[str, Any]) -> None:
    """Write results.json in one step (Gradescope never reads half a file)."""
    path = root / RESULTS_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, path)


def listing(names: list[str]) -> str:
    """File names for a message, the first few of them."""
    shown = ", ".join(names[:SHOWN_NAMES])
    return shown + (f" and {len(names) - SHOWN_NAMES} more" if len(names) > SHOWN_NAMES else "")


def pick(root: Path, into: Path, lesson: str) -> int:
    """Copy the one submitted notebook into `into` (0); else write a results.json saying what is wrong (1)."""
    folder = (root / "submission").resolve()
    learner = learner_names(root)
    found, skipped = find_submissions([folder], *naming_root([folder])) if folder.is_dir() else ([], [])
    inside = [s.name.split("/", 1)[-1] for s in found]  # names as the learner knows them
    others = [line.split("/", 1)[-1].split(": ")[0] for line in skipped]
    if len(found) == 1 and not found[0].problem:
        submission = found[0]
        into.mkdir(parents=True, exist_ok=True)
        name = PurePosixPath(submission.member or submission.path).name
        (into / name).write_bytes(read_bytes(submission))
        print(f"grading {one_line(inside[0])}")
        return 0
    if len(found) == 1:
        message = f"Your submission could not be read ({inside[0]}: {found[0].problem}), so nothing was graded."
        why = "the submission could not be read"
    elif found:
        message = (
            f"Your submission holds {len(found)} notebooks ({listing(inside)}), so nothing was graded: the "
            f"autograder grades exactly one. Submit only {wanted_file(lesson)}."
        )
        why = f"the submission holds {len(found)} notebooks"
    else:
        held = f"It holds: {listing(others)}." if others else "It is empty."
        message = f"Your submission holds no notebook, so nothing was graded. {held} Submit {wanted_file(lesson)}."
        why = "the submission holds no notebook"
    print(terminal(message))
    write_results(root, failure(message, lesson, why, learner, found=inside, skipped=others))
    return 1


def last_line(log: Path) -> str:
    """The grader's last line of output (its error, when it failed), shortened."""
    try:
        lines = [line.strip() for line in log.read_text(encoding="utf-8", errors="replace").splitlines()]
    except OSError:
        return ""
    lines = [line for line in lines if line]
    return lines[-1][:500] if lines else ""


def graded(path: Path, learner: str, grader: dict[str, Any], seconds: float, status: int) -> dict[str, Any]:
    """The grader's own results.json for the submission, with a summary line, the learner's name and timing."""
    results = json.loads(path.read_text(encoding="utf-8"))
    extra = results.setdefault("extra_data", {})
    lesson = extra.get("lesson")
    lines = [f"Lesson {lesson}: {results.get('score', 0)} of {extra.get('max_score', 0)} points."] if lesson else []
    if status == 3:  # every row a grader error: the grader's own fault, not the learner's
        lines.append(
            "The autograder itself failed while grading your notebook; this is not a mistake in your work. "
            "Please tell your instructor."
        )
    if extra.get("status") == "unknown lesson":
        lines.append(
            "The autograder could not tell which lesson this notebook is for: submit the exercise notebook the "
            "workbook gave you (it records its lesson), with your answers in it."
        )
    # The grader's own output is HTML text already (reports.to_gradescope); the lines above it are escaped here.
    results["output"] = "\n".join(filter(None, [html_text("\n".join(lines)), results.get("output", "")]))
    results["output_format"] = GRADESCOPE_HTML
    if learner:
        extra["learner"] = shown_values(learner)
    extra["grader"] = {**grader, "exit_status": status}
    results["execution_time"] = round(seconds)
    return results


def report(root: Path, gradebook: Path, lesson: str, status: int, log: Path, seconds: float, limit: float) -> int:
    """Write results.json from the grader's gradebook, or score 0 and why when the grader did not grade."""
    learner = learner_names(root)
    found = sorted((gradebook / "gradescope").rglob("results.json")) if gradebook.is_dir() else []
    grader: dict[str, Any] = {}
    try:
        book = json.loads((gradebook / "grades.json").read_text(encoding="utf-8"))
        row = book["submissions"][0]
        grader = {"checks_version": row.get("checks_version", ""), "containment": row.get("containment", "")}
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        pass
    if status in (0, 3) and len(found) == 1:
        try:
            write_results(root, graded(found[0], learner, grader, seconds, status))
            return 0
        except (OSError, ValueError, AttributeError) as error:
            problem = f"its results could not be read ({type(error).__name__})"
    elif status in (124, 137):  # timeout(1): stopped at the time limit, then killed if it did not stop
        problem = f"grading took longer than {limit:g} seconds and was stopped"
    elif status == 2:
        problem = f"the grader refused to start ({last_line(log)})"
    elif status == 0:
        problem = f"the grader wrote {len(found)} results instead of one"
    else:
        problem = f"the grader failed (exit status {status}: {last_line(log)})"
    message = (
        f"Your submission could not be graded: {problem}. This is not a mistake in your work as far as the "
        "autograder can tell. Please tell your instructor."
    )
    print(message)
    write_results(root, failure(message, lesson, problem, learner, grader={**grader, "exit_status": status}))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Build the zip, or run one of run_autograder's steps."""
    parser = argparse.ArgumentParser(
        prog="python -m packer.grading.gradescope_package", description=__doc__.split("\n")[0]
    )
    steps = parser.add_subparsers(dest="step", required=True)
    make = steps.add_parser("build", help="write the autograder zip")
    make.add_argument("--lesson", default="", help="the assignment's lesson (e.g. 01); none: each notebook's own")
    make.add_argument("--out", type=Path, default=Path("dist"), help="folder for the zip (default dist)")
    for name in ("pick", "report"):
        step = steps.add_parser(name, help=f"run_autograder's {name} step")
        step.add_argument("--root", type=Path, required=True, help="Gradescope's folder (/autograder)")
        step.add_argument("--lesson", default="", help="the lesson slug graded as ('' for each notebook's own)")
    steps.choices["pick"].add_argument("--into", type=Path, required=True, help="folder to copy the notebook into")
    finish = steps.choices["report"]
    finish.add_argument("--gradebook", type=Path, required=True, help="the grader's scratch gradebook")
    finish.add_argument("--status", type=int, required=True, help="the grader's exit status")
    finish.add_argument("--log", type=Path, required=True, help="the grader's captured output")
    finish.add_argument("--seconds", type=float, default=0.0, help="time taken so far")
    finish.add_argument("--time-limit", type=float, default=0.0, help="the grader's time limit in seconds")
    args = parser.parse_args(argv)
    if args.step == "build":
        try:
            path = build(args.lesson, args.out)
        except ValueError as error:
            parser.error(str(error))
        print(f"wrote {path}: upload it on the assignment's Configure Autograder page")
        return 0
    if args.step == "pick":
        return pick(args.root, args.into, args.lesson)
    try:
        return report(args.root, args.gradebook, args.lesson, args.status, args.log, args.seconds, args.time_limit)
    except Exception as error:  # the notebook was graded, or not: either way the learner gets a result that says so
        message = (
            f"Your submission could not be graded: the autograder failed while writing its result "
            f"({type(error).__name__}). This is not a mistake in your work. Please tell your instructor."
        )
        write_results(args.root, failure(message, args.lesson, "the autograder failed", exit_status=args.status))
        raise


if __name__ == "__main__":
    sys.exit(main())
