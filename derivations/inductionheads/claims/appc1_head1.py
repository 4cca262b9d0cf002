"""App. C.1: head 1 (the 4-gram head) in Training Stage II (Eqs. 19–21) and Thm 5.5 Phase IV.

All printed formulas of App. C.1 are lost; the closed forms here are DERIVED in :mod:`..model.head1` from the
RC-1/RC-5/RC-6/RC-7/RC-9/RC-10 reconstruction and tested three ways (SymPy token-level derivation ==
closed form == Monte Carlo of torch_model == torch autograd of an exact expectation).  Verdicts are
verdicts on the reconstruction.  Derived results (q = e^{−p}, M = L−1, r(q) = (1−q)/(1+q)):

* L_G4 = ½[v1² S/Z² − 2α v1/Z + α²], Z = (1−q^M)/(1−q), S = (1−q^{2(M−1)})/(1−q²)            (IH-CF-G4)
* L → ∞: L_∞ = ½ r u² + ½ α² q²,  u = v1 − α(1+q)  (u: distance to the v1-nullcline;
  q: the "high-order" variable; min_v1 L_∞ = ½α²q²)                                         (IH-CF-G4-decomp)
* stable region after T1: R = {0 ≤ u ≤ α q (1+q)} = {α(1+q) ≤ v1 ≤ α(1+q)²}: forward-invariant, with
  ṗ ≥ 0 and v̇1 ≤ 0 there (L_∞ flow)                                                          (IH-C1-lyap)
* T1 := first time ∂L/∂v1 = 0;  α·T1 = log(1/σ) + O(1) (σ ≫ 1/M),  α·T1 = log M + O(1) (σ ≪ 1/M)   (IH-C1-T1)
* Phase IV: on the slow manifold ṗ = α² q², so q(t)^{−2} ≈ 2α² t and L_G4(t) ≈ ½α² q² → 1/(4t),
  a power law with exponent −1 and prefactor 1/4 independent of α*, L and σ_init              (IH-T55-conv-G4)
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
from hypothesis import strategies as st

import theoryverify as tv
from theoryverify import (ClaimSet, Domain, Interval, Kind, Variant, Verdict, check_agreement,
                          check_coefficient, check_identity, check_nonincreasing, check_rate, combine, compare_laws,
                          holds, inconclusive, prove_nonpositive, refuted)

from ..experiments import flow, markers
from ..model import head1 as H
from ..model import torch_model as TM
from ..model.recon import record


def _cached(claim: str | None, name: str, fn, **config):
    """``fn(**config)`` through the results store (full sweeps > 1 min resume), or directly when claim is None;
    keyed by the claim, ``name``, the source closure of ``fn`` and the configuration."""
    if claim is None:
        return fn(**config)
    key = {"claim": claim, "what": name, "code": tv.code_key(fn)}
    return tv.sweep(tv.Store(), key, [config], lambda c: fn(**c), desc=f"{claim} {name}")[0]


def _T1(alpha, L, sigma, claim=None):
    return _cached(claim, "T1", lambda alpha, L, sigma: H.hitting_time_T1(alpha, L, sigma),
                   alpha=float(alpha), L=int(L), sigma=float(sigma))

from .. import hypotheses as HYP  # noqa: E402

CLAIMS = ClaimSet("inductionheads")

CHOICES = {**record("RC-1", "RC-5", "RC-6", "RC-7", "RC-9", "RC-10", "RC-11", "RC-19"),
           "tokens": "iid N(0,1), d = 1 (RC-2)"}
DOM = Domain([Interval(H.p, 0.0, 6.0), Interval(H.v1, 0.0, 1.5), Interval(H.alpha, 0.05, 0.95)])


# --- IH-CF-G4 ----------------------------------------------------------------------------------------------

def closed_form_identity(seed: int, Ls=(4, 7), closed=None) -> Verdict:
    """[SI] token-level SymPy derivation == closed form (``closed(L)``; default :func:`head1.loss_g4_closed`)."""
    closed = closed or H.loss_g4_closed
    return combine({f"L={L}": check_identity(H.loss_g4_sym(L), closed(L), DOM, seed + L, rtol=1e-10,
                                             n_rational=4, n_float=30, symbolic_seconds=2.0) for L in Ls})


def numeric_vs_closed(seed: int, n: int = 40) -> Verdict:
    """[NI] the float64 implementation (sum of squares, overflow-safe) vs the closed form at 50 digits."""
    import mpmath

    f = sp.lambdify((H.p, H.v1, H.alpha, H.Lsym), H.loss_g4_closed(), "mpmath")

    def derived(x):
        return float(H.loss_g4(*x))

    def reference(x):
        with mpmath.workdps(50):
            return float(f(mpmath.mpf(x[0]) + mpmath.mpf("1e-40"), x[1], x[2], x[3]))

    strat = st.tuples(st.floats(0.0, 50.0), st.floats(0.0, 1.5), st.floats(0.05, 0.95), st.integers(5, 400))
    return check_agreement(derived, reference, strat, seed, rtol=1e-10, n=n, names=("head1.loss_g4", "closed form (50 digits)"))


def _mc_point(seed: int, p: float, v1: float, alpha: float, L: int, n: int) -> list[float]:
    """(mean, SE) of ½(TF_1 − α x_{L−2})² over n torch_model sequences (layer 1 at its RC-9 limit)."""

    P = TM.init(0.0, p21=p, v1=v1)
    acc = []
    for c in range(0, n, 50_000):
        X = TM.sample(min(50_000, n - c), L, seed + c)
        tf1, _ = TM.forward(X, P, layer1="limit")
        acc.append((0.5 * (tf1 - alpha * X[:, L - 3]) ** 2).numpy())
    sq = np.concatenate(acc)
    return [float(sq.mean()), float(sq.std(ddof=1) / np.sqrt(sq.size))]


def monte_carlo(seed: int, points, n: int, formula=None, claim: str | None = None) -> Verdict:
    """[NI] Monte Carlo of ½E(TF_1 − α x_{L−2})² with torch_model (layer 1 at its RC-9 limit) vs the
    closed form: |MC − formula| ≤ max(1%·formula, 3 SE).  ``formula(p, v1, α, L)`` defaults to head1.loss_g4."""
    formula = formula or H.loss_g4
    rows, bad = [], None
    for i, (pp, vv, aa, L) in enumerate(points):
        mc, se = _cached(claim, "MC", _mc_point, seed=seed + 1000 * i, p=float(pp), v1=float(vv), alpha=float(aa),
                         L=int(L), n=int(n))
        cf = float(formula(pp, vv, aa, L))
        row = {"p": pp, "v1": vv, "alpha": aa, "L": L, "MC": mc, "SE": se, "formula": cf}
        rows.append(row)
        if abs(mc - cf) > max(0.01 * abs(cf), 3 * se) and bad is None:
            bad = row
    if bad:
        return refuted(f"Monte Carlo, {n} sequences per point", f"|MC − formula| = {abs(bad['MC'] - bad['formula']):.3g} "
                       f"> max(1%, 3 SE = {3 * bad['SE']:.3g})", bad, points=rows)
    return holds(f"Monte Carlo, {n} sequences per point", f"{len(rows)} points agree within max(1%, 3 SE); "
                 f"max |MC − formula|/SE = {max(abs(r['MC'] - r['formula']) / r['SE'] for r in rows):.2f}", points=rows)


def autograd(seed: int, Ls=(6, 40), n: int = 20, grad=None) -> Verdict:
    """[AG] torch autograd of the exact expectation built from torch_model's head 1 (TF_1 is linear in the
    tokens: its coefficients are TF_1 of the basis sequences e_1..e_L, and ½E(·)² = ½Σ coefficients²) vs
    the SymPy gradient of the token-level derivation (L = 6) and vs head1.grad_g4 (L = 40), rtol 1e-10."""
    import torch

    def reference(L):
        def f(x):
            pp, vv, aa = x
            P = TM.init(0.0, p21=pp, v1=vv)
            P.p21 = P.p21.clone().requires_grad_(True)
            P.v1 = P.v1.clone().requires_grad_(True)
            tf1, _ = TM.forward(torch.eye(L, dtype=torch.float64), P, layer1="limit")
            e = tf1 - aa * torch.eye(L, dtype=torch.float64)[L - 3]
            gp, gv = torch.autograd.grad(0.5 * (e ** 2).sum(), (P.p21, P.v1))
            return [float(gp), float(gv)]
        return f

    parts = {}
    strat = st.tuples(st.floats(0.0, 6.0), st.floats(0.0, 1.5), st.floats(0.05, 0.95))
    for L in Ls:
        if grad is not None:
            derived = lambda x, L=L: list(grad(x[0], x[1], x[2], L))  # noqa: E731
            name = "planted gradient"
        elif L <= 8:
            gs = [sp.lambdify((H.p, H.v1, H.alpha), g) for g in H.grad_sym(H.loss_g4_sym(L))]
            derived = lambda x, gs=gs: [g(*x) for g in gs]  # noqa: E731
            name = f"SymPy gradient (token-level, L={L})"
        else:
            derived = lambda x, L=L: [float(g) for g in H.grad_g4(x[0], x[1], x[2], L)]  # noqa: E731
            name = f"head1.grad_g4 (L={L})"
        parts[f"L={L}"] = check_agreement(derived, reference(L), strat, seed + L, rtol=1e-10, n=n,
                                          names=(name, "torch autograd"))
    return combine(parts)


_CF_STATEMENT = ("App. C.1, Eq. (19): explicit L_G4 and its GF (printed form lost). Derived: "
                 "L_G4(p, v1) = ½[v1² S/Z² − 2α v1/Z + α²], q = e^{−p}, Z = (1−q^{L−1})/(1−q), "
                 "S = (1−q^{2(L−2)})/(1−q²); equivalently ½[(v1π_1 − α)² + v1² Σ_{j=2}^{L−2} π_j²]. "
                 "GF: ṗ = −∂_pL, v̇1 = −∂_{v1}L. Verdict on the reconstruction.")
_CF_CHOICES = {**CHOICES, "auxiliary functions": "the derivation needs Z(q) (normaliser) and S(q) (sum of squared "
               "weights): the natural counterparts of the paper's two auxiliary functions (their forms are lost)",
               "Lemmas D.3/D.4": "only E x_i x_k = δ_ik is needed (head 1 is linear in the tokens)"}


CF_QUICK = dict(sym_Ls=(5,), n_float=25, mc="fixed", mc_n=20_000, mc_store=None, ag_Ls=(6, 40), ag_n=12)
CF_FULL = dict(sym_Ls=(3, 4, 7, 10), n_float=200, mc="random", mc_n=400_000, mc_store="inductionheads.cf-g4-full",
               ag_Ls=(5, 8, 100, 400), ag_n=40)


@CLAIMS.add("cf-g4", location="App. C.1, Eq. (19)", kind=Kind.IDENTITY, catalogue_id="IH-CF-G4",
            statement=_CF_STATEMENT + " Full profile: Monte Carlo at 4e5 sequences at 8 random points of the §4.1 domains.",
            choices=_CF_CHOICES, params=CF_QUICK,
            variants={"full": Variant(params=CF_FULL, tags={"slow"}, id="cf-g4-full")})
def cf_g4(ctx):
    c = ctx.params
    if c["mc"] == "fixed":
        pts = [(0.3, 0.8, 0.5, 10), (2.0, 1.2, 0.3, 50), (5.0, 0.4, 0.9, 7)]
    else:
        rng = np.random.default_rng(ctx.seed)
        pts = [(float(rng.uniform(0, 6)), float(rng.uniform(0, 1.5)), float(rng.uniform(0.05, 0.95)),
                int(rng.integers(5, 401))) for _ in range(8)]
    return combine({"[SI] token derivation == closed form": closed_form_identity(ctx.seed, Ls=tuple(c["sym_Ls"])),
                    "[NI] float64 == closed form": numeric_vs_closed(ctx.seed, n=c["n_float"]),
                    "[NI] Monte Carlo": monte_carlo(ctx.seed, pts, c["mc_n"], claim=c["mc_store"]),
                    "[AG] autograd": autograd(ctx.seed, Ls=tuple(c["ag_Ls"]), n=c["ag_n"])})


# --- IH-CF-G4-decomp ---------------------------------------------------------------------------------------

_eps = sp.Symbol("epsilon", nonnegative=True)


def decomposition_check(seed: int, decomposed=None) -> Verdict:
    """[SI] (a) L_G4(finite L) → L_∞ when q^L → 0: substitute q^{L−1} = ε·… and set ε = 0 (symbolic);
    (b) L_∞ = ½ r u² + ½α²q² (``decomposed``; the planted twin passes a wrong one); (c) min_v1 L_∞ = ½α²q²."""
    q, v, a = H.q, H.v1, H.alpha
    Z = (1 - _eps) / (1 - q)  # ε = q^M
    S = (1 - _eps**2 / q**2) / (1 - q**2)  # q^{2(M−1)} = ε²/q²
    fin = sp.Rational(1, 2) * (v**2 * S / Z**2 - 2 * a * v / Z + a**2)
    lim = sp.simplify(fin.subs(_eps, 0) - H.loss_g4_inf())
    dq = Domain([Interval(q, 0.0, 1.0), Interval(v, 0.0, 1.5), Interval(a, 0.05, 0.95)])
    parts = {"(a) L → ∞": (check_identity(fin.subs(_eps, 0), H.loss_g4_inf(), dq, seed, rtol=1e-10, n_rational=4, n_float=20)
                           if lim != 0 else check_identity(fin.subs(_eps, 0), H.loss_g4_inf(), dq, seed, rtol=1e-10))}
    dec = H.loss_g4_inf_decomposed() if decomposed is None else decomposed
    parts["(b) decomposition"] = check_identity(H.loss_g4_inf(), dec, dq, seed + 1, rtol=1e-10, n_rational=6, n_float=30)
    vstar = sp.solve(sp.diff(H.loss_g4_inf(), v), v)
    parts["(c) min over v1"] = check_identity(H.loss_g4_inf().subs(v, vstar[0]), a**2 * q**2 / 2, dq, seed + 2,
                                              rtol=1e-10, n_rational=4, n_float=20)
    # numeric: finite-L form approaches L_∞ with error O(q^{L-2})
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(200):
        pp, vv, aa, L = rng.uniform(0.05, 6), rng.uniform(0, 1.5), rng.uniform(0.05, 0.95), int(rng.integers(5, 400))
        err = abs(H.loss_g4(pp, vv, aa, L) - H.loss_g4_inf_np(pp, vv, aa))
        worst = max(worst, err / (4 * (1 + vv) ** 2 * np.exp(-pp * (L - 2)) + 1e-15))
    parts["(d) finite-L gap ≤ 4(1+v1)² q^{L−2}"] = (holds("200 random points", f"max gap / bound = {worst:.3g} ≤ 1")
                                                   if worst <= 1 else
                                                   inconclusive("200 random points", f"gap/bound = {worst:.3g} > 1 "
                                                                "(the stated gap bound is only indicative)"))
    parts["(e) stable region R invariant"] = stable_region_invariance()
    parts["(f) trajectories after T1 stay in R"] = stable_region_numeric([(0.5, 100, 1e-3)])
    return combine(parts)


def stable_region_invariance() -> Verdict:
    """R = {0 ≤ u ≤ αq(1+q)} is forward-invariant for the L_∞ flow (symbolic): on u = 0, u̇ = α³q³ ≥ 0;
    on u = αq(1+q) (where ṗ = 0), u̇ = −r u ≤ 0.  Inside R: ṗ ≥ 0 and v̇1 = −r u ≤ 0 (IH-C1-lyap)."""
    q, a = sp.symbols("q alpha", positive=True)
    Linf = H.loss_g4_inf().subs({H.q: q, H.alpha: a})
    vdot = -sp.diff(Linf, H.v1)
    qdot = -q**2 * sp.diff(Linf, q)
    udot = vdot - a * qdot
    box = {q: (0, 1), a: (0, 1)}
    lower = prove_nonpositive(sp.simplify(-udot.subs(H.v1, a * (1 + q))), box)
    upper = prove_nonpositive(sp.simplify(udot.subs(H.v1, a * (1 + q) ** 2)), box)
    if lower is not None and upper is not None:
        return combine({"u = 0: u̇ ≥ 0": lower, "u = αq(1+q): u̇ ≤ 0": upper})
    return inconclusive("symbolic", "prove_nonpositive undecided on a boundary of R")


def stable_region_numeric(grid, t_end: float = 1e6, tol: float = 1e-9) -> Verdict:
    """Along finite-L trajectories, after T1: −tol ≤ u ≤ αq(1+q) + tol (u = v1 − α(1+q), q = e^{−p})."""
    worst = None
    for (a, L, s) in grid:
        T1 = H.hitting_time_T1(a, L, s)
        t, p, v = H.integrate_head1(a, L, s, t_end, n_points=300)
        sel = t >= T1
        qq = np.exp(-p[sel])
        u = v[sel] - a * (1 + qq)
        lo, hi = float(np.min(u)), float(np.max(u - a * qq * (1 + qq)))
        if lo < -tol or hi > tol:
            worst = {"alpha": a, "L": L, "sigma": s, "min u": lo, "max(u − αq(1+q))": hi}
            break
    if worst:
        return refuted("head-1 flow", "trajectory leaves R after T1", worst)
    return holds("head-1 flow", f"{len(grid)} trajectories stay in R on [T1, {t_end:g}] (tol {tol:g})")


@CLAIMS.add("cf-g4-decomp", location="App. C.1 Part II (the transform; the high-order variable)", kind=Kind.IDENTITY,
            catalogue_id="IH-CF-G4-decomp",
            statement="L → ∞ form of L_G4 and a change of variables that separates it (the paper's transform is lost). "
                      "Derived: L_∞ = ½[v1² r − 2αv1(1−q) + α²] = ½ r(q) u² + ½ α² q², q = e^{−p}, r = (1−q)/(1+q), "
                      "u = v1 − α(1+q) (distance to the v1-nullcline); q is the high-order variable, min_v1 L_∞ = ½α²q². "
                      "Verdict on the reconstruction.",
            choices={**CHOICES, "transform": "(p, v1) -> (q, u) = (e^{-p}, v1 - alpha(1+e^{-p}))",
                     "stable region": "R = {0 <= u <= alpha q (1+q)}: p non-decreasing, v1 non-increasing (IH-C1-lyap)"})
def cf_g4_decomp(ctx):
    return decomposition_check(ctx.seed)


# --- head-1 Stage-II trajectories ----------------------------------------------------------------------------

def _trajectory(alpha, L, sigma, t_end, n_points=300):
    t, p, v = H.integrate_head1(alpha, L, sigma, t_end, n_points=n_points)
    return t, p, v, H.loss_g4(p, v, alpha, L)


# --- IH-C1-T1 ----------------------------------------------------------------------------------------------

def t1_check(seed: int, grid, t_end: float = 1e6, barely: float = 0.1) -> Verdict:
    """T1 := first t with ∂L_G4/∂v1 = 0.  On each grid point: T1 < ∞; p, v1 non-decreasing on [0, T1];
    'p barely increases' early: Δp ≤ ``barely``·Δp(T1) while v1 ≤ v1(T1)/10; p non-decreasing after T1.
    Reports whether v1 is non-monotone after T1."""
    nonincr = check_nonincreasing
    parts, table = {}, []
    for (a, L, s) in grid:
        T1 = H.hitting_time_T1(a, L, s, t_max=t_end)
        key = f"α={a},L={L},σ={s:g}"
        if T1 is None:
            parts[key] = refuted("head-1 flow", f"T1 not reached by t = {t_end:g}", {"alpha": a, "L": L, "sigma": s})
            continue
        t, p, v = H.integrate_head1(a, L, s, T1, n_points=1000)
        t2, p2, v2 = H.integrate_head1(a, L, s, t_end, n_points=300)
        after = t2 >= T1
        i = int(np.argmax(v >= 0.1 * v[-1]))  # early window: v1 below 10% of v1(T1)
        frac = (p[i] - p[0]) / (p[-1] - p[0])
        half = (float(np.interp(T1 / 2, t, p)) - p[0]) / (p[-1] - p[0])
        sub = {"p ↑ on [0,T1]": nonincr(t, -p, tol=1e-9, name="−p"),
               "v1 ↑ on [0,T1]": nonincr(t, -v, tol=1e-9, name="−v1"),
               "p ↑ after T1": nonincr(t2[after], -p2[after], tol=1e-9, name="−p"),
               "p barely increases early": (holds("head-1 flow", f"while v1 ≤ v1(T1)/10: Δp/Δp(T1) = {frac:.3g} ≤ {barely}")
                                            if frac <= barely else
                                            refuted("head-1 flow", f"while v1 ≤ v1(T1)/10: Δp/Δp(T1) = {frac:.3g} > {barely}",
                                                    {"alpha": a, "L": L, "sigma": s, "fraction": frac}))}
        dv = np.diff(v2[after])
        nonmono = bool(np.any(dv > 1e-12 * np.maximum(1, np.abs(v2[after][:-1]))))
        table.append({"alpha": a, "L": L, "sigma": s, "T1": T1, "alpha*T1": a * T1, "p(T1)": float(p[-1]),
                      "v1(T1)": float(v[-1]), "early fraction (v1 <= v1(T1)/10)": frac,
                      "fraction of Delta p(T1) reached at T1/2": half, "v1 non-monotone after T1": nonmono})
        parts[key] = tv.with_fixed(combine(sub), alpha=a, L=L, sigma=s)
    v = combine(parts)
    return Verdict(v.status, v.method, v.evidence, v.counterexample, {**v.details, "table": table})


def t1_scaling(seed: int, Ls=(50, 100, 200, 400, 800), sigmas=None, alpha: float = 0.5,
               predicted: float = 1.0, L_sigma: int = 100_000, claim: str | None = None) -> Verdict:
    """Derived estimate: α·T1 = log(min(1/σ, M)) + O(1).  Fits the coefficient of log M in α·T1 at σ = 1e-9
    (σ ≪ 1/M) and, if ``sigmas`` is given, of log(1/σ) at L = ``L_sigma`` (σ ≫ 1/M); each must be
    ``predicted`` ± 0.15 (bootstrap CI)."""
    parts = {}
    y = [alpha * _T1(alpha, L, 1e-9, claim) for L in Ls]
    parts["log M"] = check_coefficient(np.log(np.array(Ls) - 1.0), y, predicted, 0.15, seed, index=1,
                                       param="log M", what="α·T1", n_resamples=500, scale="log",
                                       extra={"configurations": [{"alpha": alpha, "L": L, "sigma": 1e-9} for L in Ls]})
    if sigmas:
        y = [alpha * _T1(alpha, L_sigma, s, claim) for s in sigmas]
        parts["log 1/σ"] = check_coefficient(np.log(1 / np.array(sigmas)), y, predicted, 0.15, seed + 1, index=1,
                                             param="log 1/σ", what="α·T1", n_resamples=500,
                                             scale="log", extra={"configurations": [{"alpha": alpha, "L": L_sigma,
                                                                                     "sigma": s} for s in sigmas]})
    return combine(parts)


_T1_STATEMENT = ("App. C.1: a hitting time T1 (condition lost) with T1 < ∞; on [0, T1] both head-1 parameters increase; "
                 "'p barely increases when […]'; after T1 p keeps increasing, v1 possibly non-monotonic. Reading: "
                 "T1 := inf{t : ∂L_G4/∂v1 = 0} (v1 reaches its p-dependent optimum). Derived estimate (counterpart of (20)): "
                 "α·T1 = log(min(1/σ_init, L−1)) + O(1) (linear growth v̇1 ≈ αp, ṗ ≈ αv1 at rate α). Verdict on the reconstruction.")
_T1_CHOICES = {**CHOICES, "T1": "first time dL_G4/dv1 = 0 (v1 on its nullcline)",
               "barely increases": "while v1 <= v1(T1)/10, Delta p <= 0.1 Delta p(T1) (a weak reading: p and v1 grow "
               "together in the linear phase; the fraction reached at T1/2 is reported too)",
               "after T1 window": "t in [T1, 1e6]"}


@CLAIMS.add("c1-t1", location="App. C.1, hitting time T1, Part I, Eq. (20)", kind=Kind.DYNAMICS,
            catalogue_id="IH-C1-T1", statement=_T1_STATEMENT + " The log-M coefficient is fitted at α* ∈ {0.05, 0.2, "
            "0.5, 0.8} (at α* = 0.05 on L up to 12800: its O(1) term is pre-asymptotic below L ~ 10³, coefficient 0.89 "
            "on L ≤ 800). Full profile: grid α* × L × σ_init; σ-sweep at L = 1e5; T1/T_IH(0.5) at the base point.",
            over=(tv.Over("alpha", 0.0, 1.0, text="alpha* in (0, 1) (RC-13)"),
                  tv.Over("L", 3.0, math.inf, scale="log", integer=True, text="sequence length L >= 3"),
                  tv.Over("sigma", 0.0, 1.0, scale="log", text="small initialisation sigma_init")), conditions=HYP.for_over((tv.Over("alpha", 0.0, 1.0, text="alpha* in (0, 1) (RC-13)"),
                  tv.Over("L", 3.0, math.inf, scale="log", integer=True, text="sequence length L >= 3"),
                  tv.Over("sigma", 0.0, 1.0, scale="log", text="small initialisation sigma_init"))),
            choices=_T1_CHOICES,
            # re-audit (issue 17): the quick log-M grid reaches L = 800 (1.21 decades of M); with L = 50..400 it spanned
            # 0.91 decades and the span rule made the verdict inconclusive
            # re-audit (issue 17): alpha* = 0.8 on the property grid and the log-M coefficient at alpha* in {0.05, 0.2,
            # 0.8} besides 0.5 (the statement is for every alpha*; about 3 s more)
            params={"grid": ((0.5, 100, 1e-3), (0.2, 50, 1e-2), (0.8, 200, 1e-4)), "Ls": (50, 100, 200, 400, 800),
                    "sigmas": None, "store": None, "base_point": False,
                    "alpha_Ls": ((0.05, (200, 800, 3200, 12800)), (0.2, (50, 100, 200, 400, 800)),
                                 (0.8, (50, 100, 200, 400, 800)))},
            variants={"full": Variant(params={"grid": tuple((a, L, s) for a in (0.2, 0.5, 0.8) for L in (50, 200, 800)
                                                            for s in (1e-2, 1e-4, 1e-6)),
                                              "Ls": (25, 50, 100, 200, 400, 800),
                                              "sigmas": (1e-1, 3e-2, 1e-2, 3e-3, 1e-3),
                                              "store": "inductionheads.c1-t1-full", "base_point": True,
                                              "alpha_Ls": ((0.05, (200, 800, 3200, 12800)), (0.2, (50, 100, 200, 400, 800)),
                                                           (0.8, (50, 100, 200, 400, 800)))},
                                      tags={"slow"}, id="c1-t1-full")})
def c1_t1(ctx):
    c = ctx.params
    parts = {"properties": t1_check(ctx.seed, [tuple(g) for g in c["grid"]]),
             "estimate": t1_scaling(ctx.seed, Ls=tuple(c["Ls"]), sigmas=tuple(c["sigmas"]) if c["sigmas"] else None,
                                    claim=c["store"])}
    for a, Ls in c.get("alpha_Ls") or ():
        parts[f"estimate α*={a}"] = t1_scaling(ctx.seed, Ls=tuple(Ls), alpha=a)
    v = combine(parts)
    if not c["base_point"]:
        return v
    tr = flow.stage2(0.5, 0.3, 100, 1e-3, 1e9, heads="IH", n_points=3000)
    m = markers.ih_markers(tr.t, tr.L_IH, tr["v2"], tr.k)
    T1 = H.hitting_time_T1(0.5, 100, 1e-3)
    extra = {"T1": T1, "T_IH(0.5)": m.get("T_IH(0.5)"),
             "T1/T_IH(0.5)": (T1 / m["T_IH(0.5)"]) if m.get("T_IH(0.5)") else None}
    return Verdict(v.status, v.method, v.evidence, v.counterexample, {**v.details, "base point": extra})


# --- IH-C1-lyap ----------------------------------------------------------------------------------------------

#: candidates that are a gradient flow's own loss: non-increasing by construction (reported, never deciding)
BY_CONSTRUCTION = frozenset({"L_G4", "L_inf"})


def candidate_values(name: str, p, v, alpha, L):
    """Candidate Lyapunov functions along a trajectory."""
    qq = np.exp(-np.asarray(p))
    r = (1 - qq) / (1 + qq)
    u = np.asarray(v) - alpha * (1 + qq)
    if name == "L_G4":
        return H.loss_g4(p, v, alpha, L)
    if name == "q = e^{-p}":
        return qq
    if name == "L_inf":
        return 0.5 * r * u**2 + 0.5 * alpha**2 * qq**2
    if name == "planted: ½ r u² − ½ α² q²":  # sign-flipped high-order term
        return 0.5 * r * u**2 - 0.5 * alpha**2 * qq**2
    raise KeyError(name)


def lyapunov_symbolic(candidate: str = "q", flip: bool = False) -> Verdict | None:
    """Symbolic sign of dV/dt on the stable region for the L_∞ flow, in (q, s) with v1 = α(1+q)(1 + q s),
    s ∈ [0, 1] (the region R = {0 ≤ u ≤ αq(1+q)}), q ∈ [0, 1], α ∈ (0, 1):
    * V = q: dV/dt = −q² ∂L_∞/∂q = −α² q³ (1+q)(1+qs) s (1 − s)·… ≤ 0;
    * V = L_∞: dV/dt = −|∇L_∞|²;  ``flip`` flips the sign of the ½α²q² term (planted twin)."""
    q, a, s = sp.symbols("q alpha s", positive=True)
    v = a * (1 + q) * (1 + q * s)
    Linf = H.loss_g4_inf().subs({H.q: q, H.alpha: a})
    dLdq = sp.diff(Linf, q)
    dLdv = sp.diff(Linf, H.v1)
    pdot = q * dLdq  # ṗ = −∂L/∂p = q ∂L/∂q
    vdot = -dLdv
    qdot = -q * pdot
    if candidate == "q":
        V_dot = qdot
    else:
        sign = -1 if flip else 1
        V = sp.Rational(1, 2) * (1 - q) / (1 + q) * (H.v1 - a * (1 + q))**2 + sign * a**2 * q**2 / 2
        V_dot = sp.diff(V, q) * qdot + sp.diff(V, H.v1) * vdot
    V_dot = sp.simplify(V_dot.subs(H.v1, v))
    return prove_nonpositive(V_dot, {q: (0, 1), a: (0, 1), s: (0, 1)}, timeout=10)


def lyapunov_check(seed: int, grid, candidates=("L_G4", "q = e^{-p}"), t_end: float = 1e6,
                   symbolic: bool = True) -> Verdict:
    """Each candidate must not increase after T1 on every grid trajectory (tol 1e-9 relative, above the
    integrator's 1e-10); symbolic proofs (L_∞ flow on the stable region) reported alongside; decay laws fitted.

    A candidate that is the flow's own loss (L_G4 for the reduced flow, L_∞ for the L → ∞ flow) is non-increasing
    under any gradient flow by construction (dV/dt = −|∇L|²): it could not have failed, so it is reported under
    "by construction (not deciding)" and the verdict rests on the other candidates (q = e^{−p})."""
    parts, laws, trivial = {}, {}, {}
    dest = lambda name: trivial if name in BY_CONSTRUCTION else parts  # noqa: E731
    for (a, L, s) in grid:
        T1 = H.hitting_time_T1(a, L, s)
        t, p, v, lg = _trajectory(a, L, s, t_end, n_points=300)
        for name in candidates:
            val = candidate_values(name, p, v, a, L)
            dest(name)[f"{name} @ α={a},L={L},σ={s:g}"] = check_nonincreasing(t, val, onset=T1, tol=1e-9, name=name)
            tail = t >= 1e4
            if np.all(val[tail] > 0):
                b = np.polyfit(np.log(t[tail]), np.log(val[tail]), 1)[0]
                laws.setdefault(name, []).append(float(b))
    if symbolic:
        for name, cand in (("q = e^{-p}", "q"), ("L_inf", "L")):
            pr = lyapunov_symbolic(cand)
            dest(name)[f"symbolic dV/dt ≤ 0 ({name}, L_∞ flow, stable region)"] = pr if pr is not None else \
                inconclusive("symbolic", "prove_nonpositive undecided")
    if not parts:
        return inconclusive("candidates along the flow", "only the flow's own loss was tried: it decreases under any "
                            "gradient flow, which shows nothing about a Lyapunov function",
                            **{"by construction (not deciding)": {k: v.to_json() for k, v in trivial.items()}})
    v = combine(parts)
    det = {**v.details, "decay exponents (log-log slope on t ≥ 1e4)": laws,
           "by construction (not deciding)": {k: v.to_json() for k, v in trivial.items()},
           "could it have failed": "q = e^{-p} non-increasing <=> p non-decreasing after T1, which the flow need not "
                                   "do (the planted sign-flipped candidate fails, tests/inductionheads/test_head1.py); "
                                   "L_G4 and L_inf are the flows' own losses (dV/dt = -|grad L|^2): reported only"}
    return Verdict(v.status, v.method, v.evidence, v.counterexample, det)


_LYAP_STATEMENT = ("App. C.1 Part II: a (novel) Lyapunov function for head 1's convergence phase t ≥ T1 (lost). "
                   "Found: V = q = e^{−p} (the high-order variable: non-increasing ⇔ p keeps increasing), non-increasing "
                   "after T1 on the grid, and for the L_∞ flow dq/dt ≤ 0 proved symbolically on the forward-invariant "
                   "stable region R = {α(1+q) ≤ v1 ≤ α(1+q)²}; the verdict rests on q. The loss itself (L_G4; L_∞ for "
                   "the L_∞ flow) is also non-increasing, but it is so under any gradient flow (dV/dt = −|∇L|²): "
                   "reported, not deciding. Decay laws: "
                   "L_G4 ~ 1/(4t), q ~ (2α²t)^{−1/2}.")
_LYAP_CHOICES = {**CHOICES, "onset": "T1 (IH-C1-T1 reading)", "tolerance": "1e-9 relative (integrator rtol 1e-10)",
                 "region for the proof": "v1 = alpha(1+q)(1+q s), s in [0,1], q in [0,1], alpha in (0,1), L -> infinity flow",
                 "paper's function": "not recoverable; the candidates are ours"}


@CLAIMS.add("c1-lyap", location="App. C.1 Part II", kind=Kind.DYNAMICS, catalogue_id="IH-C1-lyap",
            statement=_LYAP_STATEMENT + " Full profile: grid α* ∈ {0.2, 0.5, 0.8} × L ∈ {50, 200} × σ ∈ {1e-2, 1e-4}."
                      + " Verdict on the reconstruction (RC-1, RC-5, RC-6, RC-7, RC-9, RC-10, RC-11, RC-19).",
            choices=_LYAP_CHOICES,
            params={"grid": ((0.5, 50, 1e-2), (0.2, 200, 1e-4)), "candidates": ("L_G4", "q = e^{-p}"), "t_end": 1e6},
            variants={"full": Variant(params={"grid": tuple((a, L, s) for a in (0.2, 0.5, 0.8) for L in (50, 200)
                                                            for s in (1e-2, 1e-4)),
                                              "candidates": ("L_G4", "q = e^{-p}", "L_inf"), "t_end": 1e7},
                                      tags={"slow"}, id="c1-lyap-full")})
def c1_lyap(ctx):
    c = ctx.params
    return lyapunov_check(ctx.seed, [tuple(g) for g in c["grid"]], candidates=tuple(c["candidates"]), t_end=c["t_end"])


# --- IH-T55-conv-G4 ------------------------------------------------------------------------------------------

def convergence_check(seed: int, grid, t_tail=(1e4, 1e7), predicted_exponent: float = -1.0,
                      predicted_prefactor: float = 0.25) -> Verdict:
    """Phase IV: fit L_G4(t) ≈ C t^b on the tail (3 decades) per grid point: b = −1 ± 0.15 (bootstrap CI over
    tail points) and power law preferred to exponential; prefactor C vs the derived 1/4 (5%)."""
    parts, rows = {}, []
    for (a, L, s) in grid:
        t, p, v, lg = _trajectory(a, L, s, t_tail[1], n_points=400)
        tail = (t >= t_tail[0]) & (t <= t_tail[1])
        x, y = t[tail], lg[tail]
        key = f"α={a},L={L}"
        fit = check_rate(x, y, predicted_exponent, 0.15, seed, param="t", what="L_G4", n_resamples=500,
                         max_spread=10.0 ** 3.5, constant="elsewhere")
        laws = compare_laws(x, y, {"power law t^b (best b)": lambda z, b=np.polyfit(np.log(x), np.log(y), 1)[0]: z**b,
                                   "exponential e^{-ct} (best c)": lambda z, c=-np.polyfit(x, np.log(y), 1)[0]: np.exp(-c * z)})
        C = float(np.median(y * x))
        rows.append({"alpha": a, "L": L, "sigma": s, "exponent": fit.details["fit"]["exponent"],
                     "ci": fit.details["fit"]["ci"], "t·L_G4 (median over tail)": C, "law ranking (rms)": laws})
        pref = (holds("tail", f"t·L_G4 = {C:.5g} vs derived 1/4 (within 5%)") if abs(C / predicted_prefactor - 1) <= 0.05 else
                refuted("tail", f"t·L_G4 = {C:.5g} vs derived {predicted_prefactor}", {"alpha": a, "L": L, "sigma": s, "t*L": C}))
        gp, gv = H.grad_g4(float(p[-1]), float(v[-1]), a, L)
        # a 1/(4t) power law: by t = 1e7 the loss is down by ~1e-6 of L_G4(0); converged = below 1e-5 of it
        conv = tv.diagnose(lg, optimum=0.0, tol=1e-5 * float(lg[0]), steps=t, grad_norm=float(np.hypot(gp, gv)),
                           grad_tol=1e-6)
        fit = Verdict(fit.status, fit.method, fit.evidence, fit.counterexample, {**fit.details, "convergence": conv})
        best = next(iter(laws))
        form = (holds("law comparison", f"power law preferred (rms {laws[best]:.3g})") if best.startswith("power") else
                refuted("law comparison", "exponential fits the tail better", {"alpha": a, "L": L, "rms": laws}))
        parts[key] = tv.with_fixed(combine({"exponent": fit, "prefactor": pref, "form": form}), alpha=a, L=L, sigma=s)
    v = combine(parts)
    a0, L0, s0 = grid[0]
    t, p, vv, lg = _trajectory(a0, L0, s0, t_tail[1], n_points=200)
    det = {**v.details, "table": rows,
           "trajectory": {"x": t[1:].tolist(), "series": {"L_G4": lg[1:].tolist(), "1/(4t)": (0.25 / t[1:]).tolist()},
                          "boundaries": [H.hitting_time_T1(a0, L0, s0) or 0.0, t_tail[0]]}}
    return Verdict(v.status, v.method, v.evidence, v.counterexample, det)


_CONV_STATEMENT = ("Thm 5.5 Phase IV / App. C.1 Eq. (21): convergence rate of L_G4 (lost). Derived from the reduced flow: "
                   "on the slow manifold v1 ≈ α(1+q), ṗ = α²q², hence q^{−2} ≈ 2α²t and L_G4(t) = ½α²q² + … → 1/(4t): "
                   "a power law, exponent −1, prefactor 1/4, independent of α*, L and σ_init.")
_CONV_CHOICES = {**CHOICES, "tail window": "t in [1e4, 1e7] (3 decades)", "init": "sigma_init = 1e-3",
                 "law selection": "rms of log-residual: best power law vs best exponential"}


@CLAIMS.add("t55-conv-g4", location="Thm 5.5 Phase IV; App. C.1, Eq. (21)", kind=Kind.RATE,
            catalogue_id="IH-T55-conv-G4",
            statement=_CONV_STATEMENT + " The runs converge (diagnostics: L_G4 -> 0, the gradient norm, the last stretch of "
                      "the curve). Quick: α* ∈ {0.2, 0.5, 0.8} at L = 100 and L ∈ {25, 400} at α* = 0.5; full profile: "
                      "α* ∈ {0.2, 0.5, 0.8} × L ∈ {50, 100, 200, 800}."
                      + " Verdict on the reconstruction (RC-1, RC-5, RC-6, RC-7, RC-9, RC-10, RC-11, RC-19).",
            over=(tv.Over("alpha", 0.0, 1.0, text="alpha* in (0, 1) (RC-13)"),
                  tv.Over("L", 3.0, math.inf, scale="log", integer=True, text="long sequences L (>= 3)")), conditions=HYP.for_over((tv.Over("alpha", 0.0, 1.0, text="alpha* in (0, 1) (RC-13)"),
                  tv.Over("L", 3.0, math.inf, scale="log", integer=True, text="long sequences L (>= 3)"))),
            converges=True,
            # re-audit (issue 17): the quick grid was the base point only; the statement ranges over alpha* and L
            choices=_CONV_CHOICES, params={"grid": ((0.5, 100, 1e-3), (0.2, 100, 1e-3), (0.8, 100, 1e-3), (0.5, 25, 1e-3),
                                                    (0.5, 400, 1e-3))},
            variants={"full": Variant(params={"grid": tuple((a, L, 1e-3) for a in (0.2, 0.5, 0.8)
                                                            for L in (50, 100, 200, 800))},
                                      tags={"slow"}, id="t55-conv-g4-full")})
def t55_conv_g4(ctx):
    return convergence_check(ctx.seed, [tuple(g) for g in ctx.params["grid"]])
