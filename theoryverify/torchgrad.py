"""The autograd side of a gradient cross-check, from the model's loss alone (issue 29: held-out author 8 wrote a
five-line adapter — arrays to float64 tensors, ``requires_grad``, ``backward``, back to an array — for every model).

``torch_gradient(loss, wrt="w")`` is the reference side of :func:`theoryverify.check_agreement` and
:func:`theoryverify.check_agreement_over`: a function of the drawn point (values by name, as those checks hand
them) that calls ``loss`` with the point's values its parameters name, as float64 tensors, and returns torch's
gradient of the scalar loss with respect to ``wrt`` as an array.  torch is imported when it is first called.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Mapping

import numpy as np

from .errors import TheoryverifyError


def torch_gradient(loss: Callable[..., Any], wrt: str | tuple[str, ...] | list[str] = "w"
                   ) -> Callable[[Mapping[str, Any]], Any]:
    """A function of a point ``x`` (values by name) → the gradient of ``loss(**{p: x[p] for p in loss's
    parameters})`` with respect to ``wrt`` (one name: an array of its shape; several: a tuple), computed by torch
    autograd in float64.  A parameter of ``loss`` that the point does not have, a loss that is not a scalar, or a
    ``wrt`` that is not a parameter is a one-line :class:`~theoryverify.errors.TheoryverifyError` (a claim turns it
    into an error verdict), never a guessed value; a ``wrt`` that is not a parameter is one here, before any point.

    >>> import torch, theoryverify as tv
    >>> def loss(X, y, w, lam):                                  # the model, in torch
    ...     return ((X @ w - y) ** 2).mean() / 2 + lam / 2 * w @ w
    >>> grad = tv.torch_gradient(loss, wrt="w")
    >>> import numpy as np
    >>> x = {"X": np.eye(2), "y": np.array([1.0, 0.0]), "w": np.array([3.0, 1.0]), "lam": 0.5, "n": 2}
    >>> grad(x).tolist()                                         # Xᵀ(Xw − y)/n + λw
    [2.5, 1.0]
    >>> tv.torch_gradient(loss, wrt="v")
    Traceback (most recent call last):
    ...
    theoryverify.errors.TheoryverifyError: torch_gradient: wrt names 'v', not a parameter of loss(X, y, w, lam)
    """
    names = [p.name for p in inspect.signature(loss).parameters.values()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    wrts = (wrt,) if isinstance(wrt, str) else tuple(wrt)
    signature = f"{getattr(loss, '__name__', 'loss')}({', '.join(names)})"
    bad = [w for w in wrts if w not in names]
    if bad:
        raise TheoryverifyError(f"torch_gradient: wrt names {', '.join(map(repr, bad))}, not a parameter of "
                                f"{signature}")

    def gradient(x: Mapping[str, Any]) -> Any:
        import torch
        missing = [p for p in names if p not in x]
        if missing:
            raise TheoryverifyError(f"torch_gradient: {signature} takes {', '.join(map(repr, missing))}, which the "
                                    f"point does not have (it has {', '.join(sorted(map(str, x)))})")
        args = {p: torch.tensor(np.asarray(x[p], dtype=float), dtype=torch.float64, requires_grad=p in wrts)
                for p in names}
        value = loss(**args)
        if not isinstance(value, torch.Tensor) or value.numel() != 1:
            raise TheoryverifyError(f"torch_gradient: {signature} returned "
                                    f"{'shape ' + str(tuple(value.shape)) if isinstance(value, torch.Tensor) else type(value).__name__}"
                                    f", not a scalar loss")
        grads = torch.autograd.grad(value.reshape(()), [args[w] for w in wrts])
        out = tuple(g.detach().numpy() for g in grads)
        return out[0] if len(out) == 1 else out
    gradient.__name__ = f"torch_gradient({signature}, wrt={wrt!r})"
    return gradient
