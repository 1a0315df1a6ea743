"""Lesson 00's practice points: one of each kind, to show how a practice point asks and how its feedback reads.

Objectives (the lesson's list): 1 where a packer sits and what it decides; 2 which packer fits a given budget;
3 finding your way around lessons, exercises, self-checks and solutions; 4 the environment runs.
"""

from __future__ import annotations

from hypothesis import strategies as st

import packer.chunks
from packer.checking.engine import Question
from packer.checking.practice.kinds import Choose, Option, Predict, Slip, Write

CHUNKS = [  # the lesson's four ranked chunks ("A first taste")
    {"text": "alpha", "token_count": 40},
    {"text": "bravo", "token_count": 30},
    {"text": "charlie", "token_count": 50},
    {"text": "delta", "token_count": 20},
]


def _total_tokens(chunks: list[dict]) -> int:
    return sum(chunk["token_count"] for chunk in chunks)


CHUNK = st.fixed_dictionaries({"text": st.text(alphabet="ab é", max_size=6), "token_count": st.integers(0, 60)})

POINTS = [
    Predict(
        "p0.1",
        1,
        "what assemble_context keeps of the four chunks with a budget of 60",
        result=lambda: packer.chunks.assemble_context(CHUNKS, max_tokens=60),
        answer_type=tuple[str, int],
        misconceptions=(
            (
                ("alpha", 40),
                "that is what a packer gives that stops at the first chunk that does not fit; this one skips it "
                "and tries the smaller ones behind it",
            ),
        ),
    ),
    Write(
        "p0.2",
        3,
        "total_tokens(chunks): the sum of the chunks' token counts",
        question=Question(
            "p0.2",
            "total_tokens",
            1,
            "the sum of the chunks' token_count values",
            _total_tokens,
            cases=(
                (CHUNKS,),
                ([],),
                ([{"text": "a long text", "token_count": 1}],),
                ([{"text": "", "token_count": 7}, {"text": "x", "token_count": 0}],),
            ),
            inputs=st.tuples(st.lists(CHUNK, max_size=6)),
        ),
        hint="a chunk's cost is its token_count, whatever its text looks like",
        slips=(
            Slip(
                "a chunk's cost is its token_count, not the words of its text",
                wrong=lambda chunks: sum(len(chunk["text"].split()) for chunk in chunks),
            ),
        ),
    ),
    Choose(
        "p0.3",
        2,
        "which packer fits a message queue that refuses messages over 256 KiB",
        options=(
            Option(
                "A",
                "assemble_context, with token counts measured in advance",
                "the misconception that a token count measures bytes: one token can be one byte or many",
            ),
            Option(
                "B",
                "pack_prompt, measuring the whole prompt with count_words",
                "words are not bytes either: 'café' is one word and five bytes",
            ),
            Option(
                "C",
                "pack_utf8, with the exact UTF-8 bytes and a reserve for the framing",
                "the limit is in bytes, so the packer must count exactly those bytes (lesson 03)",
                right=True,
            ),
            Option(
                "D",
                "check_sections, with its chars/4 estimate of each section",
                "the misconception that an estimate can keep a hard limit: chars/4 is made for planning and can be "
                "over or under; a byte limit needs the exact bytes",
            ),
        ),
    ),
]
