"""Checking a chain of propositions joined by ⟺ or ⟹ (``x^2 \\le 1 \\iff -1 \\le x \\le 1``) as what it says: two
conditions with the same truth value at every point (⟺), or the first never true where the second is false (⟹).

Each side is a conjunction of relations between polynomial or rational expressions of plain real names (``|·|``
allowed).  The truth values are compared at exact rational points: a point where they differ refutes the statement
(a counterexample); with one name and no ``|·|`` the comparison is a decision — the sign of every relation is
constant between consecutive real roots of its numerators and denominators, so comparing at each root and at one
rational point between (and beyond) them decides the statement (proved); otherwise agreement at every sampled point
proves nothing (inconclusive).  Evaluation is exact (:class:`fractions.Fraction`); nothing is ``eval``-ed."""
from __future__ import annotations

import ast
import itertools
from fractions import Fraction

OPS = {"<", "<=", ">", ">=", "="}
#: names a paper uses for whole numbers: a counterexample at a fraction refutes nothing for them
WHOLE_LETTERS = {"i", "j", "k", "l", "m", "n", "t", "N", "K", "M", "T", "d", "p", "q", "r", "s"}
SAMPLE = [Fraction(v) for v in ("-3", "-2", "-1", "-1/2", "-1/3", "0", "1/3", "1/2", "1", "2", "3", "5/2", "7")]
MAX_NAMES = 3
#: the readings in the authors' favour a refutation must also fail in (as policy.FAVOURABLE for a step)
FAVOURABLE = (("every name positive", lambda v: v > 0), ("every name in (0, 1)", lambda v: 0 < v < 1),
              ("every name at least 1", lambda v: v >= 1))
MAX_POWER = 8


class NotChecked(Exception):
    """The statement is outside what this check reads: no verdict."""


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not _is_call_name(node, n)}


def _is_call_name(root: ast.AST, name: ast.Name) -> bool:
    return any(isinstance(c, ast.Call) and c.func is name for c in ast.walk(root))


