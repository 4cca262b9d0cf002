"""Table 2 and Eqs. (4)–(9) (App. B): printed == derived from the model."""
from __future__ import annotations

import sympy as sp

from theoryverify.checks import check_identity
from theoryverify.claims import ClaimSet, Kind
from theoryverify.domains import Domain, LogUniform, Simplex
from theoryverify.verdicts import combine

from . import printed
from .model import n3

CLAIMS = ClaimSet("icrecall")

SIMPLEX_V = Domain([Simplex(n3().v)])
SIMPLEX_V_T = Domain([Simplex(n3().v), LogUniform(n3().T, 1e-2, 10.0)])


@CLAIMS.add("table2", location="Table 2, App. B", kind=Kind.IDENTITY, catalogue_id="ICR-T2-logits",
            statement="The 12 prediction logits l(s_i), l(a_i), l(r_j) of (s1,a1,s2,a2,s3,EoS) are the "
                      "printed polynomials in the attention scores v")
def table2(ctx):
    m = n3()
    parts = {name: check_identity(m.all_logits[name], printed.TABLE2[name], SIMPLEX_V, ctx.seed)
             for name in printed.TABLE2}
    return combine(parts, method="Table 2 entries:")


def eq_4_9_parts(ctx, printed_grads):
    m = n3()
    derived = m.grad_v()
    shown = printed_grads(m.p1())
    return {f"Eq. ({4 + i})": check_identity(d, s, SIMPLEX_V_T, ctx.seed + i, symbolic_seconds=2.0)
            for i, (d, s) in enumerate(zip(derived, shown))}


@CLAIMS.add("eq4-9", location="Eqs. (4)–(9), App. B", kind=Kind.IDENTITY, catalogue_id="ICR-B-eq4",
            statement="∂L1/∂v_i = (2/T)(…) as printed in Eqs. (4)–(9), for v on the simplex and T > 0")
def eq4_9(ctx):
    return combine(eq_4_9_parts(ctx, printed.eqs_4_to_9), method="Eqs. (4)–(9):")
