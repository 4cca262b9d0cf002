"""POD / Barron / Thm 4.4 (pod.py, barron.py, claims_pod.py): Eckart–Young holds on grids and a planted tail
(σ_k instead of σ_k²) is refuted; the Barron-rate sweep refutes a claimed exponent twice as steep; the Thm 4.4
derivation is proved and a planted steeper exponent is refuted by the width sweep."""
import numpy as np

from derivations.inductionheads.claims import s42_gihn as C
from derivations.inductionheads.model import barron as BA
from derivations.inductionheads.model import pod as P
from theoryverify.verdicts import Status

SMALL_POD = {"exp(u v)": (P.exp_dot, 30, 1), "cos(u - v)": (P.cos_diff, 30, 1)}


def test_eckart_young_holds_and_planted_tail_refuted():
    assert C.pod_check(cases=SMALL_POD).status is Status.HOLDS
    v = C.pod_check(tail_power=1.0, cases=SMALL_POD)
    assert v.status is Status.REFUTED and v.counterexample["tail_power"] == 1.0


def test_cos_difference_has_rank_two():
    pod = P.discrete_pod(P.cos_diff, 40, 1)
    assert pod.sigma[2] < 1e-12 * pod.sigma[0]


def test_known_pod_similarity_singular_values():
    sigma, g = P.known_pod_similarity(1.0, 6)
    pod = P.discrete_pod(lambda u, v: g(u[..., 0], v[..., 0]), 200, 1)
    # σ_k of g on L²([-1,1]) with the du/2-orthonormal cosines: 2 σ_k (midpoint rule is exact to O(h²))
    assert np.allclose(pod.sigma[:6], 2 * sigma, rtol=1e-3)


def test_barron_target_norm_and_mc_unbiased():
    f = BA.make_target(3, 500, 0)
    X = BA.inputs(3, 200, 1)
    rng = np.random.default_rng(0)
    mean = np.mean([BA.mc_network(f, 200, rng)(X) for _ in range(200)], axis=0)
    assert np.max(np.abs(mean - f(X))) < 0.05 * f.barron_norm(1)


def test_barron_rate_holds_and_twice_as_steep_refuted():
    assert C.barron_check(C.BARRON_QUICK, seed=3).status is Status.HOLDS
    v = C.barron_check(C.BARRON_QUICK, seed=3, claimed=1.0)
    assert v.status is Status.REFUTED and v.counterexample["predicted_exponent"] == 1.0


def test_t44_derivation_proved():
    assert C.t44_derivation_verdict().status is Status.PROVED


def test_t44_planted_steeper_exponent_refuted():
    cfg = dict(betas=(2.0,), Ms=(16, 32, 64, 128, 256))
    v = C.t44_check(cfg, seed=0, exponent_shift=1.0)
    assert v.status is Status.REFUTED and v.counterexample


def test_gih_level_checks_refute_planted_data():
    """The GIH-level verdict (t44-rate-full) refutes a stalled H curve and a GIH error above 2B x score error."""
    H = list(range(1, 9))
    M = [16, 32, 64, 128, 256, 512, 1024]
    good = {"H": H, "err_H": [0.5 * np.exp(-0.9 * h) for h in H], "M": M,
            "err_M": [0.4 * m ** -0.8 for m in M], "score_err_M": [0.3 * m ** -0.8 for m in M]}
    assert C.gih_verdict(2.0, good, 0).status is Status.HOLDS
    stalled = dict(good, err_H=[0.3] * 8)
    assert C.gih_verdict(2.0, stalled, 0).status is Status.REFUTED
    above = dict(good, err_M=[1.0 * m ** -0.8 for m in M])
    v = C.gih_verdict(2.0, above, 0)
    assert v.status is Status.REFUTED and v.counterexample["ratio"] > 1


def test_gih_transformer_exact_in_the_limit():
    """With exact FFN bases and many heads at large b_max the Thm 4.4 model reproduces GIH_2 (Eq. 7)."""
    import torch

    from derivations.inductionheads.model.targets import gihn
    sigma, _ = P.known_pod_similarity(2.0, 12)
    tf = C.gih_transformer(sigma, 12, 5.0)
    X = torch.rand(8, 9, 1, dtype=torch.float64, generator=torch.Generator().manual_seed(0)) * 2 - 1
    assert float((tf(X) - gihn(X, C.similarity_torch(sigma), 2)).abs().max()) < 1e-6


# --- Def. A.7 (issue 17 re-audit): uniform Lipschitz bounds force finite rank ------------------------------------

def test_a7_term_bound_is_proved_and_the_claim_refuted():
    assert C.a7_term_bound_symbolic().status is Status.PROVED
    assert C.a7_bessel_numeric().status is Status.HOLDS
    v = C.check_a7_infinite_rank()
    assert v.status is Status.REFUTED and v.counterexample["max_POD_terms_on_[-1,1]"] == (16 * 10.0 + 4) / 3


def test_a7_planted_bound_too_small_is_refuted():
    # planted: at most C/4 orthonormal C-Lipschitz functions (false: the cosines give about 0.45 C of them)
    assert C.a7_bessel_numeric(bound=lambda c: c / 4).status is Status.REFUTED


def test_t44_finite_rank_can_hold_and_fail():
    """Thm 4.4's qualitative part on finite-rank g inside Def. A.7 (t44-finite-rank, referee P1): a small grid holds;
    a planted error floor in M (FFN width) and one in H (heads) are refuted."""
    from derivations.inductionheads.claims import s42_gihn as G
    cfg = dict(G.T44_FR_QUICK, ranks=(2,), n_random=16, steps=3)
    v = G.t44_finite_rank_check(cfg, 0)
    assert v.status is Status.HOLDS, v.evidence
    width = G.t44_finite_rank_check(cfg, 0, planted_width_floor=1.0)
    assert width.status is Status.REFUTED and "width" in width.evidence
    floor = G.t44_finite_rank_check(cfg, 0, planted_head_floor=1e-2)
    assert floor.status is Status.REFUTED and "heads" in floor.evidence
