"""Gradescope's autograder zip (packer.grading.gradescope_package): two builds are the same bytes; unpacked as
Gradescope unpacks it, its run_autograder grades a right and a wrong lesson-01 answer, and a submission it
cannot grade still gets a valid results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/).

run_autograder runs with this environment's Python, not the one setup.sh would install (setup.sh needs the
network: it is only checked to be valid bash that pins with constraints.txt), and with --sandbox off but for one
run, which makes run_autograder's own choice (bubblewrap where it can run, else Gradescope's container alone, said
so): what is tested here is the package and its scripts; containment has tests of its own (test_containment.py).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat

from packer.grading import sandbox
from packer.grading.demo_class import KINDS, LESSON, exercise, solution
from packer.grading.gradescope_package import build
from packer.grading.reports import GRADESCOPE_FIELDS, GRADESCOPE_TEST_FIELDS

VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
METADATA = {
    "id": 123456,
    "created_at": "2026-03-02T14:22:32.365935-08:00",
    "assignment": {"id": 25828, "title": "Lesson 01", "total_points": "10.0"},
    "submission_method": "upload",
    "users": [{"email": "ada@example.com", "id": 1234, "name": "Ada Lovelace"}],
    "previous_submissions": [],
}


def unpack(archive: Path, root: Path) -> Path:
    """Lay the zip out as Gradescope does: extracted into root/source (modes kept), run_autograder copied to root."""
    source = root / "source"
    with zipfile.ZipFile(archive) as opened:
        for info in opened.infolist():
            path = Path(opened.extract(info, source))
            path.chmod((info.external_attr >> 16) & 0o777)
    (root / "run_autograder").write_bytes((source / "run_autograder").read_bytes())
    (root / "run_autograder").chmod(0o755)
    (root / "submission").mkdir()
    return root


def gradescope(tmp_path: Path, name: str, files: dict[str, object], metadata: dict | None = METADATA) -> Path:
    """A Gradescope layout, root/{source,run_autograder,submission/...,submission_metadata.json}, of a fresh build."""
    root = unpack(build("01", tmp_path / name / "dist"), tmp_path / name / "autograder")
    for file, content in files.items():
        path = root / "submission" / file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else nbformat.writes(content), encoding="utf-8")
    if metadata is not None:
        (root / "submission_metadata.json").write_text(json.dumps(metadata), encoding="utf-8")
    return root


def start(root: Path, **overrides: str) -> subprocess.Popen:
    """run_autograder on the layout, with this environment's Python and every path inside the test's folder."""
    scratch = root.parent / "tmp"
    scratch.mkdir(exist_ok=True)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env |= {
        "AUTOGRADER_ROOT": str(root),
        "AUTOGRADER_PYTHON": sys.executable,
        "AUTOGRADER_SANDBOX": "off",
        "AUTOGRADER_USER": "",  # no switch to setup.sh's user, which this machine does not have
        "TMPDIR": str(scratch),
        **overrides,
    }
    return subprocess.Popen(
        [str(root / "run_autograder")], cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def finish(process: subprocess.Popen, root: Path) -> tuple[dict, str]:
    """Wait for run_autograder; its results.json, checked against Gradescope's format, and what it printed."""
    stdout, _ = process.communicate(timeout=120)
    assert process.returncode == 0, stdout
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    check_format(results)
    assert not list((root.parent / "tmp").iterdir()), "run_autograder left its scratch folder behind"
    return results, stdout


def run(root: Path, **overrides: str) -> tuple[dict, str]:
    """run_autograder from start to finish."""
    return finish(start(root, **overrides), root)


def is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def check_format(results: dict) -> None:
    """The fields and types of Gradescope's results.json, and a score that is the sum of the tests' scores."""
    assert set(results) <= set(GRADESCOPE_FIELDS), set(results) - set(GRADESCOPE_FIELDS)
    assert is_number(results["score"])
    assert isinstance(results["output"], str) and results["output"]
    assert results.get("visibility", "visible") in VISIBILITY
    assert isinstance(results.get("extra_data", {}), dict)
    assert is_number(results.get("execution_time", 0))
    tests = results["tests"]
    assert isinstance(tests, list)
    for test in tests:
        assert set(test) <= set(GRADESCOPE_TEST_FIELDS), set(test) - set(GRADESCOPE_TEST_FIELDS)
        assert is_number(test["score"]) and is_number(test["max_score"]) and 0 <= test["score"] <= test["max_score"]
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert test.get("status", "passed") in {"passed", "failed"}
        assert test.get("visibility", "visible") in VISIBILITY
    assert results["score"] == sum(test["score"] for test in tests)


def test_two_builds_are_the_same_bytes_with_the_scripts_executable_at_the_root(tmp_path):
    first, second = build("01", tmp_path / "one"), build("1", tmp_path / "two")
    assert first.name == second.name == f"gradescope-{LESSON}.zip"
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        infos = {info.filename: info for info in archive.infolist()}
        run_autograder = archive.read("run_autograder").decode("utf-8")
    for script in ("setup.sh", "run_autograder"):
        assert (infos[script].external_attr >> 16) & 0o111 == 0o111, script
    assert f'BUILT_FOR_LESSON="{LESSON}"' in run_autograder
    assert {"pyproject.toml", "constraints.txt", "packer/grading/grader.py", "packer/checking/bank.py"} <= set(infos)
    solutions = sorted(name for name in infos if name.startswith("solutions/"))
    assert f"solutions/solution_{LESSON}.ipynb" in solutions and len(solutions) == 9
    assert not [name for name in infos if name.startswith(("tests/", "notebooks/", "exercises/", ".venv/"))]
    assert not [name for name in infos if "__pycache__" in name or name.endswith(".pyc")]


