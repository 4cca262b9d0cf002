"""iclnonlinear: the torch model agrees with the SymPy model, and every check kind used by this
paper's claims can fail — a printed formula with a planted error (dropped factor, flipped sign,
swapped index, wrong coefficient or constant) is refuted, with a counterexample, by the same check
function the registered claim uses."""
import numpy as np
import sympy as sp

from derivations.iclnonlinear.claims import s3_model as cm
from derivations.iclnonlinear.claims import s4_concentration as c9
from derivations.iclnonlinear.claims import s4_lemma1 as c1
from derivations.iclnonlinear.claims import s51_gradients as c2
from derivations.iclnonlinear.claims import s51_gradients as cc
from derivations.iclnonlinear.model import counts
from derivations.iclnonlinear.model.geometry import features, in_F
from derivations.iclnonlinear.model.gradients import H_table, q_table
from derivations.iclnonlinear.model.symbolic import population
from derivations.iclnonlinear.model.torch_model import population_loss
from derivations.iclnonlinear.printed import displays as printed
from theoryverify.claims import RunContext
from theoryverify.verdicts import Status
from .asserts import held, refuted

CTX = RunContext(seed=20261121)


# ---- the models agree -----------------------------------------------------------------------

def test_torch_population_loss_equals_sympy_loss_at_a_random_point():
    rng = np.random.default_rng(3)
    K, N, d = 3, 3, 5
    V = features("general", d, K, 2.0, rng)
    Q = rng.standard_normal((d, d))
    p = rng.dirichlet(np.ones(K))
    f = rng.standard_normal(K)
    m = population(K, N)
    s = m.sym
    q = q_table(V, Q)
    point = {**dict(zip(s.q_flat, q.ravel())), **dict(zip(s.p, p)), **dict(zip(s.f, f))}
    sym = float(m.loss.xreplace({k: sp.Float(v, 30) for k, v in point.items()}))
    tor = population_loss(Q, V, p, f[None, :], N)
    np.testing.assert_allclose(tor, sym, rtol=1e-13)
    np.testing.assert_allclose(counts.loss(q, p, f, N), sym, rtol=1e-13)


def test_counts_H_equals_sympy_closed_form_at_a_random_point():
    rng = np.random.default_rng(4)
    K, N = 3, 2
    q, p, f = rng.standard_normal((K, K)), rng.dirichlet(np.ones(K)), rng.standard_normal(K)
    m = population(K, N)
    s = m.sym
    sub = {**dict(zip(s.q_flat, q.ravel())), **dict(zip(s.p, p)), **dict(zip(s.f, f))}
    Hs = np.array(m.H_closed_form().xreplace(sub).evalf(), dtype=float)
    np.testing.assert_allclose(counts.H(q, p, f, N), Hs, rtol=1e-12, atol=1e-14)


def test_cancellation_family_is_in_F():
    f = np.sqrt(2.0) * np.array([0.0, 0.9, -0.1])
    assert in_F(f, np.eye(3), 1.0, c_nd=0.9)
    assert not in_F(f, np.eye(3), 1.0, c_nd=0.95)


# ---- planted errors --------------------------------------------------------------------------

def test_eq5_eq6_check_can_hold_when_both_sides_agree():
    held(cm.check_eq5_eq6(CTX, eq5=cm.eq6_prediction))


def test_planted_eq10_wrong_index():
    refuted(cm.check_eq10(CTX, rhs=lambda A, f: sum(A[m] * f[(m + 1) % len(f)] for m in range(len(f)))))


def test_planted_lemma3_swapped_query_key_index():
    def attn_k(counts_, q, k, exp=np.exp):  # q_{m,k} instead of q_{k,m}
        return 1 / (sum(counts_[m] / counts_[k] * exp(q[m][k] - q[k][k]) for m in range(len(counts_)) if m != k) + 1)
    refuted(cm.check_lemma3(CTX, attn_k=attn_k))


def test_planted_init_wrong_value():
    refuted(cm.check_init(CTX, attn0=lambda N: 1.0 / (N + 1), Ns=range(1, 3)))


def test_planted_lemma1_wrong_coefficient():
    refuted(c1.check_l1_exact(CTX, integrand=lambda A, f, k: printed.appB_loss_integrand(A, f, k, half=0.25)))


def test_planted_lemma1_upper_bound_constant_too_small():
    refuted(c1.check_l1_upper(CTX, C=0.5))


