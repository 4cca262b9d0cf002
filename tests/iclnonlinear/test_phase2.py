"""Flat Phase II / Theorem 1 claims (claims_phase2.py): the simulator shortcuts they rely on are exact or
measured, and every verdict builder can fail — planted rates and bounds are refuted with a counterexample."""

import numpy as np
import pytest

from derivations.iclnonlinear.claims import s52_flat_phase2 as C
from derivations.iclnonlinear.experiments import dynamics as D, phase2 as S, phase_measures as PM
from theoryverify.verdicts import Status
from .asserts import refuted

SEED = 20261121


def held(v):
    assert v.status is Status.HOLDS, (v.status, v.evidence)
    return v


def noisy(y, seeds=3, rel=0.02, seed=0):
    rng = np.random.default_rng(seed)
    y = np.asarray(y, float)
    return y[:, None] * (1 + rel * rng.standard_normal((len(y), seeds)))


# ---- the shortcuts -------------------------------------------------------------------------------

def test_trajectory_depends_on_eta_sigma2_only():
    """q(t) is identical for equal η σ² (g = r⁴ H, H ∝ σ²); the loss scales with σ²."""
    runs = [D.simulate([D.symmetric_setting(4, 0.8 / s2, sigma2=s2)], 60) for s2 in (0.3, 1.0, 7.0)]
    for r in runs[1:]:
        assert np.array_equal(r.q, runs[0].q) or np.allclose(r.q, runs[0].q, rtol=1e-13, atol=1e-15)
    assert np.allclose(runs[2].metrics["loss"] / 7.0, runs[0].metrics["loss"] / 0.3, rtol=1e-12)


def test_stretched_schedule_matches_constant_eta_gd():
    """Hitting times of the doubling schedule agree with plain constant-η GD (K = 4, N → ∞)."""
    s = D.symmetric_setting(4, 1.0)
    ev = {f"l{lv:g}": ("loss", "<=", lv) for lv in (0.1, 0.01, 0.003, 0.001)}
    const = D.simulate([s], 2000, events=ev, stop_when_hit=True, record_every=500)
    for n_seg, tol in ((100, 0.01), (25, 0.05)):
        run = S.stretched([s], 1e7, n0=100, n_seg=n_seg, events=ev)
        for k in ev:
            assert abs(run.hits[k][0] / const.hits[k][0] - 1) <= tol, (n_seg, k, run.hits[k], const.hits[k])


def test_window_and_mean_rate_read_the_records():
    s = D.symmetric_setting(4, 1.0)
    run = S.stretched([s], 2000, n0=200, n_seg=50, events={"T1": ("abar", ">=", 0.5)}, stop_when_hit=False)
    w = S.window(run, "abar", np.array([0.0]), np.array([run.t[-1]]))
    assert w["min"][0] == pytest.approx(0.25) and w["max"][0] == pytest.approx(run.metrics["abar"][-1, 0])
    r = S.mean_rate(run, np.array([run.t[0]]), np.array([run.t[-1]]))
    assert r[0] == pytest.approx((run.metrics["qdiag"][-1, 0] - 0) / run.t[-1])


# ---- planted rates -----------------------------------------------------------------------------

def test_planted_eps_minus_two_refutes_exponent_minus_one():
    eps = np.logspace(-1, -3, 9)
    refuted(C.rate(eps, noisy(eps ** -2.0), -1.0, SEED, param="eps"))
    held(C.rate(eps, noisy(eps ** -1.0), -1.0, SEED, param="eps"))


def test_planted_flat_T_refutes_T_proportional_to_N():
    Ns = np.array([32, 128, 512, 2048, 8192], float)
    refuted(C.rate(Ns, noisy(np.full(5, 900.0)), 1.0, SEED, param="N"))
    held(C.rate(Ns, noisy(3.0 * Ns), 1.0, SEED, param="N"))


def _nsweep_stub(T):
    Ns = [128, 512, 2048, 8192]
    cfg = {"Ns": Ns, "K": 4, "L": 0.3, "M": 64}
    T = np.asarray(T, float)
    return {"config": cfg, "delta": [D.delta_min(N, 4) for N in Ns], "eta": 1.0, "seeds": [0, 1, 2],
            "hits": {"abs:0.1": T.tolist(), "T1": np.full_like(T, 18).tolist(), "A0.9": T.tolist()}}


