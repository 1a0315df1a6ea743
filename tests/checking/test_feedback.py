"""What a learner reads from a check when the answer prints, and when a "predict the result" answer is wrong.

An answer's own output (print, sys.stdout, sys.stderr) is held back while it is checked: the verdict comes
first, then at most a few lines of that output and a count of the rest, in a notebook and in the grader's
feedback alike. A wrong prediction is told what is wrong with it, never the expected answer; one of the
wrong type is told the type wanted, and scores nothing.
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import pytest
from learner_cells import learner
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

import packer.checking
from packer.checking import BANK, DEFER_VARIABLE, FAILED, PASSED, TIME_LIMIT, CheckInterrupted, check, run_check
from packer.checking.engine import PRINTED_SHOWN, Printed, Question, evaluate

ROOT = Path(__file__).resolve().parents[2]


# Stops at the first chunk that does not fit (wrong for q1.1 on its first fixed case), printing 1,000 lines first.
PRINTS_1000 = """
import sys

def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    for line in range(999):
        print("debug line", line)
    print("and one on stderr", file=sys.stderr)
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] > max_tokens:
            break
        kept.append(chunk["text"])
        used += chunk["token_count"]
    return separator.join(kept), used
"""
PRINTS_AND_LOOPS = """
import sys

def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    while True:
        print("still looking", chunks[:1])
        sys.stderr.write("and complaining\\n")
