"""Lesson 06's retrieval run, its four policies and its explorer, without a browser."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from packer.lab.figures import DescribedFigure

from packer import pack_prompt, render_prompt
from packer.counters import bpe, count_words
from packer.lab import corpus
from packer.lab.policies import (
    Tally,
    compare,
    first_overflow,
    knapsack,
    knapsack_01,
    line_costs,
    outcomes_table,
    priority_cutoff,
    skip_and_continue,
    text_costs,
)
from packer.lab.policy_plots import plot_choices, plot_sweep
from packer.lab.retrieval import QUESTIONS, Hit, bm25_scores, collection, rank, words
from packer.lab.widgets import explore_policies, policies_view

pytest.importorskip(
    "bpe_openai", reason="bpe-openai (the real tokenizer's vocabulary) is not installed: run `make venv`"
)

COUNT = bpe("cl100k_base")
CHINESE = QUESTIONS[-1]


@pytest.fixture(scope="module")
def runs() -> dict[str, list[Hit]]:
    return {q: rank(q) for q in QUESTIONS}


# --- the retrieval run --------------------------------------------------------------------------------
def test_the_collection_is_lesson_05s_corpus_with_readable_unique_ids():
    passages = collection()
    assert len(passages) == sum(len(s.passages) for s in corpus.samples())
    assert len({key for key, _ in passages}) == len(passages)
    assert passages[0][0] == "english-prose-000" and passages[0][1] == corpus.sample("English prose").passages[0]


def test_words_are_lowercased_runs_and_cjk_characters_one_by_one():
    assert words("Don't raise_it, OK? 3.11") == ["don", "t", "raise", "it", "ok", "3", "11"]
    assert words("运行notebook单元") == ["运", "行", "notebook", "单", "元"]


def test_bm25_rewards_rare_words_repeats_and_short_passages():
    documents = ["the cat sat", "the dog sat", "the the the", "cat cat cat dog", "dog"]
    scores = bm25_scores("cat", documents)
    assert scores[1] == scores[2] == scores[4] == 0.0, "no query word, no score"
    assert scores[3] > scores[0] > 0, "more occurrences score more"
    assert bm25_scores("the cat", documents)[0] - scores[0] < scores[0], "a common word adds little"
    assert bm25_scores("dog", documents)[4] > bm25_scores("dog", documents)[1], "a shorter passage scores more"


def test_ranking_is_best_first_ties_in_collection_order_and_deterministic(runs):
    for question, hits in runs.items():
        assert [h.rank for h in hits] == list(range(1, 41))
        assert all(a.score >= b.score for a, b in zip(hits, hits[1:]))
        assert hits == rank(question)
    tied = rank("zzz", [("a", "x"), ("b", "y"), ("c", "zzz")], k=3)
    assert [h.key for h in tied] == ["c", "a", "b"]


@pytest.mark.parametrize("k", [0, -1, True, 2.0])
def test_a_bad_k_or_collection_raises_naming_it(k):
    with pytest.raises(ValueError, match="^k must be a positive int"):
        rank("q", k=k)
    with pytest.raises(ValueError, match="^documents"):
        bm25_scores("q", [])


def test_the_runs_retrieve_what_the_questions_ask_about(runs):
    assert runs[QUESTIONS[0]][1].key == "english-prose-029"  # "Before an except clause's suite is executed ..."
    assert runs[QUESTIONS[1]][0].key == "english-prose-030"  # "By default, an object is considered true ..."
    assert all(h.key.startswith("chinese-ui-messages") for h in runs[CHINESE][:20])


# --- the 0/1 knapsack ---------------------------------------------------------------------------------
items = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 30)), max_size=8)


@given(items=items, capacity=st.integers(0, 40))
def test_knapsack_01_finds_the_best_subset_that_fits(items, capacity):
    costs, values = [c for c, _ in items], [v for _, v in items]
    picked = knapsack_01(costs, values, capacity)
    assert picked == sorted(set(picked)) and sum(costs[i] for i in picked) <= capacity
    best = max(
        sum(values[i] for i in subset)
        for r in range(len(items) + 1)
        for subset in itertools.combinations(range(len(items)), r)
        if sum(costs[i] for i in subset) <= capacity
    )
    assert sum(values[i] for i in picked) == best


def test_knapsack_01_beats_greedy_where_one_big_item_blocks_two():
    assert knapsack_01([6, 5, 5], [10, 9, 9], 10) == [1, 2]


@pytest.mark.parametrize(
    "args, message",
    [
        (([1], [1], -1), "^capacity must be"),
        (([1, 2], [1], 3), "^costs and values: 2 costs for 1 values"),
        (([1.5], [1], 3), r"^costs\[0\] must be"),
        (([1, True], [1, 1], 3), r"^costs\[1\] must be"),
        (([1], [-1], 3), r"^values\[0\] must be a non-negative number"),
        (([1], ["x"], 3), r"^values\[0\]"),
    ],
)
def test_knapsack_01_refuses_bad_input_naming_it(args, message):
    with pytest.raises(ValueError, match=message):
        knapsack_01(*args)


# --- the four policies on the real run ------------------------------------------------------------------
@pytest.mark.parametrize("limit", [120, 600, 1500])
def test_every_policy_on_every_question_against_the_spec(runs, limit):
    for question, hits in runs.items():
        first, skip, best, cutoff = compare(question, hits, limit, COUNT)
        for outcome in (first, skip, best, cutoff):
            assert outcome.tokens == COUNT(
                render_prompt(question, [(h.key, h.text) for h in hits if h.key in outcome.chosen])
            )
            assert not outcome.over, (question, outcome)
        assert first.top_k and first.chosen == tuple(h.key for h in hits[: len(first.chosen)])
        chosen, _, _ = pack_prompt(question, [(h.key, h.text) for h in hits], limit, COUNT)
        assert skip.chosen == tuple(key for key, _ in chosen)
        assert best.planned == best.tokens, "line counts add up exactly (the seam argument)"
        assert best.relevance >= max(first.relevance, skip.relevance, cutoff.relevance) - 1e-9, "the optimum"
        assert set(first.chosen) <= set(skip.chosen)
        assert set(cutoff.chosen) <= {h.key for h in hits if h.score >= hits[0].score / 2}


def test_the_counter_calls_are_those_each_policy_must_make(runs):
    hits = runs[QUESTIONS[2]]
    first, skip, best, cutoff = compare(QUESTIONS[2], hits, 600, COUNT)
    assert first.calls == 1 + len(first.chosen) + 1, "base, each kept passage, the first that overflows"
    assert skip.calls == 1 + len(hits)
    assert best.calls == 1 + len(hits) + 1, "base, each line once, the final check"
    assert cutoff.calls == 1 + sum(h.score >= hits[0].score / 2 for h in hits)
    assert best.characters < skip.characters / 3, "measuring lines, not whole prompts"


def test_a_knapsack_over_parts_goes_over_the_budget_on_the_chinese_run(runs):
    """The lesson's real case: text and framing measured apart under-count, and the knapsack fills to the last token."""
    hits = runs[CHINESE]
    parts = knapsack(CHINESE, hits, 600, COUNT, costs="text")
    assert parts.over and parts.planned <= 600 < parts.tokens
    assert sum(text_costs(hits, COUNT)) < sum(line_costs(hits, COUNT))
    english = [knapsack(q, runs[q], limit, COUNT, costs="text") for q in QUESTIONS[:-1] for limit in (300, 600, 1200)]
    assert not any(o.over for o in english), "on English text the parts over-count: safe, and wasteful"


