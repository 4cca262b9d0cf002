"""Shapes for ``new-paper --from-tex``: a matrix display drafted as a function of its matrices and vectors, sized
as the paper states them, so that ``tv.printed(eq_grad, SHAPES)`` (:mod:`theoryverify.displays`) instantiates it in
an ``_over`` check with no hand-written display.

The rule (documented in docs/tutorial.md):

- a name's shape is **stated** by the paper: ``X \\in \\mathbb{R}^{n \\times d}`` is ``("n", "d")``,
  ``w \\in \\mathbb{R}^d`` is ``("d",)`` (each size one name or a whole number; ``\\mathbb{R}^{n \\times d}`` with
  any other size states nothing);
- or **read from a product** with a stated one: the last factor of ``X w`` is a vector of X's columns (``("d",)``),
  and a term added to one of known shape has its shape (``X w - y``: y is ``("n",)``);
- a name given two different shapes has none (never a guess);
- a matrix display is drafted with shapes only when every name it treats as a matrix has a shape and the display,
  built with those shapes at distinct sizes, is consistent (its products and sums conform) and uses its matrices
  only in sums, products, transposes and whole powers (an unknown function of a matrix, ``\\|Xw - y\\|``, is no
  matrix expression: such a display keeps its non-commutative symbols and the TODO).  ``X^\\top`` is ``X.T``; the
  left side's unknown function of the display (``\\nabla L(w)``) stays an unknown function, the gradient named
  ``grad_L``.
"""
from __future__ import annotations

import re
from functools import reduce

import sympy as sp

#: the size list of ``\\in \\mathbb{R}^{...}`` right after a name
DIMS_RE = re.compile(r"\s*\\in\s*(?:\\mathbb\s*\{\s*R\s*\}|\\mathbb\s*R|\\R(?![A-Za-z]))\s*\^\s*"
                     r"(?:\{([^{}]{1,40})\}|([A-Za-z0-9]))")
SIZE_RE = re.compile(r"[A-Za-z]\w{0,8}|[1-9]\d{0,3}")


def stated_dims(text: str, pos: int) -> tuple[str, ...] | None:
    """The sizes of ``\\in \\mathbb{R}^{n \\times d}`` at ``pos`` of ``text`` (``("n", "d")``), or None."""
    m = DIMS_RE.match(text, pos)
    if not m:
        return None
    parts = [p.strip() for p in re.split(r"\\times|\\cdot|×", m.group(1) or m.group(2))]
    if not 1 <= len(parts) <= 2 or not all(SIZE_RE.fullmatch(p) for p in parts):
        return None
    return tuple(parts)


def _as_matrix_shape(dims: tuple[str, ...]) -> tuple:
    return tuple(sp.Integer(d) if d.isdigit() else sp.Symbol(d) for d in dims) + ((sp.Integer(1),) if len(dims) == 1
                                                                                  else ())


def _nc_symbol(e: sp.Basic) -> str | None:
    """The name of ``e`` when it is one non-commutative symbol, possibly negated (``-y``)."""
    if isinstance(e, sp.Symbol) and not e.is_commutative:
        return e.name
    if isinstance(e, sp.Mul):
        c, nc = e.args_cnc()
        if len(nc) == 1 and isinstance(nc[0], sp.Symbol) and all(x.is_number for x in c):
            return nc[0].name
    return None


class Inference:
    """Shapes of names (``(rows, cols)`` in SymPy sizes; a vector is ``(d, 1)``), stated or read from products."""

    def __init__(self, stated: dict[str, tuple]):
        self.shapes = {k: _as_matrix_shape(v) for k, v in stated.items()}
        self.conflicted: set[str] = set()

    def _give(self, name: str, shape: tuple) -> bool:
        if name in self.conflicted:
            return False
        old = self.shapes.get(name)
        if old is None:
            self.shapes[name] = shape
            return True
        if old != shape:
            self.conflicted.add(name)
            del self.shapes[name]
            return True
        return False

    def shape(self, e: sp.Basic):
        """``e``'s shape, ``()`` for a number, None when unknown; gives shapes to names on the way."""
        if e.is_commutative:
            return ()
        if isinstance(e, sp.Symbol):
            return None if e.name in self.conflicted else self.shapes.get(e.name)
        if isinstance(e, sp.Add):
            shapes = [self.shape(t) for t in e.args]
            known = next((s for s in shapes if s), None)
            if known:
                for t, s in zip(e.args, shapes):
                    if s is None and _nc_symbol(t):
                        self._give(_nc_symbol(t), known)
            return known
        if isinstance(e, sp.Mul):
            nc = e.args_cnc()[1]
            shapes = [self.shape(f) for f in nc]
            if len(nc) >= 2 and shapes[-1] is None and all(shapes[:-1]) and isinstance(nc[-1], sp.Symbol):
                self._give(nc[-1].name, (shapes[-2][1], sp.Integer(1)))  # X w: w a vector of X's columns
                shapes[-1] = self.shape(nc[-1])
            if all(shapes) and shapes:
                return (shapes[0][0], shapes[-1][1])
            return None
        if isinstance(e, sp.Pow):
            return self.shape(e.base)
        if isinstance(e, sp.core.function.AppliedUndef):
            inner = [self.shape(a) for a in e.args]
            if type(e).__name__ == "transpose" and len(inner) == 1 and inner[0]:
                return (inner[0][1], inner[0][0])
            return None
        for a in e.args:
            self.shape(a)
        return None

    def infer(self, sides: list[sp.Basic]) -> dict[str, tuple]:
        """Read shapes from ``sides`` until nothing changes; the names' shapes (conflicted names left out)."""
        for _ in range(6):
            before = (dict(self.shapes), set(self.conflicted))
            for s in sides:
                self.shape(s)
            if (self.shapes, self.conflicted) == before:
                break
        return dict(self.shapes)


