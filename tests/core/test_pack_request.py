"""pack_request: passages packed into a whole chat request, with room left for the model's answer.

The contract first (with a toy counter whose numbers can be worked by hand), then the fast path for the
shipped counters: the facts its argument rests on (packer/request.py), and the same results as
re-measuring on generated, adversarial and real requests for every counter.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import packer.request
from packer import build_request, pack_request, render_prompt
from packer.chat import MISTRAL_VERSIONS, chat_counters, line_cost_of, mistral_chat
from packer.prompt import _line

pytest.importorskip("mistral_common", reason="mistral-common (Mistral's templates) is not installed: run `make venv`")
pytest.importorskip(
    "sentencepiece", reason="sentencepiece (Mistral's tokenizer models) is not installed: run `make venv`"
)

FIXTURE = [("a", "one two"), ("b", "one two three four five"), ("c", "six")]


def words(messages):
    """A toy request counter: 4 per message (its wrapping) plus the whitespace words of every content."""
    return sum(4 + len(message["content"].split()) for message in messages)


# The fixture's request under `words`: "Question: why\nSources:\nAnswer:" is 4 words, so the base is 8; the
# lines cost a 3, b 6, c 2 (label included).


# --- the contract ------------------------------------------------------------------------------------


def test_the_request_is_the_users_turn_carrying_the_rendered_prompt():
    assert build_request("why", FIXTURE[:1]) == [{"role": "user", "content": render_prompt("why", FIXTURE[:1])}]
    assert build_request("why", [], system="Be brief.") == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Question: why\nSources:\nAnswer:"},
    ]


def test_passages_are_kept_in_rank_order_skipping_what_does_not_fit_and_continuing():
    chosen, skipped, request = pack_request("why", FIXTURE, 13, 0, words)
    assert (chosen, skipped) == ([("a", "one two"), ("c", "six")], ["b"])
    assert request == build_request("why", chosen)
    assert words(request) == 13


def test_max_output_is_reserved_out_of_the_window():
    assert pack_request("why", FIXTURE, 17, 0, words)[:2] == (FIXTURE[:2], ["c"])
    assert pack_request("why", FIXTURE, 17, 4, words)[:2] == ([FIXTURE[0], FIXTURE[2]], ["b"])
    assert pack_request("why", FIXTURE, 17, 9, words)[:2] == ([], ["a", "b", "c"])


def test_a_request_that_exactly_fills_the_window_with_its_reserve_is_kept():
    assert pack_request("why", FIXTURE[:1], 11, 0, words)[0] == FIXTURE[:1]
    assert pack_request("why", FIXTURE[:1], 21, 10, words)[0] == FIXTURE[:1]
    assert pack_request("why", FIXTURE[:1], 21, 11, words)[0] == []


def test_the_system_prompt_is_part_of_the_request_and_is_counted():
    chosen, skipped, request = pack_request("why", FIXTURE, 17, 0, words, system="Be brief.")
    assert (chosen, skipped) == ([FIXTURE[0]], ["b", "c"])  # 8 + 6 for the system message leaves 3
    assert request[0] == {"role": "system", "content": "Be brief."}
    assert words(request) == 17


def test_without_a_system_prompt_there_is_no_system_message():
    assert [m["role"] for m in pack_request("why", FIXTURE, 40, 0, words)[2]] == ["user"]


def test_the_request_returned_is_the_last_one_measured():
    seen = []

    def recording(messages):
        seen.append(messages)
        return words(messages)

    chosen, _, request = pack_request("why", FIXTURE, 13, 2, recording)
    assert request == build_request("why", chosen)
    assert request in seen
    assert len(seen) == 1 + len(FIXTURE), "the base request, then one whole candidate per passage"


def test_the_counter_gets_a_copy_so_it_cannot_change_what_is_returned():
    def vandal(messages):
        total = words(messages)
        messages[-1]["content"] = "changed"
        messages.append({"role": "user", "content": "x"})
        return total

    chosen, _, request = pack_request("why", FIXTURE, 13, 0, vandal)
    assert request == build_request("why", chosen)


def test_passages_may_be_a_one_pass_iterator():
    assert pack_request("why", iter(FIXTURE), 13, 0, words)[:2] == (FIXTURE[::2], ["b"])


def test_a_window_of_zero_fits_a_request_that_counts_zero():
    assert pack_request("", [("a", "")], 0, 0, lambda messages: 0)[:2] == ([("a", "")], [])


BAD = [
    (dict(question=None), "question must be a str"),
    (dict(system=None), "system must be a str"),
    (dict(passages="ab"), "passages must be an ordered iterable"),
    (dict(passages=[("a", "x"), ("a", "y")]), "passage 1: duplicate id 'a'"),
    (dict(passages=[("a]", "x")]), r"passage 0: id 'a\]' contains"),
    (dict(passages=[("a", None)]), r"passage 0 \('a'\): text must be a str"),
    (dict(window=-1), "window must be a non-negative int"),
    (dict(window=True), "window must be a non-negative int"),
    (dict(window=20.0), "window must be a non-negative int"),
    (dict(max_output=-1), "max_output must be a non-negative int"),
    (dict(max_output=False), "max_output must be a non-negative int"),
    (dict(max_output=21), r"max_output \(21\) must not exceed window \(20\)"),
    (dict(count="words"), "count must be callable"),
    (dict(count=lambda m: 2.5), "count must return a non-negative int, got 2.5"),
    (dict(count=lambda m: -1), "count must return a non-negative int, got -1"),
    (dict(count=lambda m: True), "count must return a non-negative int, got True"),
    (
        dict(window=10, max_output=3),
        "window: the base request .* measures 8 tokens; with max_output 3 that is 11, over",
    ),
]


@pytest.mark.parametrize(("change", "error"), BAD)
def test_bad_input_is_a_value_error_naming_the_argument(change, error):
    arguments = dict(question="why", passages=FIXTURE, window=20, max_output=0, count=words, system="") | change
    with pytest.raises(ValueError, match=error):
        pack_request(**arguments)


def test_a_counter_result_is_checked_for_every_candidate_not_only_the_base():
    calls = iter([8, 9, None])
    with pytest.raises(ValueError, match="count must return a non-negative int, got None"):
        pack_request("why", FIXTURE, 20, 0, lambda messages: next(calls))


def test_input_is_checked_before_any_counting():
    def refuse(messages):
        raise AssertionError("counted before checking")

    with pytest.raises(ValueError, match="passage 2"):
        pack_request("why", [("a", "x"), ("b", "y"), ("c", 1)], 20, 0, refuse)


# --- the fast path: the facts its argument rests on ---------------------------------------------------


def _fields(data: bytes) -> list[tuple[int, object]]:
    """The top-level fields of a protocol-buffer message: (number, int or bytes)."""
    out, i = [], 0

    def varint() -> int:
        nonlocal i
        value = shift = 0
        while True:
            byte = data[i]
            i += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    while i < len(data):
        key = varint()
        number, kind = key >> 3, key & 7
        if kind == 0:
            out.append((number, varint()))
        elif kind == 2:
            size = varint()
            out.append((number, data[i : i + size]))
            i += size
        else:
            width = {1: 8, 5: 4}[kind]
            out.append((number, data[i : i + width]))
            i += width
    return out


def _model(version):
    return packer.chat._mistral(version).instruct_tokenizer.tokenizer._model


@pytest.mark.parametrize("version", MISTRAL_VERSIONS)
def test_each_sentencepiece_model_is_bpe_with_identity_normalization_dummy_prefix_and_byte_fallback(version):
    """sentencepiece_model.proto: ModelProto.trainer_spec = 2 (model_type = 3, BPE = 2; byte_fallback = 35),
    ModelProto.normalizer_spec = 3 (name = 1, add_dummy_prefix = 3, remove_extra_whitespaces = 4)."""
    model = dict(_fields(_model(version).serialized_model_proto()))
    trainer, normalizer = dict(_fields(model[2])), dict(_fields(model[3]))
    assert (trainer[3], trainer[35]) == (2, 1)
    assert (normalizer[1], normalizer[3], normalizer[4]) == (b"identity", 1, 0)


@pytest.mark.parametrize("version", MISTRAL_VERSIONS)
def test_no_piece_contains_a_newline_so_a_newline_is_always_its_byte_fallback_token(version):
    model = _model(version)
    assert not [i for i in range(model.get_piece_size()) if "\n" in model.id_to_piece(i)]
    assert model.encode("\n", out_type=str) == ["▁", "<0x0A>"]
    assert model.encode("x\n\ny", out_type=str) == ["▁x", "<0x0A>", "<0x0A>", "y"]


# Pieces to put on either side of a seam: whitespace runs, line breaks, byte-fallback characters, CJK,
# emoji, digits, look-alikes of the templates' control tokens and of the prompt's own labels.
PIECES = [
    *[" ", "  ", "\t", "\n", "\n\n", " \n", "\n ", "\r", "\r\n", "\x0b", "\x85", "\u2028", "\u00a0"],
    *["0", "42", "2026", "漢字", "かな", "🙂", "👍🏽", "𝔘", "e\u0301", "é", "Ж"],
    *["[INST]", "[/INST]", "<s>", "</s>", "[SYSTEM_PROMPT]", "[AVAILABLE_TOOLS]", "<|endoftext|>", "▁"],
    *["[", "]", "[a]", "A", "Answer:", "Sources:", "Question:", "/", "//", ".", "'s", "x", "word", "The"],
]
texts = st.lists(st.sampled_from(PIECES), max_size=10).map("".join)
ids = st.text(alphabet="abz09-_ .'|/<>é漢🙂", min_size=1, max_size=4)
passage_lists = st.lists(st.tuples(ids, texts), max_size=7, unique_by=lambda p: p[0])
SEARCH_TOOL = {
    "type": "function",
    "function": {"name": "search", "description": "Search the docs", "parameters": {"type": "object"}},
}
COUNTERS = {**chat_counters(), "Mistral v7 with a tool": mistral_chat("v7", tools=[SEARCH_TOOL])}
counter_names = st.sampled_from(sorted(COUNTERS))


def plain(count):
    """A learner's own callable with the same counts: pack_request re-measures with it."""
    return lambda messages: count(messages)


