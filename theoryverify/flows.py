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
