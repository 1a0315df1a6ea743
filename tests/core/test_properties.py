"""Property tests, one group per packer (Hypothesis profile "workbook", loaded in conftest.py)."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from packer import (
    assemble_context,
    build_prompt,
    check_sections,
    count_chars_div4,
    count_utf8_bytes,
    count_words,
    estimate_tokens,
    pack_prompt,
    pack_utf8,
    plan_budget,
    render_prompt,
)
from packer.section_budget import PARSEABLE_MARKER, SECTION_ORDER

HEADER = "Sources:\n"
COUNTERS = [count_words, count_utf8_bytes, count_chars_div4]

texts = st.text(alphabet=string.ascii_letters + "  é日🙂.", max_size=12)
ids = st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=4)
passage_lists = st.lists(st.tuples(ids, texts), max_size=8, unique_by=lambda p: p[0])


def nbytes(text: str) -> int:
    return len(text.encode("utf-8"))


def line(passage) -> str:
    key, text = passage
    return f"[{key}] {text}\n"


def is_subsequence(part, whole) -> bool:
    remaining = iter(whole)
    return all(any(item == candidate for candidate in remaining) for item in part)


# --- assemble_context ----------------------------------------------------------------------------

# Every chunk text starts with a unique "#<index>;" tag so the chosen chunks can be read back from
# the context; the rest of the text never contains '#', ';' or a separator character.
chunk_body = st.text(alphabet=string.ascii_letters + " é日🙂.", max_size=8)


@st.composite
def ranked_chunks(draw):
    bodies = draw(st.lists(st.tuples(chunk_body, st.integers(0, 60)), max_size=12))
    return [{"text": f"#{i};{body}", "token_count": cost} for i, (body, cost) in enumerate(bodies)]


separators = st.sampled_from(["\n\n", " | ", "\n", "", "§§"])


def chosen_indices(context: str) -> list[int]:
    return [int(tag) for tag in re.findall(r"#(\d+);", context)]


@given(chunks=ranked_chunks(), budget=st.integers(0, 200), separator=separators)
def test_assemble_context_properties(chunks, budget, separator):
    context, used = assemble_context(chunks, budget, separator)
    chosen = chosen_indices(context)
    costs = [c["token_count"] for c in chunks]

    # (a) never over budget, and the reported total is the sum of the chosen counts
    assert used == sum(costs[i] for i in chosen)
    assert used <= budget
    # (b) rank order kept: strictly increasing input indices
    assert chosen == sorted(set(chosen))
    # (c) chosen and skipped partition the input
    skipped = [i for i in range(len(chunks)) if i not in chosen]
    assert sorted(chosen + skipped) == list(range(len(chunks)))
    # (d) greedy replay: each chunk was taken iff it fit at its turn
    so_far = 0
    for i, cost in enumerate(costs):
        if i in chosen:
            assert so_far + cost <= budget
            so_far += cost
        else:
            assert so_far + cost > budget
    # (e) whole chunks only, joined by the separator
    assert context == separator.join(chunks[i]["text"] for i in chosen)


# --- pack_prompt -------------------------------------------------------------------------------


@given(
    question=texts,
    passages=passage_lists,
    count=st.sampled_from(COUNTERS),
    slack=st.integers(-5, 200),
)
def test_pack_prompt_properties(question, passages, count, slack):
    base = count(render_prompt(question, []))
    limit = max(0, base + slack)
    if base > limit:
        with pytest.raises(ValueError):
            pack_prompt(question, passages, limit, count)
        return
    chosen, skipped, prompt = pack_prompt(question, passages, limit, count)

    # (a) never over the limit, measured with the same counter
    assert count(prompt) <= limit
    # (b) rank order kept
    assert is_subsequence(chosen, passages)
    # (c) chosen and skipped ids partition the input ids, each in input order
    chosen_ids = [key for key, _ in chosen]
    assert is_subsequence(skipped, [key for key, _ in passages])
    assert sorted(chosen_ids + skipped) == sorted(key for key, _ in passages)
    assert not set(chosen_ids) & set(skipped)
    # (d) replay: each passage was kept iff the re-rendered candidate fit at its turn
    so_far = []
    for passage in passages:
        fits = count(render_prompt(question, so_far + [passage])) <= limit
        assert (passage[0] in chosen_ids) == fits
        if fits:
            so_far.append(passage)
    # (e) whole passages only
    assert chosen == so_far
    for passage in chosen:
        assert line(passage) in prompt
    # (f) the returned prompt is the rendering of the chosen passages
    assert prompt == render_prompt(question, chosen)


# --- pack_utf8 ---------------------------------------------------------------------------------


def naive_pack_utf8(passages, limit, reserve):
    """Oracle: re-encode the whole candidate payload for every passage (quadratic, obviously right)."""
    if nbytes(HEADER) + reserve > limit:
        raise ValueError("header and reserve exceed the limit")
    payload, kept = HEADER, []
    for passage in passages:
        candidate = payload + line(passage)
        if nbytes(candidate) + reserve <= limit:
            payload = candidate
            kept.append(passage[0])
    return payload, kept


@given(passages=passage_lists, limit=st.integers(0, 200), reserve=st.integers(0, 20))
def test_pack_utf8_properties(passages, limit, reserve):
    if nbytes(HEADER) + reserve > limit:
        with pytest.raises(ValueError):
            pack_utf8(passages, limit, reserve)
        return
    text, kept = pack_utf8(passages, limit, reserve)
    by_id = dict(passages)
    all_ids = [key for key, _ in passages]

    # (a) never over the limit, in bytes, with the reserve
    assert nbytes(text) + reserve <= limit
    # (b) rank order kept
    assert is_subsequence(kept, all_ids)
    # (c) kept and the complement partition the input
    skipped = [key for key in all_ids if key not in kept]
    assert sorted(kept + skipped) == sorted(all_ids)
    assert len(kept) == len(set(kept))
    # (d) replay: each passage was kept iff header + lines so far + its line + reserve fit
    so_far = HEADER
    for passage in passages:
        fits = nbytes(so_far + line(passage)) + reserve <= limit
        assert (passage[0] in kept) == fits
        if fits:
            so_far += line(passage)
    # (e) whole passages only: the payload is the header and the kept lines, in order
    assert text == HEADER + "".join(f"[{key}] {by_id[key]}\n" for key in kept)
    assert text == so_far


@given(passages=passage_lists, limit=st.integers(0, 200), reserve=st.integers(0, 20))
def test_pack_utf8_agrees_with_the_naive_quadratic_oracle(passages, limit, reserve):
    try:
        expected = naive_pack_utf8(passages, limit, reserve)
    except ValueError:
        with pytest.raises(ValueError):
            pack_utf8(passages, limit, reserve)
    else:
        assert pack_utf8(passages, limit, reserve) == expected


# --- check_sections ----------------------------------------------------------------------------

section_text = st.one_of(
    st.text(alphabet=string.ascii_letters + " \n\té日🙂.", max_size=60),
    st.text(alphabet=string.ascii_letters + " é.", max_size=40).map(lambda t: t + " " + PARSEABLE_MARKER),
    st.sampled_from(["", " ", "\n\t"]),
)


@given(sections=st.fixed_dictionaries({key: section_text for key in SECTION_ORDER}), budget=st.integers(0, 150))
def test_check_sections_properties(sections, budget):
    result = check_sections(sections, budget)
    prompt = build_prompt(sections)
    total = estimate_tokens(prompt)
    all_present = all(text.strip() for text in sections.values())
    marker = PARSEABLE_MARKER in prompt

    if result.total is not None:
        assert result.total == total
    assert result.ok == (all_present and marker and 0 < total <= budget)
    if result.ok:
        assert result.message == f"PASS: 5 sections assembled within {budget} token budget"
        assert result.prompt == prompt
    elif not all_present:
        assert result.message == "FAIL: missing section text"
    elif not marker:
        assert result.message == "FAIL: parseable marker absent"
    else:
        assert result.message == "FAIL: total outside budget"
        assert result.total == total


@given(sizes=st.fixed_dictionaries({key: st.integers(1, 400) for key in SECTION_ORDER}))
def test_the_plans_assembled_estimate_is_what_the_check_measures_on_a_prompt_of_those_sizes(sizes):
    sections = {key: "x" * chars for key, chars in sizes.items()}
    plan = plan_budget(sizes)
    prompt = build_prompt(sections)
    assert plan.assembled_chars == len(prompt)
    assert plan.assembled_tokens == estimate_tokens(prompt) == check_sections(sections, 10_000).total
