"""Mutants of a worked answer: mutate.py's operators plus the mistakes learners make.

Only the solution code is mutated (the lines between a cell's `# BEGIN SOLUTION` and `# END SOLUTION`,
which the exercise's stub replaces), and never the message of a raised exception (the checks compare the
exception's type, not its words). Besides mutate.py's operators (flipped comparisons and shifted
boundaries, integers +1 and -1, swapped booleans, negated conditions, dropped `raise`, constant returns):

    wrong exception         raise ValueError(...)  ->  raise TypeError(...)
    round instead of floor  a // b  ->  round(a / b), int(a / b) (truncate), a / b (a float)
    floor instead of ceil   -(-a // b)  ->  a // b, round(a / b);  (a + 3) // 4  ->  a // 4
    drop a condition        a or b  ->  a, b  (and the same for `and`)
    forget a type           isinstance(x, (str, bytes))  ->  isinstance(x, str), isinstance(x, bytes)
    forget a character      for c in "[]\\n\\r"  ->  for c in "]\\n\\r", ...  (each character left out once);
                            c in "[]"  ->  c in "]", ...  (the same for a str literal tested with `in`)
    leave out a case        ("task", "context", "format")  ->  ("context", "format"), ...  (each member of a
                            tuple, list or set literal of constants left out once: a class of inputs forgotten)
    forget a line boundary  text.splitlines()  ->  the same, with one of the boundaries str.splitlines knows
                            beyond \\n and \\r (\\v \\f \\x1c \\x1d \\x1e \\x85 U+2028 U+2029) not known, or
                            all of them at once (only \\n, \\r and \\r\\n are)
    divide first            a * b // c  ->  math.floor(a / c * b), int(a / c * b);  -(-a * b // c)  ->
                            math.ceil(a / c * b)  (a float where the integers were asked: 7 / 100 * 100 is not 7)
    drop break / continue   break  ->  pass
    swap arguments          f(a, b)  ->  f(b, a)  (neighbours; not max/min/isinstance)
    ignore case             "KEY" in text  ->  "key" in text.lower()  (a comparison with a cased str literal)
    strip in comparison     key == ""  ->  key.strip() == "";  "\\n" in key  ->  "\\n" in key.strip()
    drop strip              text.strip()  ->  text
    strip a value           f"[{key}] {text}"  ->  f"[{key}] {text.strip()}"
    separator at the start  sep.join(xs)  ->  sep + sep.join(xs)   (and at the end; not for "")
    format template         "Q: " + q + lines  ->  ("Q: " + q + "{}").format(lines)  (and with %s)
    read twice              a one-pass iterator argument read once more before the answer's own code
    drop list()             items = list(items)  ->  pass
    change the input        the caller's list or dict argument is cleared before the answer returns
    list for tuple          return a, b  ->  return [a, b];  xs.append((a, b))  ->  xs.append([a, b])
    tuple for list          return [...]  ->  return tuple([...])
    float for int           return n  ->  return float(n)  (a value that is an int)
    float then floor        a // b  ->  math.floor(a / b);  -(-a // b)  ->  math.ceil(a / b)  (float division first)
    float for exact         Fraction(str(x))  ->  x  (the float itself, rounded)
    float tolerance         a >= b  ->  float(a) >= float(b) - 1e-09  (where a side is exact: a Fraction)
    leading separator       sep.join(kept + [x])  ->  sep.join(kept) + sep + x  (a separator before the first)
    isinstance for type()   type(x) is not int  ->  not isinstance(x, int)  (True is an int to isinstance)
    accept a tuple          isinstance(x, list)  ->  isinstance(x, (list, tuple))
    ignore case in ids      key in seen  ->  str(key).casefold() in {str(s).casefold() for s in seen}  (input checks,
                            `seen` a collection the function built)
    ASCII whitespace        c.isspace()  ->  c != '' and all(ch in string.whitespace for ch in c);
                            x.strip()  ->  x.strip(string.whitespace)  (U+3000 and U+00A0 are not ASCII)

and the kinds of mistake issue 57 found with full marks:

    matched in any order    `if x not in s: raise` then `s.remove(x)` (an awaited item consumed) -> an item
                            that comes before the one it answers is kept aside and matched when that one comes;
                            what is left unmatched is refused where s's emptiness is checked (counted, not
                            matched in order: a result before its call passes)
    forget what is awaited  `for c in xs: ... s.add(c)` inside an outer loop  ->  `if xs: s.clear()` first (the
                            items awaited are forgotten when the next batch comes)
    compared with the last  `x in seen` in an input check  ->  `x == <the item added last>` (a repeat is seen
                            only right after its first)
    checked only when kept  an input check of a loop over items  ->  moved into the branch of a later loop over
                            the same items that keeps one (a skipped item is never checked)
    re-measure the payload  size = f(piece), total += size, parts.append(piece)  ->  size = f("".join(parts)
                            + piece) - total, also with x.encode(e) written bytes(x, e), bytearray(x, e) or
                            codecs.encode(x, e) (the same results in quadratic work, however it encodes)
    zero skips the check    `if measure > limit: raise`  ->  `if limit != 0 and measure > limit: raise` (a
                            shortcut for a limit of 0 taken before the check)
    search from the end     `i = a; while i < b and not_yet(i): i += 1`  ->  `i = b; while i > a and not
                            not_yet(i - 1): i -= 1` (the same answer for a monotone test, other calls made)
    drop a check            a loop made only of checks (`for t in ts: if bad(t): ...; break`)  ->  pass

Each mutant also says whether it lies in the answer's input checks (`validation`): an `if` whose body only
raises, a loop made only of such checks, or a `raise` itself. A question that lets the learner ignore bad
input until its validation question (q1.1 before q1.2) is not measured on those.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from mutate import OPERATORS, Replacement, _short, _Sites

SYMMETRIC = {"max", "min", "isinstance"}
EXACT_CALLS = {"Fraction", "exact"}  # calls that make a number exact (q6.3, q8.4)
COLLECTIONS = {"set", "list", "dict", "frozenset"}
TOLERANCE = 1e-09  # swapping their arguments changes nothing, or only the error
ITERATING = {"list", "tuple", "enumerate", "zip", "sorted", "sum", "any", "all", "iter", "set", "reversed"}
INT_CALLS = {"len", "sum", "round", "int", "max", "min", "abs"}
TEXT_METHODS = {"strip", "lstrip", "rstrip"}


@dataclass(frozen=True)
class LearnerMutant:
    """One changed copy of an answer cell."""

    line: int
    function: str
    operator: str
    before: str
    after: str
    source: str
    validation: bool

    @property
    def change(self) -> str:
        """The change as `before -> after`, each side shortened to one readable line."""
        return f"{_short(self.before)} -> {_short(self.after)}"


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


def _method(owner: ast.expr, name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Attribute(owner, name, ast.Load()), list(args), [])


def _module(name: str) -> ast.expr:
    """`__import__('math')`: a module the answer cell need not have imported."""
    return _call("__import__", ast.Constant(name))


def _math(name: str, *args: ast.expr) -> ast.Call:
    return _method(_module("math"), name, *args)


def _ascii_whitespace() -> ast.expr:
    return ast.Attribute(_module("string"), "whitespace", ast.Load())


def _called(node: ast.AST, names: set[str]) -> bool:
    """A call of one of `names` (by its plain name) anywhere in node."""
    return any(
        isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id in names
        for inner in ast.walk(node)
    )


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(inner, ast.Name) and inner.id in names for inner in ast.walk(node))


def _exact_names(function: ast.FunctionDef) -> set[str]:
    """Names bound to an exact number: from a Fraction(...) or exact(...) call, or from such a name."""
    names: set[str] = set()
    for _ in range(3):
        for node in ast.walk(function):
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                value = node.value
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if _called(value, EXACT_CALLS) or _mentions(value, names):
                    for target in targets:
                        names.update(t.id for t in ast.walk(target) if isinstance(t, ast.Name))
    return names


def _collection_names(function: ast.FunctionDef) -> set[str]:
    """Names the function binds to a collection it builds: `seen = set()`, `kept = []`, `{...}`."""
    found: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            built = isinstance(value, (ast.List, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp))
            if built or (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in COLLECTIONS
            ):
                found.add(node.targets[0].id)
    return found


def _tolerant(node: ast.Compare) -> ast.Compare:
    """The comparison in floats, with a tolerance that lets a near-tie through."""
    op = node.ops[0]
    left, right = _call("float", node.left), _call("float", node.comparators[0])
    loosen = ast.Sub() if isinstance(op, (ast.GtE, ast.Lt)) else ast.Add()
    return ast.Compare(left, [op], [ast.BinOp(right, loosen, ast.Constant(TOLERANCE))])


def _folded(node: ast.Compare) -> ast.Compare:
    """`key in seen` with both sides case-folded."""
    item = _method(_call("str", node.left), "casefold")
    each = ast.comprehension(ast.Name("_s", ast.Store()), node.comparators[0], [], 0)
    folded = ast.SetComp(_method(_call("str", ast.Name("_s", ast.Load())), "casefold"), [each])
    return ast.Compare(item, node.ops, [folded])


def _is_raise_only(body: list[ast.stmt]) -> bool:
    return bool(body) and all(isinstance(statement, ast.Raise) for statement in body)


def is_validation(node: ast.AST) -> bool:
    """An input check: `if ...: raise ...` (no else), a loop whose body is only such checks, or a raise."""
    if isinstance(node, ast.Raise):
        return True
    if isinstance(node, ast.If):
        return not node.orelse and _is_raise_only(node.body)
    if isinstance(node, ast.For):
        return not node.orelse and all(is_validation(statement) for statement in node.body)
    return False


def _unnegated(node: ast.expr) -> ast.expr | None:
    """`x` for `-x`, `c * y` for `-c * y` (the two ways a ceiling division's numerator is negated)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return node.operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        left = _unnegated(node.left)
        if left is not None:
            return ast.BinOp(left, ast.Mult(), node.right)
    return None


def _divisions(node: ast.expr) -> Iterator[Replacement]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
        divided = ast.BinOp(node.left, ast.Div(), node.right)
        yield "round instead of floor", _call("round", divided)
        yield "truncate instead of floor", _call("int", divided)
        yield "float for int", divided
        yield "float then floor", _math("floor", divided)
        left = node.left
        if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add) and isinstance(left.right, ast.Constant):
            yield "floor instead of ceil", ast.BinOp(left.left, ast.FloorDiv(), node.right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = node.operand
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.FloorDiv):
            numerator = _unnegated(inner.left)
            if numerator is not None:
                yield "floor instead of ceil", ast.BinOp(numerator, ast.FloorDiv(), inner.right)
                yield "round instead of ceil", _call("round", ast.BinOp(numerator, ast.Div(), inner.right))
                yield "float then ceil", _math("ceil", ast.BinOp(numerator, ast.Div(), inner.right))