def test_the_tally_counts_calls_and_characters_and_forces_the_plain_path():
    tally = Tally(COUNT)
    pack_prompt("q", [("a", "one"), ("b", "two")], 100, tally)
    assert tally.calls == 3 and tally.characters == sum(
        map(
            len,
            [
                render_prompt("q", []),
                render_prompt("q", [("a", "one")]),
                render_prompt("q", [("a", "one"), ("b", "two")]),
            ],
        )
    )


@pytest.mark.parametrize("policy", [first_overflow, skip_and_continue, knapsack, priority_cutoff])
def test_policies_refuse_bad_input_naming_it(runs, policy):
    hits = runs[QUESTIONS[0]]
    with pytest.raises(ValueError, match="^limit"):
        policy(QUESTIONS[0], hits, -5, COUNT)
    with pytest.raises(ValueError, match="^limit"):
        policy(QUESTIONS[0], hits, 3, COUNT)
    with pytest.raises(ValueError, match="^hits"):
        policy(QUESTIONS[0], hits[1:], 600, COUNT)
    with pytest.raises(ValueError, match="^question"):
        policy(None, hits, 600, COUNT)


def test_the_cutoff_compares_exactly_as_the_numbers_are_written():
    """7 is 0.28 of 25, although 0.28 * 25 is 7.000000000000001 in floating point."""
    hits = [Hit("a", "one", 25, 1), Hit("b", "two", 7, 2), Hit("c", "three", 6.99, 3)]
    outcome = priority_cutoff("q", hits, 1000, count_words, share=0.28)
    assert outcome.chosen == ("a", "b")
    assert 7 < 0.28 * 25, "the floating-point comparison it replaces would drop b"


