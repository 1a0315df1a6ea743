"""Which questions' recorded generated inputs a grader's kernel accepts (replays instead of searching again).

`accepted(run_dir, notebook)` runs a notebook in a grader's kernel, then the grader's setup with the run's
recorded inputs, and asks the kernel which it took. Run as a script (`python kernel_probe.py NOTEBOOK`), it
does that for a lesson-01 notebook in a grading run of its own, with whatever `packer` this Python imports (a
site-packages install, say), and prints {"accepted": [...], "kernel_packer": <where the kernel's packer is>}.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import shutil
import sys
import uuid
from collections.abc import Callable

import nbformat

from packer.checking import BANK
from packer.grading import cells, kernels, running

LESSON_01_SEARCHED = sorted(q for q, question in BANK.items() if q.startswith("q1.") and question.inputs is not None)


def accepted(run_dir: tuple[str, str], notebook: nbformat.NotebookNode, tamper: Callable | None = None) -> list[str]:
    """The lesson-01 question ids whose recorded inputs the kernel accepted, after running `notebook` (the
    recorded inputs handed over first changed by `tamper`, when given); run_dir is (folder, run token)."""
    return _probe(run_dir, notebook, tamper)[0]


def _probe(run_dir, notebook, tamper=None) -> tuple[list[str], str]:
    async def main():
        folder, token = run_dir
        kernel = await kernels.start_kernel(folder, token)
        try:
            _, client = await running.run_cells(notebook, kernel, running.Options(), [])
            recorded = kernels.read_recorded_inputs(folder)
            if tamper:
                original = running._write_recorded
                running._write_recorded = lambda private, wanted, recorded: tamper(*original(private, wanted, recorded))
            try:
                await running._run_checks(
                    client, [BANK[q] for q in LESSON_01_SEARCHED], running.Options(), kernel, recorded
                )
            finally:
                if tamper:
                    running._write_recorded = original
            probe = nbformat.v4.new_code_cell(
                'import packer as _p\nprint(_json.dumps([sorted(_builtins._workbook_grader["generated"]), _p.__file__]))'
            )
            await cells.run_cell(client, probe, len(client.nb.cells), cells.Budget(30, 180))
            return json.loads(probe.outputs[0]["text"])
        finally:
            await kernels.stop_kernel(kernel)

    # In a thread of its own: a test run may already have a loop running in the main thread (Playwright's
    # sync API does), and asyncio.run refuses to nest.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return tuple(thread.submit(asyncio.run, main()).result())


def warmed_run_dir() -> tuple[str, str]:
    """A grading run's folder with its search cache filled and its inputs recorded, as the grader makes it."""
    folder, token = kernels.make_run_dir(), uuid.uuid4().hex
    problem = kernels.finish_search_cache(kernels.warm_search_cache(folder, token), folder)
    if problem:
        raise RuntimeError(problem)
    return folder, token


if __name__ == "__main__":
    run_dir = warmed_run_dir()
    try:
        ids, where = _probe(run_dir, nbformat.read(sys.argv[1], as_version=4))
        print(json.dumps({"accepted": ids, "kernel_packer": where}))
    finally:
        shutil.rmtree(run_dir[0], ignore_errors=True)
