"""What the paper prints, transcribed verbatim with its location — the thing under test.

Only one display of the induction-heads paper survives anywhere: the first step of the proof of Thm 4.3
(App. A.2 here; v3's proof of Thm C.2, Step 1), quoted by an ICLR 2026 reviewer (spec §1, R2):

    SA^{1,h}(X^0_{0:s})_{-1} = Σ_j a^h_{s-j,s} W_V^{1,h} x_{s-j}
                             = S_i α_{h,i} (Σ_{f=0}^{H_i} exp(-β_{h,i}(f-1))) Σ_j a^h_{s-j,s} x_{s-j},
    a^h_{s-j,s} = e^{-β_{h,i}(j-1)} / Σ_{f=1}^{s} e^{-β_{h,i}(f-1)}.

Everything else the paper printed was lost in extraction; the models are reconstructions (:mod:`..model.recon`).
What survives of the statements and proofs in words — the sentences around the lost displays, quoted verbatim
with their line numbers — is transcribed once in :mod:`.proof_text`."""
from __future__ import annotations

from functools import lru_cache

import sympy as sp

LOCATION = "proof of Thm 4.3, Step 1 (App. A.2; v3 Thm C.2), via R2"
VALUE_SCALE_TEXT = "S_i alpha_{h,i} (sum_{f=0}^{H_i} exp(-beta_{h,i}(f-1)))"
ATTENTION_TEXT = "a^h_{s-j,s} = e^{-beta_{h,i}(j-1)} / sum_{f=1}^{s} e^{-beta_{h,i}(f-1)}"

s, H_i = sp.symbols("s H_i", positive=True, integer=True)
beta = sp.symbols("beta", positive=True)
f = sp.symbols("f", integer=True)

#: the value scaling's sum, printed range f = 0..H_i
VALUE_SCALE = sp.Sum(sp.exp(-beta * (f - 1)), (f, 0, H_i))
#: the attention normaliser, printed range f = 1..s
NORMALISER = sp.Sum(sp.exp(-beta * (f - 1)), (f, 1, s))


def generic(expr):
    """The generic branch of a SymPy Piecewise (β > 0 excludes the e^{-β} = 1 branch)."""
    expr = sp.piecewise_fold(expr)
    return expr.args[-1][0] if isinstance(expr, sp.Piecewise) else expr


@lru_cache(maxsize=None)
def value_scale_closed():
    """:data:`VALUE_SCALE` summed by SymPy (generic branch)."""
    return generic(VALUE_SCALE.doit())


@lru_cache(maxsize=None)
def normaliser_closed():
    """:data:`NORMALISER` summed by SymPy (generic branch)."""
    return generic(NORMALISER.doit())


@lru_cache(maxsize=None)
def _value_scale_np():
    return sp.lambdify((beta, H_i), value_scale_closed(), "math")


def value_scale(beta_v: float, H_v: int) -> float:
    """The printed value scaling Σ_{f=0}^{H_i} e^{-β(f-1)} at numbers."""
    return float(_value_scale_np()(float(beta_v), int(H_v)))
