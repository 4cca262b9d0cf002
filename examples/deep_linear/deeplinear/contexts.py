"""Step contexts for ``python -m theoryverify.check``.

``deeplinear.mode``: one mode of the network with balanced initial conditions (Sec. 2.1).  Symbols: u (mode
strength), s (singular value), tau (time constant), t (time), u0 (initial strength), epsilon.  Definitions:
``udot`` — du/dt derived from the loss by ``model.symbolic.mode_reduction`` (not typed from the paper);
``u_t`` — the printed trajectory; ``t_learn`` — the printed learning time.

    python -m theoryverify.check --context deeplinear.mode "tau*diff(u_t, t) == 2*u_t*(s - u_t)"   # holds
    python -m theoryverify.check --context deeplinear.mode "tau*diff(u_t, t) == u_t*(s - u_t)"     # refuted
"""
from __future__ import annotations

import sympy as sp

import theoryverify as tv

from .printed import LEARNING_TIME, TRAJECTORY, eps, s, t, tau, u, u0


def _definitions() -> dict[str, sp.Expr]:
    from .model.symbolic import mode_reduction

    m = mode_reduction()
    a1, s1 = m.a[0], m.s[0]
    udot = sp.expand(m.tau_dM[0, 0].xreplace({s1: s}).subs(a1, sp.sqrt(u)) / tau)
    return {"udot": udot, "u_t": TRAJECTORY, "t_learn": LEARNING_TIME}


CONTEXTS = [tv.StepContext(
    name="deeplinear.mode",
    description="one mode of the two-layer linear network, balanced initial conditions (Sec. 2.1): u = a·b the "
                "mode strength, s its singular value, tau = 1/learning rate",
    variables=[tv.LogUniform(u, 1e-3, 10.0), tv.LogUniform(s, 0.1, 10.0), tv.LogUniform(tau, 0.5, 5.0),
               tv.Interval(t, 0.0, 5.0), tv.LogUniform(u0, 1e-4, 0.1), tv.LogUniform(eps, 1e-6, 1e-2)],
    definitions=_definitions,
    docs={"udot": "du/dt of one mode, derived from the loss ½‖Y − W32 W21 X‖² (model.symbolic.mode_reduction)",
          "u_t": "the printed trajectory u(t) = s e^{2st/τ} / (e^{2st/τ} − 1 + s/u0)",
          "t_learn": "the printed learning time (τ/s) ln(s/ε)"},
)]
