"""Batched pre-training (training.pretrain_batched, pretrained.pretrained_batch) against the per-run loop:
final Z, W and every traced observable equal to ≤ 1e-12 relative (float64, CPU), and a planted mismatch
(one member's data or init seed swapped) that the same comparison must catch."""
import dataclasses

import pytest
import torch

from derivations.knowledge.experiments import pretrained as P, training as T
from derivations.knowledge.model import data, setup

REC = setup.Recon(mu=1.0, mu_c=3.0, kappa=1.0, m=4)
SIZES = dict(N_f=6, N_r=2, K=2, R=4)
STAGES = (10, 20, 40)
DATA_SEEDS, INIT_SEEDS = (0, 1, 2), (3, 4, 5)
KNS = [data.make(**SIZES, beta=0.5, seed=s) for s in DATA_SEEDS]
RTOL = 1e-12


def rel_diff(a: T.State, b: T.State) -> float:
    """Largest relative difference between two runs: Z, W (max-norm relative) and every trace entry."""
    if a.trace.keys() != b.trace.keys() or a.trace["t"] != b.trace["t"]:
        return float("inf")
    d = [float((a.Z - b.Z).abs().max() / b.Z.abs().max()), float((a.W - b.W).abs().max() / b.W.abs().max())]
    d += [abs(x - y) / max(abs(y), 1e-300) for k in b.trace for x, y in zip(a.trace[k], b.trace[k])
          if not (x == y)]
    return max(d)


def sequential(kns, recons, etas, seeds):
    return [T.pretrain(kn, r, etas=e, stages=STAGES, seed=s, record_every=10) for kn, r, e, s in
            zip(kns, recons, etas, seeds)]


@pytest.fixture(scope="module")
def reference():
    return sequential(KNS, [REC] * 3, [(10.0, 5.0, 1.0)] * 3, INIT_SEEDS)


def test_batched_equals_per_seed_runs(reference):
    got = T.pretrain_batched(KNS, REC, etas=(10.0, 5.0, 1.0), stages=STAGES, seeds=INIT_SEEDS, device="cpu",
                             record_every=10)
    assert len(got) == 3
    for g, r in zip(got, reference):
        assert len(g.trace["t"]) == len(r.trace["t"]) == 5
        assert rel_diff(g, r) <= RTOL


def test_batched_per_member_recon_and_etas():
    recons = [REC, dataclasses.replace(REC, mu_c=4.0), dataclasses.replace(REC, kappa=2.0)]
    etas = [(10.0, 5.0, 1.0), (5.0, 2.0, 0.5), (1.0, 1.0, 1.0)]
    got = T.pretrain_batched(KNS, recons, etas=etas, stages=STAGES, seeds=INIT_SEEDS, device="cpu")
    for g, r in zip(got, sequential(KNS, recons, etas, INIT_SEEDS)):
        assert rel_diff(g, r) <= RTOL


@pytest.mark.parametrize("plant", ["data", "init"])
def test_planted_mismatch_is_caught(reference, plant):
    """Member 1 gets another member's data (or init seed): the comparison must flag member 1 only."""
    kns, seeds = list(KNS), list(INIT_SEEDS)
    if plant == "data":
        kns[1] = KNS[2]
    else:
        seeds[1] = INIT_SEEDS[2]
    got = T.pretrain_batched(kns, REC, stages=STAGES, seeds=seeds, device="cpu")
    assert rel_diff(got[0], reference[0]) <= RTOL and rel_diff(got[2], reference[2]) <= RTOL
    assert rel_diff(got[1], reference[1]) > 1e-3


def test_mismatched_shapes_are_rejected():
    other = data.make(N_f=7, N_r=2, K=2, R=4, beta=0.5, seed=0)
    with pytest.raises(ValueError):
        T.pretrain_batched([KNS[0], other], REC, stages=STAGES, seeds=(0, 1), device="cpu")
    with pytest.raises(ValueError):
        T.pretrain_batched(KNS, REC, etas=[(1.0, 1.0, 1.0)] * 2, stages=STAGES, seeds=INIT_SEEDS, device="cpu")


def test_default_device_is_resolved():
    st = T.pretrain_batched(KNS[:1], REC, stages=(1, 2, 3), seeds=(0,))[0]
    assert st.Z.device.type == ("cuda" if torch.cuda.is_available() else "cpu")


def test_pretrained_batch_equals_pretrained():
    kw = dict(**SIZES, recon=REC, stages=STAGES, etas=(10.0, 5.0, 1.0), beta=0.5, record_every=10)
    batch = P.pretrained_batch(seeds=(0, 1, 2), **kw)
    for s, (st, kn, rec) in zip((0, 1, 2), batch):
        st0, kn0, rec0 = P.pretrained(seed=s, **kw)
        assert rec == rec0 and kn.relations == kn0.relations and (kn.ft_pairs == kn0.ft_pairs).all()
        assert rel_diff(st, st0) <= RTOL
    # cached and returned as copies: mutating a result leaves the cache alone
    batch[0][0].W.zero_()
    again = P.pretrained_batch(seeds=(2, 0), **kw)
    assert rel_diff(again[1][0], P.pretrained(seed=0, **kw)[0]) <= RTOL
    assert rel_diff(again[0][0], batch[2][0]) == 0.0
