"""theoryverify: a symbolic-plus-numeric verifier for machine-learning theory papers.

The engine (this package) knows no paper.  Papers live in ``derivations/<paper>/`` and declare
claims; the registry collects them; front-ends (``pytest -m theorems``, ``python -m
theoryverify verify``, the report, the step checker) read the registry.
"""
from .claims import Claim, ClaimSet, Kind, Paper, Result, RunContext
from .verdicts import Status, Verdict

__all__ = ["Claim", "ClaimSet", "Kind", "Paper", "Result", "RunContext", "Status", "Verdict", "check"]
__version__ = "0.1.0"


def __getattr__(name: str):
    """``theoryverify.check(statement, context=...)``: the step checker, imported on first use
    (keeps ``import theoryverify`` light)."""
    if name == "check":
        import importlib
        return importlib.import_module(".check", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
