"""Grading one submission: run its cells in a fresh kernel, then the grader's own checks in that kernel.

When the notebook stops early (a kernel that died, a cell that ignored the interrupt, the notebook's time
running out), the answers defined by the cells that did run are still graded: if the kernel is gone, a
fresh one re-runs those cells first. The same notebook gets the same grade on every run.
"""

from __future__ import annotations

import functools
import json
import os
import re
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import nbformat

from packer.checking.exercises import OPEN_ANSWER
from packer.grading.cells import OUTPUT_LIMIT, Budget, Options, describe_cell, run_cell, run_cells
from packer.grading.kernels import Kernel, results_folder, stop_kernel
from packer.grading.sandbox import Limits
from packer.grading.outcome import NOT_GRADED, Outcome, did_not_run, not_graded
from packer.grading.submissions import Submission, digest, parse_stripped, read_bytes

PACKAGE_DIR = Path(__file__).resolve().parent
GRADER_ROOT = PACKAGE_DIR.parent.parent  # the folder that holds packer/: the kernel loads its fresh copy from here
KERNEL_SOURCE = (PACKAGE_DIR / "kernel_side.py").read_text(encoding="utf-8")
# Functions the checks rely on that live outside packer: their code is compared inside each kernel.
FINGERPRINTED = (
    "hypothesis.find",
    "copy.deepcopy",
    "json.dumps",
    "builtins.open",
    "builtins.isinstance",
    "builtins.type",
    "builtins.repr",
    "sys.setprofile",
    "hashlib.sha256",
    "json.loads",
)
STATIC_TAMPERING = (
    (re.compile(r"^\s*def\s+check\s*\(|^\s*check\s*=[^=]", re.M), "the notebook defines its own check"),
    (re.compile(r"\bpacker(\.\w+)+\s*=[^=]|setattr\(\s*packer\b", re.M), "the notebook assigns to the packer module"),
    (re.compile(r"\bsys\.modules\b"), "the notebook reaches into sys.modules"),
    (
        re.compile(r"grades\.(csv|json)|PACKER_CHECKS_DEFERRED|_workbook_grade"),
        "the notebook names the grader's files or hooks",
    ),
)
OPEN_QUESTION = re.compile(r"^#+\s*Open question", re.I)
# What an open question's answer cell holds until the learner writes in it: the workbook's exercise placeholder, and
# nbgrader's (its ClearSolutions.text_stub) in a notebook released by an nbgrader course (make nbgrader).
ANSWER_PLACEHOLDERS = ("*Write your answer here.*", "YOUR ANSWER HERE")
TakeKernel = Callable[[], Awaitable[Kernel]]


# --- reading a notebook ---------------------------------------------------------------------------------------
def lessons() -> dict[str, str]:
    """Lesson number ('01') -> slug ('01_assemble_context'), one per exercise of the grader's question bank
    (packer.checking.bank.LESSONS), so a grader installed without the checkout's solutions/ knows them too."""
    from packer.checking.bank import LESSONS

    return {slug[:2]: slug for slug in LESSONS}


def lesson_of(notebook: nbformat.NotebookNode, path: str) -> str:
    """The lesson slug: from the exercise's metadata, else a lesson number in the file name
    (`01_…`, `alice-03_…`), else the question ids its check cells name; "" when none of these tells."""
    lesson = notebook.get("metadata", {}).get("workbook", {}).get("lesson", "")
    slugs = lessons()
    if lesson in slugs.values():
        return lesson
    lesson = lesson_from_name(path)
    if lesson:
        return lesson
    source = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    numbers = {f"{int(n):02d}" for n in re.findall(r"check\(\s*[\"']q(\d+)\.\d+", source)}
    return slugs[numbers.pop()] if len(numbers) == 1 and next(iter(numbers)) in slugs else ""


def recorded_lesson(notebook: nbformat.NotebookNode) -> str:
    """The lesson the exercise's own metadata records ("" when it records none the grader knows)."""
    lesson = notebook.get("metadata", {}).get("workbook", {}).get("lesson", "")
    return lesson if lesson in lessons().values() else ""


def lesson_from_name(path: str) -> str:
    """The lesson a file name points at, or "": the one whose slug it contains (`exercise_01_assemble_context`,
    as the workbook names exercises now, `01_assemble_context` as it did before, either behind a course tool's
    prefix such as Canvas's `müllerjürgen_12353_67901_`), else the first lesson number followed by an
    underscore (`03_my_copy`, `alice-02_prompt`, `exercise_04_mine`)."""
    name = Path(path).name
    slugs = lessons()
    named = {slug for slug in slugs.values() if slug in name}
    if len(named) == 1:
        return named.pop()
    numbered = [slugs[number] for number in re.findall(r"(?<![0-9])([0-9]{2})_", name) if number in slugs]
    return numbered[0] if numbered else ""


