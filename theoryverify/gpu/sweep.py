"""What a paper writes for a GPU sweep: :class:`GpuSweep` (registered in ``experiments/gpu.py`` as
``SWEEPS``), the :class:`GpuContext` its ``run`` receives, and the :class:`GpuResult` it returns.

A sweep extends one claim's phase-duration or scaling verdict beyond the range a CPU reaches.  It chooses its
sizes from a throughput it measures on the device (``ctx.timed``) so that it fits ``ctx.budget_s``, runs in
float64 unless it shows float32 agrees (``ctx.compare_dtypes``), times one configuration on the device and
on the CPU (``ctx.speed``), and states its decision rule in ``GpuResult.reason``.
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any, Callable, Mapping

import numpy as np

VERDICTS = ("holds", "refuted", "inconclusive")


#: the keys of :attr:`GpuSweep.figure`
FIGURE_KEYS = ("law_column", "law_constant", "derived_column")


@dataclass(frozen=True)
class GpuSweep:
    """One sweep: ``run(ctx) -> GpuResult``; ``claim`` is the id whose verdict it extends."""

    name: str
    claim: str
    location: str
    title: str
    run: Callable[["GpuContext"], "GpuResult"]
    #: how the figure draws the rows (declared with the sweep, so a report rebuilt from an older run's JSON draws
    #: it the same way): "law_column", the row key of the paper's law (default "predicted"); "law_constant",
    #: "best" to scale it by the best constant where Θ/O hides it (default: as recorded); "derived_column", the
    #: row key of a derived law drawn beside it
    figure: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.figure) - set(FIGURE_KEYS)
        if unknown:
            raise ValueError(f"GpuSweep.figure: unknown keys {sorted(unknown)} (known: {', '.join(FIGURE_KEYS)})")
        if self.figure.get("law_constant") not in (None, "best"):
            raise ValueError(f"GpuSweep.figure: law_constant must be 'best' or absent, got {self.figure['law_constant']!r}")


@dataclass
class GpuResult:
    """What a sweep found (plain JSON-able values; ``fit`` may be a scaling.Fit, stored as a dict)."""

    law: str
    x_name: str
    y_name: str
    rows: list[dict]
    verdict: str
    reason: str
    predicted_exponent: float | None = None
    fit: Any = None
    span_decades: float | None = None
    cpu: dict = field(default_factory=dict)
    agrees_with_cpu: bool | None = None
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"GpuResult.verdict must be one of {VERDICTS}, got {self.verdict!r}")

    def as_dict(self) -> dict:
        out = asdict(self)
        if is_dataclass(self.fit):
            out["fit"] = _fit_dict(self.fit)
        return _plain(out)


def _fit_dict(fit: Any) -> dict:
    d = asdict(fit)
    d["prefactor"] = getattr(fit, "prefactor", None)
    return d


def _plain(x: Any) -> Any:
    """numpy scalars/arrays and tuples -> JSON values; non-finite floats -> None."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return _plain(x.tolist())
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return x if math.isfinite(x) else None
    return x


class GpuContext:
    """What ``run`` receives: device, dtype, seed, budget, and timing helpers whose results are recorded."""

    def __init__(self, device: str, seed: int, budget_s: float, dry_run: bool, hardware: Any = None,
                 log: Callable[[str], None] | None = None) -> None:
        import torch

        self.device = device
        self.dtype = torch.float64
        self.seed = int(seed)
        self.budget_s = float(budget_s)
        self.dry_run = bool(dry_run)
        self.hardware = hardware
        self._t0 = time.perf_counter()
        self._log = log or (lambda msg: None)
        self.speeds: list[dict] = []
        self.precisions: list[dict] = []
        self.messages: list[str] = []

    # --- time -----------------------------------------------------------------------------
    def elapsed(self) -> float:
        return time.perf_counter() - self._t0

    def remaining(self) -> float:
        return self.budget_s - self.elapsed()

    def log(self, msg: str) -> None:
        self.messages.append(f"[{self.elapsed():7.2f} s] {msg}")
        self._log(msg)

    def sync(self, device: str | None = None) -> None:
        import torch

        if (device or self.device) == "cuda":
            torch.cuda.synchronize()

    def timed(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
        """(fn(*args, **kwargs), wall seconds), the device synchronised before and after."""
        self.sync()
        t = time.perf_counter()
        out = fn(*args, **kwargs)
        self.sync()
        return out, time.perf_counter() - t

    def generator(self, device: str | None = None):
        import torch

        return torch.Generator(device=device or self.device).manual_seed(self.seed)

    # --- speed and precision, recorded for the report --------------------------------------
    def speed(self, make_step: Callable[[str], Callable[[], Any]], *, label: str, flops: float | None = None,
              bytes: float | None = None, steps: int = 20, cpu_steps: int = 3) -> dict:
        """Seconds per step of one configuration on ``self.device`` and on the CPU (all its threads).

        ``make_step(device)`` builds the configuration's state on ``device`` and returns a one-step function.
        With ``flops``/``bytes`` per step, the achieved rates and their fraction of the device's peaks."""
        import torch

        rec: dict[str, Any] = {"label": label, "steps": steps, "cpu_steps": cpu_steps,
                               "cpu_threads": torch.get_num_threads()}
        per = {}
        for dev, n in ((self.device, steps), ("cpu", cpu_steps)):
            if dev == "cpu" and self.device == "cpu" and "device" in per:
                per["cpu"] = per["device"]
                break
            step = make_step(dev)
            step()                                         # warm-up (kernels, allocator)
            self.sync(dev)
            t = time.perf_counter()
            for _ in range(n):
                step()
            self.sync(dev)
            per["device" if dev == self.device else "cpu"] = (time.perf_counter() - t) / n
        rec["device_s_per_step"] = per["device"]
        rec["cpu_s_per_step"] = per["cpu"]
        rec["speedup"] = per["cpu"] / per["device"] if per["device"] > 0 else None
        peaks = getattr(self.hardware, "peaks", {}) or {}
        if flops:
            rec["flops_per_step"] = flops
            rec["flop_rate"] = flops / per["device"]
            key = "fp64" if self.dtype == torch.float64 else "fp32"
            if peaks.get(key):
                rec["flop_fraction"] = rec["flop_rate"] / peaks[key]
                rec["flop_peak"] = f"{peaks[key]:.3g} FLOP/s {key} ({peaks['source']})"
        if bytes:
            rec["bytes_per_step"] = bytes
            rec["byte_rate"] = bytes / per["device"]
            if peaks.get("bandwidth"):
                rec["bandwidth_fraction"] = rec["byte_rate"] / peaks["bandwidth"]
                rec["bandwidth_peak"] = f"{peaks['bandwidth']:.3g} B/s ({peaks['source']})"
        self.speeds.append(rec)
        self.log(f"speed {label}: {per['device']:.3g} s/step on {self.device}, {per['cpu']:.3g} s/step on cpu")
        return rec

    def compare_dtypes(self, fn: Callable[[Any], Any], label: str) -> dict:
        """fn(torch.float64) vs fn(torch.float32): the max relative difference of the returned values."""
        import torch

        a = np.asarray(fn(torch.float64), dtype=float).ravel()
        b = np.asarray(fn(torch.float32), dtype=float).ravel()
        if a.shape != b.shape:
            raise ValueError(f"compare_dtypes {label}: float64 gave {a.shape}, float32 gave {b.shape}")
        rel = np.abs(a - b) / np.maximum(np.abs(a), 1e-300)
        rec = {"label": label, "n": int(a.size), "max_rel_diff": float(rel.max()) if a.size else None}
        self.precisions.append(rec)
        return rec
