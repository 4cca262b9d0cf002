"""Autograd of a sampled (Monte-Carlo) model against a closed form, as one call: :func:`check_mc_gradient`.

A model defined by sampling — L(θ) = E_z[loss(θ, z)], a loss averaged over random data, prompts, noise or
features — often has a printed closed form for its gradient ∇L(θ).  The per-sample gradients ∇_θ loss(θ, z_i),
computed for a whole batch at once by ``torch.func.vmap(torch.func.grad(loss))``, are unbiased draws of ∇L(θ)
(wherever differentiation and expectation commute: a loss differentiable in θ with an integrable dominating
derivative), so "∇L(θ) = g(θ)" is a claim about the mean of a sampled vector and is decided by the engine's
Monte-Carlo mean test (:func:`theoryverify.checks.montecarlo.check_mc_means`): a t-test per component, one
multiplicity correction over every component of every θ tried, and a refutation only under its replication
rule (an independent second batch rejects too, and for heavy-tailed gradients — excess kurtosis above
:data:`~theoryverify.checks.montecarlo.HEAVY_TAIL_KURTOSIS` — the distribution-free median-of-means bound
excludes the closed form as well).  No per-prompt gradient trick, no hand-written mean test.

A loss with a jump in θ (an indicator, a sample-dependent branch) has per-sample gradients that do NOT estimate
∇E[loss] (the derivative of E[1{z < θ}] is a density, its per-sample gradient is 0).  So before a verdict
stands, per-sample gradients are compared with central finite differences of the same samples' losses — the refuted
component, or a few components of each θ for a pass (:data:`INTERCHANGE_RULE`); where they disagree the verdict is
inconclusive, saying why.

Nothing here is specific to a model: ``loss`` is any torch function of (θ, one sample), θ a tensor or a dict of
named tensors (weights of several layers), a sample any tensor or tuple/dict of tensors.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ..numeric import lambdify_generated
from ..verdicts import Status, Verdict, error, inconclusive

PER_SAMPLE = "per-sample gradients torch.func.vmap(torch.func.grad(loss))"


def _is_point(value: Any) -> bool:
    """One θ: a number, an array or tensor, or a dict of them (a list is a list of θ's)."""
    return isinstance(value, (int, float, Mapping)) or hasattr(value, "shape")


def _theta(point: Any):
    """θ as float64 torch tensors (a dict stays a dict, in its key order) and as numpy (for ``expected``)."""
    import torch

    if isinstance(point, Mapping):
        if not point:
            raise ValueError("θ is an empty dict")
        as_np = {str(k): np.asarray(v.detach().cpu() if hasattr(v, "detach") else v, dtype=float)
                 for k, v in point.items()}
        return {k: torch.as_tensor(v, dtype=torch.float64) for k, v in as_np.items()}, as_np
    as_np = np.asarray(point.detach().cpu() if hasattr(point, "detach") else point, dtype=float)
    return torch.as_tensor(as_np, dtype=torch.float64), as_np


def _component_names(theta_np: Any) -> list[str]:
    def one(name: str, a: np.ndarray) -> list[str]:
        if a.ndim == 0:
            return [f"dL/d{name}"]
        return [f"dL/d{name}[{','.join(map(str, ix))}]" for ix in np.ndindex(a.shape)]

    if isinstance(theta_np, dict):
        return [n for k, a in theta_np.items() for n in one(k, a)]
    return one("θ", theta_np)


def _flat(value: Any, theta_np: Any, what: str, rows: int | None = None) -> np.ndarray:
    """A gradient (per sample when ``rows``) with θ's structure, flattened to (rows, k) or (k,)."""
    def leaf(v, shape, name):
        a = np.asarray(v.detach().cpu() if hasattr(v, "detach") else v, dtype=float)
        want = ((rows,) if rows is not None else ()) + tuple(shape)
        if a.shape != want:
            raise ValueError(f"the {what} for {name} has shape {a.shape}, θ's is {tuple(shape)}")
        return a.reshape(rows, -1) if rows is not None else a.reshape(-1)

    if isinstance(theta_np, dict):
        if not isinstance(value, Mapping) or set(map(str, value)) != set(theta_np):
            raise ValueError(f"the {what} must be a dict with θ's keys {sorted(theta_np)}")
        value = {str(k): v for k, v in value.items()}
        parts = [leaf(value[k], a.shape, k) for k, a in theta_np.items()]
    else:
        parts = [leaf(value, theta_np.shape, "θ")]
    return np.concatenate(parts, axis=-1)


def _batch(z: Any):
    """The sampler's batch as torch tensors (float arrays as float64), keeping tuples and dicts."""
    import torch

    if isinstance(z, Mapping):
        return {k: _batch(v) for k, v in z.items()}
    if isinstance(z, (tuple, list)):
        return tuple(_batch(v) for v in z)
    if isinstance(z, torch.Tensor):
        return z.to(torch.float64) if z.is_floating_point() else z
    a = np.asarray(z)
    return torch.as_tensor(a.astype(float) if a.dtype.kind == "f" else a)


def _label(i: int, point: Any) -> str:
    if isinstance(point, Mapping) and all(isinstance(v, (int, float)) for v in point.values()):
        return ", ".join(f"{k}={v:g}" for k, v in point.items())
    if isinstance(point, (int, float)):
        return f"θ={point:g}"
    return f"θ #{i}"


def _symbolic(expected: Any) -> Callable[[Any], Any] | None:
    """``expected`` given in SymPy — one expression (scalar θ, or an array θ of that shape), a dict name →
    expression (a dict θ), or a list/tuple/Matrix of them — as a numpy function of θ; None if it is a callable.
    Symbols are bound BY NAME: a dict θ's keys, or for a scalar/array θ the expressions' one free symbol."""
    import sympy as sp

    def is_sym(v):
        return isinstance(v, (sp.Basic, sp.MatrixBase))

    if callable(expected) and not is_sym(expected):
        return None
    if isinstance(expected, Mapping):
        if not all(is_sym(v) or isinstance(v, (int, float)) for v in expected.values()):
            raise ValueError("expected: a dict of SymPy expressions (θ's names → ∂L/∂name) or a callable")
        parts = {str(k): sp.sympify(v) for k, v in expected.items()}
    elif is_sym(expected) or (isinstance(expected, (list, tuple)) and expected and all(
            is_sym(v) or isinstance(v, (int, float)) for v in expected)):
        parts = sp.Array(expected) if isinstance(expected, (list, tuple, sp.MatrixBase)) else sp.sympify(expected)
    else:
        raise ValueError(f"expected must be a callable of θ or SymPy expressions, got {type(expected).__name__}")
    exprs = list(parts.values()) if isinstance(parts, dict) else (list(parts) if isinstance(parts, sp.Array)
                                                                  else [parts])
    free = sorted({s for e in exprs for s in e.free_symbols}, key=str)
    def compiled(e):
        return lambdify_generated(free, e)  # no user-chosen name reaches generated code

    fns = ({k: compiled(e) for k, e in parts.items()} if isinstance(parts, dict) else
           [compiled(e) for e in parts] if isinstance(parts, sp.Array) else compiled(parts))

    def closed(theta):
        if isinstance(theta, Mapping):
            values = {k: v for k, v in theta.items()}
        else:
            if len(free) > 1:
                raise ValueError(f"a θ without names binds one symbol, the closed form has {', '.join(map(str, free))}"
                                 " (pass θ as a dict name → value)")
            values = {str(free[0]): theta} if free else {}
        missing = [str(x) for x in free if str(x) not in values]
        if missing:
            raise ValueError(f"θ gives no value of {', '.join(missing)} (it has {', '.join(values) or 'nothing'})")

        if any(np.ndim(values[str(x)]) for x in free):
            raise ValueError("a SymPy closed form needs θ as numbers (a scalar, or a dict name → number)")
        args = [float(np.asarray(values[str(x)])) for x in free]

        def value(fn):
            return float(np.real_if_close(fn(*args)))

        if isinstance(parts, dict):
            return {k: value(fn) for k, fn in fns.items()}
        if isinstance(parts, sp.Array):
            return np.array([value(fn) for fn in fns], dtype=float).reshape(parts.shape)
        return value(fns)
    return closed


def _plain_setting(point: Any) -> dict[str, Any] | None:
    """A θ that is a setting (a dict name → number) as a configuration of the evidence; else None."""
    if not isinstance(point, Mapping):
        return None
    out = {}
    for k, v in point.items():
        a = np.asarray(v.detach().cpu() if hasattr(v, "detach") else v)
        if a.ndim != 0:
            return None
        out[str(k)] = a.item()
    return out


def _samplers(sample: Any, k: int) -> list[Callable]:
    """One sampler per θ: ``sample`` itself for every θ, or a list of them (θ's of different sizes)."""
    if callable(sample):
        return [sample] * k
    if isinstance(sample, (list, tuple)) and all(callable(f) for f in sample):
        if len(sample) != k:
            raise ValueError(f"{len(sample)} samplers for {k} values of θ")
        return list(sample)
    raise ValueError("sample must be a function (rng, n) -> n samples, or a list of them (one per θ)")


def _restrict(point: Any, wrt: Sequence[str] | None, loss: Callable):
    """θ's torch and numpy forms, restricted to the keys ``wrt`` (the others held fixed inside the loss)."""
    theta_t, theta_np = _theta(point)
    if wrt is None:
        return theta_t, theta_np, theta_np, loss
    if not isinstance(theta_t, dict):
        raise ValueError("wrt= names keys of a dict θ; this θ is not a dict")
    absent = [k for k in wrt if k not in theta_t]
    if absent or not wrt:
        raise ValueError(f"wrt= names {', '.join(map(repr, absent)) or 'no key'}; θ's keys are "
                         f"{', '.join(map(repr, theta_t))}")
    fixed = {k: v for k, v in theta_t.items() if k not in wrt}
    order = list(theta_t)

    def held(th, z):  # the loss of the whole θ, differentiated in the wrt keys only
        return loss({k: th[k] if k in th else fixed[k] for k in order}, z)
    return ({k: theta_t[k] for k in wrt}, {k: theta_np[k] for k in wrt}, theta_np, held)


def _per_key_resolution(resolution: Any, theta_np: Any) -> Any:
    """``resolution`` as one half-width per component: a dict key → half-width spreads over each key's entries."""
    if not isinstance(resolution, Mapping):
        return resolution
    if not isinstance(theta_np, dict):
        raise ValueError("a resolution dict (key → half-width) needs a dict θ; give one number for this θ")
    missing = [k for k in theta_np if k not in resolution]
    if missing:
        raise ValueError(f"the resolution dict has no half-width for {', '.join(map(repr, missing))}")
    try:
        return np.concatenate([np.full(a.size, float(resolution[k])) for k, a in theta_np.items()])
    except (TypeError, ValueError):
        raise ValueError("a resolution dict maps each key of θ to one positive number") from None


def _config_label(c: Mapping) -> str:
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in c.items())


