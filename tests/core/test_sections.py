"""The chars/4 section budget: estimate_tokens, build_prompt, check_sections, plan_budget and the CLI."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from packer import build_prompt, check_sections, estimate_tokens, format_plan, plan_budget
from packer.section_budget import FIFO_EXAMPLE, STATED_SECTION_CHARS

REPO_ROOT = Path(__file__).resolve().parents[2]
ORDER = ("task", "context", "constraints", "format", "examples")
PASS_500 = "PASS: 5 sections assembled within 500 token budget"


def with_section(key, text):
    sections = dict(FIFO_EXAMPLE)
    sections[key] = text
    return sections


def without_section(key):
    return {k: v for k, v in FIFO_EXAMPLE.items() if k != key}


# --- estimate_tokens ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, tokens",
    [("", 0), ("a", 1), ("abcd", 1), ("abcde", 2), ("abcdefgh", 2), ("abcdefghi", 3), ("é日🙂!", 1)],
    ids=["empty", "one-char", "four-chars", "five-chars-rounds-up", "eight-chars", "nine-chars", "counts-characters"],
)
def test_estimate_tokens_is_characters_over_four_rounded_up(text, tokens):
    assert estimate_tokens(text) == tokens


@pytest.mark.parametrize("text", [None, 12, b"abcd", ["abcd"]], ids=["none", "int", "bytes", "list"])
def test_estimate_tokens_rejects_non_str(text):
    with pytest.raises(ValueError):
        estimate_tokens(text)


# --- build_prompt ------------------------------------------------------------------------------


def test_build_prompt_tags_sections_and_joins_them_in_fixed_order():
    expected = "\n\n".join(f"{key.upper()}:\n{FIFO_EXAMPLE[key]}" for key in ORDER)
    assert build_prompt(FIFO_EXAMPLE) == expected


def test_build_prompt_order_does_not_depend_on_mapping_order():
    shuffled = {key: FIFO_EXAMPLE[key] for key in reversed(ORDER)}
    assert build_prompt(shuffled) == build_prompt(FIFO_EXAMPLE)


def test_build_prompt_starts_with_the_task_and_ends_with_the_examples():
    prompt = build_prompt(FIFO_EXAMPLE)
    assert prompt.startswith("TASK:\nExplain what the FIFO block does")
    assert prompt.endswith("EXAMPLES:\n" + FIFO_EXAMPLE["examples"])
    tags = ["TASK:\n", "CONTEXT:\n", "CONSTRAINTS:\n", "FORMAT:\n", "EXAMPLES:\n"]
    positions = [prompt.index(tag) for tag in tags]
    assert positions == sorted(positions)


@pytest.mark.parametrize("key", ORDER)
def test_build_prompt_rejects_a_missing_section(key):
    with pytest.raises(ValueError, match=key):
        build_prompt(without_section(key))


def test_build_prompt_rejects_an_unknown_section():
    with pytest.raises(ValueError, match="summary"):
        build_prompt({**FIFO_EXAMPLE, "summary": "extra"})


@pytest.mark.parametrize("text", [None, 3, b"bytes"], ids=["none", "int", "bytes"])
def test_build_prompt_rejects_non_str_section_text(text):
    with pytest.raises(ValueError, match="context"):
        build_prompt(with_section("context", text))


def test_build_prompt_rejects_a_non_mapping():
    with pytest.raises(ValueError, match="sections"):
        build_prompt([("task", "x")])


# --- check_sections ----------------------------------------------------------------------------


def test_fifo_example_passes_with_the_default_budget():
    result = check_sections(FIFO_EXAMPLE)
    assert result.ok is True
    assert result.message == PASS_500


def test_fifo_example_total_is_the_estimate_of_the_assembled_prompt():
    result = check_sections(FIFO_EXAMPLE)
    assert result.total == 88
    assert result.prompt == build_prompt(FIFO_EXAMPLE)
    assert result.total == estimate_tokens(build_prompt(FIFO_EXAMPLE))


def test_fifo_example_total_is_not_the_sum_of_section_estimates():
    # Tags and blank-line separators are part of the prompt: 77 for the bare sections, 88 assembled.
    assert sum(estimate_tokens(FIFO_EXAMPLE[key]) for key in ORDER) == 77
    assert check_sections(FIFO_EXAMPLE).total == 88


def test_a_check_result_is_immutable():
    result = check_sections(FIFO_EXAMPLE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.ok = False


def test_missing_text_fails_before_assembly_so_there_is_no_prompt_total_or_headroom():
    result = check_sections(without_section("task"))
    assert (result.prompt, result.total, result.headroom) == (None, None, None)


def test_a_failed_check_still_reports_its_prompt_total_and_headroom():
    result = check_sections(FIFO_EXAMPLE, 80)
    assert (result.prompt, result.total, result.headroom) == (build_prompt(FIFO_EXAMPLE), 88, -8)


def test_fifo_example_headroom_is_budget_minus_total():
    assert check_sections(FIFO_EXAMPLE).headroom == 500 - 88


def test_budget_appears_in_the_pass_message():
    assert check_sections(FIFO_EXAMPLE, 1000).message == "PASS: 5 sections assembled within 1000 token budget"


def test_budget_equal_to_the_total_passes():
    result = check_sections(FIFO_EXAMPLE, 88)
    assert result.ok is True
    assert result.message == "PASS: 5 sections assembled within 88 token budget"


def test_budget_one_below_the_total_fails():
    result = check_sections(FIFO_EXAMPLE, 87)
    assert result.ok is False
    assert result.message == "FAIL: total outside budget"
    assert result.total == 88


def test_budget_between_section_sum_and_total_fails():
    # Summing the sections (77) would wrongly pass a budget of 80.
    assert check_sections(FIFO_EXAMPLE, 80).message == "FAIL: total outside budget"


def test_zero_budget_fails():
    assert check_sections(FIFO_EXAMPLE, 0).message == "FAIL: total outside budget"


@pytest.mark.parametrize("key", ORDER)
@pytest.mark.parametrize("text", ["", "   ", "\n\t "], ids=["empty", "spaces", "whitespace-mix"])
def test_blank_section_fails_as_missing_text(key, text):
    result = check_sections(with_section(key, text))
    assert result.ok is False
    assert result.message == "FAIL: missing section text"


@pytest.mark.parametrize("key", ORDER)
def test_absent_section_fails_as_missing_text(key):
    result = check_sections(without_section(key))
    assert result.ok is False
    assert result.message == "FAIL: missing section text"


def test_missing_text_is_reported_before_the_budget():
    assert check_sections(with_section("task", " "), 0).message == "FAIL: missing section text"


def test_format_without_the_parseable_marker_fails():
    result = check_sections(with_section("format", "Return a short paragraph."))
    assert result.ok is False
    assert result.message == "FAIL: parseable marker absent"


def test_parseable_marker_is_reported_before_the_budget():
    result = check_sections(with_section("format", "Return a short paragraph."), 1)
    assert result.message == "FAIL: parseable marker absent"


def test_parseable_marker_in_another_section_is_accepted():
    sections = with_section("format", "Plain prose.")
    sections["examples"] = "Answer as KEY: VALUE lines."
    assert check_sections(sections).ok is True


@pytest.mark.parametrize(
    "budget", [-1, True, False, 500.0, "500", None], ids=["negative", "true", "false", "float", "str", "none"]
)
def test_invalid_budget_is_rejected(budget):
    with pytest.raises(ValueError, match="budget"):
        check_sections(FIFO_EXAMPLE, budget)


def test_check_sections_rejects_an_unknown_section():
    with pytest.raises(ValueError, match="unknown"):
        check_sections({**FIFO_EXAMPLE, "notes": "x"})


def test_check_sections_rejects_non_str_section_text():
    with pytest.raises(ValueError, match="examples"):
        check_sections(with_section("examples", 7))


# --- plan_budget / format_plan -----------------------------------------------------------------


SEED_TABLE = """\
section       chars  tokens
task            160      40
context         640     160
constraints     320      80
format          160      40
examples        480     120
total          1760     440  sum of the sections
assembled      1814     454  the prompt as sent (+54 chars of tags and blank lines)
budget 500: sum of the sections 440, headroom 60 tokens (12%): fits
            assembled prompt    454, headroom 46 tokens (9%): fits"""


def test_plan_budget_defaults_to_the_seed_budget_of_500_tokens():
    plan = plan_budget(STATED_SECTION_CHARS)
    assert plan.budget == 500
    assert plan.headroom == 60


def test_plan_budget_accepts_one_token_as_the_smallest_budget():
    plan = plan_budget(STATED_SECTION_CHARS, 1)
    assert plan.budget == 1
    assert plan.fits is False


def test_a_plan_is_immutable():
    plan = plan_budget(STATED_SECTION_CHARS, 500)
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.budget = 1000


def test_format_plan_prints_the_seed_table():
    assert format_plan(plan_budget(STATED_SECTION_CHARS, 500)) == SEED_TABLE


def test_the_assembled_estimate_rounds_the_whole_prompt_up_once():
    # 1 + 2 + 3 + 4 + 5 = 15 characters of text and 54 of tags and blank lines: 69 characters, 18 tokens,
    # where the five sections rounded up one by one sum to 6.
    plan = plan_budget({"task": 1, "context": 2, "constraints": 3, "format": 4, "examples": 5})
    assert (plan.total_tokens, plan.assembled_chars, plan.assembled_tokens, plan.assembled_headroom) == (6, 69, 18, 482)


def test_format_plan_says_a_plan_exactly_at_the_budget_fits():
    at_sum = format_plan(plan_budget(STATED_SECTION_CHARS, 440)).splitlines()
    assert at_sum[-2] == "budget 440: sum of the sections 440, headroom 0 tokens (0%): fits"
    at_assembled = format_plan(plan_budget(STATED_SECTION_CHARS, 454)).splitlines()
    assert at_assembled[-1] == "            assembled prompt    454, headroom 0 tokens (0%): fits"


def test_format_plan_says_a_plan_over_the_budget_does_not_fit():
    table = format_plan(plan_budget(STATED_SECTION_CHARS, 400)).splitlines()
    assert table[-2] == "budget 400: sum of the sections 440, headroom -40 tokens (-10%): does not fit"
    assert table[-1] == "            assembled prompt    454, headroom -54 tokens (-14%): does not fit"
    one_short = format_plan(plan_budget(STATED_SECTION_CHARS, 453)).splitlines()
    assert one_short[-2].endswith(": fits") and one_short[-1].endswith(": does not fit")


def test_format_plan_shows_a_small_deficit_with_a_decimal_rather_than_as_zero():
    # -1 / 439 is -0.23%: rounded to a whole percent it would read "-0%", as if nothing were missing.
    assert format_plan(plan_budget(STATED_SECTION_CHARS, 439)).splitlines()[-2] == (
        "budget 439: sum of the sections 440, headroom -1 tokens (-0.2%): does not fit"
    )


def test_plan_estimates_each_stated_section():
    plan = plan_budget(STATED_SECTION_CHARS, 500)
    assert [(key, tokens) for key, _, tokens in plan.rows] == [
        ("task", 40),
        ("context", 160),
        ("constraints", 80),
        ("format", 40),
        ("examples", 120),
    ]


def test_plan_totals_headroom_and_fit():
    plan = plan_budget(STATED_SECTION_CHARS, 500)
    assert plan.total_chars == 1760
    assert plan.total_tokens == 440
    assert plan.headroom == 60
    assert plan.headroom_share == 0.12
    assert plan.fits is True


def test_plan_rows_follow_section_order_whatever_the_mapping_order():
    shuffled = {key: STATED_SECTION_CHARS[key] for key in reversed(ORDER)}
    assert [key for key, _, _ in plan_budget(shuffled, 500).rows] == list(ORDER)


def test_plan_rounds_each_section_up():
    plan = plan_budget({"task": 1, "context": 4, "constraints": 5, "format": 0, "examples": 7}, 10)
    assert [tokens for _, _, tokens in plan.rows] == [1, 1, 2, 0, 2]


def test_plan_over_budget_does_not_fit_and_has_negative_headroom():
    plan = plan_budget(STATED_SECTION_CHARS, 400)
    assert plan.fits is False
    assert plan.headroom == -40


def test_plan_exactly_at_budget_fits():
    assert plan_budget(STATED_SECTION_CHARS, 440).fits is True


def test_format_plan_reports_total_headroom_and_share():
    table = format_plan(plan_budget(STATED_SECTION_CHARS, 500))
    assert "440" in table
    assert "60" in table
    assert "12%" in table
    assert "1760" in table


def test_format_plan_lists_every_section_with_its_tokens():
    lines = format_plan(plan_budget(STATED_SECTION_CHARS, 500)).splitlines()
    for key, tokens in [("task", 40), ("context", 160), ("constraints", 80), ("format", 40), ("examples", 120)]:
        assert any(line.split()[:1] == [key] and line.split()[-1] == str(tokens) for line in lines), key


@pytest.mark.parametrize(
    "section_chars, budget, message",
    [
        pytest.param(STATED_SECTION_CHARS, 0, "budget", id="zero-budget"),
        pytest.param(STATED_SECTION_CHARS, -5, "budget", id="negative-budget"),
        pytest.param(STATED_SECTION_CHARS, True, "budget", id="bool-budget"),
        pytest.param(STATED_SECTION_CHARS, 500.0, "budget", id="float-budget"),
        pytest.param({**STATED_SECTION_CHARS, "notes": 10}, 500, "notes", id="unknown-section"),
        pytest.param(
            {k: v for k, v in STATED_SECTION_CHARS.items() if k != "format"}, 500, "format", id="missing-section"
        ),
        pytest.param({**STATED_SECTION_CHARS, "task": -1}, 500, "task", id="negative-chars"),
        pytest.param({**STATED_SECTION_CHARS, "task": 1.5}, 500, "task", id="float-chars"),
        pytest.param({**STATED_SECTION_CHARS, "task": True}, 500, "task", id="bool-chars"),
        pytest.param([("task", 160)], 500, "section_chars", id="not-a-mapping"),
    ],
)
def test_plan_budget_rejects_invalid_input(section_chars, budget, message):
    with pytest.raises(ValueError, match=message):
        plan_budget(section_chars, budget)


def test_plan_budget_says_section_chars_must_be_a_mapping():
    with pytest.raises(ValueError, match="section_chars must be a mapping of section name to size, got list"):
        plan_budget([("task", 160)], 500)


# --- command line ------------------------------------------------------------------------------


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "packer.sections", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_prints_the_pass_line_and_exits_zero():
    completed = run_cli()
    assert completed.stdout == PASS_500 + "\n"
    assert completed.returncode == 0


def test_cli_writes_nothing_to_stderr():
    # In particular no RuntimeWarning about packer.sections being imported before it runs.
    completed = run_cli()
    assert "RuntimeWarning" not in completed.stderr
    assert completed.stderr == ""


def test_cli_budget_below_the_total_fails_with_exit_one():
    completed = run_cli("--budget", "80")
    assert completed.stdout == "FAIL: total outside budget\n"
    assert completed.returncode == 1


def test_cli_accepts_a_zero_budget_and_reports_the_prompt_outside_it():
    completed = run_cli("--budget", "0")
    assert completed.stdout == "FAIL: total outside budget\n"
    assert completed.returncode == 1


def test_cli_budget_option_appears_in_the_pass_line():
    completed = run_cli("--budget", "88")
    assert completed.stdout == "PASS: 5 sections assembled within 88 token budget\n"
    assert completed.returncode == 0


def test_cli_refuses_a_negative_budget_as_a_usage_error():
    run = subprocess.run(
        [sys.executable, "-m", "packer.sections", "--budget", "-1"], capture_output=True, text=True, cwd=REPO_ROOT
    )
    assert run.returncode == 2 and "--budget must be a non-negative int" in run.stderr
