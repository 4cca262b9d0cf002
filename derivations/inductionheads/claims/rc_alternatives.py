"""Reconstruction-sensitivity study (spec §2.7: the named alternatives are RUN where a claim depends on them).

* ``alt-rc12-loss`` / ``alt-rc12-flow``: RC-12 with softmax_s(z) ≈ e^{z_s}/D, D ∈ {N, L−1, L}: the derived
  L_IH^{(D)} = (N²/D²) L_IH^{(N)} (a rescaling N → D²/N) and the derived plateau/growth laws
  c_σ^{(D)} = D²(1−w²)²/(N β² w), λ_D = 2β²w N/(D²(1−w²)²), checked on integrated flows.
* ``alt-rc1-head1``: the inclusive RC-1 alternative for head 1 in Stage II: Phase I cannot learn x_{L−2}.
* ``alt-exact-gd-full`` (slow): exact-softmax GD (torch_model.train) at L = 50, 100 against the exact
  large-N law (flow.plateau_log_coefficient_exact) and the three RC-12 laws.
* ``alt-gd-balance``: Lemma 5.4 under finite-step GD with the exact softmax: Q_{n+1} = (1 − η²g_n²)Q_n.
* ``alt-rc20-keys``: RC-20 (the layer-2 key mask of the Thm 4.1 construction): with the plain causal key ranges the
  construction does not converge; a constant embedding coordinate with a layer-2 DP bias replaces the mask.

Derivations: :mod:`..experiments.alternatives`.  Every verdict is a verdict on the reconstruction (choices recorded).
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

from theoryverify import (ClaimSet, Kind, Verdict, check_coefficient, check_rate, combine, holds, inconclusive, proved,
                          sweep_details,
                          refuted)

from ..experiments import alternatives as A
from ..experiments import flow
from ..experiments.sup41 import W_of_norm, _gen, t41_sup
from ..experiments.support import fmt_error, fmt_signed
from ..model import construction41 as C41
from ..model import head2 as H2
from ..model import torch_model as TM
from ..model.recon import record

CLAIMS = ClaimSet("inductionheads")

RC12_ALT = "C.2 simplification alternatives: softmax_s(z) ~ e^{z_s}/D, D in {N = L-2 (default), L-1, L}, both softmax terms"
IH_RCS = ("RC-5", "RC-8", "RC-9", "RC-10", "RC-11", "RC-13", "RC-17", "RC-19")


# --- RC-12 alternatives: the loss ------------------------------------------------------------------------

def choices(*ids: str, alts: dict[str, str], **extra: str) -> dict[str, str]:
    """recon.record of the RC ids with the alternatives ``alts`` recorded, plus this claim's own keys."""
    return {**record(*ids, **alts), **extra}


def check_rc12_loss(factor: sp.Expr | None = None, concrete_L=(4,)) -> Verdict:
    """L_IH^{(D)} (derived with head2's pattern expectations) == ``factor``·L_IH^{(N)} symbolically
    (default factor N²/D²), and the token-level brute force for concrete L equals the general formula."""
    factor = N2D2 if factor is None else factor
    diff = sp.simplify(A.loss_ih_divisor_sym() - factor * H2.loss_ih_sym(1))
    parts = {}
    if diff == 0:
        parts["rescaling"] = proved("SymPy simplify", f"L_IH^(D) - ({factor}) L_IH^(N) simplifies to 0; so L_IH^(D) "
                                    "is the default closed form with N -> N_eff = D^2/N")
    else:
        pt = {A.N: 8, A.D: 10, H2.k: sp.Rational(1, 10), H2.v2: sp.Rational(1, 3), H2.alpha: sp.Rational(1, 2),
              H2.w: sp.Rational(3, 10)}
        val = float(diff.subs(pt))
        parts["rescaling"] = refuted("SymPy simplify + exact point", f"difference {val:.3e} at the point",
                                     {str(s): float(v) for s, v in pt.items()} | {"difference": val})
    for L in concrete_L:
        for dv in A.DIVISORS:
            e = sp.simplify(A.loss_ih_divisor_concrete(L, dv)
                            - A.loss_ih_divisor_sym().subs({A.N: L - 2, A.D: A.DIVISORS[dv](L)}))
            parts[f"brute force L={L}, D={dv}"] = (
                proved("token-level expansion (gauss.expect_all)", "equal to the pattern formula") if e == 0 else
                refuted("token-level expansion", f"difference {e}", {"L": L, "D": dv, "difference": str(e)}))
    return combine(parts)