def check_mc_gradient(loss: Callable, expected: Any, sample: Any, at: Any, seed: int, *, n: int = 20_000,
                      confidence: float = 0.99, resolution: Any = None, correction: str = "holm",
                      batch: int | None = None, labels: Sequence[str] | None = None,
                      wrt: Sequence[str] | None = None,
                      configurations: Sequence[Mapping[str, Any]] | None = None) -> Verdict:
    """Decide "∇_θ E_z[loss(θ, z)] = expected(θ)" at each θ of ``at``, from per-sample autograd gradients.

    ``loss(theta, z)``: a torch function returning a scalar for ONE sample ``z`` — it is vmapped over the batch, so
    it never sees the batch axis: a sampler returning (n, d) arrays hands the loss one (d,) row (write ``w @ x``,
    not ``W @ x`` with a leading axis; add ``z[None]`` where a helper wants a batch of one).  θ is a float64
    tensor, or a dict of them.  ``sample(rng, n)``: ``n`` samples stacked along the first axis (a numpy array or
    tensor, or a tuple/dict of them), drawn from the ``numpy.random.Generator`` it is given; or a list of such
    samplers, one per θ (θ's of different sizes, e.g. inputs in R^d for several d).  ``expected``: the closed form
    of the gradient, either a function ``expected(theta)`` with θ's structure (θ given as numpy arrays) or SymPy —
    one expression for a scalar θ, a dict ``name → ∂L/∂name`` for a dict θ (e.g. ``{str(v): sp.diff(k, v) for v
    in (theta, a)}`` for a printed display ``k``), a list for a vector θ — whose symbols are bound by name to θ's
    entries (compiled once with ``lambdify``).  ``wrt``: the keys of a dict θ to differentiate (the closed form
    gives those; the other keys are held fixed); default every key.  ``at``: one θ (a number, an array, a dict
    name → array), or a list of θ's, which may differ in shape from one to the next; ``labels`` names them.

    Where the θ's are settings of named numbers — ``at=tv.settings(over, seed)`` for a claim with ``over=`` —
    they are recorded as the evidence's configurations (:class:`~theoryverify.evidence_types.Configurations`), so
    the quantifier standard sees every declared parameter's values.  Where θ holds arrays (points x ∈ R^d built
    from a setting), pass the settings themselves as ``configurations`` (one dict per θ, e.g. ``[{**c, "sigma":
    s} for c in at]``): they are recorded, and label the θ's.  Every θ is tried under ONE correction; ``n``,
    ``confidence``, ``resolution`` (the largest interval half-width that resolves a component — one number, one
    per component, or for a dict θ a dict key → number; default 1 % of max(1, |expected|)), ``correction`` and
    ``batch`` are those of :func:`~theoryverify.checks.montecarlo.check_mc_means`, whose verdicts and replication
    rule apply (heavy-tailed gradients are refuted only where the median-of-means bound agrees), and a verdict
    stands only where per-sample gradients agree with finite differences of the sampled loss
    (:data:`INTERCHANGE_RULE`: a loss with a jump in θ is inconclusive, never refuted or passed on a biased
    pathwise gradient).

    >>> import numpy as np, torch, theoryverify as tv
    >>> loss = lambda th, z: torch.exp(th * z)                # L(θ) = E exp(θz) = exp(θ²/2), z ~ N(0, 1)
    >>> normal = lambda rng, n: rng.standard_normal(n)
    >>> v = tv.check_mc_gradient(loss, lambda th: th * np.exp(th**2 / 2), normal, [0.5, 1.0], seed=0, resolution=0.2)
    >>> v.status.value                                        # the per-sample gradients z·exp(θz) are heavy-tailed
    'holds'
    >>> tv.check_mc_gradient(loss, lambda th: 2 * th * np.exp(th**2 / 2), normal, [0.5, 1.0], seed=0).status.value
    'refuted'

    The closed form in SymPy, at the settings of declared ranges (recorded as configurations):

    >>> import sympy as sp
    >>> t = sp.Symbol("t")
    >>> at = tv.settings([tv.Over("t", 0.5, 1.0)], seed=0, n=3, draws=0)
    >>> v = tv.check_mc_gradient(lambda th, z: torch.exp(th["t"] * z), {"t": t * sp.exp(t**2 / 2)}, normal, at,
    ...                          seed=0, resolution=0.2)
    >>> v.status.value, [c["t"] for c in v.details["configurations"]]
    ('holds', [0.5, 1.0, 0.75])

    Points in R^d for several d, differentiated in x only (y held fixed), one sample z = w ∈ R^d per call of the
    loss — L(x) = E cos(wᵀ(x − y)) = exp(−‖x − y‖²/2) for w ~ N(0, I_d):

    >>> at = [{"d": 1}, {"d": 3}]
    >>> theta = [{"x": np.full(c["d"], 0.3), "y": np.zeros(c["d"])} for c in at]
    >>> cosine = lambda th, w: torch.cos(w @ (th["x"] - th["y"]))   # w: one sample, shape (d,)
    >>> kgrad = lambda th: {"x": -(th["x"] - th["y"]) * np.exp(-np.sum((th["x"] - th["y"])**2) / 2)}
    >>> draws = [lambda rng, m, d=c["d"]: rng.standard_normal((m, d)) for c in at]
    >>> v = tv.check_mc_gradient(cosine, kgrad, draws, theta, seed=0, wrt=["x"], resolution={"x": 0.05},
    ...                          configurations=at)
    >>> v.status.value, [c["d"] for c in v.details["configurations"]]
    ('holds', [1, 3])
    """
    name = "Monte Carlo gradient"
    try:
        import torch
        from torch.func import grad, vmap

        symbolic = None if isinstance(expected, _PerPoint) else _symbolic(expected)
        if symbolic is not None:
            expected = symbolic
        points = [at] if _is_point(at) else list(at)
        if not points:
            raise ValueError("no θ to check (`at` is empty)")
        if labels is not None and len(labels) != len(points):
            raise ValueError(f"{len(labels)} labels for {len(points)} values of θ")
        if configurations is not None:
            configurations = [dict(c) for c in configurations]
            if len(configurations) != len(points):
                raise ValueError(f"{len(configurations)} configurations for {len(points)} values of θ")
        samplers = _samplers(sample, len(points))
        wrt = None if wrt is None else [str(k) for k in ([wrt] if isinstance(wrt, str) else wrt)]
        settings, infos, all_names, all_res = {}, [], {}, {}
        for i, point in enumerate(points):
            theta_t, theta_np, full_np, loss_i = _restrict(point, wrt, loss)
            names = _component_names(theta_np)
            try:
                closed = expected.values[i] if isinstance(expected, _PerPoint) else \
                    expected(full_np if isinstance(full_np, dict) else
                             (float(full_np) if full_np.ndim == 0 else full_np))
            except Exception as exc:  # the closed form's own failure, in one line
                raise ValueError(f"the closed form raised {type(exc).__name__}: {exc}") from None
            if wrt is not None and isinstance(closed, Mapping):
                closed = {str(k): v for k, v in closed.items() if str(k) in wrt}
            mu = _flat(closed, theta_np, "closed form" + ("" if wrt is not None or not isinstance(theta_np, dict)
                                                          else " (or pass wrt= the keys it gives)"))
            per_sample = vmap(grad(loss_i), in_dims=(None, 0))

            def draws(rng, m, theta_t=theta_t, theta_np=theta_np, per_sample=per_sample, fn=samplers[i]):
                with torch.no_grad():
                    z = _batch(fn(rng, m))
                return _flat(per_sample(theta_t, z), theta_np, "per-sample gradient", rows=m)

            label = (None if len(points) == 1 else str(labels[i]) if labels is not None else
                     _config_label(configurations[i]) or f"setting {i}" if configurations is not None else
                     _label(i, point))
            if label in settings:
                label = f"{label} #{i}"
            settings[label] = (draws, mu)
            all_names[label] = names
            all_res[label] = _per_key_resolution(resolution.values[i] if isinstance(resolution, _PerPoint) else
                                                 resolution, theta_np)
            infos.append((label, theta_t, loss_i, samplers[i], names))
    except ValueError as exc:
        return error(name, str(exc))
    except ImportError as exc:  # pragma: no cover - torch is a dependency
        return error(name, f"needs torch with torch.func ({exc})")
    from .montecarlo import check_mc_means

    verdict = check_mc_means(settings, seed, n=n, confidence=confidence, resolution=all_res,
                             correction=correction, names=all_names, batch=batch)
    details = dict(verdict.details)
    details["gradients"] = PER_SAMPLE
    if wrt is not None:
        details["wrt"] = wrt
    configs = configurations or [_plain_setting(p) for p in points]
    if len(points) > 1 and None in configs:  # θ's that are not settings of named numbers: recorded as they are
        details["theta"] = [{"setting": lab, "theta": (p if isinstance(p, (int, float)) else
                                                       _theta(p)[1] if not isinstance(p, Mapping) else
                                                       {k: v for k, v in _theta(p)[1].items()})}
                            for lab, p in zip(settings, points)]
    method = f"autograd of a sampled model ({PER_SAMPLE}); {verdict.method}"
    if None not in configs and verdict.status is not Status.ERROR:  # configurations the evidence standards read
        from ..evidence_types import Configurations, attach
        details = attach(replace(verdict, details=details), Configurations(tuple(configs))).details
    if verdict.status in (Status.REFUTED, Status.HOLDS):  # is the pathwise gradient an unbiased estimate here?
        why = _interchange(infos, verdict.counterexample, seed, min(int(n), INTERCHANGE_N), details)
        if why:
            return inconclusive(method, f"the per-sample test says {verdict.status.value}, but {why}", **details)
    return replace(verdict, method=method, details=details)


