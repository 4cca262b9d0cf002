"""iclnonlinear proof-consistency claims (claims/s52_flat_phase1.py, s52_flat_phase2.py, s53_sharp.py, s4_prop1.py,
s6_experiments.py): every check can fail and can pass.

Planted errors: a proof step whose premise carries a wrong δ exponent, a printed step with a wrong exponent,
a symbol upgrade O → Θ, a wrong Δ-scaling of App. F's bound, and a loss bound that is deliberately too small
(refuted by a planted Q that focuses the attention).  Conversely, printed forms made consistent are proved."""
import numpy as np
import sympy as sp

from types import SimpleNamespace

from derivations.iclnonlinear.claims import s4_prop1, s52_flat_phase1, s52_flat_phase2, s53_sharp, s6_experiments
from derivations.iclnonlinear.printed import proofs as pp
from derivations.iclnonlinear.model.asymptotics import (OMEGA, PATH_K_EPS, THETA, Delta, K, L, O, delta, eps, implies,
                                                  leading)
from derivations.iclnonlinear.model.geometry import features
from theoryverify import RunContext, Status
from .asserts import refuted

#: the proof-consistency checks, by the part of the paper they now live in
cc = SimpleNamespace(**{name: getattr(mod, name) for mod, names in (
    (s52_flat_phase1, ("check_l4_internal", "first_step_attention", "check_l5_uk")),
    (s52_flat_phase2, ("check_t1_proofstep", "check_l8_qk", "check_l7_internal")),
    (s53_sharp, ("check_s53_rate", "check_l9_gk", "check_l10_qk", "check_t2_proofstep")),
    (s4_prop1, ("check_f_lbound",)),
    (s6_experiments, ("check_loss_bound", "tight_bound", "loss_configs", "sq_error", "focusing_Q", "check_loss_scale")))
    for name in names})


def passed(v):
    assert v.status in (Status.PROVED, Status.HOLDS), (v.status, v.evidence)
    return v


def with_form(printed: pp.Printed, **forms) -> pp.Printed:
    return pp.Printed(printed.location, "PLANTED: " + printed.quote, {**printed.form, **forms})


def step(v, name):
    return next(s for s in v.details["steps"] if s["step"] == name)


# ---- the bookkeeping helper ---------------------------------------------------------------------------

def test_leading_term_of_monomial_times_log():
    assert leading(K**2 * sp.log(K / eps) / delta, eps, 0) == (K**2 / delta, 0, 1)
    coef, al, be = leading(sp.expand_log(sp.log(K / eps) / (sp.log(K) / eps), force=True), eps, 0)
    assert (al, be) == (1, 1)


def test_implies_detects_exponent_symbol_and_direction():
    assert implies(THETA(L**2 * Delta**2 / K), O(L**2 * Delta**2 / K)).ok
    assert implies(THETA(1 / K**2), O(1 / K)).ok                       # smaller, O side: fine
    assert not implies(THETA(1 / K**2), THETA(1 / K)).ok               # wrong K exponent
    assert not implies(O(eps * delta), THETA(eps * delta)).ok          # O upgraded to Θ
    assert not implies(OMEGA(1 / K), THETA(1)).ok                      # Ω(1/K) does not give Θ(1)
    cmp = implies(THETA(sp.log(K / eps)), THETA(sp.log(K) / eps), paths=(PATH_K_EPS,))
    assert not cmp.ok and "epsilon -> 0" in cmp.failing and cmp.exponent_mismatch()["epsilon"]["stated"] == -1


# ---- Theorem 1 proof step: planted δ exponents -----------------------------------------------------------

def test_t1_proofstep_as_printed_is_proved():
    passed(cc.check_t1_proofstep())


def test_planted_t1_premise_with_wrong_delta_exponent_is_refuted():
    lemma8 = with_form(pp.LEMMA8_STATED, **{"1-Attn_k": O(eps * sp.sqrt(delta))})
    v = refuted(cc.check_t1_proofstep(lemma8=lemma8))
    assert v.counterexample["exponent_of_delta"] == {"premise_as_stated": "1", "premise_as_used": "2"}