N2D2 = A.N ** 2 / A.D ** 2


@CLAIMS.add("alt-rc12-loss", location="App. C.2 simplification (Eq. 22), RC-12 alternatives", kind=Kind.IDENTITY,
            catalogue_id="IH-CF-IH",
            statement="Under the RC-12 alternatives softmax_s(z) ~ e^{z_s}/D (D = L-1 or L instead of N = L-2, both "
                      "softmax terms) the derived L_IH is the default one rescaled: L_IH^(D) = (N^2/D^2) L_IH^(N), "
                      "i.e. N -> N_eff = D^2/N (a pure time rescaling of the gradient flow).",
            choices=choices(*IH_RCS, "RC-12", alts={"RC-12": RC12_ALT},
                           derivation="head2.pattern_terms (iterated Gaussian expectations), counts / D^2",
                           brute_force="L = 4, each D"))
def alt_rc12_loss(ctx) -> Verdict:
    return check_rc12_loss()


# --- RC-12 alternatives: plateau and growth laws on integrated flows ------------------------------------

ALT_SIGMAS = (1e-3, 1e-4, 1e-5, 1e-6)


def check_rc12_flow(seed: int, Ls=(10, 100), alpha=0.5, w=0.3, predicted=None, rel_coef=0.01,
                    rel_growth=0.02) -> Verdict:
    """For each D and L: the integrated L_IH^{(D)} flow's T_IH(0.5) has log(1/σ) coefficient
    c_σ^{(D)} (within ``rel_coef``, bootstrap CI over σ ∈ ALT_SIGMAS) and log k grows at λ_D (within
    ``rel_growth``).  ``predicted(alpha, w, L, D) -> (c, λ)`` replaces the derived laws (planted twins)."""
    predicted = predicted or (lambda a, ww, L, d: (A.plateau_log_coefficient_divisor(a, ww, L, d),
                                                   A.growth_rate_divisor(a, ww, L, d)))
    parts, table = {}, {}
    x = np.log(1 / np.asarray(ALT_SIGMAS))
    for L in Ls:
        for d in A.DIVISORS:
            runs = [A.cached_ih_flow_divisor(alpha, w, L, s, d) for s in ALT_SIGMAS]
            T = [r["markers"]["T_IH(0.5)"] for r in runs]
            c, lam = predicted(alpha, w, L, d)
            parts[f"L={L}, D={d}: coefficient"] = check_coefficient(
                x, T, c, rel_coef * c, seed, index=1, param="log(1/sigma)", what=f"T_IH(0.5) [D={d}, L={L}]",
                scale="log")
            g = A.measured_growth(runs[1])
            cfg = dict(L=L, D=d, alpha=alpha, w=w, sigma=ALT_SIGMAS[1])
            ev = f"L={L}, D={d}: slope of log k {g:.6g} vs lambda_D {lam:.6g} (ratio {g / lam:.4f})"
            parts[f"L={L}, D={d}: growth"] = (holds("log-linear fit on [T_sat, T_k(0.05)]", ev) if
                                              abs(g / lam - 1) <= rel_growth else
                                              refuted("log-linear fit", ev, {**cfg, "slope": g, "predicted": lam}))
            table[f"L={L}, D={d}"] = {"T_IH(0.5)": T, "c_pred": c, "lambda_pred": lam, "growth": g,
                                      "c_default_N": flow.plateau_log_coefficient(alpha, w, L),
                                      "N_eff": A.n_eff(L, d)}
    v = combine(parts)
    ev = "; ".join(f"{k}: c_D/c_N = {r['c_pred'] / r['c_default_N']:.4f}" for k, r in table.items() if "D=N" not in k)
    return Verdict(v.status, v.method, v.evidence + "; derived sensitivity " + ev, v.counterexample,
                   {**v.details, "laws": table})


