"""theoryverify.scaling: planted power laws — coverage of the CI, refutation of a wrong exponent,
inconclusive on short, noisy or non-asymptotic grids (principle 2: every check can fail)."""
import numpy as np
import pytest

from theoryverify.scaling import (check_rate, compare_laws, fit_polynomial, fit_power_law, law_coordinates,
                                  RULE)
from theoryverify.verdicts import Status

T_GRID = np.geomspace(0.005, 0.2, 10)


def planted(x, exponent, sigma, seed, const=3.0, seeds=None):
    rng = np.random.default_rng(seed)
    shape = (len(x),) if seeds is None else (len(x), seeds)
    base = (const * np.asarray(x) ** exponent).reshape((-1,) + (1,) * (len(shape) - 1))
    return base * np.exp(rng.normal(0.0, sigma, shape))


@pytest.mark.parametrize("sigma,seeds", [(0.05, None), (0.2, None), (0.1, 5)])
def test_ci_covers_truth_at_about_nominal_rate(sigma, seeds):
    covered = 0
    for r in range(100):
        fit = fit_power_law(T_GRID, planted(T_GRID, -2.0, sigma, 7000 + r, seeds=seeds), seed=r, n_resamples=999)
        covered += fit.ci[0] <= -2.0 <= fit.ci[1]
    assert covered >= 85, covered


def test_true_exponent_holds_with_schema():
    v = check_rate(T_GRID, planted(T_GRID, -2.0, 0.02, 1), -2.0, 0.1, seed=1, param="T")
    assert v.status is Status.HOLDS, v.evidence
    sweep, fit = v.details["sweep"], v.details["fit"]
    assert sweep["param"] == "T" and len(sweep["x"]) == len(sweep["measured"]) == len(sweep["ratio"]) == 10
    assert sweep["predicted"] is None
    assert set(fit) >= {"exponent", "ci", "confidence", "predicted_exponent", "margin", "local_slopes",
                        "subwindow", "rule"}
    assert fit["confidence"] == 0.95 and len(fit["local_slopes"]) == 9 and len(fit["subwindow"]) == 2
    assert fit["rule"].startswith("HOLDS if") and "REFUTED" in RULE


def test_predicted_values_give_ratio():
    y = planted(T_GRID, -2.0, 0.02, 2)
    v = check_rate(T_GRID, y, -2.0, 0.1, seed=2, predicted=3.0 * T_GRID ** -2.0, param="T")
    assert v.status is Status.HOLDS
    assert np.allclose(v.details["sweep"]["ratio"], 1.0, atol=0.1)


@pytest.mark.parametrize("wrong", [-3.0, -1.0, -2.5])
def test_wrong_exponent_refuted_with_counterexample(wrong):
    v = check_rate(T_GRID, planted(T_GRID, -2.0, 0.02, 3), wrong, 0.1, seed=3, param="T")
    assert v.status is Status.REFUTED
    ce = v.counterexample
    assert ce["predicted_exponent"] == wrong and abs(ce["fitted_exponent"] + 2.0) < 0.05
    assert len(ce["ci"]) == 2 and ce["grid"] == pytest.approx(list(T_GRID))


def test_multi_seed_wrong_exponent_refuted():
    y = planted(T_GRID, -1.0, 0.1, 4, seeds=8)
    assert check_rate(T_GRID, y, -1.0, 0.1, seed=4).status is Status.HOLDS
    assert check_rate(T_GRID, y, -1.5, 0.1, seed=4).status is Status.REFUTED


def test_short_grid_inconclusive():
    x = T_GRID[:3]
    assert check_rate(x, planted(x, -2.0, 0.0, 5), -2.0, 0.1, seed=5).status is Status.INCONCLUSIVE


def test_noisy_grid_inconclusive():
    x = np.geomspace(0.05, 0.2, 5)
    v = check_rate(x, planted(x, -2.0, 1.0, 6), -2.0, 0.1, seed=6)
    assert v.status is Status.INCONCLUSIVE, v.evidence


def test_pre_asymptotic_grid_inconclusive():
    """y = x^-2 + 30 x^-1 crosses over inside the grid: the halves disagree -> not asymptotic."""
    x = np.geomspace(0.005, 0.5, 8)
    y = x ** -2.0 + 30 * x ** -1.0
    v = check_rate(x, y, -2.0, 0.1, seed=7)
    assert v.status is Status.INCONCLUSIVE and "not asymptotic" in v.evidence
    assert check_rate(x, y, -1.0, 0.1, seed=7).status is Status.INCONCLUSIVE  # never refuted off-window


def test_unbounded_ratio_blocks_holds():
    x = np.geomspace(1e-4, 0.2, 8)
    y = x ** -2.05  # exponent within a wide margin, but the ratio to x^-2 drifts
    assert check_rate(x, y, -2.0, 0.1, seed=8, max_spread=1.2).status is Status.INCONCLUSIVE
    assert check_rate(x, y, -2.0, 0.1, seed=8, max_spread=2.0).status is Status.HOLDS


