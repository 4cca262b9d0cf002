"""App. D useful inequalities: Lemma D.1 (softmax Lipschitz, recovered) and Def. D.5 / Lemma D.6
(weighted Karamata, conditions lost), as numeric objects plus the searches that test them.

Lemma D.1 (RECOVERED, R8).  The paper cites Edelman, Goel, Kakade, Zhang (2022), Cor. A.7; the
statement as quoted verbatim by Zhang et al., "LightTransfer" (TMLR, OpenReview kne4vWICr0), Lemma G.1
("Corollary A.7 in Edelman et al. (2022)"):  for any x, y ∈ R^d,
    ‖softmax(x) − softmax(y)‖_1 ≤ 2 ‖x − y‖_∞.
DERIVED sharp constant: by the mean-value theorem ‖σ(x) − σ(y)‖_1 ≤ sup_z ‖J(z)‖_{∞→1} ‖x − y‖_∞ with
J = diag(σ) − σσ^T; for ‖v‖_∞ ≤ 1, ‖Jv‖_1 = Σ_i σ_i |v_i − σ·v| is convex in v, maximal at v ∈ {±1}^d,
where it equals 4q(1 − q) ≤ 1 (q = σ-mass on +1).  So the sharp constant is 1 (approached as x − y → 0
along a balanced ±t split, never attained); the cited 2 holds with a factor-2 slack.

Def. D.5 (surviving text): "x weakly majorizes y if 1. [Σ_{i≤k} x_[i] ≥ Σ_{i≤k} y_[i]] for all [k], 2. […],
where x_[i], y_[i] are the components arranged in decreasing order."  Condition 2 is lost: either equal
totals (then it is majorisation) or Σ x ≥ Σ y (weak majorisation).  Lemma D.6 (surviving): "Let [f] be a
convex function, and let [x] and [y] be two vectors in [R^n]. If [x] weakly majorizes [y], and [w] are
non-negative weights such that [lost]" — conclusion lost; read as Σ w_i f(x_[i]) ≥ Σ w_i f(y_[i]).
"""
from __future__ import annotations

import math

import mpmath
import numpy as np

# ------------------------------------------------------------------------------------------------------
# Lemma D.1
# ------------------------------------------------------------------------------------------------------

LEMMA_D1 = ("||softmax(x) - softmax(y)||_1 <= 2 ||x - y||_inf for all x, y in R^d "
            "(Edelman et al. 2022, Cor. A.7; quoted as Lemma G.1 in Zhang et al., LightTransfer, TMLR)")
CITED_CONSTANT = 2.0


