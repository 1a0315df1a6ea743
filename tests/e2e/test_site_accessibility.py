"""Every page `make site` writes, checked for accessibility in Chromium: axe-core's WCAG 2.0 and 2.1 A and AA rules
and its best practices (one main landmark, headings in order, landmarks named apart), and each page's outline (one
h1, the language, a skip link, header, main and footer); on a phone (390 px), nothing wider than the screen but
inside a box that scrolls sideways, and every such box reachable by the keyboard; every link and control reached by
the Tab key and visibly outlined when it has the focus. Two pages made to fail show that each check can fail.

axe-core comes from the npm registry at the version tests/e2e/axe/package-lock.json pins (`make axe`, run here as
the hub's test runs `make hub-proxy`): where Node.js or npm is missing its tests are skipped, saying so and what
installs them (tests/system_parts.py); the others need only Chromium. The site is built once for the session (the
`built_site` fixture of tests/e2e/conftest.py) and served from 127.0.0.1.

What axe reports as "incomplete" (needs a person to look) is not a pass either: a colour contrast axe measured
below its threshold but could not be sure of fails here too. The rest of "incomplete" is text axe cannot measure:
MathML operators and characters outside the Basic Multilingual Plane (nonBmp), and code partly scrolled out of
its box (elmPartiallyObscured), whose colours are the same classes measured elsewhere on the page."""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT

AXE = ROOT / ".axe" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}

# Rules of those tags that find nothing to check on any page of this site, and why: the site is static text,
# code, tables, figures and links, with one form field (the search box). Each is listed so that none passes
# unremarked: the test fails when a rule listed here starts to apply, or a rule not listed never does.
NOT_ON_THIS_SITE = {
    "no image maps": ("area-alt", "server-side-image-map"),
    "no video or audio": ("video-caption", "no-autoplay-audio"),
    "no frames or iframes": ("frame-focusable-content", "frame-tested", "frame-title", "frame-title-unique"),
    "no <blink>, <marquee> or <meta http-equiv=refresh>": ("blink", "marquee", "meta-refresh"),
    "no <object>, inline <svg> or role=img": ("object-alt", "svg-img-alt", "role-img-alt"),
    "no definition lists": ("definition-list", "dlitem"),
    "no xml:lang, and no lang attribute but the <html> element's": ("html-xml-lang-mismatch", "valid-lang"),
    "no accesskeys, and no <th scope>": ("accesskeys", "scope-attr-valid"),
    "no form fields but the search box (a text input with a label)": (
        "select-name",
        "input-button-name",
        "input-image-alt",
        "autocomplete-valid",
        "label-content-name-mismatch",
    ),
    "no ARIA widgets (dialogs, menus, tabs, trees, meters, progress bars, tooltips, toggles, custom fields)": (
        "aria-braille-equivalent",
        "aria-command-name",
        "aria-dialog-name",
        "aria-hidden-focus",
        "aria-input-field-name",
        "aria-meter-name",
        "aria-progressbar-name",
        "aria-required-children",
        "aria-required-parent",
        "aria-tab-name",
        "aria-text",
        "aria-toggle-field-name",
        "aria-tooltip-name",
        "aria-treeitem-name",
        "presentation-role-conflict",
    ),
}

RUN_AXE = """async (tags) => {
    const results = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                             resultTypes: ['violations', 'incomplete']});
    const node = n => ({target: n.target.join(' '), summary: n.failureSummary || '',
                        data: [...n.any, ...n.all, ...n.none].map(c => c.data)
                                  .find(d => d && typeof d === 'object') || {}});
    const rules = list => list.map(r => ({id: r.id, help: r.help, url: r.helpUrl, nodes: r.nodes.map(node)}));
    return {version: axe.version, violations: rules(results.violations), incomplete: rules(results.incomplete),
            inapplicable: results.inapplicable.map(r => r.id), passes: results.passes.map(r => r.id)};
}"""


# A page's outline, which axe counts only in part (it wants an h1, not one alone): how many h1 headings, the
# language, and how many of each landmark (a skip link's target, the header, the main content, the footer).
OUTLINE = """() => ({h1: document.querySelectorAll('h1').length, lang: document.documentElement.lang,
    skip: document.querySelector('a.site-skip') && document.querySelector('a.site-skip').getAttribute('href'),
    header: document.querySelectorAll('body > header').length, main: document.querySelectorAll('main#content').length,
    footer: document.querySelectorAll('footer').length, nav: document.querySelectorAll('nav').length > 0})"""
