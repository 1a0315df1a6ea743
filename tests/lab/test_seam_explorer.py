"""Lesson 02's seam explorer without a browser: the parts it renders, its verdicts, and its controls."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from packer import render_prompt
from packer.counters import BPE_ENCODINGS, bpe
from packer.lab.seams import format_seams, line_of, prompt_parts, seams, unescape
from packer.lab.widgets import explore_seams, seams_view

pytest.importorskip("bpe_openai", reason="bpe-openai (the real tokenizer's vocabulary) is not installed")

PASSAGES = [("a", "Tides follow the moon."), ("b", "東京の天気"), ("c", "x = f(1)  # 2"), ("d", "see the note}")]
LINE = "[{id}] {text}\n"

texts = st.text(alphabet="ab .\n}{1日 ", max_size=10)
passage_lists = st.lists(
    st.tuples(st.text(alphabet="xyz", min_size=1, max_size=3), texts), max_size=5, unique_by=lambda p: p[0]
)


@given(question=texts, passages=passage_lists)
def test_the_default_format_rebuilds_render_prompt_exactly(question, passages):
    assert "".join(prompt_parts(question, passages, LINE, "")) == render_prompt(question, passages)


@pytest.mark.parametrize("encoding", BPE_ENCODINGS)
@given(question=texts, passages=passage_lists)
def test_the_renderers_seams_are_all_cut_and_its_parts_add_up(encoding, question, passages):
    parts = prompt_parts(question, passages, LINE, "")
    assert all(seam.cut for seam in seams(parts, encoding))
    count = bpe(encoding)
    assert sum(count(part) for part in parts) == count(render_prompt(question, passages))


def test_the_lesson_default_adds_up():
    text = format_seams("why", PASSAGES, LINE, "", "cl100k_base")
    assert "NOT cut" not in text
    assert text.endswith("the whole prompt measured once:  44 tokens (no seam changed a piece, so the counts add up)")
    assert bpe("cl100k_base")(render_prompt("why", PASSAGES)) == 44


def test_a_newline_before_each_line_breaks_additivity_and_names_the_piece():
    text = format_seams("why", PASSAGES, "\n[{id}] {text}", "", "cl100k_base")
    assert "NOT cut  'ow the moon.' | '\\n[b] 東京の天気'  (joined, '.\\n' spans it)" in text
    assert text.endswith(
        "46 tokens\nthe whole prompt measured once:  44 tokens (a seam is not cut: adding is 2 too high)"
    )


def test_adding_can_also_be_too_low():
    text = format_seams("why", [("a", "x"), ("b", "2026")], "{text}  ", "", "cl100k_base")
    assert "adding is 1 too low" in text


def test_a_seam_can_change_pieces_while_the_totals_happen_to_agree():
    # "x}" + "Answer:" joins "}Answer" in cl100k_base, yet both ways cost the same here.
    found = seams(["x}", "Answer:"], "cl100k_base")
    assert [(s.cut, s.spanning) for s in found] == [(False, "}Answer")]
    text = format_seams("why", [("a", "x}")], "{text}", "", "cl100k_base")
    count = bpe("cl100k_base")
    parts = prompt_parts("why", [("a", "x}")], "{text}", "")
    whole, apart = count("".join(parts)), sum(map(count, parts))
    expected = "yet the totals happen to agree" if whole == apart else "too"
    assert expected in text


def test_separators_are_parts_of_their_own_and_empty_parts_are_left_out():
    assert prompt_parts("q", [("a", "x"), ("b", "y")], "{text}", "\n\n") == [
        "Question: q\nSources:\n",
        "x",
        "\n\n",
        "y",
        "Answer:",
    ]
    assert prompt_parts("q", [("a", "")], "{text}", "") == ["Question: q\nSources:\n", "Answer:"]


def test_fields_are_replaced_once_and_other_braces_are_kept():
    assert line_of("[{id}] {text} {other}", "{text}", "{id}") == "[{text}] {id} {other}"


def test_escapes_in_a_text_box_mean_the_characters_they_name():
    assert unescape("[{id}] {text}\\n") == "[{id}] {text}\n"
    assert unescape("\\t|\\r|\\\\n|\\x") == "\t|\r|\\n|\\x"


def test_the_view_limits_the_passages_shown_and_reports_bad_values_as_text():
    assert "2 passages" in seams_view("why", PASSAGES, LINE.replace("\n", "\\n"), "", "cl100k_base", 2).text
    assert seams_view("why", PASSAGES, LINE, "", "cl100k_base", 5).text == "ValueError: shown: expected 0 to 4, got 5"
    assert seams_view("why", PASSAGES, LINE, "", "gpt2", 1).text == (
        "ValueError: encoding must be one of cl100k_base, o200k_base, got 'gpt2'"
    )
    assert seams_view("why", [("a]", "x")], LINE, "", "cl100k_base", 1).text.startswith("ValueError: ")


def test_the_explorer_re_renders_when_a_box_is_edited():
    explorer = explore_seams("why", PASSAGES)
    assert explorer.last.text == seams_view("why", PASSAGES, "[{id}] {text}\\n", "", "cl100k_base", 4).text
    explorer.controls["line_format"].value = "\\n[{id}] {text}"
    assert "adding is 2 too high" in explorer.last.text
    explorer.controls["encoding"].value = "o200k_base"
    assert explorer.last.text.startswith("o200k_base: ")
    explorer.controls["shown"].value = 0
    assert "0 passages" in explorer.last.text