def static_flags(notebook: nbformat.NotebookNode) -> list[str]:
    """Tampering visible in the source of the code cells."""
    source = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    return [message for pattern, message in STATIC_TAMPERING if pattern.search(source)]


def is_answer_cell(cell: nbformat.NotebookNode) -> bool:
    """Whether the exercise made this cell for an open question's written answer: the workbook's mark
    (`metadata.workbook.open_answer`), or nbgrader's mark of a written-answer cell in a released notebook."""
    if cell.cell_type != "markdown":
        return False
    metadata = cell.get("metadata", {})
    nbgrader = metadata.get("nbgrader", {})
    return bool(metadata.get("workbook", {}).get(OPEN_ANSWER)) or bool(
        nbgrader.get("solution") and nbgrader.get("grade")
    )


def answer_cells(notebook: nbformat.NotebookNode) -> list[int]:
    """The indices of the cells the exercise made for the open answers: the marked cells, else (an exercise made
    before the mark, or one whose marks were lost) the first Markdown cell after each 'Open question' heading,
    whatever it holds."""
    cells = notebook.cells
    marked = [index for index, cell in enumerate(cells) if is_answer_cell(cell)]
    if marked:
        return marked
    found = []
    for index, cell in enumerate(cells):
        if cell.cell_type != "markdown" or not OPEN_QUESTION.match(cell.source.strip()):
            continue
        for later in range(index + 1, len(cells)):
            if cells[later].cell_type != "markdown":
                continue
            if not OPEN_QUESTION.match(cells[later].source.strip()):
                found.append(later)
            break
    return found


def written_answers(notebook: nbformat.NotebookNode) -> list[dict]:
    """The learner's open written answers: each answer cell the exercise made, whole (whatever it starts with),
    with any Markdown cells the learner added right after it that start with no heading."""
    answers = []
    cells = notebook.cells
    starts = answer_cells(notebook)
    for index in starts:
        asked = [c for c in cells[:index] if c.cell_type == "markdown" and OPEN_QUESTION.match(c.source.strip())]
        prompt = " ".join(asked[-1].source.strip().split("\n\n", 1)[-1].split()) if asked else ""
        text = [cells[index].source.strip()]
        for later in cells[index + 1 :]:
            if later.cell_type != "markdown" or later.source.lstrip().startswith("#") or is_answer_cell(later):
                break
            text.append(later.source.strip())
        answer = "\n\n".join(t for t in text if t and t not in ANSWER_PLACEHOLDERS)
        answers.append({"question": prompt[:300], "answer": answer[:20_000]})
    return answers


def _write_recorded(private: str, wanted: list, recorded: dict) -> tuple[str, str, dict[str, int]]:
    """Write the wanted questions' recorded generated inputs into the kernel's private folder; returns what
    the kernel needs to trust them: the file, its sha256 and the number of inputs per question."""
    inputs = {q.qid: recorded["inputs"][q.qid] for q in wanted if q.qid in recorded.get("inputs", {})}
    if not inputs:
        return "", "", {}
    import hashlib

    data = json.dumps({"inputs": inputs, "version": recorded["version"]}).encode("utf-8")
    path = os.path.join(private, "generated.json")
    Path(path).write_bytes(data)
    return path, hashlib.sha256(data).hexdigest(), {qid: len(args) for qid, args in inputs.items()}


