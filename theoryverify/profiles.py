"""Hypothesis profiles: ``ci`` (derandomized, no example database) and ``thorough``.

Chosen by the environment variable ``THEORYVERIFY_HYPOTHESIS`` (default ``ci``).  Engine checks
seed every search from (global seed, claim id), so their draws do not depend on test order.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

ENV_VAR = "THEORYVERIFY_HYPOTHESIS"

settings.register_profile("ci", max_examples=60, derandomize=True, database=None, deadline=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


def load(name: str | None = None) -> str:
    chosen = name or os.environ.get(ENV_VAR, "ci")
    settings.load_profile(chosen)
    return chosen
