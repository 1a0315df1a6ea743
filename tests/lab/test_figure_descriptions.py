"""Every lesson figure says what it shows: a text alternative written from the figure's own data.

One test per kind of figure, each on data made up so that every number in the description can only have come
from that data; and the display form a notebook saves (PNG, the description as text/plain and as alt)."""

from __future__ import annotations

import pytest

import packer
from packer.lab.beyond_plots import (
    describe_layout,
    describe_parts_sweep,
    describe_per_token,
    describe_strategy_choices,
    describe_threshold_sweep,
    plot_layout,
)
from packer.lab.conversation import Step
from packer.lab.conversation_plots import describe_cache_tradeoff, describe_steps, describe_turns_kept
from packer.lab.corpus import Sample
from packer.lab.count_plots import (
    describe_bytes_bound,
    describe_errors,
    describe_headroom,
    describe_ratios,
    describe_splits,
)
from packer.lab.figures import OKABE_ITO, figure_with, listing, png_bytes, ranks_text
from packer.lab.measure import Measured, Split
from packer.lab.plots import (
    describe_budget_used,
    describe_check,
    describe_plan,
    describe_trace,
    describe_work,
    plot_trace,
)
from packer.lab.policies import Outcome
from packer.lab.repeats import Choice
from packer.lab.request_budget import Budget
from packer.lab.retrieval import Hit
from packer.lab.trace import trace_chunks, trace_utf8
from packer.section_budget import FIFO_EXAMPLE

CHUNKS = [
    {"text": "alpha", "token_count": 40},
    {"text": "bravo", "token_count": 70},
    {"text": "charlie", "token_count": 25},
]
HITS = [Hit(f"p{rank}", f"text {rank}", 10.0 - rank, rank) for rank in range(1, 7)]


def test_prose_helpers():
    assert [listing([]), listing(["a"]), listing(["a", "b"]), listing(["a", "b", "c"])] == [
        "none",
        "a",
        "a and b",
        "a, b and c",
    ]
    assert ranks_text([9, 1, 2, 3, 7, 10]) == "1–3, 7 and 9–10"
    assert len(set(OKABE_ITO)) == 8


def test_a_figure_without_a_description_is_refused():
    fig = plot_trace(trace_chunks(CHUNKS, 100)).figure
    with pytest.raises(ValueError, match="text alternative"):
        figure_with(fig, "  ")


def test_the_notebook_gets_the_png_the_description_and_the_alt():
    described = plot_trace(trace_chunks(CHUNKS, 100))
    data, metadata = described._repr_mimebundle_()
    assert data["image/png"].startswith(b"\x89PNG") and data["image/png"] == png_bytes(described)
    assert data["text/plain"] == described.description == metadata["image/png"]["alt"]
    assert not data["text/plain"].startswith("<Figure")


def test_a_notebook_shows_the_figure_then_the_description_in_words(monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda data, **options: shown.append((data, options)))
    described = plot_trace(trace_chunks(CHUNKS, 100))
    described._ipython_display_()
    (figure, figure_options), (words, words_options) = shown
    assert (figure, figure_options["metadata"]) == described._repr_mimebundle_()
    assert words == described.in_words() and figure_options["raw"] and words_options["raw"]
    assert words["text/html"].startswith("<details><summary>The figure in words</summary><p>Bar chart.")
    assert words["text/plain"] == "The figure in words: " + described.description
    assert "&lt;b&gt;" in figure_with(described.figure, "a <b> tag").in_words()["text/html"]


def test_the_trace_names_each_candidate_its_cost_and_why_it_was_skipped():
    text = describe_trace(trace_chunks(CHUNKS, 100))
    assert "limit, 100 tokens" in text
    assert "Kept, solid bars: alpha (40, reaching 40) and charlie (25, reaching 65)." in text
    assert "Skipped, hatched bars: bravo (70: would reach 110, over 100)." in text
    assert text.endswith("Used 65 of 100 tokens.")
    assert plot_trace(trace_chunks(CHUNKS, 100)).description == text


def test_the_trace_names_its_framing():
    trace = trace_utf8([("a", "é"), ("b", "x" * 40)], 30, 2)
    text = describe_trace(trace, "bytes")
    assert text.startswith("Bar chart: bytes.")
    header = dict(trace.fixed)["header"]
    assert f"framing charged whatever is kept (header {header} and reserve 2)" in text
    assert "limit, 30 bytes" in text


