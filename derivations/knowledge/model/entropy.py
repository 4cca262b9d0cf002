"""The entropy H of the NTP data set (Thm 2(1), Eq. 13: "the entropy of the NTP training dataset
(optimal cross-entropy loss)"), derived for the reconstructed data (data.py).

Inputs [c, s_i] of a frequent pair occur with K different targets (its phrases R_i), once each; every
other input has one target.  The loss (9) is a (weighted) mean over samples of −log p_y(X), minimised
over *any* predictor by p(· | X) = the empirical conditional law (Gibbs' inequality), with value

    H = Σ_X w(X) · entropy(targets of X) / Σ w  =  K N_f log K / (2 (K N_f + N_r))            (unweighted)
    H_J1 = K N_f log K / (2K N_f + 2K N_r) = N_f log K / (2 (N_f + N_r))       (App. J.1: rare × K)

For the 3-token data of App. A (Table 3: samples [s] → r and [s, r] → a, all pairs with K phrases)
H = log K / 2.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import sympy as sp

from .data import Dataset

K, N_f, N_r = sp.symbols("K N_f N_r", positive=True, integer=True)


def H_formula(reweight_rare: bool = False) -> sp.Expr:
    """Derived by counting: K N_f samples [c, s_i] → r each with optimal −log p = log K, the rest 0."""
    w_rare = K if reweight_rare else 1
    total = 2 * (K * N_f + w_rare * N_r)
    return K * N_f * sp.log(K) / total


def H_table3() -> sp.Expr:
    """App. A 3-token data: N pairs × K phrases, samples [s] → r (log K each) and [s, r] → a (0)."""
    return sp.log(K) / 2


def empirical_conditional_entropy(ds: Dataset) -> float:
    """Σ_X w(X)·entropy(targets | X) / Σ w, computed from the generated samples."""
    groups: dict[tuple, list[tuple[int, float]]] = defaultdict(list)
    for tok, y, w in zip(map(tuple, ds.tokens), ds.targets, ds.weights):
        groups[tok].append((int(y), float(w)))
    total = sum(w for g in groups.values() for _, w in g)
    out = 0.0
    for g in groups.values():
        mass = defaultdict(float)
        for y, w in g:
            mass[y] += w
        z = sum(mass.values())
        out += -sum(m * np.log(m / z) for m in mass.values())
    return out / total


def cross_entropy(ds: Dataset, probs: dict[tuple, np.ndarray]) -> float:
    """Eq. 9 for an arbitrary predictor given as a table input → distribution over targets."""
    nll = [-w * np.log(probs[tuple(t)][y]) for t, y, w in zip(ds.tokens, ds.targets, ds.weights)]
    return float(np.sum(nll) / ds.weights.sum())
