"""Generate exercises/ from solutions/: solution code becomes a loud stub, outputs are cleared.

Run `python -m packer.checking.exercises` (or `make exercises`) from the repository root after editing a
solution notebook; `--check` only reports whether exercises/ is up to date (exit 1 when stale).

File names: lesson `01_assemble_context` is `notebooks/01_assemble_context.ipynb`, its solution
`solutions/solution_01_assemble_context.ipynb` and its exercise `exercises/exercise_01_assemble_context.ipynb`.
The kind comes first because JupyterLab clips a tab's label at its end: with the three open side by side,
their first characters already tell them apart.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"
MD_SOLUTION = re.compile(r"<!-- BEGIN SOLUTION -->.*?<!-- END SOLUTION -->", re.DOTALL)
MD_PLACEHOLDER = "*Write your answer here.*"
# The mark an open question's answer cell carries in an exercise (`metadata.workbook.open_answer`: the question's
# number, from 1), so the grader finds the learner's written answer by its cell, whatever the learner wrote in it.
OPEN_ANSWER = "open_answer"
SOLUTION_ONLY = "solution-only"
EXERCISE_PREFIX, SOLUTION_PREFIX = "exercise_", "solution_"


def exercise_name(lesson: str) -> str:
    """The exercise notebook's file name for a lesson slug: `exercise_01_assemble_context.ipynb`."""
    return f"{EXERCISE_PREFIX}{lesson}.ipynb"


def solution_name(lesson: str) -> str:
    """The solution notebook's file name for a lesson slug: `solution_01_assemble_context.ipynb`."""
    return f"{SOLUTION_PREFIX}{lesson}.ipynb"


def solution_lessons(root: Path) -> dict[str, Path]:
    """Lesson slug -> solution notebook, for every `solutions/solution_NN_*.ipynb` under root, in order."""
    return {
        path.stem.removeprefix(SOLUTION_PREFIX): path
        for path in sorted((root / "solutions").glob(f"{SOLUTION_PREFIX}[0-9][0-9]_*.ipynb"))
    }


def stub_code(source: str) -> str:
    """Replace every BEGIN/END SOLUTION block with a NotImplementedError stub at the marker's indent."""
    out: list[str] = []
    opened = 0  # the line number of the open BEGIN marker, 0 when outside a block
    for number, line in enumerate(source.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith(BEGIN):
            if opened:
                raise ValueError(f"line {number}: {BEGIN} inside another solution block (opened on line {opened})")
            opened = number
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f'{indent}raise NotImplementedError("replace this line with your answer")')
        elif stripped.startswith(END):
            if not opened:
                raise ValueError(f"line {number}: {END} without {BEGIN}")
            opened = 0
        elif not opened:
            out.append(line)
    if opened:
        raise ValueError(f"line {opened}: {BEGIN} is never closed")
    return "\n".join(out)


def to_exercise(solution: nbformat.NotebookNode, lesson: str) -> nbformat.NotebookNode:
    """The exercise notebook for a solution notebook (the input is not modified)."""
    exercise = nbformat.from_dict(solution)
    exercise.metadata.pop("widgets", None)
    exercise.metadata["workbook"] = {"lesson": lesson}  # lets the grader tell which checks apply
    cells = []
    open_answers = 0
    for index, cell in enumerate(exercise.cells):
        if SOLUTION_ONLY in cell.get("metadata", {}).get("tags", []):
            continue
        try:
            if cell.cell_type == "markdown" and MD_SOLUTION.search(cell.source):
                open_answers += 1
                cell.metadata.setdefault("workbook", {})[OPEN_ANSWER] = open_answers
            if cell.cell_type == "code":
                cell.source = stub_code(cell.source)
                cell.outputs = []
                cell.execution_count = None
            elif cell.cell_type == "markdown":
                cell.source = MD_SOLUTION.sub(MD_PLACEHOLDER, cell.source)
        except ValueError as error:
            raise ValueError(f"cell {index}: {error}") from None
        if "BEGIN SOLUTION" in cell.source or "END SOLUTION" in cell.source:
            raise ValueError(f"cell {index}: an unmatched or malformed solution marker would leak the answer")
        cells.append(cell)
    exercise.cells = cells
    return exercise


def render(notebook: nbformat.NotebookNode) -> str:
    """The exact file text written for a notebook."""
    return nbformat.writes(notebook) + "\n"


def expected_exercises(root: Path) -> dict[Path, str]:
    """Every exercise file path under root and the text the generator would write there."""
    wanted = {}
    strays = sorted(set((root / "solutions").glob("*.ipynb")) - set(solution_lessons(root).values()))
    if strays:
        raise ValueError(f"{strays[0]}: not named solutions/{solution_name('NN_lesson')}, so it would get no exercise")
    for lesson, path in solution_lessons(root).items():
        try:
            wanted[root / "exercises" / exercise_name(lesson)] = render(
                to_exercise(nbformat.read(path, as_version=4), lesson)
            )
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None
    return wanted


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) exercises/ from solutions/."""
    parser = argparse.ArgumentParser(prog="python -m packer.checking.exercises", description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("."), help="repository root (default: .)")
    parser.add_argument("--check", action="store_true", help="only report stale exercises; exit 1 if any")
    args = parser.parse_args(argv)
    wanted = expected_exercises(args.root)
    stale = [path for path, text in wanted.items() if not path.exists() or path.read_text() != text]
    orphans = sorted(set((args.root / "exercises").glob("*.ipynb")) - set(wanted))
    if args.check:
        for path in stale + orphans:
            print(f"stale: {path}")
        return 1 if stale or orphans else 0
    for path in stale:
        path.write_text(wanted[path])
        print(f"wrote {path}")
    for path in orphans:
        print(f"no solution for {path}: left as is")
    return 0


if __name__ == "__main__":
    sys.exit(main())
