"""Verdict helpers shared by several parts of the paper (no claims module imports another): the engine's
round-off-level printing (re-exported), and the configurations a verdict's evidence rests on (read by the engine's
hypotheses rule)."""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

import numpy as np

import theoryverify as tv
from theoryverify import NOISE_FLOOR, fmt_error, fmt_signed  # noqa: F401


def _py(v):
    return v.item() if hasattr(v, "item") and not isinstance(v, (list, tuple, dict)) else v


def with_configurations(verdict: tv.Verdict, configs: Iterable[Mapping]) -> tv.Verdict:
    """``verdict`` with ``details['configurations']``: the configurations its evidence rests on (read by the
    engine's hypotheses rule when the verdict has no sweep of its own, or when a path varies K and ε together)."""
    rows = [{str(k): _py(v) for k, v in dict(c).items()} for c in configs]
    return replace(verdict, details={**dict(verdict.details), "configurations": rows})


def family_verdict(ratios, Ns, ctx, what: str, x0: dict) -> tv.Verdict:
    fit = tv.fit_power_law(np.array(Ns, float), ratios, ctx.seed)
    ce = {"family": "families.cancellation_family (K=3, orthonormal, f = L√2(0, 0.9, −0.1), "
                    "q_1· = (0, 0, log 9), q_22 = q_33 = 40, p uniform)",
          "in_F (c_nd = 0.9)": x0["in_F_c09"], "N": list(Ns), what: ratios.tolist(),
          "fitted exponent in N": fit.exponent, "CI": list(fit.ci)}
    if x0["in_F_c09"] and fit.ci[1] < 0 and ratios[-1] < ratios[0] / 20:
        return tv.refuted("admissible family, exact count enumeration + power-law fit",
                       f"{what} falls from {ratios[0]:.3g} (N={Ns[0]}) to {ratios[-1]:.3g} (N={Ns[-1]}), "
                       f"∝ N^{fit.exponent:.2f} (CI {fit.ci[0]:.2f}..{fit.ci[1]:.2f}) → 0", ce)
    return tv.holds("admissible family", f"{what} stays bounded away from 0 along the family", **ce)


def gd_path_verdict(d: dict, key: str, what: str, seed: int) -> tv.Verdict:
    """A Θ lower side refuted on GD iterates: ``d`` from prop1.duplicate_theta_ratios; the ratio d[key] falls along t
    (power-law fit in t with CI below 0, and by 10× over the run) while the tie law stays in F (c_nd = 0.9) and
    E[Attn_1|x_q=v_1] ≤ ½ (q_11 = q_12); inconclusive if those conditions fail; otherwise holds on the path."""
    t, r = np.array(d["t"], float), np.array(d[key], float)
    fit = tv.fit_power_law(t, r, seed)
    ce = {"family": "prop1.duplicate_theta_ratios: GD from Q = 0, K = 3 orthonormal features, f = LΔ(0, 0, 1) "
                    "(point-mass D_f, in F), L = 1, Δ = √2, p uniform, exact count enumeration",
          "N": d["N"], "eta": d["eta"], "in_F (c_nd = 0.9)": d["in_F"][0.9], "t": d["t"], what: r.tolist(),
          "max_t |q11 - q12|": d["max_t |q11 - q12|"], "max_t E[Attn_1|x_q=v_1]": d["max_t E[Attn_1|x_q=v_1]"],
          "fitted exponent in t": fit.exponent, "CI": list(fit.ci)}
    if not (d["in_F"][0.9] and d["max_t E[Attn_1|x_q=v_1]"] <= 0.5 + 1e-12):
        return tv.inconclusive("GD path (tie law)", "the path left the tie law's conditions (task in F, "
                               "E[Attn_1|x_q=v_1] ≤ ½)", **ce)
    if fit.ci[1] < 0 and r[-1] < r[0] / 10:
        return tv.refuted("GD from Q = 0 on the tie law (exact population quantities) + power-law fit in t",
                          f"on GD iterates {what} falls from {r[0]:.3g} (t = {d['t'][0]}) to {r[-1]:.3g} "
                          f"(t = {d['t'][-1]}), ∝ t^{fit.exponent:.2f} (CI {fit.ci[0]:.2f}..{fit.ci[1]:.2f}) → 0, "
                          f"while E[Attn_1|x_q=v_1] ≤ ½ (q_11 = q_12 by the 1↔2 tie)", ce)
    return tv.holds("GD path (tie law)", f"{what} does not fall along the GD path", **ce)


def with_full_variant(short: str, *, quick: tv.Status | None, full: tv.Status | None, full_params: Mapping,
                      params: Mapping | None = None, finding: tv.Finding | None = None, reason: str | None = None,
                      readings: tv.Readings | None = None, full_tags=("slow",)) -> dict:
    """Keyword arguments of ``ClaimSet.add`` for one claim and its full-profile variant, which keeps the public id
    ``<short>-full`` of the older quick/full twins: ``quick`` and ``full`` are the expected statuses per profile
    (None: proved or holds).  A refutation's finding class belongs to the claim, so it is declared when either profile
    expects a refutation; the engine requires the full variant to expect it then (a variant cannot drop a finding)."""
    refuted_ = tv.Status.REFUTED
    kw: dict = {"params": dict(params or {})}
    full_kw: dict = {"params": dict(full_params), "tags": frozenset(full_tags), "id": f"{short}-full"}
    variants: dict = {}
    if refuted_ in (quick, full):
        if full is not refuted_:
            raise ValueError(f"{short}: a full variant cannot drop the claim's finding (quick refuted, full {full})")
        kw.update(expect=refuted_, finding=finding, reason=reason, readings=readings)
        if quick is not refuted_:
            variants["quick"] = tv.Variant(expect=quick)
    else:
        kw["expect"] = quick
        if full is not quick:
            full_kw["expect"] = full
    variants["full"] = tv.Variant(**full_kw)
    kw["variants"] = variants
    return kw