"""


# --- an answer that prints -------------------------------------------------------------------------------
def test_an_answer_that_prints_1000_lines_gets_the_verdict_first_and_five_of_them(capsys):
    result = check("q1.1", learner(PRINTS_1000)["assemble_context"])
    assert capsys.readouterr() == ("", ""), "the answer's output reached the stream above the verdict"
    lines = str(result).splitlines()
    assert lines[0] == "q1.1 assemble_context: FAILED (0/3 points)"
    assert lines[2].startswith("  input:    assemble_context(")
    assert (result.printed_lines, PRINTED_SHOWN) == (1000, 5)
    at = lines.index("  the answer printed 1,000 lines while it was checked; the first 5:")
    assert at == 5, "the excerpt comes after the verdict, its input, expected and actual lines"
    assert lines[at + 1 :] == [*(f"  | debug line {n}" for n in range(5)), "  | … and 995 more"]
    assert result.printed == "\n".join(f"debug line {n}" for n in range(5))


def test_output_on_stderr_is_held_back_and_counted_too(capsys):
    answer = learner(
        "import sys\ndef predict_q1_5():\n    print('thinking', file=sys.stderr)\n    return ('intro | result | limits', 65)"
    )["predict_q1_5"]
    result = check("q1.5", answer)
    assert capsys.readouterr() == ("", "")
    assert (result.status, result.printed_lines, result.printed) == (PASSED, 1, "thinking")
    assert str(result).splitlines()[-2:] == ["  the answer printed 1 line while it was checked:", "  | thinking"]


def test_a_quiet_answer_shows_no_printed_lines():
    result = run_check("q1.5", lambda: ("intro | result | limits", 65))
    assert (result.printed, result.printed_lines) == ("", 0)
    assert "printed" not in str(result)


def test_an_answer_that_prints_while_it_loops_is_stopped_and_the_streams_are_restored(capsys):
    stdout, stderr = sys.stdout, sys.stderr
    started = time.process_time()
    result = check("q1.1", learner(PRINTS_AND_LOOPS)["assemble_context"])
    used = time.process_time() - started
    assert used < TIME_LIMIT + 1.5, f"it worked for {used:.1f} s of CPU time"
    assert (sys.stdout, sys.stderr) == (stdout, stderr)
    assert capsys.readouterr() == ("", "")
    assert result.status == FAILED and result.detail.startswith("stopped: the answer was still running")
    assert result.printed_lines > 1000, "it printed for two seconds"
    assert result.printed.splitlines() == [
        "still looking [{'text': 'alpha', 'token_count': 40}]",
        "and complaining",
    ] * 2 + ["still looking [{'text': 'alpha', 'token_count': 40}]"]
    assert str(result).splitlines()[-1] == f"  | … and {result.printed_lines - 5:,} more"


RESTORED = {
    "raises": "def assemble_context(chunks, max_tokens, separator=''):\n    print('about to fail')\n    raise KeyError(1)",
    "replaces sys.stdout and sys.stderr": (
        "import io, sys\n"
        "def assemble_context(chunks, max_tokens, separator=''):\n"
        "    sys.stdout = sys.stderr = io.StringIO()  # and never puts them back\n"
        "    return '', 0"
    ),
    "closes sys.stdout": (
        "import sys\ndef assemble_context(chunks, max_tokens, separator=''):\n"
        "    sys.stdout.close()\n    print('after closing')\n    return '', 0"
    ),
}


@pytest.mark.parametrize("how", list(RESTORED))
def test_the_streams_are_restored_whatever_the_answer_does(capsys, how):
    stdout, stderr = sys.stdout, sys.stderr
    result = check("q1.1", learner(RESTORED[how])["assemble_context"])
    assert (sys.stdout, sys.stderr) == (stdout, stderr)
    assert result.status == FAILED
    print("the notebook's own output still shows")
    assert capsys.readouterr().out == "the notebook's own output still shows\n"


def test_the_streams_are_restored_when_an_interrupt_stops_the_check(capsys):
    stdout, stderr = sys.stdout, sys.stderr

    def interrupted(chunks, max_tokens, separator="\n\n"):
        print("working on it")
        raise KeyboardInterrupt  # what Ctrl-C raises in a long answer

    with pytest.raises(CheckInterrupted):
        check("q1.1", interrupted)
    assert (sys.stdout, sys.stderr) == (stdout, stderr)
    assert capsys.readouterr() == ("", "")


def test_what_the_check_itself_prints_is_not_held_back(capsys):
    def noisy_reference(n):
        print("the reference speaks")  # the check's own code, not the answer's
        return n

    question = Question("q0.1", "same", 1, "the same number", noisy_reference, cases=((1,), (2,)))
    result = evaluate(question, lambda n: print("the answer speaks") or n)
    assert result.status == PASSED and result.printed_lines == 2
    assert capsys.readouterr().out == "the reference speaks\n" * 2


def test_printed_lines_are_shortened_cleaned_and_counted():
    printed = Printed()
    printed.write("x" * 500 + "\n")  # shortened
    printed.write("tab\there\x1b[31m red <object at 0x7f3a2b1c9d10>\n")  # tabs expanded, control escaped, no address
    printed.write("")
    printed.write("no newline yet")
    assert (printed.lines, printed.excerpt().splitlines()) == (
        3,
        ["x" * 119 + "…", "tab here\\x1b[31m red <object>", "no newline yet"],
    )
    for _ in range(100_000):
        printed.write("more\n")
    assert printed.lines == 100_002, "the first 'more' ends the open line"
    assert printed.excerpt().splitlines()[2:] == ["no newline yetmore", "more", "more"]
    assert len(printed.head) == PRINTED_SHOWN and printed.current == "", "only the first lines are kept"
    with pytest.raises(TypeError):
        printed.write(b"bytes")
    assert isinstance(printed, io.TextIOBase) and printed.writable() and not printed.isatty()


def test_the_excerpt_survives_a_json_round_trip_and_reads_the_same_in_the_grader():
    from packer.grading.reports import result_text

    result = run_check("q1.1", learner(PRINTS_1000)["assemble_context"])
    assert result_text(result.as_dict()) == str(result)
    assert len(str(result)) < 1500, "the grader's feedback carries the short excerpt only"


# --- in a real kernel --------------------------------------------------------------------------------------
def test_in_a_notebook_the_verdict_is_shown_above_a_short_excerpt_and_nothing_else_is_held_back(monkeypatch):
    """One cell prints, checks an answer that prints 1,000 lines, prints again; another checks an answer
    that prints in an endless loop. Each shows its own output around one displayed verdict, and the kernel's
    streams are the kernel's own afterwards."""
    monkeypatch.delenv(DEFER_VARIABLE, raising=False)
    nb = new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nb.cells = [
        new_code_cell("from packer.checking import check\nimport sys\nstreams = sys.stdout, sys.stderr"),
        new_code_cell(PRINTS_1000),
        new_code_cell('print("before")\ncheck("q1.1", assemble_context)\nprint("after")'),
        new_code_cell(PRINTS_AND_LOOPS),
        new_code_cell(
            'import time\nstarted = time.process_time()\ncheck("q1.1", assemble_context)\n'
            'print(f"{time.process_time() - started:.1f}", (sys.stdout, sys.stderr) == streams)'
        ),
    ]
    NotebookClient(
        nb, timeout=120, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(ROOT)}}
    ).execute()
    outputs = nb.cells[2].outputs
    assert [out.output_type for out in outputs] == ["stream", "display_data", "stream"], outputs
    assert (outputs[0].text, outputs[2].text) == ("before\n", "after\n")
    shown = outputs[1]["data"]["text/plain"].splitlines()
    assert shown[0] == "q1.1 assemble_context: FAILED (0/3 points)"
    assert shown[5:] == [
        "  the answer printed 1,000 lines while it was checked; the first 5:",
        *(f"  | debug line {n}" for n in range(5)),
        "  | … and 995 more",
    ]
    looped = nb.cells[4].outputs
    assert [out.output_type for out in looped] == ["display_data", "stream"], looped
    assert "stopped: the answer was still running" in looped[0]["data"]["text/plain"]
    assert "  | still looking [{'text': 'alpha', 'token_count': 40}]" in looped[0]["data"]["text/plain"]
    seconds, restored = looped[1].text.split()
    assert float(seconds) < TIME_LIMIT + 1.5 and restored == "True"  # CPU seconds: a busy machine adds none


