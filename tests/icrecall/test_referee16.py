"""Referee 16 on icrecall: the four pairs of findings that share one error of the paper declare one root cause
(so the page counts them once and groups their cards), and the texts say what is measured."""
from theoryverify import registry


def _claims():
    return {c.id.split(".", 1)[1]: c for c in registry.claims(paper="icrecall")}


def test_the_four_pairs_declare_one_root_cause_each():
    cs = _claims()
    pairs = [("t4-unique-crit", "t4-psi-sign-left"), ("l5-crit-dv1", "l5-crit-dv2"), ("l8-diff12", "l8-diff34"),
             ("T3-L10-otime", "l7-logs")]
    causes = []
    for a, b in pairs:
        assert cs[a].cause and cs[a].cause == cs[b].cause, (a, b)
        causes.append(cs[a].cause)
    assert len(set(causes)) == 4  # four distinct causes, none merged with another family
    assert cs["t4-dj"].cause != cs["t4-unique-crit"].cause  # the d_j family is another error


def test_lemma2_exponents_are_fitted_inside_app_d_regime_over_a_decade():
    """Referee 16: 3 of the 5 spec-grid T lie outside 1/T > 40 log n (n = 7); the fit grid is one decade inside it."""
    import numpy as np

    from derivations.icrecall.claims import s43_lemma2 as L2
    for n in (7, 31):
        grid = np.array(L2.regime_grid(n))
        assert np.all(1 / grid > 40 * np.log(n)) and np.log10(grid.max() / grid.min()) >= 1 - 1e-9
    assert sum(1 / t <= 40 * np.log(7) for t in L2.SPEC_T) == 3  # the spec grid, reported only
    assert "inside App. D's regime" in _claims()["L2"].statement


def test_proposition1_sweeps_say_what_they_measure():
    """Referee 16: a sampled max is a lower estimate of the sup (no "upper side"), and when it is attained on the
    witness family the two fits are one measurement; the O side is App. E's bound."""
    from derivations.icrecall.claims import b_rates
    one = b_rates.sweep_note([1.0, 2.0, 4.0], [1.0, 2.0, 4.0])
    two = b_rates.sweep_note([1.0, 2.5, 4.0], [1.0, 2.0, 4.0])
    assert "one measurement" in one and "two measurements" in two and "p2-stmt" in one
    for cid in ("p1-gradlip", "p1-hesslip"):
        st = _claims()[cid].statement
        assert "upper" not in st and "lower estimates of the sup" in st


def test_lemma10_otime_says_its_law_is_derived_not_measured_over_T():
    reason = _claims()["T3-L10-otime"].reason
    assert "a derivation" in reason and "one measured" in reason
