"""Practice inside every lesson: how a lesson asks its learner as they read (packer.checking.practice).

Every lesson in notebooks/ has practice points, in a module named after it (packer/checking/practice/
lesson_NN_<slug>.py; a lesson without one fails), and holds each of them as three cells, in the order its module
lists them: a Markdown cell headed `### Practice N.M · kind · objective K` (for a choose point, its options as
`- **A.** ...`), the code cell that answers it (`predict("pN.M", ...)`, `write("pN.M", ...)` or
`choose("pN.M")`), and a Markdown cell with the worked answer folded in `<details>`, whose first Python block
answers it. Between the lesson's start, its practice points and its key points lie at most 800 words of prose
(about four minutes at 200 words a minute), every learning objective is practised, the prose before the key
points is at most 3,500 words, and the last cell shows the lesson's progress. Words are counted as `\\w+` runs in
the Markdown, code blocks and folded worked answers left out (the count issue 52 measured the lessons with)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from packer.checking.practice import BY_LESSON, POINTS
from packer.checking.practice.kinds import Choose, Predict, Write

ROOT = Path(__file__).resolve().parents[1]
MOST_WORDS_BETWEEN = 800  # about four minutes of reading at 200 words a minute
MOST_WORDS_BEFORE_KEY_POINTS = 3_500
FEWEST_POINTS = 4  # in lessons 01-09; lesson 00 shows one of each kind
HEADING = re.compile(r"^### Practice (\d+)\.(\d+) · (predict|write|choose) · objective (\d+)\s*$", re.M)
CALLS = {"predict": r'predict\("{pid}", ', "write": r'write\("{pid}", ', "choose": r'choose\("{pid}"\)'}
FOLDED = re.compile(r"<details>.*?</details>", re.S)
FENCED = re.compile(r"```.*?```", re.S)
SUMMARY = re.compile(
    r"\A<details><summary>Worked answer to practice (\d+\.\d+) \(open it once you have tried\)</summary>"
)


def words(markdown: str) -> int:
    """Words of prose a learner reads: `\\w+` runs, without code blocks and folded worked answers."""
    return len(re.findall(r"\w+", FENCED.sub("", FOLDED.sub("", markdown))))


def notebook(slug: str) -> nbformat.NotebookNode:
    return nbformat.read(ROOT / "notebooks" / f"{slug}.ipynb", as_version=4)


@dataclass
class Asked:
    """One practice point as the lesson holds it."""

    pid: str
    kind: str
    objective: int
    question: nbformat.NotebookNode
    answer: nbformat.NotebookNode
    worked: nbformat.NotebookNode


def asked(nb: nbformat.NotebookNode) -> list[Asked]:
    found = []
    for index, cell in enumerate(nb.cells):
        heading = HEADING.search(cell.source) if cell.cell_type == "markdown" else None
        if heading:
            major, minor, kind, objective = heading.groups()
            after = nb.cells[index + 1 : index + 3]
            assert len(after) == 2, f"practice {major}.{minor} lacks its answer cell or worked answer"
            found.append(Asked(f"p{major}.{minor}", kind, int(objective), cell, *after))
    return found


def objectives(nb: nbformat.NotebookNode) -> list[str]:
    """The lesson's numbered learning objectives."""
    section = nb.cells[0].source.split("## Learning objectives", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\. (.+)$", section, re.M)


def segments(nb: nbformat.NotebookNode) -> list[tuple[str, int]]:
    """(where a stretch of reading ends, its words): from the start to the first practice point, between two,
    and from the last to the key points. A practice point's own question counts in the stretch it ends."""
    stretches, count = [], 0
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        if re.search(r"^## Key points", cell.source, re.M):
            stretches.append(("the key points", count + words(cell.source.split("## Key points")[0])))
            return stretches
        count += words(cell.source)
        heading = HEADING.search(cell.source)
        if heading:
            stretches.append((f"practice {heading.group(1)}.{heading.group(2)}", count))
            count = 0
    raise AssertionError("no key points")


def prose_before_key_points(nb: nbformat.NotebookNode) -> int:
    return sum(count for _, count in segments(nb))


# Every lesson in notebooks/ (NN_<slug>.ipynb), whether or not it has a practice module: a lesson without one fails.
LESSONS = sorted(path.stem for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
TAUGHT = [slug for slug in LESSONS if slug != "00_start_here"]  # 00 shows one point of each kind; 01-09 teach


def points_of(slug: str) -> tuple:
    """The lesson's practice points, from its module in packer/checking/practice/ (which it must have)."""
    assert slug in BY_LESSON, f"{slug} has no practice points: write packer/checking/practice/lesson_{slug}.py"
    return BY_LESSON[slug]


def test_the_lessons_are_found_in_notebooks_and_every_module_is_a_lesson():
    assert TAUGHT and all(slug[:2].isdigit() for slug in LESSONS)
    assert set(BY_LESSON) <= set(LESSONS), f"a practice module names no lesson: {sorted(set(BY_LESSON) - set(LESSONS))}"


@pytest.mark.parametrize("slug", LESSONS)
def test_every_lesson_has_its_practice_module(slug):
    points_of(slug)


@pytest.mark.parametrize("slug", LESSONS)
def test_the_lesson_asks_its_points_in_order_each_as_three_cells(slug):
    nb = notebook(slug)
    held = asked(nb)
    assert [a.pid for a in held] == [p.pid for p in points_of(slug)]
    for a in held:
        found = POINTS[a.pid]
        assert (a.kind, a.objective) == (found.kind, found.objective), a.pid
        assert a.answer.cell_type == "code" and re.search(CALLS[a.kind].format(pid=a.pid), a.answer.source), a.pid
        assert a.worked.cell_type == "markdown", a.pid
        summary = SUMMARY.match(a.worked.source)
        assert summary and summary.group(1) == found.number, f"{a.pid}: the worked answer is not folded under it"
        assert a.worked.source.rstrip().endswith("</details>"), a.pid
        if isinstance(found, Choose):
            listed = re.findall(r"^- \*\*([A-Z])\.\*\* (.+)$", a.question.source.replace("`", ""), re.M)
            assert listed == [(o.key, o.text) for o in found.options], f"{a.pid}: the options differ from the module's"


@pytest.mark.parametrize("slug", LESSONS)
def test_every_point_practises_one_of_the_lessons_numbered_objectives(slug):
    listed = objectives(notebook(slug))
    assert listed, "the objectives are a numbered list"
    assert all(1 <= p.objective <= len(listed) for p in points_of(slug))


@pytest.mark.parametrize("slug", TAUGHT)
def test_every_objective_is_practised_before_the_exercise(slug):
    practised = {p.objective for p in points_of(slug)}
    assert practised == set(range(1, len(objectives(notebook(slug))) + 1)), f"practised: {sorted(practised)}"


@pytest.mark.parametrize("slug", TAUGHT)
def test_a_lesson_asks_at_least_four_times_at_most_800_words_apart(slug):
    nb = notebook(slug)
    assert len(points_of(slug)) >= FEWEST_POINTS
    stretches = segments(nb)
    assert all(count <= MOST_WORDS_BETWEEN for _, count in stretches), stretches
    assert prose_before_key_points(nb) <= MOST_WORDS_BEFORE_KEY_POINTS


@pytest.mark.parametrize("slug", LESSONS)
def test_the_saved_lesson_shows_each_point_unanswered_and_its_last_cell_the_progress(slug):
    nb = notebook(slug)
    for a in asked(nb):
        shown = "".join(
            output.get("text", "") or output.get("data", {}).get("text/plain", "") for output in a.answer.outputs
        )
        if a.kind == "choose":
            assert f"Practice {a.pid[1:]}: pick " in shown and "then press Check" in shown, a.pid
        else:
            assert f"Practice {a.pid[1:]} ({a.kind}): not answered yet" in shown, a.pid
    last = nb.cells[-1]
    assert last.cell_type == "code" and last.source.strip() == f'progress("{slug}")'
    (output,) = last.outputs
    assert output["data"]["text/plain"].startswith(
        f"Practice in this lesson: 0 of {len(points_of(slug))} answered right in this kernel"
    )


def worked_code(a: Asked) -> str:
    """The first Python block of the folded worked answer."""
    block = re.search(r"```python\n(.*?)```", a.worked.source, re.S)
    assert block, f"{a.pid}: the worked answer has no Python block"
    return block.group(1)


ALL_ASKED = [(slug, a) for slug in LESSONS for a in asked(notebook(slug))]


@pytest.mark.parametrize("slug, held", ALL_ASKED, ids=[a.pid for _, a in ALL_ASKED])
def test_each_worked_answer_is_right(slug, held):
    from packer.checking.practice import kinds

    found = POINTS[held.pid]
    code = worked_code(held)
    if isinstance(found, Predict):
        names: dict = {}
        exec(code, names)
        assert kinds.check_prediction(found, names["prediction"]).status == kinds.RIGHT
    elif isinstance(found, Write):
        names = {}
        exec(code, names)
        feedback = kinds.check_function(found, names[found.question.name])
        assert feedback.status == kinds.RIGHT, str(feedback)
    else:
        (key,) = re.findall(rf'choose\("{held.pid}", "([A-Z])"\)', code)
        assert kinds.check_choice(found, key).status == kinds.RIGHT
