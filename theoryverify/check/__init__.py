"""Interactive checking of one derivation step (the third front-end on the claim engine).

>>> from theoryverify.check import check
>>> v = check("diff(L1, v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)", context="icrecall.n3")
>>> v.status.value, v.exit_code
('proved', 0)

``check`` returns a :class:`StepVerdict` (the engine verdict, the counterexample with every free
symbol's value and both sides' values there, Markdown/LaTeX reprs for notebooks).  The CLI is
``python -m theoryverify.check`` (see :mod:`.cli`); the REPL is :mod:`.repl`.

The package itself is callable, so ``theoryverify.check("...", context="...")`` works too.
"""
from __future__ import annotations

import sys
import types
from functools import lru_cache
from typing import Iterable, Sequence

from typing import TYPE_CHECKING

from .parser import BadInput

if TYPE_CHECKING:  # pragma: no cover
    from .result import StepVerdict
    from .session import Session

__all__ = ["BadInput", "Session", "StepVerdict", "check"]


def __getattr__(name: str):
    # SymPy, Hypothesis and the contexts load on first use, so the CLI can reject bad input fast
    if name == "Session":
        from .session import Session
        return Session
    if name == "StepVerdict":
        from .result import StepVerdict
        return StepVerdict
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@lru_cache(maxsize=8)
def _session(context: str, assume: tuple[str, ...], seed: int, timeout: float,
             define: tuple[str, ...] = ()) -> "Session":
    from .session import Session
    return Session(context, assume, seed=seed, timeout=timeout, define=define)


def check(statement: str, context: str = "free", *, assume: Sequence[str] = (), given: Iterable[str] = (),
          by: str | None = None, seed: int | None = None, timeout: float | None = None,
          define: Sequence[str] = (), latex: bool = False) -> "StepVerdict":
    """Check ``statement`` (``LHS == RHS``, ``<=``, ``>=``, ``<``, ``>``, or a chain ``A == B <= C``) in
    ``context``; ``latex=True`` reads it as LaTeX; ``define`` adds ``f(x) := ...`` / ``g := ...`` definitions
    and ``assume`` the free context's assumptions (``"0 < p < 1"``, ``"n: integer"``, ``"X ~ Normal(0, s)"``).

    A bad statement, an unknown context, or a bad assumption or definition gives a verdict with status
    ``error``, ``bad_input`` true and ``exit_code`` 2, its one-line reason as the evidence (as the CLI prints it).

    >>> v = check("x <= 1", assume=["x**2 + y**2 <= 1"])
    >>> v.bad_input, v.exit_code, v.verdict.evidence[:21]
    (True, 2, 'cannot use assumption')
    """
    from ..seeds import DEFAULT_SEED
    from .parser import DEFAULT_TIMEOUT
    from .result import bad_input
    try:
        s = _session(context, tuple(assume), DEFAULT_SEED if seed is None else seed,
                     DEFAULT_TIMEOUT if timeout is None else timeout, tuple(define))
    except BadInput as exc:
        return bad_input(statement if isinstance(statement, str) else "", context, str(exc))
    return s.check(statement, given=given, by=by, latex=latex)


class _CallableModule(types.ModuleType):
    """Lets ``theoryverify.check(...)`` (the package) be called like :func:`check`."""

    def __call__(self, statement: str, context: str = "free", **kwargs) -> "StepVerdict":
        return check(statement, context, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
