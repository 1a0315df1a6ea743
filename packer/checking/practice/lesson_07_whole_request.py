"""Lesson 07's practice points: what a chat request costs beyond its prompt, and how a whole-request budget splits.

Objectives (the lesson's list): 1 one conversation in Mistral's v1, v2, v3 and v7 templates, where each puts the
system prompt, what each costs; 2 the OpenAI cookbook's chat-token estimate, and why it is an estimate; 3 what a
tool definition adds to a request; 4 more SentencePiece tokens than UTF-8 bytes, and why tokens <= bytes holds
for byte-level BPE only; 5 a JSON body's bytes with and without ensure_ascii, packed exactly in linear time;
6 pack_request leaving max_output free, and the window split into measured parts.

The points ask about the packing ideas (where a template puts what, what a counter charges to every request,
what a reserve takes from the passages, how measured parts add up), not about how a message is written down.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from packer.chat import mistral_chat, openai_chat
from packer.checking.engine import Question
from packer.checking.practice.kinds import Choose, Option, Predict, Slip, Write
from packer.request import build_request
from packer.validation import Passage

# Lesson 07's café request (packer.lab.request_budget's, copied: checking never imports the lab; a test keeps
# the two the same).
QUESTION = "When does the café near Kyoto station open on Saturdays?"
SYSTEM = "Answer only from the sources and cite their ids in brackets."
PASSAGES: list[Passage] = [
    ("hours", "Opening hours: Monday to Friday 07:00–19:00, Saturday 08:00–14:00, closed on Sunday."),
    ("menu-fr", "Le café du coin sert un crème brûlée fait maison et du thé vert à 4,50 €."),
    ("menu-ja", "京都駅の近くの喫茶店は土曜日の朝八時に開きます。抹茶ラテが人気です。"),
    ("review", "Great coffee ☕ and friendly staff 😀, but the Wi-Fi is slow on weekends."),
    ("allergens", "Allergens:\n- milk\n- tree nuts\n- gluten"),
    ("history", "The café opened in 2009 in a former kimono shop; the counter is the shop's original cedar table."),
]
SEARCH_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "search_sources",
        "description": "Search the shop's documents for a passage.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "What to look for."}},
            "required": ["query"],
        },
    },
}

# The lesson's `chat` and `conversation`: a system prompt and one user turn, then an answer and a second question.
CHAT = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Where is Kyoto?"}]
CONVERSATION = [*CHAT, {"role": "assistant", "content": "In Japan."}, {"role": "user", "content": "And Osaka?"}]
# Practice 7.4: what a user turn of two line breaks, and one of a character outside the vocabulary, add to an
# empty user turn under v7 (the texts and their UTF-8 bytes: 2 and 4).
BEYOND_BYTES = ("\n\n", "𝔘")


def _cookbook_estimate() -> int:
    """The cookbook's rule on `conversation`, over cl100k_base (packer.chat.openai_chat)."""
    return openai_chat("cl100k_base")(CONVERSATION)


def _with_the_tool() -> tuple[int, int]:
    """What `conversation` and the café request measure under v7 with the search tool."""
    count = mistral_chat("v7", tools=[SEARCH_TOOL])
    return count(CONVERSATION), count(build_request(QUESTION, PASSAGES, system=SYSTEM))


def _beyond_bytes() -> tuple[int, ...]:
    """The tokens each text of BEYOND_BYTES adds to an empty user turn under v7."""
    count = mistral_chat("v7")
    empty = count([{"role": "user", "content": ""}])
    return tuple(count([{"role": "user", "content": text}]) - empty for text in BEYOND_BYTES)


def _json_string_bytes(text: str, ensure_ascii: bool) -> int:
    """The UTF-8 bytes `text` takes inside a JSON string as json.dumps writes it, its quotes not counted."""
    return len(json.dumps(text, ensure_ascii=ensure_ascii).encode("utf-8")) - 2