@CLAIMS.add("alt-rc12-flow", location="Thm 5.5 Phases II+III; App. C.2 Eqs. (24)-(29); RC-12 alternatives",
            kind=Kind.RATE, catalogue_id="IH-T55-plateau",
            statement="Derived alternative laws under RC-12 with divisor D (N, L-1, L): plateau coefficient "
                      "c_sigma^(D) = D^2 (1-w*^2)^2 / (N (1-a*)^2 w*) multiplying log(1/sigma), exponential rate of k "
                      "lambda_D = 2 (1-a*)^2 w* N / (D^2 (1-w*^2)^2); the fixed point (w*, 1-a*) and v2_sat are unchanged. "
                      "Checked against integrated flows of the alternative losses.",
            choices=choices(*IH_RCS, "RC-12", alts={"RC-12": RC12_ALT},
                           grid="alpha* = 0.5, w* = 0.3, L in {10, 100}, sigma in {1e-3, 1e-4, 1e-5, 1e-6}",
                           tolerance="coefficient within 1% (bootstrap CI), growth slope within 2%",
                           integrator="solve_ivp LSODA in log(1+t), rtol 1e-10, atol 1e-12"))
def alt_rc12_flow(ctx) -> Verdict:
    return check_rc12_flow(ctx.seed)


# --- RC-1 inclusive alternative for head 1 ----------------------------------------------------------------