MARGIN, SPREAD = 0.15, 10.0


# --- rate and bound rules along a family (spec §3.0: check_rate with margin 0.15, max_spread 10) -------------------

def rate(x, y, p: float, seed: int, predicted=None, param: str = "x", what: str = "y", extra=None,
         fixed=None) -> tv.Verdict:
    """Θ-rate by spec §3.0 (y: (points,) or (points, seeds)); ``fixed``: parameters held fixed along the sweep."""
    return tv.check_rate(x, y, p, MARGIN, seed, predicted=predicted, param=param, what=what,
                      max_spread=SPREAD, extra=extra, fixed=fixed, constant="hidden")


FAMILY_RULE = ("family rule (spec §3.0, order-of-magnitude bounds): where the engine's one-sided rule is "
               "inconclusive only because the two sub-window exponents differ, the ratio still tends to ∞ (O side) / 0 "
               "(Ω side) along the family if the bootstrap CI AND both sub-window exponents lie beyond the margin on the "
               "wrong side — then the bound is refuted (the exponent is moving away from the claim, not towards it)")


def family_fallback(v: tv.Verdict, bound: str) -> tv.Verdict:
    """Apply :data:`FAMILY_RULE` to an inconclusive one-sided verdict of check_rate."""
    if v.status is not tv.Status.INCONCLUSIVE:
        return v
    f = v.details["fit"]
    lo, hi = f["ci"]
    sub = f["subwindow"]
    p, m = f["predicted_exponent"], f["margin"]
    wrong = (hi < p - m and max(sub) < p - m) if bound == "big_o" else (lo > p + m and min(sub) > p + m)
    if not wrong:
        return v
    ce = {"fitted_exponent": f["exponent"], "ci": [lo, hi], "subwindow": sub, "predicted_exponent": p, "margin": m,
          "bound": bound, "param": v.details["sweep"]["param"], "grid": v.details["sweep"]["x"]}
    return tv.refuted(v.method + " + family rule", "ratio diverges along the family (CI and both sub-windows on the "
                   "wrong side): " + v.evidence, ce, **{**v.details, "family_rule": FAMILY_RULE})


def bounded(x, ratio, seed: int, param: str, what: str, extra=None, fixed=None) -> tv.Verdict:
    """ratio = O(1) along the family as x → 0 (one-sided rule: a fitted exponent < −0.15 refutes)."""
    return family_fallback(tv.check_rate(x, ratio, 0.0, MARGIN, seed, param=param, what=what, max_spread=SPREAD,
                                      bound="big_o", extra=extra, fixed=fixed, constant="hidden"), "big_o")


def bounded_below(x, ratio, seed: int, param: str, what: str, extra=None, fixed=None) -> tv.Verdict:
    """ratio = Ω(1) along the family as x → 0."""
    return family_fallback(tv.check_rate(x, ratio, 0.0, MARGIN, seed, param=param, what=what, max_spread=SPREAD,
                                      bound="omega", extra=extra, fixed=fixed, constant="hidden"), "omega")


def explicit_lower(ratio, c: float, what: str, extra=None) -> tv.Verdict:
    """Ω(1) with an explicit constant fixed in advance: holds if ratio ≥ c at every grid point (a finite grid
    cannot refute a lower bound this way; a ratio tending to 0 is handled by :func:`bounded_below`)."""
    r = np.asarray(ratio, float)
    ev = f"{what}: min over the grid {np.nanmin(r):.4g} (explicit constant c = {c:g})"
    d = {"ratio": r.tolist(), **(extra or {})}
    return (tv.holds if np.nanmin(r) >= c else tv.inconclusive)("explicit lower constant over the grid", ev, **d)


def some_constant(parts: Mapping[str, tv.Verdict], what: str) -> tv.Verdict:
    """A bound with an unknown hidden constant read at C·T: holds if some C's part holds, refuted if
    every C's part is refuted, inconclusive otherwise."""
    details = {k: v.to_json() for k, v in parts.items()}
    ok = [k for k, v in parts.items() if v.status is tv.Status.HOLDS]
    if ok:
        return tv.holds("some fixed C keeps the ratio bounded", f"{what}: bounded at {ok}", parts=details)
    if all(v.status is tv.Status.REFUTED for v in parts.values()):
        ce = {k: v.counterexample for k, v in parts.items()}
        ev = "; ".join(f"[{k}] {v.evidence}" for k, v in parts.items())
        return tv.refuted("no fixed C keeps the ratio bounded", f"{what}: diverges for every C: {ev}", ce,
                       parts=details)
    return tv.inconclusive("some fixed C?", f"{what}: undecided", parts=details)


def usable(x, y):
    """Grid points with finite, positive values (T = 0: already below the level at t = 0)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    keep = np.isfinite(y).all(axis=tuple(range(1, y.ndim))) & (y > 0).all(axis=tuple(range(1, y.ndim)))
    return x[keep], y[keep], {"dropped_points": x[~keep].tolist()}


def formula_slope(x, y) -> float:
    """Least-squares log-log slope of a formula over the grid (its 'predicted exponent')."""
    return float(np.polyfit(np.log(np.asarray(x, float)), np.log(np.asarray(y, float)), 1)[0])
