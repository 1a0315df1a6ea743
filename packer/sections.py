"""Command line: `python -m packer.sections [--budget N]` checks the FIFO example (exit 0 on PASS, 1 on FAIL)."""

from __future__ import annotations

import argparse
import sys

from packer.section_budget import FIFO_EXAMPLE, check_sections


def main(argv: list[str] | None = None) -> int:
    """Check the FIFO example against a budget and print the verdict; exit status 0 on PASS, 1 on FAIL."""
    parser = argparse.ArgumentParser(prog="python -m packer.sections", description=main.__doc__)
    parser.add_argument("--budget", type=int, default=500, help="token budget (default 500)")
    args = parser.parse_args(argv)
    if args.budget < 0:
        parser.error(f"--budget must be a non-negative int, got {args.budget}")
    result = check_sections(FIFO_EXAMPLE, args.budget)
    print(result.message)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
