"""The chars/4 planning estimate, a planning table and a PASS/FAIL check over five ordered prompt sections."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from packer.validation import require_count, require_str

SECTION_ORDER = ("task", "context", "constraints", "format", "examples")
PARSEABLE_MARKER = "KEY: VALUE"

FIFO_EXAMPLE = {
    "task": "Explain what the FIFO block does in two sentences.",
    "context": "8-deep FIFO, active-low reset, used between UART RX and core.",
    "constraints": "No generic advice. Name signals. Stay under 120 words.",
    "format": "Return lines as KEY: VALUE with keys FUNCTION, DEPTH, SIGNALS.",
    "examples": "Example input: full flag high. Example output: FUNCTION: backpressure.",
}

STATED_SECTION_CHARS = {"task": 160, "context": 640, "constraints": 320, "format": 160, "examples": 480}


def estimate_tokens(text: str) -> int:
    """Planning estimate: one token per four characters, rounded up (ceil(len / 4))."""
    return (len(require_str("text", text)) + 3) // 4


def _check_keys(sections: Any) -> None:
    """Refuse a non-mapping, unknown section names and non-str section texts."""
    if not isinstance(sections, Mapping):
        raise ValueError(f"sections must be a mapping of section name to text, got {type(sections).__name__}")
    for key, text in sections.items():
        if key not in SECTION_ORDER:
            raise ValueError(f"sections: unknown section {key!r}; expected names from {', '.join(SECTION_ORDER)}")
        require_str(f"sections[{key!r}]", text)


def build_prompt(sections: Mapping[str, str]) -> str:
    """Join the five sections in fixed order, each under an upper-case tag, separated by a blank line."""
    _check_keys(sections)
    missing = [key for key in SECTION_ORDER if key not in sections]
    if missing:
        raise ValueError(f"sections: missing {', '.join(repr(key) for key in missing)}")
    return "\n\n".join(f"{key.upper()}:\n{sections[key]}" for key in SECTION_ORDER)


@dataclass(frozen=True)
class SectionCheck:
    """Outcome of check_sections: ok flag, the one-line verdict, the prompt and its estimate."""

    ok: bool
    message: str
    total: int | None
    budget: int
    prompt: str | None

    @property
    def headroom(self) -> int | None:
        """Budget left after the assembled prompt's estimate (negative when over)."""
        return None if self.total is None else self.budget - self.total


def check_sections(sections: Mapping[str, str], budget: int = 500) -> SectionCheck:
    """Assemble the sections and run the four checks in order; the first failure decides the message."""
    _check_keys(sections)
    require_count("budget", budget)

    def fail(message: str, total: int | None = None, prompt: str | None = None) -> SectionCheck:
        return SectionCheck(False, f"FAIL: {message}", total, budget, prompt)

    if any(key not in sections or not sections[key].strip() for key in SECTION_ORDER):
        return fail("missing section text")
    prompt = build_prompt(sections)
    total = estimate_tokens(prompt)
    if any(f"{key.upper()}:" not in prompt for key in SECTION_ORDER):
        return fail("section tag absent", total, prompt)
    if PARSEABLE_MARKER not in prompt:
        return fail("parseable marker absent", total, prompt)
    if total <= 0 or total > budget:
        return fail("total outside budget", total, prompt)
    message = f"PASS: {len(SECTION_ORDER)} sections assembled within {budget} token budget"
    return SectionCheck(True, message, total, budget, prompt)


