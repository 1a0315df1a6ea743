"""Grade a class's exercise notebooks: each in its own fresh kernel, in parallel, never losing a grade.

    python -m packer.grading SUBMISSIONS... --out DIR [--jobs N] [--timeout S] [--notebook-timeout S]

SUBMISSIONS are notebooks or folders of notebooks. Each notebook runs top to bottom in a new kernel
(never reused), then the grader's own fresh copy of the checks grades the functions it defined. Writes
DIR/grades.csv, DIR/grades.json and DIR/feedback/<submission>.md, each replaced atomically at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import functools
import hashlib
import io
import json
import math
import multiprocessing
import os
import platform
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import nbformat

PACKAGE_DIR = Path(__file__).resolve().parent
GRADER_ROOT = PACKAGE_DIR.parent.parent  # the folder that holds packer/: the kernel loads its fresh copy from here
KERNEL_SOURCE = (PACKAGE_DIR / "kernel_side.py").read_text(encoding="utf-8")
# Functions the checks rely on that live outside packer: their code is compared inside each kernel.
FINGERPRINTED = ("hypothesis.find", "copy.deepcopy", "json.dumps", "builtins.open", "builtins.isinstance",
                 "builtins.type", "builtins.repr", "sys.setprofile", "hashlib.sha256")
OUTPUT_LIMIT = 100_000  # characters of output kept per cell; the rest is dropped and noted
STATIC_TAMPERING = (
    (re.compile(r"^\s*def\s+check\s*\(|^\s*check\s*=[^=]", re.M), "the notebook defines its own check"),
    (re.compile(r"\bpacker(\.\w+)+\s*=[^=]|setattr\(\s*packer\b", re.M), "the notebook assigns to the packer module"),
    (re.compile(r"\bsys\.modules\b"), "the notebook reaches into sys.modules"),
    (re.compile(r"grades\.(csv|json)|PACKER_CHECKS_DEFERRED|_workbook_grade"), "the notebook names the grader's files or hooks"),
)
RESULT_NAMES = re.compile(r"grade|result|score|feedback", re.I)


@dataclass(frozen=True)
class Options:
    """How each submission is run."""

    cell_timeout: float = 10.0
    notebook_timeout: float = 60.0
    questions: tuple[str, ...] = ()


@dataclass
class Submission:
    """One notebook file to grade, as found on disk."""

    name: str
    path: str
    sha256: str = ""
    lesson: str = ""
    problem: str = ""  # why it cannot be run ("" when it can)
    problem_status: str = ""  # the gradebook status that problem gets


@dataclass
class Outcome:
    """Everything the grader learned about one submission."""

    name: str
    path: str
    sha256: str
    lesson: str
    status: str
    results: list[dict] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def score(self) -> int:
        """Points earned."""
        return sum(r["points"] for r in self.results)

    @property
    def max_score(self) -> int:
        """Points available."""
        return sum(r["max_points"] for r in self.results)


# --- finding and reading submissions --------------------------------------------------------------------
def find_submissions(paths: list[str]) -> list[Submission]:
    """Every .ipynb named or found (recursively) under the given paths, named relative to their common folder."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        else:
            files.append(path)
    files = sorted({f.resolve() for f in files})
    if not files:
        return []
    base = Path(os.path.commonpath([f.parent for f in files]))
    return [Submission(name=f.relative_to(base).as_posix(), path=str(f)) for f in files]


def lesson_of(notebook: nbformat.NotebookNode, path: str) -> str:
    """The lesson slug: from the exercise's metadata, else a lesson number in the file name
    (`01_…`, `alice-03_…`), else the question ids its check cells name; "" when none of these tells."""
    lesson = notebook.get("metadata", {}).get("workbook", {}).get("lesson", "")
    slugs = {p.stem[:2]: p.stem for p in (GRADER_ROOT / "solutions").glob("[0-9][0-9]_*.ipynb")}
    if lesson in slugs.values():
        return lesson
    match = re.search(r"(?:^|[^0-9])(\d\d)_", Path(path).name)
    if match and match.group(1) in slugs:
        return slugs[match.group(1)]
    source = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    numbers = {f"{int(n):02d}" for n in re.findall(r"check\(\s*[\"']q(\d+)\.\d+", source)}
    return slugs[numbers.pop()] if len(numbers) == 1 and next(iter(numbers)) in slugs else ""


