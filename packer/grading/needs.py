"""What the grader needs beyond the learner's set: said at once, with the make target that installs it."""

from __future__ import annotations

import importlib.util
import sys

# The modules `python -m packer.grading` imports that pyproject.toml's [instructor] extra brings, by distribution.
GRADER = {"jsonschema": "jsonschema", "nbclient": "nbclient", "psutil": "psutil", "tqdm": "tqdm", "yaml": "pyyaml"}


def missing(modules: dict[str, str]) -> list[str]:
    """The distributions whose top-level module cannot be found, sorted."""
    return sorted(dist for module, dist in modules.items() if importlib.util.find_spec(module) is None)


def exit_unless_installed(command: str, target: str, modules: dict[str, str]) -> None:
    """Exit with status 2 and one line naming what is missing and the make target that installs it."""
    absent = missing(modules)
    if absent:
        print(
            f"{command}: {', '.join(absent)} not installed (the instructor's set): `{target}` installs it "
            "(or .venv/bin/python -m pip install -c constraints.txt -e '.[instructor]')",
            file=sys.stderr,
        )
        sys.exit(2)
