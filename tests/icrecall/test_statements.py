"""Planted errors for the statement-level entries (ICR-P2-stmt, ICR-T4-T0)."""
import sympy as sp

from derivations.icrecall.claims import b_statements as cs
from derivations.icrecall.model.symbolic import softmax
from theoryverify import check_identity
from theoryverify import Domain, Interval
from theoryverify import Status


def test_wrong_softmax_jacobian_sign_is_refuted():
    th = sp.symbols("t1:4", real=True)
    sm = softmax(th)
    wrong = check_identity(sp.diff(sm[0], th[1]), sm[0] * sm[1], Domain([Interval(t, -5, 5) for t in th]), 1)
    assert wrong.status is Status.REFUTED and "t1" in wrong.counterexample


def test_pairwise_excess_changes_sign_at_T_star():
    low, _ = cs.pairwise_excess(0.02)
    high, _ = cs.pairwise_excess(0.5)
    assert low < 0 < high
