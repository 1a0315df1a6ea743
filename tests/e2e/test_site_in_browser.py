"""The site `make site` builds, read in Chromium as a learner reads it: from the index through every page by its
"next" link in the course's order (each lesson, then its exercise; the guides; back to the index), every figure
loaded, every link of the site answered, math rendered, no raw markdown, each explorer shown as it was saved, the
search box finding a phrase and its first result opening the page that has it, the contents folded on a phone's
screen and a figure opening full size on a tap, and not one request to anywhere but the server on 127.0.0.1.

And a reader answers a lesson's practice points on the page, where no kernel runs (packer/site/practice.py,
practice.js): a choose point by keyboard alone, a radio group whose arrow keys move the choice, told what the kernel
tells (the misconception of a wrong option); and every predict point judged as check_prediction judges it, over
many answers right and wrong, written as a Python literal (opened from the folder, file://).

The whole site is built once for the session (packer.site.build, as `make site` does: tests/e2e/conftest.py) into a temporary folder and
served by Python's http.server from a thread; one page is also opened from the folder itself (file://)."""

from __future__ import annotations

import functools
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import nbformat
import pytest

from packer.checking.compare import plain
from packer.checking.practice import BY_LESSON, Choose, Predict, check_choice, check_prediction
from packer.site.build import GUIDE_ORDER, LIVE_NOTE
from packer.site.widgets import PRACTICE_CLASS, WIDGET_STATE
from test_saved_outputs import build_paths

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("exercise_*.ipynb"))
GUIDES = [ROOT / "docs" / name for name in GUIDE_ORDER]  # the learners', instructors' and contributors' guides
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site(built_site: Path) -> Path:
    return built_site  # built once for the run (tests/e2e/conftest.py)


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """`folder` served on a free port of 127.0.0.1 by a thread; its base URL."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    """The site served at the root of a server; its base URL."""
    with serving(site) as url:
        yield url


@pytest.fixture(scope="module")
def reader(browser, server: str) -> Iterator[tuple[object, list[str]]]:
    """A browser page that may load only from `server` (and data: URLs); every other request is blocked and listed."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(30_000)
    outside: list[str] = []

    def only_ours(route) -> None:
        if route.request.url.startswith(server):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_ours)
    context.on("request", lambda r: None if r.url.startswith((server, "data:")) else outside.append(r.url))
    try:
        yield context.new_page(), outside
    finally:
        context.close()


def views(notebook_path: Path) -> int:
    """How many widget views of explorers the notebook saved (a practice point's choice box, which the site shows
    with a note of its own, is not one)."""
    nb = nbformat.read(notebook_path, as_version=4)
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    saved = [
        o["data"][WIDGET_VIEW]
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if WIDGET_VIEW in o.get("data", {})
    ]
    return sum(PRACTICE_CLASS not in state[view["model_id"]]["state"].get("_dom_classes", []) for view in saved)


def follow_next(page, start: str, limit: int) -> list[str]:
    """From `start`, click each page's "next" link until it leads back to `start`: the pages' URLs on the way."""
    page.goto(start)
    seen: list[str] = []
    for _ in range(limit):
        page.locator("nav.site-nav a.site-next").first.click()
        page.wait_for_load_state("load")
        if page.url == start:
            return seen
        seen.append(page.url)
    raise AssertionError(f"no way back to {start} after {limit} pages: {seen}")


def course(lessons: list[Path], exercises: list[Path]) -> list[Path]:
    """The course's order: each lesson, then its exercise."""
    paired = []
    for lesson in lessons:
        paired += [lesson, *[e for e in exercises if e.stem == f"exercise_{lesson.stem}"]]
    return paired + [e for e in exercises if e not in paired]


