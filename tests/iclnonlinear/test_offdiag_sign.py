"""Claim 20 (ICLN-L2-gkk-sign): the measurement can come out either way."""
from derivations.iclnonlinear.claims import s51_signs as c
from theoryverify.claims import RunContext
from theoryverify.verdicts import Status

CTX = RunContext(seed=5)


def test_iid_population_on_orthonormal_features_has_no_sign_change():
    """In the analysed setting (orthonormal, i.i.d. tasks) g_{k,k'} < 0 throughout: the existential
    sign-change claim is not supported there, and every q_{k,k'} decreases."""
    only = dict(geoms=("orthonormal",), laws=("iid-normal",))
    assert c.gkk_sign(CTX, **only).status == Status.INCONCLUSIVE
    assert c.qkk_oscillate_decrease(CTX, **only).status == Status.HOLDS


def test_single_task_refutes_decrease_with_an_admissible_counterexample():
    v = c.qkk_oscillate_decrease(CTX, geoms=("orthonormal",), laws=("single-task",))
    assert v.status == Status.REFUTED
    assert v.counterexample["law"] == "single-task" and v.counterexample["max_q_offdiag_final"] > 0