def test_the_plan_gives_both_bars_and_their_headroom():
    sizes = {"task": 40, "context": 200, "constraints": 8, "format": 4, "examples": 80}
    plan = packer.plan_budget(sizes, 120)
    text = describe_plan(plan)
    assert "dashed budget line at 120" in text
    assert "task 10, context 50, constraints 2, format 1 and examples 20, 83 in all, headroom 37" in text
    framing = plan.assembled_tokens - plan.total_tokens
    assert f"plus {framing} for tags" in text and f"{plan.assembled_tokens} in all" in text
    over = describe_plan(packer.plan_budget(sizes, 50))
    assert "83 in all, over the budget by 33" in over


def test_the_check_gives_the_verdict_the_sections_and_the_framing():
    result = packer.check_sections(FIFO_EXAMPLE, 90)
    text = describe_check(result, FIFO_EXAMPLE)
    assert result.message in text and "budget line at 90" in text
    assert "task 13, context 16, constraints 14, format 16 and examples 18" in text
    assert f"assembled prompt is {result.total}, headroom {90 - result.total}" in text
    failed = packer.check_sections({"task": "x"}, 90)
    assert "stopped before assembling" in describe_check(failed, {"task": "x"})


def test_the_budget_used_figure_finds_where_skipping_wins():
    text = describe_budget_used([0, 1, 2, 3, 4, 5], [0, 1, 1, 3, 4, 4], [0, 0, 0, 3, 3, 4])
    assert "from 0 to 5" in text and "at max_tokens 1–2 and 4 (shaded), and never less" in text
    assert "reaches 4; skip" in text
    assert "less at max_tokens 1" in describe_budget_used([0, 1], [0, 0], [0, 1])


def test_the_work_figure_gives_each_count_ratio_and_slope():
    text = describe_work({100: (10_000, 1_000), 200: (40_000, 2_000)})
    assert "10,000 at 100 and 40,000 at 200" in text and "1,000 at 100 and 2,000 at 200" in text
    assert "10 and 20 times the work" in text and "slopes are 2.0 and 1.0" in text


def _measured(name: str, kind: str, tokens: list[int], chars4: list[int], nbytes: list[int]) -> Measured:
    sample = Sample(name, kind, "Latin", "made up", tuple("x" * b for b in nbytes))
    counts = {"chars/4": tuple(chars4), "UTF-8 bytes": tuple(nbytes), "words": tuple(chars4)}
    return Measured(sample, "cl100k_base", counts, tuple(tokens))


PROSE = _measured("prose sample", "prose", [10, 10, 20, 40], [10, 5, 20, 20], [40, 20, 80, 80])
DATA = _measured("data sample", "data", [30, 30], [15, 30], [60, 60])


def test_the_ratios_give_each_samples_median_and_range():
    text = describe_ratios([PROSE, DATA])
    assert "prose sample (prose): median 0.75, 5–95% 0.50 to 1.00" in text
    assert "data sample (data): median 0.75, 5–95% 0.50 to 1.00" in text
    assert "prose circle and data diamond" in text and "cl100k_base" in text


def test_the_headroom_gives_both_percentiles_per_sample():
    text = describe_headroom([PROSE], (50, 99))
    assert "50% (upper, lighter bar) and 99% (lower, darker bar)" in text
    assert "prose sample +0% and +100%" in text


def test_the_bytes_bound_counts_the_passages_and_the_closest_one():
    text = describe_bytes_bound([PROSE, DATA])
    assert "each of 6 passages from 2 samples" in text
    assert "Every passage is on or below the line: the most tokens per byte is 0.50 (prose sample)" in text
    above = _measured("odd", "code", [5], [1], [4])
    assert "1 passages are above the line" in describe_bytes_bound([above])


def test_the_splits_give_each_share():
    splits = [Split("a", "b", 3, 2), Split("a", "b", 3, 3), Split("a", "b", 3, 3), Split("a", "b", 3, 4)]
    assert "one (4 cuts): 25% fewer, 50% as many, 25% more" in describe_splits([("one", splits)])


def test_the_errors_mark_the_chosen_passage():
    text = describe_errors(PROSE, "chars/4", 1)
    assert "over the 4 passages of prose sample: from 0.50 to 1.00, median 0.75" in text
    assert "passage 1 at 0.50" in text


def _outcome(policy: str, chosen: tuple[str, ...], tokens: int, relevance: float) -> Outcome:
    return Outcome(policy, chosen, tokens, 100, relevance, 45.0, False, 1, 1)


