"""Small helpers the claims share: a seeded ``random.Random``; round-off-level printing, JSON-friendly values,
float64 / high-precision evaluation of SymPy expressions and the device choice are the engine's (``tv``),
imported here so the claims keep one place to import them from."""
from __future__ import annotations

import random

from theoryverify import (NOISE_FLOOR, compile_float, fmt_error, fmt_signed, high_precision, plain,  # noqa: F401
                          resolve_device)


def pyrandom(seed: int) -> random.Random:
    return random.Random(seed)

