"""Issue 62, item 7: `python -m packer.transcript FILE` reports what lesson 09's policies keep of a learner's own log.

It reads JSON or JSON Lines in the Chat Completions, Responses and Anthropic shapes and says which it read; each
policy's numbers are the ones lesson 09's functions give on the request for the log's last answer; the counter is
named, exact or an estimate; a file that is not a log gets one line and exit status 2, never a traceback.
tests/benchmarks/bench_transcript.py measures a 2,000-message log against one count (make bench-transcript).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from packer.chat import mistral_chat
from packer.clearing import clear_then_drop, clear_tool_results
from packer.history import group_turns, pack_history
from packer.lab.agent_transcript import SEARCH_TOOL, agent_transcript, anthropic_transcript
from packer.summary import pack_with_summary
from packer.messages import require_messages
from packer.transcript import (
    Counter,
    Log,
    cached_tokens,
    function_tool,
    last_requests,
    main,
    make_counter,
    read_log,
    report,
)

pytest.importorskip("mistral_common", reason="mistral-common (Mistral's templates) is not installed: run `make venv`")

ROOT = Path(__file__).resolve().parents[2]
AGENTS_RUN = Path(__file__).parent / "fixtures" / "agents_sdk_run.json"
TURNS = 6


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """main's exit status, stdout and stderr."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    """The agent's log of six turns as Chat Completions JSON and JSON Lines, and as Anthropic's Messages."""
    folder = tmp_path_factory.mktemp("logs")
    messages = agent_transcript(TURNS)
    system, anthropic = anthropic_transcript(TURNS)
    paths = {"chat": folder / "chat.json", "jsonl": folder / "chat.jsonl", "anthropic": folder / "anthropic.json"}
    paths["chat"].write_text(json.dumps(messages))
    paths["jsonl"].write_text("\n".join(json.dumps(m) for m in messages) + "\n")
    paths["anthropic"].write_text(json.dumps({"system": system, "messages": anthropic}))
    return paths


SYSTEM = {"role": "system", "content": "S"}


def user(text: str) -> dict:
    return {"role": "user", "content": text}


def answer(text: str) -> dict:
    return {"role": "assistant", "content": text}


def calls(*ids: str) -> dict:
    made = [{"id": i, "type": "function", "function": {"name": "search", "arguments": "{}"}} for i in ids]
    return {"role": "assistant", "content": None, "tool_calls": made}


