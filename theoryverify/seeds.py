"""Seeds derive from (global seed, claim id), never from test order (principle 5)."""
from __future__ import annotations

import hashlib
import random

import numpy as np

DEFAULT_SEED = 20261121


def derive_seed(global_seed: int, *names: str) -> int:
    """A 32-bit seed that depends only on the global seed and the given names."""
    text = "\x1f".join([str(global_seed), *names]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big")


def rng(seed: int) -> np.random.Generator:
    """NumPy's generator for ``seed`` (a claim passes ``ctx.seed``): the same seed, the same draws.

    >>> rng(3).integers(0, 100, 3).tolist() == rng(3).integers(0, 100, 3).tolist()
    True
    """
    return np.random.default_rng(seed)


def pyrandom(seed: int) -> random.Random:
    return random.Random(seed)
