"""Lesson 08's three questions, as the core answers them: where the evidence goes (ends_first,
pack_ends_first), what repeats (shingles, drop_near_duplicates, MinHash, mmr_order) and what must stay
(pack_parts). Property tests use the Hypothesis profile "workbook" (conftest.py)."""

from __future__ import annotations

from fractions import Fraction

import itertools
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

import packer
from packer import Part, drop_near_duplicates, ends_first, mmr_order, pack_ends_first, pack_parts, pack_prompt
from packer.counters import bpe, count_chars_div4, count_utf8_bytes, count_words
from packer.duplicates import estimated_jaccard, jaccard, minhash, shingles, words
from packer.mmr import cosine
from packer.priority import passage_parts, render_parts
from packer.prompt import render_prompt

COUNTERS = [count_words, count_utf8_bytes, count_chars_div4]
texts = st.text(alphabet=string.ascii_letters + "  é日🙂.", max_size=12)
ids = st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=4)
passage_lists = st.lists(st.tuples(ids, texts), max_size=8, unique_by=lambda p: p[0])
CL100K = bpe("cl100k_base")


# --- where the evidence goes ------------------------------------------------------------------------


def test_ends_first_matches_haystack_and_langchain():
    # Haystack's LostInTheMiddleRanker test expects 1 3 5 7 9 8 6 4 2 for nine documents ranked 1..9;
    # LangChain's LongContextReorder gives 1 3 5 4 2 for five.
    assert ends_first(range(1, 10)) == [1, 3, 5, 7, 9, 8, 6, 4, 2]
    assert ends_first([1, 2, 3, 4, 5]) == [1, 3, 5, 4, 2]
    # For an even number LangChain's order is the mirror image: it reverses the list, then puts the documents
    # alternately at the front and at the back, which for four gives 2 4 3 1 (the best last).
    assert ends_first([1, 2, 3, 4])[::-1] == [2, 4, 3, 1]
    assert ends_first([1, 2, 3, 4]) == [1, 3, 4, 2]
    assert ends_first([]) == [] and ends_first(["a"]) == ["a"] and ends_first(["a", "b"]) == ["a", "b"]


@given(st.lists(st.integers(), max_size=30))
def test_ends_first_is_a_permutation_that_puts_the_best_at_the_ends(ranked):
    laid_out = ends_first(ranked)
    assert sorted(laid_out) == sorted(ranked)
    ranks = ends_first(list(range(len(ranked))))
    assert [ranked[r] for r in ranks] == laid_out  # it moves positions, whatever the items are
    # Reading from both ends inwards meets the ranks in order: the rank at depth d from the nearer end grows.
    depth = [min(i, len(ranks) - 1 - i) for i in range(len(ranks))]
    assert [depth[ranks.index(r)] for r in range(len(ranks))] == sorted(
        depth[ranks.index(r)] for r in range(len(ranks))
    )


def test_ends_first_refuses_what_has_no_order():
    for bad in ("abc", {1, 2}, {"a": 1}, 7, None):
        with pytest.raises(ValueError, match="ranked"):
            ends_first(bad)


@given(st.sampled_from(["why", "", "日本?"]), passage_lists, st.integers(0, 90), st.sampled_from(COUNTERS))
def test_pack_ends_first_keeps_what_pack_prompt_keeps_for_counters_that_add_up(question, passages, extra, count):
    limit = count(render_prompt(question, [])) + extra
    chosen, skipped, prompt = pack_prompt(question, passages, limit, count)
    laid_out, skipped_too, prompt_too = pack_ends_first(question, passages, limit, count)
    assert laid_out == ends_first(chosen) and skipped_too == skipped
    assert prompt_too == render_prompt(question, laid_out) and count(prompt_too) <= limit


@given(passage_lists, st.integers(0, 60))
def test_pack_ends_first_with_a_real_tokenizer_proves_the_count_unchanged(passages, extra):
    limit = CL100K(render_prompt("why", [])) + extra
    chosen, _, prompt = pack_prompt("why", passages, limit, CL100K)
    laid_out, _, prompt_too = pack_ends_first("why", passages, limit, CL100K)
    assert laid_out == ends_first(chosen)
    assert CL100K(prompt_too) == CL100K(prompt) <= limit  # the seam argument: same lines, same sum


