"""Grade a class's exercise notebooks: each in its own fresh kernel, in parallel, never losing a grade.

    python -m packer.grading SUBMISSIONS... --out DIR [--jobs N] [--timeout S] [--notebook-timeout S] [--wall-factor F]
                             [--questions QID...] [--lesson LESSON] [--due WHEN] [--wait] [--shard K/N|auto|auto/N]
                             [--canvas-column LESSON=NAME] [--excel-bom]

SUBMISSIONS are notebooks, zip archives or folders of them, laid out as nbgrader, Canvas, Moodle or
Gradescope hand them out (packer.grading.layouts says which rule is for which tool). Every path and --out
are checked before anything runs, and --out is locked: one grader at a time. Each notebook runs top to
bottom in a new kernel, then the grader's own fresh copy of the checks grades the functions it defined.
The latest submission of each learner and lesson counts; earlier ones stay as rows marked superseded.
Writes DIR/grades.csv, DIR/grades.json, DIR/lms/ (the files Canvas, Moodle and nbgrader import),
DIR/feedback/, DIR/gradescope/, DIR/report.md and DIR/answers/; grading into an existing gradebook updates
the rows graded now and keeps every other row. Ctrl-C stops cleanly.
--shard K/N grades only the K-th of N shares of the class (for a batch engine's job array; --shard auto
takes K and N from Slurm's array variables, --shard auto/N takes K from Slurm or Kubernetes);
`python -m packer.grading.merge` combines the N shard gradebooks into the gradebook of the whole class.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import sys
import threading
import time
import uuid
from pathlib import Path

from packer.grading.command_line import (
    check_out_is_apart,
    check_questions,
    parse_canvas_columns,
    refuse,
    resolve_lesson,
    sandbox_choice,
    uncontained_refusal,
)
from packer.grading.escaping import one_line, terminal
from packer.grading.exports import kept_settings
from packer.grading.gradebook import (
    Gradebook,
    Journal,
    check_out_path,
    checks_version,
    edited_warning,
    mark_gone,
    open_gradebook,
    read_journal,
    searched_prefixes,
    to_csv,
    under,
    write_gradebook,
)
from packer.grading.interrupts import Terminated, exit_status, interrupts_as_keyboard_interrupt, no_interrupts
from packer.grading.kernels import finish_search_cache, make_run_dir, read_recorded_inputs, warm_search_cache
from packer.grading.layouts import COPY, late_of, mark_superseded, parse_due
from packer.grading.lock import Busy, gradebook_lock
from packer.grading.outcome import Outcome, not_graded
from packer.grading.pool import Pool, _interrupts_held, peak_memory_mb
from packer.grading.reports import feedback_name, to_markdown
from packer.grading.running import Options, lesson_of, screened
from packer.grading.sandbox import Limits, probe
from packer.grading.shards import class_digest, engine_shard, parse_shard, shard_of
from packer.grading.submissions import (
    Submission,
    check_paths,
    course_submissions,
    digest,
    find_submissions,
    naming_root,
)

__all__ = [
    "main",
    "grade_all",
    "Options",
    "Outcome",
    "lesson_of",
    "checks_version",
    "feedback_name",
    "to_csv",
    "to_markdown",
    "write_gradebook",
]


# --- grading ----------------------------------------------------------------------------------------------------
def grade_all(submissions: list[Submission], options: Options, jobs: int, progress=None) -> tuple[list[Outcome], float]:
    """Grade every submission, `jobs` at a time; rows sorted by name, and the largest worker's peak memory."""
    outcomes: list[Outcome] = []
    first_runs: dict[str, Outcome] = {}  # rows a time limit stopped, waiting to be graded again on their own

    def done(outcome: Outcome) -> None:
        if outcome.status == "timeout" and outcome.name not in first_runs:
            first_runs[outcome.name] = outcome
            return
        if outcome.name in first_runs:
            outcome = retried(first_runs[outcome.name], outcome)
        outcomes.append(outcome)
        if progress:
            progress(outcome)

    to_run = []
    for submission in submissions:  # rows that need no kernel are made here, before any worker starts
        row = screened(submission, options)
        if row:
            done(row)
        else:
            to_run.append(submission)
    if not to_run:
        return sorted(outcomes, key=lambda o: o.name), 0.0
    pool = Pool(max(1, min(jobs, len(to_run))), options)
    warming = None
    interrupted = True
    try:
        warming = warm_search_cache(options.run_dir, options.run_token)
        pool.start()  # its workers start while the cache fills
        problem = finish_search_cache(warming, options.run_dir)
        if problem:
            print(f"warning: {problem}; each kernel builds its own, so grading is slower", file=sys.stderr)
        pool.share(read_recorded_inputs(options.run_dir))  # read before any kernel runs: none could change it
        pool.grade(to_run, done)
        # A busy machine stretches the clock, and a backstop on it may stop a correct answer: each row a time
        # limit stopped is graded again, alone, before it is kept.
        pool.grade([s for s in to_run if s.name in first_runs], done, at_once=1)
        interrupted = False
    finally:
        with no_interrupts() if interrupted else contextlib.nullcontext():
            if warming is not None and warming.poll() is None:  # interrupted before the cache was ready
                warming.kill()
                warming.wait()
            pool.close(interrupted=interrupted)
    return sorted(outcomes, key=lambda o: o.name), pool.worker_peak_mb


