"""Shared App. C sweeps (Lemmas 10, 11): the post-Stage-1 point θ̃ with a short perturbed Stage-2 path, and the
"→ 0 on the temperature grid" decision for o(·) statements."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

import theoryverify as tv

from ..model import general_n as G


def little_o_verdict(name, Ts, scaled):
    fit = G.little_o_sweep(Ts, scaled)
    if fit["last 3 decreasing"] and fit["slope 95% CI"][1] < 0 and fit["last/first"] < 0.1:
        return tv.holds("sweep fit", f"{name}: {['%.3g' % x for x in scaled]} → 0", **fit)
    return tv.inconclusive("sweep fit", f"{name}: {['%.3g' % x for x in scaled]} not clearly → 0 on the grid", **fit)


@lru_cache(maxsize=16)
def stage2_points(T, steps=20, seed=0):
    """θ̃ and a short perturbed Stage-2 GD path from it (η2 = 10T², radius T³), every 5th iterate."""
    pop, th = G.post_stage1(7, 0, T)
    xi = np.random.default_rng(seed).normal(size=6)
    th0 = th + T**3 * xi / np.linalg.norm(xi)
    return pop, [th] + G.stage2_path(pop, th0, T, 10 * T**2, steps)[::5]
