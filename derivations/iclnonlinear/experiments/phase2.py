"""Long-horizon q-space runs for flat Phase II (Prop. 3, Lemmas 6–8, Thm 1; spec §3.6, §4.2 S-eps, S-N,
S-path, S-Delta).

Why a step schedule.  The q-dynamics of dynamics.py depend on (η, the task variance σ², the feature norm r)
only through the step c = η r⁴ σ² (g = r⁴ H and H ∝ σ²; checked exactly in tests), and past Phase I the
loss decays as l(t) ≈ C_K /(η r⁴ t) (a power law, measured here), so T(ε) grows like 1/ε²: 10⁵–10⁹
constant-η steps on the spec grids.  :func:`stretched` therefore runs GD in segments — ``n0`` steps at
the base η, then segments of ``n_seg`` steps at η·2^j (j = 1, 2, …) — and reports every time in
*equivalent base-η steps* t_eq = Σ (steps × 2^j).  Along the power-law tail the curvature falls like 1/t,
so the step size stays a fixed small fraction (≈ 1/(2 n_seg)) of the local time scale; the agreement of
hitting times with plain constant-η GD is measured in :func:`schedule_check` (claims report it).

Everything here is a pure function of its arguments (randomness: the settings' seeds).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Sequence

import numpy as np

from . import dynamics as D


@dataclass
class Run:
    """A scheduled run: ``t`` equivalent base-η steps of the records (n_rec,), ``metrics[name]``
    (n_rec, B), ``hits[event]`` first equivalent step at which the event held (B,; NaN = never),
    final ``q`` and the schedule used."""

    t: np.ndarray
    metrics: dict[str, np.ndarray]
    hits: dict[str, np.ndarray]
    q: np.ndarray
    schedule: dict

    def at(self, name: str, t: np.ndarray) -> np.ndarray:
        """metrics[name] at equivalent steps t (B,), linear interpolation in (log t, value) —
        the quantities read this way (1 − Ā, q_k, g) are smooth past Phase I."""
        out = np.empty(len(t))
        x = np.log(np.maximum(self.t, 1.0))
        for b, tb in enumerate(np.asarray(t, float)):
            y = self.metrics[name][:, b]
            out[b] = np.interp(np.log(max(tb, 1.0)), x, y, left=np.nan, right=np.nan)
        return out


def stretched(settings: Sequence[D.Setting], t_max: float, *, n0: int = 400, n_seg: int = 200,
              events: Mapping[str, D.Event] | None = None, records_per_seg: int = 20,
              stop_when_hit: bool = True, t_min: float = 0.0, device: str = "cpu") -> Run:
    """GD from q = 0 with the doubling schedule of the module docstring, until ``t_max`` equivalent
    steps (or, with ``stop_when_hit``, once every setting hit every event and t ≥ ``t_min``)."""
    events = dict(events or {})
    B = len(settings)
    hits = {n: np.full(B, np.nan) for n in events}
    ts, recs, q, t0, j = [], {m: [] for m in D.METRICS}, None, 0.0, 0
    while t0 < t_max:
        scale = 2.0 ** j
        steps = n0 if j == 0 else n_seg
        seg = [replace(s, eta=s.eta * scale) for s in settings]
        tr = D.simulate(seg, steps, record_every=max(1, steps // records_per_seg), events=events,
                        q0=q, device=device, desc=f"seg{j}")
        first = slice(None) if j == 0 else slice(1, None)        # the segment's t=0 record repeats
        ts.append(t0 + scale * tr.t[first])
        for m in D.METRICS:
            recs[m].append(tr.metrics[m][first])
        for n in events:
            h = tr.hits[n].astype(float)
            new = np.isnan(hits[n]) & (h >= 0)
            hits[n][new] = t0 + scale * h[new]
        t0 += scale * tr.steps_run
        q = tr.q
        j += 1
        if stop_when_hit and t0 >= t_min and all(not np.isnan(v).any() for v in hits.values()):
            break
    return Run(t=np.concatenate(ts), metrics={m: np.concatenate(v) for m, v in recs.items()}, hits=hits, q=q,
               schedule={"n0": n0, "n_seg": n_seg, "segments": j, "growth": 2.0, "t_end": t0})


# --- the configurations of the Phase-II claims -------------------------------------------------

SQRT2 = float(np.sqrt(2.0))   # pairwise distance of orthonormal features: the Δ of these runs (r = 1)


def sigma2_of(L: float, law: str) -> float:
    """Task variance of the i.i.d. laws of spec §3.0 on orthonormal features (Δ = √2)."""
    from .phase_measures import isotropic_sigma2
    return isotropic_sigma2(L, SQRT2, law)


def initial_loss(settings: Sequence[D.Setting]) -> np.ndarray:
    """l(0) of each setting (its own prompt sample), for relative-ε levels."""
    return D.simulate(settings, 0, device="cpu").metrics["loss"][0]


def loss_events(abs_levels: Mapping[str, float], rel_levels: Mapping[str, float], l0: np.ndarray
                ) -> dict[str, D.Event]:
    """T(ε) events: 'abs:<name>' l ≤ ε², 'rel:<name>' l ≤ ε² l(0); plus T1 (Ā ≥ 1/2) and Ā ≥ 0.9."""
    ev: dict[str, D.Event] = {"T1": ("abar", ">=", 0.5), "A0.9": ("abar", ">=", 0.9)}
    for name, eps in abs_levels.items():
        ev[f"abs:{name}"] = ("loss", "<=", eps ** 2)
    for name, eps in rel_levels.items():
        ev[f"rel:{name}"] = ("loss", "<=", eps ** 2 * l0)
    return ev


def window(run: Run, metric: str, start: np.ndarray, stop: np.ndarray) -> dict[str, np.ndarray]:
    """min / max of a metric over the records with start ≤ t ≤ stop, per run (NaN if empty)."""
    t = run.t[:, None]
    inside = (t >= np.asarray(start)[None, :]) & (t <= np.asarray(stop)[None, :])
    x = run.metrics[metric]
    empty = ~inside.any(0)
    lo = np.where(inside, x, np.inf).min(0)
    hi = np.where(inside, x, -np.inf).max(0)
    return {"min": np.where(empty, np.nan, lo), "max": np.where(empty, np.nan, hi)}


def mean_rate(run: Run, start: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """Time-average of g_k over [start, stop] in base-η units: (q_k(stop) − q_k(start)) / (η (stop − start))
    is returned times η, i.e. the mean of η g_k per base step."""
    return (run.at("qdiag", stop) - run.at("qdiag", start)) / (np.asarray(stop) - np.asarray(start))


def run_group(K: int, *, L: float, law: str, eta0: float, Ns: Sequence[int | None], seeds: Sequence[int],
              M: int, eps_abs: Mapping[str, float], eps_rel: Mapping[str, float], t_min: float,
              n0: int, n_seg: int, t_max: float = 1e14) -> tuple[Run, list[D.Setting]]:
    """One batch (one K, one M): symmetric settings (orthonormal features, uniform p, i.i.d. tasks of the
    law with Lipschitz scale L), η = η0/σ², one setting per (N, seed); events for T1, Ā ≥ 0.9, T(ε)."""
    s2 = sigma2_of(L, law)
    settings = [D.symmetric_setting(K, eta0 / s2, N=N, M=M if N is not None else 1, sigma2=s2, seed=int(s),
                                    L=L, law=law, N_label=N) for N in Ns for s in seeds]
    l0 = initial_loss(settings)
    run = stretched(settings, t_max, n0=n0, n_seg=n_seg, events=loss_events(eps_abs, eps_rel, l0),
                    t_min=t_min)
    run.schedule["l0"] = l0
    return run, settings


# --- sweep data (JSON-able dicts; the claims turn them into verdicts) ----------------------------

def _formulas():
    from . import phase_measures as PM
    return PM


def nsweep_data(cfg: Mapping, seed: int) -> dict:
    """S-N (spec §4.2): K fixed, N grid with δ = δ_min(N), M Monte-Carlo prompt samples per setting,
    ``seeds`` independent samples per N (seeded from ``seed``).  Phase II window = [T1, T(ε_w)]
    (T1: Ā ≥ 1/2; ε_w absolute).  Read-outs at C·T_f^*(ε) (formula, constant 1) for ε in cfg['eps_grid']."""
    PM = _formulas()
    K, L, law, eta0, Ns = cfg["K"], cfg["L"], cfg["law"], cfg["eta0"], list(cfg["Ns"])
    seeds = [int(x) for x in np.random.default_rng(seed).integers(0, 2**31, cfg["seeds"])]
    s2 = sigma2_of(L, law)
    eta = eta0 / s2
    delta = np.array([D.delta_min(N, K) for N in Ns])
    eps_grid = np.asarray(cfg["eps_grid"], float)
    Tf = {C: np.array([[PM.T_fstar(K, eta, L, SQRT2, d, e) for e in eps_grid] for d in delta]) * C
          for C in cfg["C"]}
    t_min = max(float(v.max()) for v in Tf.values())
    eps_abs = {f"{e:g}": e for e in cfg["eps_abs"]}
    eps_rel = {f"{e:g}": e for e in cfg["eps_rel"]}
    run, settings = run_group(K, L=L, law=law, eta0=eta0, Ns=Ns, seeds=seeds, M=cfg["M"], eps_abs=eps_abs,
                              eps_rel=eps_rel, t_min=t_min, n0=cfg["n0"], n_seg=cfg["n_seg"], t_max=1e3 * t_min)
    S = len(seeds)
    shape = (len(Ns), S)
    h = {k: v.reshape(shape) for k, v in run.hits.items()}
    T1 = run.hits["T1"]
    Tw = run.hits[f"abs:{cfg['eps_window']:g}"]
    inw = {m: window(run, m, T1, Tw) for m in ("abar", "attn_off_max", "gdiag", "gdiag_min", "gdiag_max",
                                               "goff_maxabs")}
    rep = np.repeat(np.arange(len(Ns)), S)
    read = {}
    for C, tf in Tf.items():
        t = tf[rep]                                         # (B, n_eps)
        read[str(C)] = {"one_minus_abar": np.stack([1 - run.at("abar", t[:, j]) for j in range(len(eps_grid))], 1)
                        .reshape(len(Ns), S, -1).tolist(),
                        "one_minus_attn_min": np.stack([1 - run.at("attn_diag_min", t[:, j])
                                                        for j in range(len(eps_grid))], 1).reshape(len(Ns), S, -1).tolist(),
                        "t": tf.tolist()}
    Tf1 = np.array([PM.T_f1(K, eta, L, SQRT2)] * len(Ns))
    return {
        "config": dict(cfg), "seeds": seeds, "sigma2": s2, "eta": eta, "delta": delta.tolist(),
        "hits": {k: v.tolist() for k, v in h.items()}, "l0": run.schedule["l0"].reshape(shape).tolist(),
        "window": {m: {k: v.reshape(shape).tolist() for k, v in d.items()} for m, d in inw.items()},
        "rate": mean_rate(run, T1, Tw).reshape(shape).tolist(),
        "attn_at_T": {name: (1 - run.at("abar", run.hits[name])).reshape(shape).tolist()
                      for name in run.hits if name.startswith(("abs:", "rel:"))},
        "readout": read, "T_f1": Tf1.tolist(),
        "at_Tf1": {str(C): (1 - run.at("abar", np.repeat(C * Tf1, S))).reshape(shape).tolist() for C in (1, 10)},
        "schedule": {k: v for k, v in run.schedule.items() if k != "l0"},
    }


def epsweep_data(cfg: Mapping, seed: int) -> dict:
    """S-eps (spec §4.2): per K a single run (N → ∞ or N = 40K³ with M samples), T(ε) for every ε of the
    grid (absolute and relative), q_k at T(ε) and at T_f^*(ε)-formula (δ = δ_min(40K³) nominal)."""
    PM = _formulas()
    L, law, eta0 = cfg["L"], cfg["law"], cfg["eta0"]
    eps = np.asarray(cfg["eps"], float)
    names = {f"{e:g}": e for e in eps}
    out = {"config": dict(cfg), "K": {}}
    for K in cfg["Ks"]:
        N = None if cfg["N"] is None else int(cfg["N"] * K ** 3)
        s2 = sigma2_of(L, law)
        eta = eta0 / s2
        dnom = D.delta_min(int(40 * K ** 3), K)
        tf = np.array([PM.T_fstar(K, eta, L, SQRT2, dnom, e) for e in eps])
        run, _ = run_group(K, L=L, law=law, eta0=eta0, Ns=[N], seeds=[seed], M=cfg["M"], eps_abs=names,
                           eps_rel=names, t_min=float(max(cfg["C"]) * tf.max()), n0=cfg["n0"], n_seg=cfg["n_seg"])
        Ta = np.array([run.hits[f"abs:{n}"][0] for n in names])
        Tr = np.array([run.hits[f"rel:{n}"][0] for n in names])
        out["K"][str(K)] = {
            "N": N, "delta_nominal": dnom, "sigma2": s2, "eta": eta, "T_abs": Ta.tolist(), "T_rel": Tr.tolist(),
            "T_fstar": tf.tolist(), "T1": float(run.hits["T1"][0]), "l0": float(run.schedule["l0"][0]),
            "q_at_T_abs": [float(run.at("qdiag", np.array([t]))[0]) for t in Ta],
            "q_at_T_rel": [float(run.at("qdiag", np.array([t]))[0]) for t in Tr],
            "q_at_Tf": [float(run.at("qdiag", np.array([t]))[0]) for t in tf],
            "one_minus_abar_at_CTf": {str(C): [float(1 - run.at("abar", np.array([C * t]))[0]) for t in tf]
                                      for C in cfg["C"]},
            "schedule": {k: v for k, v in run.schedule.items() if k != "l0"}}
    return out


def path_data(cfg: Mapping, seed: int) -> dict:
    """S-path (claims 43–51, 54–64 along the hypotheses): Δ = √2 (orthonormal, r = 1), N = 40K³ (N → ∞ if cfg['M'] is
    None), δ = δ_min = 1/(√2 K), ε = 2/K (K ≥ Θ(1/ε) at its edge), L = c/(Δδ) = cK — flat for c ≤ 1, sharp for
    c > 1; per K one batch with a setting per (c, law), η = η0/σ².  Recorded per setting: T1 (Ā ≥ 1/2), T1_logK
    (q̄_k ≥ log K), T(ε) absolute (l ≤ ε²) and relative (l ≤ ε² l(0)); the formulas T_f^*, T_s^* (constants 1)
    and read-outs at C·T_f^*, C·T_s^* (1 − Ā, q_k, g_k, max |g_{k,k'}|), at T(ε) (1 − Ā, q_k), and over the
    window [T1, T(ε)] (max |g_{k,k'}|, min / max g_k, the mean rate of q_k)."""
    PM = _formulas()
    out = {"config": dict(cfg), "K": {}}
    readout = ("abar", "qdiag", "gdiag", "goff_maxabs")
    for K in cfg["Ks"]:
        delta, eps = 1 / (SQRT2 * K), 2.0 / K
        N = None if cfg["M"] is None else int(40 * K ** 3)
        settings, lab = [], []
        for c in cfg["c"]:
            for law in cfg["laws"]:
                L = c / (SQRT2 * delta)
                s2 = sigma2_of(L, law)
                settings.append(D.symmetric_setting(K, cfg["eta0"] / s2, N=N, M=cfg["M"] or 1, sigma2=s2,
                                                    seed=seed + K, c=c, law=law))
                lab.append({"c": c, "law": law, "L": L})
        l0 = initial_loss(settings)
        tf = np.array([PM.T_fstar(K, s.eta, d["L"], SQRT2, delta, eps) for s, d in zip(settings, lab)])
        ts = np.array([PM.T_sstar(K, s.eta, d["L"], SQRT2, delta, eps) for s, d in zip(settings, lab)])
        # Sec. 5.3's sharp Phase I ends when q_k's fast growth gives way to Phase III's rate Θ(ηδ²L²Δ²ε/K) (Prop. 4):
        # Ts1_C = the first t with g_k ≤ C·δ²L²Δ²ε/K, C ∈ {1, 10} (g_k starts far above it: Θ(L²Δ²/K²))
        phase3 = np.array([delta ** 2 * d["L"] ** 2 * SQRT2 ** 2 * eps / K for d in lab])
        ev = {"T1": ("abar", ">=", 0.5), "T1_logK": ("qdiag", ">=", float(np.log(K))),
              "abs": ("loss", "<=", np.full(len(settings), eps ** 2)), "rel": ("loss", "<=", eps ** 2 * l0),
              "Ts1_C1": ("gdiag", "<=", phase3), "Ts1_C10": ("gdiag", "<=", 10 * phase3)}
        t_min = float(max(cfg["C"]) * max(tf.max(), ts.max()))
        run = stretched(settings, 1e18, n0=cfg["n0"], n_seg=cfg["n_seg"], events=ev, t_min=t_min)
        T1, Ta = run.hits["T1"], run.hits["abs"]
        win = {m: window(run, m, T1, Ta) for m in ("goff_maxabs", "gdiag", "abar", "attn_off_max")}
        at = {}
        for name, base in (("Tf", tf), ("Ts", ts)):
            for C in cfg["C"]:
                t = C * base
                at[f"{C:g}*{name}"] = {m: run.at(m, t).tolist() for m in readout}
        at["Tf+1"] = {m: run.at(m, tf + 1).tolist() for m in readout}
        # the statement's Phase-II start: the measured Phase-I end T1 and C·T_f^1 (T_f^1 = K log K/(ηL²Δ²), constant 1)
        tf1 = np.array([K * np.log(K) / (s.eta * d["L"] ** 2 * SQRT2 ** 2) for s, d in zip(settings, lab)])
        at["T1"] = {m: run.at(m, T1).tolist() for m in readout + ("attn_off_max",)}
        for C in cfg["C"]:
            at[f"{C:g}*Tf1"] = {m: run.at(m, C * tf1).tolist() for m in readout + ("attn_off_max",)}
        at["T_abs"] = {m: run.at(m, Ta).tolist() for m in readout}
        out["K"][str(K)] = {
            "K": K, "labels": lab, "delta": delta, "eps": eps, "N": N, "l0": l0.tolist(),
            "eta": [s.eta for s in settings], "T_abs": Ta.tolist(), "T_rel": run.hits["rel"].tolist(),
            "T_fstar": tf.tolist(), "T_sstar": ts.tolist(), "T_f1": tf1.tolist(), "T1": T1.tolist(), "T1_logK": run.hits["T1_logK"].tolist(),
            "Ts1_C1": run.hits["Ts1_C1"].tolist(), "Ts1_C10": run.hits["Ts1_C10"].tolist(),
            "one_minus_abar_at_CTf": {str(C): (1 - run.at("abar", C * tf)).tolist() for C in cfg["C"]},
            "at": at, "window": {m: {k: v.tolist() for k, v in d.items()} for m, d in win.items()},
            "rate": mean_rate(run, T1, Ta).tolist(), "schedule": run.schedule}
    return out


def monotone_data(cfg: Mapping, seed: int) -> dict:
    """Claim 53: T(ε) at one fixed η (the largest stable one for the batch, η = η0 / max σ² r⁴) over
    (i) the L grid on orthonormal features, (ii) Δ geometric (v_k = (Δ/√2) e_k, tasks N(0,(LΔ)²)) and
    (iii) Δ as task-gap scale on orthonormal features (tasks N(0,(LΔ)²), r = 1); K fixed, N → ∞."""
    K, eps = cfg["K"], np.asarray(cfg["eps"], float)
    groups = []
    for L in cfg["Ls"]:
        groups.append(("L", L, 1.0, sigma2_of(L, cfg["law"])))
    for Dl in cfg["Deltas"]:
        groups.append(("Delta-geometric", Dl, Dl / SQRT2, (cfg["L_delta"] * Dl) ** 2))
        groups.append(("Delta-taskgap", Dl, 1.0, (cfg["L_delta"] * Dl) ** 2))
    eta = cfg["eta0"] / max(s2 * r ** 4 for _, _, r, s2 in groups)
    settings = [D.symmetric_setting(K, eta, r=r, sigma2=s2) for _, _, r, s2 in groups]
    l0 = initial_loss(settings)
    names = {f"{e:g}": e for e in eps}
    run = stretched(settings, 1e16, n0=cfg["n0"], n_seg=cfg["n_seg"], events=loss_events(names, names, l0))
    return {"config": dict(cfg), "eta": eta, "groups": [list(g) for g in groups],
            "T_abs": {n: run.hits[f"abs:{n}"].tolist() for n in names},
            "T_rel": {n: run.hits[f"rel:{n}"].tolist() for n in names},
            "resolution": 1.0 / run.schedule["n_seg"], "schedule": run.schedule}