def order_sensitive(prompt: str) -> int:
    """A counter for which order matters: words, plus 5 for every line whose id sorts after the next line's."""
    ids = [line[1 : line.index("]")] for line in prompt.split("\n") if line.startswith("[")]
    return len(prompt.split()) + 5 * sum(a > b for a, b in itertools.pairwise(ids))


def test_pack_ends_first_re_measures_and_gives_up_the_lowest_ranked_when_the_new_order_costs_more():
    passages = [("a", "x"), ("b", "x"), ("c", "x"), ("d", "x")]
    limit = order_sensitive(render_prompt("q", passages))  # rank order a b c d: ids ascending, no charge
    assert pack_prompt("q", passages, limit, order_sensitive)[1] == []
    laid_out, skipped, prompt = pack_ends_first("q", passages, limit, order_sensitive)
    assert order_sensitive(prompt) <= limit and prompt == render_prompt("q", laid_out)
    assert [key for key, _ in laid_out] == ["a", "b"] and skipped == ["c", "d"]  # a c d b costs 10 more


@given(passage_lists, st.integers(0, 40))
def test_pack_ends_first_never_exceeds_the_limit_whatever_the_counter(passages, extra):
    limit = order_sensitive(render_prompt("q", [])) + extra
    laid_out, skipped, prompt = pack_ends_first("q", iter(passages), limit, order_sensitive)
    assert order_sensitive(prompt) <= limit
    assert sorted(laid_out) == sorted(p for p in passages if p[0] not in skipped)
    assert skipped == [key for key, _ in passages if key in skipped]  # rank order


def test_pack_ends_first_validates_like_pack_prompt():
    with pytest.raises(ValueError, match="limit"):
        pack_ends_first("why", [("a", "x")], 1, count_words)
    with pytest.raises(ValueError, match="duplicate id"):
        pack_ends_first("why", [("a", "x"), ("a", "y")], 50, count_words)
    with pytest.raises(ValueError, match="passages"):
        pack_ends_first("why", "ab", 50, count_words)


# --- what repeats: shingles, Jaccard, the filter ----------------------------------------------------


def test_shingles_are_runs_of_words():
    assert shingles("The cat sat on the mat.", 3) == {
        ("the", "cat", "sat"),
        ("cat", "sat", "on"),
        ("sat", "on", "the"),
        ("on", "the", "mat"),
    }
    assert shingles("Two words", 3) == {("two", "words")}
    assert shingles("  ...  ", 3) == frozenset()
    assert words("运行notebook单元") == ["运", "行", "notebook", "单", "元"]
    with pytest.raises(ValueError, match="size"):
        shingles("a b", 0)
    with pytest.raises(ValueError, match="text"):
        shingles(b"a b", 2)


def test_jaccard_of_a_one_word_edit():
    a = shingles("the quick brown fox jumps over the lazy dog")
    b = shingles("the quick brown fox jumps over a lazy dog")
    assert jaccard(a, b) == 4 / 10  # 7 shingles each, 4 shared, 10 in the union
    assert jaccard(a, a) == 1.0 and jaccard(frozenset(), frozenset()) == 1.0 and jaccard(a, frozenset()) == 0.0


def test_the_filter_drops_a_mirror_and_a_reformatted_copy_and_keeps_the_rest():
    passages = [
        ("docs-1", "Before an except clause's suite is executed, the exception is stored."),
        ("mirror", "Before an except clause’s suite is executed, the exception is stored."),
        ("shout", "BEFORE AN EXCEPT CLAUSE'S SUITE IS EXECUTED,\nTHE EXCEPTION IS STORED"),
        ("other", "A generator function returns an iterator when it is called."),
    ]
    kept, dropped = drop_near_duplicates(passages, 0.5)
    assert [key for key, _ in kept] == ["docs-1", "other"]
    assert dropped == [("mirror", "docs-1"), ("shout", "docs-1")]