async def _run_checks(
    client: Any, wanted: list, options: Options, kernel: Kernel, recorded: dict | None = None
) -> tuple[dict, list, str, dict[str, tuple[str, str]]]:
    """Load the grader's checks in the kernel, check each question, and read back the results file.
    `recorded`: the questions' recorded generated inputs, which the kernel replays when it can.

    Returns (results by qid, tampering flags, '' or the state that stopped it, and for each question whose
    check ran past the cell limit, that limit and what the check used, in words)."""
    slow: dict[str, tuple[str, str]] = {}
    private = results_folder(kernel)
    results_path = os.path.join(private, f"{os.urandom(8).hex()}.jsonl")
    generated = _write_recorded(private, wanted, recorded or {})
    setup = nbformat.v4.new_code_cell(
        KERNEL_SOURCE
        + f"\n_workbook_grader_setup({str(GRADER_ROOT)!r}, {results_path!r}, {_fingerprints()!r}, {generated!r})"
    )
    try:
        state, _, _ = await run_cell(client, setup, len(client.nb.cells), Budget(60, 60 * options.wall_factor))
        state = "timeout" if state == "interrupted" else state
        for question in wanted if not state else []:
            cell = nbformat.v4.new_code_cell(f"_workbook_grade_question({question.qid!r})")
            state, measure, spent = await run_cell(client, cell, len(client.nb.cells), Budget.of_cell(options))
            if state in ("interrupted", "timeout"):  # this question scores 0; the others may still count
                slow[question.qid] = (options.limit_words("cell", measure), spent.words(measure))
            if state not in ("", "interrupted"):
                break
            state = ""
        lines = Path(results_path).read_text(encoding="utf-8").splitlines() if os.path.exists(results_path) else []
    finally:
        import shutil

        shutil.rmtree(private, ignore_errors=True)
    if not lines:
        return {}, ["the grader's checks could not run in this notebook's kernel"], state, slow
    records = [json.loads(line) for line in lines]
    return {r["qid"]: r for r in records[1:]}, records[0]["flags"], state, slow


@functools.cache
def _fingerprints() -> dict[str, str]:
    """The code digests the kernel will compute for FINGERPRINTED, taken in the grader's own clean process."""
    from packer.checking import code_key

    namespace: dict[str, Any] = {}
    exec(compile(KERNEL_SOURCE, "kernel_side.py", "exec"), namespace)
    return {name: namespace["_workbook_fingerprint"](name, code_key) for name in FINGERPRINTED}


def _limit_hit(ename: str, evalue: str, limits: Limits | None) -> str:
    """Which containment limit an error shows was reached ('' when none, or when not contained)."""
    if limits is None:
        return ""
    if ename == "MemoryError":
        return f"the memory limit ({limits.memory >> 20} MiB per kernel)"
    if "[Errno 27]" in evalue:  # EFBIG: File too large
        return f"the file size limit ({limits.file_size >> 20} MiB per file)"
    if "[Errno 11]" in evalue:  # EAGAIN from fork or a new thread
        return f"the process limit ({limits.processes} processes and threads per kernel)"
    return ""


def _cell_errors(notebook: nbformat.NotebookNode, upto: int | None = None, limits: Limits | None = None) -> list[str]:
    """One note per cell that raised, naming the cell, its question and the exception (and the limit it hit)."""
    notes = []
    for index, cell in enumerate(notebook.cells[:upto]):
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if out.get("output_type") != "error" or out.get("ename") == "KeyboardInterrupt":
                continue
            if out.get("ename") == "SystemExit":
                notes.append(
                    f"{describe_cell(notebook, index)} called exit(): while grading that stops only the "
                    "cell, and every answer is still graded"
                )
            elif out.get("ename") == "StdinNotImplementedError":
                notes.append(
                    f"{describe_cell(notebook, index)} called input(): reading from stdin is not allowed "
                    "while grading, so the call failed at once"
                )
            else:
                limit = _limit_hit(out.get("ename", ""), str(out.get("evalue", "")), limits)
                notes.append(
                    f"{describe_cell(notebook, index)} raised "
                    f"{out.get('ename')}: {str(out.get('evalue', ''))[:200]}"
                    + (f" (it reached {limit})" if limit else "")
                )
    return notes


def failed_definition(notebook: nbformat.NotebookNode, name: str) -> str:
    """Why the function `name` was never defined although the notebook writes it ("" when it was, or is not
    written): the cell that holds its `def` raised (a syntax error stops the whole cell before it runs)."""
    defines = re.compile(rf"^\s*(?:async\s+)?def\s+{re.escape(name)}\s*\(", re.M)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code" or not defines.search(cell.source):
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                evalue = (str(out.get("evalue", "")).splitlines() or [""])[0][:200]
                return (
                    f"{describe_cell(notebook, index)} raised {out.get('ename')}: {evalue}, so {name} was never defined"
                )
    return ""


# --- one submission, start to end ---------------------------------------------------------------------------
def problem_outcome(submission: Submission, status: str, note: str, sha256: str = "", lesson: str = "") -> Outcome:
    """The row of a submission that could not be run."""
    return Outcome(
        submission.name,
        submission.path,
        sha256,
        lesson,
        status,
        notes=[note, *filter(None, [submission.note])],
        **identity_of(submission),
    )


