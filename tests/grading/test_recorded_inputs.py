"""The grader records every question's generated inputs once per run, and each submission's kernel replays
them: they belong to the question alone (packer.checking.search), so every kernel accepts them, whatever its
notebook imported; a record that is not the grader's is ignored, and a class gets byte-identical gradebooks with
the replay and without it."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

import packer.grading.grader as grade
from grader_cli import grade_main
from kernel_probe import LESSON_01_SEARCHED, accepted, warmed_run_dir
from packer.checking import BANK, search
from packer.checking.exercises import exercise_name, solution_name
from packer.grading import kernels
from packer.grading.demo_class import LESSON, solution

ROOT = Path(__file__).resolve().parents[2]
SEARCHED = sorted(qid for qid, question in BANK.items() if question.inputs is not None)


@pytest.fixture(scope="module")
def run_dir():
    """A grading run's folder with its search cache filled and its inputs recorded, as the grader makes it."""
    folder, token = warmed_run_dir()
    yield folder, token
    shutil.rmtree(folder, ignore_errors=True)


def test_the_warm_up_records_every_searched_question(run_dir):
    recorded = kernels.read_recorded_inputs(run_dir[0])
    assert sorted(recorded["inputs"]) == SEARCHED
    assert all(len(inputs) == 120 for inputs in recorded["inputs"].values())
    assert recorded["version"] == search.inputs_version()


def test_a_kernel_that_ran_an_exercise_accepts_the_recorded_inputs(run_dir):
    notebook = nbformat.read(ROOT / "exercises" / exercise_name(LESSON), as_version=4)
    assert accepted(run_dir, notebook) == LESSON_01_SEARCHED == ["q1.1", "q1.2", "q1.3", "q1.4"]
    assert accepted(run_dir, solution()) == LESSON_01_SEARCHED


def _changed_file(path, sha256, counts):
    Path(path).write_bytes(Path(path).read_bytes().replace(b'"q1.1": [', b'"q1.1": [{"tuple": [[], 0]}, ', 1))
    return path, sha256, {**counts, "q1.1": counts["q1.1"] + 1}


def _wrong_counts(path, sha256, counts):
    return path, sha256, {**counts, "q1.1": counts["q1.1"] + 1}


@pytest.mark.parametrize("tamper", [_changed_file, _wrong_counts], ids=["changed file", "wrong counts"])
def test_recorded_inputs_that_are_not_the_graders_are_ignored(run_dir, tamper):
    assert accepted(run_dir, solution(), tamper) == []


def test_a_kernel_that_loaded_other_workbook_modules_and_its_own_accepts_them_too(run_dir):
    """Hypothesis would draw constants from every local module loaded; the checks' search does not
    (packer.checking.search), so a notebook that imported the lessons' tools and a module it wrote itself is
    handed the same inputs, and its kernel replays the recorded ones."""
    notebook = solution()
    module = "open('my_helpers.py', 'w').write('WORDS = [\"alpha\", \"beta\", 17, 4096]')\nimport my_helpers"
    notebook.cells.insert(0, nbformat.v4.new_code_cell("import packer.lab.trace, packer.lab.widgets\n" + module))
    assert accepted(run_dir, notebook) == LESSON_01_SEARCHED


def test_a_class_gets_the_same_gradebook_with_the_replay_and_without_it(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "tests" / "grading"))
    from test_grade import LESSON_01_MUTANTS, mutant_notebook

    folder = tmp_path / "class"
    folder.mkdir()
    # One wrong answer per lesson-01 question: test_replay.py already compares every mutant in process; this
    # is the grader's path (recording, kernels replaying), which a small class exercises as well as a big one.
    first_per_question = {qid: function for qid, _, function in reversed(LESSON_01_MUTANTS)}
    for number, (qid, function) in enumerate(sorted(first_per_question.items())):
        nbformat.write(mutant_notebook(qid, function), folder / f"mutant{number:02d}-{qid}.ipynb")
    # And three lessons' worked answers, whose checks replay those lessons' recorded inputs. No untouched exercise: a
    # stub is found not attempted on a question's first fixed case, before any generated input, recorded or not, is
    # used, so it could not show a difference (tests/checking/test_exercises.py runs and grades every lesson's
    # untouched exercise).
    for slug in ("01_assemble_context", "03_utf8_packer", "06_policies"):
        shutil.copy(ROOT / "solutions" / solution_name(slug), folder)
    books = []
    for replayed in (True, False):
        if not replayed:
            monkeypatch.setattr(grade, "read_recorded_inputs", lambda run_dir: {})
        out = tmp_path / f"grades-{replayed}"
        assert grade_main([str(folder), "--out", str(out), "--jobs", "2", "--timeout", "30"]) == 0
        books.append(json.loads((out / "grades.json").read_text()))
    with_replay, without = books
    assert [row["tests"] for row in with_replay["submissions"]] == [row["tests"] for row in without["submissions"]]
    assert with_replay["submissions"] == without["submissions"]
    rows = {row["submission"].split("/")[-1]: row for row in with_replay["submissions"]}
    for slug in ("01_assemble_context", "03_utf8_packer", "06_policies"):
        right = rows[solution_name(slug)]
        assert right["score"] == right["max_score"] > 0, right
