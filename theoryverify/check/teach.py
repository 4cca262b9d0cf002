"""Errors that teach: the common slips of a theorist typing a step, each with what to write instead.

``^`` → use ``**`` (or ``--latex``); a single ``=`` → use ``==``; ``2x`` → write ``2*x``; LaTeX pasted as
plain text → use ``--latex``; an unknown name or function → the closest known ones.
"""
from __future__ import annotations

import ast
import difflib
import re
from typing import Iterable

from .functions import CONSTANTS, FUNCTIONS

_SINGLE_EQ = re.compile(r"(?<![=<>!:])=(?!=)")
_IMPLICIT = re.compile(r"(?<![A-Za-z_0-9.])(\d+(?:\.\d*)?)(?![eE][+-]?\d)([A-Za-z_(])")


def syntax_hint(text: str, message: str) -> str | None:
    """A teaching message for a Python syntax error on ``text``, or None."""
    if "\\" in text:
        return ("this looks like LaTeX: use --latex \"...\" (or plain syntax: ** for powers, sqrt(x), "
                "diff(f, x))")
    m = _IMPLICIT.search(text)
    if m:
        num, nxt = m.group(1), m.group(2)
        if nxt == "(":
            return f"multiplication is explicit: write {num}*(...)"
        rest = text[m.end(1):]
        word = re.match(r"[A-Za-z_][A-Za-z_0-9]*", rest)
        return f"multiplication is explicit: write {num}*{word.group(0) if word else nxt}"
    if _SINGLE_EQ.search(text):
        return "a single = is not a comparison: use == for equality (and := for a definition in the session)"
    if re.search(r"\blambda\b", text):
        return "'lambda' is a Python keyword: name the variable lam (λ is translated to lam)"
    if re.search(r"\b(and|or|not|if|else|for|in|is|import|def|class|return)\b", text):
        return "statements are arithmetic with one comparison chain (no and/or/if/for/import)"
    if "forgot a comma" in message:
        return "two terms without an operator between them: multiplication is explicit (a*b)"
    return None


def describe_node(node: ast.AST) -> str:
    """What a disallowed node is, in words, with the fix where there is one."""
    if isinstance(node, ast.BitXor):
        return "^ (in Python ^ is not a power): use ** for powers, e.g. x**2 (or --latex for LaTeX input)"
    if isinstance(node, ast.BitOr):
        return "| : write Abs(x) for |x|"
    if isinstance(node, ast.BitAnd):
        return "& : an align marker? use --latex for LaTeX input"
    if isinstance(node, ast.NotEq):
        return "!= : a step cannot assert 'not equal'; check == and expect 'refuted'"
    if isinstance(node, (ast.In, ast.NotIn)):
        return "'in' belongs in an assumption (--assume \"y in {-1, 1}\")"
    if isinstance(node, ast.Mod):
        return "operator % (modulo is not supported)"
    if isinstance(node, ast.FloorDiv):
        return "operator // (write floor(a/b))"
    names = {ast.Attribute: "attribute access", ast.Lambda: "lambda", ast.ListComp: "comprehension",
             ast.SetComp: "comprehension", ast.DictComp: "comprehension", ast.GeneratorExp: "comprehension",
             ast.NamedExpr: "assignment expression (use 'name := expr' at the start of a line)",
             ast.Starred: "star unpacking", ast.JoinedStr: "f-string", ast.Await: "await",
             ast.IfExp: "conditional expression", ast.BoolOp: "and/or", ast.List: "list",
             ast.Tuple: "tuple", ast.Dict: "dict", ast.Set: "set (sets belong in an assumption: y in {-1, 1})",
             ast.Slice: "slice"}
    for cls, label in names.items():
        if isinstance(node, cls):
            return label
    if isinstance(node, (ast.operator, ast.unaryop, ast.cmpop)):
        return f"operator {type(node).__name__}"
    return type(node).__name__


def closest(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """The known names nearest to ``name`` (case-insensitive spelling distance)."""
    known = sorted(set(known))
    exact = difflib.get_close_matches(name, known, n=n, cutoff=0.5)
    lower = {k.lower(): k for k in known}
    loose = [lower[h] for h in difflib.get_close_matches(name.lower(), list(lower), n=n, cutoff=0.6)]
    return list(dict.fromkeys(exact + loose))[:n]


def unknown_function(name: str, extra: Iterable[str] = ()) -> str:
    near = closest(name, [*FUNCTIONS, *extra])
    tail = f" (closest: {', '.join(near)})" if near else ""
    if name in CONSTANTS:
        return f"{name!r} is a constant, not a function{tail}"
    return (f"{name}(…) is not a known function: declare it ({name}: function) or write {name}*(…) for a product "
            f"(unknown function {name!r}{tail}; functions: {', '.join(FUNCTIONS)}; or define it: {name}(x) := ...)")


def unknown_name(name: str, context: str, known: Iterable[str]) -> str:
    near = closest(name, known)
    tail = f"; closest: {', '.join(near)}" if near else ""
    return f"unknown name {name!r} in context {context}{tail} (see :symbols)"
