"""Where a context window goes, for lesson 07: every part of a packed chat request, measured by differences.

`request_budget` packs passages with `packer.pack_request` under one of Mistral's templates and splits the
window into parts, each the difference of two real request counts along one chain of requests that grows
one part at a time:

    control tokens   the request with an empty user turn (BOS, [INST], [/INST], ...)
    prompt framing   + the prompt's heading and answer cue, with an empty question and no passages
    question         + the question
    passages         + the kept passages' lines
    system prompt    + the system prompt, with whatever markers the template puts around it
    tools            + the tool definitions, with their markers
    output reserve   max_output, kept free for the model's answer
    headroom         what is left of the window

The chain telescopes, so the parts add up to the window exactly, whatever the tokenizer does at the joins.
A part is what adding that piece cost *at that point of the chain*, not a count of the piece alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from packer.chat import Message, mistral_chat
from packer.prompt import render_prompt
from packer.request import build_request, pack_request
from packer.validation import Passage, require_passages, require_str

PARTS = (
    "control tokens",
    "prompt framing",
    "question",
    "passages",
    "system prompt",
    "tools",
    "output reserve",
    "headroom",
)

# The lesson's example: made-up passages about a made-up café, mixing French, Japanese and emoji.
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


@dataclass(frozen=True)
class Budget:
    """One packed request against its window: the parts in PARTS order, and what was kept and skipped."""

    version: str
    window: int
    max_output: int
    parts: tuple[tuple[str, int], ...]
    kept: tuple[str, ...]
    skipped: tuple[str, ...]
    offered: int
    messages: tuple[Message, ...]

    @property
    def input_tokens(self) -> int:
        """The whole request's tokens: every part but the reserve and the headroom."""
        return sum(tokens for name, tokens in self.parts if name not in ("output reserve", "headroom"))

    def part(self, name: str) -> int:
        """One part's tokens, by its name in PARTS."""
        return dict(self.parts)[name]


def _user(content: str) -> list[Message]:
    """A request of one user turn."""
    return [{"role": "user", "content": content}]


def chain(question: str, passages: Sequence[Passage], system: str) -> list[tuple[str, list[Message]]]:
    """The requests whose successive counts give each input part, from an empty user turn to the whole."""
    return [
        ("control tokens", _user("")),
        ("prompt framing", _user(render_prompt("", []))),
        ("question", _user(render_prompt(question, []))),
        ("passages", _user(render_prompt(question, passages))),
        ("system prompt", build_request(question, passages, system)),
    ]


def request_budget(
    question: str,
    passages: Any,
    version: str,
    window: int,
    max_output: int,
    system: str = "",
    tools: Any = (),
) -> Budget:
    """Pack with pack_request under Mistral's `version` template and split the window into measured parts."""
    require_str("question", question)
    require_str("system", system)
    checked = require_passages(passages)
    with_tools = mistral_chat(version, tools)  # checks version and tools
    count = mistral_chat(version)
    chosen, skipped, messages = pack_request(question, checked, window, max_output, with_tools, system)
    parts: list[tuple[str, int]] = []
    before = 0
    for name, request in chain(question, chosen, system):
        now = count(request)
        parts.append((name, now - before))
        before = now
    whole = with_tools(messages)
    parts += [("tools", whole - before), ("output reserve", max_output), ("headroom", window - max_output - whole)]
    return Budget(
        version,
        window,
        max_output,
        tuple(parts),
        tuple(key for key, _ in chosen),
        tuple(skipped),
        len(checked),
        tuple(messages),
    )


def format_budget(budget: Budget) -> str:
    """The parts as a table with their share of the window, then what was kept and skipped."""
    lines = [
        f"Mistral {budget.version}: window {budget.window}, max_output {budget.max_output}, "
        f"{budget.offered} passages offered, {len(budget.kept)} kept",
        f"{'part':<16} {'tokens':>6} {'of window':>9}",
    ]
    for name, tokens in budget.parts:
        lines.append(f"{name:<16} {tokens:>6} {tokens / budget.window:>9.1%}")
    lines.append(f"{'window':<16} {budget.window:>6}")
    lines.append(f"the request measures {budget.input_tokens} tokens; + max_output {budget.max_output} fits the window")
    lines.append(f"kept {list(budget.kept)}, skipped {list(budget.skipped)}")
    return "\n".join(lines)
