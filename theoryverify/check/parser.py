"""Safe parsing of a step: Python's ``ast`` with an allow-list, then SymPy objects built by hand.

User text never reaches ``eval``, ``sympify`` or ``parse_expr``.  :func:`parse` checks the text
(length, characters, bracket depth), translates the Unicode a theorist pastes (``≤ ≥ · π σ(``…; see
:mod:`.unicode`), parses it with ``ast.parse(mode="eval")`` and walks the tree iteratively, rejecting
any node type, operator or function name not on the allow-lists and any oversized literal.
:class:`~.build.Builder` then turns the checked tree into SymPy objects, capping exponents and the size
of exact numbers before computing them.  Every rejection is a :class:`BadInput` with a one-line message,
and the common slips get a message that teaches (``^`` → use ``**``, ``=`` → use ``==``, ``2x`` → write
``2*x``; :mod:`.teach`).

Allowed beyond arithmetic: calls of the functions in :mod:`.functions` (and of the session's own
functions), ``@`` (matrix product), the attribute ``.T`` (transpose; no other attribute), indexing
``v[i]``/``W[i, j]`` with integer literals, the limits tuple ``(k, a, b)`` of ``Sum``/``Product``/``Integral``, a
comparison inside ``indicator(...)``, and chains ``A == B <= C`` at the top level.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

from ..errors import TheoryverifyError
from .functions import FUNCTIONS

MAX_CHARS = 2000
MAX_DEPTH = 40  # brackets and AST nesting
MAX_NODES = 600
MAX_INT = 10**15  # integer literals
MAX_EXPONENT = 100  # |exponent| of **, numeric only
MAX_TOTAL_EXPONENT = 1000  # exponent of a power after SymPy combines (x**a)**b
MAX_NUMBER_BITS = 20000  # exact numbers built from literals
MAX_DIFF_ORDER = 4
MAX_LINKS = 12  # links of one chain
DEFAULT_TIMEOUT = 10.0  # hard wall-clock limit of one check, seconds
NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,31}$")
DEFINITION_RE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]{0,31})\s*(?:\(([^()]*)\))?\s*:=(.*)$", re.S)

COMPARE_OPS = {ast.Eq: "==", ast.LtE: "<=", ast.GtE: ">=", ast.Lt: "<", ast.Gt: ">"}
BIN_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.MatMult)
UNARY_OPS = (ast.USub, ast.UAdd)
ALLOWED_NODES = (ast.Expression, ast.Compare, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Constant,
                 ast.Subscript, ast.keyword, ast.Load, ast.Attribute, ast.Tuple, *COMPARE_OPS, *BIN_OPS, *UNARY_OPS)
LIMIT_FUNCTIONS = ("Sum", "Product")
#: calls that bind the first name of their limits tuple: the sums and products, and the definite integral
BINDING_FUNCTIONS = (*LIMIT_FUNCTIONS, "Integral")


class BadInput(TheoryverifyError, ValueError):
    """Unparseable or disallowed input: a one-line message, exit code 2."""


@dataclass(frozen=True)
class Statement:
    """``lhs OP rhs`` (OP in ==, <=, >=, <, >) as checked ASTs, plus the source text.

    A chain ``A == B <= C`` keeps its further links in ``more`` ((op, term) pairs); :meth:`links` splits
    it into one-link statements.  ``source`` is how the user wrote it (``plain`` or ``latex``) and
    ``line`` the line of a ``--tex`` file it came from."""
    text: str
    op: str
    lhs: ast.expr
    rhs: ast.expr
    more: tuple[tuple[str, ast.expr], ...] = ()
    source: str = "plain"
    line: int | None = None

    @property
    def is_chain(self) -> bool:
        return bool(self.more)

    @property
    def terms(self) -> tuple[ast.expr, ...]:
        return (self.lhs, self.rhs, *(t for _, t in self.more))

    @property
    def ops(self) -> tuple[str, ...]:
        return (self.op, *(o for o, _ in self.more))

    def links(self) -> list["Statement"]:
        """The chain's links, each a one-link statement (its text is the link as read)."""
        if not self.more:
            return [self]
        terms, ops = self.terms, self.ops
        return [Statement(f"{unparse(a)} {op} {unparse(b)}", op, a, b, source=self.source, line=self.line)
                for a, op, b in zip(terms, ops, terms[1:])]

    @property
    def read_as(self) -> str:
        """The statement in plain syntax (what a LaTeX statement was read as)."""
        terms, ops = self.terms, self.ops
        out = unparse(terms[0])
        for op, t in zip(ops, terms[1:]):
            out += f" {op} {unparse(t)}"
        return out


@dataclass(frozen=True)
class Definition:
    """``name := expr`` or ``name(x, y) := expr`` (a function of its parameters)."""
    text: str
    name: str
    expr: ast.expr
    params: tuple[str, ...] = ()


