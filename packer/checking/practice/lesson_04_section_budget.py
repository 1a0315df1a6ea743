"""Lesson 04's practice points: the chars/4 estimate rounded up and what it is good for, why the sections have a
fixed tagged order, the checks on an assembled prompt and the message a broken prompt gets, and planning from the
assembled prompt.

Objectives (the lesson's list): 1 the chars/4 estimate, rounded up, what it is good for and where it misleads;
2 five tagged sections in a fixed order, and why that makes a prompt parseable and testable; 3 the four PASS/FAIL
checks, and which message a broken prompt gets; 4 reading a planning table and planning from the assembled prompt.
"""

from __future__ import annotations

from hypothesis import strategies as st

import packer.section_budget
from packer.checking.engine import Question
from packer.checking.practice.kinds import Choose, Option, Predict, Slip, Write
from packer.section_budget import FIFO_EXAMPLE, PARSEABLE_MARKER, SECTION_ORDER, STATED_SECTION_CHARS

ESTIMATED = ["", "FIFO", "UART RX", "日本語です", "🙂"]  # practice 4.1
FIFO_PROMPT = packer.section_budget.build_prompt(FIFO_EXAMPLE)
PARAGRAPH_FORMAT = {**FIFO_EXAMPLE, "format": "Answer in one short paragraph."}
BROKEN = [  # practice 4.5: (sections, budget), each broken in its own way
    (PARAGRAPH_FORMAT, 50),
    ({**FIFO_EXAMPLE, "format": "Answer in one paragraph.", "examples": "Reply as KEY: VALUE lines."}, 500),
    ({**FIFO_EXAMPLE, "context": "\n"}, 50),
]
PASS_500 = "PASS: 5 sections assembled within 500 token budget"


def _messages() -> tuple[str, ...]:
    return tuple(packer.section_budget.check_sections(sections, budget).message for sections, budget in BROKEN)


def _check_prompt(prompt: str, budget: int) -> str:
    """Checks 2-4 of the lesson on a prompt that is already assembled; the first failure decides."""
    if any(f"{key.upper()}:" not in prompt for key in SECTION_ORDER):
        return "FAIL: section tag absent"
    if PARSEABLE_MARKER not in prompt:
        return "FAIL: parseable marker absent"
    if not 0 < (len(prompt) + 3) // 4 <= budget:
        return "FAIL: total outside budget"
    return f"PASS: {len(SECTION_ORDER)} sections assembled within {budget} token budget"


def _edited(prompt: str, edit: int) -> str:
    """An assembled prompt as a hurried editor might leave it: as it was, a tag renamed, a tag's colon dropped, the
    marker in lower case, or the marker gone."""
    return [
        prompt,
        prompt.replace("CONSTRAINTS:\n", "Rules:\n"),
        prompt.replace("TASK:\n", "TASK\n"),
        prompt.replace(PARSEABLE_MARKER, PARSEABLE_MARKER.lower()),
        prompt.replace(PARSEABLE_MARKER, "KEY = VALUE"),
    ][edit]


SECTION_TEXT = st.one_of(
    st.text(alphabet="ab .:é日🙂\n", max_size=30),
    st.sampled_from(["Return KEY: VALUE lines.", "KEY: VALUE", "key: value", "TASK:", "日本 KEY: VALUE"]),
)
PROMPTS = st.builds(
    _edited,
    st.fixed_dictionaries({key: SECTION_TEXT for key in SECTION_ORDER}).map(packer.section_budget.build_prompt),
    st.integers(0, 4),
)


def _largest_context(assembled: bool) -> int:
    """The most characters of context the stated plan takes within 500 tokens: by the assembled prompt, or by the
    sum of the sections."""

    def fits(chars: int) -> bool:
        plan = packer.section_budget.plan_budget({**STATED_SECTION_CHARS, "context": chars}, 500)
        return plan.assembled_tokens <= plan.budget if assembled else plan.fits

    return max(chars for chars in range(0, 2001) if fits(chars))


