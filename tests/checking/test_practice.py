"""The practice points' checks (packer.checking.practice): what a learner is told for a right answer, a wrong one,
an unanswered one, and a progress cell; every point's wrong answers lose and are explained."""

from __future__ import annotations

import pytest

from packer.checking import practice
from packer.checking.practice import BY_LESSON, POINTS, Choose, Predict, Write, kinds
from practice_wrong import WRONG_ANSWERS


@pytest.fixture(autouse=True)
def _fresh_kernel(monkeypatch):
    """Each test starts as a kernel that has answered nothing."""
    monkeypatch.setattr(practice, "_ANSWERED", {})


# --- predict ------------------------------------------------------------------------------------------------
def test_an_unanswered_prediction_says_what_to_do():
    assert str(practice.predict("p0.1", ...)) == (
        "Practice 0.1 (predict): not answered yet\n  write your prediction in place of ... and run this cell again"
    )


def test_a_right_prediction_is_right_and_a_wrong_one_told_which_part_never_the_answer():
    expected = POINTS["p0.1"].result()
    assert practice.predict("p0.1", expected).status == kinds.RIGHT
    wrong = practice.predict("p0.1", (expected[0], expected[1] + 1))
    assert wrong.status == kinds.NOT_YET
    assert "item 1 is right, item 2 is wrong" in str(wrong)
    assert repr(expected[1]) not in str(wrong).replace(f"yours:    {(expected[0], expected[1] + 1)!r}", "")


def test_a_prediction_of_the_wrong_type_is_told_the_type():
    expected = POINTS["p0.1"].result()
    said = str(practice.predict("p0.1", (expected[0], float(expected[1]))))
    assert "wrong type: item 2 of your prediction is a float" in said
    said = str(practice.predict("p0.1", list(expected)))
    assert "wrong type: your prediction is a list (" in said and "not a tuple[str, int]" in said


def test_a_known_wrong_prediction_is_told_its_misconception():
    said = str(practice.predict("p0.1", ("alpha", 40)))
    assert "stops at the first chunk that does not fit" in said


@pytest.mark.parametrize("pid", [p for p, found in POINTS.items() if isinstance(found, Predict)])
def test_every_prediction_names_a_misconception_and_each_is_wrong_and_explained(pid):
    found = POINTS[pid]
    assert found.misconceptions, f"{pid} lists no wrong prediction"
    for wrong, why in found.misconceptions:
        feedback = kinds.check_prediction(found, wrong)
        assert feedback.status == kinds.NOT_YET and why in str(feedback), pid


# --- write --------------------------------------------------------------------------------------------------
def test_an_unanswered_function_says_what_to_do():
    def total_tokens(chunks):
        raise NotImplementedError("replace this line with your answer")

    assert str(practice.write("p0.2", total_tokens)) == (
        "Practice 0.2 (write): not answered yet\n  replace the line that raises NotImplementedError with your code"
    )


def test_a_wrong_function_gets_the_exercises_counterexample_and_the_hint():
    said = str(practice.write("p0.2", lambda chunks: len(chunks)))
    assert said.startswith("Practice 0.2 (write): not yet\n  fixed case 1 of 4 disagrees with the reference")
    assert "  input:    total_tokens(" in said and "  expected: 140" in said and "  actual:   4" in said
    assert said.endswith("  hint: a chunk's cost is its token_count, whatever its text looks like")


@pytest.mark.parametrize("pid", [p for p, found in POINTS.items() if isinstance(found, Write)])
def test_every_written_point_has_three_typical_wrong_answers_and_each_loses(pid):
    found = POINTS[pid]
    assert len(WRONG_ANSWERS.get(pid, [])) >= 3, (
        f"{pid}: write at least three wrong answers into tests/checking/practice_wrong/"
    )
    for why, source in WRONG_ANSWERS[pid]:
        names: dict = {}
        exec(source, names)
        feedback = kinds.check_function(found, names[found.question.name])
        assert feedback.status == kinds.NOT_YET, f"{pid}: {why} got {feedback}"


# --- choose -------------------------------------------------------------------------------------------------
def test_a_choice_is_right_or_told_the_misconception_of_its_option():
    assert str(practice.choose("p0.3", "c")).startswith("Practice 0.3 (choose): right\n  C: ")
    said = str(practice.choose("p0.3", "B"))
    assert said == (
        "Practice 0.3 (choose): not yet\n  B is not it: words are not bytes either: 'café' is one word and "
        "five bytes\n  try another option"
    )
    assert "not one of the options: pick A, B, C or D" in str(practice.choose("p0.3", "E"))
    assert practice.choose("p0.3", " ").status == kinds.NOT_ANSWERED


