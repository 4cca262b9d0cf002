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


def test_the_lean_row_gd_is_dynamics_simulate():
    """RowGD (the GPU sweep's step) gives the same T1 as dynamics.simulate, at N → ∞ and at N = 40K³."""
    from derivations.iclnonlinear.experiments.gpu import _t1, _t1_simulate

    for K, c0, finite in ((6, 1.0, False), (8, 2.0, True), (12, 1.0, True)):
        lean = _t1(K, c0, finite, 3, 4, "cpu", seed=1)
        ref = _t1_simulate(K, c0, finite, 3, 4, "cpu", seed=1)
        assert np.all(np.isfinite(ref)) and np.allclose(lean, ref, rtol=1e-9, atol=0), (K, lean, ref)


def test_a_planted_wrong_step_is_caught_by_the_comparison():
    from derivations.iclnonlinear.experiments import gpu as G

    ref = G._t1_simulate(6, 1.0, False, 1, 1, "cpu")
    orig = G.RowGD.step

    def doubled(self):
        self.rate = self.rate * 1.000001 if not hasattr(self, "_p") else self.rate
        self._p = True
        return orig(self)
    G.RowGD.step = doubled
    try:
        planted = G._t1(6, 1.0, False, 1, 1, "cpu")
    finally:
        G.RowGD.step = orig
    assert not np.allclose(planted, ref, rtol=1e-9, atol=0)


class _ReplayOnTheSameState:
    """Stands in for a captured CUDA graph on the CPU: a replay runs ``n`` real steps into the staging buffer,
    as the captured graph does on cuda — so the bookkeeping around replays (which step lands in which column)
    is tested here; the capture itself can only run on a GPU."""

    def __init__(self, gd, n, skip=0):
        self.gd, self.n, self.skip = gd, n, skip

    def replay(self):
        for _ in range(self.skip):  # a planted fault: steps taken but not recorded
            self.gd._update()
        for j in range(self.n):
            self.gd.stage[:, j].copy_(self.gd._update())


def _rows(graph_n, steps=23, skip=0):
    import torch

    from derivations.iclnonlinear.experiments.gpu import RowGD, _settings

    gd = RowGD(_settings(8, 1.0, True, 2, 3, seed=1), "cpu")
    assert gd.enable_graph() is False and "CPU" in gd.graph_note  # the CPU path is the eager one
    if graph_n:
        gd.stage = torch.empty(gd.x.shape[0], graph_n, dtype=gd.x.dtype)
        gd.graph, gd.graph_n = _ReplayOnTheSameState(gd, graph_n, skip), graph_n
    buf = torch.empty(gd.x.shape[0], steps, dtype=gd.x.dtype)
    with torch.no_grad():
        gd.record(buf, steps)
    return buf.numpy()


def test_graph_replays_and_the_eager_tail_record_every_step_in_its_column():
    eager = _rows(0)
    for n in (1, 5, 8, 23):  # 23 = 4×5 + 3 eager; 8 = 2×8 + 7 eager; one replay of all 23
        assert np.array_equal(_rows(n), eager), n


def test_a_planted_lost_step_in_a_replay_is_caught():
    assert not np.array_equal(_rows(5, skip=1), _rows(0))
