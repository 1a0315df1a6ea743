"""The learner-mistake operators: each makes the one change it names, only in solution code, and compiles."""

from __future__ import annotations

import ast

import pytest

from learner import learner_mutants


def changes(source: str, name: str = "f") -> list[tuple[str, str]]:
    """(operator, change) of every mutant of a snippet, all of whose lines count as solution code."""
    return [(m.operator, m.change) for m in learner_mutants(source, name, range(1, 1000))]


def run(source: str, operator: str, *args, name: str = "f", which: int = 0):
    """Call the function `name` of the `which`-th mutant made by `operator`."""
    mutants = [m for m in learner_mutants(source, name, range(1, 1000)) if m.operator == operator]
    namespace: dict = {}
    exec(mutants[which].source, namespace)
    return namespace[name](*args)


def test_mutate_pys_operators_are_still_made():
    found = {operator for operator, _ in changes("def f(a, b):\n    if a <= b:\n        return 1\n    return 0\n")}
    assert {"negate comparison", "shift boundary", "integer +1", "integer -1", "constant return"} <= found


def test_a_raise_is_dropped_or_becomes_a_type_error_and_its_message_is_never_mutated():
    source = "def f(x):\n    if x < 0:\n        raise ValueError(f'x must be at least 0, got {x + 1}')\n"
    raises = [(m.operator, m.after) for m in learner_mutants(source, "f", range(1, 4)) if m.line == 3]
    assert raises == [
        ("drop raise", "pass"),
        ("wrong exception", "raise TypeError(f'x must be at least 0, got {x + 1}')"),
    ], "the message, with its + 1, is never mutated"


def test_floor_ceil_and_round_are_confused_both_ways():
    found = changes("def f(n):\n    return -(-n // 4), (n + 3) // 4\n")
    assert ("floor instead of ceil", "-(-n // 4) -> n // 4") in found
    assert ("round instead of ceil", "-(-n // 4) -> round(n / 4)") in found
    assert ("floor instead of ceil", "(n + 3) // 4 -> n // 4") in found
    assert ("round instead of floor", "(n + 3) // 4 -> round((n + 3) / 4)") in found
    assert ("truncate instead of floor", "(n + 3) // 4 -> int((n + 3) / 4)") in found
    assert ("float for int", "(n + 3) // 4 -> (n + 3) / 4") in found


def test_a_condition_is_dropped_from_an_or_and_a_type_from_isinstance():
    found = changes("def f(x):\n    return isinstance(x, (str, bytes)) or x is None\n")
    assert ("drop a condition", "isinstance(x, (str, bytes)) or x is None -> x is None") in found
    assert ("drop a condition", "isinstance(x, (str, bytes)) or x is None -> isinstance(x, (str, bytes))") in found
    assert ("forget a type", "isinstance(x, (str, bytes)) -> isinstance(x, bytes)") in found
    assert ("forget a type", "isinstance(x, (str, bytes)) -> isinstance(x, str)") in found


def test_each_forbidden_character_is_forgotten_in_turn():
    source = (
        "def f(key):\n    for c in '[]\\r':\n        if c in key:\n            raise ValueError(c)\n    return key\n"
    )
    assert run(source, "forget a character", "a\r", which=2) == "a\r"  # the third drops "\r"
    assert len([op for op, _ in changes(source) if op == "forget a character"]) == 3


def test_break_and_continue_are_dropped():
    found = changes("def f(xs):\n    for x in xs:\n        if x:\n            continue\n        break\n")
    assert ("drop continue", "continue -> pass") in found and ("drop break", "break -> pass") in found


def test_arguments_are_swapped_but_not_those_of_max_min_or_isinstance():
    found = changes("def f(a, b):\n    return g(a, b) + max(a, b) + isinstance(a, int)\n")
    assert [change for op, change in found if op == "swap arguments"] == ["g(a, b) -> g(b, a)"]


