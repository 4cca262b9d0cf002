"""The evidence standards (theoryverify/standards.py), applied by the engine to every claim's verdict:
each rule has a planted test — a narrow-grid pass, a one-configuration pass, an out-of-hypothesis
counterexample, an unconverged run — and none can be bypassed or loosened from paper code."""
import json

import numpy as np
import pytest

from theoryverify import scaling
from theoryverify.claims import Claim, Kind
from theoryverify.conditions import Condition, Over, at_least
from theoryverify.convergence import check_converged, diagnose
from theoryverify.findings import Finding
from theoryverify.standards import STANDARDS, Standards, grid_span
from theoryverify.verdicts import Status, combine, holds, refuted


def claim(check, kind=Kind.RATE, **kw):
    return Claim("p.c", "p", "Thm 1", "statement", kind, check, **kw)


def rate(xs, power=2.0, predicted=2.0, **kw):
    def check(ctx):
        xs_ = np.asarray(xs, float)
        return scaling.check_rate(xs_, xs_ ** power, predicted, 0.1, 1, param="K", **kw)
    return check


# --- grid span --------------------------------------------------------------------------------

def test_planted_narrow_grid_pass_becomes_inconclusive():
    r = claim(rate([6, 9, 13, 18, 24])).run()
    assert r.verdict.status is Status.INCONCLUSIVE
    assert "grid spans 0.60 decades in K (< 1)" in r.verdict.evidence
    assert r.verdict.details["downgraded"]["status"] == "holds"


def test_wide_grid_pass_stands_and_prints_its_span():
    r = claim(rate([4, 8, 16, 32, 64])).run()
    assert r.verdict.status is Status.HOLDS and "grid spans 1.20 decades in K" in r.verdict.evidence


def test_planted_narrow_grid_refutation_becomes_inconclusive():
    r = claim(rate([6, 9, 13, 18, 24], power=3.0)).run()  # y = K^3 against a predicted K^2
    assert r.verdict.status is Status.INCONCLUSIVE and r.verdict.details["downgraded"]["status"] == "refuted"
    wide = claim(rate([4, 8, 16, 32, 64], power=3.0), expect=Status.REFUTED, finding=Finding.ERRATUM,
                 reason="planted").run()
    assert wide.verdict.status is Status.REFUTED


def test_too_few_points_even_when_wide():
    def check(ctx):
        return holds("hand-made", "three points", sweep=scaling.sweep_details("K", [1, 10, 100], [1, 2, 3]))
    r = claim(check).run()
    assert r.verdict.status is Status.INCONCLUSIVE and "3 points (< 4)" in r.verdict.evidence


def test_paper_code_cannot_bypass_the_span_rule_with_its_own_holds():
    def check(ctx):  # a claim that builds "holds" itself around a narrow sweep, inside a combined verdict
        part = holds("own rule", "looks fine", sweep=scaling.sweep_details("T", [0.005, 0.007, 0.009, 0.012],
                                                                             [1, 2, 3, 4]),
                     fit={"exponent": -1.0, "law": "k ≈ C·T^b"})
        return combine({"identity": holds("x", "y"), "rate": part})
    r = claim(check, kind=Kind.DYNAMICS).run()
    assert r.verdict.status is Status.INCONCLUSIVE and "[rate]" in r.verdict.evidence


def test_a_rate_verdict_without_a_recorded_sweep_cannot_pass():
    r = claim(lambda ctx: holds("own fit", "slope -1.0 over n = 5..19", grid=[5, 7, 9, 19])).run()
    assert r.verdict.status is Status.INCONCLUSIVE and "records no sweep" in r.verdict.evidence
    from theoryverify.verdicts import proved
    assert claim(lambda ctx: proved("symbolic", "exact law")).run().verdict.status is Status.PROVED


