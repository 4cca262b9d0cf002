"""The iclnonlinear GPU sweep's decision rule (experiments/gpu.py): it can hold, refute and stay inconclusive.

The sweep itself runs in ``tests/test_gpu.py``'s dry run of every paper."""
from __future__ import annotations

import numpy as np

from derivations.iclnonlinear.experiments.gpu import _fit_rule

K = np.array([6, 8, 12, 16, 24, 32, 64, 128, 256, 512, 1024], dtype=float)


def test_the_papers_law_holds_on_k_log_k():
    assert _fit_rule(K, 3.0 * K * np.log(K), seed=0)[1] == "holds"


def test_a_quadratic_duration_refutes_k_log_k():
    fit, verdict, reason = _fit_rule(K, K**2 + 3 * K * np.log(K), seed=0)
    assert verdict == "refuted" and fit.ci[0] > 0.15 and "not bounded" in reason


def test_a_planted_wrong_law_is_refuted_on_k_log_k_data():
    assert _fit_rule(K, K * np.log(K), seed=0, law=lambda k: k**2)[1] == "refuted"


def test_a_short_grid_is_inconclusive():
    small = np.array([6.0, 8, 12, 16, 24])
    assert _fit_rule(small, small**2, seed=0)[1] == "inconclusive"