@pytest.mark.parametrize("pid", [p for p, found in POINTS.items() if isinstance(found, Choose)])
def test_every_choice_has_one_right_option_and_every_wrong_one_explained(pid):
    found = POINTS[pid]
    assert sum(option.right for option in found.options) == 1
    assert len(found.options) >= 3
    for option in found.options:
        assert option.why.strip() and option.text.strip()
        said = str(kinds.check_choice(found, option.key))
        assert (kinds.RIGHT if option.right else "is not it") in said and option.why in said


def test_the_check_button_is_a_plain_function_and_the_box_names_the_point():
    box = practice.choose("p0.3")
    assert repr(box) == "Practice 0.3: pick A, B, C or D, then press Check"
    assert len(repr(box)) <= 110, "ipywidgets shows at most 110 characters of it in a saved notebook"
    radio, button, said, keys = box.children
    assert practice.KEYS_NOTE in keys.value, "how to answer by keyboard, right under the options"
    assert [label for label, _ in radio.options][2].startswith("C. pack_utf8")
    assert practice.on_check("p0.3", None).status == kinds.NOT_ANSWERED
    radio.value = "A"
    button.click()
    assert 'role="status"' in said.value and "A is not it" in said.value
    assert practice.progress("00_start_here").revisit == [POINTS["p0.3"]]


def test_a_choice_changed_after_its_check_is_said_to_be_unchecked_until_check_is_pressed_again():
    """ipywidgets may deliver a quick change of the radio buttons after the press of Check meant for it: the box
    then says that the feedback shown is for the option checked, not the one picked, and records nothing more."""
    radio, button, said, _ = practice.choose("p0.3").children
    radio.value = "A"
    button.click()
    assert "A is not it" in said.value and "picked now" not in said.value
    radio.value = "B"
    assert said.value.count("B is picked now: press Check to check it. (Below: the feedback for A.)") == 1
    assert "A is not it" in said.value and practice.progress("00_start_here").revisit == [POINTS["p0.3"]]
    radio.value = "A"  # back to the option the feedback is for
    assert "picked now" not in said.value and "A is not it" in said.value
    radio.value = "C"
    button.click()
    assert "picked now" not in said.value and "Practice 0.3 (choose): right" in said.value
    assert practice.progress("00_start_here").right == [POINTS["p0.3"]]
    assert practice.picked_since("C", None) == practice.picked_since("C", "C") == ""


def test_feedback_in_the_box_is_escaped_as_html(monkeypatch):
    hostile = kinds.Option("A", "<b>bold</b>", "<script>alert(1)</script>")
    point = Choose("p0.3", 2, "t", options=(hostile, kinds.Option("B", "x", "y", right=True)))
    monkeypatch.setitem(POINTS, "p0.3", point)
    box = practice.choose("p0.3")
    box.children[0].value = "A"
    box.children[1].click()
    assert "<script>" not in box.children[2].value and "&lt;script&gt;" in box.children[2].value


# --- progress and misuse ------------------------------------------------------------------------------------
def test_progress_counts_this_kernels_right_answers_and_lists_what_to_revisit():
    assert str(practice.progress("00_start_here")).splitlines()[0] == (
        "Practice in this lesson: 0 of 3 answered right in this kernel"
    )
    practice.predict("p0.1", POINTS["p0.1"].result())
    practice.choose("p0.3", "A")
    text = str(practice.progress("00_start_here"))
    assert text.splitlines()[0] == "Practice in this lesson: 1 of 3 answered right in this kernel"
    assert practice.LAST_ANSWER_COUNTS in text.splitlines()
    assert "to revisit (the last answer was not right):\n    Practice 0.3 (choose, objective 2)" in text
    assert "not answered yet:\n    Practice 0.2 (write, objective 3)" in text
    practice.choose("p0.3", "C")
    practice.write("p0.2", lambda chunks: sum(c["token_count"] for c in chunks))
    assert str(practice.progress("00_start_here")).endswith("every one of them: on to the exercise")


def test_an_unknown_point_or_the_wrong_kind_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown practice point 'p0.9'"):
        practice.predict("p0.9", 1)
    with pytest.raises(ValueError, match="practice 0.3 is a choose point, answered with choose"):
        practice.predict("p0.3", "C")
    with pytest.raises(ValueError, match="no practice points for '99_nothing'"):
        practice.progress("99_nothing")


def test_every_point_belongs_to_one_lesson_and_is_numbered_after_it():
    for slug, points in BY_LESSON.items():
        for found in points:
            assert found.pid.startswith(f"p{int(slug[:2])}."), found.pid


