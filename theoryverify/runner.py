"""Batched training: many configurations × seeds in one call (paper-agnostic).

Every run of a batch shares the same code path; runs differ only along a leading batch
dimension B of the parameter pytree (a dict of tensors) and of the configuration tensors
(temperature, step size, ...).  Two ways to give the loss:

* ``mode="batched"``: ``loss(params, config) -> Tensor[B]`` already works on whole batches;
  runs are independent, so ∇ of ``loss.sum()`` is the stack of the per-run gradients.
* ``mode="vmap"``: ``loss(params, config) -> scalar`` for ONE run; the runner maps
  ``torch.func.grad`` over the batch with ``torch.func.vmap``.

A closed-form gradient (``grad=``) may replace autograd; tests cross-check the two.

Optimisers: plain gradient descent and Adam (Kingma & Ba 2015, bias-corrected).  Per-run
step sizes and per-run step budgets (a run stops moving after its own number of steps).
A recorder stores chosen metrics every ``record_every`` steps, and ``events`` give hitting
times (the first iterate k = 0, 1, … at which a per-run boolean condition holds; −1 if never).

Determinism: float64 on CPU; on CUDA float32 or float64 as requested, TF32 off; the device,
dtype and determinism settings are returned with every result (:func:`settings`).
"""
from __future__ import annotations

import contextlib
import math
import platform
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
import torch

from .devices import resolve_device
from .progress import progress
from .seeds import derive_seed
from .threads import torch_threads

Params = dict[str, torch.Tensor]
Config = Mapping[str, torch.Tensor]
LossFn = Callable[[Params, Config], torch.Tensor]
GradFn = Callable[[Params, Config], Params]
Metric = Callable[[Params, Config], torch.Tensor]

DTYPES = {"float64": torch.float64, "float32": torch.float32}


def resolve_dtype(device: str, dtype: str | None) -> torch.dtype:
    """float64 on CPU (always); on CUDA the requested dtype (default float64)."""
    if device == "cpu":
        if dtype not in (None, "float64"):
            raise ValueError("the CPU path runs in float64 only")
        return torch.float64
    return DTYPES[dtype or "float64"]


def _set_deterministic_algorithms(mode: bool, warn_only: bool = False) -> None:
    """``torch.use_deterministic_algorithms(mode, warn_only=...)`` without importing Inductor.

    The public function also sets ``torch._inductor.config.deterministic`` (torch.compile's flag), and importing
    Inductor for it costs about 1.7 s of CPU in every process that trains (each CLI run, each test worker).
    Nothing here compiles, so the flag only matters once Inductor is loaded: then the public function is used,
    as it is wherever torch lacks the internal setter."""
    setter = getattr(torch._C, "_set_deterministic_algorithms", None)
    if setter is None or "torch._inductor.config" in sys.modules:
        torch.use_deterministic_algorithms(mode, warn_only=warn_only)
    else:
        setter(mode, warn_only=warn_only)


@contextlib.contextmanager
def deterministic(device: str, threads: int | None = 1):
    """TF32 off, deterministic algorithms on and (CPU) ``threads`` intra-op threads for the
    duration; previous settings restored.  One thread by default: the batched states here are
    small, and on a shared 2-core machine torch's thread pool made each step 20-50x slower."""
    saved = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32,
             torch.are_deterministic_algorithms_enabled(), torch.backends.cudnn.deterministic)
    with torch_threads(threads if device == "cpu" else None):
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cudnn.deterministic = True
        _set_deterministic_algorithms(True, warn_only=True)
        try:
            yield
        finally:
            (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32, det,
             torch.backends.cudnn.deterministic) = saved
            _set_deterministic_algorithms(det)


def settings(device: str, dtype: torch.dtype, seed: int | None = None) -> dict[str, Any]:
    """What a result ran on: device, dtype, determinism flags, library version, seed."""
    out: dict[str, Any] = {
        "device": device, "dtype": str(dtype).replace("torch.", ""), "seed": seed,
        "torch": torch.__version__, "deterministic_algorithms": torch.are_deterministic_algorithms_enabled(),
        "tf32_matmul": torch.backends.cuda.matmul.allow_tf32, "tf32_cudnn": torch.backends.cudnn.allow_tf32,
    }
    if device == "cuda":
        out["name"] = torch.cuda.get_device_name(0)
    else:
        out["name"] = f"CPU ({platform.machine()})"
        out["torch_threads"] = torch.get_num_threads()
    return out


