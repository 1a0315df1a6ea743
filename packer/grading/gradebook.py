"""The gradebook folder: what it holds, whose it is, and updating it without losing anything.

A gradebook of ours is a folder whose grades.json this grader wrote; it lists every file the grader wrote
there (`gradebook.files`). The grader writes only those files, deletes only files on that list, and leaves
everything else (a TA's notes, nbgrader's folders) alone. Grading into an existing gradebook updates it:
the rows of the submissions graded now are replaced, every other row stays as it was, and the previous
grades.csv and grades.json are kept in backup/.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from packer.grading.exports import LmsSettings, lms_files
from packer.grading.gradebook_schema import check_gradebook, edited_totals
from packer.grading.layouts import GONE, is_gone, lms_id
from packer.grading.lock import LOCK_NAME
from packer.grading.escaping import csv_text
from packer.grading.outcome import DID_NOT_RUN, RESULT_FIELDS, Outcome, qid_order
from packer.grading.running import GRADER_ROOT, Options

FORMAT = 2  # grades.json layout version
FILE_LIKE = (".csv", ".json", ".md", ".txt", ".xlsx", ".xls", ".html", ".pdf")  # never a gradebook folder's name


@dataclass
class Gradebook:
    """The rows, where their names are rooted, and what the grader wrote last time."""

    rows: dict[str, Outcome] = field(default_factory=dict)
    root: Path | None = None  # the folder row names start from (absolute: a copied gradebook still regrades)
    top: int = 1  # how many leading parts of a row name are the folder given
    files: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # class-wide notes about files changed during a run
    shard: dict[str, Any] | None = None  # a shard gradebook: which of how many, and the class it saw
    grader: dict[str, Any] | None = None  # what the rows were graded with, when not this run (a merge)
    lms: dict[str, Any] = field(default_factory=dict)  # how lms/ is written: LmsSettings' fields, kept across runs
    due: str = ""  # the due date rows were judged late by (ISO 8601), kept across runs until --due changes it
    edited: dict[str, str] = field(default_factory=dict)  # rows read with a total changed by hand, and how


def checks_version() -> str:
    """A digest of the grader's packer sources: the same digest means the same checks and references."""
    digest = hashlib.sha256()
    package = GRADER_ROOT / "packer"
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def check_out_path(out: Path) -> None:
    """A ValueError when `out` is a file, or a new name that looks like one."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out: {out} is a file; give a folder for grades.csv, grades.json and feedback/")
    if not out.exists() and out.suffix.lower() in FILE_LIKE:
        raise ValueError(
            f"--out: {out} looks like a file name; --out is the folder that will hold grades.csv, "
            "grades.json and feedback/"
        )


def holds_nothing(out: Path) -> bool:
    """Whether a gradebook folder is missing, or holds nothing but our lock and a crashed run's journal."""
    return not out.exists() or not any(p.name not in UNLISTED for p in out.iterdir())


def open_gradebook(out: Path) -> Gradebook | None:
    """The gradebook already in `out` (None when `out` is new or empty); a ValueError, before any grading,
    when `out` is a file or a non-empty folder that is not a gradebook of ours."""
    check_out_path(out)
    if holds_nothing(out):
        return None
    data = read_ours(out / "grades.json")
    if data is None:
        raise ValueError(
            f"--out: {out} is not empty and holds no gradebook written by this grader; give a new "
            "or empty folder (nothing in it was changed)"
        )
    check_gradebook(data, out / "grades.json")
    check_csv_unchanged(data, out)
    book = data.get("gradebook", {})
    root = Path(book["root"]) if "root" in book else None
    rows = {r["submission"]: from_row(r) for r in data["submissions"]} if data.get("format") == FORMAT else {}
    return Gradebook(
        rows,
        root,
        book.get("top", 1),
        list(book.get("files", [])),
        list(book.get("skipped", [])),
        list(book.get("changed_during_grading", [])),
        book.get("shard"),
        None,
        dict(book.get("lms", {})),
        book.get("due", ""),
        edited_totals(data) if data.get("format") == FORMAT else {},
    )


