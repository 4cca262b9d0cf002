"""Plots for the report (matplotlib, Agg backend, deterministic PNG bytes), each readable on its own (issue 28,
item 4).

- rate claims (``details["sweep"]`` with its ``fit``): the measurement (the median over seeds, with the range
  over seeds as a band), the paper's law (its printed constant, or the best constant where Θ/O/Ω hides it), the
  fitted law, a derived law where the sweep records one (``sweep["derived"]``), and any threshold the claim is
  about (``sweep["thresholds"]``); the y axis is named by the quantity (the sweep's ``quantity``, else the fit's
  law, else the statement); power laws on log-log axes, laws in log x (a grid recorded as logs, ``scale``
  "log"/"log10", or a polynomial in a log) on a log-x axis with a linear y; the verdict in the title and the
  fit, span and seeds in the caption;
- trajectories (``details["trajectory"]`` = {"x", "series", "boundaries", "ylabel", "thresholds"}) with the phase
  boundaries dotted;
- reproductions (``details["curve"]`` = {"x", "y", "yerr", "label", "paper_points", "xlabel", "ylabel", "logx",
  "logy"}) with the paper's reported values overlaid.

Every figure draws the thresholds its row records (labelled lines) and the paper's reported values (stars): those in
its own record and the typed references (:class:`theoryverify.evidence_types.Threshold`, ``Reported``), collected
by :func:`theoryverify.evidence_types.references`.

Every text is made renderable by the bundled font (:func:`renderable`: a glyph it lacks, such as 𝓡, becomes
mathtext), tick labels never overlap (:func:`_thin_ticks`), and :func:`problems` reads a figure's objects and
names what a stand-alone figure lacks (an axis label, the law, the band over seeds) — the tests plant each.

Plotted values are rounded to 6 significant digits first (:func:`theoryverify.roundoff.stable`), so that
round-off in the last bits (another BLAS, another patch release) cannot move a pixel.
"""
from __future__ import annotations

import math
import re
import textwrap
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib import font_manager, ticker  # noqa: E402
from matplotlib.ft2font import FT2Font  # noqa: E402

from ..evidence_types import references  # noqa: E402
from ..roundoff import stable  # noqa: E402
from ..scaling import log_factor  # noqa: E402

PNG_METADATA = {"Software": None}  # no version string or timestamp in the file
#: the gid of each part of a rate figure, which :func:`problems` looks for
MEASURED, BAND, LAW, FIT, DERIVED, THRESHOLD, REPORTED = ("measured", "seed-band", "paper-law", "fit", "derived-law",
                                                         "threshold", "reported")
#: a y label that names no quantity
GENERIC_LABELS = frozenset({"", "measured", "y", "value", "values"})


def _save(fig, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=90, metadata=PNG_METADATA, bbox_inches="tight", pad_inches=0.08)
    plt.close(fig)


