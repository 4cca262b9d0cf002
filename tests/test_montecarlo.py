"""theoryverify.checks.montecarlo: "E[X] = value" and "P(event) ≤ p" decided by a statistical test at a stated
confidence, with a multiple-comparison correction.  True statements hold (with the test, the sample size and the
interval named), planted errors are refuted (the interval that excludes the claimed value and the statistic),
too few samples are inconclusive, and the false-alarm rate of a true statement stays near 1 − confidence."""
import numpy as np
import pytest

from theoryverify.checks import check_mc_bound, check_mc_mean
from theoryverify.checks.montecarlo import adjust_pvalues
from theoryverify.verdicts import Status

RHO = 0.5


def square(rng, n):
    return rng.standard_normal(n) ** 2


def fourth(rng, n):
    return rng.standard_normal(n) ** 4


def correlated(rng, n):
    """(Z1², Z1·Z2, Z1²·Z2²) for a standard Gaussian pair with correlation ρ: means (1, ρ, 1 + 2ρ²)."""
    z = rng.multivariate_normal([0, 0], [[1, RHO], [RHO, 1]], size=n)
    return np.stack([z[:, 0] ** 2, z[:, 0] * z[:, 1], z[:, 0] ** 2 * z[:, 1] ** 2], axis=1)


TRUE_MEANS = [1.0, RHO, 1 + 2 * RHO**2]


def test_true_mean_holds_and_names_test_size_and_interval():
    v = check_mc_mean(square, 1.0, seed=1, n=100_000, resolution=0.02)
    assert v.status is Status.HOLDS
    assert "t-test" in v.method and "n = 100000" in v.method and "0.99" in v.method
    row = v.details["components"][0]
    assert row["interval"][0] <= 1.0 <= row["interval"][1] and row["half_width"] <= 0.02


def test_planted_wrong_constant_is_refuted_with_interval_and_statistic():
    # E[Z⁴] = 3, not 2 (the Gaussian fourth moment with the wrong coefficient)
    v = check_mc_mean(fourth, 2.0, seed=1, n=50_000)
    assert v.status is Status.REFUTED
    ce = v.counterexample
    lo, hi = ce["interval"]
    assert not lo <= 2.0 <= hi and lo <= 3.0 <= hi
    assert ce["t"] > 10 and ce["p_adjusted"] <= 0.01 and ce["n"] == 50_000 and "t-test" in ce["test"]


def test_too_few_samples_is_inconclusive_not_holds():
    v = check_mc_mean(square, 1.0, seed=1, n=200, resolution=0.01)
    assert v.status is Status.INCONCLUSIVE
    assert "too few samples" in v.evidence and v.details["samples_needed"] > 200


def test_vector_of_expectations_holds_with_holm_correction():
    v = check_mc_mean(correlated, TRUE_MEANS, seed=2, n=100_000, resolution=0.05, names=["Z1²", "Z1Z2", "Z1²Z2²"])
    assert v.status is Status.HOLDS, v.evidence
    assert "Holm" in v.method and len(v.details["components"]) == 3
    assert v.details["interval_level"] == pytest.approx(1 - 0.01 / 3)
    rows = v.details["components"]
    assert [r["p_adjusted"] for r in rows] == pytest.approx(list(adjust_pvalues([r["p"] for r in rows], "holm")))


def test_vector_with_one_planted_component_is_refuted_naming_it():
    wrong = [1.0, RHO, 1 + RHO**2]  # a missing pairing: E[Z1²Z2²] = 1 + 2ρ², not 1 + ρ²
    v = check_mc_mean(correlated, wrong, seed=2, n=100_000, names=["Z1²", "Z1Z2", "Z1²Z2²"])
    assert v.status is Status.REFUTED
    assert v.counterexample["component"] == "Z1²Z2²"
    assert v.counterexample["interval"][0] > 1 + RHO**2


@pytest.mark.parametrize("correction", ["holm", "bonferroni"])
def test_bonferroni_and_holm_agree_on_a_clear_error(correction):
    v = check_mc_mean(correlated, [1.0, 0.0, 1.5], seed=3, n=50_000, correction=correction)
    assert v.status is Status.REFUTED and v.counterexample["component"] == "column 1"  # default name (was X[1])


def test_holm_adjustment_by_hand():
    p = [0.01, 0.04, 0.03, 0.5]
    # sorted 0.01, 0.03, 0.04, 0.5 -> 4·0.01, max(.04, 3·0.03), max(.09, 2·0.04), max(.09, 0.5)
    assert adjust_pvalues(p, "holm") == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert adjust_pvalues(p, "bonferroni") == pytest.approx([0.04, 0.16, 0.12, 1.0])


def test_deterministic_given_the_seed():
    a = check_mc_mean(correlated, TRUE_MEANS, seed=7, n=5_000, resolution=1.0).to_json()
    b = check_mc_mean(correlated, TRUE_MEANS, seed=7, n=5_000, resolution=1.0).to_json()
    c = check_mc_mean(correlated, TRUE_MEANS, seed=8, n=5_000, resolution=1.0).to_json()
    assert a == b and a["details"]["components"] != c["details"]["components"]


