"""The worked answer of every graded question, read from solutions/ the way a learner's notebook runs.

A question's answer is the solution cell that defines the function its check cell names (the last such
cell before `check("qN.M", name)`); its solution code is what lies between the cell's `# BEGIN SOLUTION`
and `# END SOLUTION` markers (packer.checking.exercises replaces exactly that with the exercise's stub).
`namespace(answer, source)` runs the notebook's code cells up to the check, with `source` in place of the
answer cell and without running any check, and returns the names a learner's kernel would then have.

A lesson's write point (`write("p2.4", keep_or_skip)`) has its worked answer folded under it: the one
```python block of the Markdown cell "Worked answer to practice 2.4" after the point's cell
(`practice_answers`). That block runs on its own, in a fresh namespace (it imports what it uses), and all
of it is the answer: a learner writes every line of it.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
WRITE_CELL = re.compile(r'^write\("(p\d+\.\d+)", (\w+)\)', re.M)
PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.S)
CHECK_CELL = re.compile(r'\Acheck\("(q\d+\.\d+)", (\w+)\)\s*\Z')


@dataclass(frozen=True)
class Answer:
    """Where one question's worked answer is and what runs before it."""

    qid: str
    name: str  # the function the check is given
    notebook: str  # the solution notebook's path from the repository root
    cell: int  # the answer cell's index among the notebook's cells
    source: str  # the answer cell's code
    block: tuple[int, int]  # first and last line of its solution code (between the markers), from 1
    before: tuple[str, ...]  # the code cells that run before the answer cell, checks left out
    after: tuple[str, ...]  # the code cells between the answer cell and the check cell, checks left out

    @property
    def lines(self) -> range:
        """The line numbers of the solution code, markers excluded."""
        return range(self.block[0], self.block[1] + 1)


def _block(source: str) -> tuple[int, int] | None:
    """The first and last line inside the cell's (single) solution block, or None when it has none."""
    from packer.checking.exercises import BEGIN, END

    lines = source.splitlines()
    begins = [n for n, line in enumerate(lines, 1) if line.strip().startswith(BEGIN)]
    ends = [n for n, line in enumerate(lines, 1) if line.strip().startswith(END)]
    if not begins:
        return None
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise ValueError("an answer cell must hold exactly one solution block")
    return begins[0] + 1, ends[0] - 1


def _defines(source: str, name: str) -> bool:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return any(isinstance(node, ast.FunctionDef) and node.name == name for node in tree.body)


def answers(root: Path = ROOT) -> dict[str, Answer]:
    """Question id -> its worked answer, for every check cell of every solution notebook, in order."""
    from packer.checking.exercises import solution_lessons  # imported here only: see namespace()

    found: dict[str, Answer] = {}
    for path in solution_lessons(root).values():
        cells = nbformat.read(path, as_version=4).cells
        code = [(i, cell.source) for i, cell in enumerate(cells) if cell.cell_type == "code"]
        for position, (_, source) in enumerate(code):
            match = CHECK_CELL.match(source)
            if not match:
                continue
            qid, name = match.groups()
            earlier = code[:position]
            answer_at = max(
                (p for p, (_, s) in enumerate(earlier) if _defines(s, name) and _block(s)),
                default=None,
            )
            if answer_at is None:
                raise ValueError(f"{path.name}: {qid} checks {name}, but no solution cell before it defines it")
            answer_source = earlier[answer_at][1]
            found[qid] = Answer(
                qid,
                name,
                path.relative_to(root).as_posix(),
                earlier[answer_at][0],
                answer_source,
                _block(answer_source),
                tuple(s for _, s in earlier[:answer_at] if not CHECK_CELL.match(s)),
                tuple(s for _, s in earlier[answer_at + 1 :] if not CHECK_CELL.match(s)),
            )
    return found


def practice_answers(root: Path = ROOT) -> dict[str, Answer]:
    """Write point id -> its worked answer, for every write point of every lesson in notebooks/, in order."""
    found: dict[str, Answer] = {}
    for path in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        for index, cell in enumerate(cells):
            match = WRITE_CELL.search(cell.source) if cell.cell_type == "code" else None
            if not match:
                continue
            pid, name = match.groups()
            summary = f"Worked answer to practice {pid[1:]} "
            at = next((i for i in range(index + 1, len(cells)) if summary in cells[i].source), None)
            blocks = PYTHON_BLOCK.findall(cells[at].source) if at is not None else []
            if len(blocks) != 1 or not _defines(blocks[0], name):
                raise ValueError(f"{path.name}: {pid}'s worked answer is not one ```python block defining {name}")
            source = blocks[0]
            found[pid] = Answer(
                pid, name, path.relative_to(root).as_posix(), at, source, (1, len(source.splitlines())), (), ()
            )
    return found


def namespace(answer: Answer, source: str | None = None) -> dict:
    """The names a kernel has after running the notebook up to the answer's check cell, with `source`
    (a mutant, say) in place of the answer cell. What the cells print is thrown away. (The modules the process
    has loaded do not change the checks' generated inputs: packer.checking.search.)"""
    names: dict = {"__name__": "__main__"}
    cells = [*answer.before, answer.source if source is None else source, *answer.after]
    with contextlib.redirect_stdout(io.StringIO()):
        for number, cell in enumerate(cells):
            exec(compile(cell, f"<{answer.notebook} code cell {number} before {answer.qid}>", "exec"), names)
    return names
