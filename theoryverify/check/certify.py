"""Typed steps: ``--given`` premises plus a rule whose certificate is checked exactly.

Rules (``--by``):

- ``substitute``: premises ``x == e`` (a symbol on the left) are substitutions; at most one other
  premise is the previous step P.  Certificate: target − P (as ``lhs − rhs``, or the slacks for
  inequalities with the same direction) is exactly 0 after substituting; without P the target
  itself must become an identity.
- ``linear(c1, ..., ck)``: target = Σ c_i · premise_i.  Equations: (l − r)_target − Σ c_i (l − r)_i
  ≡ 0.  Inequalities: slack_target − Σ c_i slack_i ≡ 0 with every c_i on an inequality a
  nonnegative number (and, for a strict target, some strict premise with c_i > 0).
- ``clear-denominators`` or ``clear(D)``: one equation premise; target (l − r) ≡ ±D·(l − r) of the
  premise, D stated or (without it) the denominator of the premise's ``together`` form.

"Exactly 0" is the engine's time-bounded symbolic tier
(:func:`~theoryverify.checks.identity.symbolic_zero`); if it cannot show 0, the residual goes
through :func:`~theoryverify.checks.check_identity`, so a wrong certificate is refuted with a
point where the residual is not 0.
"""
from __future__ import annotations

import ast
import re
from typing import Sequence

import sympy as sp

from ..checks import check_identity
from ..checks.identity import symbolic_zero
from ..checks.inequality import slack_expr
from ..verdicts import Verdict, proved
from .build import Builder, Scope
from .parser import BadInput, Statement, parse_expression

RULE_RE = re.compile(r"^\s*(substitute|clear-denominators|clear|linear)\s*(?:\((.*)\))?\s*$", re.S)
CERT_SECONDS = 2.0


def split_args(text: str) -> list[str]:
    """Top-level comma split (commas inside brackets stay)."""
    out, depth, cur = [], 0, []
    for c in text:
        depth += c in "(["
        depth -= c in ")]"
        if c == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    out.append("".join(cur))
    return [a for a in (x.strip() for x in out)]


def parse_rule(rule: str | None) -> tuple[str, list[str]]:
    m = RULE_RE.match(rule or "")
    if not m:
        raise BadInput("--by must be substitute, linear(c1, ..., ck), clear-denominators or clear(D)")
    name, args = m.group(1), m.group(2)
    if name == "clear" and args is None:
        raise BadInput("clear(D) needs the multiplier D (or use clear-denominators)")
    if name in ("substitute", "clear-denominators") and args is not None:
        raise BadInput(f"{name} takes no arguments")
    if name == "linear" and not args:
        raise BadInput("linear(c1, ..., ck) needs one coefficient per --given premise")
    return name, split_args(args) if args is not None else []


def _sides(b: Builder, st: Statement) -> tuple[sp.Expr, sp.Expr]:
    return b.build(st.lhs), b.build(st.rhs)


def _diff_form(b: Builder, st: Statement) -> sp.Expr:
    """lhs − rhs for equations; the slack (≥ 0 when it holds) for inequalities."""
    l, r = _sides(b, st)
    return l - r if st.op == "==" else slack_expr(l, r, st.op)


def certify(scope: Scope, target: Statement, given: Sequence[Statement], rule: str | None, seed: int):
    from .decide import domain_of  # local: decide imports this module lazily
    name, args = parse_rule(rule)
    if not given:
        raise BadInput("--by needs at least one --given premise")
    b = Builder(scope)
    t = _diff_form(b, target)
    if name == "substitute":
        residual, what = _substitute(b, target, t, given)
    elif name == "linear":
        residual, what = _linear(b, target, t, given, [b.build(parse_expression(a)) for a in args])
    else:
        residual, what = _clear(b, target, t, given, [b.build(parse_expression(a)) for a in args])
    return _decide_residual(scope, residual, what, seed, domain_of)


def _substitute(b, target, t, given):
    mapping, previous = {}, []
    for g in given:
        if g.op == "==" and isinstance(g.lhs, ast.Name) and isinstance(b.scope.resolve(g.lhs.id), sp.Symbol):
            mapping[b.scope.symbol(g.lhs.id)] = b.build(g.rhs)
        else:
            previous.append(g)
    if len(previous) > 1:
        raise BadInput("substitute: premises are 'symbol == expr' substitutions plus at most one previous step")
    if not mapping:
        raise BadInput("substitute: no premise of the form 'symbol == expr'")
    if previous:
        p = previous[0]
        if (p.op == "==") != (target.op == "=="):
            raise BadInput("substitute: the previous step and the target must both be equations or both inequalities")
        residual = t - _diff_form(b, p)
        if target.op in ("<", ">") and p.op not in ("<", ">"):
            raise BadInput("substitute: a strict target needs a strict previous step")
    else:
        if target.op != "==":
            raise BadInput("substitute without a previous step: the target must be an equation")
        residual = t
    return residual.xreplace(mapping), f"substitution of {', '.join(map(str, mapping))}"


def _linear(b, target, t, given, coeffs):
    if len(coeffs) != len(given):
        raise BadInput(f"linear: {len(given)} premises but {len(coeffs)} coefficients")
    strict_used = False
    total = sp.Integer(0)
    for g, c in zip(given, coeffs):
        if g.op != "==":
            if target.op == "==":
                raise BadInput("linear: an equation cannot follow from inequality premises")
            if not (c.is_Rational and c >= 0):
                raise BadInput(f"linear: coefficient {c} of an inequality premise must be a number ≥ 0")
            strict_used |= g.op in ("<", ">") and c > 0
        total += c * _diff_form(b, g)
    if target.op in ("<", ">") and not strict_used:
        raise BadInput("linear: a strict target needs a strict premise with a positive coefficient")
    return t - total, f"linear combination with coefficients ({', '.join(map(str, coeffs))})"


def _clear(b, target, t, given, stated):
    if len(given) != 1 or given[0].op != "==" or target.op != "==":
        raise BadInput("clear-denominators: one equation premise and an equation target")
    p = _diff_form(b, given[0])
    D = stated[0] if stated else sp.fraction(sp.together(p))[1]
    if len(stated) > 1:
        raise BadInput("clear(D) takes one multiplier")
    plus, minus = t - D * p, t + D * p
    if symbolic_zero(minus, 0.5 * CERT_SECONDS) and not symbolic_zero(plus, 0.1):
        return minus, f"clearing denominators (multiplier −({D}))"
    return plus, f"clearing denominators (multiplier {D})"


def _decide_residual(scope, residual, what, seed, domain_of):
    how = symbolic_zero(residual, CERT_SECONDS)
    if how:
        v = proved(f"certificate checked exactly ({how})", f"the step follows by {what}: the residual "
                   f"target − certificate is 0 ({how})")
        return v, None, None, ()
    domain, subst = domain_of(scope, [residual])
    residual = residual.xreplace(subst) if subst else residual
    from .decide import _no_point_verdict
    empty = _no_point_verdict(domain)  # no point inside the assumptions: the residual is decided nowhere
    if empty is not None:
        return empty, None, None, tuple(map(str, domain.symbols))
    v = check_identity(residual, sp.Integer(0), domain, seed, symbolic_seconds=0.5)
    how = "fails" if v.status.value == "refuted" else "not shown exactly; residual checked"
    v = Verdict(v.status, f"certificate ({what}) {how}: {v.method}",
                f"residual target − certificate: {v.evidence}", v.counterexample, v.details)
    return v, None, None, tuple(map(str, domain.symbols))
