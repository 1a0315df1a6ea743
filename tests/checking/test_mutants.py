"""Plausible wrong answers, each of which the check of its question must catch with a counterexample.

Each mutant is what a learner might really write: a correct learner-style answer with one rule broken.
The correct versions are checked too, so a check that fails everything would be noticed.
"""

from __future__ import annotations

import functools
import math
import re
from fractions import Fraction
from collections.abc import Iterable, Mapping, Set

import pytest

from packer.checking import FAILED, PASSED, run_check

SECTION_ORDER = ["task", "context", "constraints", "format", "examples"]
MUTANTS: list[tuple[str, str, object]] = []
CORRECT: list[tuple[str, object]] = []


def mutant(qid: str, why: str):
    def register(function):
        MUTANTS.append((qid, why, function))
        return function

    return register


# --- learner-style building blocks ------------------------------------------------------------------
def need_count(name, value, allow_bool=False):
    if (type(value) is not int and not (allow_bool and isinstance(value, bool))) or value < 0:
        raise ValueError(f"{name} must be a non-negative int")


def as_list(name, items):
    """The contract for chunks and passages: any ordered iterable, read once; not a str, bytes, mapping or set."""
    if isinstance(items, (str, bytes, Mapping, Set)) or not isinstance(items, Iterable):
        raise ValueError(f"{name} must be a list")
    return list(items)


def check_chunks(chunks, max_tokens, separator, allow_bool=False, chunk_type=Mapping, extra_keys=True):
    need_count("max_tokens", max_tokens, allow_bool)
    if not isinstance(separator, str):
        raise ValueError("separator must be a str")
    chunks = as_list("chunks", chunks)
    for i, chunk in enumerate(chunks):
        if not isinstance(chunk, chunk_type) or "text" not in chunk or "token_count" not in chunk:
            raise ValueError(f"chunk {i}: needs text and token_count")
        if not extra_keys and set(chunk) != {"text", "token_count"}:
            raise ValueError(f"chunk {i}: unexpected keys")
        if not isinstance(chunk["text"], str):
            raise ValueError(f"chunk {i}: text must be a str")
        need_count(f"chunk {i}: token_count", chunk["token_count"])
    return chunks


def bad_id(key, forbidden="[]", breaks=None):
    """Not a label-safe id: not a str, empty, holding a forbidden character or a line break (`breaks` None: any
    that str.splitlines knows; else only the characters given)."""
    if not isinstance(key, str) or not key or any(c in key for c in forbidden):
        return True
    return key.splitlines() != [key] if breaks is None else any(c in key for c in breaks)


def check_passages(passages, allow_duplicates=False, forbidden="[]", breaks=None, pairs=(list, tuple), ids=True):
    """The passages as a list, each a pair; with `ids` False the ids are left for the packer to check."""
    passages = as_list("passages", passages)
    seen = set()
    for i, item in enumerate(passages):
        if not isinstance(item, pairs) or len(item) != 2:
            raise ValueError(f"passage {i}: not a pair")
        key, text = item
        if ids and bad_id(key, forbidden, breaks):
            raise ValueError(f"passage {i}: bad id")
        if ids and key in seen and not allow_duplicates:
            raise ValueError(f"passage {i}: duplicate id")
        if not isinstance(text, str):
            raise ValueError(f"passage {i}: text must be a str")
        seen.add(key)
    return passages


def good_assemble(chunks, max_tokens, separator="\n\n"):
    chunks = check_chunks(chunks, max_tokens, separator)
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used


def fold(text):
    """Lesson 02's fold: one space after every line break str.splitlines knows."""
    lines = text.splitlines(keepends=True)
    return "".join(line + " " if line.splitlines()[0] != line else line for line in lines)


def render(question, passages, folded=True):
    shown = fold if folded else str
    lines = "".join(f"[{k}] {shown(t)}\n" for k, t in passages)
    return "Question: " + shown(question) + "\nSources:\n" + lines + "Answer:"


def good_pack_prompt(question, passages, limit, count, allow_duplicates=False, **rules):
    if not isinstance(question, str) or not callable(count):
        raise ValueError("question must be a str and count a function")
    need_count("limit", limit)
    passages = check_passages(passages, allow_duplicates, **rules)

    def measure(parts):
        n = count(render(question, parts))
        if type(n) is not int or n < 0:
            raise ValueError("count must return a non-negative int")
        return n

    if measure([]) > limit:
        raise ValueError("base prompt exceeds limit")
    chosen, skipped = [], []
    for passage in passages:
        if measure(chosen + [tuple(passage)]) <= limit:
            chosen.append(tuple(passage))
        else:
            skipped.append(passage[0])
    return chosen, skipped, render(question, chosen)


def utf8_size(text):
    return len(text.encode("utf-8"))


def good_pack_utf8(
    passages,
    limit,
    reserve,
    *,
    size=utf8_size,
    header_counts=True,
    reserve_counts=True,
    allow_duplicates=False,
    strict=False,
    folded=True,
    **rules,
):
    need_count("limit", limit)
    need_count("reserve", reserve)
    passages = check_passages(passages, allow_duplicates, **rules)
    header = "Sources:\n"
    used = size(header) if header_counts else 0
    charged = reserve if reserve_counts else 0
    if used + charged > limit:
        raise ValueError("framing exceeds the limit")
    lines, kept = [header], []
    for key, text in passages:
        line = f"[{key}] {fold(text) if folded else text}\n"
        fits = used + size(line) + charged < limit if strict else used + size(line) + charged <= limit
        if fits:
            lines.append(line)
            used += size(line)
            kept.append(key)
    return "".join(lines), kept


def estimate(text):
    return (len(text) + 3) // 4


def build(sections):
    return "\n\n".join(f"{key.upper()}:\n{sections[key]}" for key in SECTION_ORDER)


build_prompt = build  # q4.3's answers build their prompt with it, as the exercise's do (q4.3 edits it for check 2)


class Result:
    def __init__(self, ok, message, total):
        self.ok, self.message, self.total = ok, message, total


def good_check_sections(
    sections,
    budget=500,
    total_of=lambda sections: estimate(build_prompt(sections)),
    order=("missing", "tags", "marker", "budget"),
    has_marker=lambda prompt: "KEY: VALUE" in prompt,
):
    missing = any(key not in sections or not sections[key].strip() for key in SECTION_ORDER)
    if order[0] == "missing" and missing:
        return Result(False, "FAIL: missing section text", None)
    prompt = build_prompt({key: sections.get(key, "") for key in SECTION_ORDER})
    total = total_of(sections) if not missing else None
    failures = {
        "missing": missing,
        "tags": any(f"{key.upper()}:" not in prompt for key in SECTION_ORDER),
        "marker": not has_marker(prompt),
        "budget": total is not None and (total <= 0 or total > budget),
    }
    messages = {
        "missing": "missing section text",
        "tags": "section tag absent",
        "marker": "parseable marker absent",
        "budget": "total outside budget",
    }
    for check in order:
        if failures[check]:
            return Result(False, f"FAIL: {messages[check]}", None if check == "missing" else total)
    return Result(True, f"PASS: 5 sections assembled within {budget} token budget", total)


