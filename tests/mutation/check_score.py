"""Mutation score of the exercises' and lessons' checks: `make check-mutation` (python tests/mutation/check_score.py
[--jobs N]).

For every graded question, the worked answer in solutions/ (answers.py finds it), and for every write point of a
lesson, the worked answer folded under it in notebooks/ (answers.practice_answers), is mutated with
mutate.py's operators and the learner mistakes of learner.py, one change per mutant, and the question's
own check (packer.checking.evaluate, with the in-notebook time limit) is run on each mutant in a fresh
namespace built by running the solution notebook's cells up to that check (a write point's worked answer runs
on its own; its check is the point's, packer.checking.practice). A mutant is killed when the
check gives it less than full marks. A survivor is either listed in check_equivalent.toml with the reason
it cannot lose points ("equivalent, explained") or reported as a gap in the check. Exit status 0 only
when every other mutant is killed and every entry of check_equivalent.toml still matches a survivor.

Where one answer cell serves two questions (q1.1 and q1.2 both check assemble_context), each mutant is
measured on the question whose rules it breaks: the mutants of the answer's input checks (learner.py says
which they are) on the "refuse bad input" question, the others on the question that lets the learner
ignore bad input until then. Every mutant is counted once.
Nothing is written anywhere: mutants are compiled from memory, in worker processes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from answers import ROOT, Answer, answers, namespace, practice_answers
from learner import LearnerMutant, learner_mutants

if TYPE_CHECKING:
    from packer.checking.engine import Question

EQUIVALENT = Path(__file__).resolve().parent / "check_equivalent.toml"
VALIDATION_TITLE = "refuse bad input"


@dataclass(frozen=True)
class Equivalent:
    """A mutant that cannot lose points on a question, and why."""

    questions: tuple[str, ...]
    function: str
    change: str
    why: str

    def matches(self, qid: str, mutant: LearnerMutant) -> bool:
        return qid in self.questions and (self.function, self.change) == (mutant.function, mutant.change)


def load_equivalents(path: Path) -> list[Equivalent]:
    """The explained equivalent mutants; each entry needs question(s), function, change and a non-empty why."""
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", []) if path.exists() else []
    loaded = []
    for number, entry in enumerate(entries, 1):
        missing = [key for key in ("question", "function", "change", "why") if not str(entry.get(key, "")).strip()]
        if missing:
            raise ValueError(f"{path.name}: entry {number} lacks {', '.join(missing)}")
        qids = entry["question"]
        qids = (qids,) if isinstance(qids, str) else tuple(qids)
        loaded.append(Equivalent(qids, entry["function"], entry["change"], entry["why"].strip()))
    return loaded


def checked(qid: str) -> Question:
    """The check of a graded question ('q2.3') or of a lesson's write point ('p2.4')."""
    from packer.checking import question
    from packer.checking.practice import point

    return point(qid).question if qid.startswith("p") else question(qid)


def all_answers(root: Path = ROOT) -> dict[str, Answer]:
    """Every worked answer measured: the exercises' questions, then the lessons' write points."""
    return {**answers(root), **practice_answers(root)}


def measured_part(qid: str, found: dict[str, Answer]) -> str:
    """Which mutants of its answer cell a question is measured on: "all"; or, when the cell also answers a
    "refuse bad input" question, "input checks" for that question and "the rest" for the other."""
    mine = found[qid]
    sharing = [other for other, answer in found.items() if (answer.notebook, answer.cell) == (mine.notebook, mine.cell)]
    validating = [other for other in sharing if checked(other).title.startswith(VALIDATION_TITLE)]
    if len(sharing) == 1 or not validating:
        return "all"
    return "input checks" if qid in validating else "the rest"


