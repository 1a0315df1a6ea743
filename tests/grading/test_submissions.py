"""Finding a class's submissions: every notebook gets a row under a name that says whose it is; nothing is
dropped silently; Mac and Jupyter litter is not a learner. (No kernels here: these tests are quick.)"""

from __future__ import annotations

import json
import re
import warnings
import zipfile
from pathlib import Path

import pytest

from packer.grading.reports import feedback_name
from packer.grading.running import lesson_from_name, lessons
from packer.grading.layouts import identify
from packer.grading.submissions import check_paths, find_submissions, naming_root, parse_stripped

NOTEBOOK = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'


def found(*paths: Path):
    checked = check_paths([str(p) for p in paths])
    root, top = naming_root(checked)
    submissions, skipped = find_submissions(checked, root, top)
    return {s.name: s for s in submissions}, skipped


def touch(path: Path, text: str = NOTEBOOK) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_path_that_does_not_exist_is_an_error_naming_it(tmp_path):
    with pytest.raises(ValueError, match="submissions: .*typo does not exist"):
        check_paths([str(tmp_path), str(tmp_path / "typo")])


def test_case_variants_and_ipynb_json_are_notebooks_and_other_files_are_listed_as_skipped(tmp_path):
    for name in ("a.ipynb", "b.IPYNB", "c.Ipynb", "d.ipynb.json", "e.IPYNB.JSON"):
        touch(tmp_path / "class" / name)
    touch(tmp_path / "class" / "notes.pdf", "%PDF")
    rows, skipped = found(tmp_path / "class")
    assert sorted(rows) == [f"class/{n}" for n in ("a.ipynb", "b.IPYNB", "c.Ipynb", "d.ipynb.json", "e.IPYNB.JSON")]
    assert skipped == ["class/notes.pdf: not a notebook (.ipynb, .ipynb.json) or a .zip"]


def test_mac_and_jupyter_litter_and_the_self_checks_cache_are_ignored(tmp_path):
    touch(tmp_path / "class" / "alice.ipynb")
    touch(tmp_path / "class" / "._alice.ipynb", "\x00\x05\x16\x07 Mac resource fork")
    touch(tmp_path / "class" / "__MACOSX" / "class" / "._alice.ipynb", "\x00\x05")
    touch(tmp_path / "class" / ".ipynb_checkpoints" / "alice-checkpoint.ipynb")
    touch(tmp_path / "class" / ".DS_Store", "\x00")
    touch(tmp_path / "class" / ".hypothesis" / "unicode_data" / "14.0.0" / "charmap.json.gz", "\x1f\x8b")
    touch(tmp_path / "class" / ".hypothesis" / "constants" / "16ff4a8187b6f971", "# file: ...")
    touch(tmp_path / "class" / ".virtual_documents" / "alice.ipynb")
    rows, skipped = found(tmp_path / "class")
    assert list(rows) == ["class/alice.ipynb"] and skipped == []


def test_a_zip_is_opened_into_its_learners_identity(tmp_path):
    touch(tmp_path / "class" / "alice.ipynb")
    with zipfile.ZipFile(tmp_path / "class" / "bob.zip", "w") as archive:
        archive.writestr("bob/lesson01.ipynb", NOTEBOOK)
        archive.writestr("__MACOSX/bob/._lesson01.ipynb", "\x00\x05")
        archive.writestr("bob/README.txt", "hi")
    (tmp_path / "class" / "broken.zip").write_bytes(b"PK\x03\x04 not really")
    with zipfile.ZipFile(tmp_path / "class" / "empty.zip", "w") as archive:
        archive.writestr("notes.txt", "no notebook here")
    rows, skipped = found(tmp_path / "class")
    bob = rows["class/bob.zip/bob/lesson01.ipynb"]
    assert (bob.learner, bob.member, bob.problem) == ("bob", "bob/lesson01.ipynb", "")
    assert "not a readable zip archive" in rows["class/broken.zip"].problem  # the learner still gets a row
    assert rows["class/empty.zip"].problem == "the archive holds no notebook"
    assert "class/bob.zip/bob/README.txt: not a notebook (inside the archive)" in skipped


def test_a_zip_named_alone_on_the_command_line_is_opened_too(tmp_path):
    with zipfile.ZipFile(tmp_path / "carol.zip", "w") as archive:
        archive.writestr("lesson01.ipynb", NOTEBOOK)
    rows, _ = found(tmp_path / "carol.zip")
    assert [(s.name, s.learner) for s in rows.values()] == [(f"{tmp_path.name}/carol.zip/lesson01.ipynb", "carol")]


def test_rows_start_from_the_folder_given_so_one_learner_alone_keeps_their_name(tmp_path):
    touch(tmp_path / "class" / "alice" / "ex.ipynb")
    touch(tmp_path / "class" / "bob" / "ex.ipynb")
    assert sorted(found(tmp_path / "class")[0]) == ["class/alice/ex.ipynb", "class/bob/ex.ipynb"]
    alone, _ = found(tmp_path / "class" / "alice")
    assert [(s.name, s.learner) for s in alone.values()] == [("alice/ex.ipynb", "alice")]
    single, _ = found(tmp_path / "class" / "alice" / "ex.ipynb")
    assert [(s.name, s.learner) for s in single.values()] == [("alice/ex.ipynb", "alice")]


