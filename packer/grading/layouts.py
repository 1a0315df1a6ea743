"""Whose a submission is, when it was handed in, and which one counts: each course tool's own layout.

Every rule below is for one tool and reads only what that tool writes:

- nbgrader, instructor's course folder: `submitted/<student>/<assignment>/<notebook>` with the
  `timestamp.txt` nbgrader's collect step writes beside it (also `autograded/`);
  https://nbgrader.readthedocs.io/en/stable/user_guide/managing_assignment_files.html
- nbgrader, the exchange: `<course>/inbound/<student>+<assignment>+<timestamp>[+<random>]/<notebook>`, as
  nbgrader's `ExchangeSubmit` names it (nbgrader/exchange/default/submit.py); `nbgrader collect` keeps the
  latest timestamp of each student, and so does this grader.
- Gradescope's "Export Submissions": `submission_<id>/` folders beside one `submission_metadata.yml` that
  names each folder's submitters (`:name:`, `:sid:`, `:email:`) and `:created_at:`.
- Moodle's "Download all submissions": `<Full name>_<participant id>_assignsubmission_<plugin>_/` folders,
  or the same prefix on each file when downloaded without folders.
- Canvas's "Download Submissions": `<lastnamefirstname>[_LATE]_<user id>_<attachment id>_<file>`; a file
  uploaded again under the same name gets `-1`, `-2`, … before its extension.
- Anything else: a folder per learner, or a file per learner in one folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, UTC
from pathlib import PurePosixPath

NOTEBOOK_SUFFIXES = (".ipynb", ".ipynb.json")
NBGRADER_FOLDERS = ("submitted", "autograded")
NBGRADER_COURSE = ("source", "release")  # beside submitted/ only in an instructor's nbgrader course folder
EXCHANGE = re.compile(r"^(?P<student>[^+]+)\+(?P<assignment>[^+]+)\+(?P<timestamp>[^+]+)(\+[^+]*)?$")
GRADESCOPE = re.compile(r"^submission_(?P<id>\d+)$")
MOODLE = re.compile(r"^(?P<learner>.+?)_(?P<id>\d+)_assignsubmission_[a-z]+_(?P<file>.*)$", re.I | re.S)
CANVAS = re.compile(r"^(?P<learner>[^_]+?)(?P<late>_late)?_(?P<id>\d+)_(?P<sub>\d+)_(?P<file>.+)$", re.I | re.S)
RESUBMISSION = re.compile(r"-(?P<n>\d+)(?:\.ipynb|\.ipynb\.json|\.zip)$", re.I)

Nearby = Callable[[str], "bytes | None"]  # a file's bytes by its row-name path (None when there is none)


@dataclass
class Identity:
    """Who handed a submission in, and what the layout says about when and where."""

    learner: str
    late: bool = False
    lms: dict[str, str] = field(default_factory=dict)  # the tool's own ids; "tool" names the tool
    submitted_at: str = ""  # ISO 8601 in UTC, where the layout records the time
    assignment: str = ""  # the assignment the layout files it under ("" when the layout has none)
    note: str = ""  # what the layout should have said and did not (a missing or unreadable timestamp.txt)


def identify(name: str, top: int = 1, alone: bool = False, nearby: Nearby = lambda _: None) -> Identity:
    """The identity of the submission whose row name is `name`, by the first tool's layout it matches."""
    parts = PurePosixPath(name).parts
    for rule in (_nbgrader_exchange, _nbgrader, _gradescope, _moodle, _canvas):
        found = rule(parts, nearby)
        if found is not None:
            return found
    rest = parts[top:]
    if len(rest) >= 2:
        return Identity(stem(rest[0]))
    if alone and top and len(parts) >= 2:  # the only notebook in the folder given: the folder is the learner's
        return Identity(parts[0])
    return Identity(stem(parts[-1]))


def _nbgrader_exchange(parts: tuple[str, ...], nearby: Nearby) -> Identity | None:
    for index, part in enumerate(parts[:-2]):
        match = EXCHANGE.match(parts[index + 1]) if part == "inbound" else None
        if match:
            lms = {"tool": "nbgrader", "student_id": match["student"], "assignment": match["assignment"]}
            return Identity(match["student"], False, lms, nbgrader_time(match["timestamp"]), match["assignment"])
    return None


