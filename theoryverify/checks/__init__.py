"""The engine's check kinds.  Each takes the objects under test plus a seed and returns a Verdict."""
from .agreement import check_agreement
from .exhaustive import check_cases
from .identity import check_identity
from .inequality import check_inequality
from .montecarlo import check_mc_bound, check_mc_mean
from ..flows import check_flow_converges  # noqa: E402  (defined beside the flow integrator it uses)
from ..gaussian import check_gaussian_expectation  # noqa: E402  (defined beside the Wick expansion it uses)

__all__ = ["check_agreement", "check_cases", "check_flow_converges", "check_gaussian_expectation", "check_identity",
           "check_inequality", "check_mc_bound", "check_mc_mean"]
