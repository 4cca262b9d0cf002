"""Planted-error tests for the [CL] checks: conserved quantities, Lyapunov non-increase, sign proofs."""
import numpy as np
import sympy as sp

from theoryverify.flows import gradient_flow
from theoryverify.invariants import check_conserved, check_nonincreasing, prove_nonpositive
from theoryverify.verdicts import Status


def _balanced_flow():
    """Gradient flow of L(a, b) = ½(ab − 1)²: the balance a² − b² is conserved (Du et al., 2018)."""
    grad = lambda x: np.array([(x[0] * x[1] - 1) * x[1], (x[0] * x[1] - 1) * x[0]])  # noqa: E731
    res = gradient_flow(grad, [0.3, 0.1], 20.0, rtol=1e-12, atol=1e-14, t_eval=np.linspace(0, 20, 400))
    a, b = res.x[:, 0], res.x[:, 1]
    return res.t, a, b, 0.5 * (a * b - 1) ** 2


def test_balance_is_conserved_and_a_planted_quantity_is_refuted():
    t, a, b, _ = _balanced_flow()
    assert check_conserved(t, a**2 - b**2, rtol=1e-9, name="a²−b²").status is Status.HOLDS
    bad = check_conserved(t, a**2 + b**2, rtol=1e-9, name="a²+b²")
    assert bad.status is Status.REFUTED and bad.counterexample["drift"] > 1e-3


def test_loss_is_lyapunov_and_a_planted_increasing_candidate_is_refuted():
    t, a, b, loss = _balanced_flow()
    assert check_nonincreasing(t, loss, tol=1e-12).status is Status.HOLDS
    bad = check_nonincreasing(t, -loss, tol=1e-12, name="−L")
    assert bad.status is Status.REFUTED and bad.counterexample["increase"] > 0
    # a planted bump after the onset is located
    v = loss.copy()
    v[250] += 1e-6
    bad = check_nonincreasing(t, v, onset=t[100])
    assert bad.status is Status.REFUTED and abs(bad.counterexample["t1"] - t[250]) < 1e-12


def test_nan_never_passes():
    t = np.linspace(0, 1, 5)
    assert check_nonincreasing(t, [3, 2, np.nan, 1, 0]).status is Status.REFUTED
    assert check_conserved(t, [1, 1, np.nan, 1, 1]).status is Status.REFUTED


def test_sign_proofs_and_planted_false_statements():
    x, y = sp.symbols("x y", real=True)
    assert prove_nonpositive(-x**4, {x: (None, None)}).status is Status.PROVED
    assert prove_nonpositive(x**2 - 2 * x, {x: (0, 2)}).status is Status.PROVED
    assert prove_nonpositive(-(x * y) / (1 + x), {x: (0, None), y: (0, 5)}).status is Status.PROVED
    # planted: false on the box (x = 2.5 gives +1.25): must not be proved
    assert prove_nonpositive(x**2 - 2 * x, {x: (0, 3)}) is None
    assert prove_nonpositive(x - y, {x: (0, 1), y: (0, 1)}) is None
