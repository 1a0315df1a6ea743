"""Live explorers for the lessons. Each view is a plain function (values -> text + figure) that tests call
directly; the widgets only collect values and show the view."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
from IPython.display import clear_output, display

from packer.chunks import assemble_context
from packer.counters import COUNTERS
from packer.lab.corpus import sample as corpus_sample
from packer.lab.corpus import samples as corpus_samples
from packer.lab.count_plots import plot_errors
from packer.lab.figures import DescribedFigure
from packer.lab.measure import UNITS, Measured, measure
from packer.lab.plots import plot_check, plot_plan, plot_trace
from packer.lab.seams import format_seams, unescape
from packer.section_budget import SECTION_ORDER, check_sections, estimate_tokens, format_plan, plan_budget
from packer.lab.trace import format_trace, trace_chunks, trace_prompt, trace_utf8
from packer.utf8 import pack_utf8
from packer.validation import require_passages


@dataclass(frozen=True)
class View:
    """What an explorer shows for one set of control values: a text table and a described figure (or None)."""

    text: str
    figure: DescribedFigure | None = None


def _guarded(build: Callable[[], View]) -> View:
    """Run a view builder; bad values become a readable ValueError line instead of a crash."""
    try:
        return build()
    except ValueError as error:
        return View(f"ValueError: {error}")


def chunks_view(chunks: Any, max_tokens: int) -> View:
    """assemble_context at one budget: the per-chunk table, the result, and the candidates figure."""

    def build() -> View:
        context, used = assemble_context(chunks, max_tokens)
        trace = trace_chunks(chunks, max_tokens)
        return View(f"{format_trace(trace)}\ncontext = {context!r}", plot_trace(trace))

    return _guarded(build)


def prompt_view(question: str, passages: Any, limit: int, counter: str) -> View:
    """pack_prompt at one limit with a named counter from packer.counters.COUNTERS."""

    def build() -> View:
        unit = counter.split(" (")[0]
        trace = trace_prompt(question, passages, limit, COUNTERS[counter], unit)
        return View(format_trace(trace), plot_trace(trace))

    return _guarded(build)


def utf8_view(passages: Any, limit: int, reserve: int) -> View:
    """pack_utf8 at one byte limit and reserve: the table, the payload, and the candidates figure."""

    def build() -> View:
        text, _ = pack_utf8(passages, limit, reserve)
        trace = trace_utf8(passages, limit, reserve)
        return View(f"{format_trace(trace)}\npayload = {text!r}", plot_trace(trace))

    return _guarded(build)


def seams_view(question: str, passages: Any, line_format: str, separator: str, encoding: str, shown: int) -> View:
    """The seams of a prompt rendered with a typed line format and separator (\\n escapes), first `shown` passages."""

    def build() -> View:
        checked = require_passages(passages)
        if type(shown) is not int or not 0 <= shown <= len(checked):
            raise ValueError(f"shown: expected 0 to {len(checked)}, got {shown!r}")
        return View(format_seams(question, checked[:shown], unescape(line_format), unescape(separator), encoding))

    return _guarded(build)


def plan_view(budget: int, **section_chars: int) -> View:
    """The planning table and budget bar for the given section sizes in characters."""

    def build() -> View:
        plan = plan_budget(section_chars, budget)
        return View(format_plan(plan), plot_plan(plan))

    return _guarded(build)


def sections_view(budget: int, **sections: str) -> View:
    """check_sections on the given section texts: the verdict, the estimate, and the budget bar."""

    def build() -> View:
        result = check_sections(sections, budget)
        summed = sum(estimate_tokens(sections.get(key, "")) for key in SECTION_ORDER)
        lines = [result.message, f"estimate of the assembled prompt: {result.total} tokens, headroom {result.headroom}"]
        if result.total is not None:
            lines.append(
                f"sum of the section estimates:     {summed} tokens (tags and separators add {result.total - summed})"
            )
        return View("\n".join(lines), plot_check(result, sections))

    return _guarded(build)


@functools.cache
def _measured(name: str, encoding: str) -> Measured:
    """A corpus sample measured once per encoding (the explorer revisits the same samples)."""
    return measure(corpus_sample(name), encoding)


def counting_view(sample: str, unit: str, index: int, encoding: str = "cl100k_base") -> View:
    """One real passage in every unit, the chosen unit's error against real tokens, and the sample's spread."""

    def build() -> View:
        measured = _measured(sample, encoding)
        if unit not in UNITS:
            raise ValueError(f"unit: expected one of {', '.join(UNITS)}, got {unit!r}")
        if type(index) is not int or not 0 <= index < len(measured.tokens):
            raise ValueError(f"index: expected 0 to {len(measured.tokens) - 1}, got {index!r}")
        passage, tokens = measured.sample.passages[index], measured.tokens[index]
        shown = passage if len(passage) <= 160 else passage[:159] + "…"
        lines = [
            f"{measured.sample.name}, passage {index} of {len(measured.tokens)} (from {measured.sample.source})",
            repr(shown),
            f"{'unit':<20} {'count':>6} {'÷ tokens':>9}",
        ]
        for name in UNITS:
            lines.append(f"{name:<20} {measured.counts[name][index]:>6} {measured.counts[name][index] / tokens:>9.2f}")
        lines.append(f"{encoding + ' tokens':<20} {tokens:>6} {1:>9.2f}")
        estimate = measured.counts[unit][index]
        lines.append(
            f"{unit} says {estimate} for {tokens} real tokens: error {estimate - tokens:+d} "
            f"({(estimate - tokens) / tokens:+.0%})"
        )
        return View("\n".join(lines), plot_errors(measured, unit, index))

    return _guarded(build)


class Explorer:
    """Controls above an output area; every change of a control value re-renders the view."""

    def __init__(self, view: Callable[..., View], controls: Mapping[str, widgets.ValueWidget], **fixed: Any):
        self.view = view
        self.controls = dict(controls)
        self.fixed = fixed
        self.output = widgets.Output()
        self.widget = widgets.VBox([*self.controls.values(), self.output])
        self.last: View | None = None
        for control in self.controls.values():
            control.observe(self.refresh, names="value")
        self.refresh()

    def values(self) -> dict[str, Any]:
        """Current control values by parameter name."""
        return {name: control.value for name, control in self.controls.items()}

    def refresh(self, change: Any = None) -> View:
        """Recompute the view from the current values and show it in the output area."""
        self.last = self.view(**self.fixed, **self.values())
        with self.output:
            clear_output(wait=True)
            print(self.last.text)
            if self.last.figure is not None:
                display(self.last.figure)  # the PNG with its description as text/plain and as alt
        return self.last

    def _ipython_display_(self) -> None:
        display(self.widget)


def _slider(description: str, value: int, low: int, high: int) -> widgets.IntSlider:
    """An integer slider with a wide label and a continuous-free update (fires on release and on keys)."""
    return widgets.IntSlider(value=value, min=low, max=high, **_slider_look(description))


def _slider_look(description: str) -> dict[str, Any]:
    """What every slider here shares: its label, a wide layout, and updates on release and on keys only."""
    return {
        "description": description,
        "continuous_update": False,
        "style": {"description_width": "initial"},
        "layout": widgets.Layout(width="480px"),
    }


def explore_chunks(chunks: Any, max_tokens: int = 100, high: int | None = None) -> Explorer:
    """A max_tokens slider over assemble_context."""
    high = high or max(1, sum(c["token_count"] for c in chunks))
    return Explorer(chunks_view, {"max_tokens": _slider("max_tokens", max_tokens, 0, high)}, chunks=chunks)


def explore_prompt(
    question: str, passages: Any, limit: int = 9, counter: str | None = None, high: int = 60
) -> Explorer:
    """A limit slider and a counter menu over pack_prompt."""
    menu = widgets.Dropdown(options=list(COUNTERS), value=counter or next(iter(COUNTERS)), description="counter")
    controls = {"limit": _slider("limit", limit, 0, high), "counter": menu}
    return Explorer(prompt_view, controls, question=question, passages=passages)


def explore_seams(
    question: str, passages: Any, line_format: str = "[{id}] {text}\\n", separator: str = "", shown: int | None = None
) -> Explorer:
    """Text boxes for the line format and separator, an encoding menu and a passage slider over seams_view."""
    passages = require_passages(passages)
    box = {"style": {"description_width": "initial"}, "layout": widgets.Layout(width="480px")}
    controls = {
        "line_format": widgets.Text(value=line_format, description="line format", **box),
        "separator": widgets.Text(value=separator, description="separator between lines", **box),
        "encoding": widgets.Dropdown(
            options=["cl100k_base", "o200k_base"], value="cl100k_base", description="encoding"
        ),
        "shown": _slider("passages", len(passages) if shown is None else shown, 0, len(passages)),
    }
    return Explorer(seams_view, controls, question=question, passages=passages)


def explore_utf8(passages: Any, limit: int = 64, reserve: int = 0, high: int = 200) -> Explorer:
    """Byte-limit and reserve sliders over pack_utf8."""
    controls = {
        "limit": _slider("limit (bytes)", limit, 0, high),
        "reserve": _slider("reserve (bytes)", reserve, 0, 64),
    }
    return Explorer(utf8_view, controls, passages=passages)


def explore_plan(section_chars: Mapping[str, int], budget: int = 500) -> Explorer:
    """A budget slider and one size slider per section over plan_budget."""
    controls: dict[str, widgets.ValueWidget] = {"budget": _slider("budget (tokens)", budget, 1, 2 * budget)}
    for key in SECTION_ORDER:
        controls[key] = _slider(f"{key} (chars)", section_chars[key], 0, 2000)
    return Explorer(plan_view, controls)


def explore_sections(sections: Mapping[str, str], budget: int = 500) -> Explorer:
    """A budget slider and one text box per section over check_sections."""
    controls: dict[str, widgets.ValueWidget] = {"budget": _slider("budget (tokens)", budget, 0, 2 * budget)}
    for key in SECTION_ORDER:
        controls[key] = widgets.Textarea(
            value=sections.get(key, ""), description=key, layout=widgets.Layout(width="480px", height="48px")
        )
    return Explorer(sections_view, controls)


def explore_counting(
    sample: str = "English prose", unit: str = "chars/4", index: int = 0, encoding: str = "cl100k_base"
) -> Explorer:
    """Menus for the sample and the unit, a slider for the passage, over counting_view."""
    names = [s.name for s in corpus_samples()]
    controls = {
        "sample": widgets.Dropdown(options=names, value=sample, description="sample"),
        "unit": widgets.Dropdown(options=list(UNITS), value=unit, description="unit"),
        "index": _slider("passage", index, 0, len(corpus_sample(sample).passages) - 1),
    }
    return Explorer(counting_view, controls, encoding=encoding)


def policies_view(question: str, limit: int, encoding: str = "cl100k_base", with_parts: bool = True) -> View:
    """The four policies (and the knapsack over parts) on one question's ranking at one budget."""
    from packer.counters import bpe
    from packer.lab.policies import compare, knapsack, line_costs, outcomes_table
    from packer.lab.policy_plots import plot_choices
    from packer.lab.retrieval import rank

    def build() -> View:
        if encoding not in ("cl100k_base", "o200k_base"):
            raise ValueError(f"encoding: expected cl100k_base or o200k_base, got {encoding!r}")
        count, hits = bpe(encoding), rank(question)
        outcomes = compare(question, hits, limit, count)
        if with_parts:
            outcomes.append(knapsack(question, hits, limit, count, costs="text"))
        head = f"{question}\n{len(hits)} passages retrieved, budget {limit} {encoding} tokens"
        return View(f"{head}\n{outcomes_table(outcomes)}", plot_choices(outcomes, hits, line_costs(hits, count)))

    return _guarded(build)


