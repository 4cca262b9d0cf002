"""The runs behind Figure 2 (IH-F2-repro): (i) the reduced Stage-II gradient flow under RC-12
(:func:`.flow.stage2`), (ii) full-batch GD (t = step·lr) on the six-parameter torch model with the exact softmax,
layerwise (Stage II, first layer at its RC-9 limit) and jointly (all six parameters from RC-11 init).  The full-size
runs are cached in the results store, keyed by the source closure of :func:`f2_models` (this module, the torch
model, the flow): the analysis of the runs lives with the claim and can change without recomputing them."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

import theoryverify as tv

from ..model import torch_model as M
from . import flow

ALPHA, W = 0.5, 0.3
QUICK = dict(L=8, n=1000, sigma=1e-2, lr=1.5, steps=600, record_every=5)
FULL = dict(L=50, n=6000, sigma=1e-3, lr=1.0, steps=12000, record_every=20)


def _as_traj(t, L_G4, L_IH, params: Mapping[str, np.ndarray], **config) -> dict[str, Any]:
    out = {"t": np.asarray(t, float), "L_G4": np.asarray(L_G4, float), "L_IH": np.asarray(L_IH, float)}
    out.update({k: np.asarray(v, float) for k, v in params.items()})
    out["k"] = out["wK"] * out["wQ"]
    out["config"] = config
    return out


def ode_trajectory(L: int, sigma: float, t_end: float, n_points: int = 200) -> dict[str, Any]:
    """(i) reduced Stage-II GF under RC-12 (helper C's ``flow.stage2``)."""
    tr = flow.cached_stage2(ALPHA, W, L, sigma, float(t_end), n_points=n_points)
    params = {"p21": tr["p"], "v1": tr["v1"], "wK": tr["wK"], "wQ": tr["wQ"], "v2": tr["v2"]}
    return _as_traj(tr.t, tr.L_G4, tr.L_IH, params, model="reduced ODE (RC-12)", **tr.config)


def gd_trajectory(cfg: Mapping[str, Any], seed: int, stage: str, *, g4: str = "mc", p1: float = 0.0,
                  lr: float | None = None, steps: int | None = None, softmax: str = "exact", lag: int = 2,
                  device: str = "cpu", init_overrides: Mapping[str, float] | None = None) -> dict[str, Any]:
    """(ii) full-batch GD on the six-parameter model (exact softmax by default)."""
    lr = cfg["lr"] if lr is None else lr
    steps = cfg["steps"] if steps is None else steps
    X = M.sample(cfg["n"], cfg["L"], seed, device)
    r = M.train(X, M.init(cfg["sigma"], p1=p1, device=device, **dict(init_overrides or {})), ALPHA, W, lr=lr, steps=steps, stage=stage,
                record_every=cfg["record_every"], softmax=softmax, g4=g4, lag=lag, device=device)
    params = {n: r[n] for n in M.NAMES}
    return _as_traj(r["t"], r["L_G4"], r["L_IH"], params, model=f"GD stage {stage}", stage=stage, g4=g4, p1_0=p1,
                    lr=lr, steps=steps, n=cfg["n"], L=cfg["L"], sigma=cfg["sigma"], softmax=softmax, lag=lag)


def f2_models(cfg: Mapping[str, Any], seed: int, device: str, full: bool) -> dict[str, dict]:
    t_end = cfg["steps"] * cfg["lr"]
    runs = {"(i) reduced ODE": ode_trajectory(cfg["L"], cfg["sigma"], t_end, n_points=400 if full else 100),
            "(ii) GD layerwise": gd_trajectory(cfg, seed, "II", device=device),
            "(ii) GD joint": gd_trajectory(cfg, seed, "joint", g4="population", device=device)}
    if full:
        runs["(ii) GD joint, MC L_G4, p1(0)=0"] = gd_trajectory(cfg, seed, "joint", device=device)
        runs["(ii) GD joint, MC L_G4, p1(0)=3"] = gd_trajectory(cfg, seed, "joint", p1=3.0, device=device)
        runs["(ii) GD layerwise, lr=4"] = gd_trajectory(cfg, seed, "II", lr=4.0, steps=300, device=device)
    return runs


def f2_runs(cfg: Mapping[str, Any], seed: int, device: str, extended: bool, store_claim: str | None = None) -> dict:
    """:func:`f2_models` as arrays; with ``store_claim`` through the results store (the full-size runs take minutes)."""
    if store_claim is None:
        return f2_models(cfg, seed, device, full=extended)

    def compute():
        runs = f2_models(cfg, seed, device, full=extended)
        return {"runs": {k: {kk: vv for kk, vv in v.items() if kk != "config"} for k, v in runs.items()}}
    res = tv.Store().get_or_compute({"claim": store_claim, "code": tv.code_key(f2_models), "seed": seed, **cfg},
                                    compute)
    return {k: {kk: np.asarray(vv, float) for kk, vv in v.items()} for k, v in res["runs"].items()}
