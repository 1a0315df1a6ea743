"""Three sets of dependencies (pyproject.toml): the learner's, installed by `make lab`, and the instructor's and the
contributor's on top of it. make test runs every lesson, solution and exercise in a kernel of the learner's set
alone (.venv-learner, `make learner-venv`), so a lesson that needs a package of another set fails there; the commands
that need the instructor's set say which make target installs it, without a traceback."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
LEARNER_VENV = ROOT / ".venv-learner"
LEARNER_KERNEL = "workbook-learner"


def make_dry_run(folder: Path, *targets: str) -> str:
    """What make would run for `targets` in `folder`, without running it."""
    return subprocess.run(["make", "-n", *targets], cwd=folder, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def fresh_clone(tmp_path: Path) -> Path:
    """The files the Makefile's install rules read, in a folder with no environment yet."""
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


# --- the sets -----------------------------------------------------------------------------------------------
def test_the_learner_set_is_the_default_and_the_others_are_extras():
    extras = PROJECT["optional-dependencies"]
    assert set(extras) == {"singleuser", "grader", "instructor", "contributor"}
    assert f"{PROJECT['name']}[singleuser]" in extras["instructor"]  # the hub's learners run on the instructor's .venv
    assert f"{PROJECT['name']}[grader]" in extras["instructor"]
    learner = {canonicalize_name(Requirement(r).name) for r in PROJECT["dependencies"]}
    for extra, requirements in extras.items():
        names = {canonicalize_name(Requirement(r).name) for r in requirements}
        assert not names & learner, f"[{extra}] repeats the learner's set: {sorted(names & learner)}"
    heavy = {"playwright", "nbgrader", "jupyterhub", "pytest", "ruff", "pagefind-bin"}
    assert not heavy & learner


@pytest.mark.parametrize(
    ("targets", "installed"),
    [
        (("lab",), "-e ."),
        (("venv",), "-e ."),
        (("venv-instructor",), "-e '.[instructor]'"),
        (("grade",), "-e '.[instructor]'"),
        (("nbgrader", "NBGRADER_COURSE=x"), "-e '.[instructor]'"),
        (("site",), "-e '.[instructor]'"),
        (("lint",), "-e '.[instructor,contributor]'"),
    ],
)
def test_each_make_target_installs_its_set_in_a_fresh_clone(fresh_clone, targets, installed):
    commands = make_dry_run(fresh_clone, *targets)
    installs = [line for line in commands.splitlines() if " -m pip install " in line and "--upgrade pip" not in line]
    assert [line.split(" -c constraints.txt ")[1] for line in installs] == [installed], installs