def _stable(values):
    """Values to plot, rounded so that round-off cannot show (non-numeric values, e.g. category labels,
    are returned as they are)."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        return values
    return np.vectorize(stable, otypes=[float])(arr) if arr.size else arr


@lru_cache(maxsize=1)
def _charmap() -> frozenset[int]:
    """The code points the default font renders."""
    path = font_manager.findfont(font_manager.FontProperties(family=matplotlib.rcParams["font.family"]))
    return frozenset(FT2Font(path).get_charmap())


_GREEK = {"ALPHA": "alpha", "BETA": "beta", "GAMMA": "gamma", "DELTA": "delta", "EPSILON": "epsilon", "ETA": "eta",
          "THETA": "theta", "LAMDA": "lambda", "MU": "mu", "PI": "pi", "SIGMA": "sigma", "TAU": "tau", "PHI": "phi",
          "PSI": "psi", "OMEGA": "omega"}


def _as_mathtext(ch: str) -> str:
    """A character the font lacks, as mathtext: script and calligraphic letters (𝓡, ℛ) as \\mathcal, other
    mathematical alphanumerics by their letter, Greek by name; else its Unicode name in words."""
    name = unicodedata.name(ch, "")
    m = re.fullmatch(r"(?:MATHEMATICAL )?(?:BOLD )?(SCRIPT|FRAKTUR|DOUBLE-STRUCK|ITALIC|BOLD|SANS-SERIF)?"
                     r"(?: ITALIC| BOLD)* (CAPITAL|SMALL) ([A-Z])", name)
    if m:
        letter = m.group(3) if m.group(2) == "CAPITAL" else m.group(3).lower()
        style = {"SCRIPT": "mathcal", "FRAKTUR": "mathfrak", "DOUBLE-STRUCK": "mathbb"}.get(m.group(1) or "")
        if style == "mathcal" and not letter.isupper():
            style = None
        return f"${{\\{style}{{{letter}}}}}$" if style else f"${letter}$"
    g = re.fullmatch(r"(?:MATHEMATICAL )?.*(CAPITAL|SMALL) ([A-Z]+)", name)
    if g and g.group(2) in _GREEK:
        word = _GREEK[g.group(2)]
        return f"$\\{word.capitalize() if g.group(1) == 'CAPITAL' and word != 'eta' else word}$"
    return f"[{name.lower() or hex(ord(ch))}]"


def renderable(text: Any) -> str:
    """``text`` as a label the figure renders whole: "$" escaped (no accidental mathtext), every character the
    font lacks replaced by mathtext (:func:`_as_mathtext`)."""
    chars = _charmap()
    out = []
    for ch in str(text):
        if ch == "$":
            out.append(r"\$")
        elif ord(ch) in chars or ch in "\n\t":
            out.append(ch)
        else:
            out.append(_as_mathtext(ch))
    return "".join(out)


def _thin_ticks(ax, fig) -> None:
    """Tick labels that do not overlap: no minor labels, and on an axis whose labels touch, every other major
    label dropped until none do (one layout pass when nothing overlaps).  The pass lays the figure out without
    rasterising it (``draw_without_rendering``: the same tick labels and text extents as a full draw, whose pixels
    savefig drew again anyway); the saved bytes are the same."""
    for axis in (ax.xaxis, ax.yaxis):
        if isinstance(axis.get_major_formatter(), ticker.LogFormatter):
            axis.set_minor_formatter(ticker.NullFormatter())
    for _ in range(4):
        fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
        crowded = [axis for axis in (ax.xaxis, ax.yaxis) if _overlapping(axis, renderer)]
        if not crowded:
            return
        for axis in crowded:
            axis.set_major_locator(ticker.FixedLocator(list(axis.get_majorticklocs())[::2]))


def _short_log_ticks(axis, lo: float, hi: float) -> None:
    """A log axis with one power of ten or none inside it (it spans under two decades): label 4 values inside it
    instead, with as few significant digits as tell them apart."""
    if lo <= 0 or hi <= lo or math.floor(math.log10(hi)) - math.ceil(math.log10(lo)) >= 1:
        return  # two powers of ten inside the axis label it
    raw = np.geomspace(lo, hi, 6)[1:-1]  # 4 values inside the axis
    for digits in range(2, 7):  # as few significant digits as tell them apart
        vals = sorted({float(f"{v:.{digits}g}") for v in raw})
        if len(vals) == len(raw):
            break
    axis.set_major_locator(ticker.FixedLocator(vals))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _pos, d=digits: _tick(v, d)))
    axis.set_minor_formatter(ticker.NullFormatter())


def _log_ticks(ax, axes: str = "xy") -> None:
    """Enough labelled ticks on each log axis of ``ax`` named in ``axes`` (:func:`_short_log_ticks`)."""
    for name, axis, which, lim in (("x", ax.xaxis, ax.get_xscale(), ax.get_xlim()),
                                   ("y", ax.yaxis, ax.get_yscale(), ax.get_ylim())):
        if which == "log" and name in axes:
            _short_log_ticks(axis, *lim)


def _tick(v: float, digits: int) -> str:
    """``v`` to ``digits`` significant digits, whole numbers below a million written out (33000, not 3.3e+04)."""
    r = float(f"{v:.{digits}g}")
    return str(int(r)) if 1 <= abs(r) < 1e6 and r == int(r) else f"{v:.{digits}g}"


def _overlapping(axis, renderer) -> bool:
    boxes = [t.get_window_extent(renderer) for t in axis.get_ticklabels() if t.get_visible() and t.get_text()]
    boxes.sort(key=lambda b: (b.x0, b.y0))
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


# --- rate figures -----------------------------------------------------------------------------------------------

def quantity(result: Mapping[str, Any], sweep: Mapping[str, Any], fit: Mapping[str, Any]) -> str:
    """The name of the measured quantity: the sweep's ``quantity``, else the left side of the fit's law
    ("T1 ≈ C·K^b" → "T1"), else the left side of the statement ("T_f^1 = Θ(…)" → "T_f^1"), else the claim's
    location ("the quantity of Lemma 4")."""
    if sweep.get("quantity"):
        return str(sweep["quantity"])
    lhs = str(fit.get("law") or "").split("≈")[0].strip()
    if lhs and lhs.lower() not in GENERIC_LABELS:
        return lhs
    stmt = str(result.get("statement") or "")
    m = re.match(r"\s*([^=≤≥<>]{1,40}?)\s*(?:=|≤|≥|<|>|\bis\b|\bscales\b|\bgrows\b)", stmt)
    if m and m.group(1).strip().lower() not in GENERIC_LABELS:
        return m.group(1).strip()
    return f"the quantity of {result.get('location') or result.get('id', 'the claim')}"


def _grid(sweep: Mapping[str, Any]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The grid x and, per point, its measured values (one per seed), finite only."""
    xs, per, _kept = _grid_kept(sweep)
    return xs, per


