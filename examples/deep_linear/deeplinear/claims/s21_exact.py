"""Sec. 2.1 — exact solutions from special (balanced) initial conditions: the printed trajectory solves the
printed mode ODE, and the printed travel time is its inverse."""
from __future__ import annotations

import sympy as sp

import theoryverify as tv

from ..printed import MODE_ODE_RHS, TRAJECTORY, TRAVEL_TIME, s, t, tau, u, u0, uf

CLAIMS = tv.ClaimSet("deeplinear")

#: where the identities are checked: any singular value, time constant and horizon; u0 below s
DOMAIN = tv.Domain([tv.LogUniform(s, 0.2, 10.0), tv.LogUniform(tau, 0.5, 5.0), tv.Interval(t, 0.0, 5.0),
                    tv.LogUniform(u0, 1e-4, 0.1)])


@CLAIMS.add("trajectory", location="Sec. 2.1, trajectory u(t) = s e^{2st/τ} / (e^{2st/τ} − 1 + s/u0)",
            statement="The printed u(t) solves the printed mode ODE τ du/dt = 2u(s − u) with u(0) = u0",
            kind=tv.Kind.IDENTITY)
def trajectory(ctx):
    lhs = [tau * sp.diff(TRAJECTORY, t), TRAJECTORY.subs(t, 0)]
    rhs = [MODE_ODE_RHS.subs(u, TRAJECTORY), u0]
    return tv.check_identity(lhs, rhs, DOMAIN, ctx.seed)


@CLAIMS.add("travel-time", location="Sec. 2.1, travel time t = (τ/2s) ln[uf(s − u0) / (u0(s − uf))]",
            statement="The printed time to travel from u0 to uf, evaluated at uf = u(t) of the printed "
                      "trajectory, returns t (the two displays are inverse to each other)",
            kind=tv.Kind.IDENTITY)
def travel_time(ctx):
    return tv.check_identity(TRAVEL_TIME.subs(uf, TRAJECTORY), t, DOMAIN, ctx.seed)
