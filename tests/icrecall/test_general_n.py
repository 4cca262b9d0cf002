"""General-n first step (App. C): the derived quadratic forms match the SymPy model, and every
check kind used by claims_lemma9/10/11 refutes a planted error (principle 2)."""
import numpy as np
import sympy as sp

from derivations.icrecall.claims import c_lemma9 as L9
from derivations.icrecall.claims import c_lemma10 as L10
from derivations.icrecall.claims import c_lemma11 as L11
from derivations.icrecall.experiments.appc_sweeps import little_o_verdict
from derivations.icrecall.model import general_n as G
from derivations.icrecall.printed import appc as P
from derivations.icrecall.model.symbolic import ic_sequence, step1_logits
from theoryverify import check_identity
from theoryverify import RunContext
from theoryverify import Domain
from theoryverify import Status

CTX = RunContext(seed=123)


def test_quadratic_forms_match_the_sympy_model():
    vocab = G.affine_family(5)
    seqs = G.all_sequences(vocab)[::97]
    b = G.Batch.build(vocab, seqs)
    for i, s in enumerate(seqs):
        lg = step1_logits(vocab, ic_sequence(vocab, s.subjects, s.relation), G.VS)
        for k in range(vocab.m):
            assert sp.expand(lg[vocab.r(k)] - G.symbolic_logit(b.Q[i, k])) == 0


def test_vectorised_types_match_the_predicates():
    pop = G.greedy_population(6, 0)
    for i in range(0, len(pop), 53):
        t = G.sequence_type(pop.vocab, pop.seqs[i])
        assert all(t[k] == pop.types[k][i] for k in t)


def test_second_directional_matches_finite_differences():
    pop, th = G.post_stage1(7, 0, 0.01)
    sub = pop.take(np.arange(0, len(pop), 97))
    d = np.array([0.5, 0.5, -0.5, -0.5, 0, 0])
    _, fp, fpp = G.second_directional(sub, th, d, 0.01)
    h = 1e-4
    f = lambda x: sub.losses(G.np_softmax(th + x * d), 0.01)
    assert np.allclose((f(h) - f(-h)) / (2 * h), fp, rtol=1e-5, atol=1e-6)
    assert np.allclose((f(h) - 2 * f(0) + f(-h)) / h**2, fpp, rtol=1e-3, atol=1e-3)


# --- planted errors --------------------------------------------------------------------------------

def test_planted_bound_constant_is_refuted(monkeypatch):
    assert L9.l9_grad_nonmis(CTX).status is Status.HOLDS
    monkeypatch.setattr(L9, "C_BOUND", 1e-9)
    v = L9.l9_grad_nonmis(CTX)
    assert v.status is Status.REFUTED and "T" in v.counterexample


def test_planted_mismatched_upper_bound_is_refuted(monkeypatch):
    v = L9.l9_grad_mis(CTX)
    assert v.status is Status.HOLDS
    real = L9._gaps
    monkeypatch.setattr(L9, "_gaps", lambda pop, T: (lambda a: (3 * a[0], a[1]))(real(pop, T)))  # gap ×3 > 2/(3T)
    assert L9.l9_grad_mis(CTX).status is Status.REFUTED


def test_planted_sample_constant_is_refuted(monkeypatch):
    assert L9.t3_chernoff(CTX).status is Status.PROVED
    monkeypatch.setattr(P, "T3_SAMPLE_CONST", 1)
    v = L9.t3_chernoff(CTX)
    assert v.status is Status.REFUTED and "zeta" in v.counterexample


def test_planted_eq26_sign_is_refuted(monkeypatch):
    assert L11.l11_eq26(CTX).status is Status.PROVED
    monkeypatch.setattr(P, "EQ26", P.EQ26 - 2 * (P.D[0] - P.D[2]) * (P.D[1] - P.D[3]))
    v = L11.l11_eq26(CTX)
    assert v.status is Status.REFUTED and "lhs" in v.counterexample