def unparse(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # pragma: no cover - display only
        return "<expression>"


def check_text(text: str) -> str:
    """Length, characters (after translating pasted Unicode) and bracket depth; the stripped text."""
    from .unicode import translate
    if not isinstance(text, str):
        raise BadInput("input must be text")
    if len(text) > MAX_CHARS:
        raise BadInput(f"input too long ({len(text)} characters; at most {MAX_CHARS})")
    text = translate(text)
    if len(text) > MAX_CHARS:
        raise BadInput(f"input too long ({len(text)} characters; at most {MAX_CHARS})")
    if any(not (c.isprintable() or c in " \t") for c in text):
        raise BadInput("only printable characters are allowed (no control characters)")
    depth = 0
    for c in text:
        depth += c in "([{"
        depth -= c in ")]}"
        if depth > MAX_DEPTH:
            raise BadInput(f"nesting too deep (more than {MAX_DEPTH} brackets)")
    if not text.strip():
        raise BadInput("empty input")
    return text.strip()


def _parse_tree(text: str, functions: Iterable[str] | None = None) -> ast.Expression:
    from .teach import syntax_hint
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        hint = syntax_hint(text, exc.msg)
        if hint:
            raise BadInput(hint) from None
        raise BadInput(f"syntax error: {exc.msg}" + (f" at column {exc.offset}" if exc.offset else "")) from None
    except (ValueError, RecursionError, MemoryError, OverflowError) as exc:
        raise BadInput(f"cannot parse: {type(exc).__name__}") from None
    validate(tree, functions)
    return tree


def validate(tree: ast.AST, functions: Iterable[str] | None = None) -> None:
    """Allow-list walk (iterative, so deep trees cannot exhaust the stack).  ``functions``: the call
    names allowed besides the built-in ones (None: any well-formed name, checked later by the builder)."""
    from .teach import describe_node, unknown_function
    extra = None if functions is None else frozenset(functions)
    stack: list[tuple[ast.AST, int, ast.AST | None]] = [(tree, 0, None)]
    count = 0
    while stack:
        node, depth, parent = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise BadInput(f"expression too large (more than {MAX_NODES} syntax nodes)")
        if depth > MAX_DEPTH:
            raise BadInput(f"expression nested too deeply (more than {MAX_DEPTH} levels)")
        if not isinstance(node, ALLOWED_NODES):
            raise BadInput(f"not allowed: {describe_node(node)}")
        if isinstance(node, ast.Name):
            _check_name(node.id)
        elif isinstance(node, ast.Constant):
            _check_constant(node.value)
        elif isinstance(node, ast.Call):
            _check_call(node, extra, unknown_function)
        elif isinstance(node, ast.Attribute):
            if node.attr != "T":
                raise BadInput(f"not allowed: attribute access (.{node.attr[:20]}); the only attribute is .T "
                               "(transpose)")
        elif isinstance(node, ast.Subscript):
            _check_subscript(node)
        elif isinstance(node, ast.Tuple):
            if not (_is_limits(node, parent) or isinstance(parent, ast.Subscript) and parent.slice is node):
                raise BadInput("not allowed: tuple (the only tuple is the limits (k, a, b) of Sum/Product)")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            _check_exponent(node.right)
        elif isinstance(node, ast.Compare):
            _check_compare(node, depth, parent)
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1, node))


def _check_call(node: ast.Call, extra, unknown_function) -> None:
    if not isinstance(node.func, ast.Name):
        if isinstance(node.func, ast.Constant):
            raise BadInput("a number followed by '(': multiplication is explicit, write 2*(x + 1)")
        if isinstance(node.func, (ast.Call, ast.BinOp, ast.Subscript)):
            raise BadInput("'(…)(…)': multiplication is explicit, write (a)*(b)")
        from .teach import describe_node
        raise BadInput(f"not allowed: calling a {describe_node(node.func)}")
    name = node.func.id
    _check_name(name)
    if name not in FUNCTIONS and extra is not None and name not in extra:
        raise BadInput(unknown_function(name, extra))
    if node.keywords and name != "subs":
        raise BadInput(f"{name}() takes no keyword arguments")
    for kw in node.keywords:
        if kw.arg is None:
            raise BadInput("not allowed: ** argument unpacking")
        _check_name(kw.arg)
    if name in BINDING_FUNCTIONS:
        if len(node.args) != 2 or not isinstance(node.args[1], ast.Tuple) or len(node.args[1].elts) != 3 \
                or not isinstance(node.args[1].elts[0], ast.Name):
            raise BadInput(f"{name}(f, (k, a, b)): a body and the limits (index, first, last)")


def _is_limits(node: ast.Tuple, parent) -> bool:
    return (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in BINDING_FUNCTIONS
            and len(parent.args) == 2 and parent.args[1] is node)


def _check_subscript(node: ast.Subscript) -> None:
    idx = node.slice
    parts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
    if len(parts) > 2 or not all(_is_int_literal(p) for p in parts):
        raise BadInput("indexing takes integer numbers: softmax(...)[j], v[i] or W[i, j] (from 1)")


def _is_int_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool)