def folded(text):
    """The contract's folding, written independently of packer.prompt.fold: one space after every line boundary."""
    lines = text.splitlines(keepends=True)
    return " ".join(lines) + (" " if lines and lines[-1].splitlines() != [lines[-1]] else "")


def remeasured(question, passages, window, max_output, count, system):
    """An independent re-measurement, written from the contract: build each candidate request and count it."""
    kept = []
    for key, text in passages:
        lines = "".join(f"[{k}] {folded(t)}\n" for k, t in [*kept, (key, text)])
        request = [{"role": "system", "content": system}] if system else []
        request.append({"role": "user", "content": f"Question: {folded(question)}\nSources:\n{lines}Answer:"})
        if count(request) + max_output <= window:
            kept.append((key, text))
    return kept, [key for key, _ in passages if (key, dict(passages)[key]) not in kept]


@settings(max_examples=150, deadline=None)
@given(question=texts, passages=passage_lists, system=texts, name=counter_names)
def test_the_request_counts_as_the_base_plus_each_lines_seam_cost(question, passages, system, name):
    count = COUNTERS[name]
    cost = line_cost_of(count)
    lines = sum(cost(_line(key, text)) for key, text in passages)
    assert count(build_request(question, passages, system)) == count(build_request(question, [], system)) + lines