def _grid_kept(sweep: Mapping[str, Any]) -> tuple[np.ndarray, list[np.ndarray], list[int]]:
    xs, per, kept = [], [], []
    for i, (xv, yv) in enumerate(zip(sweep.get("x") or [], sweep.get("measured") or [])):
        if not (np.isscalar(xv) or np.ndim(xv) == 0):
            continue
        try:
            ys = np.atleast_1d(np.asarray(yv, dtype=float)).ravel()
        except (TypeError, ValueError):
            continue
        ys = ys[np.isfinite(ys)]
        if ys.size and math.isfinite(float(xv)):
            xs.append(float(xv))
            per.append(_stable(ys))
            kept.append(i)
    return _stable(np.asarray(xs, dtype=float)), per, kept


def _log_x(sweep: Mapping[str, Any], fit: Mapping[str, Any]) -> tuple[bool, str | None]:
    """Is the law logarithmic in the swept quantity (a log-x axis with a linear y)? And, when the grid holds
    logs (``scale``), the name of the quantity itself ("log(1/eps)" → "1/eps")."""
    scale = sweep.get("scale")
    if scale in ("log", "log10"):
        param = str(sweep.get("param") or "x")
        m = re.fullmatch(r"\s*(?:ln|log(?:10)?)\s*\((.*)\)\s*", param)
        return True, (m.group(1) if m else f"{'10' if scale == 'log10' else 'e'}^{param}")
    return fit.get("family") == "log", None


def _caption(result: Mapping[str, Any], sweep: Mapping[str, Any], fit: Mapping[str, Any], xs: np.ndarray,
             seeds: int, xname: str | None = None) -> str:
    parts = []
    if fit.get("exponent") is not None:
        ci = fit.get("ci") or [None, None]
        what = f"coefficient {fit.get('coefficient')}" if fit.get("family") == "polynomial" else "exponent b"
        law = f"{fit['law']}: " if fit.get("law") else ""
        parts.append(f"fit {law}{what} = {_num(fit['exponent'])} (CI [{_num(ci[0])}, {_num(ci[1])}]); the paper: "
                     f"{_num(fit.get('predicted_exponent'))}" + (f" ± {_num(fit['margin'])}" if fit.get("margin")
                                                                 is not None else ""))
    span = ""
    if xs.size > 1 and xs.min() > 0:
        span = f", {math.log10(xs.max() / xs.min()):.2f} decades"
    parts.append(f"grid: {xname or sweep.get('param') or 'x'} from {_num(xs.min())} to {_num(xs.max())} ({xs.size} points"
                 f"{span}); " + (f"band: range over {seeds} seeds, line: median" if seeds > 1 else
                                 "one value per point (no band)"))
    return "\n".join(textwrap.fill(p, 95) for p in parts)


