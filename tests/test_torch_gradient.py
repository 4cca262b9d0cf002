"""tv.torch_gradient: the autograd side of a gradient cross-check from the model's loss alone (held-out author 8,
session 45: a five-line array→tensor→backward adapter in every model).  Each test fails on the old code (the name
does not exist); the planted ones show the check it feeds can fail."""
import numpy as np
import pytest
import sympy as sp
import torch

import theoryverify as tv


def loss(X, y, w, lam):
    """Regularised logistic loss, in torch."""
    return torch.nn.functional.binary_cross_entropy_with_logits(X @ w, y) + lam / 2 * w @ w


OVER = [tv.Over("n", 1, 4, integer=True), tv.Over("d", 1, 3, integer=True)]
SHAPES = {"X": ("n", "d"), "y": ("n",), "w": ("d",)}
LAM = lambda c: [tv.Interval(sp.Symbol("lam"), 0.01, 2)]
sig = lambda t: 1 / (1 + sp.exp(-t))


def printed_grad(X, y, w, n, lam):
    """∇L = (1/n) Xᵀ(σ(Xw) − y) + λw."""
    return X.T * ((X * w).applyfunc(sig) - y) / n + lam * w


def test_the_printed_gradient_agrees_with_autograd_of_the_loss():
    v = tv.check_agreement_over(OVER, tv.printed(printed_grad, SHAPES), tv.torch_gradient(loss, wrt="w"), LAM,
                                seed=0, rtol=1e-9)
    assert v.status.value == "holds", v.evidence


@pytest.mark.parametrize("planted", [
    lambda X, y, w, n, lam: 2 * printed_grad(X, y, w, n, lam) - lam * w,          # a factor 2
    lambda X, y, w, n, lam: X.T * ((X * w).applyfunc(sig) - y) / n - lam * w,   # the sign of the ridge term
])
def test_a_planted_gradient_is_refuted(planted):
    v = tv.check_agreement_over(OVER, tv.printed(planted, SHAPES), tv.torch_gradient(loss, wrt="w"), LAM,
                                seed=0, rtol=1e-9)
    assert v.status.value == "refuted", v.evidence


def test_several_wrt_and_the_errors_say_what_is_wrong():
    x = {"X": np.eye(2), "y": np.array([1.0, 0.0]), "w": np.array([0.0, 0.0]), "lam": 0.5}
    gw, glam = tv.torch_gradient(loss, wrt=("w", "lam"))(x)
    assert gw.shape == (2,) and np.allclose(gw, [-0.25, 0.25]) and float(glam) == 0.0
    with pytest.raises(tv.TheoryverifyError, match="takes 'lam', which the point does not have"):
        tv.torch_gradient(loss)({k: x[k] for k in "Xyw"})
    with pytest.raises(tv.TheoryverifyError, match="not a scalar loss"):
        tv.torch_gradient(lambda X, w: X @ w)(x)
    with pytest.raises(tv.TheoryverifyError, match="wrt names 'v', not a parameter of loss"):
        tv.torch_gradient(loss, wrt="v")  # at once, before any point is drawn
