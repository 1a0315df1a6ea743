"""The context-packing workbook's shared module: four packers and the counters they are measured with."""

from packer.chunks import assemble_context
from packer.counters import COUNTERS, count_chars_div4, count_utf8_bytes, count_words
from packer.prompt import pack_prompt, render_prompt
from packer.section_budget import (
    BudgetPlan,
    SectionCheck,
    build_prompt,
    check_sections,
    estimate_tokens,
    format_plan,
    plan_budget,
)
from packer.utf8 import pack_utf8

__all__ = [
    "COUNTERS",
    "BudgetPlan",
    "SectionCheck",
    "assemble_context",
    "build_prompt",
    "check_sections",
    "count_chars_div4",
    "count_utf8_bytes",
    "count_words",
    "estimate_tokens",
    "format_plan",
    "pack_prompt",
    "pack_utf8",
    "plan_budget",
    "render_prompt",
]
