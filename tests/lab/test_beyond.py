"""Lesson 08's lab: BM25 vectors, the injected near-duplicates and their measurements, the priority demo, the
figures and the explorer, without a browser."""

from __future__ import annotations

import random

import pytest
from packer.lab.figures import DescribedFigure

from packer import pack_parts, render_prompt
from packer.counters import bpe, count_words
from packer.duplicates import jaccard, shingles
from packer.lab import parts as parts_lab
from packer.lab import repeats
from packer.lab.beyond_plots import (
    plot_layout,
    plot_parts_sweep,
    plot_per_token,
    plot_strategy_choices,
    plot_threshold_sweep,
)
from packer.lab.retrieval import QUESTIONS, Hit, bm25_scores, bm25_vectors, collection, rank, words
from packer.lab.widgets import beyond_view, explore_beyond
from packer.ordering import ends_first
from packer.priority import Part

pytest.importorskip(
    "bpe_openai", reason="bpe-openai (the real tokenizer's vocabulary) is not installed: run `make venv`"
)

COUNT = bpe("cl100k_base")


# --- BM25 vectors -------------------------------------------------------------------------------------------
def test_bm25_vectors_sum_to_the_score_over_the_query_terms():
    documents = ["the cat sat", "the dog sat", "the the the", "cat cat cat dog", "dog"]
    vectors = bm25_vectors(documents)
    for query in ("cat", "the cat", "dog sat cat", "bird"):
        scores = bm25_scores(query, documents)
        terms = set(words(query))
        assert [sum(v.get(t, 0.0) for t in terms) for v in vectors] == pytest.approx(scores, abs=1e-12)
    assert set(vectors[3]) == {"cat", "dog"}  # only the terms the document holds


def test_bm25_vectors_match_the_scores_on_the_real_collection():
    texts = [text for _, text in collection()]
    vectors = bm25_vectors(texts)
    for question in QUESTIONS:
        terms = set(words(question))
        scores = bm25_scores(question, texts)
        assert [sum(v.get(t, 0.0) for t in terms) for v in vectors] == pytest.approx(scores, abs=1e-9)


def test_bm25_vectors_refuse_an_empty_collection():
    with pytest.raises(ValueError, match="^documents"):
        bm25_vectors([])
    with pytest.raises(ValueError, match="^documents"):
        bm25_vectors("not a list")


# --- the copies -------------------------------------------------------------------------------------------
def test_the_copy_makers_do_what_they_say():
    rng = random.Random(0)
    text = 'Before an "except" clause\'s suite is executed,\n  the exception is stored.'
    assert repeats.mirror(text) == text
    loud = repeats.reformat(text)
    assert loud == loud.upper() and "\n" not in loud and "“EXCEPT”" in loud and "’S" in loud
    assert shingles(loud) == shingles(text)  # same words: Jaccard 1
    quoted = repeats.quote(text, rng)
    assert " ".join(text.split()) in quoted and len(quoted) > len(text)
    assert "“重启服务”" in repeats.quote("重启服务", rng)
    edited = repeats.edit(text, rng)
    assert edited != text and len(words(edited)) == len(words(text))
    assert sum(a != b for a, b in zip(words(edited), words(text))) == 1  # 12 words: one replaced


def test_the_injection_is_deterministic_and_one_copy_of_each_kind_per_question():
    copies = repeats.injected()
    assert copies == repeats.injected.__wrapped__(repeats.SEED)  # the same copies when made again
    assert repeats.injected.__wrapped__(repeats.SEED + 1) != copies  # and the seed is what fixes them
    assert len(copies) == len(repeats.KINDS) * len(QUESTIONS)
    assert len({c.source for c in copies}) == len(copies), "no source is copied twice"
    texts = dict(collection())
    for c in copies:
        assert c.key == f"{c.kind}-{c.question + 1}" and c.key not in texts
        assert c.source in repeats.relevant(QUESTIONS[c.question])
        if c.kind in ("mirror", "reformatted"):
            assert shingles(c.text) == shingles(texts[c.source])
    assert repeats.augmented()[: len(texts)] == collection()


def test_relevant_is_the_original_top_ten_and_origin_maps_a_copy_to_its_source():
    question = QUESTIONS[0]
    assert repeats.relevant(question) == {h.key for h in rank(question)[:10]}
    copy = repeats.injected()[0]
    assert repeats.origin(copy.key) == copy.source and repeats.origin("english-prose-000") == "english-prose-000"


def test_the_candidates_are_the_augmented_collection_ranked_by_bm25():
    for question in QUESTIONS:
        hits = repeats.candidates(question)
        assert [h.rank for h in hits] == list(range(1, 41))
        keys = [h.key for h in hits]
        for c in repeats.injected():
            if c.kind == "mirror" and c.key in keys and c.source in keys:
                assert keys.index(c.key) == keys.index(c.source) + 1  # a tie: the original first


