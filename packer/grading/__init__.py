"""The instructor's grader: grade a class's exercise notebooks, each in a fresh kernel of its own.

    python -m packer.grading SUBMISSIONS... --out DIR

Inside, one file per idea: `submissions` (finding notebooks in course tools' layouts and zips),
`kernels` (starting and stopping a kernel and its whole process tree: the one place to wrap them),
`running` (one submission in its kernel), `kernel_side` (the half that runs inside each kernel), `pool`
(streaming the class through `--jobs` workers), `gradebook` (the folder, its rows, regrading), `gradebook_schema`
(the shape of grades.json, checked when it is read), `reports` (feedback, Gradescope results, the class report,
written answers), `exports` (the LMS files), `escaping` (text from outside, escaped for each format written), `grader` (the command
line), `command_line` (its values checked before any work), `interrupts` (Ctrl-C and SIGTERM), `shards` and `merge` (a class graded across machines: `--shard K/N`, then
`python -m packer.grading.merge SHARDS... --out DIR`), `nbgrader_course` (`make nbgrader`: the exercises as an
nbgrader course) and `demo_class`
(`python -m packer.grading.demo_class DIR` writes a made-up class to try it on).
Imports point down only: grading uses `packer.checking` and the core.
"""

import sys
from typing import NoReturn


def exit_with(code: int) -> NoReturn:
    """sys.exit(code), even after a Ctrl-C that was caught and reported. CPython marks a KeyboardInterrupt that
    ends an `exec` of a string as unhandled and, under `python -m`, then ends the process by SIGINT at exit
    whatever status it asked for (bpo-1054041's exit path; seen in 4 runs in 80 of the interrupt test, each a
    Ctrl-C that came while fastjsonschema compiled nbformat's schema). An `exec` that completes clears the mark."""
    exec("")  # noqa: S102 - a constant empty string: only to clear the mark described above
    sys.exit(code)