distinct_texts = st.lists(st.text(alphabet="abc ", max_size=10), max_size=8)


@given(distinct_texts, st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]), st.integers(1, 3))
def test_the_filter_keeps_a_set_below_the_threshold_that_nothing_dropped_could_join(texts_, threshold, size):
    passages = [(f"p{i}", text) for i, text in enumerate(texts_)]
    kept, dropped = drop_near_duplicates(passages, threshold, size)
    sets = {key: shingles(text, size) for key, text in passages}
    kept_ids = [key for key, _ in kept]
    assert sorted(kept_ids + [key for key, _ in dropped], key=lambda k: int(k[1:])) == [k for k, _ in passages]
    for a, b in itertools.combinations(kept_ids, 2):
        assert jaccard(sets[a], sets[b]) < threshold  # no two kept passages are near-duplicates
    for key, original in dropped:  # each dropped one repeats an earlier kept one
        assert original in kept_ids and kept_ids.index(original) < [k for k, _ in passages].index(key)
        assert jaccard(sets[key], sets[original]) >= threshold
    if passages:
        assert kept_ids[0] == "p0"  # the best-ranked passage always stays


@given(distinct_texts, st.integers(1, 3))
def test_the_thresholds_at_the_ends(texts_, size):
    passages = [(f"p{i}", text) for i, text in enumerate(texts_)]
    assert len(drop_near_duplicates(passages, 0.0, size)[0]) == min(len(passages), 1)  # everything resembles
    distinct = {shingles(text, size) for _, text in passages}
    assert len(drop_near_duplicates(passages, 1.0, size)[0]) == len(distinct)  # only equal shingle sets go


def test_a_higher_threshold_can_drop_a_passage_a_lower_one_kept():
    # B is near A, C is nearer B than A: at 0.5 B goes (so C is compared with A only and stays); at 0.7 B
    # stays, and then C goes as B's near-duplicate. The filter is greedy, not monotone in its threshold.
    a, b, c = "one two three four five six", "one two three four five seven", "one two three four nine seven"
    passages = [("a", a), ("b", b), ("c", c)]
    assert jaccard(shingles(a), shingles(b)) == 0.6 and jaccard(shingles(b), shingles(c)) == 2 / 6
    kept_low = [k for k, _ in drop_near_duplicates(passages, 0.3)[0]]
    kept_high = [k for k, _ in drop_near_duplicates(passages, 0.7)[0]]
    assert kept_low == ["a"] and kept_high == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (([("a", "x")], 1.5), "threshold"),
        (([("a", "x")], -0.5), "threshold"),
        (([("a", "x")], True), "threshold"),
        (([("a", "x")], "0.5"), "threshold"),
        (([("a", "x")], 0.5, 0), "size"),
        (([("a", 3)], 0.5), "text must be a str"),
        (("ab", 0.5), "passages"),
    ],
)
def test_the_filter_refuses_bad_input(args, culprit):
    with pytest.raises(ValueError, match=culprit):
        drop_near_duplicates(*args)


def test_the_filter_defaults_to_word_3_shingles_and_a_threshold_of_one_half():
    a = ("a", "one two three four five six seven")
    b = ("b", "one two three four five eight")  # 3 of a's 5 shingles, 6 in the union: 0.5, dropped
    c = ("c", "one two three four x six seven")  # 2 of 8 shingles (0.25); as 2-shingles it would be 4 of 8
    assert drop_near_duplicates([a, b, c]) == ([a, c], [("b", "a")])
    assert drop_near_duplicates([a, b, c], 0.5, 2) == ([a], [("b", "a"), ("c", "a")])


def test_minhash_signatures_are_fixed_by_the_seed_alone():
    # The same numbers on every machine and in every run: lesson 08's printed estimates depend on them.
    assert minhash(shingles("the quick brown fox jumps"), 4) == (
        678077438454497178,
        121341604989804171,
        912152883177352594,
        107539549721644862,
    )
    assert minhash(frozenset(), 2) == (2**61 - 1, 2**61 - 1)
    assert len(minhash(shingles("a b c d"))) == 128


