"""Sweeps for the sharp-regime claims (Sec. 5.3, Prop. 4, Lemmas 9–10, Thm 2, Sec. 4; spec §3.7, §4.2
S-eps, S-path, S-stab, S-L-eta), run on the q-space simulator (dynamics.py).

The model fact every sweep here rests on (claim ICLN-DER-scale): with orthogonal features of norm r and
task values f = L·h (h's law independent of L), g = G H G = r⁴ H and H ∝ E f fᵀ ∝ L², so one GD step is
q ← q + c·h(q) with c := η σ² r⁴ (σ² = (LΔ)² for the i.i.d. N(0,(LΔ)²) law).  The logit trajectory
depends on (η, L, Δ, r) only through c, and l(t) = σ²·λ(c t) (exactly λ_c(t) for discrete GD).  So
"sharp" versus "flat" can only mean "large versus small c" — there is no other L-dependence, and nothing
in the model refers to 1/(Δδ).  In the symmetric setting (uniform p, i.i.d. tasks, G = r² I) the loss
is a decreasing function of a = q_k − q_{k,m} alone and GD never decreases a, so l(t) is monotone for
every step size (no stability limit at all).  The tail (N → ∞, large a): a = q_k − q_{k,m} obeys
e^{2a} ≈ 2cK t, so l(t) ≈ (K−1)/(4ηr⁴t) and η g_k(t) ≈ (K−1)/(2Kt) — independent of L, and of N up to
the count fluctuations (measured: T(ε) relative ≈ K/(2cε²), e.g. 409 steps at K = 4, c = 50, ε = 0.01).

Defaults (recorded as choices by the claims): orthonormal features (r = 1, Δ = √2 the pairwise
distance), i.i.d. task values N(0, (LΔ)²), p uniform, symmetric mode (one query row), finite N by M
Monte-Carlo count vectors, δ = δ_min = √(20K/N), η normalised as η = c/(σ² r⁴) with c recorded.
Every function returns plain numpy / dict results; nothing here knows about verdicts.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

import theoryverify as tv

from . import dynamics as D
from . import phase_measures as PM

SQRT2 = math.sqrt(2.0)


def delta_min(N: int, K: int) -> float:
    return D.delta_min(N, K)


def sharp_L(cthr: float, N: int, K: int, Delta: float = SQRT2) -> float:
    """L = c_thr/(Δ δ_min): c_thr ≥ 1 is the sharp side of the threshold 1/(Δδ) (Thm 2)."""
    return cthr / (Delta * delta_min(N, K))


def setting(K: int, L: float, eta: float, *, N: int | None, M: int, seed: int = 0, Delta: float = SQRT2,
            r: float = 1.0, **label) -> D.Setting:
    """Symmetric setting: orthogonal features of norm r, i.i.d. N(0, (LΔ)²) task values."""
    return D.symmetric_setting(K, eta, N=N, M=M, r=r, sigma2=(L * Delta) ** 2, seed=seed, L=L, Delta=Delta,
                               **label)


def eta_for(c: float, L: float, Delta: float = SQRT2, r: float = 1.0) -> float:
    """η = c/(σ² r⁴): the step that gives the trajectory of reduced step c."""
    return c / ((L * Delta) ** 2 * r ** 4)


def loss_levels(eps: Sequence[float], l0: float | np.ndarray, relative: bool) -> dict[str, object]:
    return {f"eps={e:.6g}": (e * e * l0 if relative else e * e) for e in eps}


def monotone_violation(loss: np.ndarray, rtol: float = 1e-9) -> np.ndarray:
    """(B,) first recorded index where l increases by more than rtol·l (or is non-finite); −1 if none."""
    bad = ~np.isfinite(loss[1:]) | (np.diff(loss, axis=0) > rtol * np.abs(loss[:-1]))
    return np.where(bad.any(0), bad.argmax(0) + 1, -1)


# --- the tail experiment (shared by claims 56-63: one run gives every ε) -----------------------

def tail_experiment(*, K: int, Ns: Sequence[int], cthr: float, c: float, eps: Sequence[float], M: int,
                    seeds: int, horizon: int, relative: bool = True) -> dict:
    """For each N (sharp L = c_thr/(Δδ_min)) and seed, GD with reduced step c, recorded every step up
    to ``horizon``; T(ε) (events), T1, and Ā, q_k, g_k, max|g_off| at the formula times."""
    Ns = list(Ns)
    sets, meta = [], []
    for N in Ns:
        L = sharp_L(cthr, N, K)
        for s in range(seeds):
            sets.append(setting(K, L, eta_for(c, L), N=N, M=M, seed=s))
            meta.append((N, L, s))
    l0 = np.array([0.5 * st.sigma2 * (1 - 1 / K) for st in sets])   # l(0) (uniform attention, N → ∞ value)
    ev = PM.phase_events(K, {f"eps{i}": (e * e * l0 if relative else e * e) for i, e in enumerate(eps)})
    tr = D.simulate(sets, horizon, events=ev, record_every=1, desc="sharp tail")
    l0 = tr.metrics["loss"][0]
    out = {"K": K, "Ns": Ns, "eps": list(eps), "cthr": cthr, "c": c, "M": M, "seeds": seeds,
           "horizon": horizon, "relative": relative, "steps_run": tr.steps_run, "runs": []}
    Delta = SQRT2
    for b, (N, L, s) in enumerate(meta):
        eta, dl = sets[b].eta, delta_min(N, K)
        run = {"N": N, "L": L, "seed": s, "eta": eta, "delta": dl, "l0": float(l0[b]),
               "T1": int(tr.hits["T1"][b]), "T1_logK": int(tr.hits["T1_logK"][b]), "per_eps": []}
        for i, e in enumerate(eps):
            Teps = int(tr.hits[f"eps{i}"][b])
            Tf = float(PM.T_fstar(K, eta, L, Delta, dl, e))
            Ts = float(PM.T_sstar(K, eta, L, Delta, dl, e))
            row = {"eps": e, "T": Teps, "Tfstar": Tf, "Tsstar": Ts}
            for C in (0.1, 1.0, 10.0):
                t = int(round(C * Ts))
                ok = t <= tr.steps_run
                row[f"C{C:g}"] = {"t": t, "in_run": ok,
                                  **({m: float(tr.metrics[m][t, b]) for m in ("abar", "qdiag", "gdiag", "goff_maxabs")}
                                     if ok else {})}
            tf = int(math.floor(Tf)) + 1
            row["at_Tf+1"] = ({"t": tf, "gdiag": float(tr.metrics["gdiag"][tf, b])} if tf <= tr.steps_run
                              else {"t": tf})
            if 0 <= run["T1"] < Teps:
                w = slice(run["T1"] + 1, Teps + 1)
                g, go = tr.metrics["gdiag"][w, b], tr.metrics["goff_maxabs"][w, b]
                row["window"] = {"start": run["T1"] + 1, "stop": Teps, "eta_g_mean": float(eta * g.mean()),
                                 "eta_g_min": float(eta * g.min()), "eta_g_max": float(eta * g.max()),
                                 "eta_goff_max": float(eta * go.max())}
            if Tf < Ts and int(Ts) <= tr.steps_run:
                w = slice(int(Tf) + 1, int(Ts) + 1)
                g = tr.metrics["gdiag"][w, b]
                row["formula_window"] = {"g_mean": float(g.mean()), "g_min": float(g.min()),
                                         "g_max": float(g.max()),
                                         "goff_max": float(tr.metrics["goff_maxabs"][w, b].max())}
            run["per_eps"].append(row)
        out["runs"].append(run)
    return out


# --- Phase I (the fast phase) --------------------------------------------------------------------

def bic_end_of_fast_phase(t: np.ndarray, loss: np.ndarray, n_points: int = 60, floor_rel: float = 1e-3,
                          n_candidates: int = 50) -> dict:
    """BIC segment count of log l against log t (t ≥ 1, resampled evenly in log t; choice of
    spec §3.0); the end of the fast phase = right end of the steepest segment."""
    keep = (t >= 1) & np.isfinite(loss) & (loss > 0)
    lt, ll = np.log(t[keep]), np.log(loss[keep])
    grid = np.linspace(lt[0], lt[-1], n_points)
    y = np.interp(grid, lt, ll)
    fit = tv.phases.segment_count_bic(grid, y, max_segments=3, min_size=5, n_candidates=n_candidates,
                            rss_floor=n_points * floor_rel ** 2)
    edges = [grid[0], *fit.breakpoints, grid[-1]]
    slopes = [(np.interp(b, grid, y) - np.interp(a, grid, y)) / (b - a) for a, b in zip(edges[:-1], edges[1:])]
    j = int(np.argmin(slopes))
    end = float(np.exp(edges[j + 1])) if j + 1 < len(edges) - 1 else float("nan")
    return {"count": fit.count, "breakpoints_t": [float(np.exp(b)) for b in fit.breakpoints],
            "slopes": [float(s) for s in slopes], "end_fast": end, "bic": {str(k): v for k, v in fit.bic.items()}}


def trimmed_knee(t: np.ndarray, loss: np.ndarray, sigma: float = 2.0, trim: int = 6) -> np.ndarray:
    """Knee of log l against t (argmax of the curvature of the Gaussian-smoothed log l), ignoring the
    first and last ``trim`` records, where the smoothing's edge padding creates spurious curvature
    (phase_measures.knee otherwise returns the last record for these slowly flattening curves)."""
    from scipy.ndimage import gaussian_filter1d
    y = gaussian_filter1d(np.log(np.maximum(loss, 1e-300)), sigma, axis=0, mode="nearest")
    curv = np.gradient(np.gradient(y, t, axis=0), t, axis=0)
    curv[:trim] = -np.inf
    curv[-trim:] = -np.inf
    return t[np.argmax(curv, axis=0)]


def phase1_experiment(configs: Sequence[dict], *, K: int, M: int, steps: int, bic: bool = True,
                      window_eps: float | None = None) -> list[dict]:
    """configs: dicts with N, L, eta, seed (one batch).  Returns per run the three T1 definitions,
    the BIC end of the fast phase, and (window_eps) the mean/min/max of K g_k over t ≤ T_f^*-formula."""
    sets = [setting(K, cf["L"], cf["eta"], N=cf["N"], M=M, seed=cf.get("seed", 0)) for cf in configs]
    tr = D.simulate(sets, steps, events=PM.phase_events(K), record_every=1, desc="sharp phase I")
    knee = trimmed_knee(tr.t, tr.metrics["loss"])
    out = []
    for b, cf in enumerate(configs):
        r = {**cf, "T1": int(tr.hits["T1"][b]), "T1_logK": int(tr.hits["T1_logK"][b]), "knee": int(knee[b]),
             "delta": delta_min(cf["N"], K), "steps_run": tr.steps_run}
        if bic:
            r["bic"] = bic_end_of_fast_phase(tr.t, tr.metrics["loss"][:, b])
        if window_eps is not None:
            Tf = float(PM.T_fstar(K, cf["eta"], cf["L"], SQRT2, r["delta"], window_eps))
            stop = min(int(Tf), tr.steps_run)
            g = K * tr.metrics["gdiag"][: stop + 1, b]
            r["window"] = {"Tfstar": Tf, "stop": stop, "Kg_mean": float(g.mean()), "Kg_min": float(g.min()),
                           "Kg_max": float(g.max())}
        out.append(r)
    return out


# --- fixed-η L sweep (claims 56 (iii), 63, 66) -----------------------------------------------------

def fixed_eta_experiment(*, K: int, N: int | None, M: int, Ls: Sequence[float], eta: float, eps: Sequence[float],
                         relative: bool, steps: int, Delta: float = SQRT2, r: float = 1.0,
                         eps_rel: Sequence[float] = ()) -> dict:
    """T(ε) for every L at one common η (absolute or relative ε; ``eps_rel``: a second, relative grid
    in the same run, returned as ``T_rel``).  Relative levels are ε² · ½σ²(1 − 1/K)."""
    sets = [setting(K, float(L), eta, N=N, M=M, Delta=Delta, r=r) for L in Ls]
    l0 = np.array([0.5 * s.sigma2 * (1 - 1 / K) for s in sets])
    ev = {f"eps{i}": ("loss", "<=", (e * e * l0 if relative else np.full(len(sets), e * e))) for i, e in enumerate(eps)}
    ev.update({f"rel{i}": ("loss", "<=", e * e * l0) for i, e in enumerate(eps_rel)})
    tr = D.simulate(sets, steps, events=ev, stop_when_hit=True, record_every=max(1, steps // 200), desc="fixed eta")
    T = np.array([[int(tr.hits[f"eps{i}"][b]) for i in range(len(eps))] for b in range(len(sets))])
    Tr = np.array([[int(tr.hits[f"rel{i}"][b]) for i in range(len(eps_rel))] for b in range(len(sets))])
    return {"K": K, "N": N, "M": M, "Ls": [float(x) for x in Ls], "eta": eta, "eps": list(eps), "relative": relative,
            "T": T.tolist(), "eps_rel": list(eps_rel), "T_rel": Tr.tolist(), "steps_run": tr.steps_run,
            "l0": tr.metrics["loss"][0].tolist(), "Delta": Delta, "r": r}


# --- claim 65 (a): invariance at fixed η L² ----------------------------------------------------------

def invariance_experiment(*, Ls: Sequence[float], c: float, steps: int, seed: int, N: int = 100, M: int = 300,
                          geometry: str = "scaled_orthogonal") -> dict:
    """Paper configuration (Sec. 6 cos tasks, projection reading, d = 15, K = 4, Δ = 3), the empirical
    loss on M prompts (tasks paired, queries sampled — no symmetry), η = c/(L² Δ² r⁴): the logit
    tables and l/L² along the whole run, compared across L (which spans the claimed threshold)."""
    from . import section6 as S6
    prs = [S6.cosine_prompts(float(L), seed, geometry=geometry, N=N, M=M) for L in Ls]
    r4 = float(np.linalg.norm(prs[0].V[:, 0])) ** 4
    sets = [S6.theory_setting(p, c / (float(L) ** 2 * 9.0 * r4)) for p, L in zip(prs, Ls)]
    tr = D.simulate(sets, steps, record_every=1, keep_tables=True, desc="invariance")
    q = tr.tables["q"]                                        # (T, B, K, K)
    ln = tr.metrics["loss"] / np.asarray(Ls)[None, :] ** 2
    dq = np.abs(q - q[:, :1]).max(axis=(0, 2, 3)) / max(1.0, float(np.abs(q).max()))
    dl = (np.abs(ln - ln[:, :1]) / np.abs(ln[:, :1])).max(0)
    return {"Ls": [float(x) for x in Ls], "c": c, "steps": steps, "N": N, "M": M, "geometry": geometry,
            "max_rel_dq": dq.tolist(), "max_rel_dloss_over_L2": dl.tolist(),
            "final_rel_loss": (tr.metrics["loss"][-1] / tr.metrics["loss"][0]).tolist(),
            "q_final_11": q[-1, :, 0, 0].tolist()}


# --- claim 65 (b): stability map ------------------------------------------------------------------

def stability_experiment(*, K: int, N: int, M: int, etas: Sequence[float], Ls: Sequence[float], Delta: float,
                         reading: str, steps: int, seed: int) -> dict:
    """Empirical loss (M prompts, i.i.d. N(0, (LΔ)²) task values paired per prompt, sampled queries —
    non-symmetric, so GD *can* overshoot), features scaled orthogonal (v_k = (Δ/√2) e_k, ``reading`` =
    "geometric") or orthonormal with task gaps ∝ LΔ ("task-gap").  First step at which l(t) increases
    (rel. 1e-9) or is non-finite, per (η, L)."""
    r = Delta / SQRT2 if reading == "geometric" else 1.0
    rng = np.random.default_rng([seed, N, 65])
    h = rng.standard_normal((M, K))
    query = rng.integers(0, K, size=M)
    sets, grid = [], []
    for eta in etas:
        for L in Ls:
            sets.append(D.Setting(gram=r * r * np.eye(K), p=np.full(K, 1 / K), eta=float(eta), N=N, M=M,
                                  tasks=float(L) * Delta * h, query=query, seed=seed))
            grid.append((float(eta), float(L)))
    tr = D.simulate(sets, steps, record_every=1, desc="stability")
    viol = monotone_violation(tr.metrics["loss"])
    final = tr.metrics["loss"][-1] / tr.metrics["loss"][0]
    Lcrit = {}
    for eta in etas:
        bad = [L for (e, L), v in zip(grid, viol) if e == float(eta) and v >= 0]
        Lcrit[f"{eta:g}"] = min(bad) if bad else float("inf")
    return {"K": K, "N": N, "M": M, "Delta": Delta, "reading": reading, "r": r, "steps": steps,
            "etas": [float(e) for e in etas], "Ls": [float(x) for x in Ls], "violation_step": viol.tolist(),
            "final_rel_loss": final.tolist(), "L_crit": Lcrit, "threshold": 1.0 / (Delta * delta_min(N, K))}


# --- claim 65 (b'): convergence failure at large steps (general features) ---------------------------

def stuck(loss: np.ndarray, level: float = 0.05, tail: float = 0.2, rtol: float = 1e-8) -> np.ndarray:
    """(B,) runs that end above ``level``·l(0) with l(t) flat (relative decrease < rtol) over the last
    ``tail`` fraction of the run: GD has stopped in a saturated-softmax state."""
    n = loss.shape[0]
    a, b = loss[int((1 - tail) * (n - 1))], loss[-1]
    return (b > level * loss[0]) & ((a - b) <= rtol * np.abs(b))


def failure_experiment(*, N: int, etas: Sequence[float], Ls: Sequence[float], M: int, steps: int, seed: int,
                       geometry: str = "general") -> dict:
    """Sec. 6 prompts (cos tasks, projection reading, d = 15, K = 4, Δ = 3) with ``geometry`` features:
    for each (η, L), whether GD gets stuck (:func:`stuck`) — the only large-step failure we find
    (l(t) itself stays monotone).  L_fail(η) = smallest L on the grid that gets stuck."""
    from . import section6 as S6
    sets, grid = [], []
    for eta in etas:
        for L in Ls:
            sets.append(S6.theory_setting(S6.cosine_prompts(float(L), seed, geometry=geometry, N=N, M=M), float(eta)))
            grid.append((float(eta), float(L)))
    tr = D.simulate(sets, steps, record_every=1, desc="failure")
    st = stuck(tr.metrics["loss"])
    viol = monotone_violation(tr.metrics["loss"])
    Lfail = {}
    for eta in etas:
        bad = [L for (e, L), s in zip(grid, st) if e == float(eta) and s]
        Lfail[f"{eta:g}"] = min(bad) if bad else float("inf")
    return {"N": N, "M": M, "geometry": geometry, "steps": steps, "etas": [float(e) for e in etas],
            "Ls": [float(x) for x in Ls], "stuck": st.tolist(), "violation_step": viol.tolist(),
            "final_rel_loss": (tr.metrics["loss"][-1] / tr.metrics["loss"][0]).tolist(), "L_fail": Lfail,
            "threshold": 1.0 / (3.0 * delta_min(N, 4))}
