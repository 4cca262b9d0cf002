"""A printed law's parameter held at one value is not tested (author 11's D2, session 47's held-out author).

``thm_escape`` swept u0 with ``fixed={"y": 1.0}``: the printed constant 1/(2y) was tested at y = 1 only, and a
planted law log((y − u0)/u0)/(2y²) *held* (C = 1.001) — at y = 1, y and y² agree.  ``tv.check_rate_over`` now
reads the names the printed law depends on: a pass with one of them held fixed is inconclusive and says which
(``held=`` names those the statement itself fixes); a refutation stands with the same note."""
import numpy as np
import sympy as sp

import theoryverify as tv

y, u0 = sp.symbols("y u_0", positive=True)
U0 = tv.Over("u_0", 1e-4, 1e-2, scale="log")
RIGHT = sp.log((y - u0) / u0) / (2 * y)


def escape_time(c):
    """The escape time the paper derives, measured exactly: log((y − u0)/u0)/(2y)."""
    return float(np.log((c["y"] - c["u_0"]) / c["u_0"]) / (2 * c["y"]))


def _rate(law, **kw):
    return tv.check_rate_over(U0, escape_time, "printed", 0.1, 0, law, fixed={"y": 1.0}, constant="printed",
                              law="power", log_power=1.0, **kw)


def test_a_planted_law_agreeing_at_the_fixed_value_is_not_a_pass():
    planted = sp.log((y - u0) / u0) / (2 * y ** 2)  # the D2 plant: equal to the right law at y = 1 only
    v = _rate(planted)
    assert v.status is tv.Status.INCONCLUSIVE, v.evidence
    assert "depends on y, tested at y = 1 only" in v.evidence and v.details["untested"] == {"y": 1.0}
    assert _rate(RIGHT).status is tv.Status.INCONCLUSIVE  # the right law is no better tested


def test_held_names_the_statement_fixes_and_the_check_decides_again():
    assert _rate(RIGHT, held=["y"]).status is tv.Status.HOLDS
    assert "untested" not in _rate(RIGHT, held=["y"]).details


def test_a_refutation_at_the_fixed_value_stands_with_the_note():
    """The guard: a wrong law at the fixed value (a constant 2x off) is still refuted, and says y was held."""
    v = _rate(sp.log((y - u0) / u0) / y)
    assert v.status is tv.Status.REFUTED, v.evidence
    assert "tested at y = 1 only" in v.evidence


def test_a_sympy_law_and_a_printed_side_are_read_alike():
    side = tv.printed(lambda y: sp.Eq(sp.Symbol("T"), sp.log((y - u0) / u0) / (2 * y))).rhs
    assert _rate(side).details["untested"] == {"y": 1.0}
    assert _rate(side, held=["y"]).status is tv.Status.HOLDS


def test_a_held_name_that_is_not_fixed_is_an_error():
    import pytest
    with pytest.raises(ValueError, match="not in fixed"):
        _rate(RIGHT, held=["eta"])
