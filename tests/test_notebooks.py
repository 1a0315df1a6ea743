"""Lesson notebooks: all present, run top to bottom for their saved outputs, and shaped like a lesson.

nbval (configured in pyproject.toml) re-runs every lesson and compares its outputs; these tests check
what nbval cannot see: cells that were never executed, out-of-order runs, and the lesson structure.
"""

import html
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
LESSONS = [
    "00_start_here",
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


def _read(name: str) -> nbformat.NotebookNode:
    return nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)


def _code_cells(nb: nbformat.NotebookNode) -> list:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def _tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def test_the_lesson_folder_holds_exactly_the_sequence():
    assert sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb")) == LESSONS


@pytest.mark.parametrize("name", LESSONS)
def test_every_code_cell_was_executed_once_top_to_bottom(name):
    counts = [cell.execution_count for cell in _code_cells(_read(name))]
    assert None not in counts, f"{name}: a code cell was never executed (run `make outputs`)"
    assert counts == list(range(1, len(counts) + 1)), f"{name}: cells were not run in order in one fresh kernel"


@pytest.mark.parametrize("name", LESSONS)
def test_opens_with_title_objectives_and_prerequisites(name):
    first = _read(name).cells[0]
    assert first.cell_type == "markdown"
    assert first.source.startswith(f"# {name[:2]} · ")
    assert "## Learning objectives" in first.source and "## Prerequisites" in first.source


@pytest.mark.parametrize("name", LESSONS)
def test_closes_with_key_points_exercise_and_next_lesson(name):
    """The last Markdown cell; only the practice progress cell comes after it (tests/test_practice_points.py)."""
    cells = _read(name).cells
    last = [cell for cell in cells if cell.cell_type == "markdown"][-1]
    assert cells[-1] is last or cells[-2] is last
    assert "## Key points" in last.source
    following = LESSONS[(LESSONS.index(name) + 1) % len(LESSONS)]
    assert f"({following}.ipynb)" in last.source
    if name != "00_start_here":
        assert f"(../exercises/exercise_{name}.ipynb)" in last.source


@pytest.mark.parametrize("name", LESSONS)
def test_figures_are_inline_png(name):
    cells = _code_cells(_read(name))
    assert "%matplotlib inline" in cells[0].source
    outputs = [out for cell in cells for out in cell.get("outputs", [])]
    assert not any("image/svg+xml" in out.get("data", {}) for out in outputs)


@pytest.mark.parametrize("name", LESSONS[1:])
def test_each_lesson_has_an_explorer_and_a_figure(name):
    cells = _code_cells(_read(name))
    assert any(re.search(r"\bexplore_\w+\(", cell.source) for cell in cells), "no ipywidgets explorer"
    assert any("image/png" in out.get("data", {}) for cell in cells for out in cell.get("outputs", [])), "no figure"


@pytest.mark.parametrize("name", LESSONS)
def test_only_tagged_cells_raise_and_only_widget_cells_skip_comparison(name):
    for cell in _code_cells(_read(name)):
        errors = [out for out in cell.get("outputs", []) if out.output_type == "error"]
        assert bool(errors) == ("raises-exception" in _tags(cell)), cell.source
        if "nbval-ignore-output" in _tags(cell) or "nbval-skip" in _tags(cell):
            assert "nbval-skip" not in _tags(cell), "skipped cells hide results; ignore the output instead"
            views = [out for out in cell.get("outputs", []) if WIDGET_VIEW in out.get("data", {})]
            assert views, f"only cells that show a widget may ignore their output:\n{cell.source}"


@pytest.mark.parametrize("name", LESSONS)
def test_no_output_carries_an_address_or_a_temp_path(name):
    for cell in _code_cells(_read(name)):
        for out in cell.get("outputs", []):
            text = out.get("text", "") + str(out.get("data", {}).get("text/plain", ""))
            assert not re.search(r"0x[0-9a-fA-F]{6,}|/tmp/ipykernel_", text), text


def _output_lists(nb: nbformat.NotebookNode) -> list[list[dict]]:
    """Every list of outputs: each code cell's own, and each saved inside a widget's state (an explorer's output
    area, which the site shows as a still)."""
    lists = [cell.get("outputs", []) for cell in _code_cells(nb)]
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    return lists + [model.get("state", {}).get("outputs", []) for model in state.values()]


FIGURE_NOTEBOOKS = sorted(
    path.relative_to(ROOT).as_posix()
    for folder in ("notebooks", "solutions", "exercises")
    for path in (ROOT / folder).glob("*.ipynb")
)


def undescribed(nb: nbformat.NotebookNode) -> list[str]:
    """What is wrong with each figure that does not say what it shows (empty when every figure does): each PNG
    needs its description as alt and as text/plain, then an output with the description in words (HTML)."""
    problems = []
    for outputs in _output_lists(nb):
        for index, out in enumerate(outputs):
            if "image/png" not in out.get("data", {}):
                continue
            text = out["data"].get("text/plain", "")
            alt = out.get("metadata", {}).get("image/png", {}).get("alt", "")
            following = outputs[index + 1].get("data", {}) if index + 1 < len(outputs) else {}
            if not alt.strip():
                problems.append("no alt text (draw it with a packer.lab plot_* function)")
            elif text != alt:
                problems.append("text/plain and alt differ")
            elif html.escape(alt) not in following.get("text/html", ""):
                problems.append("no description in words after the figure")
            if text.startswith("<Figure size"):
                problems.append(f"matplotlib's default text instead of a description: {text}")
    return problems


@pytest.mark.parametrize("path", FIGURE_NOTEBOOKS)
def test_every_figure_says_what_it_shows(path):
    """A screen reader, nbconvert's HTML and nbval all get the figure's description (packer.lab.figures)."""
    assert undescribed(nbformat.read(ROOT / path, as_version=4)) == []


def test_the_figure_check_finds_an_undescribed_figure_and_passes_a_described_one():
    from matplotlib.figure import Figure

    from packer.lab.figures import DescribedFigure, png_bytes

    bare = nbformat.v4.new_output("display_data", {"image/png": "iVBOR", "text/plain": "<Figure size 1x1>"})
    described = DescribedFigure(Figure(), "An <empty> figure.")
    data, metadata = described._repr_mimebundle_()
    data["image/png"] = png_bytes(described).hex()
    figure = nbformat.v4.new_output("display_data", data, metadata=metadata)
    words = nbformat.v4.new_output("display_data", described.in_words())
    cells = [nbformat.v4.new_code_cell(outputs=outputs) for outputs in ([bare], [figure, words], [figure])]
    assert undescribed(nbformat.v4.new_notebook(cells=cells)) == [
        "no alt text (draw it with a packer.lab plot_* function)",
        "matplotlib's default text instead of a description: <Figure size 1x1>",
        "no description in words after the figure",
    ]