POINTS = [
    Predict(
        "p4.1",
        1,
        'the chars/4 estimates of "", "FIFO", "UART RX", "日本語です" and "🙂"',
        result=lambda: tuple(packer.section_budget.estimate_tokens(text) for text in ESTIMATED),
        answer_type=tuple[int, int, int, int, int],
        misconceptions=(
            ((0, 1, 1, 1, 0), "that is rounding down: any remainder, and every text under four characters, goes free"),
            ((1, 1, 2, 2, 1), "work (n + 3) // 4 out for n = 0: rounding up adds nothing to an exact multiple of four"),
            ((0, 1, 2, 4, 1), "chars/4 counts characters (len), not UTF-8 bytes"),
            ((0, 1, 2, 4, 4), "chars/4 counts characters (len), not UTF-8 bytes"),
        ),
    ),
    Choose(
        "p4.2",
        1,
        "how chars/4 takes part when a prompt must never exceed a known model's token limit",
        options=(
            Option(
                "A",
                "Plan the sections with chars/4 and some headroom; enforce the limit with the model's own tokenizer.",
                "an estimate is for planning; a hard limit needs the count of the model's own tokenizer (lesson 02 "
                "passes one in as a counter)",
                right=True,
            ),
            Option(
                "B",
                "Reject any prompt whose chars/4 estimate is over the limit, and send every other one.",
                "the belief that the estimate is close enough to enforce with: it can be far below the real count "
                "(the Japanese sentence: 4 estimated, 16 in cl100k_base), so a prompt under the estimate can still "
                "be over",
            ),
            Option(
                "C",
                "Enforce the limit with chars/4 and a 10% safety margin, since the estimate errs on the high side.",
                "the belief that chars/4 errs high: it errs both ways, the run of '=' high (10 against 2) but the "
                "Japanese sentence at a quarter of its real count, far beyond a 10% margin",
            ),
            Option(
                "D",
                "Divide the UTF-8 bytes by four instead of the characters, since tokenizers work on bytes.",
                "the belief that bytes make the estimate exact: it still errs, the emoji row is 16 bytes, 4 by "
                "bytes/4, and 8 tokens in cl100k_base; the run of '=' is 10 by bytes/4 and 2 tokens",
            ),
        ),
    ),
    Choose(
        "p4.3",
        2,
        "what goes wrong when a builder joins the sections in the dictionary's own order",
        options=(
            Option(
                "A",
                "Nothing: Python dictionaries keep insertion order, so the prompt is the same.",
                "the belief that insertion order is the template's order: it is the caller's, and a caller who lists "
                "the sections backwards gets a backwards prompt (the cell above made such a dictionary)",
            ),
            Option(
                "B",
                "Some tags are lost on the way, so the prompt can no longer be split into sections.",
                "the belief that the order carries the tags: they come from the keys, in whatever order they are "
                "walked, and the parser splits at them as before",
            ),
            Option(
                "C",
                "The chars/4 estimate changes, so the sections no longer fit their budgets.",
                "the belief that order changes length: the same sections, tags and separators in another order give "
                "the same estimate",
            ),
            Option(
                "D",
                "The prompt follows each caller's key order, so equal sections can give unequal prompts.",
                "the fixed order is what makes the shape the same on every call, whoever built the dictionary",
                right=True,
            ),
        ),
    ),
    Write(
        "p4.4",
        3,
        "check_prompt(prompt, budget): checks 2-4 on an assembled prompt, the first failure deciding",
        question=Question(
            "p4.4",
            "check_prompt",
            1,
            "checks 2-4 on an assembled prompt: tags, then the marker, then the estimate against the budget",
            _check_prompt,
            cases=(
                (FIFO_PROMPT, 500),
                (FIFO_PROMPT, 88),
                (FIFO_PROMPT, 87),
                (FIFO_PROMPT + "\n", 88),  # 352 characters: 88 units, rounded up from exactly 88
                (FIFO_PROMPT + "\n\n", 88),  # 353 characters: 89 units, a quarter over 88 rounds up
                (FIFO_PROMPT + "\n" * 4, 89),  # 355 characters: 89 units (88.75 up), not 90
                (FIFO_PROMPT.replace("CONSTRAINTS:\n", "Rules:\n"), 500),
                (packer.section_budget.build_prompt(PARAGRAPH_FORMAT), 500),
                (packer.section_budget.build_prompt(PARAGRAPH_FORMAT), 10),
                (FIFO_PROMPT.replace("TASK:\n", "TASK\n"), 500),
                (FIFO_PROMPT.replace(PARSEABLE_MARKER, PARSEABLE_MARKER.lower()), 500),
                ("", 500),
            ),
            inputs=st.tuples(PROMPTS, st.one_of(st.just(0), st.integers(0, 80))),
        ),
        hint="compare with the four checks listed above: which comes first, exactly what each looks for, and whether "
        "the budget itself passes",
        slips=(
            Slip(
                "the estimate is chars/4 rounded up, (len(prompt) + 3) // 4, and an estimate equal to the budget passes",
                cases=(2, 3, 4, 5, 6),
            ),
            Slip("a tag is its name in capitals with its colon: 'TASK' alone is not the tag 'TASK:'", cases=(10,)),
            Slip("the marker is 'KEY: VALUE' exactly as written, capitals and all", cases=(11,)),
            Slip("the first check that fails decides: the tags, then the marker, then the budget", cases=(9,)),
        ),
    ),
    Predict(
        "p4.5",
        3,
        "the messages check_sections gives three broken variants of the FIFO example",
        result=_messages,
        answer_type=tuple[str, str, str],
        misconceptions=(
            (
                ("FAIL: total outside budget", PASS_500, "FAIL: missing section text"),
                "structure comes before size: a prompt with a structural fault gets that message at any budget",
            ),
            (
                ("FAIL: parseable marker absent", "FAIL: parseable marker absent", "FAIL: missing section text"),
                "the marker check searches the whole assembled prompt, not only the format section",
            ),
            (
                ("FAIL: parseable marker absent", PASS_500, "FAIL: total outside budget"),
                "a blank section is a hole in the structure: check 1 looks for it before any size is measured",
            ),
        ),
    ),
    Predict(
        "p4.6",
        4,
        "the most characters of context the stated plan takes within 500 tokens: assembled prompt, then the sum",
        result=lambda: (_largest_context(assembled=True), _largest_context(assembled=False)),
        answer_type=tuple[int, int],
        misconceptions=(
            (
                (880, 880),
                "that plans from the sum of the sections: the prompt as sent also carries 54 characters of tags and "
                "blank lines",
            ),
            (
                (824, 880),
                "headroom × 4 misses the rounding: the assembled prompt's characters were rounded up to whole tokens, "
                "so part of its last token is still free",
            ),
            ((686, 700), "headroom is counted in tokens, and one chars/4 token is four characters"),
        ),
    ),
]