def test_the_last_answer_counts_a_point_right_then_wrong_is_to_revisit_and_right_again_is_right():
    right = next(option.key for option in POINTS["p0.3"].options if option.right)
    wrong = next(option.key for option in POINTS["p0.3"].options if not option.right)
    practice.predict("p0.1", POINTS["p0.1"].result())
    practice.predict("p0.1", ("alpha", 40))
    practice.choose("p0.3", right)
    practice.on_check("p0.3", wrong)  # the Check button, as 2.8 answered C then A
    shown = practice.progress("00_start_here")
    assert shown.right == [] and shown.revisit == [POINTS["p0.1"], POINTS["p0.3"]]
    assert str(shown).splitlines()[:2] == [
        "Practice in this lesson: 0 of 3 answered right in this kernel",
        practice.LAST_ANSWER_COUNTS,
    ]
    practice.predict("p0.1", ...)  # a cell run again unanswered takes nothing back
    practice.choose("p0.3", right)
    assert practice.progress("00_start_here").right == [POINTS["p0.3"]]
    assert practice.progress("00_start_here").revisit == [POINTS["p0.1"]]


def test_a_prediction_that_mixes_two_misconceptions_is_told_both(monkeypatch):
    two = Predict(
        "p0.1",
        1,
        "t",
        result=lambda: (1, 2, 3),
        answer_type=tuple[int, int, int],
        misconceptions=(((9, 2, 3), "first wrong because"), ((1, 2, 8), "third wrong because")),
    )
    said = str(kinds.check_prediction(two, (9, 2, 8)))
    assert "first wrong because" in said and "third wrong because" in said
    assert "first wrong because" not in str(kinds.check_prediction(two, (7, 2, 8)))


def test_a_list_prediction_in_the_wrong_order_is_told_so():
    ordered = Predict("p0.1", 1, "t", result=lambda: ["a", "b", "c"], answer_type=list[str], misconceptions=())
    assert "the right elements in the wrong order" in str(kinds.check_prediction(ordered, ["c", "a", "b"]))
    assert "the right elements in the wrong order" not in str(kinds.check_prediction(ordered, ["a", "b"]))


def test_a_borrowed_answer_is_not_given_a_hint_about_its_logic():
    import packer.chunks

    def total_tokens(chunks):
        packer.chunks.assemble_context(chunks, 10**9)
        return sum(chunk["token_count"] for chunk in chunks)

    said = str(practice.preview("p0.2", total_tokens))
    assert "not credited" in said and "hint:" not in said


def test_lesson_07s_practice_points_measure_the_lessons_own_cafe_request():
    """The practice module keeps a copy of lesson 07's example (checking never imports the lab): the same one."""
    from packer.checking.practice import lesson_07_whole_request as practice
    from packer.lab import request_budget as lesson

    for name in ("QUESTION", "SYSTEM", "PASSAGES", "SEARCH_TOOL"):
        assert getattr(practice, name) == getattr(lesson, name), name


# --- issue 61: wrong answers told so, and feedback that follows the slip -------------------------------------
@pytest.mark.parametrize("pid", [p for p, found in POINTS.items() if isinstance(found, Predict)])
def test_each_known_wrong_prediction_is_told_its_own_misconception_and_no_other(pid):
    found = POINTS[pid]
    for wrong, why in found.misconceptions:
        told = [line.strip() for line in kinds.check_prediction(found, wrong).details[2:]]
        assert told == [why], f"{pid}: {wrong!r} is told {told}"


def test_2_1s_bare_prompt_short_of_a_word_is_told_about_the_questions_word():
    said = str(practice.preview("p2.1", (3, 3)))
    assert "the question's own word included" in said


def test_2_2s_swapped_pair_is_told_it_is_swapped_not_that_a_join_is_no_sum():
    said = str(practice.preview("p2.2", (3, 4)))
    assert "the two are swapped" in said and "need not be the sum" not in said


def test_a_list_prediction_is_told_item_by_item_as_a_tuple_is():
    expected = POINTS["p9.1"].result()
    one_off = [*expected[:-1], expected[-1] + 1]
    said = str(practice.preview("p9.1", one_off))
    assert f"item {len(expected)} is wrong" in said and "item 1 is right" in said
    assert "the number of items is wrong" in str(practice.preview("p9.1", expected[:-1]))


@pytest.mark.parametrize("pid", [p for p, found in POINTS.items() if isinstance(found, Write) and found.slips])
def test_a_known_wrong_function_gets_the_hint_of_its_slip(pid):
    found = POINTS[pid]
    for slip in found.slips:
        if slip.wrong is not None:
            said = str(kinds.check_function(found, slip.wrong))
            assert said.endswith(f"  hint: {slip.hint}"), f"{pid}: {said}"