def check_rc1_inclusive(seed: int, alpha=0.5, Ls=(10, 50, 200), claimed_sup=None, claims_learns=False,
                        sigma=1e-3) -> Verdict:
    """Under the inclusive RC-1 alternative for head 1 (both readings of A.READINGS):
    (i) symbolic: L → ∞ learnable fraction sup_q q^{2m}(1 − q²) (``claimed_sup`` overrides the derived value:
        planted twins); (ii) the finite-L closed form == token-level SymPy (L = 5) == torch_model population
        loss ("inclusive-both"); (iii) max_p of the learned fraction at finite L stays < 0.9, so
        T_G4(0.1) = ∞; (iv) GF from RC-11 init: p converges to the finite maximiser p*, L_G4 → ½α²(1 − f*).
    ``claims_learns``: the twin statement "Phase I learns x_{L-2}" (L_G4 reaches 0.1 L_G4(0))."""
    rng = np.random.default_rng(seed)
    parts, det = {}, {}
    derived = {1: sp.Rational(1, 4), 2: sp.Rational(4, 27)}
    for reading, m in A.READINGS.items():
        qs2, sup = A.learnable_fraction_sup(m)
        claimed = derived[m] if claimed_sup is None else claimed_sup[reading]
        ev = f"{reading}: L->oo fraction q^{2 * m}(1-q^2), max {sup} at q^2 = {qs2} (p* = {sp.log(1 / qs2) / 2})"
        parts[f"{reading}: sup (symbolic)"] = (proved("SymPy solve of d/dq = 0", ev) if sp.simplify(sup - claimed) == 0
                                               else refuted("SymPy", ev, {"reading": reading, "derived": str(sup),
                                                                          "claimed": str(claimed)}))
        # (ii) closed form vs token level (L = 5) at random points
        L5 = 5
        sym = A.loss_g4_inclusive_sym(L5, reading)
        fn = sp.lambdify((A.H1.p, A.H1.v1, A.H1.alpha), sym, "numpy")
        pts = rng.uniform([-2, 0, 0.05], [6, 1.5, 0.95], size=(20, 3))
        err = max(abs(fn(*pt) - A.loss_g4_inclusive(pt[0], pt[1], pt[2], L5, reading)) /
                  max(1.0, abs(fn(*pt))) for pt in pts)
        parts[f"{reading}: closed form vs token level"] = (
            holds("20 random points, float64", f"max rel. error {fmt_error(err)}") if err <= 1e-10 else
            refuted("20 random points", f"max rel. error {err:.1e}", {"reading": reading, "L": L5, "error": err}))
        # (iii) finite L: no slope learns the target
        best = {L: A.best_fraction(L, reading) for L in Ls}
        det[reading] = {"best (p*, fraction) by L": best, "q*^2": str(qs2), "sup": str(sup)}
        worst = max(f for _, f in best.values())
        learns = worst >= 0.9
        ev3 = (f"{reading}: max over p of the learnable fraction: " +
               ", ".join(f"L={L}: {f:.6f} at p*={p:.4f}" for L, (p, f) in best.items()) +
               f" -> min L_G4/(a^2/2) >= {1 - worst:.4f}; T_G4(0.1) {'finite' if learns else '= infinity'}")
        ok = learns == claims_learns
        parts[f"{reading}: Phase I learns x_(L-2)?"] = (
            holds("bounded scalar maximisation over p", ev3) if ok else
            refuted("bounded scalar maximisation over p", ev3, {"reading": reading, "max_fraction": worst,
                                                                "claimed_learns": claims_learns, "L": list(Ls)}))
        # (iv) the gradient flow stays at finite p and stalls at the derived minimum
        L = 50
        fl = A.head1_inclusive_flow(alpha, L, sigma, reading, t_end=2e4)
        p_star, f_star = best[L]
        lg_min = 0.5 * alpha ** 2 * (1 - f_star)
        r_end = fl["L_G4"][-1] / lg_min - 1
        ratio = fl["L_G4"] / fl["L_G4"][0]
        ev4 = (f"{reading}, L={L}: GF from p=v1={sigma:g}: p(t_end) = {fl['p'][-1]:.6f} (p* = {p_star:.6f}), "
               f"L_G4(t_end) / derived min - 1 = {fmt_signed(r_end)}, min_t L_G4/L_G4(0) = {ratio.min():.4f}")
        det[reading]["flow"] = {"p_end": float(fl["p"][-1]), "p_max": float(fl["p"].max()), "ratio_min": float(ratio.min())}
        ok4 = fl["success"] and abs(fl["p"][-1] - p_star) <= 1e-3 and abs(r_end) <= 1e-6 and \
            ((ratio.min() <= 0.1) == claims_learns)
        parts[f"{reading}: gradient flow"] = (holds("LSODA, rtol 1e-10", ev4) if ok4 else
                                             refuted("LSODA, rtol 1e-10", ev4, {"reading": reading, "L": L,
                                                                                 "p_end": float(fl["p"][-1]),
                                                                                 "p_star": p_star,
                                                                                 "ratio_min": float(ratio.min()),
                                                                                 "claimed_learns": claims_learns}))
    # torch_model's own inclusive convention (first layer inclusive limit + inclusive head 1) = "inclusive-both"
    errs = []
    for L in (10, 50):
        for p_, v_ in rng.uniform([-1, 0], [4, 1.5], size=(5, 2)):
            P = TM.init(0.1, p21=float(p_), v1=float(v_))
            t = float(TM.population_loss_g4(L, P, alpha, layer1="limit", convention="inclusive"))
            errs.append(abs(t - A.loss_g4_inclusive(p_, v_, alpha, L, "inclusive-both")) / max(1.0, abs(t)))
    e = max(errs)
    parts["torch_model inclusive == closed form"] = (
        holds("torch_model.population_loss_g4(convention='inclusive')", f"max rel. error {fmt_error(e)} (10 points)")
        if e <= 1e-10 else refuted("torch_model.population_loss_g4", f"max rel. error {e:.1e}", {"error": e}))
    v = combine(parts)
    return Verdict(v.status, v.method, v.evidence, v.counterexample, {**v.details, "inclusive": det})


@CLAIMS.add("alt-rc1-head1", location="Thm 5.5 Phase I; App. C.1; Eq. (3) RC-1 alternative", kind=Kind.DYNAMICS,
            catalogue_id="IH-T55-phaseI",
            statement="Under the RC-1 inclusive alternative for head 1 in Stage II (phi(j;p) = -p j, j >= 0), Phase I "
                      "does NOT learn x_(L-2): head 1's weights q^j are monotone in j for every p, so the learnable "
                      "fraction of L_G4 is at most q^(2m)(1-q^2) <= 1/4 (target at distance m = 1, first layer causal) "
                      "or 4/27 (m = 2, first layer inclusive too) as L -> oo; GF converges to a finite p* "
                      "(q*^2 = m/(m+1)) and L_G4 stalls at (1-f*) a*^2/2 (T_G4(0.1) = infinity). Selecting x_(L-2) would "
                      "need weight concentrated at an interior distance, which no Alibi slope in [-oo, oo] gives.",
            choices=choices("RC-1", "RC-5", "RC-6", "RC-7", "RC-9", "RC-10", "RC-11",
                            alts={"RC-1": "inclusive alternative phi(j;p) = -p j, j >= 0 (head 1 over s = 1..L)"},
                           readings="inclusive-both: first layer inclusive, its limit x~_s = x_s (target at j = 2); "
                                    "inclusive-head1: first layer at the causal limit x~_s = x_(s-1) (target at j = 1)",
                           grid="alpha* = 0.5; L in {10, 50, 200}; GF at L = 50 from sigma = 1e-3"))
