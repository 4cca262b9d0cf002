"""The search's draws do not depend on round-off noise in the score (checks/search.py, ``target_floor``).

Two machines compute the same relative error with different last bits (another BLAS kernel): the committed
reports print the points drawn (coverage: "L = 0.01 to 9 (12 values)"), so the same seed must draw the same
points on both.  Targeting a score at round-off level would steer Hypothesis by the noise."""
from __future__ import annotations

import math

from hypothesis import strategies as st

from theoryverify.checks.search import ROUNDOFF_SCORE, search

POINTS = st.tuples(st.floats(-10, 10), st.floats(0.01, 100))


def _noise(machine: int):
    """A relative error of 1e-16 … 1e-15 of a tolerance 1e-10 (score ~1e-6), different on each machine."""
    def score(x):
        h = math.sin(1e3 * x[0] * (machine + 1.7) + x[1] * (3.1 + machine)) ** 2
        return (1 + 9 * h) * 1e-6
    return score


def _drawn(machine: int, floor):
    seen = []

    def score(x):
        seen.append(x)
        return _noise(machine)(x)
    search(POINTS, score, fails=lambda s: s > 1.0, seed=11, max_examples=60, target_floor=floor)
    return seen


def test_round_off_in_the_score_does_not_move_the_draws():
    assert _drawn(0, ROUNDOFF_SCORE) == _drawn(1, ROUNDOFF_SCORE)


def test_without_the_floor_the_noise_steers_the_search():
    """The planted failure the floor prevents: targeted on the noise, the two machines draw other points."""
    assert _drawn(0, None) != _drawn(1, None)


def test_a_score_above_the_floor_still_guides_and_a_failure_is_found():
    res = search(POINTS, lambda x: abs(x[0]) / 9.5, fails=lambda s: s > 1.0, seed=3, max_examples=200,
                 target_floor=ROUNDOFF_SCORE)
    assert res.failure is not None and abs(res.failure[0]) > 9.5