def _factors(node: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """(a, b) of a product `a * b`, else None."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return node.left, node.right
    return None


def _divided_first(product: tuple[ast.expr, ast.expr], divisor: ast.expr) -> Iterator[ast.expr]:
    """`a / c * b` and `b / c * a` for the product a * b: the division made first, in floats."""
    for first, second in (product, product[::-1]):
        yield ast.BinOp(ast.BinOp(first, ast.Div(), divisor), ast.Mult(), second)


def _divide_first(node: ast.expr) -> Iterator[Replacement]:
    """A floor or ceiling division of a product, with the division made first in floats."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
        product = _factors(node.left)
        if product is not None and not isinstance(node.left.left, ast.UnaryOp):
            for divided in _divided_first(product, node.right):
                yield "divide first", _math("floor", divided)
                yield "divide first", _call("int", divided)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = node.operand
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.FloorDiv):
            numerator = _unnegated(inner.left)
            product = _factors(numerator) if numerator is not None else None
            if product is not None:
                for divided in _divided_first(product, inner.right):
                    yield "divide first", _math("ceil", divided)


def _left_out(node: ast.Tuple | ast.List | ast.Set) -> Iterator[Replacement]:
    """Each member of a literal collection of constants left out once (a case forgotten)."""
    members = node.elts
    if len(members) < 2 or not all(isinstance(member, ast.Constant) for member in members):
        return
    if not isinstance(getattr(node, "ctx", ast.Load()), ast.Load):
        return
    for index in range(len(members)):
        kept = members[:index] + members[index + 1 :]
        yield "leave out a case", type(node)(kept, ast.Load()) if not isinstance(node, ast.Set) else ast.Set(kept)


