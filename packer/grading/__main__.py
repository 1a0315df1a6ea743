"""`python -m packer.grading`: grade a folder of submitted exercise notebooks (see packer.grading.grader)."""

import sys

from packer.grading.grader import main

if __name__ == "__main__":  # not when multiprocessing's spawn re-imports this module in a worker
    sys.exit(main())