def _question_menu(question: str | None) -> widgets.Dropdown:
    """A menu of lesson 06's questions, opened on `question` (the first when None)."""
    from packer.lab.retrieval import QUESTIONS

    return widgets.Dropdown(
        options=list(QUESTIONS),
        value=question or QUESTIONS[0],
        description="question",
        layout=widgets.Layout(width="640px"),
    )


def explore_policies(question: str | None = None, limit: int = 600, high: int = 2000) -> Explorer:
    """A question menu and a budget slider over policies_view."""

    controls = {
        "question": _question_menu(question),
        "limit": _slider("budget (tokens)", limit, 50, high),
    }
    return Explorer(policies_view, controls)


def request_view(
    question: str,
    passages: Any,
    version: str,
    tools: Any,
    window: int,
    max_output: int,
    shown: int,
    system: str = "",
) -> View:
    """pack_request under one Mistral template, the first `shown` passages offered: the window's parts and a bar."""
    from packer.lab.request_budget import format_budget, request_budget
    from packer.lab.request_plots import plot_budgets

    def build() -> View:
        checked = require_passages(passages)
        if type(shown) is not int or not 0 <= shown <= len(checked):
            raise ValueError(f"shown: expected 0 to {len(checked)}, got {shown!r}")
        budget = request_budget(question, checked[:shown], version, window, max_output, system, tools)
        return View(format_budget(budget), plot_budgets([budget]))

    return _guarded(build)


