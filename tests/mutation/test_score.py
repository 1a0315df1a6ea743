"""The mutation command: scratch copies, outcomes, the score table and the explained equivalents."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mutate import mutants_of
from score import ROOT, Equivalent, load_equivalents, ordered_tests, report, run_all

TOY = '''def at_most(value, limit):
    """Whether value is within limit."""
    if value < 0:
        raise ValueError("value must be non-negative")
    return value <= limit
'''
# Pins the boundary and the refusal, but not whether 0 is a valid value.
TOY_TESTS = """import pytest
from toy import at_most

def test_limit_itself_is_within():
    assert at_most(3, 3) is True

def test_above_the_limit_is_not():
    assert at_most(4, 3) is False

def test_negative_values_are_refused():
    with pytest.raises(ValueError):
        at_most(-1, 3)
"""


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("toy")
    (root / "toy.py").write_text(TOY)
    (root / "test_toy.py").write_text(TOY_TESTS)
    mutants = mutants_of(TOY, "toy.py")
    outcomes = run_all(mutants, root, ["toy.py", "test_toy.py"], ["test_toy.py"], jobs=2, timeout=120)
    return root, mutants, outcomes


def test_a_mutant_the_tests_notice_is_killed_and_an_unpinned_one_survives(toy_run):
    _, mutants, outcomes = toy_run
    outcome = {m.change: o for m, o in zip(mutants, outcomes)}
    assert outcome["value <= limit -> value < limit"] == "killed"
    assert outcome["raise ValueError('value must be non-negative') -> pass"] == "killed"
    assert outcome["value < 0 -> value <= 0"] == "survived"  # nothing says whether 0 is allowed
    assert set(outcomes) <= {"killed", "survived"}


def test_the_working_tree_is_never_changed(toy_run):
    root, _, _ = toy_run
    assert (root / "toy.py").read_text() == TOY
    assert sorted(p.name for p in root.iterdir()) == ["test_toy.py", "toy.py"]


def test_the_report_scores_each_module_and_lists_every_survivor_with_file_and_line(toy_run):
    _, mutants, outcomes = toy_run
    text, ok = report(["toy.py"], mutants, outcomes, [])
    survivors = [m for m, o in zip(mutants, outcomes) if o == "survived"]
    assert not ok
    row = next(line for line in text.splitlines() if line.startswith("toy.py"))
    killed = len(mutants) - len(survivors)
    assert row.split() == [
        "toy.py",
        str(len(mutants)),
        str(killed),
        "0",
        str(len(survivors)),
        f"{killed / len(mutants):.1%}",
    ]
    for mutant in survivors:
        assert f"toy.py:{mutant.line}  at_most  {mutant.operator}: {mutant.change}" in text


def test_an_explained_survivor_counts_as_equivalent_and_an_unmatched_entry_as_stale(toy_run):
    _, mutants, outcomes = toy_run
    survivors = [m for m, o in zip(mutants, outcomes) if o == "survived"]
    explained = [Equivalent("toy.py", "at_most", m.change, "because") for m in survivors]
    text, ok = report(["toy.py"], mutants, outcomes, explained)
    assert ok
    assert "Surviving mutants (behaviour no test pins down): none" in text
    assert "why: because" in text
    assert text.splitlines()[2].split()[-1] == "100.0%"
    stale = Equivalent("toy.py", "at_most", "1 -> 2", "no such mutant")
    text, ok = report(["toy.py"], mutants, outcomes, [*explained, stale])
    assert not ok
    assert "Stale entries" in text and "1 -> 2" in text


def test_an_entry_for_a_module_not_mutated_this_run_is_not_stale(toy_run):
    _, mutants, outcomes = toy_run
    survivors = [m for m, o in zip(mutants, outcomes) if o == "survived"]
    explained = [Equivalent("toy.py", "at_most", m.change, "because") for m in survivors]
    elsewhere = Equivalent("other.py", "f", "0 -> 1", "explained in a module this run left alone")
    text, ok = report(["toy.py"], mutants, outcomes, [*explained, elsewhere])
    assert ok
    assert "Stale entries" not in text


def test_equivalents_need_a_reason(tmp_path):
    listed = tmp_path / "equivalent.toml"
    listed.write_text('[[equivalent]]\nfile = "toy.py"\nfunction = "f"\nchange = "0 -> 1"\nwhy = " "\n')
    with pytest.raises(ValueError, match="entry 1 lacks why"):
        load_equivalents(listed)


def test_the_projects_equivalents_all_give_a_reason():
    assert all(entry.why for entry in load_equivalents(Path(__file__).with_name("equivalent.toml")))


def test_the_tests_that_name_the_mutated_module_run_first(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("import other\n")
    (tmp_path / "tests" / "test_b.py").write_text("import toy\n")
    assert ordered_tests(tmp_path, ["tests"], "toy.py") == ["tests/test_b.py", "tests/test_a.py"]


def test_the_tests_named_after_the_mutated_module_run_before_those_that_only_mention_it(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("import toy\n")
    (tmp_path / "tests" / "test_toy_rules.py").write_text("import toy\n")
    (tmp_path / "tests" / "test_z.py").write_text("import other\n")
    assert ordered_tests(tmp_path, ["tests"], "toy.py") == [
        "tests/test_toy_rules.py",
        "tests/test_a.py",
        "tests/test_z.py",
    ]


def test_make_mutation_runs_on_a_small_core_module():
    """`make mutation` itself, on packer/utf8.py alone (35 s on a quiet machine): its scratch copy must hold everything the
    core tests and the root conftest.py import, or it stops at "The core tests fail on the unmutated modules"."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("score.py")), "--jobs", "2", "packer/utf8.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    row = next(line for line in done.stdout.splitlines() if line.startswith("packer/utf8.py"))
    mutants, killed, equivalent, survived, score = row.split()[1:]
    assert int(mutants) > 0 and (survived, score) == ("0", "100.0%"), row