def test_claim43_N_part_refutes_flat_T_and_accepts_T_proportional_to_N():
    Ns = np.array([128, 512, 2048, 8192], float)
    refuted(C.combine(C.tfstar_n_parts(_nsweep_stub(noisy(np.full(4, 900.0))), SEED)))
    held(C.combine(C.tfstar_n_parts(_nsweep_stub(noisy(Ns * 1.7)), SEED)))


def test_claim43_eps_part_refutes_eps_minus_two():
    eps = np.logspace(-1, -3, 5)
    tf = PM.T_fstar(4, 1.0, 0.7, S.SQRT2, 0.18, eps)
    for T, check in ((50 * eps ** -2.0, refuted), (2.0 * tf, held)):
        E = {"config": {"eps": eps.tolist()}, "K": {"4": {"T_fstar": tf.tolist(), "T_abs": T.tolist(), "T_rel": T.tolist(),
                                                           "N": None, "delta_nominal": 0.18, "T1": 18.0}}}
        check(C.combine(C.tfstar_eps_parts(E, SEED)))


# ---- planted bounds --------------------------------------------------------------------------

def test_bounded_ratio_rules():
    delta = np.sqrt(80 / np.array([32, 128, 512, 2048, 8192.0]))
    refuted(C.bounded(delta, noisy(0.5 / delta), SEED, "delta", "r"))
    held(C.bounded(delta, noisy(np.full(5, 3.0)), SEED, "delta", "r"))
    refuted(C.bounded_below(delta, noisy(delta), SEED, "delta", "r"))
    held(C.bounded_below(delta, noisy(np.full(5, 0.5)), SEED, "delta", "r"))


def test_family_rule_refutes_an_accelerating_divergence_only():
    x = 1 / np.array([4, 8, 16, 32, 64, 128.0])
    accelerating = np.exp(0.25 * np.log(1 / x) ** 2)                    # local K-slope 0.7 → 2.4
    v = refuted(C.bounded(x, accelerating, SEED, "1/K", "R"))
    assert "family rule" in v.method
    saturating = 5 - 4 * x ** 0.3                                          # bounded, slope → 0
    assert C.bounded(x, saturating, SEED, "1/K", "R").status is not Status.REFUTED


def test_some_constant_rule():
    eps = np.logspace(-1, -3, 5)
    div = C.bounded(eps, noisy(1 / eps), SEED, "eps", "r")
    ok = C.bounded(eps, noisy(np.full(5, 2.0)), SEED, "eps", "r")
    refuted(C.some_constant({"C=1": div, "C=10": div}, "r"))
    held(C.some_constant({"C=1": div, "C=10": ok}, "r"))


def test_claim51_parts_refute_growing_R_and_accept_bounded_R():
    Ks = [8, 16, 32, 64, 128]
    def stub(R):
        return {"K": {str(K): {"labels": [{"c": 1.0, "law": "iid-normal", "L": float(K)}], "T_abs": [r * 100.0],
                                "N": None, "delta": 1 / (np.sqrt(2) * K),
                                "T_rel": [r * 100.0], "T_fstar": [100.0], "T1": [10.0],
                                "one_minus_abar_at_CTf": {"1": [0.1]}} for K, r in zip(Ks, R)}}
    refuted(C.combine(C.t1_parts(stub([K ** 2.0 for K in Ks]), SEED)))
    held(C.combine(C.t1_parts(stub([1.0 + 0.01 * (i % 2) for i in range(5)]), SEED)))


def test_monotone_verdict_flags_an_increase():
    groups = [["L", L, 1.0, 2 * L * L] for L in (0.1, 0.2, 0.4)]
    base = {"groups": groups, "eta": 1.0, "resolution": 0.01, "T_rel": {"0.1": [300.0, 200.0, 100.0]}}
    held(C.monotone_verdict({**base, "T_abs": {"0.1": [0.0, 200.0, 100.0]}}))          # T = 0 dropped
    refuted(C.monotone_verdict({**base, "T_abs": {"0.1": [100.0, 200.0, 150.0]}}))