# --- the metrics on a hand-made case ----------------------------------------------------------------------
def hand_made(monkeypatch) -> list[Hit]:
    """Three passages and two copies of the first: one mirror, one too heavily edited to be caught at 0.5."""
    a = "one two three four five six seven eight"
    b = "alpha beta gamma delta epsilon zeta"
    c = "red green blue cyan magenta yellow"
    copies = (
        repeats.Copy("mirror-1", a, "a", "mirror", 0),
        repeats.Copy("edited-1", "one two three nine five six ten eight", "a", "edited", 0),
    )
    passages = [("a", a), ("mirror-1", a), ("b", b), ("edited-1", copies[1].text), ("c", c)]
    hits = [Hit(key, text, 10.0 - i, i + 1) for i, (key, text) in enumerate(passages)]
    monkeypatch.setattr(repeats, "injected", lambda seed=repeats.SEED: copies)
    monkeypatch.setattr(repeats, "candidates", lambda question, seed=repeats.SEED: tuple(hits))
    monkeypatch.setattr(repeats, "relevant", lambda question: frozenset({"a", "b"}))
    monkeypatch.setattr(repeats, "vectors", lambda hits, seed=repeats.SEED: bm25_vectors([h.text for h in hits]))
    return hits


def test_the_filter_score_on_a_hand_made_case(monkeypatch):
    hits = hand_made(monkeypatch)
    assert jaccard(shingles(hits[0].text), shingles(hits[3].text)) == pytest.approx(1 / 11)
    score = repeats.score_filter(hits, 0.5)
    assert score.caught == ("mirror-1",) and score.missed == ("edited-1",) and score.false_removals == ()
    low = repeats.score_filter(hits, 0.05)
    assert low.caught == ("mirror-1", "edited-1")
    assert low.false_removals == ()  # b and c share no shingle with a: even at 0.05 nothing else goes


def test_the_choices_count_repeats_once_and_per_thousand_tokens(monkeypatch):
    hand_made(monkeypatch)
    plain = repeats.greedy("q", 1000, count_words)
    assert plain.chosen == ("a", "mirror-1", "b", "edited-1", "c")
    assert plain.copies == ("mirror-1", "edited-1") and plain.distinct_relevant == 2
    assert plain.repeat_tokens == count_words("[mirror-1] one\n") + 7 + count_words("[edited-1] x\n") + 7
    texts = {h.key: h.text for h in repeats.candidates("q")}
    assert plain.tokens == count_words(render_prompt("q", [(key, texts[key]) for key in plain.chosen]))
    assert plain.per_thousand == pytest.approx(1000 * 2 / plain.tokens)
    deduped = repeats.dedup_greedy("q", 1000, count_words, 0.5)
    assert deduped.chosen == ("a", "b", "edited-1", "c") and deduped.copies == ("edited-1",)
    diverse = repeats.mmr_greedy("q", 1000, count_words, 0.5)
    assert diverse.chosen[0] == "a" and diverse.chosen[-1] == "mirror-1"  # similarity 1 to a: placed last
    assert sorted(diverse.chosen) == sorted(plain.chosen)


def test_the_real_run_finds_the_copies_and_fewer_repeats_reach_the_prompt():
    caught, present, false = repeats.filter_totals(0.5)
    assert present >= len(repeats.KINDS) * len(QUESTIONS) and caught >= present - 2 and false <= 6
    for question in QUESTIONS:
        plain, deduped, diverse = repeats.compare(question, 600, COUNT)
        for choice in (plain, deduped, diverse):
            assert choice.tokens <= 600
        assert deduped.repeat_tokens <= plain.repeat_tokens and deduped.distinct_relevant >= plain.distinct_relevant


def test_resemblance_and_containment():
    assert repeats.resemblance("a b c d", "a b c d") == 1.0
    assert repeats.containment("a b c", "x a b c y") == 1.0 and repeats.resemblance("a b c", "x a b c y") == 1 / 3


# --- the priority demo ----------------------------------------------------------------------------------------
def test_chat_parts_pack_as_the_largest_cutoff_that_fits_and_grow_with_the_budget():
    hits = rank(QUESTIONS[0])[:8]
    parts = parts_lab.chat_parts(QUESTIONS[0], hits, 100)
    names = [p.name for p in parts]
    assert names[:4] == ["rules", "example", "history", "sources"] and names[-1] == "question"
    for limit in (300, 500, 700, 900, 1200):
        kept = tuple(pack_parts(parts, limit, COUNT)[0])
        assert kept == parts_lab.largest_fitting(parts, limit, COUNT)
    budgets = list(range(100, 1601, 50))
    swept = parts_lab.sweep(parts, budgets, COUNT)
    assert swept[0] is None  # 100 tokens do not hold the required parts and the reserve
    grown = [set(k) for k in swept if k is not None]
    assert all(a <= b for a, b in zip(grown, grown[1:]))
    assert grown[-1] == set(names)


