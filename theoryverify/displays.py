"""A printed display whose symbols are matrices and vectors sized by a claim's declared ranges:
``tv.printed(display, shapes={"X": ("n", "d"), "w": ("d",)})``, shapes declared once, instantiated by the engine at
each setting — no per-shape wrapper rebuilding the display's symbols per setting.

``display`` is a function of named arguments (as a ``printed/`` module writes a display, ``eq_grad(X, y, w, n)``).
At a setting (a dict such as one of ``tv.settings(over, seed)``) each argument is, by its name:

- a matrix or vector of ``shapes``: ``("n", "d")`` is a ``tv.MatrixVar(name, (n, d))``, ``("d",)`` a
  ``tv.VectorVar(name, d)`` (each size a parameter of the setting or a whole number), passed as its SymPy matrix;
- else the setting's value of that name (``n``);
- else a symbol of the domain the check draws from, of that name (``tv.Within("eta", …)``: the display's η is the
  domain's η, whatever its assumptions), else the argument's default; else it is an error naming the argument
  (never a guessed symbol: a misspelt shape would become a scalar).  The shapes are the paper's, declared once: a
  display that takes only some of them gets those (none of them is an error).

The ``_over`` checks (:func:`theoryverify.check_agreement_over`, :func:`theoryverify.check_inequality_over`,
:func:`theoryverify.check_rate_over`, :func:`theoryverify.check_count_over`) take a :class:`Printed` wherever they
take a side, and add its matrices and vectors to the setting's domain (those the domain does not already name), so
the domain lists only the other variables.  ``.lhs`` / ``.rhs`` are the sides of a display that returns a relation
(``Eq``, ``Le``…), a pair ``(lhs, rhs)`` or a triple ``(lhs, op, rhs)`` with ``op`` the LaTeX of a relation SymPy has
no class for (``new-paper --from-tex`` drafts ``v \\sim \\frac{\\sigma^2}{2h} \\eta`` as ``(v, '\\\\sim', eta*sigma**2/(2*h))``,
whose ``.rhs`` is the law a rate claim tests); asked of any other display they are a one-line
:class:`DisplayError`.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Mapping

import sympy as sp

from .domains import MatrixVar, VectorVar
from .errors import TheoryverifyError


class DisplayError(TheoryverifyError, ValueError):
    """A display's side asked of a display that has none (``.rhs`` of a display returning one expression)."""


def _shown(value: Any) -> str:
    text = " ".join(str(value).split())
    kind = type(value).__name__
    return f"a {kind} ({text[:60]}{'…' if len(text) > 60 else ''})"