def test_comparisons_with_text_ignore_case_or_strip_only_where_that_can_change_something():
    found = changes(
        "def f(p, key):\n    return 'KEY: VALUE' in p, key == '', '[' in key, '\\n' in key, p.strip() == ''\n"
    )
    assert ("ignore case", "'KEY: VALUE' in p -> 'key: value' in p.lower()") in found
    assert ("strip in comparison", "key == '' -> key.strip() == ''") in found
    assert ("strip in comparison", "'\\n' in key -> '\\n' in key.strip()") in found
    assert not [c for _, c in found if c.startswith("'[' in key ->") and ("lower" in c or "strip" in c)]
    assert not [c for o, c in found if o == "ignore case" and c.startswith("key == ''")], "'' has no case"
    assert not [c for o, c in found if o == "strip in comparison" and "'KEY: VALUE'" in c.split(" -> ")[0]]
    assert ("drop strip", "p.strip() -> p") in found
    assert not [c for o, c in found if o == "strip in comparison" and c.startswith("p.strip() ==")]


def test_a_value_in_an_f_string_is_stripped():
    source = "def f(key, text):\n    return f'[{key}] {text}'\n"
    assert run(source, "strip a value", " a ", " b ", which=1) == "[ a ] b"


def test_a_separator_is_added_at_either_end_but_not_an_empty_one():
    found = changes("def f(xs):\n    return ', '.join(xs) + ''.join(xs)\n")
    assert ("separator at the start", "', '.join(xs) -> ', ' + ', '.join(xs)") in found
    assert ("separator at the end", "', '.join(xs) -> ', '.join(xs) + ', '") in found
    assert not [c for _, c in found if c.startswith("''.join(xs) ->") and "+" in c.split(" -> ")[1]]


def test_a_string_built_around_user_text_becomes_a_template():
    source = "def f(question, lines):\n    return 'Q: ' + question + '\\n' + lines\n"
    with pytest.raises(KeyError):  # ('Q: ' + question + '\n{}').format(lines)
        run(source, "format template", "{x}", "L", which=1)
    with pytest.raises(ValueError):  # ('Q: ' + question + '\n%s') % (lines,)
        run(source, "percent template", "100%", "L", which=1)
    for operator in ("format template", "percent template"):
        assert [run(source, operator, "plain", "L", which=which) for which in (0, 1)] == ["Q: plain\nL"] * 2


def test_a_one_pass_iterator_argument_is_read_twice_and_a_list_argument_changed():
    source = "def f(items, n):\n    total = 0\n    for item in items:\n        total += item\n    return total\n"
    found = changes(source)
    assert ("read twice", "items read once -> items read twice") in found
    assert ("change the input", "items left as it was -> items.clear() before returning") in found
    assert not [c for _, c in found if c.startswith("n read")], "n is never iterated"
    assert run(source, "read twice", iter([1, 2]), 0) == 0
    given = [1, 2]
    assert run(source, "change the input", given, 0) == 3 and given == []


def test_a_materialised_input_can_be_forgotten():
    assert ("drop list()", "items = list(items) -> pass") in changes("def f(items):\n    items = list(items)\n")


def test_a_tuple_becomes_a_list_a_list_a_tuple_and_an_int_a_float():
    found = changes(
        "def f(xs):\n    used = 0\n    out = []\n    out.append((used, 'a'))\n    return ' '.join(xs), used\n"
    )
    assert ("list for tuple", "return (' '.join(xs), used) -> return [' '.join(xs), used]") in found
    assert ("list for tuple", "out.append((used, 'a')) -> out.append([used, 'a'])") in found
    floats = [c for o, c in found if o == "float for int" and c.startswith("return")]
    assert len(floats) == 1 and "float(used)" in floats[0], "only the int element, not the joined text"
    assert ("tuple for list", "return [x for x in xs] -> return tuple([x for x in xs])") in changes(
        "def f(xs):\n    return [x for x in xs]\n"
    )


def test_only_the_solution_lines_are_mutated():
    source = "def f(a):\n    b = a + 1\n    return b + 2\n"
    lines = {m.line for m in learner_mutants(source, "f", range(3, 4))}
    assert lines == {3}