# What a page is checked for, read in the browser: figures that did not load, math elements with no size, TeX and
# markdown marks left in the rendered text (code and math taken out), and each explorer's still.
READ_PAGE = """() => {
    const broken = [...document.images].filter(img => !(img.complete && img.naturalWidth > 0)).map(img => img.alt);
    const math = [...document.querySelectorAll('math')];
    const flat = math.filter(m => { const r = m.getBoundingClientRect(); return !(r.width > 0 && r.height > 0); });
    const prose = [...document.querySelectorAll('.jp-RenderedMarkdown')].map(cell => {
        const copy = cell.cloneNode(true);
        copy.querySelectorAll('code, pre, math').forEach(e => e.remove());
        return copy.innerText;
    }).join('\\n');
    const stills = [...document.querySelectorAll('.site-live-note')].map(note => {
        const area = note.closest('.jp-Cell-outputWrapper') || note.parentElement;
        return {note: note.innerText, images: [...area.querySelectorAll('img')].filter(i => i.naturalWidth > 0).length,
                controls: area.querySelectorAll('.site-controls li').length};
    });
    const current = [...document.querySelectorAll('.site-contents a[aria-current="page"]')].map(a => a.href);
    const contents = document.querySelector('.site-contents details');
    return {broken, images: document.images.length, math: math.length, flat: flat.length, prose, stills, current,
            text: document.body.innerText, contentsOpen: contents ? contents.open : null,
            mathml: typeof MathMLElement !== 'undefined',
            links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))};
}"""
RAW_MARKDOWN = re.compile(r"^\s*(#{1,6} |\*\*|```|- \[)|\]\(|\*\*\w", re.MULTILINE)
RAW_TEX = re.compile(r"\$[^$\n]*\\[a-zA-Z]+|\$\$|\\(frac|text|sum|cdot|lambda)\b")


def test_the_site_read_from_the_index_through_every_lesson_and_exercise(site, server, reader, screenshots):
    page, outside = reader
    order = [ROOT / "README.md", *course(LESSONS, EXERCISES), *GUIDES]
    urls = follow_next(page, server + "index.html", limit=len(order) + 1)
    wanted = [server + "README.html"] + [f"{server}{p.parent.name}/{p.stem}.html" for p in order[1:]]
    assert urls == wanted
    assert (
        f"{server}notebooks/09_conversation.html" in urls and len(GUIDES) == 3
    )  # the last lesson, with no list edited
    page.goto(server + "index.html")
    assert "solutions/" not in page.content()

    checked: set[str] = set()
    math_pages = []
    pages = zip(urls, order)
    for url, source in pages:
        page.goto(url)
        read = page.evaluate(READ_PAGE)
        name = source.name
        assert read["broken"] == [], f"{name}: figures that did not load: {read['broken']}"
        assert read["flat"] == 0, f"{name}: {read['flat']} of {read['math']} math elements not rendered"
        assert read["current"] == [url], f"{name}: the contents mark {read['current']} as this page"
        assert read["contentsOpen"] is True, f"{name}: the contents are folded on a wide screen"
        assert build_paths(read["text"]) == set(), f"{name}: the build machine's paths: {build_paths(read['text'])}"
        assert not RAW_TEX.search(read["prose"]), f"{name}: TeX left: {RAW_TEX.search(read['prose'])}"
        assert not RAW_MARKDOWN.search(read["prose"]), f"{name}: raw markdown: {RAW_MARKDOWN.search(read['prose'])}"
        if read["math"]:
            math_pages.append(source.stem)
            assert read["mathml"], "this Chromium has no MathML"
        expected = views(source) if source in LESSONS else 0
        assert len(read["stills"]) == expected, f"{name}: {len(read['stills'])} explorer stills, {expected} saved"
        for still in read["stills"]:
            assert "make lab" in still["note"] and still["controls"] >= 1, f"{name}: {still}"
        if source in LESSONS and source.stem != "00_start_here":  # lesson 00's explorer is a slider and a label
            assert all(s["images"] >= 1 for s in read["stills"][:1]), f"{name}: the explorer's figure: {read['stills']}"
        for href in read["links"]:
            if re.match(r"[a-z]+:|#", href):
                continue  # a web page the prose cites (never loaded here), or an anchor
            target = urllib.parse.urljoin(url, href).split("#")[0]
            if target in checked:
                continue
            with urllib.request.urlopen(target, timeout=10) as answer:
                assert answer.status == 200, f"{name}: {href} answered {answer.status}"
            checked.add(target)
    assert {"06_policies", "08_beyond_greedy"} <= set(math_pages), math_pages
    assert any(t.endswith(".ipynb") for t in checked) and len(checked) > len(LESSONS) + len(EXERCISES)
    assert any(t.endswith(".png") for t in checked)  # the figures' links to their full-size files

    page.goto(server + "notebooks/06_policies.html")
    page.locator("math[display='block']").first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "site-06-math.png"))
    page.locator(".site-live-note").first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "site-06-explorer.png"))
    assert outside == [], f"requests off 127.0.0.1: {outside}"