def test_planted_eq13_flipped_sign():
    refuted(c2.check_bilinear(CTX, "orthonormal",
                              integrand=lambda A, f, k, kp: -printed.appC_bilinear_integrand(A, f, k, kp)))


def test_planted_eq13_swapped_query_key_index():
    refuted(c2.check_bilinear(CTX, "orthonormal",
                              integrand=lambda A, f, k, kp: printed.appC_bilinear_integrand(A, f, kp, k)))


def test_planted_eq12_dropped_factor():
    refuted(cc.check_appC_gk(CTX, "orthonormal", integrand=lambda A, f, k: (f[k] - printed.eq10_rhs(A, f)) ** 2))


def test_planted_derived_table_dropped_gram_factor():
    refuted(c2.check_g_table(CTX, derived=lambda x: (x["V"].T @ x["V"]) @ H_table(x), geometries=("general",)))


def test_planted_gradQ_flipped_sign():
    refuted(cc.check_gradQ(CTX, integrand=lambda *a: -printed.appC_gradQ_integrand(*a)))


def test_planted_dattn_dropped_attn_factor():
    def formula(attn, X, xq):
        return printed.appC_dattn(np.ones_like(attn), X, xq) * attn.sum()
    refuted(cc.check_dattn(CTX, formula=formula))


def test_planted_sign_check_fails_on_a_negative_quantity():
    from derivations.iclnonlinear.experiments.draws import configurations
    from derivations.iclnonlinear.experiments.searches import check_nonnegative
    refuted(check_nonnegative(lambda x: -c2.gk_min_normalised(x) - 1e-3, configurations("orthonormal"),
                              CTX.seed, what="planted"))


def test_planted_theta_lower_family_that_does_not_cancel_holds():
    # the family verdict can go the other way: K = 3 with f_1 at an end (no cancellation) stays bounded
    Ns = c1.FAMILY_N[:4]
    ratios = np.array([0.3, 0.31, 0.3, 0.29])
    x0 = {"in_F_c09": True}
    assert c1.family_verdict(ratios, Ns, CTX, "ratio", x0).status is Status.HOLDS


def test_planted_eq9_constants_violated():
    refuted(c9.check_eq9_mc(CTX, prefactor=3e-6, delta_constant=0.5, draws=20_000))


def test_eq9_nontrivial_threshold_planted():
    import derivations.iclnonlinear.claims.s4_concentration as mod
    orig = mod.nontrivial_threshold
    try:
        mod.nontrivial_threshold = lambda K: sp.Integer(20 * K**3)
        refuted(mod.check_eq9_nontrivial())
    finally:
        mod.nontrivial_threshold = orig


def test_planted_wrong_exponent_in_rate_claim():
    from derivations.iclnonlinear.claims import s51_gradients as cs
    from theoryverify.scaling import check_rate
    Ls = np.geomspace(0.01, 10.0, 8)
    y = [cs.g1_scaled_orthogonal(3.0, L) for L in Ls]
    refuted(check_rate(Ls, y, 1.0, 0.15, CTX.seed, param="L"))
    held(check_rate(cs.GRID, [cs.g1_scaled_orthogonal(D, 1.0) for D in cs.GRID], 6.0, 0.15, CTX.seed, param="Delta"))


def test_planted_eq12_upper_constant_too_small():
    from derivations.iclnonlinear.experiments.draws import configurations
    from derivations.iclnonlinear.experiments.searches import check_ratio_at_most
    refuted(check_ratio_at_most(c2.upper_ratios, 0.2, configurations("orthonormal"), CTX.seed, what="ratio", n=30))


def test_planted_row_sum_identity_without_inverse_gram():
    from derivations.iclnonlinear.claims import s51_gradients as cb
    from derivations.iclnonlinear.experiments.draws import configurations
    from theoryverify.checks import check_agreement

    def no_inverse(x):  # planted: g·1 = 0 (drops G⁻¹) is false for general features
        g = c2.autograd_g(x)
        G = x["V"].T @ x["V"]
        return g.sum(axis=1) / (float(np.mean(x["tasks"] ** 2)) * np.abs(G).max() ** 2)
    refuted(check_agreement(no_inverse, lambda x: np.zeros(x["K"]), configurations("general"), CTX.seed, n=25))
    held(check_agreement(cb.linear_identity, lambda x: np.zeros(x["K"]), configurations("general"), CTX.seed, n=10))