# --- "predict the result" answers ----------------------------------------------------------------------------
PREDICTIONS = sorted(qid for qid, question in BANK.items() if question.predict is not None)


def test_every_predict_question_declares_the_type_its_reference_returns():
    from packer.checking.engine import type_difference

    assert PREDICTIONS == ["q1.5", "q2.4", "q3.4", "q4.5", "q5.4", "q6.4", "q7.4", "q8.6", "q9.5"]
    for qid, question in BANK.items():
        assert (question.predict is not None) == question.name.startswith("predict_"), qid
    for qid in PREDICTIONS:
        assert type_difference(BANK[qid].predict, BANK[qid].reference()) is None, qid


WRONG_TYPE = [
    ("q1.5", ("intro | result | limits", 65.0), "item 2 is a float (65.0), not an int"),
    ("q1.5", ["intro | result | limits", 65], "it returned a list"),
    ("q1.5", ("intro | result | limits", True), "item 2 is a bool (True), not an int"),
    ("q1.5", ("intro | result | limits", 65, 0), "it returned a tuple that has 3 items, not 2"),
    ("q1.5", None, "it returned None"),
    ("q2.4", (("p1", "p3", "p4"), ["p2"]), "item 1 is a tuple (('p1', 'p3', 'p4')), not a list[str]"),
    ("q3.4", (["q", "s"], "33"), "item 2 is a str ('33'), not an int"),
    ("q6.4", (["a"], ["b", 3]), "element 2 of item 2 is an int (3), not a str"),
    ("q7.4", (51.0, 46), "item 1 is a float (51.0), not an int"),
    ("q8.6", (("doc-1", "question"), 38), "item 1 is a tuple (('doc-1', 'question')), not a list[str]"),
    ("q9.5", (2, 3), "it returned a tuple that has 2 items, not 3"),
]


@pytest.mark.parametrize("qid, answer, why", WRONG_TYPE, ids=[repr(a) for _, a, _ in WRONG_TYPE])
def test_a_predict_answer_of_the_wrong_type_scores_nothing_and_is_told_the_type_wanted(qid, answer, why):
    question = BANK[qid]
    result = check(qid, learner(f"def {question.name}():\n    return {answer!r}")[question.name])
    assert (result.status, result.points) == (FAILED, 0), str(result)
    wanted = {
        "q1.5": "tuple[str, int]",
        "q2.4": "tuple[list[str], list[str]]",
        "q3.4": "tuple[list[str], int]",
        "q7.4": "tuple[int, int]",
        "q8.6": "tuple[list[str], int]",
        "q9.5": "tuple[int, int, int]",
    }
    assert (
        result.detail
        == f"wrong type: {question.name}() must return a {wanted.get(qid, 'tuple[list[str], list[str]]')}; {why}"
    )
    assert result.expected is None and repr(question.reference()) not in str(result)


def _wrong_by_one(value):
    """A prediction of the right type that is wrong in its last item (an int one more, a list one longer)."""
    *first, last = value
    return (*first, last + 1 if isinstance(last, int) else [*last, "zz"])


@pytest.mark.parametrize("qid", PREDICTIONS)
def test_a_wrong_prediction_is_not_told_the_expected_answer(qid):
    from packer.grading.reports import result_text

    question = BANK[qid]
    expected = question.reference()
    wrong = _wrong_by_one(expected)
    result = check(qid, learner(f"def {question.name}():\n    return {wrong!r}")[question.name])
    assert (result.status, result.points) == (FAILED, 0)
    for text in (str(result), result_text(result.as_dict())):  # in the notebook and in the grader's feedback
        assert repr(expected) not in text and repr(expected[-1]) not in text.replace(repr(wrong[-1]), ""), text
        assert "expected:" not in text
    assert result.expected is None and result.actual == repr(wrong)
    assert result.detail == (
        f"not the result: {', '.join(f'item {n} is right' for n in range(1, len(expected)))}, "
        f"item {len(expected)} is wrong (a check never shows the expected answer: work it through again)"
    )


def test_a_wrong_prediction_is_told_which_items_are_wrong_and_when_only_the_order_is():
    def told(qid, value):
        return check(qid, learner(f"def {BANK[qid].name}():\n    return {value!r}")[BANK[qid].name]).detail

    assert told("q2.4", (["p3", "p1", "p4"], ["p2"])).startswith(
        "not the result: item 1 has the right elements in the wrong order, item 2 is right"
    )
    assert told("q1.5", ("intro", 25)).startswith("not the result: both items are wrong")
    assert told("q4.5", (36, 48)) == "1 fixed case", "the right answer still passes"


