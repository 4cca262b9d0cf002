"""What the paper prints, transcribed verbatim as SymPy (the objects under test).

Keep every entry a literal transcription with its location; derivations live in ``model.py``.
"""
from __future__ import annotations

import sympy as sp

v1, v2, v3, v4, v5, v6 = sp.symbols("v1:7", nonnegative=True)
T = sp.Symbol("T", positive=True)

#: Table 2 (App. B): prediction logits (EoS excluded) of (s1, a1, s2, a2, s3, EoS).
TABLE2: dict[str, sp.Expr] = {
    "s1": v2**2 + v4**2,
    "s2": v2**2 + v4**2,
    "s3": v2**2 + v4**2,
    "a1": v1**2 + v3**2 + v5**2,
    "a2": v1**2 + v3**2 + v5**2,
    "a3": v1**2 + v3**2 + v5**2,
    "r1": (v1 + v2)**2 + (v3 + v4)**2 + v5**2,
    "r2": (v1 + v4)**2 + (v2 + v3)**2 + v5**2,
    "r3": (v5 + v4)**2 + (v1 + v2)**2 + v3**2,
    "r4": (v5 + v2)**2 + (v1 + v4)**2 + v3**2,
    "r5": (v5 + v4)**2 + (v3 + v2)**2 + v1**2,
    "r6": (v5 + v2)**2 + (v3 + v4)**2 + v1**2,
}


def eqs_4_to_9(p: list[sp.Expr]) -> list[sp.Expr]:
    """Eqs. (4)–(9), App. B: ∂L1/∂v_i as printed, in terms of p = (p1(r1), …, p1(r6))."""
    p1, p2, p3, p4, p5, p6 = p
    return [
        2 / T * ((p1 + p3) * v2 + (p2 + p4) * v4 - v2),                          # (4)
        2 / T * ((p1 + p3) * v1 + (p2 + p5) * v3 + (p4 + p6) * v5 - v1),         # (5)
        2 / T * ((p1 + p6) * v4 + (p2 + p5) * v2 - v4),                          # (6)
        2 / T * ((p1 + p6) * v3 + (p2 + p4) * v1 + (p3 + p5) * v5 - v3),         # (7)
        2 / T * ((p3 + p5) * v4 + (p4 + p6) * v2),                               # (8)
        sp.Integer(0),                                                           # (9)
    ]
