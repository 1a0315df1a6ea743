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
from packer.clearing import clear_then_drop
from packer.history import pack_history
from packer.lab.agent_transcript import SEARCH_TOOL, agent_transcript, anthropic_transcript
from packer.summary import pack_with_summary
from packer.transcript import last_requests, main

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
