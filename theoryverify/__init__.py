"""theoryverify: a symbolic-plus-numeric verifier for machine-learning theory papers.

The engine (this package) knows no paper.  Papers live in ``derivations/<paper>/`` and declare
claims; the registry collects them; front-ends (``pytest -m theorems``, ``python -m
theoryverify verify``, the report, the step checker) read the registry.
"""
from .claims import Claim, ClaimSet, Kind, Paper, Result, RunContext
from .verdicts import Status, Verdict

__all__ = ["Claim", "ClaimSet", "Kind", "Paper", "Result", "RunContext", "Status", "Verdict"]
__version__ = "0.1.0"
