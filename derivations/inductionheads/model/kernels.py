"""Lemma D.2 (App. D; = Lemma E.1 of Wang & E 2024, arXiv 2402.00522): sums of exponentials that
approximate the delta memory kernel δ_T(t) = I(t = T) on t ∈ N = {1, 2, …}.

Reading RC-15 (spec §2.3): φ_m(t) = Σ_{k=1}^m α_k e^{-β_k (t-1)} with 0 < β_k ≤ b_max, and
‖δ_T − φ_m‖_{ℓ1(N)} ≤ C(T, q) m^{-q} for every q.

Construction used here (a reconstruction; the lemma's proof is not available):

* nodes: β_k = b_max·k/m (k = 1..m), i.e. z_k = e^{-β_k} spread over [e^{-b_max}, e^{-b_max/m}];
* coefficients: the exact ℓ2(N) least-squares α.  With z_k = e^{-β_k} the Gram matrix of the
  sequences t ↦ z_k^{t-1} over all t ≥ 1 is the Cauchy/Szegő matrix G_{jk} = 1/(1 − z_j z_k) and the
  right-hand side is b_k = z_k^{T-1}, so the least-squares problem G α = b involves no truncation.
  It is solved in mpmath (``dps`` digits): G is exponentially ill-conditioned in m.
* the ℓ1 error is summed exactly for t ≤ t_max and the tail t > t_max is bounded by
  Σ_k |α_k| z_k^{t_max} / (1 − z_k) (reported; t_max is increased until the bound is ≤ 1e-6 of the sum).

The module also holds the first-layer attention identity used by Thm 4.3 (R2, v3 Thm C.2 Step 1):
a strictly causal Alibi head with slope β at a position with s' = s−1 earlier tokens has weights
e^{-β(j-1)}/Z_{s'}(β), Z_{s'}(β) = Σ_{f=1}^{s'} e^{-β(f-1)} = (1 − e^{-β s'})/(1 − e^{-β}).
"""
from __future__ import annotations

from dataclasses import dataclass

import mpmath as mp
import numpy as np

from .. import printed


@dataclass(frozen=True)
class KernelFit:
    """φ_m(t) = Σ α_k e^{-β_k (t-1)} fitted to δ_T (floats for reporting; ``alpha_mp`` exact)."""

    T: int
    m: int
    b_max: float
    alpha: tuple[float, ...]
    beta: tuple[float, ...]
    l1: float          # ‖δ_T − φ_m‖_{ℓ1(N)} (t ≤ t_max summed + tail bound)
    l2: float          # ‖δ_T − φ_m‖_{ℓ2(N)} exact (from the Gram form)
    tail_bound: float  # bound on Σ_{t > t_max} |φ_m(t)|
    t_max: int
    alpha_mp: tuple = ()

    @property
    def alpha_l1(self) -> float:
        return float(sum(abs(a) for a in self.alpha))

    @property
    def max_abs_alpha(self) -> float:
        return float(max(abs(a) for a in self.alpha))

    def values(self, t: np.ndarray) -> np.ndarray:
        """φ_m(t) in float64 (t ≥ 1)."""
        t = np.asarray(t, dtype=float)
        a, b = np.asarray(self.alpha), np.asarray(self.beta)
        return np.exp(-np.outer(t - 1, b)) @ a


def nodes(m: int, b_max: float) -> list:
    """The slopes β_k = b_max·k/m (k = 1..m) as mpmath numbers (all in (0, b_max])."""
    return [mp.mpf(b_max) * k / m for k in range(1, m + 1)]


