"""The torch model agrees with the SymPy derivation, and every autograd / step-2 check can fail:
a printed formula with a planted error (flipped sign, wrong index, dropped factor) is refuted by
the same check with a counterexample."""
import numpy as np
import sympy as sp
import torch
from hypothesis import strategies as st

from derivations.icrecall.claims import s2_model_autograd as ca
from derivations.icrecall.claims import d_step2 as cs
from derivations.icrecall.printed import appcd as pr
from derivations.icrecall.model import step2 as s2
from derivations.icrecall.model.symbolic import n3
from derivations.icrecall.model.torch_model import ICModel, affine_relations, table1_model
from theoryverify import strategies as strat
from theoryverify import check_agreement
from theoryverify import Status

SEED = 20261121
N_EX = 25


def test_torch_logits_equal_model_py_logits_at_a_random_point():
    rng = np.random.default_rng(1)
    m, N = table1_model(), n3()
    b = m.batch([((0, 1, 2), 0)])
    v = rng.dirichlet(np.ones(6))
    mine = m.logits_from_attention(b["step1"], m.tensor(v)[None]).numpy()[0]
    derived = np.array([float(N.all_logits[N.vocab.token_name(t)].xreplace(dict(zip(N.v, v))))
                        for t in range(N.vocab.d)])
    np.testing.assert_allclose(mine, derived, rtol=0, atol=1e-14)


def test_torch_step2_logits_equal_step2_derivation_with_orthonormal_embedding():
    rng = np.random.default_rng(2)
    voc = s2.family("aff5")
    size = voc.d
    emb = ca._orth(size, 7)  # the logits are invariant under an orthonormal change of basis
    m = ICModel(5, affine_relations(5), embedding=emb)
    case = ((3, 1, 4), 7)
    q = rng.dirichlet(np.ones(7))
    mine = m.answer_logits(m.batch([case])["step2"], m.tensor(q)[None]).numpy()[0]
    inst = s2.Step2(voc, *case)
    derived = np.array([float(l.xreplace(dict(zip(s2.Q, q)))) for l in inst.logits])
    np.testing.assert_allclose(mine, derived, rtol=0, atol=1e-13)


def test_partial_wkq_attention_is_softmax_theta():
    m = table1_model()
    th = torch.randn(6, dtype=torch.float64)
    b = m.batch([((2, 0, 1), 3)])
    attn = m.attention(b["step1"], m.wkq(th, torch.randn(7, dtype=torch.float64)))[0]
    torch.testing.assert_close(attn, torch.softmax(th, -1), rtol=0, atol=1e-15)


# --- planted errors ------------------------------------------------------------------------

def _refuted(verdict):
    assert verdict.status is Status.REFUTED, verdict
    assert verdict.counterexample
    return verdict.counterexample


def test_appc_list_with_flipped_sign_is_refuted():
    def planted(v, T, P):
        g = pr.appc_grads(v, T, P)
        g[0] = 2 * (P[0][0] * v[1] + P[0][1] * v[3] + v[1]) / T  # −v2 → +v2
        return g

    m = ICModel(5, affine_relations(5))
    case = st.tuples(strat.simplex(6), ca.T_STEP)
    good = check_agreement(lambda x: ca.appc_parts(m, ((0, 1, 2), 3), *x)[0],
                           lambda x: ca.appc_parts(m, ((0, 1, 2), 3), *x)[1], case, SEED, n=N_EX)
    assert good.status is Status.HOLDS
    ce = _refuted(check_agreement(lambda x: ca.appc_parts(m, ((0, 1, 2), 3), *x, printed_fn=planted)[0],
                                  lambda x: ca.appc_parts(m, ((0, 1, 2), 3), *x)[1], case, SEED, n=N_EX,
                                  describe=lambda x: {"v": x[0], "T": x[1]}))
    assert {"v", "T"} <= set(ce)


def test_claim2_with_dropped_factor_is_refuted():
    def planted(q, T, pa1, pa2, pa3):
        g = pr.claim2(q, T, pa1, pa2, pa3)
        g[6] = 1 / T * (pa1 * q[0] + pa2 * q[2] + pa3 * q[4] - q[4])  # 2/T → 1/T
        return g

    m = ICModel(4, s2.cyclic_relations(4))
    case = st.tuples(strat.vectors(7, -3, 3), ca.T_STEP)
    run = lambda x, f=pr.claim2: ca.claim2_parts(m, ((0, 1, 2), 1), x[0], x[1], printed_fn=f)  # noqa: E731
    assert check_agreement(lambda x: run(x)[0], lambda x: run(x)[1], case, SEED, n=N_EX).status is Status.HOLDS
    _refuted(check_agreement(lambda x: run(x, planted)[0], lambda x: run(x)[1], case, SEED, n=N_EX))
    _refuted(check_agreement(lambda x: run(x, planted)[2], lambda x: run(x)[3], case, SEED, n=N_EX))


