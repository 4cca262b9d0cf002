"""The knowledge GPU sweep (derivations/knowledge/experiments/gpu.py, issue 20): its dry run on the CPU returns a
well-formed result in seconds, its observable is the CPU claim's, and its decision rule can refute."""
import json

import numpy as np
import pytest
from cputime import cpu_time

import theoryverify as tv
from derivations.knowledge.experiments import gpu


class _Ctx:
    """The part of tv.GpuContext that decide() and durations() read (seed, device, clock)."""

    seed, device = 20261121, "cpu"

    def elapsed(self) -> float:
        return 0.0


def test_dry_run_is_fast_and_well_formed():
    ctx = tv.GpuContext("cpu", 20261121, 20.0, True)
    with cpu_time() as t:
        res = gpu.run(ctx)
    assert t.seconds < 2.5, t.seconds                    # ~0.45 CPU-s (load-proof; the wall clock was 15 s)
    assert isinstance(res, tv.GpuResult)
    assert res.verdict in ("holds", "refuted", "inconclusive")
    assert res.x_name == "η_1" and res.predicted_exponent == -1.0
    assert res.cpu["claim"] == "knowledge.p1-stagei-duration" and res.cpu["verdict"] and res.cpu["range"]
    fitted = [r for r in res.rows if r["in_fit"]]
    assert len(fitted) == gpu.DRY_N_PTS and all(r["measured"] > 0 and r["predicted"] > 0 for r in fitted)
    assert [r["η_1"] for r in res.rows if not r["in_fit"]] == list(gpu.ETA_JUMP)
    assert res.span_decades == pytest.approx(1.0)
    assert res.fit is not None and res.fit.n_points == gpu.DRY_N_PTS
    assert len(ctx.speeds) == 1 and ctx.speeds[0]["flops_per_step"] > 0
    assert any(n.startswith("probe:") for n in res.notes)
    json.dumps(res.as_dict())                            # plain JSON values


def test_durations_are_the_cpu_claims_filter_time():
    """Batched members = claims/s6_pretraining.filter_time (data seed 0, init seed 0, constant η_1, τ = TAU_C)."""
    from derivations.knowledge.claims import s6_pretraining as CP
    assert gpu.TAU_C == CP.TAU_C
    out = gpu.durations(_Ctx(), [gpu.draw(20, 0)], [(0, 3.0), (0, 10.0)], t_max=100)
    assert out["durations"].tolist() == [CP.filter_time(e, 0) for e in (3.0, 10.0)]


def _law(etas, C=80.0, b=-1.0, seeds=4, noise=0.03, seed=0):
    rng = np.random.default_rng(seed)
    etas = np.asarray(etas)
    return np.round(C * etas[:, None] ** b * np.exp(noise * rng.standard_normal((len(etas), seeds))))


GRID = gpu.eta_grid(2.0, 8, 3.0)
JUMP_OK = np.full((len(gpu.ETA_JUMP), 4), 2)


def test_decision_rule_holds_on_the_predicted_law():
    res = gpu.decide(_Ctx(), GRID, _law(GRID), JUMP_OK, [], 200)
    assert res.verdict == "holds" and res.agrees_with_cpu is True
    assert res.span_decades == pytest.approx(2.0)


def test_decision_rule_refutes_a_wrong_law(monkeypatch):
    """Planted error: the same durations against a wrong predicted law (η_1^(−1/2)) give 'refuted'."""
    monkeypatch.setattr(gpu, "PREDICTED", -0.5)
    res = gpu.decide(_Ctx(), GRID, _law(GRID), JUMP_OK, [], 200)
    assert res.verdict == "refuted" and res.agrees_with_cpu is False
    assert "CI excludes the predicted exponent" in res.reason


def test_decision_rule_refutes_durations_off_the_law_and_a_slow_jump():
    assert gpu.decide(_Ctx(), GRID, _law(GRID, b=-1.5), JUMP_OK, [], 200).verdict == "refuted"
    slow = JUMP_OK.copy()
    slow[1, 0] = 5                                       # η_1 = 10 needs 5 steps (Lemma 11(1): ≤ 2)
    assert gpu.decide(_Ctx(), GRID, _law(GRID), slow, [], 200).verdict == "refuted"


def test_censored_or_narrow_grids_are_inconclusive():
    D = _law(GRID)
    D[4:] = -1                                           # budget stop: only 4 points over 0.86 decades reached
    res = gpu.decide(_Ctx(), GRID, D, JUMP_OK, [], 200)
    assert res.verdict == "inconclusive" and res.agrees_with_cpu is None
    assert "span rule" in res.reason


def test_step_time_model():
    assert gpu.predict_time([16, 32], a=1.0, b=0.5) == pytest.approx(16 * 2.0 + 16 * 1.5)


def test_pilot_halves_eta_hi_in_the_jump_regime(monkeypatch):
    """A top η_1 that already filters c in ≤ 3 steps is halved before the grid is built (same dry-run path)."""
    monkeypatch.setattr(gpu, "ETA_HI", 12.0)
    res = gpu.run(tv.GpuContext("cpu", 20261121, 20.0, True))
    assert any("η_hi halved" in n for n in res.notes)
    assert max(r["η_1"] for r in res.rows if r["in_fit"]) < 12.0
