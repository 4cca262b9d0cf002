"""Pre-training / fine-tuning loop: determinism, descent, and the rank-1 FT update (App. H)."""
import numpy as np
import torch

from derivations.knowledge.experiments import training as T
from derivations.knowledge.model import data, setup

REC = setup.Recon(mu=1.0, mu_c=4.0, kappa=1.0, m=4)
KN = data.make(N_f=6, N_r=2, K=2, R=4, beta=0.5, seed=0)


def test_pretraining_is_deterministic_and_descends():
    a = T.pretrain(KN, REC, stages=(10, 20, 40), record_every=10, seed=3)
    b = T.pretrain(KN, REC, stages=(10, 20, 40), record_every=10, seed=3)
    assert a.trace == b.trace
    assert a.trace["loss"][-1] < a.trace["loss"][0]
    assert a.trace["eta"][:3] == [10.0, 5.0, 1.0]   # records at t = 0, 10, 20


def test_rank1_update_is_the_top_singular_triple():
    st = T.pretrain(KN, REC, stages=(5, 10, 20), record_every=10, seed=1)
    _, gW, _ = T.ft_gradient(st, KN, REC)
    G1 = T.rank1(gW).reshape(-1, gW.shape[-1])
    assert torch.linalg.matrix_rank(G1) == 1
    S = torch.linalg.svdvals(gW.reshape(-1, gW.shape[-1]))
    resid = torch.linalg.norm(gW.reshape(-1, gW.shape[-1]) - G1) ** 2
    assert torch.isclose(resid, (S[1:] ** 2).sum(), rtol=1e-10)


def test_bad_ft_mode_is_rejected():
    import pytest
    st = T.pretrain(KN, REC, stages=(1, 2, 3), record_every=10)
    with pytest.raises(ValueError):
        T.finetune(st, KN, REC, 1.0, 1, mode="rank2")