def explore_request(
    question: str,
    passages: Any,
    system: str = "",
    tool_sets: Mapping[str, Any] | None = None,
    version: str = "v7",
    window: int = 256,
    max_output: int = 64,
    shown: int | None = None,
    high: int = 512,
) -> Explorer:
    """Menus for the template and the tools, sliders for the window, max_output and passages, over request_view."""
    from packer.chat import MISTRAL_VERSIONS

    passages = require_passages(passages)
    tool_sets = dict(tool_sets) if tool_sets is not None else {"none": ()}
    controls = {
        "version": widgets.Dropdown(options=list(MISTRAL_VERSIONS), value=version, description="template"),
        "tools": widgets.Dropdown(options=list(tool_sets.items()), description="tools"),
        "window": _slider("window (tokens)", window, 0, high),
        "max_output": _slider("max_output (tokens)", max_output, 0, high),
        "shown": _slider("passages offered", len(passages) if shown is None else shown, 0, len(passages)),
    }
    return Explorer(request_view, controls, question=question, passages=passages, system=system)


def beyond_view(question: str, limit: int, threshold: float = 0.5, lam: float = 0.7) -> View:
    """Lesson 08's three strategies on one question's ranking with injected copies, at one budget, filter threshold
    and MMR λ; the filter's catch, and the deduplicated choice laid out ends first."""
    from packer.counters import bpe
    from packer.lab.beyond_plots import plot_strategy_choices
    from packer.lab.repeats import candidates, choices_table, compare, injected, relevant, score_filter
    from packer.ordering import ends_first

    def build() -> View:
        count, hits = bpe("cl100k_base"), candidates(question)
        choices = compare(question, limit, count, threshold, lam)
        score = score_filter(hits, threshold)
        copies = {c.key for c in injected()} & {h.key for h in hits}
        lines = [
            f"{question}\n{len(hits)} passages retrieved ({len(copies)} of them injected copies), "
            f"budget {limit} cl100k_base tokens",
            choices_table(choices),
            f"filter at {threshold:g}: caught {len(score.caught)} of {len(score.caught) + len(score.missed)} copies"
            f" ({', '.join(score.missed) or 'none'} missed); {len(score.false_removals)} false removals"
            + "".join(f"\n  {dropped} taken to repeat {kept}" for dropped, kept in score.false_removals),
            "dedup + greedy, ends first: " + " ".join(ends_first(list(choices[1].chosen))),
        ]
        return View("\n".join(lines), plot_strategy_choices(choices, hits, set(relevant(question)), copies))

    return _guarded(build)


