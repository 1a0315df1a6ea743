"""Every example in an exercise's text pastes and runs, and gives what it says it gives.

Each ```python block of an exercise's Markdown runs, statement by statement, in a fresh namespace made by the
code cells of its solution notebook (the setup cell and every worked answer; the checks and the cells marked
solution-only left out): what a learner who has answered the questions has in their kernel. A statement whose
comment names an exception (`# ValueError: duplicate id 'a'`) must raise it; every other statement must run,
and an expression whose comment is a Python literal (the comment as a whole, or up to the first ": " or "  ("
where words follow, over as many comment lines as follow it) must equal that literal. A block that is not meant
to run is written with another language name (```text).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from contextlib import redirect_stdout
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"```python\n(.*?)```", re.S)
CHECK_CELL = re.compile(r"\Acheck\(\"q\d+\.\d+\", \w+\)\s*\Z")
RAISES = re.compile(r"\A(\w+(?:Error|Exception))\b")


def examples() -> list[tuple[str, int, int, str]]:
    """(exercise notebook, cell, block number, code) of every ```python block in the exercises' Markdown."""
    found = []
    for path in sorted((ROOT / "exercises").glob("exercise_*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        for index, cell in enumerate(cells):
            if cell.cell_type == "markdown":
                for number, match in enumerate(BLOCK.finditer(cell.source), 1):
                    found.append((path.name, index, number, match.group(1)))
    return found


_NAMESPACES: dict[str, dict] = {}


def answered(exercise: str) -> dict:
    """The names a learner's kernel holds once every question of the exercise is answered (the solution
    notebook's code cells, without the checks and the solution-only cells), computed once per notebook."""
    if exercise not in _NAMESPACES:
        solution = ROOT / "solutions" / exercise.replace("exercise_", "solution_")
        names: dict = {"__name__": "__main__"}
        for cell in nbformat.read(solution, as_version=4).cells:
            solution_only = "solution-only" in cell.metadata.get("tags", [])
            if cell.cell_type != "code" or solution_only or CHECK_CELL.match(cell.source):
                continue
            with redirect_stdout(io.StringIO()):
                exec(compile(cell.source, f"<{solution.name}>", "exec"), names)
        _NAMESPACES[exercise] = names
    return _NAMESPACES[exercise]


def comments_after(code: str) -> dict[int, str]:
    """Line number -> the comment that says what the statement ending on that line gives: the comment on that
    line and those on the comment-only lines right after it, joined (each without its "#" and one space)."""
    lines = code.splitlines()
    own = {
        token.start[0]: token.string
        for token in tokenize.generate_tokens(io.StringIO(code).readline)
        if token.type == tokenize.COMMENT
    }
    said = {}
    for number in own:
        if lines[number - 1].lstrip().startswith("#"):
            continue  # a comment line: it belongs to the statement above it
        parts, following = [own[number]], number + 1
        while following <= len(lines) and lines[following - 1].lstrip().startswith("#"):
            parts.append(lines[following - 1].lstrip())
            following += 1
        said[number] = " ".join(part[1:].removeprefix(" ") for part in parts)
    return said


def literal(comment: str) -> tuple[bool, object]:
    """(True, value) when the comment, or its start before the words that follow (": " or "  ("), is a Python
    literal; (False, None) when it is prose."""
    candidates = [comment] + [comment[: match.start()] for match in re.finditer(r": |\s{2,}\(", comment)]
    for candidate in candidates:
        try:
            return True, ast.literal_eval(candidate.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
    return False, None


EXAMPLES = examples()


def test_the_exercises_have_examples_to_run():
    assert len(EXAMPLES) >= 20
    assert {name for name, *_ in EXAMPLES} >= {"exercise_02_prompt_packer.ipynb", "exercise_09_conversation.ipynb"}


@pytest.mark.parametrize(
    "exercise, cell, number, code", EXAMPLES, ids=[f"{e[9:11]}-cell{c}-{n}" for e, c, n, _ in EXAMPLES]
)
def test_every_example_pastes_runs_and_gives_what_it_says(exercise, cell, number, code):
    namespace = dict(answered(exercise))  # fresh: a name the example binds is gone for the next one
    said = comments_after(code)
    for statement in ast.parse(code).body:
        comment = said.get(statement.end_lineno, "")
        where = f"{exercise} cell {cell}, example {number}, line {statement.lineno}: {ast.unparse(statement)[:80]}"
        source = compile(ast.Module([statement], []), f"<{exercise} example>", "exec")
        expected_error = RAISES.match(comment)
        if expected_error:
            with pytest.raises(Exception) as raised:
                exec(source, namespace)
            assert type(raised.value).__name__ == expected_error.group(1), where
            continue
        if isinstance(statement, ast.Expr):
            value = eval(compile(ast.Expression(statement.value), f"<{exercise} example>", "eval"), namespace)
            is_literal, stated = literal(comment)
            if is_literal:
                assert value == stated and type(value) is type(stated), f"{where}\n  says {stated!r}\n  gives {value!r}"
        else:
            exec(source, namespace)
