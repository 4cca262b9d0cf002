"""Planted-error twins of the Thm 5.5 / App. C.2 claims: the same checks must reject a wrong scaling, a wrong
rate, a wrong threshold and a non-Lyapunov candidate (spec §3 planted-error policy)."""
import numpy as np

from derivations.inductionheads.claims import appc2_dynamics as H2
from derivations.inductionheads.claims import s52_thm55 as P
from derivations.inductionheads.experiments import flow
from derivations.inductionheads.experiments import runs as R
from theoryverify.invariants import check_nonincreasing
from theoryverify.scaling import check_coefficient, check_rate
from theoryverify.verdicts import Status

A, W, L = R.BASE["alpha"], R.BASE["w"], R.BASE["L"]
SEED = 1234


def _T(sig, key="T_IH(0.5)"):
    return [R.ih_run(A, W, L, s)[1][key] for s in sig]


def test_plateau_claimed_inverse_sigma_is_refuted():
    """Planted: plateau ∝ 1/σ or ∝ σ^{-1/2} (power laws) — the σ sweep (σ ≤ 1e-2) refutes both."""
    sig = R.SIGMAS[2:]
    for wrong in (-1.0, -0.5):
        v = check_rate(sig, _T(sig), wrong, 0.15, SEED, param="sigma", what="T_IH(0.5)")
        assert v.status is Status.REFUTED and v.counterexample["fitted_exponent"] > -0.3
    # and the BIC law selection prefers log(1/σ) to any power law
    assert P.log_vs_power(R.SIGMAS, _T(R.SIGMAS), SEED)["selected"] == "log"


def test_plateau_wrong_coefficient_is_refuted():
    """Planted: c_σ with (1−α*) in place of (1−α*)² (factor 2 at α* = 1/2), and with N·log replaced by log²."""
    c = flow.plateau_log_coefficient(A, W, L) * (1 - A)
    v = P.plateau_sigma_verdict(A, W, L, R.SIGMAS, SEED, predicted=c)
    assert v.status is Status.REFUTED
    v = P.plateau_sigma_verdict(A, W, L, R.SIGMAS, SEED, predicted=2 * flow.plateau_log_coefficient(A, W, L))
    assert v.status is Status.REFUTED and v.counterexample["part"] == "coefficient of log(1/sigma)"


def test_plateau_true_law_holds():
    assert P.plateau_sigma_verdict(A, W, L, R.SIGMAS, SEED).status is Status.HOLDS


def test_phase1_wrong_coefficient_is_refuted():
    """Planted: T_I with 1/α*² per e-fold of L instead of 1/α* (4 vs 2 at α* = 1/2)."""
    Ls = (50, 100, 200, 400)
    T = P.phase1_L_sweep(A, Ls, 1e-8)
    v = check_coefficient(np.log(Ls), T, 1 / A**2, 0.1 / A**2, SEED, index=1, param="log L")
    assert v.status is Status.REFUTED


def test_phase_count_refutes_a_run_without_the_ih_head():
    """Planted: the IH head frozen (heads='G4') — no plateau/emergence boundaries can be found."""
    tr = flow.stage2(A, W, L, 1e-3, R.ih_horizon(A, W, L, 1e-3), heads="G4", n_points=800)
    _, mk = R.base_run()
    v = P.phase_boundaries_verdict(tr, mk)
    assert v.status is Status.REFUTED and v.counterexample["missing"]


def test_expgrowth_half_rate_is_refuted():
    v = P.expgrowth_verdict(A, W, L, 1e-3, factor=0.5)
    assert v.status is Status.REFUTED and v.counterexample["part"] == "rate"


def test_conv_ih_factor_two_is_refuted():
    """Spec IH-T55-conv-IH planted: the parameter-distance rate μ in place of the loss rate 2μ."""
    v = P.conv_ih_verdict(A, W, L, 1e-3, SEED, factor=0.5)
    assert v.status is Status.REFUTED and v.counterexample["slope"] / v.counterexample["predicted"] > 1.9


