"""`make site` (packer/site/): the lessons as static pages from their saved outputs, in order, with no solutions unless
asked, nothing loaded from the network, the same bytes for the same notebooks, and no folder of someone else's replaced;
on every page the contents of the course, previous/next in the course's order, one shared stylesheet, figures that
open full size, headings' links a screen reader does not read as "pilcrow", and a search index (Pagefind).

Most tests build a small copy of the repository (three lessons, two exercises, their solutions) to stay quick; the
browser test (tests/e2e/test_site_in_browser.py) builds and reads the whole site, and searches it."""

from __future__ import annotations

import base64
import html
import io
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from PIL import Image
from test_saved_outputs import build_paths

from packer.checking.practice import BY_LESSON, POINTS, Write
from packer.lab.folded import folded_html
from packer.site.__main__ import main
from packer.site.build import LIVE_NOTE, MARKER, SiteError, build
from packer.site.chrome import SITE_NAME
from packer.site.figures import FULL
from packer.site.outline import duration, lesson_minutes, word_count
from packer.site.pages import README_TITLE
from packer.site.run_times import RUN_TIMES, read_run_times
from packer.site.practice import PRACTICE_MINUTES, practice_minutes
from packer.site.practice import minutes_words as practice_words

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ["00_start_here.ipynb", "01_assemble_context.ipynb", "06_policies.ipynb"]  # 06 has math and an explorer
EXERCISES = ["exercise_01_assemble_context.ipynb", "exercise_05_counting_units.ipynb"]  # they link to solutions


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Tags(HTMLParser):
    """Every start tag of a page with its attributes, the elements each is inside (as `nav.site-contents`,
    `main#content`), and the page's visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inside: list[set[str]] = []
        self.text: list[str] = []
        self._hidden = 0
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        self.inside.append(set(self._open))
        if tag in ("style", "script"):
            self._hidden += 1
        if tag not in VOID:
            names = [f"{tag}.{c}" for c in (attributes.get("class") or "").split()]
            self._open.append(" ".join([tag, *names, f"{tag}#{attributes.get('id')}"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self._hidden -= 1
        if tag not in VOID and self._open:
            self._open.pop()

    def within(self, marker: str) -> list[tuple[str, dict[str, str | None]]]:
        """The tags inside an element `marker` names (`nav.site-contents`, `main#content`)."""
        return [t for t, inside in zip(self.tags, self.inside) if any(marker in o.split() for o in inside)]

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.text.append(data)


def parse(path: Path) -> Tags:
    tags = Tags()
    tags.feed(path.read_text(encoding="utf-8"))
    return tags


def small_repository(base: Path) -> Path:
    """A repository with three lessons, two exercises, their solutions, the guides and the lessons' measured run
    times, copied from this one."""
    root = base / "repo"
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copyfile(ROOT / "README.md", root / "README.md")
    (root / RUN_TIMES).parent.mkdir(parents=True)
    shutil.copyfile(ROOT / RUN_TIMES, root / RUN_TIMES)
    for folder, names in (
        ("notebooks", LESSONS),
        ("exercises", EXERCISES),
        ("solutions", [n.replace("exercise_", "solution_") for n in EXERCISES]),
    ):
        (root / folder).mkdir(parents=True)
        for name in names:
            shutil.copyfile(ROOT / folder / name, root / folder / name)
    return root


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_repository(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def site(repo: Path) -> Path:
    out = repo.parent / "site"
    build(repo, out)
    return out


def pages(out: Path) -> list[Path]:
    return sorted(out.rglob("*.html"))


def test_the_index_lists_the_lessons_in_order_then_the_exercises_and_no_solutions(site):
    listed = [a["href"] for tag, a in parse(site / "index.html").tags if tag == "a" and not a.get("class")]
    hrefs = [h for h in listed if h.endswith(".html")]
    guides = ["docs/learners.html", "docs/instructors.html", "docs/contributing.html"]  # in the order a reader needs
    lessons = [f"notebooks/{n[:-6]}.html" for n in LESSONS]
    assert hrefs == ["README.html", *lessons, *[f"exercises/{n[:-6]}.html" for n in EXERCISES], *guides]
    assert "docs/instructors.html" in guides
    assert not (site / "solutions").exists()
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*.ipynb")) == sorted(
        [f"notebooks/{n}" for n in LESSONS] + [f"exercises/{n}" for n in EXERCISES]
    )


# The small site's pages in the course's order: each lesson, then its exercise; exercise 05, whose lesson is not in
# the small site, after the lessons; then the guides.
COURSE = [
    "README.html",
    "notebooks/00_start_here.html",
    "notebooks/01_assemble_context.html",
    "exercises/exercise_01_assemble_context.html",
    "notebooks/06_policies.html",
    "exercises/exercise_05_counting_units.html",
    "docs/learners.html",
    "docs/instructors.html",
    "docs/contributing.html",
]


def title(page: Path) -> str:
    return html.unescape(re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8")).group(1))


def test_each_page_is_titled_by_its_first_heading_and_the_site_and_links_to_its_download(site, repo):
    first = site / "notebooks" / LESSONS[0].replace(".ipynb", ".html")
    heading = next(
        c.source for c in nbformat.read(repo / "notebooks" / LESSONS[0], 4).cells if c.cell_type == "markdown"
    )
    page, _, site_name = title(first).rpartition(" \u00b7 ")
    assert page and page in heading.splitlines()[0] and site_name == SITE_NAME
    links = {a.get("class"): a["href"] for tag, a in parse(first).tags if tag == "a" and a.get("class")}
    assert links["site-download"] == LESSONS[0]
    assert (site / "notebooks" / LESSONS[0]).read_bytes() == (repo / "notebooks" / LESSONS[0]).read_bytes()


def test_next_follows_the_course_from_the_index_through_every_page_back_to_the_index(site):
    """Each lesson, then its exercise, then the next lesson; the guides after; from the index and back to it."""
    seen, page = [], site / "index.html"
    for _ in range(len(COURSE) + 1):
        page = site / _hop(site, page, "site-next")
        if page == site / "index.html":
            break
        seen.append(page.relative_to(site).as_posix())
    assert seen == COURSE
    back, page = [], site / COURSE[-1]
    for _ in range(len(COURSE)):
        back.append(page.relative_to(site).as_posix())
        page = site / _hop(site, page, "site-prev")
    assert back == COURSE[::-1] and page == site / "index.html"


def _hop(site: Path, page: Path, cls: str) -> str:
    """The page a link of class `cls` leads to, relative to the site's root."""
    href = next(a["href"] for tag, a in parse(page).tags if tag == "a" and a.get("class") == cls)
    return (page.parent / href).resolve().relative_to(site.resolve()).as_posix()