def result(call_id: str, text: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


THREE_TURNS = [
    SYSTEM,
    *[user("q1"), calls("a", "b"), result("a", "ra"), result("b", "rb"), answer("x1")],
    *[user("q2"), answer("x2")],
    *[user("q3"), calls("c"), result("c", "rc"), answer("x3")],
]


def characters(messages: list) -> int:
    """A made-up counter, fast and exact enough to check arithmetic: 4 per message plus its content's characters."""
    return sum(4 + len(str(m.get("content") or "")) for m in messages)


# --- the functions, one at a time (fast) ---------------------------------------------


def test_the_request_for_an_answer_ends_at_its_last_tool_result_or_its_question():
    request, previous = last_requests(THREE_TURNS)
    assert request == THREE_TURNS[:11]  # the third turn up to its tool result
    assert previous == THREE_TURNS[:7]  # the second turn had no tool: its question alone
    assert last_requests(THREE_TURNS[:8]) == (THREE_TURNS[:7], THREE_TURNS[:5])
    assert last_requests(THREE_TURNS[:6])[0] == THREE_TURNS[:5]  # after the second of two tool results
    assert last_requests([SYSTEM, user("q"), answer("x")]) == ([SYSTEM, user("q")], None)


@pytest.mark.parametrize(
    ("value", "shape"),
    [
        ({"system": "S", "messages": [user("hi")]}, "Anthropic Messages"),  # a system key alone says Anthropic
        ([SYSTEM, user("hi")], "Chat Completions messages"),
        ([SYSTEM, {"role": "user", "content": [{"type": "text", "text": "hi"}]}], "Chat Completions messages"),
        (anthropic_transcript(2)[1], "Anthropic Messages"),  # a list whose blocks only Anthropic has
        ({"input": [{"role": "user", "content": "hi"}]}, "Responses API items"),
    ],
)
def test_the_shape_is_told_by_its_keys_and_blocks(value, shape):
    assert read_log(value).shape == shape


def test_an_object_without_a_conversation_names_its_first_five_keys():
    with pytest.raises(ValueError, match=r"\(its keys: a, b, c, d, e\)$"):
        read_log(dict.fromkeys("fedcba", 1))


def test_messages_that_are_not_a_list_get_the_chat_shapes_own_error():
    with pytest.raises(ValueError) as expected:
        require_messages("x")
    with pytest.raises(ValueError) as raised:
        read_log({"messages": "x"})
    assert str(raised.value) == str(expected.value)


def test_each_apis_tool_definition_becomes_a_chat_completions_function():
    parameters = {"type": "object", "properties": {"q": {"type": "string"}}}
    flat = {"type": "function", "name": "search", "description": "Find.", "parameters": parameters}
    log = read_log({"input": [user("hi")], "tools": [flat, {"type": "function", "name": "now"}]})
    assert log.tools == [
        {"type": "function", "function": {"name": "search", "description": "Find.", "parameters": parameters}},
        {"type": "function", "function": {"name": "now"}},
    ]
    anthropic = {"name": "search", "input_schema": parameters}
    assert function_tool(0, anthropic) == {
        "type": "function",
        "function": {"name": "search", "description": "", "parameters": parameters},
    }
    own = {"type": "function", "function": {"name": "f"}}
    assert function_tool(0, own) is own and function_tool(0, 5) == 5  # the counters check those


def test_the_cached_tokens_come_from_token_ids_when_the_counter_has_them():
    ids = Counter("ids", True, characters, lambda ms: [ord(c) for m in ms for c in m["content"]])
    previous, kept = [user("abc")], [user("abd")]
    assert cached_tokens(ids, previous, kept, ids.ids(kept)) == 2  # "ab": the messages share no whole message
    assert cached_tokens(ids, previous, kept, None) == 0  # no ids for the kept request: whole messages


def test_without_ids_the_cached_tokens_are_the_count_of_the_shared_leading_messages():
    plain = Counter("plain", False, characters, None)
    assert cached_tokens(plain, [SYSTEM, user("q1"), answer("x")], [SYSTEM, user("q1"), user("q2")], None) == 11
    assert cached_tokens(plain, [SYSTEM, user("q1")], [SYSTEM, user("q1"), user("q2")], None) == 11
    assert cached_tokens(plain, [SYSTEM], [SYSTEM], None) == 5
    assert cached_tokens(plain, [SYSTEM, user("a")], [SYSTEM, user("b"), user("c")], None) == 5
    assert cached_tokens(plain, [user("q1")], [SYSTEM, user("q1")], None) == 0

    def refusing(messages: list) -> int:
        if len(messages) == 1:
            raise ValueError("not recorded")
        return characters(messages)

    assert cached_tokens(Counter("recorded", False, refusing, None), [SYSTEM], [SYSTEM, user("q")], None) is None


def test_the_default_limit_is_halfway_between_the_latest_turn_alone_and_the_whole_request():
    request, _ = last_requests(THREE_TURNS)
    system, turns = group_turns(request)
    result = report(Log("Chat Completions messages", THREE_TURNS, []), Counter("c", False, characters, None), None)
    assert result["limit"] == (characters(system + turns[-1]) + characters(request)) // 2
    assert (result["turns"], result["request_messages"], result["messages"]) == (3, 11, 12)
    assert result["exact"] is False and result["counter"] == "c"


def test_the_clearing_policy_keeps_the_last_three_tool_results():
    ids = "abcde"
    log = [SYSTEM, user("q1"), calls(*ids), *[result(i, i * 50) for i in ids], answer("x1")]
    log += [user("q2"), answer("x2"), user("q3")]
    limit = characters(clear_tool_results(log, 3))
    rows = report(Log("Chat Completions messages", log, []), Counter("c", False, characters, None), limit)["policies"]
    assert rows[1]["policy"] == "clear old tool results, then drop"
    assert (rows[1]["tokens_after"], rows[1]["turns_kept"]) == (limit, 3)
    emptied = characters([{**m, "content": ""} if m["role"] == "tool" else m for m in clear_tool_results(log, 3)])
    assert rows[1]["tool_results_share"] == round((limit - emptied) / limit, 3) == 0.792


def test_a_request_without_tool_results_gives_them_no_share():
    log = Log("Chat Completions messages", [SYSTEM, user("q1"), answer("x1"), user("q2"), answer("x2")], [])
    rows = report(log, Counter("c", False, characters, None), 1000)["policies"]
    assert [row["tool_results_share"] for row in rows] == [0.0, 0.0, 0.0]


def test_recorded_claude_counts_are_named_an_estimate_from_a_file_whose_path_has_a_colon(tmp_path):
    path = tmp_path / "claude:counts.json"
    path.write_text(json.dumps([{"system": "S", "messages": [user("hi")], "input_tokens": 9}]))
    counter = make_counter(f"anthropic:{path}", [])
    assert counter.exact is False and counter.ids is None and counter.name.startswith("Anthropic count_tokens")
    assert counter.count([SYSTEM, user("hi")]) == 9


def test_the_limit_must_be_positive_and_an_unreadable_file_is_named(capsys, tmp_path):
    path = tmp_path / "log.json"
    path.write_text(json.dumps([SYSTEM, user("q1"), answer("x1"), user("q2")]))
    status, out, _ = run(capsys, path, "--json")
    assert status == 0 and out.startswith('{\n  "shape": "Chat Completions messages",\n  "messages": 4,')
    status, _, err = run(capsys, path, "--limit", 1)  # a limit of 1 is taken: the policies then say what is over it
    assert status == 2 and err.startswith(f"{path}: limit: the system prompt and the latest turn measure ")
    with pytest.raises(SystemExit) as stopped:
        main([str(path), "--limit", "0"])
    assert stopped.value.code == 2 and "--limit must be a positive int, got 0" in capsys.readouterr().err
    status, out, err = run(capsys, tmp_path / "missing.json")
    assert (status, out) == (2, "") and err.startswith(f"{tmp_path / 'missing.json'}: cannot read it: ")


# --- the command ---------------------------------------------------------------------


def test_the_text_report_names_the_shape_the_counter_and_what_kind_of_count(capsys, logs):
    status, out, _ = run(capsys, logs["chat"], "--limit", 2000)
    assert status == 0
    assert f"read as Chat Completions messages ({len(agent_transcript(TURNS))} messages)" in out
    assert "counter: Mistral v7 (exact: mistral-common's own template)" in out
    assert "limit: 2000 tokens (exact counts)" in out
    assert all(name in out for name in ("drop the oldest turns", "clear old tool results, then drop", "a summary turn"))
    status, out, _ = run(capsys, logs["chat"], "--limit", 2000, "--counter", "openai-o200k")
    assert "counter: OpenAI o200k_base (an estimate" in out and "limit: 2000 tokens (estimates)" in out


def test_json_lines_and_anthropics_shape_give_the_same_report(capsys, logs):
    reports = {}
    for name in ("chat", "jsonl", "anthropic"):
        status, out, _ = run(capsys, logs[name], "--json")
        assert status == 0
        reports[name] = json.loads(out)
    assert reports["anthropic"]["shape"] == "Anthropic Messages"
    assert reports["jsonl"]["policies"] == reports["chat"]["policies"] == reports["anthropic"]["policies"]


def test_a_request_bodys_tools_are_counted_in_each_apis_own_format(capsys, tmp_path):
    function = SEARCH_TOOL["function"]
    system, anthropic = anthropic_transcript(TURNS)
    bodies = {
        "chat": {"messages": agent_transcript(TURNS), "tools": [SEARCH_TOOL]},
        "anthropic": {
            "system": system,
            "messages": anthropic,
            "tools": [{**{k: function[k] for k in ("name", "description")}, "input_schema": function["parameters"]}],
        },
    }
    results = {}
    for name, body in bodies.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(body))
        status, out, _ = run(capsys, tmp_path / f"{name}.json", "--json", "--limit", 2500)
        results[name] = json.loads(out)["policies"]
    request, _ = last_requests(agent_transcript(TURNS))
    assert results["chat"] == results["anthropic"]
    assert results["chat"][0]["tokens_before"] == mistral_chat("v7", [SEARCH_TOOL])(request)
    (tmp_path / "bad.json").write_text(json.dumps({**bodies["chat"], "tools": [{"type": "web_search"}]}))
    status, _, err = run(capsys, tmp_path / "bad.json")
    assert status == 2 and err.endswith("tool 0: not a function tool a counter can count, got {'type': 'web_search'}\n")