def test_planted_t1_step_with_wrong_delta_exponent_is_refuted():
    printed = with_form(pp.THM1_PROOFSTEP, **{"L^2 Delta^2": O(1 / delta)})
    v = refuted(cc.check_t1_proofstep(printed=printed))
    assert v.counterexample["exponent_of_delta"] == {"derived_from_premises": "-2", "printed": "-1"}


# ---- Lemma 4 / Lemma 5 ------------------------------------------------------------------------------------

def test_l4_internal_refutes_the_attn_premise_and_passes_when_lemma3_says_theta1():
    v = refuted(cc.check_l4_internal(witness=False))
    assert v.counterexample["premise_as_stated"] == "Omega(1/K)"
    assert v.counterexample["exponent_of_K"] == {"premise_as_stated": "-1", "premise_as_used": "0"}
    passed(cc.check_l4_internal(lemma3=with_form(pp.LEMMA3_STATED, Attn_k=THETA(1)), witness=False))


def test_l4_witness_first_step_attention_is_order_one_over_K():
    w = cc.first_step_attention()
    assert w["value"] == 1


def test_l5_uk_refuted_as_printed_and_proved_with_the_derived_orders():
    v = refuted(cc.check_l5_uk())
    assert v.counterexample["exponent_of_delta"] == {"derived": "0", "printed": "1"}
    planted = with_form(pp.LEMMA5_UK, **{"N/|V_k|": THETA(K), "1/u_k - 1/K": THETA(1)})
    passed(cc.check_l5_uk(stated=planted, p_laws={"p_k = 1/K": 1 / K}))


# ---- Lemma 7's premise (l7-internal) ----------------------------------------------------------------------

L7_PRIMARY = ("Lemma 7's premise at t = T_f^* carried one step (factor e^{o(1)}) vs Lemma 8's "
              "1 − Attn_k^(T_f^*+1) = O(εδ)")


def test_l7_internal_refutes_the_paper_and_proves_a_consistent_version():
    v = refuted(cc.check_l7_internal())
    assert v.counterexample["step"] == L7_PRIMARY
    assert "epsilon -> 0" in v.counterexample["failing limits"]
    # consistent displays: Lemma 6 gives Θ(δ) and Lemma 8 ends at O(δ) — every step holds
    consistent = dict(lemma6=with_form(pp.LEMMA6_STATED, **{"1-Attn_k": THETA(delta)}),
                      lemma8=with_form(pp.LEMMA8_STATED, **{"1-Attn_k": O(delta)}))
    passed(cc.check_l7_internal(**consistent))
    # planted errors on the consistent version: Lemma 8 sharpened to O(εδ) (the paper's), and Lemma 7's g_k with δ
    # instead of δ² (the one-step move and the g_k step then fail)
    assert refuted(cc.check_l7_internal(lemma6=consistent["lemma6"])).counterexample["step"] == L7_PRIMARY
    planted = cc.check_l7_internal(**consistent, lemma7=with_form(pp.LEMMA7_STATED,
                                                                  g_k=THETA(delta * L**2 * Delta**2 / K)))
    assert refuted(planted).counterexample["step"] != L7_PRIMARY


# ---- Lemmas 8–10, Sec. 5.3, Theorem 2 ---------------------------------------------------------------------

def test_l8_statement_step_consistent_when_statement_matches_proof():
    v = refuted(cc.check_l8_qk())
    name = "proof's Θ(log(Kε⁻¹)) vs Lemma 8's first bullet Θ(log K/ε)"
    assert not step(v, name)["consistent"]
    fixed = cc.check_l8_qk(stated=with_form(pp.LEMMA8_STATED, q_k=THETA(sp.log(K / eps))))
    assert step(fixed, name)["consistent"]


def test_l9_planted_eps_exponent():
    name = "proof's g_k vs Lemma 9's first bullet Θ(δ²L²Δ²ε/K)"
    v = refuted(cc.check_l9_gk())
    assert v.counterexample["step"] == name
    assert v.counterexample["exponent_of_epsilon"] == {"derived_from_premises": "2", "printed": "1"}
    fixed = cc.check_l9_gk(stated=with_form(pp.LEMMA9_STATED, g_k=THETA(delta**2 * L**2 * Delta**2 * eps**2 / K)))
    assert step(fixed, name)["consistent"]


