"""A machine made busy on purpose: processes that only spin, twice as many as there are cores, each bounded in
time and stopped by whoever started them. Used by tests/test_under_load.py, and from the command line to run
anything else under the same load (`make test-under-load`):

    .venv/bin/python tests/load.py -- COMMAND...    # runs COMMAND with the machine saturated; its exit status
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator

SPIN = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"


@contextlib.contextmanager
def saturated(factor: int = 2, seconds: float = 1800) -> Iterator[list[subprocess.Popen]]:
    """While the block runs, factor × cores processes spin (each ends by itself after `seconds` at the latest)."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", SPIN.format(seconds=seconds)], stdin=subprocess.DEVNULL)
        for _ in range(factor * (os.cpu_count() or 1))
    ]
    try:
        yield spinners
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()


def main(argv: list[str]) -> int:
    command = argv[argv.index("--") + 1 :] if "--" in argv else argv
    if not command:
        print(__doc__, file=sys.stderr)
        return 2
    with saturated():
        print(f"load: {2 * (os.cpu_count() or 1)} spinning processes beside: {' '.join(command)}", file=sys.stderr)
        process = subprocess.Popen(command)
        try:
            return process.wait()
        except KeyboardInterrupt:
            process.send_signal(signal.SIGINT)
            return process.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