@pytest.fixture(scope="module")
def with_solutions(repo: Path) -> tuple[Path, list]:
    """The small site built with its solutions (make site SOLUTIONS=1): its folder and the pages built, in order."""
    out = repo.parent / "with-solutions"
    return out, build(repo, out, solutions=True)


def test_with_solutions_each_exercise_is_followed_by_its_solution(with_solutions):
    built = [p.html_name for p in with_solutions[1]]
    assert built[built.index("exercises/exercise_01_assemble_context.html") + 1] == (
        "solutions/solution_01_assemble_context.html"
    )
    assert built.index("solutions/solution_01_assemble_context.html") < built.index("notebooks/06_policies.html")


def test_every_page_has_the_contents_of_the_course_with_itself_marked(site):
    for name in COURSE:
        page = site / name
        contents = parse(page).within("nav.site-contents")
        hrefs = [a["href"] for tag, a in contents if tag == "a"]
        listed = [(page.parent / h).resolve().relative_to(site.resolve()).as_posix() for h in hrefs]
        assert listed == COURSE, name  # every page, in the course's order (an exercise under its lesson)
        current = [(page.parent / a["href"]).resolve() for tag, a in contents if tag == "a" and a.get("aria-current")]
        assert current == [page.resolve()], name
        assert [t for t, _ in contents][:2] == ["details", "summary"]  # it folds (on a phone)


