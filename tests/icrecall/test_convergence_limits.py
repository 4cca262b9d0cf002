"""Lemma 5's limit and Theorem 2's convergence checks (b_dynamics) can fail: planted targets are refuted."""
from theoryverify import RunContext, Status

from derivations.icrecall.claims import b_dynamics as B

WRONG_SADDLE = (0.26, 0.24, 0.26, 0.24, 0.0, 0.0)  # planted: not Stage 1's limit


def test_l5_limit_holds_inside_the_range():
    v = B.l5_flow_limit([0.08, 0.02], (1e-2, 1e-3, 1e-4))
    assert v.status is Status.HOLDS, v.evidence
    assert v.details["convergence"]["converged"]
    assert all(0.8 <= r["local_slopes_log_t_vs_log_inv_eps"][-1] <= 1.25 for r in v.details["rows"])


def test_l5_limit_planted_target_is_refuted():
    v = B.l5_flow_limit([0.08], (1e-2, 1e-3), target=WRONG_SADDLE, t_end=1e7)
    assert v.status is Status.REFUTED, v.evidence
    assert abs(v.counterexample["distance"] - 0.01) < 1e-3


def _t2_params(**kw):
    p = {"T": [0.06, 0.04], "t2": [6000, 6000], "seeds": 2, "tol": 1e-9, "starts": 0, "optimum_shift": 0.0,
         "start": "face", "t1": 0, "stage1_symmetric": True}
    p.update(kw)
    return p


def test_t2_converges_to_the_line_optimum():
    v = B.t2_main(RunContext(seed=5, params=_t2_params()))
    assert v.status is Status.HOLDS, v.evidence
    assert v.details["convergence"]["converged"]


def test_t2_planted_optimum_is_refuted():
    ctx = RunContext(seed=5, params=_t2_params(optimum_shift=0.01))
    v = B.t2_main(ctx)
    assert v.status is Status.REFUTED, v.evidence
    assert not v.details["convergence"]["converged"]


def test_t2_unconverged_budget_is_not_a_pass():
    ctx = RunContext(seed=5, params=_t2_params(T=[0.02], t2=[3000]))
    v = B.t2_main(ctx)
    assert v.status is Status.INCONCLUSIVE, v.evidence
