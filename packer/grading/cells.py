"""Running a notebook's cells, and the grader's own, in a kernel under the cell and notebook limits.

A limit counts the CPU time of the kernel's process tree: the submission's own work, which a busy grading
machine (more jobs than cores, a shared server, a JupyterHub beside it) slows down on the clock but does not
add to. A cell that waits instead of working (a sleep, a read that never returns) uses no CPU time, so each
limit also has a backstop on the clock, `wall_factor` times as long. Past either, the kernel is interrupted;
a cell that ignores the interrupt for GRACE seconds more ends the run as a timeout.

The note of a cell a limit stopped says what was measured (`Spent`): the CPU time it got in the time it ran on
the clock and, when the backstop on the clock stopped it, why it got so little: the machine was busy (its
threads waited that long for a CPU: the scheduler's run-queue time), said with whether it was still working when
stopped (it worked at least half the time it did not wait for a CPU), or it was waiting, not working. So a cell
that loops for ever gets the same kind of note whatever the load; only the seconds differ from run to run.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass
from typing import Any

import nbformat

from packer.grading.kernels import Kernel, cpu_seconds, run_queue_seconds
from packer.grading.sandbox import Limits

OUTPUT_LIMIT = 100_000  # characters of output kept per cell; the rest is dropped and noted
POLL = 0.1  # seconds between two readings of the kernel's CPU time
GRACE = 10.0  # seconds an interrupted cell has to stop before the kernel is given up on


@dataclass(frozen=True)
class Options:
    """How each submission is run."""

    cell_timeout: float = 10.0  # CPU seconds one cell (or one question's check) may use
    notebook_timeout: float = 60.0  # CPU seconds the notebook's cells may use together
    questions: tuple[str, ...] = ()
    lesson: str = ""  # for every notebook that does not record its own
    run_dir: str = ""  # the grading run's temporary folder (kernels, connection files, results)
    run_token: str = ""
    limits: Limits | None = None  # None: kernels run uncontained (--sandbox off, on purpose)
    wall_factor: float = 6.0  # each limit's backstop on the clock, in multiples of the limit

    @property
    def containment(self) -> str:
        """What the gradebook records about how each kernel was contained."""
        if self.limits is None:
            return "none: the kernel ran with the grader's own rights"
        return f"bubblewrap (no network, private /tmp, own folder only); {self.limits.describe()}"

    def limit_words(self, scope: str, measure: str) -> str:
        """The limit a cell ran past, as the notes name it: scope 'cell' or 'notebook', measure 'cpu' or 'clock'."""
        seconds, flag = (
            (self.cell_timeout, "--timeout") if scope == "cell" else (self.notebook_timeout, "--notebook-timeout")
        )
        if measure == "cpu":
            return f"the {seconds:g} s {scope} limit of CPU time ({flag})"
        return f"the {seconds * self.wall_factor:g} s {scope} backstop on the clock ({self.wall_factor:g} × {flag}, --wall-factor)"


@dataclass(frozen=True)
class Spent:
    """What a cell (or a notebook's cells) used while it ran: CPU seconds of the kernel's process tree, seconds
    on the clock, and seconds its threads were ready to run but waited for a CPU (None where unknown)."""

    cpu: float
    clock: float
    waited: float | None

    def __add__(self, other: Spent) -> Spent:
        waited = None if self.waited is None or other.waited is None else self.waited + other.waited
        return Spent(self.cpu + other.cpu, self.clock + other.clock, waited)

    def busy(self) -> bool | None:
        """Whether the machine being busy, not the cell waiting, kept its CPU time low: for at least half the time
        it ran, it was working or ready to (None when the run-queue time is unknown)."""
        return None if self.waited is None else self.cpu + self.waited >= self.clock / 2

    def words(self, measure: str) -> str:
        """What was measured, for a note: 'it got 5.8 s of CPU time in 60.0 s on the clock', and when the backstop
        on the clock (measure 'clock') stopped it, why: the machine was busy, or it was waiting."""
        got = f"it got {self.cpu:.1f} s of CPU time in {self.clock:.1f} s on the clock"
        busy = self.busy() if measure == "clock" else None
        if busy is None:
            return got
        waited = f"the machine was busy (it waited {self.waited:.1f} s for a CPU)"
        if busy and self.working():
            return f"{got}: it was still working when stopped, and {waited}"
        if busy:
            return f"{got}: {waited}, and it was waiting, not working, the rest of the time"
        return f"{got}: it was waiting, not working"

    def working(self) -> bool:
        """Whether it worked for at least half the time it was not waiting for a CPU (a loop does; a sleep does
        not), so it was still working when stopped (only when the run-queue time is known)."""
        return self.waited is not None and self.cpu >= (self.clock - self.waited) / 2


NOTHING = Spent(0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Budget:
    """What one cell may still use: CPU seconds, and seconds on the clock."""

    cpu: float
    clock: float

    @classmethod
    def of_cell(cls, options: Options) -> Budget:
        return cls(options.cell_timeout, options.cell_timeout * options.wall_factor)


def question_near(notebook: nbformat.NotebookNode, index: int) -> str:
    """The question a cell belongs to: its own check call, or the nearest question heading above it."""
    for cell in reversed(notebook.cells[: index + 1]):
        match = re.search(r"check\(\s*[\"'](q\d+\.\d+)|^###\s*(q\d+\.\d+)", cell.source, re.M)
        if match:
            return match.group(1) or match.group(2)
    return "before the first question"


def describe_cell(notebook: nbformat.NotebookNode, index: int) -> str:
    """A cell as the learner sees it: counted from 1 among all cells, its question, its first line."""
    lines = [line for line in notebook.cells[index].source.splitlines() if line.strip()]
    first = lines[0].strip() if lines else ""
    first = first if len(first) <= 60 else first[:57] + "..."
    return f"cell {index + 1} of {len(notebook.cells)} ({question_near(notebook, index)}), which starts `{first}`"


def _client_class() -> type:
    """A NotebookClient that keeps at most OUTPUT_LIMIT characters of output per cell."""
    from nbclient import NotebookClient

    class BoundedClient(NotebookClient):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.truncated: set[int] = set()
            self._kept: dict[int, int] = {}

        def output(self, outs: list, msg: dict, display_id: str | None, cell_index: int) -> Any:
            size = len(json.dumps(msg.get("content", {}), default=str))
            kept = self._kept.get(cell_index, 0)
            if kept + size > OUTPUT_LIMIT:
                self.truncated.add(cell_index)
                return None
            self._kept[cell_index] = kept + size
            return super().output(outs, msg, display_id, cell_index)

    return BoundedClient


def client_for(notebook: nbformat.NotebookNode, kernel: Kernel) -> Any:
    """A notebook client on the kernel; it waits for each cell as long as run_cell lets it (no limit of its own)."""
    client = _client_class()(
        notebook,
        km=kernel.km,
        allow_errors=True,
        timeout=None,
        record_timing=False,
        iopub_timeout=5,
        store_widget_state=False,
    )
    client.kc = kernel.kc
    client.kernel = kernel
    return client


async def run_cell(client: Any, cell: Any, index: int, budget: Budget) -> tuple[str, str, Spent]:
    """Execute one cell within `budget`. Returns (state, measure, spent): state '' when it finished,
    'interrupted' when it ran past the budget and the interrupt stopped it (the kernel can go on), 'timeout'
    when even that failed, or 'kernel died'; measure 'cpu' or 'clock' for what it ran past ('' if nothing);
    spent what the kernel's process tree used meanwhile (up to the moment a limit was reached)."""
    from nbclient.exceptions import DeadKernelError

    if index == len(client.nb.cells):  # one of the grader's own cells, run after the notebook's
        client.nb.cells.append(cell)
    kernel = client.kernel
    cpu_before, waited_before, started = cpu_seconds(kernel), run_queue_seconds(kernel), time.monotonic()
    used = 0.0

    def spent() -> Spent:
        waited_now = run_queue_seconds(kernel)
        waited = None if waited_before is None or waited_now is None else max(0.0, waited_now - waited_before)
        return Spent(used, time.monotonic() - started, waited)

    running = asyncio.ensure_future(client.async_execute_cell(cell, index))
    measure = ""
    at_stop = None
    try:
        while not measure:
            done, _ = await asyncio.wait({running}, timeout=POLL)
            used = max(used, cpu_seconds(kernel) - cpu_before)  # a child reaped elsewhere takes its time along
            if done:
                break
            if used >= budget.cpu:
                measure = "cpu"
            elif time.monotonic() - started >= budget.clock:
                measure = "clock"
        if measure:
            at_stop = spent()
            await _interrupt(client.km)
            try:
                await asyncio.wait_for(asyncio.shield(running), timeout=GRACE)
            except TimeoutError:  # it ignored the interrupt (e.g. it caught KeyboardInterrupt)
                return "timeout", measure, at_stop
        running.result()
    except DeadKernelError:  # the client stopped hearing it: dead, or alive but not answering any more
        return ("timeout" if await client.km.is_alive() else "kernel died"), measure, at_stop or spent()
    finally:
        if not running.done():
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
    at_stop = at_stop or spent()
    if not await client.km.is_alive():
        return "kernel died", measure, at_stop
    return ("interrupted" if measure else ""), measure, at_stop


async def _interrupt(km: Any) -> None:
    result = km.interrupt_kernel()
    if asyncio.iscoroutine(result):
        await result


@dataclass
class Run:
    """How far a notebook got: the state it ended in ('' = every cell ran) and the cell it stopped at."""

    state: str = ""
    stopped_at: int | None = None  # index of the cell that stopped the run (or that the time limit reached)
    why: str = ""  # the reason, as the learner reads it


async def run_cells(
    notebook: nbformat.NotebookNode, kernel: Kernel, options: Options, notes: list[str], upto: int | None = None
) -> tuple[Run, Any]:
    """Run the notebook's code cells (those before `upto`, when given) within the cell and notebook limits."""
    client = client_for(notebook, kernel)
    clock_deadline = time.monotonic() + options.notebook_timeout * options.wall_factor
    cpu_left = options.notebook_timeout
    so_far = NOTHING  # what the notebook's cells have used, for the note of the notebook's own limits
    run = Run()
    for index, cell in enumerate(notebook.cells[:upto]):
        if cell.cell_type != "code":
            continue
        clock_left = clock_deadline - time.monotonic()
        if cpu_left <= 0 or clock_left <= 0:
            measure = "cpu" if cpu_left <= 0 else "clock"
            limit = options.limit_words("notebook", measure)
            run = Run(
                "timeout",
                index,
                f"the notebook ran past {limit} before {describe_cell(notebook, index)}: its cells "
                + so_far.words(measure).removeprefix("it "),
            )
            notes.append(f"{run.why}; that cell and the ones after it did not run")
            break
        cell_budget = Budget.of_cell(options)
        budget = Budget(min(cell_budget.cpu, cpu_left), min(cell_budget.clock, clock_left))
        state, measure, spent = await run_cell(client, cell, index, budget)
        cpu_left -= spent.cpu
        so_far += spent
        if state == "kernel died":
            run = Run(state, index, f"the kernel died while running {describe_cell(notebook, index)}")
            notes.append(run.why)
            break
        if state in ("interrupted", "timeout"):
            scope = "cell" if getattr(budget, measure) == getattr(cell_budget, measure) else "notebook"
            if scope == "notebook":  # the notebook's own limit: what all of its cells used
                spent = so_far
            why = (
                f"{describe_cell(notebook, index)} ran past {options.limit_words(scope, measure)} and was stopped: "
                + spent.words(measure)
            )
            if state == "timeout" or scope == "notebook":
                run = Run(
                    "timeout",
                    index,
                    why + ("" if state == "interrupted" else " (it ignored the interrupt, so nothing more could run)"),
                )
                notes.append(run.why)
                break
            notes.append(why)
            run.state = "interrupted"  # the interrupt stopped it: the rest of the notebook goes on
    return run, client


__all__ = ["Options", "Budget", "Spent", "Run", "run_cell", "run_cells", "client_for", "describe_cell", "question_near"]