def test_a_page_opened_from_the_folder_itself_shows_its_figures_and_fetches_nothing(site, browser):
    """Opened as a file (double-clicked in a file manager): the same page, nothing requested but its own file."""
    context = browser.new_context()
    requested: list[str] = []
    context.on("request", lambda r: requested.append(r.url))
    try:
        page = context.new_page()
        page.goto((site / "notebooks" / "01_assemble_context.html").as_uri())
        read = page.evaluate(READ_PAGE)
        assert read["images"] >= 1 and read["broken"] == []
        assert LIVE_NOTE.replace("<code>", "").replace("</code>", "") in read["stills"][0]["note"]
        assert "served" in page.locator("#site-search").inner_text()  # search is off from disk, and says why
        assert [u for u in requested if not u.startswith(("file:", "data:"))] == []
    finally:
        context.close()


@pytest.mark.parametrize(
    ("query", "pages"),
    [
        ("cached prefix", {"notebooks/09_conversation.html"}),
        ("chars/4", {"notebooks/04_section_budget.html", "exercises/exercise_04_section_budget.html"}),
    ],
)
def test_the_search_box_finds_a_phrase_and_its_first_result_opens_the_page_that_has_it(server, reader, query, pages):
    page, outside = reader
    page.goto(server + "notebooks/01_assemble_context.html")
    box = page.get_by_role("textbox", name="Search")  # the field is labelled
    box.focus()
    page.keyboard.type(query)
    first = page.locator(".pagefind-ui__result-link").first
    first.wait_for()
    assert "¶" not in page.locator("#site-search").inner_text()  # no heading's link mark in the results
    first.click()
    page.wait_for_load_state("load")
    landed = urllib.parse.urlsplit(page.url)
    assert landed.path.lstrip("/") in pages, page.url
    words = query.lower().split()
    assert all(w in page.locator("main").inner_text().lower() for w in words), f"{query!r} not on {page.url}"
    assert outside == []


def test_search_works_on_a_host_that_serves_the_site_under_a_path(site, browser):
    """Copied to a folder of a host's (https://host/_site/...), its results still lead into that folder."""
    with serving(site.parent) as host:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(host + "_site/docs/learners.html")
            page.get_by_role("textbox", name="Search").fill("cached prefix")
            first = page.locator(".pagefind-ui__result-link").first
            first.wait_for()
            assert first.get_attribute("href").startswith("/_site/notebooks/09_conversation.html")
            with page.expect_navigation():
                first.click()
            assert page.url.startswith(host + "_site/notebooks/09_conversation.html")
        finally:
            context.close()


def test_on_a_phone_the_contents_fold_and_a_figure_keeps_its_width_in_a_box_that_scrolls_and_opens_at_twice_its_pixels(
    server, browser, screenshots
):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server + "notebooks/06_policies.html")
        contents = page.locator(".site-contents details")
        assert contents.evaluate("d => d.open") is False and not page.locator(".site-contents ol a").first.is_visible()
        page.locator(".site-contents summary").tap()
        assert page.locator(".site-contents a[aria-current='page']").is_visible()
        figure = page.locator("a.site-figure img[width]").first
        figure.scroll_into_view_if_needed()
        shown = int(figure.get_attribute("width"))
        assert abs(figure.bounding_box()["width"] - shown) < 1  # drawn at the width it was made for, labels legible
        box = page.locator("a.site-figure").first
        assert box.bounding_box()["width"] <= 390 and box.evaluate("a => a.scrollWidth > a.clientWidth")
        page.screenshot(path=str(screenshots / "site-06-phone.png"))
        with page.expect_navigation():
            figure.tap()
        assert page.url.startswith(server + "notebooks/06_policies_files/") and page.url.endswith("_full.png")
        # full size: twice the pixels the page shows it with, so its labels can be read zoomed in
        assert page.evaluate("() => document.images[0].naturalWidth") == 2 * shown
    finally:
        context.close()


