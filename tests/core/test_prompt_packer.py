"""pack_prompt / render_prompt: whole passages chosen by re-measuring the complete rendered prompt."""

from __future__ import annotations

import pytest

import packer
from packer import count_chars_div4, count_words, pack_prompt, render_prompt

FIXTURE = [("a", "one two"), ("b", "one two three four five"), ("c", "six")]


# --- render_prompt -----------------------------------------------------------------------------


def test_render_prompt_lays_out_question_labelled_sources_and_answer_cue():
    rendered = render_prompt("why?", [("a", "first passage"), ("doc-7", "second")])
    assert rendered == "Question: why?\nSources:\n[a] first passage\n[doc-7] second\nAnswer:"


def test_render_prompt_with_no_passages_keeps_the_heading_and_cue():
    assert render_prompt("why", []) == "Question: why\nSources:\nAnswer:"


def test_render_prompt_keeps_passage_order():
    assert render_prompt("q", [("z", "last"), ("a", "first")]) == "Question: q\nSources:\n[z] last\n[a] first\nAnswer:"


def test_render_prompt_accepts_lists_as_pairs_and_tuples_of_passages():
    assert render_prompt("q", ((["a", "x"]),)) == "Question: q\nSources:\n[a] x\nAnswer:"


def test_render_prompt_keeps_non_ascii_text_unchanged():
    assert render_prompt("¿qué?", [("j", "日本 🙂")]) == "Question: ¿qué?\nSources:\n[j] 日本 🙂\nAnswer:"


# --- the word-counting fixture ----------------------------------------------------------------


def test_fixture_chooses_a_and_c_and_skips_b():
    chosen, skipped, _ = pack_prompt("why", FIXTURE, 9, count_words)
    assert chosen == [("a", "one two"), ("c", "six")]
    assert skipped == ["b"]


def test_fixture_prompt_measures_exactly_the_limit():
    _, _, prompt = pack_prompt("why", FIXTURE, 9, count_words)
    assert count_words(prompt) == 9


def test_returned_prompt_is_the_rendering_of_the_chosen_passages():
    chosen, _, prompt = pack_prompt("why", FIXTURE, 9, count_words)
    assert prompt == render_prompt("why", chosen)


def test_base_prompt_measures_four_words():
    assert count_words(render_prompt("why", [])) == 4


def test_limit_equal_to_the_base_prompt_returns_the_base_prompt():
    assert pack_prompt("why", [], 4, count_words) == ([], [], "Question: why\nSources:\nAnswer:")


def test_limit_equal_to_the_base_prompt_skips_every_passage():
    assert pack_prompt("why", FIXTURE, 4, count_words) == ([], ["a", "b", "c"], "Question: why\nSources:\nAnswer:")


def test_base_prompt_over_the_limit_is_rejected_mentioning_the_limit():
    with pytest.raises(ValueError, match="limit"):
        pack_prompt("why", [], 3, count_words)


def test_base_prompt_over_the_limit_is_rejected_even_with_passages():
    with pytest.raises(ValueError, match="limit"):
        pack_prompt("why", FIXTURE, 3, count_words)


def test_one_unit_below_an_exact_fit_skips_the_last_passage():
    chosen, skipped, prompt = pack_prompt("why", FIXTURE, 8, count_words)
    assert (chosen, skipped) == ([("a", "one two")], ["b", "c"])
    assert count_words(prompt) == 7


def test_large_limit_keeps_every_passage_in_order():
    chosen, skipped, _ = pack_prompt("why", FIXTURE, 1000, count_words)
    assert chosen == FIXTURE
    assert skipped == []


def test_tuple_and_generator_of_passages_are_accepted():
    expected = ([("a", "one two"), ("c", "six")], ["b"])
    assert pack_prompt("why", tuple(FIXTURE), 9, count_words)[:2] == expected
    assert pack_prompt("why", iter(FIXTURE), 9, count_words)[:2] == expected


def test_chosen_passages_are_returned_as_id_text_tuples():
    chosen, _, _ = pack_prompt("why", [["a", "one two"]], 9, count_words)
    assert chosen == [("a", "one two")]


