"""Every page `make site` writes, checked for accessibility in Chromium at a desktop's width (1280 px) and a phone's
(390 px): axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules and its best practices (one main landmark, headings in
order, landmarks named apart, targets of 24 px), and each page's outline (one h1, the language, a skip link, header,
main and footer); nothing wider than the screen but inside a box that scrolls in its own right; each tab stop
focused in turn shows an outline of 2 px or more, at 3:1 or more on what is behind it, whole on the screen and cut
by no box around it; one tab stop for each box that scrolls and none for a box that does not. The Tab key is
pressed through a lesson at both widths, a copy button used from the keyboard on the way. Pages made to fail show
that each check can fail.

axe-core comes from the npm registry at the version tests/e2e/axe/package-lock.json pins (`make axe`, run here as
the hub's test runs `make hub-proxy`): where Node.js or npm is missing its tests are skipped, saying so and what
installs them (tests/system_parts.py); the others need only Chromium. The site is built once for the run (the
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
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# On a phone, axe runs again only the rules whose outcome the screen's width can change (the rest, colour contrast
# above all, which is most of axe's time, gave their verdict at the desktop's width): targets of 24 px (WCAG 2.2's
# 2.5.8), a keyboard way into each box that scrolls, and zoom left to the reader.
PHONE_RULES = ["target-size", "scrollable-region-focusable", "meta-viewport", "meta-viewport-large"]

# Rules of those tags that find nothing to check on any page of this site, and why: the site is static text,
# code, tables, figures and links, with few form fields (the search box, a lesson's practice points). Each is listed so that none passes
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
    "no form fields but labelled text inputs, radio buttons and buttons (the search box, the practice points)": (
        "select-name",
        "input-button-name",
        "input-image-alt",
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

# axe.run with runOnly: {type: 'tag', values: TAGS} (every rule of those tags) or {type: 'rule', values: [...]}.
RUN_AXE = """async (only) => {
    const results = await axe.run(document, {runOnly: only, resultTypes: ['violations', 'incomplete']});
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


EVERY_RULE = {"type": "tag", "values": TAGS}


def audit(page, axe: Path, only: dict = EVERY_RULE) -> dict:
    """axe-core's results for the page loaded in `page`, as RUN_AXE returns them."""
    page.add_script_tag(path=str(axe))
    return page.evaluate(RUN_AXE, only)


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


# On a screen: how wide the document is, and each element that sticks out of the screen (on the right, or partly on
# the left) without a box that scrolls sideways around it (overflow-x auto or scroll, itself within the screen), and
# each box that hides what does not fit (overflow-x hidden or clip, its content wider than it): text no one can
# reach. An element wholly left of the screen is put there on purpose (the skip link, until focused).
READ_WIDTHS = """() => {
    const width = document.documentElement.clientWidth;
    const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
        [...e.classList].slice(0, 2).map(c => '.' + c).join('') +
        ' "' + (e.textContent || '').trim().slice(0, 40) + '"';
    const scrolls = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
    const inScroller = e => { for (let p = e.parentElement; p; p = p.parentElement) {
        if (scrolls(p)) { const r = p.getBoundingClientRect(); return r.left >= -1 && r.right <= width + 1; } }
        return false; };
    const clipped = e => !e.checkVisibility() || getComputedStyle(e).clipPath !== 'none';
    const outside = [], hidden = [];
    for (const e of document.body.querySelectorAll('*')) {
        if (clipped(e)) continue;
        const r = e.getBoundingClientRect();
        const out = r.right > width + 1 || (r.left < -1 && r.right > 0);
        if (out && r.width > 0 && !inScroller(e)) outside.push(name(e));
        const x = getComputedStyle(e).overflowX;
        if ((x === 'hidden' || x === 'clip') && e.scrollWidth > e.clientWidth + 1) hidden.push(name(e));
    }
    const scrollers = [...document.querySelectorAll('pre, .site-table, .site-math')]
        .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1);
    return {width, documentWidth: document.documentElement.scrollWidth, outside, hidden,
            scrolling: scrollers.length, unreachable: scrollers.filter(e => e.tabIndex < 0).map(name)};
}"""

# What makes a focus indicator visible (WCAG 2.4.7; its size and contrast as WCAG 2.2's 2.4.13 measures them): an
# outline of 2 px or more, at 3:1 or more against what is behind it (the element's own background for an outline
# drawn inside it, its surroundings' for one outside), whole on the screen (or, for a box taller than the screen,
# across it), and cut by no box around it that hides what sticks out. indicatorProblem(e) says what is wrong with
# the focused element `e`'s indicator, or null.
FOCUS_HELPERS = """
    const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
        [...e.classList].slice(0, 2).map(c => '.' + c).join('') +
        ' "' + (e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 40) + '"';
    const rgba = text => (text.match(/[\\d.]+/g) || []).map(Number).concat([1]).slice(0, 4);
    const luminance = ([r, g, b]) => [r, g, b].map(v => v / 255)
        .map(c => c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
        .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
                              return (x + 0.05) / (y + 0.05); };
    const behind = e => { for (let n = e; n; n = n.parentElement) {
        const c = rgba(getComputedStyle(n).backgroundColor); if (c[3] > 0) return c; } return [255, 255, 255, 1]; };
    const indicatorProblem = e => {
        const s = getComputedStyle(e);
        const width = parseFloat(s.outlineWidth), offset = parseFloat(s.outlineOffset);
        if (s.outlineStyle === 'none' || !(width >= 2)) return `no focus outline of 2 px or more (${s.outlineStyle} ${s.outlineWidth})`;
        const inside = offset + width <= 0;
        const contrast = ratio(rgba(s.outlineColor), behind(inside ? e : e.parentElement));
        if (contrast < 3) return `focus outline at ${contrast.toFixed(2)}:1 on what is behind it`;
        const r = e.getBoundingClientRect(), grow = Math.max(offset + width, 0);
        const box = {left: r.left - grow, right: r.right + grow, top: r.top - grow, bottom: r.bottom + grow};
        const screenWidth = document.documentElement.clientWidth, screenHeight = window.innerHeight;
        if (box.left < -1 || box.right > screenWidth + 1) return 'focus outline off the screen at the side';
        const tall = box.bottom - box.top > screenHeight;
        if (tall ? box.bottom < 0 || box.top > screenHeight : box.top < -1 || box.bottom > screenHeight + 1)
            return 'focus outline off the screen';
        for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
            const ps = getComputedStyle(p);
            if (ps.overflowX === 'visible' && ps.overflowY === 'visible') continue;
            const pr = p.getBoundingClientRect();
            const left = pr.left + p.clientLeft, top = pr.top + p.clientTop;
            const cutX = box.left < left - 1 || box.right > left + p.clientWidth + 1;
            const cutY = !tall && (box.top < top - 1 || box.bottom > top + p.clientHeight + 1);
            if (cutX || cutY) return `focus outline cut by ${name(p)} (overflow ${ps.overflowX} ${ps.overflowY})`;
        }
        return null;
    };
"""

# Every tab stop of the page (what the Tab key reaches: links, controls, and boxes given a tabindex), each focused in
# turn as the keyboard would (focus-visible), its indicator checked; and the boxes among them: each must scroll, and
# none may sit inside another (one tab stop per box).
TAB_STOPS = (
    """() => {"""
    + FOCUS_HELPERS
    + """
    const INTERACTIVE = 'a[href], button, input, select, textarea, summary';
    const scrolls = e => { const s = getComputedStyle(e);
        return (/auto|scroll/.test(s.overflowX) && e.scrollWidth > e.clientWidth + 1) ||
               (/auto|scroll/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1); };
    const stops = [...document.querySelectorAll(INTERACTIVE + ', [tabindex]')]
        .filter(e => e.tabIndex >= 0 && !e.disabled && e.checkVisibility({visibilityProperty: true}));
    const boxes = stops.filter(e => !e.matches(INTERACTIVE));
    const problems = [];
    for (const e of boxes) {
        if (!scrolls(e)) problems.push(`${name(e)}: a tab stop, but it does not scroll`);
        const outer = boxes.find(o => o !== e && o.contains(e));
        if (outer) problems.push(`${name(e)}: a second tab stop for one box, inside ${name(outer)}`);
    }
    for (const e of stops) {
        e.focus({focusVisible: true});
        if (document.activeElement !== e) { problems.push(`${name(e)}: takes no focus`); continue; }
        if (!e.matches(':focus-visible')) { problems.push(`${name(e)}: not :focus-visible when focused`); continue; }
        const problem = indicatorProblem(e);
        if (problem) problems.push(`${name(e)}: ${problem}`);
    }
    document.activeElement.blur();
    window.scrollTo(0, 0);
    return {stops: stops.length, boxes: boxes.length, problems};
}"""
)

# What the page now holds that a reader of a lesson needs first: its time, its outline (each entry a heading of the
# page), its way to run it, and a copy button on each code cell; whether the index's lists carry numbers; and
# how many printed outputs wrap their lines (instead of keeping them whole, in a box that scrolls, as code does).
READ_OVERVIEW = """() => ({
    time: (document.querySelector('.site-time') || {}).textContent || null,
    outline: [...document.querySelectorAll('nav.site-outline a')].map(a => a.getAttribute('href')),
    headings: (hs => hs.slice(Math.max(0, hs.findIndex(h => h.tagName === 'H2'))).map(h => '#' + h.id))(
        [...document.querySelectorAll('main :is(h2, h3)[id]')]),
    run: (document.querySelector('.site-run-this') || {}).textContent || null,
    codeCells: document.querySelectorAll('.jp-CodeCell .jp-InputArea-editor pre').length,
    copyButtons: document.querySelectorAll('.jp-CodeCell .site-copy').length,
    numbered: [...document.querySelectorAll('main ol')].filter(o => getComputedStyle(o).listStyleType !== 'none').length,
    wrappedOutputs: [...document.querySelectorAll('.jp-OutputArea-output pre:not(.site-wrapped)')]
        .filter(p => getComputedStyle(p).whiteSpace !== 'pre').length,
})"""


def check_page(page, name: str, axe: Path, only: dict) -> tuple[list[str], dict]:
    """One loaded page's problems (axe's findings with rules `only`, its width, its tab stops) and what it holds,
    with everything folded in it opened first (the contents and outline on a phone, "Get the workbook", a figure in
    words), as a reader opens them."""
    rules: dict[str, str] = {}
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    results = audit(page, axe, only)
    lines = findings(name, results, rules)
    widths = page.evaluate(READ_WIDTHS)
    if widths["documentWidth"] > widths["width"]:
        lines.append(f"width | {name} | the page is {widths['documentWidth']} px wide on a {widths['width']} px screen")
    lines += [f"width | {name} | sticks out of the screen: {e}" for e in widths["outside"]]
    lines += [f"width | {name} | cut off, with no way to scroll to the rest: {e}" for e in widths["hidden"]]
    lines += [f"scrolling | {name} | scrolls, but the keyboard cannot reach it: {e}" for e in widths["unreachable"]]
    stops = page.evaluate(TAB_STOPS)
    lines += [f"focus | {name} | {problem}" for problem in stops["problems"]]
    return lines, {"results": results, "widths": widths, "stops": stops, "overview": page.evaluate(READ_OVERVIEW)}


def overview_problems(name: str, holds: dict) -> list[str]:
    """What a page lacks of its overview: a lesson its time, outline and run line; a lesson or exercise its run
    line and a copy button on every code cell; the index numbers beside the lessons' own."""
    seen = holds["overview"]
    lines = []
    if name.startswith("notebooks/"):
        if not (seen["time"] or "").startswith("About "):
            lines.append(f"{name}: no time estimate: {seen['time']}")
        if not seen["outline"] or seen["outline"] != seen["headings"]:
            lines.append(f"{name}: its outline {seen['outline']} is not its sections {seen['headings']}")
    if name.startswith(("notebooks/", "exercises/")) and not (seen["run"] or "").startswith("Run this "):
        lines.append(f"{name}: no way to run it: {seen['run']}")
    if seen["copyButtons"] != seen["codeCells"]:
        lines.append(f"{name}: {seen['copyButtons']} copy buttons for {seen['codeCells']} code cells")
    if seen["wrappedOutputs"]:
        lines.append(f"{name}: {seen['wrappedOutputs']} printed outputs wrapped instead of scrolling like code")
    if name == "index.html" and seen["numbered"]:
        lines.append(f"{name}: {seen['numbered']} lists numbered beside the lessons' own numbers")
    return lines


@pytest.mark.needs("node")
def test_every_page_at_a_desktop_s_width_passes_axe_and_shows_each_tab_stop_s_focus(
    built_site, server, browser, axe_script
):
    """axe's every rule of the tags, on every page, at 1280 px (where the contents and outlines are unfolded);
    each page's outline of landmarks; and each tab stop and box that scrolls, and what a lesson shows first."""
    pages = site_pages(built_site)
    assert len(pages) >= 24 and "index.html" in pages and "notebooks/05_counting_units.html" in pages
    context, page = open_page(browser, DESKTOP)
    lines: list[str] = []
    rules: dict[str, str] = {}
    inapplicable: set[str] | None = None
    stops: dict[str, int] = {}
    try:
        for name in pages:
            load(page, server + name)
            found, holds = check_page(page, name, axe_script, EVERY_RULE)
            results = holds["results"]
            rules.update({rule["id"]: rule["url"] for rule in results["violations"] + results["incomplete"]})
            assert "color-contrast" in results["passes"], f"{name}: axe checked no colour contrast"
            lines += found + overview_problems(name, holds)
            outline = page.evaluate(OUTLINE)
            if outline != EXPECTED_OUTLINE:  # what axe leaves to best practice or does not count
                lines.append(f"page outline | {name} | {outline} | wanted {EXPECTED_OUTLINE}")
            inapplicable = (
                set(results["inapplicable"]) if inapplicable is None else inapplicable & set(results["inapplicable"])
            )
            stops[name] = holds["stops"]["stops"]
    finally:
        context.close()
    assert lines == [], report(lines, rules)
    explained = {rule for rules in NOT_ON_THIS_SITE.values() for rule in rules}
    assert inapplicable == explained, (
        f"rules no page gives anything to check, not explained in NOT_ON_THIS_SITE: "
        f"{sorted(inapplicable - explained)}; "
        f"explained there but checked now (take them out): {sorted(explained - inapplicable)}"
    )
    print(f"tab stops at {DESKTOP['width']} px: {stops}")


@pytest.mark.needs("node")
def test_on_a_phone_every_page_fits_the_screen_its_targets_are_big_enough_and_each_tab_stop_shows_its_focus(
    built_site, server, browser, axe_script
):
    """At 390 px: nothing wider than the screen but what scrolls in its own box (lesson 05's long lines and printed
    tables among them), axe's rules the width can change (targets of 24 px above all), and each tab stop."""
    context, page = open_page(browser, PHONE, is_mobile=True, has_touch=True)
    lines: list[str] = []
    rules: dict[str, str] = {}
    scrolling: dict[str, int] = {}
    try:
        for name in site_pages(built_site):
            load(page, server + name)
            found, holds = check_page(page, name, axe_script, {"type": "rule", "values": PHONE_RULES})
            width = holds["widths"]["width"]
            assert width == PHONE["width"], f"{name}: laid out {width} px wide, not a phone's"
            rules.update({rule["id"]: rule["url"] for rule in holds["results"]["violations"]})
            lines += found + overview_problems(name, holds)
            scrolling[name] = holds["widths"]["scrolling"]
    finally:
        context.close()
    assert lines == [], report(lines, rules)
    assert scrolling["notebooks/05_counting_units.html"] >= 18, scrolling  # lesson 05's long lines do scroll


@pytest.mark.needs("node")
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_search_box_s_results_pass_axe_and_fit_the_screen(server, browser, axe_script, screenshots, viewport):
    """Pagefind's UI draws its results into the page after a query: checked as the page is, at both widths."""
    phone = viewport == PHONE
    context, page = open_page(browser, viewport, is_mobile=phone, has_touch=phone)
    try:
        load(page, server + "notebooks/01_assemble_context.html")
        page.get_by_role("textbox", name="Search").fill("cached prefix")
        page.locator(".pagefind-ui__result-link").first.wait_for()
        found, holds = check_page(page, "search results", axe_script, EVERY_RULE)
        page.locator(".pagefind-ui__result-link").first.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"site-search-{viewport['width']}.png"))
    finally:
        context.close()
    assert found == [], report(found, {})
    assert "color-contrast" in holds["results"]["passes"]


