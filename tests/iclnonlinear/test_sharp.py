"""Sharp-regime checks (claims_sharp.py) can fail: planted stability limits, planted exponent errors and
planted orderings are refuted with a counterexample by the same decision functions the claims use, and
the true forms are accepted."""
import numpy as np

from derivations.iclnonlinear.claims import s53_sharp as C
from derivations.iclnonlinear.experiments import dynamics as D, phase_measures as PM, sharp as S
from .asserts import held, refuted

SEED = 20261121
K = 4


# --- ICLN-THR: a synthetic L_crit ∝ η^{-1/2} is not the claimed threshold 1/(Δδ) --------------------

def _table(fn):
    return [{"eta": e, "N": N, "Delta": 3.0, "L_crit": fn(e, N), "L_max": 100.0, "threshold": 0.0}
            for e in (0.01, 0.1, 1.0, 10.0) for N in (32, 128, 512, 2048, 8192)]


def test_stability_limit_scaling_like_eta_to_minus_half_is_refuted():
    refuted(C.threshold_decision(_table(lambda e, N: 0.7 / np.sqrt(e)), SEED))


def test_the_claimed_threshold_one_over_delta_delta_is_accepted():
    held(C.threshold_decision(_table(lambda e, N: 1.0 / (3.0 * S.delta_min(N, K))), SEED))


def test_no_stability_limit_on_the_grid_is_a_refutation_with_the_cells_named():
    v = refuted(C.threshold_decision(_table(lambda e, N: float("inf")), SEED))
    assert v.counterexample["no_stability_limit"]


def test_monotone_violation_finds_a_planted_increase_and_nothing_in_a_monotone_curve():
    loss = np.exp(-np.linspace(0, 3, 50))[:, None].repeat(2, 1)
    loss[30, 1] *= 1.1
    assert S.monotone_violation(loss).tolist() == [-1, 30]


def test_invariance_check_fails_when_a_trajectory_differs():
    inv = {"Ls": [0.1, 1.0], "c": 0.5, "steps": 10, "max_rel_dq": [0.0, 1e-4], "max_rel_dloss_over_L2": [0.0, 0.0]}
    refuted(C.invariance_verdict(inv, 1.0))
    held(C.invariance_verdict({**inv, "max_rel_dq": [0.0, 1e-15]}, 1.0))


def test_trajectories_depend_on_eta_and_L_only_through_eta_L2():
    """Two (η, L) pairs with the same η L² give the same q-trajectory (a different η L² does not)."""
    sets = [S.setting(K, L, e, N=64, M=16) for L, e in ((0.5, 2.0), (5.0, 0.02), (5.0, 0.03))]
    q = D.simulate(sets, 30, keep_tables=True).tables["q"]
    assert np.abs(q[:, 0] - q[:, 1]).max() < 1e-12
    assert np.abs(q[:, 0] - q[:, 2]).max() > 1e-3


# --- ICLN-P4-Tsstar: a planted exponent error in T_s^* is refuted -------------------------------------

EPS = np.logspace(-1, -2.5, 7)


def _Ts(eps):
    return PM.T_sstar(K, 0.01, 5.0, S.SQRT2, 0.2, eps)


def test_T_sstar_formula_itself_is_accepted():
    held(C.rate(EPS, 3.0 * _Ts(EPS), _Ts(EPS), SEED, param="eps", what="T"))


def test_planted_exponent_error_in_T_sstar_is_refuted():
    """Measured times following ε^{-2} (the model's tail) against the printed ε^{-1}·log."""
    v = refuted(C.rate(EPS, 3.0 * _Ts(EPS) / EPS, _Ts(EPS), SEED, param="eps", what="T"))
    assert abs(v.counterexample["fitted_exponent"] - (C.slope(EPS, _Ts(EPS)) - 1.0)) < 0.05


def test_planted_eps_exponent_in_the_formula_is_refuted_by_data_that_follow_the_printed_one():
    wrong = PM.T_sstar(K, 0.01, 5.0, S.SQRT2, 0.2, EPS) / EPS     # a formula with ε^{-2}
    refuted(C.rate(EPS, 2.0 * _Ts(EPS), wrong, SEED, param="eps", what="T"))


# --- ICLN-S53-rate, ICLN-S53-Ts1, ICLN-T12-compare decision functions ---------------------------------

def _rate_rows(kg):
    Ls = np.geomspace(1, 30, 5)
    return [{"L": float(L), "window": {"Kg_mean": kg(L), "Kg_min": kg(L) / 2, "Kg_max": kg(L) * 2}} for L in Ls]


def test_s53_rate_accepts_an_L_independent_rate_and_refutes_L_squared():
    held(C.s53_rate_verdict(_rate_rows(lambda L: 0.7), SEED))
    v = refuted(C.s53_rate_verdict(_rate_rows(lambda L: 0.7 * L * L), SEED))
    assert abs(v.counterexample["fitted_exponent"] - 2.0) < 1e-6


def _ts1_rows(T):
    Ns = [32, 128, 512, 2048, 8192]
    L, eta = 20.0, 0.001
    return [{"N": N, "L": L, "eta": eta, "seed": s, "T1": T(N), "T1_logK": 2 * T(N), "knee": 3 * T(N)}
            for N in Ns for s in (0, 1)], Ns  # two seeds a point: one seed a point never refutes (scaling.SEEDS_RULE)


def test_s53_ts1_refutes_N_independent_phase_ends_and_accepts_ends_proportional_to_N():
    rows, Ns = _ts1_rows(lambda N: 36.0)
    refuted(C.ts1_verdict(rows, Ns, 2, 0.1, SEED))
    rows, Ns = _ts1_rows(lambda N: 0.5 * N)
    held(C.ts1_verdict(rows, Ns, 2, 0.1, SEED))


def _cmp(T_abs, T_rel):
    return {"eta": 0.01, "eps": [0.3, 0.1], "T": T_abs, "eps_rel": [0.3, 0.1], "T_rel": T_rel}


def test_t12_compare_holds_when_the_flat_set_wins_at_small_eps_and_refutes_otherwise():
    flat_wins = [[5, 50], [6, 60], [7, 70], [4, 90], [4, 95], [4, 99]]
    held(C.compare_verdict(_cmp(flat_wins, flat_wins)))
    sharp_wins = [[50, 500], [40, 400], [30, 300], [3, 30], [2, 20], [1, 10]]
    refuted(C.compare_verdict(_cmp(sharp_wins, sharp_wins)))
