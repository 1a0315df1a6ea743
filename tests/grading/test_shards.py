"""Grading a class on many machines: `--shard K/N` grades a share chosen by name, never by position, and
`python -m packer.grading.merge` puts the shard gradebooks together into exactly the gradebook one run over
the whole class writes, byte for byte; a merge that is missing a shard, has one twice, mixes graders or
options, or would write where it must not, refuses and writes nothing.

One small class is graded once whole and once in three shards (files listed in other orders) for the module:
each shard run grades its learners again, apart from the whole run, so the module also shows that grading the
same files again gives the same gradebook.

At the end, the shipped Slurm job scripts on a real Slurm (Debian's slurm-wlm and munge on 127.0.0.1, started
in a temporary folder and stopped by pid: slurm_cluster.py): a job array grades the same class in two shards, a
job that depends on it merges them, and the result is the whole run's gradebook byte for byte; a shard
cancelled while it grades leaves the merge job cancelled by Slurm and a merge by hand refusing, saying why.
Where Slurm is not installed those two are skips that say so; `.ci/run` installs it.
"""

from __future__ import annotations

import csv
import json
import os
import random
import shutil
import time
from pathlib import Path

import pytest

import packer.grading.grader as grade
from grader_cli import grade_main, with_sandbox
import packer.grading.merge as merge
from packer.grading.gradebook import JOURNAL_NAME, read_journal
from packer.grading.demo_class import ROOT, write_submission
from packer.grading.shards import engine_shard, parse_shard, shard_of
from packer.grading.submissions import find_submissions, naming_root
from slurm_cluster import Cluster

CLASS = {"ana": "correct", "ben": "strict-comparison", "cy": "untouched", "dee": "not-json"}
SHARDS = 3


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under a folder, by its path from the folder, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """(the class folder, the whole run's gradebook, the shard gradebooks in order 1..N)."""
    base = tmp_path_factory.mktemp("sharded")
    folder = base / "submissions"
    files = [str(write_submission(folder, name, kind)) for name, kind in CLASS.items()]
    whole = base / "whole"
    assert grade_main([str(folder), "--out", str(whole), "--jobs", "2", "--timeout", "20"]) == 0
    shards = []
    for index in range(1, SHARDS + 1):
        random.Random(index).shuffle(files)  # each shard is handed the files in another order
        out = base / f"shard-{index}"
        assert (
            grade_main([*files, "--out", str(out), "--jobs", "2", "--timeout", "20", "--shard", f"{index}/{SHARDS}"])
            == 0
        )
        shards.append(out)
    return folder, whole, shards


def merge_into(out: Path, *shards: Path) -> int:
    """Run the merge command; its exit status (2 when it refused)."""
    try:
        return merge.main([*map(str, shards), "--out", str(out)])
    except SystemExit as stop:
        return stop.code


# --- the share of a shard ---------------------------------------------------------------------------------------
def test_every_name_is_in_exactly_one_shard_whatever_the_order():
    names = [f"submissions/learner{i:04d}/{i % 7:02d}_exercise.ipynb" for i in range(2000)]
    for count in (1, 2, 3, 8, 50):
        shards = [{n for n in names if shard_of(n, count) == k} for k in range(1, count + 1)]
        assert sum(len(s) for s in shards) == len(names) and set().union(*shards) == set(names)
        shuffled = random.Random(count).sample(names, len(names))
        assert [{n for n in shuffled if shard_of(n, count) == k} for k in range(1, count + 1)] == shards
        assert min(len(s) for s in shards) > len(names) / count / 2  # spread out, not piled into one


def test_a_shard_is_the_same_whatever_order_the_files_are_found_or_given_in(tmp_path):
    files = [write_submission(tmp_path / "class", f"learner{i}", "untouched") for i in range(12)]
    shares = set()
    for seed in range(3):
        given = random.Random(seed).sample(files, len(files))
        root, top = naming_root(given)
        found, _ = find_submissions(given, root, top)
        shares.add(tuple(sorted(s.name for s in found if shard_of(s.name, 4) == 2)))
    assert len(shares) == 1 and shares.pop()