@pytest.mark.needs("node")
def test_axe_finds_what_it_should_on_a_page_made_to_fail(browser, axe_script):
    """The same run of axe on a page with known faults names each: so a clean report means a clean site."""
    context, page = open_page(browser, DESKTOP)
    try:
        page.set_content(
            "<html><body><div><p style='color:#aaa'>faint text</p><p style='color:#222'>a line with <a href='#x'"
            " style='color:#333;text-decoration:none'>a link</a> told by nothing</p><img src='data:,'>"
            "<h1>one</h1><h3>skips</h3>"
            "<table><tr><th></th><td>1</td></tr></table>"
            "<button style='width:12px;height:12px;padding:0'>a</button><button style='width:12px;height:12px;"
            "padding:0'>b</button></div></body></html>"
        )
        found = {rule["id"] for rule in audit(page, axe_script)["violations"]}
    finally:
        context.close()
    wanted = {"color-contrast", "link-in-text-block", "image-alt", "html-has-lang", "heading-order"}
    wanted |= {"landmark-one-main", "region", "empty-table-header", "target-size"}
    assert wanted <= found, f"axe missed {wanted - found}"


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


def test_the_focus_check_sees_an_outline_cut_thin_faint_or_missing_and_a_tab_stop_too_many(browser):
    """TAB_STOPS on a page made to fail: each fault is named, and the stops that are right are not."""
    context, page = open_page(browser, DESKTOP)
    long_line = "w " * 10 + "x" * 400
    try:
        page.set_content(
            "<html><head><style>:focus-visible { outline: 3px solid #0b4f9c; outline-offset: 2px; }</style></head>"
            "<body style='margin: 40px'>"
            "<div style='overflow: hidden'><a id='cut' href='#a'>flush with a box that hides what sticks out</a></div>"
            "<p><a id='thin' href='#b' style='outline-width: 1px'>thin</a> "
            "<a id='faint' href='#c' style='outline-color: #dddddd'>faint</a> "
            "<a id='none' href='#d' style='outline: none'>none</a> <a id='fine' href='#e'>fine</a></p>"
            "<pre id='still' tabindex='0'>short</pre>"
            f"<div id='outer' tabindex='0' style='overflow-x: auto'><pre id='inner' tabindex='0'>{long_line}</pre></div>"
            f"<pre id='scroller' tabindex='0' style='overflow-x: auto; outline-offset: -3px'>{long_line}</pre>"
            "</body></html>"
        )
        read = page.evaluate(TAB_STOPS)
    finally:
        context.close()
    named = {problem.split(" ")[0] for problem in read["problems"]}
    assert named == {"a#cut", "a#thin", "a#faint", "a#none", "pre#still", "pre#inner"}, read["problems"]
    assert read["stops"] == 9 and read["boxes"] == 4


