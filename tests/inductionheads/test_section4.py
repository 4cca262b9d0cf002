"""Section 4 objects (targets, sup-error search, Thm 4.1 construction) and planted-error twins of the
claims in derivations/inductionheads/claims/s41_vanilla.py and s42_ihn.py: each twin must be REFUTED by the same check."""
import math
from functools import partial

import pytest
import torch

from derivations.inductionheads.claims import s41_vanilla as S
from derivations.inductionheads.claims import s42_ihn as S6
from derivations.inductionheads.experiments.superror import ball_sampler, sup_error
from derivations.inductionheads.model import construction41 as C
from derivations.inductionheads.model.targets import bilinear, gihn, ih2, ihn
from theoryverify.verdicts import Status

F64 = torch.float64


def _naive_ihn(X, W, n):
    out = []
    L = X.shape[1]
    for b in range(X.shape[0]):
        q = torch.cat([X[b, t - 1] for t in range(L - n + 2, L + 1)])
        sc = torch.stack([q @ W @ torch.cat([X[b, t - 1] for t in range(s - n + 1, s)]) for s in range(n, L)])
        w = torch.softmax(sc, 0)
        out.append(sum(w[i] * X[b, s - 1] for i, s in enumerate(range(n, L))))
    return torch.stack(out)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_targets_match_loops(n):
    g = torch.Generator().manual_seed(n)
    X = torch.randn(3, 10, 2, generator=g, dtype=F64)
    W = torch.randn(2 * (n - 1), 2 * (n - 1), generator=g, dtype=F64)
    assert torch.allclose(ihn(X, W, n), _naive_ihn(X, W, n), rtol=0, atol=1e-14)
    assert torch.allclose(gihn(X, bilinear(W), n), ihn(X, W, n), rtol=0, atol=1e-14)
    if n == 2:
        assert torch.equal(ih2(X, W), ihn(X, W, 2))
    with pytest.raises(ValueError):
        ihn(X, torch.eye(3, dtype=F64), n)


def test_sup_error_reaches_known_sup_and_stays_in_ball():
    # sup_X ||IH_2(X) - 0||_inf over the unit l2 ball is 1 (a convex combination of unit tokens)
    W = torch.eye(3, dtype=F64)
    r = sup_error(lambda X: ih2(X, W), lambda X: torch.zeros(X.shape[0], 3, dtype=F64), ball_sampler(8, 3), 0, 50, 60)
    assert 0.97 <= r.value <= 1 + 1e-12
    assert float(r.X.norm(dim=-1).max()) <= 1 + 1e-12


def test_layer1_conv_path_matches_dense():
    X = torch.randn(2, 200, 3, dtype=F64)
    for p in (0.3, 2.0, 8.0):
        dense = torch.einsum("ts,bsd->btd", C.alibi_attention(200, p), X)
        assert torch.allclose(C.layer1(X, p)[..., 3:], dense, atol=1e-14, rtol=0)


def test_one_minus_pi1_below_exp_minus_p():
    for p in (0.5, 2.0, 6.0):
        assert all(C.one_minus_pi1(s, p) <= math.exp(-p) * (1 + 1e-14) for s in range(2, 300))


# --- IH-E4-multiocc ------------------------------------------------------------------------------------

def test_e4_holds_and_most_recent_variant_refuted():
    assert S.multiocc_check(1).status is Status.HOLDS
    v = S.multiocc_check(1, limit=partial(S.hardmax, recent_only=True))
    assert v.status is Status.REFUTED and v.counterexample


# --- IH-E6-def -----------------------------------------------------------------------------------------

def test_e6_planted_index_shift_refuted():
    assert S6.e6_reduction().status is Status.PROVED
    v = S6.e6_reduction(key_shift=1)
    assert v.status is Status.REFUTED and v.counterexample
    v = S6.e6_locality(0, key_shift=1)
    assert v.status is Status.REFUTED and v.counterexample


def test_e6_numeric_planted_impl_refuted():
    def shifted(X, W, n):  # keys X_{s-n+2:s} (includes the value token)
        Xs = torch.cat([X[:, 1:], X[:, -1:]], dim=1)
        q = X[:, X.shape[1] - n + 1:].reshape(X.shape[0], -1)
        from derivations.inductionheads.model.targets import patches
        _, keys, values = patches(X, n)
        _, keys2, _ = patches(Xs, n)
        w = torch.softmax(torch.einsum("bi,ij,bsj->bs", q, W, keys2), -1)
        return torch.einsum("bs,bsd->bd", w, values)
    v = S6.e6_numeric(0, impl=shifted, draws=3)
    assert v.status is Status.REFUTED and v.counterexample


# --- IH-T41-rate / IH-T41-Lindep ------------------------------------------------------------------------

GRID = [(16, 3.0, 1.0, "2", "inf", p) for p in (2.0, 6.0, 10.0)]


def test_t41_bound_holds_and_faster_decay_refuted():
    v, _ = S.t41_bound_check(3, GRID, n_random=40, steps=20)
    assert v.status is Status.HOLDS
    planted = partial(C.derived_bound, rate=2.0)  # a bound decaying like e^{-2p}
    v, _ = S.t41_bound_check(3, GRID, bound=planted, n_random=40, steps=20)
    assert v.status is Status.REFUTED and v.counterexample


def test_t41_other_rc1_convention_refuted():
    v, _ = S.t41_bound_check(3, GRID, convention="inclusive", n_random=40, steps=20)
    assert v.status is Status.REFUTED and v.counterexample


def test_t41_rate_planted_exponent_refuted():
    v = S.t41_rate_check(5, [(16, 1.0), (16, 3.0)], [2.0, 4.0, 6.0, 8.0, 10.0], predicted_exponent=-2.0,
                         n_random=40, steps=20)
    assert v.status is Status.REFUTED and v.counterexample


def test_t41_lindep_planted_L_dependent_slope_refuted():
    v = S.t41_lindep_check(7, [16, 64, 256], n_random=30, steps=15, slope_fn=lambda L: 6.0 * 16 / L)
    assert v.status is Status.REFUTED and v.counterexample