def test_no_page_loads_anything_from_the_network_and_its_only_scripts_are_the_sites_own_files(site):
    for page in [*pages(site), site / "site.css"]:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"url\(\s*['\"]?(https?:)?//|@import", text), f"{page.name}'s CSS fetches something"
        if page.suffix != ".html":
            continue
        tags = parse(page).tags
        loaded = [a.get("src") or a.get("href") for tag, a in tags if tag in ("script", "link", "img", "iframe")]
        assert not [u for u in loaded if u and re.match(r"(https?:)?//", u)], f"{page.name} loads {loaded}"
        scripts = [a.get("src") for tag, a in tags if tag == "script"]
        assert all(scripts), f"{page.name} has an inline script"
        practice = ["practice.js"] if page.parent.name == "notebooks" else []  # a lesson's practice points
        assert [(page.parent / s).resolve().relative_to(site.resolve()).as_posix() for s in scripts] == [
            "pagefind/pagefind-ui.js",
            "site.js",
            *practice,
        ], page.name


def test_every_page_links_the_one_stylesheet_and_has_none_of_its_own(site):
    for page in pages(site):
        if page.parent.name == "pagefind":
            continue
        tags = parse(page).tags
        sheets = [a["href"] for tag, a in tags if tag == "link" and a.get("rel") == "stylesheet"]
        assert [(page.parent / s).resolve() for s in sheets] == [(site / "site.css").resolve()], page.name
        assert not [t for t, _ in tags if t == "style"], f"{page.name} has a <style> of its own"
    css = (site / "site.css").read_text(encoding="utf-8")
    assert ".jp-Cell" in css and ".site-contents" in css and ".pagefind-ui" in css  # JupyterLab's, ours, Pagefind's


def saved_pngs(value: object) -> list[str]:
    """Every PNG a notebook saved (base64), in its cells' outputs and in its explorers' saved widget state."""
    if isinstance(value, dict):
        found = [value["image/png"]] if isinstance(value.get("image/png"), str) else []
        return found + [png for item in value.values() for png in saved_pngs(item)]
    return [png for item in value for png in saved_pngs(item)] if isinstance(value, list) else []


