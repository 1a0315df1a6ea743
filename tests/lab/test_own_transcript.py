"""Lesson 09's explorer on a learner's own transcript (packer/lab/own_transcript.py): the report of a file loaded by
upload or by path is the command's, a file that is not a log gets its one line, and what the file holds shows as
text, never as markup."""

from __future__ import annotations

import json

import pytest

from packer.lab.agent_transcript import agent_transcript
from packer.lab.own_transcript import explore_transcript, report_html, transcript_text, uploaded_file
from packer.transcript import format_report, make_counter, read_log, report

pytest.importorskip("mistral_common", reason="mistral-common (Mistral's templates) is not installed: run `make venv`")

LOG = json.dumps(agent_transcript(3))


def test_the_report_is_the_commands():
    log = read_log(json.loads(LOG))
    expected = format_report(report(log, make_counter("mistral-v7", []), 1500), "mine.json")
    assert transcript_text(LOG.encode(), "mine.json", 1500) == expected
    assert "read as Chat Completions messages" in expected


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"\xff\xfe", "mine.json: 'utf-8' codec can't decode byte 0xff"),
        (b'{"model": "x"}', "mine.json: a JSON object with no 'messages' or 'input' list (its keys: model)"),
    ],
)
def test_a_file_that_is_not_a_log_gets_its_one_line(data, said):
    assert transcript_text(data, "mine.json").startswith(said)


def test_an_upload_is_read_from_ipywidgets_value_and_none_is_none():
    assert uploaded_file(({"name": "mine.json", "content": memoryview(b"[]"), "size": 2},)) == ("mine.json", b"[]")
    assert uploaded_file(()) is None and uploaded_file(None) is None


def test_what_the_file_holds_shows_as_text():
    shown = report_html(transcript_text(b'{"<script>alert(1)</script>": 1}', "<b>x</b>.json"))
    assert "<script>" not in shown and "&lt;script&gt;" in shown and "&lt;b&gt;x&lt;/b&gt;.json" in shown


def test_the_widget_reports_a_file_given_by_path(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(LOG)
    box = explore_transcript(str(path))
    limit, _, button = box.children[1].children
    shown = box.children[2]
    assert "Load a JSON or JSON Lines log" in shown.value
    limit.value = 1500
    button.click()
    assert shown.value == report_html(transcript_text(LOG.encode(), str(path), 1500))
    box.children[0].children[1].value = str(tmp_path / "missing.json")
    button.click()
    assert "missing.json: cannot read it" in shown.value
