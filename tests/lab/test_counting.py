"""Lesson 05's corpus, measurements, figures and explorer, without a browser."""

from __future__ import annotations

import pytest
from packer.lab.figures import DescribedFigure

from packer.counters import bpe, count_chars_div4, count_utf8_bytes
from packer.lab import corpus
from packer.lab.count_plots import plot_bytes_bound, plot_errors, plot_headroom, plot_ratios, plot_splits
from packer.lab.measure import (
    RULE_OF_THUMB_CHARS_PER_TOKEN,
    characters_per_token,
    Split,
    headroom_needed,
    measure,
    median,
    nearest_rank,
    unit_counter,
    units_table,
    whitespace_splits,
)
from packer.lab.widgets import counting_view, explore_counting

pytest.importorskip(
    "bpe_openai", reason="bpe-openai (the real tokenizer's vocabulary) is not installed: run `make venv`"
)

NAMES = [s.name for s in corpus.samples()]


def test_every_sample_is_real_text_from_a_named_installed_source():
    assert NAMES == [
        "English prose",
        "Python code",
        "English UI messages",
        "Chinese UI messages",
        "Japanese names",
        "Korean names",
        "Hindi names",
        "Thai names",
        "Russian names",
        "Arabic names",
        "English names",
        "base64",
        "hex",
        "numeric CSV",
    ]
    for s in corpus.samples():
        assert 60 <= len(s.passages) <= corpus.PER_SAMPLE, s.name
        assert all(isinstance(p, str) and p.strip() for p in s.passages), s.name
        assert len(set(s.passages)) == len(s.passages), s.name
        assert s.source and s.kind in {"prose", "code", "names", "data"}


def test_samples_are_drawn_the_same_way_every_time():
    corpus.samples.cache_clear()
    again = corpus.samples()
    assert [s.passages for s in again] == [corpus.sample(name).passages for name in NAMES]
    assert corpus._draw(["c", "a", "b", "a"], k=5) == ("a", "b", "c"), "fewer than k: all of them, sorted"
    assert corpus._draw([str(i) for i in range(100)], k=3) == corpus._draw([str(i) for i in reversed(range(100))], k=3)


def test_the_scripts_are_what_the_names_say():
    assert any("\u3040" <= ch <= "\u30ff" for p in corpus.sample("Japanese names").passages for ch in p)
    assert any("\uac00" <= ch <= "\ud7af" for p in corpus.sample("Korean names").passages for ch in p)
    assert any("\u0900" <= ch <= "\u097f" for p in corpus.sample("Hindi names").passages for ch in p)
    assert any("\u0e00" <= ch <= "\u0e7f" for p in corpus.sample("Thai names").passages for ch in p)
    assert any("\u4e00" <= ch <= "\u9fff" for p in corpus.sample("Chinese UI messages").passages for ch in p)
    assert all(
        set(p) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n")
        for p in corpus.sample("base64").passages
    )


def test_the_ui_samples_are_a_parallel_pair():
    english, chinese = corpus.ui_messages()
    assert len(english.passages) == len(chinese.passages)
    assert "Access-Control-Allow-Credentials" in "".join(english.passages + chinese.passages) or english.passages


def test_a_missing_source_is_named():
    with pytest.raises(FileNotFoundError, match="numpy does not ship nothing/here.csv"):
        corpus.package_file("numpy", "nothing", "here.csv")
    with pytest.raises(FileNotFoundError, match="'no_such_package_xyz' is not installed"):
        corpus.package_file("no_such_package_xyz", "x")


def test_an_unknown_sample_raises_naming_the_argument():
    with pytest.raises(ValueError, match="^name: unknown sample 'Klingon'"):
        corpus.sample("Klingon")


def test_measure_counts_every_passage_in_every_unit():
    measured = measure(corpus.sample("hex"), "o200k_base")
    passages = measured.sample.passages
    assert measured.tokens == tuple(bpe("o200k_base")(p) for p in passages)
    assert measured.counts["chars/4"] == tuple(count_chars_div4(p) for p in passages)
    assert measured.ratios("UTF-8 bytes") == [count_utf8_bytes(p) / t for p, t in zip(passages, measured.tokens)]
    with pytest.raises(ValueError, match="^encoding: expected one of cl100k_base, o200k_base"):
        measure(corpus.sample("hex"), "gpt2")
    with pytest.raises(ValueError, match="^unit: unknown unit 'tokens'"):
        unit_counter("tokens")
    assert unit_counter("cl100k_base") is bpe("cl100k_base")


def test_tokens_never_exceed_utf8_bytes_on_any_sample():
    for s in corpus.samples():
        for encoding in ("cl100k_base", "o200k_base"):
            m = measure(s, encoding)
            assert all(t <= b for t, b in zip(m.tokens, m.counts["UTF-8 bytes"])), (s.name, encoding)


def test_nearest_rank_and_median():
    values = [5, 1, 4, 2, 3]
    assert [nearest_rank(values, q) for q in (0.0, 0.2, 0.21, 0.5, 0.95, 1.0)] == [1, 1, 2, 3, 5, 5]
    assert median([4, 1, 3, 2]) == 2.5 and median([3, 1, 2]) == 2
    with pytest.raises(ValueError, match="^values: empty"):
        nearest_rank([], 0.5)