def alt_rc1_head1(ctx) -> Verdict:
    return check_rc1_inclusive(ctx.seed)


# --- exact softmax at the spec's size (slow) ----------------------------------------------------------------

#: alt-exact-gd-full's sigma grid: the experiment's three plus 1e-5 (re-audit, issue 17: three sigmas are too few grid
#: points for a rate verdict; four span 3 decades)
EXACT_GD_SIGMAS = (*A.EXACT_GD["sigmas"], 1e-5)


def exact_gd_verdict(seed: int, Ls=(50, 100), predicted=None, rel=0.05, sigmas=EXACT_GD_SIGMAS) -> Verdict:
    """Per L: the per-seed log(1/σ) coefficients of T_IH(0.5) (exact-softmax GD) against ``predicted``
    (default: flow.plateau_log_coefficient_exact, N/(β²w)) by the MC rule max(rel, 3 SE); each RC-12 law
    (D = N, L−1, L) is reported and must be excluded by the same rule for the claim to hold."""
    a, w = 0.5, 0.3
    predicted = predicted or (lambda L: flow.plateau_log_coefficient_exact(a, w, L))
    parts, det = {}, {}
    for L in Ls:
        rows = A.exact_gd_rows(seed, L, sigmas=sigmas)
        c = A.coefficient_per_seed(rows, sigmas)
        m = float(c.mean())
        se = float(c.std(ddof=1) / math.sqrt(len(c))) if len(c) > 1 else float("nan")
        pred = predicted(L)
        tol = max(rel * pred, 3 * se)
        laws = {f"RC-12 /{d}": A.plateau_log_coefficient_divisor(a, w, L, d) for d in A.DIVISORS}
        ev = (f"L={L}: exact-softmax GD coefficient {m:.5g} +- {se:.2g} (SE over {len(c)} samples of "
              f"{A.EXACT_GD['n'][L]}) vs exact large-N law {pred:.5g} (ratio {m / pred:.4f}, tolerance {tol:.3g}); "
              + ", ".join(f"{k} {v:.5g} (ratio {m / v:.4f})" for k, v in laws.items()))
        det[f"L={L}"] = {"coef": c.tolist(), "mean": m, "se": se, "exact_law": pred, **laws,
                         "T_IH(0.5)": [[r["T_IH(0.5)"] for r in row] for row in rows],
                         "growth_slope/lambda_exact": [[r["growth_slope"] / flow.growth_rate_exact(a, w, L)
                                                        for r in row] for row in rows]}
        parts[f"L={L}: exact law"] = (holds("GD, MC rule", ev) if abs(m - pred) <= tol else
                                      refuted("GD, MC rule", ev, {"L": L, "coef": m, "se": se, "predicted": pred,
                                                                 "tolerance": tol}))
        excl = {k: abs(m - v) > max(rel * v, 3 * se) for k, v in laws.items()}
        evx = f"L={L}: RC-12 laws excluded by the MC rule: {excl}"
        parts[f"L={L}: RC-12 laws excluded"] = (holds("GD, MC rule", evx) if all(excl.values()) else
                                                inconclusive("GD, MC rule", evx + " (an RC-12 law is not excluded)"))
    v = combine(parts)
    sweep = sweep_details("sigma", sigmas, np.mean(det[f"L={Ls[-1]}"]["T_IH(0.5)"], axis=0),
                          fixed={"alpha": a, "w": w, "L": Ls[-1], "softmax": "exact"})
    return Verdict(v.status, v.method, v.evidence, v.counterexample, {**v.details, "exact_gd": det, "sweep": sweep})