def test_figures_are_files_beside_the_page_and_each_opens_full_size_from_its_link(site, repo):
    page = site / "notebooks/06_policies.html"
    text = page.read_text(encoding="utf-8")
    assert "data:image" not in text
    tags = parse(page).tags
    images = [i for i, (tag, _) in enumerate(tags) if tag == "img"]
    assert len(images) >= 3
    saved = {base64.b64decode(png) for png in saved_pngs(nbformat.read(repo / "notebooks/06_policies.ipynb", 4))}
    lessons_figures = False
    for i in images:
        (before, link), (_, image) = tags[i - 1], tags[i]
        assert before == "a" and link.get("class") == "site-figure", f"{image['src']} is not in a figure link"
        assert re.fullmatch(r"06_policies_files/[\w.]+\.png", image["src"])
        shown = Image.open(io.BytesIO((page.parent / image["src"]).read_bytes()))
        if image["src"].startswith("06_policies_files/figure_") and link["href"] != image["src"]:
            # a lesson's figure: the page's copy light, its link the notebook's PNG at twice the pixels it is shown at
            assert link["href"] == image["src"].removesuffix(".png") + f"{FULL}.png"
            full = (page.parent / link["href"]).read_bytes()
            width, height = Image.open(io.BytesIO(full)).size
            assert full in saved and (width, height) == shown.size
            assert (width // 2, height // 2) == (int(image["width"]), int(image["height"]))
            assert shown.mode == "P"
            lessons_figures = True
        else:
            assert link["href"] == image["src"]
    assert lessons_figures
    assert text.count('<span class="site-figure-open">Open the figure at full size</span>') == len(images)


def test_each_figure_s_alt_is_the_description_its_notebook_saved_with_it(site, repo):
    """The lab template leaves an output's metadata alt out (nbconvert then writes "No description has been
    provided for this image"); the site writes the description the figure's own describe_* function wrote."""
    for name in LESSONS:
        saved = [
            output["metadata"]["image/png"]["alt"]
            for cell in nbformat.read(repo / "notebooks" / name, as_version=4).cells
            for output in cell.get("outputs", [])
            if "image/png" in output.get("data", {})
        ]
        shown = [
            a.get("alt") for tag, a in parse(site / "notebooks" / name.replace(".ipynb", ".html")).tags if tag == "img"
        ]
        assert all(saved) and all(shown), name
        remaining = iter(shown)  # in order; explorers' stills add theirs (from their saved state) in between
        assert all(any(alt == a for a in remaining) for alt in saved), name


def test_headings_link_to_themselves_labelled_so_no_screen_reader_says_pilcrow(site):
    """Each heading links to itself; the link is labelled, and its ¶ is drawn by the stylesheet, not written in the
    page, so neither a screen reader, a copied heading, nor the search index's titles carry it."""
    for name in ["notebooks/06_policies.html", "docs/instructors.html"]:
        tags = parse(site / name)
        links = [a for t, a in tags.tags if t == "a" and a.get("class") == "anchor-link"]
        assert len(links) > 5, name
        assert all((a.get("aria-label") or "").startswith("Link to this section: ") for a in links), name
        assert all(a.get("data-pagefind-ignore") is not None for a in links), name
        assert "¶" not in "".join(tags.text), name
    assert 'aria-label="Link to this section: Grading a class"' in (site / "docs/instructors.html").read_text()
    assert 'a.anchor-link::after { content: "\\00B6"; }' in (site / "site.css").read_text(encoding="utf-8")


def test_a_search_index_of_every_page_is_written_with_the_site(site):
    """Pagefind indexed every page but the index, each by its content (data-pagefind-body), without the
    navigation; its UI is in the site's pagefind/ folder."""
    entry = json.loads((site / "pagefind" / "pagefind-entry.json").read_text())
    assert [language["page_count"] for language in entry["languages"].values()] == [len(COURSE)]
    assert (site / "pagefind" / "pagefind-ui.js").is_file()
    for name in COURSE:
        tags = parse(site / name).tags
        assert [t for t, a in tags if "data-pagefind-body" in a] == ["main"], name
        assert all("data-pagefind-ignore" in a for t, a in tags if t == "nav" and a.get("class") == "site-nav")


def test_every_relative_link_names_a_file_of_the_site(site):
    for page in pages(site):
        for tag, attrs in parse(page).tags:
            target = attrs.get("href") if tag == "a" else attrs.get("src") if tag == "img" else None
            if not target or re.match(r"[a-z]+:|#", target):
                continue
            assert (page.parent / target.split("#")[0]).resolve().is_file(), f"{page.name} links to {target}"


def test_links_to_other_notebooks_point_to_their_pages_and_missing_ones_become_text(site):
    """Exercise 05 links to lesson 06 (in the small site), to lesson 05, exercise 06 and its solution (not in it)."""
    exercise = site / "exercises" / EXERCISES[1].replace(".ipynb", ".html")
    tags = parse(exercise)
    navigation = tags.within("nav.site-contents") + tags.within("nav.site-nav") + tags.within("header.site-header")
    around = {id(a) for _, a in navigation}
    content = [(t, a) for t, a in tags.tags if id(a) not in around]  # the links in the page's own text
    hrefs = [a["href"] for tag, a in content if tag == "a" and not re.match(r"[a-z]+:|#", a["href"])]
    assert "../notebooks/06_policies.html" in hrefs
    assert {h for h in hrefs if h.endswith(".ipynb")} == set()  # its own download is in the navigation
    others = hrefs
    assert not [h for h in others if "solution" in h or "05_counting_units" in h or "exercise_06" in h], hrefs
    assert "with the worked ones in the solutions, then" in " ".join("".join(parse(exercise).text).split())


def test_math_is_written_as_mathml_and_no_tex_is_left_in_the_text(site):
    page = site / "notebooks/06_policies.html"
    tags = parse(page)
    assert sum(tag == "math" for tag, _ in tags.tags) > 10
    assert any(tag == "math" and a.get("display") == "block" for tag, a in tags.tags)
    prose = "".join(tags.text)
    assert "\\frac" not in prose and "\\text{" not in prose and "$$" not in prose


def _widget_views(notebook, calling: str) -> int:
    """The widget views saved by the code cells whose source matches `calling`."""
    return sum(
        "application/vnd.jupyter.widget-view+json" in o.get("data", {})
        for c in notebook.cells
        if c.cell_type == "code" and re.search(calling, c.source)
        for o in c.outputs
    )


def test_each_explorer_is_a_still_saying_what_it_does_and_how_to_run_it_live(site, repo):
    for name in LESSONS:
        notebook = nbformat.read(repo / "notebooks" / name, 4)
        views = _widget_views(notebook, r"^(?!choose\()")  # every widget but a practice point's
        text = (site / "notebooks" / name.replace(".ipynb", ".html")).read_text(encoding="utf-8")
        assert views >= 1 and text.count(LIVE_NOTE) == views, name
        assert "widget-state+json" not in text and "widget-view+json" not in text
    policies = (site / "notebooks/06_policies.html").read_text(encoding="utf-8")
    after = policies.split(LIVE_NOTE, 1)[1]
    assert "budget (tokens)" in after and "1050" in after  # the saved slider value
    note = policies[policies.index('<p class="site-live-note">') : policies.index(LIVE_NOTE)]
    assert "change the menu \u201cquestion\u201d and the slider \u201cbudget (tokens)\u201d" in note  # what it does
    assert "redraws the figure and text" in note
    assert "open <code>notebooks/06_policies.ipynb</code>" in policies.split(LIVE_NOTE, 1)[1].split("</p>")[0]
    assert after.index("<img") < after.index("</main>")  # the explorer's saved figure


def test_each_practice_point_is_answered_on_the_page_or_says_where_and_no_kernel_output_is_frozen(site, repo):
    """On the page, a choose point is a radio group with a Check button, a predict point a text box, a write point
    a note saying how it is answered in JupyterLab; the kernel's saved "not answered yet ... run this cell again"
    and "0 of N answered right in this kernel" are gone, and the progress cell says what it does in JupyterLab."""
    for name in LESSONS:
        lesson = name.removesuffix(".ipynb")
        page = parse(site / "notebooks" / f"{lesson}.html")
        text = " ".join("".join(page.text).split())
        forms = [a["data-practice"] for tag, a in page.tags if tag == "form" and "site-practice" in a.get("class", "")]
        for found in BY_LESSON[lesson]:
            if isinstance(found, Write):
                assert f"Practice {found.number} (write) is answered in JupyterLab" in text, found.pid
                assert found.pid not in forms
            else:
                assert found.pid in forms, f"{found.pid} cannot be answered on the page"
        assert "run this cell again" not in text and "answered right in this kernel" not in text, lesson
        assert "replace the line that raises NotImplementedError" not in text or "(write)" in text
        assert "In JupyterLab this cell says how many of the lesson" in text, lesson
        scripts = [a.get("src") for tag, a in page.tags if tag == "script" and a.get("src")]
        assert "../practice.js" in scripts, lesson
    assert (site / "practice.js").is_file() and ".site-practice-option" in (site / "site.css").read_text()
    choice = parse(site / "notebooks" / "00_start_here.html")
    radios = [a for tag, a in choice.tags if tag == "input" and a.get("type") == "radio"]
    assert len({a["name"] for a in radios}) == 1 and [a["value"] for a in radios] == [
        option.key for option in POINTS["p0.3"].options
    ]  # one radio group: the browser moves the choice with the arrow keys
    assert "Worked answer to practice 0.3" in "".join(choice.text)


def test_solutions_only_when_asked_and_then_exercises_link_to_them(with_solutions):
    out, built = with_solutions
    assert sorted(p.folder for p in built) == sorted(
        [""] + ["notebooks"] * 3 + ["exercises", "solutions"] * 2 + ["docs"] * 3
    )
    exercise = out / "exercises" / EXERCISES[0].replace(".ipynb", ".html")
    assert "../solutions/solution_01_assemble_context.html" in [a["href"] for t, a in parse(exercise).tags if t == "a"]


def test_the_same_notebooks_give_the_same_bytes(repo, site, tmp_path):
    again = tmp_path / "again"
    build(repo, again)
    files = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert [f for f in files if (site / f).read_bytes() != (again / f).read_bytes()] == []


def test_a_folder_the_builder_did_not_make_is_refused_and_left_as_it_was(repo, tmp_path, capsys):
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(SiteError, match=f"not made by .*{MARKER}"):
        build(repo, foreign)
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]
    assert main([str(foreign), "--root", str(repo)]) == 2  # python -m packer.site
    assert "refusing to replace it" in capsys.readouterr().err
    ours = tmp_path / "ours"
    build(repo, ours)
    (ours / "stale.html").write_text("from an older build")
    build(repo, ours)  # a rebuild of our own folder replaces it whole
    assert not (ours / "stale.html").exists() and (ours / MARKER).is_file()


