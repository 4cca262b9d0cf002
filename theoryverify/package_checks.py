"""What every paper package must satisfy besides its claims, checked by the engine so that no paper carries a test
file for it: each printed display builds, each claim says where the paper states it and what it states.

The pytest plugin (:mod:`theoryverify.pytest_plugin`) runs :func:`problems` as one item per paper package,
``<paper>.package-checks`` (marked ``theorems``), beside the claims' items; ``new-paper`` therefore writes no test
file.  A display is a function a module of the package's ``printed/`` folder defines (not one it imports) that
takes no required argument: it must return something (a relation, a pair, an expression) without raising.  A
display written as a function of its matrices (``eq_grad(X, w, y, lam, n)``, for ``tv.printed(display, shapes)``)
in a module with a ``SHAPES`` dict naming each matrix argument (as ``new-paper --from-tex`` drafts it) is built
here with a ``MatrixSymbol`` of its shape for each matrix (each size a distinct whole number, so a product that
does not conform raises) and a symbol for each other argument; one in a module
without ``SHAPES`` is built by the claims that use it, not here.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType


def _displays(module: ModuleType):
    """(name, a function of no argument building the display) for each display of ``module`` that can be built."""
    shapes = getattr(module, "SHAPES", None)
    for name, fn in vars(module).items():
        if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != module.__name__:
            continue
        try:
            params = inspect.signature(fn).parameters.values()
        except (TypeError, ValueError):
            continue
        required = [p.name for p in params
                    if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        if not required:
            yield name, fn
        elif isinstance(shapes, dict) and any(r in shapes for r in required):
            yield name, (lambda fn=fn, required=tuple(required): fn(**_symbolic(required, shapes)))


def _symbolic(names, shapes: dict) -> dict:
    """A MatrixSymbol of its shape for each name of ``shapes`` (a vector ``("d",)`` is d × 1), each size named by a
    parameter given a distinct whole number (2, 3, 5, …: a product that does not conform raises, which it need not
    with symbolic sizes), a symbol for the others."""
    import sympy as sp

    named = sorted({str(d) for v in shapes.values() for d in (v if isinstance(v, (tuple, list)) else (v,))
                    if not (isinstance(d, int) or str(d).isdigit())})
    primes = dict(zip(named, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)))

    def size(d):
        return sp.Integer(int(d)) if isinstance(d, int) or str(d).isdigit() else \
            sp.Integer(primes[str(d)]) if str(d) in primes else sp.Symbol(str(d))

    out = {}
    for n in names:
        dims = shapes.get(n)
        if dims is None:
            out[n] = sp.Symbol(n)
        else:
            dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
            out[n] = sp.MatrixSymbol(n, *[size(d) for d in dims], *([sp.Integer(1)] if len(dims) == 1 else []))
    return out


def printed_modules(package: str) -> list[str]:
    """The modules of ``package.printed`` (none when the package has no ``printed/`` folder)."""
    try:
        printed = importlib.import_module(f"{package}.printed")
    except ModuleNotFoundError as exc:
        if exc.name in (f"{package}.printed", package):
            return []
        raise
    return [f"{printed.__name__}.{m.name}" for m in pkgutil.iter_modules(getattr(printed, "__path__", []))]


def problems(paper: str, package: str) -> list[str]:
    """One line per printed display of ``package`` that does not build, and per claim of ``paper`` with no
    location or no statement (empty when all is well).

    >>> problems("nopaper", "theoryverify.templates")
    []
    """
    out = []
    for name in printed_modules(package):
        try:
            module = importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - reported, with what it raised
            out.append(f"{name}: does not import ({type(exc).__name__}: {exc})")
            continue
        for entry, fn in _displays(module):
            try:
                value = fn()
            except Exception as exc:  # noqa: BLE001
                out.append(f"{name}.{entry}(): raised {type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
                continue
            if value is None:
                out.append(f"{name}.{entry}(): returned None (a display returns its relation)")
    from . import registry

    for claim in registry.claims(paper=paper) if paper in registry.papers() else []:
        if not (claim.location or "").strip() or not (claim.statement or "").strip():
            out.append(f"claim {claim.id} ({claim.source}): no {'location' if not (claim.location or '').strip() else 'statement'}")
    return out
