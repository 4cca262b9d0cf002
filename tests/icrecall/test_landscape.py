"""Planted errors in the n = 3 landscape displays (Table 2, Eqs. (4)–(9), Lemma 5, Lemma 6, Sec. 4.1)
are refuted, with a counterexample, by the same check functions the registered claims use; the
corrected versions of the printed errata pass the same checks."""
import sympy as sp

from derivations.icrecall.claims import b_lemma5 as l5
from derivations.icrecall.claims import b_lemma6 as l6
from derivations.icrecall.claims import s41_warmup as s41
from derivations.icrecall.claims import b_table2 as t2
from derivations.icrecall.printed import appb as printed
from theoryverify import RunContext
from theoryverify import Status

CTX = RunContext(seed=20260521)
T = printed.T
v1, v2, v3, v4, v5, v6 = printed.v1, printed.v2, printed.v3, printed.v4, printed.v5, printed.v6


def refuted(verdict):
    assert verdict.status is Status.REFUTED, (verdict.status, verdict.evidence)
    assert verdict.counterexample, "a refutation must carry a counterexample"
    return verdict.counterexample


def passes(verdict):
    assert verdict.status in (Status.PROVED, Status.HOLDS), (verdict.status, verdict.evidence)


# --- Eqs. (4)–(9), Table 2 -------------------------------------------------------------------------

def _eq4_with(fn):
    def planted(p):
        out = printed.eqs_4_to_9(p)
        out[0] = fn(p)
        return out
    return planted


def test_eq4_planted_coefficient_1_over_T_is_refuted():
    planted = _eq4_with(lambda p: 1 / T * ((p[0] + p[2]) * v2 + (p[1] + p[3]) * v4 - v2))
    ce = refuted(t2.eq_part(CTX, 0, planted))
    assert {"T", "lhs", "rhs"} <= set(ce)


def test_eq4_planted_index_swap_p3_p4_is_refuted():
    planted = _eq4_with(lambda p: 2 / T * ((p[0] + p[3]) * v2 + (p[1] + p[2]) * v4 - v2))
    refuted(t2.eq_part(CTX, 0, planted))


def test_eq4_as_printed_passes():
    passes(t2.eq_part(CTX, 0))


def test_table2_planted_swapped_pair_is_refuted():
    table = dict(printed.TABLE2)
    table["r3"] = (v5 + v2)**2 + (v1 + v2)**2 + v3**2  # (v5+v4) -> (v5+v2)
    ce = refuted(t2.check_table2(CTX, table))
    assert ce["part"] == "r3"


# --- initial values, Lemma 5 -----------------------------------------------------------------------

def test_init_grad_planted_value_is_refuted():
    planted = list(printed.INIT_GRAD_V)
    planted[0] = -1 / (6 * T)
    ce = refuted(l5.check_init_grad(CTX, tuple(planted)))
    assert ce["part"] == "∂L1/∂v1"


def test_init_logits_planted_value_is_refuted():
    refuted(l5.check_init_logits(CTX, value=sp.Rational(1, 6)))


def test_L1_0_planted_value_is_refuted():
    refuted(l5.check_L1_0(CTX, value=sp.log(5)))


def test_dldl_planted_sign_is_refuted():
    refuted(l5.check_dldl(CTX, shown=lambda p: [(pj + (1 if j == 0 else 0)) / T for j, pj in enumerate(p)]))


def test_obs4_planted_sign_is_refuted():
    refuted(l5.check_obs4(CTX, signs=("<", "<", "<", "<", "<")))


def test_obs3_planted_bound_is_refuted():
    refuted(l5.check_obs3(CTX, bound=sp.log(7)))


def test_crit_display_with_1_over_T_passes_and_planted_index_is_refuted():
    fixed = lambda p: (-2 / T * (p[4] + p[5]) * v2, -2 / T * (p[3] + p[5]) * v1)
    passes(l5.check_crit_display(CTX, 0, fixed))
    passes(l5.check_crit_display(CTX, 1, fixed))
    # (p5 -> p4 would be no error here: p3 = … = p6 on this set, observation 5)
    wrong = lambda p: (-2 / T * (p[4] + p[5]) * v1, -2 / T * (p[3] + p[5]) * v1)  # v2 -> v1 in ∂v1
    refuted(l5.check_crit_display(CTX, 0, wrong))


def test_crit_equalities_corrected_pass():
    passes(l5.check_crit_equalities(CTX, ((v1, v3), (v2, v4))))


def test_saddle_planted_point_is_refuted():
    planted = (sp.Rational(1, 3), sp.Rational(1, 6), sp.Rational(1, 3), sp.Rational(1, 6), 0, 0)
    refuted(l5.check_saddle(CTX, saddle=planted))