def identity_of(submission: Submission) -> dict:
    """The Outcome fields that say whose a submission is and when it was handed in."""
    return {
        "learner": submission.learner,
        "late": submission.late,
        "lms": dict(submission.lms),
        "submitted_at": submission.submitted_at,
        "file_time": submission.file_time,
    }


def lesson_by_name(submission: Submission) -> str:
    """The lesson a submission's names point at: its file's name, else its assignment's (nbgrader's
    `submitted/<student>/01_assemble_context/`), else a folder named after a lesson."""
    return lesson_from_name(submission.name) or assignment_lesson(submission)


def assignment_lesson(submission: Submission) -> str:
    """The lesson of the assignment the layout files a submission under: nbgrader's assignment folder, or
    any folder of its path named after a lesson's slug (`01_assemble_context/`); "" when none says."""
    if submission.assignment:
        return lesson_from_name(submission.assignment)
    slugs = set(lessons().values())
    for part in reversed(Path(submission.name).parts[:-1]):
        named = [slug for slug in slugs if slug in part]
        if len(named) == 1:
            return named[0]
    return ""


def load(submission: Submission, options: Options) -> tuple[Outcome | None, nbformat.NotebookNode | None, str]:
    """Read, hash and parse a submission (outputs stripped). Returns (problem row or None, notebook, sha256)."""
    if submission.problem:
        sha256 = digest(submission) if not submission.member and os.path.isfile(submission.path) else ""
        return (
            problem_outcome(
                submission,
                "unreadable",
                submission.problem,
                sha256,
                options.lesson or lesson_by_name(submission),
            ),
            None,
            sha256,
        )
    try:
        data = read_bytes(submission)
    except (OSError, KeyError) as error:
        return (
            problem_outcome(
                submission,
                "unreadable",
                f"cannot read the file: {error}",
                lesson=options.lesson or lesson_by_name(submission),
            ),
            None,
            "",
        )
    import hashlib

    sha256 = hashlib.sha256(data).hexdigest()
    if not data.strip():
        what = "the file is empty (0 bytes)" if not data else "the file holds only white space"
        return (
            problem_outcome(submission, "unreadable", what, sha256, options.lesson or lesson_by_name(submission)),
            None,
            sha256,
        )
    try:
        notebook = parse_stripped(data)
    except Exception as error:  # not JSON, not UTF-8, not a notebook: all the same to the gradebook
        del data
        return (
            problem_outcome(
                submission,
                "unreadable",
                f"not a readable notebook: {type(error).__name__}: {(str(error).splitlines() or [''])[0][:200]}",
                sha256,
                options.lesson or lesson_by_name(submission),
            ),
            None,
            sha256,
        )
    del data
    return None, notebook, sha256


SCREEN_BYTES = 1 << 20  # files up to this size are read once in the grader's own process to screen them


def screened(submission: Submission, options: Options) -> Outcome | None:
    """The row of a submission no kernel needs to see (a problem its layout found, a file that cannot be read,
    an empty one, one that is not a notebook), found in the grader's own process so that a class of such files
    starts no worker; None for every other, and for a zip member or a file over SCREEN_BYTES (a worker reads
    those, with the same `load`, so the row is the same either way)."""
    if not submission.problem and not submission.member:
        try:
            if os.path.getsize(submission.path) > SCREEN_BYTES:
                return None
        except OSError:
            pass  # load() says why it cannot be read
    elif not submission.problem:
        return None
    problem, _, _ = load(submission, options)
    return problem


