"""Element-by-element comparison of the two sides of a check, shapes first.

The two sides of an identity or an agreement may be scalars, SymPy matrices, numpy arrays, (nested)
sequences or mappings.  :func:`pair_entries` pairs them entry by entry after comparing their structure:
different shapes (or keys, or lengths) raise :class:`ShapeMismatch`, which a check turns into a refutation
that shows both shapes; a string or any other object raises ``TypeError`` with a clear message.  Nothing is
coerced silently: a 1×1 matrix is not a scalar, a list of three is not a 3×1 column.
"""
from __future__ import annotations

import sys

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

import numpy as np
import sympy as sp


@dataclass(frozen=True)
class Entry:
    label: str | None  # None for a scalar comparison; "[i, j]" or "[key]" for an entry of a container
    lhs: Any
    rhs: Any


class ShapeMismatch(Exception):
    """The two sides have different structure; ``counterexample`` holds both shapes (or key sets)."""

    def __init__(self, text: str, counterexample: Mapping[str, Any]):
        super().__init__(text)
        self.text = text
        self.counterexample = dict(counterexample)


def _is_scalar(x: Any, symbolic: bool) -> bool:
    if isinstance(x, bool):
        return False
    if isinstance(x, (int, float, complex, Fraction, np.number)):
        return True
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return True
    if isinstance(x, sp.Expr) and not isinstance(x, sp.MatrixExpr) and (symbolic or x.is_number):
        return True
    torch = sys.modules.get("torch")  # a tensor exists only once torch is imported (importing it costs seconds)
    return torch is not None and isinstance(x, torch.Tensor) and x.dim() == 0


def _kind(x: Any, symbolic: bool) -> str:
    if _is_scalar(x, symbolic):
        return "scalar"
    if isinstance(x, sp.MatrixBase):
        return "matrix"
    if isinstance(x, Mapping):
        return "mapping"
    if isinstance(x, (str, bytes)):
        raise TypeError(f"cannot compare a {type(x).__name__} ({str(x)[:40]!r}); build the expression, do not "
                        f"pass text")
    if isinstance(x, (np.ndarray, list, tuple, sp.Tuple)) or _is_tensor(x):
        return "array"
    raise TypeError(f"cannot compare an object of type {type(x).__name__}: checks compare scalars, SymPy "
                    f"matrices, sequences and mappings")


def _is_tensor(x: Any) -> bool:
    torch = sys.modules.get("torch")  # see _is_scalar
    return torch is not None and isinstance(x, torch.Tensor)


def _shape(x: Any, symbolic: bool) -> tuple[int, ...]:
    kind = _kind(x, symbolic)
    if kind == "scalar":
        return ()
    if kind == "matrix":
        return tuple(x.shape)
    if _is_tensor(x):
        return tuple(x.shape)
    if isinstance(x, np.ndarray) and x.dtype != object:
        return tuple(x.shape)
    items = list(x)
    if not items:
        return (0,)
    inner = [_shape(i, symbolic) for i in items]
    if any(s != inner[0] for s in inner):
        raise ShapeMismatch("ragged sequence (entries of different shapes)",
                            {"shapes": [list(s) for s in inner]})
    return (len(items), *inner[0])


def _flat(x: Any, symbolic: bool) -> list[Any]:
    kind = _kind(x, symbolic)
    if kind == "scalar":
        return [x.item() if hasattr(x, "item") and not isinstance(x, sp.Basic) else x]
    if kind == "matrix":
        return list(x)  # row-major
    if _is_tensor(x):
        return x.detach().cpu().reshape(-1).tolist()
    if isinstance(x, np.ndarray) and x.dtype != object:
        return x.reshape(-1).tolist()
    return [e for item in x for e in _flat(item, symbolic)]


def _labels(shape: tuple[int, ...]) -> list[str]:
    idx = np.ndindex(*shape) if shape else [()]
    return ["[" + ", ".join(map(str, i)) + "]" for i in idx]


def pair_entries(lhs: Any, rhs: Any, *, symbolic: bool) -> list[Entry]:
    """The entries of ``lhs`` and ``rhs`` paired up, or :class:`ShapeMismatch` / ``TypeError``.

    ``symbolic``: SymPy expressions count as scalars (identity checks); otherwise only numbers do."""
    lk, rk = _kind(lhs, symbolic), _kind(rhs, symbolic)
    if lk == "mapping" or rk == "mapping":
        if lk != rk:
            raise ShapeMismatch(f"a mapping against a {rk if lk == 'mapping' else lk}",
                                {"lhs_type": type(lhs).__name__, "rhs_type": type(rhs).__name__})
        lkeys, rkeys = list(lhs), list(rhs)
        if set(map(str, lkeys)) != set(map(str, rkeys)):
            only_l = sorted(set(map(str, lkeys)) - set(map(str, rkeys)))
            only_r = sorted(set(map(str, rkeys)) - set(map(str, lkeys)))
            raise ShapeMismatch(f"keys differ: only in lhs {only_l}, only in rhs {only_r}",
                                {"lhs_keys": sorted(map(str, lkeys)), "rhs_keys": sorted(map(str, rkeys))})
        out = []
        rmap = {str(k): v for k, v in rhs.items()}
        for k in sorted(lkeys, key=str):
            for e in pair_entries(lhs[k], rmap[str(k)], symbolic=symbolic):
                out.append(Entry(f"[{k}]" + (e.label or ""), e.lhs, e.rhs))
        return out
    ls, rs = _shape(lhs, symbolic), _shape(rhs, symbolic)
    if ls != rs:
        raise ShapeMismatch(f"shapes differ: lhs {ls if ls else 'scalar'} vs rhs {rs if rs else 'scalar'}",
                            {"lhs_shape": list(ls) if ls else "scalar", "rhs_shape": list(rs) if rs else "scalar"})
    lf, rf = _flat(lhs, symbolic), _flat(rhs, symbolic)
    if symbolic:
        lf, rf = [sp.sympify(v) for v in lf], [sp.sympify(v) for v in rf]
    if not ls:
        return [Entry(None, lf[0], rf[0])]
    return [Entry(lab, a, b) for lab, a, b in zip(_labels(ls), lf, rf)]