def test_minhash_estimates_jaccard_and_is_deterministic():
    a = shingles("the quick brown fox jumps over the lazy dog " * 3 + "and then it sleeps in the sun all day")
    b = shingles("the quick brown fox jumps over the lazy dog " * 3 + "and then it runs into the woods at night")
    exact = jaccard(a, b)
    estimate = estimated_jaccard(minhash(a, 512), minhash(b, 512))
    assert minhash(a, 64) == minhash(a, 64) and minhash(a, 64, seed=1) != minhash(a, 64)
    assert abs(estimate - exact) < 0.1, (estimate, exact)
    assert estimated_jaccard(minhash(a), minhash(a)) == 1.0
    assert estimated_jaccard(minhash(frozenset()), minhash(frozenset())) == 1.0
    with pytest.raises(ValueError, match="same non-zero length"):
        estimated_jaccard(minhash(a, 8), minhash(a, 16))


# --- what repeats, by relevance: MMR -------------------------------------------------------------------


def test_mmr_trades_relevance_for_novelty():
    relevance = [1.0, 0.95, 0.5]
    similarity = [[1, 0.9, 0.1], [0.9, 1, 0.1], [0.1, 0.1, 1]]
    assert mmr_order(relevance, similarity, 1.0) == [0, 1, 2]  # λ = 1: the ranking
    assert mmr_order(relevance, similarity, 0.5) == [0, 2, 1]  # 0.5·0.5 − 0.5·0.1 = 0.2 beats 0.5·0.95 − 0.5·0.9
    assert mmr_order(relevance, similarity, 0.0) == [0, 2, 1]  # λ = 0: after a tie on the first pick, novelty only


def exact(number):
    return Fraction(str(number))


def test_mmr_compares_scores_exactly_so_a_decimal_tie_goes_to_the_lower_index():
    """After passage 1, passages 0 and 2 both score -0.1 exactly (0.05 - 0.15 and 0.25 - 0.35); in floats the
    two come out as different numbers, which would put 2 first."""
    relevance, similarity = [0.1, 0.9, 0.5], [[0.5, 0.3, -0.3], [0.3, 0.9, 0.7], [-0.3, 0.7, 0.5]]
    assert 0.5 * 0.1 - 0.5 * 0.3 < 0.5 * 0.5 - 0.5 * 0.7  # what floats say
    assert mmr_order(relevance, similarity, 0.5) == [1, 0, 2]
    assert mmr_order([0.5, 0.7, 0.1], [[0.5, 0.1, 0.5], [0.1, 0.9, -0.3], [0.5, -0.3, 0.3]], 0.5) == [1, 0, 2]


square = st.integers(0, 7).flatmap(
    lambda n: st.tuples(
        st.lists(st.floats(0, 10), min_size=n, max_size=n),
        st.lists(st.lists(st.floats(-1, 1), min_size=n, max_size=n), min_size=n, max_size=n),
    )
)


@given(square, st.sampled_from([0.0, 0.3, 0.5, 0.7, 1.0]))
def test_mmr_is_a_permutation_chosen_step_by_step_by_its_formula(case, lam):
    relevance, similarity = case
    order = mmr_order(relevance, similarity, lam)
    assert sorted(order) == list(range(len(relevance)))
    for step, chosen in enumerate(order):  # the brute-force definition, at every step
        taken, rest = order[:step], order[step:]

        def score(i, taken=taken):  # exact, each number as the decimal it is written as
            penalty = max((exact(similarity[i][j]) for j in taken), default=0)
            return exact(lam) * exact(relevance[i]) - (1 - exact(lam)) * penalty

        assert score(chosen) == max(score(i) for i in rest)
        assert chosen == min(i for i in rest if score(i) == score(chosen))  # ties: the lower index