def test_make_hub_installs_the_instructors_set():
    """(Read from the Makefile: a dry run of make hub stops where npm is missing.)"""
    (prerequisites,) = re.findall(r"^hub: (.*)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert prerequisites.split()[0] == "$(INSTRUCTOR_STAMP)", prerequisites


def test_a_second_run_installs_nothing_and_a_larger_set_counts_for_the_smaller(fresh_clone):
    venv = fresh_clone / ".venv"
    (venv / "bin").mkdir(parents=True)
    for stamp in (".installed", ".installed-instructor", ".installed-all"):
        (venv / stamp).touch()
    assert " pip install " not in make_dry_run(fresh_clone, "lab", "grade", "site", "lint")
    (venv / ".installed-instructor").unlink()
    (venv / ".installed-all").unlink()
    commands = make_dry_run(fresh_clone, "lint")
    assert "-e '.[instructor,contributor]'" in commands
    assert commands.count(" -m pip install --quiet --disable-pip-version-check -c ") == 1


def test_make_lock_pins_every_set_in_one_file(fresh_clone):
    commands = make_dry_run(fresh_clone, "lock")
    assert "-e '.[instructor,contributor]'" in commands
    assert "> constraints.txt.new" in commands and commands.count("pip freeze") == 1


def test_make_test_runs_the_notebooks_in_the_learner_sets_kernel(fresh_clone):
    commands = make_dry_run(fresh_clone, "test")
    assert "rm -rf .venv-learner" in commands  # made afresh: nothing left over from an earlier set
    assert "-m venv .venv-learner" in commands
    assert ".venv-learner/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e .\n" in (
        commands
    )
    assert f"--name {LEARNER_KERNEL} " in commands
    (pytest_line,) = [line for line in commands.splitlines() if "-n 2 --dist loadfile" in line]
    assert pytest_line.rstrip().endswith(f"--nbval-kernel-name {LEARNER_KERNEL}"), pytest_line
    assert f'JUPYTER_PATH="{fresh_clone}/.venv-learner/kernel/share/jupyter' in commands


# --- the learner's environment, as make test made it --------------------------------------------------------
def learner_python(notebook_kernel: str) -> Path:
    """The Python of the kernel the notebooks run in; skip, saying how, unless it is the learner set's."""
    if notebook_kernel != LEARNER_KERNEL:
        pytest.skip(
            f"the notebooks ran in kernel {notebook_kernel!r}, not the learner set's: make test runs them in "
            f"{LEARNER_KERNEL!r} (make learner-venv, then pytest --nbval-kernel-name {LEARNER_KERNEL} with "
            "JUPYTER_PATH=.venv-learner/kernel/share/jupyter, as the Makefile's test rule does)"
        )
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec(notebook_kernel)
    return Path(spec.argv[0])


INSTALLED = """
import importlib.metadata as md, json, sys
print(json.dumps({"prefix": sys.prefix, "installed": {d.metadata["Name"]: [d.version, d.requires or []]
                  for d in md.distributions()}}))
"""


def test_the_learner_kernel_runs_in_an_environment_of_the_learner_set_alone(notebook_kernel):
    python = learner_python(notebook_kernel)
    found = json.loads(subprocess.run([python, "-c", INSTALLED], capture_output=True, text=True, check=True).stdout)
    assert Path(found["prefix"]).resolve() == LEARNER_VENV.resolve(), found["prefix"]
    installed = {canonicalize_name(name): info for name, info in found["installed"].items()}
    # what the project needs without an extra, followed through every requirement's own requirements (and the
    # extras they ask for: jupyter-events wants jsonschema[format-nongpl])
    environment = default_environment()
    seen, todo = set(), [(PROJECT["name"], "")]
    while todo:
        name, extra = todo.pop()
        name = canonicalize_name(name)
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        assert name in installed, f"{name} is needed by the learner's set but not installed in {LEARNER_VENV}"
        for requirement in map(Requirement, installed[name][1]):
            if requirement.marker is None or requirement.marker.evaluate({**environment, "extra": extra}):
                todo += [(requirement.name, wanted) for wanted in ["", *requirement.extras]]
    needed = {name for name, _ in seen}
    assert set(installed) - needed <= {"pip", "setuptools"}, "installed but of no set the learner needs"
    pins = dict(
        line.split("==")
        for line in (ROOT / "constraints.txt").read_text().splitlines()
        if "==" in line and line[0] != "#"
    )
    pins = {canonicalize_name(name): version for name, version in pins.items()}
    differ = {
        n: (pins.get(n), v) for n, (v, _) in installed.items() if n in needed - {PROJECT["name"]} and pins.get(n) != v
    }
    assert differ == {}, f"(pinned, installed) differ in {LEARNER_VENV}: {differ}"
    for absent in ("nbgrader", "jupyterhub", "pytest", "playwright", "ruff", "latex2mathml", "nbval", "tqdm"):
        assert absent not in installed, absent


@pytest.mark.parametrize(
    ("command", "target"), [("packer.site", "make site"), ("packer.grading", "make grade")], ids=["site", "grading"]
)
def test_in_the_learner_set_an_instructors_command_names_its_make_target(notebook_kernel, command, target, tmp_path):
    """The real thing: the learner's environment lacks latex2mathml and tqdm."""
    python = learner_python(notebook_kernel)
    done = subprocess.run([python, "-m", command, str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2, done
    assert f"`{target}` installs it" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def test_the_gradescope_autograder_installs_the_learner_set_and_the_grader_alone():
    setup = (ROOT / "packer" / "grading" / "gradescope_files" / "setup.sh").read_text(encoding="utf-8")
    installs = [line for line in setup.splitlines() if re.search(r"pip install .*-e ", line)]
    assert [line.split(" -e ", 1)[1] for line in installs] == ['"$SOURCE[grader]"'], installs


# --- a command that needs more: one line, its make target, exit 2 -------------------------------------------
def run_without(modules: list[str], *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    """`python -m ...` in this environment as if `modules` were not installed (None in sys.modules: find_spec
    finds nothing and an import raises ModuleNotFoundError, as for a package never installed)."""
    blocker = cwd / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(f"import sys\nfor name in {modules!r}:\n    sys.modules[name] = None\n")
    env = {**os.environ, "PYTHONPATH": f"{blocker}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return subprocess.run([sys.executable, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


SITE_MODULES = {"latex2mathml": "latex2mathml", "pagefind_bin": "pagefind-bin", "nbconvert": "nbconvert"}
GRADER_MODULES = {
    "tqdm": "tqdm",
    "psutil": "psutil",
    "yaml": "pyyaml",
    "nbclient": "nbclient",
    "jsonschema": "jsonschema",
}


@pytest.mark.parametrize("module", sorted(SITE_MODULES))
def test_the_site_builder_without_a_package_of_its_set_names_make_site(tmp_path, module):
    done = run_without([module], "-m", "packer.site", str(tmp_path / "out"), "--root", str(ROOT), cwd=tmp_path)
    assert done.returncode == 2, done
    assert done.stderr == (
        f"python -m packer.site: {SITE_MODULES[module]} not installed (the instructor's set): `make site` installs it "
        "(or .venv/bin/python -m pip install -c constraints.txt -e '.[instructor]')\n"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("module", sorted(GRADER_MODULES))
def test_the_grader_without_a_package_of_its_set_names_make_grade(tmp_path, module):
    done = run_without([module], "-m", "packer.grading", str(tmp_path / "class"), "--out", "grades", cwd=tmp_path)
    assert done.returncode == 2, done
    assert done.stderr.startswith(f"python -m packer.grading: {GRADER_MODULES[module]} not installed")
    assert "`make grade` installs it" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "grades").exists()


def test_the_checked_modules_are_what_the_commands_import_beyond_the_learner_set():
    """Each module the commands check is of a distribution of the [instructor] extra; and the site's and the grader's
    code imports each of them."""
    from packer.grading.needs import GRADER
    from packer.site.needs import SITE

    assert SITE == SITE_MODULES and GRADER == GRADER_MODULES
    extras = PROJECT["optional-dependencies"]
    grader = {canonicalize_name(Requirement(r).name) for r in extras["grader"]}
    assert {canonicalize_name(d) for d in GRADER.values()} == grader
    assert {canonicalize_name(d) for d in SITE.values()} <= {
        canonicalize_name(Requirement(r).name) for r in extras["instructor"]
    }
    for folder, modules in (("site", SITE), ("grading", GRADER)):
        code = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "packer" / folder).glob("*.py"))
        for module in modules:
            assert re.search(rf"^\s*(import|from) {module}\b|-m\", \"{module}\"", code, re.M), (folder, module)