def test_directions_planted_swap_is_refuted():
    refuted(l5.check_direction(CTX, printed.L5_ASCENDING, "<", "planted"))


# --- Lemma 6 --------------------------------------------------------------------------------------

def test_gradl_corrected_fifth_entries_pass():
    h = sp.Rational(1, 2)
    fixed = [list(g) for g in printed.GRAD_L_AT_SADDLE]
    for i in range(2, 6):
        fixed[i][4] = h
    passes(l6.check_gradl(CTX, shown=fixed))


def test_eq13_planted_sign_is_refuted():
    refuted(l6.check_eq13(CTX, shown=lambda v, e: [ei * vi + vi * sum(a * b for a, b in zip(v, e))
                                                    for vi, ei in zip(v, e)],
                          vprime=tuple(-x for x in printed.V_PRIME_0)))


def test_eq14_planted_entry_is_refuted():
    refuted(l6.check_eq14(CTX, shown=(0, 0, sp.Rational(1, 8), 0, sp.Rational(1, 8), -sp.Rational(1, 8))))


def test_hessian_planted_entry_is_refuted():
    planted = [m.copy() for m in printed.HESSIANS]
    planted[3][1, 4] = 0
    ce = refuted(l6.check_hess(CTX, shown=planted))
    assert "∇²l4[2,5]" in str(ce)


def test_eq17_planted_entry_is_refuted():
    refuted(l6.check_eq17(CTX, shown=(sp.Rational(1, 4), 0, sp.Rational(1, 16), sp.Rational(3, 16),
                                      sp.Rational(1, 16), sp.Rational(3, 16))))


def test_d2p_planted_sign_is_refuted():
    def planted(p):
        out = printed.d2p(p)
        out[(2, 2)] = p[0] / T**2 * (2 * p[2]**2 + p[2])
        return out
    refuted(l6.check_d2p(CTX, shown=planted))


def test_termI_planted_constant_is_refuted():
    refuted(l6.check_termI(CTX, term=lambda p0: p0 / (4 * T)))


def test_termII_corrected_passes():
    passes(l6.check_termII(CTX, term=lambda p0, p3: -p0 * p3 / (32 * T**2)))


def test_fpp_derived_passes_printed_check_and_planted_fails_derivation():
    passes(l6.l6_fpp_printed(CTX, shown=l6.FPP_DERIVED))
    refuted(l6.check_fpp_derived(CTX, closed=-1 / (8 * T) + 1 / (64 * T**2 * (2 + sp.exp(3 / (16 * T))))))


def test_fpp_order_planted_bound_is_refuted():
    refuted(l6.check_fpp_order(CTX, bound=-sp.Rational(1, 4)))


# --- Section 4.1 ----------------------------------------------------------------------------------

def test_gap_planted_shape_is_refuted():
    refuted(s41.check_gap(CTX, shape=(v1 - v2) * (v3 - v4)))


def test_amgm_planted_pairing_is_refuted():
    wrong = {v1: (v1 + v4) / 2, v4: (v1 + v4) / 2, v2: (v2 + v3) / 2, v3: (v2 + v3) / 2}
    verdict = l5.check_inequality(s41.amgm_increase(wrong), ">=", sp.Integer(0), s41.SIMPLEX_V, CTX.seed)
    ce = refuted(verdict)
    assert ce["lhs"] < ce["rhs"]


def test_stage1_pred_planted_saddle_is_refuted():
    refuted(s41.check_stage1_pred(CTX, saddle=(sp.Rational(1, 3), sp.Rational(1, 6), sp.Rational(1, 6),
                                               sp.Rational(1, 3), 0, 0)))


def test_table2_all_sequences_planted_swapped_pair_is_refuted():
    table = dict(printed.TABLE2)
    table["r4"] = (v5 + v4)**2 + (v1 + v4)**2 + v3**2  # (v5+v2) -> (v5+v4)
    ce = refuted(t2.check_table2_all_sequences(CTX, table))
    assert "r4" in ce["case"]


def test_eq4_autograd_planted_coefficient_is_refuted():
    planted = _eq4_with(lambda p: 1 / T * ((p[0] + p[2]) * v2 + (p[1] + p[3]) * v4 - v2))
    ce = refuted(t2.eq_autograd(CTX, 0, planted))
    assert {"printed", "autograd"} <= set(ce)


def test_eq8_autograd_planted_index_is_refuted():
    def planted(p):
        out = printed.eqs_4_to_9(p)
        out[4] = 2 / T * ((p[2] + p[3]) * v4 + (p[4] + p[5]) * v2)  # p5 <-> p4 swapped
        return out
    refuted(t2.eq_autograd(CTX, 4, planted))
