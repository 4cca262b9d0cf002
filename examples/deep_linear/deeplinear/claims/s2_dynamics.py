"""Sec. 2 — general learning dynamics of gradient descent: the gradients of the squared error, their
reduction to independent modes of Σ31 = U S Vᵀ (which gives the printed mode ODE of Sec. 2.1), and the
quantity the flow conserves, which keeps balanced weights balanced."""
from __future__ import annotations

import numpy as np
import sympy as sp
from hypothesis import strategies as st

import theoryverify as tv

from ..experiments.flow import run
from ..experiments.teacher import SIGMA11, examples, random_init, teacher
from ..model.symbolic import mode_reduction, numeric_gradients
from ..model.torch_net import autograd_gradients, example_loss
from ..printed import MEAN_RULE, MODE_ODE_RHS, W21, W32, Sigma11, Sigma31, s, u

CLAIMS = tv.ClaimSet("deeplinear")


def _weights_and_data(sizes):
    """Hypothesis strategy for (W1, W2, X, Y) of the given (inputs, hidden, outputs, examples); a failing draw
    shrinks entry by entry towards zeros and small integers."""
    n_in, n_h, n_out, n_ex = sizes
    shapes = ((n_h, n_in), (n_out, n_h), (n_in, n_ex), (n_out, n_ex))
    return st.tuples(*(tv.strategies.arrays(shape) for shape in shapes))


@CLAIMS.add("grad-autograd", location="Sec. 2, gradient descent on the squared error (updates of W21, W32)",
            statement="The gradients of ½ Σ_μ ‖y_μ − W32 W21 x_μ‖² derived in SymPy from the loss equal torch "
                      "autograd's on an independent model, at drawn weights and data",
            kind=tv.Kind.AUTOGRAD, params={"sizes": (3, 2, 3, 4), "n": 60},
            variants={"full": tv.Variant(params={"n": 400}, tags={"slow"})})
def grad_autograd(ctx):
    sizes, names = tuple(ctx.params["sizes"]), ("dL/dW21", "dL/dW32")
    sympy_grads = numeric_gradients(*sizes)
    return tv.check_agreement(lambda x: dict(zip(names, sympy_grads(*x))),
                              lambda x: dict(zip(names, autograd_gradients(*x))), _weights_and_data(sizes), ctx.seed,
                              rtol=1e-10, n=ctx.params["n"], names=("sympy", "autograd"),
                              describe=lambda x: dict(zip(("W21", "W32", "X", "Y"), (m.tolist() for m in x))))


def mean_rule(rule, task):
    """The printed averaged rule as the mean gradient: −(τ dW21/dt, τ dW32/dt) at the given weights."""
    rates = [sp.lambdify((W21, W32, Sigma11, Sigma31), r) for r in rule]
    return lambda w: {k: -f(w["W21"], w["W32"], SIGMA11, task.sigma31) for k, f in zip(("W21", "W32"), rates)}


@CLAIMS.add("grad-expected", location="Sec. 2, the learning rule averaged over examples (Σ11, Σ31)",
            statement="Averaged over examples with input correlation Σ11 and input-output correlation Σ31, minus the "
                      "per-example gradient of ½‖y − W32 W21 x‖² (torch autograd) is the printed W32ᵀ(Σ31 − W32 W21 "
                      "Σ11) for W21 and (Σ31 − W32 W21 Σ11) W21ᵀ for W32", kind=tv.Kind.AUTOGRAD,
            params={"weights": 2, "n": 40_000}, variants={"full": tv.Variant(params={"weights": 6, "n": 100_000},
                                                                              tags={"slow"})})
def grad_expected(ctx):
    task = teacher([3.0, 1.0, 0.3], ctx.seed)
    at = [dict(zip(("W21", "W32"), random_init(3, 2, 3, 0.5, ctx.seed + k))) for k in range(ctx.params["weights"])]
    return tv.check_mc_gradient(example_loss, mean_rule(MEAN_RULE, task), lambda rng, n: examples(task, rng, n), at,
                                ctx.seed, n=ctx.params["n"], resolution=0.1)


@CLAIMS.add("mode-ode", location="Sec. 2.1, mode ODE τ du/dt = 2u(s − u) (balanced a = b), from the flow of Sec. 2",
            statement="With whitened inputs, Σ31 = U S Vᵀ and weights W21 = R diag(a) Vᵀ, W32 = U diag(a) Rᵀ "
                      "aligned with its modes, the gradient flow keeps the network map Uᵀ W32 W21 V diagonal, and "
                      "each mode strength u = a² obeys the printed τ du/dt = 2u(s − u)",
            kind=tv.Kind.IDENTITY)
def mode_ode(ctx):
    m = mode_reduction()
    printed = sp.diag(*[MODE_ODE_RHS.xreplace({u: a ** 2, s: s_a}) for a, s_a in zip(m.a, m.s)])
    domain = tv.Domain([*(tv.Interval(a, -3, 3) for a in m.a), *(tv.LogUniform(x, 0.1, 10) for x in m.s),
                        *(tv.Interval(c, -3, 3) for c in m.angles)])
    return tv.check_identity(m.tau_dM, printed, domain, ctx.seed)


def balance(W1: np.ndarray, W2: np.ndarray) -> np.ndarray:
    """W21 W21ᵀ − W32ᵀ W32 (hidden × hidden); zero for balanced weights."""
    return W1 @ W1.T - W2.T @ W2


@CLAIMS.add("balance-conserved", location="Sec. 2, gradient flow of W21, W32 (keeps the a = b of Sec. 2.1)",
            statement="Along the gradient flow, W21 W21ᵀ − W32ᵀ W32 stays at its initial value, from any initial "
                      "weights (so balanced weights stay balanced)",
            kind=tv.Kind.DYNAMICS, params={"inits": 2, "t_end": 15.0, "scale": 0.5},
            variants={"full": tv.Variant(params={"inits": 6, "t_end": 40.0}, tags={"slow"})})
def balance_conserved(ctx):
    p = ctx.params
    parts = {}
    for k in range(p["inits"]):
        task = teacher([3.0, 1.0, 0.3], ctx.seed + k)
        W1, W2 = random_init(3, 2, 3, p["scale"], ctx.seed + 100 + k)
        r = run(task, W1, W2, p["t_end"], t_eval=np.linspace(0.0, p["t_end"], 301))
        Q = np.stack([balance(a, b) for a, b in zip(r.W1, r.W2)])
        moved = float(np.linalg.norm(r.W1[-1] - r.W1[0]) + np.linalg.norm(r.W2[-1] - r.W2[0]))
        parts[f"init {k} (weights move by {moved:.2g})"] = tv.combine(
            {f"Q[{i},{j}]": tv.check_conserved(r.t, Q[:, i, j], rtol=1e-8, name=f"Q[{i},{j}]")
             for i, j in ((0, 0), (0, 1), (1, 1))})
    return tv.combine(parts)
