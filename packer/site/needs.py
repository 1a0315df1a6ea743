"""What the site builder needs beyond the learner's set: said at once, with the make target that installs it.
(The grader has the same check, packer/grading/needs.py: the site imports nothing else of packer.)"""

from __future__ import annotations

import importlib.util
import sys

# The modules `python -m packer.site` uses that pyproject.toml's [instructor] extra brings, by distribution.
SITE = {"nbconvert": "nbconvert", "latex2mathml": "latex2mathml", "pagefind_bin": "pagefind-bin"}


def exit_unless_installed(command: str = "python -m packer.site", target: str = "make site") -> None:
    """Exit with status 2 and one line naming what is missing and the make target that installs it."""
    absent = sorted(dist for module, dist in SITE.items() if importlib.util.find_spec(module) is None)
    if absent:
        print(
            f"{command}: {', '.join(absent)} not installed (the instructor's set): `{target}` installs it "
            "(or .venv/bin/python -m pip install -c constraints.txt -e '.[instructor]')",
            file=sys.stderr,
        )
        sys.exit(2)
