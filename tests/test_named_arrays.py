"""Matrix and vector symbols by name (issue 29, defects 1 and 2): ``tv.evaluate`` takes arrays for
``tv.MatrixVar`` / ``tv.VectorVar`` and evaluates a matrix display to an array; ``tv.check_agreement`` draws from
a ``tv.Domain`` and names the drawn settings (planted: a wrong coefficient, a wrong shape)."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import theoryverify as tv

Xv, wv, yv = tv.MatrixVar("X", (3, 2)), tv.VectorVar("w", 2), tv.VectorVar("y", 3)
X, w, y = Xv.matrix, wv.vector, yv.vector
eta = sp.Symbol("eta", positive=True)
GRAD = X.T * (X * w - y) / 3
DOMAIN = tv.Domain([Xv, wv, yv, tv.LogUniform(eta, 1e-3, 10.0)])


def numpy_gradient(v):
    return v["X"].T @ (v["X"] @ v["w"] - v["y"]) / 3


def test_evaluate_takes_arrays_and_gives_an_array_of_the_display_shape():
    setting = {"X": [[1, 2], [3, 4], [5, 6]], "w": [1, 1], "y": [0, 0, 0]}
    got = tv.evaluate(GRAD, setting)
    assert got.shape == (2,) and np.allclose(got, numpy_gradient({k: np.array(v, float) for k, v in setting.items()}))
    assert tv.evaluate(X.T * X, setting).shape == (2, 2)
    assert list(tv.evaluate(w.T * w, {"w": np.array([[3.0], [4.0]])})) == [25.0]  # a column given as a matrix
    assert tv.evaluate(eta * w[0], {"w": (2, 0)}, eta=0.5) == 1.0


@pytest.mark.parametrize("setting, message", [
    ({"X": [[1, 2], [3, 4]], "w": [1, 1], "y": [0, 0, 0]}, r"no value of X\[2,0\], X\[2,1\] \(it has X\[…\], w\[…\], y\[…\]\)"),
    ({"X": np.zeros((3, 2, 1)), "w": [1, 1], "y": [0, 0, 0]}, "a number, a vector or a matrix"),
    ({"X": [["a", 1]] * 3, "w": [1, 1], "y": [0, 0, 0]}, "must be a number or an array of numbers"),
])
def test_evaluate_says_which_entry_is_missing_or_wrong(setting, message):
    with pytest.raises(ValueError, match=message):
        tv.evaluate(GRAD, setting)


def test_agreement_over_a_domain_holds_and_a_planted_coefficient_is_refuted_with_named_settings():
    ok = tv.check_agreement(lambda v: tv.evaluate(GRAD, v), numpy_gradient, DOMAIN, seed=5, n=30)
    assert ok.status is tv.Status.HOLDS, ok
    bad = tv.check_agreement(lambda v: tv.evaluate(2 * GRAD, v), numpy_gradient, DOMAIN, seed=5, n=30)
    assert bad.status is tv.Status.REFUTED
    assert {"X", "w", "y", "eta", "derived", "autograd"} <= set(bad.counterexample)
    assert np.shape(bad.counterexample["X"]) == (3, 2)
    again = tv.check_agreement(lambda v: tv.evaluate(2 * GRAD, v), numpy_gradient, DOMAIN, seed=5, n=30)
    assert again.counterexample == bad.counterexample  # same seed, same counterexample


def test_agreement_over_a_domain_refutes_a_shape_mismatch():
    v = tv.check_agreement(lambda v: tv.evaluate(X.T * X, v), numpy_gradient, DOMAIN, seed=0, n=10)
    assert v.status is tv.Status.REFUTED and "shape" in v.method


def test_agreement_refuses_what_is_neither_a_domain_nor_a_strategy():
    with pytest.raises(TypeError, match="tv.Domain or a Hypothesis strategy"):
        tv.check_agreement(numpy_gradient, numpy_gradient, [Xv, wv], seed=0)
