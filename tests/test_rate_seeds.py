"""Seeded sweeps ((points, seeds) arrays): the CIs of check_rate carry both the misfit between grid points and the
seed-to-seed spread (a two-stage bootstrap), and a sweep with one seed per point never refutes (issue 29, items 7
and 8: a zero-width CI from identical seeds; a constant refuted at one seed stream and not at the next)."""
from __future__ import annotations

import numpy as np

import theoryverify as tv

KAPPA = np.geomspace(10, 1e4, 6)
CURVED = np.sqrt(KAPPA) * (1 + 0.3 / np.log(KAPPA))  # √κ with a lower-order term: local slopes vary


def test_identical_seeds_give_the_ci_of_the_points_not_zero_width():
    one = tv.check_rate(KAPPA, CURVED, 0.5, 0.1, 0, constant="hidden")
    many = tv.check_rate(KAPPA, np.repeat(CURVED[:, None], 4, axis=1), 0.5, 0.1, 0, constant="hidden")
    lo, hi = many.details["fit"]["ci"]
    assert hi - lo > 0.5 * np.subtract(*one.details["fit"]["ci"][::-1]), (one.details["fit"]["ci"], (lo, hi))
    assert many.status is tv.Status.HOLDS


def test_a_wrong_exponent_is_still_refuted_with_seeds():  # planted: y ~ κ, printed √κ
    gen = np.random.default_rng(0)
    y = KAPPA[:, None] * np.exp(0.05 * gen.standard_normal((6, 5)))
    assert tv.check_rate(KAPPA, y, 0.5, 0.1, 0, constant="hidden").status is tv.Status.REFUTED


def _counts(stream, seeds, constant=0.5):
    """½κ·log(1/ε)-like counts with a seed-dependent offset of ±5%: each seed stream has its own mean."""
    gen = np.random.default_rng(stream)
    return constant * KAPPA[:, None] * (1 + 0.05 * gen.standard_normal((1, seeds)) + 0.002 * gen.standard_normal((6, seeds)))


def test_one_seed_per_point_never_refutes():
    pred = 0.5 * KAPPA
    verdicts = [tv.check_rate(KAPPA, _counts(s, 1), 1.0, 0.1, 0, pred, constant="printed", constant_margin=0.02)
                for s in range(6)]
    assert all(v.status is not tv.Status.REFUTED for v in verdicts), [v.evidence for v in verdicts]
    assert any("one seed per grid point" in v.evidence for v in verdicts)


def test_seeds_carry_the_spread_and_a_wrong_constant_is_refuted():
    pred = 0.5 * KAPPA
    ok = [tv.check_rate(KAPPA, _counts(s, 8), 1.0, 0.1, 0, pred, constant="printed", constant_margin=0.1).status
          for s in range(4)]
    assert tv.Status.REFUTED not in ok, ok
    wrong = tv.check_rate(KAPPA, _counts(0, 8, constant=1.0), 1.0, 0.1, 0, pred, constant="printed")  # planted
    assert wrong.status is tv.Status.REFUTED, wrong.evidence
