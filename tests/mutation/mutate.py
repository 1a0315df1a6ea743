"""Mutants of a Python module: each one small change that a good test suite should notice.

Operators (each mutant applies exactly one):
    negate comparison   a <= b  ->  a > b      (also == / !=, is / is not, in / not in)
    shift boundary      a <= b  ->  a < b      (< and <=, > and >=)
    integer +1 / -1     500     ->  501, 499   (literals, defaults included; not booleans)
    swap boolean        True    ->  False      (and  ->  or, or -> and)
    negate condition    if c:   ->  if not c:  (if, while, x if c else y, comprehension filters)
    drop raise          raise E ->  pass
    constant return     return x -> return <constant of the annotated type> (None when not annotated)
Annotations are never mutated: they cannot change what the code does.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass

NEGATED = {
    ast.Lt: ast.GtE,
    ast.LtE: ast.Gt,
    ast.Gt: ast.LtE,
    ast.GtE: ast.Lt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
SHIFTED = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
# The constants a `return` is replaced with, by the function's return annotation.
CONSTANT_RETURNS = {"bool": [True, False], "int": [0], "float": [0.0], "str": [""]}


@dataclass(frozen=True)
class Mutant:
    """One changed copy of a module: where the change is, what it is, and the whole changed source."""

    path: str
    line: int
    function: str
    operator: str
    before: str
    after: str
    source: str

    @property
    def change(self) -> str:
        """The change as `before -> after`, each side shortened to one readable line."""
        return f"{_short(self.before)} -> {_short(self.after)}"


def _short(code: str, width: int = 70) -> str:
    """First line of a piece of code, cut to `width` characters."""
    line = code.splitlines()[0] if code else code
    return line if len(line) <= width and "\n" not in code else line[: width - 3] + "..."


def _constant(value: object) -> ast.expr:
    """An AST node for a literal (negative numbers as a unary minus, as the parser writes them)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)


def _negated(test: ast.expr) -> ast.expr:
    """`not test`, or the operand itself when the test already is a `not`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(ast.Not(), test)


Replacement = tuple[str, ast.AST]


def _compare(node: ast.Compare) -> Iterator[Replacement]:
    for index, op in enumerate(node.ops):
        for name, table in (("negate comparison", NEGATED), ("shift boundary", SHIFTED)):
            if type(op) in table:
                ops = list(node.ops)
                ops[index] = table[type(op)]()
                yield name, ast.Compare(node.left, ops, node.comparators)


def _constant_node(node: ast.Constant) -> Iterator[Replacement]:
    if isinstance(node.value, bool):
        yield "swap boolean", ast.Constant(not node.value)
    elif isinstance(node.value, int):
        yield "integer +1", _constant(node.value + 1)
        yield "integer -1", _constant(node.value - 1)


def _boolop(node: ast.BoolOp) -> Iterator[Replacement]:
    yield "swap boolean", ast.BoolOp(ast.Or() if isinstance(node.op, ast.And) else ast.And(), node.values)


def _negation_is_new(test: ast.expr) -> bool:
    """False for a single comparison: `negate comparison` already makes `not (a < b)` as `a >= b`."""
    return not (isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in NEGATED)


def _conditional(node: ast.If | ast.While | ast.IfExp) -> Iterator[Replacement]:
    if not _negation_is_new(node.test):
        return
    changed = copy.copy(node)
    changed.test = _negated(node.test)
    yield "negate condition", changed


def _comprehension(node: ast.comprehension) -> Iterator[Replacement]:
    for index, test in enumerate(node.ifs):
        if not _negation_is_new(test):
            continue
        changed = copy.copy(node)
        changed.ifs = [*node.ifs[:index], _negated(test), *node.ifs[index + 1 :]]
        yield "negate condition", changed


def _raise(node: ast.Raise) -> Iterator[Replacement]:
    yield "drop raise", ast.Pass()


OPERATORS: dict[type, Callable[[ast.AST], Iterator[Replacement]]] = {
    ast.Compare: _compare,
    ast.Constant: _constant_node,
    ast.BoolOp: _boolop,
    ast.If: _conditional,
    ast.While: _conditional,
    ast.IfExp: _conditional,
    ast.comprehension: _comprehension,
    ast.Raise: _raise,
}


def _return_constants(node: ast.Return, annotation: ast.expr | None) -> Iterator[Replacement]:
    """`return x` -> `return C` for each constant C of the function's annotated return type."""
    if node.value is None:
        return
    kind = ast.unparse(annotation) if annotation is not None else ""
    for value in CONSTANT_RETURNS.get(kind, [None]):
        if not (
            isinstance(node.value, ast.Constant) and node.value.value == value and type(node.value.value) is type(value)
        ):
            yield "constant return", ast.Return(_constant(value))


