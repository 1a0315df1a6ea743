"""The mutation operators: each makes the one change it names, and every mutant still compiles."""

from __future__ import annotations

import ast

import pytest

from mutate import mutants_of


def changes(source: str) -> list[tuple[str, str]]:
    """(operator, change) of every mutant of a snippet."""
    return [(m.operator, m.change) for m in mutants_of(source, "snippet.py")]


def test_a_comparison_is_negated_and_its_boundary_shifted():
    assert changes("def f(a, b):\n    return a <= b\n") == [
        ("constant return", "return a <= b -> return None"),
        ("negate comparison", "a <= b -> a > b"),
        ("shift boundary", "a <= b -> a < b"),
    ]


@pytest.mark.parametrize(
    "op, negated",
    [
        ("==", "!="),
        ("!=", "=="),
        ("is", "is not"),
        ("is not", "is"),
        ("in", "not in"),
        ("not in", "in"),
        ("<", ">="),
        (">", "<="),
        (">=", "<"),
    ],
)
def test_every_comparison_has_its_negation(op, negated):
    assert ("negate comparison", f"a {op} b -> a {negated} b") in changes(f"x = a {op} b\n")


def test_integers_move_by_one_both_ways_but_booleans_are_swapped():
    assert changes("x = 500\ny = True\n") == [
        ("integer +1", "500 -> 501"),
        ("integer -1", "500 -> 499"),
        ("swap boolean", "True -> False"),
    ]


def test_zero_minus_one_is_a_negative_literal_that_runs():
    minus = next(m for m in mutants_of("x = 0\n", "s.py") if m.operator == "integer -1")
    namespace: dict = {}
    exec(minus.source, namespace)
    assert namespace["x"] == -1


def test_and_and_or_are_swapped():
    assert ("swap boolean", "a and b -> a or b") in changes("x = a and b\n")
    assert ("swap boolean", "a or b -> a and b") in changes("x = a or b\n")


def test_conditions_are_negated_in_if_while_ternary_and_comprehension():
    found = changes("if a:\n    pass\nwhile b:\n    pass\nx = 1 if c else 2\ny = [i for i in z if d]\n")
    negated = [change for operator, change in found if operator == "negate condition"]
    assert negated == [
        "if a:... -> if not a:...",
        "while b:... -> while not b:...",
        "1 if c else 2 -> 1 if not c else 2",
        " for i in z if d ->  for i in z if not d",
    ]


def test_a_negated_not_loses_its_not():
    assert ("negate condition", "if not a:... -> if a:...") in changes("if not a:\n    pass\n")


def test_a_single_comparison_is_negated_once_not_twice():
    # `if not (a < b)` would be the same mutant as `if a >= b`.
    assert [op for op, _ in changes("if a < b:\n    pass\n")] == ["negate comparison", "shift boundary"]


def test_a_raise_is_dropped():
    assert changes("def f():\n    raise ValueError('bad')\n") == [("drop raise", "raise ValueError('bad') -> pass")]


@pytest.mark.parametrize(
    "annotation, constants",
    [
        ("bool", ["True", "False"]),
        ("int", ["0"]),
        ("float", ["0.0"]),
        ("str", ["''"]),
        ("list[int]", ["None"]),
        ("", ["None"]),
    ],
)
def test_a_return_becomes_a_constant_of_the_annotated_type(annotation, constants):
    returns = f" -> {annotation}" if annotation else ""
    found = changes(f"def f(x){returns}:\n    return x\n")
    assert found == [("constant return", f"return x -> return {c}") for c in constants]


def test_a_return_of_the_constant_itself_is_not_a_mutant():
    assert changes("def f() -> bool:\n    return True\n") == [
        ("constant return", "return True -> return False"),
        ("swap boolean", "True -> False"),
    ]


def test_annotations_are_not_mutated_but_defaults_are():
    found = mutants_of("def f(x: 'Literal[1]' = 2) -> 'Literal[3]':\n    pass\n", "s.py")
    assert [(m.function, m.change) for m in found] == [("f", "2 -> 3"), ("f", "2 -> 1")]


def test_each_mutant_knows_its_line_and_enclosing_function():
    source = "class Plan:\n    def fits(self):\n        return self.total <= 500\n"
    mutant = next(m for m in mutants_of(source, "plan.py") if m.operator == "integer +1")
    assert (mutant.path, mutant.line, mutant.function) == ("plan.py", 3, "Plan.fits")


def test_mutants_differ_from_the_original_and_from_one_another():
    source = "def f(a, b):\n    if a < b:\n        raise ValueError('a')\n    return a + 1\n"
    sources = [m.source for m in mutants_of(source, "s.py")]
    assert len(sources) == 6  # 2 comparison, 1 raise, 1 return, 2 integer
    assert ast.unparse(ast.parse(source)) + "\n" not in sources
    assert len(set(sources)) == len(sources)


def test_every_mutant_of_every_core_module_compiles():
    from score import CORE, ROOT

    for module in CORE:
        for mutant in mutants_of((ROOT / module).read_text(encoding="utf-8"), module):
            compile(mutant.source, mutant.path, "exec")