@given(st.lists(st.floats(0, 10), max_size=9))
def test_mmr_with_lambda_one_is_the_ranking(relevance):
    zeros = [[0.0] * len(relevance) for _ in relevance]
    assert mmr_order(relevance, zeros, 1.0) == sorted(range(len(relevance)), key=lambda i: (-relevance[i], i))


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (([1, 2], [[0, 0]], 0.5), "one row per passage"),
        (([1, 2], [[0, 0], [0]], 0.5), r"similarity\[1\] must have 2"),
        (([1, True], [[0, 0], [0, 0]], 0.5), r"relevance\[1\]"),
        (([1, float("nan")], [[0, 0], [0, 0]], 0.5), r"relevance\[1\]"),
        (([1, 2], [[0, 0], [0, "x"]], 0.5), r"similarity\[1\]\[1\]"),
        (([1], [[0]], 1.5), "lam"),
        (([1], [[0]], -0.5), "lam"),
        (([1], [[0]], None), "lam"),
        (("ab", [[0], [0]], 0.5), "relevance"),
    ],
)
def test_mmr_refuses_bad_input(args, culprit):
    with pytest.raises(ValueError, match=culprit):
        mmr_order(*args)


def test_cosine_of_sparse_vectors():
    assert cosine({"a": 1.0, "b": 1.0}, {"a": 1.0}) == pytest.approx(2**-0.5)
    assert cosine({"a": 2.0}, {"a": 5.0}) == pytest.approx(1.0)
    assert cosine({"a": 1.0}, {"b": 1.0}) == 0.0 and cosine({}, {"a": 1.0}) == 0.0


# --- what must stay: the priority packer ----------------------------------------------------------


def chat_parts(reserve: int = 4) -> list[Part]:
    return [
        Part("rules", "Answer from the sources only.\n", 0, True),
        Part("example", "Q: Is it full? A: Yes, [p1] says so.\n", 1),
        Part("history", "Earlier: the user asked about the depth.\n", 2),
        Part("p1", "[p1] Full blocks all writes\n", 9),
        Part("p2", "[p2] Depth: 8\n", 8),
        Part("question", "Question: Is the FIFO full?\nAnswer:", 0, True, reserve),
    ]


def test_pack_parts_cuts_the_lowest_priority_first_and_keeps_the_answer_reserve():
    parts = chat_parts()
    required = count_words(render_parts(parts, {"rules", "question"})) + 4
    assert pack_parts(parts, required, count_words)[:2] == (["rules", "question"], ["example", "history", "p1", "p2"])
    everything = count_words("".join(p.text for p in parts)) + 4
    kept, cut, prompt = pack_parts(parts, everything, count_words)
    assert cut == [] and prompt == "".join(p.text for p in parts)
    kept, cut, prompt = pack_parts(parts, everything - 1, count_words)
    assert cut == ["example"] and count_words(prompt) + 4 <= everything - 1  # the lowest priority goes first
    assert required == 15  # 5 words of rules, 6 of question and cue, 4 reserved for the answer
    with pytest.raises(ValueError, match=r"limit: the required parts \(question, rules\) need 15 with their reserves"):
        pack_parts(parts, 14, count_words)


def test_parts_of_one_priority_go_together_and_a_failed_level_ends_the_scan():
    parts = [Part("a", "one two ", 5), Part("b", "three ", 5), Part("c", "x ", 1), Part("d", "four five six ", 3)]
    assert pack_parts(parts, 3, count_words)[0] == ["a", "b"]
    assert pack_parts(parts, 2, count_words)[0] == []  # a alone would fit, but a and b share a priority
    # d (priority 3) does not fit in 4; c (priority 1) would, but is never tried: lower than a cut level.
    assert pack_parts(parts, 4, count_words)[0] == ["a", "b"]


cutoff_parts = st.lists(
    st.tuples(st.text(alphabet="ab ", max_size=6), st.integers(0, 4), st.booleans(), st.integers(0, 3)), max_size=7
).map(lambda rows: [Part(f"n{i}", text, prio, req, res) for i, (text, prio, req, res) in enumerate(rows)])


def fits(parts, kept, limit, count):
    return count(render_parts(parts, kept)) + sum(p.reserve for p in parts if p.name in kept) <= limit