def check_csv_unchanged(data: dict[str, Any], out: Path) -> None:
    """A ValueError, before any grading, when grades.csv is not what the grader last wrote (a change made there
    would be written over): naming the first row and column that differ, where the gradebook tells."""
    wanted = data.get("gradebook", {}).get("csv_sha256")
    path = out / "grades.csv"
    if not wanted or not path.is_file():  # a gradebook from before the digest, or a CSV deleted: written afresh
        return
    found = path.read_bytes()
    if hashlib.sha256(found).hexdigest() == wanted:
        return
    where = ""
    if data.get("format") == FORMAT:
        rows = sorted((from_row(r) for r in data["submissions"]), key=lambda o: o.name)
        written = to_csv(rows)
        if hashlib.sha256(written.encode()).hexdigest() == wanted:  # grades.json unchanged: say where
            where = csv_difference(written, found.decode("utf-8-sig", errors="replace"))
    raise ValueError(
        f"{path}: changed since the grader wrote it{where}. grades.csv is written again from grades.json on every "
        f"run, so a change made there would be lost: make it in {out / 'grades.json'} (a test's score: the row's "
        "total and every lms/ file follow), then delete grades.csv (the next run writes it again); nothing was "
        "graded or written"
    )


def csv_difference(written: str, found: str) -> str:
    """Where two CSV texts first differ, as ' (line 3, "submissions/x.ipynb", column q1.2: "3", not "2" as written)'
    (a line is a CSV record: the header is line 1)."""
    import csv
    import io

    ours, theirs = list(csv.reader(io.StringIO(written))), list(csv.reader(io.StringIO(found)))
    for number, (mine, yours) in enumerate(zip(ours, theirs), start=1):
        if mine == yours:
            continue
        for column, (a, b) in enumerate(zip(mine, yours)):
            if a != b:
                name = json.dumps(mine[0], ensure_ascii=False)
                head = ours[0][column] if column < len(ours[0]) else str(column + 1)
                return f" (line {number}, {name}, column {head}: {json.dumps(b, ensure_ascii=False)}, not {json.dumps(a, ensure_ascii=False)} as written)"
        return f" (line {number}, {json.dumps(mine[0], ensure_ascii=False)}: a column added or removed)"
    return f" (it has {len(theirs)} lines where the grader wrote {len(ours)})" if len(ours) != len(theirs) else ""


def edited_warning(book: Gradebook, out: Path, regraded: set[str]) -> str:
    """The terminal's warning about kept rows whose total was changed by hand ("" when none): a row's score is
    the sum of its tests' scores, so the gradebook now holds that sum."""
    kept = {name: how for name, how in sorted(book.edited.items()) if name not in regraded}
    if not kept:
        return ""
    rows = "; ".join(f"{name}: {how}" for name, how in list(kept.items())[:3]) + (" …" if len(kept) > 3 else "")
    return (
        f"warning: {len(kept)} row{'s' if len(kept) > 1 else ''} of {out / 'grades.json'} had a total that is not the "
        f"sum of its tests' ({rows}); a row's score is always that sum, so the gradebook now holds it (the file as it "
        f"was is {out / 'backup' / 'grades.json'}). To change a grade by hand, change a test's score in the row"
    )


