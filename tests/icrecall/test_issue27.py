"""Issue 27 (second referee): the icrecall findings registered from printed slips, each with a twin that is not
refuted by the same check."""
from __future__ import annotations

import sympy as sp

from derivations.icrecall.claims import c_lemma9 as L9
from derivations.icrecall.claims import s42_theorem3 as T3
from theoryverify.verdicts import Status


def test_escape_law_log_factor_and_planted_radius():
    lim_kT, lim_log, _ = T3.escape_steps_law(3)  # Algorithm 1's radius Θ(T³)
    assert lim_kT is sp.oo and lim_log.is_positive and lim_log.is_finite
    lim_kT2, _, _ = T3.escape_steps_law(2)  # planted: a radius of the order of d* = Θ(T²)
    assert lim_kT2.is_finite


def test_otime_refuted_only_with_the_polynomial_radius():
    Ts = (0.01, 0.005, 0.0025, 0.001)
    assert T3.otime_verdict(Ts, 1).status is Status.REFUTED
    assert T3.otime_verdict(Ts, 1, radius_power=2).status is not Status.REFUTED


def test_eq21_printed_bound_refuted_intended_not():
    assert L9.eq21_printed_bound_check().status is Status.REFUTED
    assert L9.eq21_printed_bound_check(intended=True).status is Status.HOLDS
