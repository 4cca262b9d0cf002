"""The engine's check kinds.  Each takes the objects under test plus a seed and returns a Verdict.

The check functions are imported on first use (``from theoryverify.checks import check_identity`` works as
before), so that importing one check module (the step checker's identity tier, say) does not pull in SciPy's
statistics, the flow integrator and the Gaussian machinery."""
from __future__ import annotations

import importlib

_WHERE = {
    "check_agreement": ".agreement", "check_agreement_over": ".agreement",
    "check_inequality_over": ".inequality", "check_cases": ".exhaustive", "check_identity": ".identity",
    "check_inequality": ".inequality", "check_mc_bound": ".montecarlo", "check_mc_mean": ".montecarlo",
    "check_mc_means": ".montecarlo", "check_mc_gradient": ".mcgradient",
    "check_flow_converges": "..flows",  # defined beside the flow integrator it uses
    "check_gaussian_expectation": "..gaussian",  # defined beside the Wick expansion it uses
}

__all__ = ["check_agreement", "check_agreement_over", "check_inequality_over", "check_cases", "check_flow_converges", "check_gaussian_expectation", "check_identity",
           "check_inequality", "check_mc_bound", "check_mc_gradient", "check_mc_mean",
           "check_mc_means"]


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