def _float_slider(description: str, value: float, low: float, high: float, step: float) -> widgets.FloatSlider:
    """A float slider laid out like _slider."""
    return widgets.FloatSlider(value=value, min=low, max=high, step=step, **_slider_look(description))


def explore_beyond(
    question: str | None = None, limit: int = 600, threshold: float = 0.5, lam: float = 0.7, high: int = 2000
) -> Explorer:
    """A question menu, a budget slider, and sliders for the filter's threshold and MMR's λ over beyond_view."""

    controls = {
        "question": _question_menu(question),
        "limit": _slider("budget (tokens)", limit, 50, high),
        "threshold": _float_slider("filter threshold (Jaccard)", threshold, 0.05, 1.0, 0.05),
        "lam": _float_slider("MMR λ", lam, 0.0, 1.0, 0.05),
    }
    return Explorer(beyond_view, controls)


def conversation_view(limit: int, policy: str = "drop turns", turns: int = 30) -> View:
    """Lesson 09's agent, `turns` turns, each request trimmed to `limit` Mistral v7 tokens by a named policy of
    packer.lab.conversation.POLICIES: what the last request keeps, and over the run, the prefix each request
    shares with the one before and what OpenAI's published rule would count as cached."""
    from packer.chat import mistral_chat
    from packer.clearing import PLACEHOLDER
    from packer.lab.agent_transcript import SEARCH_TOOL, agent_transcript
    from packer.lab.conversation import POLICIES, cache_steps, requests, searches, totals
    from packer.lab.conversation_plots import plot_steps
    from packer.messages import content_text
    from packer.summary import SUMMARY_INTRO

    def build() -> View:
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
        count = mistral_chat("v7", tools=[SEARCH_TOOL])
        sent = POLICIES[policy](requests(agent_transcript(turns)), limit, count)
        last, steps = sent[-1], cache_steps(sent)
        run, dropped = totals(steps), turns - searches(sent[-1])
        cleared = sum(m["role"] == "tool" and m["content"] == PLACEHOLDER for m in last)
        summary = next((content_text(m) for m in last if content_text(m).startswith(SUMMARY_INTRO)), "")
        lines = [
            f"policy: {policy}, limit {limit} Mistral v7 tokens (the whole request, with the search tool)",
            f"last request (turn {turns}): turns {dropped + 1}-{turns} kept ({turns - dropped} of {turns}), "
            f"{steps[-1].tokens} tokens, {cleared} tool results cleared",
        ]
        if summary:
            lines.append(f"summary of turns 1-{dropped}: {len(summary) - len(SUMMARY_INTRO)} characters")
        lines += [
            f"over the {turns} requests: {run.tokens} input tokens, {run.prefix} shared with the previous request "
            f"({run.prefix / run.tokens:.1%}), {run.cached} cached by OpenAI's rule before GPT-5.6 ({run.cached_share:.1%})",
            f"turns kept per request: {run.mean_turns:.1f} on average",
        ]
        return View("\n".join(lines), plot_steps(steps, limit, f"{policy}: each request, and what it shares"))

    return _guarded(build)


def explore_conversation(limit: int = 8192, policy: str = "drop turns", high: int = 20000) -> Explorer:
    """A budget slider and a policy menu over conversation_view."""
    from packer.lab.conversation import POLICIES

    controls = {
        "limit": _slider("budget (tokens)", limit, 1000, high),
        "policy": widgets.Dropdown(options=list(POLICIES), value=policy, description="policy"),
    }
    return Explorer(conversation_view, controls)