def test_a_missing_page_answers_404_so_the_link_check_would_see_it(server):
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(server + "notebooks/no_such_lesson.html", timeout=10)
    assert answer.value.code == 404


def test_at_the_end_of_a_long_lesson_the_contents_are_whole_and_a_touch_screen_shows_each_heading_s_link(
    server, browser
):
    """The contents stay in view down to the footer, their first entry and the guides at their end in reach (they
    scroll on their own); on a touch screen, which has no hover, each heading's link to itself shows, 24 px each way."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(server + "notebooks/02_prompt_packer.html")
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_function("() => window.scrollY > 0")
        contents = page.locator("nav.site-contents")
        box = contents.bounding_box()
        assert box["y"] >= -1 and box["y"] + box["height"] <= 901, box  # within a pixel (layout in fractions)
        links = contents.locator("a")
        assert links.first.is_visible() and links.first.bounding_box()["y"] >= 0
        last = links.last
        assert last.inner_text() == "Contributors' notes"
        last.scroll_into_view_if_needed()
        seen = last.bounding_box()
        assert seen["y"] >= 0 and seen["y"] + seen["height"] <= 901 and page.evaluate("() => window.scrollY") > 0
    finally:
        context.close()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server + "notebooks/02_prompt_packer.html")
        anchors = page.locator("h2 > a.anchor-link")
        assert anchors.count() > 5
        shown = anchors.evaluate_all(
            "links => links.map(a => [getComputedStyle(a).opacity, a.getBoundingClientRect().width,"
            " a.getBoundingClientRect().height])"
        )
        assert all(opacity == "1" and width >= 24 and height >= 24 for opacity, width, height in shown), shown[:3]
    finally:
        context.close()


# --- practice points on the page ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def practising(built_site: Path, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(30_000)
    page = context.new_page()
    yield page
    context.close()


def open_lesson(page, site: Path, lesson: str) -> None:
    page.goto((site / "notebooks" / f"{lesson}.html").as_uri())
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.workbookPractice !== undefined")


def said(form) -> str:
    status = form.get_by_role("status")
    status.page.wait_for_function("node => node.textContent !== ''", arg=status.element_handle())
    return status.text_content()


def test_a_choose_point_is_a_radio_group_answered_by_keyboard_with_the_kernels_feedback(practising, built_site):
    found = next(p for p in BY_LESSON["02_prompt_packer"] if isinstance(p, Choose))
    open_lesson(practising, built_site, "02_prompt_packer")
    form = practising.locator(f'form[data-practice="{found.pid}"]')
    group = form.get_by_role("group", name=f"Practice {found.number}: pick one option")
    for option in found.options:  # each option named by its letter and text, for a screen practising
        assert group.get_by_role("radio", name=f"{option.key}. {option.text}", exact=True).count() == 1

    form.get_by_role("button", name="Check").focus()
    practising.keyboard.press("Enter")  # nothing picked yet
    assert said(form) == str(check_choice(found, None))

    practising.keyboard.press("Shift+Tab")  # back into the group: its first option, as a radio group does
    radios = form.get_by_role("radio")
    assert radios.nth(len(found.options) - 1).evaluate("node => node === document.activeElement")
    practising.keyboard.press("Space")
    for index in range(len(found.options)):  # the arrow keys move the choice; Tab then Enter checks it
        if index:
            practising.keyboard.press("ArrowDown")
        at = (len(found.options) - 1 + index) % len(found.options)
        assert radios.nth(at).is_checked() and radios.nth(at).evaluate("node => node === document.activeElement")
        practising.keyboard.press("Tab")
        practising.keyboard.press("Enter")
        practising.wait_for_function(
            "([node, text]) => node.textContent === text",
            arg=[form.get_by_role("status").element_handle(), str(check_choice(found, found.options[at].key))],
        )
        practising.keyboard.press("Shift+Tab")


def answers(value: Any) -> list[Any]:
    """Answers a learner might give for `value`: it, and each one-part slip of it (a number off by one, a string
    changed, a list reordered, shortened or grown, the wrong kind of number or sequence)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, float(value), str(value), True]
    if isinstance(value, str):
        return [value + "x", value[:-1], value.upper(), 1, None]
    slips: list[Any] = []
    if isinstance(value, list):
        slips += [value[::-1], value[:-1], value + value[:1], [], tuple(value)]
        slips += [[*value[:i], slip, *value[i + 1 :]] for i, item in enumerate(value) for slip in answers(item)[:2]]
    if isinstance(value, tuple):
        slips += [list(value), value[:-1], (*value, value[0])]
        slips += [(*value[:i], slip, *value[i + 1 :]) for i, item in enumerate(value) for slip in answers(item)]
    return slips