def test_an_agents_sdk_run_is_read_as_responses_items(capsys):
    status, out, _ = run(capsys, AGENTS_RUN, "--json")
    result = json.loads(out)
    assert (status, result["shape"], result["turns"]) == (0, "Responses API items", 2)
    assert result["limit"] < result["policies"][0]["tokens_before"]  # the default: below the whole request


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "the file is empty"),
        (
            "{not json\n",
            "neither JSON (Expecting property name enclosed in double quotes at line 1) nor JSON Lines (line 1)",
        ),
        ('{"model": "gpt-4o"}', "a JSON object with no 'messages' or 'input' list (its keys: model)"),
        ("[1, 2]", "message 0: expected a dict with 'role' and 'content', got int"),
        ('"hello"', "expected a list of messages or items, or an object holding one; got str"),
        ('[{"role": "user", "content": "hi"}]\n', None),
    ],
)
def test_a_file_that_is_not_a_log_gets_one_line_and_status_2(capsys, tmp_path, text, error):
    path = tmp_path / "log.json"
    path.write_text(text)
    status, out, err = run(capsys, path)
    if error is None:  # a one-turn log is a log: no previous request, so no cached share
        assert status == 0 and "n/a" in out
        return
    assert (status, out) == (2, "")
    assert err == f"{path}: {error}\n"