def _num(v: Any) -> str:
    return "?" if v is None else f"{float(v):.4g}" if isinstance(v, (int, float)) else str(v)


def _title(result: Mapping[str, Any], path: str = "") -> str:
    where = result.get("location") or result.get("id", "")
    head = f"{where}: {result.get('status', '?')}"
    if path:
        head += f" ({path})"
    return textwrap.fill(head, 70)


def rate_figure(result: Mapping[str, Any], sweep: Mapping[str, Any] | None = None,
                fit: Mapping[str, Any] | None = None, path: str = ""):
    """The figure of one sweep (the result's own by default), or None when it has under two points."""
    details = result.get("details") or {}
    sweep = sweep if sweep is not None else details["sweep"]
    fit = fit if fit is not None else details.get("fit") or {}
    xs, per, kept = _grid_kept(sweep)
    if xs.size < 2:
        return None
    logx, real = _log_x(sweep, fit)
    scale = sweep.get("scale")
    shown_x = (np.exp(xs) if scale == "log" else 10.0 ** xs if scale == "log10" else xs)
    mid = np.array([float(np.median(y)) for y in per])
    lo, hi = np.array([float(y.min()) for y in per]), np.array([float(y.max()) for y in per])
    seeds = max(len(y) for y in per)
    polynomial = fit.get("family") == "polynomial"
    loglog = not (logx or polynomial) and shown_x.min() > 0 and lo.min() > 0
    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    order = np.argsort(shown_x)
    if seeds > 1:
        ax.fill_between(shown_x[order], lo[order], hi[order], alpha=0.25, color="C0", gid=BAND,
                        label=f"range over {seeds} seeds")
    ax.plot(shown_x[order], mid[order], "o", color="C0", gid=MEASURED,
            label="measured" + (" (median)" if seeds > 1 else ""))
    dense = (np.geomspace(shown_x.min(), shown_x.max(), 60) if shown_x.min() > 0
             else np.linspace(shown_x.min(), shown_x.max(), 60))
    law_drawn = _draw_laws(ax, sweep, fit, xs, shown_x, mid, dense, scale, loglog, kept)
    _draw_references(ax, details if sweep is details.get("sweep") else {"sweep": sweep}, "sweep")
    if loglog:
        ax.set_xscale("log")
        ax.set_yscale("log")
    elif logx and shown_x.min() > 0:
        ax.set_xscale("log")
    ax.set_xlabel(renderable(real or sweep.get("param") or "x"))
    ax.set_ylabel(renderable(quantity(result, sweep, fit)))
    ax.set_title(renderable(_title(result, path)), fontsize=9)
    ax.legend(fontsize=7)
    fig.text(0.01, -0.01, renderable(_caption(result, sweep, fit, shown_x, seeds, real)), fontsize=7, va="top",
             ha="left", transform=fig.transFigure)
    _log_ticks(ax)
    fig.tight_layout()
    _thin_ticks(ax, fig)
    fig._theoryverify_law = law_drawn  # what :func:`problems` may expect
    fig._theoryverify_kind = "sweep"
    return fig


def _draw_references(ax, details: Mapping[str, Any], figure: str) -> None:
    """The thresholds (a labelled horizontal line for a level, a vertical one for a time or size) and the paper's
    reported values (red stars, labelled with their source) that the row records for ``figure``."""
    ths, reps = references(details, figure)
    for i, t in enumerate(ths):  # told apart by colour and dash when there are several
        label = renderable(t.get("label") or f"threshold {_num(t['value'])}")
        line = ax.axvline if t.get("axis") == "x" else ax.axhline
        line(stable(t["value"]), color=("C3", "C6", "C8", "C9")[i % 4], linestyle=("-.", "--", ":", "-")[i % 4],
             linewidth=1.2, gid=THRESHOLD, label=label)
    for i, r in enumerate(reps):
        px, py = _stable([p[0] for p in r["points"]]), _stable([p[1] for p in r["points"]])
        src = f" ({r['source']})" if r.get("source") else ""
        ax.plot(px, py, "*", color="C3" if i == 0 else f"C{4 + i}", markersize=11, markeredgecolor="k",
                markeredgewidth=0.5, linestyle="none", gid=REPORTED, label=renderable(f"the paper's reported values{src}"),
                zorder=5)