class _Sites(ast.NodeTransformer):
    """Walk a module in source order; count every possible replacement and make the chosen one."""

    def __init__(self, chosen: int | None = None) -> None:
        self.chosen = chosen  # None: the survey of every site; else the run that makes that one replacement
        self.found: list[tuple[int, str, str, str, str]] = []  # line, function, operator, before, after
        self.scope: list[tuple[str, ast.expr | None]] = []  # (qualified name, return annotation) per def

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return self._enter(node)
        replacements = list(OPERATORS.get(type(node), lambda _: iter(()))(node))
        if isinstance(node, ast.Return) and self.scope:
            replacements += list(_return_constants(node, self.scope[-1][1]))
        for operator, replacement in replacements:
            index = len(self.found)
            line = getattr(node, "lineno", None) or node.target.lineno  # comprehensions have no line
            function = self.scope[-1][0] if self.scope else "<module>"
            if self.chosen is None:  # only the survey says what each site changes: unparsing is most of the time
                self.found.append((line, function, operator, ast.unparse(node), ast.unparse(replacement)))
            else:
                self.found.append((line, function, operator, "", ""))
            if index == self.chosen:
                return ast.copy_location(replacement, node) if hasattr(node, "lineno") else replacement
        return self._children(node)

    def _enter(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> ast.AST:
        outer = self.scope[-1][0] + "." if self.scope else ""
        returns = node.returns if not isinstance(node, ast.ClassDef) else None
        self.scope.append((outer + node.name, returns))  # decorators and defaults count as the def's own
        node.decorator_list = [self.visit(decorator) for decorator in node.decorator_list]
        if not isinstance(node, ast.ClassDef):
            self._arguments(node.args)
        else:
            node.bases = [self.visit(base) for base in node.bases]
            node.keywords = [self.visit(keyword) for keyword in node.keywords]
        node.body = [self.visit(statement) for statement in node.body]
        self.scope.pop()
        return node

    def _arguments(self, arguments: ast.arguments) -> None:
        """Defaults may be mutated; annotations may not."""
        arguments.defaults = [self.visit(d) for d in arguments.defaults]
        arguments.kw_defaults = [self.visit(d) if d is not None else None for d in arguments.kw_defaults]

    def _children(self, node: ast.AST) -> ast.AST:
        for field, value in ast.iter_fields(node):
            if field in ("annotation", "returns"):
                continue
            if isinstance(value, list):
                setattr(node, field, [self.visit(item) if isinstance(item, ast.AST) else item for item in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node


def mutants_of(source: str, path: str) -> list[Mutant]:
    """Every single-change mutant of a module's source, in source order."""
    survey = _Sites()
    survey.visit(ast.parse(source))
    mutants = []
    for index, (line, function, operator, before, after) in enumerate(survey.found):
        tree = _Sites(chosen=index).visit(ast.parse(source))
        changed = ast.unparse(ast.fix_missing_locations(tree))
        mutants.append(Mutant(path, line, function, operator, before, after, changed + "\n"))
    return mutants