EXPECTED_OUTLINE = {"h1": 1, "lang": "en", "skip": "#content", "header": 1, "main": 1, "footer": 1, "nav": True}


def site_pages(site: Path) -> list[str]:
    """Every page the build wrote, relative to the site's root (Pagefind's own files are not pages)."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html") if "pagefind" not in p.parts)


@pytest.fixture(scope="module")
def axe_script() -> Path:
    """axe-core installed as `make axe` installs it (the test fails, with npm's message, if it cannot be)."""
    made = subprocess.run(["make", "-s", "axe"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, f"make axe could not install axe-core:\n{made.stdout[-2000:]}{made.stderr[-3000:]}"
    return AXE


@pytest.fixture(scope="module")
def server(built_site: Path) -> Iterator[str]:
    from test_site_in_browser import serving

    with serving(built_site) as url:
        yield url


def open_page(browser, viewport: dict[str, int], **options: object):
    """A fresh context and page at `viewport` (a phone's also with touch and the mobile layout)."""
    context = browser.new_context(viewport=viewport, **options)
    context.set_default_timeout(30_000)
    return context, context.new_page()


def load(page, url: str) -> None:
    """Open `url` and wait for the search box to be drawn by site.js (a page's last change to itself)."""
    page.goto(url)
    page.wait_for_load_state("load")
    page.locator("#site-search input").wait_for()


def audit(page, url: str, axe: Path) -> dict:
    """axe-core's results for the page at `url`, as RUN_AXE returns them."""
    load(page, url)
    page.add_script_tag(path=str(axe))
    return page.evaluate(RUN_AXE, TAGS)


def below_threshold(node: dict) -> bool:
    """An "incomplete" colour-contrast node whose contrast axe did measure, and found too low."""
    data = node["data"]
    measured, wanted = data.get("contrastRatio"), data.get("expectedContrastRatio")
    return bool(measured) and bool(wanted) and float(measured) < float(str(wanted).rstrip(":1"))


def findings(name: str, results: dict, rules: dict[str, str]) -> list[str]:
    """Every violation of a page (and every contrast axe measured too low but called incomplete), one a line:
    rule, page, the element, and axe's summary of what is wrong; each rule's page of help is added to `rules`."""
    rules.update({rule["id"]: rule["url"] for rule in results["violations"] + results["incomplete"]})
    lines = []
    for rule in results["violations"]:
        lines += [f"{rule['id']} | {name} | {n['target']} | {' '.join(n['summary'].split())}" for n in rule["nodes"]]
    for rule in results["incomplete"]:
        if rule["id"] == "color-contrast":
            lines += [
                f"{rule['id']} (incomplete, measured {n['data'].get('contrastRatio')}:1) | {name} | {n['target']}"
                for n in rule["nodes"]
                if below_threshold(n)
            ]
    return lines


def report(lines: list[str], rules: dict[str, str]) -> str:
    """The violations, counted by rule (with the rule's page of help), then each one."""
    counts = Counter(line.split(" | ")[0].split(" ")[0] for line in lines)
    head = "\n".join(f"  {rule}: {count} ({rules.get(rule, '')})" for rule, count in counts.most_common())
    return f"{len(lines)} accessibility violations:\n{head}\n" + "\n".join(lines)


@pytest.mark.needs("node")
def test_axe_finds_no_violation_on_any_page(built_site, server, browser, axe_script):
    """At a desktop's width, where the contents are unfolded (on a phone's, what differs is what sticks out of the
    screen and which boxes scroll: the next test but one checks those)."""
    pages = site_pages(built_site)
    assert len(pages) >= 24 and "index.html" in pages and "notebooks/05_counting_units.html" in pages
    context, page = open_page(browser, DESKTOP)
    lines: list[str] = []
    rules: dict[str, str] = {}
    inapplicable: set[str] | None = None
    try:
        for name in pages:
            results = audit(page, server + name, axe_script)
            assert "color-contrast" in results["passes"], f"{name}: axe checked no colour contrast"
            lines += findings(name, results, rules)
            outline = page.evaluate(OUTLINE)
            if outline != EXPECTED_OUTLINE:  # what axe leaves to best practice or does not count
                lines.append(f"page outline | {name} | {outline} | wanted {EXPECTED_OUTLINE}")
            inapplicable = (
                set(results["inapplicable"]) if inapplicable is None else inapplicable & set(results["inapplicable"])
            )
    finally:
        context.close()
    assert lines == [], report(lines, rules)
    explained = {rule for rules in NOT_ON_THIS_SITE.values() for rule in rules}
    assert inapplicable == explained, (
        f"rules no page gives anything to check, not explained in NOT_ON_THIS_SITE: "
        f"{sorted(inapplicable - explained)}; "
        f"explained there but checked now (take them out): {sorted(explained - inapplicable)}"
    )


@pytest.mark.needs("node")
def test_axe_finds_no_violation_in_the_search_box_s_results(server, browser, axe_script):
    """The search UI (Pagefind's) draws its results into the page after a query: those are checked too."""
    context, page = open_page(browser, DESKTOP)
    try:
        load(page, server + "notebooks/01_assemble_context.html")
        page.get_by_role("textbox", name="Search").fill("cached prefix")
        page.locator(".pagefind-ui__result-link").first.wait_for()
        page.add_script_tag(path=str(axe_script))
        results = page.evaluate(RUN_AXE, TAGS)
    finally:
        context.close()
    rules: dict[str, str] = {}
    lines = findings("search results", results, rules)
    assert lines == [], report(lines, rules)
    assert "color-contrast" in results["passes"]


@pytest.mark.needs("node")
def test_axe_finds_what_it_should_on_a_page_made_to_fail(browser, axe_script):
    """The same run of axe on a page with known faults names each: so a clean report means a clean site."""
    context, page = open_page(browser, DESKTOP)
    try:
        page.set_content(
            "<html><body><div><p style='color:#aaa'>faint text</p><p style='color:#222'>a line with <a href='#x'"
            " style='color:#333;text-decoration:none'>a link</a> told by nothing</p><img src='data:,'>"
            "<h1>one</h1><h3>skips</h3>"
            "<table><tr><th></th><td>1</td></tr></table></div></body></html>"
        )
        page.add_script_tag(path=str(axe_script))
        found = {rule["id"] for rule in page.evaluate(RUN_AXE, TAGS)["violations"]}
    finally:
        context.close()
    wanted = {"color-contrast", "link-in-text-block", "image-alt", "html-has-lang", "heading-order"}
    wanted |= {"landmark-one-main", "region", "empty-table-header"}
    assert wanted <= found, f"axe missed {wanted - found}"


# On a phone's screen: how wide the document is, and each element that sticks out of the screen (on the right, or
# partly on the left) without a box that scrolls sideways around it (overflow-x auto or scroll, itself within the
# screen), and each box that hides what does not fit (overflow-x hidden or clip, its content wider than it): text no
# one can reach. An element wholly left of the screen is put there on purpose (the skip link, until focused).
READ_WIDTHS = """() => {
    const width = document.documentElement.clientWidth;
    const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
        [...e.classList].slice(0, 2).map(c => '.' + c).join('') +
        ' "' + (e.textContent || '').trim().slice(0, 40) + '"';
    const scrolls = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
    const inScroller = e => { for (let p = e.parentElement; p; p = p.parentElement) {
        if (scrolls(p)) { const r = p.getBoundingClientRect(); return r.left >= -1 && r.right <= width + 1; } }
        return false; };
    const clipped = e => e.getClientRects().length === 0 || getComputedStyle(e).clipPath !== 'none';
    const outside = [], hidden = [];
    for (const e of document.body.querySelectorAll('*')) {
        if (clipped(e)) continue;
        const r = e.getBoundingClientRect();
        const out = r.right > width + 1 || (r.left < -1 && r.right > 0);
        if (out && r.width > 0 && !inScroller(e)) outside.push(name(e));
        const x = getComputedStyle(e).overflowX;
        if ((x === 'hidden' || x === 'clip') && e.scrollWidth > e.clientWidth + 1) hidden.push(name(e));
    }
    const scrollers = [...document.querySelectorAll('pre, .site-table')].filter(e => e.scrollWidth > e.clientWidth + 1);
    return {width, documentWidth: document.documentElement.scrollWidth, outside, hidden,
            scrolling: scrollers.length, unreachable: scrollers.filter(e => e.tabIndex < 0).map(name)};
}"""


def test_on_a_phone_nothing_is_wider_than_the_screen_but_what_scrolls_in_its_own_box(built_site, server, browser):
    context, page = open_page(browser, PHONE, is_mobile=True, has_touch=True)
    problems: list[str] = []
    scrolling: dict[str, int] = {}
    try:
        for name in site_pages(built_site):
            load(page, server + name)
            read = page.evaluate(READ_WIDTHS)
            assert read["width"] == PHONE["width"], f"{name}: laid out {read['width']} px wide, not a phone's"
            if read["documentWidth"] > read["width"]:
                problems.append(f"{name}: the page is {read['documentWidth']} px wide on a {read['width']} px screen")
            problems += [f"{name}: sticks out of the screen: {e}" for e in read["outside"]]
            problems += [f"{name}: cut off, with no way to scroll to the rest: {e}" for e in read["hidden"]]
            problems += [f"{name}: scrolls, but the keyboard cannot reach it: {e}" for e in read["unreachable"]]
            scrolling[name] = read["scrolling"]
    finally:
        context.close()
    assert problems == [], f"{len(problems)} problems at {PHONE['width']} px:\n" + "\n".join(problems[:200])
    assert scrolling["notebooks/05_counting_units.html"] >= 18, scrolling  # lesson 05's long lines do scroll


# Every element the Tab key should reach (visible links, controls, and the boxes made tab stops), and what the
# focused element looks like: its outline, or the box-shadow some controls draw instead.
FOCUSABLE = """() => [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter(e => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0
                 && getComputedStyle(e).visibility !== 'hidden')
    .length"""
FOCUSED = """() => { const e = document.activeElement; if (!e || e === document.body) return null;
    const s = getComputedStyle(e);
    return {tag: e.tagName.toLowerCase(),
            text: (e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 50),
            href: e.getAttribute('href'), outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
            shadow: s.boxShadow !== 'none', onScreen: e.getBoundingClientRect().width > 0}; }"""


@pytest.mark.parametrize("name", ["index.html", "notebooks/05_counting_units.html", "docs/instructors.html"])
def test_the_tab_key_reaches_every_link_and_control_and_each_is_outlined(server, browser, name):
    context, page = open_page(browser, DESKTOP)
    try:
        load(page, server + name)
        wanted = page.evaluate(FOCUSABLE)
        reached, unmarked = [], []
        for _ in range(wanted + 5):
            page.keyboard.press("Tab")
            focused = page.evaluate(FOCUSED)
            if focused is None or (reached and focused == reached[0]):
                break  # out of the page, or round to the start again
            reached.append(focused)
            if not (focused["outline"] or focused["shadow"]) or not focused["onScreen"]:
                unmarked.append(focused)
    finally:
        context.close()
    assert reached[0]["href"] == "#content", f"the first tab stop is not the skip link: {reached[0]}"
    assert len(reached) == wanted, f"{name}: Tab reached {len(reached)} of {wanted} links and controls"
    assert unmarked == [], f"{name}: focused without a visible outline: {unmarked[:10]}"


def test_the_phone_check_sees_a_page_too_wide_a_box_that_hides_and_a_box_the_keyboard_cannot_scroll(browser):
    """READ_WIDTHS on a page made to fail: each fault is named, and what is allowed is not."""
    context, page = open_page(browser, PHONE, is_mobile=True, has_touch=True)
    try:
        page.set_content(
            '<html><head><meta name="viewport" content="width=device-width, initial-scale=1.0"></head><body>'
            f'<div id="wide" style="width:600px">wide</div><div id="cut" style="overflow:hidden"><pre>{"x" * 200}</pre>'
            f'</div><pre id="mouse-only" style="overflow-x:auto">{"y" * 200}</pre>'
            f'<pre id="fine" tabindex="0" style="overflow-x:auto">{"z" * 200}</pre>'
            '<a id="skip" href="#fine" style="position:absolute;left:-10000px">skip</a></body></html>'
        )
        read = page.evaluate(READ_WIDTHS)
    finally:
        context.close()
    assert read["documentWidth"] > read["width"] == PHONE["width"]
    assert [e.split(" ")[0] for e in read["outside"]] == ["div#wide"]
    assert [e.split(" ")[0] for e in read["hidden"]] == ["div#cut"]
    assert [e.split(" ")[0] for e in read["unreachable"]] == ["pre", "pre#mouse-only"] and read["scrolling"] == 3
