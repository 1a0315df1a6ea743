"""The context-packing workbook's shared module: the packers and the counters they are measured with.

This top level holds the algorithms the lessons build, and nothing heavy: `import packer` loads no
widgets, plotting, notebook or test libraries. Beside it, one subpackage per audience, each importing
only downwards (grading -> checking -> core; lab -> core):

    packer.lab       what the lessons explore and draw with (traces, figures, widgets)
    packer.checking  the exercises' self-checks (engine, question bank, reference variants, generator)
    packer.grading   the instructor's grader (python -m packer.grading)
"""

from packer.chunks import assemble_context
from packer.caching import common_prefix_length, openai_cached_tokens
from packer.chat import mistral_chat, openai_chat
from packer.clearing import clear_then_drop, clear_tool_results
from packer.counters import COUNTERS, count_chars_div4, count_utf8_bytes, count_words
from packer.duplicates import drop_near_duplicates
from packer.history import History, group_turns, pack_history
from packer.mmr import mmr_order
from packer.ordering import ends_first, pack_ends_first
from packer.priority import Part, pack_parts
from packer.prompt import pack_prompt, render_prompt
from packer.request import build_request, pack_request
from packer.summary import pack_with_summary
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
    "History",
    "Part",
    "SectionCheck",
    "assemble_context",
    "build_prompt",
    "build_request",
    "check_sections",
    "clear_then_drop",
    "clear_tool_results",
    "common_prefix_length",
    "count_chars_div4",
    "count_utf8_bytes",
    "count_words",
    "drop_near_duplicates",
    "ends_first",
    "estimate_tokens",
    "format_plan",
    "group_turns",
    "mmr_order",
    "mistral_chat",
    "openai_cached_tokens",
    "openai_chat",
    "pack_ends_first",
    "pack_history",
    "pack_parts",
    "pack_prompt",
    "pack_request",
    "pack_utf8",
    "pack_with_summary",
    "plan_budget",
    "render_prompt",
]