def _window_parts(measured: list[tuple[str, int]], window: int, max_output: int) -> list[tuple[str, int]]:
    """Each part the difference between the request's count with it and without it (the chain telescopes), then
    the output reserve and what is left of the window."""
    parts, before = [], 0
    for name, count in measured:
        parts.append((name, count - before))
        before = count
    return [*parts, ("output reserve", max_output), ("headroom", window - max_output - before)]


# json_string_bytes: texts of the characters lesson 07's table shows (ASCII, é, 日, an emoji, a line break, a quote)
TEXTS = st.text(alphabet=st.sampled_from(["a", "Z", " ", "é", "日", "😀", "\n", '"']), max_size=12)
NAMES = ("control tokens", "prompt framing", "question", "passages", "system prompt", "tools")


def _chain(steps: list[int], max_output: int, extra: int) -> tuple[list[tuple[str, int]], int, int]:
    """window_parts arguments: a request growing by `steps` tokens a part, and a window that holds it, max_output
    and `extra` tokens of headroom."""
    measured, total = [], 0
    for name, step in zip(NAMES, steps):
        total += step
        measured.append((name, total))
    return measured, total + max_output + extra, max_output


CHAINS = st.builds(
    _chain,
    st.lists(st.integers(0, 90), min_size=1, max_size=len(NAMES)),
    st.integers(0, 64),
    st.integers(0, 30),
)
BUDGET = [  # lesson 07's v7 request with the search tool, window 256 and max_output 64: the counts of the chain
    ("control tokens", 3),
    ("prompt framing", 13),
    ("question", 26),
    ("passages", 96),
    ("system prompt", 113),
    ("tools", 186),
]