def test_a_lesson_never_run_or_missing_is_named(repo, tmp_path):
    broken = small_repository(tmp_path)
    lesson = broken / "notebooks" / LESSONS[1]
    notebook = nbformat.read(lesson, 4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbformat.write(notebook, lesson)
    with pytest.raises(SiteError, match=re.escape(str(lesson)) + ".*never run"):
        build(broken, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing written before every page rendered
    for path in (broken / "exercises").iterdir():
        path.unlink()
    with pytest.raises(SiteError, match="exercises: no notebooks"):
        build(broken, tmp_path / "out")


def ids(page: Path) -> set[str]:
    return {attrs["id"] for _, attrs in parse(page).tags if attrs.get("id")}


def test_the_guides_are_pages_whose_links_reach_the_headings_they_name(site):
    """The guides link to each other's headings by GitHub's anchors; their pages have the same anchors, and every
    link of the site to a heading of a page in it finds that heading."""
    guide = site / "docs" / "instructors.html"
    assert {"grading-a-class", "containment-every-kernel-in-a-sandbox-of-its-own", "ctrl-c"} <= ids(guide)
    reached = 0
    for page in pages(site):
        for tag, attrs in parse(page).tags:
            target = attrs.get("href") if tag == "a" else None
            if not target or "#" not in target or re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            landing = (page.parent / path).resolve() if path else page
            assert anchor in ids(landing), f"{page.relative_to(site)} links to {target}: no such heading"
            reached += path.startswith("../docs/") or page.parent.name == "docs"
    assert reached > 20  # the guides' own contents lists, and their links to each other
    assert "../README.html" in [a.get("href") for _, a in parse(guide).tags]  # the guides' link to the README
    readme = [a.get("href") for _, a in parse(site / "README.html").tags if a.get("href")]
    assert "docs/instructors.html" in readme and "docs/learners.html#the-lab-make-lab" in readme
    assert {"two-commands", "exercises-and-self-checks", "getting-help"} <= ids(site / "README.html")


# An absolute path into a checkout's own folders, hidden ones included (/home/ada/workbook/.hub/learners/...), as a
# guide might quote from a transcript: besides build_paths's (packer/, notebooks/, ...).
# (/path/to/the/workbook/.venv is a guide's placeholder, not a machine's path.)
CHECKOUT_FOLDER = re.compile(
    r"(?<![\w.~:/])(?!/path/to/)(?:/[\w.+@-]+)+/(?=(?:\.hub|\.venv|\.venv-learner|\.jupyter-state|_site)/)"
)


def test_no_page_of_the_site_holds_an_absolute_path_of_the_build_machine(site):
    found = {
        page.relative_to(site).as_posix(): build_paths(text) | set(CHECKOUT_FOLDER.findall(text))
        for page in pages(site)
        for text in [page.read_text(encoding="utf-8")]
    }
    assert found == {name: set() for name in found}
    assert CHECKOUT_FOLDER.findall("Each learner's folder: /work/wt/hub/.hub/learners/<name>/") == ["/work/wt/hub/"]
    assert CHECKOUT_FOLDER.findall("`<your checkout>/.hub/learners/` and ../docs/x.md, .hub/proxy/") == []


def test_the_readme_s_page_is_named_apart_from_the_site_and_every_page_has_a_title_of_its_own(site):
    """The header's link to the index carries the site's name; the README's page (whose heading is the site's name
    too) is "About the workbook" in the contents and in its title, so no two links of one name lead apart."""
    titles = {page.relative_to(site).as_posix(): title(page) for page in pages(site) if "pagefind" not in page.parts}
    assert len(set(titles.values())) == len(titles), titles
    assert titles["index.html"] == SITE_NAME and titles["README.html"] == f"{README_TITLE} \u00b7 {SITE_NAME}"
    for name in COURSE:
        tags = parse(site / name)
        header = [a for t, a in tags.within("header.site-header") if t == "a" and a.get("class") == "site-name"]
        contents = [a for t, a in tags.within("nav.site-contents") if t == "a"]
        to = [
            (site / name).parent.joinpath(a["href"]).resolve().relative_to(site.resolve()).as_posix()
            for a in (header[0], contents[0])
        ]
        assert to == ["index.html", "README.html"], name
    text = " ".join("".join(parse(site / "notebooks/01_assemble_context.html").text).split())
    body = text.split("Skip to the content", 1)[1]  # after the <title>
    assert f"{README_TITLE} " in body and body.count(SITE_NAME) == 1  # the header's link only


def overview_of(page: Path) -> tuple[str, list[str], list[str]]:
    """A page's time line (its text), its outline's links, and the anchors of its h2 and h3 headings (from its
    first h2 on)."""
    tags = parse(page)
    text = page.read_text(encoding="utf-8")
    time_line = re.search(r'<p class="site-time">(.*?)</p>', text, re.S)
    outline = [a["href"] for t, a in tags.within("nav.site-outline") if t == "a"]
    headings = ["#" + a["id"] for t, a in tags.within("main#content") if t in ("h2", "h3") and a.get("id")]
    first = next((i for i, h in enumerate(headings) if f'<h2 id="{h[1:]}"' in text), 0)
    plain = " ".join(html.unescape(re.sub(r"<[^>]+>", "", time_line.group(1))).split()) if time_line else ""
    return plain, outline, headings[first:]


def test_each_lesson_shows_its_time_and_its_outline_and_the_index_each_lesson_s_time(site, repo):
    measured = read_run_times(ROOT)
    for name in LESSONS:
        plain, outline, headings = overview_of(site / "notebooks" / name.replace(".ipynb", ".html"))
        words = word_count(nbformat.read(repo / "notebooks" / name, 4))
        seconds = measured[f"notebooks/{name}"]
        points = BY_LESSON[name.removesuffix(".ipynb")]  # the practice, at the course's planned minutes a point
        minutes = sum(PRACTICE_MINUTES[p.kind] for p in points)
        assert len(points) >= 3 and practice_minutes(name.removesuffix(".ipynb")) == (len(points), minutes)
        assert plain == (
            f"About {lesson_minutes(words, seconds) + minutes} min: {duration(words / 238 * 60)} reading ({words:,} "
            f"words at 238 a minute), {duration(seconds)} running all its cells (measured as processor "
            f"time), {minutes} min answering "
            f"its {len(points)} practice points ({practice_words()}: the course's planning assumption) "
            "(how this is estimated)."
        ), plain
        assert outline == headings and len(outline) >= 2, name
    planned = f"{PRACTICE_MINUTES['predict']} minutes for each predict or choose point and {PRACTICE_MINUTES['write']}"
    assert PRACTICE_MINUTES["predict"] == PRACTICE_MINUTES["choose"]
    assert planned in " ".join((ROOT / "docs" / "instructors.md").read_text().split()), "the guide's planned minutes"
    for name in ("docs/instructors.html", "exercises/exercise_01_assemble_context.html"):
        plain, outline, headings = overview_of(site / name)
        assert plain == "" and outline == headings and len(outline) >= 2, name  # an outline, and no time
    index = " ".join("".join(parse(site / "index.html").text).split())
    assert len(re.findall(r"\.ipynb\), about \d+ min", index)) == len(LESSONS)


def run_lines(page: Path) -> tuple[list[str], str]:
    """A page's run links (their addresses) and the text of its run block (tests/test_site_launch.py)."""
    text = page.read_text(encoding="utf-8")
    block = re.search(r'<div class="site-run"[^>]*>(.*?)</div>', text, re.S)
    links = [a["href"] for tag, a in parse(page).tags if tag == "a" and a.get("class") == "site-run-link"]
    return links, (block.group(1) if block else "")


def test_built_without_settings_each_page_says_to_get_the_workbook_from_the_course(site):
    """make site without REPOSITORY: no link to run a lesson, and the way to get the workbook."""
    links, block = run_lines(site / "notebooks" / "01_assemble_context.html")
    plain = " ".join(html.unescape(re.sub(r"<[^>]+>", "", block)).split())
    assert links == []
    assert "Get the workbook from your course" in plain and "imports packer" in plain
    assert "make lab" in plain and "open notebooks/01_assemble_context.ipynb" in plain


PRINTED = "['alpha', 'bravo', 'delta']"


def practice_lesson(root: Path) -> Path:
    """A lesson as the practice points will make them: a question cell, the learner's answer checked in the kernel,
    and the worked answer folded under a Markdown <details><summary>; written into `root`'s notebooks/."""
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# 10 · Practice\n\nA lesson with one practice point."),
            nbformat.v4.new_markdown_cell("## Practice: skip or stop?\n\nWhat does the packer keep?"),
            nbformat.v4.new_code_cell(
                "answer = ['alpha', 'bravo']\nprint(answer)",
                execution_count=1,
                outputs=[nbformat.v4.new_output("stream", name="stdout", text="['alpha', 'bravo']\n")],
            ),
            nbformat.v4.new_markdown_cell(
                "<details><summary>Worked answer</summary>\n\nSkip and continue keeps **alpha**, **bravo** and "
                "**delta**:\n\n```python\nassemble_context(example, 100)\n```\n\n</details>"
            ),
            nbformat.v4.new_code_cell(  # the cell that answers it, its printed result folded (packer/lab/folded.py)
                'with folded("10.1"):\n    print(answer + ["delta"])',
                execution_count=2,
                outputs=[
                    nbformat.v4.new_output(
                        "display_data", data={"text/plain": PRINTED, "text/html": folded_html("10.1", PRINTED)}
                    )
                ],
            ),
            nbformat.v4.new_code_cell(  # the lesson's own code that answers it, folded in JupyterLab
                "# Folded: the lesson's skip_or_stop, which answers practice 10.1\ndef skip_or_stop(): ...",
                execution_count=3,
                metadata={"jupyter": {"source_hidden": True}},
            ),
            nbformat.v4.new_markdown_cell("## Key points\n\nA skip is not a stop."),
        ]
    )
    path = root / "notebooks" / "10_practice.ipynb"
    nbformat.write(notebook, path)
    return path