def test_a_request_not_recorded_is_named_when_counting_from_recorded_claude_counts(capsys, logs, tmp_path):
    counts = tmp_path / "counts.json"
    counts.write_text(json.dumps([{"system": "S", "messages": [{"role": "user", "content": "hi"}], "input_tokens": 9}]))
    status, _, err = run(capsys, logs["anthropic"], "--counter", f"anthropic:{counts}")
    assert status == 2 and "is not among the 1 recorded: count it with Anthropic's count_tokens endpoint" in err
    status, _, err = run(capsys, logs["chat"], "--counter", "gpt")
    assert status == 2 and err.startswith(f"{logs['chat']}: --counter must be one of mistral-v7, mistral-v3")


def test_the_module_runs_as_a_command_and_a_bad_file_shows_no_traceback(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("these are my notes\n")
    done = subprocess.run(
        [sys.executable, "-m", "packer.transcript", str(path)], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and "neither JSON" in done.stderr


# the slowest test last: make mutation's -x run stops at the first failure
def test_each_policys_numbers_are_lesson_09s_on_the_request_for_the_last_answer(capsys, logs):
    status, out, err = run(capsys, logs["chat"], "--json", "--limit", 2000)
    assert (status, err) == (0, "")
    result = json.loads(out)
    count = mistral_chat("v7")
    request, previous = last_requests(agent_transcript(TURNS))
    assert result["shape"] == "Chat Completions messages" and result["exact"] is True
    assert result["counter"].startswith("Mistral v7 (exact") and result["limit"] == 2000
    policies = [pack_history, clear_then_drop(3), pack_with_summary]
    for row, policy in zip(result["policies"], policies, strict=True):
        kept = policy(request, 2000, count).kept
        emptied = [{**m, "content": ""} if m["role"] == "tool" else m for m in kept]
        assert row["tokens_before"] == count(request)
        assert row["tokens_after"] == count(kept) <= 2000
        assert row["turns_kept"] == TURNS - len(policy(request, 2000, count).dropped) < TURNS
        assert row["tool_results_share"] == round((count(kept) - count(emptied)) / count(kept), 3) > 0
        assert 0 <= row["cached_share"] <= 1
    assert [row["policy"] for row in result["policies"]] == [
        "drop the oldest turns",
        "clear old tool results, then drop",
        "a summary turn",
    ]
    assert previous is not None and len(previous) < len(request)
