"""Plots for the report (matplotlib, Agg backend, deterministic PNG bytes).

- rate claims: log-log measured vs swept parameter, the fit and the predicted slope beside it;
- trajectories (details["trajectory"] = {"x": steps, "series": {name: values}, "boundaries": [...]})
  with detected phase boundaries marked;
- reproductions (details["curve"] = {"x", "y", "label", "paper_points": [[x, y], ...]}).

Plotted values are rounded to 6 significant digits first (:func:`theoryverify.roundoff.stable`), so that
round-off in the last bits (another BLAS, another patch release) cannot move a pixel.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..roundoff import stable  # noqa: E402

PNG_METADATA = {"Software": None}  # no version string or timestamp in the file


def _save(fig, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=90, metadata=PNG_METADATA)
    plt.close(fig)


def _stable(values):
    """Values to plot, rounded so that round-off cannot show (non-numeric values, e.g. category labels,
    are returned as they are)."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        return values
    return np.vectorize(stable, otypes=[float])(arr) if arr.size else arr


def _points(xs, ys) -> tuple[np.ndarray, np.ndarray]:
    """Flatten a sweep to (x, y) pairs: ``measured`` may hold one value or a list of per-seed
    values for each grid point; keeps positive finite pairs (log-log axes)."""
    px, py = [], []
    for xv, yv in zip(xs, ys):
        for y1 in np.atleast_1d(np.asarray(yv, dtype=float)).ravel():
            px.append(float(xv) if np.isscalar(xv) or np.ndim(xv) == 0 else np.nan)
            py.append(y1)
    x, y = _stable(px), _stable(py)
    ok = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    return x[ok], y[ok]


def rate_plot(result: Mapping[str, Any], path: Path) -> bool:
    sweep = result["details"]["sweep"]
    fit = result["details"].get("fit") or {}
    x, y = _points(sweep.get("x", []), sweep.get("measured", []))
    if x.size < 2:
        return False
    fig, ax = plt.subplots(figsize=(5.2, 3.6))
    ax.loglog(x, y, "o", label="measured", alpha=0.7)
    xs = np.geomspace(x.min(), x.max(), 50)
    b = fit.get("exponent")
    b = None if b is None else stable(b, 4)
    if b is not None:
        c = np.exp(np.mean(np.log(y) - b * np.log(x)))
        ax.loglog(xs, c * xs**b, "-", label=f"fit: slope {b:.3g}")
    p = fit.get("predicted_exponent")
    if p is not None:
        c = np.exp(np.mean(np.log(y) - p * np.log(x)))
        ax.loglog(xs, c * xs**p, "--", label=f"predicted slope {p:.3g}")
    ax.set_xlabel(str(sweep.get("param", "x")))
    ax.set_ylabel("measured")
    ax.set_title(result["id"], fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    _save(fig, path)
    return True


def trajectory_plot(result: Mapping[str, Any], path: Path) -> bool:
    traj = result["details"]["trajectory"]
    x = _stable(traj["x"])
    fig, ax = plt.subplots(figsize=(5.2, 3.6))
    for name, ys in sorted(traj["series"].items()):
        ax.plot(x, _stable(ys), label=name)
    for b in traj.get("boundaries", []):
        ax.axvline(stable(b), color="k", linestyle=":", linewidth=1)
    ax.set_xlabel(traj.get("xlabel", "step"))
    ax.set_title(result["id"], fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    _save(fig, path)
    return True


def curve_plot(result: Mapping[str, Any], path: Path) -> bool:
    curve = result["details"]["curve"]
    fig, ax = plt.subplots(figsize=(5.2, 3.6))
    ax.plot(_stable(curve["x"]), _stable(curve["y"]), "o-", label=curve.get("label", "ours"))
    pts = curve.get("paper_points") or []
    if pts:
        px, py = _stable([p[0] for p in pts]), _stable([p[1] for p in pts])
        ax.plot(px, py, "r*", markersize=10, label="paper's stated values")
    ax.set_xlabel(curve.get("xlabel", "x"))
    ax.set_ylabel(curve.get("ylabel", "y"))
    if curve.get("logx"):
        ax.set_xscale("log")
    ax.set_title(result["id"], fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    _save(fig, path)
    return True


def plots_for(result: Mapping[str, Any], folder: Path) -> list[Path]:
    """Every plot this result's details support, written under ``folder``."""
    details = result.get("details") or {}
    stem = result["id"].replace(".", "_")
    made = []
    for key, fn in (("sweep", rate_plot), ("trajectory", trajectory_plot), ("curve", curve_plot)):
        if details.get(key):
            path = folder / f"{stem}_{key}.png"
            try:
                if fn(result, path):
                    made.append(path)
            except (KeyError, TypeError, ValueError, IndexError):
                continue  # malformed plot data: the table still shows the numbers
    return made
