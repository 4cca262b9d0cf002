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


def test_l11_p999_part_can_fail(monkeypatch):
    """Lemma 11 at its own threshold: a family whose C2 grows as T ↓ (planted) makes the part inconclusive."""
    fam = {"F-aff": {"median C2 needed by T·log n": {0.001: 1.0, 0.00316: 1.0}, "all grid points pass": True,
                     "C2 needed grows as T ↓ (> 2× over the grid)": False, "decades of T·log n covered": 1.0}}
    monkeypatch.setattr(T3, "constants_points", lambda seed: ({"grid": []}, {"grid": []}))
    monkeypatch.setattr(T3, "family_constants", lambda *a, **k: fam)
    assert T3.l11_p999_verdict().status is Status.HOLDS
    fam["F-aff"]["C2 needed grows as T ↓ (> 2× over the grid)"] = True
    assert T3.l11_p999_verdict().status is Status.INCONCLUSIVE


def test_l6_lmin_tests_the_printed_constant():
    """l6-lmin passes check_rate constant='printed' (the printed leading term 1/(8T) of −f″(0), one-sided Ω): it
    holds at the printed 1/8, and a planted constant 2/8 (the exponent unchanged) is refuted."""
    from derivations.icrecall.claims import b_rates as BR
    from theoryverify import RunContext
    ctx = RunContext(seed=3)
    assert BR.l6_lmin(ctx).status is Status.HOLDS
    bad = BR.l6_lmin(ctx, constant_scale=2.0)
    assert bad.status is Status.REFUTED and "printed constant" in bad.evidence


def test_l10_lmin_planted_exponent_is_refuted_on_the_new_grid():
    """l10-lmin's planted twin (issue 27): on the widened grids (T = 0.01…0.000625, p_conf = 1…1/16) a claimed
    exponent −2 in T ("−λ_min/p_conf = Ω(1/T²)") is refuted — the measured one is ≈ −1 — so the pass could fail."""
    from derivations.icrecall.claims import b_rates as BR
    from theoryverify import RunContext
    params = {"Ts": BR.L10_T, "pconfs": BR.L10_PCONF, "size": 256, "T_fixed": 0.0025}
    assert min(params["Ts"]) == 0.000625 and min(params["pconfs"]) == 1 / 16
    bad = BR.l10_lmin(RunContext(seed=0, params=params), t_exponent=-2.0)
    assert bad.status is Status.REFUTED, bad.evidence
    refuted_parts = [k for k, p in bad.details.items() if isinstance(p, dict) and p.get("status") == "refuted"]
    assert refuted_parts and all(k.endswith("T sweep") for k in refuted_parts), refuted_parts
    assert "wrong side" in bad.evidence
    assert "planted twin" in str(bad.details)
