"""The exercise/solution pair as a specification.

solutions/ is where questions and answers are written; exercises/ is generated from it by
`python -m packer.checking.exercises`. These tests pin down the generator, the shape of every solution notebook,
that every solution earns full marks from the grader, and that every untouched exercise runs in a real
kernel and earns nothing, with each check saying NOT ATTEMPTED.
"""

from __future__ import annotations

import copy
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from packer.checking import DEFER_VARIABLE, NOT_ATTEMPTED, PASSED, grade, questions
from packer.checking import bank
from packer.checking.exercises import (
    MD_PLACEHOLDER,
    exercise_name,
    expected_exercises,
    main,
    render,
    solution_name,
    stub_code,
    to_exercise,
)

ROOT = Path(__file__).resolve().parents[2]
LESSONS = [
    "01_assemble_context",
    "02_prompt_packer",
    "03_utf8_packer",
    "04_section_budget",
    "05_counting_units",
    "06_policies",
    "07_whole_request",
    "08_beyond_greedy",
    "09_conversation",
]
STUB = 'raise NotImplementedError("replace this line with your answer")'
OPEN_QUESTION = "### Open question (not auto-graded)"
MD_BEGIN, MD_END = "<!-- BEGIN SOLUTION -->", "<!-- END SOLUTION -->"


FILE_NAME = {"notebooks": lambda slug: f"{slug}.ipynb", "exercises": exercise_name, "solutions": solution_name}


def _path(folder: str, slug: str) -> Path:
    """A lesson's notebook in one of the three folders: `exercises/exercise_01_assemble_context.ipynb` and so on."""
    return ROOT / folder / FILE_NAME[folder](slug)


def _read(folder: str, slug: str) -> nbformat.NotebookNode:
    return nbformat.read(_path(folder, slug), as_version=4)


def _code(nb: nbformat.NotebookNode) -> list:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def _check_source(question) -> str:
    return f'check("{question.qid}", {question.name})'


def _run_cells(nb: nbformat.NotebookNode, label: str, *, checks: bool = True) -> dict:
    """Execute a notebook's code cells in one fresh namespace, as a kernel would (no IPython magics here)."""
    namespace: dict = {"__name__": "__main__"}
    for index, cell in enumerate(_code(nb)):
        if not checks and cell.source.startswith("check("):
            continue
        exec(compile(cell.source, f"<{label} cell {index}>", "exec"), namespace)
    return namespace


def _result_text(cell) -> str:
    """The text/plain of the one result a check cell shows (check() displays it itself, exactly once)."""
    results = [out for out in cell.get("outputs", []) if out.output_type in ("execute_result", "display_data")]
    assert len(results) == 1, f"expected one displayed result in {cell.source!r}, got {cell.get('outputs')}"
    return results[0]["data"]["text/plain"]


def _headline(question, status: str, points: int) -> str:
    return f"{question.qid} {question.name}: {status.upper()} ({points}/{question.points} points)"


# --- exercises/ is exactly the generator's output -----------------------------------------------------
def test_exercises_folder_is_exactly_what_the_generator_produces():
    wanted = expected_exercises(ROOT)
    assert sorted(wanted) == sorted((ROOT / "exercises").glob("*.ipynb")), (
        "an exercise without a solution, or the reverse"
    )
    for path, text in wanted.items():
        assert path.read_text() == text, f"{path.name} is stale: run `make exercises`"


