"""Where real token counts add up: the seams of a rendered prompt, cut or not, for lesson 02's seam explorer.

A prompt is built from parts (the heading, one line per passage, separators, the answer cue). A packer that
measures each part alone and adds the counts is exact when every seam between two parts is one the
pre-tokenizer cuts (`packer.counters.seam_is_cut`). This module renders a prompt from an editable line
format and separator, finds each seam, and says which are cut and what the two ways of counting give.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from packer.counters import bpe, pretokens, seam_is_cut
from packer.prompt import fold
from packer.validation import Passage, require_passages, require_str

HEAD = "Question: {question}\nSources:\n"  # render_prompt's heading and cue, as in packer.prompt
CUE = "Answer:"
FIELD = re.compile(r"\{(id|text)\}")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}


def unescape(typed: str) -> str:
    """What a text box means: the escapes \\n, \\t, \\r and \\\\ become the characters they name."""
    require_str("typed", typed)
    return re.sub(r"\\([ntr\\])", lambda match: ESCAPES[match.group(1)], typed)


def line_of(line_format: str, key: str, text: str) -> str:
    """One passage through a line format: every {id} and {text} replaced in one pass (other braces kept)."""
    fields = {"id": key, "text": text}
    return FIELD.sub(lambda match: fields[match.group(1)], line_format)


def prompt_parts(question: str, passages: Sequence[Passage], line_format: str, separator: str) -> list[str]:
    """The prompt as the parts an adding packer would measure alone; empty parts are left out. The question and
    the texts are folded, as render_prompt folds them (packer.prompt.fold)."""
    require_str("question", question)
    require_str("line_format", line_format)
    require_str("separator", separator)
    lines = [line_of(line_format, key, fold(text)) for key, text in require_passages(passages)]
    parts = [HEAD.format(question=fold(question))]
    for number, line in enumerate(lines):
        parts.extend([separator, line] if number else [line])
    return [part for part in [*parts, CUE] if part]


@dataclass(frozen=True)
class Seam:
    """The join of two neighbouring parts: cut (counts add), or the piece that spans it once joined."""

    left: str
    right: str
    cut: bool
    spanning: str  # the joined text's piece that crosses the seam ("" when none does)


def seams(parts: Sequence[str], encoding: str) -> list[Seam]:
    """Every seam between neighbouring parts, judged by seam_is_cut on the two parts."""
    found = []
    for left, right in zip(parts, parts[1:]):
        start, spanning = 0, ""
        for piece in pretokens(left + right, encoding):
            if start < len(left) < start + len(piece):
                spanning = piece
            start += len(piece)
        found.append(Seam(left, right, seam_is_cut(left, right, encoding), spanning))
    return found


def _ends(seam: Seam) -> str:
    """A seam shown as the last characters before it and the first after it."""
    return f"{seam.left[-12:]!r} | {seam.right[:12]!r}"


def format_seams(question: str, passages: Sequence[Passage], line_format: str, separator: str, encoding: str) -> str:
    """The seams of one rendered prompt, and the prompt's count measured whole against the parts added."""
    parts = prompt_parts(question, passages, line_format, separator)
    found = seams(parts, encoding)  # checks the encoding's name first
    count = bpe(encoding)
    lines = [f"{encoding}: line format {line_format!r}, separator {separator!r}, {len(passages)} passages"]
    lines.append("seam     end of one part | start of the next")
    for seam in found:
        spans = f"  (joined, {seam.spanning!r} spans it)" if seam.spanning else ""
        lines.append(f"{'cut' if seam.cut else 'NOT cut':<8} {_ends(seam)}{spans}")
    apart = [count(part) for part in parts]
    whole = count("".join(parts))
    lines.append(f"parts measured alone and added: {' + '.join(map(str, apart))} = {sum(apart)} tokens")
    if pretokens("".join(parts), encoding) == [piece for part in parts for piece in pretokens(part, encoding)]:
        outcome = "no seam changed a piece, so the counts add up"
    elif whole == sum(apart):
        outcome = "a seam is not cut, yet the totals happen to agree"
    else:
        error = sum(apart) - whole
        outcome = f"a seam is not cut: adding is {abs(error)} too {'high' if error > 0 else 'low'}"
    lines.append(f"the whole prompt measured once:  {whole} tokens ({outcome})")
    return "\n".join(lines)
