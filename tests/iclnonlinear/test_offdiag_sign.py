"""Claim 20 (ICLN-L2-gkk-sign): the measurement can come out either way."""
from derivations.iclnonlinear.claims import s51_signs as c
from theoryverify.claims import RunContext
from theoryverify.verdicts import Status

CTX = RunContext(seed=5)


def test_iid_population_on_orthonormal_features_has_no_sign_change():
    """In the analysed setting (orthonormal, i.i.d. tasks) g_{k,k'} < 0 throughout: the existential
    sign-change claim is not supported there, and every q_{k,k'} decreases — but i.i.d. normal draws are not all in F
    with one L, so they cannot decide the decrease claim (issue 27): inconclusive, and no pair rises."""
    only = dict(geoms=("orthonormal",), laws=("iid-normal",))
    assert c.gkk_sign(CTX, **only).status == Status.INCONCLUSIVE
    v = c.qkk_oscillate_decrease(CTX, **only)
    assert v.status == Status.INCONCLUSIVE
    assert all(r["pairs_increasing_overall"] == 0 for r in v.details["per_law"])


def test_single_task_refutes_decrease_with_an_admissible_counterexample():
    v = c.qkk_oscillate_decrease(CTX, geoms=("orthonormal",), laws=("single-task",))
    assert v.status == Status.REFUTED
    assert v.counterexample["law"] == "single-task" and v.counterexample["max_q_offdiag_final"] > 0
    assert v.counterexample["in_F"] and v.counterexample["max_centred_q_offdiag_final"] > 0
