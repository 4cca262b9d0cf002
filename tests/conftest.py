"""Test configuration: the Hypothesis profile (``ci`` unless THEORYVERIFY_HYPOTHESIS says otherwise)."""
from theoryverify import profiles

profiles.load()
