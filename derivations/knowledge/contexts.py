"""Step contexts for ``python -m theoryverify.check``.

``knowledge.qa``: a Q&A prompt [s, f] of the one-layer model (Eqs. 4–5 on two orthogonal tokens, query f).
Symbols: mu (‖s‖), z_sf and z_ff (the entries of Z with key s resp. f and query f).  Definitions, derived from
the model's SymPy side (``model.symbolic``, never typed from the paper): ``alpha_s`` and ``alpha_f`` — the
attention scores on s and f (Lemma 17 says α_s ≈ 1/2 during FT; Lemma 4 bounds the init entries).

    python -m theoryverify.check --context knowledge.qa "alpha_s == 1/(1 + exp(-(mu*z_sf - z_ff)))"   # holds
    python -m theoryverify.check --context knowledge.qa "alpha_s == 1/(1 + exp(-(z_sf - z_ff)))"      # refuted
"""
from __future__ import annotations

import sympy as sp

import theoryverify as tv

mu = sp.Symbol("mu", positive=True)
z_sf, z_ff = sp.symbols("z_sf z_ff", real=True)


def _definitions() -> dict[str, sp.Expr]:
    from .model.symbolic import instance

    inst = instance(d=2, m=1, seq=(0, 1), target=0)          # token 0 = s, token 1 = f (the query)
    subs = {inst.norms[0]: mu, inst.norms[1]: 1, inst.Z[0, 1]: z_sf, inst.Z[1, 1]: z_ff}
    a_s, a_f = (sp.simplify(a.subs(subs)) for a in inst.alpha())
    return {"alpha_s": a_s, "alpha_f": a_f}


CONTEXTS = [tv.StepContext(
    name="knowledge.qa",
    description="a Q&A prompt [s, f] of the one-layer transformer (Eqs. 4–5): attention with query f on two "
                "orthogonal tokens, ‖s‖ = mu, ‖f‖ = 1",
    variables=[tv.LogUniform(mu, 0.1, 10.0), tv.Interval(z_sf, -2.0, 2.0), tv.Interval(z_ff, -2.0, 2.0)],
    definitions=_definitions,
    docs={"alpha_s": "attention score on s of [s, f] (softmax of x_lᵀ Z x_f, derived from model.symbolic)",
          "alpha_f": "attention score on f of [s, f]"},
)]
