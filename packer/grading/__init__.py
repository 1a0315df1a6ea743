"""The instructor's grader: grade a class's exercise notebooks, each in a fresh kernel of its own.

    python -m packer.grading SUBMISSIONS... --out DIR

Inside: `grader` (finding submissions, running them, the gradebook), `kernel_side` (the half that runs
inside each submission's kernel) and `demo_class` (`python -m packer.grading.demo_class DIR` writes a
made-up class to try it on). Imports point down only: grading uses `packer.checking` and the core.
"""