def test_negative_controls_inside_a_pass_are_not_its_evidence():
    def check(ctx):  # a pass that stores a (refuted) planted control with a narrow sweep in its details
        main = holds("fit", "wide", sweep=scaling.sweep_details("H", [1, 10, 100, 1000], [1, 2, 3, 4]),
                     fit={"exponent": 1.0, "law": "e ≈ C·H^b"})
        control = refuted("fit", "planted control refuted", {"x": 1},
                          sweep=scaling.sweep_details("H", [4, 5, 6, 7], [1, 2, 3, 4]))
        v = combine({"main": main})
        return holds(v.method, v.evidence, main=main.to_json(), control=control.to_json())
    assert claim(check).run().verdict.status is Status.HOLDS


def test_log_valued_grid_is_measured_in_decades_of_the_quantity():
    sweep = scaling.sweep_details("log(1/sigma)", np.log(1 / np.array([1e-1, 1e-2, 1e-3, 1e-4])), [1, 2, 3, 4],
                                  scale="log")
    assert grid_span(sweep, {}).decades == pytest.approx(3.0)


def test_a_log_valued_grid_names_the_quantity_whose_decades_it_counts():
    """Referee 16: L = 50…800 fitted against log L spans 1.20 decades of L (0.23 of log L): the text says "in L"."""
    L = np.array([50, 100, 200, 400, 800])
    span = grid_span(scaling.sweep_details("log L", np.log(L), [1, 2, 3, 4, 5], scale="log"), {})
    assert span.decades == pytest.approx(np.log10(16)) and span.text() == "grid spans 1.20 decades in L"
    sig = scaling.sweep_details("log(1/sigma)", np.log(1 / np.array([1e-1, 1e-3])), [1, 2], scale="log")
    assert grid_span(sig, {}).text() == "grid spans 2.00 decades in 1/sigma"
    assert grid_span(scaling.sweep_details("T", [0.1, 0.01], [1, 2]), {}).text() == "grid spans 1.00 decades in T"


def test_exponential_law_needs_a_tenfold_change_of_the_predicted_quantity():
    T = np.array([0.2, 0.22, 0.24, 0.26])  # exp(-1/(8T)) changes by a factor 1.3 only

    def check(ctx):
        return scaling.check_rate(T, np.exp(-1 / (8 * T)), -1 / 8, 0.02, 1, param="T", law="exp")
    r = claim(check).run()
    assert r.verdict.status is Status.INCONCLUSIVE and "predicted quantity changes by" in r.verdict.evidence


def test_standards_can_be_tightened_never_loosened():
    assert STANDARDS.tightened(min_decades=1.5).min_decades == 1.5
    with pytest.raises(ValueError, match="never loosened"):
        STANDARDS.tightened(min_decades=0.5)
    with pytest.raises(ValueError):
        scaling.check_rate([1, 10, 100], [1, 10, 100], 1.0, 0.1, 0, min_points=3)
    # a claim's own standards only add strictness: a claim may not pass a loosened Standards object
    loose = Standards(min_decades=0.1)
    r = claim(rate([6, 9, 13, 18, 24]), standards=loose).run()
    assert r.verdict.status is Status.INCONCLUSIVE
    strict = claim(rate([4, 8, 16, 32, 64]), standards=STANDARDS.tightened(min_decades=1.5)).run()
    assert strict.verdict.status is Status.INCONCLUSIVE and "(< 1.5)" in strict.verdict.evidence


# --- hypotheses ---------------------------------------------------------------------------------

K_EPS = Condition("K ≥ c/ε", lambda c: c["K"] >= 1.0 / c["eps"], needs=("K", "eps"), constants={"c": 1})