POINTS = [
    Choose(
        "p7.1",
        1,
        "where each template puts the system prompt in a conversation of two questions",
        options=(
            Option(
                "A",
                "All four with the first user turn, since the system prompt comes first.",
                "the belief that a system prompt always leads: v7 keeps it out of every user turn, in a block of its "
                "own, and the other three do not all pick the same user turn",
            ),
            Option(
                "B",
                "Every template repeats it in each user turn, so every question sees it.",
                "the belief that each turn needs its own copy: a template writes the system prompt once, and a "
                "second question adds its own tokens and control tokens, not the system prompt again",
            ),
            Option(
                "C",
                "v1 with the first user turn, v2 and v3 with the last, v7 in its own block.",
                "mistral-common's v1 joins it to the first user message, v2 and v3 to the last (the message being "
                "answered), and v7 writes [SYSTEM_PROMPT]…[/SYSTEM_PROMPT] where the system message is",
                right=True,
            ),
            Option(
                "D",
                "v1, v2 and v3 with the last user turn, v7 in a block of its own.",
                "the belief that the three older templates agree: mistral-common moved the system prompt between v1 "
                "and v2, so they do not put it in the same user turn",
            ),
        ),
    ),
    Predict(
        "p7.2",
        2,
        "the cookbook's estimate for the four-message conversation in cl100k_base",
        result=_cookbook_estimate,
        answer_type=int,
        misconceptions=(
            (29, "the reply is primed too: the rule adds 3 tokens once per request, after the last message"),
            (20, "the rule charges 3 tokens for every message, whatever it holds"),
            (28, "every value of a message is counted, its role as well as its content"),
            (17, "that counts only the values: the rule adds tokens per message and for the reply as well"),
        ),
    ),
    Predict(
        "p7.3",
        3,
        "what the conversation and the café request measure under v7 with the search tool",
        result=_with_the_tool,
        answer_type=tuple[int, int],
        misconceptions=(
            (
                (169, 321),
                "v7 does not write the tools beside every user turn: look at where [AVAILABLE_TOOLS] stood in the "
                "rendering above, and how many times",
            ),
        ),
    ),
    Predict(
        "p7.4",
        4,
        "the v7 tokens a user turn of two line breaks, and one of 𝔘, adds to an empty user turn",
        result=_beyond_bytes,
        answer_type=tuple[int, int],
        misconceptions=(
            (
                (4, 5),
                "SentencePiece puts its word-start piece ▁ once, at the start of the text, not before every line break",
            ),
            (
                (2, 4),
                "that is tokens = bytes, byte-level BPE's worst case: SentencePiece also adds a piece that stands "
                "for no byte at all",
            ),
            (
                (3, 2),
                "𝔘 is not in the vocabulary: byte fallback writes every one of its UTF-8 bytes as a token of its own",
            ),
            ((3, 1), "𝔘 is not in the vocabulary: what does byte fallback do with a character it does not know?"),
        ),
    ),
    Write(
        "p7.5",
        5,
        "json_string_bytes(text, ensure_ascii): the bytes a text takes inside a JSON string",
        question=Question(
            "p7.5",
            "json_string_bytes",
            1,
            "the UTF-8 bytes of a text inside a JSON string, quotes not counted",
            _json_string_bytes,
            cases=(
                ("é", True),
                ("é", False),
                ("日", False),
                ("😀", True),
                ("😀", False),
                ('say "hi"\n', False),  # a quote and a line break are escaped either way
                ("café", True),
                ("", True),
            ),
            inputs=st.tuples(TEXTS, st.booleans()),
        ),
        hint="work out ('é', False) and ('😀', True) by hand from the table above, then compare with what your "
        "function returns",
        slips=(
            Slip(
                "the two quotes around the string are not the text's: leave them out of the count",
                wrong=lambda text, ensure_ascii: len(json.dumps(text, ensure_ascii=ensure_ascii).encode("utf-8")),
            ),
            Slip(
                "count UTF-8 bytes, not characters: with ensure_ascii=False 'é' stays one character of two bytes",
                wrong=lambda text, ensure_ascii: len(json.dumps(text, ensure_ascii=ensure_ascii)) - 2,
            ),
            Slip("a quote and a line break are escaped either way: two bytes each", cases=(6,)),
        ),
    ),
    Choose(
        "p7.6",
        6,
        "what pack_request does when the request plus max_output would not fit",
        options=(
            Option(
                "A",
                "It keeps all six passages: max_output caps the answer, it is not part of the request.",
                "the belief that the answer has room of its own: input and output share the window, so a passage "
                "stays only when the request with it, plus max_output, still fits",
            ),
            Option(
                "B",
                "It keeps passages in rank order while the request plus 64 still fits 256, skipping the rest.",
                "pack_request keeps a passage only when count(request) + max_output <= window, in rank order, skip "
                "and continue",
                right=True,
            ),
            Option(
                "C",
                "It raises ValueError, since 248 + 64 is already over the 256 of the window.",
                "the belief that a full request is an error: it refuses only when the request without any passage, "
                "plus max_output, is over the window, since then no choice of passages could fit",
            ),
            Option(
                "D",
                "It keeps all six passages and lowers max_output to the 8 tokens still free.",
                "the belief that the packer may shrink the answer: the reserve is yours to set, and pack_request "
                "never changes it; the passages are what give way",
            ),
        ),
    ),
    Write(
        "p7.7",
        6,
        "window_parts(measured, window, max_output): the window split into measured parts",
        question=Question(
            "p7.7",
            "window_parts",
            1,
            "each part the difference of two counts of the growing request, then the reserve and the headroom",
            _window_parts,
            cases=(
                (BUDGET, 256, 64),  # lesson 07's v7 request with the tool
                ([("control tokens", 3), ("question", 10)], 20, 5),
                ([("control tokens", 3), ("prompt framing", 3), ("question", 10)], 13, 0),  # a part of 0, no room
                ([("control tokens", 9)], 9, 0),
                ([("control tokens", 3), ("passages", 40), ("tools", 41)], 100, 50),
            ),
            inputs=CHAINS,
        ),
        hint="the parts, the reserve and the headroom must add up to the window: check that on your result for the "
        "first fixed case",
        slips=(
            Slip(
                "each count is of the whole request so far: a part is what it adds, its count less the one before",
                wrong=lambda measured, window, max_output: [
                    *measured,
                    ("output reserve", max_output),
                    ("headroom", window - max_output - (measured[-1][1] if measured else 0)),
                ],
            ),
            Slip("the headroom is what is left once the request and the output reserve are set aside", cases=(4,)),
        ),
    ),
]
