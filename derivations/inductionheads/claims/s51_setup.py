"""Section 5.1: the setup of the optimisation analysis — the first layer (Eq. 9), the loss and its split per head
(Eq. 11; App. C 'the dynamics of […] and […] are decoupled'), and Training Stage I (Lemma 5.3, App. B).

Every formula of these locations is lost; the models are the RC-1/RC-6 reconstructions of :mod:`..model.alibi`,
:mod:`..model.stage1` and the six-parameter torch model :mod:`..model.torch_model`.  Verdicts are verdicts on the
reconstruction.  Each check takes the convention / constants as arguments so that the planted twins in
tests/inductionheads/test_stage1.py run the very same function (inclusive RC-1 convention, a too-small bound
constant, ...).

The split check (IH-E11-split) is built on the torch model and a SymPy per-sample model:

* [SI] per-sample loss ℓ = ½(TF_1 - y_1)² + ½(TF_2 - y_2)² with the first layer frozen at its
  limit (RC-9): every mixed second derivative ∂²ℓ/∂a∂b, a ∈ {p21, v1}, b ∈ {wK, wQ, v2}, is
  identically zero (SymPy, L = 4, 5; exact softmax and RC-12);
* [AG] torch.func.hessian of the Monte-Carlo loss on a fixed sample (L = 50): the head-1/head-2
  off-diagonal block is ≤ 1e-14 at random points, and the Jacobian of (L_G4, L_IH) has zero
  entries ∂L_G4/∂(head 2) and ∂L_IH/∂(head 1).
* Recorded (no verdict): which Stage-I terms depend on p1; the coupling in joint training.
"""
from __future__ import annotations

from typing import Callable, Sequence

import math

import numpy as np
import sympy as sp
import torch
from hypothesis import strategies as st

import theoryverify as tv
from theoryverify import (ClaimSet, Domain, Interval, Kind, Variant, Verdict, check_agreement, check_coefficient,
                          check_inequality, check_nonincreasing, check_rate, combine, holds, proved, refuted)

from ..experiments.support import fmt_signed
from ..model import alibi, stage1
from ..model import torch_model as M
from ..model.recon import record

from .. import hypotheses as HYP  # noqa: E402

CLAIMS = ClaimSet("inductionheads")

_p = sp.Symbol("p", real=True)
BASE = dict(alpha=0.5, w=0.3)


# --- IH-E9-layer1 ------------------------------------------------------------------------------------------