@pytest.mark.parametrize("raw", ["0/2", "3/2", "1/0", "2", "a/b", "-1/3", ""])
def test_a_bad_shard_is_refused_before_grading(raw, tmp_path):
    with pytest.raises(ValueError, match="--shard"):
        parse_shard(raw)
    write_submission(tmp_path / "class", "ana", "untouched")
    if raw:
        with pytest.raises(SystemExit) as stop:
            grade_main([str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--shard", raw])
        assert stop.value.code == 2 and not (tmp_path / "out").exists()


def slurm(task: int, low: int = 1, high: int = 4, count: int | None = None) -> dict[str, str]:
    """The variables Slurm gives a task of an array (as sbatch --array=LOW-HIGH sets them)."""
    return {
        "SLURM_ARRAY_TASK_ID": str(task),
        "SLURM_ARRAY_TASK_MIN": str(low),
        "SLURM_ARRAY_TASK_MAX": str(high),
        "SLURM_ARRAY_TASK_COUNT": str(high - low + 1 if count is None else count),
    }


@pytest.mark.parametrize(
    ("raw", "env", "shard"),
    [
        ("auto", slurm(3), (3, 4)),  # sbatch --array=1-4: task 3 is shard 3 of 4
        ("auto", slurm(1, 1, 1), (1, 1)),
        ("auto/8", slurm(5, 2, 5, count=2), (5, 8)),  # a rerun of shards 2 and 5 of 8: --array=2,5
        ("auto/4", slurm(4), (4, 4)),
        (" auto / 3 ", {"JOB_COMPLETION_INDEX": "0"}, (1, 3)),  # a Kubernetes Indexed Job numbers pods from 0
        ("auto/3", {"JOB_COMPLETION_INDEX": "2"}, (3, 3)),
        ("2/8", slurm(3), None),  # K/N given: the engine is not asked
    ],
)
def test_shard_auto_takes_the_shard_from_the_batch_engine(raw, env, shard):
    assert engine_shard(raw, env) == shard


@pytest.mark.parametrize(
    ("raw", "env", "says"),
    [
        ("auto", {}, "neither SLURM_ARRAY_TASK_ID .* nor JOB_COMPLETION_INDEX"),
        ("auto/4", {"PATH": "/bin"}, "neither SLURM_ARRAY_TASK_ID"),
        ("auto", slurm(0, 0, 3), "runs tasks 0 to 3 .*numbered 1 to N"),  # sbatch --array=0-3
        ("auto", slurm(2, 2, 5, count=2), "tasks 2 to 5 .*2 of them .*--shard auto/N"),  # a rerun needs N
        ("auto/4", slurm(0, 0, 3), "SLURM_ARRAY_TASK_ID=0 is not a shard from 1 to 4"),
        ("auto/4", slurm(5, 1, 5), "SLURM_ARRAY_TASK_ID=5 is not a shard from 1 to 4"),
        ("auto", {"JOB_COMPLETION_INDEX": "1"}, "not told how many completions .*--shard auto/N"),
        ("auto/2", {"JOB_COMPLETION_INDEX": "2"}, "JOB_COMPLETION_INDEX=2 is not below N=2"),
        ("auto/2", {"JOB_COMPLETION_INDEX": "one"}, "JOB_COMPLETION_INDEX is 'one', not a whole number"),
        ("auto", {"SLURM_ARRAY_TASK_ID": "1"}, "SLURM_ARRAY_TASK_MIN is '', not a whole number"),
        ("auto/3", {**slurm(1), "JOB_COMPLETION_INDEX": "0"}, "both SLURM_ARRAY_TASK_ID .* and JOB_COMPLETION_INDEX"),
        ("auto/0", slurm(1), "N >= 1"),
    ],
)
def test_shard_auto_refuses_a_task_whose_shard_it_cannot_work_out_naming_the_variables(raw, env, says, tmp_path):
    with pytest.raises(ValueError, match=f"^--shard.*{says}"):
        engine_shard(raw, env)


def test_the_grader_refuses_shard_auto_outside_a_batch_engine_before_grading(tmp_path, monkeypatch, capsys):
    for name in ("SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"):
        monkeypatch.delenv(name, raising=False)
    write_submission(tmp_path / "class", "ana", "untouched")
    with pytest.raises(SystemExit) as stop:
        grade_main([str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--shard", "auto"])
    assert stop.value.code == 2 and not (tmp_path / "out").exists()
    assert "neither SLURM_ARRAY_TASK_ID" in capsys.readouterr().err


# --- merging ----------------------------------------------------------------------------------------------------
def test_merged_shards_are_byte_identical_to_one_run_over_the_whole_class(graded, tmp_path):
    _, whole, shards = graded
    rows = [json.loads((s / "grades.json").read_text())["submissions"] for s in shards]
    assert sum(map(len, rows)) == len(CLASS) and all(rows), "each shard graded a share of the class"
    assert merge_into(tmp_path / "merged", *reversed(shards)) == 0  # given in any order
    merged, expected = tree(tmp_path / "merged"), tree(whole)
    assert sorted(merged) == sorted(expected)
    assert [name for name in expected if merged[name] != expected[name]] == []


def test_grading_the_same_files_again_gives_the_same_rows_graded_the_same_way(graded):
    """Each shard run graded its share of the class a second time: every row it ran and its CSV line, and what
    its gradebook records about how it graded, are exactly the whole run's. (An unreadable file's row takes the
    lesson of the class, which a shard may not see: the merge completes it, as the merge tests below show.)"""
    _, whole, shards = graded
    first = json.loads((whole / "grades.json").read_text())
    rows = {row["submission"]: row for row in first["submissions"]}
    lines = {line["submission"]: line for line in csv.DictReader((whole / "grades.csv").open())}
    again = []
    for shard in shards:
        data = json.loads((shard / "grades.json").read_text())
        assert data["grader"] == first["grader"]
        shard_lines = {line["submission"]: line for line in csv.DictReader((shard / "grades.csv").open())}
        for row in data["submissions"]:
            if row["status"] != "unreadable":
                assert row == rows[row["submission"]], row["submission"]
                assert shard_lines[row["submission"]] == lines[row["submission"]], row["submission"]
                again.append(row["submission"])
    assert len(again) == len(CLASS) - 1  # ana, ben and cy, each graded twice


def test_a_shard_gradebook_records_which_shard_of_how_many_and_the_class_it_saw(graded):
    _, _, shards = graded
    for index, folder in enumerate(shards, start=1):
        shard = json.loads((folder / "grades.json").read_text())["gradebook"]["shard"]
        assert (shard["index"], shard["count"], shard["class_submissions"]) == (index, SHARDS, len(CLASS))


def edited(shard: Path, tmp_path: Path, change) -> Path:
    """A copy of a shard gradebook with its grades.json changed by `change(data)`."""
    copy = tmp_path / f"{shard.name}-{change.__name__}"
    shutil.copytree(shard, copy)
    data = json.loads((copy / "grades.json").read_text())
    change(data)
    (copy / "grades.json").write_text(json.dumps(data))
    return copy


def stopped(gradebook: Path, tmp_path: Path, rows: int) -> Path:
    """The folder a shard's grader leaves when SIGTERM (scancel, a time limit) stops it: no gradebook, only the
    journal of the rows it had graded (here the first `rows` rows of `gradebook`)."""
    folder = tmp_path / f"{gradebook.name}-stopped-{rows}"
    folder.mkdir(exist_ok=True)
    graded = json.loads((gradebook / "grades.json").read_text())["submissions"][:rows]
    (folder / JOURNAL_NAME).write_text("".join(json.dumps(row) + "\n" for row in graded))
    return folder


def test_a_merge_refuses_missing_duplicate_or_mismatched_shards_and_writes_nothing(graded, tmp_path, capsys):
    folder, whole, (one, two, three) = graded
    out = tmp_path / "merged"

    def slower(data):
        data["grader"]["cell_timeout"] = 99.0

    def other_checks(data):
        data["grader"]["checks_version"] = "0" * 64

    stray = next(f"submissions/zed{i}.ipynb" for i in range(99) if shard_of(f"submissions/zed{i}.ipynb", 3) != 3)

    def stray_row(data):
        data["submissions"].append(dict(data["submissions"][0], submission=stray))

    def lost_row(data):
        data["submissions"].pop()

    def drawn_elsewhere(data):
        data["grader"]["matplotlib"] = "0.1"

    cases = [
        ((one, two), "missing shard 3 of 3"),
        ((one, two, two, three), "shard 2/3 given twice"),
        ((one, two, edited(three, tmp_path, slower)), "cell_timeout"),
        ((one, edited(two, tmp_path, other_checks), three), "checks_version"),
        ((one, two, edited(three, tmp_path, stray_row)), f"{stray} does not belong to shard 3/3"),
        ((edited(one, tmp_path, lost_row), two, three), f"the class they saw had {len(CLASS)} submissions"),
        ((one, two, whole), "not a shard"),
        (
            tuple(edited(shard, tmp_path, drawn_elsewhere) for shard in (one, two, three)),
            "the shards drew their reports with matplotlib 0.1",
        ),
        ((one, two, folder), "not a gradebook"),
        ((one, two, stopped(three, tmp_path, rows=1)), "no gradebook yet: this shard's grading stopped"),
        ((one, two, stopped(three, tmp_path, rows=1)), "the row it graded is kept in its journal"),
        ((one, two, stopped(whole, tmp_path, rows=2)), "the 2 rows it graded are kept in its journal"),
        (
            (one, two, stopped(three, tmp_path, rows=0)),
            "run that shard again (the same K of N; under Slurm --array=K with --shard auto/N) into the same --out",
        ),
    ]
    for given, why in cases:
        assert merge_into(out, *given) == 2, why
        assert why in capsys.readouterr().err
        assert not out.exists()


def test_a_merge_follows_the_graders_rules_for_out(graded, tmp_path, capsys):
    _, whole, shards = graded
    existing = tmp_path / "grades"  # a gradebook of ours is updated, like a regrade, its TA's notes kept
    shutil.copytree(whole, existing)
    (existing / "feedback" / "ta-notes.md").write_text("mine")
    assert merge_into(existing, *shards) == 0
    assert (existing / "grades.csv").read_bytes() == (whole / "grades.csv").read_bytes()
    assert (existing / "backup" / "grades.json").read_bytes() == (whole / "grades.json").read_bytes()
    assert (existing / "feedback" / "ta-notes.md").read_text() == "mine"
    foreign = tmp_path / "notes"
    foreign.mkdir()
    (foreign / "ta-notes.txt").write_text("mine")
    assert merge_into(foreign, *shards) == 2 and "holds no gradebook written by this grader" in capsys.readouterr().err
    assert tree(foreign) == {"ta-notes.txt": b"mine"}
    before = tree(shards[0])
    assert merge_into(shards[0], *shards) == 2 and "shard" in capsys.readouterr().err
    assert tree(shards[0]) == before


def test_a_shard_never_grades_into_a_whole_class_gradebook_nor_another_shards(graded, tmp_path):
    folder, whole, shards = graded
    for out, shard in ((whole, "1/3"), (shards[0], "2/3"), (shards[0], "")):
        before = tree(out)
        with pytest.raises(SystemExit) as stop:
            grade_main([str(folder), "--out", str(out), *(["--shard", shard] if shard else [])])
        assert stop.value.code == 2 and tree(out) == before


def test_a_merge_completes_unrunnable_rows_as_the_whole_class_would(tmp_path):
    """A shard that saw only lesson 01 gives an unreadable file lesson 01's questions; the whole class, which
    mixes lessons 01 and 02, cannot tell its lesson: the merge must undo the shard's guess."""
    from packer.checking import PASSED
    from packer.grading.gradebook import Gradebook, checks_version, write_gradebook
    from packer.grading.outcome import Outcome
    from packer.grading.shards import class_digest

    def result(qid: str, name: str) -> dict:
        return {
            "qid": qid,
            "name": name,
            "status": PASSED,
            "points": 2,
            "max_points": 2,
            "detail": "",
            "counterexample": None,
            "expected": None,
            "actual": None,
            "tried": 5,
        }

    def named(shard: int, stem: str) -> str:
        return next(f"c/{stem}{i}.ipynb" for i in range(99) if shard_of(f"c/{stem}{i}.ipynb", 2) == shard)

    def rows() -> list[Outcome]:
        return [
            Outcome(named(1, "one"), "", "1", "01_assemble_context", "graded", [result("q1.1", "assemble_context")]),
            Outcome(named(1, "broken"), "", "2", "", "unreadable"),
            Outcome(named(2, "two"), "", "3", "02_prompt_packer", "graded", [result("q2.1", "pack_prompt")]),
        ]

    options, version, names = grade.Options(), checks_version(), [o.name for o in rows()]
    everyone = rows()
    grade.complete_rows(everyone, options, version)
    write_gradebook(Gradebook({o.name: o for o in everyone}, tmp_path, 1), options, tmp_path / "whole", None)
    for index in (1, 2):
        share = [o for o in rows() if shard_of(o.name, 2) == index]
        completed = grade.complete_rows(share, options, version)
        assert bool(completed) == (index == 1)  # the shard's guess: lesson 01 for the unreadable file
        shard = {
            "index": index,
            "count": 2,
            "class_submissions": 3,
            "class_digest": class_digest(names, []),
            "completed": completed,
        }
        write_gradebook(
            Gradebook({o.name: o for o in share}, tmp_path, 1, shard=shard), options, tmp_path / f"shard{index}", None
        )
    assert merge_into(tmp_path / "merged", tmp_path / "shard1", tmp_path / "shard2") == 0
    assert tree(tmp_path / "merged") == tree(tmp_path / "whole")

    def broken_tests(book: str) -> list:
        data = json.loads((tmp_path / book / "grades.json").read_text())
        return next(row["tests"] for row in data["submissions"] if row["status"] == "unreadable")

    assert broken_tests("shard1") and not broken_tests("merged")


def test_a_shard_with_no_share_of_the_class_still_writes_its_gradebook(tmp_path):
    write_submission(tmp_path / "class", "ana", "untouched")
    empty = next(k for k in (1, 2) if shard_of("class/ana.ipynb", 2) != k)
    assert grade_main([str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--shard", f"{empty}/2"]) == 0
    data = json.loads((tmp_path / "out" / "grades.json").read_text())
    assert data["submissions"] == [] and data["gradebook"]["shard"]["class_submissions"] == 1
    assert (tmp_path / "out" / "grades.csv").read_text().startswith("submission,learner")


# --- on a real Slurm: the shipped job scripts -----------------------------------------------------------------
SCRIPTS = ROOT / "packer" / "grading" / "slurm"
needs_slurm = pytest.mark.needs("slurm")
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="slurmd runs each job as the user who submitted it: needs root")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    started = Cluster(tmp_path_factory.mktemp("slurm"))
    try:
        started.start()
        yield started
    finally:
        started.stop()
        assert started.running() == [], "a daemon outlived its SIGTERM and SIGKILL"
        assert started.leftovers() == [], "processes of the cluster or its jobs are still running"


def submit(cluster: Cluster, logs: Path, *args: str) -> str:
    """sbatch from the workbook's folder, as the instructors' guide says; the job's id. Logs go to `logs`, not the checkout."""
    output = "%x-%A_%a.out" if any(a.startswith("--array") for a in args) else "%x-%j.out"
    return cluster.slurm("sbatch", "--parsable", f"--output={logs}/{output}", *args, cwd=ROOT).strip()


def submit_grading(cluster: Cluster, logs: Path, folder: Path, shards: Path, grades: Path, timeout: int) -> tuple:
    """The instructors' guide's two sbatch lines: the grading array (2 tasks) and the merge after it; their job ids.
    Each task gets 1 CPU, so both run at once on this two-core node (the script asks for 2 CPUs and 4 GB)."""
    array = submit(
        cluster,
        logs,
        "--array=1-2",
        "--cpus-per-task=1",
        "--mem=2G",
        str(SCRIPTS / "grade.sbatch"),
        str(folder),
        str(shards),
        *with_sandbox(["--timeout", str(timeout)]),
    )
    return array, submit(
        cluster, logs, f"--dependency=afterok:{array}", str(SCRIPTS / "merge.sbatch"), str(shards), str(grades)
    )


def log_text(logs: Path) -> str:
    """Every job's log, for an assertion's message."""
    return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')}" for p in sorted(logs.glob("*.out")))


@needs_slurm
@as_root
def test_a_slurm_array_and_its_merge_job_grade_the_class_as_one_run_would(graded, cluster, tmp_path):
    folder, whole, _ = graded
    logs = tmp_path / "logs"
    logs.mkdir()
    array, merged = submit_grading(cluster, logs, folder, tmp_path / "shards", tmp_path / "grades", timeout=20)
    cluster.wait_done(240)
    states = [cluster.state(f"{array}_1"), cluster.state(f"{array}_2"), cluster.state(merged)]
    assert states == ["COMPLETED"] * 3, log_text(logs)
    for index in (1, 2):
        data = json.loads((tmp_path / "shards" / str(index) / "grades.json").read_text())
        shard = data["gradebook"]["shard"]
        assert (shard["index"], shard["count"]) == (index, 2), "each task took its shard from Slurm"
        assert data["submissions"], "each task graded a share of the class"
    assert tree(tmp_path / "grades") == tree(whole)
    assert f"merged 2 shards ({len(CLASS)} submissions)" in log_text(logs)
    assert not list(ROOT.glob("slurm-*.out")), "no job wrote its log into the checkout"


@needs_slurm
@as_root
def test_a_shard_cancelled_while_grading_cancels_the_merge_and_a_merge_by_hand_refuses(cluster, tmp_path, capsys):
    folder = tmp_path / "submissions"
    for name, kind in CLASS.items():
        write_submission(folder, name, kind)
    # A learner whose notebook runs for ever, in shard 2: its task is still grading when it is cancelled.
    slow = next(f"slow{n}" for n in range(100) if shard_of(f"submissions/slow{n}.ipynb", 2) == 2)
    write_submission(folder, slow, "runaway")
    logs, shards = tmp_path / "logs", tmp_path / "shards"
    logs.mkdir()
    array, merged = submit_grading(cluster, logs, folder, shards, tmp_path / "grades", timeout=120)
    deadline = time.monotonic() + 120  # shard 1 done; shard 2 has journaled a row and is on the endless one
    while cluster.state(f"{array}_1") != "COMPLETED" or not read_journal(shards / "2"):
        assert time.monotonic() < deadline and cluster.state(f"{array}_2") in ("PENDING", "RUNNING"), log_text(logs)
        time.sleep(0.5)
    cluster.slurm("scancel", f"{array}_2")
    cluster.wait_done(60)
    assert cluster.state(f"{array}_2") == "CANCELLED", log_text(logs)
    assert cluster.state(merged) == "CANCELLED", "Slurm cancels the merge that its failed dependency never starts"
    assert not (tmp_path / "grades").exists()
    assert "interrupted by SIGTERM" in log_text(logs)
    capsys.readouterr()
    assert merge_into(tmp_path / "by-hand", *sorted(shards.iterdir())) == 2  # merge shards/*
    refusal = capsys.readouterr().err
    assert f"{shards / '2'}: no gradebook yet: this shard's grading stopped before it finished" in refusal
    assert "kept in its journal" in refusal
    assert (
        "run that shard again (the same K of N; under Slurm --array=K with --shard auto/N) into the same --out"
        in refusal
    )
    assert not (tmp_path / "by-hand").exists()