def test_the_choices_give_each_policys_ranks_and_each_passages_cost():
    from packer.lab.policy_plots import describe_choices, describe_sweep

    outcomes = [_outcome("greedy", ("p1", "p2", "p3", "p5"), 90, 23), _outcome("wide", ("p6",), 120, 4)]
    text = describe_choices(outcomes, HITS, [10, 20, 30, 40, 50, 60])
    assert "greedy keeps ranks 1–3 and 5: 90 tokens, relevance 23" in text
    assert "wide keeps ranks 6: 120 tokens, relevance 4, over the limit of 100 (cross-hatched)" in text
    assert "1: 10, 2: 20, 3: 30, 4: 40, 5: 50 and 6: 60" in text
    sweep = describe_sweep([100, 200], [outcomes, [_outcome("greedy", (), 50, 30.5), _outcome("wide", (), 90, 7)]])
    assert "greedy (circles) from 23.0 at 100 to 30.5 at 200" in sweep
    assert "wide (squares) from 4.0 at 100 to 7.0 at 200, over the limit at 100" in sweep


def test_the_request_budgets_give_every_part():
    from packer.lab.request_plots import describe_budgets

    budget = Budget("v7", 256, 64, (("control tokens", 3), ("passages", 150), ("headroom", 39)), (), (), 0, ())
    text = describe_budgets([budget], ["v7 + tool"])
    assert "v7 + tool: control tokens 3, passages 150 and headroom 39" in text and "(256 tokens" in text


def test_the_layout_lists_both_orders():
    text = describe_layout([1, 2, 3, 4], [1, 3, 4, 2])
    assert "Rank order: 1, 2, 3, 4. Ends first: 1, 3, 4, 2." in text
    assert plot_layout([1, 2, 3, 4], [1, 3, 4, 2]).description == text


def test_the_threshold_sweep_gives_recall_and_false_removals():
    text = describe_threshold_sweep([0.3, 0.9], [(9, 10, 4), (2, 10, 0)])
    assert "0.3: 9 of 10 copies caught, 4 false removals; 0.9: 2 of 10 copies caught, 0 false removals" in text


def _choice(strategy: str, chosen: tuple[str, ...], tokens: int, distinct: int) -> Choice:
    return Choice(strategy, chosen, tokens, 500, (), distinct, 0)


def test_per_token_and_the_strategy_grid():
    table = [[_choice("greedy", ("p1",), 400, 2), _choice("filter", ("p2",), 500, 3)]]
    text = describe_per_token(["q"], table)
    assert "Q1: greedy 5.0, filter 6.0" in text and "greedy (plain) and filter (back-striped)" in text
    grid = describe_strategy_choices(
        [_choice("greedy", ("p1", "p2", "p4"), 400, 2)], HITS, relevant={"p1", "p4"}, copies={"p2", "p3"}
    )
    assert "Injected copies (orange, cross-hatched) are ranks 2–3" in grid
    assert "relevant passages (green, striped) are ranks 1 and 4" in grid
    assert "greedy keeps ranks 1–2 and 4 (400 tokens, 2 distinct relevant, 1 injected copies)" in grid


def test_the_parts_sweep_gives_each_parts_budgets():
    text = describe_parts_sweep(
        ["system", "extra"], [100, 110, 120, 130], [None, ["system"], ["system", "extra"], ["system", "extra"]]
    )
    assert "The request fails (every cell blank) at 100." in text
    assert "system: kept at 110–130; extra: kept at 120–130" in text


def test_the_conversation_figures():
    kept = describe_turns_kept([1000, 2000], {"drop": [3, 5], "clear": [4, 9]}, 10)
    assert (
        "of 10 (a dotted line)" in kept and "drop (circles): 3 at 1000, 5 at 2000; clear (squares): 4 at 1000" in kept
    )
    steps = [Step(1, 100, 0, 0), Step(2, 150, 100, 0), Step(2, 140, 60, 0), Step(3, 300, 140, 128)]
    text = describe_steps(steps, 200, "drop turns")
    assert "turns 1 to 4" in text and "limit, 200 tokens" in text and "from 100 to 300 tokens; 1 of 4 are over" in text
    assert "In all 690 tokens sent, 300 shared with the request before, 128 cached (18.6%)" in text
    assert text.endswith(
        "dropped before the requests at turns 3 (each keeps no more turns than the one before); there the shared part is 60 to 60 tokens."
    )
    trade = describe_cache_tradeoff([("low 100", 9.5, 0.5), ("low 50", 8.0, 0.7), ("summary", 10.0, 0.3)])
    assert "low 100: 9.5 turns, 50.0% cached; low 50: 8.0 turns, 70.0% cached" in trade
    assert "Other policies (squares): summary: 10.0 turns, 30.0% cached" in trade


