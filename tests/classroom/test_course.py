"""Each learner's copy of the course on the class's hub (packer.classroom.course): what is handed out, and that a
learner's own files are never replaced."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from packer.classroom.course import check_learners_folder, course_files, course_folders, hand_out, learner_folder

ROOT = Path(__file__).resolve().parents[2]


def make_course(root: Path) -> Path:
    """A small course: two lessons, an exercise, a solution, and what is not course material."""
    files = {
        "notebooks/00_start_here.ipynb": "lesson 00",
        "notebooks/01_assemble_context.ipynb": "lesson 01",
        "notebooks/.ipynb_checkpoints/00_start_here-checkpoint.ipynb": "a checkpoint",
        "notebooks/__pycache__/x.cpython-311.pyc": "bytecode",
        "exercises/exercise_01_assemble_context.ipynb": "exercise 01",
        "exercises/.hidden": "hidden",
        "solutions/solution_01_assemble_context.ipynb": "solution 01",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_lessons_and_exercises_are_handed_out_and_the_solutions_only_when_asked(tmp_path):
    course = make_course(tmp_path / "course")
    copied = hand_out(course, tmp_path / "alice", course_folders("notebooks exercises"))
    assert [str(p) for p in copied] == [
        "notebooks/00_start_here.ipynb",
        "notebooks/01_assemble_context.ipynb",
        "exercises/exercise_01_assemble_context.ipynb",
    ]
    assert not (tmp_path / "alice" / "solutions").exists()
    assert (tmp_path / "alice" / "notebooks" / "01_assemble_context.ipynb").read_text() == "lesson 01"
    with_solutions = hand_out(course, tmp_path / "bob", course_folders("notebooks, exercises, solutions"))
    assert "solutions/solution_01_assemble_context.ipynb" in [str(p) for p in with_solutions]


def test_a_learners_own_files_are_kept_and_what_the_course_gained_is_added(tmp_path):
    course = make_course(tmp_path / "course")
    home = tmp_path / "alice"
    hand_out(course, home, ("notebooks", "exercises"))
    mine = home / "exercises" / "exercise_01_assemble_context.ipynb"
    mine.write_text("alice's answers")
    (home / "notebooks" / "00_start_here.ipynb").unlink()  # she wants a fresh copy of lesson 00
    (home / "notebooks" / "01_assemble_context.ipynb").unlink()
    (home / "notebooks" / "01_assemble_context.ipynb").symlink_to(mine)  # a link of her own stays hers too
    (course / "notebooks" / "02_prompt_packer.ipynb").write_text("lesson 02")  # the instructor added a lesson
    again = hand_out(course, home, ("notebooks", "exercises"))
    assert [str(p) for p in again] == ["notebooks/00_start_here.ipynb", "notebooks/02_prompt_packer.ipynb"]
    assert mine.read_text() == "alice's answers"
    assert (home / "notebooks" / "01_assemble_context.ipynb").is_symlink()


def test_the_workbooks_own_course_is_what_the_hub_hands_out():
    handed = {str(p) for p in course_files(ROOT, course_folders("notebooks exercises"))}
    assert "notebooks/00_start_here.ipynb" in handed and "exercises/exercise_01_assemble_context.ipynb" in handed
    assert not [name for name in handed if "/." in name or "__pycache__" in name]


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        ("notebooks grades", "course folders: grades is not one of notebooks, exercises, solutions"),
        ("", "course folders: (none given) is not one of notebooks, exercises, solutions"),
        ("exercises", "exercises link back to their lessons, so hand out notebooks too"),
    ],
)
def test_a_course_folder_that_is_not_one_is_refused_by_name(choice, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        course_folders(choice)


def test_a_missing_course_folder_is_refused_before_anything_is_copied(tmp_path):
    (tmp_path / "course" / "notebooks").mkdir(parents=True)
    with pytest.raises(ValueError, match="exercises is not a folder"):
        hand_out(tmp_path / "course", tmp_path / "alice", ("notebooks", "exercises"))
    assert not (tmp_path / "alice").exists()


@pytest.mark.parametrize("name", ["alice", "bob.smith_2", "a-1", "x" * 32])
def test_a_learners_folder_is_one_plain_folder_under_the_learners_folder(tmp_path, name):
    assert learner_folder(tmp_path, name) == tmp_path / name


@pytest.mark.parametrize("name", ["", "../alice", "a/b", ".hidden", "Alice", "x" * 33, "ünal"])
def test_a_name_that_is_not_one_plain_folder_name_is_refused(tmp_path, name):
    with pytest.raises(ValueError, match="learner name"):
        learner_folder(tmp_path, name)


def test_a_learners_folder_that_would_be_or_hold_the_course_is_refused(tmp_path):
    course = tmp_path / "workbook"
    course.mkdir()
    with pytest.raises(ValueError, match="would be the course"):
        learner_folder(tmp_path, "workbook", course=course)  # learners' folder: the course's parent
    assert learner_folder(tmp_path, "alice", course=course) == tmp_path / "alice"


@pytest.mark.parametrize("inside", [".", "solutions", "notebooks/class", "class"])
def test_a_learners_folder_inside_the_course_is_refused_but_its_hub_folder_is_not(tmp_path, inside):
    with pytest.raises(ValueError, match="inside the course"):
        check_learners_folder(tmp_path / inside, tmp_path)
    check_learners_folder(tmp_path / ".hub" / "learners", tmp_path)
    check_learners_folder(tmp_path.parent / "elsewhere", tmp_path)
