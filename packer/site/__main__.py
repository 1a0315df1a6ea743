"""`python -m packer.site OUT [--solutions] [--root DIR] [--repository URL [--branch NAME] [--hub URL]]`: the
lessons, exercises and guides as a static site in OUT, each notebook's page with a way to run it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from packer.site.needs import exit_unless_installed

if __name__ == "__main__":  # before packer.site.build imports what the learner's set lacks
    exit_unless_installed()

from packer.site.build import Launch, SiteError, build  # noqa: E402 (after the check above)


def main(argv: list[str] | None = None) -> int:
    """Build the site; print where it is, or the error that stopped it (exit 2)."""
    parser = argparse.ArgumentParser(prog="python -m packer.site", description=__doc__)
    parser.add_argument("out", type=Path, help="the folder to write (made by this command, or new)")
    parser.add_argument("--solutions", action="store_true", help="include solutions/ (for instructors)")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository (default: here)")
    parser.add_argument("--repository", help="the workbook's git repository, which readers clone (its address)")
    parser.add_argument("--branch", default="main", help="the repository's branch (default: main)")
    parser.add_argument("--hub", help="the class's JupyterHub (its address): 'Run this lesson' opens it there")
    args = parser.parse_args(argv)
    try:
        launch = Launch(args.repository or None, args.branch, args.hub or None)
        pages = build(args.root, args.out, solutions=args.solutions, launch=launch)
    except (SiteError, ValueError) as error:
        print(f"python -m packer.site: {error}", file=sys.stderr)
        return 2
    print(
        f"{len(pages)} pages and their index written to {args.out}/: serve it (python -m http.server -d {args.out}) "
        f"to search it too, or open {args.out / 'index.html'}"
    )
    print(f"Run this lesson: {launch_summary(launch)}")
    return 0


def launch_summary(launch: Launch) -> str:
    """What the pages' "Run this lesson" does, in one line."""
    if launch.repository is None:
        return "no repository given (REPOSITORY=...): each page says to get the workbook from the course"
    if launch.hub is not None:
        return f"opens the lesson on {launch.hub} (nbgitpuller, branch {launch.branch} of {launch.repository})"
    if launch.run_link("notebooks/x.ipynb") is not None:
        return f"opens the lesson on Binder (branch {launch.branch} of {launch.repository})"
    return "no link: no JupyterHub given (JUPYTERHUB=...), and Binder takes only GitHub repositories"


if __name__ == "__main__":
    sys.exit(main())
