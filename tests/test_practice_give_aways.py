"""No practice point can be answered by reading further down the page (issue 61, part 1).

Between a point's question and the next point (or the lesson's end), nothing a learner sees before opening a fold
gives its answer away:

- a predict point's result, as its point's own check computes it (`Predict.result`), is readable neither in a
  visible saved output nor in the prose: not its repr, nor (for a tuple or list) every one of its items' reprs in
  one output or one Markdown cell;
- a write point's function is not defined in a visible code cell, nor printed by one (the lesson's own version of
  it, under the names `ALSO_ANSWERS` lists).

What answers a point is folded: a printed result with `packer.lab.folded.folded` (a closed `<details>`, which stays
closed when the cell runs again), the lesson's own code with nbformat's `jupyter.source_hidden` (JupyterLab shows the
cell's first line, which says what it holds; the site folds it the same way). Worked answers are folded in Markdown
`<details>` and never count as visible. The few numbers that are readable for another reason are listed in
`COINCIDENCES`, each with that reason; a listed one that no longer occurs fails, so the list stays true.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

import nbformat
import pytest

from packer.checking.practice import POINTS
from packer.checking.practice.kinds import Predict, Write
from packer.lab.folded import FOLDED_CLASS, summary
from test_practice_points import HEADING, LESSONS, notebook

FOLDED_OUTPUT = f'<details class="{FOLDED_CLASS}"><summary>'
WORKED = re.compile(r"<details>.*?</details>", re.S)
FOLDED_SOURCE = re.compile(
    r"\A# Folded: the lesson's (\w+), which answers practice (\d+\.\d+) \(open it once you have answered\)\n"
)

# A write point's answer under another name in the lesson: its own full version of the same loop or formula.
ALSO_ANSWERS = {
    "p2.4": ("pack_by_remeasuring",),  # keep_or_skip's loop, with the input checks added
    "p3.4": ("pack_running_total",),  # kept_ids' running byte total, with the input checks added
    "p6.1": ("bm25_scores",),  # bm25's formula, summed over every passage (the lesson prints its source)
}

# (point, id of the cell where its result is readable) -> why that is no give-away. Every item of a short tuple
# of small numbers turns up in tables and prose about other things; these were each read and are not the answer.
COINCIDENCES = {
    ("p2.2", "840d5115"): "real BPE tokens of other pairs ('a\\n' + '\\n[b': apart 2 + 2 = 4, joined 3), not chars/4 "
    "of tides and winds",
    ("p4.1", "bb027791"): "the floor and ceiling table of the strings '' to 'abcdefghi': every count there is 0 to 3",
    ("p8.5", "194efc16"): "the FIFO parts' listing: priorities 3, 2, 1 and reserves 0, not MMR's order",
}


@dataclass
class Region:
    """What a learner can read between a point's answer cell (its stub, its feedback) and the next point."""

    pid: str
    cells: list[nbformat.NotebookNode]


def regions(nb: nbformat.NotebookNode) -> list[Region]:
    starts = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "markdown" and HEADING.search(cell.source)]
    found = []
    for start, end in zip(starts, starts[1:] + [len(nb.cells)]):
        major, minor = HEADING.search(nb.cells[start].source).groups()[:2]
        found.append(Region(f"p{major}.{minor}", nb.cells[start + 2 : end]))  # after the cell that answers it
    return found


def is_folded(output: dict) -> bool:
    return output.get("data", {}).get("text/html", "").startswith(FOLDED_OUTPUT)


def visible_outputs(cell: nbformat.NotebookNode) -> list[str]:
    """The text of each output a learner sees without opening anything."""
    texts = []
    for output in cell.get("outputs", []):
        if is_folded(output):
            continue
        if output.get("output_type") == "stream":
            texts.append(output.get("text", ""))
        else:
            texts.append(output.get("data", {}).get("text/plain", "") or output.get("evalue", ""))
    return texts


def source_hidden(cell: nbformat.NotebookNode) -> bool:
    return bool(cell.metadata.get("jupyter", {}).get("source_hidden"))


def readable(value: Any, text: str) -> bool:
    """The value's repr is in the text, or (a tuple or list of two or more) every item's repr is, each on its own
    (a number not as part of a longer number or word)."""

    def found(part: Any) -> bool:
        shown = repr(part)
        return re.search(rf"(?<![\w.]){re.escape(shown)}(?![\w.])", text) is not None

    if found(value):
        return True
    return isinstance(value, (tuple, list)) and len(value) > 1 and all(found(item) for item in value)