def test_input_checks_are_marked_as_validation_and_the_rest_is_not():
    source = (
        "def f(xs, n):\n"
        "    if n < 0:\n"
        "        raise ValueError('n')\n"
        "    for c in '[]':\n"
        "        if c in xs:\n"
        "            raise ValueError(c)\n"
        "    return n + 1\n"
    )
    marked = {(m.line, m.validation) for m in learner_mutants(source, "f", range(1, 1000))}
    assert {line for line, validation in marked if validation} == {2, 3, 4, 5, 6}
    assert {line for line, validation in marked if not validation} == {7}


def test_every_mutant_of_every_worked_answer_compiles_and_differs():
    from answers import answers, practice_answers

    for answer in [*answers().values(), *practice_answers().values()]:
        sources = [m.source for m in learner_mutants(answer.source, answer.name, answer.lines)]
        assert sources, f"{answer.qid}: no mutants"
        for source in sources:
            compile(source, answer.qid, "exec")
        assert ast.unparse(ast.parse(answer.source)) + "\n" not in sources


# --- the mistake kinds of issue 43: each made where it applies, and each behaves as the learner's answer did ---
def test_float_division_then_floor_or_ceil():
    found = changes("def f(a, b):\n    return a // b, -(-a // b)\n")
    assert ("float then floor", "a // b -> __import__('math').floor(a / b)") in found
    assert ("float then ceil", "-(-a // b) -> __import__('math').ceil(a / b)") in found
    big = 10**17 + 1  # beyond a float's 53 bits: the float division rounds, floor division does not
    assert run("def f(a, b):\n    return a // b\n", "float then floor", big, 1) != big


EXACT_ANSWER = (
    "from fractions import Fraction\n"
    "def f(scored, share):\n"
    "    bar = Fraction(str(share)) * max(Fraction(str(s)) for _, s in scored)\n"
    "    return [k for k, s in scored if Fraction(str(s)) >= bar]\n"
)


def test_an_exact_comparison_made_in_floats_or_with_a_tolerance():
    found = changes(EXACT_ANSWER)
    assert ("float for exact", "Fraction(str(share)) -> share") in found
    assert ("float tolerance", "Fraction(str(s)) >= bar -> float(Fraction(str(s))) >= float(bar) - 1e-09") in found
    assert run(EXACT_ANSWER, "float tolerance", [("a", 1), ("b", 0.4999999999)], 0.5) == ["a", "b"]
    assert run(EXACT_ANSWER, "float for exact", [("a", 25), ("b", 7)], 0.28) == ["a"]  # 0.28 * 25 > 7 in floats
    plain = changes("def f(a, b):\n    return a >= b\n")
    assert not [c for c in plain if c[0] == "float tolerance"], "only where a side is exact"


def test_a_separator_measured_before_the_first_text():
    source = "def f(kept, text, sep):\n    return sep.join(kept + [text])\n"
    assert ("leading separator", "sep.join(kept + [text]) -> sep.join(kept) + sep + text") in changes(source)
    assert run(source, "leading separator", [], "abcd", "\n\n") == "\n\nabcd"


def test_isinstance_for_a_type_test_and_a_tuple_accepted_for_a_list():
    source = "def f(n, xs):\n    if type(n) is not int or not isinstance(xs, list):\n        raise ValueError('n')\n"
    found = changes(source)
    assert ("isinstance for type()", "type(n) is not int -> not isinstance(n, int)") in found
    assert ("accept a tuple", "isinstance(xs, list) -> isinstance(xs, (list, tuple))") in found
    assert run(source, "isinstance for type()", True, []) is None  # True passes as an int
    assert run(source, "accept a tuple", 1, ("x",)) is None


def test_ids_compared_without_case_only_in_an_input_check_against_a_collection_it_built():
    source = (
        "def f(keys):\n    seen = set()\n    for key in keys:\n        if key in seen:\n"
        "            raise ValueError('dup')\n        seen.add(key)\n    return 'ok' if 'a' in keys else ''\n"
    )
    found = [c for o, c in changes(source) if o == "ignore case in ids"]
    assert found == ["key in seen -> str(key).casefold() in {str(_s).casefold() for _s in seen}"]
    with pytest.raises(ValueError):
        run(source, "ignore case in ids", ["a", "A"])


