"""Step checker on the induction-heads Stage-II context: derived steps pass, planted errors are
refuted with a counterexample."""
import theoryverify
from theoryverify.verdicts import Status

CTX = "inductionheads.stage2"


def test_v2_gradient_step_and_planted_factor():
    good = theoryverify.check("diff(L_IH, v2) == (v2/sqrt(1-4*k**2) - (1-alpha)/sqrt(1-(k+w)**2))/N", CTX)
    assert good.status is Status.PROVED
    bad = theoryverify.check("diff(L_IH, v2) == (v2/sqrt(1-4*k**2) - (1-alpha)/sqrt(1-(k+w)**2))/(2*N)", CTX)
    assert bad.status is Status.REFUTED and bad.counterexample


def test_balance_chain_rule_and_planted_sign():
    # Lemma 5.4: w_K dL/dw_K − w_Q dL/dw_Q = 0, so w_K² − w_Q² is conserved by the flow
    good = theoryverify.check("w_K*diff(L_IH, w_K) - w_Q*diff(L_IH, w_Q) == 0", CTX)
    assert good.status is Status.PROVED
    bad = theoryverify.check("w_K*diff(L_IH, w_K) + w_Q*diff(L_IH, w_Q) == 0", CTX)
    assert bad.status is Status.REFUTED


def test_head1_optimum_value_and_planted_index():
    good = theoryverify.check("subs(L_G4inf, v1, alpha*(1+exp(-p))) == alpha**2*exp(-2*p)/2", CTX)
    assert good.status is Status.PROVED
    bad = theoryverify.check("subs(L_G4inf, v1, alpha*(1+exp(-p))) == alpha**2*exp(-p)/2", CTX)
    assert bad.status is Status.REFUTED
