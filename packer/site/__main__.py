"""`python -m packer.site OUT [--solutions] [--root DIR]`: the lessons, exercises and guides as a static site in OUT."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from packer.site.needs import exit_unless_installed

if __name__ == "__main__":  # before packer.site.build imports what the learner's set lacks
    exit_unless_installed()

from packer.site.build import SiteError, build  # noqa: E402 (after the check above)


def main(argv: list[str] | None = None) -> int:
    """Build the site; print where it is, or the error that stopped it (exit 2)."""
    parser = argparse.ArgumentParser(prog="python -m packer.site", description=__doc__)
    parser.add_argument("out", type=Path, help="the folder to write (made by this command, or new)")
    parser.add_argument("--solutions", action="store_true", help="include solutions/ (for instructors)")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository (default: here)")
    args = parser.parse_args(argv)
    try:
        pages = build(args.root, args.out, solutions=args.solutions)
    except SiteError as error:
        print(f"python -m packer.site: {error}", file=sys.stderr)
        return 2
    print(
        f"{len(pages)} pages and their index written to {args.out}/: serve it (python -m http.server -d {args.out}) "
        f"to search it too, or open {args.out / 'index.html'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