# How many tab stops the page has (what is shown of it: not in a folded <details>, nor hidden).
# (A group of radio buttons is one tab stop, as in every browser: its arrow keys move between its options.)
FOCUSABLE = """() => [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter(e => e.tabIndex >= 0 && !e.disabled && e.checkVisibility({visibilityProperty: true}))
    .filter((e, i, all) => !(e.type === 'radio' && all.some((o, j) => j < i && o.type === 'radio' && o.name === e.name)))
    .length"""
# The element the Tab key reached: what it is, whether its focus indicator is visible (FOCUS_HELPERS), and for a
# copy button the code it copies.
FOCUSED = (
    """() => {"""
    + FOCUS_HELPERS
    + """
    const e = document.activeElement; if (!e || e === document.body) return null;
    const area = e.classList.contains('site-copy') && e.closest('.jp-InputArea');
    return {tag: e.tagName.toLowerCase(), name: name(e), href: e.getAttribute('href'),
            problem: e.matches(':focus-visible') ? indicatorProblem(e) : 'not :focus-visible',
            code: area ? area.querySelector('.jp-InputArea-editor pre').textContent.replace(/\\n$/, '') : null};
}"""
)


@pytest.mark.parametrize(
    ("name", "viewport"),
    [
        ("notebooks/01_assemble_context.html", DESKTOP),
        ("notebooks/01_assemble_context.html", PHONE),
        ("index.html", DESKTOP),
    ],
    ids=["lesson-desktop", "lesson-phone", "index-desktop"],
)
def test_the_tab_key_goes_through_a_page_each_stop_outlined_on_screen_and_a_copy_button_copies_by_keyboard(
    server, browser, name, viewport
):
    phone = viewport == PHONE
    context, page = open_page(browser, viewport, is_mobile=phone, has_touch=phone)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.rstrip("/"))
    copied = None
    try:
        load(page, server + name)
        wanted = page.evaluate(FOCUSABLE)
        reached, unmarked = [], []
        for _ in range(wanted + 5):
            page.keyboard.press("Tab")
            focused = page.evaluate(FOCUSED)
            if focused is None or (reached and focused["name"] == reached[0]["name"]):
                break  # out of the page, or round to the start again
            reached.append(focused)
            if focused["problem"]:
                unmarked.append(focused)
            if focused["code"] is not None and copied is None:
                page.keyboard.press("Enter")
                page.wait_for_function("() => document.querySelector('.site-copy-status').textContent === 'Copied'")
                copied = (focused["code"], page.evaluate("() => navigator.clipboard.readText()"))
    finally:
        context.close()
    assert reached[0]["href"] == "#content", f"the first tab stop is not the skip link: {reached[0]}"
    assert len(reached) == wanted, f"{name}: Tab reached {len(reached)} of {wanted} links and controls"
    assert unmarked == [], f"{name}: focused without a visible outline on the screen: {unmarked[:10]}"
    if name.startswith("notebooks/"):
        assert copied is not None and copied[0] and copied[1] == copied[0], copied
    print(f"{name} at {viewport['width']} px: {len(reached)} tab stops")