def read_submission(submission: Submission) -> nbformat.NotebookNode | None:
    """Fill in digest and lesson; return the parsed notebook, or None with `problem` set."""
    try:
        data = Path(submission.path).read_bytes()
    except OSError as error:
        submission.problem_status, submission.problem = "unreadable", f"cannot read the file: {error.strerror}"
        return None
    submission.sha256 = hashlib.sha256(data).hexdigest()
    try:
        notebook = nbformat.reads(data.decode("utf-8"), as_version=4)
        nbformat.validate(notebook)
    except Exception as error:  # not JSON, not UTF-8, not a notebook: all the same to the gradebook
        submission.problem_status = "unreadable"
        submission.problem = f"not a readable notebook: {type(error).__name__}: {str(error).splitlines()[0][:200]}"
        return None
    submission.lesson = lesson_of(notebook, submission.path)
    if not submission.lesson:
        submission.problem_status = "unknown lesson"
        submission.problem = "cannot tell which lesson this notebook belongs to"
    return notebook


def static_flags(notebook: nbformat.NotebookNode) -> list[str]:
    """Tampering visible in the source of the code cells."""
    source = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    return [message for pattern, message in STATIC_TAMPERING if pattern.search(source)]


def question_near(notebook: nbformat.NotebookNode, index: int) -> str:
    """The question a cell belongs to: its own check call, or the nearest question heading above it."""
    for cell in reversed(notebook.cells[: index + 1]):
        match = re.search(r"check\(\s*[\"'](q\d+\.\d+)|^###\s*(q\d+\.\d+)", cell.source, re.M)
        if match:
            return match.group(1) or match.group(2)
    return "before the first question"


# --- running one notebook in a fresh kernel ---------------------------------------------------------------
def _client_class() -> type:
    """A NotebookClient that keeps at most OUTPUT_LIMIT characters of output per cell and records timeouts."""
    from nbclient import NotebookClient

    class BoundedClient(NotebookClient):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.timed_out: list[int] = []
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

        async def _async_handle_timeout(self, timeout: int, cell: Any = None) -> Any:
            self.timed_out.append(self._current_index)
            return await super()._async_handle_timeout(timeout, cell)

    return BoundedClient


@dataclass
class WarmKernel:
    """A kernel started ahead of time in its own empty working folder."""

    km: Any
    kc: Any
    cwd: str