def _forgotten_characters(node: ast.Compare) -> Iterator[Replacement]:
    """`c in "..."` with each character of the literal left out once."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.In, ast.NotIn)):
        return
    known = node.comparators[0]
    if isinstance(known, ast.Constant) and isinstance(known.value, str) and len(set(known.value)) > 1:
        for index in range(len(known.value)):
            fewer = known.value[:index] + known.value[index + 1 :]
            yield "forget a character", ast.Compare(node.left, node.ops, [ast.Constant(fewer)])


BOUNDARIES = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # what str.splitlines cuts at besides \n, \r and \r\n
HIDDEN = "\ue000"  # a private-use character: stands in for a boundary the mutant does not know


def _unknown(text: ast.expr, boundaries: str) -> tuple[ast.expr, Callable[[ast.expr], ast.expr]]:
    """`text` with each of `boundaries` hidden, and how to put them back into a piece of it."""
    hidden, restore = text, []
    for index, boundary in enumerate(boundaries):
        stand_in = chr(ord(HIDDEN) + index)
        hidden = _method(hidden, "replace", ast.Constant(boundary), ast.Constant(stand_in))
        restore.append((stand_in, boundary))

    def back(piece: ast.expr) -> ast.expr:
        for stand_in, boundary in restore:
            piece = _method(piece, "replace", ast.Constant(stand_in), ast.Constant(boundary))
        return piece

    return hidden, back


def _line_boundaries(node: ast.Call) -> Iterator[Replacement]:
    """`text.splitlines(...)` that does not know one (or all) of the rarer line boundaries."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "splitlines"):
        return
    for boundaries in (*BOUNDARIES, BOUNDARIES):
        hidden, back = _unknown(func.value, boundaries)
        split = ast.Call(ast.Attribute(hidden, "splitlines", ast.Load()), node.args, node.keywords)
        each = ast.comprehension(ast.Name("_line", ast.Store()), split, [], 0)
        unknown = f"all of {ascii(BOUNDARIES)}" if len(boundaries) > 1 else ascii(boundaries)
        before = ast.unparse(node)
        changed = ast.ListComp(back(ast.Name("_line", ast.Load())), [each])
        yield "forget a line boundary", changed, (before, f"{before} not knowing {unknown}")


def _conditions(node: ast.BoolOp) -> Iterator[Replacement]:
    for index in range(len(node.values)):
        rest = node.values[:index] + node.values[index + 1 :]
        yield "drop a condition", rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)


def _is_text(node: ast.expr) -> bool:
    """A str literal, an f-string, or a concatenation or str method call on one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_text(node.left) or _is_text(node.right)
    return False


def _is_stripped(node: ast.expr) -> bool:
    """`x.strip()` already: stripping it again changes nothing."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "strip"
        and not node.args
    )


def _lowered(node: ast.expr) -> ast.expr:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return ast.Constant(node.value.lower())
    return _method(node, "lower")


def _comparisons(node: ast.Compare) -> Iterator[Replacement]:
    operands = [node.left, *node.comparators]
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
        return
    literals = [o.value for o in operands if isinstance(o, ast.Constant) and isinstance(o.value, str)]
    if not literals:
        return
    if any(text != text.swapcase() for text in literals):  # lower() cannot change "[" or ""
        yield "ignore case", ast.Compare(_lowered(node.left), node.ops, [_lowered(c) for c in node.comparators])
    others = [operand for operand in operands if not isinstance(operand, ast.Constant) and not _is_stripped(operand)]
    inside = isinstance(node.ops[0], (ast.In, ast.NotIn))
    if others and not (inside and all(text == text.strip() for text in literals)):
        # (a piece that neither starts nor ends with whitespace is in x exactly when it is in x.strip())

        def stripped(operand: ast.expr) -> ast.expr:
            return operand if isinstance(operand, ast.Constant) else _method(operand, "strip")

        yield "strip in comparison", ast.Compare(stripped(node.left), node.ops, [stripped(c) for c in node.comparators])


def _calls(node: ast.Call) -> Iterator[Replacement]:
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in TEXT_METHODS and not node.args and not node.keywords:
        yield "drop strip", func.value
        yield "ASCII whitespace", _method(func.value, func.attr, _ascii_whitespace())
    if isinstance(func, ast.Attribute) and func.attr == "isspace" and not node.args and not node.keywords:
        each = ast.comprehension(ast.Name("_c", ast.Store()), func.value, [], 0)
        inside = ast.Compare(ast.Name("_c", ast.Load()), [ast.In()], [_ascii_whitespace()])
        yield (
            "ASCII whitespace",
            ast.BoolOp(
                ast.And(),
                [
                    ast.Compare(func.value, [ast.NotEq()], [ast.Constant("")]),
                    _call("all", ast.GeneratorExp(inside, [each])),
                ],
            ),
        )
    if isinstance(func, ast.Name) and func.id == "Fraction" and len(node.args) == 1 and not node.keywords:
        given = node.args[0]
        if isinstance(given, ast.Call) and isinstance(given.func, ast.Name) and given.func.id == "str" and given.args:
            given = given.args[0]
        yield "float for exact", given
    joined = node.args[0] if isinstance(func, ast.Attribute) and func.attr == "join" and len(node.args) == 1 else None
    if (
        isinstance(joined, ast.BinOp)
        and isinstance(joined.op, ast.Add)
        and isinstance(joined.right, ast.List)
        and len(joined.right.elts) == 1
    ):
        head = ast.BinOp(_method(func.value, "join", joined.left), ast.Add(), func.value)
        yield "leading separator", ast.BinOp(head, ast.Add(), joined.right.elts[0])
    if isinstance(func, ast.Name) and func.id == "isinstance" and len(node.args) == 2:
        kind = node.args[1]
        if isinstance(kind, ast.Name) and kind.id == "list":
            wider = ast.Tuple([kind, ast.Name("tuple", ast.Load())], ast.Load())
            yield "accept a tuple", ast.Call(func, [node.args[0], wider], [])
    empty = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant) and func.value.value == ""
    if isinstance(func, ast.Attribute) and func.attr == "join" and len(node.args) == 1 and not empty:
        yield "separator at the start", ast.BinOp(func.value, ast.Add(), node)
        yield "separator at the end", ast.BinOp(node, ast.Add(), func.value)
    if isinstance(func, ast.Name) and func.id == "isinstance" and len(node.args) == 2:
        kinds = node.args[1]
        if isinstance(kinds, ast.Tuple) and len(kinds.elts) > 1:
            for index in range(len(kinds.elts)):
                rest = kinds.elts[:index] + kinds.elts[index + 1 :]
                kept = rest[0] if len(rest) == 1 else ast.Tuple(rest, ast.Load())
                yield "forget a type", ast.Call(func, [node.args[0], kept], [])
    appended = (
        node.args[0] if isinstance(func, ast.Attribute) and func.attr == "append" and len(node.args) == 1 else None
    )
    if isinstance(appended, ast.Tuple):
        yield "list for tuple", ast.Call(func, [ast.List(appended.elts, ast.Load())], [])
    symmetric = isinstance(func, ast.Name) and func.id in SYMMETRIC
    positional = [arg for arg in node.args if not isinstance(arg, ast.Starred)]
    if not symmetric and len(positional) == len(node.args) >= 2:
        for index in range(len(node.args) - 1):
            args = list(node.args)
            args[index], args[index + 1] = args[index + 1], args[index]
            if ast.dump(args[index]) != ast.dump(args[index + 1]):
                yield "swap arguments", ast.Call(func, args, node.keywords)


