"""What every paper package must satisfy besides its claims, checked by the engine so that no paper carries a test
file for it: each printed display builds, each claim says where the paper states it and what it states.

The pytest plugin (:mod:`theoryverify.pytest_plugin`) runs :func:`problems` as one item per paper package,
``<paper>.package-checks`` (marked ``theorems``), beside the claims' items; ``new-paper`` therefore writes no test
file.  A display is a function a module of the package's ``printed/`` folder defines (not one it imports) that
takes no required argument: it must return something (a relation, a pair, an expression) without raising.  A
display written as a function of its matrices (``eq_grad(X, y, w, n, lam)``, for ``tv.printed(display, shapes)``)
is built by the claims that use it, not here.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType


def _displays(module: ModuleType):
    for name, fn in vars(module).items():
        if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != module.__name__:
            continue
        try:
            params = inspect.signature(fn).parameters.values()
        except (TypeError, ValueError):
            continue
        if not any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                   for p in params):
            yield name, fn


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