class NotShaped(ValueError):
    """The display is no matrix expression of its shaped names (why)."""


def _convert(e: sp.Basic, objs: dict, top: bool = False) -> sp.Basic:
    """``e`` (non-commutative symbols) with each matrix name as ``objs[name]``, built with SymPy's matrix algebra."""
    if e.is_commutative and not any(isinstance(s, sp.Symbol) and not s.is_commutative for s in e.atoms(sp.Symbol)):
        return e
    if isinstance(e, sp.Symbol):
        if e.name not in objs:
            raise NotShaped(f"{e.name} has no shape")
        return objs[e.name]
    if isinstance(e, sp.Add):
        return reduce(lambda a, b: a + b, [_convert(t, objs) for t in e.args])
    if isinstance(e, sp.Mul):
        c, nc = e.args_cnc()
        return reduce(lambda a, b: a * b, [_convert(f, objs) for f in nc], sp.Mul(*c))
    if isinstance(e, sp.Pow):
        if not (e.exp.is_Integer and e.exp != 0):
            raise NotShaped(f"a matrix to the power {e.exp}")
        return _convert(e.base, objs) ** e.exp
    if isinstance(e, sp.core.function.AppliedUndef):
        args = [_convert(a, objs) for a in e.args]
        if type(e).__name__ == "transpose" and len(args) == 1:
            return args[0].T
        if top:  # the display's left side: the object it gives, an unknown function of its matrices
            return sp.Function(type(e).__name__)(*args)
        raise NotShaped(f"{type(e).__name__}(…) of a matrix is no matrix expression")
    raise NotShaped(f"{type(e).__name__} of a matrix is no matrix expression")


def shaped(relations: list[tuple[str, sp.Basic, sp.Basic]], shapes: dict[str, tuple], latex: str):
    """The display's relations with its matrices as ``MatrixSymbol``s of their shapes, and the names it takes as
    matrices; raises :class:`NotShaped` with the reason when the display is no consistent matrix expression."""
    names = sorted({s.name for _, l, r in relations for side in (l, r) for s in side.atoms(sp.Symbol)
                    if not s.is_commutative})
    missing = [n for n in names if n not in shapes]
    if missing:
        raise NotShaped(f"no shape for {', '.join(missing)}")
    sizes = sorted({d for n in names for d in shapes[n] if isinstance(d, sp.Symbol)}, key=str)
    concrete = dict(zip(sizes, (2, 3, 5, 7, 11, 13, 17, 19)))
    if len(concrete) < len(sizes):
        raise NotShaped("more than eight sizes")
    test = {n: sp.MatrixSymbol(n, *[concrete.get(d, d) for d in shapes[n]]) for n in names}
    symbolic = {n: sp.MatrixSymbol(n, *shapes[n]) for n in names}
    out = []
    for op, lhs, rhs in relations:
        top = op in ("=", ":=")  # an equation's left side may be the object it gives, an unknown function: L(w)
        try:  # consistent at distinct whole sizes (a product or sum that does not conform is no reading)
            values = [_convert(side, test, top=(k == 0 and top)) for k, side in enumerate((lhs, rhs))]
        except NotShaped:
            raise
        except Exception as exc:  # noqa: BLE001 - ShapeError, NonSquareMatrixError, TypeError (matrix + number)
            raise NotShaped(f"its shapes do not conform ({type(exc).__name__}: {' '.join(str(exc).split())[:80]})")
        if not top and any(isinstance(v, sp.MatrixExpr) for v in values):
            raise NotShaped("an inequality between matrices")
        if all(isinstance(v, sp.MatrixExpr) for v in values) and values[0].shape != values[1].shape:
            raise NotShaped(f"its two sides differ in shape ({values[0].shape} and {values[1].shape})")
        lhs_s, rhs_s = (_convert(side, symbolic, top=(k == 0 and top)) for k, side in enumerate((lhs, rhs)))
        name = type(lhs_s).__name__ if isinstance(lhs_s, sp.core.function.AppliedUndef) else ""
        if name.endswith("prime") and re.search(r"\\nabla\s*(?:_\{?\s*\w+\s*\}?\s*)?" + re.escape(name[:-5]) + r"\b",
                                                latex):
            lhs_s = sp.Function(f"grad_{name[:-5]}")(*lhs_s.args)  # ∇L(w): the gradient of L, not a derivative L'
        out.append((op, lhs_s, rhs_s))
    return out, names


def dims_code(dims: tuple) -> str:
    """``("n", "d")`` for a shape (a vector ``(d, 1)`` is ``("d",)``), as ``tv.printed``'s shapes take it."""
    parts = [str(d) for d in dims]
    if len(parts) == 2 and parts[1] == "1":
        parts = parts[:1]
    return "(" + ", ".join(repr(p) for p in parts) + ("," if len(parts) == 1 else "") + ")"
