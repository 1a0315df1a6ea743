"""The grader contains every submission by default: hostile notebooks, each a correct solution with one
hostile cell placed before the answers, graded in one batch beside an honest learner.

For each: the batch survives, the hostile learner's answers still count, the gradebook names the limit
that was hit, and nothing the cell tried reached outside its own folder (checked from outside).
Skipped, with the reason, where bubblewrap cannot run.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from pathlib import Path

import nbformat
import pytest

from grader_cli import grade_cli
from packer.grading.demo_class import solution, with_cell

pytestmark = pytest.mark.needs("bubblewrap")
ROOT = Path(__file__).resolve().parents[2]
MARK = f"workbook-containment-{os.getpid()}"


def hostile_cells(other: Path, gradebook: Path, port: int) -> dict[str, str]:
    """Each hostile learner's extra cell (it runs before the cell that defines assemble_context)."""
    return {
        "memory": "data = bytearray(4 << 30)",
        "processes": (
            "import subprocess\nchildren = []\n"
            "for _ in range(200):\n    children.append(subprocess.Popen(['sleep', '60']))"
        ),
        "big-file": "with open('big.bin', 'wb') as f:\n    for _ in range(768):\n        f.write(b'x' * (1 << 20))",
        "network": f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=3)",
        "reads-another": f"print(open({str(other)!r}).read())",
        "writes-home": f"open({str(Path.home() / MARK)!r}, 'w').write('x')",
        "writes-tmp": f"open('/tmp/{MARK}', 'w').write('x')",
        "writes-gradebook": f"open({str(gradebook / 'grades.csv')!r}, 'w').write('everyone,100')",
        # The run's search cache is shared by every kernel: changing it could steer the next learner's checks.
        "poisons-search-cache": (
            "import os, pathlib\ncache = pathlib.Path(os.environ['HYPOTHESIS_STORAGE_DIRECTORY'])\n"
            "assert list(cache.rglob('charmap*')), 'the cache was not filled'\n"
            "for path in cache.rglob('*'):\n    if path.is_file():\n        path.write_text('poisoned')"
        ),
    }


@pytest.fixture(scope="module")
def contained(tmp_path_factory):
    """One contained grading run over the hostile class and an honest learner; yields what to check. The run has
    a deep TMPDIR, as batch systems often set one far down a job folder: Unix socket paths hold at most 107 bytes,
    too few for a contained kernel's sockets there, so the grader must put its run folder elsewhere."""
    base = tmp_path_factory.mktemp("containment")
    folder, gradebook = base / "submissions", base / "grades"
    folder.mkdir()
    deep = base / ("job-" + "x" * 60) / "tmp"
    deep.mkdir(parents=True)
    other = folder / "honest-01_assemble_context.ipynb"
    nbformat.write(solution(), other)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.5)
    accepted: list = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept())
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    cells = hostile_cells(other, gradebook, server.getsockname()[1])
    for kind, source in cells.items():
        nbformat.write(with_cell(source, before="assemble_context"), folder / f"{kind}-01_assemble_context.ipynb")
    honest_bytes = other.read_bytes()
    run = grade_cli(
        str(folder),
        "--out",
        str(gradebook),
        "--jobs",
        "2",
        "--timeout",
        "20",
        "--notebook-timeout",
        "120",
        "--sandbox",
        "required",
        env={**os.environ, "TMPDIR": str(deep)},
        timeout=900,
    )
    stop.set()
    thread.join()
    server.close()
    rows = {}
    if (gradebook / "grades.json").exists():
        book = json.loads((gradebook / "grades.json").read_text(encoding="utf-8"))
        rows = {row["submission"].split("/")[-1].split("-01_")[0]: row for row in book["submissions"]}
    yield {
        "run": run,
        "rows": rows,
        "accepted": accepted,
        "gradebook": gradebook,
        "other": other,
        "honest_bytes": honest_bytes,
        "kinds": list(cells),
        "deep_tmpdir": deep,
    }
    for leftover in (Path.home() / MARK, Path("/tmp") / MARK):
        leftover.unlink(missing_ok=True)


def test_the_batch_survives_and_every_learner_has_a_row(contained):
    assert contained["run"].returncode == 0, contained["run"].stderr[-2000:]
    assert sorted(contained["rows"]) == sorted(["honest", *contained["kinds"]])
    assert contained["rows"]["honest"]["score"] == contained["rows"]["honest"]["max_score"]


def test_an_honest_learner_gets_no_note_about_the_kernels_own_housekeeping(contained):
    # IPython's profile, matplotlib's and other caches go to the private /tmp, not the learner's folder.
    assert contained["rows"]["honest"]["notes"] == [], contained["rows"]["honest"]["notes"]
    assert contained["rows"]["honest"]["status"] == "graded"


def test_a_deep_tmpdir_does_not_make_the_kernels_sockets_too_long(contained):
    """The class was graded with a TMPDIR too deep for a contained kernel's sockets (see the fixture)."""
    assert contained["run"].returncode == 0, contained["run"].stderr[-2000:]
    row = contained["rows"]["honest"]
    assert (row["status"], row["score"]) == ("graded", row["max_score"]), row["notes"]
    assert row["containment"].startswith("bubblewrap")
    assert list(contained["deep_tmpdir"].iterdir()) == []  # nothing left behind either place


@pytest.mark.parametrize(
    "kind",
    [
        "memory",
        "processes",
        "big-file",
        "network",
        "reads-another",
        "writes-home",
        "writes-tmp",
        "writes-gradebook",
        "poisons-search-cache",
    ],
)
def test_a_hostile_cell_costs_its_learner_nothing_else(contained, kind):
    row = contained["rows"][kind]
    assert row["score"] == row["max_score"], json.dumps(row, indent=1)[:3000]
    assert row["containment"].startswith("bubblewrap"), row["containment"]


@pytest.mark.parametrize(
    "kind, limit",
    [
        ("memory", "the memory limit (2048 MiB per kernel)"),
        ("processes", "the process limit (64 processes"),
        ("big-file", "the file size limit (100 MiB per file)"),
    ],
)
def test_the_gradebook_names_the_limit_that_was_hit(contained, kind, limit):
    if kind == "processes" and os.geteuid() != 0:
        pytest.skip("a per-kernel process limit needs a user of its own (root only)")
    notes = " ".join(contained["rows"][kind]["notes"])
    assert limit in notes, notes


def test_nothing_reached_outside_the_submissions_own_folder(contained):
    assert contained["accepted"] == [], "a kernel connected to a server on the grading machine"
    notes = {kind: " ".join(row["notes"]) for kind, row in contained["rows"].items()}
    assert "FileNotFoundError" in notes["reads-another"]  # another learner's file is not there at all
    assert "Read-only file system" in notes["poisons-search-cache"], notes["poisons-search-cache"]
    assert not (Path.home() / MARK).exists() and not (Path("/tmp") / MARK).exists()
    assert contained["other"].read_bytes() == contained["honest_bytes"]
    book = contained["gradebook"] / "grades.csv"
    assert "everyone,100" not in book.read_text(encoding="utf-8")
    assert all("writes-gradebook" not in line or ",10,10," in line for line in book.read_text().splitlines())