#: what hides a constant, by the fit's bound ("Θ/O hides it" only where the statement is a Θ, O or Ω)
_HIDES = {"theta": "Θ", "big_o": "O", "omega": "Ω", None: "Θ/O"}


def _draw_laws(ax, sweep, fit, xs, shown_x, mid, dense, scale, loglog, kept) -> bool:
    """The paper's law (and the fit, and a derived law when recorded); True when the paper's law is drawn."""
    drawn = False
    order = np.argsort(shown_x)
    pred = sweep.get("predicted")
    b, p = fit.get("exponent"), fit.get("predicted_exponent")
    if fit.get("family") == "polynomial" and fit.get("coefficients"):
        coef = [float(c) for c in fit["coefficients"]]
        k = int(str(fit.get("coefficient", "a0"))[1:] or 0)
        grid = np.log(dense) if scale == "log" else np.log10(dense) if scale == "log10" else dense
        ax.plot(dense, _stable(np.polyval(coef[::-1], grid)), "-", color="C1", gid=FIT,
                label=f"fit: a{k} = {_num(coef[k])}")
        if p is not None:
            paper = list(coef)
            paper[k] = float(p)
            best = float(np.mean(mid - np.polyval(paper[::-1], xs)))  # the other coefficients' best constant
            ax.plot(dense, _stable(np.polyval(paper[::-1], grid) + best), "--", color="k", gid=LAW,
                    label=f"paper's law: a{k} = {_num(p)} (best offset)")
            drawn = True
    elif pred is not None and len(pred) == len(sweep.get("x") or []):
        pv = np.asarray([np.nan if v is None else float(v) for v in pred], dtype=float)[kept]
        ok = np.isfinite(pv) & (pv > 0) if loglog else np.isfinite(pv)
        if ok.sum() >= 2:
            # the claim tests the printed constant (exactly, or as the limit): draw that constant, never a fitted
            # one that would hide a refuted constant
            printed = (fit.get("constant") or {}).get("declared") in ("printed", "asymptotic")
            hidden = not printed and (fit.get("bound") in ("theta", "big_o", "omega") or fit.get("bound") is None)
            c = float(np.exp(np.mean(np.log(mid[ok] / pv[ok])))) if hidden and (mid[ok] > 0).all() \
                and (pv[ok] > 0).all() else 1.0
            label = (f"paper's law × {_num(c)} (best constant; {_HIDES.get(fit.get('bound'), 'Θ/O')} hides it)"
                     if c != 1.0 else "paper's law (its printed constant)" if printed else "paper's law")
            ax.plot(shown_x[ok][np.argsort(shown_x[ok])], _stable((c * pv[ok])[np.argsort(shown_x[ok])]), "--",
                    color="k", gid=LAW, label=label)
            drawn = True
            if b is not None and p is not None and fit.get("family") == "power" and (xs[ok] > 0).all():
                # the fitted family shares the law's log factor when it has one ("C·K^b·log(1/K)^1"), else C·x^b
                shape = (pv[ok] * xs[ok] ** (float(b) - float(p)) if "log(" in str(fit.get("law") or "")
                         else xs[ok] ** float(b))
                cf = float(np.exp(np.mean(np.log(mid[ok] / shape)))) if (mid[ok] > 0).all() else 1.0
                srt = np.argsort(shown_x[ok])
                ax.plot(shown_x[ok][srt], _stable((cf * shape)[srt]), "-", color="C1", gid=FIT,
                        label=f"fit: exponent {_num(b)}")
    elif b is not None and p is not None and fit.get("family") == "power" and (xs > 0).all() and (mid > 0).all():
        # the law's log factor log(1/x)^k, when it has one (x·log(1/x) is drawn as that, not as a pure power)
        k = float(fit.get("log_power") or 0.0)
        if k and not ((dense < 1).all() and (xs < 1).all()):
            k = 0.0  # log(1/x) ≤ 0 somewhere: the fit could not have used the factor there either
        shape = f"exponent {_num(p)}" + (log_factor(str(sweep.get("param") or "x"), k) if k else "")
        for exp_, style, gid, label in ((float(p), "--", LAW, f"paper's law: {shape} (best constant)"),
                                        (float(b), "-", FIT, f"fit: exponent {_num(b)}")):
            c = float(np.exp(np.mean(np.log(mid) - exp_ * np.log(xs) - k * np.log(np.log(1 / xs)) if k else
                                     np.log(mid) - exp_ * np.log(xs))))
            ax.plot(dense, _stable(c * dense ** exp_ * (np.log(1 / dense) ** k if k else 1.0)), style,
                    color="k" if gid == LAW else "C1", gid=gid, label=label)
        drawn = True
    derived = sweep.get("derived")
    if derived is not None and len(derived) == len(sweep.get("x") or []):
        dv = np.asarray([np.nan if v is None else float(v) for v in derived], dtype=float)[kept]
        ax.plot(shown_x[order], _stable(dv[order]), ":", color="C2", gid=DERIVED,
                label=renderable(sweep.get("derived_label") or "derived law"))
    return drawn


