"""Gradient flow ẋ = −∇f(x) with ``scipy.integrate.solve_ivp`` and hitting-time events.

Where a paper states a flow (or a GD result in the small-step limit), the flow is integrated
with an adaptive solver and each threshold is an event function g(x) whose zero crossing is
located by the solver; the hitting time is the first crossing (``None`` if not reached).  A GD
run with step η corresponds to flow time t ≈ k·η.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np
from scipy.integrate import solve_ivp

Vector = np.ndarray


@dataclass
class FlowResult:
    t: np.ndarray  # [K] times
    x: np.ndarray  # [K, dim] states
    hits: dict[str, float | None]  # first crossing time per event
    success: bool
    message: str


def below(fn: Callable[[Vector], float], level: float) -> Callable[[float, Vector], float]:
    """Event 'fn(x) < level' (crossing from above)."""
    ev = lambda t, x: fn(x) - level  # noqa: E731
    ev.direction = -1
    return ev


def above(fn: Callable[[Vector], float], level: float) -> Callable[[float, Vector], float]:
    """Event 'fn(x) > level' (crossing from below)."""
    ev = lambda t, x: fn(x) - level  # noqa: E731
    ev.direction = 1
    return ev


def gradient_flow(grad: Callable[[Vector], Vector], x0: Sequence[float], t_end: float, *,
                  events: Mapping[str, Callable[[float, Vector], float]] | None = None,
                  stop_at: str | None = None, method: str = "LSODA", rtol: float = 1e-10,
                  atol: float = 1e-12, t_eval: Sequence[float] | None = None) -> FlowResult:
    """Integrate ẋ = −grad(x) on [0, t_end].  ``stop_at``: the event that ends the integration.

    Events already satisfied at t = 0 get hitting time 0 (solve_ivp only reports crossings)."""
    events = dict(events or {})
    names = list(events)
    fns = []
    for name in names:
        ev = events[name]
        f = (lambda ev: lambda t, x: ev(t, x))(ev)
        f.direction = getattr(ev, "direction", 0)
        f.terminal = name == stop_at
        fns.append(f)
    x0 = np.asarray(x0, dtype=float)
    sol = solve_ivp(lambda t, x: -np.asarray(grad(x), dtype=float), (0.0, float(t_end)), x0, method=method,
                    rtol=rtol, atol=atol, events=fns or None, t_eval=t_eval, dense_output=False)
    hits: dict[str, float | None] = {}
    for i, name in enumerate(names):
        g0 = events[name](0.0, x0)
        d = getattr(events[name], "direction", 0)
        if (d < 0 and g0 < 0) or (d > 0 and g0 > 0):
            hits[name] = 0.0
        else:
            te = sol.t_events[i] if sol.t_events is not None else []
            hits[name] = float(te[0]) if len(te) else None
    return FlowResult(sol.t, sol.y.T, hits, bool(sol.success), sol.message)


# --------------------------------------------------------------------------- "this flow converges to X"


def _norm(v: np.ndarray) -> float:
    return float(np.linalg.norm(v))


def fit_rate(t: np.ndarray, distance: np.ndarray, *, floor: float, min_points: int = 8) -> dict | None:
    """The exponential rate λ in distance ≈ C·e^(−λt), fitted by least squares to log distance over the tail:
    the later half (in time) of the points whose distance is above ``floor`` (below it the solver's tolerance,
    not the flow, sets the distance).  ``None`` with fewer than ``min_points`` usable points."""
    from scipy.stats import linregress

    keep = np.flatnonzero(np.isfinite(distance) & (distance > floor))
    if keep.size < 2 * min_points:
        keep = keep[-min_points:] if keep.size >= min_points else keep
    else:
        keep = keep[keep.size // 2:]
    if keep.size < min_points or np.ptp(t[keep]) <= 0:
        return None
    fit = linregress(t[keep], np.log(distance[keep]))
    return {"rate": float(-fit.slope), "stderr": float(fit.stderr), "r2": float(fit.rvalue**2),
            "t_from": float(t[keep[0]]), "t_to": float(t[keep[-1]]), "points": int(keep.size),
            "distance_from": float(distance[keep[0]]), "distance_to": float(distance[keep[-1]])}


def check_flow_converges(rhs: Callable[[float, Vector], Vector], y0: Sequence[float], target: Sequence[float], *,
                         t_max: float, tol: float, rate: float | None = None, rate_rtol: float = 0.1,
                         settle_tol: float | None = None, tail: float = 0.1, n_eval: int = 801,
                         method: str = "LSODA", rtol: float = 1e-10, atol: float = 1e-12,
                         what: str = "flow"):
    """Decide "the flow ẏ = rhs(t, y) from ``y0`` converges to ``target``" (and, with ``rate``, "at the
    exponential rate λ = rate": distance ≈ C·e^(−λt)).

    The flow is integrated on [0, t_max] with ``scipy.integrate.solve_ivp`` (``method``, ``rtol``, ``atol``);
    the Euclidean distance to the target is recorded on ``n_eval`` evenly spaced times, the first time it falls
    within ``tol`` is located by an event, and the rate is fitted to the log distance over the tail
    (:func:`fit_rate`).  The distance curve's diagnostics (:func:`theoryverify.convergence.diagnose`, with the
    last ``tail`` fraction of the run as its window and ``settle_tol`` — default ``tol`` — as its plateau
    tolerance) travel in ``details["convergence"]``.

    - ``holds``: the final distance is ≤ tol and the distance stayed settled over the tail window (and, when a
      rate is claimed, the fitted rate is within ``rate_rtol`` (relative) of it);
    - ``refuted``: the trajectory settles — over the tail window the state moved by ≤ settle_tol and its speed
      |rhs| is ≤ settle_tol / t_max — at a point farther than tol + settle_tol from the target (the
      counterexample is that point and its distance); or a claimed rate is off by more than ``rate_rtol``
      (with the fitted rate, its standard error and the fitted stretch);
    - ``inconclusive``: still moving at t_max, or the rate cannot be fitted (too few points above the solver's
      accuracy floor; raise ``t_max``/``n_eval`` or lower ``atol``);
    - ``error``: bad input or a right-hand side that raised (one line)."""
    from .convergence import diagnose
    from .verdicts import error, holds, inconclusive, refuted

    name = "flow convergence: solve_ivp " + method
    try:
        y0 = np.asarray(y0, dtype=float).reshape(-1)
        goal = np.asarray(target, dtype=float).reshape(-1)
        if y0.shape != goal.shape:
            raise ValueError(f"y0 has {y0.size} coordinates but the target has {goal.size}")
        if not (np.all(np.isfinite(y0)) and np.all(np.isfinite(goal))):
            raise ValueError("y0 and the target must be finite")
        if not (t_max > 0 and tol > 0 and 0 < tail <= 0.5 and int(n_eval) >= 20):
            raise ValueError("need t_max > 0, tol > 0, 0 < tail ≤ 0.5 and n_eval ≥ 20")
        if rate is not None and not (rate > 0 and rate_rtol > 0):
            raise ValueError("a claimed rate and its rate_rtol must be positive")
        first = np.asarray(rhs(0.0, y0), dtype=float).reshape(-1)
        if first.shape != y0.shape:
            raise ValueError(f"rhs returns {first.size} values for a state of {y0.size}")
    except Exception as exc:  # bad input or a broken right-hand side: one line, no traceback
        return error(name, f"{type(exc).__name__}: {exc}" if not isinstance(exc, ValueError) else str(exc))
    settle = tol if settle_tol is None else float(settle_tol)
    rate = None if rate is None else float(rate)

    def f(t, y):
        return np.asarray(rhs(t, y), dtype=float).reshape(-1)

    within = lambda t, y: _norm(y - goal) - tol  # noqa: E731
    within.direction = -1
    times = np.linspace(0.0, float(t_max), int(n_eval))
    try:
        sol = solve_ivp(f, (0.0, float(t_max)), y0, method=method, rtol=rtol, atol=atol, t_eval=times,
                        events=[within])
    except Exception as exc:  # the right-hand side raised mid-run
        return error(name, f"the right-hand side raised {type(exc).__name__}: {exc}")
    if not sol.success or sol.y.shape[1] != times.size or not np.all(np.isfinite(sol.y)):
        return inconclusive(name, f"integration did not reach t_max = {t_max:g}: {sol.message}",
                            t_reached=float(sol.t[-1]) if sol.t.size else 0.0)
    ys = sol.y.T
    dist = np.linalg.norm(ys - goal, axis=1)
    final, y_end = float(dist[-1]), ys[-1]
    d0 = float(dist[0])
    hit = 0.0 if d0 <= tol else (float(sol.t_events[0][0]) if len(sol.t_events[0]) else None)
    k = max(2, int(np.ceil(tail * times.size)))
    moved = float(np.max(np.linalg.norm(ys[-k:] - y_end, axis=1)))
    speed = _norm(f(float(t_max), y_end))
    conv = diagnose(dist, optimum=0.0, tol=tol, window=k / times.size, plateau_tol=settle, steps=times)
    # below this the solver's tolerances, not the flow, set the distance
    floor = max(1e3 * atol, 100 * rtol * max(1.0, _norm(goal), _norm(y0)), 1e-12 * d0)
    fitted = fit_rate(times, dist, floor=floor)
    numbers = dict(final_distance=final, tol=tol, time_to_tol=hit, t_max=float(t_max), initial_distance=d0,
                   tail_movement=moved, final_speed=speed, settle_tol=settle, fitted_rate=fitted,
                   claimed_rate=rate, rate_rtol=rate_rtol if rate is not None else None,
                   final_state=y_end.tolist(), target=goal.tolist(), convergence=conv)
    rate_text = (f"; fitted rate {fitted['rate']:.4g} ± {fitted['stderr']:.2g} over t ∈ [{fitted['t_from']:.3g}, "
                 f"{fitted['t_to']:.3g}]" if fitted else "")
    reach = f"within tol at t = {hit:.4g}" if hit is not None else "never within tol"
    if final <= tol and conv["converged"]:
        if rate is not None:
            if fitted is None:
                return inconclusive(name, f"{what} converges ({reach}, final distance {final:.3g}) but the rate "
                                    f"cannot be fitted: too few points above the accuracy floor {floor:.2g}",
                                    **numbers)
            off = abs(fitted["rate"] - rate) / rate
            if off > rate_rtol:
                return refuted(name + " + log-distance fit",
                               f"{what} converges to the target but at rate {fitted['rate']:.4g}, not the claimed "
                               f"{rate:.4g} (relative difference {off:.3g} > {rate_rtol:g}; fit over t ∈ "
                               f"[{fitted['t_from']:.3g}, {fitted['t_to']:.3g}], r² = {fitted['r2']:.4f})",
                               {"claimed_rate": rate, "fitted_rate": fitted["rate"], "stderr": fitted["stderr"],
                                "fit_t": [fitted["t_from"], fitted["t_to"]], "y0": y0.tolist()}, **numbers)
        return holds(name, f"{what} converges to the target: final distance {final:.3g} ≤ tol {tol:g} at t_max = "
                     f"{t_max:g}, {reach}{rate_text}"
                     + (f" (claimed {rate:.4g}, within {rate_rtol:g})" if rate is not None else ""), **numbers)
    settled = moved <= settle and speed <= settle / float(t_max)
    if settled and final > tol + settle:
        return refuted(name, f"{what} settles at a point {final:.4g} from the target (> tol {tol:g}): over the last "
                       f"{tail:.0%} of [0, {t_max:g}] the state moved by {moved:.2g} and its speed is {speed:.2g}",
                       {"settles_at": y_end.tolist(), "target": goal.tolist(), "distance": final, "t_max": float(t_max),
                        "y0": y0.tolist()}, **numbers)
    return inconclusive(name, f"{what} still moving at t_max = {t_max:g}: distance {final:.4g} to the target "
                        f"(tol {tol:g}), the state moved by {moved:.2g} over the last {tail:.0%}, speed {speed:.2g}; "
                        "integrate longer", **numbers)