def test_a_worked_answer_folded_in_a_lesson_s_markdown_shows_folded_with_its_markdown_rendered(tmp_path):
    root = small_repository(tmp_path)
    for lesson in (root / "notebooks").glob("0*.ipynb"):
        lesson.unlink()  # the practice lesson alone: a quicker build
    practice_lesson(root)
    build(root, tmp_path / "out")
    page = tmp_path / "out" / "notebooks" / "10_practice.html"
    text = page.read_text(encoding="utf-8")
    folded = re.search(r"<details><summary>Worked answer</summary>(.*?)</details>", text, re.S)
    assert folded, "the worked answer is not a <details>"
    assert "<strong>delta</strong>" in folded.group(1) and "assemble_context" in folded.group(1)
    assert "&lt;details&gt;" not in text  # not escaped into text
    # The folded result and the folded code: each a closed <details> under its one line, nothing of it outside.
    result, code = re.findall(r'<details class="workbook-folded"><summary>(.*?)</summary>(.*?)</details>', text, re.S)
    assert result[0] == "Practice 10.1: the result, which answers it (open it once you have answered)"
    assert "<pre>['alpha', 'bravo', 'delta']</pre>" in result[1]
    assert code[0] == "Folded: the lesson's skip_or_stop, which answers practice 10.1"
    assert "skip_or_stop</span>" in code[1] and "jp-InputArea" in code[1]
    unfolded = re.sub(r'<details class="workbook-folded">.*?</details>', "", text, flags=re.S)
    assert "'bravo', 'delta'" not in unfolded and "skip_or_stop" not in unfolded
    _, outline, headings = overview_of(page)
    assert outline == headings == ["#Practice:-skip-or-stop?", "#Key-points"]