def _generator(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "packer.checking.exercises", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_mode_passes_on_the_repository():
    run = _generator("--check")
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")


@pytest.fixture
def workbook_copy(tmp_path: Path) -> Path:
    """A scratch repository root: a copy of solutions/ and an up-to-date exercises/ made from it."""
    shutil.copytree(ROOT / "solutions", tmp_path / "solutions")
    (tmp_path / "exercises").mkdir()
    for path, text in expected_exercises(tmp_path).items():
        path.write_text(text)
    return tmp_path


def _damage(root: Path, how: str) -> tuple[Path, str]:
    """Edit or delete one exercise of a scratch copy; return its path and its pristine text."""
    target = root / "exercises" / "exercise_02_prompt_packer.ipynb"
    pristine = target.read_text()
    if how == "edited":
        nb = nbformat.reads(pristine, as_version=4)
        nb.cells[-1].source += "\nA learner's note that was never in the solution."
        target.write_text(render(nb))
    else:
        target.unlink()
    return target, pristine


def test_check_mode_exits_1_naming_a_stale_exercise_from_the_command_line(workbook_copy):
    target, _ = _damage(workbook_copy, "edited")
    run = _generator("--check", "--root", workbook_copy)
    assert (run.returncode, run.stdout.splitlines()) == (1, [f"stale: {target}"])


@pytest.mark.parametrize("how", ["edited", "missing"])
def test_check_mode_names_a_stale_exercise_and_a_regeneration_fixes_it(workbook_copy, capsys, how):
    target, pristine = _damage(workbook_copy, how)
    assert main(["--check", "--root", str(workbook_copy)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"stale: {target}"], "names exactly the stale file"

    assert main(["--root", str(workbook_copy)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"wrote {target}"], "rewrites only the stale file"
    assert target.read_text() == pristine

    assert main(["--check", "--root", str(workbook_copy)]) == 0
    assert capsys.readouterr().out == ""


def test_check_mode_reports_an_exercise_without_a_solution(workbook_copy, capsys):
    orphan = workbook_copy / "exercises" / "exercise_99_orphan.ipynb"
    orphan.write_text(render(new_notebook()))
    assert main(["--check", "--root", str(workbook_copy)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"stale: {orphan}"]


def test_the_generator_names_each_exercise_after_its_lesson_with_the_kind_first():
    assert (exercise_name("01_assemble_context"), solution_name("01_assemble_context")) == (
        "exercise_01_assemble_context.ipynb",
        "solution_01_assemble_context.ipynb",
    )
    assert sorted(p.name for p in expected_exercises(ROOT)) == [exercise_name(slug) for slug in LESSONS]


def test_a_solution_not_named_solution_nn_is_refused_rather_than_left_without_an_exercise(workbook_copy):
    (workbook_copy / "solutions" / solution_name("02_prompt_packer")).rename(
        workbook_copy / "solutions" / "02_prompt_packer.ipynb"  # the name the workbook used before
    )
    with pytest.raises(ValueError, match=r"02_prompt_packer\.ipynb: not named solutions/solution_NN_lesson\.ipynb"):
        expected_exercises(workbook_copy)


# --- the generator, cell by cell ----------------------------------------------------------------------
SOLVED_FUNCTION = '''\
def add(a, b):
    """Return a + b."""
    # BEGIN SOLUTION
    total = a + b
    return total
    # END SOLUTION'''


def test_stub_keeps_the_signature_and_docstring_and_replaces_only_the_block():
    assert stub_code(SOLVED_FUNCTION) == f'def add(a, b):\n    """Return a + b."""\n    {STUB}'
    namespace: dict = {}
    exec(stub_code(SOLVED_FUNCTION), namespace)
    with pytest.raises(NotImplementedError, match="replace this line with your answer"):
        namespace["add"](1, 2)


def test_stub_sits_at_the_markers_indentation_and_code_around_blocks_is_kept():
    source = (
        "ORDER = (1, 2)\n"
        "class Box:\n"
        "    def size(self):\n"
        "        # BEGIN SOLUTION\n"
        "        return 3\n"
        "        # END SOLUTION\n"
        "\n"
        "def helper(x):\n"
        "    if x:\n"
        "        # BEGIN SOLUTION\n"
        "        return x\n"
        "        # END SOLUTION\n"
        "    # BEGIN SOLUTION\n"
        "    return -1\n"
        "    # END SOLUTION\n"
        "print(ORDER)"
    )
    assert stub_code(source).splitlines() == [
        "ORDER = (1, 2)",
        "class Box:",
        "    def size(self):",
        f"        {STUB}",
        "",
        "def helper(x):",
        "    if x:",
        f"        {STUB}",
        f"    {STUB}",
        "print(ORDER)",
    ]
    compile(stub_code(source), "<stub>", "exec")  # still valid Python
    assert stub_code("x = 1\ny = 2") == "x = 1\ny = 2", "a cell without markers is unchanged"


@pytest.mark.parametrize(
    "source, line, what",
    [
        ("def f():\n    # BEGIN SOLUTION\n    x = 1\n    # BEGIN SOLUTION\n    # END SOLUTION\n", 4, "inside another"),
        ("def f():\n    return 1\n    # END SOLUTION\n", 3, "without"),
    ],
    ids=["nested", "unopened"],
)
def test_misplaced_markers_are_refused_naming_the_line(source, line, what):
    with pytest.raises(ValueError, match=rf"\bline {line}\b.*{what}"):
        stub_code(source)


def test_an_unclosed_block_is_refused():
    with pytest.raises(ValueError, match="never closed"):
        stub_code("def f():\n    # BEGIN SOLUTION\n    return 1\n")


def test_an_unclosed_block_is_refused_naming_the_line():
    with pytest.raises(ValueError, match=r"\bline 2\b"):
        stub_code("def f():\n    # BEGIN SOLUTION\n    return 1\n")


def _tiny_solution() -> nbformat.NotebookNode:
    nb = new_notebook(
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "widgets": {"state": {"some": "view"}},
        }
    )
    nb.cells = [
        new_markdown_cell("# 09 · Exercises: tiny"),
        new_markdown_cell("This is the solutions notebook.", metadata={"tags": ["solution-only"]}),
        new_code_cell(SOLVED_FUNCTION, execution_count=1, outputs=[new_output("stream", name="stdout", text="hi\n")]),
        new_code_cell("print('answer key')", execution_count=2, metadata={"tags": ["solution-only"]}),
        new_code_cell(
            "add(1, 2)",
            execution_count=3,
            outputs=[new_output("execute_result", data={"text/plain": "3"}, execution_count=3)],
        ),
        new_markdown_cell(
            f"Why?\n\n{MD_BEGIN}\nBecause **3**.\n{MD_END}\n\nAnd how?\n{MD_BEGIN}\nCarefully.\n{MD_END}"
        ),
    ]
    return nb


def test_to_exercise_strips_solutions_and_outputs_and_records_the_lesson():
    solution = _tiny_solution()
    exercise = to_exercise(solution, "09_tiny")
    assert [cell.cell_type for cell in exercise.cells] == ["markdown", "code", "code", "markdown"]
    assert "answer key" not in render(exercise) and "This is the solutions notebook" not in render(exercise)
    assert exercise.cells[1].source == stub_code(SOLVED_FUNCTION)
    assert exercise.cells[2].source == "add(1, 2)"
    for cell in _code(exercise):
        assert cell.outputs == [] and cell.execution_count is None
    assert exercise.cells[3].source == f"Why?\n\n{MD_PLACEHOLDER}\n\nAnd how?\n{MD_PLACEHOLDER}"
    assert exercise.metadata["workbook"] == {"lesson": "09_tiny"}
    assert "widgets" not in exercise.metadata and exercise.metadata["kernelspec"]["name"] == "python3"
    nbformat.validate(exercise)
    assert render(exercise).endswith("\n") and nbformat.reads(render(exercise), as_version=4) == exercise


def test_to_exercise_keeps_the_solutions_kernelspec_and_language_info():
    """JupyterLab marks a notebook modified when these differ from the running kernel's, so the exercise carries
    exactly the solution's (tests/test_notebook_metadata.py holds the solutions to the installed kernel's)."""
    solution = _tiny_solution()
    solution.metadata["language_info"] = {"name": "python", "version": "3.11.7", "file_extension": ".py"}
    exercise = to_exercise(solution, "09_tiny")
    assert exercise.metadata["kernelspec"] == solution.metadata["kernelspec"]
    assert exercise.metadata["language_info"] == solution.metadata["language_info"]


def test_to_exercise_does_not_modify_its_input():
    solution = _tiny_solution()
    before = copy.deepcopy(solution)
    to_exercise(solution, "09_tiny")
    assert solution == before


def test_to_exercise_propagates_a_marker_error():
    solution = _tiny_solution()
    solution.cells[2].source = "def f():\n    # END SOLUTION"
    with pytest.raises(ValueError, match="line 2"):
        to_exercise(solution, "09_tiny")


# --- the three folders line up ------------------------------------------------------------------------
def test_notebooks_exercises_and_solutions_hold_the_same_lessons():
    stems = {
        folder: sorted(p.stem for p in (ROOT / folder).glob("*.ipynb"))
        for folder in ("notebooks", "exercises", "solutions")
    }
    assert stems["exercises"] == [f"exercise_{slug}" for slug in LESSONS]
    assert stems["solutions"] == [f"solution_{slug}" for slug in LESSONS]
    assert stems["notebooks"] == ["00_start_here", *LESSONS], "00 is the only lesson without exercises"
    assert list(bank.LESSONS) == LESSONS, "the question bank names the same lessons (the grader's list of them)"
    for slug in LESSONS:
        assert questions(slug), f"{slug} has no graded questions in the bank"
    assert questions("00_start_here") == []


@pytest.mark.parametrize("slug", LESSONS)
def test_each_exercise_records_its_lesson_and_has_no_outputs_and_no_solutions(slug):
    exercise = _read("exercises", slug)
    assert exercise.metadata["workbook"] == {"lesson": slug}
    text = render(exercise)
    assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
    for cell in _code(exercise):
        assert cell.outputs == [] and cell.execution_count is None
    # no code written between the markers of the solution leaks into the exercise's code
    code = "\n".join(cell.source for cell in _code(exercise))
    for cell in _code(_read("solutions", slug)):
        for block in _answers(cell.source):
            leaked = [line for line in block.splitlines() if len(line.strip()) > 12 and line.strip() in code]
            assert not leaked, f"{slug}: solution lines appear in the exercise: {leaked}"


# --- the shape of every solution notebook -------------------------------------------------------------
@pytest.mark.parametrize("slug", LESSONS)
def test_solution_opens_with_title_instructions_and_a_link_to_its_lesson(slug):
    first = _read("solutions", slug).cells[0]
    assert first.cell_type == "markdown"
    assert first.source.startswith(f"# {slug[:2]} · Exercises:")
    assert "## How these exercises work" in first.source
    assert f"(../notebooks/{slug}.ipynb)" in first.source


@pytest.mark.parametrize("slug", LESSONS)
def test_the_points_table_agrees_with_the_question_bank(slug):
    first = _read("solutions", slug).cells[0].source
    for question in questions(slug):
        row = re.search(rf"^\| {re.escape(question.qid)} \|.*\| (\d+) \|$", first, re.MULTILINE)
        assert row and int(row.group(1)) == question.points, f"{question.qid}: table row missing or wrong points"
    total = re.search(r"\*\*total\*\* \| \*\*(\d+)\*\* \|", first)
    assert total and int(total.group(1)) == sum(q.points for q in questions(slug))


@pytest.mark.parametrize("slug", LESSONS)
def test_solution_has_one_check_cell_per_question_in_order_with_a_passing_output(slug):
    cells = _read("solutions", slug).cells
    check_cells = [i for i, cell in enumerate(cells) if cell.cell_type == "code" and cell.source.startswith("check(")]
    positions = []
    for question in questions(slug):
        matching = [
            i for i, cell in enumerate(cells) if cell.cell_type == "code" and cell.source == _check_source(question)
        ]
        assert len(matching) == 1, f"{question.qid}: expected exactly one cell `{_check_source(question)}`"
        positions.append(matching[0])
        shown = _result_text(cells[matching[0]])
        assert shown.splitlines()[0] == _headline(question, PASSED, question.points), shown
    assert positions == sorted(positions), "check cells are not in question order"
    assert check_cells == positions, "a check cell that belongs to no question, or is not exactly `check(qid, name)`"


@pytest.mark.parametrize("slug", LESSONS)
def test_each_check_cell_follows_its_question_heading_with_the_points(slug):
    cells = _read("solutions", slug).cells
    by_source = {_check_source(q): q for q in questions(slug)}
    heading = None
    for cell in cells:
        if cell.cell_type == "markdown":
            headings = [line for line in cell.source.splitlines() if line.startswith("### ")]
            heading = headings[-1] if headings else heading
        elif cell.source in by_source:
            question = by_source[cell.source]
            assert heading and heading.startswith(f"### {question.qid} · "), f"{question.qid} follows {heading!r}"
            points = re.search(r"\((\d+) points?\)$", heading)
            assert points and int(points.group(1)) == question.points, heading


@pytest.mark.parametrize("slug", LESSONS)
def test_solution_has_an_open_question_with_a_model_answer(slug):
    cells = _read("solutions", slug).cells
    answered = 0
    for cell, following in zip(cells, cells[1:]):
        if cell.cell_type == "markdown" and cell.source.startswith(OPEN_QUESTION):
            assert following.cell_type == "markdown", "an open question is answered in markdown"
            assert re.fullmatch(rf"{MD_BEGIN}\n.+\n{MD_END}", following.source.strip(), re.DOTALL), following.source
            answered += 1
    assert answered >= 1
    exercise = _read("exercises", slug)
    for cell, following in zip(exercise.cells, exercise.cells[1:]):
        if cell.cell_type == "markdown" and cell.source.startswith(OPEN_QUESTION):
            assert following.source == MD_PLACEHOLDER


def assert_solution_earns_full_marks(slug: str) -> None:
    """Every question of the lesson, checked in this process against its worked answer: full marks. Run for every
    lesson by tests/test_under_load.py, on a busy machine; test_filling_every_stub_with_the_solution_earns_full_marks
    below shows the same through each exercise."""
    namespace = _run_cells(_read("solutions", slug), f"solutions/{solution_name(slug)}", checks=False)
    results = grade(namespace, slug)
    assert [r.qid for r in results] == [q.qid for q in questions(slug)]
    for result in results:
        assert (result.status, result.points) == (PASSED, result.max_points), str(result)


# --- untouched exercises: they run, and earn nothing ----------------------------------------------------
@pytest.fixture(scope="module")
def executed(notebook_kernel):
    """Each exercise notebook executed once, top to bottom, in a real kernel (make test: the learner set's)."""
    done: dict[str, tuple[nbformat.NotebookNode, Exception | None]] = {}
    patch = pytest.MonkeyPatch()
    patch.delenv(DEFER_VARIABLE, raising=False)  # the kernel inherits this environment

    def run(slug: str) -> tuple[nbformat.NotebookNode, Exception | None]:
        if slug not in done:
            nb = _read("exercises", slug)
            client = NotebookClient(
                nb, timeout=120, kernel_name=notebook_kernel, resources={"metadata": {"path": str(ROOT / "exercises")}}
            )
            try:
                client.execute()
                done[slug] = (nb, None)
            except CellExecutionError as error:
                done[slug] = (nb, error)
        return done[slug]

    yield run
    patch.undo()


@pytest.mark.parametrize("slug", LESSONS)
def test_untouched_exercise_runs_top_to_bottom_in_a_kernel(executed, slug):
    nb, error = executed(slug)
    assert error is None, f"exercises/{exercise_name(slug)} crashed:\n{error}"
    errors = [out for cell in _code(nb) for out in cell.outputs if out.output_type == "error"]
    assert not errors


@pytest.mark.parametrize("slug", LESSONS)
def test_untouched_exercise_checks_say_not_attempted(executed, slug):
    nb, _ = executed(slug)
    cells = {cell.source: cell for cell in _code(nb)}
    for question in questions(slug):
        cell = cells[_check_source(question)]
        assert _result_text(cell).splitlines()[0] == _headline(question, NOT_ATTEMPTED, 0)


@pytest.mark.parametrize("slug", LESSONS)
def test_untouched_exercise_earns_nothing_from_the_grader(slug):
    results = grade(_run_cells(_read("exercises", slug), f"exercises/{exercise_name(slug)}"), slug)
    assert [r.qid for r in results] == [q.qid for q in questions(slug)]
    for result in results:
        assert (result.status, result.points) == (NOT_ATTEMPTED, 0), str(result)


# --- a learner's work flows through the exercise --------------------------------------------------------
def _answers(source: str) -> list[str]:
    """The solution blocks of a cell, markers excluded, each as the lines that replace one stub."""
    return re.findall(r"^[ \t]*# BEGIN SOLUTION\n(.*?)\n[ \t]*# END SOLUTION$", source, re.DOTALL | re.MULTILINE)


def _fill(exercise_source: str, answers: list[str]) -> str:
    """An exercise cell with each stub line replaced, in order, by the learner's answer."""
    pending = iter(answers)
    filled = re.sub(rf"^[ \t]*{re.escape(STUB)}$", lambda _: next(pending), exercise_source, flags=re.MULTILINE)
    assert next(pending, None) is None, "more answers than stubs"
    return filled


def _learner_copy(slug: str, names: set[str] | None) -> nbformat.NotebookNode:
    """The exercise with the stubs of the functions in `names` (all when None) replaced by the solution's code."""
    exercise, solution = _read("exercises", slug), _read("solutions", slug)
    answered = {_defined(cell.source): cell.source for cell in _code(solution) if _answers(cell.source)}
    for cell in _code(exercise):
        if STUB in cell.source and (names is None or _defined(cell.source) in names):
            cell.source = _fill(cell.source, _answers(answered[_defined(cell.source)]))
    return exercise


def _defined(source: str) -> str | None:
    """The first function a cell defines at top level."""
    found = re.search(r"^def (\w+)\(", source, re.MULTILINE)
    return found and found.group(1)


def test_answering_q1_1_credits_q1_1_and_q1_2_and_nothing_else():
    learner = _learner_copy("01_assemble_context", {"assemble_context"})
    assert sum(STUB in cell.source for cell in _code(learner)) == 3, "the other three stubs are untouched"
    results = {r.qid: r for r in grade(_run_cells(learner, "learner"), "01_assemble_context")}
    assert {qid: r.status for qid, r in results.items()} == {
        "q1.1": PASSED,
        "q1.2": PASSED,
        "q1.3": NOT_ATTEMPTED,
        "q1.4": NOT_ATTEMPTED,
        "q1.5": NOT_ATTEMPTED,
    }
    assert sum(r.points for r in results.values()) == 5


@pytest.mark.parametrize("slug", LESSONS)
def test_answering_the_first_function_credits_exactly_its_questions(slug):
    first = questions(slug)[0].name
    results = grade(_run_cells(_learner_copy(slug, {first}), "learner"), slug)
    for result in results:
        assert result.status == (PASSED if result.name == first else NOT_ATTEMPTED), str(result)


@pytest.mark.parametrize("slug", LESSONS)
def test_filling_every_stub_with_the_solution_earns_full_marks(slug):
    learner = _learner_copy(slug, None)
    assert not any(STUB in cell.source for cell in _code(learner)), "a stub with no solution cell to answer it"
    for result in grade(_run_cells(learner, "learner"), slug):
        assert (result.status, result.points) == (PASSED, result.max_points), str(result)


# --- the learner's path, in a real kernel ----------------------------------------------------------------
def _execute(nb: nbformat.NotebookNode, kernel: str) -> nbformat.NotebookNode:
    """Run a notebook in a fresh kernel named `kernel` from the exercises folder; errors stay in the outputs."""
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name=kernel,
        allow_errors=True,
        resources={"metadata": {"path": str(ROOT / "exercises")}},
    )
    client.execute()
    return nb


def _texts(cell) -> list[str]:
    """Everything a cell showed, as text: streams, displayed results and error lines."""
    shown = []
    for out in cell.outputs:
        if out.output_type == "stream":
            shown.append(out.text)
        elif out.output_type in ("execute_result", "display_data"):
            shown.append(out["data"].get("text/plain", ""))
        elif out.output_type == "error":
            shown.append("\n".join(out.traceback))
    return shown


LOOPING_ANSWER = """def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    kept, used, index = [], 0, 0
    while index < len(chunks):  # forgets to move on when a chunk does not fit
        chunk = chunks[index]
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
            index += 1
    return separator.join(kept), used"""
WRONG_ANSWER = """def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] > max_tokens:
            break  # stops at the first overflow
        kept.append(chunk["text"])
        used += chunk["token_count"]
    return separator.join(kept), used"""


def test_a_learner_walks_exercise_01_in_a_kernel_looping_wrong_then_right(monkeypatch, notebook_kernel):
    """The learner's path: an endless loop is stopped within the limit (the kernel's main thread, SIGALRM),
    a wrong answer gets a counterexample that runs when pasted into the next cell, a right one passes, and
    a check that is not the last line of its cell still shows its result, once."""
    import time

    from packer.checking import TIME_LIMIT

    monkeypatch.delenv(DEFER_VARIABLE, raising=False)
    exercise = _read("exercises", "01_assemble_context")
    setup = next(cell for cell in _code(exercise) if "import" in cell.source)
    right = _answers(
        next(
            c.source
            for c in _code(_read("solutions", "01_assemble_context"))
            if c.source.startswith("def assemble_context")
        )
    )[0]
    nb = new_notebook(metadata=exercise.metadata)
    nb.cells = [
        new_code_cell(setup.source),
        new_code_cell(LOOPING_ANSWER),
        new_code_cell(
            'import time\nstarted = time.process_time()\ncheck("q1.1", assemble_context)\n'
            'print(f"took {time.process_time() - started:.1f} s")'
        ),
        new_code_cell(WRONG_ANSWER),
        new_code_cell('result = check("q1.1", assemble_context)'),
        new_code_cell("print(eval(result.counterexample) == eval(result.actual))"),
        new_code_cell('def assemble_context(chunks, max_tokens, separator="\\n\\n"):\n' + right),
        new_code_cell('check("q1.1", assemble_context)'),
    ]
    started = time.monotonic()
    _execute(nb, notebook_kernel)
    looping, wrong, pasted, right_check = (_texts(nb.cells[i]) for i in (2, 4, 5, 7))
    assert len(looping) == 2 and looping[0].startswith("q1.1 assemble_context: FAILED (0/3 points)"), looping
    assert f"still running after {TIME_LIMIT:g} s of CPU time" in looping[0]
    assert float(looping[1].split()[1]) < TIME_LIMIT + 1.5, looping[1]  # CPU seconds: a busy machine adds none
    assert len(wrong) == 1 and "  input:    assemble_context(" in wrong[0], "shown though not the last line"
    assert pasted == ["True\n"], "the pasted counterexample reproduces the actual result"
    assert len(right_check) == 1 and right_check[0].startswith("q1.1 assemble_context: PASSED (3/3 points)")
    assert not [out for cell in nb.cells for out in cell.outputs if out.output_type == "error"]
    assert time.monotonic() - started < 60


def test_an_interrupted_check_prints_one_line_in_the_kernel(monkeypatch, notebook_kernel):
    monkeypatch.delenv(DEFER_VARIABLE, raising=False)
    nb = new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nb.cells = [
        new_code_cell(
            "from packer.checking import check\n"
            "def assemble_context(chunks, max_tokens, separator='\\n\\n'):\n"
            "    raise KeyboardInterrupt  # as Ctrl-C or the stop button would, mid-answer\n"
            "check('q1.1', assemble_context)"
        )
    ]
    _execute(nb, notebook_kernel)
    errors = [out for out in nb.cells[0].outputs if out.output_type == "error"]
    assert len(errors) == 1 and errors[0].ename == "CheckInterrupted"
    assert len(errors[0].traceback) == 1, errors[0].traceback
    assert errors[0].traceback[0].startswith("KeyboardInterrupt: check q1.1 interrupted on assemble_context(")
