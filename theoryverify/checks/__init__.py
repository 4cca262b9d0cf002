"""The engine's check kinds.  Each takes the objects under test plus a seed and returns a Verdict."""
from .agreement import check_agreement
from .exhaustive import check_cases
from .identity import check_identity
from .inequality import check_inequality

__all__ = ["check_agreement", "check_cases", "check_identity", "check_inequality"]