@CLAIMS.add("alt-exact-gd-full", location="Thm 5.5 Phases II+III; App. C.2 simplification; spec IH-T55-plateau "
            "exact-softmax confirmation", kind=Kind.RATE, catalogue_id="IH-T55-plateau", tags={"slow"},
            statement="Exact softmax at the spec's size: full-batch GD (torch_model.train, layerwise Stage II, RC-9) "
                      "at L = 50 and 100, T_IH(0.5) vs sigma in {1e-2, 1e-3, 1e-4, 1e-5}: the fitted log(1/sigma) "
                      "coefficient equals the exact large-N law N/((1-a*)^2 w*) (helper C, lambda_exact = "
                      "2(1-a*)^2 w*/N) within max(5%, 3 SE), and none of the RC-12 laws (D = N, L-1, L: "
                      "D^2 (1-w*^2)^2/(N (1-a*)^2 w*)) does.",
            choices=choices(*IH_RCS, "RC-12", alts={"RC-12": "control: exact softmax (no simplification); RC-12 "
                                                               "alternatives /N, /(L-1), /L compared"},
                           grid="alpha* = 0.5, w* = 0.3; L = 50 (3 samples x 3000 seqs), L = 100 (3 x 2000); GD "
                                "step 1.0 (t = step), record every 5; horizon of experiments.runs.gd_point",
                           seeds="sample seeds = claim seed + i"))
def alt_exact_gd_full(ctx) -> Verdict:
    return exact_gd_verdict(ctx.seed % 2**31)


# --- Lemma 5.4 under finite-step GD ---------------------------------------------------------------------------

def check_gd_balance(seed: int, factor=None, rate_exponent: float = 1.0, L: int = 10, n: int = 400) -> Verdict:
    """(i) Q_{n+1} = factor(η, g_n)·Q_n (default 1 − η²g_n²) on torch exact-softmax GD, rtol 1e-10, for
    η ∈ {4, 1}; (ii) the iterates equal torch_model.train's (stage II) to 1e-12; (iii) η → 0 at a fixed
    horizon T = 40: the total drift |Q(T) − Q(0)| ∝ η^{rate_exponent} (fitted, CI) and drift/η →
    Q(0)·∫g² dt (continuous conservation recovered at rate η)."""
    factor = factor or (lambda eta, g: 1 - eta ** 2 * g ** 2)
    parts, det = {}, {}
    for eta in (4.0, 1.0):
        r = A.gd_balance_run(L, n, seed, eta, 150)
        Q, g = r["Q"], r["g"]
        pred = factor(eta, g[:-1]) * Q[:-1]
        err = np.abs(Q[1:] - pred) / np.maximum(1.0, np.abs(Q[:-1]))
        i = int(np.argmax(err))
        step_change = float(np.max(np.abs(np.diff(Q))))
        ev = (f"eta={eta:g}: max |Q_(n+1) - pred| / max(1,|Q_n|) = {fmt_error(err[i])} over {len(err)} steps "
              f"(per-step change of Q up to {step_change:.2e}; loss {r['loss'][0]:.3g} -> {r['loss'][-1]:.3g})")
        det[f"eta={eta:g}"] = {"max_err": float(err[i]), "max_step_change": step_change}
        parts[f"recursion, eta={eta:g}"] = (
            holds("torch GD, exact softmax, float64", ev) if err[i] <= 1e-10 else
            refuted("torch GD, exact softmax", ev, {"eta": eta, "step": i, "Q_n": float(Q[i]), "g_n": float(g[i]),
                                                    "Q_next": float(Q[i + 1]), "predicted": float(pred[i]),
                                                    "L": L, "n": n}))
    # (ii) same iterates as torch_model.train
    X = TM.sample(n, L, seed=seed)
    tr = TM.train(X, TM.init(0.1, wK=0.6, wQ=0.15, v2=0.2), 0.5, 0.3, lr=1.0, steps=30, stage="II")
    mine = A.gd_balance_run(L, n, seed, 1.0, 30)
    qt = tr["wK"] ** 2 - tr["wQ"] ** 2
    e2 = float(np.max(np.abs(qt - mine["Q"])))
    parts["same iterates as torch_model.train"] = (
        holds("30 steps, eta = 1", f"max |Q_train - Q_loop| = {e2:.1e}") if e2 <= 1e-12 else
        refuted("30 steps", f"max |Q_train - Q_loop| = {e2:.1e}", {"difference": e2}))
    # (iii) eta -> 0
    T, etas = 40.0, (2.0, 1.0, 0.5, 0.25, 0.125)
    drift, integral = [], []
    for eta in etas:
        r = A.gd_balance_run(L, n, seed, eta, int(round(T / eta)))
        drift.append(abs(r["Q"][-1] - r["Q"][0]))
        integral.append(abs(r["Q"][0]) * float(np.sum(eta * r["g"][:-1] ** 2)))
    parts["eta -> 0: drift exponent"] = check_rate(etas, drift, rate_exponent, 0.15, seed, param="eta",
                                                   what="|Q(T) - Q(0)| at T = 40", min_points=4, constant="hidden")
    lim = np.array(drift) / np.array(etas) / np.array(integral)
    det["drift/(eta Q0 int g^2)"] = lim.tolist()
    v = combine(parts)
    return Verdict(v.status, v.method, v.evidence + "; drift/(eta |Q0| sum eta g^2) = " +
                   ", ".join(f"{x:.5f}" for x in lim) + " (-> 1: Q conserved by GF, broken at O(eta) by GD)",
                   v.counterexample, {**v.details, "balance": det, "drift": drift, "etas": list(etas)})