def read_ours(path: Path) -> dict | None:
    """The gradebook data in `path` (None when there is no such file, or it is JSON of another program's); a
    ValueError naming the line and column when it is not JSON (cut short, or broken by a hand edit). A byte-order
    mark, which Windows editors put before what they save, is read past: the same gradebook."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError:
        return None
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{path}: the gradebook cannot be read: it is not UTF-8 text (byte {error.start + 1} is not): it was "
            f"saved in another encoding. {restore_words(path)}"
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{path}: the gradebook cannot be read: it is not JSON at line {error.lineno}, column {error.colno} "
            f"({error.msg}): it was cut short or broken by a hand edit. {restore_words(path)}"
        ) from None
    return (
        data
        if isinstance(data, dict)
        and "checks_version" in data.get("grader", {})
        and isinstance(data.get("submissions"), list)
        else None
    )


def restore_words(path: Path) -> str:
    """What to do about a gradebook file that cannot be read: put back its backup, when there is one."""
    backup = path.parent / "backup" / path.name
    if backup.is_file():
        return (
            f"{backup} holds the gradebook as it was before the grader's last run there: put it back (then grade "
            "again what that run graded), or mend the file; nothing was graded or written"
        )
    return "Mend the file, or grade into a new folder; nothing was graded or written"


# --- the journal: finished rows on disk before the gradebook is written ---------------------------------------
JOURNAL_NAME = ".grading-journal.jsonl"  # ours; there only while a run grades, or after one crashed
UNLISTED = (LOCK_NAME, JOURNAL_NAME)  # files of ours that are never gradebook files nor content of the folder


class Journal:
    """Each row as it is graded, one JSON line, flushed to disk: a run that crashes before writing the gradebook
    leaves its finished rows for the next run into the same folder to reuse instead of regrading them."""

    def __init__(self, out: Path, rows: list[Outcome]):
        out.mkdir(parents=True, exist_ok=True)
        self.path = out / JOURNAL_NAME
        self.stream = self.path.open("w", encoding="utf-8")
        self.rows = 0
        for row in rows:
            self.add(row)

    def add(self, row: Outcome) -> None:
        """Record one finished row (before complete_rows: as the worker gave it)."""
        self.stream.write(json.dumps(to_row(row), ensure_ascii=False) + "\n")
        self.rows += 1
        self.stream.flush()
        os.fsync(self.stream.fileno())

    def close(self, keep: bool) -> None:
        """Close it; remove it unless `keep` (a run that did not finish cleanly keeps it for the next)."""
        self.stream.close()
        if not keep or not self.rows:
            self.path.unlink(missing_ok=True)


def read_journal(out: Path) -> dict[str, Outcome]:
    """The rows a crashed run journaled in `out` ({} when none); a line cut short by the crash is ignored."""
    rows = {}
    try:
        lines = (out / JOURNAL_NAME).read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    for line in lines:
        try:
            row = from_row(json.loads(line))
        except (ValueError, KeyError, TypeError):
            continue
        rows[row.name] = row
    return rows


# --- a regrade: what this run searched ---------------------------------------------------------------------
def searched_prefixes(paths: list[Path], root: Path) -> list[str]:
    """The row-name prefix of each path searched ("" when it is the naming root itself)."""
    prefixes = []
    for path in paths:
        relative = path.relative_to(root).as_posix()
        prefixes.append("" if relative == "." else relative)
    return prefixes


def under(name: str, prefixes: list[str]) -> bool:
    """True when row name (or skipped-file line) `name` lies under one of the searched prefixes."""
    return any(not p or name == p or name.startswith(p + "/") or name.startswith(p + ":") for p in prefixes)


def mark_gone(rows: dict[str, Outcome], found: set[str], prefixes: list[str], root: Path | None = None) -> list[str]:
    """Flag every kept row whose folder was searched again and whose file is no longer there, and (given the root
    row names start from) every other kept row whose file is not on disk: a row added by hand for a file that does
    not exist is gone too, so it never supersedes a submission that is there."""
    gone = []
    for name, row in rows.items():
        if name in found or (not under(name, prefixes) and (root is None or on_disk(root, name))):
            continue
        gone.append(name)
        if not is_gone(row):
            row.flags.append(
                f"{GONE}not found when its folder was graded again; this row is from an earlier run and no file "
                "in lms/ holds it (an LMS keeps a grade an earlier import gave it: remove that by hand if the "
                "submission was withdrawn; grade the file again if it was only moved)"
                if under(name, prefixes)
                else f"{GONE}no such file under {root}; this row is from an earlier run or was added by hand, and no "
                "file in lms/ holds it (grade the file again if it was only moved)"
            )
    return sorted(gone)


def on_disk(root: Path, name: str) -> bool:
    """Whether a row's file is there: the file itself, or the archive it was read from (`ps1.zip/ex.ipynb`)."""
    path = root
    for part in PurePosixPath(name).parts:
        path = path / part
        if path.is_file():
            return True
    return False