def expects_law(sweep: Mapping[str, Any], fit: Mapping[str, Any]) -> bool:
    """Does the sweep record a law to draw (predicted values, or a predicted exponent or coefficient)?"""
    return sweep.get("predicted") is not None or fit.get("predicted_exponent") is not None


def problems(fig, result: Mapping[str, Any] | None = None, sweep: Mapping[str, Any] | None = None) -> list[str]:
    """What a stand-alone figure lacks, read from its matplotlib objects: a named x and y axis (not "measured"),
    the measurement, the verdict in the title, tick labels that do not overlap, every threshold and every reported
    value the row records for this figure (:func:`theoryverify.evidence_types.references`); for a rate figure also
    the paper's law when the sweep records one, the band when there are several seeds, and a caption.  The
    figure's kind ("sweep", "trajectory", "curve") is the one its maker recorded (a rate figure otherwise)."""
    out = []
    ax = fig.axes[0]
    kind = getattr(fig, "_theoryverify_kind", "sweep")
    if ax.get_xlabel().strip().lower() in GENERIC_LABELS:
        out.append("x axis unnamed")
    if ax.get_ylabel().strip().lower() in GENERIC_LABELS:
        out.append("y axis not named by the quantity")
    gids = [a.get_gid() for a in [*ax.lines, *ax.collections]]
    if MEASURED not in gids:
        out.append("no measurement")
    details = dict((result or {}).get("details") or {})
    fit = details.get("fit") or {}
    if kind == "sweep":
        if sweep is not None and sweep is not details.get("sweep"):
            details = {"sweep": sweep}  # another sweep than the row's own: its own references only, as drawn
        sweep = details.get("sweep") or {}
        if sweep and expects_law(sweep, fit) and LAW not in gids:
            out.append("the paper's law is not drawn")
        if sweep:
            _, per = _grid(sweep)
            if per and max(len(y) for y in per) > 1 and BAND not in gids:
                out.append("no band over seeds")
        if not any(t.get_text().strip() for t in fig.texts):
            out.append("no caption")
    elif kind == "curve" and (details.get("curve") or {}).get("yerr") and BAND not in gids:
        out.append("no band over seeds")
    ths, reps = references(details, kind)
    if len(ths) > gids.count(THRESHOLD):
        out.append("a threshold the claim is about is not drawn")
    if len(reps) > gids.count(REPORTED):
        out.append("the paper's reported values are not drawn")
    if result and str(result.get("status", "")) not in ax.get_title():
        out.append("no verdict in the title")
    fig.draw_without_rendering()  # the layout a draw makes, without its pixels (as _thin_ticks)
    renderer = fig.canvas.get_renderer()
    if _overlapping(ax.xaxis, renderer) or _overlapping(ax.yaxis, renderer):
        out.append("tick labels overlap")
    return out