@CLAIMS.add("alt-gd-balance", location="Lemma 5.4 (proof at the start of App. C); Eq. (12) discretised",
            kind=Kind.DYNAMICS, catalogue_id="IH-L54-balance",
            statement="Lemma 5.4's balance Q = w_K^2 - w_Q^2 under finite-step GD with the EXACT softmax: "
                      "Q_(n+1) = (1 - eta^2 g_n^2) Q_n exactly (g_n = dL/dk), checked on torch GD (rtol 1e-10); the "
                      "continuous conservation is recovered as eta -> 0 (drift at fixed horizon ~ eta^1)."
                      + " Verdict on the reconstruction (RC-8, RC-9, RC-10, RC-11, RC-12).",
            choices=choices("RC-8", "RC-9", "RC-10", "RC-11", "RC-12",
                            alts={"RC-11": "unbalanced init w_K = 0.6, w_Q = 0.15, v2 = 0.2 (alternative of RC-11)",
                                  "RC-12": "control: exact softmax (no simplification)"},
                           grid="L = 10, 400 sequences, alpha* = 0.5, w* = 0.3; eta in {4, 1} (150 steps); "
                                "eta in {2, 1, 0.5, 0.25, 0.125} at horizon T = 40"))
def alt_gd_balance(ctx) -> Verdict:
    return check_gd_balance(ctx.seed % 2**31)


# --- RC-20: the layer-2 key range of the Thm 4.1 construction ---------------------------------------------------