def _characters(node: ast.For | ast.comprehension) -> Iterator[Replacement]:
    """Each character of a str literal the loop walks over, left out in turn (a forgotten forbidden one)."""
    iterated = node.iter
    if isinstance(iterated, ast.Constant) and isinstance(iterated.value, str) and len(iterated.value) > 1:
        for index in range(len(iterated.value)):
            changed = copy.copy(node)
            changed.iter = ast.Constant(iterated.value[:index] + iterated.value[index + 1 :])
            yield "forget a character", changed


def _parts(node: ast.expr) -> list[ast.expr] | None:
    """The pieces of a string built by `+` or an f-string, or None when it is not one."""
    if isinstance(node, ast.JoinedStr):
        pieces: list[ast.expr] = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                if value.conversion != -1 or value.format_spec is not None:
                    return None
                pieces.append(_call("str", value.value))
            else:
                pieces.append(value)
        return pieces
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and _is_text(node):
        left, right = _parts(node.left), _parts(node.right)
        return (left or [node.left]) + (right or [node.right])
    return None


def _templates(node: ast.expr) -> Iterator[Replacement]:
    """The text built with str.format or % around one of its values, the others pasted into the template."""
    parts = _parts(node)
    if parts is None:
        return
    values = [i for i, part in enumerate(parts) if not isinstance(part, ast.Constant)]
    if len(values) < 2:
        return
    for chosen in values:
        for operator, hole in (("format template", "{}"), ("percent template", "%s")):
            pieces: list[ast.expr] = []
            for i, part in enumerate(parts):
                if i == chosen:
                    pieces.append(ast.Constant(hole))
                elif isinstance(part, ast.Constant):
                    text = str(part.value)
                    escaped = text.replace("{", "{{").replace("}", "}}") if hole == "{}" else text.replace("%", "%%")
                    pieces.append(ast.Constant(escaped))
                else:
                    pieces.append(part)
            template = pieces[0]
            for piece in pieces[1:]:
                template = ast.BinOp(template, ast.Add(), piece)
            value = parts[chosen]
            if hole == "{}":
                yield operator, _method(template, "format", value)
            else:
                yield operator, ast.BinOp(template, ast.Mod(), ast.Tuple([value], ast.Load()))


def _stripped_values(node: ast.JoinedStr) -> Iterator[Replacement]:
    for index, value in enumerate(node.values):
        if isinstance(value, ast.FormattedValue) and isinstance(value.value, (ast.Name, ast.Subscript)):
            changed = copy.deepcopy(node)
            changed.values[index].value = _method(value.value, "strip")
            yield "strip a value", changed


def _int_like(node: ast.expr, ints: set[str]) -> bool:
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.Name):
        return node.id in ints
    if isinstance(node, ast.Subscript):
        return True  # best[capacity], needed[position - 1]: guarded at run time
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.USub) and _int_like(node.operand, ints)
    if isinstance(node, ast.BinOp):
        collection = (ast.List, ast.ListComp, ast.Tuple, ast.Set)  # `parts + [...]` is a list, not a count
        joined = isinstance(node.left, collection) or isinstance(node.right, collection)
        return isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)) and not (
            _is_text(node) or joined
        )
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in INT_CALLS
    return False


def _float_guard(value: ast.expr) -> ast.expr:
    """`float(value)` when value is an int at run time (bools and other values pass through)."""
    check = ast.Compare(_call("type", value), [ast.Is()], [ast.Name("int", ast.Load())])
    return ast.IfExp(check, _call("float", value), value)


def _returns(node: ast.Return, ints: set[str]) -> Iterator[Replacement]:
    value = node.value
    if value is None:
        return
    if isinstance(value, ast.Tuple):
        yield "list for tuple", ast.Return(ast.List(value.elts, ast.Load()))
        for index, element in enumerate(value.elts):
            if _int_like(element, ints):
                elements = list(value.elts)
                elements[index] = _float_guard(element)
                yield "float for int", ast.Return(ast.Tuple(elements, ast.Load()))
    elif isinstance(value, (ast.List, ast.ListComp)):
        yield "tuple for list", ast.Return(_call("tuple", value))
    elif _int_like(value, ints):
        yield "float for int", ast.Return(_float_guard(value))


def _int_names(function: ast.FunctionDef) -> set[str]:
    """Names the function binds to an int-looking value (`used = 0`, `used += size`, `planned = ...`)."""
    names: set[str] = set()
    for _ in range(2):  # a name bound from another int name (headroom = budget - planned)
        for node in ast.walk(function):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                if isinstance(node.op, (ast.Add, ast.Sub)) and _int_like(node.value, names):
                    names.add(node.target.id)
            elif isinstance(node, ast.Assign) and _int_like(node.value, names):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _parameters(function: ast.FunctionDef) -> list[str]:
    return [arg.arg for arg in function.args.posonlyargs + function.args.args]


def _iterated(function: ast.FunctionDef) -> set[str]:
    """Parameters the function iterates (for loops, comprehensions, list(...), zip(...), ...)."""
    found: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Name):
            found.add(node.iter.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ITERATING:
            found.update(arg.id for arg in node.args if isinstance(arg, ast.Name))
    return found & set(_parameters(function))


def _containers(function: ast.FunctionDef) -> set[str]:
    """Parameters the function iterates or indexes: the ones a caller hands over as a list or a dict."""
    indexed = {
        node.value.id
        for node in ast.walk(function)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
    }
    return (_iterated(function) | indexed) & set(_parameters(function))


def _names_in(node: ast.AST) -> set[str]:
    return {inner.id for inner in ast.walk(node) if isinstance(inner, ast.Name)}


def _bound_by(target: ast.AST) -> set[str]:
    return {inner.id for inner in ast.walk(target) if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store)}


def _method_call(statement: ast.stmt, names: set[str], methods: set[str]) -> tuple[str, str, ast.expr] | None:
    """(collection, method, argument) of a statement `s.method(x)` with s in names, else None."""
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return None
    call = statement.value
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id in names
        and func.attr in methods
        and len(call.args) == 1
    ):
        return func.value.id, func.attr, call.args[0]
    return None