class _PerPoint:
    """Closed forms already evaluated, one per θ (check_mc_gradient_over evaluates them with the setting)."""

    def __init__(self, values):
        self.values = list(values)


#: the resolutions check_mc_gradient_over tries, finest first, as fractions of each setting's gradient scale (the
#: largest |component| of the closed form there): the finest the budget reaches is used.  The coarsest, 1/4, still
#: rejects a factor-2 slip (a bias of one scale, four half-widths) and a missing 1/n for n ≥ 2
RELATIVE_RESOLUTIONS = (0.05, 0.1, 0.25)
#: samples per setting of the pilot batch that estimates the per-sample gradients' spread (its own stream)
PILOT_N = 2_000


def check_mc_gradient_over(over: Sequence[Any], loss: Callable, expected: Callable[[Mapping[str, Any]], Any],
                           sample: Callable, seed: int, *, params: Any, data: Any = None, budget: int = 100_000,
                           resolution: Any = None, settings_n: int = 3, draws: int = 2, confidence: float = 0.99,
                           correction: str = "holm", batch: int | None = None) -> Verdict:
    """Decide "∇_θ E_z[loss(θ, z)] = expected" at every setting of the declared ranges ``over``, in one call: the
    data each setting samples from and the parameters θ it differentiates are declared separately, the settings are
    generated as :func:`theoryverify.check_over` does (``tv.settings(over, seed, n=settings_n, draws=draws)``,
    dependent ranges included), and the resolution is chosen to decide within a stated sample budget.

    - ``data(config, rng)`` → a mapping of arrays the setting holds fixed (a design matrix X and targets y), or a
      :class:`~theoryverify.domains.Domain` (one seeded point, by name); ``params(config, rng)`` → θ, the
      mapping of arrays differentiated (w); each from its own seeded stream per setting.
    - ``loss(theta, z)``: as :func:`check_mc_gradient` (one sample z, vmapped), ``theta`` holding the data and the
      parameters as float64 tensors, differentiated in the parameters only.
    - ``sample(p, rng, m)``: m samples for the setting ``p`` (the setting, its data and its θ, as numpy, by name).
    - ``expected(p)``: the closed form of the gradient at ``p``, a mapping parameter name → array.

    ``budget``: the most samples per setting.  With ``resolution=None`` a pilot batch (:data:`PILOT_N` samples
    per setting, its own stream) measures each component's spread, and the finest of :data:`RELATIVE_RESOLUTIONS`
    (× each setting's gradient scale, its largest |component|) that the budget resolves at the family's corrected
    level is used, with the samples it needs (at least the pilot's, at most the budget); if not even the coarsest
    fits, the test runs at the budget and the verdict says how many samples per setting would decide it.  The
    choice is recorded in ``details["resolution_choice"]``; the settings as configurations, what each drew in
    ``details["drawn"]``; a refutation names its setting and what it drew.  An explicit ``resolution`` (as in
    :func:`check_mc_gradient`) runs at ``n = budget``.

    >>> import numpy as np, torch, theoryverify as tv
    >>> over = [tv.Over("d", 2, 3, integer=True), tv.Over("n", "d", "2*d", integer=True)]
    >>> data = lambda c, rng: {"X": rng.standard_normal((c["n"], c["d"])), "y": rng.standard_normal(c["n"])}
    >>> params = lambda c, rng: {"w": rng.standard_normal(c["d"])}
    >>> def row(p, rng, m):                                   # one random row (x_i, y_i) of the data per sample
    ...     i = rng.integers(p["n"], size=m)
    ...     return p["X"][i], p["y"][i]
    >>> loss = lambda th, z: (z[0] @ th["w"] - z[1]) ** 2 / 2
    >>> grad = lambda p: {"w": p["X"].T @ (p["X"] @ p["w"] - p["y"]) / p["n"]}    # ∇f(w) = Xᵀ(Xw − y)/n
    >>> v = tv.check_mc_gradient_over(over, loss, grad, row, seed=0, data=data, params=params, settings_n=2, draws=0)
    >>> v.status.value, v.details["resolution_choice"]["relative"], sorted(v.details["drawn"]["d=2, n=2"])
    ('holds', 0.05, ['X', 'w', 'y'])
    >>> wrong = lambda p: {"w": p["X"].T @ (p["X"] @ p["w"] - p["y"])}                    # no 1/n
    >>> tv.check_mc_gradient_over(over, loss, wrong, row, 0, data=data, params=params, settings_n=2,
    ...                           draws=0).status.value
    'refuted'
    """
    import math

    import torch
    from scipy import stats
    from torch.func import grad, vmap

    from ..ranges import settings as settings_of
    from .montecarlo import _draw_parameters, _plain, drawn_seed

    name = "Monte Carlo gradient"
    try:
        if params is None:
            raise ValueError("params= is required: params(config, rng) -> the mapping θ to differentiate")
        if int(budget) < 2:
            raise ValueError("budget must be at least 2 samples per setting")
        configs = settings_of(list(over), seed, n=settings_n, draws=draws)
        points, closed, samplers, drawn, labels = [], [], [], {}, []
        for i, c in enumerate(configs):
            fixed = _draw_parameters(data, c, drawn_seed(seed, i))
            theta = _draw_parameters(params, c, np.random.SeedSequence(int(seed), spawn_key=(i, 3)))
            clash = sorted(set(fixed) & set(theta) | (set(fixed) | set(theta)) & set(c))
            if clash:
                raise ValueError(f"data, params and the setting name {', '.join(clash)} twice")
            if not theta:
                raise ValueError("params(config, rng) returned no parameter to differentiate")
            p = {**c, **{k: np.asarray(v, dtype=float) for k, v in {**fixed, **theta}.items()}}
            label = _config_label(c) or f"setting {i}"
            labels.append(label)
            drawn[label] = {k: _plain(np.asarray(v)) for k, v in {**fixed, **theta}.items()}
            points.append({**{k: p[k] for k in fixed}, **{k: p[k] for k in theta}})
            try:
                got = expected(p)
            except Exception as exc:
                raise ValueError(f"the closed form raised {type(exc).__name__}: {exc}") from None
            if not isinstance(got, Mapping):
                raise ValueError("expected(p) must return a mapping parameter name -> gradient")
            closed.append({str(k): np.asarray(v, dtype=float) for k, v in got.items() if str(k) in theta})
            samplers.append(lambda rng, m, p=p: sample(p, rng, m))
        wrt = list(theta)
    except ValueError as exc:
        return error(name, str(exc))
    choice: dict[str, Any] = {"budget": int(budget)}
    n = int(budget)
    if resolution is None:  # a pilot batch per setting measures the spread; the finest resolution the budget reaches
        sds, scales = [], []
        for i, (point, fn) in enumerate(zip(points, samplers)):
            theta_t, theta_np, _full, loss_i = _restrict(point, wrt, loss)
            rng = np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=(i, 4)))
            with torch.no_grad():
                z = _batch(fn(rng, min(PILOT_N, n)))
            g = _flat(vmap(grad(loss_i), in_dims=(None, 0))(theta_t, z), theta_np, "per-sample gradient",
                      rows=min(PILOT_N, n))
            sds.append(g.std(axis=0, ddof=1))
            mu = np.concatenate([np.asarray(closed[i][k], dtype=float).reshape(-1) for k in wrt])
            scales.append(float(np.abs(mu).max()) or 1.0)
        k = sum(s.size for s in sds)
        z_crit = float(stats.norm.ppf(1 - (1 - confidence) / (2 * k)))
        need = {rel: int(math.ceil(max(float(((z_crit * s / (rel * sc)) ** 2).max()) for s, sc in zip(sds, scales))
                                   * 1.2)) for rel in RELATIVE_RESOLUTIONS}
        rel = next((r for r in RELATIVE_RESOLUTIONS if need[r] <= n), RELATIVE_RESOLUTIONS[-1])
        n = min(n, max(PILOT_N, need[rel]))
        resolution = _PerPoint(rel * sc for sc in scales)
        choice.update(relative=rel, samples_per_setting=n, pilot=min(PILOT_N, int(budget)),
                      needed={f"{r:g}": need[r] for r in RELATIVE_RESOLUTIONS},
                      rule=f"the finest of {', '.join(f'{r:g}' for r in RELATIVE_RESOLUTIONS)} × each setting's "
                           f"gradient scale (its largest |component|) that {int(budget)} samples per setting resolve "
                           f"(pilot of {min(PILOT_N, int(budget))}, its own stream)")
        if need[rel] > int(budget):
            choice["note"] = (f"not decidable within the budget: ±{rel:g} × the gradient scale needs about "
                              f"{need[rel]} samples per setting (budget={int(budget)})")
    verdict = check_mc_gradient(loss, _PerPoint(closed), samplers, points, seed, n=n, confidence=confidence,
                                resolution=resolution, correction=correction, batch=batch, wrt=wrt,
                                configurations=configs)
    if verdict.status is Status.ERROR:
        return verdict
    details = {**verdict.details, "drawn": drawn, "resolution_choice": choice}
    details.pop("theta", None)  # the same arrays, recorded once under "drawn"
    ce = verdict.counterexample
    if ce and isinstance(ce.get("component"), str) and ce["component"].split(":", 1)[0] in drawn:
        ce = {**ce, "drawn": drawn[ce["component"].split(":", 1)[0]]}
    evidence = verdict.evidence
    if "note" in choice and verdict.status is Status.INCONCLUSIVE:
        evidence = f"{evidence}; {choice['note']}"
    return replace(verdict, details=details, counterexample=ce, evidence=evidence)


