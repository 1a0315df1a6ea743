"""Explorer logic without a browser: traces agree with the packers, views render, controls re-render."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from packer.lab.figures import DescribedFigure

import packer
from packer.lab.plots import plot_check, plot_plan, plot_trace
from packer.section_budget import FIFO_EXAMPLE, STATED_SECTION_CHARS
from packer.lab.trace import format_trace, trace_chunks, trace_prompt, trace_utf8
from packer.lab.widgets import (
    chunks_view,
    explore_chunks,
    explore_plan,
    explore_prompt,
    explore_sections,
    explore_utf8,
    plan_view,
    prompt_view,
    sections_view,
    utf8_view,
)

EXAMPLE = [
    {"text": "alpha", "token_count": 40},
    {"text": "bravo", "token_count": 30},
    {"text": "charlie", "token_count": 50},
    {"text": "delta", "token_count": 20},
]
PASSAGES = [("a", "one two"), ("b", "one two three four five"), ("c", "six")]
WORDS = "whitespace words (fixture, not tokens)"

texts = st.text(alphabet="ab é日🙂", max_size=12)
passage_lists = st.lists(
    st.tuples(st.text(alphabet="xyz", min_size=1, max_size=3), texts), max_size=6, unique_by=lambda p: p[0]
)


def test_chunk_trace_walks_the_seed_example():
    trace = trace_chunks(EXAMPLE, 100)
    assert [(s.label, s.before, s.cost, s.kept) for s in trace.steps] == [
        ("alpha", 0, 40, True),
        ("bravo", 40, 30, True),
        ("charlie", 70, 50, False),
        ("delta", 70, 20, True),
    ]
    assert (trace.used, trace.kept, trace.skipped) == (90, ["alpha", "bravo", "delta"], ["charlie"])


def test_prompt_trace_measures_framing_and_growth():
    trace = trace_prompt("why", PASSAGES, 9, packer.count_words, "words")
    assert trace.fixed == (("question, heading, cue", 4),)
    assert [(s.label, s.cost, s.kept) for s in trace.steps] == [("a", 3, True), ("b", 6, False), ("c", 2, True)]
    assert trace.used == 9


def test_utf8_trace_charges_header_and_reserve():
    trace = trace_utf8([("a", "é")], 17, 1)
    assert trace.fixed == (("header", 9), ("reserve", 1))
    assert [(s.cost, s.kept) for s in trace.steps] == [(7, True)] and trace.used == 17


@given(st.lists(st.integers(0, 40), max_size=8), st.integers(0, 120))
def test_chunk_trace_agrees_with_assemble_context(costs, budget):
    chunks = [{"text": f"c{i}", "token_count": c} for i, c in enumerate(costs)]
    trace = trace_chunks(chunks, budget)
    assert packer.assemble_context(chunks, budget) == ("\n\n".join(trace.kept), trace.used)


@given(passage_lists, st.integers(0, 80), st.sampled_from(list(packer.COUNTERS.values())))
def test_prompt_trace_agrees_with_pack_prompt(passages, limit, count):
    try:
        chosen, skipped, prompt = packer.pack_prompt("q?", passages, limit, count)
    except ValueError:
        return
    trace = trace_prompt("q?", passages, limit, count)
    assert (trace.kept, trace.skipped, trace.used) == ([k for k, _ in chosen], skipped, count(prompt))


@given(passage_lists, st.integers(0, 120), st.integers(0, 10))
def test_utf8_trace_agrees_with_pack_utf8(passages, limit, reserve):
    try:
        text, kept = packer.pack_utf8(passages, limit, reserve)
    except ValueError:
        return
    trace = trace_utf8(passages, limit, reserve)
    assert (trace.kept, trace.used) == (kept, len(text.encode()) + reserve)


def test_format_trace_reads_as_a_table():
    assert format_trace(trace_chunks(EXAMPLE, 100)).splitlines() == [
        "candidate   cost  if taken  decision",
        "alpha         40        40  kept",
        "bravo         30        70  kept",
        "charlie       50       120  skipped",
        "delta         20        90  kept",
        "used 90 of 100 tokens; kept ['alpha', 'bravo', 'delta'], skipped ['charlie']",
    ]


@pytest.mark.parametrize(
    "figure",
    [
        lambda: plot_trace(trace_chunks(EXAMPLE, 100)),
        lambda: plot_trace(trace_utf8([("a", "é"), ("b", "x" * 40)], 30, 2)),
        lambda: plot_plan(packer.plan_budget(STATED_SECTION_CHARS)),
        lambda: plot_check(packer.check_sections(FIFO_EXAMPLE), FIFO_EXAMPLE),
    ],
    ids=["trace", "trace-with-framing", "plan", "check"],
)
def test_figures_draw_the_limit_and_a_legend(figure):
    fig = figure()
    assert isinstance(fig, DescribedFigure)
    ax = fig.axes[0]
    assert ax.get_legend() is not None and ax.get_title()
    assert any(line.get_linestyle() == "--" for line in ax.get_lines()), "no budget line"


def test_views_report_the_worked_examples():
    assert chunks_view(EXAMPLE, 100).text.endswith("context = 'alpha\\n\\nbravo\\n\\ndelta'")
    assert "kept ['a', 'c'], skipped ['b']" in prompt_view("why", PASSAGES, 9, WORDS).text
    assert "kept ['a']" in utf8_view([("a", "é")], 16, 0).text
    assert "headroom 60 tokens (12%)" in plan_view(500, **STATED_SECTION_CHARS).text
    assert sections_view(500, **FIFO_EXAMPLE).text.startswith("PASS: 5 sections assembled within 500 token budget")


def test_views_turn_bad_values_into_a_message_not_a_crash():
    view = utf8_view([("a", "é")], 10, 5)
    assert view.figure is None and view.text.startswith("ValueError: limit")
    assert prompt_view("why", PASSAGES, 3, WORDS).text.startswith("ValueError: limit")


@pytest.mark.parametrize(
    "make, control, value, expected",
    [
        (lambda: explore_chunks(EXAMPLE), "max_tokens", 70, "kept ['alpha', 'bravo'], skipped ['charlie', 'delta']"),
        (lambda: explore_prompt("why", PASSAGES), "limit", 13, "kept ['a', 'b'], skipped ['c']"),
        (lambda: explore_utf8([("a", "é")], 16), "limit", 15, "kept [], skipped ['a']"),
        (lambda: explore_plan(STATED_SECTION_CHARS), "context", 900, "headroom -5 tokens"),
        (lambda: explore_sections(FIFO_EXAMPLE), "format", "free text", "FAIL: parseable marker absent"),
    ],
    ids=["chunks", "prompt", "utf8", "plan", "sections"],
)
def test_moving_a_control_re_renders(make, control, value, expected, capsys):
    explorer = make()
    assert expected not in explorer.last.text
    explorer.controls[control].value = value
    assert expected in explorer.last.text
    assert explorer.values()[control] == value
    assert explorer.controls[control] in explorer.widget.children


def test_counter_menu_switches_the_measure(capsys):
    explorer = explore_prompt("why", PASSAGES, limit=40)
    explorer.controls["counter"].value = "UTF-8 bytes"
    assert "of 40 UTF-8 bytes" in explorer.last.text


def test_the_explorer_shows_its_figure_as_one_png(capsys):
    from packer.lab.figures import png_bytes

    explorer = explore_chunks(EXAMPLE)
    assert png_bytes(explorer.last.figure).startswith(b"\x89PNG")


# --- lesson 04 shows both views of a plan: the sum of the sections and the assembled prompt ---------------
def test_the_planning_table_shows_the_summed_and_the_assembled_estimate_side_by_side():
    text = plan_view(500, **STATED_SECTION_CHARS).text
    assert "total          1760     440  sum of the sections" in text
    assert "assembled      1814     454  the prompt as sent (+54 chars of tags and blank lines)" in text
    assert text.splitlines()[-2:] == [
        "budget 500: sum of the sections 440, headroom 60 tokens (12%): fits",
        "            assembled prompt    454, headroom 46 tokens (9%): fits",
    ]
    tight = plan_view(500, **{**STATED_SECTION_CHARS, "context": 880}).text.splitlines()
    assert tight[-2].endswith("500, headroom 0 tokens (0%): fits")
    assert tight[-1].endswith("514, headroom -14 tokens (-3%): does not fit")


@given(st.fixed_dictionaries({key: st.integers(0, 400) for key in packer.section_budget.SECTION_ORDER}))
def test_the_assembled_estimate_is_the_estimate_of_the_prompt_build_prompt_makes(sizes):
    plan = packer.plan_budget(sizes, 500)
    prompt = packer.build_prompt({key: "x" * chars for key, chars in sizes.items()})
    assert (plan.assembled_chars, plan.assembled_tokens) == (len(prompt), packer.estimate_tokens(prompt))
    assert plan.assembled_headroom == 500 - plan.assembled_tokens


def test_the_plan_figure_has_a_bar_for_each_view():
    fig = plot_plan(packer.plan_budget(STATED_SECTION_CHARS, 500))
    ax = fig.axes[0]
    assert [tick.get_text() for tick in ax.get_yticklabels()] == ["assembled 454", "summed 440"]
    assert ax.get_title() == "440 summed, 454 assembled, of 500 tokens"


def test_the_check_figure_points_at_the_framing_at_the_default_budget():
    ax = plot_check(packer.check_sections(FIFO_EXAMPLE), FIFO_EXAMPLE).axes[0]
    assert [text.get_text() for text in ax.texts] == ["tags and separators: +11 tokens"]
    tight = plot_check(packer.check_sections(FIFO_EXAMPLE, 88), FIFO_EXAMPLE).axes[0]
    assert len(tight.texts) == 0, "at a tight budget the slice is wide enough to see without a label"


def test_the_sections_view_shows_the_sum_beside_the_assembled_estimate():
    lines = sections_view(500, **FIFO_EXAMPLE).text.splitlines()
    assert lines[1:] == [
        "estimate of the assembled prompt: 88 tokens, headroom 412",
        "sum of the section estimates:     77 tokens (tags and separators add 11)",
    ]