# --- rows as data ---------------------------------------------------------------------------------------------
def to_row(o: Outcome) -> dict[str, Any]:
    """One submission in grades.json (fields follow common autograder formats: score, max_score, tests)."""
    from packer.grading.reports import result_text

    return {
        "submission": o.name,
        "learner": o.learner,
        "lms": o.lms,
        "late": o.late,
        "submitted_at": o.submitted_at,
        "file_time": o.file_time,
        "superseded_by": o.superseded_by,
        "sha256": o.sha256,
        "lesson": o.lesson,
        "status": o.status,
        "score": o.score,
        "max_score": o.max_score,
        "flags": o.flags,
        "notes": o.notes,
        "output": "\n".join([f"status: {o.status}"] + o.flags + o.notes),
        "checks_version": o.checks_version,
        "containment": o.containment,
        "written": o.written,
        "tests": [
            {
                "name": f"{r['qid']} {r['name']}",
                "function": r["name"],
                "qid": r["qid"],
                "status": r["status"],
                "score": r["points"],
                "max_score": r["max_points"],
                "output": result_text(r),
                **{k: r.get(k) for k in RESULT_FIELDS if k not in ("qid", "name", "status", "points", "max_points")},
            }
            for r in o.results
        ],
    }


def from_row(row: dict[str, Any]) -> Outcome:
    """The Outcome a grades.json row was written from."""
    results = [
        {
            "qid": t["qid"],
            "name": t.get("function", t["name"].split(" ", 1)[-1]),
            "status": t["status"],
            "points": t["score"],
            "max_points": t["max_score"],
            **{k: t.get(k) for k in ("detail", "counterexample", "expected", "actual")},
            "tried": t.get("tried", 0),
            "printed": t.get("printed", ""),
            "printed_lines": t.get("printed_lines", 0),
        }
        for t in row.get("tests", [])
    ]
    return Outcome(
        row["submission"],
        "",
        row.get("sha256", ""),
        row.get("lesson", ""),
        row["status"],
        results,
        list(row.get("flags", [])),
        list(row.get("notes", [])),
        row.get("learner", ""),
        bool(row.get("late", False)),
        list(row.get("written", [])),
        row.get("checks_version", ""),
        row.get("containment", ""),
        dict(row.get("lms", {})),
        row.get("submitted_at", ""),
        row.get("file_time", ""),
        row.get("superseded_by", ""),
    )


# Notes that say why a row lost points without a wrong answer: grades.csv's flags column repeats them.
STOPPED = ("ran past", "the kernel died", "ignored the interrupt", "cannot tell which lesson")


def csv_flags(o: Outcome) -> str:
    """grades.csv's flags column: the row's flags, then what kept it from being graded in full, as its notes in
    grades.json say: why it was unreadable, a time limit, a kernel that died, a question whose answer did not run."""
    reasons = list(o.flags)
    if o.status in ("unreadable", "grader error") and o.notes:
        reasons.append(o.notes[0])  # the first note says why (problem_outcome)
    reasons += [note for note in o.notes if any(words in note for words in STOPPED)]
    reasons += [f"{r['qid']} {r['detail']}" for r in o.results if r["status"] == DID_NOT_RUN]
    return "; ".join(reasons)


def to_csv(outcomes: list[Outcome]) -> str:
    """One row per submission: learner, the course tool's id for them, late, when handed in, whether it
    counts, points per question id, total, max, status and flags (csv_flags), as CSV (escaping.csv_text)."""
    qids = sorted({r["qid"] for o in outcomes for r in o.results}, key=qid_order)
    head = ["submission", "learner", "lms", "lms_id", "late", "submitted_at", "counts", "lesson", "status"]
    rows = [[*head, *qids, "total", "max", "flags"]]
    for o in outcomes:
        points = {r["qid"]: r["points"] for r in o.results}
        rows.append(
            [
                o.name,
                o.learner,
                o.lms.get("tool", ""),
                lms_id(o.lms),
                "late" if o.late else "",
                o.submitted_at,
                f"superseded by {o.superseded_by}" if o.superseded_by else "yes",
                o.lesson,
                o.status,
                *[points.get(q, "") for q in qids],
                o.score,
                o.max_score,
                csv_flags(o),
            ]
        )
    return csv_text(rows)


def grader_section(options: Options) -> dict[str, Any]:
    """What this grader grades with: the checks' digest, the versions that decide a verdict (and the one that
    draws the report's figures), the options."""
    import hypothesis
    import matplotlib

    return {
        "checks_version": checks_version(),
        "python": platform.python_version(),
        "hypothesis": hypothesis.__version__,
        "matplotlib": matplotlib.__version__,
        "cell_timeout": options.cell_timeout,
        "notebook_timeout": options.notebook_timeout,
        "wall_factor": options.wall_factor,
        "questions": list(options.questions) or "all",
        "lesson": options.lesson or "from each notebook",
    }


