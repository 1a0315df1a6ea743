"""packer.lab.folded: what a cell prints, folded under a practice point's one line until the learner opens it."""

from __future__ import annotations

import html

import pytest

from packer.lab.folded import FOLDED_CLASS, folded, folded_html, summary


def test_the_fold_is_a_closed_details_whose_one_line_says_what_it_holds_and_when_to_open_it():
    shown = folded_html("2.3", "(['a', 'b'], ['c', 'd'])")
    assert shown.startswith(f'<details class="{FOLDED_CLASS}"><summary>')
    assert " open" not in shown.split(">", 1)[0]  # closed: no open attribute
    assert summary("2.3") == "Practice 2.3: the result, which answers it (open it once you have answered)"
    assert f"<summary>{summary('2.3')}</summary>" in shown


def test_what_the_cell_printed_is_escaped_so_it_shows_as_text():
    text = "<script>alert(1)</script> & </details><b>x</b>"
    shown = folded_html("1.1", text)
    assert "<script>" not in shown and "<b>" not in shown and shown.count("</details>") == 1
    body = shown.split("<pre>", 1)[1].rsplit("</pre>", 1)[0]
    assert html.unescape(body) == text


@pytest.mark.parametrize("bad", ["2", "p2.3", "2.3 ", "<b>", 2.3, None])
def test_a_bad_number_is_refused_naming_the_argument_before_the_block_runs(bad):
    with pytest.raises(ValueError, match="number"):
        summary(bad)
    ran = []
    with pytest.raises(ValueError, match="number"), folded(bad):
        ran.append(True)
    assert ran == []


def test_outside_ipython_the_block_prints_as_it_would_have(capsys):
    with folded("0.1"):
        print("('alpha\\n\\ndelta', 60)")
        print("second line")
    assert capsys.readouterr().out == "('alpha\\n\\ndelta', 60)\nsecond line\n"