def test_planted_out_of_hypothesis_counterexample_is_not_an_erratum():
    c = claim(lambda ctx: refuted("m", "the bound fails", {"K": 4, "eps": 0.1, "lhs": 2.0, "rhs": 1.0}),
              kind=Kind.INEQUALITY, conditions=(K_EPS,), expect=Status.REFUTED, finding=Finding.ERRATUM,
              reason="planted")
    r = c.run()
    assert r.verdict.status is Status.INCONCLUSIVE and not r.as_expected
    assert r.verdict.method == "fails outside the stated hypotheses" and r.outside_hypotheses
    assert r.finding is None and r.to_json()["finding"] is None
    assert "K = 4" in r.verdict.evidence and "K ≥ c/ε (c = 1)" in r.verdict.evidence


def test_in_hypothesis_counterexample_records_what_it_was_checked_against():
    c = claim(lambda ctx: refuted("m", "the bound fails", {"K": 40, "eps": 0.1}), kind=Kind.INEQUALITY,
              conditions=(K_EPS,), expect=Status.REFUTED, finding=Finding.ERRATUM, reason="planted")
    r = c.run()
    assert r.verdict.status is Status.REFUTED and r.as_expected
    assert r.verdict.counterexample["hypotheses"] == {"K ≥ c/ε (c = 1)": "satisfied"}
    assert json.loads(json.dumps(r.to_json()))["finding"] == "erratum"


def test_sweep_grid_points_are_checked_with_the_fixed_parameters():
    r = claim(rate([4, 8, 16, 32, 64], fixed={"eps": 0.1}), conditions=(K_EPS,)).run()
    assert r.verdict.status is Status.INCONCLUSIVE and "2 of 5" in r.verdict.evidence  # K = 4, 8 < 10
    ok = claim(rate([16, 32, 64, 128, 256], fixed={"eps": 0.1}), conditions=(K_EPS,)).run()
    assert ok.verdict.status is Status.HOLDS


def test_refutation_that_does_not_record_a_hypothesis_parameter_is_an_error():
    c = claim(lambda ctx: refuted("m", "fails", {"K": 40}), kind=Kind.INEQUALITY, conditions=(K_EPS,))
    r = c.run()
    assert r.verdict.status is Status.ERROR and "does not record eps" in r.verdict.evidence


def test_deciding_part_of_a_combined_refutation_is_the_one_checked():
    def check(ctx):
        inside = holds("a", "fine", configurations=[{"K": 1, "eps": 0.1}])  # a pass part: not the evidence
        return combine({"pass": inside, "fail": refuted("m", "fails", {"K": 40, "eps": 0.1})})
    r = claim(check, kind=Kind.INEQUALITY, conditions=(K_EPS,)).run()
    assert r.verdict.status is Status.REFUTED
    assert "standards: )" not in r.verdict.evidence  # never an empty "decides" clause (p3-qrate showed one)


def test_a_leaf_inside_the_deciding_part_keeps_the_deciding_evidence():
    """p3-qrate: the counterexample names a group whose refuted leaf is the one judged; that leaf is inside the
    deciding part, so the verdict keeps its evidence (it had gained an empty '(decides: …: )' clause)."""
    from dataclasses import replace

    def check(ctx):
        group = combine({"start T1": refuted("m", "fails at K = 40", {"K": 40, "eps": 0.1})})
        top = combine({"path c=1": group})
        return replace(top, counterexample={**(top.counterexample or {}), "part": "path c=1"})
    r = claim(check, kind=Kind.INEQUALITY, conditions=(K_EPS,)).run()
    assert r.verdict.status is Status.REFUTED, r.verdict.evidence
    assert "decides:" not in r.verdict.evidence and "standards: )" not in r.verdict.evidence, r.verdict.evidence


def test_a_later_refuted_part_inside_the_hypotheses_decides():
    def check(ctx):
        return combine({"fixed K = 4": refuted("m", "fails at K = 4", {"K": 4, "eps": 0.1}),
                        "admissible path": refuted("m", "fails at K = 40", {"K": 40, "eps": 0.1})})
    r = claim(check, kind=Kind.INEQUALITY, conditions=(K_EPS,)).run()
    assert r.verdict.status is Status.REFUTED
    assert r.verdict.counterexample["part"] == "admissible path" and r.verdict.counterexample["K"] == 40
    assert "fixed K = 4" in r.verdict.evidence  # says why the first refuted part does not decide