class Printed:
    """A printed display instantiated per setting (build it with :func:`printed`).  ``P(setting)`` is the display at
    that setting; ``P.variables(setting)`` its matrices and vectors (``tv.MatrixVar`` / ``tv.VectorVar``) there;
    ``P.lhs`` / ``P.rhs`` the display's two sides, each again a :class:`Printed`.

    >>> import theoryverify as tv
    >>> P = tv.printed(lambda X, w, n: X * w / n, shapes={"X": ("n", "d"), "w": ("d",)})
    >>> P({"n": 2, "d": 3}).shape, [v.shape for v in P.variables({"n": 2, "d": 3})]
    ((2, 1), [(2, 3), (3, 1)])
    """

    def __init__(self, display: Callable, shapes: Mapping[str, tuple] | None = None, part: int | None = None):
        if not callable(display):
            raise TypeError(f"tv.printed: the display is a function of named arguments (a printed/ module's "
                            f"eq_...), not a {type(display).__name__}")
        self.display, self.part = display, part
        self.shapes = {str(k): tuple(v) if isinstance(v, (tuple, list)) else (v,) for k, v in (shapes or {}).items()}
        for name, dims in self.shapes.items():
            if len(dims) not in (1, 2):
                raise ValueError(f"tv.printed: the shape of {name} is (rows, cols) or (dim,), got {dims}")
        try:
            self._params = list(inspect.signature(display).parameters.values())
        except (TypeError, ValueError):
            raise TypeError("tv.printed: the display's arguments cannot be read (give a Python function)") from None
        taken = {p.name for p in self._params}
        if self.shapes and not taken & set(self.shapes):
            raise ValueError(f"tv.printed: the display takes none of the shapes' names ({', '.join(self.shapes)}; it "
                             f"takes {', '.join(p.name for p in self._params) or 'no argument'})")
        #: the paper's shapes declared once: a display taking some of them (L = λ_max(XᵀX/n) + λ takes X) gets those
        self.shapes = {k: v for k, v in self.shapes.items() if k in taken}

    @staticmethod
    def _size(dim: Any, setting: Mapping[str, Any], name: str) -> int:
        if isinstance(dim, str):
            if dim not in setting:
                raise ValueError(f"tv.printed: the size {dim!r} of {name} is not a parameter of the setting "
                                 f"({', '.join(sorted(setting)) or 'none'})")
            dim = setting[dim]
        if float(dim) != int(dim) or int(dim) < 1:
            raise ValueError(f"tv.printed: the size of {name} must be a whole number >= 1, got {dim}")
        return int(dim)

    def variables(self, setting: Mapping[str, Any]) -> list[MatrixVar]:
        """The display's matrices and vectors at ``setting``, in the order of ``shapes``."""
        out: list[MatrixVar] = []
        for name, dims in self.shapes.items():
            sizes = [self._size(d, setting, name) for d in dims]
            out.append(VectorVar(name, sizes[0]) if len(sizes) == 1 else MatrixVar(name, tuple(sizes)))
        return out

    def __call__(self, setting: Mapping[str, Any] | None = None, symbols: Any = ()) -> Any:
        """The display at ``setting``; ``symbols``: the symbols of the domain it is drawn from (matched by name)."""
        setting = dict(setting or {})
        arrays = {str(k): v.matrix for k, v in zip(self.shapes, self.variables(setting))}
        by_name = {str(s): s for s in symbols}
        args = {}
        for p in self._params:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            if p.name in arrays:
                args[p.name] = arrays[p.name]
            elif p.name in setting:
                args[p.name] = setting[p.name]
            elif p.name in by_name:
                args[p.name] = by_name[p.name]
            elif p.default is not p.empty:
                continue
            else:  # never a guessed symbol: a misspelt shape would silently become a scalar
                raise ValueError(f"tv.printed: the display's argument {p.name} is neither a declared shape "
                                 f"({', '.join(self.shapes) or 'none'}), a parameter of the setting "
                                 f"({', '.join(sorted(setting)) or 'none'}) nor a variable of the domain")
        value = self.display(**args)
        if self.part is None:
            return value
        if isinstance(value, sp.core.relational.Relational):
            return (value.lhs, value.rhs)[self.part]
        if isinstance(value, (tuple, list)) and len(value) == 2:
            return value[self.part]
        if isinstance(value, (tuple, list)) and len(value) == 3 and isinstance(value[1], str):
            return (value[0], value[2])[self.part]  # (v, '\\sim', σ²η/(2h)): a relation SymPy has no class for
        side = "lhs" if self.part == 0 else "rhs"
        raise DisplayError(f"tv.printed: {getattr(self.display, '__name__', 'the display')}(...).{side}: the display "
                           f"returns {_shown(value)}, which has no sides: return a relation (Eq, Le, …), a pair "
                           f"(lhs, rhs) or a triple (lhs, '\\sim', rhs)")

    @property
    def arguments(self) -> tuple[str, ...]:
        """The names of the display's arguments (the parameters it reads from a setting, its shapes)."""
        return tuple(p.name for p in self._params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))

    @property
    def lhs(self) -> "Printed":
        """The display's left side (of a relation or a pair)."""
        return Printed(self.display, self.shapes, 0)

    @property
    def rhs(self) -> "Printed":
        """The display's right side (of a relation or a pair)."""
        return Printed(self.display, self.shapes, 1)

    def __repr__(self) -> str:
        side = "" if self.part is None else (".lhs", ".rhs")[self.part]
        return f"printed({getattr(self.display, '__name__', 'display')}, shapes={self.shapes}){side}"


