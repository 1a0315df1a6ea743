"""Plausible wrong answers, each of which the check of its question must catch with a counterexample.

Each mutant is what a learner might really write: a correct learner-style answer with one rule broken.
The correct versions are checked too, so a check that fails everything would be noticed.
"""

from __future__ import annotations

import math

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


def check_chunks(chunks, max_tokens, separator, allow_bool=False):
    need_count("max_tokens", max_tokens, allow_bool)
    if not isinstance(separator, str):
        raise ValueError("separator must be a str")
    if not isinstance(chunks, (list, tuple)):
        raise ValueError("chunks must be a list")
    for i, chunk in enumerate(chunks):
        if not isinstance(chunk, dict) or "text" not in chunk or "token_count" not in chunk:
            raise ValueError(f"chunk {i}: needs text and token_count")
        if not isinstance(chunk["text"], str):
            raise ValueError(f"chunk {i}: text must be a str")
        need_count(f"chunk {i}: token_count", chunk["token_count"])


def check_passages(passages, allow_duplicates=False):
    if not isinstance(passages, (list, tuple)):
        raise ValueError("passages must be a list")
    seen = set()
    for i, item in enumerate(passages):
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise ValueError(f"passage {i}: not a pair")
        key, text = item
        if not isinstance(key, str) or not key or any(c in key for c in "[]\r\n"):
            raise ValueError(f"passage {i}: bad id")
        if key in seen and not allow_duplicates:
            raise ValueError(f"passage {i}: duplicate id")
        if not isinstance(text, str):
            raise ValueError(f"passage {i}: text must be a str")
        seen.add(key)


def good_assemble(chunks, max_tokens, separator="\n\n"):
    check_chunks(chunks, max_tokens, separator)
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used


def render(question, passages):
    return "Question: " + question + "\nSources:\n" + "".join(f"[{k}] {t}\n" for k, t in passages) + "Answer:"


def good_pack_prompt(question, passages, limit, count, allow_duplicates=False):
    need_count("limit", limit)
    check_passages(passages, allow_duplicates)

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


def good_pack_utf8(passages, limit, reserve, *, size=lambda s: len(s.encode("utf-8")), header_counts=True,
                   reserve_counts=True, allow_duplicates=False, strict=False):
    need_count("limit", limit)
    need_count("reserve", reserve)
    check_passages(passages, allow_duplicates)
    header = "Sources:\n"
    used = size(header) if header_counts else 0
    charged = reserve if reserve_counts else 0
    if used + charged > limit:
        raise ValueError("framing exceeds the limit")
    lines, kept = [header], []
    for key, text in passages:
        line = f"[{key}] {text}\n"
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


class Result:
    def __init__(self, ok, message, total):
        self.ok, self.message, self.total = ok, message, total


def good_check_sections(sections, budget=500, total_of=lambda sections: estimate(build(sections))):
    if any(key not in sections or not sections[key].strip() for key in SECTION_ORDER):
        return Result(False, "FAIL: missing section text", None)
    prompt = build(sections)
    total = total_of(sections)
    if any(f"{key.upper()}:" not in prompt for key in SECTION_ORDER):
        return Result(False, "FAIL: section tag absent", total)
    if "KEY: VALUE" not in prompt:
        return Result(False, "FAIL: parseable marker absent", total)
    if total <= 0 or total > budget:
        return Result(False, "FAIL: total outside budget", total)
    return Result(True, f"PASS: 5 sections assembled within {budget} token budget", total)


CORRECT += [("q1.1", good_assemble), ("q1.2", good_assemble), ("q2.2", good_pack_prompt),
            ("q2.3", good_pack_prompt), ("q3.1", good_pack_utf8), ("q3.2", good_pack_utf8),
            ("q4.1", estimate), ("q4.2", build), ("q4.3", good_check_sections)]


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
def build_prompt(sections):
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
    planned = sum(math.ceil(section_chars[k] / 4) for k in SECTION_ORDER)
    return planned, budget - planned, round((budget - planned) * 100 / budget)


@mutant("q4.5", "predicts the sum of the parts for both")
def predict_q4_5():
    return (36, 36)


# === lesson 05 (counting units): its own block, so merges with edits above stay easy =================
def l5_headroom(tokens, estimates, percent, *, per_passage=None, position=None, validate=True):
    """A learner-style headroom_percent with hooks for one wrong rule at a time."""
    if validate:
        if not isinstance(tokens, list) or not isinstance(estimates, list) or not tokens or len(tokens) != len(estimates):
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
    return l5_assemble(texts, max_tokens, count, separator,
                       measure=lambda kept, text: sum(count(t) for t in kept + [text]),
                       used_of=lambda kept: sum(count(t) for t in kept))


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


@pytest.mark.parametrize("qid, why, answer", MUTANTS, ids=[f"{q}-{w}" for q, w, _ in MUTANTS])
def test_the_check_catches_the_mutant_with_a_counterexample(qid, why, answer):
    result = run_check(qid, answer)
    assert result.status == FAILED, f"{qid} passed a wrong answer: {why}"
    assert result.points == 0
    assert result.counterexample and result.expected and result.actual, str(result)
    assert result.expected != result.actual


@pytest.mark.parametrize("qid, answer", CORRECT, ids=[q for q, _ in CORRECT])
def test_a_correct_learner_answer_passes(qid, answer):
    result = run_check(qid, answer)
    assert (result.status, result.points) == (PASSED, result.max_points), str(result)


def test_the_library_is_large_and_covers_every_graded_question():
    from packer.checking import questions
    assert len(MUTANTS) >= 12
    every = {q.qid for lesson in "12345" for q in questions(lesson)}
    assert {qid for qid, _, _ in MUTANTS} == every


GENERATED = [(q, w, f) for q, w, f in MUTANTS if not q.endswith((".5",)) and q not in ("q2.4", "q3.4", "q5.4")]


@pytest.mark.parametrize("qid, why, answer", GENERATED, ids=[f"{q}-{w}" for q, w, _ in GENERATED])
def test_generated_inputs_alone_find_the_mutant(qid, why, answer):
    """Without the fixed cases, the hypothesis search still finds (and shrinks) a counterexample."""
    from dataclasses import replace

    from packer.checking import evaluate, question
    result = evaluate(replace(question(qid), cases=()), answer)
    assert result.status == FAILED and result.counterexample, f"{qid}: search missed: {why}"
    assert result.detail.startswith("smallest generated input")