def _nbgrader(parts: tuple[str, ...], nearby: Nearby) -> Identity | None:
    for index, part in enumerate(parts[:-2]):
        if part.lower() in NBGRADER_FOLDERS and len(parts) - index >= 4:
            student, assignment = parts[index + 1], parts[index + 2]
            stamp = nearby("/".join((*parts[: index + 3], "timestamp.txt")))
            text = stamp.decode("utf-8", "replace").strip() if stamp else ""
            when = nbgrader_time(text) if text else ""
            note = (
                "nbgrader's timestamp.txt is missing beside it: when it was handed in is unknown"
                if stamp is None
                else ""
                if when
                else f"nbgrader's timestamp.txt holds {text[:40]!r}, not a time: when it was handed in is unknown"
            )
            lms = {"tool": "nbgrader", "student_id": student, "assignment": assignment}
            return Identity(student, False, lms, when, assignment, note)
    return None


def _gradescope(parts: tuple[str, ...], nearby: Nearby) -> Identity | None:
    for index, part in enumerate(parts[:-1]):
        match = GRADESCOPE.match(part)
        if not match:
            continue
        lms = {"tool": "gradescope", "submission_id": match["id"]}
        entry = gradescope_entry(nearby("/".join((*parts[:index], "submission_metadata.yml"))), part)
        submitters = [s for s in entry.get(":submitters", []) or [] if isinstance(s, dict)]
        for key in ("name", "sid", "email"):
            values = [str(s.get(f":{key}") or "") for s in submitters]
            if any(values):
                lms[key] = " & ".join(v for v in values if v)
        created = entry.get(":created_at")
        when = iso_utc(created) if created else ""
        return Identity(lms.get("name") or lms.get("email") or lms.get("sid") or part, False, lms, when)
    return None


def _moodle(parts: tuple[str, ...], nearby: Nearby) -> Identity | None:
    for part in parts:
        match = MOODLE.match(part)
        if match:
            lms = {"tool": "moodle", "participant_id": match["id"], "name": match["learner"]}
            return Identity(match["learner"], False, lms)
    return None


def _canvas(parts: tuple[str, ...], nearby: Nearby) -> Identity | None:
    for part in parts:
        match = CANVAS.match(part)
        if match:
            again = RESUBMISSION.search(match["file"])
            lms = {
                "tool": "canvas",
                "user_id": match["id"],
                "attachment_id": match["sub"],
                "resubmission": again["n"] if again else "",
            }
            return Identity(match["learner"], bool(match["late"]), lms)
    return None


def stem(name: str) -> str:
    """A file name without its notebook or zip suffix."""
    lower = name.lower()
    for suffix in (*NOTEBOOK_SUFFIXES, ".zip"):
        if lower.endswith(suffix):
            return name[: -len(suffix)]
    return name


def gradescope_entry(data: bytes | None, folder: str) -> dict:
    """One submission folder's entry in Gradescope's submission_metadata.yml ({} when there is none)."""
    if not data:
        return {}
    import yaml

    try:
        metadata = yaml.safe_load(data.decode("utf-8", "replace"))
    except yaml.YAMLError:
        return {}
    entry = metadata.get(folder) if isinstance(metadata, dict) else None
    return entry if isinstance(entry, dict) else {}


# --- times ----------------------------------------------------------------------------------------------------
def nbgrader_time(text: str) -> str:
    """nbgrader's timestamp (`2026-11-20 14:03:12.123456 UTC`, its default format) as ISO 8601 in UTC; ""
    when it cannot be read."""
    pieces = text.split()
    if len(pieces) == 3 and pieces[2].upper() in ("UTC", "GMT", "Z"):
        text = " ".join(pieces[:2]) + "+00:00"
    return iso_utc(text)