# --- measuring the whole prompt ---------------------------------------------------------------


def test_labels_are_measured_so_text_only_counts_would_wrongly_accept():
    passages = [("a", "one two"), ("b", "three four")]
    base = count_words(render_prompt("why", []))
    # Adding up the texts alone (4 + 2 + 2 = 8) would keep both under a limit of 8 ...
    assert base + sum(count_words(text) for _, text in passages) == 8
    chosen, skipped, prompt = pack_prompt("why", passages, 8, count_words)
    # ... but each labelled line costs one more word, so the real two-passage prompt measures 10.
    assert count_words(render_prompt("why", passages)) == 10
    assert (chosen, skipped) == ([("a", "one two")], ["b"])
    assert count_words(prompt) <= 8


def test_non_additive_counter_is_respected_so_summed_estimates_would_wrongly_reject():
    passages = [("a", "x"), ("b", "x")]
    base = count_chars_div4(render_prompt("q", []))
    lines = [f"[{key}] {text}\n" for key, text in passages]
    # Rounding each part up separately gives 7 + 2 + 2 = 11, over a limit of 10 ...
    assert base + sum(count_chars_div4(line) for line in lines) == 11
    # ... yet the complete prompt (40 characters) measures 10 and fits.
    assert count_chars_div4(render_prompt("q", passages)) == 10
    chosen, skipped, prompt = pack_prompt("q", passages, 10, count_chars_div4)
    assert (chosen, skipped) == (passages, [])
    assert count_chars_div4(prompt) == 10


@pytest.mark.parametrize("limit", range(7, 14))
def test_each_choice_agrees_with_measuring_the_full_candidate_prompt(limit):
    passages = [("a", "x"), ("b", "xyzzy"), ("c", "x"), ("d", "xx")]
    chosen, skipped, _ = pack_prompt("q", passages, limit, count_chars_div4)
    so_far = []
    for passage in passages:
        fits = count_chars_div4(render_prompt("q", so_far + [passage])) <= limit
        assert (passage in chosen) == fits
        assert (passage[0] in skipped) == (not fits)
        if fits:
            so_far.append(passage)
    assert chosen == so_far


def test_counter_only_ever_sees_complete_rendered_prompts():
    calls = []

    def spy(text):
        calls.append(text)
        return count_words(text)

    pack_prompt("why", FIXTURE, 9, spy)
    assert calls, "the counter was never called"
    assert calls[0] == render_prompt("why", [])
    for text in calls:
        assert text.startswith("Question: ")
        assert text.endswith("Answer:")
    assert render_prompt("why", [FIXTURE[0], FIXTURE[2]]) in calls


def test_counter_sees_every_candidate_including_rejected_ones():
    calls = []

    def spy(text):
        calls.append(text)
        return count_words(text)

    pack_prompt("why", FIXTURE, 9, spy)
    assert render_prompt("why", [FIXTURE[0], FIXTURE[1]]) in calls


def test_packer_works_with_each_published_counter():
    for name, counter in packer.COUNTERS.items():
        limit = counter(render_prompt("why", FIXTURE))
        chosen, skipped, prompt = pack_prompt("why", FIXTURE, limit, counter)
        assert (chosen, skipped) == (FIXTURE, []), name
        assert counter(prompt) == limit, name


# --- invalid input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "limit", [-1, True, False, 9.0, "9", None], ids=["negative", "true", "false", "float", "str", "none"]
)
def test_invalid_limit_is_rejected(limit):
    with pytest.raises(ValueError, match="limit"):
        pack_prompt("why", FIXTURE, limit, count_words)


@pytest.mark.parametrize("question", [None, 42, b"why", ["why"]], ids=["none", "int", "bytes", "list"])
def test_non_str_question_is_rejected(question):
    with pytest.raises(ValueError, match="question"):
        pack_prompt(question, FIXTURE, 9, count_words)


@pytest.mark.parametrize(
    "passages",
    ["a", b"ab", {"a": "one two"}, None, 3],
    ids=["str", "bytes", "dict", "none", "int"],
)
def test_passages_that_are_not_a_list_are_rejected(passages):
    with pytest.raises(ValueError, match="passages"):
        pack_prompt("why", passages, 9, count_words)