@given(cutoff_parts, st.integers(0, 30), st.sampled_from(COUNTERS))
def test_the_result_is_the_largest_cutoff_that_fits(parts, limit, count):
    required = {p.name for p in parts if p.required}
    if not fits(parts, required, limit, count):
        with pytest.raises(ValueError, match="limit"):
            pack_parts(parts, limit, count)
        return
    kept, cut, prompt = pack_parts(parts, limit, count)
    # Every set "required + everything at or above a cutoff", by brute force: these counters only grow as
    # parts are added, so the packer's answer is the largest of those that fit.
    cutoffs = [float("inf")] + sorted({p.priority for p in parts}, reverse=True)
    candidates = [required | {p.name for p in parts if p.priority >= c} for c in cutoffs]
    best = max((c for c in candidates if fits(parts, c, limit, count)), key=len)
    assert set(kept) == best
    assert sorted(kept + cut, key=lambda n: int(n[1:])) == [p.name for p in parts]
    assert prompt == render_parts(parts, set(kept)) and fits(parts, set(kept), limit, count)


@given(cutoff_parts, st.integers(0, 30), st.integers(0, 30), st.sampled_from([*COUNTERS, order_sensitive]))
def test_raising_the_budget_never_removes_a_part(parts, limit, more, count):
    try:
        smaller = pack_parts(parts, limit, count)[0]
    except ValueError:
        return
    assert set(smaller) <= set(pack_parts(parts, limit + more, count)[0])


@given(passage_lists, st.integers(0, 40), st.integers(0, 5), st.sampled_from(COUNTERS))
def test_passages_as_parts_keep_the_top_k_that_fits_with_the_reserve(passages, extra, reserve, count):
    limit = count(render_prompt("why", [])) + reserve + extra
    kept, cut, prompt = pack_parts(passage_parts("why", passages, reserve), limit, count)
    top = [p[0] for p in passages[: len(kept) - 3]]
    assert kept == ["question", "sources", *top, "answer"]
    assert prompt == render_prompt("why", passages[: len(top)]) and count(prompt) + reserve <= limit
    if len(top) < len(passages):  # stopping at the first overflow: the next passage in rank order does not fit
        assert count(render_prompt("why", passages[: len(top) + 1])) + reserve > limit


@pytest.mark.parametrize(
    ("parts", "culprit"),
    [
        ("ab", "parts"),
        ([("a",)], "part 0: expected a Part"),
        ([("a", "x", 1, False, 0, 9)], "part 0: expected a Part"),
        ([("", "x")], "part 0: name must be"),
        ([("a", "x"), ("a", "y")], r"part 1 \('a'\): duplicate name"),
        ([("a", 3)], "text must be a str"),
        ([("a", "x", 1.0)], "priority must be an int"),
        ([("a", "x", True)], "priority must be an int"),
        ([("a", "x", 1, 1)], "required must be True or False"),
        ([("a", "x", 1, False, -1)], "reserve must be a non-negative int"),
    ],
)
def test_pack_parts_refuses_bad_parts_naming_the_part(parts, culprit):
    with pytest.raises(ValueError, match=culprit):
        pack_parts(parts, 50, count_words)


def test_a_part_is_optional_at_priority_0_with_no_reserve_unless_told():
    assert Part("a", "x") == ("a", "x", 0, False, 0)
    assert passage_parts("why", [])[-1] == Part("answer", "Answer:", 0, True, 0)  # no answer reserve by default


def test_pack_parts_refuses_a_bad_limit_or_counter():
    with pytest.raises(ValueError, match="limit"):
        pack_parts([("a", "x")], -1, count_words)
    with pytest.raises(ValueError, match="count must be callable"):
        pack_parts([("a", "x")], 5, None)
    with pytest.raises(ValueError, match="count must return a non-negative int"):
        pack_parts([("a", "x")], 5, lambda text: 2.5)


def test_the_new_functions_are_exported():
    for name in ("ends_first", "pack_ends_first", "drop_near_duplicates", "mmr_order", "pack_parts", "Part"):
        assert name in packer.__all__ and hasattr(packer, name)