def fit_delta(T: int, m: int, b_max: float, dps: int | None = None, rel_tail: float = 1e-6,
              betas=None) -> KernelFit:
    """Exact ℓ2(N) least-squares exponential sum for δ_T with slopes ``betas`` (default :func:`nodes`).

    ``dps`` (decimal digits) defaults to 40 + 1.5·b_max·m/ln 10: the Gram matrix's condition number and the
    cancellation in Σ α_k z_k^{t-1} grow like e^{b_max m}."""
    if T < 1 or m < 1:
        raise ValueError("need T >= 1 and m >= 1")
    if dps is None:
        dps = 40 + int(1.5 * float(b_max if betas is None else max(betas)) * m / 2.302585)
    with mp.workdps(dps):
        bs = [mp.mpf(b) for b in betas] if betas is not None else nodes(m, b_max)
        z = [mp.exp(-b) for b in bs]
        G = mp.matrix(m, m)
        for j in range(m):
            for k in range(m):
                G[j, k] = 1 / (1 - z[j] * z[k])
        rhs = mp.matrix([zk ** (T - 1) for zk in z])
        alpha = mp.lu_solve(G, rhs)
        alpha = [alpha[k] for k in range(m)]
        l2sq = 1 - mp.fsum(alpha[k] * rhs[k] for k in range(m))
        total, t = mp.mpf(0), 1
        while True:
            phi = mp.fsum(alpha[k] * z[k] ** (t - 1) for k in range(m))
            total += abs(phi - (1 if t == T else 0))
            tail = mp.fsum(abs(alpha[k]) * z[k] ** t / (1 - z[k]) for k in range(m))
            if t >= T and (tail <= rel_tail * total or tail < mp.mpf(10) ** (-dps + 5)):
                break
            t += 1
            if t > 200000:  # pragma: no cover - guard
                raise RuntimeError("l1 tail did not converge")
        return KernelFit(T, m, float(b_max) if betas is None else float(max(bs)),
                         tuple(float(a) for a in alpha), tuple(float(b) for b in bs),
                         float(total + tail), float(mp.sqrt(abs(l2sq))), float(tail), t, tuple(alpha))


def l1_curve(T: int, ms, b_max: float, dps: int = 60) -> list[KernelFit]:
    return [fit_delta(T, m, b_max, dps) for m in ms]


def local_slopes(ms, errors) -> np.ndarray:
    """Successive log-log slopes d log e / d log m between neighbouring grid points."""
    ms, e = np.asarray(ms, float), np.asarray(errors, float)
    return np.diff(np.log(e)) / np.diff(np.log(ms))


# --- the first-layer attention normaliser (R2; v3 Thm C.2 Step 1) -----------------------------------------

def normaliser(s_keys: int, beta: float) -> float:
    """Z_{s'}(β) = Σ_{f=1}^{s'} e^{-β(f-1)} (s' earlier tokens)."""
    return float(-np.expm1(-beta * s_keys) / -np.expm1(-beta))


def stationary_scale(beta: float) -> float:
    """Z_∞(β) = Σ_{f=1}^∞ e^{-β(f-1)} = 1/(1 − e^{-β}): the s-independent value scaling of the modified argument."""
    return float(1.0 / -np.expm1(-beta))


def printed_scale(beta: float, H_i: int) -> float:
    """The printed value scaling Σ_{f=0}^{H_i} e^{-β(f-1)} (R2, verbatim range f = 0..H_i; :mod:`.printed`)."""
    return printed.value_scale(beta, H_i)


def group_kernel(fit_alpha, fit_beta, s_keys: int, scale: str = "stationary", H_i: int | None = None) -> np.ndarray:
    """The kernel ψ(j), j = 1..s', that a group of causal Alibi heads applies at a position with s' earlier
    tokens when head h has value scaling c_h = α_h·scale(β_h) and attention e^{-β_h(j-1)}/Z_{s'}(β_h).

    ``scale``: "stationary" (Z_∞), "printed" (Σ_{f=0}^{H_i}), "none" (1)."""
    j = np.arange(1, s_keys + 1)
    out = np.zeros(s_keys)
    H_i = len(fit_alpha) if H_i is None else H_i
    for a, b in zip(fit_alpha, fit_beta):
        c = {"stationary": stationary_scale(b), "printed": printed_scale(b, H_i), "none": 1.0}[scale]
        out += a * c * np.exp(-b * (j - 1)) / normaliser(s_keys, b)
    return out


def periodized(fit_alpha, fit_beta, s_keys: int, n_wrap: int = 2000) -> np.ndarray:
    """Σ_{k≥0} φ(j + k s') for j = 1..s' (the aliasing identity of the stationary scaling)."""
    j = np.arange(1, s_keys + 1)
    out = np.zeros(s_keys)
    a, b = np.asarray(fit_alpha), np.asarray(fit_beta)
    for k in range(n_wrap):
        t = j + k * s_keys
        out += np.exp(-np.outer(t - 1, b)) @ a
    return out