def layer1_bound_check(seed: int, convention: str = "causal", K: float = 2.0, rate: float = 1.0,
                       n_draws: int = 10_000):
    """|x̃_s − x_{s−1}| ≤ K e^{−rate·p1} max|x| (derived: K = 2, rate = 1).  The sup over sequences with
    max|x| = 1 is 2(1 − a_s) (a_s the previous-token weight), attained by x_{s−1} = 1, others −1; the
    symbolic side proves 2(1 − a_s(p)) ≤ K e^{−rate p} for s − 1 = 1..6; the numeric side draws random
    sequences and the extremal one."""
    parts = {}
    for nb in (2, 5):
        w = alibi.weights_sym(nb, _p, convention)
        a = w.get(1, sp.Integer(0))  # previous token = distance 1
        worst = 2 * (1 - a)
        parts[f"sup bound, {nb} earlier tokens"] = check_inequality(
            worst, "<=", K * sp.exp(-rate * _p), Domain([Interval(_p, 0.0, 12.0)]), seed + nb, tol=1e-12)
    rng = np.random.default_rng(seed)
    worst_excess, worst_case = -np.inf, None
    for _ in range(max(1, n_draws // 100)):
        L = int(rng.integers(3, 40))
        p1 = float(rng.uniform(0, 12))
        X = rng.uniform(-1, 1, size=(100, L))
        s = int(rng.integers(1, L))  # 0-based query with s earlier tokens
        X[0] = -1.0
        X[0, s - 1] = 1.0  # extremal sequence
        Xt = alibi.first_layer_np(X, p1, convention)
        dev = np.abs(Xt[:, 1:] - X[:, :-1]).max(1)
        bound = K * np.exp(-rate * p1) * np.abs(X).max(1)
        ex = dev - bound
        i = int(np.argmax(ex))
        if ex[i] > worst_excess:
            worst_excess, worst_case = float(ex[i]), {"L": L, "p1": p1, "deviation": float(dev[i]),
                                                       "bound": float(bound[i]), "sequence": X[i].tolist()}
    if worst_excess > 1e-12:
        parts["sequences"] = refuted("random + extremal sequences", f"bound violated by {worst_excess:.3g}",
                                     {**worst_case, "K": K, "rate": rate, "convention": convention})
    else:
        parts["sequences"] = holds("random + extremal sequences",
                                   f"{n_draws} sequences, max(deviation − bound) = {fmt_signed(worst_excess)} ≤ 0")
    return combine(parts)


def layer1_check(seed: int, convention: str = "causal", K: float = 2.0, rate: float = 1.0):
    """Eq. (9): x̃_s is the RC-1 Alibi average of the earlier tokens (vs torch_model.first_layer),
    tends to x_{s−1} as p1 → ∞ (symbolic limit), with the derived bound."""

    parts = {}
    xs = sp.symbols("x1:7", real=True)
    lim_ok, bad = True, None
    for s in range(2, 5):  # 1-based query s has s−1 earlier tokens
        w = alibi.weights_sym(s - 1, _p, convention)
        xt = sp.Add(*(w[j] * xs[s - 1 - j] for j in w if s - 1 - j >= 0))
        lim = sp.simplify(sp.limit(xt, _p, sp.oo))
        if sp.simplify(lim - xs[s - 2]) != 0:
            lim_ok, bad = False, {"s": s, "limit": str(lim), "expected": str(xs[s - 2]), "convention": convention}
            break
    parts["limit p1 → ∞"] = (proved("symbolic limit", "x̃_s → x_{s−1} for s = 2..4") if lim_ok else
                             refuted("symbolic limit", f"x̃_s does not tend to x_(s−1): {bad}", bad))

    def derived(x):
        L, p1, sd = x
        X = np.random.default_rng(sd).standard_normal((3, L))
        return alibi.first_layer_np(X, p1, convention)

    def reference(x):
        L, p1, sd = x
        X = torch.as_tensor(np.random.default_rng(sd).standard_normal((3, L)))
        return M.first_layer(X, p1, convention).numpy()

    parts["vs torch_model"] = check_agreement(derived, reference,
                                              st.tuples(st.integers(2, 30), st.floats(0, 12), st.integers(0, 10**6)),
                                              seed, rtol=1e-12, n=25, names=("alibi.first_layer_np", "torch_model.first_layer"))
    parts["bound"] = layer1_bound_check(seed, convention, K, rate, n_draws=2000)
    return combine(parts)


@CLAIMS.add("e9-layer1", location="Eq. (9), §5.1.2; consequence of Lemma 5.3", kind=Kind.IDENTITY,
            catalogue_id="IH-E9-layer1",
            statement="x̃_s is the RC-1 Alibi average of x_1..x_{s−1} and tends to x_{s−1} as p^(1) → ∞. "
                      "Derived bound: |x̃_s − x_{s−1}| ≤ 2(1 − a_s) max|x| ≤ 2 e^{−p^(1)} max|x| (a_s = previous-token "
                      "weight; the constant 2 and rate 1 are tight). Verdict on the reconstruction; the limit x̃_s → "
                      "x_{s−1} holds by the choice of RC-1 (strictly causal, chosen so that Lemma 5.3's limit selects the "
                      "previous token): the pass checks the implementation and the derived bound.",
            choices={**record("RC-1", "RC-6"), **{"bound": "2 e^{-p1} max|x| (derived)",
                                             "domain": "p1 in [0, 12], L in [3, 40], tokens in [-1, 1]"}})
def e9_layer1(ctx):
    return layer1_check(ctx.seed)


# --- IH-L53-stageI -----------------------------------------------------------------------------------------

def _stage1_autograd(seed: int, L: int, sigma: float, alpha: float, w: float):
    """G4 part: ∂/∂p1 of the exact expectation built from torch_model (coefficients of TF_1 read off by
    feeding the basis sequences) vs stage1's derivative; IH part: RC-12 closed form vs Monte Carlo of
    torch_model.losses(softmax='rc12', layer1='finite') within 3 SE (w = 0.2: finite variance needs 4w < 1)."""

    def reference(p1):
        P = M.init(sigma, p1=p1)
        P.p1 = P.p1.clone().requires_grad_(True)
        tf1, _ = M.forward(torch.eye(L, dtype=torch.float64), P, layer1="finite")
        e = tf1.clone()
        e = e - alpha * torch.nn.functional.one_hot(torch.tensor(L - 3), L).to(torch.float64)
        loss = 0.5 * (e ** 2).sum()
        (g,) = torch.autograd.grad(loss, P.p1)
        return [float(loss.detach()), float(g)]

    def derived(p1):
        return list(stage1.loss_stage1(p1, L, sigma, alpha, w, ih=False))

    ag = check_agreement(derived, reference, st.floats(0.0, 12.0), seed, rtol=1e-10, n=25,
                         names=("stage1 G4 (loss, d/dp1)", "torch autograd exact expectation"))
    wmc, n = 0.2, 100_000
    X = M.sample(n, L, seed)
    p1 = 0.7
    P = M.init(sigma, p1=p1)
    tf1, tf2 = M.forward(X, P, layer1="finite", softmax="rc12")
    y1, y2 = M.target(X, alpha, wmc, softmax="rc12")
    sq = (0.5 * (tf2 - y2) ** 2).numpy()
    mc, se = float(sq.mean()), float(sq.std(ddof=1) / np.sqrt(n))
    cf = stage1.ih_stage1(p1, L, sigma, alpha, wmc)[0]
    ok = abs(mc - cf) <= max(0.01 * abs(cf), 3 * se)
    mcv = (holds if ok else lambda m, e, **d: refuted(m, e, {"p1": p1, "L": L, "sigma": sigma, "alpha": alpha, "w": wmc,
                                                              "MC": mc, "SE": se, "closed form": cf}))(
        f"Monte Carlo n = {n}", f"L_IH^I(p1={p1}) closed form {cf:.6g} vs MC {mc:.6g} ± {se:.2g} (SE)")
    return combine({"G4 autograd": ag, "IH (RC-12) Monte Carlo": mcv})


def stage1_check(seed: int, *, Ls=(30,), sigma: float = 1e-2, t_end: float = 1e9, window=(1e6, 1e9),
                 convention: str = "causal", alpha: float = 0.5, w: float = 0.3, min_weight: float = 0.999,
                 slope: float = 1.0):
    """Lemma 5.3: p1(t) → ∞ under the Stage-I flow; growth p1 ≈ log t + log A_∞ (slope 1 in log t, derived);
    p1 non-decreasing; previous-token weight → 1.  The same function with convention="inclusive" is the
    planted twin (the limit then selects the current token)."""
    parts, traj = {}, {}
    for L in Ls:
        t, p = stage1.integrate_stage1(L, sigma, alpha, w, t_end, n_points=240, convention=convention)
        A = stage1.growth_constant(L, sigma, alpha, w) if convention == "causal" else float("nan")
        sel = (t >= window[0]) & (t <= window[1])
        fit = check_coefficient(np.log(t[sel]), p[sel], slope, 0.15, seed + L, index=1, param="log t",
                                what="p1", n_resamples=500, scale="log")
        parts[f"L={L}: slope of p1 vs log t"] = fit
        parts[f"L={L}: p1 non-decreasing"] = check_nonincreasing(t, -p, tol=1e-9, name="−p1")
        wt = stage1.previous_token_weight(p[-1], L, convention)
        ce = {"L": L, "sigma": sigma, "convention": convention, "t_end": t_end, "p1(t_end)": float(p[-1]),
              "previous-token weight": wt}
        parts[f"L={L}: previous-token limit"] = (
            holds("Stage-I flow", f"previous-token weight {wt:.6f} ≥ {min_weight} at t = {t_end:g} (p1 = {p[-1]:.3f})")
            if wt >= min_weight else
            refuted("Stage-I flow", f"previous-token weight {wt:.4g} < {min_weight} at t = {t_end:g}", ce))
        traj[L] = {"t": t, "p1": p, "A_inf": A, "log A_inf": float(np.log(A)) if A > 0 else None,
                   "intercept": fit.details["fit"]["coefficients"][0] if "fit" in fit.details else None}
    v = combine(parts)
    L0 = Ls[0]
    det = dict(v.details)
    det["trajectory"] = {"x": traj[L0]["t"][1:].tolist(), "series": {"p1": traj[L0]["p1"][1:].tolist(),
                         "log(1 + A_inf t)": np.log1p(traj[L0]["A_inf"] * traj[L0]["t"][1:]).tolist()
                         if np.isfinite(traj[L0]["A_inf"]) else []}, "boundaries": list(window)}
    det["growth"] = {str(L): {k: traj[L][k] for k in ("A_inf", "log A_inf", "intercept")} for L in Ls}
    return type(v)(v.status, v.method, v.evidence, v.counterexample, det)


def _ih_constant_part(L: int, sigma: float, alpha: float, w: float, seed: int = 0, n: int = 50_000):
    """The App. B 'constant' IH term: (RC-12) |L_IH^I(p1) − C_IH| ≤ σ³ on a p1 grid (C_IH = β²G(2w)/(2N) −
    σβG(w)/N + σ²/(2N)); (exact softmax, Monte Carlo with common random numbers) |L_IH^I(0) − L_IH^I(20)| ≤ σ³,
    against the G4 term's variation (order σ)."""

    c = stage1.ih_constant(L, sigma, alpha, w)
    grid = np.linspace(0, 20, 41)
    dev = max(abs(stage1.ih_stage1(p1, L, sigma, alpha, w)[0] - c) for p1 in grid)
    g4 = [stage1.loss_stage1(p1, L, sigma, alpha, w, ih=False)[0] for p1 in (0.0, 20.0)]
    parts = {}
    parts["RC-12 closed form"] = (
        holds("closed form on a p1 grid", f"max |L_IH^I(p1) − C_IH| = {dev:.3g} ≤ σ³ = {sigma**3:g} on p1 ∈ [0, 20] "
              f"(G4 term varies by {g4[0] - g4[1]:.3g})", C_IH=c, max_dev=dev, g4_variation=g4[0] - g4[1])
        if dev <= sigma**3 else
        refuted("closed form on a p1 grid", f"IH term varies by {dev:.3g} > σ³", {"L": L, "sigma": sigma, "max_dev": dev}))
    X = M.sample(n, L, seed)
    y2 = M.target(X, alpha, w, softmax="exact")[1]
    vals = []
    for p1 in (0.0, 20.0):
        tf2 = M.forward(X, M.init(sigma, p1=p1), layer1="finite", softmax="exact")[1]
        vals.append((0.5 * (tf2 - y2) ** 2).numpy())
    d = vals[0] - vals[1]
    dm, se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(n))
    ok = abs(dm) <= max(sigma**3, 3 * se)
    parts["exact softmax (MC, common random numbers)"] = (
        holds(f"Monte Carlo n = {n}", f"L_IH^I(0) − L_IH^I(20) = {dm:.3g} ± {se:.2g} (SE), ≤ σ³; G4 term varies by "
              f"{g4[0] - g4[1]:.3g}", ih_variation=dm, se=se, L_IH_exact=float(vals[0].mean()))
        if ok else refuted(f"Monte Carlo n = {n}", f"exact-softmax IH term varies by {dm:.3g} > σ³",
                           {"L": L, "sigma": sigma, "variation": dm, "SE": se}))
    return combine(parts)


_L53_STATEMENT = ("Lemma 5.3: under Training Stage I (only p^(1) trained, other parameters at σ_init), lim p^(1)(t) = +∞. "
                  "Derived: L^I(p1) = ½Σ_τ(c_τ(p1) − αδ_{τ,L−2})² + L_IH^I(p1), the IH term constant up to O(σ³) "
                  "(C_IH = β²(1−4w²)^{−1/2}/(2N) − σβ(1−w²)^{−1/2}/N + σ²/(2N)); ṗ1 ≈ A_∞ e^{−p1} ⇒ p1(t) ≈ log(A_∞ t) "
                  "(slope 1 in log t). Verdict on the reconstruction.")
_L53_CHOICES = {**record("RC-1", "RC-5", "RC-6", "RC-7", "RC-8", "RC-10", "RC-11", "RC-12", "RC-19"),
                **{"IH term": "RC-12 closed form (the exact-softmax term is not closed-form)",
                         "base point": "alpha* = 0.5, w* = 0.3", "window": "p1 vs log t fitted on t in [1e6, 1e9]",
                         "integrator": "LSODA in tau = log(1+t), rtol 1e-10, atol 1e-12",
                         "Stage-I duration": "T_I := first t with p1 = 1; derived T_I ≈ (e−1)/(σ α π_1(σ))"}}


def stage1_duration_sweep(seed: int, sigmas=(1e-1, 1e-2, 1e-3), Ls=(10, 30, 120), alpha: float = 0.5, w: float = 0.3):
    """T_I := first t with p1 = 1, against the derived T_I ≈ (e−1)/(σ α π_1(σ)): fitted exponent of
    T_I in the prediction (1 ± 0.15) and the closed form's constant (measured/predicted within ×1.1)."""
    rows = []
    for s in sigmas:
        for L in Ls:
            t, p = stage1.integrate_stage1(L, s, alpha, w, 1e9, n_points=600)
            T = float(np.interp(1.0, p, t))
            pred = (np.e - 1) / (s * alpha * alibi.weights_np(s, L - 1)[0])
            rows.append((s, L, T, pred))
    rows = np.array(rows)
    # the closed form carries its constant (e − 1): tested as a printed constant (issue 27, item 2)
    v = check_rate(rows[:, 3], rows[:, 2], 1.0, 0.15, seed, predicted=rows[:, 3], param="predicted T_I", what="T_I",
                   extra={"configurations": [{"alpha": alpha, "w": w, "sigma": float(r[0]), "L": int(r[1])} for r in rows],
                          "table": {"sigma": rows[:, 0].tolist(), "L": rows[:, 1].tolist(),
                                    "T_I": rows[:, 2].tolist(), "predicted": rows[:, 3].tolist(),
                                    "ratio": (rows[:, 2] / rows[:, 3]).tolist()}}, constant="printed")
    return v


#: (alpha*, L, sigma_init) of the Stage-I flow beside the base point: alpha*, L and sigma moved one at a time
L53_SPREAD = ((0.05, 30, 1e-2), (0.95, 30, 1e-2), (0.5, 10, 1e-2), (0.5, 120, 1e-2), (0.5, 30, 1e-1), (0.5, 30, 1e-4),
              (0.5, 30, 1e-6))


@CLAIMS.add("l53-stageI", main=True, location="Lemma 5.3, App. B", kind=Kind.DYNAMICS, catalogue_id="IH-L53-stageI",
            statement=_L53_STATEMENT + " Full profile: L ∈ {30, 60} to t = 1e9, and the Stage-I duration T_I (p1 = 1) "
                      "over σ ∈ {1e-1, 1e-2, 1e-3} × L ∈ {10, 30, 120} against the derived (e−1)/(σ α π_1(σ)). "
                      "The flow is checked for every α*, σ_init and L (α* ∈ {0.05, 0.5, 0.95}, L ∈ {10, 30, 120}, "
                      "σ ∈ {1e-1, …, 1e-6}, one moved at a time; log-t window scaled by 1/A_∞).",
            over=(tv.Over("alpha", 0.0, 1.0, text="alpha* in (0, 1) (RC-13)"),
                  tv.Over("sigma", 0.0, 1.0, scale="log", text="small initialisation sigma_init"),
                  tv.Over("L", 3.0, math.inf, scale="log", integer=True, text="sequence length L >= 3")), conditions=HYP.for_over((tv.Over("alpha", 0.0, 1.0, text="alpha* in (0, 1) (RC-13)"),
                  tv.Over("sigma", 0.0, 1.0, scale="log", text="small initialisation sigma_init"),
                  tv.Over("L", 3.0, math.inf, scale="log", integer=True, text="sequence length L >= 3"))),
            choices=_L53_CHOICES,
            params={"autograd_L": 12, "constant_Ls": (30,), "constant_n": 50_000, "flow_Ls": (30,), "duration": False},
            variants={"full": Variant(params={"autograd_L": 30, "constant_Ls": (30, 60), "constant_n": 200_000,
                                              "flow_Ls": (30, 60), "duration": True},
                                      tags={"slow"}, id="l53-stageI-full", expect=tv.Status.INCONCLUSIVE)})
# session 42 (issue 27, "weak passes impossible to hide"): full holds → inconclusive.  The Stage-I duration sweep did
# not record α*, σ, L, so the hypotheses declared in session 40 could not be checked on it (the full row ended in
# 'error').  Recorded, its L grid (30–120) spanned 0.6 decades; widened to L ∈ {10, 30, 120} (1.08 decades) the
# exponent agrees (b = 0.993, CI [0.981, 1.01]) but the printed constant (e − 1) is measured at ×1.066 (CI [1.031,
# 1.105]) — not resolved within ±10 %.  The quick variant (no duration part) still holds.
def l53_stage1(ctx):
    p, s = ctx.params, 1e-2
    consts = {f"L={L}": tv.with_fixed(_ih_constant_part(L, s, **BASE, seed=ctx.seed, n=p["constant_n"]),
                                      alpha=BASE["alpha"], sigma=s, L=L) for L in p["constant_Ls"]}
    parts = {"derivation (autograd + MC)": tv.with_fixed(_stage1_autograd(ctx.seed, p["autograd_L"], s, **BASE),
                                                         alpha=BASE["alpha"], sigma=s, L=p["autograd_L"]),
             "constant IH term": next(iter(consts.values())) if len(consts) == 1 else combine(consts),
             "flow": tv.with_fixed(stage1_check(ctx.seed, Ls=tuple(p["flow_Ls"]), sigma=s), alpha=BASE["alpha"],
                                   sigma=s, L=p["flow_Ls"][0])}
    # re-audit (issue 17): Lemma 5.3 is stated for every alpha*, sigma_init and L; the flow was checked at one point.
    # The log-t slope is asymptotic (p1 ~ log(A_inf t) once A_inf t >> 1, A_inf ∝ sigma), so the fit window and the
    # horizon scale with 1/A_inf: [1e2, 1e5]/A_inf (a fixed window [1e6, 1e9] sees slope 0.41 at sigma = 1e-6, where
    # A_inf t reaches only 17 — pre-asymptotic, not a counterexample: p1 still increases)
    for a, L, sg in L53_SPREAD:
        A = stage1.growth_constant(L, sg, a, BASE["w"])
        parts[f"flow alpha={a},L={L},sigma={sg:g}"] = tv.with_fixed(
            stage1_check(ctx.seed, Ls=(L,), sigma=sg, alpha=a, w=BASE["w"], t_end=1e5 / A, window=(1e2 / A, 1e5 / A)),
            alpha=a, sigma=sg, L=L)
    if p["duration"]:
        parts["duration"] = stage1_duration_sweep(ctx.seed)
    return combine(parts)


# --- IH-E11-split ------------------------------------------------------------------------------------------

IDX1 = [M.NAMES.index(n) for n in M.HEAD1]
IDX2 = [M.NAMES.index(n) for n in M.HEAD2]


# --- symbolic per-sample model ---------------------------------------------------------------------

def sympy_sample_loss(L: int, softmax: str = "exact"):
    """Per-sample ℓ(θ; x) of Eqs. (8)–(11) in SymPy (layer 1 at the RC-9 limit x̃_s = x_{s-1}).
    Returns (ℓ, x symbols, {name: symbol})."""
    x = sp.symbols(f"x1:{L + 1}", real=True)
    th = dict(zip(M.NAMES, sp.symbols("p1 p21 v1 wK wQ v2", real=True)))
    a, w = sp.symbols("alpha w", positive=True)
    xt = [0] + list(x[:-1])                                           # x̃_1 = 0, x̃_s = x_{s-1}
    pw = [sp.exp(-th["p21"] * (j - 1)) for j in range(1, L)]          # distances j = 1..L-1
    tf1 = th["v1"] * sum(pw[j - 1] * xt[L - 1 - j] for j in range(1, L)) / sum(pw)

    def attend(z):
        e = [sp.exp(zi) for zi in z]
        den = sum(e) if softmax == "exact" else sp.Integer(len(z))
        return [ei / den for ei in e]

    s_idx = range(1, L - 1)                                           # s = 2..L-1 (0-based 1..L-2)
    att = attend([th["wK"] * th["wQ"] * x[-1] * xt[s] for s in s_idx])
    tf2 = th["v2"] * sum(ai * x[s] for ai, s in zip(att, s_idx))
    tgt = attend([w * x[-1] * x[s - 1] for s in s_idx])
    y1, y2 = a * x[L - 3], (1 - a) * sum(ti * x[s] for ti, s in zip(tgt, s_idx))
    return sp.Rational(1, 2) * (tf1 - y1) ** 2 + sp.Rational(1, 2) * (tf2 - y2) ** 2, x, th


def symbolic_cross_block(L: int, softmax: str, loss=None) -> Verdict:
    """Every ∂²ℓ/∂a∂b (a head 1, b head 2) is identically 0 (SymPy, no simplification needed beyond
    differentiation; a non-zero remainder is evaluated at a rational point as counterexample)."""
    ell, x, th = sympy_sample_loss(L, softmax) if loss is None else loss
    nonzero = []
    for a in M.HEAD1:
        for b in M.HEAD2:
            d = sp.diff(ell, th[a], th[b])
            if d != 0 and sp.simplify(d) != 0:
                nonzero.append((a, b, d))
    if not nonzero:
        return proved("symbolic: sympy diff", f"per-sample ∂²ℓ/∂(head 1)∂(head 2) ≡ 0 (L = {L}, {softmax})")
    a, b, d = nonzero[0]
    pt = {s: sp.Rational(k + 2, 7) for k, s in enumerate(sorted(d.free_symbols, key=str))}
    return refuted("symbolic: sympy diff", f"∂²ℓ/∂{a}∂{b} is not identically zero (L = {L})",
                   {"L": L, "softmax": softmax, "pair": f"{a},{b}", "point": {str(k): str(v) for k, v in pt.items()},
                    "value": float(d.subs(pt))})


# --- autograd (MC loss on a fixed sample) --------------------------------------------------------------

def hessian(loss_fn: Callable[[torch.Tensor], torch.Tensor], theta: torch.Tensor) -> torch.Tensor:
    """6×6 Hessian of loss_fn at θ (torch.func.hessian, float64)."""
    return torch.func.hessian(loss_fn)(theta)


def cross_block_check(loss_fn: Callable, points: Sequence[torch.Tensor], tol: float = 1e-14,
                      rows: Sequence[int] = IDX1, cols: Sequence[int] = IDX2, label: str = "") -> Verdict:
    """max |H[rows, cols]| ≤ tol at every point (Hessian of the MC loss); refuted with the worst point."""
    worst, where, scale = 0.0, None, 0.0
    for th in points:
        H = hessian(loss_fn, th)
        blk = H[rows][:, cols].abs()
        scale = max(scale, float(H.abs().max()))
        if float(blk.max()) >= worst:
            worst, where = float(blk.max()), (th, blk)
    ev = f"{label}max |H_cross| = {worst:.3g} over {len(points)} points (tol {tol:g}; max |H| = {scale:.3g})"
    if worst <= tol:
        return holds(f"autograd: torch.func.hessian ({len(points)} points)", ev, max_cross=worst, max_entry=scale)
    th, blk = where
    i, j = divmod(int(torch.argmax(blk)), blk.shape[1])
    return refuted(f"autograd: torch.func.hessian ({len(points)} points)", ev,
                   {"theta": dict(zip(M.NAMES, th.tolist())), "entry": f"{M.NAMES[rows[i]]},{M.NAMES[cols[j]]}",
                    "value": float(blk[i, j])}, max_cross=worst)


def partial_dependence_check(X, alpha, w, points, tol: float = 1e-14, losses_fn: Callable = M.losses,
                             **kw) -> Verdict:
    """∂L_G4/∂(head 2) = 0 and ∂L_IH/∂(head 1) = 0 (Jacobian of the two partial losses ``losses_fn``)."""
    def both(theta):
        a, b = losses_fn(X, M.Params.from_vector(theta), alpha, w, **kw)
        return torch.stack([a, b])
    worst, at = 0.0, None
    for th in points:
        J = torch.func.jacrev(both)(th)
        v = max(float(J[0, IDX2].abs().max()), float(J[1, IDX1].abs().max()))
        if v >= worst:
            worst, at = v, th
    ev = f"max(|∂L_G4/∂head2|, |∂L_IH/∂head1|) = {worst:.3g} over {len(points)} points"
    if worst <= tol:
        return holds("autograd: torch.func.jacrev", ev, max_entry=worst)
    return refuted("autograd: torch.func.jacrev", ev, {"theta": dict(zip(M.NAMES, at.tolist())), "value": worst})


def random_points(seed: int, k: int, p1: float | None = None) -> list[torch.Tensor]:
    """k points in the spec §4.1 domains: p21 ∈ [0, 6], v1 ∈ [0, 1.5], v2 ∈ [0, 1.2], wK, wQ ∈ [0, 1]
    (so k = wK wQ ≤ 1), p1 ∈ [0, 6] (or fixed)."""
    rng = np.random.default_rng(seed)
    hi = {"p1": 6.0, "p21": 6.0, "v1": 1.5, "wK": 1.0, "wQ": 1.0, "v2": 1.2}
    out = []
    for _ in range(k):
        v = {n: rng.uniform(0, hi[n]) for n in M.NAMES}
        if p1 is not None:
            v["p1"] = p1
        out.append(torch.tensor([v[n] for n in M.NAMES], dtype=M.DTYPE))
    return out


def stage1_dependence(X, alpha, w, sigma: float, p1_values=(0.0, 1.0, 3.0)) -> dict:
    """Stage I (only p1 trained, RC-11 values for the rest): ∂L_G4/∂p1 and ∂L_IH/∂p1 on the sample (and
    ∂L_G4/∂p1 of the exact Gaussian expectation: the sample value is noise-dominated at σ_init ≪ 1), and
    the same with wK wQ = 0 (then head 2's keys drop out and L_IH is exactly constant in p1)."""
    out = {}
    for wk in (sigma, 0.0):
        rows = []
        for p1 in p1_values:
            th = M.init(sigma, p1=p1, device="cpu", wK=wk).vector().requires_grad_(True)
            lg, li = M.losses(X, M.Params.from_vector(th), alpha, w, layer1="finite")
            g1 = float(torch.autograd.grad(lg, th, retain_graph=True)[0][0])
            g2 = float(torch.autograd.grad(li, th)[0][0])
            pop = M.population_loss_g4(X.shape[1], M.Params.from_vector(th), alpha, layer1="finite")
            g1_pop = float(torch.autograd.grad(pop, th)[0][0])
            rows.append({"p1": p1, "dL_G4/dp1": g1, "dL_G4/dp1 (exact expectation)": g1_pop, "dL_IH/dp1": g2,
                         "ratio IH/G4": abs(g2) / abs(g1) if g1 else float("inf")})
        out[f"wK(0) = {wk:g}"] = rows
    return out


def joint_coupling(X, alpha, w, points) -> dict:
    """Joint training (p1 trainable, layer 1 finite): Hessian blocks head1×head2, p1×head1, p1×head2."""
    f = M.loss_of_vector(X, alpha, w, layer1="finite")
    blocks = {"head1 x head2": 0.0, "p1 x head1": 0.0, "p1 x head2": 0.0}
    for th in points:
        H = hessian(f, th).abs()
        blocks["head1 x head2"] = max(blocks["head1 x head2"], float(H[IDX1][:, IDX2].max()))
        blocks["p1 x head1"] = max(blocks["p1 x head1"], float(H[0, IDX1].max()))
        blocks["p1 x head2"] = max(blocks["p1 x head2"], float(H[0, IDX2].max()))
    return blocks


E11_CHOICES = {
    **record("RC-1", "RC-2", "RC-5", "RC-6", "RC-7", "RC-8", "RC-9", "RC-10", "RC-11", "RC-12"),
    "sample": "MC loss on a fixed sample: n = 1000 sequences, L = 50, tokens iid N(0,1); alpha* = 0.5, w* = 0.3",
    "points": "4 random points per configuration in the spec §4.1 domains (wK, wQ in [0, 1])",
    "configurations": "layer 1 frozen at the limit (RC-9) and at finite p1 = 2 (RC-9 alternative); exact softmax "
                      "and RC-12",
    "joint (recorded)": "Hessian with p1 trainable (layer 1 finite) on the first 300 sequences, 2 random points",
    "symbolic": "per-sample SymPy loss, L = 4, 5, exact softmax and RC-12",
    "tolerance": "cross block <= 1e-14 (spec)",
}


@CLAIMS.add("e11-split", location="Eq. (11), Sec. 5.1.3; App. C ('the dynamics of […] and […] are decoupled')",
            kind=Kind.AUTOGRAD, catalogue_id="IH-E11-split", choices=E11_CHOICES,
            statement="L = L_G4 + L_IH with one partial loss per output dimension; in Stage II each partial loss "
                      "depends only on its own head's parameters, so the Hessian block between {p21, v1} and "
                      "{wK, wQ, v2} vanishes (verdict on the reconstruction: the formulas are lost). In Stage II this is true by "
                      "construction of the reconstruction — each head writes its own output coordinate (RC-5, RC-7, "
                      "RC-8) — so the pass guards the implementation; the Stage-I and joint-training couplings through "
                      "p1 are measured and recorded.")
def e11_split(ctx) -> Verdict:
    X = M.sample(1000, 50, ctx.seed, "cpu")
    alpha, w = 0.5, 0.3
    parts = {f"sympy L={L} {sm}": symbolic_cross_block(L, sm) for L in (4, 5) for sm in ("exact", "rc12")}
    for i, (layer1, p1) in enumerate((("limit", None), ("finite", 2.0))):
        pts = random_points(ctx.seed + i, 4, p1=p1 if p1 is not None else 0.0)
        Xt = M.first_layer(X, p1 or 0.0, limit=(layer1 == "limit"))  # frozen first layer (Stage II)
        for sm in ("exact", "rc12"):
            kw = dict(layer1=layer1, softmax=sm, Xt=Xt)
            tag = f"{layer1} {sm}"
            parts[f"hessian {tag}"] = cross_block_check(M.loss_of_vector(X, alpha, w, **kw), pts, label=tag + ": ")
            parts[f"partials {tag}"] = partial_dependence_check(X, alpha, w, pts, **kw)
    v = combine(parts, method="Stage-II split:")
    st1 = stage1_dependence(X, alpha, w, sigma=1e-3)
    joint = joint_coupling(X[:300], alpha, w, random_points(ctx.seed + 9, 2))
    r0 = st1["wK(0) = 0.001"][0]
    note = (f" Stage I (recorded): both partial losses depend on p1 — L_G4 through head 1's x̃, L_IH through "
            f"head 2's keys x̃_s; at RC-11 init (σ = 1e-3, p1 = 0) |∂L_IH/∂p1| / |∂L_G4/∂p1| = "
            f"{r0['ratio IH/G4']:.2g} (exact-expectation ∂L_G4/∂p1 = {r0['dL_G4/dp1 (exact expectation)']:.3g}, "
            f"sample value {r0['dL_G4/dp1']:.3g}); L_IH is exactly constant in p1 only if wK(0)wQ(0) = 0. Joint training "
            f"(recorded): head1×head2 block stays {joint['head1 x head2']:.1g}, but p1 couples to both heads "
            f"(max |H[p1,head1]| = {joint['p1 x head1']:.2g}, |H[p1,head2]| = {joint['p1 x head2']:.2g}): the heads "
            f"interact only through p1, so the decoupling is not exact under joint training.")
    details = {**v.details, "stage I dependence": st1, "joint coupling": joint}
    return Verdict(v.status, v.method, v.evidence + note, v.counterexample, details)
