"""Experiments of Section 5: Figure 2 (IH-F2-repro, §5.2) and Remark 5.1's 2-/3-gram variant (IH-R51-23gram, §5.1.1).

Figure 2 is lost, and its setup and x-axis are not stated (R1 g).  We run

* (i) the reduced Stage-II gradient flow under RC-12 (``flow.stage2``, helper C, closed forms of
  ``head1``/``head2``), integrated with LSODA;
* (ii) full-batch GD (t = step·lr) on the six-parameter model of :mod:`..model.torch_model` with the exact
  softmax: layerwise (Stage II, first layer at its RC-9 limit) and jointly (all six parameters from
  RC-11 init, p1(0) = 0; L_G4 as its exact Gaussian expectation, see ``JOINT_NOTE``);

and read the phases off the spec §4.3 markers (``markers``, helper C) and a BIC segment count.
The four-phase criteria are ours ("proposed", recorded in ``choices``).  [ER] vocabulary: holds =
consistent, refuted = inconsistent, inconclusive = not reproducible from the stated information.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np

from theoryverify import (ClaimSet, Kind, Variant, Verdict, combine, compare_laws, fit_power_law, holds, inconclusive,
                          proved, refuted)

from ..experiments import flow
from ..experiments import markers as K
from ..experiments.figure2 import ALPHA, FULL, QUICK, W, f2_runs, gd_trajectory
from ..experiments.support import fmt_error
from ..model import head1
from ..model import torch_model as M
from ..model.recon import record

CLAIMS = ClaimSet("inductionheads")

#: proposed thresholds of the four-phase reading (RC-17 markers; the numbers are ours)
CRITERIA = {
    "Phase I": "T_G4(0.1) exists and precedes T_IH(0.9) ('most' of the 4-gram learned = L_G4 down to 10% before the "
               "IH loss leaves its plateau; T_G4(0.01) reported: L_G4's tail is slow, p21 grows ~ log t)",
    "Phase II": "plateau T_IH(0.9) - T_sat >= T_sat (the IH plateau lasts at least as long as Phase I's v2 saturation)",
    "Phase III": "emergence width W = T_IH(0.1) - T_IH(0.9) < T_IH(0.9) (sudden compared with the wait)",
    "Phase IV": "L_IH(end) <= 0.01 P_IH and L_G4(end) <= 0.01 L_G4(0) (not reached on the horizon: inconclusive)",
    "distinct transition points": "T1 (first + to - sign change of dv1/dt, head 1) and T_turn (same for v2, head 2) "
                                  "both exist and T_turn >= 2 T1",
    "BIC phase count": "continuous piecewise-linear fits (1-5 segments) of log(L_G4 + L_IH) against log t, 60 points "
                       "uniform in log t (40 quick / 120 full), rss_floor = n*0.2^2 (tolerated misfit 0.2 in log L); reported, "
                       "not decisive",
}
JOINT_NOTE = ("joint GD from p1(0) = 0: at p1 = 0 head 1's 4-gram signal is c_{L-2} = 1/((L-1)(L-2)) (x~_{L-1} is the mean "
              "of x_1..x_{L-2}), while the sample mean of L_G4 adds noise O(|c|/sqrt n); on small samples this can "
              "capture head 1 (L = 8, n = 200, seed 0: v1 < 0, p1 -> -0.5, L_G4 never learned; n = 2000 learns). The "
              "quick joint run therefore uses L_G4's exact Gaussian expectation (torch_model.population_loss_g4) with "
              "the MC L_IH; the full variant also runs the plain MC joint model at the spec's size (it learns there)")


# --- trajectories -----------------------------------------------------------------------------------------

# --- analysis ---------------------------------------------------------------------------------------------

def _first_above(t, y, level):
    return K.first_above(t, y, level, log=False)


def analyse(tr: Mapping[str, Any], bic_points: int = 40) -> dict[str, Any]:
    """§4.3 markers, T1/T_turn, Phase-I drop of L_IH, BIC phase count and the first-layer times."""
    t, lg, li = tr["t"], tr["L_G4"], np.maximum(tr["L_IH"], 1e-300)
    m: dict[str, Any] = {**K.g4_markers(t, lg), **K.ih_markers(t, li, tr["v2"], tr["k"])}
    m["T1"] = K.t_turn(t, tr["v1"])
    m["L_IH(0)"] = float(li[0])
    m["L_IH drop in Phase I (fraction)"] = None if m["P_IH"] is None else 1.0 - m["P_IH"] / float(li[0])
    m["L_G4(end)/L_G4(0)"] = float(lg[-1] / lg[0])
    m["L_IH(end)/P_IH"] = None if m["P_IH"] is None else float(li[-1] / m["P_IH"])
    m.update(phase4_rates(t, lg, li, m.get("T_IH(0.1)")))
    if "p1" in tr and np.ptp(tr["p1"]) > 0:
        m["T_p1>=1"] = _first_above(t, tr["p1"], 1.0)
        m["T_p1>=2"] = _first_above(t, tr["p1"], 2.0)
        m["p1(end)"] = float(tr["p1"][-1])
    if not bic_points:
        return m
    try:
        fit, times = K.phase_count(t, lg + li, max_segments=5, n=bic_points, rss_floor=bic_points * 0.2 ** 2)
        m["BIC phase count"], m["BIC breakpoints"] = fit.count, list(times)
    except Exception as exc:  # pragma: no cover - reported, never decisive
        m["BIC phase count"], m["BIC error"] = None, str(exc)
    return m


def phase4_rates(t, lg, li, t_ih01) -> dict[str, float | None]:
    """Phase-IV convergence (recorded): log-log slope of L_G4 on [t_end/4, t_end], and the exponential
    rate -d log L_IH/dt after T_IH(0.1) (points with L_IH > 1e-25 L_IH(0), above the float floor)."""
    t, lg, li = np.asarray(t, float), np.asarray(lg, float), np.asarray(li, float)
    out: dict[str, float | None] = {"Phase IV: L_G4 log-log slope": None, "Phase IV: L_IH exp. rate": None}
    w = t >= t[-1] / 4
    if np.count_nonzero(w) >= 3 and np.all(lg[w] > 0):
        out["Phase IV: L_G4 log-log slope"] = float(np.polyfit(np.log(t[w]), np.log(lg[w]), 1)[0])
    if t_ih01 is not None:
        w = (t >= t_ih01) & (li > 1e-25 * li[0])
        if np.count_nonzero(w) >= 3:
            out["Phase IV: L_IH exp. rate"] = float(-np.polyfit(t[w], np.log(li[w]), 1)[0])
    return out


def four_phase_verdict(name: str, m: Mapping[str, Any]) -> Verdict:
    """The four-phase reading of Thm 5.5 / Fig. 2 on one trajectory (criteria :data:`CRITERIA`)."""
    need = ("T_G4(0.1)", "T_sat", "P_IH", "T_IH(0.9)", "T_IH(0.1)", "W")
    missing = [k for k in need if m.get(k) is None]
    ce = {"model": name, **{k: m.get(k) for k in (*need, "T1", "T_turn", "L_G4(end)/L_G4(0)", "L_IH(end)/P_IH")}}
    if m.get("T_G4(0.1)") is not None and m.get("T_IH(0.9)") is not None and m["T_IH(0.9)"] <= m["T_G4(0.1)"]:
        return refuted("phase markers", f"{name}: inconsistent — the IH loss leaves its plateau (T_IH(0.9) = "
                       f"{m['T_IH(0.9)']:.4g}) before most of the 4-gram is learned (T_G4(0.1) = "
                       f"{m['T_G4(0.1)']:.4g})", ce)
    if missing:
        return inconclusive("phase markers", f"{name}: not reproducible from the stated information on this horizon "
                            f"(markers not reached: {', '.join(missing)})", markers=dict(m))
    plateau = m["T_IH(0.9)"] - m["T_sat"]
    checks = {
        "Phase II plateau": plateau >= m["T_sat"],
        "Phase III sudden": m["W"] < m["T_IH(0.9)"],
        "distinct transition points": (m.get("T1") is not None and m.get("T_turn") is not None
                                       and m["T_turn"] >= 2 * m["T1"]),
    }
    converged = m["L_IH(end)/P_IH"] <= 0.01 and m["L_G4(end)/L_G4(0)"] <= 0.01
    failed = [k for k, ok in checks.items() if not ok]
    summary = (f"T_G4(0.1) = {m['T_G4(0.1)']:.4g} (T_G4(0.01) = {_fmt(m.get('T_G4(0.01)'))}), plateau "
               f"[{m['T_sat']:.4g}, {m['T_IH(0.9)']:.4g}], emergence W = {m['W']:.4g} (T_IH(0.5) = "
               f"{m['T_IH(0.5)']:.4g}), T1 = {_fmt(m.get('T1'))}, T_turn = {_fmt(m.get('T_turn'))}, L_IH drops "
               f"{100 * m['L_IH drop in Phase I (fraction)']:.1f}% in Phase I, L_IH(end)/P_IH = "
               f"{fmt_error(m['L_IH(end)/P_IH'])}, BIC count {m.get('BIC phase count')}")
    if failed:
        return refuted("phase markers", f"{name}: inconsistent ({', '.join(failed)} fails): {summary}",
                       {**ce, "failed": failed}, markers=dict(m))
    if not converged:
        return inconclusive("phase markers", f"{name}: Phase IV not reached on this horizon (losses not yet "
                            f"below 1%): {summary}", markers=dict(m))
    return holds("phase markers", f"{name}: consistent (four phases): {summary}", markers=dict(m))


def order_verdict(name: str, m: Mapping[str, Any], first: str = "G4", second: str = "IH") -> Verdict:
    """Expected order of learning: ``first`` reaches half of its loss drop before ``second`` (markers
    T_G4(0.1) for the 4-gram, T_IH(0.5) for the induction head)."""
    when = {"G4": m.get("T_G4(0.1)"), "IH": m.get("T_IH(0.5)")}
    a, b = when[first], when[second]
    if a is None or b is None:
        return inconclusive("order of markers", f"{name}: a marker is missing ({first}: {a}, {second}: {b})")
    ev = f"{name}: T_{first} = {a:.4g}, T_{second} = {b:.4g}"
    if a < b:
        return holds("order of markers", ev + f" ({first} before {second})")
    return refuted("order of markers", ev + f" ({second} not after {first})",
                   {"model": name, f"T_{first}": a, f"T_{second}": b})


def _fmt(x) -> str:
    return "none" if x is None else f"{x:.4g}"


def trajectory_details(tr: Mapping[str, Any], m: Mapping[str, Any], n: int = 300) -> dict[str, Any]:
    """details["trajectory"] for the report: L_G4, L_IH (log10) against t, with phase boundaries."""
    t = tr["t"]
    idx = np.unique(np.linspace(0, len(t) - 1, min(n, len(t))).astype(int))
    bounds = [m.get(k) for k in ("T_G4(0.1)", "T_IH(0.9)", "T_IH(0.1)")]
    return {"x": t[idx], "xlabel": "t (GF time)",
            "series": {"log10 L_G4": np.log10(np.maximum(tr["L_G4"][idx], 1e-300)),
                       "log10 L_IH": np.log10(np.maximum(tr["L_IH"][idx], 1e-300))},
            "boundaries": [b for b in bounds if b is not None]}


# --- IH-F2-repro ----------------------------------------------------------------------------------------

F2_CHOICES = {
    **record("RC-1", "RC-2", "RC-5", "RC-6", "RC-7", "RC-8", "RC-9", "RC-10", "RC-11", "RC-12", "RC-17", "RC-19"),
    "target": f"alpha* = {ALPHA}, w* = {W} (spec base point)",
    "x-axis": "GF time t (= GD step x lr); Figure 2's axis is not stated (R1 g)",
    "GD step": "lr = 1 full, 1.5 quick (the spec's step 4 diverges on this reconstruction: d2L/dv1^2 -> sum pi_j^2 -> 1 as head 1 "
               "learns, so GD needs lr < 2; the full variant records a lr = 4 run)",
    "models": "(i) reduced ODE flow.stage2 (RC-12, LSODA); (ii) GD exact softmax: layerwise = Stage II from RC-11 init "
              "with the first layer at its limit (RC-9); joint = all six from RC-11 (p1(0) = 0)",
    "joint L_G4": JOINT_NOTE,
    "verdict": "combine over the paper's setting: (i) and (ii)-layerwise; joint-training items are recorded answers "
               "to the reviewer's check (R1 k), not part of the verdict",
    "quick": f"L = {QUICK['L']}, n = {QUICK['n']}, sigma_init = {QUICK['sigma']}, {QUICK['steps']} GD steps",
    "full": f"L = {FULL['L']}, n = {FULL['n']}, sigma_init = {FULL['sigma']}, {FULL['steps']} GD steps (spec's CPU "
            "settings except the step size)",
    **{f"criterion: {k}": v for k, v in CRITERIA.items()},
}


def f2_verdict(runs: Mapping[str, dict], analyses: Mapping[str, dict]) -> Verdict:
    main = ("(i) reduced ODE", "(ii) GD layerwise")
    parts = {}
    for name in main:
        parts[f"{name}: four phases"] = four_phase_verdict(name, analyses[name])
        parts[f"{name}: 4-gram before IH"] = order_verdict(name, analyses[name])
    v = combine(parts, method="Figure 2 reading:")
    mj = analyses["(ii) GD joint"]
    joint_order = order_verdict("(ii) GD joint", mj)
    joint_four = four_phase_verdict("(ii) GD joint", mj)
    drops = {k: analyses[k].get("L_IH drop in Phase I (fraction)") for k in analyses}
    notes = ["L_IH drop in Phase I: " + ", ".join(f"{k} {100 * d:.1f}%" for k, d in drops.items() if d is not None),
             f"joint training (R1 k): {joint_order.evidence}; first layer p1 >= 1 at t = {_fmt(mj.get('T_p1>=1'))}, "
             f">= 2 at t = {_fmt(mj.get('T_p1>=2'))} vs T_G4(0.1) = {_fmt(mj.get('T_G4(0.1)'))} and T_IH(0.9) = "
             f"{_fmt(mj.get('T_IH(0.9)'))}; {joint_four.status.value}: {joint_four.evidence}"]
    rates = {k: (a.get("Phase IV: L_G4 log-log slope"), a.get("Phase IV: L_IH exp. rate")) for k, a in analyses.items()}
    notes.append("Phase IV (recorded): " + ", ".join(
        f"{k}: L_G4 ~ t^{_fmt(g)}, L_IH ~ exp(-{_fmt(r)} t)" for k, (g, r) in rates.items()))
    for extra in ("(ii) GD joint, MC L_G4, p1(0)=0", "(ii) GD joint, MC L_G4, p1(0)=3", "(ii) GD layerwise, lr=4"):
        if extra in analyses:
            a = analyses[extra]
            notes.append(f"{extra}: L_G4(end)/L_G4(0) = {a['L_G4(end)/L_G4(0)']:.3g}, T_G4(0.01) = "
                         f"{_fmt(a.get('T_G4(0.01)'))}, T_IH(0.5) = {_fmt(a.get('T_IH(0.5)'))}, p1(end) = "
                         f"{_fmt(a.get('p1(end)'))}")
    word = {"holds": "consistent", "refuted": "inconsistent"}.get(v.status.value,
                                                                  "not reproducible from the stated information")
    evidence = (f"{word} (verdict on the reconstruction; Figure 2 and its setup are lost): " + v.evidence + ". "
                + "; ".join(notes))
    details = {**v.details, "markers": analyses, "joint": {"order": joint_order.to_json(), "four phases":
                                                                 joint_four.to_json()},
               "trajectory": trajectory_details(runs["(ii) GD layerwise"], analyses["(ii) GD layerwise"]),
               "trajectory (reduced ODE)": trajectory_details(runs["(i) reduced ODE"], analyses["(i) reduced ODE"])}
    return Verdict(v.status, v.method, evidence, v.counterexample, details)


@CLAIMS.add("f2-repro", location="Figure 2 and Thm 5.5 prose, Sec. 5.2", kind=Kind.REPRODUCTION,
            catalogue_id="IH-F2-repro", choices=F2_CHOICES,
            statement="A learning transition from the 4-gram mechanism to the induction head occurs, with four-phase "
                      "dynamics (partial learning, plateau, emergence, convergence) and a distinct transition point in "
                      "each head (prose-only: Figure 2 is lost; quick variant, small L). Full profile: the spec's CPU "
                      "size (L = 50, 6000 sequences, sigma_init = 1e-3), plus joint training with the MC L_G4 from "
                      "p1(0) = 0 and p1(0) = 3, and a run at the spec's GD step 4."
                      + " Verdict on the reconstruction (RC-1, RC-2, RC-5, RC-6, RC-7, RC-8, RC-9, RC-10, RC-11, RC-12, RC-17, RC-19).",
            params={"cfg": QUICK, "extended": False, "store": None, "bic_points": 40, "joint_bic_points": 0},
            variants={"full": Variant(params={"cfg": FULL, "extended": True, "store": "inductionheads.f2-repro-full",
                                              "bic_points": 120, "joint_bic_points": 120},
                                      tags={"slow"}, id="f2-repro-full")})
def f2_repro(ctx) -> Verdict:
    p = ctx.params
    device = "cpu" if not p["extended"] else (ctx.device if ctx.device != "auto" else "cpu")
    runs = f2_runs(dict(p["cfg"]), ctx.seed, device, p["extended"], p["store"])
    return f2_verdict(runs, {k: analyse(v, bic_points=p["joint_bic_points"] if "joint" in k else p["bic_points"])
                             for k, v in runs.items()})


# --- IH-R51-23gram ----------------------------------------------------------------------------------------

def residual_route_time_sym():
    """SymPy: GF of the residual route TF_1 = r·u (u = x_L, the token coordinate of h_L, for the 2-gram;
    u = x̃_L = x_{L-1}, the first-layer coordinate of h_L at the RC-9 limit, for the 3-gram), target α u,
    population loss ½E(r u − α u)² = ½(r − α)² (E u² = 1).  Returns (r(t), T(ε)) with
    T(ε) = min{t : loss ≤ ε·loss(0)}; neither depends on L nor on σ_init."""
    import sympy as sp
    t, a, s, eps = sp.symbols("t alpha sigma epsilon", positive=True)
    r = sp.Function("r")
    loss = lambda rr: sp.Rational(1, 2) * (rr - a) ** 2  # noqa: E731
    rr = sp.Symbol("rr")
    sol = sp.dsolve(sp.Eq(r(t).diff(t), -sp.diff(loss(rr), rr).subs(rr, r(t))), r(t), ics={r(0): s}).rhs
    T = sp.Symbol("T", positive=True)
    T_eps = sp.solve(sp.Eq(sp.simplify(loss(sol.subs(t, T)) / loss(s)), eps), T)
    return sp.simplify(sol), [sp.simplify(x) for x in T_eps]


def residual_time_verdict(r_sol, T_eps, expected) -> Verdict:
    """The derived residual-route learning time equals ``expected`` (a SymPy expression in ε) symbolically,
    and is free of L and σ_init; refuted with the derived expression otherwise."""
    import sympy as sp
    ok = any(sp.simplify(T - expected) == 0 for T in T_eps)
    free = all(not ({str(x) for x in T.free_symbols} & {"sigma", "L"}) for T in T_eps)
    if ok and free:
        return proved("symbolic: sympy dsolve + solve", f"r(t) = {r_sol}; T(eps) = {T_eps[0]} = {expected}: "
                      "independent of L and sigma_init")
    return refuted("symbolic: sympy dsolve + solve", f"derived T(eps) = {T_eps} differs from {expected}",
                   {"derived T(eps)": str(T_eps), "expected": str(expected)})


def residual_route_gd(L: int, sigma: float, seed: int, gram: int, n: int = 5000, lr: float = 0.01,
                      eps: float = 0.1, t_max: float = 20.0) -> float | None:
    """Full-batch GD on the MC loss ½ mean(r u − α u)² (torch, float64) with u read from the last
    position's residual stream of the six-parameter model (gram 2: u = x_L; gram 3: u = x̃_L from
    ``torch_model.first_layer`` at the limit); returns the time t = step·lr at which the loss first
    falls to ε of its initial value."""
    import torch
    X = M.sample(n, L, seed, "cpu")
    u = X[:, -1] if gram == 2 else M.first_layer(X, 0.0, limit=True)[:, -1]
    r = torch.tensor(float(sigma), dtype=M.DTYPE, requires_grad=True)
    loss0 = None
    for step in range(int(t_max / lr) + 1):
        loss = 0.5 * ((r * u - ALPHA * u) ** 2).mean()
        val = float(loss.detach())
        loss0 = val if loss0 is None else loss0
        if val <= eps * loss0:
            return step * lr
        (g,) = torch.autograd.grad(loss, r)
        r = (r - lr * g).detach().requires_grad_(True)
    return None


def g4_time(L: int, sigma: float, eps: float = 0.1, t_end: float = 80.0) -> float | None:
    """T_G4(ε) of the head-1 flow (helper A's ``head1.integrate_head1``, RC-1/RC-7/RC-9)."""
    t, p, v = head1.integrate_head1(ALPHA, L, sigma, t_end, n_points=120 if t_end <= 100 else 300)
    return K.t_g4(t, head1.loss_g4(p, v, ALPHA, L), eps)


def ih_time(L: int, sigma: float, q: float = 0.9) -> float | None:
    """T_IH(q) of the reduced head-2 flow (``flow.stage2(heads="IH")``, RC-12)."""
    t_end = 60.0 * (L - 2) * max(1.0, math.log(1.0 / sigma)) / (ALPHA * W)
    tr = flow.cached_stage2(ALPHA, W, L, sigma, t_end, heads="IH", n_points=300)
    m = K.ih_markers(tr.t, np.maximum(tr.L_IH, 1e-300), tr["v2"], tr.k)
    return m[f"T_IH({q})"]


def ordered(times: Mapping[str, float | None], order: tuple[str, ...], where: Mapping[str, Any]) -> Verdict:
    """Holds iff every time exists and they increase in the stated ``order``; refuted with the first
    pair out of order."""
    if any(times[k] is None for k in order):
        return inconclusive("order of learning times", f"missing time at {dict(where)}: {dict(times)}")
    for a, b in zip(order[:-1], order[1:]):
        if not times[a] < times[b]:
            return refuted("order of learning times", f"{a} (t = {times[a]:.4g}) not before {b} "
                           f"(t = {times[b]:.4g}) at {dict(where)}", {**where, **times, "expected order": order})
    return holds("order of learning times", " < ".join(f"{k} {times[k]:.3g}" for k in order))


def six_param_without_residual(seed: int, L: int = 12, steps: int = 150) -> dict[str, float]:
    """GD on the six-parameter model (no residual output path) with the 2-/3-gram target: head 1
    (strictly causal, RC-1/RC-7) cannot output x_L or x_{L-1}; returns L_G4(end)/L_G4(0) per lag."""
    cfg = dict(L=L, n=200, sigma=1e-2, lr=1.0, steps=steps, record_every=steps)
    out = {}
    for lag, name in ((0, "2-gram x_L"), (1, "3-gram x_{L-1}"), (2, "4-gram x_{L-2}")):
        tr = gd_trajectory(cfg, seed, "II", lag=lag)
        out[name] = float(tr["L_G4"][-1] / tr["L_G4"][0])
    return out


def _fits(x, y, seed, param) -> dict[str, Any]:
    y = np.asarray(y, float)
    f = fit_power_law(x, y, seed)
    laws = {"constant": lambda z: np.ones_like(z), "log": lambda z: np.log(z + 1.0),
            "sqrt": np.sqrt, "linear": lambda z: z}
    if param == "1/sigma":
        laws = {"constant": lambda z: np.ones_like(z), "log(1/sigma)": lambda z: np.log(z),
                "power 1/2": np.sqrt, "linear": lambda z: z}
    return {"param": param, "x": list(map(float, x)), "y": list(map(float, y)), "power-law exponent": f.exponent,
            "95% CI": list(f.ci), "rms residual by law (smaller = better)": compare_laws(x, y, laws)}


R51_QUICK = dict(L=(10, 40, 160), sigma=(1e-1, 1e-2, 1e-3), L_sigma=40, sigma_L=1e-2)
R51_FULL = dict(L=(10, 20, 40, 80, 160, 320), sigma=(1e-1, 1e-2, 1e-3, 1e-4), L_sigma=40, sigma_L=1e-2)

R51_CHOICES = {
    **record("RC-1", "RC-2", "RC-5", "RC-7", "RC-9", "RC-10", "RC-11", "RC-12", "RC-17"),
    "reading": "Remark 5.1 (prose): 2-/3-gram targets x_L, x_{L-1} are output through the residual stream and are "
               "learned before the induction head; 'extends straightforwardly' = the Stage-II analysis with the "
               "4-gram head replaced by a residual route",
    "residual path": "a trainable scalar r (init sigma_init, RC-11) reading the last position's residual stream "
                     "h_L = (x_L, x~_L): 2-gram u = x_L (token coordinate), 3-gram u = x~_L = x_{L-1} (first-layer "
                     "coordinate at the RC-9 limit); TF_1 = r u. Alternative 'head 1 at distance 0/1' not run: under "
                     "RC-1 causal head 1 cannot see position L; the six-parameter model without residual is run to "
                     "show it cannot fit x_L, x_{L-1}",
    "times": "T_res(0.1) (residual route, closed form + MC GD), T_G4(0.1) (head-1 flow, helper A), T_IH(0.9) "
             "(reduced head-2 flow, RC-12, helper C); alpha* = 0.5, w* = 0.3",
    "sweeps": "quick: L in {10, 40, 160} (sigma 1e-2), sigma in {1e-1, 1e-2, 1e-3} (L = 40); full: L in "
              "{10..320}, sigma in {1e-1..1e-4}",
}


@CLAIMS.add("r51-23gram", location="Remark 5.1, Sec. 5.1.1", kind=Kind.DYNAMICS, catalogue_id="IH-R51-23gram",
            choices=R51_CHOICES,
            statement="Prose-only: the 2- and 3-gram targets (x_L, x_{L-1}) can be output through the residual block "
                      "and must be learned prior to the induction head; the analysis extends straightforwardly to "
                      "them (quick sweep; full profile: L from 10 to 320, sigma_init from 1e-1 to 1e-4)."
                      + " Verdict on the reconstruction (RC-1, RC-2, RC-5, RC-7, RC-9, RC-10, RC-11, RC-12, RC-17).",
            params={"grid": R51_QUICK},
            variants={"full": Variant(params={"grid": R51_FULL}, tags={"slow"}, id="r51-23gram-full")})
def r51_23gram(ctx) -> Verdict:
    grid = dict(ctx.params["grid"])
    import sympy as sp
    r_sol, T_eps = residual_route_time_sym()
    eps_ = sp.Symbol("epsilon", positive=True)
    parts = {"residual route: closed form": residual_time_verdict(r_sol, T_eps, sp.log(1 / eps_) / 2)}
    t_sym = 0.5 * math.log(10.0)
    points = [(L, grid["sigma_L"]) for L in grid["L"]] + [(grid["L_sigma"], s) for s in grid["sigma"]
                                                         if s != grid["sigma_L"]]
    points = sorted(points)
    rows, mc_err = [], 0.0
    for i, (L, s) in enumerate(points):
        times = {"T_res 2-gram": residual_route_gd(L, s, ctx.seed + i, 2),
                 "T_res 3-gram": residual_route_gd(L, s, ctx.seed + i, 3),
                 "T_G4 4-gram": g4_time(L, s), "T_IH(0.9)": ih_time(L, s)}
        for k in ("T_res 2-gram", "T_res 3-gram"):
            if times[k] is not None:
                mc_err = max(mc_err, abs(times[k] - t_sym) / t_sym)
        rows.append({"L": L, "sigma": s, **times})
        for g in ("2-gram", "3-gram"):
            parts[f"order {g} L={L} sigma={s:g}"] = ordered(
                {g: times[f"T_res {g}"], "IH": times["T_IH(0.9)"]}, (g, "IH"), {"L": L, "sigma": s})
    tol = 0.1  # MC sample of 5000 sequences (E_n u^2 = 1 +- 0.02) and GD step 0.01 on a time of 1.15
    parts["residual route: MC GD vs closed form"] = (
        holds("torch GD on the MC loss", f"max relative deviation of T_res(0.1) from log(10)/2 = {mc_err:.3g} "
              f"(tol {tol})") if mc_err <= tol else
        refuted("torch GD on the MC loss", f"T_res(0.1) deviates by {mc_err:.3g} from log(10)/2",
                {"max relative deviation": mc_err, "rows": rows}))
    v = combine(parts, method="Remark 5.1:")
    Ls = [r for r in rows if r["sigma"] == grid["sigma_L"]]
    Ss = [r for r in rows if r["L"] == grid["L_sigma"]]
    fits = {"T_G4(0.1) vs L": _fits([r["L"] for r in Ls], [r["T_G4 4-gram"] for r in Ls], ctx.seed, "L"),
            "T_G4(0.1) vs 1/sigma": _fits([1 / r["sigma"] for r in Ss], [r["T_G4 4-gram"] for r in Ss], ctx.seed,
                                          "1/sigma"),
            "T_IH(0.9) vs L": _fits([r["L"] for r in Ls], [r["T_IH(0.9)"] for r in Ls], ctx.seed, "L"),
            "T_IH(0.9) vs 1/sigma": _fits([1 / r["sigma"] for r in Ss], [r["T_IH(0.9)"] for r in Ss], ctx.seed,
                                          "1/sigma")}
    no_res = six_param_without_residual(ctx.seed)
    g4 = [r["T_G4 4-gram"] for r in rows]
    ih = [r["T_IH(0.9)"] for r in rows]
    fg, fs = fits["T_G4(0.1) vs L"], fits["T_G4(0.1) vs 1/sigma"]
    note = (f" Residual route T_res(0.1) = log(10)/2 = {t_sym:.3f} for every L, sigma (MC GD max dev {mc_err:.2g}); "
            f"4-gram head T_G4(0.1) in [{min(g4):.3g}, {max(g4):.3g}] (exponent in L {fg['power-law exponent']:.3f}, "
            f"CI [{fg['95% CI'][0]:.3f}, {fg['95% CI'][1]:.3f}]; in 1/sigma {fs['power-law exponent']:.3f}, CI "
            f"[{fs['95% CI'][0]:.3f}, {fs['95% CI'][1]:.3f}]); IH T_IH(0.9) in [{min(ih):.4g}, {max(ih):.4g}] "
            f"(exponent in L {fits['T_IH(0.9) vs L']['power-law exponent']:.2f}). What makes x_{{L-2}} harder in "
            f"the reconstruction: it is not in the last position's residual stream h_L = (x_L, x~_L ~ x_{{L-1}}), "
            f"so head 1 must move its Alibi attention from uniform onto distance 1 (a p21-v1 feedback loop, "
            f"~{min(g4) / t_sym:.0f}x the residual time at alpha* = 0.5) — a constant factor, nearly free of L and "
            f"sigma_init; both are far below the IH time. The IH plateau is unchanged (the heads decouple, "
            f"IH-E11-split), so only Phase I shortens. Six-parameter model without a residual path: "
            f"L_G4(end)/L_G4(0) = " + ", ".join(f"{k} {val:.3f}" for k, val in no_res.items())
            + " (head 1 cannot fit x_L or x_{L-1}).")
    return Verdict(v.status, v.method, v.evidence + "." + note, v.counterexample,
                   {**v.details, "rows": rows, "fit": fits["T_G4(0.1) vs L"], "fits": fits,
                    "six-parameter model without residual": no_res,
                    "sweep": {"param": "L", "x": [r["L"] for r in Ls],
                              "measured": [r["T_G4 4-gram"] for r in Ls], "predicted": [t_sym] * len(Ls)}})
