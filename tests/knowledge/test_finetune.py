"""Fine-tuning claims (claims/s6_finetuning.py, s5_extraction.py, app_g_finetuning.py): the fast FT path equals training.finetune, and every decision rule
refutes a planted wrong claim."""
import numpy as np
import torch

from derivations.knowledge.claims import app_g_finetuning as G, s5_extraction as X, s6_finetuning as F
from derivations.knowledge.experiments import ood_sweeps as O, training as T
from derivations.knowledge.model import data, setup
from theoryverify import Status

REC = setup.Recon(mu=1.0, mu_c=4.0, kappa=1.0, m=4)
KN = data.make(N_f=6, N_r=2, K=2, R=4, beta=0.5, seed=0)


def _state():
    return T.pretrain(KN, REC, stages=(10, 30, 60), record_every=30, seed=1)


def test_fast_finetune_equals_training_finetune():
    st = _state()
    for mode in ("full", "rank1"):
        fast = O.finetune(st, KN, REC, 5.0, 3, mode=mode, every=1)
        ref = T.finetune(st, KN, REC, 5.0, 3, mode=mode, record_every=1)
        assert torch.allclose(fast.final_state.W, ref.W, rtol=0, atol=1e-12)
        assert np.allclose(fast.acc, 1 - np.array(ref.trace["ood_error"]))


def test_first_gradient_equals_autograd():
    st = _state()
    _, gW, _ = T.ft_gradient(st, KN, REC)
    assert np.allclose(O.first_gradient(st, KN, REC), gW.reshape(-1, gW.shape[-1]).numpy(), rtol=0, atol=1e-13)


def test_rank1_stats_of_an_exact_rank1_matrix():
    u, v = np.arange(1.0, 7.0), np.eye(5)[1]
    r = O.rank1_stats(np.outer(u, v), f_index=1)
    assert r["resid"] < 1e-12 and abs(r["v1_f"] - 1) < 1e-12


def test_p3_decision_and_planted_errors():
    sizes = (6, 12, 24, 48)
    rng = np.random.default_rng(0)
    resid = np.array([[0.6], [0.42], [0.3], [0.21]]) * (1 + 0.02 * rng.standard_normal((4, 5)))
    align = np.full((4, 5), 0.97)
    assert F.p3_decision(sizes, resid, align, 0).status is Status.HOLDS
    v = F.p3_decision(sizes, resid[::-1], align, 0)               # planted: σ_2/σ_1 grows with Ñ_f
    assert v.status is Status.REFUTED and v.counterexample["exponent"] > 0
    v = F.p3_decision(sizes, resid, np.full((4, 5), 0.5) + 0.01 * rng.standard_normal((4, 5)), 0)  # v_1 ⟂ f
    assert v.status is Status.REFUTED and v.counterexample["v1_f_mean"] < 0.9


def test_onestep_decision_and_planted_errors():
    etas = (1.0, 10.0, 100.0)
    good = np.array([[0.5, 0.5], [0.8, 0.8], [0.1, 0.0]])
    assert G.onestep_decision(etas, good, 0.8, 0.5, 10).status is Status.HOLDS
    no_overshoot = np.array([[0.5, 0.5], [0.7, 0.7], [0.8, 0.8]])   # planted: accuracy monotone in η
    v = G.onestep_decision(etas, no_overshoot, 0.8, 0.5, 10)
    assert v.status is Status.REFUTED and not v.counterexample["overshoots"]
    v = G.onestep_decision(etas, good, 0.95, 0.5, 10)               # planted: multi-step far better
    assert v.status is Status.REFUTED and not v.counterexample["reaches_multi_step"]
    v = G.onestep_decision(etas, good, 0.85, 0.5, 10)               # planted near miss: short by half a pair
    assert v.status is Status.INCONCLUSIVE and "near miss" in v.evidence
    assert abs(v.details["shortfall_pairs"] - 0.5) < 1e-9