def mixes(expected: Any, wrongs: list[Any]) -> list[Any]:
    """Predictions that show a tuple misconception without being its wrong value: its wrong items with another
    misconception's, or with one of its other items slipped (check_prediction names each misconception shown)."""
    if not isinstance(expected, tuple):
        return []
    tuples = [wrong for wrong in wrongs if isinstance(wrong, tuple) and len(wrong) == len(expected)]
    mixed: list[Any] = []
    for wrong in tuples:
        departs = {i for i, (bad, right) in enumerate(zip(wrong, expected)) if plain(bad) != plain(right)}
        mixed += [tuple(wrong[i] if i in departs else other[i] for i in range(len(expected))) for other in tuples]
        mixed += [(*wrong[:i], answers(wrong[i])[0], *wrong[i + 1 :]) for i in range(len(expected)) if i not in departs]
    return mixed


def test_every_predict_point_is_judged_on_the_page_as_check_prediction_judges_it(practising, built_site):
    compared, misconceived, mistyped, partly = 0, 0, 0, 0
    for lesson, points in BY_LESSON.items():
        predicted = [p for p in points if isinstance(p, Predict)]
        if not predicted:
            continue
        open_lesson(practising, built_site, lesson)
        for found in predicted:
            expected = found.result()
            wrongs = [wrong for wrong, _ in found.misconceptions]
            tried = [expected, *wrongs, *answers(expected), *mixes(expected, wrongs)]
            texts = [repr(answer) for answer in tried]
            page_says = practising.evaluate(
                "([pid, texts]) => texts.map(text => window.workbookPractice.judge(pid, text))", [found.pid, texts]
            )
            kernel_says = [str(check_prediction(found, answer)) for answer in tried]
            assert page_says == kernel_says, found.pid
            compared += len(tried)
            assert page_says[0] == f"Practice {found.number} (predict): right"
            misconceived += sum(any(f"  {why}" in said for _, why in found.misconceptions) for said in page_says)
            mistyped += sum("  wrong type: " in said for said in page_says)
            partly += sum(
                any(f"  {why}" in said for _, why in found.misconceptions)
                and not any(plain(answer) == plain(wrong) for wrong in wrongs)
                for answer, said in zip(tried, page_says)
            )
    assert compared > 400 and misconceived > 50 and mistyped > 100 and partly > 20, (
        compared,
        misconceived,
        mistyped,
        partly,
    )

    # Typed into the box, by keyboard: a known wrong value gets its misconception, the right one "right".
    found = next(p for p in BY_LESSON["02_prompt_packer"] if isinstance(p, Predict))
    open_lesson(practising, built_site, "02_prompt_packer")
    form = practising.locator(f'form[data-practice="{found.pid}"]')
    box = form.get_by_role("textbox", name=f"Practice {found.number}: your prediction")
    wrong, why = found.misconceptions[0]
    box.fill(f"prediction = {wrong!r}")  # the cell's own form is read too
    box.press("Enter")
    assert said(form) == str(check_prediction(found, wrong)) and why in said(form)
    box.fill(" " + repr(found.result()).replace("'", '"') + " ")  # double quotes, spaces around
    box.press("Enter")
    practising.wait_for_function(
        "node => node.textContent.endsWith(': right')", arg=form.get_by_role("status").element_handle()
    )
    box.fill("(4, 3")
    box.press("Enter")
    practising.wait_for_function(
        "node => node.textContent.includes('could not read this as a Python literal')",
        arg=form.get_by_role("status").element_handle(),
    )
