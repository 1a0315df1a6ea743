"""The exercise question bank: BANK, every exercise's questions in exercise order, and the references an
answer may not borrow.

Each exercise's questions live in a module of their own, named after its lesson, beside its notebook:
packer.checking.questions_01_assemble_context ... questions_09_conversation, each holding that exercise's
questions (`QUESTIONS`), fixed cases, generated inputs and reference answers; the input generators several
exercises share are in packer.checking.questions_shared. This module only assembles them. The names the
exercises' setup cells import from here (`from packer.checking.bank import EXAMPLE, PREDICT_CHUNKS`) are
imported back from their modules, so notebooks saved before the split still run.
"""

from __future__ import annotations

import types

import packer.chat
import packer.chunks
import packer.duplicates
import packer.mmr
import packer.ordering
import packer.priority
import packer.prompt
import packer.request
import packer.section_budget
import packer.utf8
import packer.validation
from packer.checking import (
    questions_01_assemble_context,
    questions_02_prompt_packer,
    questions_03_utf8_packer,
    questions_04_section_budget,
    questions_05_counting_units,
    questions_06_policies,
    questions_07_whole_request,
    questions_08_beyond_greedy,
    questions_09_conversation,
    units,
    variants,
)
from packer.checking.engine import Question, forbid, plain
from packer.checking.questions_01_assemble_context import EXAMPLE as EXAMPLE
from packer.checking.questions_01_assemble_context import PREDICT_CHUNKS as PREDICT_CHUNKS
from packer.checking.questions_02_prompt_packer import PREDICT_LIMIT as PREDICT_LIMIT
from packer.checking.questions_02_prompt_packer import PREDICT_PASSAGES as PREDICT_PASSAGES
from packer.checking.questions_02_prompt_packer import PREDICT_QUESTION as PREDICT_QUESTION
from packer.checking.questions_02_prompt_packer import _predict_q2_4 as _predict_q2_4
from packer.checking.questions_03_utf8_packer import PREDICT_UTF8 as PREDICT_UTF8
from packer.checking.questions_04_section_budget import PREDICT_SECTIONS as PREDICT_SECTIONS
from packer.checking.questions_04_section_budget import section_result
from packer.checking.questions_05_counting_units import PREDICT_UNITS as PREDICT_UNITS
from packer.checking.questions_06_policies import PREDICT_POLICY as PREDICT_POLICY
from packer.checking.questions_06_policies import PREDICT_ROOM as PREDICT_ROOM
from packer.checking.questions_07_whole_request import JOINED as JOINED
from packer.checking.questions_07_whole_request import PREDICT_PIECES as PREDICT_PIECES
from packer.checking.questions_07_whole_request import PREDICT_SYSTEM as PREDICT_SYSTEM
from packer.checking.questions_07_whole_request import PREDICT_USER as PREDICT_USER
from packer.checking.questions_07_whole_request import SMALL_PIECES as SMALL_PIECES
from packer.checking.questions_07_whole_request import SMALL_REQUEST as SMALL_REQUEST
from packer.checking.questions_07_whole_request import _predict_q7_4 as _predict_q7_4
from packer.checking.questions_08_beyond_greedy import PREDICT_PARTS as PREDICT_PARTS
from packer.checking.questions_08_beyond_greedy import PREDICT_PARTS_LIMIT as PREDICT_PARTS_LIMIT
from packer.counters import count_chars_div4

QUESTION_MODULES = (  # one per exercise, in exercise order
    questions_01_assemble_context,
    questions_02_prompt_packer,
    questions_03_utf8_packer,
    questions_04_section_budget,
    questions_05_counting_units,
    questions_06_policies,
    questions_07_whole_request,
    questions_08_beyond_greedy,
    questions_09_conversation,
)
# The lessons with an exercise, by slug ('01_assemble_context'): each question module is named after its lesson.
LESSONS = tuple(module.__name__.rpartition(".")[2].removeprefix("questions_") for module in QUESTION_MODULES)
BANK: dict[str, Question] = {}  # question id -> Question, in exercise order, each exercise's in its own order


def register(question: Question) -> Question:
    """Add a question to the bank (ids are unique)."""
    if question.qid in BANK:
        raise ValueError(f"question {question.qid!r} registered twice")
    BANK[question.qid] = question
    return question


for _module in QUESTION_MODULES:
    for _question in _module.QUESTIONS:
        register(_question)
del _module, _question

# Answers may not be, or call, the reference implementations or their building blocks. (The lessons'
# traces in packer.lab call these same functions, so an answer that calls a trace is caught as it runs.)
for module in (
    packer.chunks,
    packer.prompt,
    packer.utf8,
    packer.section_budget,
    packer.validation,
    packer.request,
    packer.chat,
    packer.ordering,
    packer.duplicates,
    packer.mmr,
    packer.priority,
    *questions_09_conversation.REFERENCE_MODULES,
    variants,
    units,
):
    forbid(
        *[
            value
            for name, value in vars(module).items()
            if callable(value) and not isinstance(value, type) and getattr(value, "__module__", "") == module.__name__
        ]
    )
forbid(count_chars_div4)  # watched, except while it runs as a counter an answer was given
forbid(*[question.reference for question in BANK.values()])  # the predictions' references too
forbid(
    *[
        value
        for module in QUESTION_MODULES
        for value in list(vars(module).values())
        if isinstance(value, types.FunctionType)
        and value.__module__ == module.__name__
        and value.__name__.startswith("_predict")
    ]
)
__all__ = ["BANK", "LESSONS", "plain", "section_result"]
