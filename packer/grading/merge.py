"""Merge the gradebooks of a class graded in shards into the gradebook of the whole class.

    python -m packer.grading.merge SHARD_GRADEBOOK... --out DIR

Each SHARD_GRADEBOOK is the --out folder of one `python -m packer.grading ... --shard K/N` run. The merge
checks, before writing anything, that it has every shard 1..N exactly once, that all of them saw the same
class and were graded with the same checks, versions and options, and that no submission is in two of
them; then it writes DIR exactly as one run over the whole class would have (byte for byte), following the
grader's rules for --out: a new or empty folder, or a gradebook of ours, which is updated like a regrade.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from packer.grading import exit_with
from packer.grading.gradebook import (
    FORMAT,
    Gradebook,
    read_ours,
    check_out_path,
    checks_version,
    edited_warning,
    from_row,
    holds_nothing,
    open_gradebook,
    options_of,
    read_journal,
    write_gradebook,
)
from packer.grading.escaping import terminal
from packer.grading.grader import complete_rows
from packer.grading.gradebook_schema import check_gradebook
from packer.grading.interrupts import no_interrupts
from packer.grading.layouts import mark_superseded
from packer.grading.lock import gradebook_lock
from packer.grading.outcome import Outcome
from packer.grading.shards import class_digest, shard_of

Shards = list[tuple[Path, dict[str, Any]]]  # each shard gradebook's folder and grades.json, as given


def read_shard(folder: Path) -> dict[str, Any]:
    """A shard gradebook's grades.json; a ValueError naming the folder when it is not one."""
    if not folder.exists():
        raise ValueError(f"{folder}: no such folder (a shard gradebook is the --out folder of its grading run)")
    data = read_ours(folder / "grades.json") if folder.is_dir() else None
    if data is None and folder.is_dir() and holds_nothing(folder):
        graded = len(read_journal(folder))
        rows = f"the {graded} rows it graded are" if graded > 1 else "the row it graded is"
        kept = f"; {rows} kept in its journal for that run" if graded else ""
        raise ValueError(
            f"{folder}: no gradebook yet: this shard's grading stopped before it finished (cancelled, killed or "
            f"out of time){kept}; run that shard again (the same K of N; under Slurm --array=K with --shard auto/N) into the same --out, then merge"
        )
    if data is None or data.get("format") != FORMAT:
        raise ValueError(f"{folder}: not a gradebook written by this grader (no grades.json of ours in it)")
    check_gradebook(data, folder / "grades.json")
    if not isinstance(data.get("gradebook", {}).get("shard"), dict):
        raise ValueError(f"{folder}: a whole class's gradebook, not a shard's (graded without --shard K/N)")
    return data


def check_complete(shards: Shards) -> None:
    """Every shard 1..N exactly once, of one class, graded alike; a ValueError saying what is wrong."""
    (first, head), *rest = shards
    count = head["gradebook"]["shard"]["count"]
    seen: dict[int, Path] = {}
    for folder, data in shards:
        shard = data["gradebook"]["shard"]
        if shard["count"] != count:
            raise ValueError(
                f"{folder} is shard {shard['index']}/{shard['count']} but {first} is one of {count} "
                "shards; merge the shards of one run"
            )
        if shard["index"] in seen:
            raise ValueError(f"shard {shard['index']}/{count} given twice: {seen[shard['index']]} and {folder}")
        seen[shard["index"]] = folder
    missing = [str(k) for k in range(1, count + 1) if k not in seen]
    if missing:
        raise ValueError(
            f"missing shard{'s' if len(missing) > 1 else ''} {', '.join(missing)} of {count}; "
            "a merge needs every shard's gradebook"
        )
    for folder, data in rest:
        for key in sorted(set(head["grader"]) | set(data["grader"])):
            if head["grader"].get(key) != data["grader"].get(key):
                raise ValueError(
                    f"{folder} was graded with {key} {data['grader'].get(key)!r}, {first} with "
                    f"{head['grader'].get(key)!r}; regrade the shards with one grader and the same "
                    "options"
                )
        for key in ("root", "top", "skipped"):
            if head["gradebook"][key] != data["gradebook"][key]:
                raise ValueError(
                    f"{folder} and {first} name their rows differently ({key} differs); grade every "
                    "shard with the same submission paths"
                )
        if head["gradebook"]["shard"]["class_digest"] != data["gradebook"]["shard"]["class_digest"]:
            raise ValueError(
                f"{folder} and {first} saw different classes (submissions added, removed or renamed "
                "between the shards' runs); grade every shard from the same files"
            )


def merged_rows(shards: Shards) -> list[Outcome]:
    """Every shard's rows, each checked to be in its own shard and in no other; completed rows undone, so the
    whole class completes them again as one run would."""
    owner: dict[str, Path] = {}
    outcomes = []
    for folder, data in shards:
        shard = data["gradebook"]["shard"]
        completed = shard.get("completed", {})
        for row in data["submissions"]:
            name = row["submission"]
            if name in owner:
                raise ValueError(f"{name} is in two shards: {owner[name]} and {folder}")
            if shard_of(name, shard["count"]) != shard["index"]:
                raise ValueError(f"{folder}: {name} does not belong to shard {shard['index']}/{shard['count']}")
            owner[name] = folder
            outcome = from_row(row)
            if name in completed:
                outcome.lesson, outcome.results = completed[name], []
            outcomes.append(outcome)
    head = shards[0][1]["gradebook"]
    names = sorted(owner)
    if (
        len(names) != head["shard"]["class_submissions"]
        or class_digest(names, head["skipped"]) != head["shard"]["class_digest"]
    ):
        raise ValueError(
            f"the shards hold {len(names)} rows but the class they saw had "
            f"{head['shard']['class_submissions']} submissions (a shard gradebook was edited or "
            "regraded from other files); regrade the shards"
        )
    return sorted(outcomes, key=lambda o: o.name)


