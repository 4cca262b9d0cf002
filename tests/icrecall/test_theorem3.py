"""General-n Stage-2 dynamics (claims_theorem3 / stage2_dynamics): the key-merged loss and its closed-form
gradient equal the per-sequence derivation and torch autograd, batching does not change a run, and the
rate / growth checks refute planted errors (wrong exponent, wrong growth factor)."""
import math

import numpy as np
import torch

from derivations.icrecall.claims import s42_theorem3 as C
from derivations.icrecall.model import general_n as G
from derivations.icrecall.experiments import stage2_dynamics as S
from theoryverify import scaling
from theoryverify import Status

RNG = np.random.default_rng(0)


def _greedy_dataset(p_conf=0.5, size=64):
    keys, pop = S.greedy_keys(6, 0)
    idx = S.fsub_pconf(pop, p_conf, size, 0)
    return keys, pop, idx


def test_keys_loss_and_gradient_equal_per_sequence_derivation():
    keys, pop, idx = _greedy_dataset()
    D = pop.take(idx)
    w = torch.tensor(keys.weights(idx)[None])
    kl = S.KeyLoss(keys)
    for T in (0.05, 0.005):
        th = RNG.normal(size=6) * 0.3
        Tt = torch.tensor([T], dtype=torch.float64)
        v, vt, x, lse, ell = kl.per_key(torch.tensor(th[None]), Tt)
        per_seq = ell.numpy()[0][keys.key_of]
        np.testing.assert_allclose(per_seq, pop.losses(v.numpy()[0], T), rtol=1e-10, atol=1e-12)
        g = kl.grad_theta(w, Tt, v, vt, x, lse).numpy()[0]
        np.testing.assert_allclose(g, D.grad_theta(th, T), rtol=1e-8, atol=1e-10)
        # torch autograd of the key loss
        th_t = torch.tensor(th[None], requires_grad=True)
        kl.loss(th_t, w, Tt).sum().backward()
        np.testing.assert_allclose(g, th_t.grad.numpy()[0], rtol=1e-9, atol=1e-10)


def test_aff_family_is_one_key_and_swap_closed_dataset_is_symmetric():
    keys = S.aff_keys(5)
    assert keys.K == 1 and keys.confusing.all() and keys.mismatched.all()
    keys6, pop, idx = _greedy_dataset(0.5, 128)
    w = keys6.weights(idx)[None]
    r = S.algorithm1(keys6, w, np.array([0.005]), S.eta1(np.array([0.005]), 100), S.eta2(np.array([0.005]), 10),
                     np.zeros((1, 6)), np.array([0]))
    v = r.v_tilde[0]
    assert abs(v[0] - v[2]) < 1e-14 and abs(v[1] - v[3]) < 1e-14


def test_batching_does_not_change_a_run():
    keys = S.aff_keys(5)
    T = np.array([0.01, 0.005])
    xi = S.perturbations(1, [("a",), ("b",)], S.radius(T, 1.0))
    both = S.algorithm1(keys, np.ones((2, 1)), T, S.eta1(T, 100), S.eta2(T, 10), xi, np.array([300, 300]))
    one = S.algorithm1(keys, np.ones((1, 1)), T[1:], S.eta1(T[1:], 100), S.eta2(T[1:], 10), xi[1:], np.array([300]))
    np.testing.assert_allclose(both.g[:, 1], one.g[:, 0], rtol=1e-12, atol=1e-20)


def test_growth_prediction_matches_closed_form_at_uniform_point():
    """λ_min at a symmetric Lemma-9-like point (v5 lowered, so only r*, r2 are alive; p_conf = 1) equals
    −2 v1 v2 / T to leading order."""
    keys = S.aff_keys(5)
    T = np.array([0.002])
    theta = np.array([[0.0, 0.0, 0.0, 0.0, -3.0, 0.0]])
    lmin = S.hessian_lmin(keys, np.ones((1, 1)), T, theta)
    v = np.exp(theta) / np.exp(theta).sum()
    assert abs(lmin[0] / S.closed_form_lmin(v, np.ones(1), T)[0] - 1) < 0.05


def test_planted_wrong_growth_factor_is_refuted():
    good = C.growth_check((0.012, 0.009), 1, 3)
    assert good.status == Status.HOLDS
    bad = C.growth_check((0.012, 0.009), 1, 3, factor=2.0)
    assert bad.status == Status.REFUTED and bad.counterexample


def test_planted_wrong_growth_bound_is_refuted():
    v = C.growth_verdict(np.array([1e-3]), np.array([1e-3]), np.array([2e-3]), ["run"])
    assert v.status == Status.REFUTED


def test_planted_wrong_duration_exponent_is_refuted():
    """k* measured on real runs, checked against a wrong exponent (k* = O(T^{-3}) read as b ≥ −3 cannot fail,
    so plant b ≥ −0.2 on a sweep that scales like T^{-1}log(1/T))."""
    keys, cfg, T, res = C.aff_runs(C.QUICK_T, 2, 5)  # two seeds a point: one seed a point never refutes
    k = res.hit(res.min_log_ratio, math.log(10)).reshape(len(C.QUICK_T), -1)
    ok = scaling.check_rate(C.QUICK_T, k, -1.0, 0.15, 0, param="T", log_power=1, bound="big_o")
    assert ok.status == Status.HOLDS
    wrong = scaling.check_rate(C.QUICK_T, k, 0.5, 0.4, 0, param="T", bound="big_o")
    assert wrong.status == Status.REFUTED and wrong.counterexample


def test_key_loss_contractions_equal_their_einsum_forms_bit_for_bit():
    """KeyLoss runs its step-loop contractions as batched matrix products (einsum's per-call planning was most of a
    step's time): the logits and the θ-gradient must equal the einsum forms exactly, for any batch size, so the
    change is speed only (the loops run under no_grad; differentiated, the logits stay einsum)."""
    g = torch.Generator().manual_seed(3)
    for keys in (S.aff_keys(7), S.greedy_keys(6, 0)[0]):
        kl = S.KeyLoss(keys)
        for B in (1, 2, 7, 33):
            th = torch.randn(B, 6, dtype=torch.float64, generator=g) * 3
            T = torch.rand(B, dtype=torch.float64, generator=g) * 0.02 + 1e-4
            w = torch.rand(B, len(keys.target), dtype=torch.float64, generator=g)
            with torch.no_grad():
                v, vt, x, lse, _ = kl.per_key(th, T)
                fast = kl.logits(vt)
            assert torch.equal(fast, torch.einsum("bi,fij,bj->bf", vt, kl.A, vt))
            q = kl.c[None] * torch.exp(x[:, None, :] - lse[..., None])
            coef = torch.einsum("bk,bkf->bf", w, q - kl.onehot_t[None])
            gv = torch.einsum("bf,bfi->bi", coef, 2.0 * torch.einsum("fij,bj->bfi", kl.A, vt)[..., :6]) / T[:, None]
            assert torch.equal(kl.grad_theta(w, T, v, vt, x, lse), v * (gv - (v * gv).sum(-1, keepdim=True)))
