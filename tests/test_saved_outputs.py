"""`make outputs` saves no absolute path of the machine that ran it: tracebacks and printed paths name files relative
to the checkout (`packer/chunks.py`), by packer/site/saved_outputs.py, and no committed notebook holds one.
build_paths is the check, also used on the site's pages (tests/test_site.py, tests/e2e/test_site_in_browser.py)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import nbformat

from packer.site.saved_outputs import RelativePaths, relative_paths

ROOT = Path(__file__).resolve().parents[1]


# An absolute path of a checkout, as a traceback prints it: folders that lead to one of the repository's own
# top-level folders (`/home/ada/workbook/` before `packer/chunks.py`). Not a relative link (`../docs/`), nor a URL.
CHECKOUT_PATH = re.compile(r"(?<![\w.~:/])(?:/[\w.+@-]+)+/(?=(?:packer|notebooks|exercises|solutions|docs|tests)/)")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def build_paths(text: str) -> set[str]:
    """The absolute paths of a checkout in `text` (colour codes of a traceback taken out first)."""
    plain = ANSI.sub("", text)
    return set(CHECKOUT_PATH.findall(plain)) | ({str(ROOT)} if str(ROOT) in plain else set())


def strings(value: object) -> list[str]:
    """Every string in a notebook (its sources, outputs and metadata), as it is, not JSON-escaped."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [text for item in value for text in strings(item)] if isinstance(value, list) else []


def test_the_path_check_finds_a_traceback_path_and_leaves_links_and_urls_alone():
    assert build_paths("\x1b[32m/home/ada/workbook/packer/chunks.py:50\x1b[39m") == {"/home/ada/workbook/"}
    assert build_paths(f"File {ROOT}/packer/utf8.py:19") == {f"{ROOT}/", str(ROOT)}
    assert build_paths("see ../docs/learners.md, https://github.com/a/b/blob/main/docs/x.md, packer/chunks.py") == set()


def test_no_committed_notebook_holds_an_absolute_path_of_the_machine_that_saved_it():
    found = {}
    for path in sorted(ROOT.glob("*/*.ipynb")):
        if path.parent.name in ("notebooks", "exercises", "solutions"):
            paths = build_paths("\n".join(strings(nbformat.read(path, as_version=4))))
            if paths:
                found[path.relative_to(ROOT).as_posix()] = sorted(paths)
    assert found == {}, "saved outputs name the machine's folders: run make outputs for these notebooks"


def test_make_outputs_saves_tracebacks_with_paths_relative_to_the_checkout(tmp_path):
    """The rule applies when outputs are saved: a notebook run by `make outputs` names packer/chunks.py."""
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                "import packer\npacker.assemble_context([], -1)", metadata={"tags": ["raises-exception"]}
            )
        ],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    )
    path = tmp_path / "run me.ipynb"
    nbformat.write(notebook, path)
    made = subprocess.run(["make", "-s", "outputs", f"NOTEBOOKS='{path}'"], cwd=ROOT, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    saved = nbformat.read(path, as_version=4).cells[0].outputs
    traceback = ANSI.sub("", "\n".join(saved[0]["traceback"]))
    assert saved[0]["ename"] == "ValueError" and "File packer/chunks.py:" in traceback
    assert build_paths(traceback) == set()


def test_the_saved_outputs_rule_rewrites_the_checkout_and_the_home_folder_in_every_output():
    checkout, home = "/home/ada/workbook", "/home/ada"
    traceback = f"\x1b[36mFile \x1b[39m\x1b[32m{checkout}/packer/chunks.py:50\x1b[39m, in assemble_context"
    assert relative_paths(traceback, checkout, home).endswith(
        "\x1b[32mpacker/chunks.py:50\x1b[39m, in assemble_context"
    )
    assert relative_paths(f"saved to {home}/notes.txt", checkout, home) == "saved to ~/notes.txt"
    assert relative_paths("/home/adams/x and /home/ada", checkout, home) == "/home/adams/x and /home/ada"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x")])
    notebook.cells[0].outputs = [
        nbformat.v4.new_output("error", ename="ValueError", evalue="bad", traceback=[traceback]),
        nbformat.v4.new_output("stream", name="stdout", text=f"{checkout}/notebooks/01.ipynb\n"),
        nbformat.v4.new_output("display_data", data={"text/plain": f"'{checkout}/docs/learners.md'"}),
    ]
    rewritten, _ = RelativePaths(checkout=checkout, home=home).preprocess(notebook, {})
    assert build_paths("\n".join(strings(rewritten))) == set() and checkout not in json.dumps(rewritten)
    assert rewritten.cells[0].outputs[1]["text"] == "notebooks/01.ipynb\n"