def test_option_errors_name_the_option(runs):
    with pytest.raises(ValueError, match="^share must be"):
        priority_cutoff("q", runs[QUESTIONS[0]], 600, COUNT, share=1.5)
    with pytest.raises(ValueError, match="^costs must be 'line' or 'text'"):
        knapsack("q", runs[QUESTIONS[0]], 600, COUNT, costs="guess")


def test_any_counter_works_not_only_real_tokens(runs):
    outcomes = compare(QUESTIONS[0], runs[QUESTIONS[0]], 300, count_words)
    assert all(o.tokens <= 300 for o in outcomes[:2] + outcomes[3:])


# --- table, figures, explorer -----------------------------------------------------------------------------
def test_the_table_has_one_row_per_policy_and_flags_an_overflow(runs):
    outcomes = compare(CHINESE, runs[CHINESE], 600, COUNT) + [knapsack(CHINESE, runs[CHINESE], 600, COUNT, "text")]
    lines = outcomes_table(outcomes).splitlines()
    assert len(lines) == 6 and lines[0].startswith("policy")
    assert [line.endswith("OVER") for line in lines[1:]] == [False] * 4 + [True]


def test_figures_are_built(runs):
    hits = runs[QUESTIONS[2]]
    assert isinstance(
        plot_choices(compare(QUESTIONS[2], hits, 600, COUNT), hits, line_costs(hits, COUNT)), DescribedFigure
    )
    assert isinstance(plot_sweep([200, 400], lambda b: compare(QUESTIONS[2], hits, b, COUNT)), DescribedFigure)


def test_the_view_shows_every_policy_and_a_bad_budget_as_a_readable_error():
    view = policies_view(CHINESE, 600)
    assert "knapsack (text counts)" in view.text and view.text.rstrip().endswith("OVER")
    assert isinstance(view.figure, DescribedFigure)
    assert policies_view(CHINESE, 3).text.startswith("ValueError: limit")
    assert policies_view(CHINESE, 600, encoding="gpt2").text.startswith("ValueError: encoding")


def test_the_explorer_moves_with_its_controls():
    explorer = explore_policies(CHINESE, 600)
    assert explorer.values() == {"question": CHINESE, "limit": 600}
    assert explorer.last.text.startswith(CHINESE + "\n")
    explorer.controls["limit"].value = 300
    assert explorer.last.text.splitlines()[1] == "40 passages retrieved, budget 300 cl100k_base tokens"