#: samples used by the interchange diagnostic (the first of each checked setting's primary batch), and how many
#: components of each setting it checks when no component is refuted
INTERCHANGE_N = 20_000
INTERCHANGE_COMPONENTS = 3

INTERCHANGE_RULE = ("A verdict from per-sample gradients stands only if they agree with central finite differences "
                    "of the same samples' losses (common random numbers, step h = 1e-2·max(1, |θ_j|)) — in the "
                    "refuted component, or, for a pass, in up to {k} components of each θ: a mean per-sample "
                    "difference beyond 4 standard errors + 1 % of max(1, |mean gradient|) means the loss is not "
                    "differentiable along the samples (a jump in θ), where the pathwise gradient is a biased "
                    "estimate of ∇E[loss]; the verdict is then inconclusive.").format(k=INTERCHANGE_COMPONENTS)


def _targets(infos, counterexample) -> list[tuple[int, int]]:
    """(setting, component) pairs to diagnose: the refuted one, or a few spread over every setting's components."""
    if counterexample:
        component = str(counterexample.get("component", ""))
        return [(i, j) for i, (label, *_, names) in enumerate(infos) for j, name in enumerate(names)
                if component == (name if label is None else f"{label}: {name}")][:1]
    out = []
    for i, (*_, names) in enumerate(infos):
        k = len(names)
        out += [(i, j) for j in sorted({int(round(x)) for x in np.linspace(0, k - 1, min(INTERCHANGE_COMPONENTS, k))})]
    return out