def test_corrected_lemma11_gradients_are_proved_and_a_wrong_factor_refuted(monkeypatch):
    monkeypatch.setattr(P, "L11_GRADS", [2 * x for x in P.L11_GRADS])
    assert L11.l11_grads(CTX).holds
    monkeypatch.setattr(P, "L11_GRADS", [3 * x for x in P.L11_GRADS])
    assert L11.l11_grads(CTX).status is Status.REFUTED


def test_second_order_constants_pass_when_corrected(monkeypatch):
    d = L10.derived_consts()
    fixed = {"gradl_vpp": d["gradl1_vpp"], "vp_H1_vp": d["vp_H1_vp"], "vp_H2_vp": d["vp_H2_vp"],
             "l1pp": d["l1pp"], "l2pp": d["l2pp"]}
    monkeypatch.setattr(P, "CONSTS", fixed)
    assert L10.l10_consts(CTX).status is Status.PROVED


def test_vpp_leading_constant_check_can_fail_for_i_1():
    v, _, vpp = L10._vpp_derived()
    assert check_identity(L10.leading(vpp[0]), L10.leading(P.VPP_THIRD_COEFF * v[0]), Domain([]), 1).status is Status.PROVED
    bad = check_identity(L10.leading(vpp[0]), L10.leading(sp.Rational(1, 10) * v[0]), Domain([]), 1)
    assert bad.status is Status.REFUTED


def test_sweep_and_regime_verdicts_can_fail():
    Ts = [0.01, 0.005, 0.0025, 0.00125, 0.000625]
    assert little_o_verdict("x", Ts, [10, 5, 1, 0.1, 0.001]).status is Status.HOLDS
    assert little_o_verdict("x", Ts, [1, 2, 4, 8, 16]).status is Status.INCONCLUSIVE
    rows = {T: (False, {}) for T in Ts}
    assert L10._regime_verdict(rows, "x").status is Status.INCONCLUSIVE
    rows = {T: (T < 0.003, {}) for T in Ts}
    assert L10._regime_verdict(rows, "x").status is Status.HOLDS


def test_planted_eq31_constant_is_refuted(monkeypatch):
    monkeypatch.setattr(P, "EQ31_CONST", sp.Rational(1, 5000))  # the factor-1 line cannot give 1/5000 at α = 0
    v = L11.l11_eq31(CTX)
    assert v.status is Status.REFUTED


def test_local_predicates_agree_with_families_module():
    """general_n's sequence types (written before families.py existed) equal families.py's."""
    from derivations.icrecall.model import families as F

    vocab = G.greedy_family(7, 0)
    fam = F.Family("greedy(7,0)", vocab.n, vocab.relations)
    ref = F.all_sequences(fam)
    mine = G.sequence_types(vocab, [G.Seq(tuple(int(x) for x in s), int(r)) for s, r in zip(ref.s, ref.rstar)])
    assert (mine["I"] == ref.I).all()
    assert (mine["confusing"] == ref.is_confusing).all()
    assert (mine["mismatched"] == ref.is_mismatched).all()
    assert (mine["k"] == ref.matching).all()


# --- issue 15 audit: Lemma 11's end-of-proof sandwich with its own g_k ----------------------------------------

def test_l11_sandwich_gk_printed_refuted_corrected_holds():
    """The printed sandwich (exponent g_k/T, g_k = (v1 − v3)(v2 − v4)) is refuted inside T < 1/(40 log n); the
    corrected one (2g_k = l(r1) − l(r2)) holds on the same points, so the check can pass."""
    bad = L11.l11_sandwich_gk(CTX)
    assert bad.status is Status.REFUTED and bad.counterexample["p1 min"] > bad.counterexample["printed upper"]
    good = L11.l11_sandwich_gk(CTX, factor=2.0)
    assert good.status in (Status.HOLDS, Status.PROVED), good.evidence  # exhaustive cases: proved


def test_l11_sandwich_planted_half_exponent_refuted():
    """A planted exponent g_k/(2T) (factor ½) is refuted too: the upper bound only gets smaller."""
    assert L11.l11_sandwich_gk(CTX, factor=0.5).status is Status.REFUTED