@pytest.mark.parametrize(
    "name, learner, late",
    [
        ("course/submitted/s1234/ps1/01_assemble_context.ipynb", "s1234", False),  # nbgrader
        ("course/autograded/s1234/ps1/01_assemble_context.ipynb", "s1234", False),
        ("canvas/smithjane_12345_67890_01_assemble_context.ipynb", "smithjane", False),  # Canvas
        ("canvas/smithjane_LATE_12345_67891_01_assemble_context-1.ipynb", "smithjane", True),
        ("canvas/doejohn_late_12346_67892_lesson.zip/lesson.ipynb", "doejohn", True),
        ("moodle/Jane Smith_12345_assignsubmission_file_/lesson01.ipynb", "Jane Smith", False),  # Moodle
        ("moodle/Jane Smith_12345_assignsubmission_file_/sub/lesson01.ipynb", "Jane Smith", False),
        ("class/alice/ex.ipynb", "alice", False),  # a folder per learner
        ("class/bob.ipynb", "bob", False),  # a flat folder: the file names the learner
    ],
)
def test_the_learner_comes_from_the_course_tools_layout(name, learner, late):
    who = identify(name, top=1)
    assert (who.learner, who.late) == (learner, late)


def test_feedback_names_are_unique_and_traceable_where_the_old_ones_collided(tmp_path):
    for folder in ("张伟", "李娜", "a b", "a_b"):
        touch(tmp_path / "class" / folder / "lesson 01.ipynb")
    rows, _ = found(tmp_path / "class")
    names = {feedback_name(name) for name in rows}
    assert len(names) == 4
    assert "feedback/class/张伟/lesson 01.ipynb.md" in names and "feedback/class/a b/lesson 01.ipynb.md" in names


@pytest.mark.parametrize(
    "name, lesson",
    [
        ("exercise_01_assemble_context.ipynb", "01_assemble_context"),  # the workbook's names
        ("solution_03_utf8_packer.ipynb", "03_utf8_packer"),
        ("01_assemble_context.ipynb", "01_assemble_context"),  # the names before, which a running course keeps
        ("canvas/müllerjürgen_12353_67901_01_assemble_context.ipynb", "01_assemble_context"),  # Canvas
        ("canvas/müllerjürgen_12353_67901_exercise_01_assemble_context.ipynb", "01_assemble_context"),
        ("canvas/smithjane_LATE_12345_67891_exercise_02_prompt_packer-1.ipynb", "02_prompt_packer"),
        ("moodle/Jürgen Müller_12345_assignsubmission_file_/exercise_04_section_budget.ipynb", "04_section_budget"),
        ("moodle/Jürgen Müller_12345_assignsubmission_file_/05_counting_units.ipynb", "05_counting_units"),
        ("course/submitted/s1234/ps1/exercise_06_policies.ipynb", "06_policies"),  # nbgrader
        ("exercise_07_whole_request.ipynb", "07_whole_request"),
        ("solution_08_beyond_greedy.ipynb", "08_beyond_greedy"),
        ("exercise_09_conversation.ipynb", "09_conversation"),
        ("alice42_01_assemble_context.ipynb", "01_assemble_context"),  # digits before the lesson's own
        ("alice-03_my_copy.ipynb", "03_utf8_packer"),  # only the lesson's number
        ("exercise_02_mine.ipynb", "02_prompt_packer"),
        ("homework.ipynb", ""),
        ("exercise_99_unknown.ipynb", ""),
    ],
)
def test_the_lesson_comes_from_the_file_name_new_or_old_behind_a_course_tools_prefix(name, lesson):
    assert lesson_from_name(name) == lesson


def test_the_lessons_are_the_question_banks_slugs_not_their_file_names():
    """From the bank, not from solutions/: a grader installed into site-packages has no solutions folder."""
    assert lessons() == {
        "01": "01_assemble_context",
        "02": "02_prompt_packer",
        "03": "03_utf8_packer",
        "04": "04_section_budget",
        "05": "05_counting_units",
        "06": "06_policies",
        "07": "07_whole_request",
        "08": "08_beyond_greedy",
        "09": "09_conversation",
    }


def test_a_notebook_whose_cells_lack_ids_is_read_quietly_with_ids_of_the_graders_own():
    """nbformat 4.5 requires a unique id per cell and warns (MissingIDFieldWarning, DuplicateCellId), once per
    process and naming no notebook, where one lacks them; the grader's copy gets ids instead, and no warning."""
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "x"} for _ in range(3)]
    cells[1]["id"], cells[2]["id"] = "kept", "kept"  # a valid id, and the same one again
    data = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        notebook = parse_stripped(data)
    ids = [cell.id for cell in notebook.cells]
    assert ids[1] == "kept" and len(set(ids)) == 3 and all(re.fullmatch(r"[a-zA-Z0-9-_]{1,64}", i) for i in ids)
    assert parse_stripped(data) == notebook  # the same ids every time: a regrade reads the same notebook