def rate_plot(result: Mapping[str, Any], path: Path) -> bool:
    fig = rate_figure(result)
    if fig is None:
        return False
    _save(fig, path)
    return True


# --- trajectories and reproductions -----------------------------------------------------------------------------

def trajectory_figure(result: Mapping[str, Any]):
    """A run's trajectories against time, the phase boundaries dotted, the row's thresholds and reported values."""
    details = result["details"]
    traj = details["trajectory"]
    x = _stable(traj["x"])
    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    names = sorted(traj["series"])
    for name in names:
        ax.plot(x, _stable(traj["series"][name]), label=renderable(name), gid=MEASURED)
    for b in traj.get("boundaries", []):
        ax.axvline(stable(b), color="k", linestyle=":", linewidth=1)
    _draw_references(ax, details, "trajectory")
    if traj.get("logy"):
        ax.set_yscale("log")
    ax.set_xlabel(renderable(traj.get("xlabel", "step")))
    ax.set_ylabel(renderable(traj.get("ylabel") or (names[0] if len(names) == 1 else ", ".join(names))))
    ax.set_title(renderable(_title(result)), fontsize=9)
    ax.legend(fontsize=7)
    if traj.get("boundaries"):
        fig.text(0.01, -0.01, renderable(traj.get("boundaries_label") or "dotted: phase boundaries detected in the run"),
                 fontsize=7, va="top")
    _log_ticks(ax)
    fig.tight_layout()
    _thin_ticks(ax, fig)
    fig._theoryverify_kind = "trajectory"
    return fig


def trajectory_plot(result: Mapping[str, Any], path: Path) -> bool:
    _save(trajectory_figure(result), path)
    return True


def curve_figure(result: Mapping[str, Any]):
    """A reproduction's measured curve (a band where it records a spread ``yerr``), the paper's reported values
    over it, and the thresholds its criterion is about; the legend below the axes."""
    details = result["details"]
    curve = details["curve"]
    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    x, y = _stable(curve["x"]), _stable(curve["y"])
    if curve.get("yerr") is not None and len(curve["yerr"]) == len(curve["y"]):
        err = _stable(curve["yerr"])
        ax.fill_between(x, np.asarray(y) - err, np.asarray(y) + err, alpha=0.25, color="C0", gid=BAND,
                        label=renderable(curve.get("yerr_label") or "± one standard deviation over seeds"))
    ax.plot(x, y, "o-", markersize=6 if len(x) <= 20 else 2.5, gid=MEASURED,
            label=renderable(curve.get("label", "this reproduction")))
    _draw_references(ax, details, "curve")
    ax.set_xlabel(renderable(curve.get("xlabel", "x")))
    ax.set_ylabel(renderable(curve.get("ylabel") or quantity(result, {}, {})))
    if curve.get("logx"):
        ax.set_xscale("log")
        if 2 <= len(x) <= 10 and min(x) > 0:  # few grid points: label each one
            ax.xaxis.set_major_locator(ticker.FixedLocator(list(x)))
            ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _pos: _tick(v, 3)))
            ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    if curve.get("logy"):
        ax.set_yscale("log")
    ax.set_title(renderable(_title(result)), fontsize=9)
    # below the axes: inside, it could hide a reported value
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False)
    _log_ticks(ax, "y" if curve.get("logx") and 2 <= len(x) <= 10 and min(x) > 0 else "xy")
    fig.tight_layout()
    _thin_ticks(ax, fig)
    fig._theoryverify_kind = "curve"
    return fig


def curve_plot(result: Mapping[str, Any], path: Path) -> bool:
    _save(curve_figure(result), path)
    return True


