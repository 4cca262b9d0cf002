"""theoryverify.domains.FlooredSimplex: simplex points with every coordinate ≥ floor (float, exact and
free-coordinate tiers), and a check that can fail: a bound that needs the floor holds on the floored
simplex and is refuted, with a counterexample, on the plain simplex."""
import random

import numpy as np
import sympy as sp
from hypothesis import given, settings

from theoryverify.checks import check_inequality
from theoryverify.domains import Domain, FlooredSimplex, Simplex
from theoryverify.verdicts import Status

X = sp.symbols("x1:4")
FLOOR = 1e-3
DOM = FlooredSimplex(X, boundary=True, floor=FLOOR)


@settings(max_examples=50, deadline=None)
@given(DOM.floats())
def test_float_points_are_floored_simplex_points(x):
    x = np.asarray(x)
    assert abs(x.sum() - 1) < 1e-12 and np.all(x >= FLOOR - 1e-15)


def test_rational_points_are_exact_and_floored():
    rnd = random.Random(0)
    for _ in range(50):
        x = DOM.rationals(rnd)
        assert sum(x) == 1 and all(v >= sp.Rational(FLOOR) for v in x)


def test_free_coordinates_round_trip():
    z = np.array([0.3, -1.2, 2.0])
    x = DOM.from_free(z)
    assert abs(sum(x) - 1) < 1e-12 and min(x) >= FLOOR
    assert np.allclose(DOM.from_free(DOM.to_free(x)), x, rtol=0, atol=1e-12)


def test_a_bound_needing_the_floor_holds_there_and_is_refuted_on_the_plain_simplex():
    floored = check_inequality(X[0], ">=", FLOOR / 2, Domain([DOM]), seed=1)
    plain = check_inequality(X[0], ">=", FLOOR / 2, Domain([Simplex(X, boundary=True)]), seed=1)
    assert floored.status == Status.HOLDS
    assert plain.status == Status.REFUTED and plain.counterexample