def iso_utc(value: object) -> str:
    """A time (a datetime, or text in ISO 8601 or Gradescope's `2026-11-20 14:03:12.123456789 -0800`) as ISO
    8601 in UTC; a time without a zone is taken as UTC; "" when it cannot be read."""
    if isinstance(value, datetime):
        moment = value
    else:
        text = re.sub(r"(\.\d{6})\d+", r"\1", str(value).strip())  # nanoseconds: Python reads microseconds
        text = re.sub(r"\s+([+-]\d\d:?\d\d|Z)$", r"\1", text)
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def parse_due(text: str) -> datetime:
    """--due as a moment: ISO 8601 with a time and a zone (`2026-11-20T23:59+01:00`, `2026-11-20 22:59Z`); a
    ValueError otherwise (a date alone, or a time without a zone, could be read in more than one way)."""
    example = "e.g. 2026-11-20T23:59+01:00, or 2026-11-20T22:59Z for UTC"
    try:
        moment = datetime.fromisoformat(re.sub(r"\s*Z$", "+00:00", text.strip()))
    except ValueError:
        raise ValueError(f"--due: {text!r} is not a date and time in ISO 8601 ({example})") from None
    if "T" not in text and " " not in text.strip():
        raise ValueError(f"--due: {text!r} is a date without a time; give the time and the zone ({example})")
    if moment.tzinfo is None:
        raise ValueError(f"--due: {text!r} has no time zone; give one ({example})")
    return moment.astimezone(UTC)


def late_by(submitted_at: str, due: datetime) -> timedelta | None:
    """How late a submission handed in at `submitted_at` is for `due` (None when on time or unknown)."""
    if not submitted_at:
        return None
    delay = datetime.fromisoformat(submitted_at) - due
    return delay if delay > timedelta(0) else None


# --- which submission counts ----------------------------------------------------------------------------------
def lms_id(lms: dict[str, str]) -> str:
    """The id the course tool knows the learner by (Canvas user id, Moodle participant id, nbgrader student id,
    Gradescope sid, else email); "" when the layout gives none."""
    for key in ("user_id", "participant_id", "student_id", "sid", "email"):
        if lms.get(key):
            return lms[key]
    return ""


def learner_key(lms: dict[str, str], learner: str) -> str:
    """What says two rows are the same learner: the tool's own id where it gives one, else the name."""
    own = lms_id(lms)
    return f"{lms.get('tool', '')}:{own}" if own else f"name:{learner}"


GONE = "file gone: "  # the flag of a row whose file a full regrade of its folder no longer found


def is_gone(row) -> bool:
    """True for a row kept from an earlier run whose file is no longer there."""
    return any(flag.startswith(GONE) for flag in row.flags)


def handed_in_order(rows: list) -> tuple[Callable, str]:
    """How to order one learner's submissions of one lesson, latest last, and what the order rests on."""
    if all(r.submitted_at for r in rows):
        tools = sorted({r.lms.get("tool", "") for r in rows} - {""})
        what = {"nbgrader": "nbgrader's timestamp", "gradescope": "Gradescope's created_at"}.get(
            tools[0] if len(tools) == 1 else "", "the recorded submission time"
        )
        return (lambda r: (r.submitted_at, r.name)), what
    if all(r.lms.get("tool") == "canvas" for r in rows):
        return (
            lambda r: (int(r.lms.get("attachment_id") or 0), int(r.lms.get("resubmission") or 0), r.name),
            "Canvas's attachment id and resubmission number (-1, -2, …)",
        )
    return (
        lambda r: (r.file_time, r.name),
        "the file's modification time (the layout records no submission time: check these)",
    )


def mark_superseded(rows: list) -> dict[str, int]:
    """Mark every row but the latest of each learner and lesson as superseded by the latest (rows of an
    unknown lesson, and rows whose file is gone, are never grouped); returns how many were superseded, by
    what the order rested on (an identical copy, the same sha256, is counted apart: neither is later)."""
    groups: dict[tuple[str, str], list] = {}
    for row in rows:
        row.superseded_by = ""
        if row.lesson and not is_gone(row):
            groups.setdefault((learner_key(row.lms, row.learner), row.lesson), []).append(row)
    counts: dict[str, int] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        order, what = handed_in_order(group)
        *earlier, latest = sorted(group, key=order)
        for row in earlier:
            row.superseded_by = latest.name
            why = COPY if row.sha256 and row.sha256 == latest.sha256 else what
            counts[why] = counts.get(why, 0) + 1
    return counts


COPY = "an identical copy (the same sha256): the file was handed in or downloaded twice"


def late_of(name: str, top: int, submitted_at: str, due: datetime | None) -> bool:
    """Whether a row is late: its layout says so (Canvas's `_LATE`), or it was handed in after `due`."""
    return identify(name, top).late or (due is not None and late_by(submitted_at, due) is not None)