def _parts(result: Mapping[str, Any], depth: int = 0) -> list[tuple[str, dict[str, Any]]]:
    """The parts of a combined verdict (``tv.combine``: details name → a part's verdict) as (label, result-like
    row), nested parts labelled "outer › inner"; a row whose details are not parts gives none."""
    details = result.get("details") or {}
    if depth > 4 or not details or any(k in details for k in ("sweep", "trajectory", "curve")):
        return []
    out = []
    for label, part in details.items():
        if isinstance(part, Mapping) and "status" in part and isinstance(part.get("details"), Mapping):
            row = {**result, "status": part["status"], "evidence": part.get("evidence"),
                   "details": part["details"], "location": f"{result.get('location') or result.get('id')} [{label}]"}
            out.append((str(label), row))
            out += [(f"{label} › {inner}", r) for inner, r in _parts(row, depth + 1)]
    return out


#: which part of a combined verdict is drawn: the one that decides it (the first refuted part, else the first in
#: error, else inconclusive, else the first part)
_DECIDES = {"refuted": 0, "error": 1, "inconclusive": 2}


def plots_for(result: Mapping[str, Any], folder: Path) -> list[Path]:
    """Every plot this result's details support, written under ``folder``.  A combined verdict (a claim checked as
    ``tv.combine({...})``, whose details are its parts) gets one figure per distinct sweep — per swept parameter
    (a claim swept over ε and over the gap gets both), and per trajectory or curve kind — each the figure of the
    part that decides it among the parts of that sweep (:data:`_DECIDES`; the same sweep repeated per setting is
    drawn once), the deciding one first; named ``<id>_<part>_<kind>.png`` with the part's label spelled out
    (``over-epsilon`` for "over ε")."""
    stem = result["id"].replace(".", "_")
    made = _plots_of(result, folder, stem)
    drawable = [(label, row) for label, row in _parts(result)
                if any((row.get("details") or {}).get(k) for k in ("sweep", "trajectory", "curve"))]
    if made or not drawable:
        return made
    groups: dict[tuple, list[tuple[str, dict[str, Any]]]] = {}
    for label, row in drawable:
        groups.setdefault(_sweep_key(row), []).append((label, row))
    chosen = [min(g, key=lambda part: _DECIDES.get(str(part[1].get("status")), 3)) for g in groups.values()]
    chosen.sort(key=lambda part: _DECIDES.get(str(part[1].get("status")), 3))  # stable: the deciding one first
    out: list[Path] = []
    for label, row in chosen:
        out += _plots_of(row, folder, f"{stem}_{part_slug(label)}")
    return out


def _sweep_key(row: Mapping[str, Any]) -> tuple:
    """What makes two parts' figures the same figure: the kinds they draw and, for a sweep, its parameter."""
    details = row.get("details") or {}
    kinds = tuple(k for k in ("sweep", "trajectory", "curve") if details.get(k))
    sweep = details.get("sweep")
    return kinds + ((str(sweep.get("param")),) if isinstance(sweep, Mapping) else ())


def part_slug(label: str) -> str:
    """A part's label as a file name: ASCII, each Greek letter spelled out ("over ε" → "over-epsilon"), at most
    40 characters."""
    spelled = []
    for ch in label:
        if ch.isascii():
            spelled.append(ch)
            continue
        name = unicodedata.name(ch, "")
        letter = name.split()[-1].lower().replace("lamda", "lambda") if name.startswith("GREEK") else ""
        spelled.append(f" {letter} ")
    return re.sub(r"[^A-Za-z0-9]+", "-", "".join(spelled)).strip("-")[:40] or "part"


def _plots_of(result: Mapping[str, Any], folder: Path, stem: str) -> list[Path]:
    details = result.get("details") or {}
    made = []
    for key, fn in (("sweep", rate_plot), ("trajectory", trajectory_plot), ("curve", curve_plot)):
        if details.get(key):
            path = folder / f"{stem}_{key}.png"
            try:
                if fn(result, path):
                    made.append(path)
            except (KeyError, TypeError, ValueError, IndexError):
                plt.close("all")
                continue  # malformed plot data: the table still shows the numbers
    return made
