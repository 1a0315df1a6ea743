"""The class on Kubernetes (docs/instructors.md: On Kubernetes): jupyter-config/z2jh/ and the course link, checked against the
workbook's own files. No cluster or Docker engine is needed: what can be checked without one is checked here."""

from __future__ import annotations

import re
import shlex
import subprocess
import urllib.parse
from pathlib import Path

import yaml
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]
Z2JH = ROOT / "jupyter-config" / "z2jh"
README = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")  # the instructors' guide
# The keys of Zero to JupyterHub's values this config may set, each a path in the chart's schema
# (https://github.com/jupyterhub/zero-to-jupyterhub-k8s/blob/4.4.0/jupyterhub/values.schema.yaml).
CHART_KEYS = {
    ("singleuser", "image", "name"),
    ("singleuser", "image", "tag"),
    ("singleuser", "image", "pullPolicy"),
    ("singleuser", "defaultUrl"),
    ("singleuser", "memory", "limit"),
    ("singleuser", "memory", "guarantee"),
    ("singleuser", "cpu", "limit"),
    ("singleuser", "cpu", "guarantee"),
}
# Chart 4.4.0 runs JupyterHub 5.5.0 (its changelog: docs/source/changelog.md).
CHART_JUPYTERHUB = "5.5.0"
DOCKER_STACKS_BASE = re.compile(r"quay\.io/jupyter/base-notebook:\d{4}-\d{2}-\d{2}")  # a dated tag, never `latest`


def config() -> dict:
    return yaml.safe_load((Z2JH / "config.yaml").read_text(encoding="utf-8"))


def leaves(tree: dict, above: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """The path of every value in a nested mapping."""
    found = set()
    for key, value in tree.items():
        found |= leaves(value, (*above, key)) if isinstance(value, dict) else {(*above, key)}
    return found


def dockerfile_instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (INSTRUCTION, arguments), continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (Z2JH / "Dockerfile").read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [tuple(line.split(None, 1)) for line in lines]


def environment() -> dict[str, str]:
    """Every package environment.yml lists, conda-forge's and pip's, with its range."""
    deps = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    listed = [d for d in deps if isinstance(d, str)] + [r for d in deps if isinstance(d, dict) for r in d["pip"]]
    pairs = [re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*(.*)", r).groups() for r in listed if r != "-e ."]
    return {name.lower(): spec for name, spec in pairs}


def course_link() -> urllib.parse.SplitResult:
    """The nbgitpuller link the instructors' guide hands learners (the one line that calls git-pull)."""
    (link,) = re.findall(r"^https://\S+/hub/user-redirect/git-pull\?\S+$", README, re.M)
    return urllib.parse.urlsplit(link)


def test_the_config_parses_and_sets_only_keys_the_chart_knows():
    assert leaves(config()) <= CHART_KEYS, leaves(config()) - CHART_KEYS
    assert config()["singleuser"]["defaultUrl"] == "/lab"


def test_the_readme_shows_the_config_as_it_is():
    assert f"```yaml\n{(Z2JH / 'config.yaml').read_text(encoding='utf-8')}```" in README


def test_the_image_is_built_from_environment_yml_and_nothing_else():
    steps = dockerfile_instructions()
    assert steps[0][0] == "FROM" and DOCKER_STACKS_BASE.fullmatch(steps[0][1]), steps[0]
    runs = [arguments for instruction, arguments in steps if instruction == "RUN"]
    assert len(runs) == 1, runs
    commands = [shlex.split(command) for command in runs[0].split("&&")]
    installs = [c for c in commands if c[0] in {"mamba", "conda", "pip", "pip3", "apt-get", "npm"} and c[1] != "clean"]
    assert installs == [["mamba", "env", "update", "--name", "base", "--file", "environment.yml"]], installs
    # the repository is in the image, and the update runs in it, so environment.yml's `-e .` finds the package
    before = steps[: steps.index(("RUN", runs[0]))]
    assert ("COPY", "--chown=${NB_UID}:${NB_GID} . /opt/workbook") in before
    assert [a for i, a in before if i == "WORKDIR"][-1] == "/opt/workbook"
    # outside /home/jovyan, which the chart mounts each learner's own volume on
    assert not any(a.startswith("/home") for i, a in before if i == "WORKDIR")


def test_the_image_has_the_hub_version_the_chart_runs_and_what_the_link_needs():
    listed = environment()
    assert CHART_JUPYTERHUB in SpecifierSet(listed["jupyterhub"]), listed["jupyterhub"]
    major = int(CHART_JUPYTERHUB.split(".")[0])
    assert f"{major + 1}.0.0" not in SpecifierSet(listed["jupyterhub"])  # a single-user server of the hub's major
    assert {"nbgitpuller", "jupyterlab", "ipywidgets"} <= set(listed)


def test_the_image_name_is_the_same_in_the_config_the_dockerfile_and_the_readme():
    image = config()["singleuser"]["image"]
    tagged = f"{image['name']}:{image['tag']}"
    built = f"docker build -f jupyter-config/z2jh/Dockerfile -t {tagged} ."
    assert built in README
    assert built in (Z2JH / "Dockerfile").read_text(encoding="utf-8")


def test_the_image_leaves_out_everything_gitignore_lists():
    def patterns(path: Path) -> set[str]:
        lines = path.read_text(encoding="utf-8").splitlines()
        return {line.strip().rstrip("/") for line in lines if line.strip() and not line.startswith("#")}

    wanted = {p if "/" in p else f"**/{p}" for p in patterns(ROOT / ".gitignore")} | {".git"}
    assert patterns(Z2JH / "Dockerfile.dockerignore") == wanted


def test_the_course_link_clones_the_tested_branch_into_the_folder_it_opens():
    link = course_link()
    query = dict(urllib.parse.parse_qsl(link.query, strict_parsing=True))
    assert set(query) == {"repo", "branch", "targetPath", "urlpath"}, query
    repo = urllib.parse.urlsplit(query["repo"])
    assert repo.scheme == "https" and repo.path.rstrip("/").split("/")[-1] == "context-packing-workbook", repo
    folder = query["targetPath"]
    assert folder == "context-packing-workbook"
    opened = query["urlpath"].removeprefix(f"lab/tree/{folder}/")
    assert query["urlpath"].startswith(f"lab/tree/{folder}/") and (ROOT / opened).is_file(), query["urlpath"]
    assert opened == "notebooks/00_start_here.ipynb"
    assert query["branch"] == "main"  # the branch CI tests (.ci/run runs on a clone of main)
    if (ROOT / ".git").exists():
        known = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", "main"], cwd=ROOT, capture_output=True, text=True
        )
        assert known.returncode == 0, "this repository has no branch main"
