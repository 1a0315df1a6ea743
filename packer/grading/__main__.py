"""`python -m packer.grading`: grade a folder of submitted exercise notebooks (see packer.grading.grader)."""

import sys

from packer.grading import exit_with
from packer.grading.needs import GRADER, exit_unless_installed

if __name__ == "__main__":  # not when multiprocessing's spawn re-imports this module in a worker
    exit_unless_installed("python -m packer.grading", "make grade", GRADER)
    try:
        from packer.grading.grader import main
        from packer.grading.interrupts import interrupts_as_keyboard_interrupt

        with interrupts_as_keyboard_interrupt():
            code = main()
    except KeyboardInterrupt as interrupt:  # before grading began (a Ctrl-C while grading is main's own to report)
        print("interrupted before grading began: nothing was graded or written", file=sys.stderr)
        code = 143 if type(interrupt).__name__ == "Terminated" else 130  # 128 + SIGTERM, 128 + SIGINT
    exit_with(code)
