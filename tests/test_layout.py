"""The package layout: a light core, one subpackage per audience, and imports that point one way.

packer            the algorithms (core)            imports: core
packer.lab        what the lessons draw with       imports: core, lab
packer.checking   the exercises' self-checks       imports: core, checking
packer.grading    the instructor's grader          imports: core, checking, grading
packer.classroom  serving a class (make hub)       imports: classroom
packer.site       the lessons as a web site        imports: core, checking, site
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "packer"
SUBPACKAGES = ("lab", "checking", "grading", "classroom", "site")
MAY_IMPORT = {
    "core": {"core"},
    "lab": {"core", "lab"},
    "checking": {"core", "checking"},
    "grading": {"core", "checking", "grading"},
    "classroom": {"classroom"},  # the hub's configuration loads it: nothing of the packers
    # make site reads the notebooks as files; a lesson's practice points it reads from packer.checking.practice, so
    # the page judges an answer by the kernel's own checks and words (packer/site/practice.py)
    "site": {"core", "checking", "site"},
}
HEAVY = (
    "ipywidgets",
    "matplotlib",
    "hypothesis",
    "nbclient",
    "nbformat",
    "IPython",
    "jupyter_client",
    "zmq",
    "bpe_openai",
    "mistral_common",
    "sentencepiece",
    "pydantic",
)


def module_name(path: Path) -> str:
    """packer/checking/engine.py -> packer.checking.engine; packer/lab/__init__.py -> packer.lab."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_sources() -> dict[str, str]:
    """Every module of the packer package, by dotted name."""
    return {module_name(path): path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> str:
    """Which audience a packer module belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in SUBPACKAGES else "core"


def packer_imports(module: str, source: str, known: set[str]) -> set[str]:
    """The packer modules a module imports anywhere in its body (function-level imports included).
    `from packer.checking import variants` counts as importing packer.checking.variants."""
    is_package = module in {m for m in known if any(k.startswith(m + ".") for k in known)}
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {name for name in found if name == "packer" or name.startswith("packer.")}


def import_problems(sources: dict[str, str]) -> list[str]:
    """Imports that point up the stack, and circles between modules, as readable lines."""
    known = set(sources)
    graph = {module: packer_imports(module, source, known) - {module} for module, source in sources.items()}
    problems = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            if layer(target) not in MAY_IMPORT[layer(module)]:
                problems.append(f"{module} ({layer(module)}) imports {target} ({layer(target)})")
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                problems.append("import circle: " + " -> ".join(path[path.index(target) :] + [module, target]))
            elif target not in state:
                visit(target, path + [module])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
    return problems


def test_imports_point_down_the_stack_and_close_no_circle():
    assert import_problems(package_sources()) == []


def test_the_import_check_catches_an_upward_import_and_a_circle():
    sources = package_sources()
    sources["packer.chunks"] += "\nfrom packer.lab.trace import trace_chunks\n"
    sources["packer.checking.engine"] += "\ndef later():\n    import packer.checking.bank\n"
    sources["packer.lab.plots"] += "\nfrom packer.grading import grader\n"
    problems = import_problems(sources)
    assert "packer.chunks (core) imports packer.lab.trace (lab)" in problems
    assert "packer.lab.plots (lab) imports packer.grading.grader (grading)" in problems
    assert any(
        p.startswith("import circle:") and "packer.checking.engine" in p and "packer.checking.bank" in p
        for p in problems
    ), problems


def test_relative_imports_are_resolved_too():
    sources = package_sources()
    sources["packer.lab.plots"] += "\nfrom ..checking import engine\n"
    assert "packer.lab.plots (lab) imports packer.checking.engine (checking)" in import_problems(sources)


def test_the_core_holds_only_the_algorithms_and_each_subpackage_says_who_it_is_for():
    top = sorted(p.name for p in PACKAGE.iterdir() if p.suffix == ".py")
    assert top == [
        "__init__.py",
        "anthropic_messages.py",
        "caching.py",
        "chat.py",
        "chunks.py",
        "clearing.py",
        "counters.py",
        "duplicates.py",
        "history.py",
        "messages.py",
        "mmr.py",
        "openai_request.py",
        "ordering.py",
        "priority.py",
        "prompt.py",
        "recorded_counts.py",
        "request.py",
        "responses.py",
        "responses_shape.py",
        "section_budget.py",
        "sections.py",
        "summary.py",
        "transcript.py",
        "utf8.py",
        "validation.py",
    ]
    assert sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(SUBPACKAGES)
    audience = {
        "lab": "the lessons",
        "checking": "learners",
        "grading": "instructor",
        "classroom": "instructor",
        "site": "readers",
    }
    for name in SUBPACKAGES:
        docstring = ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text(encoding="utf-8")))
        assert docstring and audience[name] in docstring.splitlines()[0], (name, docstring)


@pytest.mark.parametrize("statement", ["import packer", "import packer.sections"])
def test_importing_the_core_loads_nothing_heavy(statement):
    probe = f"import sys; {statement}; print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert run.stdout.strip() == "[]", run.stdout
