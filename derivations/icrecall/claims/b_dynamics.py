"""Dynamics of Algorithm 1 for n = 3 (Lemma 5, Lemma 6, Theorem 2 = Theorem 4; App. B).

Every run is batched over temperatures × seeds (theoryverify.runner) with the model-derived loss
of ``algorithm1.N3Loss``.  Quick versions (small grids) run in CI; the ``-full`` versions run the
catalogue grids (spec §5, P1 and P4) and are tagged slow.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

import numpy as np
import torch
from scipy.optimize import minimize_scalar

import theoryverify as tv
from theoryverify import flows, phases, scaling
from theoryverify import ClaimSet, Kind
from theoryverify import diagnose
from theoryverify import Status, Verdict, combine, holds, inconclusive, refuted
from ..experiments.util import fmt_error

from ..experiments.algorithm1 import (FACE_THETA, LOG2, SADDLE, N3Loss, algorithm1, events_n3, perturbations, stage1,
                         stage2)

CLAIMS = ClaimSet("icrecall")

ETA_C = 2.0  # η = c·T² with c = 2 (spec §5)


def _with(verdict: Verdict, **details) -> Verdict:
    return replace(verdict, details={**dict(verdict.details), **details})


# --- Lemma 5: Stage 1 converges to the saddle ṽ -------------------------------------------

L5_CHOICES = {
    "η1": "2·T² (Θ-constant 2)", "start": "θ = ω = 0 (Algorithm 1)",
    "arithmetic": "float64; the θ-gradient is averaged over the pair swap (θ1,θ2)↔(θ3,θ4), i.e. the exact-"
                  "arithmetic trajectory on the invariant subspace v1 = v3, v2 = v4 of Lemma 5, Observation 1 "
                  "(plain float64 GD leaves it by round-off; measured separately)",
    "sequence": "(s1,a1,s2,a2,s3,EoS), r* = r1 (one sequence suffices for n = 3, Sec. 4.1)",
    "fit models": "log k(ε) against 1/T (k ≈ C·exp(b/T)) and against log(1/T) (k ≈ C·T^b)",
}


def flow_hitting_steps(T: float, eps: Sequence[float]) -> dict[str, float | None]:
    """Stage-1 gradient flow θ̇ = −∇L1 on the invariant subspace (solve_ivp, LSODA) from θ = 0;
    hitting times of ‖v − ṽ‖∞ < ε in GD-step units t/η (η = 2T²)."""
    loss = N3Loss()
    Tt = torch.tensor([T], dtype=torch.float64)
    om = torch.zeros(1, 7, dtype=torch.float64)
    saddle = np.asarray(SADDLE)

    def grad(x):
        return loss.grad_symmetric({"theta": torch.as_tensor(x)[None], "omega": om}, {"T": Tt})["theta"][0].numpy()

    def dist(x):
        e = np.exp(x - x.max())
        return float(np.abs(e / e.sum() - saddle).max())

    events = {f"dist<{e:g}": flows.below(dist, e) for e in eps}
    res = flows.gradient_flow(grad, np.zeros(6), 1e12, events=events, stop_at=f"dist<{min(eps):g}",
                              method="LSODA", rtol=1e-9, atol=1e-11)
    eta = ETA_C * T**2
    return {k: (None if t is None else t / eta) for k, t in res.hits.items()}


@CLAIMS.add("L5-converge", location="Lemma 5, App. B; Sec. 4.1 'First stage'", kind=Kind.DYNAMICS,
            catalogue_id="ICR-L5-converge", expect=Status.INCONCLUSIVE,  # grid spans 0.12 decades in T (< 1)
            choices={**L5_CHOICES, "grid": "T ∈ {0.12, 0.11, 0.1, 0.09}, "
                                                     "ε ∈ {5e-2, 3e-2} (CI grid)"},
            statement="Stage 1 (η1 = Θ(T²), t1 = ∞) from θ = 0 converges to the saddle ṽ = (¼,¼,¼,¼,0,0): "
                      "‖v_k − ṽ‖∞ decreases to 0 (small CI grid)",
            params={"T": [0.12, 0.11, 0.1, 0.09], "eps": (5e-2, 3e-2), "budget": 4000, "plain_T": [0.12],
                    "plain_budget": 3000, "flow_T": (), "flow_eps": ()},
            variants={"full": tv.Variant(params={"T": [0.08, 0.06, 0.05], "eps": (1e-2, 3e-3), "budget": 100_000,
                                                 "plain_T": [0.08, 0.05, 0.03], "plain_budget": 20000,
                                                 "flow_T": [0.08, 0.06, 0.05, 0.04, 0.03, 0.02],
                                                 "flow_eps": (1e-2, 3e-3, 1e-3)},
                                         expect=None, tags={"slow"}, id="L5-converge-full")})
def l5_converge(ctx) -> Verdict:
    p = ctx.params
    T, eps, budget, plain_T, plain_budget = p["T"], p["eps"], p["budget"], p["plain_T"], p["plain_budget"]
    flow_T, flow_eps = p["flow_T"], p["flow_eps"]
    T = np.asarray(T, dtype=float)
    plain_T = np.asarray(plain_T, dtype=float)
    nT = len(T)
    # one batch: the exact-arithmetic runs (projected gradient) and plain float64 runs side by side
    allT = np.concatenate([T, plain_T])
    sym = np.concatenate([np.ones(nT), np.zeros(len(plain_T))])
    ev = events_n3(eps=eps)
    done = {n: (lambda f: lambda p, c: f(p, c) | (c["symmetric"] == 0))(f) for n, f in ev.items()}
    done["v1-v3>1e-3"] = lambda p, c: ((torch.softmax(p["theta"], 1)[:, 0] - torch.softmax(p["theta"], 1)[:, 2]
                                        ).abs() > 1e-3) | (c["symmetric"] > 0)
    steps = np.concatenate([np.full(nT, budget), np.full(len(plain_T), plain_budget)])
    res = stage1(allT, eta=ETA_C * allT**2, steps=steps, events=done, stop_when_hit=True, symmetric=sym.tolist(),
                 metrics=("dist_saddle",), record_every=25)
    dist = res.records["dist_saddle"].numpy()[:, :nT]  # [records, T]
    steps = np.asarray(res.record_steps)
    hits = {name: res.hits[name].numpy()[:nT] for name in ev}
    # criterion (spec ICR-L5-converge): ‖v_k − ṽ‖∞ decreases monotonically to 0
    rises = np.diff(dist, axis=0) > 1e-15
    if rises.any():
        r, c = np.argwhere(rises)[0]
        return refuted("batched GD, exact-arithmetic subspace", "‖v − ṽ‖∞ increased along Stage 1",
                       {"T": float(T[c]), "step": int(steps[r + 1]), "before": float(dist[r, c]),
                        "after": float(dist[r + 1, c])})
    # round-off: plain float64 GD (no projection) leaves the invariant subspace
    dep = res.hits["v1-v3>1e-3"].numpy()[nT:]
    roundoff = {f"T={t:g}": {"departs_at_step": int(dep[i]), "budget": plain_budget}
                for i, t in enumerate(plain_T)}
    missing = [(float(T[j]), n) for n, h in hits.items() for j in range(len(T)) if h[j] < 0]
    kmin = hits[f"dist<{min(eps):g}"].astype(float)
    details = {"hitting_times": {n: h.tolist() for n, h in hits.items()}, "T": T.tolist(), "budget": budget,
               "final_distance": dist[-1].tolist(), "steps_run": res.steps_run, "float64_roundoff": roundoff,
               "settings": res.settings}
    if missing:
        return inconclusive("batched GD", f"not every ε reached within {budget} steps: {missing[:4]}", **details)
    flow_text = ""
    if flow_T:
        # the catalogue grid (P4) by gradient flow; GD k(ε) = flow time / η checked where both exist
        fl = {float(t): flow_hitting_steps(float(t), flow_eps) for t in flow_T}
        gaps = [abs(fl[float(t)][n] - hits[n][j]) / hits[n][j] for j, t in enumerate(T) if float(t) in fl
                for n in hits if n in fl[float(t)] and fl[float(t)][n] is not None]
        worst = max(gaps) if gaps else float("nan")
        details["flow_hitting_steps"] = {f"T={t:g}": v for t, v in fl.items()}
        details["gd_vs_flow_max_rel_gap"] = worst
        if not gaps or worst > 0.01:
            return inconclusive("GD + gradient flow", f"GD and flow hitting times differ by {worst:.3g} > 1% "
                                "(or no overlap): the flow cannot stand in for GD", **details)
        if any(v is None for d in fl.values() for v in d.values()):
            return inconclusive("gradient flow", "flow did not reach every ε", **details)
        T = np.asarray(list(fl), dtype=float)
        eps = flow_eps
        kmin = np.asarray([fl[float(t)][f"dist<{min(eps):g}"] for t in T])
        flow_text = (f" Catalogue grid by gradient flow (solve_ivp LSODA, GD steps = t/η; GD and flow agree within "
                     f"{worst:.2g} relative where both ran): ")
    exp_fit = scaling.fit_power_law(T, kmin, ctx.seed, law="exp")
    pow_fit = scaling.fit_power_law(T, kmin, ctx.seed + 1, law="power")
    laws = scaling.compare_laws(T, kmin, {"exp(b/T)": lambda x: np.exp(exp_fit.exponent / x),
                                          "T^b": lambda x: x ** pow_fit.exponent})
    best = next(iter(laws))
    fit = {"models": {
        "log k vs 1/T": {"exponent": exp_fit.exponent, "ci": list(exp_fit.ci), "subwindow": list(exp_fit.subwindow),
                         "local_slopes": list(exp_fit.local_slopes), "residual_rms": exp_fit.residual_rms},
        "log k vs log(1/T)": {"exponent": pow_fit.exponent, "ci": list(pow_fit.ci),
                              "subwindow": list(pow_fit.subwindow), "local_slopes": list(pow_fit.local_slopes),
                              "residual_rms": pow_fit.residual_rms}},
        "best": best, "residual_by_law": laws, "epsilon": min(eps),
        "law": "k(ε) against T", "exponent": exp_fit.exponent if best.startswith("exp") else pow_fit.exponent,
        "ci": list(exp_fit.ci if best.startswith("exp") else pow_fit.ci)}
    sweep = scaling.sweep_details("T", T, kmin)
    dep = ", ".join(f"T={t:g}: step {roundoff[f'T={t:g}']['departs_at_step']}" for t in plain_T)
    ev_text = (f"GD: ‖v − ṽ‖∞ decreases monotonically along every run." + flow_text +
               f" ε = {', '.join(f'{e:g}' for e in eps)} reached for every T in "
               f"{T.tolist()}; k({min(eps):g}) = {kmin.astype(int).tolist()}; best model: {best} "
               f"(log k vs 1/T slope {exp_fit.exponent:.3g} CI [{exp_fit.ci[0]:.3g}, {exp_fit.ci[1]:.3g}], "
               f"sub-windows {exp_fit.subwindow[0]:.3g}/{exp_fit.subwindow[1]:.3g}; vs log(1/T) sub-windows "
               f"{-pow_fit.subwindow[0]:.3g}/{-pow_fit.subwindow[1]:.3g}). Plain float64 GD leaves the "
               f"symmetric subspace by round-off (|v1 − v3| > 1e-3) at {dep}.")
    return holds("batched GD on the invariant subspace (exact-arithmetic trajectory)", ev_text,
                 sweep=sweep, fit=fit, **details)


# --- Lemma 6: escape from the saddle after the perturbation ---------------------------------

def face_lambda_min(T: float) -> float:
    """λ_min of ∇²_θ L1 at θ̃ on the face θ5 = θ6 = −∞ (4-dim, torch.func.hessian, model-derived loss)."""
    loss = N3Loss()
    tail = torch.tensor([-math.inf, -math.inf], dtype=torch.float64)
    Tt = torch.tensor([T], dtype=torch.float64)
    f = lambda x: loss.L1(torch.cat([x, tail])[None], Tt)[0]  # noqa: E731
    H = torch.func.hessian(f)(torch.zeros(4, dtype=torch.float64))
    return float(torch.linalg.eigvalsh(H)[0])


L6_CHOICES = {
    "start": "θ̃ = (0,0,0,0,−∞,−∞) on the face (explicit −∞), ω̃ = 0 (spec §5 P1)",
    "η2": "2·T²", "perturbation": "ξ uniform in the 13-dim ball of (θ, ω); per-run seed (claim seed, T, seed index)",
    "radius": "ρ = T³ (Θ-constant of T³·log⁻²(1/δ) equal to log²(1/δ)) for the T sweep; ρ ∈ {1e-2,…,1e-5} at "
              "T = 0.02 for the radius sweep",
    "escape": "first step with L1 < log 2 (Lemma 6); p1(r1) > 0.75 recorded too",
    "predicted slope": "∂k_esc/∂log(1/ρ) = 1/log(1 + η2·|λ_min|), λ_min of the face Hessian at θ̃ (derived)",
}


def _escape_runs(ctx, T: np.ndarray, radius: np.ndarray, seeds: int, budget: int):
    Tr, rr = np.repeat(T, seeds), np.repeat(radius, seeds)
    idx = np.tile(np.arange(seeds), len(T))
    # common random numbers: seed s draws the same unit-ball point for every (T, ρ), scaled by ρ
    xi = perturbations(ctx.seed, idx.tolist(), rr.tolist())
    theta = np.tile(FACE_THETA, (len(Tr), 1))
    res = stage2(theta, np.zeros((len(Tr), 7)), xi, Tr, eta=ETA_C * Tr**2, steps=budget,
                 events={**events_n3(loss_below=LOG2)}, stop_when_hit=True)
    k = res.hits["L1<x"].numpy().reshape(len(T), seeds)
    return k, res


@CLAIMS.add("L6-escape", location="Lemma 6, App. B", kind=Kind.DYNAMICS, catalogue_id="ICR-L6-escape",
            expect=Status.INCONCLUSIVE,  # T grid spans 0.40 decades (< 1)
            choices={**L6_CHOICES, "grid": "T ∈ {0.05, 0.04, 0.03, 0.02} (ρ = T³), ρ ∈ {1e-2,1e-3,1e-4,1e-5} "
                                           "at T = 0.03; 4 seeds (CI grid)", "δ": "0.1"},
            statement="After the perturbation, O(poly(1/T)·log(1/δ)) GD steps give L1 < log 2 (small CI grid); "
                      "escape time against T and against the perturbation radius",
            params={"T_grid": [0.05, 0.04, 0.03, 0.02], "radius_T": 0.03, "radii": [1e-2, 1e-3, 1e-4, 1e-5],
                    "seeds": 4, "budget": 20000},
            variants={"full": tv.Variant(params={"T_grid": [0.05, 0.03, 0.02, 0.01, 0.005], "radius_T": 0.01,
                                                 "radii": [0.01**3, 0.01**2, 1e-3, 1e-5, 1e-7], "seeds": 32,
                                                 "budget": 200000},
                                         expect=None, tags={"slow"}, id="L6-escape-full")})
def l6_escape(ctx, delta: float = 0.1) -> Verdict:
    p = ctx.params
    T_grid, radius_T, radii, seeds, budget = p["T_grid"], p["radius_T"], p["radii"], p["seeds"], p["budget"]
    T = np.asarray(T_grid, dtype=float)
    radii = np.asarray(radii, dtype=float)
    allT = np.concatenate([T, np.full(len(radii), radius_T)])
    allr = np.concatenate([T**3, radii])
    k, res = _escape_runs(ctx, allT, allr, seeds, budget)
    kT, kr = k[: len(T)], k[len(T):]
    fail = float((k < 0).mean())
    details = {"escape_steps_T_sweep": kT.tolist(), "escape_steps_radius_sweep": kr.tolist(), "T": T.tolist(),
               "radii": radii.tolist(), "radius_sweep_T": radius_T, "budget": budget, "fail_fraction": fail,
               "settings": res.settings}
    if fail > delta:
        return inconclusive("batched Algorithm-1 Stage 2", f"{fail:.0%} of runs did not reach L1 < log 2 within "
                            f"{budget} steps (δ = {delta})", **details)
    lam = face_lambda_min(radius_T)
    rate = math.log1p(ETA_C * radius_T**2 * abs(lam))
    mech = scaling.check_coefficient(np.log(1 / radii), kr.mean(axis=1) * rate, 1.0, 0.05, ctx.seed, index=1,
                                     degree=1, param="log(1/ρ)", what="k_esc·log(1+η|λ_min|)",
                                     scale="log")
    # T-dependence at ρ = T³: O(poly(1/T)) — report the fit, check the Lemma-7 form (1/T)log(1/T) bounds k_esc
    kmed = np.median(kT, axis=1)
    fitT = scaling.fit_power_law(T, kT.astype(float), ctx.seed + 1)
    scaled = kmed * T / np.log(1 / T)  # k_esc / ((1/T) log(1/T))
    order = np.argsort(-T)  # decreasing T
    bounded = bool(np.all(scaled[order] <= scaled[order][0] * 1.25))
    lam_T = {f"{t:g}": face_lambda_min(t) * t for t in T}
    parts = {"escape within budget": holds("batched GD", f"{1 - fail:.0%} of {k.size} runs reach L1 < log 2 "
                                           f"within {budget} steps"),
             "escape driven by λ_min (radius sweep)": mech,
             "k_esc = O((1/T)·log(1/T)) on the grid": (holds if bounded else inconclusive)(
                 "scaled sweep", f"k_esc·T/log(1/T) = {np.round(scaled, 2).tolist()} over T = {T.tolist()} "
                 f"({'non-increasing within 25%' if bounded else 'grows'} as T decreases); log-log slope of k_esc "
                 f"vs T = {fitT.exponent:.3g} CI [{fitT.ci[0]:.3g}, {fitT.ci[1]:.3g}]")}
    v = combine(parts, method="Lemma 6:")
    sweep = scaling.sweep_details("T", T, kT, ratio=scaled, ratio_of="k_esc / ((1/T)·log(1/T))")
    fit = {"law": "k_esc ≈ C·T^b (ρ = T³)", "exponent": fitT.exponent, "ci": list(fitT.ci),
           "subwindow": list(fitT.subwindow), "local_slopes": list(fitT.local_slopes),
           "radius_sweep": mech.details.get("fit"), "lambda_min_times_T": lam_T,
           "predicted_k_per_unit_log_radius": 1 / rate}
    return _with(v, sweep=sweep, fit=fit, **details)


# --- Theorem 2 = Theorem 4: convergence to the pairwise optimum ----------------------------

def line_loss(x: float, T: float) -> float:
    """L1 at v = (x, x, ½ − x, ½ − x, 0, 0) from the model-derived loss."""
    loss = N3Loss()
    v = torch.tensor([[x, x, 0.5 - x, 0.5 - x, 0.0, 0.0]], dtype=torch.float64)
    theta = torch.log(v)
    return float(loss.L1(theta, torch.tensor([T], dtype=torch.float64))[0])


def line_minimiser(T: float) -> tuple[float, float]:
    """(a*, L1(a*)) minimising L1 on the pairwise line over x ∈ (¼, ½) (the x ↦ ½ − x mirror is equivalent)."""
    r = minimize_scalar(lambda x: line_loss(x, T), bounds=(0.25, 0.5 - 1e-12), method="bounded",
                        options={"xatol": 1e-12})
    return float(r.x), float(r.fun)


T2_CHOICES = {
    "η1, η2": "2·T² each", "t1": "finite (Algorithm 1 with t1 → ∞ is approximated; see grid)",
    "radius": "ρ = T³", "seeds": "per-run ξ from (claim seed, T, seed index)",
    "converged": "|v1 − v2|, |v3 − v4| ≤ tol, v5, v6 decreasing in Stage 2, L1 < log 2, and "
                 "|max(v1+v2, v3+v4)/2 − a*(T)| ≤ tol with a*(T) the minimiser of L1 on the pairwise line",
}


def stage2_trajectory(s2, run: int, T: float) -> dict:
    """Stage-2 loss and attention of one run, with two change points of L1 marked (piecewise-linear
    binary segmentation, phases.binary_segmentation): plateau, escape, convergence to the pairwise
    point.  (The trajectory is smooth and noise-free, so a penalised detector over-segments it.)"""
    steps = [int(k) for k in s2.record_steps]
    L1 = s2.records["L1"].numpy()[:, run]
    v = s2.records["v"].numpy()[:, run]
    cps = phases.binary_segmentation(L1, 2, model="linear")
    return {"x": steps, "xlabel": f"Stage-2 step (T = {T:g}, seed 0)",
            "series": {"L1": L1.tolist(), **{f"v{i + 1}": v[:, i].tolist() for i in range(4)}},
            "boundaries": [steps[i] for i in cps if 0 < i < len(steps)]}


@CLAIMS.add("T2-main", location="Theorem 2 (Sec. 4.1) = Theorem 4 (App. B)", kind=Kind.DYNAMICS,
            catalogue_id="ICR-T2-main",
            choices={**T2_CHOICES, "grid": "T ∈ {0.06, 0.05}, 4 seeds, t1 = 1000, t2 = 2000, tol = 0.05 (CI grid)"},
            statement="Algorithm 1 with η1 = η2 = Θ(T²) converges to v* = (a, a, ½−a, ½−a, 0, 0) with a ≠ ¼, "
                      "the minimiser of L1 (small CI grid, loose tolerance)",
            # at t2 = 2000 the runs are far from the derived optimum (T = 0.05: L1 = 0.566 vs 0.495):
            # the convergence rule makes the loose-tolerance pass inconclusive
            converges=True, expect=Status.INCONCLUSIVE,
            params={"T": [0.06, 0.05], "seeds": 4, "t1": 1000, "t2": 2000, "tol": 0.05, "stage1_symmetric": False},
            variants={"full": tv.Variant(params={"T": [0.05, 0.03, 0.02], "seeds": 8, "t1": 200_000, "t2": 400_000,
                                                 "tol": 5e-3, "stage1_symmetric": True},
                                         expect=None, tags={"slow"}, id="T2-main-full")})
@CLAIMS.add("T2-main-full-float64", location="Theorem 2 (Sec. 4.1) = Theorem 4 (App. B)", kind=Kind.DYNAMICS,
            catalogue_id="ICR-T2-main", tags={"slow"},
            choices={**T2_CHOICES, "grid": "T ∈ {0.05, 0.03, 0.02}, 8 seeds, t1 = 2·10⁵, t2 = 4·10⁵, tol = 5e-3",
                     "Stage 1 arithmetic": "plain float64 GD (as executed on hardware)"},
            statement="Theorem 2 on the catalogue grid, Algorithm 1 in plain float64 (records whether Stage 1 "
                      "leaves the saddle by round-off)", converges=True,
            params={"T": [0.05, 0.03, 0.02], "seeds": 8, "t1": 200_000, "t2": 400_000, "tol": 5e-3,
                    "stage1_symmetric": False})
def t2_main(ctx) -> Verdict:
    p = ctx.params
    T_grid, seeds, t1, t2, tol = p["T"], p["seeds"], p["t1"], p["t2"], p["tol"]
    stage1_symmetric = p["stage1_symmetric"]
    T = np.asarray(T_grid, dtype=float)
    out = algorithm1(T, list(range(seeds)), seed=ctx.seed, eta1=ETA_C * T**2, eta2=ETA_C * T**2, t1=t1, t2=t2,
                     radius=T**3, metrics=("v", "L1"), record_every=max(t2 // 100, 1),
                     stage1_symmetric=stage1_symmetric)
    s2 = out["stage2"]
    v = s2.records["v"].numpy()  # [records, runs, 6]
    L1 = s2.records["L1"].numpy()
    vf = v[-1]
    v1_stage1 = torch.softmax(out["stage1"].params["theta"], 1).numpy()
    a = np.maximum(vf[:, 0] + vf[:, 1], vf[:, 2] + vf[:, 3]) / 2
    a_star = {float(t): line_minimiser(float(t)) for t in T}
    rows = []
    for i, (c, s) in enumerate(out["layout"]):
        t = float(T[c])
        rows.append({"T": t, "seed": s, "|v1-v2|": abs(vf[i, 0] - vf[i, 1]), "|v3-v4|": abs(vf[i, 2] - vf[i, 3]),
                     "v5": vf[i, 4], "v6": vf[i, 5], "a": a[i], "a*(T)": a_star[t][0], "L1": L1[-1, i],
                     "L1 line min": a_star[t][1],
                     "v5+v6 decreasing": bool(np.all(np.diff(v[:, i, 4] + v[:, i, 5]) <= 1e-15))})
    sym_break = np.abs(v1_stage1[:, 0] - v1_stage1[:, 2])
    left = [float(t) for t, b in zip(T, sym_break) if b > 1e-3]
    note = (f" NOTE: Stage 1 itself left the saddle by float64 round-off at T = {left} (|v1 − v3| > 1e-3 at the end "
            f"of Stage 1), so there the perturbation did not break the symmetry." if left else
            f" Stage 1 ended on the symmetric subspace (max |v1 − v3| = {fmt_error(sym_break.max())}).")
    # convergence diagnostics (engine rule): every run's L1 curve against the derived line minimum, within tol
    diags = [diagnose(L1[:, i], optimum=r["L1 line min"], tol=tol, plateau_tol=tol) for i, r in enumerate(rows)]
    worst_i = max(range(len(rows)), key=lambda i: (not diags[i]["converged"], diags[i]["distance"] or 0.0))
    convergence = {"converged": all(d["converged"] for d in diags),
                   "summary": f"T = {rows[worst_i]['T']}, seed {rows[worst_i]['seed']}: {diags[worst_i]['summary']}",
                   "runs_converged": sum(d["converged"] for d in diags), "runs": len(diags),
                   "worst": diags[worst_i]}
    details = {"per_seed": rows, "stage1_end_v": v1_stage1.tolist(), "stage1_left_saddle_by_roundoff": left,
               "stage1_symmetric": stage1_symmetric, "t1": t1, "t2": t2, "tol": tol, "settings": s2.settings,
               "trajectory": stage2_trajectory(s2, run=0, T=float(T[out["layout"][0][0]])),
               "convergence": convergence}
    bad = [r for r in rows if not (r["|v1-v2|"] <= tol and r["|v3-v4|"] <= tol and r["v5+v6 decreasing"]
                                   and r["L1"] < LOG2 and abs(r["a"] - r["a*(T)"]) <= tol
                                   and abs(r["a"] - 0.25) > tol)]
    if bad:  # a finite run cannot refute convergence "at t2 = ∞": not converged is inconclusive
        r = bad[0]
        return inconclusive("Algorithm 1, batched over T × seeds",
                            f"{len(bad)}/{len(rows)} runs not converged to the pairwise point within tol = {tol} "
                            f"after t1 = {t1}, t2 = {t2} (first: T = {r['T']}, seed {r['seed']}: "
                            f"|v1−v2| = {r['|v1-v2|']:.3g}, |v3−v4| = {r['|v3-v4|']:.3g}, a = {r['a']:.4f}, "
                            f"a* = {r['a*(T)']:.4f}, v5 = {r['v5']:.3g}, v6 = {r['v6']:.3g})" + note, **details)
    worst = max(max(r["|v1-v2|"], r["|v3-v4|"], abs(r["a"] - r["a*(T)"])) for r in rows)
    return holds("Algorithm 1, batched over T × seeds",
                 f"all {len(rows)} runs (T = {T.tolist()}, {seeds} seeds) end at the pairwise pattern "
                 f"(a, a, ½−a, ½−a, ·, ·) with worst deviation {worst:.2g} ≤ {tol}, a ≈ a*(T) = "
                 f"{', '.join(f'{a_star[float(t)][0]:.4f}' for t in T)} ≠ ¼, L1 < log 2, v5 + v6 decreasing "
                 f"(max v5 = {max(r['v5'] for r in rows):.2g}, v6 = {max(r['v6'] for r in rows):.2g})." + note,
                 **details)


