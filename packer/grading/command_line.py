"""The grader's command line checked before any work, for instructors: each wrong value refused with its reason.

`python -m packer.grading` (packer.grading.grader) calls these before it locks --out or starts a kernel: the
lesson and question ids are resolved against the question bank, --out must not sit inside a submissions
folder, --canvas-column names are ones Canvas reads, and --sandbox off must be asked for. `refuse` stops with
exit status 2, nothing changed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

from packer.grading.escaping import terminal
from packer.grading.exports import LmsSettings, canvas_columns
from packer.grading.running import lessons
from packer.grading.sandbox import INSTALL


def refuse(message: str) -> NoReturn:
    """Stop before grading, with the reason and exit status 2 (nothing was changed)."""
    print(terminal(f"python -m packer.grading: error: {message}"), file=sys.stderr)
    sys.exit(2)


def sandbox_choice(raw: str) -> str:
    """--sandbox's value; 'required' and 'auto', its names before December 2026, now mean 'on' (contain or refuse)."""
    return "on" if raw in ("required", "auto") else raw


def uncontained_refusal(reason: str) -> str:
    """Why the grader will not grade here without --sandbox off, and the two ways on."""
    return (
        f"refusing to grade uncontained: {reason}\n"
        "  Each notebook would run with your own rights: it could read and change your files and use the network.\n"
        f"  To contain it, install bubblewrap: {INSTALL}.\n"
        '  To grade uncontained on purpose: --sandbox off (make grade GRADE_ARGS="--sandbox off"); every row then '
        "records containment none."
    )


def resolve_lesson(raw: str) -> str:
    """'1', '01' or '01_assemble_context' -> the lesson's slug; a ValueError naming the known ones."""
    if not raw:
        return ""
    slugs = lessons()
    found = slugs.get(raw) or slugs.get(raw.zfill(2)) or (raw if raw in slugs.values() else "")
    if not found:
        raise ValueError(f"--lesson: unknown lesson {raw!r}; known: {', '.join(slugs.values())}")
    return found


def check_questions(qids: list[str], lesson: str) -> tuple[str, ...]:
    """The question ids, each known (to the lesson, when one is given); a ValueError naming the unknown."""
    from packer.checking import questions

    known = [q.qid for slug in ([lesson] if lesson else lessons().values()) for q in questions(slug)]
    unknown = [qid for qid in qids if qid not in known]
    if unknown:
        raise ValueError(f"--questions: unknown question id {', '.join(unknown)}; known: {', '.join(known)}")
    return tuple(qids)


def check_out_is_apart(out: Path, paths: list[Path]) -> None:
    """--out must not sit inside a submissions folder (its files would be taken for submissions next time)."""
    resolved = out.resolve()
    for path in paths:
        if path.is_dir() and resolved.is_relative_to(path):
            raise ValueError(f"--out: {out} is inside the submissions folder {path}; put the gradebook elsewhere")


def parse_canvas_columns(given: list[str]) -> dict[str, str]:
    """--canvas-column LESSON=NAME, each lesson resolved and each name one Canvas reads as an assignment."""
    columns = {}
    for item in given:
        number, sep, name = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--canvas-column: {item!r} is not LESSON=NAME (e.g. 01='Exercise 01 (4821)')")
        try:
            columns[resolve_lesson(number.strip())] = name.strip()
        except ValueError as error:
            raise ValueError(f"--canvas-column {item!r}: {str(error).removeprefix('--lesson: ')}") from None
    canvas_columns(sorted(columns), LmsSettings(canvas_columns=columns))  # a ValueError naming a bad one
    return columns
