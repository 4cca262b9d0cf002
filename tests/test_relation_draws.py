"""Relation-bounded draws (issue 29, item 3): Domain.assuming describes a symbol bounded by others as drawn inside
them (not "L ∈ ℝ"), spreads a wide positive interval such as [μ, 1e4·μ] over its decades, and the boundary points
(κ = 1 at L = μ) count towards coverage — so the quantifier rule sees the range the check searched."""
from __future__ import annotations

import math

import sympy as sp

import theoryverify as tv

mu, L = sp.symbols("mu L", positive=True)
DOMAIN = tv.Domain.assuming([mu, L], ["1e-3 <= mu <= 10", "mu <= L <= 10000*mu"])
RATE = (sp.sqrt(L / mu) - 1) / (sp.sqrt(L / mu) + 1)


def test_a_tied_symbol_is_described_inside_its_relations():
    text = DOMAIN.describe()
    assert "L ∈ ℝ" not in text and "L drawn after mu" in text and "log-uniformly" in text, text


def test_the_draws_cover_the_decades_of_l_and_the_boundary_counts():
    v = tv.check_identity(sp.sqrt(RATE**2), RATE, DOMAIN, 0, try_symbolic=False)
    assert v.status is tv.Status.HOLDS, v.evidence
    cov = v.details["coverage"]["L"]
    covered = math.log(cov["max"] / cov["min"]) / math.log(1e5 / 1e-3)
    assert covered > 0.9 and cov["min"] == 1e-3, cov


def test_a_planted_error_on_the_tied_domain_is_refuted():
    assert tv.check_identity(RATE, (sp.sqrt(L / mu) - 1) / sp.sqrt(L / mu), DOMAIN, 0).status is tv.Status.REFUTED


KAPPA_DOMAIN = tv.Domain.assuming([mu, L], ["1e-3 <= mu <= 10", "mu <= L <= 10000*mu"], derived={"kappa": L / mu})


def test_ranges_are_typed_once_and_kappa_is_covered():
    """Issue 29, item 4: ``over=`` from the domain (no second copy of the ranges), κ = L/μ among them, and its
    coverage recorded by the identity check, so the quantifier rule judges κ too."""
    over = KAPPA_DOMAIN.over()
    assert {o.name: (o.lo, o.hi) for o in over} == {"L": (1e-3, 1e5), "mu": (1e-3, 10.0), "kappa": (1.0, 1e4)}
    claims = tv.ClaimSet("p")

    @claims.add("c", location="Prop. 1", statement="ρ² is the square of ρ", kind=tv.Kind.IDENTITY, over=over)
    def c(ctx, rhs=RATE):
        return tv.check_identity(sp.sqrt(RATE**2), rhs, KAPPA_DOMAIN, ctx.seed, try_symbolic=False)
    v = claims.claims[0].run(tv.RunContext(seed=0)).verdict
    assert v.status is tv.Status.HOLDS and "kappa ∈ [1, 10000]" in v.evidence, v.evidence
    assert c(tv.RunContext(seed=0), rhs=RATE * (1 + 1 / (L / mu))).status is tv.Status.REFUTED  # planted