BAD_PASSAGES = [
    pytest.param([("a",)], r"passage 0\b", id="one-element"),
    pytest.param([("a", "x", "y")], r"passage 0\b", id="three-elements"),
    pytest.param(["ab"], r"passage 0\b", id="str-passage"),
    pytest.param([None], r"passage 0\b", id="none-passage"),
    pytest.param([{"a": "x"}], r"passage 0\b", id="dict-passage"),
    pytest.param([("", "x")], r"passage 0\b.*id", id="empty-id"),
    pytest.param([(1, "x")], r"passage 0\b.*id", id="int-id"),
    pytest.param([(None, "x")], r"passage 0\b.*id", id="none-id"),
    pytest.param([("a", "x"), ("a", "y")], r"passage 1\b.*duplicate", id="duplicate-id"),
    pytest.param([("a[1", "x")], r"passage 0\b.*id", id="id-with-open-bracket"),
    pytest.param([("a]", "x")], r"passage 0\b.*id", id="id-with-close-bracket"),
    pytest.param([("a\nb", "x")], r"passage 0\b.*id", id="id-with-newline"),
    pytest.param([("a\rb", "x")], r"passage 0\b.*id", id="id-with-carriage-return"),
    pytest.param([("a", None)], r"passage 0\b.*text", id="text-none"),
    pytest.param([("a", 5)], r"passage 0\b.*text", id="text-int"),
    pytest.param([("a", b"x")], r"passage 0\b.*text", id="text-bytes"),
]


@pytest.mark.parametrize("passages, message", BAD_PASSAGES)
def test_invalid_passage_is_rejected_by_pack_prompt(passages, message):
    with pytest.raises(ValueError, match=message):
        pack_prompt("why", passages, 100, count_words)


@pytest.mark.parametrize("passages, message", BAD_PASSAGES)
def test_invalid_passage_is_rejected_by_render_prompt(passages, message):
    with pytest.raises(ValueError, match=message):
        render_prompt("why", passages)


def test_render_prompt_rejects_a_non_str_question():
    with pytest.raises(ValueError, match="question"):
        render_prompt(None, [])


def test_invalid_passage_after_the_budget_is_spent_is_still_rejected():
    passages = FIXTURE + [("a", "repeat of an earlier id")]
    with pytest.raises(ValueError, match=r"passage 3\b.*duplicate"):
        pack_prompt("why", passages, 4, count_words)


def test_invalid_passage_is_rejected_before_the_counter_is_called():
    calls = []

    def spy(text):
        calls.append(text)
        return 0

    with pytest.raises(ValueError):
        pack_prompt("why", [("a", "x"), ("b", 7)], 100, spy)
    assert calls == []


@pytest.mark.parametrize("count", [None, 9, "count_words"], ids=["none", "int", "str"])
def test_non_callable_counter_is_rejected(count):
    with pytest.raises(ValueError, match="count"):
        pack_prompt("why", FIXTURE, 9, count)


@pytest.mark.parametrize(
    "result",
    [4.0, True, False, -1, None, "4"],
    ids=["float", "true", "false", "negative", "none", "str"],
)
def test_counter_returning_a_non_count_is_rejected(result):
    with pytest.raises(ValueError, match="count"):
        pack_prompt("why", FIXTURE, 9, lambda text: result)


def test_counter_returning_a_non_count_for_a_candidate_is_rejected():
    base = render_prompt("why", [])

    def counter(text):
        return 0 if text == base else 1.5

    with pytest.raises(ValueError, match="count"):
        pack_prompt("why", FIXTURE, 9, counter)


def test_a_counter_may_measure_a_prompt_as_zero_units():
    # Zero is a non-negative count: a counter that finds nothing to charge is a valid counter.
    chosen, skipped, prompt = pack_prompt("why", FIXTURE, 0, lambda text: 0)
    assert [key for key, _ in chosen] == ["a", "b", "c"]
    assert skipped == []
    assert prompt == render_prompt("why", FIXTURE)
