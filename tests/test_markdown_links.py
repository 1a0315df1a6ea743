"""The README and the guides under docs/ link to each other and into the repository, and every link works: a
relative link names a file that exists, an anchor names a heading of the page it points at (as GitHub makes
anchors from headings), and a repository path named in backticks exists. The README stays a learner's two
screens, and reaches every guide in one click.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from packer.site.pages import GUIDE_ORDER
from packer.site.render import github_slug

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))] + [
    ROOT / folder / "README.md" for folder in ("notebooks", "exercises", "solutions")
]
LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~)")
NAMED_PATH = re.compile(r"`((?:packer|tests|notebooks|exercises|solutions|docs|jupyter-config)/[^`\s]*)`")


def prose_lines(text: str) -> list[str]:
    """The lines of a Markdown page outside fenced code blocks (``` or ~~~ fences, of any length)."""
    lines, fence = [], None
    for line in text.splitlines():
        opened = FENCE.match(line.lstrip())
        if opened:
            mark = re.match(r"`+|~+", line.lstrip()).group(0)
            if fence is None:
                fence = mark
            elif mark.startswith(fence):
                fence = None
            continue
        if fence is None:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: its text without markup (the site's github_slug does the rest)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    return github_slug(text.replace("`", ""))


def anchors(path: Path) -> set[str]:
    """Every anchor a page's headings make (a repeated heading gets -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    made = set()
    for line in prose_lines(path.read_text(encoding="utf-8")):
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        base = slug(heading.group(1))
        count = seen.get(base, 0)
        made.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return made


def links(path: Path) -> list[str]:
    """The targets of a page's Markdown links outside code (inline code spans taken out first)."""
    text = "\n".join(re.sub(r"`[^`]*`", "", line) for line in prose_lines(path.read_text(encoding="utf-8")))
    return LINK.findall(text)


def test_slugs_and_links_are_read_as_github_reads_them():
    assert slug("The `packer` module at a glance") == "the-packer-module-at-a-glance"
    assert (
        slug("Containment: every kernel in a sandbox of its own") == "containment-every-kernel-in-a-sandbox-of-its-own"
    )
    assert slug("The class on one machine: `make hub`") == "the-class-on-one-machine-make-hub"
    assert slug("Grading a class across machines") == "grading-a-class-across-machines"
    page = "[a](x.md#y) `[b](not-a-link.md)` [c [d]](z.md) [e](https://example.org)\n```\n[f](fenced.md)\n```\n"
    assert LINK.findall("\n".join(re.sub(r"`[^`]*`", "", line) for line in prose_lines(page))) == [
        "x.md#y",
        "z.md",
        "https://example.org",
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_opens_a_file_and_every_anchor_a_heading(page):
    broken = []
    for target in links(page):
        if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target):
            continue  # a web page or a mail address: not fetched here (no network at test time)
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists() or not resolved.is_relative_to(ROOT):
            broken.append(f"{target}: no such file in the repository")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: {resolved.relative_to(ROOT)} has no heading with the anchor #{anchor}")
    assert broken == [], f"{page.relative_to(ROOT)}: " + "; ".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_repository_path_a_page_names_exists(page):
    """A guide that names a file by its path (a test, a script, a config) must not outlive a move of that file."""
    text = page.read_text(encoding="utf-8")
    made_by_runs = set((ROOT / ".gitignore").read_text(encoding="utf-8").splitlines())  # e.g. tests/e2e/screenshots/
    missing = [
        named
        for named in NAMED_PATH.findall(text)
        if named not in made_by_runs
        and not (any(ROOT.glob(named.rstrip("/"))) if "*" in named else (ROOT / named.rstrip("/")).exists())
    ]
    assert missing == [], f"{page.relative_to(ROOT)} names paths that do not exist: {missing}"


def test_the_readme_is_a_learners_two_screens_and_reaches_every_guide_in_one_click():
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 8_000 and len(text.splitlines()) < 100
    linked = {(readme.parent / t.partition("#")[0]).resolve() for t in links(readme) if not re.match(r"\w+:", t)}
    assert {p.resolve() for p in (ROOT / "docs").glob("*.md")} <= linked
    assert sorted(p.name for p in (ROOT / "docs").glob("*.md")) == sorted(GUIDE_ORDER), "the site orders every guide"
    for heading in ("Two commands", "Exercises and self-checks", "Getting help"):
        assert slug(heading) in anchors(readme)
    assert "make lab " in text and "make test " in text


# --- what the README and the learners' guide state about the exercises and the packer, checked --------------
def test_the_number_of_graded_questions_per_exercise_is_the_range_the_pages_state():
    from collections import Counter

    from packer.checking import BANK

    per_lesson = Counter(qid.split(".")[0] for qid in BANK)
    stated = f"{min(per_lesson.values())}–{max(per_lesson.values())} graded"
    for page in (ROOT / "README.md", ROOT / "docs" / "learners.md"):
        assert stated in " ".join(page.read_text(encoding="utf-8").split()), f"{page.name} should say {stated!r}"


def test_the_learners_guide_shows_what_the_packer_module_really_returns():
    """The code block of 'The packer module at a glance', run: every comment that is a Python literal is the value
    of its line, and the others say what the run gives."""
    import ast
    import contextlib
    import io

    text = (ROOT / "docs" / "learners.md").read_text(encoding="utf-8")
    block = text.split("## The `packer` module at a glance", 1)[1].split("```python\n", 1)[1].split("\n```", 1)[0]
    namespace: dict = {}
    values = []
    statements = ast.parse(block).body
    lines = block.splitlines()
    for statement in statements:
        code = ast.get_source_segment(block, statement)
        comment = lines[statement.end_lineno - 1].partition("  # ")[2]
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            if isinstance(statement, ast.Expr):
                value = eval(compile(ast.Expression(statement.value), "<guide>", "eval"), namespace)
            else:
                exec(compile(ast.Module([statement], []), "<guide>", "exec"), namespace)
                value = None
        values.append((code, comment, value, printed.getvalue()))
    checked = 0
    for code, comment, value, _ in values:
        if not comment:
            continue
        try:
            literal = ast.literal_eval(comment)
        except (ValueError, SyntaxError):
            literal = None
        if literal is not None:
            assert value == literal, f"{code}  # {comment}: the run gives {value!r}"
            checked += 1
    assert checked == 3
    by_call = {code.split("(", 1)[0]: (comment, value, printed) for code, comment, value, printed in values}
    chosen, skipped, prompt = by_call["packer.pack_prompt"][1]
    assert ([i for i, _ in chosen], skipped, len(prompt.split())) == (["a", "c"], ["b"], 9)
    assert "440 of 500, headroom 60 (12%)" in by_call["print"][0]
    assert "sum of the sections 440, headroom 60 tokens (12%)" in by_call["print"][2]
    chosen, skipped, request = by_call["packer.pack_request"][1]
    used = namespace["packer"].mistral_chat("v7")(request)
    assert f"a, c; {used} + 30" == by_call["packer.pack_request"][0] and [i for i, _ in chosen] == ["a", "c"]
