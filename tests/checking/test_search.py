"""A question's generated inputs belong to the question alone (packer.checking.search): the same bytes, as the
grader records them, in the editable checkout, in a site-packages install, in a kernel that imported every
lesson module and a module of the learner's own, from another working folder and under any hash seed; and a
check writes nothing into the learner's folder.

Hypothesis (6.131 and later) would otherwise draw on the literals of every local module loaded, and cache them in
a .hypothesis/ folder of the working directory. The first test shows that it still does, on its own, so that the
others can fail: if a Hypothesis upgrade changes how, search.py is the one module to mend."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import site_packages
from packer.checking import BANK, replay, search

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "q4.1"  # one whose inputs a learner's module of literals changes when the switch is off (measured)
LESSON_MODULES = sorted(f"packer.lab.{path.stem}" for path in (ROOT / "packer" / "lab").glob("*.py"))
LEARNERS_MODULE = '''"""A learner's own helpers, next to the exercise: full of literals."""
WORDS = ["alpha", "beta", "gamma", "delta", "the", "a", "why", "\\n\\n", " ", "xxx"]
NUMBERS = [0, 1, 2, 3, 4, 5, 7, 10, 11, 13, 17, 20, 50, 64, 99, 100, 128, 255, 256, 1000, 4096]
'''
# What each process prints: the question's inputs as the grader records them (packer.checking.replay.record).
RECORD = "import sys\nfrom packer.checking import BANK, replay\nprint(replay.record([BANK[sys.argv[1]]]))"
PLAIN = (  # the same inputs drawn by Hypothesis's find with the same settings, but without the switch
    "import sys\nfrom hypothesis import find\nfrom hypothesis.errors import NoSuchExample\n"
    "from packer.checking import BANK\nfrom packer.checking.search import SEARCH\nseen = []\n"
    "try:\n    find(BANK[sys.argv[1]].inputs, lambda args: seen.append(args) or False, settings=SEARCH)\n"
    "except NoSuchExample:\n    pass\nprint(repr(seen))"
)


def run(python: Path | str, code: str, cwd: Path, *, imports: str = "", hash_seed: str = "0") -> str:
    """What `code` prints (with the question's id as its argument), after `imports`, in a new process."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    done = subprocess.run(
        [str(python), "-c", imports + code, QUESTION], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def learners_folder(tmp_path_factory) -> Path:
    """A learner's working folder: the exercise's place, with a module of their own in it."""
    folder = tmp_path_factory.mktemp("learner")
    (folder / "my_helpers.py").write_text(LEARNERS_MODULE)
    return folder


@pytest.fixture(scope="module")
def editable(learners_folder) -> str:
    """The question's recorded inputs in this checkout's editable install, run from the checkout."""
    return run(sys.executable, RECORD, ROOT)


def test_without_the_switch_hypothesis_mixes_a_learners_module_into_the_inputs(learners_folder):
    """The measurement the switch exists for: if this stops failing the switch's absence, Hypothesis changed."""
    alone = run(sys.executable, PLAIN, learners_folder)
    assert run(sys.executable, PLAIN, learners_folder, imports="import my_helpers\n") != alone


def test_the_inputs_are_the_same_after_the_learner_imports_a_module_of_their_own(editable, learners_folder):
    assert run(sys.executable, RECORD, learners_folder, imports="import my_helpers\n") == editable


def test_the_inputs_are_the_same_under_any_hash_seed_and_working_folder(editable, tmp_path):
    assert run(sys.executable, RECORD, tmp_path, hash_seed="1") == editable
    assert run(sys.executable, RECORD, tmp_path, hash_seed="0") == editable


def test_the_inputs_are_the_same_in_a_site_packages_install(editable, tmp_path):
    python = site_packages.install(tmp_path)
    where = run(python, "import packer\nprint(packer.__file__)", tmp_path).strip()
    assert where.startswith(str(site_packages.purelib(python))), where
    assert run(python, RECORD, tmp_path) == editable


def test_the_inputs_are_the_same_in_a_kernel_that_imported_the_lessons_and_the_learners_modules(
    editable, learners_folder, notebook_kernel
):
    """A real kernel (the learner set's under make test) in the learner's folder, as a lesson left it."""
    code = f"import {', '.join(LESSON_MODULES)}\nimport my_helpers\n" + RECORD.replace("sys.argv[1]", repr(QUESTION))
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    NotebookClient(
        notebook, kernel_name=notebook_kernel, timeout=600, resources={"metadata": {"path": str(learners_folder)}}
    ).execute()
    (output,) = notebook.cells[0].outputs
    assert output["text"] == editable


def test_the_recorded_inputs_carry_the_version_of_the_search_and_no_machine():
    recorded = json.loads(replay.record([BANK[QUESTION]]))
    assert recorded["version"] == search.inputs_version() and len(recorded["version"]) == 64
    assert len(recorded["inputs"][QUESTION]) == search.GENERATED_EXAMPLES


def test_a_check_writes_nothing_into_the_learners_folder_nor_their_home(tmp_path):
    """No .hypothesis/ (its constants, its Unicode tables): a text question, in a process with no cache anywhere."""
    folder, home = tmp_path / "exercises", tmp_path / "home"
    folder.mkdir()
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    code = "from packer.checking import check\nprint(check('q4.1', lambda text: (len(text) + 3) // 4).status)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=folder, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "passed", done.stdout
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == ["exercises", "home"]


def test_the_switch_puts_everything_back_after_the_search():
    from hypothesis import configuration
    from hypothesis.internal.conjecture import providers

    collect, home = providers._get_local_constants, getattr(configuration, search._HOME)
    replay.generated_inputs(BANK[QUESTION])
    assert providers._get_local_constants is collect
    assert getattr(configuration, search._HOME) is home