def check_rc20(seed: int, L: int = 16, wn: float = 3.0, ps=(2.0, 4.0, 6.0, 8.0, 10.0), n_random: int = 60,
               steps: int = 30, floor: float = 0.05, extra_bias: float = 0.0) -> Verdict:
    """(a) the plain causal key ranges (1..L-1: position 1, whose layer-1 row is empty, kept; 1..L: the query's own
    position kept too): the adversarial sup-error stays >= ``floor`` at every p (no decay); (b) the construction
    without any mask but with a constant embedding coordinate and a layer-2 DP bias λ = p + ‖W*‖B² (+ ``extra_bias``,
    a planted shortfall when negative): sup-error within the derived bound (4‖W*‖B³ + 2B) e^{-p}-type bound
    (:func:`construction41.derived_bound_bias`) and decaying in p at rate −1 (fit in x = e^p)."""
    W = W_of_norm(_gen(seed), 4, wn)
    parts, table = {}, []
    for keys in ("1..L-1", "1..L"):
        errs = {p: t41_sup(W, p, L, 4, seed, n_random=n_random, steps=steps,
                           tf=lambda X, p=p, k=keys: C41.tf41(X, W, p, keys=k)).value for p in (ps[0], ps[-1])}
        ev = (f"layer-2 keys {keys}: sup-error {errs[ps[0]]:.3g} at p = {ps[0]:g}, {errs[ps[-1]]:.3g} at p = "
              f"{ps[-1]:g} (L = {L}, ||W*|| = {wn:g}): no decay in p")
        cfg = {"keys": keys, "L": L, "W_norm": wn, "sup_error_by_p": {str(k): v for k, v in errs.items()}}
        parts[f"(a) plain causal mask, keys {keys}"] = (
            holds("adversarial sup-error search", ev, **cfg) if min(errs.values()) >= floor else
            refuted("adversarial sup-error search", ev.replace("no decay in p", f"below {floor:g}: the construction "
                                                                "converges without RC-20"), cfg))
    meas, bound = [], []
    for p in ps:
        lam = p + wn + extra_bias
        e = t41_sup(W, p, L, 4, seed, n_random=n_random, steps=steps,
                    tf=lambda X, p=p, lam=lam: C41.tf41_bias(X, W, p, lam)).value
        b = C41.derived_bound_bias(W, p, p + wn)
        meas.append(e)
        bound.append(b)
        table.append({"p": p, "lambda": lam, "sup_error": e, "derived bound": b})
    worst = max(range(len(ps)), key=lambda i: meas[i] / bound[i])
    ev = (f"max sup-error / derived bound = {meas[worst] / bound[worst]:.3g} (at p = {ps[worst]:g}) over "
          f"{len(ps)} slopes, lambda = p + ||W*|| B^2")
    parts["(b) no mask, bias coordinate: derived bound"] = (
        holds("adversarial sup-error search", ev, table=table) if meas[worst] <= bound[worst] * (1 + 1e-12) else
        refuted("adversarial sup-error search", ev, {**table[worst], "L": L, "W_norm": wn}, table=table))
    x = np.exp(np.asarray(ps, float))
    pref = np.asarray(bound) * x
    parts["(b) no mask, bias coordinate: rate in p"] = check_rate(
        x, np.asarray(meas) / pref, -1.0, 0.15, seed, predicted=1.0 / x, param="e^p", what="sup-error / prefactor",
        fixed={"L": L, "W_norm": wn}, constant="hidden")
    v = combine(parts)
    return Verdict(v.status, v.method, v.evidence, v.counterexample, {**v.details, "table": table})


@CLAIMS.add("alt-rc20-keys", location="Thm 4.1, App. A.1 (layer 2); RC-20 and its alternative", kind=Kind.RATE,
            catalogue_id="IH-T41-rate",
            statement="RC-20 — the layer-2 key mask (keys s = 2..L-1) that the reconstructed Thm 4.1 construction uses "
                      "— is needed and replaceable: (a) with the plain causal masks (keys 1..L-1, position 1 with "
                      "x~_1 = 0 kept; keys 1..L, the query kept too) the construction's adversarial sup-error does not "
                      "decay in p (>= 0.05 at p = 2 and p = 10); (b) without any mask, a constant embedding coordinate "
                      "carried by layer 1 (c~_s = 1 for s >= 2, 0 at s = 1) and a layer-2 DP bias lambda = p + "
                      "||W*||B^2 on it give the derived bound (4||W*||B^3 + 2B) e^{-p} and the rate -1 in p. So the "
                      "Thm 4.1 verdicts rest on RC-20 only through a choice the paper's own model class (DP with an "
                      "embedding) can make; the diagonal (1..L) must be masked by the causal RPE itself (RC-1).",
            choices=choices("RC-1", "RC-3", "RC-4", "RC-6", "RC-20",
                            alts={"RC-20": "plain causal key ranges 1..L-1 and 1..L; and no mask with a bias "
                                           "coordinate (D = 2(d+1)) and lambda = p + ||W*||_2 B^2"},
                            grid="L = 16, d = 4, ||W*||_2 = 3, B = 1, p in {2,4,6,8,10}; 60 ball draws + 30 projected "
                                 "Adam steps per estimate (sup_error)"))
def alt_rc20_keys(ctx) -> Verdict:
    return check_rc20(ctx.seed)
