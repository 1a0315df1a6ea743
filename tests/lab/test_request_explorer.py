"""Lesson 07's request explorer without a browser: the window's parts, the view's text, and its controls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from packer.lab.figures import DescribedFigure

import packer
from packer.chat import MISTRAL_VERSIONS, mistral_chat
from packer.lab.request_budget import (
    PARTS,
    PASSAGES,
    QUESTION,
    SEARCH_TOOL,
    SYSTEM,
    chain,
    format_budget,
    request_budget,
)
from packer.lab.request_plots import plot_budgets
from packer.lab.widgets import explore_request, request_view

pytest.importorskip("mistral_common", reason="mistral-common (the Mistral templates) is not installed")

TOOLS = (SEARCH_TOOL,)
texts = st.text(alphabet="ab é\n日😀.", max_size=12)
passage_lists = st.lists(
    st.tuples(st.text(alphabet="xyz", min_size=1, max_size=3), texts), max_size=4, unique_by=lambda p: p[0]
)


@pytest.mark.parametrize("version", MISTRAL_VERSIONS)
@pytest.mark.parametrize("window,max_output", [(256, 64), (512, 0), (280, 150)])
def test_the_parts_are_named_in_order_and_sum_to_the_window(version, window, max_output):
    tools = () if version == "v1" else TOOLS
    budget = request_budget(QUESTION, PASSAGES, version, window, max_output, SYSTEM, tools)
    assert [name for name, _ in budget.parts] == list(PARTS)
    assert sum(tokens for _, tokens in budget.parts) == window
    assert budget.part("output reserve") == max_output
    assert budget.part("headroom") >= 0


@pytest.mark.parametrize("version", MISTRAL_VERSIONS)
def test_each_part_is_a_difference_of_real_request_counts(version):
    tools = () if version == "v1" else TOOLS
    budget = request_budget(QUESTION, PASSAGES, version, 300, 50, SYSTEM, tools)
    count, with_tools = mistral_chat(version), mistral_chat(version, tools)
    chosen = [p for p in PASSAGES if p[0] in budget.kept]
    counts = [count(request) for _, request in chain(QUESTION, chosen, SYSTEM)]
    expected = [counts[0]] + [b - a for a, b in zip(counts, counts[1:])]
    assert [budget.part(name) for name, _ in chain(QUESTION, chosen, SYSTEM)] == expected
    whole = with_tools(list(budget.messages))
    assert budget.part("tools") == whole - counts[-1]
    assert budget.input_tokens == whole
    assert budget.part("headroom") == 300 - 50 - whole


def test_the_budget_packs_as_pack_request_does():
    budget = request_budget(QUESTION, PASSAGES, "v7", 256, 64, SYSTEM, TOOLS)
    chosen, skipped, messages = packer.pack_request(QUESTION, PASSAGES, 256, 64, mistral_chat("v7", TOOLS), SYSTEM)
    assert budget.kept == tuple(key for key, _ in chosen)
    assert budget.skipped == tuple(skipped)
    assert list(budget.messages) == messages


@settings(max_examples=25)
@given(question=texts, passages=passage_lists, system=texts)
def test_the_parts_telescope_on_any_text(question, passages, system):
    budget = request_budget(question, passages, "v3", 400, 32, system)
    assert sum(tokens for _, tokens in budget.parts) == 400
    assert budget.input_tokens == mistral_chat("v3")(list(budget.messages))


def test_no_system_prompt_and_no_tools_cost_nothing():
    budget = request_budget(QUESTION, PASSAGES[:1], "v7", 256, 0)
    assert (budget.part("system prompt"), budget.part("tools")) == (0, 0)


def test_the_text_for_known_inputs():
    assert format_budget(request_budget(QUESTION, PASSAGES, "v7", 256, 64, SYSTEM, TOOLS)) == "\n".join(
        [
            "Mistral v7: window 256, max_output 64, 6 passages offered, 2 kept",
            "part             tokens of window",
            "control tokens        3      1.2%",
            "prompt framing       10      3.9%",
            "question             13      5.1%",
            "passages             70     27.3%",
            "system prompt        17      6.6%",
            "tools                73     28.5%",
            "output reserve       64     25.0%",
            "headroom              6      2.3%",
            "window              256",
            "the request measures 186 tokens; + max_output 64 fits the window",
            "kept ['hours', 'review'], skipped ['menu-fr', 'menu-ja', 'allergens', 'history']",
        ]
    )


def test_the_view_shows_the_same_text_and_a_figure():
    view = request_view(QUESTION, PASSAGES, "v7", TOOLS, 256, 64, 6, SYSTEM)
    assert view.text == format_budget(request_budget(QUESTION, PASSAGES, "v7", 256, 64, SYSTEM, TOOLS))
    assert isinstance(view.figure, DescribedFigure)
    fewer = request_view(QUESTION, PASSAGES, "v7", (), 256, 64, 2, SYSTEM)
    assert fewer.text.startswith("Mistral v7: window 256, max_output 64, 2 passages offered, 2 kept")


@pytest.mark.parametrize(
    "arguments,message",
    [
        (("v7", (), 256, 64, 7), "ValueError: shown: expected 0 to 6, got 7"),
        (("v7", (), 256, 64, -1), "ValueError: shown: expected 0 to 6, got -1"),
        (("v9", (), 256, 64, 6), "ValueError: version must be one of v1, v2, v3, v7, got 'v9'"),
        (("v1", TOOLS, 256, 64, 6), "ValueError: tools: the v1 template has no tool definitions"),
        (("v7", (), 256, 300, 6), "ValueError: max_output (300) must not exceed window (256)"),
        (("v7", (), -1, 0, 6), "ValueError: window must be a non-negative int, got -1"),
        (("v7", (), 256, 250, 6), "ValueError: window: the base request"),
        (("v7", ({"type": "function"},), 256, 64, 6), "ValueError: tool 0: function: Field required"),
    ],
)
def test_bad_values_become_a_value_error_naming_the_argument(arguments, message):
    assert request_view(QUESTION, PASSAGES, *arguments, SYSTEM).text.startswith(message)


def test_bad_passages_and_strings_are_refused_by_name():
    with pytest.raises(ValueError, match="passage 0"):
        request_budget(QUESTION, [("a]", "x")], "v7", 256, 0)
    with pytest.raises(ValueError, match="question must be a str"):
        request_budget(None, PASSAGES, "v7", 256, 0)
    with pytest.raises(ValueError, match="system must be a str"):
        request_budget(QUESTION, PASSAGES, "v7", 256, 0, system=1)
    with pytest.raises(ValueError, match="budgets: expected at least one"):
        plot_budgets([])
    budget = request_budget(QUESTION, PASSAGES, "v7", 256, 0)
    with pytest.raises(ValueError, match="labels: 2 labels for 1 budgets"):
        plot_budgets([budget], ["a", "b"])


def test_the_explorer_re_renders_when_a_control_moves():
    tool_sets = {"none": (), "one search tool": TOOLS}
    explorer = explore_request(QUESTION, PASSAGES, SYSTEM, tool_sets)
    assert explorer.last.text == request_view(QUESTION, PASSAGES, "v7", (), 256, 64, 6, SYSTEM).text
    explorer.controls["tools"].value = TOOLS
    assert "tools                73" in explorer.last.text
    explorer.controls["version"].value = "v1"
    assert explorer.last.text.startswith("ValueError: tools: the v1 template")
    explorer.controls["tools"].value = ()
    explorer.controls["window"].value = 300
    assert explorer.last.text.startswith("Mistral v1: window 300, max_output 64")
    explorer.controls["shown"].value = 0
    assert "0 passages offered, 0 kept" in explorer.last.text