def _grouped_refutation(configs):
    """A refuted group whose leaf records only K; the group records the configurations once, for all its parts."""
    from dataclasses import replace

    def check(ctx):
        group = combine({"fit": refuted("m", "fails", {"K": 40})})
        group = replace(group, details={**group.details, "configurations": configs})
        return combine({"pass": holds("a", "fine", configurations=[{"K": 100, "eps": 0.1}]), "group": group})
    return claim(check, kind=Kind.INEQUALITY, conditions=(K_EPS,))


def test_an_enclosing_part_s_own_configurations_decide_when_the_leaf_lacks_a_hypothesis_parameter():
    r = _grouped_refutation([{"K": 40, "eps": 0.1}]).run()
    assert r.verdict.status is Status.REFUTED, r.verdict.evidence
    planted = _grouped_refutation([{"K": 4, "eps": 0.1}]).run()  # the group's configurations lie outside K ≥ 1/ε
    assert planted.verdict.status is Status.INCONCLUSIVE and planted.outside_hypotheses


def test_parts_nested_under_details_parts_are_read():
    def check(ctx):
        inner = refuted("m", "fails", {"K": 4, "eps": 0.1})
        return refuted("wrapper", "a part fails", {"part": "only"}, parts={"only": inner.to_json()})
    r = claim(check, kind=Kind.INEQUALITY, conditions=(K_EPS,)).run()
    assert r.verdict.status is Status.INCONCLUSIVE and r.outside_hypotheses


# --- quantifiers ----------------------------------------------------------------------------------

def test_planted_one_configuration_pass_becomes_inconclusive():
    over = (Over("n", 3, integer=True),)
    one = claim(lambda ctx: holds("m", "ok at n = 3", configurations=[{"n": 3}]), kind=Kind.DYNAMICS, over=over)
    r = one.run()
    assert r.verdict.status is Status.INCONCLUSIVE and "one configuration (n = 3)" in r.verdict.evidence
    three = claim(lambda ctx: holds("m", "ok", configurations=[{"n": 3}, {"n": 5}, {"n": 8}]),
                  kind=Kind.DYNAMICS, over=over)
    assert three.run().verdict.status is Status.HOLDS


def test_values_must_spread_over_a_finite_range():
    over = (Over("T", 0.0, 0.1),)
    bunched = claim(lambda ctx: holds("m", "ok", configurations=[{"T": t} for t in (0.09, 0.095, 0.1)]),
                    kind=Kind.DYNAMICS, over=over)
    assert "cover" in bunched.run().verdict.evidence
    spread = claim(lambda ctx: holds("m", "ok", configurations=[{"T": t} for t in (0.01, 0.05, 0.1)]),
                   kind=Kind.DYNAMICS, over=over)
    assert spread.run().verdict.status is Status.HOLDS


def test_a_symbolic_proof_covers_its_parameters_and_an_unrecorded_one_is_an_error():
    from theoryverify.verdicts import proved
    over = (Over("n", 3, integer=True),)
    p = claim(lambda ctx: proved("symbolic", "for every n", coverage={"n": "symbolic"}), kind=Kind.IDENTITY,
              over=over)
    assert p.run().verdict.status is Status.PROVED
    silent = claim(lambda ctx: holds("m", "ok"), kind=Kind.IDENTITY, over=over)
    assert silent.run().verdict.status is Status.ERROR