def test_the_solutions_are_placeholders_and_setup_sh_pins_with_constraints_txt(tmp_path):
    root = unpack(build("01", tmp_path / "dist"), tmp_path / "autograder")
    placeholder = nbformat.read(root / "source" / "solutions" / f"solution_{LESSON}.ipynb", as_version=4)
    nbformat.validate(placeholder)
    assert [cell.cell_type for cell in placeholder.cells] == ["markdown"]
    assert "def " not in json.dumps(placeholder)
    setup = root / "source" / "setup.sh"
    assert subprocess.run(["bash", "-n", str(setup)], capture_output=True, text=True).returncode == 0
    installs = [line for line in setup.read_text().splitlines() if re.search(r"pip install .*-e ", line)]
    assert installs and all(re.search(r'-c "?\$SOURCE/constraints\.txt"?', line) for line in installs), installs
    assert subprocess.run(["bash", "-n", str(root / "run_autograder")]).returncode == 0


def test_a_right_answer_earns_every_point_and_a_wrong_one_loses_its_questions(tmp_path):
    right = gradescope(tmp_path, "right", {"exercise_01_assemble_context.ipynb": solution()})
    wrong = gradescope(
        tmp_path, "wrong", {"exercise_01_assemble_context.ipynb": KINDS["strict-comparison"][1]()}, metadata=None
    )
    # side by side: each is one grader run; the right answer with run_autograder's own choice of containment
    running = [(start(right, AUTOGRADER_SANDBOX=""), right), (start(wrong), wrong)]
    (good, printed), (bad, _) = (finish(process, root) for process, root in running)
    why_not = sandbox.probe()
    if why_not:  # Gradescope's container of the submission is then the only containment, said on purpose
        assert (
            f"containment: Gradescope's container of this submission only (bubblewrap cannot run in it: {why_not})"
            in printed
        )
        assert good["extra_data"]["grader"]["containment"].startswith("none")
    else:
        assert good["extra_data"]["grader"]["containment"].startswith("bubblewrap"), printed

    assert good["score"] == sum(test["max_score"] for test in good["tests"]) == 10
    assert {test["status"] for test in good["tests"]} == {"passed"}
    assert good["output"].startswith(f"Lesson {LESSON}: 10 of 10 points.")
    assert good["extra_data"]["learner"] == "Ada Lovelace"  # from submission_metadata.json
    assert f"{right / 'source' / 'packer'}" in printed  # graded by the unpacked package's own checks

    failed = [test for test in bad["tests"] if test["status"] == "failed"]
    assert 0 < bad["score"] < good["score"] and failed
    assert bad["score"] == good["score"] - sum(test["max_score"] for test in failed)
    assert all("FAILED" in test["output"] for test in failed)
    assert bad["extra_data"]["learner"] == "submission"  # no metadata: the grader's own guess (its folder) stays


def test_an_empty_submission_scores_0_and_says_what_to_hand_in(tmp_path):
    root = gradescope(tmp_path, "empty", {})
    results, _ = run(root)
    assert results["score"] == 0
    assert "holds no notebook" in results["output"] and "It is empty." in results["output"]
    assert "exercise_01_assemble_context.ipynb" in results["output"]
    assert [test["number"] for test in results["tests"]] == ["q1.1", "q1.2", "q1.3", "q1.4", "q1.5"]
    assert results["extra_data"]["learner"] == "Ada Lovelace"


def test_files_that_are_not_notebooks_are_named_in_the_output(tmp_path):
    root = gradescope(
        tmp_path, "no-notebook", {"answers.py": "x = 1\n", ".ipynb_checkpoints/old-checkpoint.ipynb": "{}"}
    )
    results, _ = run(root)
    assert results["score"] == 0 and "It holds: answers.py." in results["output"]


def test_two_notebooks_score_0_and_are_both_named(tmp_path):
    root = gradescope(tmp_path, "two", {"mine.ipynb": solution(), "lesson/exercise.ipynb": exercise()})
    results, _ = run(root)
    assert results["score"] == 0
    assert "holds 2 notebooks (lesson/exercise.ipynb, mine.ipynb)" in results["output"]


def test_a_grader_that_refuses_to_run_still_gives_a_result_that_says_why(tmp_path):
    root = gradescope(tmp_path, "refused", {"exercise_01_assemble_context.ipynb": solution()})
    results, _ = run(root, AUTOGRADER_LESSON="99")
    assert results["score"] == 0 and results["tests"] == []
    assert "the grader refused to start" in results["output"] and "unknown lesson" in results["output"]
    assert results["extra_data"]["grader"]["exit_status"] == 2


def test_without_a_working_python_the_first_result_written_stays(tmp_path):
    root = gradescope(tmp_path, "no-python", {"exercise_01_assemble_context.ipynb": solution()})
    results, _ = run(root, AUTOGRADER_PYTHON=str(tmp_path / "no-such-python"))
    assert results["score"] == 0 and "tell your instructor" in results["output"]
