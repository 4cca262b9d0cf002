"""The reduced Stage-II runs the Theorem 5.5 and App. C.2 claims share: the base point and σ grid, cached
trajectories of the reduced flow with their §4.3 markers (:mod:`.flow`, :mod:`.markers`), and full-batch GD of
the torch model on a fixed Gaussian sample (exact softmax or RC-12), cached in the results store.

Every formula of Thm 5.5 is lost: the runs are of the reconstruction (RC list in :func:`choices`).
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

import theoryverify as tv

from ..model.recon import record
from . import flow
from . import markers as M

RCS = ("RC-1", "RC-5", "RC-6", "RC-7", "RC-8", "RC-9", "RC-10", "RC-11", "RC-12", "RC-13", "RC-17", "RC-19")
BASE = dict(alpha=0.5, w=0.3, L=100, sigma=1e-3)  # spec §4.1 base point for dynamics
SIGMAS = (1e-1, 3e-2, 1e-2, 3e-3, 1e-3, 1e-4, 1e-5, 1e-6)
MARKER_CHOICES = {
    "T_sat": "first t (after the running maximum of |dv2/dt|) with |dv2/dt| < 1% of its running maximum",
    "P_IH": "L_IH(T_sat); cross-check: median of L_IH around the flattest point of log L_IH vs log t",
    "T_IH(q)": "min{t > T_sat: L_IH <= q P_IH}, q in {0.9, 0.5, 0.1}; W = T_IH(0.1) - T_IH(0.9)",
    "T_G4(eps)": "min{t: L_G4 <= eps L_G4(0)}, eps in {0.1, 0.01}",
    "integrator": "solve_ivp LSODA in tau = log(1+t), rtol 1e-10, atol 1e-12 (phase-I L sweeps: rtol 1e-8)",
}


def choices(**extra: str) -> dict[str, str]:
    return {**record(*RCS), **MARKER_CHOICES, **extra}


def ih_horizon(alpha: float, w: float, L: int, sigma: float) -> float:
    """A horizon past the emergence and well into Phase IV (derived scales, generous factors)."""
    N = L - 2
    return 1.5 * (3 * N + flow.plateau_log_coefficient(alpha, w, L) * (math.log(1 / sigma) + 3)) \
        + 40.0 / flow.conv_rate_ih(alpha, w, L)


@lru_cache(maxsize=512)
def ih_run(alpha: float, w: float, L: int, sigma: float, n_points: int = 1500):
    """Head-2-only trajectory and its §4.3 markers."""
    tr = flow.cached_stage2(alpha, w, L, sigma, ih_horizon(alpha, w, L, sigma), heads="IH", n_points=n_points)
    return tr, M.ih_markers(tr.t, tr.L_IH, tr["v2"], tr.k, dv2=tr.velocity("v2"))


@lru_cache(maxsize=256)
def g4_run(alpha: float, L: int, sigma: float, variant: str = "rpe", rtol: float = 1e-8):
    """Head-1-only trajectory and T_G4(0.1), T_G4(0.01)."""
    t_end = 60.0 / alpha**2 + (200.0 / alpha**2 if variant == "quadratic" else 0.0) * math.log(1 / sigma)
    tr = flow.stage2(alpha, 0.3, L, sigma, t_end, heads="G4", n_points=600, variant=variant, rtol=rtol)
    return tr, M.g4_markers(tr.t, tr.L_G4)


@lru_cache(maxsize=4)
def base_run(alpha=BASE["alpha"], w=BASE["w"], L=BASE["L"], sigma=BASE["sigma"]):
    tr = flow.cached_stage2(alpha, w, L, sigma, ih_horizon(alpha, w, L, sigma), heads="both", n_points=2000)
    mk = {**M.g4_markers(tr.t, tr.L_G4), **M.ih_markers(tr.t, tr.L_IH, tr["v2"], tr.k, dv2=tr.velocity("v2"))}
    return tr, mk


GD = dict(n=4000, lr=1.0, record_every=5, L=25, sigmas=(1e-2, 1e-3, 1e-4), seeds=3)


def gd_point(config: dict) -> dict:
    """One Stage-II GD run (torch_model.train, RC-9 first layer) and its §4.3 markers (JSON-ready)."""
    from ..model import torch_model as TM  # noqa: PLC0415
    a, w, L, s = config["alpha"], config["w"], config["L"], config["sigma"]
    t_end = 1.3 * (3 * (L - 2) + flow.plateau_log_coefficient(a, w, L) * (math.log(1 / s) + 3))
    X = TM.sample(config["n"], L, seed=config["seed"])
    out = TM.train(X, TM.init(s), a, w, lr=config["lr"], steps=int(t_end / config["lr"]), stage="II",
                   record_every=config["record_every"], softmax=config["softmax"])
    k = out["wK"] * out["wQ"]
    mk = {**M.g4_markers(out["t"], out["L_G4"]), **M.ih_markers(out["t"], out["L_IH"], out["v2"], k)}
    m = (out["t"] >= mk["T_sat"]) & (out["t"] <= mk["T_k(0.05)"])
    mk["growth_slope"] = float(np.polyfit(out["t"][m], np.log(k[m]), 1)[0])
    mk["L_IH(T_I)/L_IH(0)"] = float(np.interp(mk["T_G4(0.1)"], out["t"], out["L_IH"]) / out["L_IH"][0])
    mk["k_final"], mk["v2_final"] = float(k[-1]), float(out["v2"][-1])
    # App. C.2 P1.1-P1.3 facts on the GD trajectory (IH-C2-P1 "repeat with exact-softmax GD")
    b, v2 = 1 - a, out["v2"]
    above = np.flatnonzero(v2 >= b)
    mk["P1.1 min(v2-beta) after crossing"] = float(np.min(v2[above[0]:] - b)) if above.size else None
    mk["P1.2 max k/w"] = float(np.max(k) / w)
    mk["P1.2 min dk"] = float(np.min(np.diff(k)))
    mk["P1.3 dv2 sign changes"] = M.sign_changes(out["t"], v2, rel=1e-6, dy=np.gradient(v2, out["t"]))
    return mk


def gd_sweep(softmax: str, seed: int) -> list[list[dict]]:
    """rows[seed_index][sigma_index] for GD with ``softmax`` ("rc12" or "exact"), paired samples across
    softmaxes (same seeds)."""
    return gd_sweep_L(softmax, seed, GD["L"], GD["sigmas"], GD["n"])


def gd_sweep_L(softmax: str, seed: int, L: int, sigmas, n: int) -> list[list[dict]]:
    """As :func:`gd_sweep` for a given L, σ grid and sample size."""
    seeds = [seed + i for i in range(GD["seeds"])]
    configs = [dict(alpha=BASE["alpha"], w=BASE["w"], L=L, sigma=s, n=n, lr=GD["lr"],
                    record_every=GD["record_every"], softmax=softmax, seed=sd) for sd in seeds for s in sigmas]
    # key: the source closure of gd_point (this module, the torch model, the markers, the flow)
    key = {"claim": "inductionheads.t55-plateau-exact-full", "code": tv.code_key(gd_point)}
    flat = tv.sweep(tv.Store(), key, configs, gd_point, desc=f"GD {softmax}")
    m = len(sigmas)
    return [flat[i * m:(i + 1) * m] for i in range(len(seeds))]