def test_eq10_with_wrong_index_is_refuted():
    def planted(v, d):
        s = sum(v[j] * d[j] for j in range(6))
        return [v[(i + 1) % 6] * (d[i] - s) for i in range(6)]  # v_{i+1} instead of v_i

    m, b = ca.torch_n3("cpu")
    case = st.tuples(ca.THETA, ca.T_STEP)

    def shown(x, f):
        v = ca.softmax_np(x[0])
        return np.array(f(v, ca.grad_v_torch(m, b, v, x[1])))

    ref = lambda x: ca.grad_theta_torch(m, b, *x)  # noqa: E731
    assert check_agreement(lambda x: shown(x, pr.eq10), ref, case, SEED, n=N_EX).status is Status.HOLDS
    _refuted(check_agreement(lambda x: shown(x, planted), ref, case, SEED, n=N_EX))


def test_p2_hessian_with_dropped_factor_is_refuted():
    m = table1_model()
    b = m.batch([((0, 1, 2), 0)])
    orig = pr.p2_hess
    try:
        pr.p2_hess = lambda p, T, Xa, Xb, Yab: float(np.sum(p * Yab) / T + pr._cov(p, Xa, Xb) / T)  # 1/T² → 1/T
        case = st.tuples(strat.simplex(6), strat.log_uniform(0.05, 0.5))
        a, bb, c = ca.unit(np.arange(1, 7.0)), ca.unit(np.ones(6)), ca.unit(np.array([1, -1, 1, -1, 1, 0.5]))
        run = lambda x: ca.p2_parts(m, b, np.array(x[0]), x[1], a, bb, c)  # noqa: E731
        _refuted(check_agreement(lambda x: run(x)[0], lambda x: run(x)[1], case, SEED, n=N_EX))
    finally:
        pr.p2_hess = orig


def test_separation_check_refutes_a_nonzero_gradient():
    m = table1_model()
    b = m.batch([((0, 1, 2), 0)])
    case = st.tuples(ca.THETA, ca.OMEGA)
    # planted: ∂L1/∂θ (nonzero) where ∂L1/∂ω (zero) belongs
    g = lambda x: ca._np(torch.func.grad(lambda t: m.L1(t, m.tensor(x[1]), 0.5, b))(m.tensor(x[0])))  # noqa: E731
    _refuted(check_agreement(lambda x: (g(x) != 0).astype(float), lambda x: np.zeros(6), case, SEED, n=N_EX))


def test_step2_logit_with_wrong_coefficient_is_refuted():
    inst = s2.instance("all3", (1, 2, 0), 4)
    assert cs.logits_case(inst)[0]
    orig = pr.d_logits
    try:
        pr.d_logits = lambda q: {**orig(q), "a3": (q[4] + 2 * (q[6] + 1))**2 + q[2]**2 + q[0]**2}
        ok, info = cs.logits_case(inst)
        assert not ok and "a3" in info
    finally:
        pr.d_logits = orig


def test_monotone_sweep_refutes_a_planted_sign():
    rng = np.random.default_rng(3)
    sl = cs.monotone_slacks(5)
    good = cs.sweep_slacks({k: sl[k] for k in list(sl)[:3]}, cs.argmax5_points(rng, 2000))
    assert good.status is Status.HOLDS
    name = "line3 ≥ 0, i=7"
    ce = _refuted(cs.sweep_slacks({name: -sl[name]}, cs.argmax5_points(rng, 2000)))
    assert ce["step"] == name and "T" in ce


def test_claim2_sympy_identity_refutes_a_flipped_sign():
    inst = s2.exact_instance(5)
    g, p, E = cs.e_form(inst.logits, inst.roles[2])
    pa = [p[j] for j in inst.roles]
    from theoryverify import check_identity
    from theoryverify import Domain, LogUniform, Simplex
    dom = Domain([Simplex(s2.Q), cs.T_DOM, *[LogUniform(e, 1e-3, 1e3) for e in E]])
    wrong = 2 * (1 + s2.Q[6]) / s2.T * (1 - pa[2])  # sign of ∂ℓ2/∂q5 flipped
    assert check_identity(g[4], pr.claim2(s2.Q, s2.T, *pa)[4], dom, SEED).status is Status.PROVED
    _refuted(check_identity(g[4], wrong, dom, SEED))


def test_d_init_p_is_exactly_one_third_at_n3():
    p = cs.init_quantities(3)[0][0]
    assert sp.simplify(p - sp.Rational(1, 3)) == 0