def _adds_to(loop: ast.For, names: set[str]) -> set[str]:
    """The collections among names the loop's own body adds to (`s.add(x)`, `s.append(x)`, `s[k] = v`)."""
    added = set()
    for statement in loop.body:
        found = _method_call(statement, names, {"add", "append"})
        if found:
            added.add(found[0])
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id in names
                ):
                    added.add(target.value.id)
    return added


def _ends_a_check(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Raise, ast.Break, ast.Return, ast.Continue))


def _is_check_loop(node: ast.For) -> bool:
    """A loop made only of checks: every statement an `if` without else that ends in raise, break or return."""
    return not node.orelse and all(
        isinstance(statement, ast.If) and not statement.orelse and _ends_a_check(statement.body)
        for statement in node.body
    )


class _Renamed(ast.NodeTransformer):
    """Every load of one name replaced by an expression (a fresh copy each time)."""

    def __init__(self, name: str, by: ast.expr) -> None:
        self.name, self.by = name, by

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            return copy.deepcopy(self.by)
        return node


def _renamed(node: ast.AST, name: str, by: ast.expr) -> ast.AST:
    return _Renamed(name, by).visit(copy.deepcopy(node))


ENCODINGS = {  # x.encode(e) written the other ways a learner measures UTF-8 bytes
    "bytes": lambda text, args: _call("bytes", text, *(args or [ast.Constant("utf-8")])),
    "bytearray": lambda text, args: _call("bytearray", text, *(args or [ast.Constant("utf-8")])),
    "codecs": lambda text, args: _method(_module("codecs"), "encode", text, *(args or [ast.Constant("utf-8")])),
}


class _Encoded(ast.NodeTransformer):
    """`x.encode(...)` written another way (ENCODINGS)."""

    def __init__(self, way: str) -> None:
        self.way = way

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "encode" and not node.keywords:
            return ENCODINGS[self.way](func.value, node.args)
        return node


def _running_totals(function: ast.FunctionDef) -> dict[str, tuple[str, str, str]]:
    """size name -> (piece, parts, total) for `size = f(piece)` where the function also does `total += size` and
    `parts.append(piece)`: a running total of the pieces kept."""
    assigned = {
        node.targets[0].id: node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
    }
    appended, names = {}, _names_in(function)
    for node in ast.walk(function):
        if isinstance(node, ast.stmt):
            found = _method_call(node, names, {"append"})
            if found and isinstance(found[2], ast.Name):
                appended.setdefault(found[2].id, found[0])
    found_totals = {}
    for node in ast.walk(function):
        if (
            isinstance(node, ast.AugAssign)
            and isinstance(node.op, ast.Add)
            and isinstance(node.target, ast.Name)
            and isinstance(node.value, ast.Name)
            and node.value.id in assigned
        ):
            size = node.value.id
            pieces = [name for name in _names_in(assigned[size]) if name in appended]
            if len(pieces) == 1:
                found_totals[size] = (pieces[0], appended[pieces[0]], node.target.id)
    return found_totals