# --- randomness -------------------------------------------------------------------------

def run_rng(seed: int, *names: Any) -> np.random.Generator:
    """A numpy generator for ONE run, from (seed, names): a run's draws do not depend on how
    runs are batched together."""
    return np.random.default_rng(derive_seed(seed, *map(str, names)))


def uniform_ball(rng: np.random.Generator, dim: int, radius: float) -> np.ndarray:
    """One point uniform in the Euclidean ball B(0, radius) ⊂ R^dim (Gaussian direction × U^{1/dim})."""
    g = rng.standard_normal(dim)
    return g / np.linalg.norm(g) * radius * rng.uniform() ** (1.0 / dim)


# --- results ----------------------------------------------------------------------------

@dataclass
class RunResult:
    """Final parameters, recorded metrics (``records[name]`` has shape [n_records, B, ...] at
    steps ``record_steps``), hitting times (``hits[name]``: Tensor[B] of int64, −1 = never),
    the number of steps run and the run settings."""

    params: Params
    records: dict[str, torch.Tensor]
    record_steps: list[int]
    hits: dict[str, torch.Tensor]
    steps_run: int
    settings: dict[str, Any] = field(default_factory=dict)

    def numpy(self) -> dict[str, Any]:
        return {"params": {k: v.cpu().numpy() for k, v in self.params.items()},
                "records": {k: v.cpu().numpy() for k, v in self.records.items()},
                "record_steps": np.asarray(self.record_steps),
                "hits": {k: v.cpu().numpy() for k, v in self.hits.items()},
                "steps_run": self.steps_run, "settings": self.settings}


# --- gradients --------------------------------------------------------------------------

def _autograd(loss: LossFn, mode: str) -> GradFn:
    if mode == "vmap":
        g = torch.func.vmap(torch.func.grad(loss))
        return lambda p, c: g(p, dict(c))
    if mode != "batched":
        raise ValueError(f"mode must be 'batched' or 'vmap', not {mode!r}")

    def grad(p: Params, c: Config) -> Params:
        leaves = {k: v.detach().requires_grad_(True) for k, v in p.items()}
        with torch.enable_grad():
            value = loss(leaves, c).sum()
            grads = torch.autograd.grad(value, list(leaves.values()))
        return dict(zip(leaves, grads))
    return grad


def _per_run(x: torch.Tensor | float, like: torch.Tensor) -> torch.Tensor:
    """Broadcast a per-run scalar (shape [B] or scalar) against a parameter of shape [B, ...]."""
    t = torch.as_tensor(x, dtype=like.dtype, device=like.device)
    return t.reshape(t.shape + (1,) * (like.dim() - t.dim())) if t.dim() else t


# --- the training loop ------------------------------------------------------------------