@settings(max_examples=150, deadline=None)
@given(
    question=texts,
    passages=passage_lists,
    system=texts,
    name=counter_names,
    room=st.integers(0, 60),
    max_output=st.integers(0, 30),
)
def test_fast_and_plain_paths_return_identical_results(question, passages, system, name, room, max_output):
    count = COUNTERS[name]
    window = count(build_request(question, [], system)) + room + max_output
    fast = pack_request(question, passages, window, max_output, count, system)
    assert fast == pack_request(question, passages, window, max_output, plain(count), system)
    assert fast[:2] == remeasured(question, passages, window, max_output, count, system)
    assert count(fast[2]) + max_output <= window


def corpus_passages() -> list[tuple[str, str]]:
    """Lesson 05's real corpus (fourteen samples, many scripts), in a fixed shuffled order."""
    from packer.lab import corpus

    found = [(f"s{j}p{i}", p) for j, s in enumerate(corpus.samples()) for i, p in enumerate(s.passages)]
    random.Random(7).shuffle(found)
    return found


@pytest.mark.parametrize("name", sorted(COUNTERS))
def test_fast_and_plain_paths_agree_on_lesson_05s_real_corpus(name):
    count, passages = COUNTERS[name], corpus_passages()[:150]
    arguments = ("What does the documentation say?", passages, 2500, 500)
    fast = pack_request(*arguments, count, system="Answer from the sources only.")
    assert fast == pack_request(*arguments, plain(count), system="Answer from the sources only.")
    assert fast[0] and fast[1], "the window both admits and skips passages, so both branches are compared"
    assert count(fast[2]) + 500 <= 2500


# --- which path is taken ------------------------------------------------------------------------------


def refuse(*args):
    raise AssertionError("the plain path was taken")


@pytest.mark.parametrize("name", sorted(COUNTERS))
def test_a_shipped_counter_takes_the_fast_path(name, monkeypatch):
    monkeypatch.setattr(packer.request, "_pack_by_remeasuring", refuse)
    count = COUNTERS[name]
    window = count(build_request("why", [])) + line_cost_of(count)(_line(*FIXTURE[0])) + 5
    chosen, skipped, request = pack_request("why", FIXTURE, window, 5, count)
    assert chosen[0] == FIXTURE[0] and "b" in skipped
    assert count(request) + 5 <= window


def test_any_other_callable_takes_the_plain_path(monkeypatch):
    monkeypatch.setattr(packer.request, "_pack_by_remeasuring", refuse)
    for other in (words, plain(mistral_chat("v7")), mistral_chat("v7").__call__):
        with pytest.raises(AssertionError, match="plain path"):
            pack_request("why", FIXTURE, 100, 0, other)


@pytest.mark.parametrize("name", sorted(COUNTERS))
def test_text_a_counter_refuses_gives_the_plain_paths_error(name):
    with pytest.raises(ValueError, match="content is not valid UTF-8"):
        pack_request("why", [("a", "ok"), ("b", "x\ud800")], 500, 0, COUNTERS[name])