def test_width_claimed_to_grow_like_the_plateau_is_refuted():
    sig = R.SIGMAS[2:]
    Wd = _T(sig, "W")
    c = flow.plateau_log_coefficient(A, W, L)
    v = check_coefficient(np.log(1 / np.array(sig)), Wd, c, 0.05 * c, SEED, index=1, param="log(1/sigma)")
    assert v.status is Status.REFUTED


def test_timescale_wrong_exponent_is_refuted():
    """Planted: |dw_KQ/dt|/|dp/dt| ∝ σ² at init (the k-ratio's exponent put on w_KQ)."""
    from derivations.inductionheads.model import head1, head2
    sig = np.array([1e-2, 1e-3, 1e-4, 1e-5, 1e-6])
    r = [abs(float(head2.field(s, s, s, A, W, L)[0])) / abs(float(head1.grad_g4(s, s, A, L)[0])) for s in sig]
    assert check_rate(sig, r, 2.0, 0.15, SEED, param="sigma").status is Status.REFUTED
    assert check_rate(sig, r, 1.0, 0.15, SEED, param="sigma").status is Status.HOLDS


def test_c2_turn_wrong_coefficient_is_refuted():
    c = flow.plateau_log_coefficient(A, W, L) * (1 - A)  # β instead of β²
    assert H2.turn_verdict(A, W, L, R.SIGMAS, SEED, predicted=c).status is Status.REFUTED


def test_p1_planted_thresholds_are_refuted():
    grid = [(0.5, 0.3)]
    assert H2.p1_verdict(grid, L).status is Status.HOLDS
    v = H2.p1_verdict(grid, L, k_level=lambda a, w: w / 2)  # "k stays below w*/2"
    assert v.status is Status.REFUTED and "P1.2" in v.counterexample["fails"]
    v = H2.p1_verdict(grid, L, v2_level=lambda a, w: flow.v2_sat(a, w) * 1.01)  # above v2's peak: never crossed
    assert v.status is Status.REFUTED and "P1.1" in v.counterexample["fails"]


def test_planted_non_lyapunov_candidates_are_refuted():
    tr, mk = R.ih_run(A, W, L, 1e-3)
    b = 1 - A
    good = H2.V_simple(tr, A, W)
    assert check_nonincreasing(tr.t, good, onset=mk["T_turn"]).status is Status.HOLDS
    bad = -((W - tr.k) ** 2) + (tr["v2"] - b) ** 2  # sign-flipped k term
    v = check_nonincreasing(tr.t, bad, onset=mk["T_turn"], name="V_bad")
    assert v.status is Status.REFUTED and v.counterexample["increase"] > 0
    v = check_nonincreasing(tr.t, good, onset=0.0)  # V before T_turn: v2 rises through beta
    assert v.status is Status.REFUTED


def test_hessian_proof_and_planted_indefinite_form():
    from theoryverify.invariants import prove_nonpositive
    import sympy as sp
    a, d, pa, pd = H2.hessian_pd_proof()
    assert pa is not None and pa.status is Status.PROVED and pd is not None and pd.status is Status.PROVED
    x, y = sp.symbols("x y", real=True)
    assert prove_nonpositive(-(x**2 - 3 * y**2), {x: (None, None), y: (None, None)}) is None  # indefinite: no proof


def test_exact_softmax_rate_planted_rc12_rate_is_refuted():
    """Planted: the RC-12 rate (factor 1/(1-w*²)²) claimed for the exact softmax — the MC gradient refutes it."""
    v = P.exact_rate_verdict(7, Ls=(52, 202), factor=1 / (1 - W**2) ** 2)
    assert v.status is Status.REFUTED
    assert P.exact_rate_verdict(7, Ls=(52, 202)).status is Status.HOLDS