def test_false_alarm_rate_of_a_true_statement_is_controlled():
    # 60 independent runs of a true three-component statement at 99% confidence: the family-wise error rate is
    # ≤ 1%, so more than 4 refutations (P < 0.3% under the binomial(60, 0.01)) would mean a broken test.
    refuted = sum(check_mc_mean(correlated, TRUE_MEANS, seed=s, n=2_000, resolution=1.0).status is Status.REFUTED
                  for s in range(60))
    assert refuted <= 4


def test_probability_bound_holds_and_planted_bound_is_refuted_with_clopper_pearson():
    tail = lambda rng, n: np.abs(rng.standard_normal(n)) > 2  # noqa: E731  P = 0.0455
    ok = check_mc_bound(tail, 0.05, seed=4, n=100_000)
    assert ok.status is Status.HOLDS and "Clopper–Pearson" in ok.method
    assert ok.details["events"][0]["supporting_interval"][1] <= 0.05
    bad = check_mc_bound(tail, 0.04, seed=4, n=100_000)
    assert bad.status is Status.REFUTED
    ce = bad.counterexample
    assert ce["interval"][0] > 0.04 and ce["n"] == 100_000 and ce["count"] > 4000
    low = check_mc_bound(tail, 0.05, seed=4, n=100_000, op=">=")
    assert low.status is Status.REFUTED and low.counterexample["interval"][1] < 0.05


def test_probability_bound_with_too_few_trials_is_inconclusive():
    tail = lambda rng, n: np.abs(rng.standard_normal(n)) > 2  # noqa: E731
    v = check_mc_bound(tail, 0.05, seed=4, n=500)
    assert v.status is Status.INCONCLUSIVE and "too few samples" in v.evidence


def test_several_events_are_corrected_together():
    def events(rng, n):
        z = rng.standard_normal(n)
        return np.stack([z > 2, z < -2, np.abs(z) > 3], axis=1)  # P ≈ 0.0228, 0.0228, 0.0027

    assert check_mc_bound(events, [0.03, 0.03, 0.004], seed=5, n=200_000).status is Status.HOLDS
    bad = check_mc_bound(events, [0.03, 0.02, 0.004], seed=5, n=200_000, names=["z>2", "z<-2", "|z|>3"])
    assert bad.status is Status.REFUTED and bad.counterexample["event"] == "z<-2"


@pytest.mark.parametrize("sampler, expected, text", [
    (lambda rng, n: 1 / 0, 1.0, "raised ZeroDivisionError"),
    (lambda rng, n: np.ones((n, 2, 2)), 1.0, "shape"),
    (lambda rng, n: np.full(n, np.nan), 1.0, "non-finite"),
    (lambda rng, n: rng.standard_normal((n, 3)), [0.0, 0.0], "3 components"),
    (lambda rng, n: "text", 1.0, "must return numbers"),
    (square, "1", "text"),
])
def test_bad_input_is_a_one_line_error(sampler, expected, text):
    v = check_mc_mean(sampler, expected, seed=0, n=100)
    assert v.status is Status.ERROR and text in v.evidence and "\n" not in v.evidence


def test_bound_needs_booleans():
    v = check_mc_bound(lambda rng, n: rng.standard_normal(n), 0.5, seed=0, n=100)
    assert v.status is Status.ERROR and "booleans" in v.evidence


def test_mc_means_records_configurations_and_still_fails():
    """check_mc_means(..., configurations=tv.settings(over, seed)): labelled by the configurations, recorded as
    typed Configurations (the quantifier standard then covers the declared range); a wrong value at one setting
    is refuted and named; mismatched lengths are one line."""
    import theoryverify as tv
    from theoryverify.standards import STANDARDS, apply_quantifiers

    over = [tv.Over("mu", 0.5, 4.0)]
    at = tv.settings(over, 0, n=4, draws=2)
    pairs = [(lambda rng, m, c=c: rng.standard_normal(m) + c["mu"], c["mu"]) for c in at]
    v = tv.check_mc_means(pairs, 0, configurations=at, resolution=0.05)
    assert v.status is tv.Status.HOLDS, v.evidence
    assert v.details["configurations"] == at and apply_quantifiers(over, v, STANDARDS).status is tv.Status.HOLDS
    wrong = [(s, 1.2 * e if i == 2 else e) for i, (s, e) in enumerate(pairs)]  # planted: 20 % off at one setting
    bad = tv.check_mc_means(wrong, 0, configurations=at, resolution=0.05)
    assert bad.status is tv.Status.REFUTED and bad.counterexample["component"].startswith("mu=")
    assert tv.check_mc_means(pairs[:2], 0, configurations=at).status is tv.Status.ERROR