def test_headroom_is_the_smallest_whole_percent_that_covers_the_share():
    for name in ("English prose", "Japanese names", "numeric CSV"):
        m = measure(corpus.sample(name))
        pairs = list(zip(m.tokens, m.counts["chars/4"]))
        for percent in (50, 95, 99, 100):
            h = headroom_needed(m, percent)
            covered = sum(100 * t <= e * (100 + h) for t, e in pairs)
            assert 100 * covered >= percent * len(pairs), (name, percent, h)
            assert 100 * sum(100 * t <= e * (99 + h) for t, e in pairs) < percent * len(pairs), "one percent less fails"


def test_headroom_on_a_small_hand_made_case():
    from packer.lab.corpus import Sample
    from packer.lab.measure import Measured

    fake = Measured(
        Sample("x", "prose", "Latin", "here", ("a", "b", "c", "d")),
        "cl100k_base",
        {"chars/4": (10, 10, 10, 10)},
        (9, 11, 12, 20),
    )
    assert [headroom_needed(fake, p) for p in (25, 50, 75, 100)] == [-10, 10, 20, 100]


def test_whitespace_splits_measure_the_parts_and_the_whole():
    count = bpe("cl100k_base")
    splits = whitespace_splits("end.\n\nNext", count)
    assert [(s.left, s.right) for s in splits] == [("end.", "\n\nNext"), ("end.\n\n", "Next")]
    assert [(s.parts, s.whole, s.change) for s in splits] == [(4, 3, -1), (3, 3, 0)]  # ".\n\n" is one token
    [more] = [s for s in whitespace_splits("ab  123", count) if s.right == "123"]
    assert (more.parts, more.whole, more.change) == (3, 4, 1), "spaces before digits: the whole costs more"
    assert whitespace_splits("nospace", count) == []
    assert Split("a", "b", 2, 1).change == -1


def test_the_units_table_has_a_row_per_sample():
    table = units_table([measure(corpus.sample(n)) for n in ("English prose", "hex")])
    lines = table.splitlines()
    assert lines[0].startswith("sample") and lines[1].startswith("English prose") and lines[2].startswith("hex")
    assert lines[-1] == "(tokens: cl100k_base; last column: median over passages)"


def test_the_figures_draw():
    measured = [measure(corpus.sample(n)) for n in ("English prose", "Thai names", "base64")]
    for figure in (
        plot_ratios(measured),
        plot_headroom(measured),
        plot_bytes_bound(measured),
        plot_errors(measured[0], "chars/4", 2),
        plot_splits([("English prose", whitespace_splits(measured[0].sample.passages[0], bpe("cl100k_base")))]),
    ):
        assert isinstance(figure, DescribedFigure) and figure.axes


def test_counting_view_reports_the_error_of_the_chosen_unit():
    view = counting_view("English prose", "chars/4", 0)
    m = measure(corpus.sample("English prose"))
    estimate, tokens = m.counts["chars/4"][0], m.tokens[0]
    assert view.text.splitlines()[-1] == (
        f"chars/4 says {estimate} for {tokens} real tokens: error "
        f"{estimate - tokens:+d} ({(estimate - tokens) / tokens:+.0%})"
    )
    assert isinstance(view.figure, DescribedFigure)


@pytest.mark.parametrize(
    "sample, unit, index, message",
    [
        ("Klingon", "chars/4", 0, "name: unknown sample"),
        ("hex", "tokens", 0, "unit: expected one of"),
        ("hex", "chars/4", 100, "index: expected 0 to 99"),
        ("hex", "chars/4", True, "index: expected 0 to 99"),
    ],
)
def test_counting_view_turns_bad_values_into_a_readable_line(sample, unit, index, message):
    view = counting_view(sample, unit, index)
    assert view.text.startswith(f"ValueError: {message}") and view.figure is None


def test_the_counting_explorer_rerenders_on_every_control():
    explorer = explore_counting()
    assert explorer.last.text == counting_view("English prose", "chars/4", 0).text
    explorer.controls["sample"].value = "Korean names"
    explorer.controls["unit"].value = "UTF-8 bytes"
    explorer.controls["index"].value = 7
    assert explorer.last.text == counting_view("Korean names", "UTF-8 bytes", 7).text


def test_the_lessons_headroom_is_the_exercise_references():
    from packer.checking.units import headroom_percent

    for s in corpus.samples():
        m = measure(s)
        for percent in (50, 95, 99):
            assert headroom_needed(m, percent) == headroom_percent(list(m.tokens), list(m.counts["chars/4"]), percent)


def test_the_lessons_cuts_are_the_exercise_references():
    from packer.checking.units import non_additive_cuts

    count = bpe("cl100k_base")
    for passage in corpus.sample("Python code").passages[:5]:
        found = [(len(s.left), s.parts, s.whole) for s in whitespace_splits(passage, count) if s.change]
        assert found == non_additive_cuts(passage, count)


def test_characters_per_token_is_the_unit_of_the_four_characters_rule():
    measured = measure(corpus.sample("English prose"), "cl100k_base")
    chars = sum(len(p) for p in measured.sample.passages)
    assert characters_per_token(measured) == chars / sum(measured.tokens)
    assert RULE_OF_THUMB_CHARS_PER_TOKEN == 4
    # English prose is where the rule is meant to hold; the median chars/4 estimate is within a fifth of it.
    assert 4 < characters_per_token(measured) < 5
