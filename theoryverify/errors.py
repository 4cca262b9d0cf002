"""The one exception base class of the engine.

Every error the engine raises on purpose — an unknown paper, claim or context, an inconsistent claim
declaration, a missing outside input, bad input to a front-end — is a :class:`TheoryverifyError`, so a paper
author or a tool built on theoryverify can catch them in one place; front-ends turn them into a one-line
error and exit code 2.
"""
from __future__ import annotations


class TheoryverifyError(Exception):
    """Base class of the errors theoryverify raises on purpose."""
