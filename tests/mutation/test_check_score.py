"""The measurement of the exercises' checks: where the worked answers are, what is mutated and measured on
which question, the report, the explained equivalents, and the score itself (every behaviour-changing
mutant of a worked answer loses points)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from answers import ROOT, answers, namespace
from check_score import (
    EQUIVALENT,
    Equivalent,
    load_equivalents,
    measured_part,
    outcome,
    question_mutants,
    report,
)
from learner import LearnerMutant

import site_packages

from packer.checking import BANK, PASSED, evaluate, question


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


def test_the_projects_equivalents_each_give_a_reason_and_name_a_graded_question():
    entries = load_equivalents(EQUIVALENT)
    assert entries and all(entry.why for entry in entries)
    assert {q for entry in entries for q in entry.questions} <= set(BANK)


def check_mutation(python: Path | str) -> str:
    """`make check-mutation` run by `python`: its report (what follows the line with its time)."""
    done = subprocess.run(
        [str(python), str(Path(__file__).with_name("check_score.py")), "--jobs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "Surviving mutants (wrong answers that keep full marks): none" in done.stdout
    return done.stdout.split(" s)\n", 1)[1]


@pytest.fixture(scope="module")
def editable_report() -> str:
    return check_mutation(sys.executable)


def test_every_behaviour_changing_mutant_of_a_worked_answer_loses_points(editable_report):
    """`make check-mutation` itself: 100% on every question, no stale explanation (about half a minute)."""
    assert "100.0%" in editable_report


def test_the_score_is_the_same_with_the_workbook_installed_into_site_packages(editable_report, tmp_path):
    """Every mutant meets the same inputs there (packer.checking.search), so the report is the same, line for line."""
    assert check_mutation(site_packages.install(tmp_path)) == editable_report
