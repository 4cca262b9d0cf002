"""Shared sweep helpers of the approximation claims (Lemma D.2, Thm 4.3, Thm 4.4): the super-polynomial rate rule
for an error curve e(m) (engine big-O rule on the largest-m window, steepening local slopes, power-vs-exponential
law comparison), and the results-store wrapper for slow sweeps, keyed by the source closure of the code that
computes them (``tv.code_key``)."""
from __future__ import annotations

import numpy as np

import theoryverify as tv
from theoryverify import Verdict, check_rate, holds, inconclusive, refuted, sweep_details

from ..model.kernels import local_slopes


def law_comparison(ms, errors) -> dict:
    """Fit log e = a + b log m (power) and log e = a + c m (exponential); residuals and BIC of each."""
    ms, le = np.asarray(ms, float), np.log(np.asarray(errors, float))
    out = {}
    for name, u in (("power m^b", np.log(ms)), ("exponential e^{c m}", ms)):
        A = np.vstack([np.ones_like(u), u]).T
        coef, *_ = np.linalg.lstsq(A, le, rcond=None)
        rss = float(np.sum((le - A @ coef) ** 2))
        k = len(ms)
        out[name] = {"slope": float(coef[1]), "rss": rss, "bic": float(k * np.log(max(rss, 1e-300) / k) + 2 * np.log(k))}
    out["selected"] = min((k for k in out if k != "selected"), key=lambda k: out[k]["bic"])
    return out


def superpoly_verdict(label: dict, ms, errors, seed: int, q: float = 4.0, window: int = 4,
                      param: str = "1/m", what: str = "l1 error") -> Verdict:
    """One error curve e(m): O(m^{-q}) on the largest-m window (engine big_o rule in x = 1/m), local log-log
    slopes keep steepening (super-polynomial), and the power-vs-exponential law comparison.  REFUTED only by the
    engine rule (CI of the window exponent entirely below q − margin, sub-windows agreeing); HOLDS needs the engine
    rule, the last local slope below −q and steepening; otherwise INCONCLUSIVE."""
    ms, errors = np.asarray(ms, float), np.asarray(errors, float)
    x, y = 1.0 / ms[-window:], errors[-window:]
    slopes = local_slopes(ms, errors)
    laws = law_comparison(ms, errors)
    tag = ", ".join(f"{k}={v:g}" if isinstance(v, (int, float)) else f"{k}={v}" for k, v in label.items())
    extra = {**label, "grid": ms.tolist(), "errors": errors.tolist(), "local_log_log_slopes": slopes.tolist(),
             "laws": laws}
    last = float(slopes[-1])
    half = len(ms) // 2
    lower = float(np.polyfit(np.log(ms[: half + 1]), np.log(errors[: half + 1]), 1)[0])
    upper = float(np.polyfit(np.log(ms[half:]), np.log(errors[half:]), 1)[0])
    steepening = upper < lower - 0.5          # the upper-half log-log slope is materially steeper
    extra["half-grid log-log slopes (lower, upper)"] = [lower, upper]
    v = check_rate(x, y, q, 0.15, seed, param=param, what=what, bound="big_o", extra=extra, constant="hidden")
    v = _plot_in_m(v, ms, errors, q, param)
    if v.status.value == "refuted":
        ce = {**label, **(v.counterexample or {}), "largest_window_slope": last, "q": q,
              "grid_window": ms[-window:].tolist(), "errors": y.tolist()}
        return refuted(v.method, f"{tag}: the largest-window exponent is excluded from O(m^-{q:g}) (last local slope "
                                 f"{last:.3g}); " + v.evidence, ce, **dict(v.details))
    if v.holds and steepening and last < -q:
        return holds(v.method, f"{tag}: last slope {last:.3g} < -{q:g}, slopes steepen (half-grid {lower:.2f} -> "
                               f"{upper:.2f}; last local {', '.join(f'{s:.1f}' for s in slopes[-3:])}); "
                               f"law selected: {laws['selected']}", **dict(v.details))
    return inconclusive(v.method, f"{tag}: " + v.evidence + f"; last local slope {last:.3g}; steepening={steepening}",
                        **dict(v.details))


def _plot_in_m(v: Verdict, ms, errors, q: float, param: str) -> Verdict:
    """Report plots: the whole curve against m (not 1/m) with the window fit's slope (sign flipped); the engine's
    window fit in 1/m stays under ``fit (engine, largest window in 1/m)``."""
    d = dict(v.details)
    fit = dict(d.get("fit") or {})
    name = param.split("/")[-1]
    d["fit (engine, largest window in 1/m)"] = fit
    lo, hi = fit.get("ci", [float("nan")] * 2)
    d["sweep"] = sweep_details(name, ms, errors)
    d["fit"] = {**fit, "exponent": -fit.get("exponent", float("nan")), "ci": [-hi, -lo], "predicted_exponent": -q,
                "law": f"error ≈ C·{name}^b on the largest-{name} window (b < -{q:g} required)"}
    return Verdict(v.status, v.method, v.evidence, v.counterexample, d)


def cached(claim: str, key: dict, fn):
    """``fn()`` through the results store (slow sweeps resume), keyed by the claim, the source closure of the module
    that defines ``fn`` (``tv.code_key``) and the configuration ``key``."""
    return tv.Store().get_or_compute({"claim": claim, "code": tv.code_key(fn), **key}, fn)
