"""Finding a class's submissions on disk: which files are notebooks, whose they are, and reading one.

Course tools lay submissions out in their own ways (packer.grading.layouts reads whose each one is and when it
was handed in); every notebook found gets a row, every other file is
listed as skipped (never silently dropped), and Mac/Jupyter litter (`__MACOSX/`, `._*`, checkpoints, the self-checks' `.hypothesis/`) is
ignored. A zip archive is opened in place: each notebook inside it is a submission of the learner the
archive is named after. Rows are named from the folder given, its own name included
(`submissions/alice/ex.ipynb`), so a learner's name survives even when one folder or file is graded alone.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import sys
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, UTC
from pathlib import Path, PurePosixPath

from packer.grading.layouts import NBGRADER_COURSE, NOTEBOOK_SUFFIXES, identify

# NOTEBOOK_SUFFIXES are compared case-blind: `.IPYNB` counts
# .hypothesis: what the exercises' self-checks leave in the learner's folder; .virtual_documents: JupyterLab's.
LITTER_DIRS = {
    "__macosx",
    ".ipynb_checkpoints",
    "__pycache__",
    ".git",
    ".hypothesis",
    ".pytest_cache",
    ".virtual_documents",
}
# timestamp.txt: nbgrader's own; submission_metadata.yml: Gradescope's export (both read by packer.grading.layouts)
LITTER_FILES = {".ds_store", "thumbs.db", "desktop.ini", "timestamp.txt", "submission_metadata.yml"}


@dataclass
class Submission:
    """One notebook to grade (or one file that claims to be a submission), as found on disk."""

    name: str  # the row's name: a path from the folder given, `archive.zip/inner.ipynb` inside a zip
    path: str  # the file on disk (the archive, for a notebook inside a zip)
    member: str = ""  # the notebook's path inside the archive
    learner: str = ""
    late: bool = False
    problem: str = ""  # why it cannot be run, known before reading it ("" when none)
    lms: dict[str, str] = field(default_factory=dict)  # the course tool's own ids (packer.grading.layouts)
    submitted_at: str = ""  # when the layout says it was handed in (ISO 8601, UTC)
    file_time: str = ""  # the file's own modification time (ISO 8601, UTC)
    assignment: str = ""  # the assignment the layout files it under ("" when it has none)
    note: str = ""  # what the layout should have said and did not (packer.grading.layouts.Identity.note)


def is_notebook_name(name: str) -> bool:
    """True for `x.ipynb`, `x.IPYNB`, `x.ipynb.json` and the like."""
    return name.lower().endswith(NOTEBOOK_SUFFIXES)


def is_litter(parts: tuple[str, ...]) -> bool:
    """Files a Mac, Jupyter or nbgrader leaves beside the work: never a submission, never worth a warning."""
    return (
        any(p.lower() in LITTER_DIRS for p in parts[:-1])
        or parts[-1].startswith("._")
        or parts[-1].lower() in LITTER_FILES
    )


def check_paths(paths: list[str]) -> list[Path]:
    """Each path as an absolute Path; a ValueError naming the first one that does not exist."""
    checked = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise ValueError(f"submissions: {raw} does not exist")
        checked.append(path.resolve())
    return checked


def naming_root(paths: list[Path]) -> tuple[Path, int]:
    """The folder rows are named from, and how many leading parts of a row name are the folder given:
    above the one folder given (so its name stays in every row: 1), or the common folder of several (0)."""
    anchors = sorted({p if p.is_dir() else p.parent for p in paths})
    common = Path(os.path.commonpath(anchors))
    return (common.parent, 1) if len(anchors) == 1 else (common, 0)


def find_submissions(paths: list[Path], root: Path, top: int) -> tuple[list[Submission], list[str]]:
    """Every submission under the given paths, named from `root`; and every file skipped, with why."""
    found: dict[str, Submission] = {}
    skipped: list[str] = []
    for path in paths:
        files = [path] if path.is_file() else sorted(_walk(path))
        for file in files:
            name = file.relative_to(root).as_posix()
            if file != path and is_litter(tuple(PurePosixPath(name).parts)):
                continue
            if file.name.lower().endswith(".zip"):
                for submission in _archive(file, name, skipped):
                    found[submission.name] = submission
            elif is_notebook_name(file.name) or file == path:  # a file named on the command line is graded
                found[name] = Submission(name, str(file))
            else:
                skipped.append(f"{name}: not a notebook (.ipynb, .ipynb.json) or a .zip")
    submissions = sorted(found.values(), key=lambda s: s.name)
    for submission in submissions:
        who = identify(submission.name, top, len(submissions) == 1, functools.partial(_nearby, root, submission))
        submission.learner, submission.late, submission.lms = who.learner, who.late, who.lms
        submission.submitted_at, submission.assignment, submission.note = who.submitted_at, who.assignment, who.note
        submission.file_time = _file_time(submission)
    return submissions, skipped


def course_submissions(paths: list[Path]) -> list[Path]:
    """Each path, with an nbgrader course folder replaced by its learners' folder (see nbgrader_course), said
    on the terminal; a ValueError for a course folder with nothing handed in."""
    checked = []
    for path in paths:
        submitted = nbgrader_course(path)
        if submitted is None:
            checked.append(path)
        elif submitted == path:
            raise ValueError(
                f"submissions: {path} is an nbgrader course folder (it holds source/, release/ or outbound/) "
                "with no submitted/ or inbound/ folder; nothing has been handed in or collected yet"
            )
        elif submitted.name == "inbound":
            print(
                f"note: {path} is an nbgrader exchange folder; grading only its inbound/ "
                "(outbound/ holds the released notebooks, feedback/ what went back to learners)",
                file=sys.stderr,
            )
        else:
            print(
                f"note: {path} is an nbgrader course folder; grading only its submitted/ "
                "(source/, release/ and the rest are the instructor's, not learners')",
                file=sys.stderr,
            )
        if submitted is not None:
            checked.append(submitted)
    return checked


def nbgrader_course(folder: Path) -> Path | None:
    """The learners' folder of an nbgrader course folder: `submitted/` of an instructor's course folder (one
    holding `source/` or `release/`), `inbound/` of a course's exchange folder (one holding `outbound/`, the
    released notebooks, or `feedback/` beside `inbound/`); the folder itself when it has none; None for any
    other folder."""
    if not folder.is_dir():
        return None
    if any((folder / name).is_dir() for name in NBGRADER_COURSE):
        return folder / "submitted" if (folder / "submitted").is_dir() else folder
    if any((folder / name).is_dir() for name in ("outbound", "feedback")):
        return folder / "inbound" if (folder / "inbound").is_dir() else folder
    return None


def _nearby(root: Path, submission: Submission, name: str) -> bytes | None:
    """A file near a submission by its row-name path: on disk, or inside the submission's own archive."""
    try:
        if submission.member:
            archive_name = submission.name[: -len(submission.member) - 1]
            if name.startswith(archive_name + "/"):
                with zipfile.ZipFile(submission.path) as archive:
                    return archive.read(name[len(archive_name) + 1 :])
        path = root / name
        return path.read_bytes() if path.is_file() else None
    except (OSError, KeyError, zipfile.BadZipFile):
        return None


