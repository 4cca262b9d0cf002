"""Issue 27 (second referee): the declared induction-heads hypotheses, Lemma D.6's reading finding, and c1-lyap's
split between the flows' own losses (reported) and the deciding candidate q — each with a twin that fails."""
from __future__ import annotations

from derivations.inductionheads import hypotheses as HYP
from derivations.inductionheads.claims import appc1_head1 as C
from derivations.inductionheads.claims import appd_lemmas as AD
from theoryverify import holds
from theoryverify.standards import apply_hypotheses
from theoryverify.verdicts import Status

SEED = 20241011


def test_ld6_literal_refuted_and_monotone_twin_not():
    v = AD.ld6_literal_check()
    assert v.status is Status.REFUTED and v.counterexample["lhs"] < v.counterexample["rhs"]
    # planted twin: a convex NON-DECREASING f (the Tomić–Weyl reading) is not refuted at the same instance
    twin = AD.ld6_literal_check({**AD.LD6_WITNESS, "f": "exp(t)"})
    assert twin.status is Status.PROVED
    # an instance outside the hypotheses (y not weakly majorised) is never a refutation
    out = AD.ld6_literal_check({**AD.LD6_WITNESS, "x": (0, 0), "y": (1, 1)})
    assert out.status is Status.INCONCLUSIVE


def test_hypotheses_downgrade_a_pass_outside_them():
    import theoryverify as tv
    inside = tv.with_fixed(holds("m", "e"), alpha=0.5, w=0.3, L=100)
    conds = (HYP.ALPHA_STAR, HYP.W_STAR, HYP.L_LONG)
    assert apply_hypotheses(conds, inside).status is Status.HOLDS
    outside = tv.with_fixed(holds("m", "e"), alpha=0.5, w=0.6, L=100)  # w* beyond the derived admissible range
    assert apply_hypotheses(conds, outside).status is Status.INCONCLUSIVE
    a7 = tv.with_fixed(holds("m", "e"), g_in_A7=False)
    assert apply_hypotheses((HYP.A7_CLASS,), a7).status is Status.INCONCLUSIVE
    assert apply_hypotheses((HYP.A7_CLASS,), tv.with_fixed(holds("m", "e"), g_in_A7=True)).status is Status.HOLDS


def test_lyapunov_loss_alone_decides_nothing():
    v = C.lyapunov_check(SEED, [(0.5, 50, 1e-2)], candidates=("L_G4",), symbolic=False, t_end=1e4)
    assert v.status is Status.INCONCLUSIVE
    assert "by construction (not deciding)" in v.details
