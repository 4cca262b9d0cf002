"""Domain ends given as SymPy numbers (``sp.pi``) are converted when the domain is built, so a step context or a
check that formats them works; anything else is refused there in one line.  And ``tv.evaluate`` binds a
display's symbols by name."""
from __future__ import annotations

import pytest
import sympy as sp

import theoryverify as tv
from theoryverify.domains import DomainError

theta = sp.Symbol("theta", positive=True)


def test_pi_as_an_end_is_a_float_and_formats():
    iv = tv.Interval(theta, 0, sp.pi, closed=(False, False))
    assert iv.hi == pytest.approx(3.141592653589793) and isinstance(iv.hi, float)
    assert iv.describe() == "theta ∈ (0, 3.14159)"
    assert tv.LogUniform(theta, sp.Rational(1, 2), sp.pi).lo == 0.5
    assert tv.Over("theta", 0, sp.pi).label() == "theta ∈ [0, 3.14159]"


def test_a_check_over_a_pi_interval_runs_and_can_fail():
    dom = tv.Domain([tv.Interval(theta, 0, sp.pi, closed=(False, False))])
    assert tv.check_inequality(sp.sin(theta), ">", 0, dom, 0).status is not tv.Status.REFUTED
    # planted: sin θ > 1/2 fails near the ends of (0, π)
    assert tv.check_inequality(sp.sin(theta), ">", sp.Rational(1, 2), dom, 0).status is tv.Status.REFUTED


@pytest.mark.parametrize("bad", [sp.Symbol("n"), "pi", True, sp.I])
def test_a_non_number_end_is_one_line_at_construction(bad):
    with pytest.raises(DomainError, match="must be a real number"):
        tv.Interval(theta, 0, bad)
    if isinstance(bad, (str, sp.Symbol)):  # a declared range's end may name another range (n from d to 4d):
        over = tv.Over("theta", 0, bad)     # then an end naming no declared range is one line where it is read
        with pytest.raises(ValueError, match="not among the declared ranges"):
            tv.settings([over], seed=0)
        return
    with pytest.raises(ValueError, match="must be a real number"):
        tv.Over("theta", 0, bad)


def test_evaluate_binds_by_name_and_refuses_a_missing_symbol():
    a = sp.Symbol("a", positive=True)
    k = a * (sp.sin(theta) + (sp.pi - theta) * sp.cos(theta)) / sp.pi
    assert tv.evaluate(k, {"a": 1.0, "theta": 0.0, "d": 3}) == pytest.approx(1.0)
    assert tv.evaluate(k, {theta: sp.pi / 2}, a=2) == pytest.approx(2 / sp.pi.evalf())
    with pytest.raises(ValueError, match="no value of a"):
        tv.evaluate(k, {"theta": 1.0})
    with pytest.raises(ValueError, match="not real"):
        tv.evaluate(sp.sqrt(theta - 2), {"theta": 1.0})