def question_mutants(qid: str, found: dict[str, Answer]) -> list[LearnerMutant]:
    """The mutants one question is measured on."""
    answer = found[qid]
    mutants = learner_mutants(answer.source, answer.name, answer.lines)
    part = measured_part(qid, found)
    if part == "input checks":
        return [m for m in mutants if m.validation]
    if part == "the rest":
        return [m for m in mutants if not m.validation]
    return mutants


def outcome(answer: Answer, source: str) -> tuple[str, str, str]:
    """(status, how, input): status 'killed', 'timeout' or 'survived', for the question's check run on the
    answer cell `source`; how it was killed ('fixed' case, generated 'search', 'other' requirement, or the
    cell itself failing) and the counterexample the learner would read."""
    from packer.checking import PASSED, TIME_LIMIT, evaluate

    try:
        defined = namespace(answer, source)[answer.name]
    except Exception as error:  # the cell itself fails: the learner's notebook gets no answer at all
        return "killed", "cell", f"the cell raised {type(error).__name__}: {error}"
    result = evaluate(checked(answer.qid), defined, TIME_LIMIT)
    if result.status == PASSED and result.points == result.max_points:
        return "survived", "", ""
    if result.detail.startswith("stopped:"):
        return "timeout", "", result.counterexample or ""
    how = "fixed" if result.detail.startswith("fixed case") else "search" if "generated" in result.detail else "other"
    return "killed", how, result.counterexample or result.detail


def _run_one(task: tuple[Answer, str]) -> tuple[str, str, str]:
    return outcome(*task)


def run_all(
    tasks: Sequence[tuple[Answer, str]], jobs: int, progress: Callable[[int, int], None] = lambda *_: None
) -> list[tuple[str, str, str]]:
    """The outcome of every (answer, mutant source), in order, in `jobs` fresh worker processes (spawned, not
    forked, so that only the notebooks' own imports are loaded there; see answers.namespace)."""
    results = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        for index, result in enumerate(pool.map(_run_one, tasks, chunksize=4)):
            results.append(result)
            progress(index + 1, len(tasks))
    return results


def report(
    qids: Sequence[str],
    found: dict[str, Answer],
    mutants: dict[str, list[LearnerMutant]],
    outcomes: dict[str, list[tuple[str, str, str]]],
    equivalents: Sequence[Equivalent],
) -> tuple[str, bool]:
    """The score table per question, the surviving mutants and the explained ones; and whether all is well.
    `fixed` and `search` split the killed mutants by what caught them: a fixed case, or the generated search."""
    header = f"{'question':<9}{'function':<20}{'mutants':>8}{'killed':>8}{'fixed':>7}{'search':>8}"
    lines = [header + f"{'equivalent':>12}{'survived':>10}{'score':>8}"]
    totals = [0] * 6
    gaps: list[tuple[str, LearnerMutant]] = []
    explained: list[tuple[str, LearnerMutant, Equivalent]] = []
    timeouts: list[tuple[str, LearnerMutant, str]] = []
    searched: list[tuple[str, LearnerMutant, str]] = []
    used: set[int] = set()
    for qid in qids:
        mine = list(zip(mutants[qid], outcomes[qid]))
        killed = sum(1 for _, (status, _, _) in mine if status in ("killed", "timeout"))
        fixed = sum(1 for _, (status, how, _) in mine if status == "killed" and how == "fixed")
        searched += [(qid, m, shown) for m, (status, how, shown) in mine if status == "killed" and how == "search"]
        timeouts += [(qid, m, shown) for m, (status, _, shown) in mine if status == "timeout"]
        equivalent = 0
        for m, (status, _, _) in mine:
            if status != "survived":
                continue
            entry = next((e for e in equivalents if e.matches(qid, m)), None)
            if entry is None:
                gaps.append((qid, m))
            else:
                explained.append((qid, m, entry))
                used.add(id(entry))
                equivalent += 1
        search = sum(1 for q, _, _ in searched if q == qid)
        counts = (len(mine), killed, fixed, search, equivalent, len(mine) - killed - equivalent)
        totals = [t + c for t, c in zip(totals, counts)]
        lines.append(_row(qid, checked(qid).name, *counts))
    lines.append(_row("total", "", *totals))
    stale = [e for e in equivalents if id(e) not in used and any(q in qids for q in e.questions)]

    def where(qid: str, m: LearnerMutant) -> str:
        answer = found[qid]
        return f"{qid}  {answer.notebook} cell {answer.cell} line {m.line}  {m.function}  {m.operator}: {m.change}"

    lines += ["", f"Surviving mutants (wrong answers that keep full marks): {len(gaps) or 'none'}"]
    lines += [f"  {where(q, m)}" for q, m in gaps]
    lines += ["", f"Equivalent, explained (tests/mutation/{EQUIVALENT.name}): {len(explained) or 'none'}"]
    lines += [f"  {where(q, m)}\n      why: {e.why}" for q, m, e in explained]
    if searched:
        lines += ["", "Caught by the generated search alone (a learner sees a generated counterexample):"]
        lines += [f"  {where(q, m)}\n      input: {shown}" for q, m, shown in searched]
    if timeouts:
        lines += ["", "Stopped by the check's time limit (counted as killed):"]
        lines += [f"  {where(q, m)}\n      input: {shown}" for q, m, shown in timeouts]
    if stale:
        lines += ["", f"Stale entries in {EQUIVALENT.name} (no surviving mutant matches them; remove or fix):"]
        lines += [f"  {', '.join(e.questions)}  {e.function}: {e.change}" for e in stale]
    return "\n".join(lines), not gaps and not stale