def test_log_law():
    x = np.geomspace(1e-4, 0.05, 8)
    y = (1 / x) * np.log(1 / x)
    assert check_rate(x, y, -1.0, 0.02, seed=9, log_power=1).status is Status.HOLDS
    assert check_rate(x, y, -1.5, 0.02, seed=9, log_power=1).status is Status.REFUTED
    best = compare_laws(x, y, {"1/T": lambda t: 1 / t, "(1/T)log(1/T)": lambda t: np.log(1 / t) / t,
                               "1/T^1.2": lambda t: t ** -1.2})
    assert next(iter(best)) == "(1/T)log(1/T)" and best["(1/T)log(1/T)"] < 1e-12


def test_a_wrong_log_law_is_refuted_and_a_pre_asymptotic_one_is_not():
    """'c·log N' against data that follow another log power or another power: refuted inside the grid (it spans
    3 decades), where the exponent rule alone said 'grid not asymptotic'; the right law holds; a right law with a
    lower-order term, a lower log power, a short grid and log(1/x) < 1 stay inconclusive."""
    N = np.geomspace(10, 1e4, 8)
    x = 1 / N

    def rate(y, k=1.0, xs=x):
        return check_rate(xs, y, 0.0, 0.1, seed=0, log_power=k, param="1/N")

    assert rate(3 * np.log(N)).status is Status.HOLDS
    for planted, fitted in ((np.log(N) ** 2, 2.0), (np.sqrt(N), None)):  # another log power, another power
        v = rate(planted)
        assert v.status is Status.REFUTED and "another law than the printed log law" in v.evidence, v.evidence
        assert v.counterexample["predicted_log_power"] == 1.0 and v.counterexample["ci"][0] > 1.1
        if fitted:
            assert abs(v.counterexample["fitted_log_power"] - fitted) < 1e-6
        assert v.details["fit"]["log_power_fit"]["rule"].startswith("For a log law")
    noisy = np.log(N)[:, None] ** 2 * np.exp(0.05 * np.random.default_rng(0).standard_normal((8, 4)))
    assert rate(noisy).status is Status.REFUTED  # with seeds, at the default seed
    for true_law in (np.log(N) + 5, np.log(N) * (1 + 5 / np.sqrt(N))):  # pre-asymptotic: a trend towards log N
        v = rate(true_law)
        assert v.status is Status.INCONCLUSIVE and "grid not asymptotic" in v.evidence, v.evidence
    assert rate(np.log(N), k=2.0).status is Status.INCONCLUSIVE  # a lower log power is what log N + c shows
    short = np.geomspace(5, 30, 6)  # 0.8 decades
    assert rate(np.log(short) ** 2, xs=1 / short).status is Status.INCONCLUSIVE
    low = np.geomspace(1.5, 40, 8)  # log(1/x) < 1 at the start: log powers are not ordered there
    assert "log power fitted" not in rate(np.log(low) ** 2, xs=1 / low).method


def test_exponential_law():
    x = np.array([0.2, 0.1, 0.05, 0.02, 0.01])
    y = 2.0 * np.exp(-0.1875 / x)
    assert check_rate(x, y, -0.1875, 1e-3, seed=10, law="exp").status is Status.HOLDS
    v = check_rate(x, y, -1.0, 1e-3, seed=10, law="exp")
    assert v.status is Status.REFUTED and v.counterexample["fitted_exponent"] == pytest.approx(-0.1875)
    u, w = law_coordinates(x, y, "exp")
    assert np.allclose(u, 1 / x) and np.allclose(w, np.log(y))


def test_polynomial_fit_intercept_ci():
    x = np.array([0.02, 0.01, 0.005, 0.0025, 0.00125])
    y = 0.155 - 0.2 * x + np.random.default_rng(11).normal(0, 1e-5, 5)
    f = fit_polynomial(x, y, 1, seed=11)
    assert f.ci[0][0] <= 0.155 <= f.ci[0][1] and f.ci[0][1] - f.ci[0][0] < 1e-3
    assert abs(f.coef[1] + 0.2) < 0.01


def test_check_coefficient_limit_and_slope():
    from theoryverify.scaling import check_coefficient
    x = np.array([0.02, 0.01, 0.005, 0.0025])
    y = 1 / 6 - 0.3466 * x + 0.5 * x ** 2
    assert check_coefficient(x, y, 1 / 6, 1e-3, seed=12, param="T").status is Status.HOLDS
    v = check_coefficient(x, y, (4 - 6 ** 0.5) / 10, 1e-3, seed=12, param="T")
    assert v.status is Status.REFUTED and v.counterexample["fitted_coefficient"] == pytest.approx(1 / 6, abs=1e-4)
    assert check_coefficient(x, y, -0.3466, 0.02, seed=12, index=1).status is Status.HOLDS
    assert check_coefficient(x[:3], y[:3], 1 / 6, 1e-3, seed=12).status is Status.INCONCLUSIVE
    noisy = y + np.random.default_rng(12).normal(0, 3e-3, 4)
    assert check_coefficient(x, noisy, 1 / 6 + 1.5e-3, 1e-3, seed=12).status is Status.INCONCLUSIVE


