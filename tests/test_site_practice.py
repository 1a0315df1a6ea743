"""What a lesson's page shows at each practice point (packer/site/practice.py), without building a site: the
kernel's own feedback for each option, text escaped for the HTML it lands in, and a point the page cannot check
sent to JupyterLab with the run link."""

from __future__ import annotations

import html
import json
import re

import nbformat
import pytest

from packer.checking.practice import POINTS, Choose, Option, Predict, Write, check_choice
from packer.site.practice import (
    choose_form,
    comparable,
    described,
    encoded,
    in_the_lab,
    practice_on_page,
    predict_form,
)


def check_data(form: str) -> dict:
    """The JSON practice.js reads from a form's data-check attribute."""
    return json.loads(html.unescape(re.search(r'data-check="([^"]*)"', form).group(1)))


def test_a_choose_form_carries_the_kernels_feedback_for_every_option_and_for_none():
    found = POINTS["p0.3"]
    data = check_data(choose_form(found))
    assert data["said"] == {option.key: str(check_choice(found, option.key)) for option in found.options}
    assert data["none"] == str(check_choice(found, None))


def test_option_text_and_feedback_show_as_text_not_as_html():
    hostile = Choose(
        "p0.3",
        2,
        "t",
        options=(Option("A", '<b>bold</b> & "q"', "<script>alert(1)</script>"), Option("B", "x", "y", right=True)),
    )
    form = choose_form(hostile)
    assert "<b>bold</b>" not in form and "<script>" not in form
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; &quot;q&quot;" in form
    assert "<script>alert(1)</script>" in check_data(form)["said"]["A"]  # the text itself, read back as text


def test_a_literal_is_encoded_by_kind_and_anything_else_is_refused():
    assert encoded((1, ["a"], True, None)) == [
        "tuple",
        [["int", 1], ["list", [["str", "a"]]], ["bool", True], ["None"]],
    ]
    assert described(tuple[list[str], int])["parts"][0] == {
        "name": "list[str]",
        "kind": "list",
        "parts": [{"name": "str", "kind": "str", "parts": []}],
    }
    with pytest.raises(ValueError, match="a float is not a literal the page compares"):
        encoded(0.5)
    with pytest.raises(ValueError, match="dict"):
        described(dict[str, int])


def test_a_prediction_the_page_cannot_compare_is_sent_to_jupyterlab_with_the_run_link(monkeypatch):
    odd = Predict("p2.1", 1, "t", result=lambda: {"a": 1}, answer_type=dict)
    assert comparable(odd) is None
    cell = nbformat.v4.new_code_cell('prediction = ...\npredict("p2.1", prediction)')
    notebook = nbformat.v4.new_notebook(cells=[cell])
    monkeypatch.setitem(POINTS, "p2.1", odd)
    assert not practice_on_page(notebook, "notebooks/02_prompt_packer.ipynb", ("https://hub/x?a=1&b=2", "the hub"))
    shown = cell.outputs[0]["data"]["text/html"]
    assert 'href="https://hub/x?a=1&amp;b=2"' in shown and "in place of <code>...</code>" in shown


def test_a_write_point_says_how_to_answer_it_in_jupyterlab():
    found = next(p for p in POINTS.values() if isinstance(p, Write))
    note = in_the_lab(found, "notebooks/x.ipynb", None)
    assert f"Practice {found.number} (write) is answered in JupyterLab" in note and "make lab" in note
    assert "NotImplementedError" in note
    predict = next(p for p in POINTS.values() if isinstance(p, Predict))
    assert 'id="practice-' in predict_form(predict, comparable(predict))
