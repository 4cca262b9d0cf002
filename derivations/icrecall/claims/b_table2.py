"""Table 2 and Eqs. (4)–(9) (App. B): printed == derived from the model, one claim per display."""
from __future__ import annotations

from typing import Callable

import sympy as sp

import theoryverify as tv
from theoryverify import check_identity
from theoryverify import ClaimSet, Kind
from theoryverify import Domain, LogUniform, Simplex
from theoryverify import Verdict, combine

from itertools import permutations

from functools import lru_cache

from theoryverify import check_agreement, check_cases
from ..experiments.util import compile_float

from ..printed import appb as printed
from ..model.symbolic import TABLE1_RELATIONS, ic_sequence, n3, step1_logits

CLAIMS = ClaimSet("icrecall")

SIMPLEX_V = Domain([Simplex(n3().v)])
SIMPLEX_V_T = Domain([Simplex(n3().v), LogUniform(n3().T, 1e-2, 10.0)])

PrintedGrads = Callable[[list[sp.Expr]], list[sp.Expr]]


@CLAIMS.add("table2", location="Table 2, App. B", kind=Kind.IDENTITY, catalogue_id="ICR-T2-logits",
            statement="The 12 prediction logits l(s_i), l(a_i), l(r_j) of (s1,a1,s2,a2,s3,EoS) are the "
                      "printed polynomials in the attention scores v")
def check_table2(ctx, table: dict[str, sp.Expr] = printed.TABLE2) -> Verdict:
    """Each printed Table-2 polynomial against the logit derived from the construction."""
    m = n3()
    parts = {name: check_identity(m.all_logits[name], table[name], SIMPLEX_V, ctx.seed) for name in table}
    return combine(parts, method="Table 2 entries:")


def table1_label(r: tuple[int, ...], rstar: tuple[int, ...], subjects: tuple[int, ...]) -> str:
    """Table-1 label of relation r for the sequence (s_σ1, a_σ1, s_σ2, a_σ2, s_σ3, EoS) with a_i = r*(s_σi)."""
    answers = [rstar[s] for s in subjects]
    pattern = tuple(answers.index(r[s]) for s in subjects)
    return f"r{TABLE1_RELATIONS.index(pattern) + 1}"


@CLAIMS.add("table2-all-seqs", location="Table 2, App. B", kind=Kind.IDENTITY, catalogue_id="ICR-T2-logits",
            statement="For all 36 sequences of F-all3 (6 r* × 6 subject orders) the 12 logits, with each relation "
                      "mapped to its Table-1 label, are the printed Table-2 polynomials",
            choices={"family": "F-all3", "labels": "Table-1 label from the pattern (r(s_σ1), r(s_σ2), r(s_σ3))"})
def check_table2_all_sequences(ctx, table: dict[str, sp.Expr] = printed.TABLE2) -> Verdict:
    """Every (r*, subject order) of F-all3: each derived logit of the 12 tokens, named by its role in the
    sequence (i-th subject / answer, Table-1 label of the relation), against Table 2 (exact polynomials)."""
    m = n3()
    voc = m.vocab
    cases = []
    for k, rstar in enumerate(voc.relations):
        for subjects in permutations(range(3)):
            lg = step1_logits(voc, ic_sequence(voc, subjects, k), m.v)
            roles = {f"s{i + 1}": lg[voc.s(s)] for i, s in enumerate(subjects)}
            roles |= {f"a{i + 1}": lg[voc.a(rstar[s])] for i, s in enumerate(subjects)}
            roles |= {table1_label(r, rstar, subjects): lg[voc.r(j)] for j, r in enumerate(voc.relations)}
            cases += [(f"r*=r{k + 1}, subjects={subjects}, {name}", (expr, table[name])) for name, expr in roles.items()]
    return check_cases(cases, lambda c: (sp.expand(c[0] - c[1]) == 0, {"derived": c[0], "printed": c[1]}),
                       exhaustive=True, what="(sequence, token) pairs")


