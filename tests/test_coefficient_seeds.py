"""check_coefficient takes (points, seeds) arrays as check_rate does (issue 29, item 6: a broadcasting error, and
RuntimeWarnings from the local slopes when x was repeated to work around it); its margin is absolute."""
from __future__ import annotations

import warnings

import numpy as np

import theoryverify as tv

X = np.log(1 / np.geomspace(1e-12, 1e-4, 5))


def _seeded(slope, seeds=4):
    gen = np.random.default_rng(0)
    return 5 + slope * X[:, None] + 0.05 * gen.standard_normal((len(X), seeds))


def test_a_seeded_true_coefficient_holds_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v = tv.check_coefficient(X, _seeded(1.0), 1.0, 0.1, 0, index=1, param="log(1/eps)", scale="log")
        r = tv.check_coefficient(np.repeat(X, 3), np.repeat(5 + X, 3), 1.0, 0.1, 0, index=1)  # repeated x
    assert v.status is tv.Status.HOLDS and v.details["fit"]["margin_kind"] == "absolute", v.evidence
    assert r.status is tv.Status.HOLDS


def test_a_planted_wrong_coefficient_is_refuted_with_seeds_and_not_with_one():
    assert tv.check_coefficient(X, _seeded(1.5), 1.0, 0.1, 0, index=1).status is tv.Status.REFUTED
    one = tv.check_coefficient(X, _seeded(1.5, seeds=1), 1.0, 0.1, 0, index=1)
    assert one.status is tv.Status.INCONCLUSIVE and "one seed per grid point" in one.evidence


def test_identical_seeds_do_not_narrow_the_ci():
    curved = 5 + X + 0.02 * X ** 2
    one = tv.check_coefficient(X, curved, 1.0, 0.5, 0, index=1).details["fit"]["ci"]
    many = tv.check_coefficient(X, np.repeat(curved[:, None], 5, axis=1), 1.0, 0.5, 0, index=1).details["fit"]["ci"]
    assert many[1] - many[0] > 0.5 * (one[1] - one[0]), (one, many)
