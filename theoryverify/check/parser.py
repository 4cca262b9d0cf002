"""Safe parsing of a step: Python's ``ast`` with an allow-list, then SymPy objects built by hand.

User text never reaches ``eval``, ``sympify`` or ``parse_expr``.  :func:`parse` checks the text
(length, ASCII, bracket depth), parses it with ``ast.parse(mode="eval")`` and walks the tree
iteratively, rejecting any node type, operator or function name not on the allow-lists and any
oversized literal.  :class:`Builder` then turns the checked tree into SymPy objects, capping
exponents and the size of exact numbers before computing them.  Every rejection is a
:class:`BadInput` with a one-line message.
"""
from __future__ import annotations

import ast
import re
from fractions import Fraction
from dataclasses import dataclass

from ..errors import TheoryverifyError

MAX_CHARS = 2000
MAX_DEPTH = 40  # brackets and AST nesting
MAX_NODES = 600
MAX_INT = 10**15  # integer literals
MAX_EXPONENT = 100  # |exponent| of **, numeric only
MAX_TOTAL_EXPONENT = 1000  # exponent of a power after SymPy combines (x**a)**b
MAX_NUMBER_BITS = 20000  # exact numbers built from literals
MAX_DIFF_ORDER = 4
DEFAULT_TIMEOUT = 10.0  # hard wall-clock limit of one check, seconds
NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,31}$")
DEFINITION_RE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]{0,31})\s*:=(.*)$", re.S)

FUNCTIONS = ("diff", "exp", "log", "sqrt", "Abs", "Max", "Min", "softmax", "subs")
COMPARE_OPS = {ast.Eq: "==", ast.LtE: "<=", ast.GtE: ">=", ast.Lt: "<", ast.Gt: ">"}
BIN_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)
UNARY_OPS = (ast.USub, ast.UAdd)
ALLOWED_NODES = (ast.Expression, ast.Compare, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Constant,
                 ast.Subscript, ast.keyword, ast.Load, *COMPARE_OPS, *BIN_OPS, *UNARY_OPS)


class BadInput(TheoryverifyError, ValueError):
    """Unparseable or disallowed input: a one-line message, exit code 2."""


@dataclass(frozen=True)
class Statement:
    """``lhs OP rhs`` (OP in ==, <=, >=, <, >) as checked ASTs, plus the source text."""
    text: str
    op: str
    lhs: ast.expr
    rhs: ast.expr


@dataclass(frozen=True)
class Definition:
    """``name := expr``."""
    text: str
    name: str
    expr: ast.expr


def check_text(text: str) -> str:
    if not isinstance(text, str):
        raise BadInput("input must be text")
    if len(text) > MAX_CHARS:
        raise BadInput(f"input too long ({len(text)} characters; at most {MAX_CHARS})")
    if not text.isascii() or any(not (c.isprintable() or c in " \t") for c in text):
        raise BadInput("only printable ASCII characters are allowed")
    depth = 0
    for c in text:
        depth += c in "([{"
        depth -= c in ")]}"
        if depth > MAX_DEPTH:
            raise BadInput(f"nesting too deep (more than {MAX_DEPTH} brackets)")
    if not text.strip():
        raise BadInput("empty input")
    return text.strip()


def _parse_tree(text: str) -> ast.Expression:
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise BadInput(f"syntax error: {exc.msg}" + (f" at column {exc.offset}" if exc.offset else "")) from None
    except (ValueError, RecursionError, MemoryError, OverflowError) as exc:
        raise BadInput(f"cannot parse: {type(exc).__name__}") from None
    _validate(tree)
    return tree


def _validate(tree: ast.AST) -> None:
    """Allow-list walk (iterative, so deep trees cannot exhaust the stack)."""
    stack = [(tree, 0)]
    count = 0
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise BadInput(f"expression too large (more than {MAX_NODES} syntax nodes)")
        if depth > MAX_DEPTH:
            raise BadInput(f"expression nested too deeply (more than {MAX_DEPTH} levels)")
        if not isinstance(node, ALLOWED_NODES):
            raise BadInput(f"not allowed: {_describe(node)}")
        if isinstance(node, ast.Name):
            _check_name(node.id)
        elif isinstance(node, ast.Constant):
            _check_constant(node.value)
        elif isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                raise BadInput(f"not allowed: calling a {_describe(node.func)}")
            if node.func.id not in FUNCTIONS:
                raise BadInput(f"unknown function {node.func.id!r} (allowed: {', '.join(FUNCTIONS)})")
            if node.keywords and node.func.id != "subs":
                raise BadInput(f"{node.func.id}() takes no keyword arguments")
            for kw in node.keywords:
                if kw.arg is None:
                    raise BadInput("not allowed: ** argument unpacking")
                _check_name(kw.arg)
        elif isinstance(node, ast.Subscript):
            if not (isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                    and node.value.func.id == "softmax"):
                raise BadInput("indexing is only allowed on softmax(...)[j]")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            _check_exponent(node.right)
        elif isinstance(node, ast.Compare) and depth > 1:
            raise BadInput("a comparison may only appear at the top level")
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1))


def _is_constant(node: ast.AST) -> bool:
    return all(isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop))
               for n in ast.walk(node))