def test_search_checks_record_what_they_covered():
    import sympy as sp

    from theoryverify.checks import check_inequality
    from theoryverify.domains import Domain, LogUniform
    T = sp.Symbol("T", positive=True)
    over = (Over("T", 1e-3, 1.0, scale="log"),)
    # sin T <= T is searched (the sign-analysis tier cannot sign it); T <= 2T is proved by sign analysis, and a
    # proof records the range it covered: on too narrow a range it fails the quantifier rule like a search
    for lhs, rhs, status in ((sp.sin(T), T, Status.HOLDS), (T, 2 * T, Status.PROVED)):
        wide = claim(lambda ctx: check_inequality(lhs, "<=", rhs, Domain([LogUniform(T, 1e-3, 1.0)]), ctx.seed),
                     kind=Kind.INEQUALITY, over=over)
        assert wide.run().verdict.status is status
        narrow = claim(lambda ctx: check_inequality(lhs, "<=", rhs, Domain([LogUniform(T, 0.5, 1.0)]), ctx.seed),
                       kind=Kind.INEQUALITY, over=over)
        assert narrow.run().verdict.status is Status.INCONCLUSIVE


# --- convergence ----------------------------------------------------------------------------------

def test_unconverged_run_cannot_pass():
    curve = 0.495 + 0.5 * np.exp(-np.arange(200) / 400.0)  # still far from the optimum 0.495
    d = diagnose(curve, optimum=0.495, tol=1e-3)
    assert not d["converged"] and "from the optimum" in d["summary"]
    own = claim(lambda ctx: holds("paper's own tolerance 0.05", "close enough", convergence=d), kind=Kind.DYNAMICS)
    assert own.run().verdict.status is Status.INCONCLUSIVE
    done = 0.495 + 0.5 * np.exp(-np.arange(2000) / 40.0)
    ok = claim(lambda ctx: check_converged(done, optimum=0.495, tol=1e-3), kind=Kind.DYNAMICS, converges=True)
    assert ok.run().verdict.status is Status.HOLDS
    silent = claim(lambda ctx: holds("m", "converged (trust me)"), kind=Kind.DYNAMICS, converges=True)
    assert silent.run().verdict.status is Status.ERROR


def test_still_descending_curve_is_not_converged_even_without_an_optimum():
    assert not diagnose(np.linspace(1.0, 0.5, 100))["converged"]
    assert diagnose(np.r_[np.linspace(1.0, 0.5, 50), np.full(50, 0.5)])["converged"]


# --- the verdict line names the deciding grid (issue 27, item 6) ---------------------------------------------

def test_a_refutation_names_the_grid_it_rests_on_not_the_narrowest():
    def check(ctx):
        wide = np.array([4.0, 8, 16, 32, 64, 128])  # 1.51 decades in K: y = K^3 against a predicted K^2
        narrow = np.array([1.0, 1.5, 2.0, 2.5, 3.0, 4.0])  # 0.60 decades in Delta, passing
        return combine({
            "Delta sweep": scaling.check_rate(narrow, narrow ** 2, 2.0, 0.1, 1, param="Delta"),
            "K sweep": scaling.check_rate(wide, wide ** 3, 2.0, 0.1, 1, param="K"),
        })
    r = claim(check, expect=Status.REFUTED, finding=Finding.ERRATUM, reason="planted").run()
    assert r.verdict.status is Status.REFUTED, r.verdict.evidence
    ev = r.verdict.evidence
    assert "decided on [K sweep] grid spans 1.51 decades in K" in ev, ev
    assert "1 of 2 grids" in ev and "narrowest of all: grid spans 0.60 decades in Delta [Delta sweep]" in ev
    assert r.verdict.details["grid_span"]["deciding"][0]["param"] == "K"
    # a pass over several grids still names its narrowest (every grid must meet the rule)
    def passing(ctx):
        k = np.array([4.0, 8, 16, 32, 64, 128])
        return combine({"a": scaling.check_rate(k, k ** 2, 2.0, 0.1, 1, param="K"),
                        "b": scaling.check_rate(k * 10, (k * 10) ** 2, 2.0, 0.1, 1, param="N")})
    p = claim(passing).run()
    assert p.verdict.status is Status.HOLDS and "narrowest of 2 grids" in p.verdict.evidence