def test_ascii_whitespace_for_unicode_whitespace():
    source = "def f(c, t):\n    return c.isspace(), t.strip()\n"
    found = changes(source)
    assert ("ASCII whitespace", "t.strip() -> t.strip(__import__('string').whitespace)") in found
    assert run(source, "ASCII whitespace", "\u3000", "x", which=0) == (False, "x")  # isspace: U+3000 missed
    assert run(source, "ASCII whitespace", "", "\u3000", which=1) == (False, "\u3000")  # strip: U+3000 kept


# --- the kinds of mistake issue 57 found with full marks --------------------------------------------------
AWAITED = """
def f(events):
    waiting = set()
    for kind, key in events:
        if kind == "result":
            if key not in waiting:
                raise ValueError(key)
            waiting.remove(key)
        else:
            waiting.add(key)
    if waiting:
        raise ValueError("unanswered")
    return True
"""


def test_an_awaited_item_is_matched_in_any_order_and_what_stays_unmatched_is_still_refused():
    assert run(AWAITED, "matched in any order", [("result", "a"), ("call", "a")]) is True  # the result came first
    with pytest.raises(ValueError):
        run(AWAITED, "matched in any order", [("result", "a")])
    with pytest.raises(ValueError):
        run(AWAITED, "matched in any order", [("call", "a")])


def test_what_is_awaited_is_forgotten_when_an_inner_loop_adds_the_next_batch():
    source = """
def f(batches):
    waiting = set()
    for batch in batches:
        for key in batch:
            waiting.add(key)
    return sorted(waiting)
"""
    assert run(source, "forget what is awaited", [["a"], ["b"]]) == ["b"]
    assert [change for op, change in changes(source) if op == "forget what is awaited"] == [
        "waiting kept when batch comes -> waiting.clear() when batch is not empty"
    ]
    assert not [
        op
        for op, _ in changes(source.replace("    for batch in batches:\n        ", "    "))
        if op == "forget what is awaited"
    ], "only a loop inside another loop"


def test_a_repeat_is_seen_only_next_to_its_first_when_compared_with_the_last():
    source = """
def f(keys):
    seen = set()
    for key in keys:
        if key in seen:
            raise ValueError(key)
        seen.add(key)
    return len(keys)
"""
    assert run(source, "compared with the last", ["a", "b", "a"]) == 3
    with pytest.raises(ValueError):
        run(source, "compared with the last", ["a", "a"])


def test_an_input_check_is_moved_to_the_items_kept():
    source = """
def f(items, limit):
    for key, size in items:
        if not key:
            raise ValueError("empty id")
    kept = []
    for key, size in items:
        if size <= limit:
            kept.append(key)
    return kept
"""
    assert run(source, "checked only when kept", [("", 9)], 5) == []  # skipped, so never checked
    with pytest.raises(ValueError):
        run(source, "checked only when kept", [("", 1)], 5)
    assert all(
        m.validation for m in learner_mutants(source, "f", range(1, 99)) if m.operator == "checked only when kept"
    )


def test_a_running_total_is_measured_again_over_the_whole_payload_however_it_encodes():
    source = """
def f(pieces, limit):
    parts, used = [], 0
    for piece in pieces:
        size = len(piece.encode("utf-8"))
        if used + size <= limit:
            parts.append(piece)
            used += size
    return "".join(parts)
"""
    found = [op for op, _ in changes(source) if op.startswith("re-measure the payload")]
    assert found == [
        "re-measure the payload",
        "re-measure the payload (bytes)",
        "re-measure the payload (bytearray)",
        "re-measure the payload (codecs)",
    ]
    for operator in found:  # the same results: only a linear-work requirement can tell them apart
        assert run(source, operator, ["é", "日本", "x", "🙂"], 6) == "éx"


def test_a_check_against_a_limit_is_skipped_for_a_limit_of_0():
    source = "def f(size, limit):\n    if size > limit:\n        raise ValueError('over')\n    return size\n"
    assert run(source, "zero skips the check", 3, 0) == 3
    with pytest.raises(ValueError):
        run(source, "zero skips the check", 3, 1)