def softmax_np(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def lip_ratio(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """‖σ(x) − σ(y)‖_1 / ‖x − y‖_∞ (batched over leading axes; nan where x = y)."""
    num = np.abs(softmax_np(x) - softmax_np(y)).sum(-1)
    den = np.abs(x - y).max(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return num / den


def lip_ratio_mp(x, y, dps: int = 50) -> float:
    """The same ratio in 50-digit arithmetic (confirms a float64 candidate violation)."""
    with mpmath.workdps(dps):
        xs = [mpmath.mpf(float(t)) for t in x]
        ys = [mpmath.mpf(float(t)) for t in y]
        def sm(v):
            m = max(v)
            e = [mpmath.exp(t - m) for t in v]
            s = mpmath.fsum(e)
            return [t / s for t in e]
        a, b = sm(xs), sm(ys)
        num = mpmath.fsum(abs(p - q) for p, q in zip(a, b))
        den = max(abs(p - q) for p, q in zip(xs, ys))
        return float(num / den)


def lip_draws(rng: np.random.Generator, n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """About n pairs (x, y), batched by dimension d = 2..50 (arrays (m, d)), mixing five kinds: generic,
    near ties (entries rounded to a coarse grid + 1e-9 noise), large norms (scale up to 1e3), tiny to large
    differences t ∈ [1e-6, 30], and balanced ±t splits on a tie plateau (the sharp direction)."""
    out = []
    dims = np.arange(2, 51)
    m = max(5, int(math.ceil(n / len(dims))))
    for d in dims:
        kind = np.arange(m) % 5
        scale = 10 ** rng.uniform(-1, 3, size=(m, 1))
        x = rng.normal(size=(m, d)) * scale
        ties = kind == 1
        x[ties] = (np.round(x[ties] / scale[ties] * 2) * scale[ties] / 2
                   + rng.normal(size=(int(ties.sum()), d)) * 1e-9)
        v = rng.uniform(-1, 1, size=(m, d))
        split = kind == 4
        x[split] = rng.normal(size=(int(split.sum()), 1)) * scale[split]
        v[split] = np.where(rng.random((int(split.sum()), d)) < 0.5, 1.0, -1.0)
        t = 10 ** rng.uniform(-6, 1.5, size=(m, 1))
        out.append((x, x + t * v / np.abs(v).max(axis=1, keepdims=True)))
    return out


# ------------------------------------------------------------------------------------------------------
# Def. D.5 / Lemma D.6
# ------------------------------------------------------------------------------------------------------

def _softplus(z):
    return np.logaddexp(0.0, z)


#: f(t; a, c), a ∈ [0.1, 3], c ∈ [-2, 2].  Classes: convex & non-decreasing / convex / concave.
CONVEX_INCREASING = {
    "exp": lambda t, a, c: np.exp(a * (t - c)),
    "hinge": lambda t, a, c: a * np.maximum(t - c, 0.0),
    "softplus": lambda t, a, c: _softplus(a * (t - c)) / a,
    "linear": lambda t, a, c: a * t,
    "sq_hinge": lambda t, a, c: a * np.maximum(t - c, 0.0) ** 2,
}
CONVEX = {
    **CONVEX_INCREASING,
    "square": lambda t, a, c: a * (t - c) ** 2,
    "abs": lambda t, a, c: a * np.abs(t - c),
    "neg_linear": lambda t, a, c: -a * t,
    "exp_neg": lambda t, a, c: np.exp(-a * (t - c)),
}
CONCAVE_INCREASING = {
    "neg_exp_neg": lambda t, a, c: -np.exp(-a * (t - c)),
    "neg_softplus_neg": lambda t, a, c: -_softplus(-a * (t - c)) / a,
    "min": lambda t, a, c: a * np.minimum(t - c, 0.0),
}
CONCAVE = {**CONCAVE_INCREASING, "neg_square": lambda t, a, c: -a * (t - c) ** 2,
           "neg_abs": lambda t, a, c: -a * np.abs(t - c)}
FUNCTION_CLASSES = {"convex increasing": CONVEX_INCREASING, "convex": CONVEX,
                    "concave increasing": CONCAVE_INCREASING, "concave": CONCAVE}


def majorising_pairs(rng: np.random.Generator, m: int, n: int, totals: str) -> tuple[np.ndarray, np.ndarray]:
    """m pairs (x, y) of length n with x (weakly) majorising y: y arbitrary; partial sums X_k = Y_k + c_k
    (c_k ≥ 0; c_n = 0 for ``totals="equal"``), x_k = X_k − X_{k−1}; sorting x decreasingly only raises its
    partial sums, so Def. D.5 condition 1 holds and the totals are as requested.  Some c_k are zeroed
    (boundary cases).  Rows are returned in random order."""
    y = rng.normal(size=(m, n)) * 10 ** rng.uniform(-1, 1, size=(m, 1))
    Y = np.cumsum(-np.sort(-y, axis=1), axis=1)
    c = np.abs(rng.normal(size=(m, n))) * 10 ** rng.uniform(-2, 0.5, size=(m, 1))
    c[rng.random((m, n)) < 0.3] = 0.0
    if totals == "equal":
        c[:, -1] = 0.0
    elif totals != "weak":
        raise ValueError("totals must be 'equal' or 'weak'")
    x = np.diff(np.concatenate([np.zeros((m, 1)), Y + c], axis=1), axis=1)
    return rng.permuted(x, axis=1), rng.permuted(y, axis=1)


def weights(rng: np.random.Generator, m: int, n: int, order: str) -> np.ndarray:
    """(m, n) non-negative weights, paired with decreasingly ordered components."""
    w = np.abs(rng.normal(size=(m, n))) * 10 ** rng.uniform(-1, 1, size=(m, 1))
    w[rng.random((m, n)) < 0.2] = 0.0
    if order == "decreasing":
        return -np.sort(-w, axis=1)
    if order == "increasing":
        return np.sort(w, axis=1)
    if order == "uniform":
        return np.ones((m, n))
    if order == "any":
        return w
    raise ValueError(order)


def weakly_majorises(x: np.ndarray, y: np.ndarray, totals: str, tol: float = 1e-9) -> bool:
    X, Y = np.cumsum(np.sort(x)[::-1]), np.cumsum(np.sort(y)[::-1])
    scale = 1.0 + np.abs(X).max() + np.abs(Y).max()
    ok = bool(np.all(X[:-1] >= Y[:-1] - tol * scale))
    if totals == "equal":
        return ok and abs(X[-1] - Y[-1]) <= tol * scale
    return ok and X[-1] >= Y[-1] - tol * scale


def karamata_slack(f, a, c, x: np.ndarray, y: np.ndarray, w: np.ndarray):
    """(Σ w_i f(x_[i]) − Σ w_i f(y_[i]), scale) with components in decreasing order (Lemma D.6 reading);
    batched over leading axes (a, c broadcast as (m, 1))."""
    xs, ys = -np.sort(-x, axis=-1), -np.sort(-y, axis=-1)
    fx, fy = f(xs, a, c), f(ys, a, c)
    return (w * fx).sum(-1) - (w * fy).sum(-1), (w * (np.abs(fx) + np.abs(fy))).sum(-1) + 1.0


#: the readings of Def. D.5 cond. 2 × Lemma D.6 hypotheses that are searched (name → (totals, f class, weights)).
READINGS = {
    "majorisation, convex f, uniform weights (classical Karamata)": ("equal", "convex", "uniform"),
    "weak majorisation, convex non-decreasing f, non-increasing weights (spec candidate)":
        ("weak", "convex increasing", "decreasing"),
    "weak majorisation, convex f (as the text survives), non-increasing weights": ("weak", "convex", "decreasing"),
    "majorisation, convex f, non-increasing weights": ("equal", "convex", "decreasing"),
}
#: readings the search must refute (negative controls: the hypotheses they drop are needed).
CONTROLS = {
    "weak majorisation, convex f (as the text survives), non-increasing weights": ("weak", "convex", "decreasing"),
    "majorisation, convex f, non-increasing weights": ("equal", "convex", "decreasing"),
    "weak majorisation, convex non-decreasing f, non-decreasing weights (ordering violated)":
        ("weak", "convex increasing", "increasing"),
}
#: readings expected to hold (standard results: Karamata; Tomić–Weyl with Abel summation over the weights).
HOLDING = {k: v for k, v in READINGS.items() if k not in CONTROLS}