def good_plan_headroom(section_chars, budget, planned_of=None):
    if not isinstance(section_chars, Mapping) or set(section_chars) != set(SECTION_ORDER):
        raise ValueError("section_chars must map the five section names to sizes")
    if type(budget) is not int or budget <= 0:
        raise ValueError("budget must be a positive int")
    for key in SECTION_ORDER:
        need_count(key, section_chars[key])
    planned = (planned_of or (lambda s: sum((s[k] + 3) // 4 for k in SECTION_ORDER)))(section_chars)
    return planned, budget - planned, (budget - planned) * 100 // budget


def good_pack_utf8_report(passages, limit, reserve):
    passages = check_passages(passages)
    text, kept = good_pack_utf8(passages, limit, reserve)
    return text, kept, [key for key, _ in passages if key not in kept]


CORRECT += [
    ("q1.1", good_assemble),
    ("q1.2", good_assemble),
    ("q2.1", render),
    ("q2.2", good_pack_prompt),
    ("q2.3", good_pack_prompt),
    ("q3.1", good_pack_utf8),
    ("q3.2", good_pack_utf8),
    ("q3.3", good_pack_utf8_report),
    ("q4.1", estimate),
    ("q4.2", build),
    ("q4.3", good_check_sections),
    ("q4.4", good_plan_headroom),
]


# --- lesson 01 ---------------------------------------------------------------------------------------
@mutant("q1.1", "stops at the first overflow")
def assemble_stop(chunks, max_tokens, separator="\n\n"):
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] > max_tokens:
            break
        kept.append(chunk["text"])
        used += chunk["token_count"]
    return separator.join(kept), used


@mutant("q1.1", "< instead of <= (refuses an exact fit)")
def assemble_strict(chunks, max_tokens, separator="\n\n"):
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] < max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used


@mutant("q1.1", "charges the separator")
def assemble_charging(chunks, max_tokens, separator="\n\n"):
    kept, used = [], 0
    for chunk in chunks:
        cost = chunk["token_count"] + (1 if kept else 0)
        if used + cost <= max_tokens:
            kept.append(chunk["text"])
            used += cost
    return separator.join(kept), used


@mutant("q1.1", "reorders by size to pack tighter")
def assemble_sorted(chunks, max_tokens, separator="\n\n"):
    return good_assemble(sorted(chunks, key=lambda c: c["token_count"]), max_tokens, separator)


@mutant("q1.1", "truncates the chunk that overflows")
def assemble_truncating(chunks, max_tokens, separator="\n\n"):
    kept, used = [], 0
    for chunk in chunks:
        room = max_tokens - used
        if chunk["token_count"] <= room:
            kept.append(chunk["text"])
            used += chunk["token_count"]
        elif room > 0 and chunk["text"]:
            kept.append(chunk["text"][: max(1, len(chunk["text"]) * room // chunk["token_count"])])
            used = max_tokens
    return separator.join(kept), used


@mutant("q1.2", "accepts a bool as the budget")
def assemble_bool_budget(chunks, max_tokens, separator="\n\n"):
    check_chunks(chunks, max_tokens, separator, allow_bool=True)
    return good_assemble(chunks, int(max_tokens), separator)


@mutant("q1.2", "validates lazily: a bad chunk after the budget is full goes unnoticed")
def assemble_lazy(chunks, max_tokens, separator="\n\n"):
    need_count("max_tokens", max_tokens)
    kept, used = [], 0
    for chunk in chunks:
        if used >= max_tokens:
            break
        check_chunks([chunk], max_tokens, separator)
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used


@mutant("q1.3", "skips and continues where the variant must stop")
def assemble_prefix(chunks, max_tokens, separator="\n\n"):
    return good_assemble(chunks, max_tokens, separator)


@mutant("q1.4", "charges a separator before the first chunk too")
def assemble_charged(chunks, max_tokens, separator_tokens):
    need_count("separator_tokens", separator_tokens)
    check_chunks(chunks, max_tokens, "\n\n")
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] + separator_tokens <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"] + separator_tokens
    return "\n\n".join(kept), used


@mutant("q1.5", "predicts stop-at-first-overflow")
def predict_q1_5():
    return ("intro", 25)


# --- lesson 02 ---------------------------------------------------------------------------------------
@mutant("q2.1", "forgets the newline after the last source")
def render_prompt(question, passages):
    return "Question: " + question + "\nSources:\n" + "\n".join(f"[{k}] {t}" for k, t in passages) + "Answer:"


@mutant("q2.1", "writes the question and each text as they are, without folding their line breaks")
def render_prompt_unfolded(question, passages):
    return render(question, passages, folded=False)


@mutant("q2.2", "adds per-passage counts instead of re-measuring the prompt")
def pack_prompt_adding(question, passages, limit, count):
    need_count("limit", limit)
    check_passages(passages)
    used = count(render(question, []))
    if used > limit:
        raise ValueError("base prompt exceeds limit")
    chosen, skipped = [], []
    for key, text in passages:
        cost = count(f"[{key}] {text}\n")
        if used + cost <= limit:
            chosen.append((key, text))
            used += cost
        else:
            skipped.append(key)
    return chosen, skipped, render(question, chosen)


@mutant("q2.2", "measures the passages but not the framing")
def pack_prompt_no_framing(question, passages, limit, count):
    chosen, skipped = [], []
    for key, text in passages:
        if count("".join(f"[{k}] {t}\n" for k, t in chosen + [(key, text)])) <= limit:
            chosen.append((key, text))
        else:
            skipped.append(key)
    return chosen, skipped, render(question, chosen)


@mutant("q2.3", "accepts duplicate ids")
def pack_prompt_duplicates(question, passages, limit, count):
    return good_pack_prompt(question, passages, limit, count, allow_duplicates=True)


@mutant("q2.3", "trusts the counter's result")
def pack_prompt_trusting(question, passages, limit, count):
    return good_pack_prompt(question, passages, limit, lambda text: int(count(text) or 0))


@mutant("q2.4", "predicts the first passages that fit in order (a prefix)")
def predict_q2_4():
    return (["p1"], ["p2", "p3"])


# --- lesson 03 ---------------------------------------------------------------------------------------
@mutant("q3.1", "counts characters instead of UTF-8 bytes")
def pack_utf8_chars(passages, limit, reserve):
    return good_pack_utf8(passages, limit, reserve, size=len)


@mutant("q3.1", "ignores the reserve")
def pack_utf8_no_reserve(passages, limit, reserve):
    return good_pack_utf8(passages, limit, reserve, reserve_counts=False)


@mutant("q3.1", "does not count the header")
def pack_utf8_no_header(passages, limit, reserve):
    return good_pack_utf8(passages, limit, reserve, header_counts=False)


@mutant("q3.1", "< instead of <= (refuses the exact byte boundary)")
def pack_utf8_strict(passages, limit, reserve):
    return good_pack_utf8(passages, limit, reserve, strict=True)


@mutant("q3.1", "truncates the passage that overflows to fill the budget")
def pack_utf8_truncating(passages, limit, reserve):
    text, kept = good_pack_utf8(passages, limit, reserve)
    room = limit - reserve - len(text.encode("utf-8"))
    for key, passage in passages:
        if key not in kept and room > len(f"[{key}] \n"):
            cut = passage.encode("utf-8")[: room - len(f"[{key}] \n")].decode("utf-8", "ignore")
            return text + f"[{key}] {cut}\n", kept + [key]
    return text, kept


@mutant("q3.2", "accepts duplicate ids")
def pack_utf8_duplicates(passages, limit, reserve):
    return good_pack_utf8(passages, limit, reserve, allow_duplicates=True)


@mutant("q3.2", "accepts a negative reserve")
def pack_utf8_negative_reserve(passages, limit, reserve):
    if isinstance(reserve, int) and not isinstance(reserve, bool) and reserve < 0:
        reserve = 0
    return good_pack_utf8(passages, limit, reserve)


@mutant("q3.3", "reports the skipped ids sorted instead of in rank order")
def pack_utf8_report(passages, limit, reserve):
    text, kept = good_pack_utf8(passages, limit, reserve)
    return text, kept, sorted(key for key, _ in passages if key not in kept)


@mutant("q3.4", "predicts with characters instead of bytes")
def predict_q3_4():
    return (["q", "r"], 40)


# --- lesson 04 ---------------------------------------------------------------------------------------
@mutant("q4.1", "floor instead of ceil")
def estimate_floor(text):
    return len(text) // 4


@mutant("q4.1", "rounds to nearest")
def estimate_round(text):
    return round(len(text) / 4)


@mutant("q4.2", "joins sections with a single newline")
def build_prompt_single_newline(sections):
    return "\n".join(f"{key.upper()}:\n{sections[key]}" for key in SECTION_ORDER)


@mutant("q4.3", "uses the sum of section estimates instead of the assembled prompt")
def check_sections_summed(sections, budget=500):
    return good_check_sections(sections, budget, total_of=lambda s: sum(estimate(s[k]) for k in SECTION_ORDER))


@mutant("q4.3", "treats whitespace-only sections as present")
def check_sections_blank(sections, budget=500):
    if any(key not in sections or sections[key] == "" for key in SECTION_ORDER):
        return Result(False, "FAIL: missing section text", None)
    total = estimate(build(sections))
    if "KEY: VALUE" not in build(sections):
        return Result(False, "FAIL: parseable marker absent", total)
    if total <= 0 or total > budget:
        return Result(False, "FAIL: total outside budget", total)
    return Result(True, f"PASS: 5 sections assembled within {budget} token budget", total)


@mutant("q4.3", "hard-codes 500 in the PASS message")
def check_sections_fixed_message(sections, budget=500):
    result = good_check_sections(sections, budget)
    if result.ok:
        result.message = "PASS: 5 sections assembled within 500 token budget"
    return result


@mutant("q4.4", "rounds the headroom percent instead of flooring it")
def plan_headroom(section_chars, budget):
    planned, headroom, _ = good_plan_headroom(section_chars, budget)
    return planned, headroom, round(headroom * 100 / budget)


@mutant("q4.5", "predicts the sum of the parts for both")
def predict_q4_5():
    return (36, 36)


# --- found by the audit of issue 10: each was given full marks before ---------------------------------
@mutant("q1.1", "empties the caller's list with a pop(0) loop")
def assemble_popping(chunks, max_tokens, separator="\n\n"):
    kept, used = [], 0
    while chunks:
        chunk = chunks.pop(0)
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used


@mutant("q1.1", "drops zero-cost chunks")
def assemble_no_free_chunks(chunks, max_tokens, separator="\n\n"):
    kept, used = [], 0
    for chunk in chunks:
        if chunk["token_count"] and used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used


@mutant("q1.2", "requires a dict where any mapping is allowed")
def assemble_dicts_only(chunks, max_tokens, separator="\n\n"):
    check_chunks(chunks, max_tokens, separator, chunk_type=dict)
    return good_assemble(chunks, max_tokens, separator)


@mutant("q1.2", "rejects chunks with extra keys")
def assemble_exact_keys(chunks, max_tokens, separator="\n\n"):
    chunks = check_chunks(chunks, max_tokens, separator, extra_keys=False)
    return good_assemble(chunks, max_tokens, separator)


@mutant("q1.2", "refuses a tuple or a generator of chunks")
def assemble_lists_only(chunks, max_tokens, separator="\n\n"):
    if not isinstance(chunks, list):
        raise ValueError("chunks must be a list")
    return good_assemble(chunks, max_tokens, separator)


@mutant("q1.2", "reads a generator twice: validates it, then has nothing left to pack")
def assemble_reads_twice(chunks, max_tokens, separator="\n\n"):
    check_chunks(chunks, max_tokens, separator)
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used


@mutant("q1.3", "validates a generator, then walks the empty remainder")
def assemble_prefix_reads_twice(chunks, max_tokens, separator="\n\n"):
    check_chunks(chunks, max_tokens, separator)
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] > max_tokens:
            break
        kept.append(chunk["text"])
        used += chunk["token_count"]
    return separator.join(kept), used


@mutant("q1.4", "charges the separator after a skipped first chunk too")
def assemble_charged_by_position(chunks, max_tokens, separator_tokens):
    need_count("separator_tokens", separator_tokens)
    chunks = check_chunks(chunks, max_tokens, "\n\n")
    kept, used = [], 0
    for index, chunk in enumerate(chunks):
        cost = chunk["token_count"] + (separator_tokens if index else 0)
        if used + cost <= max_tokens:
            kept.append(chunk["text"])
            used += cost
    return "\n\n".join(kept), used


@mutant("q2.1", "strips each passage's text")
def render_prompt_stripping(question, passages):
    return render(question, [(key, text.strip()) for key, text in passages])


@mutant("q2.2", "empties the caller's list with a pop(0) loop")
def pack_prompt_popping(question, passages, limit, count):
    chosen, skipped = [], []
    while passages:
        key, text = passages.pop(0)
        if count(render(question, chosen + [(key, text)])) <= limit:
            chosen.append((key, text))
        else:
            skipped.append(key)
    return chosen, skipped, render(question, chosen)


@mutant("q2.2", "stops at the first passage that does not fit")
def pack_prompt_stopping(question, passages, limit, count):
    chosen, skipped = [], []
    for key, text in passages:
        if not skipped and count(render(question, chosen + [(key, text)])) <= limit:
            chosen.append((key, text))
        else:
            skipped.append(key)
    return chosen, skipped, render(question, chosen)


@mutant("q2.3", "refuses a tuple or a generator of passages")
def pack_prompt_lists_only(question, passages, limit, count):
    if not isinstance(passages, list):
        raise ValueError("passages must be a list")
    return good_pack_prompt(question, passages, limit, count)


@mutant("q2.3", "never checks the question")
def pack_prompt_any_question(question, passages, limit, count):
    return good_pack_prompt(str(question), passages, limit, count)


@mutant("q2.4", "rounds every line up separately")
def predict_q2_4_per_line():
    return (["p1", "p3"], ["p2", "p4"])


@mutant("q2.4", "rounds down instead of up")
def predict_q2_4_floor():
    return (["p1", "p2"], ["p3", "p4"])


@mutant("q2.4", "forgets the labels: counts only text and newline per line")
def predict_q2_4_no_labels():
    return (["p1", "p2", "p3"], ["p4"])


@mutant("q3.1", "measures the id in characters and the text in bytes")
def pack_utf8_id_chars(passages, limit, reserve):
    return good_pack_utf8(
        passages,
        limit,
        reserve,
        size=lambda line: (
            len(line) if line == "Sources:\n" else len(line[: line.index("]")]) + utf8_size(line[line.index("]") :])
        ),
    )


@mutant("q3.1", "re-encodes the whole payload for every candidate (quadratic)")
def pack_utf8_quadratic(passages, limit, reserve):
    payload, kept = "Sources:\n", []
    if len(payload.encode("utf-8")) + reserve > limit:
        raise ValueError("framing exceeds the limit")
    for key, text in passages:
        candidate = payload + f"[{key}] {fold(text)}\n"
        if len(candidate.encode("utf-8")) + reserve <= limit:
            payload = candidate
            kept.append(key)
    return payload, kept


@mutant("q3.1", "re-encodes the whole payload for every candidate with bytes(candidate, 'utf-8') (quadratic)")
def pack_utf8_quadratic_bytes(passages, limit, reserve):
    payload, kept = "Sources:\n", []
    if len(bytes(payload, "utf-8")) + reserve > limit:
        raise ValueError("framing exceeds the limit")
    for key, text in passages:
        candidate = payload + f"[{key}] {fold(text)}\n"
        if len(bytes(candidate, "utf-8")) + reserve <= limit:
            payload = candidate
            kept.append(key)
    return payload, kept


@mutant("q3.1", "joins and encodes every kept line again for each candidate (quadratic)")
def pack_utf8_rejoins(passages, limit, reserve):
    lines, kept = ["Sources:\n"], []
    if len(lines[0].encode()) + reserve > limit:
        raise ValueError("framing exceeds the limit")
    for key, text in passages:
        line = f"[{key}] {fold(text)}\n"
        if len("".join([*lines, line]).encode()) + reserve <= limit:
            lines.append(line)
            kept.append(key)
    return "".join(lines), kept


@mutant("q3.1", "empties the caller's list with a pop(0) loop")
def pack_utf8_popping(passages, limit, reserve):
    payload, used, kept = "Sources:\n", 9, []
    while passages:
        key, text = passages.pop(0)
        size = utf8_size(f"[{key}] {text}\n")
        if used + size + reserve <= limit:
            payload, used = payload + f"[{key}] {text}\n", used + size
            kept.append(key)
    return payload, kept


@mutant("q3.2", "refuses a tuple or a generator of passages")
def pack_utf8_lists_only(passages, limit, reserve):
    if not isinstance(passages, list):
        raise ValueError("passages must be a list")
    return good_pack_utf8(passages, limit, reserve)


@mutant("q3.3", "reads a generator twice: packs it, then finds no skipped ids")
def pack_utf8_report_reads_twice(passages, limit, reserve):
    text, kept = good_pack_utf8(passages, limit, reserve)
    return text, kept, [key for key, _ in passages if key not in kept]


@mutant("q3.4", "forgets the reserve")
def predict_q3_4_no_reserve():
    return (["q", "s"], 33 + 4)


@mutant("q4.1", "counts UTF-8 bytes instead of characters")
def estimate_bytes(text):
    return (len(text.encode("utf-8")) + 3) // 4


@mutant("q4.2", "walks the dictionary's own key order")
def build_in_dict_order(sections):
    return "\n\n".join(f"{key.upper()}:\n{text}" for key, text in sections.items())


@mutant("q4.2", "strips each section's text")
def build_stripping(sections):
    return "\n\n".join(f"{key.upper()}:\n{sections[key].strip()}" for key in SECTION_ORDER)


@mutant("q4.3", "leaves out check 2, the tags, which cannot fail on a prompt its own build_prompt made")
def check_sections_no_tag_check(sections, budget=500):
    return good_check_sections(sections, budget, order=("missing", "marker", "budget"))


@mutant("q4.3", "checks the budget before the marker")
def check_sections_budget_first(sections, budget=500):
    return good_check_sections(sections, budget, order=("missing", "tags", "budget", "marker"))


@mutant("q4.3", "checks the marker before the missing text")
def check_sections_marker_first(sections, budget=500):
    return good_check_sections(sections, budget, order=("marker", "missing", "tags", "budget"))


@mutant("q4.3", "estimates UTF-8 bytes instead of characters")
def check_sections_bytes(sections, budget=500):
    return good_check_sections(sections, budget, total_of=lambda s: (len(build(s).encode("utf-8")) + 3) // 4)


@mutant("q4.3", "requires a dict where any mapping is allowed")
def check_sections_dicts_only(sections, budget=500):
    if not isinstance(sections, dict):
        raise ValueError("sections must be a dict")
    return good_check_sections(sections, budget)


@mutant("q4.4", "skips the validation")
def plan_headroom_trusting(section_chars, budget):
    planned = sum((section_chars[k] + 3) // 4 for k in SECTION_ORDER)
    return planned, budget - planned, (budget - planned) * 100 // budget


@mutant("q4.4", "rounds the total characters once instead of each section")
def plan_headroom_rounding_once(section_chars, budget):
    return good_plan_headroom(section_chars, budget, planned_of=lambda s: (sum(s[k] for k in SECTION_ORDER) + 3) // 4)


@mutant("q4.4", "truncates the percent towards zero")
def plan_headroom_truncating(section_chars, budget):
    planned, headroom, _ = good_plan_headroom(section_chars, budget)
    return planned, headroom, int(headroom / budget * 100)


@functools.cache
def checked(qid: str, answer) -> object:
    """run_check's result, computed once per answer (test_counterexamples pastes the same results)."""
    return run_check(qid, answer)


@functools.cache
def searched(qid: str, answer) -> object:
    """The result of the generated-input search alone, without the fixed cases, computed once."""
    from dataclasses import replace

    from packer.checking import evaluate, question

    return evaluate(replace(question(qid), cases=()), answer)


# --- lesson 06 ---------------------------------------------------------------------------------------
# Learner-style correct answers first, then one broken rule each.
def good_pack_until_overflow(question, passages, limit, count):
    kept = []
    for passage in passages:
        if count(render(question, kept + [passage])) > limit:
            break
        kept.append(passage)
    return [key for key, _ in kept]


def good_knapsack_value(costs, values, capacity):
    best = [0] * (capacity + 1)
    for cost, value in zip(costs, values):
        for c in range(capacity, cost - 1, -1):
            best[c] = max(best[c], best[c - cost] + value)
    return best[capacity]


def good_above_cutoff(scored, share):
    exact = [(key, Fraction(str(score))) for key, score in scored]
    best = max((score for _, score in exact), default=0)
    return [key for key, score in exact if score >= Fraction(str(share)) * best]


CORRECT += [
    ("q6.1", good_pack_until_overflow),
    ("q6.2", good_knapsack_value),
    ("q6.3", good_above_cutoff),
    ("q6.4", lambda: (["a"], ["b", "c"])),
]


@mutant("q6.1", "skips and continues instead of stopping")
def pack_until_overflow_skips(question, passages, limit, count):
    chosen, _, _ = good_pack_prompt(question, passages, limit, count)
    return [key for key, _ in chosen]


@mutant("q6.1", "stops when the prompt reaches the limit (< instead of <=)")
def pack_until_overflow_strict(question, passages, limit, count):
    kept = []
    for passage in passages:
        if count(render(question, kept + [passage])) >= limit:
            break
        kept.append(passage)
    return [key for key, _ in kept]


@mutant("q6.1", "adds each line's count to the base prompt's instead of re-measuring")
def pack_until_overflow_adds(question, passages, limit, count):
    used, kept = count(render(question, [])), []
    for key, text in passages:
        cost = count(f"[{key}] {text}\n")
        if used + cost > limit:
            break
        used += cost
        kept.append(key)
    return kept


@mutant("q6.2", "walks the capacities upwards, so an item can be used twice")
def knapsack_value_unbounded(costs, values, capacity):
    best = [0] * (capacity + 1)
    for cost, value in zip(costs, values):
        for c in range(cost, capacity + 1):
            best[c] = max(best[c], best[c - cost] + value)
    return best[capacity]


@mutant("q6.2", "greedy by value per token instead of dynamic programming")
def knapsack_value_greedy(costs, values, capacity):
    order = sorted(range(len(costs)), key=lambda i: -values[i] / costs[i] if costs[i] else float("-inf"))
    total = used = 0
    for i in order:
        if used + costs[i] <= capacity:
            used += costs[i]
            total += values[i]
    return total


@mutant("q6.2", "stops one short of the item's own cost (range(capacity, cost, -1))")
def knapsack_value_off_by_one(costs, values, capacity):
    best = [0] * (capacity + 1)
    for cost, value in zip(costs, values):
        for c in range(capacity, cost, -1):
            best[c] = max(best[c], best[c - cost] + value)
    return best[capacity]


@mutant("q6.3", "keeps only scores strictly above the bar")
def above_cutoff_strict(scored, share):
    best = max((score for _, score in scored), default=0)
    return [key for key, score in scored if score > share * best]


@mutant("q6.3", "keeps the top share of the passages by count, not by score")
def above_cutoff_by_count(scored, share):
    ranked = sorted(scored, key=lambda pair: -pair[1])
    keep = {key for key, _ in ranked[: round(share * len(scored))]}
    return [key for key, _ in scored if key in keep]


@mutant("q6.4", "predicts that the knapsack keeps the top passage too")
def predict_q6_4():
    return (["a"], ["a"])


# === lesson 05 (counting units): its own block, so merges with edits above stay easy =================
def l5_headroom(tokens, estimates, percent, *, per_passage=None, position=None, validate=True):
    """A learner-style headroom_percent with hooks for one wrong rule at a time."""
    if validate:
        if (
            not isinstance(tokens, list)
            or not isinstance(estimates, list)
            or not tokens
            or len(tokens) != len(estimates)
        ):
            raise ValueError("tokens and estimates must be non-empty lists of equal length")
        for t, e in zip(tokens, estimates):
            need_count("token", t)
            if type(e) is not int or e < 1:
                raise ValueError("estimates must be positive ints")
        if type(percent) is not int or not 1 <= percent <= 100:
            raise ValueError("percent must be an int from 1 to 100")
    needed = sorted((per_passage or (lambda t, e: -(-100 * (t - e) // e)))(t, e) for t, e in zip(tokens, estimates))
    index = (position or (lambda p, n: -(-p * n // 100) - 1))(percent, len(needed))
    return needed[index]


def l5_cuts(passage, count, *, boundary=lambda a, b: a.isspace() != b.isspace(), keep_equal=False, swap=False):
    if not isinstance(passage, str):
        raise ValueError("passage must be a str")
    whole, found = count(passage), []
    for cut in range(1, len(passage)):
        if boundary(passage[cut - 1], passage[cut]):
            parts = count(passage[:cut]) + count(passage[cut:])
            if parts != whole or keep_equal:
                found.append((cut, whole, parts) if swap else (cut, parts, whole))
    return found


def l5_assemble(texts, max_tokens, count, separator="\n\n", *, measure=None, stop=False, used_of=None):
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise ValueError("texts must be a list of str")
    need_count("max_tokens", max_tokens)
    if not isinstance(separator, str):
        raise ValueError("separator must be a str")
    kept, used = [], 0
    for text in texts:
        measured = (measure or (lambda kept, text: count(separator.join(kept + [text]))))(kept, text)
        if type(measured) is not int or measured < 0:
            raise ValueError("count must return a non-negative int")
        if measured <= max_tokens:
            kept.append(text)
            used = measured
        elif stop:
            break
    return separator.join(kept), (used_of(kept) if used_of and kept else used)


CORRECT += [("q5.1", l5_headroom), ("q5.2", l5_cuts), ("q5.3", l5_assemble)]


@mutant("q5.1", "works in floats: ceil((t / e - 1) * 100) is a hair too high for 11 / 10")
def headroom_floats(tokens, estimates, percent):
    return l5_headroom(tokens, estimates, percent, per_passage=lambda t, e: math.ceil((t / e - 1) * 100))


@mutant("q5.1", "rounds each passage's headroom down instead of up")
def headroom_floor(tokens, estimates, percent):
    return l5_headroom(tokens, estimates, percent, per_passage=lambda t, e: 100 * (t - e) // e)


@mutant("q5.1", "takes position floor(percent * n / 100) instead of the nearest rank")
def headroom_floor_rank(tokens, estimates, percent):
    return l5_headroom(tokens, estimates, percent, position=lambda p, n: max(0, p * n // 100 - 1))


@mutant("q5.1", "ignores the percent and covers every passage (the maximum)")
def headroom_max(tokens, estimates, percent):
    return l5_headroom(tokens, estimates, percent, position=lambda p, n: n - 1)


@mutant("q5.1", "accepts an estimate of 0 (a ZeroDivisionError, not a ValueError)")
def headroom_zero_estimate(tokens, estimates, percent):
    if isinstance(estimates, list) and 0 in estimates:
        return l5_headroom(tokens, estimates, percent, validate=False)
    return l5_headroom(tokens, estimates, percent)


@mutant("q5.2", "cuts only where a whitespace run starts")
def cuts_run_starts(passage, count):
    return l5_cuts(passage, count, boundary=lambda a, b: not a.isspace() and b.isspace())


@mutant("q5.2", "treats only the space character as whitespace")
def cuts_spaces_only(passage, count):
    return l5_cuts(passage, count, boundary=lambda a, b: (a == " ") != (b == " "))


@mutant("q5.2", "reports every cut, even where the counts add up")
def cuts_all(passage, count):
    return l5_cuts(passage, count, keep_equal=True)


@mutant("q5.2", "swaps parts and whole in the triple")
def cuts_swapped(passage, count):
    return l5_cuts(passage, count, swap=True)


@mutant("q5.3", "adds the texts' counts (lesson 01 with precomputed counts)")
def assemble_measured_adding(texts, max_tokens, count, separator="\n\n"):
    return l5_assemble(
        texts,
        max_tokens,
        count,
        separator,
        measure=lambda kept, text: sum(count(t) for t in kept + [text]),
        used_of=lambda kept: sum(count(t) for t in kept),
    )


@mutant("q5.3", "measures the texts joined without the separator")
def assemble_measured_no_separator(texts, max_tokens, count, separator="\n\n"):
    return l5_assemble(texts, max_tokens, count, separator, measure=lambda kept, text: count("".join(kept + [text])))


@mutant("q5.3", "stops at the first text that does not fit")
def assemble_measured_stop(texts, max_tokens, count, separator="\n\n"):
    return l5_assemble(texts, max_tokens, count, separator, stop=True)


@mutant("q5.4", "answers with chars/4 of the payload instead of its bytes")
def predict_q5_4():
    return (["k", "n"], 6)


@mutant("q5.4", "counts characters, not bytes, when packing")
def predict_q5_4_chars():
    return (["k", "n"], 23)


# === end of lesson 05 ==================================================================================


# === found by measuring the checks (`make check-mutation`, issue 22): each got full marks before =======
# The first five are the wrong answers a learner reported; the rest are mutants of the worked answers that
# the measurement found keeping full marks, written as a learner would. Fixed cases catch them all, with a
# plain input; the generated search need not (FIXED_CASES_ONLY below).
@mutant("q1.1", "sums every cost first and keeps all when they fit: reads a generator twice")
def assemble_sums_first(chunks, max_tokens, separator="\n\n"):
    total = sum(chunk["token_count"] for chunk in chunks)
    if total <= max_tokens:
        return separator.join(chunk["text"] for chunk in chunks), total
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used


@mutant("q1.2", "refuses str and mappings, but not bytes or sets: set() and b'' give ('', 0)")
def assemble_accepts_bytes_and_sets(chunks, max_tokens, separator="\n\n"):
    if isinstance(chunks, (bytes, Set)):
        chunks = list(chunks)
    return good_assemble(chunks, max_tokens, separator)


@mutant("q1.2", "looks for the two keys without checking that a chunk is a mapping")
def assemble_keys_only(chunks, max_tokens, separator="\n\n"):
    chunks = as_list("chunks", chunks)
    for chunk in chunks:
        if "text" not in chunk or "token_count" not in chunk:
            raise ValueError("a chunk needs text and token_count")
    return good_assemble(chunks, max_tokens, separator)


@mutant("q2.1", "fills a str.format template with the question: braces in the question break it")
def render_prompt_format(question, passages):
    lines = "".join(f"[{key}] {text}\n" for key, text in passages)
    return ("Question: " + question + "\nSources:\n{}Answer:").format(lines)


@mutant("q2.1", "strips each id")
def render_prompt_stripping_ids(question, passages):
    return render(question, [(key.strip(), text) for key, text in passages])


@mutant("q2.2", "validates a generator, then packs its empty remainder")
def pack_prompt_reads_twice(question, passages, limit, count):
    check_passages(passages)
    chosen, skipped = [], []
    for key, text in passages:
        if count(render(question, chosen + [(key, text)])) <= limit:
            chosen.append((key, text))
        else:
            skipped.append(key)
    return chosen, skipped, render(question, chosen)


@mutant("q2.3", "refuses str and mappings, but not bytes or sets: set() and b'' give an empty packing")
def pack_prompt_accepts_bytes_and_sets(question, passages, limit, count):
    if isinstance(passages, (bytes, Set)):
        passages = list(passages)
    return good_pack_prompt(question, passages, limit, count)


@mutant("q2.3", "forbids [, ] and \\n in ids but not \\r")
def pack_prompt_accepts_carriage_return(question, passages, limit, count):
    return good_pack_prompt(question, passages, limit, count, breaks="\n")


@mutant("q2.3", "forbids \\n and \\r in ids but no other line break str.splitlines knows")
def pack_prompt_two_line_breaks(question, passages, limit, count):
    return good_pack_prompt(question, passages, limit, count, breaks="\n\r")


@mutant("q2.3", "refuses a pair given as a list")
def pack_prompt_tuples_only(question, passages, limit, count):
    return good_pack_prompt(question, passages, limit, count, pairs=tuple)


@mutant("q2.3", "takes a count of 0 for a broken counter")
def pack_prompt_no_zero_counts(question, passages, limit, count):
    def positive(text):
        units = count(text)
        if units == 0:
            raise ValueError("count returned 0")
        return units

    if not callable(count):
        raise ValueError("count must be a function")
    return good_pack_prompt(question, passages, limit, positive)


@mutant("q3.1", "validates a generator, then packs its empty remainder")
def pack_utf8_reads_twice(passages, limit, reserve):
    check_passages(passages)
    return good_pack_utf8(passages, limit, reserve)


@mutant("q3.1", "builds each line with str.format around the id: braces in a text break it")
def pack_utf8_format(passages, limit, reserve):
    payload, used, kept = "Sources:\n", 9, []
    for key, text in passages:
        line = ("[{}] " + text + "\n").format(key)
        if used + utf8_size(line) + reserve <= limit:
            payload, used = payload + line, used + utf8_size(line)
            kept.append(key)
    return payload, kept


@mutant("q3.2", "refuses str and mappings, but not bytes or sets: set() and b'' give the header alone")
def pack_utf8_accepts_bytes_and_sets(passages, limit, reserve):
    if isinstance(passages, (bytes, Set)):
        passages = list(passages)
    return good_pack_utf8(passages, limit, reserve)


@mutant("q3.2", "forbids [, ] and \\n in ids but not \\r")
def pack_utf8_accepts_carriage_return(passages, limit, reserve):
    return good_pack_utf8(passages, limit, reserve, breaks="\n")


@mutant("q3.2", "forbids \\n and \\r in ids but no other line break str.splitlines knows ('\\x0b', '\\x85', '\\u2028')")
def pack_utf8_two_line_breaks(passages, limit, reserve):
    return good_pack_utf8(passages, limit, reserve, breaks="\n\r")


@mutant("q3.1", "writes each text as it is, without folding its line breaks (a passage can forge a source)")
def pack_utf8_unfolded(passages, limit, reserve):
    return good_pack_utf8(passages, limit, reserve, folded=False)


@mutant("q3.2", "takes any two-item sequence for a pair, so 'ab' is the pair ('a', 'b')")
def pack_utf8_strings_as_pairs(passages, limit, reserve):
    passages = as_list("passages", passages)
    return good_pack_utf8([tuple(item) if isinstance(item, str) else item for item in passages], limit, reserve)


@mutant("q4.2", "builds each section with a str.format template: braces in a text break it")
def build_prompt_format(sections):
    return "\n\n".join(("{}:\n" + sections[key]).format(key.upper()) for key in SECTION_ORDER)


@mutant("q4.3", "looks for the marker in any case")
def check_sections_any_case(sections, budget=500):
    return good_check_sections(sections, budget, has_marker=lambda prompt: "key: value" in prompt.lower())


@mutant("q4.4", "compares the keys without checking that section_chars is a mapping")
def plan_headroom_any_container(section_chars, budget):
    if set(section_chars) != set(SECTION_ORDER):
        raise ValueError("section_chars must name the five sections")
    return good_plan_headroom(section_chars, budget)


@mutant("q5.1", "accepts a dict whose keys are counts")
def headroom_accepts_dicts(tokens, estimates, percent):
    return l5_headroom(list(tokens) if isinstance(tokens, dict) else tokens, estimates, percent)


@mutant("q5.1", "accepts a float token count")
def headroom_accepts_floats(tokens, estimates, percent):
    if isinstance(tokens, list) and any(type(t) is float for t in tokens):
        return l5_headroom(tokens, estimates, percent, validate=False)
    return l5_headroom(tokens, estimates, percent)


@mutant("q5.1", "takes the nearest rank as round(percent * n / 100)")
def headroom_rounded_rank(tokens, estimates, percent):
    return l5_headroom(tokens, estimates, percent, position=lambda p, n: max(0, round(p * n / 100) - 1))


@mutant("q5.3", "accepts a str of texts, one character each")
def assemble_measured_accepts_str(texts, max_tokens, count, separator="\n\n"):
    return l5_assemble(list(texts) if isinstance(texts, str) else texts, max_tokens, count, separator)


@mutant("q5.3", "checks that the counter returns an int, but not that it is non-negative")
def assemble_measured_negative_counts(texts, max_tokens, count, separator="\n\n"):
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise ValueError("texts must be a list of str")
    need_count("max_tokens", max_tokens)
    if not isinstance(separator, str):
        raise ValueError("separator must be a str")
    kept, used = [], 0
    for text in texts:
        measured = count(separator.join(kept + [text]))
        if type(measured) is not int:
            raise ValueError("count must return an int")
        if measured <= max_tokens:
            kept.append(text)
            used = measured
    return separator.join(kept), used


@mutant("q6.3", "compares in floating point: 7 >= 0.28 * 25 is False")
def above_cutoff_floats(scored, share):
    best = max((score for _, score in scored), default=0)
    return [key for key, score in scored if score >= share * best]


# --- lesson 07 ---------------------------------------------------------------------------------------
# A learner's pack_request, with its rules as switches; each mutant below breaks one of them.
def good_pack_request(
    question,
    passages,
    window,
    max_output,
    count,
    system="",
    *,
    reserve=True,
    strict=False,
    stop=False,
    alone=False,
    measured_system=True,
    empty_system=False,
    last_measured=False,
    check_every_count=True,
    base_reserve=True,
    allow_bool=False,
    ids_when_kept=False,
    breaks=None,
):
    if not isinstance(question, str) or not isinstance(system, str) or not callable(count):
        raise ValueError("question and system must be str, count a function")
    need_count("window", window, allow_bool)
    need_count("max_output", max_output, allow_bool)
    passages = check_passages(passages, ids=not ids_when_kept, breaks=breaks)

    def request(kept, with_system=True):
        user = {"role": "user", "content": render(question, kept)}
        return [{"role": "system", "content": system}, user] if (system or empty_system) and with_system else [user]

    def measure(messages, checked=True):
        n = count(request_for_count(messages))
        if checked and (type(n) is not int or n < 0):
            raise ValueError("count must return a non-negative int")
        return n

    def request_for_count(messages):
        return messages if measured_system else [m for m in messages if m["role"] != "system"]

    room = window - max_output if reserve else window
    messages = request([])
    if measure(messages) + (max_output if base_reserve else 0) > window:
        raise ValueError("the base request and max_output are over the window")
    chosen, skipped = [], []
    for key, text in passages:
        candidate = request([(key, text)] if alone else chosen + [(key, text)])
        tokens = measure(candidate, check_every_count)
        fits_now = tokens < room if strict else tokens <= room
        if last_measured:
            messages = request(chosen + [(key, text)])
        if fits_now:
            if ids_when_kept and (bad_id(key) or key in [k for k, _ in chosen]):
                raise ValueError(f"bad or repeated id {key!r}")
            chosen.append((key, text))
            messages = request(chosen)
        else:
            skipped.append(key)
            if stop:
                skipped += [k for k, _ in passages[len(chosen) + len(skipped) :]]
                break
    return chosen, skipped, messages


def good_fits(input_tokens, max_output, window, allow_bool=False, strict=False):
    for name, value in (("input_tokens", input_tokens), ("max_output", max_output), ("window", window)):
        need_count(name, value, allow_bool)
    return input_tokens + max_output < window if strict else input_tokens + max_output <= window


CORRECT += [
    ("q7.1", good_pack_request),
    ("q7.2", good_pack_request),
    ("q7.3", good_fits),
    ("q7.4", lambda: (51, 46)),
]


@mutant("q7.1", "forgets the output reserve: keeps a passage while the request alone fits the window")
def pack_request_no_reserve(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, reserve=False)


@mutant("q7.1", "keeps a passage only while input + max_output < window (an exact fit is refused)")
def pack_request_strict(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, strict=True)


@mutant("q7.1", "stops at the first passage that does not fit instead of skipping it")
def pack_request_stops(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, stop=True)


@mutant("q7.1", "measures the request with the candidate passage alone, not with those already chosen")
def pack_request_passage_alone(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, alone=True)


@mutant("q7.1", "measures the user's message only: the system prompt is left out of the count")
def pack_request_uncounted_system(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, measured_system=False)


@mutant("q7.1", "drops the system message from the request it returns and measures")
def pack_request_drops_system(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, "")


@mutant("q7.1", "adds an empty system message when system is ''")
def pack_request_empty_system(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, empty_system=True)


@mutant("q7.1", "returns the last candidate measured, even when it was skipped")
def pack_request_last_candidate(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, last_measured=True)


@mutant("q7.1", "reads passages twice: a generator's passages are gone on the second pass")
def pack_request_reads_twice(question, passages, window, max_output, count, system=""):
    if not isinstance(passages, (list, tuple)):
        list(passages)  # a first look
    return good_pack_request(question, passages, window, max_output, count, system)


@mutant("q7.1", "adds each line's own request count to the base request's instead of re-measuring")
def pack_request_adds_lines(question, passages, window, max_output, count, system=""):
    base = [{"role": "system", "content": system}] if system else []
    used = count([*base, {"role": "user", "content": render(question, [])}])
    chosen, skipped = [], []
    for key, text in passages:
        cost = count([{"role": "user", "content": f"[{key}] {text}\n"}])
        if used + cost + max_output <= window:
            chosen.append((key, text))
            used += cost
        else:
            skipped.append(key)
    return chosen, skipped, [*base, {"role": "user", "content": render(question, chosen)}]


@mutant("q7.2", "accepts True and False for window and max_output")
def pack_request_bools(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, allow_bool=True)


@mutant("q7.2", "checks only the base request's count, not the candidates'")
def pack_request_checks_base_only(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, check_every_count=False)


@mutant("q7.2", "refuses a base request over the window, forgetting max_output there")
def pack_request_base_without_reserve(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, base_reserve=False)


@mutant("q7.2", "checks ids (empty, [, ], a line break, a repeat) only on the passages it keeps")
def pack_request_ids_when_kept(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, ids_when_kept=True)


@mutant("q7.2", "forbids \\n and \\r in ids but no other line break str.splitlines knows ('\\x0b', '\\x85', '\\u2028')")
def pack_request_two_line_breaks(question, passages, window, max_output, count, system=""):
    return good_pack_request(question, passages, window, max_output, count, system, breaks="\n\r")


@mutant("q7.2", "never checks that max_output is within the window, nor the base request")
def pack_request_no_window_check(question, passages, window, max_output, count, system=""):
    if not isinstance(question, str) or not isinstance(system, str) or not callable(count):
        raise ValueError("question and system must be str, count a function")
    need_count("window", window)
    need_count("max_output", max_output)
    passages = check_passages(passages)
    chosen, skipped = [], []
    for key, text in passages:
        tokens = count(
            [
                *([{"role": "system", "content": system}] if system else []),
                {"role": "user", "content": render(question, chosen + [(key, text)])},
            ]
        )
        if type(tokens) is not int or tokens < 0:
            raise ValueError("count must return a non-negative int")
        (chosen.append((key, text)) if tokens + max_output <= window else skipped.append(key))
    user = {"role": "user", "content": render(question, chosen)}
    return chosen, skipped, [{"role": "system", "content": system}, user] if system else [user]


@mutant("q7.3", "says a request fits only when input + max_output < window (an exact fit is refused)")
def fits_strict(input_tokens, max_output, window):
    return good_fits(input_tokens, max_output, window, strict=True)


@mutant("q7.3", "accepts True and False as token counts")
def fits_bools(input_tokens, max_output, window):
    return good_fits(input_tokens, max_output, window, allow_bool=True)


@mutant("q7.3", "forgets the reserve: input_tokens <= window")
def fits_no_reserve(input_tokens, max_output, window):
    good_fits(input_tokens, max_output, window)
    return input_tokens <= window


@mutant("q7.4", "counts [INST] and [/INST] as one token each in v1, as in v7")
def predict_q7_4_inst_one_token():
    return (46, 46)


@mutant("q7.4", "forgets <s> in both templates")
def predict_q7_4_no_bos():
    return (50, 45)


@mutant("q7.4", "forgets v7's [SYSTEM_PROMPT] markers")
def predict_q7_4_no_system_markers():
    return (51, 44)


# === lesson 08 (beyond greedy): its own block, so merges with edits above stay easy ==================
L8_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"


def l8_shingles(text, size=3):
    """The exercise's setup cell's shingles (the learner is given it)."""
    words = re.findall(rf"[{L8_CJK}]|[^\W_{L8_CJK}]+", text.lower())
    if len(words) < size:
        return {tuple(words)} if words else set()
    return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}


def good_ends_first(ranked):
    return ranked[0::2] + ranked[1::2][::-1]


def good_jaccard(a, b):
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def good_drop_near_duplicates(passages, threshold, shingled=l8_shingles, strict=False, every=False, most=False):
    kept, dropped, seen = [], [], []
    for key, text in passages:
        mine = shingled(text)
        against = seen if every else kept
        scores = [(good_jaccard(mine, shingled(t)), k) for k, t in against]
        hits = [(s, k) for s, k in scores if (s > threshold if strict else s >= threshold)]
        if hits:
            dropped.append((key, max(hits, key=lambda h: h[0])[1] if most else hits[0][1]))
        else:
            kept.append((key, text))
        seen.append((key, text))
    return kept, dropped


def exact(number):
    """A number as the decimal it is written as: exact(0.1) is 1/10 (q8.4 compares scores exactly)."""
    return Fraction(str(number))


def good_mmr_order(relevance, similarity, lam, penalty=None, weight=None, first=None, later_ties=False):
    relevance, lam = [exact(r) for r in relevance], exact(lam)
    similarity = [[exact(cell) for cell in row] for row in similarity]
    order, remaining = [], list(range(len(relevance)))
    while remaining:
        scores = {}
        for i in remaining:
            if order:
                taken = penalty(similarity, i, order, remaining) if penalty else max(similarity[i][t] for t in order)
            else:
                taken = first(similarity, i) if first else 0
            scores[i] = lam * relevance[i] - (weight(lam) if weight else 1 - lam) * taken
        ranked = sorted(remaining, key=lambda i: (scores[i], i if later_ties else -i))
        order.append(ranked[-1])
        remaining.remove(ranked[-1])
    return order


def good_pack_parts(
    parts,
    limit,
    count,
    one_by_one=False,
    skip=False,
    reserves="kept",
    adding=False,
    refuse=False,
    by_priority=False,
):
    def prompt_of(kept):
        ordered = sorted(parts, key=lambda p: -p[2]) if by_priority else parts
        return "".join(p[1] for p in ordered if p[0] in kept)

    def cost(kept):
        measured = sum(count(p[1]) for p in parts if p[0] in kept) if adding else count(prompt_of(kept))
        reserved = {"kept": lambda p: p[0] in kept, "none": lambda p: False, "all": lambda p: True}[reserves]
        return measured + sum(p[4] for p in parts if reserved(p))

    kept = {p[0] for p in parts if p[3]}
    if cost(kept) > limit:
        raise ValueError("the required parts do not fit")
    for level in sorted({p[2] for p in parts if not p[3]}, reverse=True):
        group = [p[0] for p in parts if not p[3] and p[2] == level]
        if one_by_one:
            for name in group:
                if cost(kept | {name}) <= limit:
                    kept = kept | {name}
            continue
        if cost(kept | set(group)) <= limit:
            kept = kept | set(group)
        elif refuse:
            raise ValueError("the optional parts do not fit")
        elif not skip:
            break
    names = [p[0] for p in parts]
    return [n for n in names if n in kept], [n for n in names if n not in kept], prompt_of(kept)


CORRECT += [
    ("q8.1", good_ends_first),
    ("q8.2", good_jaccard),
    ("q8.3", good_drop_near_duplicates),
    ("q8.4", good_mmr_order),
    ("q8.5", good_pack_parts),
    ("q8.6", lambda: (["doc-1", "question"], 38)),
]


@mutant("q8.1", "puts the best last: the ends-first order reversed")
def ends_first_reversed(ranked):
    return (ranked[0::2] + ranked[1::2][::-1])[::-1]


@mutant("q8.1", "puts the even ranks in front: 2 4 6 ... 5 3 1")
def ends_first_even_in_front(ranked):
    return ranked[1::2] + ranked[0::2][::-1]


@mutant("q8.1", "alternates one off: best first, then 2 4 6 ... at the front")
def ends_first_off_by_one(ranked):
    return ranked[:1] + ranked[1::2] + ranked[2::2][::-1]


@mutant("q8.1", "fills from both ends until they meet, and loses the middle item of an odd number")
def ends_first_drops_middle(ranked):
    front, back = [], []
    for i in range(len(ranked) // 2):
        front.append(ranked[2 * i])
        back.append(ranked[2 * i + 1])
    return front + back[::-1]


@mutant("q8.1", "fills from both ends until they meet, and writes the middle item of an odd number twice")
def ends_first_doubles_middle(ranked):
    result = [None] * len(ranked)
    low, high = 0, len(ranked) - 1
    for rank, item in enumerate(ranked):
        if rank % 2 == 0:
            result[low] = item
            low += 1
        else:
            result[high] = item
            high -= 1
    if len(ranked) % 2:
        result[low] = ranked[len(ranked) // 2]  # "the middle one", by its place in ranked
    return result


@mutant("q8.1", "sorts the items and orders the sorted ones, instead of moving positions")
def ends_first_sorted(ranked):
    items = sorted(ranked)
    return items[0::2] + items[1::2][::-1]


@mutant("q8.1", "builds the result by popping from the argument, which is left empty")
def ends_first_pops(ranked):
    front, back = [], []
    while ranked:
        front.append(ranked.pop(0))
        if ranked:
            back.insert(0, ranked.pop(0))
    return front + back


@mutant("q8.2", "divides by the smaller set: |A ∩ B| / min(|A|, |B|)")
def jaccard_min(a, b):
    if not a and not b:
        return 1.0
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


@mutant("q8.2", "divides by the larger set: |A ∩ B| / max(|A|, |B|)")
def jaccard_max(a, b):
    if not a and not b:
        return 1.0
    return len(a & b) / max(len(a), len(b))


@mutant("q8.2", "divides by |A| + |B|, which counts the shared shingles twice")
def jaccard_sum(a, b):
    if not a and not b:
        return 1.0
    return len(a & b) / (len(a) + len(b))


@mutant("q8.2", "says two empty sets share nothing: 0.0")
def jaccard_empty_zero(a, b):
    return len(a & b) / len(a | b) if a or b else 0.0


@mutant("q8.2", "divides by zero for two empty sets")
def jaccard_empty_raises(a, b):
    return len(a & b) / len(a | b)


@mutant("q8.3", "drops only above the threshold (> instead of >=)")
def drop_near_duplicates_strict(passages, threshold):
    return good_drop_near_duplicates(passages, threshold, strict=True)


@mutant("q8.3", "compares with every earlier passage, the dropped ones too")
def drop_near_duplicates_every_earlier(passages, threshold):
    return good_drop_near_duplicates(passages, threshold, every=True)


@mutant("q8.3", "reports the most similar kept passage instead of the first")
def drop_near_duplicates_most_similar(passages, threshold):
    return good_drop_near_duplicates(passages, threshold, most=True)


@mutant("q8.3", "shingles characters (3 letters at a time) instead of words")
def drop_near_duplicates_characters(passages, threshold):
    def letters(text):
        text = text.lower()
        return {text[i : i + 3] for i in range(len(text) - 2)} or ({text} if text else set())

    return good_drop_near_duplicates(passages, threshold, shingled=letters)


@mutant("q8.3", "shingles the words as written, without lower-casing them")
def drop_near_duplicates_cased(passages, threshold):
    def cased(text):
        words = re.findall(r"[^\W_]+", text)
        if len(words) < 3:
            return {tuple(words)} if words else set()
        return {tuple(words[i : i + 3]) for i in range(len(words) - 2)}

    return good_drop_near_duplicates(passages, threshold, shingled=cased)


@mutant("q8.3", "drops both passages of a near-duplicate pair, keeping neither")
def drop_near_duplicates_neither(passages, threshold):
    kept, dropped = [], []
    for key, text in passages:
        twins = [
            other
            for other, other_text in passages
            if other != key and good_jaccard(l8_shingles(text), l8_shingles(other_text)) >= threshold
        ]
        if twins:
            dropped.append((key, twins[0]))
        else:
            kept.append((key, text))
    return kept, dropped


@mutant("q8.4", "sums the similarities to the taken passages instead of taking the largest")
def mmr_order_sum(relevance, similarity, lam):
    return good_mmr_order(relevance, similarity, lam, penalty=lambda s, i, order, rest: sum(s[i][t] for t in order))


@mutant("q8.4", "penalises the similarity to every other passage, not only to the taken ones")
def mmr_order_all_others(relevance, similarity, lam):
    def everyone(s, i):
        return max((s[i][j] for j in range(len(s)) if j != i), default=0)

    return good_mmr_order(relevance, similarity, lam, penalty=lambda s, i, order, rest: everyone(s, i), first=everyone)


@mutant("q8.4", "forgets (1 - lam): subtracts the whole similarity")
def mmr_order_no_weight(relevance, similarity, lam):
    return good_mmr_order(relevance, similarity, lam, weight=lambda lam: 1)


@mutant("q8.4", "penalises the first pick with its similarity to itself")
def mmr_order_first_self(relevance, similarity, lam):
    return good_mmr_order(relevance, similarity, lam, first=lambda s, i: s[i][i])


@mutant("q8.4", "breaks ties towards the higher index")
def mmr_order_later_ties(relevance, similarity, lam):
    return good_mmr_order(relevance, similarity, lam, later_ties=True)


@mutant("q8.4", "starts the largest similarity at 0, so a negative similarity is never subtracted")
def mmr_order_penalty_from_zero(relevance, similarity, lam):
    return good_mmr_order(
        relevance, similarity, lam, penalty=lambda s, i, order, rest: max([0] + [s[i][t] for t in order])
    )


@mutant("q8.5", "adds the parts of a priority one at a time, keeping each that fits")
def pack_parts_one_by_one(parts, limit, count):
    return good_pack_parts(parts, limit, count, one_by_one=True)


@mutant("q8.5", "skips a priority that does not fit and carries on with the next")
def pack_parts_skips(parts, limit, count):
    return good_pack_parts(parts, limit, count, skip=True)


@mutant("q8.5", "forgets the reserves")
def pack_parts_no_reserves(parts, limit, count):
    return good_pack_parts(parts, limit, count, reserves="none")


@mutant("q8.5", "counts the reserves of cut parts too")
def pack_parts_cut_reserves(parts, limit, count):
    return good_pack_parts(parts, limit, count, reserves="all")


@mutant("q8.5", "adds the counts of the parts instead of measuring the whole prompt")
def pack_parts_adding(parts, limit, count):
    return good_pack_parts(parts, limit, count, adding=True)


@mutant("q8.5", "raises ValueError when an optional priority does not fit, instead of cutting it")
def pack_parts_refuses(parts, limit, count):
    return good_pack_parts(parts, limit, count, refuse=True)


@mutant("q8.5", "renders and measures the prompt in priority order, not in the parts' order")
def pack_parts_priority_order(parts, limit, count):
    return good_pack_parts(parts, limit, count, by_priority=True)


@mutant("q8.6", "adds the parts of priority 2 one at a time: doc-2 fits after doc-1")
def predict_q8_6_one_by_one():
    return (["doc-1", "doc-2", "question"], 47)


@mutant("q8.6", "skips priority 2 and carries on: cite fits")
def predict_q8_6_skips():
    return (["cite", "doc-1", "question"], 49)


@mutant("q8.6", "forgets the reserves: everything fits")
def predict_q8_6_no_reserves():
    return (["cite", "doc-1", "doc-2", "doc-3", "question"], 36)


@mutant("q8.6", "counts cite's reserve although cite is cut")
def predict_q8_6_cut_reserve():
    return (["doc-1", "question"], 46)


@mutant("q8.6", "lists the kept names in priority order, the required part first")
def predict_q8_6_priority_order():
    return (["question", "doc-1"], 38)


# --- lesson 09 ---------------------------------------------------------------------------------------
# Learner-style correct answers with one rule switchable off each; the mutants below are one broken rule each.
ROLES = ("system", "user", "assistant", "tool")


def good_group_turns(
    messages,
    roles=ROLES,
    ids_per_turn=True,
    latest_calls=True,
    system_in_turn=False,
    merge_users=False,
    answered_anywhere=False,
    system_alone_ok=False,
    tuples=False,
    counted=False,
    forget_waiting=False,
    twice_next_only=False,
    in_turn_only=False,
):
    """A learner's group_turns; each flag breaks one rule. `counted`: results matched to calls by counting ids
    per turn (a result may come before its call); `forget_waiting`: the calls still awaited are forgotten when
    the next call message comes; `twice_next_only`: a second result refused only right after the first;
    `in_turn_only`: a call's results may come anywhere later in its turn, not only right after it."""
    if not messages:
        raise ValueError("empty")
    for message in messages:
        if message["role"] not in roles:
            raise ValueError("unknown role")
    system = messages[:1] if messages[0]["role"].lower() == "system" else []
    turns, waiting, called, ever = [], set(), set(), set()
    results = []  # counted: the result ids of the turn

    def turn_complete():
        if counted and sorted(called) != sorted(results):
            raise ValueError("calls and results do not match")
        if not counted and waiting:
            raise ValueError("dangling")

    for message in messages[len(system) :]:
        role = message["role"].lower()
        strict = not (in_turn_only or counted or twice_next_only or (forget_waiting and message.get("tool_calls")))
        if strict and waiting and role != "tool":
            raise ValueError("a call's results must come right after it")
        if role == "system":
            raise ValueError("system later")
        if role == "user":
            if turns and len(turns[-1]) == 1:
                if merge_users:
                    turns[-1].append(message)
                    continue
                raise ValueError("two users")
            turn_complete()
            turns.append([message])
            called = called if not ids_per_turn else set()
            results = []
            continue
        if not turns:
            raise ValueError("not user first")
        if role == "tool":
            if counted:
                results.append(message["tool_call_id"])
            elif twice_next_only:
                if message["tool_call_id"] not in called:
                    raise ValueError("no call")
                if turns[-1][-1].get("tool_call_id") == message["tool_call_id"]:
                    raise ValueError("answered twice")
            elif message["tool_call_id"] not in (ever if answered_anywhere else waiting):
                raise ValueError("no call")
            waiting.discard(message["tool_call_id"])
        if forget_waiting and message.get("tool_calls"):
            waiting = set()  # the calls of this message are the ones awaited now
        for call in message.get("tool_calls", []):
            if call["id"] in called:
                raise ValueError("id twice")
            called.add(call["id"])
            waiting.add(call["id"])
            ever.add(call["id"])
        turns[-1].append(message)
    if not turns and not system_alone_ok:
        raise ValueError("no turn")
    if latest_calls:
        turn_complete()
    if system_in_turn and system and turns:
        turns[0] = system + turns[0]
    if tuples:
        return system, [tuple(turn) for turn in turns]
    return system, turns


def good_pack_history(
    messages,
    limit,
    count,
    alone=False,
    strict=False,
    newest_first=False,
    by_message=False,
    no_system=False,
    unchecked=False,
    zero_shortcut=False,
    grow_back=False,
    bisect=False,
    zero_after_base=False,
):
    """A learner's pack_history; each flag breaks one rule. `zero_shortcut`: a limit of 0 returns the
    conversation whole before anything is measured; `grow_back`: grows the request from the latest turn
    backwards, adding earlier turns while the whole request fits; `bisect`: binary-searches how many oldest
    turns to drop (both measure other requests than the prescribed oldest-first order)."""
    system, turns = good_group_turns(messages)
    need_count("limit", limit)
    if not callable(count):
        raise ValueError("count must be callable")
    flat = lambda ts: [m for t in ts for m in t]  # noqa: E731
    if zero_shortcut and limit == 0:
        return system + flat(turns), []

    def measure(request):
        tokens = count(request)
        if not unchecked and (type(tokens) is not int or tokens < 0):
            raise ValueError("count must return a non-negative int")
        return tokens

    def fits(tokens):
        return tokens < limit if strict else tokens <= limit

    if not fits(measure(system + turns[-1])):
        raise ValueError("the latest turn does not fit")
    if zero_after_base and not limit:
        return system + flat(turns), []
    if grow_back:  # the latest turn, then one earlier turn more at a time, while the whole request fits
        first = len(turns) - 1
        while first > 0 and fits(measure(system + flat(turns[first - 1 :]))):
            first -= 1
        return system + flat(turns[first:]), turns[:first]
    if bisect:  # the most turns kept, by halving: `low` turns are known to fit, more than `high` not to
        low, high = 1, len(turns)
        while low < high:
            middle = (low + high + 1) // 2
            if fits(measure(system + flat(turns[-middle:]))):
                low = middle
            else:
                high = middle - 1
        return system + flat(turns[-low:]), turns[:-low]
    if alone:  # the base, then each earlier turn measured alone, newest first, added up
        used, first = measure(system + turns[-1]), len(turns) - 1
        while first > 0 and fits(used + measure(turns[first - 1])):
            used += measure(turns[first - 1])
            first -= 1
        return system + flat(turns[first:]), turns[:first]
    if by_message:  # drops single messages, oldest first, which can split a call from its result
        rest = flat(turns)
        while len(rest) > len(turns[-1]) and not fits(measure(system + rest)):
            rest = rest[1:]
        return system + rest, []
    if newest_first:  # keeps the oldest earlier turns that fit, dropping the newest ones
        earlier = turns[:-1]
        for n in range(len(earlier), -1, -1):
            if n == 0 or fits(measure(system + flat(earlier[:n] + turns[-1:]))):
                return system + flat(earlier[:n] + turns[-1:]), earlier[n:]
    first = 0
    while first < len(turns) - 1 and not fits(measure((turns[0][:0] if no_system else system) + flat(turns[first:]))):
        first += 1
    return system + flat(turns[first:]), turns[:first]


def good_common_prefix_length(a, b, every=False, plus_one=False):
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            if every:
                continue
            return shared + (1 if plus_one else 0)
        shared += 1
    return shared


def good_clear_then_drop(
    messages,
    limit,
    count,
    keep_last,
    always=False,
    drop_first=False,
    keep_first=False,
    spare_latest=False,
    in_place=False,
    remove=False,
    negative_slice=False,
    lazy_check=False,
):
    if not lazy_check:
        need_count("keep_last", keep_last)
    kept, dropped = good_pack_history(messages, limit, count)
    if not dropped and not always:
        return kept
    need_count("keep_last", keep_last)
    if drop_first:
        messages = kept
    latest = len(messages) - len(good_group_turns(messages)[1][-1])
    results = [i for i, m in enumerate(messages) if m["role"] == "tool" and not (spare_latest and i >= latest)]
    if keep_first:
        chosen = results[keep_last:]
    elif negative_slice:
        chosen = results[:-keep_last] if keep_last else results[:0]
    else:
        chosen = results[: max(0, len(results) - keep_last)]
    cleared = messages if in_place else list(messages)
    for i in chosen:
        if in_place:
            cleared[i]["content"] = PLACEHOLDER_09
        else:
            cleared[i] = {**messages[i], "content": PLACEHOLDER_09}
    if remove:  # drops the cleared results and their calls instead of keeping a placeholder
        gone = {cleared[i]["tool_call_id"] for i in chosen}
        cleared = [
            m
            for m in cleared
            if not (m["role"] == "tool" and m["content"] == PLACEHOLDER_09)
            and not ("tool_calls" in m and {c["id"] for c in m["tool_calls"]} <= gone)
        ]
    if drop_first:
        return cleared
    return good_pack_history(cleared, limit, count)[0]


PLACEHOLDER_09 = "[tool result cleared to save context]"
CORRECT += [
    ("q9.1", good_group_turns),
    ("q9.2", good_pack_history),
    ("q9.3", good_common_prefix_length),
    ("q9.4", good_clear_then_drop),
    ("q9.5", lambda: (2, 3, 110)),
]


@mutant("q9.1", "accepts any role")
def group_turns_any_role(messages):
    return good_group_turns(messages, roles=(*ROLES, "bot", "System", "developer", "function", ""))


@mutant("q9.1", "compares roles without case: 'System' passes as a system message")
def group_turns_any_case(messages):
    return good_group_turns(messages, roles=(*ROLES, "System", "USER"))


@mutant("q9.1", "keeps call ids for the whole conversation: c1 in a later turn is refused")
def group_turns_ids_for_good(messages):
    return good_group_turns(messages, ids_per_turn=False)


@mutant("q9.1", "lets a reply or another call come between a call and its result, in the same turn")
def group_turns_in_turn_only(messages):
    return good_group_turns(messages, in_turn_only=True)


@mutant("q9.1", "lets the latest turn end on a call without its result")
def group_turns_latest_call_open(messages):
    return good_group_turns(messages, latest_calls=False)


@mutant("q9.1", "puts the system message into the first turn")
def group_turns_system_in_turn(messages):
    return good_group_turns(messages, system_in_turn=True)


@mutant("q9.1", "matches results to calls by counting ids per turn: a result before its call passes")
def group_turns_counts_ids(messages):
    return good_group_turns(messages, counted=True)


@mutant("q9.1", "forgets a call still awaited when the next call message comes")
def group_turns_forgets_waiting(messages):
    return good_group_turns(messages, forget_waiting=True)


@mutant("q9.1", "refuses a second result for a call only right after the first")
def group_turns_twice_next_only(messages):
    return good_group_turns(messages, twice_next_only=True)


@mutant("q9.1", "merges two user messages in a row into one turn")
def group_turns_merges_users(messages):
    return good_group_turns(messages, merge_users=True)


@mutant("q9.1", "accepts a result for any call made before, in an earlier turn or answered already")
def group_turns_answered_anywhere(messages):
    return good_group_turns(messages, answered_anywhere=True)


@mutant("q9.1", "returns a system message alone as a conversation of no turns")
def group_turns_system_alone(messages):
    return good_group_turns(messages, system_alone_ok=True)


@mutant("q9.1", "returns each turn as a tuple")
def group_turns_tuples(messages):
    return good_group_turns(messages, tuples=True)


@mutant("q9.2", "adds up the earlier turns measured alone instead of measuring each whole request")
def pack_history_adds_turns(messages, limit, count):
    return good_pack_history(messages, limit, count, alone=True)


@mutant("q9.2", "keeps a request only when it is under the limit (< instead of <=)")
def pack_history_strict(messages, limit, count):
    return good_pack_history(messages, limit, count, strict=True)


@mutant("q9.2", "drops the newest earlier turns first")
def pack_history_newest_first(messages, limit, count):
    return good_pack_history(messages, limit, count, newest_first=True)


@mutant("q9.2", "drops single messages, oldest first, splitting a call from its result")
def pack_history_by_message(messages, limit, count):
    return good_pack_history(messages, limit, count, by_message=True)


@mutant("q9.2", "measures the turns without the system message")
def pack_history_no_system(messages, limit, count):
    return good_pack_history(messages, limit, count, no_system=True)


@mutant("q9.2", "trusts the counter: 2.5 or -1 is compared with the limit")
def pack_history_unchecked(messages, limit, count):
    return good_pack_history(messages, limit, count, unchecked=True)


@mutant("q9.2", "returns the conversation whole for a limit of 0, before measuring anything")
def pack_history_zero_shortcut(messages, limit, count):
    return good_pack_history(messages, limit, count, zero_shortcut=True)


@mutant("q9.2", "returns the conversation whole for a limit of 0 once the latest turn alone fits it")
def pack_history_zero_after_base(messages, limit, count):
    return good_pack_history(messages, limit, count, zero_after_base=True)


@mutant("q9.2", "grows the request from the latest turn backwards instead of dropping the oldest first")
def pack_history_grows_back(messages, limit, count):
    return good_pack_history(messages, limit, count, grow_back=True)


@mutant("q9.2", "binary-searches the number of oldest turns to drop instead of trying them oldest first")
def pack_history_bisects(messages, limit, count):
    return good_pack_history(messages, limit, count, bisect=True)


@mutant("q9.2", "accepts True as a limit")
def pack_history_bool_limit(messages, limit, count):
    return good_pack_history(messages, int(limit) if isinstance(limit, bool) else limit, count)


@mutant("q9.3", "counts every position where the two agree, not only the leading run")
def common_prefix_every(a, b):
    return good_common_prefix_length(a, b, every=True)


@mutant("q9.3", "counts the first differing id too")
def common_prefix_plus_one(a, b):
    return good_common_prefix_length(a, b, plus_one=True)


@mutant("q9.3", "counts the ids the two share, in any place")
def common_prefix_shared_ids(a, b):
    return len(set(a) & set(b))


@mutant("q9.4", "clears the old results even when everything fits")
def clear_then_drop_always(messages, limit, count, keep_last):
    return good_clear_then_drop(messages, limit, count, keep_last, always=True)


@mutant("q9.4", "drops turns first, then clears the results of the kept ones")
def clear_then_drop_drops_first(messages, limit, count, keep_last):
    return good_clear_then_drop(messages, limit, count, keep_last, drop_first=True)


@mutant("q9.4", "keeps the first keep_last results instead of the last")
def clear_then_drop_keeps_first(messages, limit, count, keep_last):
    return good_clear_then_drop(messages, limit, count, keep_last, keep_first=True)


@mutant("q9.4", "never clears a result of the latest turn")
def clear_then_drop_spares_latest(messages, limit, count, keep_last):
    return good_clear_then_drop(messages, limit, count, keep_last, spare_latest=True)


@mutant("q9.4", "writes the placeholder into the caller's messages")
def clear_then_drop_in_place(messages, limit, count, keep_last):
    return good_clear_then_drop(messages, limit, count, keep_last, in_place=True)


@mutant("q9.4", "removes cleared results and their calls instead of writing the placeholder")
def clear_then_drop_removes(messages, limit, count, keep_last):
    return good_clear_then_drop(messages, limit, count, keep_last, remove=True)


@mutant("q9.4", "slices results[:-keep_last], which clears all but the first ones when keep_last is larger")
def clear_then_drop_negative_slice(messages, limit, count, keep_last):
    return good_clear_then_drop(messages, limit, count, keep_last, negative_slice=True)


@mutant("q9.4", "checks keep_last only when something has to be cleared")
def clear_then_drop_lazy_check(messages, limit, count, keep_last):
    return good_clear_then_drop(messages, limit, count, keep_last, lazy_check=True)


@mutant("q9.5", "keeps the first result instead of the last")
def predict_q9_5_first_result():
    return (2, 2, 68)


@mutant("q9.5", "clears the latest turn's result too")
def predict_q9_5_latest_too():
    return (2, 3, 101)


@mutant("q9.5", "stops one short: 110 is taken to be over a limit of 110")
def predict_q9_5_strict():
    return (2, 2, 77)


@mutant("q9.5", "counts a cleared result as its 6 words, without the message's 4")
def predict_q9_5_placeholder_words():
    return (2, 3, 102)


# === issue 43: twelve wrong answers that got full marks, each now caught ================================
@mutant("q5.3", "measures a separator before the first text: count(sep.join(kept) + sep + text)")
def assemble_measured_leading_separator(texts, max_tokens, count, separator="\n\n"):
    return l5_assemble(
        texts, max_tokens, count, separator, measure=lambda kept, text: count(separator.join(kept) + separator + text)
    )


@mutant("q5.3", "accepts a tuple of texts")
def assemble_measured_accepts_tuples(texts, max_tokens, count, separator="\n\n"):
    return l5_assemble(list(texts) if isinstance(texts, tuple) else texts, max_tokens, count, separator)


@mutant("q5.3", "checks the counter's result with isinstance(n, int), so True is a count")
def assemble_measured_isinstance_count(texts, max_tokens, count, separator="\n\n"):
    def measure(kept, text):
        measured = count(separator.join(kept + [text]))
        if not isinstance(measured, int) or measured < 0:
            raise ValueError("count must return a non-negative int")
        return int(measured)

    return l5_assemble(texts, max_tokens, count, separator, measure=measure)


@mutant("q5.3", "checks the counter's result only when the text fits")
def assemble_measured_checks_fitting_only(texts, max_tokens, count, separator="\n\n"):
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise ValueError("texts must be a list of str")
    need_count("max_tokens", max_tokens)
    if not isinstance(separator, str):
        raise ValueError("separator must be a str")
    kept, used = [], 0
    for text in texts:
        measured = count(separator.join(kept + [text]))
        if measured <= max_tokens:
            if type(measured) is not int or measured < 0:
                raise ValueError("count must return a non-negative int")
            kept.append(text)
            used = measured
    return separator.join(kept), used


@mutant("q5.1", "accepts tuples of counts")
def headroom_accepts_tuples(tokens, estimates, percent):
    if isinstance(tokens, tuple):
        tokens = list(tokens)
    if isinstance(estimates, tuple):
        estimates = list(estimates)
    return l5_headroom(tokens, estimates, percent)


@mutant("q5.2", "takes whitespace from string.whitespace, not str.isspace: U+3000 is missed")
def cuts_ascii_whitespace(passage, count):
    import string

    return l5_cuts(passage, count, boundary=lambda a, b: (a in string.whitespace) != (b in string.whitespace))


@mutant("q6.3", "compares in floats with a tolerance of 1e-9")
def above_cutoff_tolerance(scored, share):
    best = max((score for _, score in scored), default=0)
    return [key for key, score in scored if score >= share * best - 1e-9]


@mutant("q6.3", "compares the float ratio score / best with the share")
def above_cutoff_ratio(scored, share):
    best = max((score for _, score in scored), default=0)
    return [key for key, score in scored if best == 0 or score / best >= share]


@mutant("q6.3", "makes the share exact but leaves a float best score a float")
def above_cutoff_float_best(scored, share):
    best = max((score for _, score in scored), default=0)
    bar = Fraction(str(share)) * best  # a Fraction times a float is a float again
    return [key for key, score in scored if score >= bar]


@mutant("q2.3", "compares ids without case: 'a' and 'A' are refused as duplicates")
def pack_prompt_folded_ids(question, passages, limit, count):
    passages = check_passages(passages)  # a generator is read once, here
    folded = [key.casefold() for key, _ in passages]
    if len(set(folded)) != len(folded):
        raise ValueError("duplicate id")
    return good_pack_prompt(question, passages, limit, count)


@mutant("q7.2", "compares ids without case: 'a' and 'A' are refused as duplicates")
def pack_request_folded_ids(question, passages, window, max_output, count, system=""):
    passages = check_passages(passages)  # a generator is read once, here
    folded = [key.casefold() for key, _ in passages]
    if len(set(folded)) != len(folded):
        raise ValueError("duplicate id")
    return good_pack_request(question, passages, window, max_output, count, system)


@mutant("q8.4", "rewrites the score as lam * (relevance + m) - m: equal in algebra, rounded otherwise")
def mmr_order_rewritten(relevance, similarity, lam):
    order, remaining = [], list(range(len(relevance)))
    while remaining:
        best, best_score = None, None
        for i in remaining:
            m = max((similarity[i][t] for t in order), default=0)
            score = lam * (relevance[i] + m) - m
            if best is None or score > best_score:
                best, best_score = i, score
        order.append(best)
        remaining.remove(best)
    return order


@mutant("q8.1", "returns the caller's own list for one or two items, where the order does not change")
def ends_first_same_list(ranked):
    if len(ranked) <= 2:
        return ranked
    return ranked[0::2] + ranked[1::2][::-1]


@mutant("q2.2", "stops once the prompt fills the limit exactly")
def pack_prompt_stops_when_full(question, passages, limit, count):
    passages = check_passages(passages)
    chosen, skipped = [], []
    for index, (key, text) in enumerate(passages):
        if count(render(question, chosen)) == limit:  # full: nothing more can fit (true only of growing counters)
            skipped += [k for k, _ in passages[index:]]
            break
        if count(render(question, chosen + [(key, text)])) <= limit:
            chosen.append((key, text))
        else:
            skipped.append(key)
    return chosen, skipped, render(question, chosen)


@mutant("q2.2", "keeps each pair as the caller gave it, a list pair as a list")
def pack_prompt_keeps_list_pairs(question, passages, limit, count):
    passages = check_passages(passages)
    chosen, skipped = [], []
    for passage in passages:
        if count(render(question, chosen + [passage])) <= limit:
            chosen.append(passage)
        else:
            skipped.append(passage[0])
    return chosen, skipped, render(question, chosen)


@mutant("q5.1", "checks the counts with isinstance(t, int), so True is a count")
def headroom_isinstance_counts(tokens, estimates, percent):
    if isinstance(tokens, list) and isinstance(estimates, list) and len(tokens) == len(estimates):
        tokens = [int(t) if isinstance(t, int) and t >= 0 else t for t in tokens]
        estimates = [int(e) if isinstance(e, int) and e >= 1 else e for e in estimates]
    return l5_headroom(tokens, estimates, percent)


@mutant("q8.4", "compares the scores in floats with a tolerance of 1e-9")
def mmr_order_tolerance(relevance, similarity, lam):
    order, remaining = [], list(range(len(relevance)))
    while remaining:
        best, best_score = None, None
        for i in remaining:
            m = max((similarity[i][t] for t in order), default=0)
            score = lam * relevance[i] - (1 - lam) * m
            if best is None or score > best_score + 1e-9:
                best, best_score = i, score
        order.append(best)
        remaining.remove(best)
    return order


ISSUE_43 = [
    assemble_measured_leading_separator,
    assemble_measured_accepts_tuples,
    assemble_measured_isinstance_count,
    assemble_measured_checks_fitting_only,
    headroom_accepts_tuples,
    cuts_ascii_whitespace,
    above_cutoff_tolerance,
    above_cutoff_ratio,
    above_cutoff_float_best,
    pack_prompt_folded_ids,
    pack_request_folded_ids,
    mmr_order_rewritten,
]


FIXED_CASES_ONLY = {
    pack_prompt_stops_when_full,  # needs a counter that never grows and a limit it fills at once: fixed case 8
    mmr_order_tolerance,  # needs two scores 1e-10 apart: fixed case 6
    assemble_sums_first,
    assemble_accepts_bytes_and_sets,
    assemble_keys_only,
    render_prompt_format,
    render_prompt_stripping_ids,
    pack_prompt_reads_twice,
    pack_prompt_accepts_bytes_and_sets,
    pack_prompt_accepts_carriage_return,
    pack_prompt_tuples_only,
    pack_prompt_no_zero_counts,
    pack_utf8_reads_twice,
    pack_utf8_format,
    pack_utf8_accepts_bytes_and_sets,
    pack_utf8_accepts_carriage_return,
    pack_utf8_strings_as_pairs,
    build_prompt_format,
    check_sections_any_case,
    plan_headroom_any_container,
    headroom_accepts_dicts,
    headroom_accepts_floats,
    headroom_rounded_rank,
    assemble_measured_accepts_str,
    assemble_measured_negative_counts,
    above_cutoff_floats,
    pack_request_reads_twice,
    drop_near_duplicates_every_earlier,  # needs a chain a ~ b ~ c with a and c apart: fixed case 1
    drop_near_duplicates_most_similar,  # needs c like a and more like b, a unlike b: fixed case 2
    group_turns_any_case,  # needs the first message's role capitalised: fixed case 11
    pack_history_bool_limit,  # needs a counter that measures 0 under a limit of True: fixed case 21
    clear_then_drop_spares_latest,  # needs a latest turn's result among the kept ones, over the limit: fixed case 2
}


@pytest.mark.parametrize("qid, why, answer", MUTANTS, ids=[f"{q}-{w}" for q, w, _ in MUTANTS])
def test_the_check_catches_the_mutant_with_a_counterexample(qid, why, answer):
    result = checked(qid, answer)
    assert result.status == FAILED, f"{qid} passed a wrong answer: {why}"
    assert result.points == 0
    from packer.checking import BANK

    if BANK[qid].predict is not None:  # a wrong prediction is told what is wrong, never the answer
        assert result.actual and result.expected is None and "not the result" in result.detail, str(result)
        return
    assert result.counterexample and result.expected and result.actual, str(result)
    assert result.expected != result.actual


@pytest.mark.parametrize("qid, answer", CORRECT, ids=[q for q, _ in CORRECT])
def test_a_correct_learner_answer_passes(qid, answer):
    result = run_check(qid, answer)
    assert (result.status, result.points) == (PASSED, result.max_points), str(result)


def test_the_library_is_large_and_covers_every_graded_question():
    from packer.checking import questions

    assert len(MUTANTS) >= 12
    every = {q.qid for lesson in "123456789" for q in questions(lesson)}
    assert {qid for qid, _, _ in MUTANTS} == every


# Right results, caught by the question's requirement: q3.1's linear work, q4.3's check 2 on a hand-edited prompt.
REQUIREMENT_ONLY = {pack_utf8_quadratic, pack_utf8_quadratic_bytes, pack_utf8_rejoins, check_sections_no_tag_check}
# one fixed answer each: there is no input to generate
PREDICTIONS = ("q1.5", "q2.4", "q3.4", "q4.5", "q5.4", "q6.4", "q7.4", "q8.6", "q9.5")
GENERATED = [(q, w, f) for q, w, f in MUTANTS if q not in PREDICTIONS and f not in REQUIREMENT_ONLY | FIXED_CASES_ONLY]


@pytest.mark.parametrize("qid, why, answer", GENERATED, ids=[f"{q}-{w}" for q, w, _ in GENERATED])
def test_generated_inputs_alone_find_the_mutant(qid, why, answer):
    """Without the fixed cases, the hypothesis search still finds (and shrinks) a counterexample."""
    result = searched(qid, answer)
    assert result.status == FAILED and result.counterexample, f"{qid}: search missed: {why}"
    assert result.detail.startswith("smallest generated input")