def test_cutoffs_list_every_level_from_the_required_parts_down():
    parts = [Part("r", "one ", required=True), Part("a", "two ", 2), Part("b", "three four ", 1)]
    table = parts_lab.cutoffs(parts, 3, count_words)
    assert [(c.priority, c.kept, c.tokens, c.fits) for c in table] == [
        (None, ("r",), 1, True),
        (2, ("r", "a"), 2, True),
        (1, ("r", "a", "b"), 4, False),
    ]
    assert parts_lab.largest_fitting(parts, 3, count_words) == ("r", "a")


@pytest.mark.parametrize("limit", [120, 600, 1500])
def test_passage_parts_are_lesson_06s_stop_at_first_overflow(limit):
    for question in QUESTIONS:
        assert parts_lab.same_as_first_overflow(question, rank(question), limit, COUNT)


# --- figures and explorer -------------------------------------------------------------------------------------
def test_figures_are_built():
    assert isinstance(plot_layout(list(range(1, 8)), ends_first(list(range(1, 8)))), DescribedFigure)
    assert isinstance(plot_threshold_sweep([0.3, 0.5], [repeats.filter_totals(t) for t in (0.3, 0.5)]), DescribedFigure)
    table = [repeats.compare(q, 600, COUNT) for q in QUESTIONS[:2]]
    assert isinstance(plot_per_token(QUESTIONS[:2], table), DescribedFigure)
    hits = repeats.candidates(QUESTIONS[0])
    assert isinstance(
        plot_strategy_choices(table[0], hits, set(repeats.relevant(QUESTIONS[0])), set()), DescribedFigure
    )
    parts = parts_lab.chat_parts(QUESTIONS[0], rank(QUESTIONS[0])[:5])
    budgets = [200, 400, 800]
    assert isinstance(
        plot_parts_sweep([p.name for p in parts], budgets, parts_lab.sweep(parts, budgets, COUNT)), DescribedFigure
    )


def test_the_view_shows_the_three_strategies_and_the_filter():
    view = beyond_view(QUESTIONS[4], 600, 0.5, 0.7)
    lines = view.text.splitlines()
    assert lines[0] == QUESTIONS[4] and lines[1].startswith("40 passages retrieved (")
    assert [line.split()[0] for line in lines[3:6]] == ["greedy", "dedup", "MMR"]
    assert lines[6].startswith("filter at 0.5: caught ")
    assert lines[-1].startswith("dedup + greedy, ends first: ")
    assert isinstance(view.figure, DescribedFigure)
    assert beyond_view(QUESTIONS[4], 3).text.startswith("ValueError: limit")
    assert beyond_view(QUESTIONS[4], 600, threshold=2.0).text.startswith("ValueError: threshold")


def test_the_explorer_moves_with_its_controls():
    explorer = explore_beyond(QUESTIONS[4], 600)
    assert explorer.values() == {"question": QUESTIONS[4], "limit": 600, "threshold": 0.5, "lam": 0.7}
    assert explorer.last.text == beyond_view(QUESTIONS[4], 600, 0.5, 0.7).text
    explorer.controls["limit"].value = 601
    assert explorer.last.text == beyond_view(QUESTIONS[4], 601, 0.5, 0.7).text
    explorer.controls["lam"].value = 0.3
    assert "MMR (λ=0.3) + greedy" in explorer.last.text


def test_the_collection_s_index_made_once_ranks_as_scoring_every_text_afresh_would():
    """rank() over the whole collection uses one BM25 index for every question: the same hits, scores and order as
    bm25_scores over the texts themselves."""
    from packer.lab.retrieval import bm25_index, indexed_bm25_scores

    passages = collection()
    texts = [text for _, text in passages]
    index = bm25_index(texts)
    for question in QUESTIONS[:3]:
        assert indexed_bm25_scores(question, index) == bm25_scores(question, texts)
        afresh = bm25_scores(question, texts)
        order = sorted(range(len(texts)), key=lambda i: (-afresh[i], i))[:5]
        assert [(h.key, h.score) for h in rank(question, k=5)] == [(passages[i][0], round(afresh[i], 2)) for i in order]
    with pytest.raises(ValueError, match="documents"):
        bm25_index([])


@pytest.mark.parametrize(
    "source",
    [
        "def f():\n    return 1\n\n\nclass A:\n    x = 'é'\n",
        "def f():\r\n    return 'ü'\r\n\r\nclass B: pass",
        "def g():\r    return '\\f'\r\n@d\ndef h(): return '→'\n",
    ],
)
def test_a_source_s_segments_cut_from_its_lines_split_once_are_ast_s_own(source):
    import ast

    from packer.lab.corpus import source_lines, source_segment

    lines = source_lines(source)
    for node in ast.parse(source).body:
        assert source_segment(lines, node) == ast.get_source_segment(source, node)
