"""Each learner's own copy of the course: the folders the instructor hands out, copied into the learner's folder.

A file the learner already has is never replaced (it holds their work); a file the course gained since their
last start (a new lesson) is added. Hidden files and caches are not course material and are not copied.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from pathlib import Path

HANDED_OUT = ("notebooks", "exercises", "solutions")  # the course folders an instructor may hand out
DEFAULT_FOLDERS = ("notebooks", "exercises")  # solutions stay with the instructor unless asked for
# JupyterHub lower-cases names; this keeps each learner's folder one plain path component.
LEARNER_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,31}")


def course_folders(choice: str) -> tuple[str, ...]:
    """The folders named in `choice` ("notebooks exercises", commas or spaces), checked against HANDED_OUT."""
    names = tuple(name for name in re.split(r"[\s,]+", choice) if name)
    unknown = [name for name in names if name not in HANDED_OUT]
    if unknown or not names:
        raise ValueError(f"course folders: {' '.join(unknown) or '(none given)'} is not one of {', '.join(HANDED_OUT)}")
    if "exercises" in names and "notebooks" not in names:
        raise ValueError("course folders: exercises link back to their lessons, so hand out notebooks too")
    return tuple(dict.fromkeys(names))


def check_learners_folder(learners: Path, course: Path) -> None:
    """Refuse a learners' folder inside the course (anywhere but its git-ignored .hub/): learners' files would
    mix with the course's, and a learner's folder could be a course folder itself."""
    learners, course = learners.resolve(), course.resolve()
    if learners.is_relative_to(course) and not learners.is_relative_to(course / ".hub"):
        raise ValueError(f"the learners' folder {learners} is inside the course {course} (only its .hub/ may hold it)")


def learner_folder(learners: Path, name: str, course: Path | None = None) -> Path:
    """The folder of one learner under `learners`; a name that is not one plain folder name is refused, and so
    is a folder that would be the course itself or hold it (`learners` the course's parent, the name its own)."""
    if not LEARNER_NAME.fullmatch(name):
        raise ValueError(
            f"learner name {name!r}: use 1-32 of a-z, 0-9, '.', '_' or '-', starting with a letter or digit"
        )
    home = learners / name
    if course is not None and course.resolve().is_relative_to(home.resolve()):
        raise ValueError(f"learner {name!r}: their folder {home} would be the course {course} itself or hold it")
    return home


def course_files(course: Path, folders: Iterable[str]) -> list[Path]:
    """The course's files in `folders`, relative to `course`: no hidden files or folders, no caches."""
    found = []
    for folder in folders:
        if not (course / folder).is_dir():
            raise ValueError(f"course folders: {course / folder} is not a folder")
        for path in sorted((course / folder).rglob("*")):
            relative = path.relative_to(course)
            if path.is_file() and not any(part.startswith(".") or part == "__pycache__" for part in relative.parts):
                found.append(relative)
    return found


def hand_out(course: Path, home: Path, folders: Iterable[str]) -> list[Path]:
    """Copy into `home` every course file it does not have yet; the files copied, relative to `home`."""
    copied = []
    for relative in course_files(course, folders):
        target = home / relative
        if target.exists() or target.is_symlink():
            continue  # the learner's own copy, possibly with their work in it
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(course / relative, target)
        copied.append(relative)
    return copied
