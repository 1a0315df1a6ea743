"""The measurement of the exercises' checks: where the worked answers are, what is mutated and measured on
which question, the report, the explained equivalents, and the score itself (every behaviour-changing
mutant of a worked answer loses points)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from answers import ROOT, answers, namespace, practice_answers
from check_score import (
    EQUIVALENT,
    Equivalent,
    all_answers,
    checked,
    load_equivalents,
    measured_part,
    outcome,
    question_mutants,
    report,
)
from learner import LearnerMutant

import site_packages

from packer.checking import BANK, PASSED, evaluate, question
from packer.checking.practice import POINTS, Write


@pytest.fixture(scope="module")
def found():
    return answers()


def test_every_graded_question_has_a_worked_answer_in_its_solution_cell(found):
    assert list(found) == list(BANK)
    for qid, answer in found.items():
        assert answer.name == question(qid).name
        lines = answer.source.splitlines()
        assert lines[answer.block[0] - 2].strip() == "# BEGIN SOLUTION"
        assert lines[answer.block[1]].strip() == "# END SOLUTION"
        assert f"def {answer.name}(" in answer.source


def test_every_write_point_of_a_lesson_is_measured_on_the_worked_answer_folded_under_it():
    found = practice_answers()
    assert list(found) == [pid for pid, point in POINTS.items() if isinstance(point, Write)]
    for pid, answer in found.items():
        assert answer.notebook.startswith("notebooks/") and answer.name == POINTS[pid].question.name
        assert answer.block == (1, len(answer.source.splitlines())), "every line of it is the learner's"
        assert checked(pid) is POINTS[pid].question
    assert list(all_answers()) == [*BANK, *found]


def test_a_write_points_worked_answer_runs_on_its_own_and_passes_its_check():
    answer = practice_answers()["p5.3"]
    result = evaluate(checked("p5.3"), namespace(answer)["headroom_for"])
    assert result.status == PASSED


def test_the_slips_of_issue_61_are_mutants_and_each_loses_its_point():
    """A float where integers were asked (5.3's rank divided first) and a class of inputs left out (2.6's fold not
    knowing one line boundary, or all of the rarer ones; 4.4 forgetting one section tag) are made and killed."""
    found = practice_answers()
    made = {(m.operator, m.change): m for q in ("p2.6", "p4.4", "p5.3") for m in question_mutants(q, found)}
    rank = made[
        "divide first", "-(-percent * len(needed) // 100) -> __import__('math').ceil(percent / 100 * len(needed))"
    ]
    assert outcome(found["p5.3"], rank.source)[0] == "killed"
    folds = {
        m.after.rpartition(" not knowing ")[2]: m
        for (operator, _), m in made.items()
        if operator == "forget a line boundary" and m.before.startswith("text.")
    }
    for unknown in ("\x0c", "\x1c", "\x1d", "\x1e", "\u2029"):
        assert outcome(found["p2.6"], folds[ascii(unknown)].source)[0] == "killed", unknown
    every = next(m for shown, m in folds.items() if shown.startswith("all of"))
    assert outcome(found["p2.6"], every.source)[0] == "killed"
    tags = [m for (operator, _), m in made.items() if operator == "leave out a case"]
    assert len(tags) == 5 and all(outcome(found["p4.4"], m.source)[0] == "killed" for m in tags)


def test_a_validation_question_shares_its_answer_cell_and_is_measured_on_its_input_checks(found):
    assert (found["q1.1"].notebook, found["q1.1"].cell) == (found["q1.2"].notebook, found["q1.2"].cell)
    assert [measured_part(q, found) for q in ("q1.1", "q1.2", "q2.2", "q2.3", "q3.1", "q3.2")] == [
        "the rest",
        "input checks",
    ] * 3
    assert measured_part("q1.3", found) == measured_part("q4.4", found) == "all"
    rest, checks = question_mutants("q1.1", found), question_mutants("q1.2", found)
    assert rest and checks and not any(m.validation for m in rest) and all(m.validation for m in checks)


def test_the_namespace_is_the_notebooks_up_to_the_check_and_the_worked_answer_passes(found):
    names = namespace(found["q1.3"])
    assert callable(names["assemble_prefix"]) and callable(names["assemble_context"]), "q1.3 calls q1.1's answer"
    assert "EXAMPLE" in names, "the setup cell ran"
    result = evaluate(question("q1.3"), names["assemble_prefix"])
    assert (result.status, result.points) == (PASSED, 2)


def test_a_mutant_that_changes_behaviour_is_killed_and_an_equivalent_one_survives(found):
    mutants = {m.change: m for m in question_mutants("q4.1", found)}
    floor = mutants["(len(text) + 3) // 4 -> len(text) // 4"]
    truncated = mutants["(len(text) + 3) // 4 -> int((len(text) + 3) / 4)"]
    assert outcome(found["q4.1"], floor.source)[:2] == ("killed", "fixed")
    assert outcome(found["q4.1"], truncated.source) == ("survived", "", "")


def test_a_cell_that_no_longer_runs_is_killed(found):
    status, how, shown = outcome(
        found["q4.1"], "def estimate_tokens(text):\n    return 1 / 0\nraise RuntimeError('x')\n"
    )
    assert (status, how) == ("killed", "cell") and "RuntimeError" in shown


TOY = LearnerMutant(3, "f", "shift boundary", "a < b", "a <= b", "", False)
OTHER = LearnerMutant(4, "f", "drop raise", "raise E", "pass", "", True)


def test_the_report_scores_each_question_and_lists_every_survivor(found):
    outcomes = {"q4.1": [("killed", "fixed", "estimate_tokens('a')"), ("survived", "", "")]}
    text, ok = report(["q4.1"], found, {"q4.1": [TOY, OTHER]}, outcomes, [])
    assert not ok
    row = next(line for line in text.splitlines() if line.startswith("q4.1"))
    assert row.split() == ["q4.1", "estimate_tokens", "2", "1", "1", "0", "0", "1", "50.0%"]
    assert "q4.1  solutions/solution_04_section_budget.ipynb cell 4 line 4  f  drop raise: raise E -> pass" in text


def test_an_explained_survivor_counts_as_equivalent_and_an_unmatched_entry_as_stale(found):
    outcomes = {"q4.1": [("survived", "", ""), ("killed", "fixed", "estimate_tokens('a')")]}
    mutants = {"q4.1": [TOY, OTHER]}
    explained = Equivalent(("q4.1",), "f", "a < b -> a <= b", "because")
    text, ok = report(["q4.1"], found, mutants, outcomes, [explained])
    assert ok and "why: because" in text
    assert text.splitlines()[1].split()[-3:] == ["1", "0", "100.0%"]  # 1 equivalent, 0 survived
    stale = Equivalent(("q4.1",), "f", "1 -> 2", "no such mutant")
    text, ok = report(["q4.1"], found, mutants, outcomes, [explained, stale])
    assert not ok and "Stale entries" in text and "1 -> 2" in text
    elsewhere = Equivalent(("q6.2",), "g", "1 -> 2", "a question this run did not measure")
    assert report(["q4.1"], found, mutants, outcomes, [explained, elsewhere])[1]


def test_kills_by_the_generated_search_and_by_the_time_limit_are_listed_with_their_input(found):
    outcomes = {"q4.1": [("killed", "search", "estimate_tokens('🙂')"), ("timeout", "", "estimate_tokens('')")]}
    text, ok = report(["q4.1"], found, {"q4.1": [TOY, OTHER]}, outcomes, [])
    assert ok
    assert "Caught by the generated search alone" in text and "input: estimate_tokens('🙂')" in text
    assert "Stopped by the check's time limit" in text and "input: estimate_tokens('')" in text


def test_equivalents_need_a_reason_and_may_name_several_questions(tmp_path):
    listed = tmp_path / "equivalent.toml"
    listed.write_text('[[equivalent]]\nquestion = "q1.1"\nfunction = "f"\nchange = "0 -> 1"\nwhy = " "\n')
    with pytest.raises(ValueError, match="entry 1 lacks why"):
        load_equivalents(listed)
    listed.write_text('[[equivalent]]\nquestion = ["q1.1", "q1.2"]\nfunction = "f"\nchange = "0 -> 1"\nwhy = "w"\n')
    assert load_equivalents(listed)[0].questions == ("q1.1", "q1.2")


def test_the_projects_equivalents_each_give_a_reason_and_name_a_graded_question_or_write_point():
    entries = load_equivalents(EQUIVALENT)
    assert entries and all(entry.why for entry in entries)
    assert {q for entry in entries for q in entry.questions} <= set(BANK) | set(practice_answers())


def check_mutation(python: Path | str, *questions: str) -> str:
    """`make check-mutation` run by `python` (on `questions`, all of them if none): its report (what follows the
    line with its time)."""
    done = subprocess.run(
        [str(python), str(Path(__file__).with_name("check_score.py")), "--jobs", "2", *questions],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "Surviving mutants (wrong answers that keep full marks): none" in done.stdout
    return done.stdout.split(" s)\n", 1)[1]


def lines_about(text: str, questions: tuple[str, ...]) -> list[str]:
    """A report's lines about these questions: their rows of the table, and each mutant of theirs it lists (with
    the line that follows it: why it is equivalent, or the input that caught it)."""
    lines = text.splitlines()
    about = []
    for number, line in enumerate(lines):
        words = line.split()
        if not words or words[0] not in questions:
            continue
        about.append(line)
        if line.startswith("  ") and number + 1 < len(lines) and lines[number + 1].startswith("      "):
            about.append(lines[number + 1])
    return about


@pytest.fixture(scope="module")
def editable_report() -> str:
    return check_mutation(sys.executable)


def test_every_behaviour_changing_mutant_of_a_worked_answer_loses_points(editable_report):
    """`make check-mutation` itself: 100% on every question and write point, no stale explanation."""
    assert "100.0%" in editable_report


# Measured again in a site-packages install: a write point and an exercise with explained equivalents, and q3.1,
# whose mutants its requirements kill; in the whole run's order. That every question meets the same generated
# inputs there is shown by tests/checking/test_search.py (the whole run, 90 s more, repeated it).
IN_SITE_PACKAGES = ("q3.1", "q5.1", "p5.3")


def test_the_score_is_the_same_with_the_workbook_installed_into_site_packages(editable_report, tmp_path):
    """Every mutant meets the same inputs there (packer.checking.search), so the report says the same of it."""
    installed = check_mutation(site_packages.install(tmp_path), *IN_SITE_PACKAGES)
    about = lines_about(installed, IN_SITE_PACKAGES)
    assert sum("why:" in line for line in about) >= 2 and about == lines_about(editable_report, IN_SITE_PACKAGES)
    assert [line.split()[0] for line in about if not line.startswith(" ")] == list(IN_SITE_PACKAGES)
