"""The conda/Binder environment lists the learner's set and the [singleuser] extra of the pip project, with the same
ranges; constraints.txt pins every set."""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _name_and_spec(requirement: str) -> tuple[str, str]:
    """Split 'pkg>=1,<2' into ('pkg', '>=1,<2'), normalising the name as pip does."""
    match = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*(.*)", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(1)).lower(), match.group(2).replace(" ", "")


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _environment() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def _listed() -> dict[str, str]:
    """Every requirement environment.yml lists, from conda-forge or under pip: (the project itself aside)."""
    deps = _environment()["dependencies"]
    from_pip = [r for d in deps if isinstance(d, dict) for r in d["pip"] if r != "-e ."]
    return dict(_name_and_spec(d) for d in [*(d for d in deps if isinstance(d, str)), *from_pip])


def _learner_set() -> list[str]:
    """What environment.yml installs: the learner's set, and what a learner's server on a JupyterHub needs."""
    project = _pyproject()["project"]
    return [*project["dependencies"], *project["optional-dependencies"]["singleuser"]]


def _every_set() -> list[str]:
    """Every requirement of every set (the learner's and each extra's), the project's own extras aside."""
    project = _pyproject()["project"]
    extras = [r for rs in project["optional-dependencies"].values() for r in rs]
    return [*project["dependencies"], *(r for r in extras if not r.startswith(project["name"] + "["))]


def test_environment_lists_every_learner_dependency_with_the_same_range():
    wanted = dict(_name_and_spec(r) for r in _learner_set())
    listed = _listed()
    assert {name: listed.get(name) for name in wanted} == wanted


def test_environment_lists_nothing_of_the_instructor_or_contributor_sets():
    wanted = {_name_and_spec(r)[0] for r in _learner_set()}
    assert set(_listed()) - wanted == {"python", "pip"}


def test_an_extra_names_each_package_with_the_range_of_every_other_set_that_names_it():
    """pyyaml is in two extras: one range, or pip would resolve the sets differently."""
    ranges: dict[str, set[str]] = {}
    for requirement in _every_set():
        name, spec = _name_and_spec(requirement)
        ranges.setdefault(name, set()).add(spec)
    assert {name: specs for name, specs in ranges.items() if len(specs) > 1} == {}


def test_environment_uses_conda_forge_and_installs_the_package_editable_with_pip_last():
    env = _environment()
    assert env["channels"] == ["conda-forge"]
    pip_sections = [d["pip"] for d in env["dependencies"] if isinstance(d, dict)]
    assert len(pip_sections) == 1 and pip_sections[0][-1] == "-e ."
    # only what conda-forge does not carry, or was not confirmed to carry
    assert pip_sections[0][:-1] == [
        "bpe-openai>=0.1.4,<0.2",
        "mistral-common>=1.9,<2",
        "sentencepiece>=0.2,<0.3",
        "jupyterhub>=5.5,<6",
        "nbgitpuller>=1.2,<2",
    ]


def test_python_floor_matches():
    floor = _pyproject()["project"]["requires-python"]
    assert f"python{floor}" in _environment()["dependencies"]


def _constraints() -> dict[str, str]:
    lines = [line for line in (ROOT / "constraints.txt").read_text().splitlines() if line and not line.startswith("#")]
    pins = {}
    for line in lines:
        name, sep, version = line.partition("==")
        assert sep and version and " " not in line, f"constraints.txt: {line!r} is not an exact pin (name==version)"
        pins[_name_and_spec(name)[0]] = version
    return pins


def test_constraints_pin_every_dependency_inside_its_pyproject_range():
    from packaging.specifiers import SpecifierSet

    pins = _constraints()
    for name, spec in (_name_and_spec(r) for r in _every_set()):
        assert name in pins, f"constraints.txt does not pin {name}: run make lock"
        assert pins[name] in SpecifierSet(spec), (
            f"constraints.txt pins {name}=={pins[name]}, outside {spec}: run make lock"
        )


def test_the_environment_under_test_is_the_pinned_one():
    """make venv installs with -c constraints.txt: what runs the lessons is exactly what is pinned."""
    from importlib.metadata import PackageNotFoundError, version

    differ = {}
    for name, pinned in _constraints().items():
        try:
            installed = version(name)
        except PackageNotFoundError:
            installed = None
        if installed != pinned:
            differ[name] = (pinned, installed)
    assert differ == {}, f"(pinned, installed) differ: {differ}; run make venv (or make lock on purpose)"


def test_the_project_builds_without_a_deprecation_warning(tmp_path):
    """`make venv`'s install, reduced to what reads pyproject.toml: pip builds the editable install's metadata in an
    isolated environment with the [build-system] setuptools, which warned that `project.license` as a table is
    deprecated (an SPDX string needs setuptools>=77). A scratch copy, so the checkout gains no build litter."""
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "packer", tmp_path / "packer", ignore=shutil.ignore_patterns("__pycache__"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-deps", "--dry-run"]
        + ["--ignore-installed", "-e", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = built.stdout + built.stderr
    assert built.returncode == 0, output
    assert "deprecat" not in output.lower(), output
    assert _pyproject()["project"]["license"] == "MIT"  # an SPDX expression, not a table
