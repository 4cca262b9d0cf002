"""Convergence diagnostics: a run that claims to converge must show it.

:func:`diagnose` turns a loss curve (and, when known, the derived optimum and the final gradient norm) into
the diagnostics every convergence claim reports; :func:`check_converged` is the check.  A verdict whose
details carry ``details["convergence"]`` with ``converged: False`` cannot pass: the engine makes it
inconclusive (:func:`theoryverify.standards.apply_convergence`), whatever the claim's own check said.

Converged means all of:
- the distance from the final loss to the derived optimum is within ``tol`` (when the optimum is known);
- the final gradient norm is within ``grad_tol`` (when given);
- over the last ``window`` fraction of the curve the loss moved by at most ``plateau_tol`` (relative), so
  the run is not still descending.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .verdicts import Verdict, holds, inconclusive


def diagnose(losses: Sequence[float], *, optimum: float | None = None, tol: float = 1e-3,
             grad_norm: float | None = None, grad_tol: float | None = None, window: float = 0.1,
             plateau_tol: float = 1e-3, steps: Sequence[float] | None = None) -> dict[str, Any]:
    """Diagnostics of one run (JSON-ready): ``converged`` and the numbers behind it."""
    loss = np.asarray(losses, dtype=float)
    if loss.ndim != 1 or loss.size < 2:
        raise ValueError("diagnose needs a 1-D loss curve with >= 2 points")
    if not 0 < window <= 1:
        raise ValueError("window must be in (0, 1]")
    t = np.arange(loss.size, dtype=float) if steps is None else np.asarray(steps, dtype=float)
    k = max(2, int(np.ceil(window * loss.size)))
    tail = loss[-k:]
    final = float(loss[-1])
    finite = bool(np.all(np.isfinite(loss)))
    scale = max(1.0, abs(final))
    tail_change = float((np.max(tail) - np.min(tail)) / scale) if finite else float("inf")
    reasons = []
    if not finite:
        reasons.append("non-finite loss")
    distance = None if optimum is None else abs(final - float(optimum))
    if distance is not None and not distance <= tol:
        reasons.append(f"final loss {final:.6g} is {distance:.3g} from the optimum {float(optimum):.6g} (> tol {tol:g})")
    if grad_norm is not None and grad_tol is not None and not grad_norm <= grad_tol:
        reasons.append(f"gradient norm {grad_norm:.3g} > {grad_tol:g}")
    if not tail_change <= plateau_tol:
        reasons.append(f"loss still moving over the last {k} points (relative change {tail_change:.3g} > "
                       f"{plateau_tol:g})")
    converged = not reasons
    parts = [f"final loss {final:.6g}"]
    if distance is not None:
        parts.append(f"distance to optimum {distance:.3g} (tol {tol:g})")
    if grad_norm is not None:
        parts.append(f"gradient norm {grad_norm:.3g}" + (f" (tol {grad_tol:g})" if grad_tol is not None else ""))
    parts.append(f"last {k} points move by {tail_change:.3g} (relative)")
    summary = "; ".join(reasons) if reasons else "; ".join(parts)
    return {"converged": converged, "final_loss": final, "optimum": None if optimum is None else float(optimum),
            "distance": distance, "tol": tol, "grad_norm": grad_norm, "grad_tol": grad_tol,
            "tail_relative_change": tail_change, "plateau_tol": plateau_tol, "window_points": k,
            "last_stretch": {"t": t[-k:][:: max(1, k // 20)].tolist(), "loss": tail[:: max(1, k // 20)].tolist()},
            "summary": summary}


def check_converged(losses: Sequence[float], *, what: str = "run", **kw: Any) -> Verdict:
    """Holds iff :func:`diagnose` says converged; else inconclusive with the diagnostics (never a pass)."""
    d = diagnose(losses, **kw)
    if d["converged"]:
        return holds("convergence diagnostics", f"{what} converged: {d['summary']}", convergence=d)
    return inconclusive("convergence diagnostics", f"{what} has not converged: {d['summary']}", convergence=d)