def test_a_prediction_that_raises_or_loops_is_not_told_the_expected_answer():
    raising = check("q1.5", learner("def predict_q1_5():\n    return 1 / 0")["predict_q1_5"])
    assert raising.detail == "predict_q1_5() must return its prediction, a tuple[str, int], written as a literal"
    assert (raising.actual, raising.expected) == ("raised ZeroDivisionError: division by zero", None)
    looping = check("q1.5", learner("def predict_q1_5():\n    while True:\n        pass")["predict_q1_5"])
    assert looping.status == FAILED and looping.expected is None and looping.counterexample is None
    for result in (raising, looping):
        assert "intro | result | limits" not in str(result), str(result)


def test_the_untouched_predict_stub_is_still_not_attempted():
    stub = learner('def predict_q1_5():\n    raise NotImplementedError("replace this line with your answer")')
    assert check("q1.5", stub["predict_q1_5"]).status == packer.checking.NOT_ATTEMPTED


# --- results that differ in type, ids that print alike, and which tool result differs (issue 57) ------------
def _shown(result) -> str:
    """The result as the learner reads it, printed too (run with -s to read every message case)."""
    text = str(result)
    print(text, end="\n\n")
    return text


def test_a_result_that_differs_only_in_type_says_so_before_the_two_long_lines():
    as_list = learner("""
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    kept, used = [], 0
    for chunk in chunks:
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return [separator.join(kept), used]
""")["assemble_context"]
    text = _shown(run_check("q1.1", as_list))
    assert text.splitlines()[1] == (
        "  fixed case 1 of 8 disagrees with the reference: only the type differs: it returned a list; the reference "
        "returns a tuple"
    )


def test_a_float_for_an_int_is_named_with_both_values():
    as_float = learner("""
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    kept, used = [], 0.0
    for chunk in chunks:
        if used + chunk["token_count"] <= max_tokens:
            kept.append(chunk["text"])
            used += chunk["token_count"]
    return separator.join(kept), used
""")["assemble_context"]
    text = _shown(run_check("q1.1", as_float))
    assert "only the type differs: item 2 is a float (90.0); the reference's is an int (90)" in text


def test_a_type_difference_in_a_result_that_also_differs_otherwise_is_named_without_only():
    lists_and_order = learner("""
def assemble_context(chunks, max_tokens, separator="\\n\\n"):
    return [separator.join(chunk["text"] for chunk in chunks), 0]
""")["assemble_context"]
    detail = _shown(run_check("q1.1", lists_and_order)).splitlines()[1]
    assert detail.endswith("disagrees with the reference: it returned a list; the reference returns a tuple")


def test_ids_that_print_alike_but_differ_are_shown_with_escapes_and_the_input_still_pastes():
    """'\\xe9' and 'e\\u0301' (é composed, and e with a combining accent) print alike: shown, one is escaped."""
    import ast

    normalizing = learner("""
import unicodedata

def fold(text):
    return "".join(line + " " if line.splitlines()[0] != line else line for line in text.splitlines(True))

def render_prompt(question, passages):
    lines = "".join(f"[{unicodedata.normalize('NFC', key)}] {fold(text)}\\n" for key, text in passages)
    return f"Question: {fold(question)}\\nSources:\\n{lines}Answer:"
""")["render_prompt"]
    result = run_check("q2.1", normalizing)
    text = _shown(result)
    assert result.status == FAILED
    assert "e\\u0301" in text and "e\u0301" not in text, "the decomposed é is escaped wherever it is shown"
    call = result.counterexample
    arguments = ast.literal_eval(call[call.index("(") :])
    assert "e\u0301" in repr(arguments), "the escaped input still means the same string"


def test_q9_4s_tool_results_have_distinct_ids_so_a_learner_sees_which_differs():
    from packer.checking.questions_09_conversation import AGENT, POLICY_CASES

    for case in POLICY_CASES:
        messages = case[0]
        ids = [message["tool_call_id"] for message in messages if message["role"] == "tool"]
        assert len(ids) == len(set(ids)), case
    keeps_all = learner("""
def clear_then_drop(messages, limit, count, keep_last):
    if type(keep_last) is not int or keep_last < 0:
        raise ValueError("keep_last")
    cleared = [dict(m, content="[tool result cleared to save context]") if m["role"] == "tool" else m for m in messages]
    return cleared
""")["clear_then_drop"]
    text = _shown(run_check("q9.4", keeps_all))
    assert [m["tool_call_id"] for m in AGENT if m["role"] == "tool"] == ["c1", "c2", "c3"]
    assert "'tool_call_id': 'c2'" in text or "'tool_call_id': 'c3'" in text