def _blocks(node: ast.AST) -> Iterator[list[ast.stmt]]:
    """Every statement list in node (bodies, else branches, handlers' bodies)."""
    for inner in ast.walk(node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(inner, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def _starting(function: ast.FunctionDef, at: int, statements: list[ast.stmt]) -> ast.FunctionDef:
    changed = copy.copy(function)
    changed.body = [*function.body[:at], *statements, *function.body[at:]]
    return changed


class _ConsumedInAnyOrder(ast.NodeTransformer):
    """`if x not in s: raise` + `s.remove(x)` made order-blind: an item before the one it answers is kept aside
    in `early`, matched when that one comes, and refused where the emptiness of s is checked."""

    def __init__(self, check: str, name: str, early: str) -> None:
        self.check, self.name, self.early = check, name, early

    def _block(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        skip = False
        for index, statement in enumerate(body):
            if skip:
                skip = False
                continue
            if ast.dump(statement) == self.check and index + 1 < len(body):
                item = statement.test.left
                kept = ast.Expr(_method(ast.Name(self.name, ast.Load()), "discard", item))
                aside = ast.Expr(_method(ast.Name(self.early, ast.Load()), "append", item))
                out.append(ast.If(ast.Compare(item, [ast.In()], [ast.Name(self.name, ast.Load())]), [kept], [aside]))
                skip = True
                continue
            added = _method_call(statement, {self.name}, {"add"})
            if added:
                early = ast.Name(self.early, ast.Load())
                matched = ast.Expr(_method(early, "remove", added[2]))
                out.append(ast.If(ast.Compare(added[2], [ast.In()], [early]), [matched], [statement]))
                continue
            out.append(statement)
            if isinstance(statement, ast.Assign) and self.name in _bound_by(ast.Tuple(statement.targets, ast.Store())):
                out.append(ast.Assign([ast.Name(self.early, ast.Store())], ast.List([], ast.Load())))
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, field, self._block(block))
        if isinstance(node, (ast.If, ast.While)) and isinstance(node.test, ast.Name) and node.test.id == self.name:
            node.test = ast.BoolOp(ast.Or(), [node.test, ast.Name(self.early, ast.Load())])
        return node


def _any_order(function: ast.FunctionDef, at: int, built: set[str]) -> Iterator[tuple[str, ast.AST, tuple[str, str]]]:
    """Each awaited item consumed in order (`if x not in s: raise`, then `s.remove(x)`), matched in any order."""
    for block in _blocks(function):
        for statement, following in zip(block, block[1:]):
            test = getattr(statement, "test", None)
            if not (
                isinstance(statement, ast.If)
                and not statement.orelse
                and _is_raise_only(statement.body)
                and isinstance(test, ast.Compare)
                and len(test.ops) == 1
                and isinstance(test.ops[0], ast.NotIn)
                and isinstance(test.comparators[0], ast.Name)
                and test.comparators[0].id in built
            ):
                continue
            name = test.comparators[0].id
            consumed = _method_call(following, {name}, {"remove", "discard"})
            if consumed and ast.dump(consumed[2]) == ast.dump(test.left):
                early = f"_early_{name}"

                def changed(check: str = ast.dump(statement), name: str = name, early: str = early) -> ast.AST:
                    edited = _ConsumedInAnyOrder(check, name, early).visit(copy.deepcopy(function))
                    return _starting(edited, at, [ast.Assign([ast.Name(early, ast.Store())], ast.List([], ast.Load()))])

                item = ast.unparse(test.left)
                yield "matched in any order", changed, (f"{item} matched in {name} in order", f"{item} in any order")


class _LastOnly(ast.NodeTransformer):
    """One membership test made a comparison with the item added last to its collection."""

    def __init__(self, test: str, name: str, last: str) -> None:
        self.test, self.name, self.last = test, name, last

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        if ast.dump(node) == self.test:
            op = ast.Eq() if isinstance(node.ops[0], ast.In) else ast.NotEq()
            return ast.Compare(node.left, [op], [ast.Name(self.last, ast.Load())])
        return self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                out: list[ast.stmt] = []
                for statement in block:
                    added = _method_call(statement, {self.name}, {"add", "append"})
                    if added:
                        out.append(ast.Assign([ast.Name(self.last, ast.Store())], added[2]))
                        statement = ast.Expr(
                            _method(ast.Name(self.name, ast.Load()), added[1], ast.Name(self.last, ast.Load()))
                        )
                    out.append(statement)
                setattr(node, field, out)
        return node


def _last_only(function: ast.FunctionDef, at: int, built: set[str]) -> Iterator[tuple[str, ast.AST, tuple[str, str]]]:
    """Each `x in seen` of an input check (seen a collection the function adds to) compared with the last only."""
    statements = [s for s in ast.walk(function) if isinstance(s, ast.stmt)]
    for inner in ast.walk(function):
        if not (isinstance(inner, ast.If) and not inner.orelse and _is_raise_only(inner.body)):
            continue
        for test in ast.walk(inner.test):
            if (
                isinstance(test, ast.Compare)
                and len(test.ops) == 1
                and isinstance(test.ops[0], (ast.In, ast.NotIn))
                and isinstance(test.comparators[0], ast.Name)
                and test.comparators[0].id in built
            ):
                name = test.comparators[0].id
                adds = any(_method_call(s, {name}, {"add", "append"}) for s in statements)
                if not adds:
                    continue
                last = f"_last_{name}"

                def changed(compared: str = ast.dump(test), name: str = name, last: str = last) -> ast.AST:
                    edited = _LastOnly(compared, name, last).visit(copy.deepcopy(function))
                    return _starting(edited, at, [ast.Assign([ast.Name(last, ast.Store())], ast.Constant(None))])

                shown = (ast.unparse(test), f"{ast.unparse(test.left)} compared with the last added to {name}")
                yield "compared with the last", changed, shown


def _keep_branch(loop: ast.For) -> list[ast.stmt] | None:
    """The statements a loop runs for an item it keeps: the body of its first `if` that does not only raise."""
    for statement in loop.body:
        if isinstance(statement, ast.If) and not _is_raise_only(statement.body):
            return statement.body
    return None


def _only_when_kept(function: ast.FunctionDef) -> Iterator[tuple[str, ast.AST, tuple[str, str]]]:
    """Each input check of a loop over items moved into the keep branch of a later loop over the same items."""
    for block_index, block in enumerate(_blocks(function)):
        for first_index, checking in enumerate(block):
            if not (isinstance(checking, ast.For) and isinstance(checking.iter, ast.Name)):
                continue
            later = [
                s
                for s in block[first_index + 1 :]
                if isinstance(s, ast.For) and isinstance(s.iter, ast.Name) and s.iter.id == checking.iter.id
            ]
            if not later or _keep_branch(later[0]) is None:
                continue
            packing = later[0]
            bound_here = _bound_by(checking.target) | {
                name for s in checking.body if isinstance(s, ast.Assign) for t in s.targets for name in _bound_by(t)
            }
            filled = _adds_to(checking, _names_in(checking))
            for check_index, check in enumerate(checking.body):
                if not is_validation(check) or isinstance(check, ast.Raise):
                    continue
                own = _bound_by(check.target) if isinstance(check, ast.For) else set()
                needed = (_names_in(check) - own) & bound_here
                if _names_in(check) & filled or not needed <= _bound_by(packing.target):
                    continue

                def changed(
                    where: tuple[int, int, int, int] = (block_index, first_index, block.index(packing), check_index),
                ) -> ast.AST:
                    in_block, checking_at, packing_at, check_at = where
                    edited = copy.deepcopy(function)
                    edited_block = list(_blocks(edited))[in_block]
                    moved = edited_block[checking_at].body.pop(check_at)
                    edited_block[checking_at].body = edited_block[checking_at].body or [ast.Pass()]
                    _keep_branch(edited_block[packing_at]).insert(0, moved)
                    return edited

                line = ast.unparse(check).splitlines()[0]
                yield "checked only when kept", changed, (f"{line} for every item", f"{line} for the items kept")


def _assigned(statement: ast.stmt, name: str) -> list[ast.expr]:
    """The value a statement assigns to `name` (`name = v`, or `a, name = u, v`), if it does."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return []
    target, value = statement.targets[0], statement.value
    if isinstance(target, ast.Name) and target.id == name:
        return [value]
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
        return [v for t, v in zip(target.elts, value.elts) if isinstance(t, ast.Name) and t.id == name]
    return []


def _from_the_end(function: ast.FunctionDef) -> Iterator[tuple[str, ast.AST, tuple[str, str]]]:
    """`i = a; while i < b and not_yet(i): i += 1` searched from b down instead."""
    for block_index, block in enumerate(_blocks(function)):
        for index, loop in enumerate(block):
            test = getattr(loop, "test", None)
            if not (
                isinstance(loop, ast.While)
                and not loop.orelse
                and isinstance(test, ast.BoolOp)
                and isinstance(test.op, ast.And)
                and isinstance(test.values[0], ast.Compare)
                and isinstance(test.values[0].left, ast.Name)
                and len(test.values[0].ops) == 1
                and isinstance(test.values[0].ops[0], ast.Lt)
                and len(loop.body) == 1
                and isinstance(loop.body[0], ast.AugAssign)
                and isinstance(loop.body[0].op, ast.Add)
                and ast.dump(loop.body[0].value) == ast.dump(ast.Constant(1))
                and isinstance(loop.body[0].target, ast.Name)
                and loop.body[0].target.id == test.values[0].left.id
            ):
                continue
            name, end = test.values[0].left.id, test.values[0].comparators[0]
            starts = [start for s in block[:index] for start in _assigned(s, name)]
            if not starts:
                continue
            before = ast.BinOp(ast.Name(name, ast.Load()), ast.Sub(), ast.Constant(1))
            rest = test.values[1] if len(test.values) == 2 else ast.BoolOp(ast.And(), test.values[1:])
            fits = ast.UnaryOp(ast.Not(), _renamed(rest, name, before))
            down = ast.While(
                ast.BoolOp(ast.And(), [ast.Compare(ast.Name(name, ast.Load()), [ast.Gt()], [starts[-1]]), fits]),
                [ast.AugAssign(ast.Name(name, ast.Store()), ast.Sub(), ast.Constant(1))],
                [],
            )

            def changed(
                where: tuple[int, int] = (block_index, index),
                name: str = name,
                end: ast.expr = end,
                down: ast.stmt = down,
            ) -> ast.AST:
                edited = copy.deepcopy(function)
                reset = ast.Assign([ast.Name(name, ast.Store())], copy.deepcopy(end))
                list(_blocks(edited))[where[0]][where[1]] = ast.If(ast.Constant(True), [reset, copy.deepcopy(down)], [])
                return edited

            yield "search from the end", changed, (ast.unparse(loop).splitlines()[0], ast.unparse(down).splitlines()[0])


class LearnerSites(_Sites):
    """mutate.py's walk with the learner operators added, the answer's raise messages left alone, and
    each site marked as input check or not."""

    def __init__(self, answer: str, lines: range, chosen: int | None = None) -> None:
        super().__init__(chosen)
        self.answer, self.lines = answer, lines
        self.checking = 0  # > 0 while inside an input check
        self.validation: list[bool] = []  # per found site
        self.ints: list[set[str]] = []  # int-looking names of each enclosing def
        self.exacts: list[set[str]] = []  # names bound to exact numbers (Fractions) in each enclosing def
        self.collections: list[set[str]] = []  # names bound to collections each enclosing def builds
        self.parameters: list[set[str]] = []  # the parameters of each enclosing def
        self.totals: list[dict[str, tuple[str, str, str]]] = []  # each enclosing def's running totals
        self.loops = 0  # for and while loops around the node being visited (the node itself included)

    def _site(
        self,
        node: ast.AST,
        line: int,
        operator: str,
        replacement: ast.AST,
        shown: tuple[str, str] | None = None,
        validation: bool | None = None,
    ) -> bool:
        """Record one replacement (shown as `shown`, else as the two nodes; an input check's when `validation`
        says so, else when it lies in one); True when it is the chosen one."""
        self._sync()
        index = len(self.found)
        function = self.scope[-1][0] if self.scope else "<module>"
        before, after = shown or (ast.unparse(node), ast.unparse(replacement))
        self.found.append((line, function, operator, before, after))
        checking = self.checking > 0 or isinstance(node, ast.Raise)
        self.validation.append(checking if validation is None else validation)
        return index == self.chosen

    def _sync(self) -> None:
        """Mark the sites mutate.py's own operators found since the last call (they belong to the node
        being visited, so to the input check it is in, if any)."""
        self.validation += [self.checking > 0] * (len(self.found) - len(self.validation))

    def visit(self, node: ast.AST) -> ast.AST:
        checking = is_validation(node)
        looping = isinstance(node, (ast.For, ast.While))
        self._sync()
        self.checking += checking
        self.loops += looping
        try:
            return self._visit(node)
        finally:
            self._sync()
            self.checking -= checking
            self.loops -= looping

    def _visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.FunctionDef):
            return self._function(node)
        if isinstance(node, ast.Raise):
            return self._raise(node)
        line = getattr(node, "lineno", None) or getattr(getattr(node, "target", None), "lineno", 0)
        for operator, replacement, *shown in self._learner(node):
            if self._site(node, line, operator, replacement, *shown):
                return ast.copy_location(replacement, node) if hasattr(node, "lineno") else replacement
        return super().visit(node)

    def _learner(self, node: ast.AST) -> Iterator[Replacement]:
        if isinstance(node, (ast.BinOp, ast.UnaryOp)):
            yield from _divisions(node)
            yield from _divide_first(node)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            yield from _left_out(node)
        if isinstance(node, ast.BoolOp):
            yield from _conditions(node)
        if isinstance(node, ast.Compare):
            yield from _comparisons(node)
            yield from _forgotten_characters(node)
        if isinstance(node, ast.Call):
            yield from _calls(node)
            yield from _line_boundaries(node)
        if isinstance(node, (ast.For, ast.comprehension)):
            yield from _characters(node)
        if isinstance(node, (ast.BinOp, ast.JoinedStr)):
            yield from _templates(node)
        if isinstance(node, ast.JoinedStr):
            yield from _stripped_values(node)
        if isinstance(node, (ast.Break, ast.Continue)):
            yield f"drop {type(node).__name__.lower()}", ast.Pass()
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id in ("list", "tuple")
                and len(value.args) == 1
                and isinstance(value.args[0], ast.Name)
                and value.args[0].id == node.targets[0].id
            ):
                yield "drop list()", ast.Pass()
        if isinstance(node, ast.Return) and self.scope and self.ints:
            yield from _returns(node, self.ints[-1])
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            yield from self._typed(node)
        if isinstance(node, ast.For):
            yield from self._loops(node)
        if isinstance(node, ast.If) and is_validation(node):
            yield from self._zero_skips(node)
        if isinstance(node, ast.Assign) and self.totals:
            yield from self._remeasured(node)

    def _loops(self, node: ast.For) -> Iterator[Replacement]:
        """A loop of checks dropped; the items awaited forgotten when an inner loop adds the next batch."""
        if _is_check_loop(node):
            checks = f"{ast.unparse(node).splitlines()[0]} {ast.unparse(node.body[0]).splitlines()[0]}"
            yield "drop a check", ast.Pass(), (checks, "pass")
        built = self.collections[-1] if self.collections else set()
        if self.loops >= 2:  # the loop itself and one around it
            for name in sorted(_adds_to(node, built)):
                clear = ast.Expr(_method(ast.Name(name, ast.Load()), "clear"))
                forget = ast.If(copy.deepcopy(node.iter), [clear], [])
                items = ast.unparse(node.iter)
                shown = (f"{name} kept when {items} comes", f"{name}.clear() when {items} is not empty")
                yield "forget what is awaited", ast.If(ast.Constant(True), [forget, node], []), shown

    def _zero_skips(self, node: ast.If) -> Iterator[Replacement]:
        """`if measure > limit: raise` with the check skipped for a limit of 0 (limit a parameter)."""
        test, parameters = node.test, self.parameters[-1] if self.parameters else set()
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            return
        op, left, right = test.ops[0], test.left, test.comparators[0]
        if isinstance(op, (ast.Gt, ast.GtE)) and isinstance(right, ast.Name) and not isinstance(left, ast.Constant):
            bound = right.id
        elif isinstance(op, (ast.Lt, ast.LtE)) and isinstance(left, ast.Name) and not isinstance(right, ast.Constant):
            bound = left.id
        else:
            return
        if bound in parameters:
            nonzero = ast.Compare(ast.Name(bound, ast.Load()), [ast.NotEq()], [ast.Constant(0)])
            yield "zero skips the check", ast.If(ast.BoolOp(ast.And(), [nonzero, test]), node.body, node.orelse)

    def _remeasured(self, node: ast.Assign) -> Iterator[Replacement]:
        """`size = f(piece)` of a running total measured again over everything kept plus the piece."""
        target = node.targets[0] if len(node.targets) == 1 else None
        if not isinstance(target, ast.Name) or target.id not in self.totals[-1]:
            return
        piece, parts, total = self.totals[-1][target.id]
        joined = _method(ast.Constant(""), "join", ast.Name(parts, ast.Load()))
        whole = ast.BinOp(joined, ast.Add(), ast.Name(piece, ast.Load()))
        value = ast.BinOp(_renamed(node.value, piece, whole), ast.Sub(), ast.Name(total, ast.Load()))
        yield "re-measure the payload", ast.Assign([target], value, lineno=node.lineno)
        encodes = any(
            isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "encode"
            for inner in ast.walk(node.value)
        )
        for way in ENCODINGS if encodes else ():
            changed = _Encoded(way).visit(copy.deepcopy(value))
            yield f"re-measure the payload ({way})", ast.Assign([target], changed, lineno=node.lineno)

    def _typed(self, node: ast.Compare) -> Iterator[Replacement]:
        """isinstance for `type(x) is T`, a tolerance where a side is exact, case-folded ids in an input check."""
        op, left, right = node.ops[0], node.left, node.comparators[0]
        if (
            isinstance(op, (ast.Is, ast.IsNot))
            and isinstance(left, ast.Call)
            and isinstance(left.func, ast.Name)
            and left.func.id == "type"
            and len(left.args) == 1
            and isinstance(right, ast.Name)
        ):
            test: ast.expr = _call("isinstance", left.args[0], right)
            yield "isinstance for type()", test if isinstance(op, ast.Is) else ast.UnaryOp(ast.Not(), test)
        exact = self.exacts[-1] if self.exacts else set()
        if isinstance(op, (ast.GtE, ast.Gt, ast.LtE, ast.Lt)) and any(
            _called(side, EXACT_CALLS) or _mentions(side, exact) for side in (left, right)
        ):
            yield "float tolerance", _tolerant(node)
        built = self.collections[-1] if self.collections else set()
        if (
            isinstance(op, (ast.In, ast.NotIn))
            and self.checking > 0
            and isinstance(left, ast.Name)
            and isinstance(right, ast.Name)
            and right.id in built
        ):
            yield "ignore case in ids", _folded(node)

    def _raise(self, node: ast.Raise) -> ast.AST:
        """Drop the raise, or raise TypeError instead of ValueError; the message is never mutated."""
        replacements: list[Replacement] = list(OPERATORS[ast.Raise](node))
        exc = node.exc
        if isinstance(exc, ast.Call) and isinstance(exc.func, ast.Name) and exc.func.id == "ValueError":
            wrong = ast.Raise(ast.Call(ast.Name("TypeError", ast.Load()), exc.args, exc.keywords), node.cause)
            replacements.append(("wrong exception", wrong))
        for operator, replacement in replacements:
            if self._site(node, node.lineno, operator, replacement):
                return ast.copy_location(replacement, node)
        return node

    def _function(self, node: ast.FunctionDef) -> ast.AST:
        """The whole-answer operators (read twice, change the input), then the def's own body."""
        self.ints.append(_int_names(node))
        self.exacts.append(_exact_names(node))
        self.collections.append(_collection_names(node))
        self.parameters.append(set(_parameters(node)))
        self.totals.append(_running_totals(node))
        outer_loops, self.loops = self.loops, 0  # a def inside a loop starts its own count
        try:
            if node.name == self.answer and not self.scope:
                first = next((s for s in node.body if s.lineno in self.lines), None)
                if first is not None:
                    for operator, replacement, shown, validation in self._whole(node, first):
                        self.scope.append((node.name, node.returns))
                        try:
                            chosen = self._site(first, first.lineno, operator, replacement, shown, validation)
                        finally:
                            self.scope.pop()
                        if chosen:
                            return replacement() if callable(replacement) else replacement
            return self._enter(node)
        finally:
            self.ints.pop()
            self.exacts.pop()
            self.collections.pop()
            self.parameters.pop()
            self.totals.pop()
            self.loops = outer_loops

    def _whole(
        self, node: ast.FunctionDef, first: ast.stmt
    ) -> Iterator[tuple[str, ast.AST, tuple[str, str], bool | None]]:
        """(operator, changed def, how the change is shown, whether it changes an input check) for each
        whole-answer mistake."""
        at = node.body.index(first)
        for name in sorted(_iterated(node)):
            read = ast.parse(f"list({name}) if hasattr({name}, '__next__') else None").body[0]
            changed = copy.copy(node)
            changed.body = [*node.body[:at], read, *node.body[at:]]
            yield "read twice", changed, (f"{name} read once", f"{name} read twice"), None
        for name in sorted(_containers(node)):
            keep = ast.parse(f"_input_{name} = {name}").body[0]
            clear = ast.parse(f"_input_{name}.clear() if type(_input_{name}) in (list, dict) else None").body[0]
            changed = copy.copy(node)
            changed.body = [*node.body[:at], keep, ast.Try(node.body[at:], [], [], [clear])]
            yield "change the input", changed, (f"{name} left as it was", f"{name}.clear() before returning"), None
        built = _collection_names(node)
        for operator, changed, shown in (
            *_any_order(node, at, built),
            *_last_only(node, at, built),
            *_only_when_kept(node),
            *_from_the_end(node),
        ):
            yield operator, changed, shown, operator != "search from the end"


def learner_mutants(source: str, answer: str, lines: range) -> list[LearnerMutant]:
    """Every single-change mutant of an answer cell whose change lies on one of `lines`."""
    survey = LearnerSites(answer, lines)
    survey.visit(ast.parse(source))
    survey._sync()
    mutants = []
    for index, (line, function, operator, before, after) in enumerate(survey.found):
        if line not in lines:
            continue
        tree = LearnerSites(answer, lines, chosen=index).visit(ast.parse(source))
        changed = ast.unparse(ast.fix_missing_locations(tree))
        mutants.append(LearnerMutant(line, function, operator, before, after, changed + "\n", survey.validation[index]))
    return mutants


__all__ = ["LearnerMutant", "LearnerSites", "is_validation", "learner_mutants"]