@dataclass(frozen=True)
class BudgetPlan:
    """A planning table: per-section chars and estimated tokens against a budget."""

    rows: tuple[tuple[str, int, int], ...]
    budget: int

    @property
    def total_chars(self) -> int:
        """Sum of the section sizes in characters."""
        return sum(chars for _, chars, _ in self.rows)

    @property
    def total_tokens(self) -> int:
        """Sum of the per-section token estimates."""
        return sum(tokens for _, _, tokens in self.rows)

    @property
    def headroom(self) -> int:
        """Budget minus the planned total (negative when the plan does not fit)."""
        return self.budget - self.total_tokens

    @property
    def headroom_share(self) -> float:
        """Headroom as a fraction of the budget."""
        return self.headroom / self.budget

    @property
    def fits(self) -> bool:
        """True when the planned total is within the budget."""
        return self.total_tokens <= self.budget

    @property
    def framing_chars(self) -> int:
        """Characters the assembled prompt adds to the section texts: a tag line per section, blank lines between."""
        return sum(len(f"{key.upper()}:\n") for key, _, _ in self.rows) + len("\n\n") * (len(self.rows) - 1)

    @property
    def assembled_chars(self) -> int:
        """Size of the prompt build_prompt would assemble from sections of the planned sizes."""
        return self.total_chars + self.framing_chars

    @property
    def assembled_tokens(self) -> int:
        """The chars/4 estimate of the assembled prompt, rounded up once: what the check would measure."""
        return (self.assembled_chars + 3) // 4

    @property
    def assembled_headroom(self) -> int:
        """Budget minus the assembled prompt's estimate (negative when over)."""
        return self.budget - self.assembled_tokens


def plan_budget(section_chars: Mapping[str, int], budget: int = 500) -> BudgetPlan:
    """Estimate each section's tokens from its size in characters (ceil(chars / 4)), in section order."""
    if not isinstance(section_chars, Mapping):
        raise ValueError(f"section_chars must be a mapping of section name to size, got {type(section_chars).__name__}")
    for key in section_chars:
        if key not in SECTION_ORDER:
            raise ValueError(f"section_chars: unknown section {key!r}; expected names from {', '.join(SECTION_ORDER)}")
    if type(budget) is not int or budget <= 0:
        raise ValueError(f"budget must be a positive int, got {budget!r}")
    rows = []
    for key in SECTION_ORDER:
        if key not in section_chars:
            raise ValueError(f"section_chars: missing {key!r}")
        chars = require_count(f"section_chars[{key!r}]", section_chars[key])
        rows.append((key, chars, (chars + 3) // 4))
    return BudgetPlan(tuple(rows), budget)


def _share(headroom: int, budget: int) -> str:
    """Headroom as a whole percent of the budget; a small deficit must not read as zero."""
    share = f"{headroom / budget:.0%}"
    return f"{headroom / budget:.1%}" if share == "-0%" else share


def format_plan(plan: BudgetPlan) -> str:
    """Render a BudgetPlan as a fixed-width text table: the sum of the section estimates and, beside it,
    the estimate of the assembled prompt (tags and blank lines included), each with its headroom."""
    lines = [f"{'section':<12}{'chars':>7}{'tokens':>8}"]
    lines += [f"{key:<12}{chars:>7}{tokens:>8}" for key, chars, tokens in plan.rows]
    lines.append(f"{'total':<12}{plan.total_chars:>7}{plan.total_tokens:>8}  sum of the sections")
    lines.append(
        f"{'assembled':<12}{plan.assembled_chars:>7}{plan.assembled_tokens:>8}  the prompt as sent "
        f"(+{plan.framing_chars} chars of tags and blank lines)"
    )
    width = max(len(str(plan.total_tokens)), len(str(plan.assembled_tokens)))
    for label, tokens, headroom in (
        ("sum of the sections", plan.total_tokens, plan.headroom),
        ("assembled prompt", plan.assembled_tokens, plan.assembled_headroom),
    ):
        verdict = "fits" if headroom >= 0 else "does not fit"
        lead = f"budget {plan.budget}: " if label.startswith("sum") else " " * len(f"budget {plan.budget}: ")
        lines.append(
            f"{lead}{label:<20}{tokens:>{width}}, headroom {headroom} tokens "
            f"({_share(headroom, plan.budget)}): {verdict}"
        )
    return "\n".join(lines)