def test_a_simultaneous_level_near_one_is_printed_with_its_digits():
    """issue 29 (second trial): at confidence 0.999 over several components the interval level 1 − α/k was
    printed "1 interval"; it is printed with enough digits to differ from 1."""
    from theoryverify.checks.montecarlo import _fmt_level

    assert _fmt_level(0.999) == "0.999" and _fmt_level(0.995) == "0.995"
    assert _fmt_level(1 - 0.001 / 30) == "0.9999667"
    import theoryverify as tv
    v = tv.check_mc_mean(lambda rng, m: rng.standard_normal((m, 30)), [0.0] * 30, seed=0, confidence=0.999,
                         resolution=0.05)
    assert "0.9999667 intervals" in v.evidence and " 1 interval" not in v.evidence, v.evidence


def test_check_mc_means_over_draws_records_and_refutes_per_setting():
    """Issue 29, author 5, defect 10: each setting's (sampler, expected) pair was hand-built and the parameters a
    setting drew (its spectrum λ, its unit w) were not recorded.  One call: settings from the declared ranges,
    parameters drawn per setting (a function or a Domain), recorded whole; a planted wrong mean is refuted and the
    refutation names what its setting drew."""
    import theoryverify as tv

    D = tv.Over("d", 2, 5, integer=True)

    def draw(c, rng):
        w = rng.standard_normal(c["d"])
        return {"lam": rng.uniform(0.2, 2.0, c["d"]), "w": w / np.linalg.norm(w)}

    def oja(p, rng, m):  # x ~ N(0, diag λ): the Oja update x xᵀw − (wᵀx)² w
        x = rng.standard_normal((m, p["d"])) * np.sqrt(p["lam"])
        y = x @ p["w"]
        return x * y[:, None] - (y ** 2)[:, None] * p["w"]

    def mean(p, sign=-1):
        lw = p["lam"] * p["w"]
        return lw + sign * (p["w"] @ lw) * p["w"]

    v = tv.check_mc_means_over([D], oja, mean, seed=3, draw=draw, n=50_000, resolution=0.05)
    assert v.status is tv.Status.HOLDS, v.evidence
    drawn = v.details["drawn"]
    assert set(drawn) == {"d=2", "d=3", "d=4", "d=5"} and len(drawn["d=5"]["w"]) == 5
    assert [c["d"] for c in v.details["configurations"]] == [2, 5, 3, 4]
    again = tv.check_mc_means_over([D], oja, mean, seed=3, draw=draw, n=50_000, resolution=0.05)
    assert again.details["drawn"] == drawn  # seeded
    bad = tv.check_mc_means_over([D], oja, lambda p: mean(p, +1), seed=3, draw=draw, n=50_000, resolution=0.05)
    assert bad.status is tv.Status.REFUTED and set(bad.counterexample["drawn"]) == {"lam", "w"}
    # a Domain per setting: one seeded point of it
    dom = lambda c: tv.Domain([tv.VectorVar("mu", c["d"])])
    v = tv.check_mc_means_over([D], lambda p, rng, m: rng.standard_normal((m, p["d"])) + p["mu"],
                               lambda p: p["mu"], seed=0, draw=dom, resolution=0.05)
    assert v.status is tv.Status.HOLDS and len(v.details["drawn"]["d=3"]["mu"]) == 3
    assert tv.check_mc_means_over([D], oja, mean, seed=0, draw=lambda c: 3).status is tv.Status.ERROR


def test_check_mc_means_over_takes_a_relative_or_per_setting_resolution_and_says_what_is_wrong_in_one_line():
    """Issue 29, author 9, D5: a mean spanning decades across the ranges (E = 1/s, s ∈ [0.1, 10]) was inconclusive
    at the default resolution ("about 201004 samples would resolve it"); ``relative=0.05`` or a function of the
    setting (``resolution=lambda p: ...``) resolve each setting at its own scale; a function where a number is
    expected was a raw TypeError; the default component name was "X" (a paper's design matrix)."""
    import theoryverify as tv
    over = [tv.Over("s", 0.1, 10, scale="log")]
    sample = lambda p, rng, m: rng.standard_normal((m, 1)) ** 2 / p["s"]  # noqa: E731
    true, wrong = (lambda p: 1 / p["s"]), (lambda p: 1.2 / p["s"])
    old = tv.check_mc_means_over(over, sample, true, 0)
    assert old.status is Status.INCONCLUSIVE and "sample mean" in old.evidence and ": X]" not in old.evidence
    for kw in ({"relative": 0.05}, {"resolution": lambda p: 0.05 / p["s"]}):
        assert tv.check_mc_means_over(over, sample, true, 0, **kw).status is Status.HOLDS, kw
        assert tv.check_mc_means_over(over, sample, wrong, 0, **kw).status is Status.REFUTED, kw
    for bad in (tv.check_mc_means([(lambda rng, m: rng.standard_normal(m), 0.0)], 0, resolution=lambda p: 0.1),
                tv.check_mc_means_over(over, sample, 1.0, 0),
                check_mc_mean(lambda rng, m: rng.standard_normal(m), lambda p: 0.0, seed=0)):
        assert bad.status is Status.ERROR and "\n" not in bad.evidence and "function" in bad.evidence, bad.evidence