def test_l10_statement_step_consistent_when_statement_matches_proof():
    name = "proof's Θ(log(KLΔε⁻¹)) vs Lemma 10's first bullet Θ(log(KLΔ)/ε)"
    refuted(cc.check_l10_qk())
    fixed = cc.check_l10_qk(stated=with_form(pp.LEMMA10_STATED, q_k=THETA(sp.log(K * L * Delta / eps))))
    assert step(fixed, name)["consistent"]


def test_s53_rate_refuted_and_consistent_lemmas_pass():
    v = refuted(cc.check_s53_rate())
    assert v.counterexample["exponent_of_L"] == {"rate_from_lemma": "2", "rate_stated": "0"}
    lemma4 = with_form(pp.LEMMA4_STATED, g_k=THETA(1 / K))
    lemma7 = with_form(pp.LEMMA7_STATED, g_k=THETA(1 / K))
    passed(cc.check_s53_rate(lemma4=lemma4, lemma7=lemma7,
                             lemma8_gain=THETA(sp.log(K / eps) / (delta**2 * L**2 * Delta**2))))


def test_t2_proofstep_refuted_and_passes_without_the_L2Delta2_factor():
    v = refuted(cc.check_t2_proofstep())
    assert v.counterexample["exponent_of_L"] == {"derived_from_premises": "2", "printed": "0"}
    passed(cc.check_t2_proofstep(loss_factor=with_form(pp.LOSS_DISPLAY, factor=THETA(1))))


# ---- App. F bound: planted Δ scalings ----------------------------------------------------------------------

def test_f_lbound_printed_and_planted_scalings_refuted_derived_passes():
    v = refuted(cc.check_f_lbound(RunContext(seed=7)))
    assert v.counterexample["Delta_exponent_derived"] == "1"
    refuted(cc.check_f_lbound(RunContext(seed=7), printed_exponent=2))
    passed(cc.check_f_lbound(RunContext(seed=7), printed_exponent=1))


# ---- Sec. 6 loss scale: planted too-small bound ------------------------------------------------------------

def test_loss_bound_holds_and_a_too_small_bound_is_refuted_by_a_focusing_Q():
    passed(cc.check_loss_bound(cc.tight_bound, cc.loss_configs(3, n=24)))
    v = refuted(cc.check_loss_bound(lambda f, k: 0.5 * cc.tight_bound(f, k), cc.loss_configs(3, n=24)))
    assert v.counterexample["squared error"] > v.counterexample["bound"]


def test_planted_focusing_Q_attains_the_bound():
    rng = np.random.default_rng(0)
    V = features("general", 15, 4, 3.0, rng)
    f = np.array([0.2, -0.1, 0.05, -0.2])
    classes = np.array([0, 1, 2, 3, 3, 1])
    err = cc.sq_error(V, cc.focusing_Q(V, 0, 3), classes, 0, f)
    np.testing.assert_allclose(err, cc.tight_bound(f, 0), rtol=1e-9)


def test_loss_scale_refuted_as_printed_and_holds_for_small_prose_values():
    v = refuted(cc.check_loss_scale(RunContext(seed=5), draws=300))
    assert v.counterexample["L"] == 0.1 and v.counterexample["bound (2L/c)² (no ½)"] < 0.2
    small = {0.1: ("planted", "loss 0.01", 0.01), 1.0: ("planted", "loss 0.5", 0.5)}
    passed(cc.check_loss_scale(RunContext(seed=5), prose=small, draws=300))


def test_e_lossscale_is_informational_not_a_finding():
    """Referee P1 (s36): the compared sentence is the tool's (Sec. 6 says Fig. 1 used another network), so the
    registered claim is inconclusive whatever the comparison gives; the comparison (refuted) is kept for E1-flat."""
    v = s6_experiments.e_lossscale(RunContext(seed=5), draws=300)
    assert v.status is Status.INCONCLUSIVE and "not a finding" in v.evidence and "E1-flat" in v.evidence
    assert v.details["comparison"]["status"] == "refuted"
    assert v.details["comparison"]["counterexample"]["L"] == 0.1