def _file_time(submission: Submission) -> str:
    """The file's modification time in UTC (a zip member's recorded time, taken as UTC); "" when unknown."""
    try:
        if submission.member:
            with zipfile.ZipFile(submission.path) as archive:
                stamp = datetime(*archive.getinfo(submission.member).date_time, tzinfo=UTC)
        else:
            stamp = datetime.fromtimestamp(os.stat(submission.path).st_mtime, tz=UTC)
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return ""
    return stamp.isoformat()


def _walk(folder: Path):
    """Files under a folder, without descending into litter folders."""
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d.lower() not in LITTER_DIRS)
        for file in files:
            yield Path(here) / file


def _archive(file: Path, name: str, skipped: list[str]) -> list[Submission]:
    """The notebooks inside a zip, each named `name/member`; a row with the problem when there are none."""
    try:
        with zipfile.ZipFile(file) as archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
    except (zipfile.BadZipFile, OSError) as error:
        return [Submission(name, str(file), problem=f"not a readable zip archive: {error}")]
    found = []
    for member in members:
        parts = tuple(PurePosixPath(member.filename).parts)
        if not parts or is_litter(parts):
            continue
        if member.filename.startswith("/") or ".." in parts:
            skipped.append(f"{name}/{member.filename}: unsafe path inside the archive")
        elif is_notebook_name(parts[-1]):
            found.append(Submission(f"{name}/{member.filename}", str(file), member=member.filename))
        else:
            skipped.append(
                f"{name}/{member.filename}: not a notebook (inside the archive; archives are not "
                "opened inside archives)"
                if parts[-1].lower().endswith(".zip")
                else f"{name}/{member.filename}: not a notebook (inside the archive)"
            )
    return found or [Submission(name, str(file), problem="the archive holds no notebook")]