def train(loss: LossFn | None, params: Mapping[str, Any], *, steps: int | Any, lr: Any,
          config: Mapping[str, Any] | None = None, optimizer: str = "gd", mode: str = "batched",
          grad: GradFn | None = None, metrics: Mapping[str, Metric] | None = None,
          record_every: int = 1, events: Mapping[str, Metric] | None = None,
          stop_when_hit: bool = False, adam: Mapping[str, float] | None = None,
          device: str = "auto", dtype: str | None = None, seed: int | None = None,
          threads: int | None = 1, desc: str = "train") -> RunResult:
    """Train B runs at once; see the module docstring.

    ``steps`` is an int or a per-run array (a run with budget t_b takes exactly t_b updates);
    ``lr`` a float or a per-run array.  ``events[name](params, config) -> bool[B]``: hitting
    times over iterates 0..max(steps); with ``stop_when_hit`` the loop ends once every run has hit
    every event.  ``metrics`` are recorded at iterates 0, record_every, 2·record_every, … and at
    the last iterate.  A tqdm bar (``desc``) shows the steps when stderr is a terminal.
    """
    dev = resolve_device(device)
    dt = resolve_dtype(dev, dtype)
    with deterministic(dev, threads), torch.no_grad():
        p = {k: torch.as_tensor(v, dtype=dt).to(dev).clone() for k, v in params.items()}
        B = next(iter(p.values())).shape[0]
        cfg = {k: torch.as_tensor(v, dtype=dt).to(dev) for k, v in (config or {}).items()}
        budget = torch.as_tensor(steps, device=dev).to(torch.int64).expand(B)
        total = int(budget.max())
        rate = torch.as_tensor(lr, dtype=dt, device=dev).expand(B)
        gfun = grad or _autograd(loss, mode)
        metrics, events = dict(metrics or {}), dict(events or {})
        records: dict[str, list[torch.Tensor]] = {k: [] for k in metrics}
        record_steps: list[int] = []
        hits = {k: torch.full((B,), -1, dtype=torch.int64, device=dev) for k in events}
        opt = _Adam(p, **(adam or {})) if optimizer == "adam" else None
        if optimizer not in ("gd", "adam"):
            raise ValueError(f"optimizer must be 'gd' or 'adam', not {optimizer!r}")

        def observe(k: int) -> bool:
            for name, fn in events.items():
                new = (hits[name] < 0) & fn(p, cfg).to(torch.bool)
                hits[name] = torch.where(new, torch.full_like(hits[name], k), hits[name])
            return stop_when_hit and bool(events) and all(bool((h >= 0).all()) for h in hits.values())

        def record(k: int) -> None:
            record_steps.append(k)
            for name, fn in metrics.items():
                records[name].append(fn(p, cfg).detach().clone())

        done = observe(0)
        record(0)
        k = 0
        bar = progress(None, total=total, desc=desc, unit="step", mininterval=1.0)
        # while every run is still within its budget the step rate is ``rate`` itself (rate · 1.0, bit for bit):
        # shaped once here instead of at every step (the per-step tensor calls dominate these tiny problems)
        # once a run's budget is spent its rate is rate · 0.0: the shaped rates change only where k passes a budget,
        # so they are rebuilt there (at k = min budget, then at each larger budget), not at every step
        changes = iter(sorted({int(b) for b in budget.tolist()}))
        next_change = next(changes, total)
        shaped = {name: _per_run(rate, v) for name, v in p.items()}
        while k < total and not done:
            g = gfun(p, cfg)
            updates = opt.direction(g, k) if opt else g
            if k == next_change:
                step_rate = rate * (budget > k).to(dt)
                shaped = {name: _per_run(step_rate, p[name]) for name in p}
                next_change = next(changes, total)
            for name in p:
                p[name] = p[name] - shaped[name] * updates[name]
            k += 1
            done = observe(k)
            if k % record_every == 0 or k == total or done:
                record(k)
            if k % 1000 == 0:
                bar.update(1000)
        bar.close()
        out = {n: torch.stack(v) for n, v in records.items()}
        return RunResult(p, out, record_steps, hits, k, settings(dev, dt, seed))


class _Adam:
    """Adam moments per parameter (β1, β2, ε as given; PyTorch's defaults otherwise)."""

    def __init__(self, p: Params, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
        self.b1, self.b2, self.eps = beta1, beta2, eps
        self.m = {k: torch.zeros_like(v) for k, v in p.items()}
        self.v = {k: torch.zeros_like(v) for k, v in p.items()}

    def direction(self, g: Params, k: int) -> Params:
        out = {}
        for name, gk in g.items():
            self.m[name].mul_(self.b1).add_(gk, alpha=1 - self.b1)
            self.v[name].mul_(self.b2).addcmul_(gk, gk, value=1 - self.b2)
            mhat = self.m[name] / (1 - self.b1 ** (k + 1))
            vhat = self.v[name] / (1 - self.b2 ** (k + 1))
            out[name] = mhat / (vhat.sqrt() + self.eps)
        return out


def grid(**axes: Any) -> list[dict[str, Any]]:
    """The Cartesian product of named axes, as a list of configuration dicts (first axis slowest)."""
    names = list(axes)
    values = [list(axes[n]) for n in names]
    total = math.prod(len(v) for v in values)
    out = []
    for i in range(total):
        cfg, rest = {}, i
        for n, vals in zip(reversed(names), reversed(values)):
            rest, j = divmod(rest, len(vals))
            cfg[n] = vals[j]
        out.append({n: cfg[n] for n in names})
    return out
