"""An nbgrader course made from the workbook's solutions, for courses that grade with nbgrader.

    python -m packer.grading.nbgrader_course DIR      (make nbgrader NBGRADER_COURSE=DIR)

writes DIR/nbgrader_config.py and DIR/source/<lesson>/exercise_<lesson>.ipynb for every lesson, marked up as
nbgrader's "Create Assignment" toolbar marks a notebook (the cell metadata of nbgrader's schema version 3):
  - a solution cell for each answer the learner writes, its answer between `### BEGIN SOLUTION` and
    `### END SOLUTION` (nbgrader's generate_assignment replaces it with its own stub);
  - an autograded test cell for each question, worth the workbook's points for it, which runs the
    workbook's own check and raises unless every point was earned (every workbook check is all or nothing,
    and nbgrader gives a test cell that raises no points), its verdict and counterexample kept as
    nbgrader's feedback;
  - a manually graded answer, worth 0 points as in the workbook, for each open written question;
  - every other cell read-only (locked).
DIR must not exist yet: an existing course is never written into.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

import nbformat

from packer.checking import question
from packer.checking.exercises import (
    BEGIN,
    END,
    MD_SOLUTION,
    SOLUTION_ONLY,
    exercise_name,
    render,
    solution_lessons,
    solution_name,
)

DEFINITION = re.compile(r"^def (\w+)\(", re.M)
CHECK_CELL = re.compile(r'check\("(?P<qid>q\d+\.\d+)", (?P<name>\w+)\)')
# A link to another of the workbook's notebooks (../notebooks/…, ../solutions/…): an nbgrader release holds only
# the assignment, so the link keeps its text and loses its target; the exercise's closing "Done?" cell, which
# points at the solutions and the next lesson, says what an nbgrader assignment asks instead.
WORKBOOK_LINK = re.compile(r"\[([^\]]+)\]\(\.\./[^)]*\)")
DONE = (
    "## Done?\n\nEvery check above says PASSED, and you wrote your answers to the open questions? Then validate "
    "the notebook and submit it as your course asks."
)
SCHEMA_VERSION = 3  # nbgrader's cell metadata schema (nbgrader/nbgraderformat/v3.py)
COURSE_ID = "context-packing-workbook"
HANDED_IN = "2026-11-20 12:00:00.000000 UTC"  # the demo class's timestamp.txt, in nbgrader's own format
CONFIG = f'''"""nbgrader's configuration for the course `make nbgrader` wrote (run nbgrader from this folder)."""