def read_bytes(submission: Submission) -> bytes:
    """The submitted file's bytes (from inside its archive for a zipped notebook)."""
    if submission.member:
        with zipfile.ZipFile(submission.path) as archive:
            return archive.read(submission.member)
    return Path(submission.path).read_bytes()


def digest(submission: Submission) -> str:
    """The sha256 of the submitted file, read in blocks (memory stays small whatever its size)."""
    sha = hashlib.sha256()
    if submission.member:
        with zipfile.ZipFile(submission.path) as archive, archive.open(submission.member) as stream:
            for block in iter(lambda: stream.read(1 << 20), b""):
                sha.update(block)
        return sha.hexdigest()
    with open(submission.path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


CELL_ID = re.compile(r"^[a-zA-Z0-9-_]{1,64}$")  # nbformat 4.5's rule for a cell id


def _give_cell_ids(cells: list[dict]) -> None:
    """Give every cell without a valid id of its own one, quietly. nbformat 4.5 made cell ids required and
    unique (https://nbformat.readthedocs.io/en/latest/format_description.html#cell-ids); a notebook written by
    an older tool or by hand lacks them, and nbformat then warns (MissingIDFieldWarning, DuplicateCellId) once
    per process without naming the notebook. A cell's id is never graded."""
    seen: set[str] = set()
    for index, cell in enumerate(cells):
        given = cell.get("id")
        if not isinstance(given, str) or not CELL_ID.match(given) or given in seen:
            given = next(f"grader-{index}-{n}" for n in range(len(cells) + 1) if f"grader-{index}-{n}" not in seen)
            cell["id"] = given
        seen.add(given)


def parse_stripped(data: bytes):
    """The notebook in `data` with every saved output and attachment dropped (they are never graded),
    validated; raises on anything that is not a notebook."""
    import nbformat

    raw = json.loads(data.decode("utf-8"))
    del data
    if isinstance(raw, dict):
        cells = (
            [cell for cell in raw.get("cells", []) if isinstance(cell, dict)]
            if isinstance(raw.get("cells"), list)
            else []
        )
        for cell in cells:
            if cell.get("cell_type") == "code":
                cell["outputs"], cell["execution_count"] = [], None
            cell.pop("attachments", None)
        if raw.get("nbformat") == 4 and isinstance(raw.get("nbformat_minor"), int) and raw["nbformat_minor"] >= 5:
            _give_cell_ids(cells)
        if isinstance(raw.get("metadata"), dict):
            raw["metadata"].pop("widgets", None)
    notebook = nbformat.reads(json.dumps(raw), as_version=4)
    nbformat.validate(notebook)
    return notebook