def eq_part(ctx, i: int, printed_grads: PrintedGrads = printed.eqs_4_to_9) -> Verdict:
    """Eq. (4 + i), App. B: the model-derived ∂L1/∂v_{i+1} against the printed one (p from the model)."""
    m = n3()
    derived = m.grad_v()[i]
    shown = printed_grads(m.p1())[i]
    return check_identity(derived, shown, SIMPLEX_V_T, ctx.seed + i, symbolic_seconds=2.0)


def eq_4_9_parts(ctx, printed_grads: PrintedGrads = printed.eqs_4_to_9) -> dict[str, Verdict]:
    """All six of Eqs. (4)–(9) as separate verdicts (for callers that want them together)."""
    return {f"Eq. ({4 + i})": eq_part(ctx, i, printed_grads) for i in range(6)}


def _register_eq(i: int) -> None:
    k = 4 + i
    lhs = f"∂L1/∂v{i + 1}"

    @CLAIMS.add(f"eq{k}", location=f"Eq. ({k}), App. B", kind=Kind.IDENTITY, catalogue_id=f"ICR-B-eq{k}",
                statement=f"{lhs} as printed in Eq. ({k}) equals the derivative of "
                          "L1 = −l(r1)/T + log Σ_j exp(l(r_j)/T) (logits from the construction), "
                          "for v on the simplex and T > 0",
                choices={"p": "p_j = softmax(l/T)_j from the model-derived logits",
                         "domain": "v on the closed 6-simplex, T log-uniform in [0.01, 10]"})
    def check(ctx, _i=i):
        return eq_part(ctx, _i)


for _i in range(6):
    _register_eq(_i)


# --- torch autograd cross-check of Eqs. (4)–(9) -------------------------------------------------

P_SYMS = sp.symbols("P1:7", positive=True)


@lru_cache(maxsize=1)
def _torch_setup():
    from ..model.torch_model import table1_model  # independent float64 torch model (full matrices)
    model = table1_model(device="cpu")
    return model, model.batch([((0, 1, 2), 0)])


def autograd_grad_v(point: dict) -> tuple:
    """(∂ℓ1/∂v by torch autograd of the full model, p = softmax(l/T) from the same model) at ``point``."""
    import torch
    model, batch = _torch_setup()
    m = n3()
    attn = model.tensor([point[s] for s in m.v]).requires_grad_(True)
    t = float(point[m.T])
    loss = model.ell1_attn(attn, t, batch).sum()
    (grad,) = torch.autograd.grad(loss, attn)
    with torch.no_grad():
        p = torch.softmax(model.relation_logits(batch["step1"], attn.detach()[None, :]) / t, dim=-1)[0]
    return grad.numpy(), p.numpy()


def eq_autograd(ctx, i: int, printed_grads: PrintedGrads = printed.eqs_4_to_9) -> Verdict:
    """Eq. (4 + i) as printed, with p1(r_j) from the torch model, against torch autograd of ℓ1."""
    m = n3()
    shown = compile_float(printed_grads(list(P_SYMS))[i], (*m.v, m.T, *P_SYMS))

    def printed_value(point):
        _, p = autograd_grad_v(point)
        return shown({**point, **dict(zip(P_SYMS, p))})

    return check_agreement(printed_value, lambda point: autograd_grad_v(point)[0][i], SIMPLEX_V_T.floats(),
                           ctx.seed + i, rtol=1e-10, n=30, names=("printed", "autograd"),
                           describe=lambda point: {str(k): v for k, v in point.items()})


def _register_autograd(i: int) -> None:
    k = 4 + i

    @CLAIMS.add(f"eq{k}-autograd", location=f"Eq. ({k}), App. B", kind=Kind.AUTOGRAD, catalogue_id=f"ICR-B-eq{k}",
                statement=f"Eq. ({k}) as printed (p1(r_j) from the torch model) equals torch autograd of ℓ1 of the "
                          "full-matrix model w.r.t. the EoS attention v, for v on the simplex and T > 0",
                choices={"sequence": "(s1, a1, s2, a2, s3, EoS) with r* = r1 (Table-1 order)",
                         "draws": "30 Hypothesis draws, v on the closed simplex, T log-uniform in [0.01, 10]",
                         "tolerance": "relative 1e-10"})
    def check(ctx, _i=i):
        return eq_autograd(ctx, _i)


for _i in range(6):
    _register_autograd(_i)