@pytest.fixture(scope="module")
def practice_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small site with a lesson as the practice points will make them (a question, the learner's answer checked,
    the worked answer folded under a Markdown <details><summary>: tests/test_site.py's practice_lesson)."""
    from test_site import practice_lesson, small_repository

    from packer.site.build import build

    root = small_repository(tmp_path_factory.mktemp("practice"))
    for lesson in (root / "notebooks").glob("0*.ipynb"):
        lesson.unlink()  # the practice lesson alone: a quicker build
    practice_lesson(root)
    build(root, root.parent / "site")
    return root.parent / "site"


@pytest.mark.needs("node")
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_folded_worked_answer_and_folded_result_open_from_the_keyboard_show_their_focus_and_pass_axe(
    practice_site, browser, axe_script, viewport
):
    from test_site_in_browser import serving

    phone = viewport == PHONE
    with serving(practice_site) as url:
        context, page = open_page(browser, viewport, is_mobile=phone, has_touch=phone)
        try:
            load(page, url + "notebooks/10_practice.html")
            found, _ = check_page(page, "practice", axe_script, EVERY_RULE)  # (it opens what is folded)
            load(page, url + "notebooks/10_practice.html")
            # The worked answer, then the folded printed result and the folded code (packer/lab/folded.py, a
            # source_hidden cell): each closed, reached by Tab, opened by Enter, what it holds shown only then.
            folds = [
                ("Worked answer", "Skip and continue keeps"),
                ("Practice 10.1: the result", "['alpha', 'bravo', 'delta']"),
                ("Folded: the lesson's skip_or_stop", "def skip_or_stop"),
            ]
            focused = []
            for label, held in folds:
                summary = page.locator("main details > summary", has_text=label)
                assert not summary.evaluate("s => s.parentElement.open"), label
                assert not page.get_by_text(held).first.is_visible(), label
                for _ in range(page.evaluate(FOCUSABLE) + 1):
                    page.keyboard.press("Tab")
                    if summary.evaluate("s => s === document.activeElement"):
                        focused.append(page.evaluate(FOCUSED))
                        break
                else:
                    raise AssertionError(f"Tab never reached the summary {label!r}")
                page.keyboard.press("Enter")
                assert summary.evaluate("s => s.parentElement.open"), label
                assert page.get_by_text(held).first.is_visible(), label
        finally:
            context.close()
    assert found == [], report(found, {})
    assert all(f["problem"] is None for f in focused), focused


# The pages read in the dark, printed, and at their first tab stops: a sample that holds every kind of thing the
# site shows (the index; lesson 09: code, outputs, figures, an explorer's still, folded answers, a traceback; lesson
# 05's tables of printed columns; a guide's tables; an exercise), so the whole site is not audited twice more.
SCHEME_PAGES = [
    "index.html",
    "notebooks/09_conversation.html",
    "notebooks/05_counting_units.html",
    "docs/instructors.html",
    "exercises/exercise_09_conversation.html",
]

# The page's own background and a code cell's, as luminance (0 black, 1 white).
READ_SCHEME = (
    """() => {"""
    + FOCUS_HELPERS
    + """
    const cell = document.querySelector('.jp-CodeCell');
    return {page: luminance(behind(document.querySelector('main'))),
            text: luminance(rgba(getComputedStyle(document.querySelector('main p, main li')).color)),
            cell: cell ? luminance(behind(cell.querySelector('.jp-OutputArea-output') || cell)) : null,
            scheme: getComputedStyle(document.documentElement).colorScheme};
}"""
)


@pytest.mark.needs("node")
def test_in_the_dark_the_page_turns_dark_code_stays_a_light_card_and_axe_finds_nothing(server, browser, axe_script):
    """prefers-color-scheme: dark, at 1280 px, every fold open: axe's every rule (contrast above all) and each tab
    stop's focus outline, on pages that hold every kind of thing the site shows."""
    context, page = open_page(browser, DESKTOP, color_scheme="dark")
    lines: list[str] = []
    rules: dict[str, str] = {}
    try:
        for name in SCHEME_PAGES:
            load(page, server + name)
            seen = page.evaluate(READ_SCHEME)
            assert seen["page"] < 0.02 and seen["text"] > 0.6 and "dark" in seen["scheme"], (name, seen)
            assert seen["cell"] is None or seen["cell"] > 0.9, (name, seen)  # code and outputs: a light card
            found, holds = check_page(page, name, axe_script, EVERY_RULE)
            assert "color-contrast" in holds["results"]["passes"], f"{name}: axe checked no colour contrast"
            lines += found
            rules.update({rule["id"]: rule["url"] for rule in holds["results"]["violations"]})
    finally:
        context.close()
    assert lines == [], report(lines, rules)


# A page as printed: what of the site's chrome shows, folds whose content is hidden, boxes whose content is wider
# than they are (cut at the paper's edge), and the address printed after a link that leads off the site.
READ_PRINTED = """() => {
    const shown = s => [...document.querySelectorAll(s)].filter(e => e.checkVisibility()).length;
    const folds = [...document.querySelectorAll('main details')].filter(d => d.checkVisibility());
    const hiddenFolds = folds.filter(d => [...d.children]
        .some(c => c.tagName !== 'SUMMARY' && !c.matches('.site-copy') && !c.checkVisibility())).length;
    const cut = [...document.querySelectorAll('main pre, main .site-table, main img')]
        .filter(e => e.checkVisibility() && (e.scrollWidth > e.clientWidth + 1
                     || e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)).length;
    const external = document.querySelector('main a[href^="https://"]:not(.site-figure)');
    return {chrome: shown('.site-skip, .site-header, .site-contents, nav.site-nav, .site-outline, #site-search'),
            copyButtons: shown('.site-copy'), folds: folds.length, hiddenFolds,
            cut, externalHref: external && external.getAttribute('href'),
            externalAfter: external && getComputedStyle(external, '::after').content};
}"""


@pytest.mark.needs("node")
def test_a_printed_lesson_shows_no_navigation_or_buttons_opens_every_fold_cuts_no_line_and_passes_axe(
    server, browser, axe_script, screenshots
):
    """Printed (print media, A4): the lesson alone, every fold open, code wrapped within the paper, a link's address
    after it; and on as many pages as its text needs (the PDF Chromium prints)."""
    context, page = open_page(browser, {"width": 794, "height": 1123})  # A4 at 96 px to the inch
    try:
        load(page, server + "notebooks/09_conversation.html")
        page.emulate_media(media="print")
        printed = page.evaluate(READ_PRINTED)
        results = audit(page, axe_script)
        pdf = page.pdf(format="A4", print_background=True)
        (screenshots / "site-09-printed.pdf").write_bytes(pdf)
    finally:
        context.close()
    assert printed["chrome"] == 0 and printed["copyButtons"] == 0, printed
    assert printed["folds"] >= 5 and printed["hiddenFolds"] == 0, printed
    assert printed["cut"] == 0, printed
    assert printed["externalHref"] and printed["externalHref"] in printed["externalAfter"], printed
    lines = findings("printed lesson 09", results, {})
    assert lines == [], report(lines, {})
    pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
    assert 0 < pages < 60, f"lesson 09 printed on {pages} A4 pages"
    print(f"lesson 09 printed on {pages} A4 pages")


# From the skip link's target to the lesson's own text: the tab stops between them (what the keyboard passes before
# the first paragraph of the lesson), and where the page's content starts before and while the skip link is focused.
READ_FIRST_STOPS = """() => {
    const main = document.getElementById('content');
    const first = [...main.querySelectorAll('.jp-MarkdownCell p')].find(p => !p.closest('.site-overview'));
    const stops = [...main.querySelectorAll('a[href], button, input, summary, [tabindex]')]
        .filter(e => e.tabIndex >= 0 && e.checkVisibility({visibilityProperty: true}))
        .filter(e => first.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING);
    return {stops: stops.length, outlineOpen: !!document.querySelector('.site-outline details[open]')};
}"""


@pytest.mark.parametrize("lesson", ["01_assemble_context", "09_conversation"])
def test_at_a_desk_s_width_a_dozen_tab_stops_at_most_lie_before_the_lesson_and_the_skip_link_moves_nothing(
    server, browser, lesson
):
    context, page = open_page(browser, DESKTOP)
    try:
        load(page, server + f"notebooks/{lesson}.html")
        top = page.locator("main").bounding_box()["y"]
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.className") == "site-skip"
        box = page.locator("a.site-skip").bounding_box()
        assert page.locator("main").bounding_box()["y"] == top and box["x"] >= 0 and box["y"] >= 0
        page.keyboard.press("Enter")
        first = page.evaluate(READ_FIRST_STOPS)
    finally:
        context.close()
    assert not first["outlineOpen"] and 0 < first["stops"] <= 12, first


# On a phone: each figure drawn at the width it was made for (in a box of its own that scrolls), and each printed
# output of one long line wrapped to the screen.
READ_PHONE_FIGURES = """() => ({
    figures: [...document.querySelectorAll('a.site-figure img[width]')].map(i => ({
        drawn: i.getBoundingClientRect().width, made: Number(i.getAttribute('width')),
        box: i.closest('a').getBoundingClientRect().width})),
    widest: Math.max(...[...document.querySelectorAll('.jp-OutputArea-output pre')].map(p => p.scrollWidth)),
    wrapped: [...document.querySelectorAll('.jp-OutputArea-output pre.site-wrapped')]
        .map(p => p.scrollWidth <= p.clientWidth + 1),
    screen: document.documentElement.clientWidth,
})"""


@pytest.mark.parametrize(
    ("lesson", "figures", "dumps"), [("00_start_here", 1, 1), ("07_whole_request", 1, 1), ("09_conversation", 3, 1)]
)
def test_on_a_phone_figures_keep_their_width_in_a_box_that_scrolls_and_one_line_dumps_wrap(
    server, browser, lesson, figures, dumps
):
    """Lesson 00's first output (a list on one line) was 4,328 px wide, lesson 07's rendered request 2,896 px; a
    table of aligned columns (lesson 07's token lists) still scrolls in its own box."""
    context, page = open_page(browser, PHONE, is_mobile=True, has_touch=True)
    try:
        load(page, server + f"notebooks/{lesson}.html")
        seen = page.evaluate(READ_PHONE_FIGURES)
    finally:
        context.close()
    assert len(seen["figures"]) >= figures
    for figure in seen["figures"]:
        assert abs(figure["drawn"] - figure["made"]) < 1 and figure["box"] <= seen["screen"], figure
    assert len(seen["wrapped"]) >= dumps and all(seen["wrapped"]), seen["wrapped"]
    assert seen["widest"] < 2000, seen["widest"]


@pytest.mark.needs("node")
def test_a_lesson_s_practice_points_answered_wrong_show_their_feedback_and_pass_axe(server, browser, axe_script):
    """A choose point and a predict point of lesson 02 answered wrong by keyboard: the feedback each shows (a
    status line) passes axe, and the Check button keeps its focus outline."""
    context, page = open_page(browser, DESKTOP)
    try:
        load(page, server + "notebooks/02_prompt_packer.html")
        from packer.checking.practice import POINTS, Choose

        for form in page.locator("form.site-practice").all():
            found = POINTS[form.get_attribute("data-practice")]
            if isinstance(found, Choose):
                form.get_by_role("radio").nth(next(i for i, o in enumerate(found.options) if not o.right)).focus()
                page.keyboard.press("Space")
            else:
                form.get_by_role("textbox").fill("(1, 2)")
            form.get_by_role("button", name="Check").focus()
            page.keyboard.press("Enter")
            form.get_by_role("status").filter(has_text="not yet").wait_for()
        focused = page.evaluate(FOCUSED)
        problems, _ = check_page(page, "02 answered", axe_script, EVERY_RULE)
    finally:
        context.close()
    assert problems == [], report(problems, {})
    assert focused["problem"] is None, focused
