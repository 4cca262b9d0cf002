"""The two-relation landscape of App. C (Lemmas 10, 11), derived from the model (``general_n``): the logits of r1
(true) and r2 (confusing) of a confusing, non-mismatched sequence, the direction ε̃ = ½(1, 1, −1, −1, 0, 0), the
Lemma 9 profile θ̃ = log(1/6 + α, 1/6, 1/6 + α, 1/6, 1/6 − 2α, 1/6) and derivatives along θ̃ + x ε̃."""
from __future__ import annotations

from functools import lru_cache

import sympy as sp

from . import general_n as G

ALPHA = sp.Symbol("alpha", positive=True)
X = sp.Symbol("x", real=True)
DELTA = [sp.Rational(1, 2), sp.Rational(1, 2), -sp.Rational(1, 2), -sp.Rational(1, 2), 0, 0]
TWO_REL = "r1, r2 of the first confusing non-mismatched sequence of F-greedy(7,0); logits from the model"
STAGE1 = (f"D = every sequence of F-greedy(7,0); θ̃ = −η1∇_θL1(0), η1 = {G.C1_DEFAULT}·T^1.5 log(1/T); "
          f"T ∈ {G.T_SWEEP}")


@lru_cache(maxsize=1)
def two_relations():
    """(l1, l2): symbolic logits of r1 and r2 for a confusing, non-mismatched sequence."""
    pop = G.greedy_population(7, 0)
    i = G.find_sequence(pop, confusing=True, mismatched=False)
    r1 = int(pop.target[i])
    r2 = G.relation_index(pop, i, G.CONFUSING)
    return G.symbolic_logit(pop.Q[i, r1]), G.symbolic_logit(pop.Q[i, r2])


def along(theta):
    """v(x) = softmax(θ + x ε̃) as expressions in x."""
    return G.softmax([t + X * d for t, d in zip(theta, DELTA)])


def derivs_at0(expr_v, theta):
    """(e(0), e′(0), e″(0)) for e(x) = expr(v(x))."""
    e = expr_v.xreplace(dict(zip(G.VS, along(theta)))) if hasattr(expr_v, "xreplace") else expr_v
    return [sp.diff(e, X, k).subs(X, 0) for k in range(3)]


def lemma9_theta(alpha=ALPHA):
    return [sp.log(x) for x in G.lemma9_point(alpha)]


def leading(expr):
    """The α → 0 limit (the leading constant when the remainder is O(α))."""
    return sp.nsimplify(sp.limit(sp.simplify(expr), ALPHA, 0, "+"))
