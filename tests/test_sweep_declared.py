"""Evidence records what hypotheses read (issue 27, item 3): a sweep records the statement's parameters that vary
along it whatever the fit variable — automatically for a simple function of one parameter (a fit in 1/N records
N), or declared by the check (``declared={"d": ds}``) — so a hypothesis N ≥ d is checked against the evidence
instead of erroring out."""
import numpy as np

from theoryverify import scaling
from theoryverify.claims import Claim, Kind
from theoryverify.conditions import Condition
from theoryverify.evidence import configurations
from theoryverify.verdicts import Status

N_GE_D = Condition("N ≥ d", lambda c: c["N"] >= c["d"], needs=("N", "d"))


def claim(check):
    return Claim("p.c", "p", "Thm 1", "statement", Kind.RATE, check, conditions=(N_GE_D,))


def fit_in_inverse_n(Ns, d):
    def check(ctx):
        x = 1.0 / np.asarray(Ns, float)
        return scaling.check_rate(x, 2.0 * x, 1.0, 0.1, 1, param="1/N", fixed={"d": d})
    return check


def test_a_fit_in_one_over_n_records_n_and_the_hypothesis_is_checked():
    r = claim(fit_in_inverse_n([16, 32, 64, 128, 256], d=8)).run()
    assert r.verdict.status is Status.HOLDS, r.verdict.evidence
    assert "inside the stated hypotheses (N ≥ d)" in r.verdict.evidence
    sweep = r.verdict.details["sweep"]
    assert sweep["declared"] == {"N": [16.0, 32.0, 64.0, 128.0, 256.0]}


def test_planted_grid_outside_the_hypothesis_is_caught_through_the_recorded_n():
    r = claim(fit_in_inverse_n([4, 8, 16, 32, 64], d=20)).run()  # N = 4, 8, 16 < d = 20
    assert r.verdict.status is Status.INCONCLUSIVE and "3 of 5" in r.verdict.evidence and "N ≥ d" in r.verdict.evidence


def test_declared_parameters_along_a_sweep():
    # a sweep in a derived variable (here s = N/d) with both N and d varying: declared per grid point
    Ns, ds = np.array([8, 32, 128, 512, 2048]), np.array([4, 8, 16, 32, 64])
    def check(ctx):
        s = Ns / ds
        return scaling.check_rate(s, s ** 2, 2.0, 0.1, 1, param="N/d", declared={"N": Ns, "d": ds})
    r = claim(check).run()
    assert r.verdict.status is Status.HOLDS, r.verdict.evidence
    configs = configurations(r.verdict.to_json())
    assert {c["N"] for c in configs} == set(Ns.tolist()) and {c["d"] for c in configs} == set(ds.tolist())


def test_underlying_parameter_forms():
    assert scaling.underlying("1/N", [0.001, 0.01]) == {"N": [1000.0, 100.0]}
    assert scaling.underlying("e^p", [np.e]) == {"p": [1.0]}
    assert scaling.underlying("log(1/T)", [0.0]) == {"T": [1.0]}
    assert scaling.underlying("√m", [3.0]) == {"m": [9.0]}
    assert scaling.underlying("log_eta", [1.0]) == {} and scaling.underlying("T", [1.0]) == {}
    import pytest
    with pytest.raises(ValueError):
        scaling.sweep_details("N/d", [1, 2], [1, 2], declared={"N": [1, 2, 3]})


def test_without_the_record_the_hypothesis_cannot_be_checked():
    # the old failure: a plain fit variable that is no simple function of N records nothing about N
    def check(ctx):
        x = np.array([1e-3, 1e-2, 1e-1, 1.0, 10.0])
        return scaling.check_rate(x, x, 1.0, 0.1, 1, param="τ", fixed={"d": 3})
    r = claim(check).run()
    assert r.verdict.status is Status.ERROR and "does not record N" in r.verdict.evidence


def test_a_fit_in_log_one_over_eps_on_a_log_scale_records_eps():
    """Issue 29, item 9: heavy ball's C3 fit in log(1/ε) with scale="log" recorded one configuration of ε."""
    import theoryverify as tv
    eps = np.geomspace(1e-12, 1e-4, 5)
    over = (tv.Over("eps", 1e-12, 1e-4, scale="log"),)
    claims = tv.ClaimSet("p")

    def check(ctx, slope=1.0):
        x = np.log(1 / eps)
        return tv.check_coefficient(x, 3 + slope * x, 1.0, 0.1, 0, index=1, param="log(1/eps)", scale="log")
    claims.add("c", location="Prop. 1", statement="k ≈ log(1/ε)", kind=tv.Kind.RATE, over=over)(check)
    v = claims.claims[0].run(tv.RunContext(seed=0)).verdict
    assert v.status is tv.Status.HOLDS and "covers eps" in v.evidence, v.evidence
    wrong = claims.claims[0].check(tv.RunContext(seed=0), slope=2.0)  # planted: the slope 2, still refuted
    assert wrong.status is tv.Status.REFUTED


def test_one_configuration_names_the_silent_sweep_and_declared():
    """Held-out author 6, defect 7: "inconclusive: one configuration (eps = 1e-06)" pointed at the κ sweep's fixed ε,
    while the cause was the ε sweep (x = 1/log(1/ε)) recording no ε: the message names that sweep and the fix."""
    import numpy as np

    import theoryverify as tv
    k, e = np.geomspace(10, 1000, 6), np.geomspace(1e-12, 1e-1, 6)
    over = (tv.Over("kappa", 10, 1000, scale="log"), tv.Over("eps", 1e-12, 1e-1, scale="log"))

    def check(ctx):
        return tv.combine({
            "κ sweep": tv.check_rate(1 / k, k, -1.0, 0.1, 0, k, param="1/kappa", constant="printed",
                                     fixed={"eps": 1e-6}),
            "ε sweep": tv.check_rate(-1 / np.log(e), -np.log(e), -1.0, 0.1, 0, -np.log(e), param="1/log(1/eps)",
                                     constant="printed", fixed={"kappa": 100})})
    claims = tv.ClaimSet("p")
    claims.add("c", location="Thm 1", statement="rate", kind=tv.Kind.RATE, over=over)(check)
    v = claims.claims[0].run(tv.RunContext(seed=0)).verdict
    assert v.status is tv.Status.INCONCLUSIVE, v
    assert "part 'ε sweep' (a sweep over 1/log(1/eps)) records no value of eps" in v.evidence, v.evidence
    assert "declared={'eps': [...]}" in v.evidence and "eps is fixed in part 'κ sweep' (eps = 1e-06)" in v.evidence