import os

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "{COURSE_ID}"
# The checks' search (Hypothesis) keeps its caches here, not in each learner's autograded/ folder, from where
# generate_feedback would copy them into the feedback the learners receive.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".hypothesis"))
# The workbook's notebooks record their lesson in their metadata; nbgrader keeps it, so the workbook's own grader
# (python -m packer.grading submitted) can grade the same submissions.
'''


def marked(cell: nbformat.NotebookNode, grade_id: str, *, solution=False, grade=False, locked=False, points=None):
    """The cell with nbgrader's metadata set (the input is not modified)."""
    cell = nbformat.from_dict(cell)
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": SCHEMA_VERSION}
    meta |= {"solution": solution, "task": False}
    if grade:
        meta["points"] = points
    cell.metadata["nbgrader"] = meta
    return cell


def defined_function(source: str) -> str | None:
    """The name of the first function a cell's code defines at its top level, or None."""
    found = DEFINITION.search(source)
    return found[1] if found else None


def grade_id(qid: str) -> str:
    """The nbgrader grade id of a question's test cell: `q1_1` for q1.1 (nbgrader allows only [A-Za-z0-9_-])."""
    return qid.replace(".", "_")


def solution_code(source: str) -> str:
    """A solution cell's code with the workbook's markers spelled as nbgrader's (`### BEGIN SOLUTION`)."""
    lines = []
    for line in source.splitlines():
        stripped = line.strip()
        indent = line[: len(line) - len(line.lstrip())]
        if stripped.startswith(BEGIN):
            line = f"{indent}### BEGIN SOLUTION"
        elif stripped.startswith(END):
            line = f"{indent}### END SOLUTION"
        lines.append(line)
    return "\n".join(lines)


def test_source(qid: str, name: str) -> str:
    """An autograded test cell's code: the workbook's check, raising unless every point was earned. It imports the
    check itself, so an answer cell that defines a `require_full_marks` of its own changes nothing."""
    return f'from packer.checking import require_full_marks\n\nrequire_full_marks("{qid}", {name})'


def to_nbgrader_source(solution: nbformat.NotebookNode, lesson: str) -> nbformat.NotebookNode:
    """The nbgrader source notebook for a lesson's solution notebook (the input is not modified)."""
    source = nbformat.from_dict(solution)
    source.metadata.pop("widgets", None)
    source.metadata["workbook"] = {"lesson": lesson}
    cells = []
    for index, cell in enumerate(solution.cells):
        if SOLUTION_ONLY in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.cell_type == "code":
            cell = nbformat.from_dict(cell)
            cell.outputs, cell.execution_count = [], None
            found = CHECK_CELL.fullmatch(cell.source.strip())
            if found:
                qid, name = found["qid"], found["name"]
                cell.source = test_source(qid, name)
                cells.append(marked(cell, grade_id(qid), grade=True, locked=True, points=question(qid).points))
            elif BEGIN in cell.source:
                defined = defined_function(cell.source)
                cell.source = solution_code(cell.source)
                cells.append(marked(cell, f"answer-{defined or index}", solution=True))
            else:
                cells.append(marked(cell, f"cell-{index:02d}", locked=True))
        elif cell.cell_type == "markdown" and MD_SOLUTION.search(cell.source):
            cells.append(marked(cell, f"written-{index:02d}", solution=True, grade=True, points=0))
        else:
            if cell.cell_type == "markdown":
                cell = nbformat.from_dict(cell)
                cell.source = DONE if cell.source.startswith("## Done?") else WORKBOOK_LINK.sub(r"\1", cell.source)
            cells.append(marked(cell, f"cell-{index:02d}", locked=True))
    grade_ids = [c.metadata["nbgrader"]["grade_id"] for c in cells]
    repeated = sorted({g for g in grade_ids if grade_ids.count(g) > 1})
    if repeated:
        raise ValueError(f"{lesson}: grade ids used twice: {', '.join(repeated)}")
    source.cells = cells
    return source


def right_answers(lesson: str, root: Path) -> dict[str, str]:
    """Each answer cell of a lesson's worked answers, by the function it defines, as a learner would write it
    (the solution markers left out)."""
    solution = nbformat.read(root / "solutions" / solution_name(lesson), as_version=4)
    answers = {}
    for cell in solution.cells:
        defined = defined_function(cell.source) if cell.cell_type == "code" else None
        if defined and BEGIN in cell.source:
            lines = cell.source.splitlines()
            answers[defined] = "\n".join(line for line in lines if not line.strip().startswith((BEGIN, END)))
    return answers


def answered(release: nbformat.NotebookNode, answers: dict[str, str]) -> nbformat.NotebookNode:
    """A released notebook as a learner hands it in: the answer cells named in `answers` (by the function each
    defines) filled in, every other cell as released."""
    notebook = nbformat.from_dict(release)
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader", {})
        name = meta.get("grade_id", "").removeprefix("answer-")
        if meta.get("solution") and cell.cell_type == "code" and name in answers:
            cell.source = answers[name]
    return notebook


def write_demo_class(course: Path, root: Path, size: int = 40, kinds: list[str] | None = None) -> dict[str, str]:
    """The grader's demo class (packer.grading.demo_class), each kind made from nbgrader's release of lesson 01
    instead of the workbook's exercise, written as nbgrader's submitted/<learner>/<assignment>/<notebook>: `size`
    learners cycling through `kinds` (default: every kind). Run `nbgrader generate_assignment 01_assemble_context`
    first. Returns {learner: kind}."""
    from packer.grading import demo_class

    lesson = demo_class.LESSON
    release = nbformat.read(course / "release" / lesson / exercise_name(lesson), as_version=4)
    kinds = kinds or list(demo_class.KINDS)
    learners = {}
    with demo_class.based_on(answered(release, right_answers(lesson, root)), release):
        for number in range(size):
            kind = kinds[number % len(kinds)]
            learner = f"learner{number:02d}-{kind}"
            folder = course / "submitted" / learner / lesson
            demo_class.write_submission(folder, exercise_name(lesson).removesuffix(".ipynb"), kind)
            (folder / "timestamp.txt").write_text(HANDED_IN, encoding="utf-8")  # as nbgrader collect leaves it
            learners[learner] = kind
    return learners


def write_course(out: Path, root: Path) -> list[Path]:
    """Write the nbgrader course into the new folder `out`; the files written."""
    if out.exists():
        raise ValueError(f"{out}: already exists; give a new folder (an existing course is never written into)")
    notebooks = {
        out / "source" / lesson / exercise_name(lesson): to_nbgrader_source(nbformat.read(path, as_version=4), lesson)
        for lesson, path in solution_lessons(root).items()
    }
    if not notebooks:
        raise ValueError(f"{root / 'solutions'}: no solution notebooks to make the course from")
    for path, notebook in notebooks.items():
        path.parent.mkdir(parents=True)
        path.write_text(render(notebook), encoding="utf-8")
    (out / "nbgrader_config.py").write_text(CONFIG, encoding="utf-8")
    return [out / "nbgrader_config.py", *notebooks]


def main(argv: list[str] | None = None) -> int:
    """Write an nbgrader course into a new folder."""
    parser = argparse.ArgumentParser(
        prog="python -m packer.grading.nbgrader_course", description=__doc__.splitlines()[0]
    )
    parser.add_argument("out", type=Path, help="the course folder to make (must not exist)")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2], help="the workbook")
    args = parser.parse_args(argv)
    try:
        written = write_course(args.out, args.root)
    except ValueError as error:
        print(f"make nbgrader: {error}", file=sys.stderr)
        return 2
    print(f"wrote an nbgrader course in {args.out}: {len(written) - 1} assignments in {args.out / 'source'}/")
    # nbgrader runs `alembic` (its database migrations) from PATH: the environment it is installed in comes first
    where = shlex.quote(str(Path(sys.executable).parent))
    print(
        f'next: cd {shlex.quote(str(args.out))} && PATH={where}:"$PATH" nbgrader generate_assignment 01_assemble_context'
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
