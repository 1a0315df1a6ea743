"""Lesson 04's write point: wrong answers typical of its step, as a learner would write them (see __init__.py)."""

from __future__ import annotations

LESSON = (  # what the lesson has defined by then: the estimate and the section order
    "ORDER = ('task', 'context', 'constraints', 'format', 'examples')\n\n\n"
    "def estimate(text):\n    return (len(text) + 3) // 4\n\n\n"
)
TAGS = "    if not all(key.upper() + ':' in prompt for key in ORDER):\n        return 'FAIL: section tag absent'\n"
MARKER = "    if 'KEY: VALUE' not in prompt:\n        return 'FAIL: parseable marker absent'\n"
BUDGET = "    if not 0 < estimate(prompt) <= budget:\n        return 'FAIL: total outside budget'\n"
PASS = "    return f'PASS: {len(ORDER)} sections assembled within {budget} token budget'\n"


def _check_prompt(*body: str) -> str:
    """A cell defining check_prompt(prompt, budget) from these lines, with the lesson's helpers above it."""
    return LESSON + "def check_prompt(prompt, budget):\n" + "".join(body)


WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "p4.4": [
        ("size before structure: the budget is checked first", _check_prompt(BUDGET, TAGS, MARKER, PASS)),
        ("the marker before the tags", _check_prompt(MARKER, TAGS, BUDGET, PASS)),
        (
            "refuses the exact fit (< for <=)",
            _check_prompt(
                TAGS,
                MARKER,
                "    if not 0 < estimate(prompt) < budget:\n        return 'FAIL: total outside budget'\n",
                PASS,
            ),
        ),
        (
            "looks for the section's name, not its tag line",
            _check_prompt(
                "    if not all(key.upper() in prompt for key in ORDER):\n        return 'FAIL: section tag absent'\n",
                MARKER,
                BUDGET,
                PASS,
            ),
        ),
        (
            "accepts the marker in any case",
            _check_prompt(
                TAGS,
                "    if 'key: value' not in prompt.lower():\n        return 'FAIL: parseable marker absent'\n",
                BUDGET,
                PASS,
            ),
        ),
        (
            "writes the FIFO example's budget into the PASS message",
            _check_prompt(TAGS, MARKER, BUDGET, "    return 'PASS: 5 sections assembled within 500 token budget'\n"),
        ),
        (
            "rounds the estimate down",
            _check_prompt(
                TAGS,
                MARKER,
                "    if not 0 < len(prompt) // 4 <= budget:\n        return 'FAIL: total outside budget'\n",
                PASS,
            ),
        ),
    ],
}