def retried(first: Outcome, again: Outcome) -> Outcome:
    """The row of a submission graded a second time after a time limit stopped its first run: the second run's,
    saying so and what the first one gave."""
    again.notes.append(
        "graded a second time, on its own, after a time limit stopped its first run (the first run: "
        f"{first.score}/{first.max_score} points, {first.status}); this row is the second run's"
    )
    return again


def complete_rows(outcomes: list[Outcome], options: Options, version: str) -> dict[str, str]:
    """Give rows that could not be graded the lesson's real maximum (every question 'not graded'), and
    stamp each row with the checks it was graded with. Returns each completed row's own lesson (before the
    class's was taken), so a merge of shards can complete them again with the whole class in view."""
    from packer.checking import questions

    graded_lessons = {o.lesson for o in outcomes if o.results and o.lesson}
    class_lesson = options.lesson or (next(iter(graded_lessons)) if len(graded_lessons) == 1 else "")
    completed = {}
    for outcome in outcomes:
        outcome.checks_version = version
        lesson = outcome.lesson or class_lesson
        if outcome.results or not lesson or outcome.status == "unknown lesson":
            continue
        completed[outcome.name] = outcome.lesson
        outcome.lesson = lesson
        outcome.results = [
            not_graded(q, f"the submission could not be run ({outcome.status})")
            for q in questions(lesson)
            if not options.questions or q.qid in options.questions
        ]
    return completed


def check_shard_out(shard: tuple[int, int] | None, previous: Gradebook | None, out: Path) -> None:
    """A shard grades into a new folder or its own earlier shard gradebook; a whole class never into a shard's."""
    had = (previous.shard["index"], previous.shard["count"]) if previous and previous.shard else None
    if previous is None or had == shard:
        return
    if had is None:
        raise ValueError(
            f"--out: {out} holds a whole class's gradebook; grade shard {shard[0]}/{shard[1]} into a "
            "folder of its own, then merge the shards (nothing was changed)"
        )
    raise ValueError(
        f"--out: {out} holds the gradebook of shard {had[0]}/{had[1]}; "
        + (
            f"give shard {shard[0]}/{shard[1]} a folder of its own"
            if shard
            else "merge the shards with python -m packer.grading.merge, or grade into a new folder"
        )
        + " (nothing was changed)"
    )


