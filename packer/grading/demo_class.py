"""A made-up class of submitted exercise notebooks, for trying, testing and benchmarking the grader.

    python -m packer.grading.demo_class DIR [--size 40]

Every submission is built from the repository's own lesson-01 solution and exercise notebooks:
correct ones, plausible wrong ones, half-done ones, untouched ones, and hostile ones (a runaway loop,
a kernel that dies, a file that is not a notebook, tampering with the checks, huge output, ...).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import nbformat

from packer.checking.exercises import MD_SOLUTION, OPEN_ANSWER, solution_name, to_exercise

ROOT = Path(__file__).resolve().parents[2]  # the repository root
LESSON = "01_assemble_context"
NotebookMaker = Callable[[], "nbformat.NotebookNode | str"]


# (right answers, untouched exercise) to make every kind from instead of the workbook's own notebooks: another course
# tool's release of the exercise (packer.grading.nbgrader_course makes the class on nbgrader's). Set by based_on.
_BASES: list[tuple[nbformat.NotebookNode, nbformat.NotebookNode]] = []


@contextmanager
def based_on(answered: nbformat.NotebookNode, untouched: nbformat.NotebookNode) -> Iterator[None]:
    """Within the block, every kind is made from these two notebooks (all answers right; none answered)."""
    _BASES.append((answered, untouched))
    try:
        yield
    finally:
        _BASES.pop()


def solution() -> nbformat.NotebookNode:
    """The lesson-01 solution as a learner would hand it in: outputs cleared, lesson recorded."""
    if _BASES:
        return nbformat.from_dict(_BASES[-1][0])
    notebook = nbformat.read(ROOT / "solutions" / solution_name(LESSON), as_version=4)
    notebook.cells = [c for c in notebook.cells if "solution-only" not in c.get("metadata", {}).get("tags", [])]
    open_answers = 0
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        elif MD_SOLUTION.search(cell.source):  # the answer cell, marked as the exercise marks it
            open_answers += 1
            cell.metadata.setdefault("workbook", {})[OPEN_ANSWER] = open_answers
    notebook.metadata.pop("widgets", None)
    notebook.metadata["workbook"] = {"lesson": LESSON}
    return notebook


def exercise() -> nbformat.NotebookNode:
    """The untouched lesson-01 exercise."""
    if _BASES:
        return nbformat.from_dict(_BASES[-1][1])
    return to_exercise(nbformat.read(ROOT / "solutions" / solution_name(LESSON), as_version=4), LESSON)


def definition_cell(notebook: nbformat.NotebookNode, name: str) -> nbformat.NotebookNode:
    """The code cell that defines `name`."""
    return next(c for c in notebook.cells if c.cell_type == "code" and f"def {name}(" in c.source)


def with_edit(name: str, old: str, new: str) -> nbformat.NotebookNode:
    """The solution with one text edit in the cell that defines `name` (the edit must apply)."""
    notebook = solution()
    cell = definition_cell(notebook, name)
    if old not in cell.source:
        raise ValueError(f"edit for {name} no longer applies: {old!r} is not in its cell")
    cell.source = cell.source.replace(old, new, 1)
    return notebook


def with_cell(source: str, before: str | None = None) -> nbformat.NotebookNode:
    """The solution with an extra code cell, at the end or just before the cell that defines `before`."""
    notebook = solution()
    cell = nbformat.v4.new_code_cell(source)
    if before is None:
        notebook.cells.append(cell)
    else:
        notebook.cells.insert(notebook.cells.index(definition_cell(notebook, before)), cell)
    return notebook


def half_done() -> nbformat.NotebookNode:
    """The exercise with only q1.1 answered (copied from the solution)."""
    notebook = exercise()
    definition_cell(notebook, "assemble_context").source = definition_cell(solution(), "assemble_context").source
    return notebook


def _loose_comparison() -> nbformat.NotebookNode:
    notebook = solution()
    cell = definition_cell(notebook, "assemble_context")
    if "<= max_tokens" in cell.source:
        return with_edit("assemble_context", "<= max_tokens", "< max_tokens")
    return with_edit("assemble_context", "> max_tokens", ">= max_tokens")


KINDS: dict[str, tuple[str, NotebookMaker]] = {
    # kind: (what the grader should report, how to make it)
    "correct": ("graded", solution),
    "strict-comparison": ("graded", _loose_comparison),
    "half-done": ("graded", half_done),
    "untouched": ("no answers", exercise),
    "raises": (
        "graded",
        lambda: with_cell("def assemble_prefix(chunks, max_tokens, separator='\\n\\n'):\n    return 1 / 0"),
    ),
    "no-functions": (
        "no answers",
        lambda: nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_code_cell("print('I forgot the exercise')")],
            metadata={"workbook": {"lesson": LESSON}},
        ),
    ),
    "runaway": ("timeout", lambda: with_cell("while True:\n    pass", before="assemble_prefix")),
    "loops-when-checked": (
        "timeout",
        lambda: with_cell(
            "def assemble_prefix(chunks, max_tokens, separator='\\n\\n'):\n    while True:\n        pass"
        ),
    ),
    "unstoppable": (
        "timeout",
        lambda: with_cell(
            "while True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass",
            before="assemble_prefix",
        ),
    ),
    "kernel-dies": ("kernel died", lambda: with_cell("import os\nos._exit(1)")),
    "huge-output": ("graded", lambda: with_cell("print('spam ' * 4_000_000)\nfor i in range(20_000):\n    print(i)")),
    "redefines-check": (
        "flagged",
        lambda: with_cell("def check(qid, answer):\n    print(qid, 'PASSED (10/10 points)')\n\ncheck('q1.1', None)"),
    ),
    "patches-packer": (
        "flagged",
        lambda: with_cell(
            "import packer.checking\npacker.checking.run_check = lambda qid, answer: None\n"
            "packer.assemble_context = lambda *args: ('', 0)"
        ),
    ),
    "fake-results": (
        "flagged",
        lambda: with_cell("open('grades.json', 'w').write('{\"score\": 10, \"max_score\": 10}')"),
    ),
    "exits": ("graded", lambda: with_cell("exit()")),
    "asks-input": ("graded", lambda: with_cell("name = input('Your name? ')\nprint('hello', name)")),
    "saves-figure": (
        "graded",
        lambda: with_cell(
            "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.savefig('my_results.png')\n"
            "open('my_scores.csv', 'w').write('run,score\\n1,10\\n')"
        ),
    ),
    "not-json": ("unreadable", lambda: "this is not a notebook {"),
    "not-a-notebook": ("unreadable", lambda: '{"cells": "nope"}'),
}


def write_submission(folder: Path, name: str, kind: str) -> Path:
    """Write one submission of the given kind as folder/name.ipynb."""
    folder.mkdir(parents=True, exist_ok=True)
    made = KINDS[kind][1]()
    path = folder / f"{name}.ipynb"
    path.write_text(made if isinstance(made, str) else nbformat.writes(made) + "\n", encoding="utf-8")
    return path


RUNAWAY = ("runaway", "unstoppable", "loops-when-checked")  # each costs the grader its time limit, by design


def make_class(folder: Path, size: int = 40, runaway: bool = True) -> dict[str, str]:
    """Write `size` submissions cycling through every kind (optionally leaving out the runaway kinds).

    Returns {file name: expected status}."""
    folder.mkdir(parents=True, exist_ok=True)
    kinds = [kind for kind in KINDS if runaway or kind not in RUNAWAY]
    expected = {}
    for number in range(size):
        kind = kinds[number % len(kinds)]
        path = write_submission(folder, f"learner{number:02d}-{kind}", kind)
        expected[path.name] = KINDS[kind][0]
    return expected


def with_saved_figures(notebook: nbformat.NotebookNode, megabytes: float, seed: int = 0) -> nbformat.NotebookNode:
    """The notebook carrying about `megabytes` of saved PNG output, as learners' notebooks with figures do
    (random bytes: incompressible, like real images)."""
    import base64
    import random

    data = base64.b64encode(random.Random(seed).randbytes(int(megabytes * 3 / 4 * 1_000_000))).decode("ascii")
    cell = next(c for c in notebook.cells if c.cell_type == "code")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": data, "text/plain": "<Figure>"})]
    return notebook


def main(argv: list[str] | None = None) -> int:
    """Write a demo class into a folder."""
    parser = argparse.ArgumentParser(prog="python -m packer.grading.demo_class", description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where to write the submissions (made if missing)")
    parser.add_argument(
        "--size", type=int, default=40, help=f"how many submissions, the {len(KINDS)} kinds in turn (default 40)"
    )
    args = parser.parse_args(argv)
    expected = make_class(args.folder, args.size)
    print(f"wrote {len(expected)} submissions to {args.folder}")
    print(
        f"grade them: make grade SUBMISSIONS={shlex.quote(str(args.folder))} (into grades/; every kernel under "
        'bubblewrap; where it cannot run the grader refuses and says what to install, or take GRADE_ARGS="--sandbox off")'
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