def printed(display: Callable, shapes: Mapping[str, tuple] | None = None) -> Printed:
    """A printed display, its matrices and vectors declared once by the parameters that size them:
    ``shapes={"X": ("n", "d"), "y": ("n",), "w": ("d",)}`` (see the module docstring).  The ``_over`` checks
    instantiate it at each setting and draw its matrices and vectors.

    >>> import sympy as sp, theoryverify as tv
    >>> grad = lambda X, y, w, n: X.T * (X * w - y) / n            # a display as printed/ writes it
    >>> G = tv.printed(grad, shapes={"X": ("n", "d"), "y": ("n",), "w": ("d",)})
    >>> G({"n": 3, "d": 2}).shape                                   # a 2-vector at n = 3, d = 2
    (2, 1)
    >>> over = [tv.Over("n", 1, 4, integer=True), tv.Over("d", 1, 3, integer=True)]
    >>> numpy_grad = lambda x: x["X"].T @ (x["X"] @ x["w"] - x["y"]) / x["n"]
    >>> tv.check_agreement_over(over, G, numpy_grad, None, seed=0, n=5).status.value
    'holds'
    >>> tv.check_agreement_over(over, G, lambda x: x["X"].T @ (x["X"] @ x["w"] - x["y"]), None, 0, n=5).status.value
    'refuted'
    >>> D = tv.printed(lambda w, eta: (sp.Matrix.dot(w, w) * eta, sp.Matrix.dot(w, w)), shapes={"w": ("d",)})
    >>> tv.check_inequality_over(over[1:], D.lhs, "<=", D.rhs, [tv.Within("eta", 0, 1)], 0).status.value
    'holds'
    """
    return Printed(display, shapes)


def domain_with(domain: Any, config: Mapping[str, Any], sides: tuple, what: str):
    """One setting's domain for an ``_over`` check: ``domain`` (a Domain, a list of variables, a function of the
    setting returning either, or None) with the matrices and vectors of each :class:`Printed` side added where it
    does not name them already.  None when there is no domain and no printed side has shapes (the setting is the
    whole point).  Each printed side is built once here: an argument it cannot be given is a ValueError (the
    check's error verdict for the setting), not an exception in the middle of the drawing."""
    from .domains import Domain, _array_name

    got = domain(dict(config)) if callable(domain) and not isinstance(domain, Domain) else domain
    if got is not None and not isinstance(got, (Domain, list, tuple)):
        raise ValueError(f"{what}: the domain must be a tv.Domain, a list of variables or a function of the "
                         f"setting returning one, got {type(got).__name__}")
    from .dependent import Within
    # a Within whose end names a declared parameter (0 < η ≤ 2/L, L in over=) is that interval at this setting
    variables = [v.at_setting(config) if isinstance(v, Within) else v
                 for v in (got.variables if isinstance(got, Domain) else got or [])]
    named = {_array_name(v) for v in variables} | {str(s) for v in variables for s in v.symbols}
    added = [v for side in sides if isinstance(side, Printed) for v in side.variables(config)]
    added = [v for v in added if _array_name(v) not in named]
    added = list({_array_name(v): v for v in added}.values())
    if not variables and not added and got is None:
        dom = None
    elif not added and isinstance(got, Domain) and list(got.variables) == variables:
        dom = got
    else:
        dom = Domain(added + variables, derived=getattr(got, "derived", None) if isinstance(got, Domain) else None)
    for side in sides:  # built once here, so an argument that is nothing declared is this setting's error verdict
        if isinstance(side, Printed):
            side(config, dom.symbols if dom is not None else ())
    return dom


def at_setting(side: Any, config: Mapping[str, Any], domain: Any = None) -> Any:
    """A side at one setting: a :class:`Printed` instantiated there (its scalars matched by name to ``domain``'s
    symbols), a function of the setting called, a value as it is."""
    if isinstance(side, Printed):
        return side(config, domain.symbols if domain is not None and hasattr(domain, "symbols") else ())
    if isinstance(side, (sp.Basic, sp.MatrixBase, int, float, str)) or not callable(side):
        return side
    return side(dict(config))