def texts(cell: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(kind, text) of what a cell shows unfolded: a Markdown cell's prose (worked answers left out), a code cell's
    visible outputs, and its code unless folded."""
    if cell.cell_type == "markdown":
        return [("prose", WORKED.sub("", cell.source))]
    shown = [("output", text) for text in visible_outputs(cell)]
    return shown + ([] if source_hidden(cell) else [("code", cell.source)])


def give_aways(region: Region) -> list[tuple[str, str]]:
    """(cell id, what is readable there) for everything in the region that answers its point: a predict point's
    result in prose or an output (code is what the learner runs, not its result), a write point's function in code
    or an output."""
    found = POINTS[region.pid]
    seen = []
    for cell in region.cells:
        for kind, text in texts(cell):
            if isinstance(found, Predict) and kind != "code" and readable(found.result(), text):
                seen.append((cell.id, f"{found.result()!r}"))
            if isinstance(found, Write) and kind != "prose":
                names = (found.question.name, *ALSO_ANSWERS.get(region.pid, ()))
                seen += [(cell.id, f"def {name}") for name in names if f"def {name}(" in text]
    return seen


ALL_REGIONS = [(slug, region) for slug in LESSONS for region in regions(notebook(slug))]


@pytest.mark.parametrize("slug, region", ALL_REGIONS, ids=[r.pid for _, r in ALL_REGIONS])
def test_nothing_before_the_next_point_answers_this_one(slug, region):
    seen = [(cell, what) for cell, what in give_aways(region) if (region.pid, cell) not in COINCIDENCES]
    assert not seen, f"{slug}: practice {region.pid[1:]} is answered, unfolded, in cells {seen}"


def test_each_listed_coincidence_still_occurs_so_the_list_stays_true():
    occurring = {(region.pid, cell) for _, region in ALL_REGIONS for cell, _ in give_aways(region)}
    assert set(COINCIDENCES) <= occurring, sorted(set(COINCIDENCES) - occurring)


@pytest.mark.parametrize("slug", LESSONS)
def test_each_fold_says_in_one_line_what_it_holds_and_sits_under_its_own_point(slug):
    for region in regions(notebook(slug)):
        for cell in region.cells:
            for output in cell.get("outputs", []):
                if is_folded(output):
                    assert summary(region.pid[1:]) in output["data"]["text/html"], (region.pid, cell.id)
            if source_hidden(cell):
                line = FOLDED_SOURCE.match(cell.source)
                assert line and line.group(2) == region.pid[1:], (region.pid, cell.id)
                assert f"def {line.group(1)}(" in cell.source, (region.pid, cell.id)


def test_every_write_point_s_other_answer_is_in_the_lesson_folded():
    """ALSO_ANSWERS names code the lessons really hold, under the point it answers, in a fold."""
    held = {}
    for slug in LESSONS:
        for region in regions(notebook(slug)):
            for cell in region.cells:
                for name in ALSO_ANSWERS.get(region.pid, ()):
                    if cell.cell_type == "code" and f"def {name}(" in cell.source + "".join(
                        o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", [])
                    ):
                        held[region.pid, name] = source_hidden(cell) or all(map(is_folded, cell.outputs))
    assert held == {(pid, name): True for pid, names in ALSO_ANSWERS.items() for name in names}


def unfolded(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The lesson as it was before folding: each folded output printed plainly, each folded source shown."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        cell.metadata.pop("jupyter", None)
        if cell.cell_type == "code":
            cell.outputs = [
                nbformat.v4.new_output("stream", name="stdout", text=o["data"]["text/plain"]) if is_folded(o) else o
                for o in cell.outputs
            ]
    return nb


# Folds that hide the evidence which settles a point, not its value (so no search for the value finds them), each
# found by a learner who read the answer off the page: 2.7's table of seams for option A's format ("NOT cut"), and
# 6.2's table of what each policy kept (its columns give the three lists).
EVIDENCE = {
    "p2.7": "the seams of the formats in the options, cut or not",
    "p6.2": "the four policies' outcomes on the toy passages",
}


@pytest.mark.parametrize("slug", ["02_prompt_packer", "06_policies"])
def test_the_check_finds_every_folded_answer_once_it_is_unfolded(slug):
    """The check can fail: unfold a lesson's folds and each point they hid is reported (but for the folds in
    EVIDENCE, which hide what settles a point rather than its value)."""
    nb = notebook(slug)
    hidden = {
        region.pid
        for region in regions(nb)
        for cell in region.cells
        if source_hidden(cell) or any(map(is_folded, cell.get("outputs", [])))
    } - set(EVIDENCE)
    assert hidden
    reported = {region.pid for region in regions(unfolded(nb)) if give_aways(region)}
    assert hidden <= reported, sorted(hidden - reported)


def test_readable_finds_a_repr_or_every_item_and_not_a_number_inside_another():
    assert readable((4, 3), "apart: 4 joined: 3") and readable(["a", "b"], "kept ['a', 'b']")
    assert readable("x\ny", "('x\\ny', 2)") and not readable((4, 3), "apart: 4 joined: 35")
    assert not readable(10, "1050 tokens, 10.5 s") and not readable(["a", "c"], "kept ['a', 'b']")