def test_lowrank_decision_and_planted_better_rank1():
    sizes = (2, 4, 8, 16)
    full = np.array([[0.4, 0.42, 0.41], [0.5, 0.52, 0.5], [0.6, 0.62, 0.61], [0.7, 0.71, 0.72]])
    assert X.lowrank_decision(sizes, full, full - 0.02, 0).status is Status.HOLDS
    v = X.lowrank_decision(sizes, full, full + np.array([[0.0], [0.0], [0.3], [0.2]]), 0)  # planted
    assert v.status is Status.REFUTED and v.counterexample["rank1_minus_full"] > X.LR_TOL


def test_overfit_decision_and_planted_no_drop():
    row = {"eta": 10.0, "N_ft": 8, "best": 0.8, "best_t": 50, "one_pair": 0.1}
    drop = [row | {"final": 0.6, "errors_end": 4, "errors_to_ft_answer": 3}]
    assert F.overfit_decision(drop).status is Status.HOLDS
    flat = [row | {"final": 0.8, "errors_end": 2, "errors_to_ft_answer": 0}]   # planted: never drops
    v = F.overfit_decision(flat)
    assert v.status is Status.REFUTED and v.counterexample["max_drop"] == 0


def test_weighted_gradient_equals_autograd_with_rare_reweighting():
    rec = setup.Recon(mu=1.0, mu_c=4.0, kappa=1.3, m=4, reweight_rare=True)
    st = T.pretrain(KN, rec, stages=(5, 10, 20), record_every=10, seed=2)
    ds = KN.ntp(rec)
    b = T.batch(setup.embeddings(KN.vocab, rec), ds, "cpu")
    W = st.W.clone().requires_grad_(True)
    L = O.model.loss(st.Z, W, b.X, b.mask, b.xL, b.y, b.w, rec.kappa)
    ref = torch.autograd.grad(L, W)[0].reshape(-1, W.shape[-1])
    h = O.hidden(st, KN, rec, ds)
    got = O._grad_w(st.W.reshape(-1, W.shape[-1]), h, b.y, rec.m, rec.kappa, b.w)
    assert torch.allclose(got, ref, rtol=0, atol=1e-13)


def test_prop1_regime_has_prop1_attention():
    rec = O.Prop1(mu=1.0, mu_c=3.0, kappa=1.0, m=4)
    st, kn, _ = O.pretrained(6, 2, 2, 4, 0, recon=rec)
    E = setup.embeddings(kn.vocab, rec)
    three = kn.ntp(rec).subset(kn.ntp(rec).tokens[:, 2] >= 0)
    b = T.batch(E, three, "cpu")
    a = O.model.attention(st.Z, b.X, b.mask, b.xL)
    assert a[:, 0].max() < 1e-3 and torch.allclose(a[:, 1], a[:, 2], atol=0.05)     # Prop. 1 (15), (16)
    q = T.batch(E, kn.qa(), "cpu")
    assert torch.allclose(O.model.attention(st.Z, q.X, q.mask, q.xL)[:, 0], torch.tensor(0.5, dtype=torch.float64),
                          atol=0.05)                                                   # Lemma 17
    assert st.trace["loss"][-1] < st.trace["loss"][0] and O.pt_quality(st, kn, rec)["answer_acc"] == 1.0


def test_lemma4_draws_hold_and_planted_init_scale_and_constant_are_refuted():
    """Lemma 17's part that can fail (session 24): Lemma 4's Gaussian bound over init draws.  A planted init law
    (entries 3× too large) is refuted; so is a planted too-small constant in τ (0.1)."""
    d, mu = 58, 1.0
    assert G.lemma4_draws(d, mu, seeds=40).status is Status.HOLDS
    v = G.lemma4_draws(d, mu, seeds=40, scale=3.0)
    assert v.status is Status.REFUTED and v.counterexample["frac_over_tau"] > G.DELTA_L4
    v = G.lemma4_draws(d, mu, seeds=40, const=0.1)
    assert v.status is Status.REFUTED


def test_frozen_attention_planted_init_and_bound():
    v = G.check_frozen(init_scale=3.0, l4_seeds=20)          # planted: the init law of the draws is wrong
    assert v.status is Status.REFUTED and "frac_over_tau" in v.counterexample
    v = G.check_frozen(bound_const=0.1, l4_seeds=20)          # planted: Lemma 4's τ 10× too small
    assert v.status is Status.REFUTED and v.counterexample["part"].startswith("end of PT")
