"""Section-5 reproduction machinery: hand-made accuracy case, model cross-check, planted errors."""
import numpy as np
import torch

from derivations.icrecall.claims import s5_experiments as C
from derivations.icrecall.experiments import section5 as X
from derivations.icrecall.model.families import f_paper
from theoryverify import Status


def test_argmax_accuracy_hand_made():
    lg = torch.tensor([[[1.0, 3.0, 2.0], [2.0, 2.0, 0.0], [5.0, 5.0, 5.0], [0.0, 1.0, 1.0 + 1e-9]]],
                      dtype=torch.float64)
    tgt = torch.tensor([[1, 0, 2, 1]])
    acc = X.argmax_accuracy(lg, tgt)
    assert torch.allclose(acc, torch.tensor([[1.0, 0.5, 1 / 3, 0.0]], dtype=torch.float64))
    p = X.target_prob(lg, tgt, 1.0)
    assert abs(float(p[0, 0]) - np.exp(3) / (np.exp(1) + np.exp(3) + np.exp(2))) < 1e-14


def test_fast_model_matches_full_model():
    assert X.fast_vs_full(X.Config(n=5, m=10, T=0.05, n_test=32), 3) < 1e-12
    assert X.fast_vs_full(X.Config(n=5, m=10, T=0.05, examples=3, n_test=32), 3) < 1e-12


def test_sample_cases_follow_definition_1():
    g = np.random.default_rng(0)
    fam = f_paper(6, 9, g)
    d = X.sample_cases(fam, 200, 3, g)
    n, m = fam.n, fam.m
    for row, r, a in zip(d["step1"], d["r_star"], d["answer"]):
        s = row[[0, 2, 4, 6]]
        assert len(set(s)) == 4 and row[-1] == 2 * n + m
        assert all(row[2 * j + 1] - n - m == fam.relations[r][s[j]] for j in range(3))
        assert a == fam.relations[r][s[3]]


def test_planted_scrambled_mlp_storage_refuted():
    g = np.random.default_rng(1)
    fam = f_paper(5, 10, g)
    phi = X.orthonormal_embedding(21, 21, g)
    assert all(C.lemma1_storage(fam, phi).values())
    bad = C.lemma1_storage(fam, phi, perm=g.permutation(3 * 25))
    assert not all(bad.values())


def test_planted_scrambled_mlp_refutes_fig3():
    """A deliberately broken model (rows of the constructed MLP's V scrambled) must make the
    Figure-3 reproduction check refute, while the intact model on the same grid does not."""
    base = dict(n=5, m=10, T=0.05, seeds=2, steps=150, n_test=128)
    grid = (2, 8, 16)
    good = {"F-paper(5,10)": [X.Config(n_train=k, **base) for k in grid]}
    broken = {"F-paper(5,10)": [X.Config(n_train=k, scramble_mlp=True, **base) for k in grid]}
    pts_b = {k: [X.run_experiment(c, 5) for c in v] for k, v in broken.items()}
    vb = C.fig3_verdict(broken, pts_b)
    assert vb.status is Status.REFUTED and vb.counterexample
    pts_g = {k: [X.run_experiment(c, 5) for c in v] for k, v in good.items()}
    assert np.mean(pts_g["F-paper(5,10)"][1]["acc1"]) > np.mean(pts_b["F-paper(5,10)"][1]["acc1"]) + 0.2
    # a quick (under-trained) run never refutes
    assert C.fig3_verdict(broken, pts_b, can_refute=False).status is Status.INCONCLUSIVE


def test_attention_verdict_detects_non_pairwise():
    cfg = X.Config(n=8, m=64, T=0.05)
    res = {"row1": [[0.3, 0.3, 0.18, 0.18, 0.04, 0.0]], "row2": [[0.0, 0.0, 0.0, 0.0, 0.9, 0.05, 0.05]],
           "acc1": [0.6], "acc2": [1.0], "ceiling": [0.6]}
    assert C.attention_verdict(cfg, res).status is Status.HOLDS
    res["row1"] = [[0.4, 0.2, 0.18, 0.18, 0.04, 0.0]]  # planted: not pairwise
    assert C.attention_verdict(cfg, res).status is not Status.HOLDS


def test_second_step_verdict():
    ok = {"a": {"acc2": [1.0, 1.0], "min_acc2": [1.0, 1.0]}}
    assert C.second_verdict(ok).status is Status.HOLDS
    ok["b"] = {"acc2": [1.0, 0.99], "min_acc2": [1.0, 0.0]}
    assert C.second_verdict(ok).status is Status.INCONCLUSIVE
    assert C.second_verdict(ok, can_refute=True).status is Status.INCONCLUSIVE  # within 2 s.e.: noise
    ok["c"] = {"acc2": [0.45, 0.5, 0.41], "min_acc2": [0.0, 0.0, 0.0]}  # far below perfect on every seed
    assert C.second_verdict(ok).status is Status.INCONCLUSIVE  # the quick smoke run cannot refute
    v = C.second_verdict(ok, can_refute=True)  # the full profile: one rule with Figure 3
    assert v.status is Status.REFUTED and v.counterexample["configuration"] == "c"