def test_a_search_from_the_start_is_made_from_the_end_with_the_same_answer():
    source = """
def f(costs, limit):
    first, last = 0, len(costs)
    while first < last and sum(costs[first:]) > limit:
        first += 1
    return first
"""
    for costs, limit in (([3, 2, 1], 3), ([3, 2, 1], 0), ([1], 5), ([], 0)):
        namespace: dict = {}
        exec(source, namespace)
        assert run(source, "search from the end", costs, limit) == namespace["f"](costs, limit)
    assert not [
        m for m in learner_mutants(source, "f", range(1, 99)) if m.operator == "search from the end" and m.validation
    ]


def test_a_loop_made_only_of_checks_is_dropped():
    source = """
def f(names, text):
    message = None
    for name in names:
        if name not in text:
            message = "absent"
            break
    return message
"""
    assert run(source, "drop a check", ["x"], "abc") is None
    assert ("drop a check", "for name in names: if name not in text: -> pass") in changes(source)


# --- issue 61: a class of inputs left out, and a float where integers were asked ---------------------------
def test_each_member_of_a_literal_collection_of_cases_is_left_out_in_turn():
    found = changes("def f(x):\n    return x in ('task', 'context', 'format')\n")
    left_out = [change for operator, change in found if operator == "leave out a case"]
    assert left_out == [
        "('task', 'context', 'format') -> ('context', 'format')",
        "('task', 'context', 'format') -> ('task', 'format')",
        "('task', 'context', 'format') -> ('task', 'context')",
    ]
    assert run("def f(x):\n    return x in {'a', 'b'}\n", "leave out a case", "a") is False
    assert not [c for o, c in changes("def f(x, y):\n    return (x, y)\n") if o == "leave out a case"], "constants only"


def test_each_character_of_a_string_tested_with_in_is_forgotten_in_turn():
    found = [c for o, c in changes("def f(c):\n    return c in '[]\\n'\n") if o == "forget a character"]
    assert found == ["c in '[]\\n' -> c in ']\\n'", "c in '[]\\n' -> c in '[\\n'", "c in '[]\\n' -> c in '[]'"]


def test_splitlines_forgets_one_of_the_rarer_line_boundaries_or_all_of_them():
    source = "def f(text):\n    return text.splitlines(keepends=True)\n"
    made = [m for m in learner_mutants(source, "f", range(1, 3)) if m.operator == "forget a line boundary"]
    assert len(made) == 9, "eight boundaries beyond \\n and \\r, one at a time, then all of them"
    text = "a\x0bb\x0cc\x1cd\x1de\x1ef\x85g\u2028h\u2029i\r\nj"  # every boundary str.splitlines knows
    for mutant in made:
        names: dict = {}
        exec(mutant.source, names)
        forgotten = mutant.after.rpartition(" not knowing ")[2]
        kept = names["f"](text)
        assert "".join(kept) == text and kept != text.splitlines(keepends=True), forgotten
        assert kept[-1] == "j" and kept[-2].endswith("\r\n"), "\\r\\n is still one boundary"


def test_a_floor_or_ceiling_division_of_a_product_is_made_with_the_division_first_in_floats():
    source = "def f(percent, n):\n    return -(-percent * n // 100)\n"
    found = [c for o, c in changes(source) if o == "divide first"]
    assert found == [
        "-(-percent * n // 100) -> __import__('math').ceil(percent / 100 * n)",
        "-(-percent * n // 100) -> __import__('math').ceil(n / 100 * percent)",
    ]
    assert run(source, "divide first", 7, 100) == 8, "7 / 100 * 100 is 7.000000000000001"
    floored = [c for o, c in changes("def f(a, b):\n    return a * b // 3\n") if o == "divide first"]
    assert "a * b // 3 -> __import__('math').floor(a / 3 * b)" in floored and "a * b // 3 -> int(b / 3 * a)" in floored


def test_a_sum_with_a_list_literal_is_no_int_to_return_as_a_float():
    assert not [c for o, c in changes("def f(parts):\n    return parts + [1]\n") if o == "float for int"]