def _check_exponent(node: ast.expr) -> None:
    """A numeric exponent is bounded before anything is built (so 9**9**9**9 fails here)."""
    if not _is_constant(node):
        return  # symbolic exponents are rejected when building
    value = _fold(node)
    if abs(value) > MAX_EXPONENT or value.denominator > MAX_EXPONENT:
        raise BadInput(f"exponent too large (|exponent| ≤ {MAX_EXPONENT}, denominator ≤ {MAX_EXPONENT})")


def _fold(node: ast.AST, depth: int = 0) -> Fraction:
    """Exact value of a constant subtree, with every intermediate size capped."""
    if depth > MAX_DEPTH:
        raise BadInput("expression nested too deeply")
    if isinstance(node, ast.Constant):
        _check_constant(node.value)
        return Fraction(repr(node.value)) if isinstance(node.value, float) else Fraction(node.value)
    if isinstance(node, ast.UnaryOp):
        v = _fold(node.operand, depth + 1)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        a, b = _fold(node.left, depth + 1), _fold(node.right, depth + 1)
        if isinstance(node.op, ast.Pow):
            if b.denominator != 1 or abs(b) > MAX_EXPONENT:
                raise BadInput(f"exponent too large (|exponent| ≤ {MAX_EXPONENT}, denominator ≤ {MAX_EXPONENT})")
            if a == 0 and b < 0:
                raise BadInput("division by zero")
            if _size(a) * abs(b) > MAX_NUMBER_BITS:
                raise BadInput("number too large")
            return a ** int(b)
        if isinstance(node.op, ast.Div) and b == 0:
            raise BadInput("division by zero")
        if _size(a) + _size(b) > MAX_NUMBER_BITS:
            raise BadInput("number too large")
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b, ast.Div: lambda: a / b}
        return ops[type(node.op)]()
    raise BadInput(f"not allowed: {_describe(node)}")  # pragma: no cover - callers check _is_constant


def _size(x: Fraction) -> int:
    return max(abs(x.numerator).bit_length(), x.denominator.bit_length(), 1)


def _describe(node: ast.AST) -> str:
    names = {ast.Attribute: "attribute access", ast.Lambda: "lambda", ast.ListComp: "comprehension",
             ast.SetComp: "comprehension", ast.DictComp: "comprehension", ast.GeneratorExp: "comprehension",
             ast.NamedExpr: "assignment expression (use 'name := expr' at the start of a line)",
             ast.Starred: "star unpacking", ast.JoinedStr: "f-string", ast.Await: "await",
             ast.IfExp: "conditional expression", ast.BoolOp: "and/or", ast.List: "list",
             ast.Tuple: "tuple", ast.Dict: "dict", ast.Set: "set", ast.Slice: "slice"}
    for cls, label in names.items():
        if isinstance(node, cls):
            return label
    if isinstance(node, ast.operator) or isinstance(node, ast.unaryop) or isinstance(node, ast.cmpop):
        return f"operator {type(node).__name__}"
    return type(node).__name__


def _check_name(name: str) -> None:
    if not NAME_RE.match(name):
        raise BadInput(f"not allowed: name {name[:40]!r} (names are letters, digits and _, starting "
                       "with a letter, at most 32 characters)")


def _check_constant(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadInput(f"not allowed: {type(value).__name__} literal")
    if isinstance(value, int) and abs(value) >= MAX_INT:
        raise BadInput(f"integer literal too large (at most {len(str(MAX_INT)) - 1} digits)")
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise BadInput("not allowed: non-finite number literal")
        if value != 0 and not (1e-30 <= abs(value) < MAX_INT):
            raise BadInput("number literal out of range (1e-30 .. 1e15)")


def parse_statement(text: str) -> Statement:
    """``LHS OP RHS`` with exactly one comparison operator."""
    text = check_text(text)
    if DEFINITION_RE.match(text):
        raise BadInput("a definition 'name := expr' is only allowed in the interactive session")
    tree = _parse_tree(text)
    body = tree.body
    if not isinstance(body, ast.Compare):
        raise BadInput("a statement needs a comparison: LHS == RHS, <=, >=, < or >")
    if len(body.ops) != 1:
        raise BadInput("one comparison per statement (no chains like a < b < c)")
    return Statement(text, COMPARE_OPS[type(body.ops[0])], body.left, body.comparators[0])


def parse_expression(text: str) -> ast.expr:
    """A bare expression (no comparison)."""
    tree = _parse_tree(check_text(text))
    if isinstance(tree.body, ast.Compare):
        raise BadInput("expected an expression, got a comparison")
    return tree.body


def parse_definition(text: str) -> Definition | None:
    """``name := expr`` or None if the line is not a definition."""
    text = check_text(text)
    m = DEFINITION_RE.match(text)
    if not m:
        return None
    return Definition(text, m.group(1), parse_expression(m.group(2)))


def parse_assumption(text: str) -> ast.expr:
    """``x > 0``, ``0 < x < 1``, ``x == 3`` or ``simplex(a, b, c)`` (the free context)."""
    tree = _parse_tree(check_text(text))
    return tree.body


def parse_any(text: str) -> Statement | Definition | ast.expr:
    """One REPL line: a definition, a statement or a bare expression."""
    d = parse_definition(text)
    if d is not None:
        return d
    text = check_text(text)
    tree = _parse_tree(text)
    if isinstance(tree.body, ast.Compare):
        return parse_statement(text)
    return tree.body
