"""Sec. 5.1's sign claim on GD-reachable Q: g_k along gradient descent from Q = 0 (Eq. 8),
exact population loss (torch autograd), small K, N."""
from __future__ import annotations

import numpy as np

from theoryverify.claims import ClaimSet, Kind, Status
from theoryverify.findings import Finding
from theoryverify.verdicts import holds, refuted

from .draws import task_values
from .geometry import features
from .torch_model import population_grad

CLAIMS = ClaimSet("iclnonlinear")


def gd_min_gk(geometry: str, seed: int, steps: int = 60, eta: float = 0.5, K: int = 3, d: int = 4, N: int = 3,
              Delta: float = 2.0, law: str = "iid-normal", n_tasks: int = 2):
    """Run GD from Q = 0; return (min over t, k of g_k / max|g|, t, k, g_k, the config)."""
    rng = np.random.default_rng(seed)
    V = features(geometry, d, K, Delta, rng)
    p = np.full(K, 1.0 / K)
    tasks = np.stack([task_values(law, V, 1.0, Delta, rng) for _ in range(n_tasks)])
    Q = np.zeros((d, d))
    best = (np.inf, None, None, None)
    first_negative = None
    for t in range(steps):
        G = population_grad(Q, V, p, tasks, N)
        g = -(V.T @ G @ V).T
        scale = np.abs(g).max()
        if scale > 1e-12:
            k = int(np.argmin(np.diag(g)))
            r = g[k, k] / scale
            if r < best[0]:
                best = (r, t, k, g[k, k])
            if first_negative is None and r < -1e-12:
                first_negative = t
        Q = Q - eta * G
    return best, dict(first_negative_step=first_negative, geometry=geometry, seed=seed, K=K, d=d, N=N, Delta=Delta, eta=eta, task_law=law,
                      V=V.tolist(), tasks=tasks.tolist(), p=p.tolist())


def check_gd_sign(ctx, geometry: str, runs: int = 4, tol: float = 1e-12):
    worst = None
    for i in range(runs):
        (r, t, k, gk), cfg = gd_min_gk(geometry, ctx.seed + i)
        if worst is None or r < worst[0]:
            worst = (r, t, k, gk, cfg)
        if r < -tol:
            return refuted("GD from Q = 0, exact population gradient (autograd)",
                           f"g_{k + 1} = {gk:.3g} < 0 at step t = {t} (g_k / max|g| = {r:.3g}); first negative "
                           f"g_k at step {cfg['first_negative_step']}",
                           {**cfg, "t": t, "k": k + 1, "g_k": gk, "g_k/max|g|": r})
    return holds(f"GD from Q = 0, {runs} runs × 60 steps", f"min g_k / max|g| = {worst[0]:.3g} ≥ 0",
                 minimum=worst[0])


STATEMENT = "g_k ≥ 0 at every GD iterate Q^(t) from Q^(0) = 0 (Sec. 5.1: 'g_k is always non-negative')"


@CLAIMS.add("gk-sign-gd-orthonormal", location="Sec. 5.1, after Lemma 2", kind=Kind.DYNAMICS,
            catalogue_id="ICLN-L2-gk-sign", statement=STATEMENT + " — orthonormal features",
            choices={"run": "K = 3, d = 4, N = 3, η = 0.5, 60 steps, iid N(0, (LΔ)²) tasks (2 per D_f), L = 1"})
def gk_sign_gd_orthonormal(ctx):
    return check_gd_sign(ctx, "orthonormal")


@CLAIMS.add("gk-sign-gd-general", location="Sec. 5.1, after Lemma 2", kind=Kind.DYNAMICS,
            catalogue_id="ICLN-L2-gk-sign", statement=STATEMENT + " — general features",
            expect=Status.REFUTED, finding=Finding.ERRATUM,
            reason="for the non-orthogonal features the paper claims to cover, g_k = (GHG)_kk is negative on the GD "
                   "path from Q = 0 (first at step 0; g_2/max|g| = −0.33 at t = 59), so 'g_k is always non-negative' "
                   "and 'q_k increases' fail",
            choices={"run": "K = 3, d = 4, N = 3, Δ = 2, η = 0.5, 60 steps, iid N(0, (LΔ)²) tasks (2 per D_f), L = 1"})
def gk_sign_gd_general(ctx):
    return check_gd_sign(ctx, "general")