def _row(qid: str, name: str, total: int, killed: int, fixed: int, search: int, equivalent: int, left: int) -> str:
    behaviour = total - equivalent
    score = f"{killed / behaviour:.1%}" if behaviour else "-"
    return f"{qid:<9}{name:<20}{total:>8}{killed:>8}{fixed:>7}{search:>8}{equivalent:>12}{left:>10}{score:>8}"


def main(argv: list[str] | None = None) -> int:
    """Mutate every worked answer, run its question's check on each mutant and print the score."""
    parser = argparse.ArgumentParser(prog="python tests/mutation/check_score.py", description=main.__doc__)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: cores)")
    parser.add_argument("questions", nargs="*", help="question or write point ids to measure (default: all of them)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be a positive int, got {args.jobs}")
    found = all_answers(ROOT)
    unknown = [q for q in args.questions if q not in found]
    if unknown:
        parser.error(f"not a graded question or write point: {', '.join(unknown)} (choose from {', '.join(found)})")
    qids = args.questions or list(found)
    equivalents = load_equivalents(EQUIVALENT)
    started = time.monotonic()
    baseline = run_all([(found[q], found[q].source) for q in qids], args.jobs)
    failing = [q for q, (status, _, _) in zip(qids, baseline) if status != "survived"]
    if failing:
        print(f"The worked answers of {', '.join(failing)} do not get full marks; fix that first.")
        return 2
    mutants = {qid: question_mutants(qid, found) for qid in qids}
    tasks = [(found[qid], m.source) for qid in qids for m in mutants[qid]]
    print(f"{len(tasks)} mutants of the worked answers to {len(qids)} questions; {args.jobs} jobs", flush=True)

    def progress(done: int, total: int) -> None:
        if done % 100 == 0 or done == total:
            print(f"  {done}/{total} mutants checked", flush=True)

    flat = run_all(tasks, args.jobs, progress)
    outcomes, at = {}, 0
    for qid in qids:
        outcomes[qid], at = flat[at : at + len(mutants[qid])], at + len(mutants[qid])
    text, ok = report(qids, found, mutants, outcomes, equivalents)
    print(f"({time.monotonic() - started:.0f} s)\n")
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\nInterrupted: nothing was written (mutants are compiled from memory only).", file=sys.stderr)
        sys.exit(130)
