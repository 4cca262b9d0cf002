"""Step contexts an author writes (issue 29, item 10): a symbol SymPy names "lambda" is reachable as lam,
``tv.assumed_context`` declares relations (μ ≤ λ ≤ L) that a box of independent ranges cannot, and ``--assume``
narrows such a paper context (refused in one line for a context declared in Python)."""
from __future__ import annotations

import pytest
import sympy as sp

import theoryverify as tv
from theoryverify.check.parser import BadInput
from theoryverify.check.session import Session

mu, L = sp.symbols("mu L", positive=True)
lam = sp.Symbol("lambda", positive=True)


def _mode():
    return tv.assumed_context("t.mode", "one eigen-direction", ["1e-3 <= mu <= 10", "mu <= L <= 10000*mu",
                                                                 "mu <= lam <= L"],
                              definitions=lambda s: {"rho": (sp.sqrt(s["L"] / s["mu"]) - 1) / (sp.sqrt(s["L"] / s["mu"]) + 1)})


def test_a_symbol_named_lambda_is_reachable_as_lam():
    box = tv.StepContext("t.box", "a box", [tv.Interval(lam, 1, 2)])
    assert Session(box).check("lam**2 >= 1").status.value in ("proved", "holds")
    assert Session(box).check("lam**2 >= 2").status.value == "refuted"  # planted: false at λ = 1


def test_relations_hold_in_an_assumed_context():
    ctx = _mode()
    assert Session(ctx).check("rho >= 0").status.value in ("proved", "holds")  # μ ≤ L: never at L = 1/2, μ = 1
    assert Session(ctx).check("rho <= 1/2").status.value == "refuted"  # planted: κ = 1e4 gives ρ ≈ 0.98


def test_assume_narrows_an_assumed_context_and_is_refused_for_a_python_one():
    assert Session(_mode(), ["L <= 4*mu"]).check("rho <= 1/3 + 1/10**9").status.value in ("proved", "holds")
    box = tv.StepContext("t.box", "a box", [tv.Interval(lam, 1, 2)])
    with pytest.raises(BadInput, match="narrows only a context declared with tv.assumed_context"):
        Session(box, ["lam <= 3/2"])