def check_out(out: Path, shards: Shards) -> Gradebook | None:
    """The gradebook already in --out (None when new or empty), by the grader's rules; never a shard's."""
    for folder, _ in shards:
        if out.resolve().is_relative_to(folder.resolve()):
            raise ValueError(f"--out: {out} is inside the shard gradebook {folder}; give a folder of its own")
    previous = open_gradebook(out)
    if previous and previous.shard:
        raise ValueError(
            f"--out: {out} holds the gradebook of shard {previous.shard['index']}/"
            f"{previous.shard['count']}; give a new folder or the whole class's gradebook"
        )
    head = shards[0][1]["gradebook"]
    if previous and previous.rows and (str(previous.root or "") != head["root"] or previous.top != head["top"]):
        raise ValueError(
            f"--out: {out} names its rows from {previous.root}, the shards from {head['root']}; merge into a new folder"
        )
    return previous


def _matplotlib_version() -> str:
    import matplotlib

    return matplotlib.__version__


def main(argv: list[str] | None = None) -> int:
    """Merge the shard gradebooks into --out; exit 0 when written, 2 (nothing written) when refused."""
    parser = argparse.ArgumentParser(prog="python -m packer.grading.merge", description=__doc__.splitlines()[0])
    parser.add_argument("shards", nargs="+", type=Path, help="the N shard gradebooks (each run's --out folder)")
    parser.add_argument(
        "--out", required=True, type=Path, help="gradebook folder: new, empty, or one of ours to update"
    )
    parser.add_argument(
        "--wait", action="store_true", help="when a grader is writing to --out, wait for it instead of stopping"
    )
    args = parser.parse_args(argv)
    try:
        shards = [(folder, read_shard(folder)) for folder in args.shards]
        check_complete(shards)
        grader = shards[0][1]["grader"]
        if grader["checks_version"] != checks_version():
            raise ValueError(
                "the shards were graded with other checks than this grader's (checks_version "
                f"{grader['checks_version'][:12]}…, here {checks_version()[:12]}…); merge with the "
                "grader that graded them"
            )
        drawn_with = grader.get("matplotlib")
        if drawn_with is not None and drawn_with != _matplotlib_version():
            raise ValueError(
                f"the shards drew their reports with matplotlib {drawn_with}, this merge has {_matplotlib_version()}: "
                "the merged report's figures would not match one run's byte for byte; merge in an environment made "
                "from the same constraints.txt as the shards'"
            )
        outcomes = merged_rows(shards)
        check_out_path(args.out)
        with gradebook_lock(args.out, args.wait):
            previous = check_out(args.out, shards)
            options = options_of(grader)
            complete_rows(outcomes, options, grader["checks_version"])
            head = shards[0][1]["gradebook"]
            book = previous or Gradebook()
            for outcome in outcomes:  # a regraded learner keeps the identity the gradebook gave them
                if outcome.name in book.rows:
                    outcome.learner = book.rows[outcome.name].learner or outcome.learner
                    outcome.late = book.rows[outcome.name].late
            book.root, book.top, book.skipped = (
                Path(head["root"]) if head["root"] else None,
                head["top"],
                head["skipped"],
            )
            book.changed = sorted({line for _, data in shards for line in data["gradebook"]["changed_during_grading"]})
            book.shard, book.grader = None, grader
            book.lms = book.lms or dict(head.get("lms", {}))
            kept = len(set(book.rows) - {o.name for o in outcomes})
            book.rows.update({o.name: o for o in outcomes})
            mark_superseded(list(book.rows.values()))  # across the shards: a learner's resubmissions may sit in two
            with no_interrupts():
                write_gradebook(book, options, args.out, previous)
    except ValueError as error:
        parser.error(terminal(str(error)))
    except KeyboardInterrupt:  # the writing itself holds Ctrl-C off, so this came before it
        print(
            f"interrupted: nothing was written{'; ' + str(args.out) + ' is as it was' if args.out.exists() else ''}",
            file=sys.stderr,
        )
        return 130
    kept_text = f"; kept {kept} row{'' if kept == 1 else 's'} of the previous gradebook" if previous else ""
    with no_interrupts():
        edited = edited_warning(previous, args.out, {o.name for o in outcomes}) if previous else ""
        if edited:
            print(terminal(edited), file=sys.stderr)
        print(
            f"merged {len(shards)} shards ({len(outcomes)} submissions){kept_text}; wrote {args.out / 'grades.csv'}, "
            f"{args.out / 'report.md'} and the rest of {args.out}/"
        )
    return 0


if __name__ == "__main__":
    exit_with(main())
