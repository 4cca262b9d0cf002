"""ICR-T1-polylog machinery (derivations/icrecall/sample_size.py): pattern keys against the derived
general_n forms, the lean Algorithm 1 against stage2_dynamics.algorithm1, and the polylog-vs-power rule on
planted sample-size curves (a curve growing like n must never be reported as polylog)."""
import numpy as np
import pytest
import torch

from derivations.icrecall.model import families as FM
from derivations.icrecall.model import general_n as G
from derivations.icrecall.experiments import sample_size as Z
from derivations.icrecall.experiments import stage2_dynamics as S
from theoryverify.runner import run_rng
from theoryverify import Status

N_GRID = np.array([5, 7, 11, 13, 17, 19, 23, 29, 31], dtype=float)


def _ells(keys, theta, T=0.05):
    kl = S.KeyLoss(keys)
    th = torch.tensor(theta)
    return kl.per_key(th, torch.full((th.shape[0],), T, dtype=torch.float64))[-1].numpy()


def _population_losses(keys, theta):
    """ℓ1 of every population sequence (sorted), from the key table."""
    return np.sort(np.repeat(_ells(keys, theta)[0], keys.mult))


@pytest.mark.parametrize("which", ["aff5", "greedy6"])
def test_pattern_keys_match_general_n_forms(which):
    """Keys from match patterns + construction_int equal stage2_dynamics.keys_of (general_n forms) exactly:
    the same multiset of per-sequence losses at random θ, the same p_conf / p_mis."""
    if which == "aff5":
        ref, fam = S.aff_keys(5), FM.f_aff(5)
    else:
        ref = S.greedy_keys(6, 0)[0]
        fam = FM.Family("g", 6, G.greedy_family(6, 0).relations)
    mine = Z.population_keys(fam)
    theta = np.random.default_rng(1).normal(size=(2, 6))
    assert np.abs(_population_losses(mine, theta) - _population_losses(ref, theta)).max() < 1e-12
    a, b = mine.describe(), ref.describe()
    assert (a["keys"], a["population"], a["population p_conf"], a["population p_mis"]) == \
        (b["keys"], b["population"], b["population p_conf"], b["population p_mis"])


def test_one_sequence_keys_equal_full_population_on_aff5():
    theta = np.random.default_rng(2).normal(size=(3, 6))
    one, full = Z.one_sequence_keys(FM.f_aff(5)), S.aff_keys(5)
    assert one.K == full.K == 1 and int(one.mult[0]) == int(full.mult.sum())
    assert np.abs(_ells(one, theta) - _ells(full, theta)).max() < 1e-12


@pytest.mark.parametrize("q", [5, 7, 8])
def test_aff_half_keeps_assumption1_and_constant_pconf(q):
    fam = Z.f_aff_half(q, 0)
    assert FM.satisfies_a1(fam, "distinct") and fam.m == q * (q - 1) // 2
    d = Z.population_keys(fam).describe()
    assert 0.4 < d["population p_conf"] < 0.6 and d["population p_mis"] > 0.9 and d["keys"] > 1


def test_lean_algorithm1_equals_stage2_dynamics():
    keys = Z.keys_for("F-greedy", 6, 0)
    T = np.full(2, 0.005)
    xi = S.perturbations(0, [(1,), (2,)], S.radius(T, 1.0))
    idx, w = Z.dataset_keys(keys, [64, 64], [run_rng(0, "D", s) for s in range(2)])
    W = np.zeros((2, keys.K))
    for b in range(2):
        np.add.at(W[b], idx[b], w[b])
    lean = Z.algorithm1_datasets(keys, idx, w, T, S.eta1(T, 100.0), S.eta2(T, 40.0), xi, 300)
    ref = S.algorithm1(keys, W, T, S.eta1(T, 100.0), S.eta2(T, 40.0), xi, np.full(2, 300))
    assert np.allclose(lean["min_logp1"], ref.at_end(ref.min_logp1), rtol=1e-10, atol=1e-12)


def test_merged_keys_evaluate_each_population_separately():
    parts = [Z.keys_for("F-aff-half", 5, 0), Z.keys_for("F-greedy", 6, 0)]
    merged, slices = Z.merge_keys(parts)
    theta = torch.tensor(np.random.default_rng(3).normal(size=(2, 6)))
    T = torch.full((2,), 0.05, dtype=torch.float64)
    for k, sl in zip(parts, slices):
        alone = Z.min_logp1(S.KeyLoss(k), theta, T)
        joint = Z.min_logp1(S.KeyLoss(merged), theta, T, keys=sl)
        assert torch.allclose(alone, joint, rtol=1e-12, atol=1e-12)


def test_smallest_size_uses_the_seed_fraction():
    consts = Z.Constants(0.01)
    grid = {"sizes": [2, 4, 8], "min p1 per (|D|, seed)": [[0.5] * 10, [0.995] * 8 + [0.5] * 2, [0.995] * 9 + [0.5]]}
    assert Z.smallest_size(grid, consts) == 8
    grid["min p1 per (|D|, seed)"][2] = [0.5] * 10
    assert Z.smallest_size(grid, consts) is None


# --- planted sample-size curves: the polylog rule must be able to fail ------------------------------

def test_planted_linear_growth_is_refuted():
    v = Z.polylog_rule(N_GRID, list(3 * N_GRID), seed=0)
    assert v.status == Status.REFUTED and v.counterexample["beta"] == pytest.approx(1.0)


@pytest.mark.parametrize("curve", [lambda n: 3 * n, lambda n: 5 * np.sqrt(n), lambda n: n ** 1.5])
def test_planted_power_growth_is_never_reported_polylog(curve):
    exact = Z.polylog_rule(N_GRID, list(curve(N_GRID)), seed=1)
    doubled = Z.polylog_rule(N_GRID, list(2.0 ** np.ceil(np.log2(curve(N_GRID)))), seed=1)  # doubling grid
    assert exact.status == Status.REFUTED
    assert doubled.status != Status.HOLDS


@pytest.mark.parametrize("degree", [1, 2, 3])
def test_planted_polylog_growth_is_accepted(degree):
    v = Z.polylog_rule(N_GRID, list(4 * np.log(N_GRID) ** degree), seed=2)
    assert v.status == Status.HOLDS
    assert v.details["polylog fit"]["degree k"] == pytest.approx(degree)
    quantised = Z.polylog_rule(N_GRID, list(2.0 ** np.ceil(np.log2(4 * np.log(N_GRID) ** degree))), seed=2)
    assert quantised.status != Status.REFUTED


def test_flat_or_decreasing_sizes_hold_and_censored_is_inconclusive():
    assert Z.polylog_rule(N_GRID, [4.0] * len(N_GRID), seed=3).status == Status.HOLDS
    assert Z.polylog_rule(N_GRID, list(64 / N_GRID), seed=3).status == Status.HOLDS
    cens = [8.0] * (len(N_GRID) - 1) + [None]
    assert Z.polylog_rule(N_GRID, cens, seed=3).status == Status.INCONCLUSIVE