def note_changes(submissions: list[Submission], outcomes: dict[str, Outcome]) -> list[str]:
    """Hash every submission again after the run; note each one that changed or vanished meanwhile."""
    changed = []
    for submission in submissions:
        outcome = outcomes.get(submission.name)
        if outcome is None or not outcome.sha256:
            continue
        try:
            now = digest(submission)
        except (OSError, KeyError):
            now = ""
        if now != outcome.sha256:
            what = "was deleted" if not now else f"changed (sha256 {outcome.sha256[:12]}… when read, {now[:12]}… now)"
            outcome.notes.append(
                f"the file {what} while the class was being graded; this row grades the version "
                "read at the start; another submission may have written to it"
            )
            changed.append(f"{submission.name} {what}")
    return changed


def make_progress(total: int):
    """A tqdm progress bar on stderr, one step per graded submission."""
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: the grader stays single-threaded (see pool._interrupts_held)
    # A Ctrl-C inside tqdm's __init__ would leave half a bar whose __del__ prints a traceback at exit: hold it
    # back until the bar is whole (it is raised just after).
    with _interrupts_held():
        bar = tqdm(
            total=total,
            desc="grading",
            unit="notebook",
            file=sys.stderr,
            dynamic_ncols=True,
            mininterval=0.5 if sys.stderr.isatty() else 5,
        )

    def step(outcome: Outcome) -> None:
        bar.set_postfix_str(f"{one_line(outcome.name)[-40:]}: {outcome.status}", refresh=False)
        bar.update(1)

    step.bar = bar
    return step


def main(argv: list[str] | None = None) -> int:
    """Grade the submissions and write the gradebook; exit 0 when every row was written, 2 when refused before
    grading (or when another grader holds --out), 3 when written but no submission could be graded (every
    row a grader error), 130 on Ctrl-C and 143 on SIGTERM (nothing written then)."""
    parser = argparse.ArgumentParser(prog="python -m packer.grading", description=__doc__.splitlines()[0])
    parser.add_argument("submissions", nargs="+", help="notebooks, zip archives, or folders searched for both")
    parser.add_argument(
        "--out", required=True, type=Path, help="gradebook folder: new, empty, or one of ours to update"
    )
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="submissions graded at once (default: cores)"
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="CPU seconds one cell or one question's check may use (default 10)"
    )
    parser.add_argument(
        "--notebook-timeout", type=float, default=60.0, help="CPU seconds one notebook's cells may use (default 60)"
    )
    parser.add_argument(
        "--wall-factor",
        type=float,
        default=6.0,
        help="each limit's backstop on the clock, for a cell that waits instead of working: this many times "
        "the limit (default 6)",
    )
    parser.add_argument("--questions", nargs="*", default=[], help="grade only these question ids (e.g. q1.1)")
    parser.add_argument("--lesson", default="", help="the lesson of notebooks that do not record it (e.g. 01)")
    contain = parser.add_argument_group("containment (each kernel under bubblewrap, with resource limits)")
    contain.add_argument(
        "--sandbox",
        type=sandbox_choice,
        choices=("on", "off"),
        default="on",
        help="on (default): contain every kernel, and refuse to grade (exit status 2) where bubblewrap cannot "
        "run; off: grade uncontained on purpose (each notebook runs with your rights; rows record 'none')",
    )
    contain.add_argument(
        "--memory-mb", type=int, default=Limits.memory >> 20, help="address space per kernel (default 2048)"
    )
    contain.add_argument(
        "--max-processes",
        type=int,
        default=Limits.processes,
        help="processes and threads per kernel (default 64; enforced when grading as root)",
    )
    contain.add_argument(
        "--max-file-mb", type=int, default=Limits.file_size >> 20, help="largest file a kernel may write (default 100)"
    )
    contain.add_argument(
        "--cpu-seconds", type=int, default=Limits.cpu_seconds, help="CPU time per kernel (default 600)"
    )
    parser.add_argument(
        "--due",
        default="",
        metavar="WHEN",
        help="the due date (ISO 8601, e.g. 2026-11-20T23:59+01:00): a submission whose layout records a later "
        "time (nbgrader's timestamp, Gradescope's created_at) is marked late",
    )
    lms = parser.add_argument_group("files for the course's LMS (DIR/lms/; kept for the next run into DIR)")
    lms.add_argument(
        "--canvas-column",
        action="append",
        default=[],
        metavar="LESSON=NAME",
        help="the Canvas gradebook column of a lesson's assignment, as Canvas names it in its own export "
        "(e.g. 01='Exercise 01 (4821)'); default: the lesson's name, which Canvas offers to create",
    )
    lms.add_argument(
        "--excel-bom",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="start each LMS CSV with the UTF-8 byte order mark, so Excel reads names like Müller right",
    )
    parser.add_argument(
        "--wait",
        action="store_true",
        help="when another grader is writing to --out, wait for it instead of stopping at once",
    )
    parser.add_argument(
        "--shard",
        default="",
        metavar="K/N",
        help="grade only shard K of N (1 <= K <= N); merge the N shard gradebooks afterwards. 'auto' takes K and "
        "N from a Slurm job array (--array=1-N), 'auto/N' only K, from Slurm or a Kubernetes Indexed Job",
    )
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.timeout <= 0 or args.notebook_timeout <= 0:
        parser.error("--jobs, --timeout and --notebook-timeout must be positive")
    if not args.wall_factor >= 1:  # (not >=: NaN too)
        parser.error(
            f"--wall-factor: {args.wall_factor:g} is less than 1 (a backstop on the clock shorter than the limit)"
        )
    try:
        limits = Limits(args.memory_mb << 20, args.max_processes, args.max_file_mb << 20, args.cpu_seconds)
    except (ValueError, TypeError) as error:
        parser.error(f"a containment limit: {error}")
    if args.sandbox == "off":
        limits = None
    else:
        unavailable = probe()
        if unavailable:
            refuse(uncontained_refusal(unavailable))
    try:
        shard = (engine_shard(args.shard, os.environ) or parse_shard(args.shard)) if args.shard else None
        due = parse_due(args.due) if args.due else None
        given = check_paths(args.submissions)
        paths = course_submissions(given)
        check_out_path(args.out)
        check_out_is_apart(args.out, paths)
        lesson = resolve_lesson(args.lesson)
        qids = check_questions(args.questions, lesson)
        args.canvas_columns = parse_canvas_columns(args.canvas_column)
    except ValueError as error:
        refuse(str(error))
    try:
        lock = gradebook_lock(args.out, args.wait)
        lock.__enter__()
    except Busy as error:
        refuse(str(error))
    try:
        return _grade_into(args, parser, shard, due, given, paths, lesson, qids, limits)
    finally:
        lock.__exit__(None, None, None)


