"""The authors'-favour reading of the Θ lower sides of Eqs. 11–12 (referee 15): on GD iterates under task laws with
non-degenerate covariance the lower sides hold with the derived constant λ_min(E f fᵀ on 1^⊥)/(LΔ)²; the tie law of
prop1-attn (a point mass, degenerate) is what breaks them.  Its own module so that the results-store keys of the
modules it reads (prop1.py, verdicts.py: their source closures) stay unchanged."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

import theoryverify as tv

from . import dynamics
from ..model.geometry import in_F
from .prop1 import law_error
# ---- the authors'-favour reading of the Θ lower sides: task laws with non-degenerate covariance (referee 15) ----

def signed_permutation_law(K: int) -> tuple[np.ndarray, float, float]:
    """The task law 'f = (s_i f0_{π(i)})_i, π a uniform permutation and s uniform signs', f0 = (0, 1, …, K−1), on K
    orthonormal features (every distance √2): (its members (2^K·K! × K), E f fᵀ = σ² I with σ² = ‖f0‖²/K, and the
    law's Lipschitz constant L on V).  Every member is in F (finite-V Eq. 4, c_nd = 0.25 for K = 3: checked by the
    caller), and the covariance is non-degenerate: λ_min(E f fᵀ) = σ² > 0 — the law family on which the Θ lower sides
    of Eqs. 11–12 are claimed to hold (the tie law of prop1-attn is the degenerate counterpart)."""
    import itertools
    f0 = np.arange(K, dtype=float)
    members = np.array([np.array(s) * f0[list(pi)] for pi in itertools.permutations(range(K))
                        for s in itertools.product((1.0, -1.0), repeat=K)])
    L = float(np.abs(members[:, :, None] - members[:, None, :]).max() / np.sqrt(2.0))
    return members, float(f0 @ f0 / K), L


def nondegenerate_theta_ratios(K: int = 3, N: int = 30, steps: int = 400, every: int = 25) -> dict:
    """Along GD from Q = 0 (exact count enumeration, orthonormal features, p uniform) on the signed-permutation law
    (:func:`signed_permutation_law`), per record t ≥ 1: the Eq. 11 ratio L(P;Q)/(½Σ_k E[1{x_q=v_k}(1 − Attn_k)²]L²Δ²)
    and the Eq. 12 ratio g_1/(E[1{x_q=v_1}Attn_1(1 − Attn_1)²]L²Δ²).  The population loss sees the law only through
    E f fᵀ = σ² I (dynamics.py), so the run is the simulator's i.i.d. mode with that σ².  Derived floor of both
    ratios: σ²/(LΔ)² (u = e_k − Attn: uᵀ(σ² I)u = σ²‖u‖² ≥ σ²(1 − Attn_k)², and H_kk = σ²E[Attn_k‖u‖²])."""
    from ..model.families import attn_moment
    from ..printed import displays as printed
    members, s2, L = signed_permutation_law(K)
    V, p, D = np.eye(K), np.full(K, 1.0 / K), np.sqrt(2.0)
    eta = 10.0 / s2
    tr = dynamics.simulate([dynamics.Setting(gram=np.eye(K), p=p, eta=eta, N=N, exact=True, sigma2=s2)], steps,
                           record_every=every, keep_tables=True, device="cpu", desc="Θ lower, non-degenerate")
    t, r11, r12, attn = [], [], [], []
    for i, ti in enumerate(tr.t[1:], 1):
        q = tr.tables["q"][i, 0]
        x = {"q": q, "p": p, "tasks": [members[0]], "N": N}     # the cores do not depend on the task
        core11 = sum(attn_moment(x, k, lambda A, k=k: printed.eq11_core(A.T, k, L, D)) for k in range(K))
        core12 = attn_moment(x, 0, lambda A: printed.eq12_core(A.T, 0)) * L ** 2 * D ** 2
        t.append(int(ti))
        r11.append(law_error(q, p, s2 * np.eye(K), N) / core11)
        r12.append(float(tr.tables["g"][i, 0, 0, 0]) / core12)
        attn.append(float(tr.tables["attn"][i, 0, 0, 0]))
    return {"t": t, "eq11": r11, "eq12": r12, "K": K, "N": N, "eta": eta, "sigma2": s2, "L": L, "Delta": float(D),
            "floor": s2 / (L * D) ** 2, "E[Attn_1|x_q=v_1]": attn,
            "in_F (c_nd = 0.25)": bool(all(in_F(f, V, L, 0.25) for f in members)), "members": len(members)}


@lru_cache(maxsize=1)
def nondegenerate_runs(Ks: tuple = (3, 4)) -> tuple:
    """:func:`nondegenerate_theta_ratios` for each K (shared by the Eq. 11 and Eq. 12 claims of one run)."""
    return tuple(nondegenerate_theta_ratios(K=K) for K in Ks)


def nondegenerate_verdict(runs: list, key: str, what: str) -> tv.Verdict:
    """The authors'-favour reading of a Θ lower side (Eqs. 11–12): on GD iterates under a task law with non-degenerate
    covariance (``runs``: prop1.nondegenerate_theta_ratios, one per K) the ratio stays at or above the derived floor
    σ²/(LΔ)² at every record; refuted if it dips below (a model or derivation error), inconclusive if a law leaves F
    or the run never concentrates the attention (E[Attn_1|x_q=v_1] < 0.9 at the end: the regime where the
    degenerate laws break the bound is not reached)."""
    ce = {f"K = {d['K']}": {"N": d["N"], "eta": d["eta"], "sigma2": d["sigma2"], "L": d["L"], "Delta": d["Delta"],
                            "floor σ²/(LΔ)²": d["floor"], "t": d["t"], what: d[key],
                            "E[Attn_1|x_q=v_1]": d["E[Attn_1|x_q=v_1]"], "in F (c_nd = 0.25)": d["in_F (c_nd = 0.25)"],
                            "law members": d["members"]} for d in runs}
    law = ("GD from Q = 0 (exact count enumeration, orthonormal features, p uniform) under the signed-permutation task "
           "law of f0 = (0, 1, …, K−1) (every member in F; E f fᵀ = σ² I, non-degenerate)")
    if not all(d["in_F (c_nd = 0.25)"] for d in runs) or min(d["E[Attn_1|x_q=v_1]"][-1] for d in runs) < 0.9:
        return tv.inconclusive(law, "a law left F or the attention did not concentrate (E[Attn_1] < 0.9)", **ce)
    worst = min(runs, key=lambda d: min(d[key]) / d["floor"])
    i = int(np.argmin(worst[key]))
    if worst[key][i] < worst["floor"] * (1 - 1e-9):
        return tv.refuted(law, f"{what} = {worst[key][i]:.4g} < the derived floor σ²/(LΔ)² = {worst['floor']:.4g} at "
                               f"t = {worst['t'][i]}, K = {worst['K']}", ce)
    return tv.holds(law, "; ".join(f"K = {d['K']}: min_t {what} = {min(d[key]):.4g} ≥ σ²/(LΔ)² = {d['floor']:.4g} "
                                   f"over t = {d['t'][0]}…{d['t'][-1]} (E[Attn_1|x_q=v_1] → "
                                   f"{d['E[Attn_1|x_q=v_1]'][-1]:.3f})" for d in runs), **ce)
