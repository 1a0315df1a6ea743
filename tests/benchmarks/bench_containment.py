"""What containment costs: the same class graded with `--sandbox off` and `--sandbox on`, in turn.

Run with `make bench-sandbox` (not part of the test suite), or e.g.
`python tests/benchmarks/bench_containment.py --sizes 8 40 --repeats 5`. Each class is bench_grade's
mix of the demo class's lesson-01 submissions (no runaway loops) without large saved output. The two
modes alternate, so a machine that gets busier part-way hurts both alike; the table shows each mode's
median wall time and the contained run's share of the uncontained one (the goal: within 10%).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from bench_grade import grade, make_class

from packer.grading import sandbox


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 40])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each mode per class size")
    args = parser.parse_args()
    reason = sandbox.probe()
    if reason is not None:
        print(f"skipped: containment unavailable here ({reason})")
        return 0
    print(f"--jobs {args.jobs}; median of {args.repeats} runs per mode, the modes alternating")
    print(f"{'submissions':>11} {'off s':>7} {'contained s':>12} {'contained/off':>14}", flush=True)
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch) / "class"
            make_class(folder, size, large_every=0, megabytes=0)
            times: dict[str, list[float]] = {"off": [], "on": []}
            for _ in range(args.repeats):
                for mode in times:
                    times[mode].append(grade(folder, args.jobs, mode)[0])
        off, contained = statistics.median(times["off"]), statistics.median(times["on"])
        print(f"{size:>11} {off:>7.1f} {contained:>12.1f} {contained / off:>13.0%}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
