"""The IC-recall GPU sweep (derivations/icrecall/experiments/gpu.py): its dry run runs on the CPU in seconds
and returns a well-formed result, and its decision rule refutes planted errors (a wrong predicted exponent;
durations that grow faster than the law allows).  That its module imports without tqdm/ruptures/threadpoolctl
(the GPU machine lacks them) is checked in tests/test_gpu.py, one fresh interpreter for the papers' modules."""
import json
import math
import time

import numpy as np
from cputime import cpu_time

import theoryverify as tv
from derivations.icrecall.experiments import gpu as G


def _ctx(budget_s=30.0):
    return tv.GpuContext("cpu", seed=0, budget_s=budget_s, dry_run=True)


def test_dry_run_is_fast_and_well_formed():
    ctx = _ctx()
    with cpu_time() as t:
        res = G.SWEEPS[0].run(ctx)
    assert t.seconds < 1.5, t.seconds  # ~0.2 CPU-s (load-proof; the wall clock was 15 s, which a loaded machine nears)
    assert isinstance(res, tv.GpuResult)
    assert res.verdict in ("holds", "refuted", "inconclusive")
    assert res.x_name == "T" and res.predicted_exponent == -1.0
    assert res.rows and {"T", "measured", "predicted", "family", "per_seed"} <= set(res.rows[0])
    for row in res.rows:  # the dry-run sizes reach the target in every run
        assert row["measured"] is not None and row["measured"] > 0 and row["predicted"] > 0
    assert len({r["T"] for r in res.rows}) >= 4 and res.span_decades > 0
    assert res.fit is not None and math.isfinite(res.fit.exponent)
    assert res.cpu["claim"] == G.CLAIM == G.SWEEPS[0].claim
    assert ctx.speeds and ctx.speeds[0]["device_s_per_step"] > 0  # the speed record was taken
    json.dumps(res.as_dict())  # JSON-able


def test_batched_run_matches_the_cpu_claim_observable():
    """The sweep's k* is the first step with min over confusing keys of log(p(r*)/p(r2)) ≥ log 10, the CPU
    claim's observable (stage2_dynamics.algorithm1's min_log_ratio): same runs, same hitting step."""
    from derivations.icrecall.experiments import stage2_dynamics as S

    Ts, fams = (0.14, 0.1), (("F-aff", 5),)
    b = G.Batch(fams, Ts, 1, 0, "cpu")
    assert b.run(600, time.perf_counter() + 60)
    keys = b.parts[0]
    T = np.array(Ts)
    xi = S.perturbations(0, [("gpu-l11", "F-aff", 5, t, 0) for t in Ts], S.radius(T, G.C_RHO))
    ref = S.algorithm1(keys, np.ones((2, 1)), T, S.eta1(T, G.C1), S.eta2(T, G.C2_ETA), xi, np.full(2, 600),
                       until=("min_log_ratio", G.LOG10))
    assert b.hit.tolist() == ref.hit(ref.min_log_ratio, G.LOG10).tolist()


def _synthetic(exponent, noise=0.03, seeds=4):
    """k* = 50·T^exponent·log(1/T) with multiplicative noise, T ∈ [1.25e-3, 0.01] (0.9 decades → 1.05)."""
    T = np.array([0.01 * 2.0 ** (-j / 2) for j in range(8)])
    rng = np.random.default_rng(1)
    k = 50 * T[:, None] ** exponent * np.log(1 / T)[:, None] * np.exp(noise * rng.standard_normal((len(T), seeds)))
    return T, np.rint(k)


def test_decision_rule_holds_on_the_law_and_refutes_a_planted_wrong_exponent():
    T, k = _synthetic(-1.0)
    per = {"F": (T, k, 1.0)}
    verdict, reason, _ = G.decide(per, seed=0)
    assert verdict == "holds", reason
    # planted error in the prediction: claim k* = O(T^-0.5·log(1/T)) — the data grow like T^-1: refuted
    verdict, reason, fits = G.decide(per, seed=0, predicted=-0.5)
    assert verdict == "refuted", reason
    assert fits["F"].status == tv.Status.REFUTED


def test_decision_rule_refutes_durations_growing_faster_than_the_law():
    T, k = _synthetic(-1.6)  # planted error in the data: k* ∝ T^-1.6·log(1/T), beyond O(log(1/T)/T)
    verdict, reason, _ = G.decide({"F": (T, k, 1.0), "G": _synthetic(-1.0)[:2] + (0.5,)}, seed=0)
    assert verdict == "refuted", reason


def test_decision_rule_is_inconclusive_on_a_narrow_or_censored_grid():
    T, k = _synthetic(-1.0)
    verdict, reason, _ = G.decide({"F": (T[:4], k[:4], 1.0)}, seed=0)  # 0.45 decades
    assert verdict == "inconclusive" and "decades" in reason
    k2 = k.copy()
    k2[-1, 0] = -1  # one run did not reach the target
    verdict, reason, _ = G.decide({"F": (T, k2, 1.0)}, seed=0)
    assert verdict == "inconclusive", reason
