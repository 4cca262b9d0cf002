"""Step contexts of the induction-heads paper for ``python -m theoryverify.check``.

``inductionheads.stage2``: the reduced Stage-II losses of Section 5 (App. C) on the default
reconstruction (RC-1, RC-5, RC-8, RC-9, RC-10, RC-12, RC-19; see :mod:`recon`):

* ``L_IH(k, v2; alpha, w, N)`` — the induction-head loss under the C.2 simplification, derived in
  :func:`head2.loss_ih_sym` (Eq. (22), lost in the paper);
* ``L_G4inf(p, v1; alpha)`` — the 4-gram loss in the long-sequence limit, derived in
  :func:`head1.loss_g4_inf` (App. C.1, Eq. (19) as L → ∞);
* ``k = w_K w_Q`` as a reparametrisation, so ``diff(L_IH, w_K)`` follows the chain rule (RC-8).

Every definition comes from the derivation modules; nothing is re-typed here.
"""
from __future__ import annotations

from theoryverify import Interval, LogUniform, Reparametrisation, StepContext

from .model import head1, head2


def stage2_definitions() -> dict:
    return {"L_IH": head2.loss_ih_sym(), "L_G4inf": head1.loss_g4_inf(in_q=False)}


DOCS = {
    "L_IH": "induction-head loss 1/(2N)[v2²G(2k) − 2(1−α)v2 G(k+w) + (1−α)²G(2w)], G(c) = (1−c²)^(−1/2) "
            "(derived under RC-12; App. C.2 Eq. (22))",
    "L_G4inf": "4-gram loss as L → ∞: ½[v1²(1−e^{−p})/(1+e^{−p}) − 2α v1(1−e^{−p}) + α²] (App. C.1)",
    "k": "w_KQ = w_K·w_Q, the head-2 dot-product parameter (Lemma 5.4)",
    "v2": "head-2 value w_V^(2,2)", "p": "head-1 Alibi slope p^(2,1)", "v1": "head-1 value w_V^(2,1)",
    "alpha": "target weight α* of the 4-gram component", "w": "target similarity scale w*",
    "N": "number of head-2 summands, L − 2 (RC-19)",
}


def stage2_context() -> StepContext:
    kq = Reparametrisation(
        coordinates=(head2.wK, head2.wQ),
        substitution={head2.k: head2.wK * head2.wQ},
        jacobian={(head2.k, head2.wK): head2.wQ, (head2.k, head2.wQ): head2.wK},
        variables=(Interval(head2.wK, -0.7, 0.7), Interval(head2.wQ, -0.7, 0.7)),
        description="k = w_K w_Q (RC-8)",
    )
    return StepContext(
        name="inductionheads.stage2",
        description="induction heads, Stage II reduced losses (Sec. 5, App. C) on the default reconstruction; "
                    "admissible domain |k|, |w| < 1/2 (derived)",
        variables=[Interval(head2.k, -0.45, 0.45), Interval(head2.v2, 0.0, 1.2), Interval(head2.alpha, 0.05, 0.95),
                   Interval(head2.w, 0.01, 0.45), LogUniform(head2.N, 3.0, 400.0), Interval(head1.p, 0.0, 6.0),
                   Interval(head1.v1, 0.0, 1.5)],
        definitions=stage2_definitions,
        docs=DOCS,
        reparametrisations=[kq],
    )


CONTEXTS = [stage2_context()]