async def grade_submission(
    submission: Submission, options: Options, take_kernel: TakeKernel, recorded: dict | None = None
) -> Outcome:
    """Grade one submission from its file to its row; whatever happens, a row comes back. `recorded`: the
    questions' recorded generated inputs (packer.checking.replay), which its kernel replays when it can."""
    problem, notebook, sha256 = load(submission, options)
    if problem:
        return problem
    from packer.checking import NOT_ATTEMPTED, questions

    records = recorded_lesson(notebook)
    inferred = lesson_of(notebook, submission.name) or assignment_lesson(submission)
    lesson = records or options.lesson or inferred
    outcome = Outcome(
        submission.name,
        submission.path,
        sha256,
        lesson,
        "graded",
        flags=static_flags(notebook),
        written=written_answers(notebook),
        notes=list(filter(None, [submission.note])),
        **identity_of(submission),
    )
    if not lesson:
        outcome.status = "unknown lesson"
        outcome.notes.append("cannot tell which lesson this notebook belongs to (give --lesson to say)")
        return outcome
    if records and options.lesson and options.lesson != records:
        outcome.notes.append(
            f"graded as lesson {records}, the lesson the notebook records; --lesson {options.lesson} applies "
            "only to notebooks that do not record theirs"
        )
    elif not records and options.lesson and inferred and inferred != options.lesson:
        outcome.notes.append(f"its name points at lesson {inferred}; graded as {lesson} (--lesson)")
    handed_in_to = assignment_lesson(submission)
    if handed_in_to and handed_in_to != lesson:
        outcome.flags.append(
            f"a notebook of lesson {lesson} handed in to the assignment of lesson {handed_in_to} "
            f"({submission.assignment or Path(submission.name).parent.as_posix()}): graded as {lesson}"
        )
    outcome.containment = options.containment
    kernel = await take_kernel()
    try:
        run, client = await run_cells(notebook, kernel, options, outcome.notes)
        stopped = run.state in ("kernel died", "timeout")
        if run.state == "kernel died" or (run.state == "timeout" and "ignored the interrupt" in run.why):
            # The kernel is gone or stuck: re-run, in a fresh kernel, the cells that ran before the stop.
            await stop_kernel(kernel)
            kernel = await take_kernel()
            replay, client = await run_cells(notebook, kernel, options, [], upto=run.stopped_at)
            if replay.state in ("kernel died", "timeout"):
                outcome.notes.append("re-running the cells before it in a fresh kernel failed too: " + replay.why)
                client = None
            else:
                outcome.notes.append(
                    f"the answers defined before cell {run.stopped_at + 1} were graded "
                    "(the cells before it were re-run in a fresh kernel)"
                )
        for index in sorted(getattr(client, "truncated", ())):
            outcome.notes.append(
                f"cell {index + 1} printed more than {OUTPUT_LIMIT:,} characters; the rest was dropped"
            )
        outcome.notes += _cell_errors(notebook, run.stopped_at if stopped else None, options.limits)
        wanted = [q for q in questions(lesson) if not options.questions or q.qid in options.questions]
        results: dict[str, dict] = {}
        checks_state, slow = "", {}
        if client is not None:
            results, flags, checks_state, slow = await _run_checks(client, wanted, options, kernel, recorded)
            outcome.flags += flags
            if checks_state == "kernel died":
                outcome.notes.append(
                    "the kernel died while the grader's checks ran, after the notebook's last "
                    "cell; the questions not checked by then are not graded"
                )
            for qid, (limit, measured) in slow.items():
                outcome.notes.append(
                    f"checking {qid} ran past {limit} and was stopped: {measured} "
                    "(does the answer loop forever on some input?)"
                )
        stop_why = run.why if stopped else ""
        for question in wanted:
            result = results.get(question.qid)
            if result is None and question.qid in slow:
                result = {
                    **not_graded(question, ""),
                    "status": "failed",
                    "detail": f"checking stopped at {slow[question.qid][0]}",  # what it used: in the row's note
                }
            elif result is None:
                result = not_graded(
                    question,
                    stop_why
                    or (
                        f"the grader's checks stopped ({checks_state})"
                        if checks_state
                        else "the grader's checks did not run"
                    ),
                )
            elif result["status"] == NOT_ATTEMPTED and stop_why:
                result = not_graded(question, f"{stop_why}; {question.name} was not defined by the cells that ran")
            elif result["status"] == NOT_ATTEMPTED and (why := failed_definition(notebook, question.name)):
                result = did_not_run(question, why)
            outcome.results.append(result)
        if stopped:
            outcome.status = run.state
        elif run.state == "interrupted" or slow:
            outcome.status = "timeout"
        if checks_state and checks_state != "interrupted":
            outcome.status = checks_state
        written = sorted(p.name for p in Path(kernel.cwd).iterdir()) if os.path.isdir(kernel.cwd) else []
        if written:
            outcome.notes.append(f"the notebook wrote files in its own working folder (harmless): {', '.join(written)}")
    finally:
        await stop_kernel(kernel)
    if outcome.status == "graded" and outcome.flags:
        outcome.status = "flagged"
    if outcome.status == "graded" and all(r["status"] == NOT_ATTEMPTED for r in outcome.results):
        outcome.status = "no answers"
    return outcome


def error_outcome(submission: Submission, error: BaseException) -> Outcome:
    """The row of a submission the grader itself failed on (never lose the row)."""
    where = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ else None
    at = f" (at {Path(where.filename).name}:{where.lineno})" if where else ""
    return problem_outcome(submission, "grader error", f"{type(error).__name__}: {error}{at}")


__all__ = ["Options", "grade_submission", "error_outcome", "lesson_of", "NOT_GRADED"]