async def start_kernel() -> WarmKernel:
    """Start a fresh kernel and import the workbook's modules in it, ready for the next submission."""
    from jupyter_client.manager import AsyncKernelManager

    cwd = tempfile.mkdtemp(prefix="workbook-grade-")
    env = {**os.environ, "PACKER_CHECKS_DEFERRED": "1", "PYTHONHASHSEED": "0", "MPLBACKEND": "Agg",
           "HYPOTHESIS_STORAGE_DIRECTORY": os.path.join(tempfile.gettempdir(), "workbook-grade-hypothesis")}
    km = AsyncKernelManager(kernel_name="python3")
    await km.start_kernel(cwd=cwd, env=env, extra_arguments=["--HistoryManager.enabled=False"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kc = km.client()
    kc.start_channels()
    await kc.wait_for_ready(timeout=60)
    kc.execute("import packer, packer.checking, packer.checking.bank", store_history=False)
    return WarmKernel(km, kc, cwd)


async def stop_kernel(kernel: WarmKernel) -> None:
    """Kill a kernel and remove its working folder."""
    try:
        kernel.kc.stop_channels()
        await kernel.km.shutdown_kernel(now=True)
    finally:
        shutil.rmtree(kernel.cwd, ignore_errors=True)


async def _run_cell(client: Any, cell: Any, index: int, timeout: float) -> str:
    """Execute one cell. Returns '' when it finished, 'interrupted' when it ran out of time and the
    interrupt stopped it (the kernel can go on), 'timeout' when even that failed, or 'kernel died'."""
    from nbclient.exceptions import DeadKernelError

    if index == len(client.nb.cells):  # one of the grader's own cells, run after the notebook's
        client.nb.cells.append(cell)
    client.timeout = max(1, math.ceil(timeout))
    client._current_index = index
    try:
        await asyncio.wait_for(client.async_execute_cell(cell, index), timeout=client.timeout + 10)
    except DeadKernelError:  # the client stopped hearing it: dead, or alive but not answering any more
        return "timeout" if await client.km.is_alive() else "kernel died"
    except asyncio.TimeoutError:  # the interrupt did not stop it (e.g. it caught KeyboardInterrupt)
        return "timeout"
    if not await client.km.is_alive():
        return "kernel died"
    return "interrupted" if index in client.timed_out else ""


async def grade_in_kernel(submission: Submission, notebook: nbformat.NotebookNode, kernel: WarmKernel,
                          options: Options) -> Outcome:
    """Run every cell of the notebook, then the grader's own checks, in the given fresh kernel."""
    from packer.checking import NOT_ATTEMPTED, questions

    outcome = Outcome(submission.name, submission.path, submission.sha256, submission.lesson, "graded",
                      flags=static_flags(notebook))
    client = _client_class()(notebook, km=kernel.km, allow_errors=True, interrupt_on_timeout=True,
                             record_timing=False, iopub_timeout=5, store_widget_state=False)
    client.kc = kernel.kc
    deadline = time.monotonic() + options.notebook_timeout
    state = ""
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            state = "timeout"
            outcome.notes.append(f"stopped at cell {index} ({question_near(notebook, index)}): the notebook "
                                 f"ran past its {options.notebook_timeout:g} s limit")
            break
        state = await _run_cell(client, cell, index, min(options.cell_timeout, remaining))
        where = f"cell {index} ({question_near(notebook, index)})"
        if state == "kernel died":
            outcome.notes.append(f"the kernel died while running {where}")
            break
        if state in ("interrupted", "timeout"):
            outcome.notes.append(f"{where} ran past the {options.cell_timeout:g} s cell limit and was stopped")
            if state == "timeout":
                break  # the interrupt did not stop it: nothing more can run in this kernel
            outcome.status, state = "timeout", ""
    for index in sorted(client.truncated):
        outcome.notes.append(f"cell {index} printed more than {OUTPUT_LIMIT:,} characters; the rest was dropped")
    for error in _cell_errors(notebook):
        outcome.notes.append(error)

    wanted = [q for q in questions(submission.lesson) if not options.questions or q.qid in options.questions]
    results: dict[str, dict] = {}
    if state == "":
        results, flags, state, slow = await _run_checks(client, kernel, wanted, options)
        outcome.flags += flags
        for qid in slow:
            outcome.status = "timeout"
            outcome.notes.append(f"checking {qid} ran past the {options.cell_timeout:g} s cell limit and was stopped "
                                 "(does the answer loop forever on some input?)")
    if state:
        outcome.status = state
    for question in wanted:
        outcome.results.append(results.get(question.qid) or {
            "qid": question.qid, "name": question.name, "status": NOT_ATTEMPTED if state else "failed",
            "points": 0, "max_points": question.points,
            "detail": "not graded: " + (state or f"checking stopped after {options.cell_timeout:g} s"),
            "counterexample": None, "expected": None, "actual": None, "tried": 0})
    written = sorted(p.name for p in Path(kernel.cwd).iterdir())
    if written:
        outcome.notes.append(f"the notebook wrote files: {', '.join(written)}")
        fakes = [name for name in written if RESULT_NAMES.search(name)]
        if fakes:
            outcome.flags.append(f"the notebook wrote what look like results files: {', '.join(fakes)}")
    if outcome.status == "graded" and outcome.flags:
        outcome.status = "flagged"
    if outcome.status == "graded" and all(r["status"] == NOT_ATTEMPTED for r in outcome.results):
        outcome.status = "no answers"
    return outcome


def _cell_errors(notebook: nbformat.NotebookNode) -> list[str]:
    """One note per cell that raised, naming the question and the exception."""
    notes = []
    for index, cell in enumerate(notebook.cells):
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if out.get("output_type") == "error" and out.get("ename") != "KeyboardInterrupt":
                notes.append(f"cell {index} ({question_near(notebook, index)}) raised "
                             f"{out.get('ename')}: {str(out.get('evalue', ''))[:200]}")
    return notes


async def _run_checks(client: Any, kernel: WarmKernel, wanted: list, options: Options
                      ) -> tuple[dict, list, str, list[str]]:
    """Load the grader's checks in the kernel, check each question, and read back the results file.

    Returns (results by qid, tampering flags, '' or the state that stopped it, qids whose check timed out)."""
    timed_out: list[str] = []
    private = tempfile.mkdtemp(prefix="workbook-results-")
    results_path = os.path.join(private, f"{os.urandom(8).hex()}.jsonl")
    fingerprints = _fingerprints()
    setup = nbformat.v4.new_code_cell(
        KERNEL_SOURCE + f"\n_workbook_grader_setup({str(GRADER_ROOT)!r}, {results_path!r}, {fingerprints!r})")
    try:
        state = await _run_cell(client, setup, len(client.nb.cells), 60)
        state = "timeout" if state == "interrupted" else state
        for question in wanted if not state else []:
            cell = nbformat.v4.new_code_cell(f"_workbook_grade_question({question.qid!r})")
            state = await _run_cell(client, cell, len(client.nb.cells), options.cell_timeout)
            if state in ("interrupted", "timeout"):  # this question scores 0; the others may still count
                timed_out.append(question.qid)
            if state not in ("", "interrupted"):
                break
            state = ""
        lines = Path(results_path).read_text(encoding="utf-8").splitlines() if os.path.exists(results_path) else []
    finally:
        shutil.rmtree(private, ignore_errors=True)
    if not lines:
        return {}, ["the grader's checks could not run in this notebook's kernel"], state, timed_out
    records = [json.loads(line) for line in lines]
    return {r["qid"]: r for r in records[1:]}, records[0]["flags"], state, timed_out


@functools.lru_cache(maxsize=None)
def _fingerprints() -> dict[str, str]:
    """The code digests the kernel will compute for FINGERPRINTED, taken in the grader's own clean process."""
    from packer.checking import code_key

    namespace: dict[str, Any] = {}
    exec(compile(KERNEL_SOURCE, "kernel_side.py", "exec"), namespace)
    return {name: namespace["_workbook_fingerprint"](name, code_key) for name in FINGERPRINTED}


# --- workers: one process per job, each keeping the next kernel starting --------------------------------
def _worker(tasks: Any, done: Any, options: Options) -> None:
    """Grade submissions from `tasks` until a None arrives, always with a kernel warmed up in advance."""
    asyncio.run(_worker_loop(tasks, done, options))


async def _worker_loop(tasks: Any, done: Any, options: Options) -> None:
    loop = asyncio.get_running_loop()
    warm: asyncio.Task | None = None
    stopping: set[asyncio.Task] = set()
    while True:
        task = await loop.run_in_executor(None, tasks.get)
        if task is None:
            break
        if warm is None:
            warm = asyncio.create_task(start_kernel())
        submission, notebook_json = task
        try:
            kernel = await warm
        except Exception as error:  # could not start a kernel: report it, try a new one next time
            warm = None
            done.put(asdict(Outcome(submission.name, submission.path, submission.sha256, submission.lesson,
                                    "kernel failed to start", notes=[f"{type(error).__name__}: {error}"])))
            continue
        warm = asyncio.create_task(start_kernel())  # the next submission's kernel starts while this one runs
        try:
            notebook = nbformat.reads(notebook_json, as_version=4)
            outcome = await grade_in_kernel(submission, notebook, kernel, options)
        except Exception as error:  # never lose the row, whatever went wrong
            where = traceback.extract_tb(error.__traceback__)[-1]
            outcome = Outcome(submission.name, submission.path, submission.sha256, submission.lesson,
                              "grader error", notes=[f"{type(error).__name__}: {error} "
                                                     f"(at {Path(where.filename).name}:{where.lineno})"])
        stopping.add(asyncio.create_task(stop_kernel(kernel)))
        done.put(asdict(outcome))
    if warm is not None:
        try:
            stopping.add(asyncio.create_task(stop_kernel(await warm)))
        except Exception:
            pass
    await asyncio.gather(*stopping, return_exceptions=True)


def grade_all(submissions: list[Submission], options: Options, jobs: int, progress: Any = None) -> list[Outcome]:
    """Grade every submission, `jobs` at a time; the outcomes come back sorted by submission name."""
    outcomes: list[Outcome] = []
    runnable: list[tuple[Submission, str]] = []
    for submission in submissions:
        notebook = read_submission(submission)
        if notebook is None or submission.problem:
            outcomes.append(Outcome(submission.name, submission.path, submission.sha256, submission.lesson,
                                    submission.problem_status, notes=[submission.problem]))
        else:
            runnable.append((submission, nbformat.writes(notebook)))
    for outcome in outcomes:
        if progress:
            progress(outcome)
    if runnable:
        context = multiprocessing.get_context("spawn")
        tasks, done = context.Queue(), context.Queue()
        workers = [context.Process(target=_worker, args=(tasks, done, options), daemon=True)
                   for _ in range(max(1, min(jobs, len(runnable))))]
        for worker in workers:
            worker.start()
        for item in runnable:
            tasks.put(item)
        for _ in workers:
            tasks.put(None)
        pending = {submission.name: submission for submission, _ in runnable}
        while pending:
            try:
                outcome = Outcome(**done.get(timeout=1))
            except queue.Empty:
                if not any(worker.is_alive() for worker in workers):
                    for submission in pending.values():  # a worker process itself was killed
                        outcomes.append(Outcome(submission.name, submission.path, submission.sha256,
                                                submission.lesson, "grader error", notes=["a grading worker exited"]))
                    break
                continue
            pending.pop(outcome.name, None)
            outcomes.append(outcome)
            if progress:
                progress(outcome)
        for worker in workers:
            worker.join(timeout=30)
    return sorted(outcomes, key=lambda o: o.name)


# --- reports ------------------------------------------------------------------------------------------------
def checks_version() -> str:
    """A digest of the grader's packer sources: the same digest means the same checks and references."""
    digest = hashlib.sha256()
    package = PACKAGE_DIR.parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _versions() -> dict[str, str]:
    import hypothesis

    return {"python": platform.python_version(), "hypothesis": hypothesis.__version__}


def feedback_name(name: str) -> str:
    """A flat, safe file name for a submission's feedback report."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name.removesuffix(".ipynb").replace("/", "__")) + ".md"


def result_text(result: dict) -> str:
    """The learner-facing lines for one question (the same lines the self-check prints)."""
    from packer.checking import CheckResult

    return str(CheckResult(**{k: result[k] for k in CheckResult.__dataclass_fields__ if k in result}))


def to_json(outcomes: list[Outcome], options: Options) -> dict[str, Any]:
    """The gradebook as data; per-submission fields follow common autograder formats (score, max_score, tests)."""
    return {
        "grader": {"checks_version": checks_version(), **_versions(),
                   "cell_timeout": options.cell_timeout, "notebook_timeout": options.notebook_timeout,
                   "questions": list(options.questions) or "all"},
        "submissions": [{
            "submission": o.name, "sha256": o.sha256, "lesson": o.lesson, "status": o.status,
            "score": o.score, "max_score": o.max_score, "flags": o.flags, "notes": o.notes,
            "output": "\n".join([f"status: {o.status}"] + o.flags + o.notes),
            "tests": [{"name": f"{r['qid']} {r['name']}", "qid": r["qid"], "status": r["status"],
                       "score": r["points"], "max_score": r["max_points"], "output": result_text(r),
                       "counterexample": r.get("counterexample")} for r in o.results],
        } for o in outcomes],
    }


def to_csv(outcomes: list[Outcome]) -> str:
    """One row per submission: points per question id, total, max, status and flags."""
    qids = sorted({r["qid"] for o in outcomes for r in o.results}, key=lambda q: tuple(map(int, q[1:].split("."))))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["submission", "lesson", "status", *qids, "total", "max", "flags"])
    for o in outcomes:
        points = {r["qid"]: r["points"] for r in o.results}
        writer.writerow([o.name, o.lesson, o.status, *[points.get(q, "") for q in qids], o.score, o.max_score,
                         "; ".join(o.flags)])
    return out.getvalue()


def to_markdown(outcome: Outcome) -> str:
    """A readable report for one learner."""
    lines = [f"# Feedback: {outcome.name}", "", f"- status: **{outcome.status}**",
             f"- score: **{outcome.score} / {outcome.max_score}**", f"- lesson: {outcome.lesson or 'unknown'}", ""]
    if outcome.flags:
        lines += ["## Flagged", "", *[f"- {flag}" for flag in outcome.flags], ""]
    if outcome.notes:
        lines += ["## Notes", "", *[f"- {note}" for note in outcome.notes], ""]
    for result in outcome.results:
        lines += [f"## {result['qid']} {result['name']}: {result['points']}/{result['max_points']}", "", "```",
                  result_text(result), "```", ""]
    return "\n".join(lines)


def write_reports(outcomes: list[Outcome], options: Options, out_dir: Path) -> None:
    """Write CSV, JSON and feedback; each file or folder appears whole or not at all."""
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".grading-", dir=out_dir))
    try:
        (staging / "grades.csv").write_text(to_csv(outcomes), encoding="utf-8")
        (staging / "grades.json").write_text(json.dumps(to_json(outcomes, options), indent=2) + "\n", encoding="utf-8")
        feedback = staging / "feedback"
        feedback.mkdir()
        for outcome in outcomes:
            (feedback / feedback_name(outcome.name)).write_text(to_markdown(outcome), encoding="utf-8")
        old = out_dir / "feedback"
        if old.exists():
            old.rename(staging / "feedback.old")
        feedback.rename(old)
        for name in ("grades.json", "grades.csv"):  # the CSV last: it is what most people open
            os.replace(staging / name, out_dir / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


# --- command line -------------------------------------------------------------------------------------------
class Progress:
    """A one-line progress bar on a terminal; one line per submission otherwise."""

    def __init__(self, total: int, stream: Any = sys.stderr):
        self.total, self.count, self.stream, self.started = total, 0, stream, time.monotonic()
        self.tty = getattr(stream, "isatty", lambda: False)()

    def __call__(self, outcome: Outcome) -> None:
        self.count += 1
        elapsed = time.monotonic() - self.started
        if self.tty:
            filled = int(30 * self.count / self.total)
            self.stream.write(f"\rgrading [{'#' * filled}{'.' * (30 - filled)}] {self.count}/{self.total} "
                              f"{elapsed:5.1f}s  {outcome.name[:40]:<40}")
            if self.count == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"[{self.count}/{self.total}] {outcome.name}: {outcome.status} "
                              f"{outcome.score}/{outcome.max_score}\n")
        self.stream.flush()


def main(argv: list[str] | None = None) -> int:
    """Grade the submissions and write the gradebook; exit 0 when every row was written."""
    parser = argparse.ArgumentParser(prog="python -m packer.grading", description=__doc__.splitlines()[0])
    parser.add_argument("submissions", nargs="+", help="notebooks, or folders searched for *.ipynb")
    parser.add_argument("--out", required=True, type=Path, help="folder for grades.csv, grades.json, feedback/")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="submissions graded at once (default: cores)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds one cell may run (default 10)")
    parser.add_argument("--notebook-timeout", type=float, default=60.0, help="seconds one notebook may run (default 60)")
    parser.add_argument("--questions", nargs="*", default=[], help="grade only these question ids (e.g. q1.1)")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.timeout <= 0 or args.notebook_timeout <= 0:
        parser.error("--jobs, --timeout and --notebook-timeout must be positive")
    submissions = find_submissions(args.submissions)
    if not submissions:
        parser.error("no .ipynb files found")
    options = Options(args.timeout, args.notebook_timeout, tuple(args.questions))
    started = time.monotonic()
    outcomes = grade_all(submissions, options, args.jobs, Progress(len(submissions)))
    write_reports(outcomes, options, args.out)
    elapsed = time.monotonic() - started
    print(f"graded {len(outcomes)} submissions in {elapsed:.1f} s with --jobs {args.jobs}; "
          f"wrote {args.out / 'grades.csv'}, {args.out / 'grades.json'}, {args.out / 'feedback'}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
