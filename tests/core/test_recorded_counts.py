"""Issue 62, item 6: counts for Claude, recorded from Anthropic's count_tokens endpoint.

recorded_counts answers for the requests recorded (in Anthropic's shape, matched in the workbook's), refuses bad
records by their index, and a request that was not recorded is a ValueError saying so.
"""

from __future__ import annotations

import json

import pytest

from packer.recorded_counts import load_recorded_counts, recorded_counts

RECORDS = [
    {"model": "claude-x", "system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}], "input_tokens": 12},
    {
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "w", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "rain"}]},
        ],
        "input_tokens": 57,
    },
]


def test_recorded_counts_answer_for_the_requests_recorded_in_the_workbooks_shape():
    count = recorded_counts(RECORDS)
    assert count([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]) == 12
    assert (
        count(
            [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Weather?"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [{"id": "toolu_1", "type": "function", "function": {"name": "w", "arguments": "{}"}}],
                },
                {"role": "tool", "tool_call_id": "toolu_1", "content": "rain"},
            ]
        )
        == 57
    )
    with pytest.raises(
        ValueError,
        match=r"^messages: this request \(2 messages, the last a user message\) is not among the 2 recorded: count it with Anthropic's count_tokens",
    ):
        count([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello"}])


@pytest.mark.parametrize(
    ("records", "error"),
    [
        ({}, "records must be a non-empty list"),
        ([], "records must be a non-empty list"),
        ([RECORDS[0], 3], "record 1: expected a dict"),
        ([{**RECORDS[0], "usage": 1}], "record 0: unknown key 'usage'"),
        ([{**RECORDS[0], "input_tokens": -1}], "record 0: input_tokens must be a non-negative int"),
        ([{**RECORDS[0], "input_tokens": True}], "record 0: input_tokens must be a non-negative int"),
        ([RECORDS[0], {**RECORDS[1], "tools": [{"name": "w"}]}], "record 1: tools differ from record 0's"),
        (
            [RECORDS[0], {**RECORDS[0], "input_tokens": 13}],
            r"record 1: the same request as record 0 with another count \(13, not 12\)",
        ),
        (
            [{**RECORDS[0], "messages": [{"role": "tool", "content": "x"}]}],
            "record 0: message 0: role must be user or assistant",
        ),
    ],
)
def test_bad_records_are_refused_naming_the_record(records, error):
    with pytest.raises(ValueError, match="^" + error):
        recorded_counts(records)


def test_a_recorded_file_is_read_and_a_file_that_is_not_json_named(tmp_path):
    good, bad = tmp_path / "counts.json", tmp_path / "bad.json"
    good.write_text(json.dumps(RECORDS))
    bad.write_text("{not json")
    assert (
        load_recorded_counts(good)([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}])
        == 12
    )
    with pytest.raises(ValueError, match=f"^{bad}: not a JSON file of recorded counts"):
        load_recorded_counts(bad)


def test_a_request_recorded_twice_with_one_count_is_one_record(tmp_path):
    count = recorded_counts([RECORDS[0], RECORDS[1], RECORDS[0]])
    assert count([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]) == 12
    missing = tmp_path / "missing.json"
    with pytest.raises(ValueError, match=f"^{missing}: not a JSON file of recorded counts"):
        load_recorded_counts(missing)


def test_a_request_is_found_whatever_the_order_of_its_keys():
    count = recorded_counts(RECORDS)
    assert count([{"content": "Be brief.", "role": "system"}, {"content": "Hi", "role": "user"}]) == 12


def test_a_count_of_zero_is_a_count():
    count = recorded_counts([{**RECORDS[0], "input_tokens": 0}])
    assert count([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]) == 0


def test_the_first_unknown_key_in_sorted_order_is_named():
    with pytest.raises(ValueError, match="^record 0: unknown key 'cache' "):
        recorded_counts([{**RECORDS[0], "usage": 1, "cache": 2}])


def test_records_that_all_carry_the_same_tools_make_one_counter():
    tools = [{"name": "w", "description": "Weather.", "input_schema": {"type": "object", "properties": {}}}]
    count = recorded_counts([{**RECORDS[0], "tools": tools}, {**RECORDS[1], "tools": tools}])
    assert count([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]) == 12