def _allowed(node: ast.AST) -> bool:
    """Only numbers, names, + − × ÷, whole powers up to :data:`MAX_POWER` and ``Abs``."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return node.id not in ("pi", "e", "E", "oo")
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.USub, ast.UAdd)) and _allowed(node.operand)
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Pow):
            e = node.right
            if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
                e = e.operand
            return isinstance(e, ast.Constant) and isinstance(e.value, int) and 0 <= e.value <= MAX_POWER and \
                _allowed(node.left)
        return isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)) and _allowed(node.left) and \
            _allowed(node.right)
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id == "Abs" and len(node.args) == 1 and \
            not node.keywords and _allowed(node.args[0])
    return False


def _value(node: ast.AST, point: dict[str, Fraction]) -> Fraction:
    """The exact value at ``point`` (ZeroDivisionError where undefined)."""
    if isinstance(node, ast.Constant):
        return Fraction(str(node.value)) if isinstance(node.value, float) else Fraction(node.value)
    if isinstance(node, ast.Name):
        return point[node.id]
    if isinstance(node, ast.UnaryOp):
        v = _value(node.operand, point)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.Call):
        return abs(_value(node.args[0], point))
    a, b = _value(node.left, point), None
    if isinstance(node.op, ast.Pow):
        e = node.right
        neg = isinstance(e, ast.UnaryOp)
        n = (e.operand if neg else e).value
        return (1 / a ** n) if neg else a ** n
    b = _value(node.right, point)
    if isinstance(node.op, ast.Add):
        return a + b
    if isinstance(node.op, ast.Sub):
        return a - b
    if isinstance(node.op, ast.Mult):
        return a * b
    return a / b


def _holds(op: str, d) -> bool:
    return {"<": d < 0, "<=": d <= 0, ">": d > 0, ">=": d >= 0, "=": d == 0}[op]


def _side_true(atoms, point) -> bool:
    return all(_holds(op, _value(lhs, point) - _value(rhs, point)) for lhs, op, rhs in atoms)


def _show(v) -> str:
    return str(v)


def check(left, right, kind: str, assumptions=(), whole: set[str] = frozenset()) -> dict:
    """``left``/``right``: the relations (lhs ast, op, rhs ast) each side's conjunction holds; ``kind``:
    "equivalence" (⟺) or "implication" (⟹); ``assumptions``: relations (lhs, op, rhs) the points must satisfy.
    Returns {"status": proved | refuted | inconclusive, "evidence": …, "counterexample": {name: value}}; raises
    :class:`NotChecked` when a side is not such a conjunction or the two sides do not speak of the same names."""
    atoms = list(left) + list(right)
    if not left or not right or any(op not in OPS or not _allowed(a) or not _allowed(b) for a, op, b in atoms):
        raise NotChecked("a side is not a relation between polynomial or rational expressions of numbers")
    lnames = set().union(*(_names(a) | _names(b) for a, _, b in left))
    rnames = set().union(*(_names(a) | _names(b) for a, _, b in right))
    names = sorted(lnames | rnames)
    if not lnames or lnames != rnames or len(names) > MAX_NAMES:
        raise NotChecked("the two sides do not speak of the same names")
    usable = []
    for a, op, b in assumptions:
        an = _names(a) | _names(b)
        if not an & set(names):
            continue  # about other names: no bearing on these
        if not an <= set(names) or op not in OPS or not _allowed(a) or not _allowed(b):
            raise NotChecked("an assumption on these names is not read")
        usable.append((a, op, b))

    def verdict(point) -> bool | None:
        """None where a side or an assumption is undefined, or the point is outside the assumptions."""
        try:
            if not _side_true(usable, point):
                return None
            lt, rt = _side_true(left, point), _side_true(right, point)
        except (ZeroDivisionError, OverflowError):
            return None
        return (lt == rt) if kind == "equivalence" else (not lt or rt)

    def _antecedent(point) -> bool:
        try:
            return _side_true(usable, point) and _side_true(left, point)
        except (ZeroDivisionError, OverflowError):
            return False

    exact = len(names) == 1 and \
        not any(isinstance(n, ast.Call) for a, _, b in atoms + usable for side in (a, b) for n in ast.walk(side))
    points: list[dict] = []
    roots: list = []
    if exact:
        try:
            points, roots = _critical_points(names[0], atoms + usable)
        except NotChecked:
            exact = False
    if not exact:
        points = [dict(zip(names, vs)) for vs in itertools.product(SAMPLE, repeat=len(names))]
    if exact:
        points += [{names[0]: v} for v in SAMPLE]  # simple values, found first as counterexamples
    bad = [p for p in points if verdict(p) is False]
    if not bad and exact:
        bad_root = _root_mismatch(names[0], roots, left, right, usable, kind)
        if bad_root is not None:
            # a mismatch only at an irrational root: one point, which cannot fail in every favourable reading
            return {"status": "inconclusive", "counterexample": None,
                    "evidence": f"the two sides differ only at {names[0]} = {bad_root}; a refutation must also fail "
                                "with every name positive, in (0, 1) and at least 1 (the authors' favour)"}
    if bad:
        # as for a step (policy.py): a refutation must fail in the authors' favour too — with every name positive,
        # every name in (0, 1) and every name at least 1 (L, μ and η are positive quantities in a paper)
        for words, inside in FAVOURABLE:
            there = [p for p in points if all(inside(v) for v in p.values())]
            if kind == "implication" and not any(_antecedent(p) for p in there):
                continue  # the premise is never true in this reading (t² ≥ 4 with t in (0, 1)): it says nothing
            if not any(verdict(p) is False for p in there):
                p = bad[0]
                return {"status": "inconclusive", "counterexample": None,
                        "evidence": "false at " + ", ".join(f"{k} = {_show(v)}" for k, v in p.items()) +
                                    f", but no counterexample with {words} (the authors' favour: the names may be "
                                    "positive quantities)"}
        whole_bad = [p for p in bad if all(v.denominator == 1 for v in p.values())]
        if not whole_bad and any(n in whole or n.split("_")[0] in WHOLE_LETTERS for n in names):
            p = bad[0]
            return {"status": "inconclusive", "counterexample": None,
                    "evidence": "false at " + ", ".join(f"{k} = {_show(v)}" for k, v in p.items()) +
                                ", a fraction; at whole numbers it held (a whole-number name may only take those)"}
        p = min(whole_bad or bad, key=lambda q: (sum(v < 0 for v in q.values()),
                                                  max(v.denominator for v in q.values()),
                                                  sum(abs(v) for v in q.values())))
        what = "the two sides have different truth values" if kind == "equivalence" else \
            "the left side holds and the right side does not"
        return {"status": "refuted", "counterexample": {k: _show(v) for k, v in p.items()},
                "evidence": "at " + ", ".join(f"{k} = {_show(v)}" for k, v in p.items()) + f": {what} (exact)"}
    if exact:
        return {"status": "proved", "counterexample": None,
                "evidence": "exact: the truth values agree at every real root of the relations' sides and at one "
                            "rational point between and beyond them: a decision for one name"}
    return {"status": "inconclusive", "counterexample": None,
            "evidence": f"the truth values agree at {len(points)} exact rational points, which proves nothing with "
                        "more than one name or a |·| (not searched further)"}


def _critical_points(name: str, atoms) -> tuple[list[dict], list]:
    """Rational points: one between each two consecutive real roots of the relations' numerators and denominators,
    one beyond each end, and each rational root; and the irrational roots (checked by :func:`_root_mismatch`)."""
    import sympy as sp
    x = sp.Symbol(name, real=True)
    polys = []
    for a, _, b in atoms:
        e = sp.together(_sym(a, x) - _sym(b, x))
        num, den = sp.fraction(e)
        for p in (num, den):
            if p.free_symbols - {x}:
                raise NotChecked("not one name")
            if p.has(x):
                polys.append(sp.Poly(p, x))
    roots = []
    for p in polys:
        for f, _ in sp.factor_list(p.as_expr(), x)[1]:
            fp = sp.Poly(f, x)
            if fp.degree() > 12:
                raise NotChecked("a polynomial of too high a degree")
            roots += list(fp.real_roots())
    approx = sorted({(sp.N(r, 40), r) for r in roots}, key=lambda t: t[0])
    values: list[Fraction] = []
    exact_roots = []
    for v, r in approx:
        if r.is_Rational:
            values.append(Fraction(int(r.p), int(r.q)))
        else:
            exact_roots.append(r)
    nums = [v for v, _ in approx]
    if not nums:
        values.append(Fraction(0))
    else:
        values.append(_rational(nums[0]) - 1)
        values.append(_rational(nums[-1]) + 1)
        for u, w in zip(nums, nums[1:]):
            if w - u > sp.Float("1e-30", 40):
                values.append(_between(_rational(u), _rational(w)))
    return [{name: v} for v in sorted(set(values))], exact_roots


def _between(u: Fraction, w: Fraction) -> Fraction:
    """A simple rational strictly between ``u < w`` (the smallest denominator up to 1000, else the midpoint)."""
    import math
    for d in range(1, 1001):
        n = math.floor(u * d) + 1
        if Fraction(n, d) < w:
            return Fraction(n, d)
    return (u + w) / 2


def _rational(v) -> Fraction:
    return Fraction(str(v)).limit_denominator(10 ** 30)


def _sym(node: ast.AST, x):
    import sympy as sp
    if isinstance(node, ast.Constant):
        return sp.Rational(str(node.value)) if isinstance(node.value, float) else sp.Integer(node.value)
    if isinstance(node, ast.Name):
        return x
    if isinstance(node, ast.UnaryOp):
        v = _sym(node.operand, x)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        a = _sym(node.left, x)
        if isinstance(node.op, ast.Pow):
            e = node.right
            n = -e.operand.value if isinstance(e, ast.UnaryOp) else e.value
            return a ** n
        b = _sym(node.right, x)
        return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(node.op), a / b if
                                                                   isinstance(node.op, ast.Div) else None)
    raise NotChecked("not read")


def _root_mismatch(name: str, roots, left, right, usable, kind: str) -> str | None:
    """The first irrational root where the statement fails, shown as written by SymPy (or None).  A relation's sign
    there is exact: zero when the root's minimal polynomial divides its numerator, else read from 40 digits."""
    import sympy as sp
    x = sp.Symbol(name, real=True)

    def sign_at(a, b, r):
        e = sp.together(_sym(a, x) - _sym(b, x))
        num, den = sp.fraction(e)
        m = sp.minimal_polynomial(r, x)
        if sp.rem(sp.Poly(den, x), sp.Poly(m, x)).is_zero if den.has(x) else False:
            return None
        if num.has(x) and sp.rem(sp.Poly(num, x), sp.Poly(m, x)).is_zero:
            return 0
        v = sp.N(e.subs(x, r), 40)
        return 1 if v > 0 else -1

    def truth(atoms, r):
        out = True
        for a, op, b in atoms:
            s = sign_at(a, b, r)
            if s is None:
                return None
            out = out and _holds(op, s)
        return out
    for r in roots:
        u = truth(usable, r)
        lt, rt = truth(left, r), truth(right, r)
        if u is None or lt is None or rt is None or not u:
            continue
        if (kind == "equivalence" and lt != rt) or (kind == "implication" and lt and not rt):
            return f"{r} ≈ {sp.N(r, 6)}"
    return None
