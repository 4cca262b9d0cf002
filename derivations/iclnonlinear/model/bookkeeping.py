"""Exponent bookkeeping of proof steps (spec §2 (a)–(f)): a checked step, premises compared with their uses, and a
verdict from a list of steps.  Shared by the proof-consistency claims of Apps. D–E (Lemmas 4, 5, 8, 9, 10, Theorems
1–2, Sec. 5.3).

Method: every printed asymptotic form is an :class:`~.asymptotics.Order` transcribed in ``printed/proofs.py`` with its
verbatim quote.  Each proof step is re-derived by multiplying the premises *as the cited result states them* and
compared with what the proof writes, by explicit SymPy limits of the ratio (K → ∞, δ → 0, ε → 0 one at a time, and
coupled paths such as K = 2/ε or the sharp-regime threshold L = c/(Δδ)).  A premise is checked by asking whether the
cited result, as printed, implies the form in which the proof uses it.  Any failing step is a discrepancy; the verdict
is ``refuted`` with the first decisive one as counterexample and every step in the details.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import sympy as sp

import theoryverify as tv

from .asymptotics import PARAMS, THETA, K, Order, Path, c, delta, eps, implies, t

METHOD = "exponent bookkeeping in SymPy (explicit limits K→∞, δ→0, ε→0 and coupled paths)"


# ---- steps and verdicts ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    """One checked step of a proof: ``role`` is premise / algebra / statement / later use / hypothesis."""

    name: str
    location: str
    role: str
    ok: bool
    info: Mapping

    def summary(self) -> dict:
        return {"step": self.name, "location": self.location, "role": self.role, "consistent": self.ok, **self.info}


def compared(name: str, location: str, role: str, derived: Order, printed: Order,
             directions: Mapping | None = None, paths: Sequence[Path] = (),
             labels: tuple[str, str] = ("derived_from_premises", "printed"),
             exponent_params: Sequence = PARAMS) -> Step:
    """Does ``derived`` imply ``printed``?  (For a premise: does the cited result as stated imply the form used?)"""
    cmp = implies(derived, printed, directions, paths, exponent_params)
    mism = cmp.exponent_mismatch()
    info = {labels[0]: str(derived), labels[1]: str(printed),
            "limits of ratio": {k: v[0] for k, v in cmp.limits.items()}, "failing limits": list(cmp.failing)}
    for x, v in mism.items():
        info[f"exponent_of_{x}"] = {labels[0]: sp.sstr(v["derived"]), labels[1]: sp.sstr(v["stated"])}
    if derived.symbol != printed.symbol:
        info["symbols"] = {labels[0]: derived.symbol, labels[1]: printed.symbol}
    return Step(name, location, role, cmp.ok, info)


def premise(name: str, location: str, as_stated: Order, as_used: Order, **kw) -> Step:
    return compared(name, location, "premise", as_stated, as_used,
                    labels=("premise_as_stated", "premise_as_used"), **kw)


def text_step(name: str, location: str, role: str, ok: bool, **info) -> Step:
    """A non-asymptotic check (time window, regime, hypotheses), recorded as text."""
    return Step(name, location, role, ok, info)


def verdict_from_steps(steps: Sequence[Step], what: str, primary: str | None = None, **extra) -> tv.Verdict:
    bad = [s for s in steps if not s.ok]
    details = {"steps": [s.summary() for s in steps], **extra}
    if not bad:
        return tv.proved(METHOD, f"{what}: all {len(steps)} steps consistent", **details)
    first = next((s for s in bad if s.name == primary), bad[0])
    ce = {**first.summary(), "all discrepancies": [f"{s.name} ({s.location})" for s in bad]}
    return tv.refuted(METHOD, f"{what}: {len(bad)} of {len(steps)} steps inconsistent; first: {first.name}", ce,
                   **details)



# ---- the u_k step (Lemma 5's proof, reused in Lemmas 6, 8, 10) ------------------------------------------

#: Kδ = c (N = C·K³ with δ = δ_min = √(20K/N) gives Kδ = √(20/C)), K → ∞
PATH_KDELTA = Path("Kδ = c (N = CK³, δ = δ_min), K → ∞", {K: 1 / t, delta: c * t}, 0)


def uk_quantities(p_k: sp.Expr) -> dict[str, sp.Expr]:
    """On E* (Eq. 9) |V_k| ∈ [(p_k − δ)N, (p_k + δ)N], u_k := K(p_k − δ) (Lemma 3 proof)."""
    u = K * (p_k - delta)
    return {"N/|V_k| lower": 1 / (p_k + delta), "N/|V_k| upper": 1 / (p_k - delta), "u_k": u,
            "1/u_k - 1/K": 1 / u - 1 / K}


def attention_bullet_steps(location: str, stated, factor: Order) -> list[Step]:
    """Lemmas 8/10, 2nd–3rd bullets: Attn_k ≥ 1/(O(ε)·O(1/u_k − 1/K) + 1), 1 − Attn_k ≤ (…)/(… + 1) with
    1/u_k − 1/K = Θ(δ) as used, against 1/u_k − 1/K from Eq. 9 and u_k = K(p_k − δ) (p_k = 1/K)."""
    uk = THETA(uk_quantities(1 / K)["1/u_k - 1/K"])
    kw = dict(directions={delta: 0, eps: 0}, paths=(PATH_KDELTA,), exponent_params=(delta, eps))
    return [
        premise("1/u_k − 1/K = Θ(δ) (from Eq. 9; p_k = 1/K)", location, uk, THETA(delta), **kw),
        compared("1 − Attn_k ≤ O(ε)·O(1/u_k − 1/K) with 1/u_k − 1/K from Eq. 9 vs the bullet O(εδ)", location,
                 "statement", factor * uk.upper(), stated.form["1-Attn_k"], **kw),
    ]