def _interchange(infos, counterexample, seed, n, details) -> str | None:
    """None if per-sample gradients agree with finite differences of the sampled loss where checked (see
    :data:`INTERCHANGE_RULE`); else why the verdict cannot stand.  Recorded in ``details['interchange']``."""
    import torch
    from torch.func import grad, vmap

    from .montecarlo import setting_seed

    records, by_setting = [], {}
    for i, j in _targets(infos, counterexample):
        by_setting.setdefault(i, []).append(j)
    for i, comps in by_setting.items():
        label, theta_t, loss, sample, names = infos[i]
        per_loss, per_grad = vmap(loss, in_dims=(None, 0)), vmap(grad(loss), in_dims=(None, 0))
        rng = np.random.default_rng(seed if len(infos) == 1 else setting_seed(seed, i))
        with torch.no_grad():
            z = _batch(sample(rng, n))
        g_all = _flat(per_grad(theta_t, z), _numpy(theta_t), "per-sample gradient", rows=n)
        flat, unflatten = _flatten(theta_t)
        for j in comps:
            h = 1e-2 * max(1.0, abs(float(flat[j])))
            step = torch.zeros_like(flat)
            step[j] = h
            with torch.no_grad():
                fd = (per_loss(unflatten(flat + step), z) - per_loss(unflatten(flat - step), z)) / (2 * h)
            g = g_all[:, j]
            d = np.asarray(fd.detach().cpu(), dtype=float).reshape(-1) - g
            gap, se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(n))
            tol = 4 * se + 1e-2 * max(1.0, abs(float(g.mean())))
            records.append({"component": names[j] if label is None else f"{label}: {names[j]}", "h": h, "n": n,
                            "mean_gradient": float(g.mean()), "finite_difference": float(g.mean()) + gap,
                            "gap": gap, "tolerance": tol, "agrees": bool(abs(gap) <= tol)})
    details["interchange"] = {"rule": INTERCHANGE_RULE, "checked": records}
    bad = [r for r in records if not r["agrees"]]
    if not bad:
        return None
    r = bad[0]
    return (f"the per-sample gradients of {r['component']} (mean {r['mean_gradient']:.4g}) disagree with central "
            f"differences of the same samples' losses ({r['finite_difference']:.4g}, h = {r['h']:.3g}): the loss "
            f"is not differentiable along the samples (a jump in θ?), so the pathwise gradient need not estimate "
            f"∇E[loss]")


def _numpy(theta_t):
    if isinstance(theta_t, dict):
        return {k: v.detach().cpu().numpy() for k, v in theta_t.items()}
    return theta_t.detach().cpu().numpy()


def _flatten(theta_t):
    """θ as one flat float64 vector, and the map back to θ's structure."""
    import torch

    if not isinstance(theta_t, dict):
        shape = theta_t.shape
        return theta_t.reshape(-1).clone(), lambda v: v.reshape(shape)
    keys = list(theta_t)
    sizes = [theta_t[k].numel() for k in keys]
    shapes = [theta_t[k].shape for k in keys]
    flat = torch.cat([theta_t[k].reshape(-1) for k in keys])

    def unflatten(v):
        parts = torch.split(v, sizes)
        return {k: p.reshape(sh) for k, p, sh in zip(keys, parts, shapes)}
    return flat, unflatten