def reusable_rows(journal: dict[str, Outcome], submissions: list[Submission], version: str) -> dict[str, Outcome]:
    """The rows a crashed run journaled that still stand: the same file (sha256) graded with the same checks."""
    rows = {}
    for submission in submissions:
        row = journal.get(submission.name)
        if row is None or row.checks_version != version or not row.sha256:
            continue
        try:
            same = digest(submission) == row.sha256
        except (OSError, KeyError):
            same = False
        if same:
            rows[submission.name] = row
    return rows


def _grade_into(args, parser, shard, due, given, paths, lesson, qids, limits) -> int:
    """Everything after the lock on --out is held: read the gradebook, grade, write. Rows are named from
    the paths `given`; the `paths` searched may be inside them (an nbgrader course's submitted/)."""
    try:
        previous = open_gradebook(args.out)
        check_shard_out(shard, previous, args.out)
        if previous and previous.root and all(p.is_relative_to(previous.root) for p in given):
            root, top = previous.root, previous.top
        else:
            root, top = naming_root(given)
        submissions, skipped = find_submissions(paths, root, top)
    except ValueError as error:
        refuse(str(error))
    if not submissions:
        refuse("no notebooks (.ipynb, .ipynb.json) or zip archives found in " + " ".join(args.submissions))
    if skipped:
        files = "file that is not a submission" if len(skipped) == 1 else "files that are not submissions"
        print(f"skipped {len(skipped)} {files} (no row in the gradebook):", file=sys.stderr)
        for line in skipped:
            print(f"  skipped {one_line(line)}", file=sys.stderr)
    if shard:  # the share of this shard, by a hash of each name: the same whatever order they came in
        whole = class_digest([s.name for s in submissions], skipped)
        class_size = len(submissions)
        submissions = [s for s in submissions if shard_of(s.name, shard[1]) == shard[0]]
    for submission in submissions:  # a regraded learner keeps the name the gradebook gave them
        if previous and submission.name in previous.rows:
            submission.learner = previous.rows[submission.name].learner or submission.learner
    if due is None and previous and previous.due:  # the due date a gradebook was graded with holds until changed
        due = parse_due(previous.due)

    version = checks_version()
    reused = reusable_rows(read_journal(args.out), submissions, version)
    if reused:
        print(
            f"resumed: {len(reused)} submissions were graded by a run into {args.out} that stopped before writing "
            "the gradebook; their rows are reused (the files and the checks are unchanged)",
            file=sys.stderr,
        )
    to_grade = [s for s in submissions if s.name not in reused]
    run_dir = make_run_dir()
    options = Options(
        args.timeout, args.notebook_timeout, qids, lesson, run_dir, uuid.uuid4().hex, limits, args.wall_factor
    )
    started = time.monotonic()
    progress = None
    journal = None
    finished = False
    try:
        with interrupts_as_keyboard_interrupt():
            journal = Journal(args.out, list(reused.values()))
            progress = make_progress(len(to_grade))

            def graded(outcome: Outcome) -> None:
                outcome.checks_version = version
                journal.add(outcome)
                progress(outcome)

            outcomes, worker_peak = grade_all(to_grade, options, args.jobs, graded) if to_grade else ([], 0.0)
            outcomes = sorted([*reused.values(), *outcomes], key=lambda o: o.name)
            progress.bar.close()
            completed = complete_rows(outcomes, options, version)
            book = previous or Gradebook()
            book.lms = kept_settings(book.lms, args.excel_bom, args.canvas_columns)
            prefixes = searched_prefixes(paths, root)
            kept_skipped = [line for line in book.skipped if not under(line, prefixes)] if previous else []
            book.root, book.top, book.skipped = root, top, sorted(kept_skipped + skipped)
            book.changed = note_changes(submissions, {o.name: o for o in outcomes})
            if checks_version() != version:
                book.changed.append("the grader's own packer/ sources changed during grading")
            book.changed.sort()
            if shard:
                earlier = previous.shard.get("completed", {}) if previous and previous.shard else {}
                completed = {
                    name: lesson for name, lesson in earlier.items() if name not in {o.name for o in outcomes}
                } | completed
                book.shard = {
                    "index": shard[0],
                    "count": shard[1],
                    "class_submissions": class_size,
                    "class_digest": whole,
                    "completed": dict(sorted(completed.items())),
                }
            kept = len(set(book.rows) - {o.name for o in outcomes})
            book.rows.update({o.name: o for o in outcomes})
            same_root = root if previous and previous.root == root else None  # kept rows' names start there
            gone = mark_gone(book.rows, {s.name for s in submissions}, prefixes, same_root) if not shard else []
            book.due = due.isoformat() if due else ""
            for row in book.rows.values():  # lateness from the layout and the due date of this run, every row
                row.late = late_of(row.name, book.top, row.submitted_at, due)
            book.lms = {**book.lms, "due": book.due}
            superseded = mark_superseded(list(book.rows.values()))
            with no_interrupts():
                write_gradebook(book, options, args.out, previous)
            finished = True
    except KeyboardInterrupt as interrupt:
        # Ctrl-C: a clean stop, nothing kept. SIGTERM (a batch engine's time limit, before its SIGKILL): the rows
        # graded so far stay in the journal, so the job run again resumes from them.
        finished = not isinstance(interrupt, Terminated)
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the clean-up short
        if progress is not None:
            progress.bar.close()
        shutil.rmtree(run_dir, ignore_errors=True)
        kept_rows = (
            f"; the {journal.rows} row{'s' if journal.rows > 1 else ''} graded so far "
            f"{'are' if journal.rows > 1 else 'is'} kept in {journal.path} for the next run into {args.out} to reuse"
            if journal is not None and not finished and journal.rows
            else ""
        )
        print(
            f"interrupted{' by SIGTERM' if isinstance(interrupt, Terminated) else ''}: every kernel stopped, "
            f"temporary files removed, nothing written"
            f"{'; the gradebook in ' + str(args.out) + ' is as it was' if previous else ''}{kept_rows}",
            file=sys.stderr,
        )
        return exit_status(interrupt)
    finally:
        if journal is not None:
            journal.close(keep=not finished)  # a crash keeps the rows graded so far for the next run
        shutil.rmtree(run_dir, ignore_errors=True)
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.default_int_handler)
    with no_interrupts():  # written already: a Ctrl-C now must not read as "nothing was written"
        for line in book.changed:
            print(f"warning: {one_line(line)}", file=sys.stderr)
        edited = edited_warning(book, args.out, {o.name for o in outcomes})
        if edited:
            print(terminal(edited), file=sys.stderr)
        for what, count in sorted(superseded.items()):
            some = f"{count} submission{'s' if count > 1 else ''}"
            print(
                f"superseded: {some} of a learner and lesson that another one also holds: {what}; kept as rows "
                "marked superseded, and only one counts"
                if what == COPY
                else f"superseded: {some} by a later one of the same learner and lesson (latest by {what}); "
                "each is kept as a row marked superseded, and only the latest counts",
                file=sys.stderr,
            )
        timeless = [o for o in outcomes if due is not None and not o.submitted_at and o.lms.get("tool") == "nbgrader"]
        if timeless:
            print(
                f"warning: --due could not judge {len(timeless)} nbgrader submission{'s' if len(timeless) > 1 else ''} "
                f"whose time is unknown (a missing or unreadable timestamp.txt; see the notes): "
                f"{', '.join(one_line(o.name) for o in timeless[:3])}{' …' if len(timeless) > 3 else ''}",
                file=sys.stderr,
            )
        if gone:
            print(
                f"warning: {len(gone)} row{'s' if len(gone) > 1 else ''} kept from an earlier run, whose file is "
                f"gone from the folder graded now (flagged 'file gone'): {', '.join(map(one_line, gone[:3]))}"
                f"{' …' if len(gone) > 3 else ''}",
                file=sys.stderr,
            )
        elapsed = time.monotonic() - started
        kept_text = f"; kept {kept} row{'' if kept == 1 else 's'} of the previous gradebook" if previous else ""
        share = f" (shard {shard[0]}/{shard[1]} of a class of {class_size})" if shard else ""
        share += f" ({len(reused)} of them reused from the run that stopped)" if reused else ""
        print(
            f"graded {len(outcomes)} submission{'' if len(outcomes) == 1 else 's'}{share} in {elapsed:.1f} s with --jobs {args.jobs}{kept_text}; "
            f"wrote {args.out / 'grades.csv'}, {args.out / 'report.md'}, the LMS imports in {args.out / 'lms'}/ "
            f"and the rest of {args.out}/ "
            f"(peak memory: grader {peak_memory_mb():.0f} MB, "
            + (f"largest worker {worker_peak:.0f} MB)" if worker_peak else "no worker was needed)")
        )
        failed = [o for o in outcomes if o.status == "grader error"]
        if failed:
            everyone = len(failed) == len(outcomes)
            what = (
                "ERROR: no submission could be graded"
                if everyone
                else f"warning: {len(failed)} of {len(outcomes)} submissions could not be graded"
            )
            first = one_line(f"{failed[0].name}: {failed[0].notes[0] if failed[0].notes else 'no note'}")
            print(
                f"{what}: the grader itself failed (first: {first}); fix the cause and grade again into "
                f"{args.out} to regrade them",
                file=sys.stderr,
            )
            if everyone:  # a batch job must count this task as failed and run it again
                return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