def test_one_sided_refutation():
    y = planted(T_GRID, -1.6, 0.02, 13)  # a sampled sup growing slower than T^-2 cannot refute O(T^-2)
    v = check_rate(T_GRID, y, -2.0, 0.1, seed=13, refutable="below")
    assert v.status is Status.INCONCLUSIVE and "cannot refute" in v.evidence
    faster = planted(T_GRID, -2.5, 0.02, 13)  # ... but growing faster does
    assert check_rate(T_GRID, faster, -2.0, 0.1, seed=13, refutable="below").status is Status.REFUTED
    assert check_rate(T_GRID, faster, -2.0, 0.1, seed=13, refutable="none").status is Status.INCONCLUSIVE
    assert "lower estimates" in check_rate(T_GRID, y, -2.0, 0.1, seed=13, refutable="below").details["fit"]["rule"]


def test_planted_wrong_smoothness_exponent_refuted():
    """On the real n = 3 loss: a planted 'sup‖∇²L1‖ = Θ(1/T)' is refuted by the sup estimate growing like 1/T²."""
    from derivations.icrecall.model import smoothness as S
    grid = [0.002 * 2.0 ** -k for k in range(4)]
    r = S.sup_sweep(grid, 2, seed=1, n_random=20, n_ties=20, n_offsets=3, search_rounds=2, batch=16, starts=1)
    assert check_rate(grid, r["sup"], -2.0, 0.1, seed=1, refutable="below").status is Status.HOLDS
    v = check_rate(grid, r["sup"], -1.0, 0.1, seed=1, refutable="below")
    assert v.status is Status.REFUTED and v.counterexample["fitted_exponent"] < -1.9
    assert check_rate(grid, r["witness"], -1.0, 0.1, seed=1, refutable="none").status is Status.INCONCLUSIVE


def test_planted_saddle_rate_refuted():
    """L1(θ̃,T) − log 2 from the model decays as exp(−1/(8T)); a planted rate exp(−3/(16T)) is refuted."""
    from derivations.icrecall.claims.b_rates import L6_GRID, saddle_gap
    gaps = [float(saddle_gap(T)) for T in L6_GRID]
    assert check_rate(L6_GRID, gaps, -0.125, 1e-3, seed=2, law="exp").status is Status.HOLDS
    assert check_rate(L6_GRID, gaps, -3 / 16, 1e-3, seed=2, law="exp").status is Status.REFUTED


def test_one_sided_bounds():
    x = np.geomspace(0.01, 1.0, 8)
    assert check_rate(x, x ** 0.88, 1.0, 0.1, seed=14, bound="omega").status is Status.HOLDS  # grows relative to x
    v = check_rate(x, x ** 1.3, 1.0, 0.1, seed=14, bound="omega")
    assert v.status is Status.REFUTED and v.counterexample["bound"] == "omega"
    assert check_rate(x, x ** 1.3, 1.0, 0.1, seed=14, bound="big_o").status is Status.HOLDS
    assert check_rate(x, x ** 0.7, 1.0, 0.1, seed=14, bound="big_o").status is Status.REFUTED
    assert "Omega" in check_rate(x, x ** 0.88, 1.0, 0.1, seed=14, bound="omega").details["fit"]["rule"]


def test_the_law_text_of_a_reciprocal_sweep_variable_reads_right():
    """Issue 29, author 5, defect 8: with x = 1/T the law printed "C·1/T^b·log(1/1/T)^1" (read: 1/(T^b), and
    log of 1/1/T); it must read "C·(1/T)^b·log(T)^1", in the method, the evidence and the fit's law."""
    import theoryverify as tv
    from theoryverify.scaling import log_factor, power_text, reciprocal

    x = 1 / np.array([100.0, 300.0, 1000.0, 3000.0, 10000.0])
    v = tv.check_rate(x, 2 * x * np.log(1 / x), 1.0, 0.2, 0, param="1/T", bound="O", log_power=1.0,
                      constant="hidden", what="E sin²")
    text = v.method + " " + v.evidence + " " + v.details["fit"]["law"]
    assert "1/1/T" not in text and "·1/T^" not in text
    assert "E sin² ≈ C·(1/T)^b·log(T)^1" in v.method and "O((1/T)^1·log(T)^1)" in v.evidence
    assert (power_text("N", "b"), log_factor("N", 2), reciprocal("1/(N+1)")) == ("N^b", "·log(1/N)^2", "N+1")