def _pairs():
    """(plot, describe) per kind of figure, on the small data above: each plot_* must attach its describe_*."""
    from packer.lab import beyond_plots as b
    from packer.lab import conversation_plots as c
    from packer.lab import count_plots as n
    from packer.lab import plots as p
    from packer.lab import policy_plots as o
    from packer.lab import request_plots as r

    plan = packer.plan_budget({"task": 40, "context": 200, "constraints": 8, "format": 4, "examples": 80}, 120)
    check = packer.check_sections(FIFO_EXAMPLE, 90)
    outcomes = [_outcome("greedy", ("p1", "p2"), 90, 23), _outcome("wide", ("p6",), 120, 4)]
    budget = Budget("v7", 256, 64, (("control tokens", 3), ("passages", 150), ("headroom", 39)), (), (), 0, ())
    table = [[_choice("greedy", ("p1",), 400, 2), _choice("filter", ("p2",), 500, 3)]]
    steps = [Step(1, 100, 0, 0), Step(2, 150, 100, 0), Step(2, 140, 60, 0)]
    splits = [("one", [Split("a", "b", 3, 2), Split("a", "b", 3, 4)])]
    work = {100: (10_000, 1_000), 200: (40_000, 2_000)}
    used = ([0, 1, 2], [0, 1, 2], [0, 0, 2])
    thresholds = ([0.3, 0.9], [(9, 10, 4), (2, 10, 0)])
    sweep = (["system"], [100, 110], [None, ["system"]])
    points = [("low 100", 9.5, 0.5), ("summary", 10.0, 0.3)]
    return {
        "plan": (lambda: p.plot_plan(plan), lambda: describe_plan(plan)),
        "check": (lambda: p.plot_check(check, FIFO_EXAMPLE), lambda: describe_check(check, FIFO_EXAMPLE)),
        "budget used": (lambda: p.plot_budget_used(*used), lambda: describe_budget_used(*used)),
        "work": (lambda: p.plot_work(work), lambda: describe_work(work)),
        "ratios": (lambda: n.plot_ratios([PROSE, DATA]), lambda: describe_ratios([PROSE, DATA])),
        "headroom": (lambda: n.plot_headroom([PROSE, DATA]), lambda: describe_headroom([PROSE, DATA])),
        "bytes bound": (lambda: n.plot_bytes_bound([PROSE, DATA]), lambda: describe_bytes_bound([PROSE, DATA])),
        "splits": (lambda: n.plot_splits(splits), lambda: describe_splits(splits)),
        "errors": (lambda: n.plot_errors(PROSE, "chars/4", 1), lambda: describe_errors(PROSE, "chars/4", 1)),
        "choices": (
            lambda: o.plot_choices(outcomes, HITS, [1, 2, 3, 4, 5, 6]),
            lambda: o.describe_choices(outcomes, HITS, [1, 2, 3, 4, 5, 6]),
        ),
        "sweep": (lambda: o.plot_sweep([100], lambda _: outcomes), lambda: o.describe_sweep([100], [outcomes])),
        "budgets": (lambda: r.plot_budgets([budget]), lambda: r.describe_budgets([budget])),
        "threshold": (lambda: b.plot_threshold_sweep(*thresholds), lambda: describe_threshold_sweep(*thresholds)),
        "per token": (lambda: b.plot_per_token(["q"], table), lambda: describe_per_token(["q"], table)),
        "strategies": (
            lambda: b.plot_strategy_choices(table[0], HITS, {"p1"}, {"p2"}),
            lambda: describe_strategy_choices(table[0], HITS, {"p1"}, {"p2"}),
        ),
        "parts": (lambda: b.plot_parts_sweep(*sweep), lambda: describe_parts_sweep(*sweep)),
        "turns": (
            lambda: c.plot_turns_kept([1, 2], {"drop": [1, 2]}, 3),
            lambda: describe_turns_kept([1, 2], {"drop": [1, 2]}, 3),
        ),
        "steps": (lambda: c.plot_steps(steps, 120, "t"), lambda: describe_steps(steps, 120, "t")),
        "tradeoff": (lambda: c.plot_cache_tradeoff(points), lambda: describe_cache_tradeoff(points)),
    }


@pytest.mark.parametrize("kind", list(_pairs()))
def test_each_plot_attaches_the_description_of_its_own_data(kind):
    plot, describe = _pairs()[kind]
    described = plot()
    assert described.description == describe() and described.figure.axes