def _check_compare(node: ast.Compare, depth: int, parent) -> None:
    for op in node.ops:
        if not isinstance(op, tuple(COMPARE_OPS)):
            from .teach import describe_node
            raise BadInput(f"not allowed: {describe_node(op)}")
    if depth <= 1:
        if len(node.ops) > MAX_LINKS:
            raise BadInput(f"chain too long (at most {MAX_LINKS} links)")
        return
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "indicator":
        return
    raise BadInput("a comparison may only appear at the top level (or inside indicator(...))")


def _is_constant(node: ast.AST) -> bool:
    return all(isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop))
               for n in ast.walk(node))


def _check_exponent(node: ast.expr) -> None:
    """A numeric exponent is bounded before anything is built (so 9**9**9**9 fails here)."""
    if not _is_constant(node):
        return  # symbolic exponents are checked when building
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
        if isinstance(node.op, ast.MatMult):
            raise BadInput("@ multiplies matrices, not numbers")
        if _size(a) + _size(b) > MAX_NUMBER_BITS:
            raise BadInput("number too large")
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b, ast.Div: lambda: a / b}
        if type(node.op) not in ops:
            from .teach import describe_node
            raise BadInput(f"not allowed: {describe_node(node.op)}")
        return ops[type(node.op)]()
    raise BadInput("not allowed in a numeric exponent")


def _size(x: Fraction) -> int:
    return max(abs(x.numerator).bit_length(), x.denominator.bit_length(), 1)


def _check_name(name: str) -> None:
    if not NAME_RE.match(name):
        raise BadInput(f"not allowed: name {name[:40]!r} (names are letters, digits and _, starting "
                       "with a letter, at most 32 characters)")


def _check_constant(value: object) -> None:
    if isinstance(value, complex):
        raise BadInput("not allowed: complex literal (a number followed by j: write 2*j)")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadInput(f"not allowed: {type(value).__name__} literal")
    if isinstance(value, int) and abs(value) >= MAX_INT:
        raise BadInput(f"integer literal too large (at most {len(str(MAX_INT)) - 1} digits)")
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise BadInput("not allowed: non-finite number literal")
        if value != 0 and not (1e-30 <= abs(value) < MAX_INT):
            raise BadInput("number literal out of range (1e-30 .. 1e15)")


def statement_from_tree(text: str, body: ast.expr, source: str = "plain", line: int | None = None) -> Statement:
    """A checked ``Compare`` node as a :class:`Statement` (one link or a chain)."""
    if not isinstance(body, ast.Compare):
        raise BadInput("a statement needs a comparison: LHS == RHS, <=, >=, < or > (or a chain A == B <= C)")
    ops = [COMPARE_OPS[type(o)] for o in body.ops]
    terms = [body.left, *body.comparators]
    more = tuple(zip(ops[1:], terms[2:]))
    return Statement(text, ops[0], terms[0], terms[1], more, source, line)


def parse_statement(text: str, functions: Iterable[str] | None = None) -> Statement:
    """``LHS OP RHS`` or a chain ``A == B <= C`` (every link is checked)."""
    text = check_text(text)
    if DEFINITION_RE.match(text):
        raise BadInput("a definition 'name := expr' belongs in the interactive session (or --define)")
    tree = _parse_tree(text, functions)
    return statement_from_tree(text, tree.body)


def parse_expression(text: str, functions: Iterable[str] | None = None) -> ast.expr:
    """A bare expression (no comparison)."""
    tree = _parse_tree(check_text(text), functions)
    if isinstance(tree.body, ast.Compare):
        raise BadInput("expected an expression, got a comparison")
    return tree.body


def parse_definition(text: str, functions: Iterable[str] | None = None) -> Definition | None:
    """``name := expr`` / ``f(x, y) := expr``, or None if the line is not a definition."""
    text = check_text(text)
    m = DEFINITION_RE.match(text)
    if not m:
        return None
    params: tuple[str, ...] = ()
    if m.group(2) is not None:
        params = tuple(p.strip() for p in m.group(2).split(","))
        if not params or not all(NAME_RE.match(p) for p in params) or len(set(params)) != len(params):
            raise BadInput("f(x, y) := expr: the parameters are distinct names")
        if len(params) > 6:
            raise BadInput("a function takes at most 6 parameters")
    name = m.group(1)
    more = set(functions or ()) | ({name} if params else set())
    return Definition(text, name, parse_expression(m.group(3), more if functions is not None else None), params)


def parse_assumption(text: str) -> ast.expr:
    """``x > 0``, ``0 < x < 1``, ``a < b``, ``x == 3`` (see :mod:`.assume` for the other forms)."""
    tree = _parse_tree(check_text(text), ())
    return tree.body


def parse_any(text: str, functions: Iterable[str] | None = None) -> Statement | Definition | ast.expr:
    """One REPL line: a definition, a statement or a bare expression."""
    d = parse_definition(text, functions)
    if d is not None:
        return d
    text = check_text(text)
    tree = _parse_tree(text, functions)
    if isinstance(tree.body, ast.Compare):
        return statement_from_tree(text, tree.body)
    return tree.body