def test_2_4_answered_with_less_than_is_told_about_the_exact_fit():
    def keep_or_skip(passages, limit, prompt_size):
        chosen, skipped = [], []
        for passage in passages:
            if prompt_size(chosen + [passage]) < limit:
                chosen.append(passage)
            else:
                skipped.append(passage[0])
        return chosen, skipped

    assert "hint: a prompt that measures exactly the limit is within it: compare with <=" in str(
        practice.preview("p2.4", keep_or_skip)
    )


def test_9_2_returning_the_turns_is_told_to_return_how_many():
    said = str(practice.preview("p9.2", lambda base, costs, limit: costs[-1:]))
    assert said.endswith("hint: return how many earlier turns are kept, an int, not the turns themselves")


def test_an_answer_no_slip_explains_gets_the_points_general_hint():
    said = str(practice.preview("p9.2", lambda base, costs, limit: 7))
    assert said.endswith(f"hint: {POINTS['p9.2'].hint}")


KNOWN_BREAKS = ("\r\n", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def _fold_without(forgotten: str):
    """A fold that puts a space after each line boundary it knows: all of str.splitlines' but `forgotten`."""
    known = [b for b in KNOWN_BREAKS if b not in forgotten]

    def fold(text):
        out, at = [], 0
        while at < len(text):
            hit = next((b for b in known if text.startswith(b, at)), None)
            out.append(hit + " " if hit else text[at])
            at += len(hit) if hit else 1
        return "".join(out)

    return fold


@pytest.mark.parametrize("forgotten", ["\x0c", "\x1c", "\x1d", "\x1e", "\u2029", "\x0c\x1c\x1d\x1e\u2029"])
def test_a_fold_that_leaves_out_a_line_boundary_is_not_told_right(forgotten):
    fold = _fold_without(forgotten)
    if forgotten == "\u2029":  # the hole the lesson closes: a passage starts a forged source line
        assert fold("a\u2029[b] forged").splitlines()[1] == "[b] forged"
    said = practice.preview("p2.6", fold)
    assert said.status == kinds.NOT_YET
    assert "hint: str.splitlines knows more line boundaries than" in str(said)
    assert _fold_without("")("a\u2029[b] forged") == "a\u2029 [b] forged"
    assert practice.preview("p2.6", _fold_without("")).status == kinds.RIGHT


@pytest.mark.parametrize("percent", [7, 14, 28, 55])
def test_headroom_with_a_float_rank_is_one_rank_off_for_100_passages_and_not_told_right(percent):
    import math

    from packer.checking.practice.lesson_05_counting_units import HUNDRED_ESTIMATES, HUNDRED_TOKENS

    def headroom_for(tokens, estimates, percent):
        needed = sorted(-(-100 * (t - e) // e) for t, e in zip(tokens, estimates))
        return needed[math.ceil(percent / 100 * len(needed)) - 1]

    point = POINTS["p5.3"]
    case = (HUNDRED_TOKENS, HUNDRED_ESTIMATES, percent)
    assert case in point.question.cases
    assert headroom_for(*case) == point.question.reference(*case) + 1
    said = practice.preview("p5.3", headroom_for)
    assert said.status == kinds.NOT_YET and "hint: work the rank out in integers" in str(said)


@pytest.mark.parametrize("pid", [p for p, found in POINTS.items() if isinstance(found, Write)])
def test_every_write_point_has_slips_each_with_its_own_hint_and_a_way_to_be_recognised(pid):
    found = POINTS[pid]
    assert found.slips, f"{pid}: no known slip: every wrong answer would get the one general hint"
    for slip in found.slips:
        assert slip.hint.strip() and slip.hint != found.hint
        assert slip.wrong or slip.returns or slip.cases, f"{pid}: {slip.hint!r} can never be chosen"
        assert all(1 <= number <= len(found.question.cases) for number in slip.cases), pid


def test_a_slip_is_recognised_by_the_fixed_case_it_fails_first():
    def shingles_of(words, size):  # right but for a text shorter than size
        return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}

    said = str(practice.preview("p8.3", shingles_of))
    assert "fixed case 3 of" in said and said.endswith("hint: " + POINTS["p8.3"].slips[1].hint)


def test_an_answer_stopped_by_the_time_limit_is_not_run_again_to_choose_its_hint(monkeypatch):
    ran = []
    monkeypatch.setattr(kinds, "_behaves_as", lambda *args: ran.append(args) or False)
    hint = kinds.slip_hint(POINTS["p2.4"], lambda *args: None, "stopped: the answer was still running after 2 s")
    assert hint == POINTS["p2.4"].hint and not ran