def options_of(grader: dict[str, Any]) -> Options:
    """The Options a grader section records (the inverse of grader_section, for a merge)."""
    questions = grader.get("questions", "all")
    lesson = grader.get("lesson", "")
    return Options(
        grader["cell_timeout"],
        grader["notebook_timeout"],
        () if questions == "all" else tuple(questions),
        "" if lesson == "from each notebook" else lesson,
        wall_factor=grader.get("wall_factor", Options.wall_factor),  # a gradebook from before December 2026 has none
    )


def to_json(book: Gradebook, options: Options, out: Path, files: list[str]) -> dict[str, Any]:
    """The whole gradebook as data, with what it was graded with (for an audit) and what the grader wrote."""
    section = {
        "root": str(book.root or ""),
        "top": book.top,
        "files": files,
        "skipped": book.skipped,
        "changed_during_grading": book.changed,
        "lms": book.lms,
        "due": book.due,
        # what grades.csv held when written, so a change made there is noticed before it is written over
        "csv_sha256": hashlib.sha256(to_csv(sorted(book.rows.values(), key=lambda o: o.name)).encode()).hexdigest(),
    }
    if book.shard is not None:
        section["shard"] = book.shard
    return {
        "format": FORMAT,
        "grader": book.grader or grader_section(options),
        "gradebook": section,
        "submissions": [to_row(o) for o in sorted(book.rows.values(), key=lambda o: o.name)],
    }


# --- writing --------------------------------------------------------------------------------------------------
def write_gradebook(book: Gradebook, options: Options, out: Path, previous: Gradebook | None) -> list[str]:
    """Write every file of the gradebook into `out`; returns the files written. Each file is replaced whole;
    everything is staged (one file in memory at a time) before the first file is replaced, grades.csv is
    replaced last, and files the grader did not write are never touched."""
    from packer.grading.reports import gradebook_files

    out.mkdir(parents=True, exist_ok=True)
    outcomes = sorted(book.rows.values(), key=lambda o: o.name)
    ours = set(previous.files if previous else []) | {"grades.json", "grades.csv"}
    names: list[str] = []
    staged: list[tuple[Path, Path]] = []

    def stage(name: str, data: bytes) -> None:
        _safe(out, name)
        if name not in ours and (out / name).exists():
            raise ValueError(f"--out: {out / name} exists and was not written by this grader; nothing was changed")
        names.append(name)
        target = out / name
        if target.is_file() and target.stat().st_size == len(data) and target.read_bytes() == data:
            return  # unchanged: leave the file (and its time stamp) alone
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        temporary.write_bytes(data)
        staged.append((temporary, target))

    try:
        for name, data in gradebook_files(outcomes):
            stage(name, data)
        for name, data in lms_files(outcomes, LmsSettings(**book.lms)):
            stage(name, data)
        stage("grades.csv", to_csv(outcomes).encode("utf-8"))
        for name in ("grades.json", "grades.csv") if previous is not None else ():
            if (out / name).is_file():
                stage(f"backup/{name}", (out / name).read_bytes())
        listed = sorted([*names, "grades.json"])
        stage(
            "grades.json",
            (json.dumps(to_json(book, options, out, listed), indent=2, ensure_ascii=False) + "\n").encode("utf-8"),
        )
    except BaseException:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise
    staged.sort(key=lambda pair: pair[1].name == "grades.csv")  # the CSV last: it is what most people open
    for temporary, target in staged:
        os.replace(temporary, target)
    for name in sorted(set(previous.files if previous else []) - set(names)):  # ours, and no longer produced
        if _safe(out, name, strict=False) and (out / name).is_file():
            (out / name).unlink()
    return sorted(names)


def _safe(out: Path, name: str, strict: bool = True) -> bool:
    """True when `name` stays inside `out` (a ValueError, when strict, otherwise)."""
    parts = PurePosixPath(name).parts
    ok = bool(parts) and not name.startswith("/") and ".." not in parts
    if not ok and strict:
        raise ValueError(f"refusing to write outside the gradebook: {name}")
    return ok
