"""Lemmas D.3 and D.4 (App. D; contents lost): the Gaussian identities that the explicit losses (19)
and (22) need — IH-LD3/LD4-gauss.  Reading and derivations in :mod:`.gauss`."""
from __future__ import annotations

import numpy as np
import sympy as sp

from theoryverify.checks import check_identity
from theoryverify.claims import ClaimSet, Kind
from theoryverify.domains import Domain, Interval
from theoryverify.verdicts import Verdict, combine, proved, refuted

from . import gauss as G
from .recon import record

CLAIMS = ClaimSet("inductionheads")

#: The identities as the tool states them (reading of D.3 (i), D.3 (ii), D.4); planted twins replace these.
STATED = {
    "D.3(i)": sp.exp(G.b ** 2 / 2),
    "D.3(ii)": (1 - G.a) ** sp.Rational(-1, 2),
    "D.4": (1 - G.c ** 2) ** sp.Rational(-1, 2),
}
#: The stated hypothesis of D.4 as an interval of c.
STATED_D4_DOMAIN = sp.Interval.open(-1, 1)

DOMAINS = {
    "D.3(i)": Domain([Interval(G.b, -3.0, 3.0)]),
    "D.3(ii)": Domain([Interval(G.a, -3.0, 0.95)]),
    "D.4": Domain([Interval(G.c, -0.95, 0.95)]),
}
# MC points: inside the finite-variance region (|c| < 1/2, a < 1/2) so the SE is meaningful.
MC_POINTS = {"D.3(i)": (0.7, -1.2), "D.3(ii)": (0.3, -1.5), "D.4": (0.3, -0.4)}
MC_FUNCS = {"D.3(i)": (G.mc_exp_linear, G.b), "D.3(ii)": (G.mc_exp_quadratic, G.a), "D.4": (G.mc_bilinear, G.c)}

CHOICES = {**record("RC-2"), **{
    "reading": "D.3 (i) E e^{bx} = e^{b^2/2}; D.3 (ii) E e^{a x^2/2} = (1-a)^{-1/2}, a < 1; "
               "D.4: let |c| < 1, then E e^{cxz} = (1-c^2)^{-1/2} (x, z iid N(0,1))",
    "derivation": "SymPy integrate against the N(0,1) density with s = 1-2A > 0 declared positive; D.4 by "
                  "iterated expectation (z, then x); hypothesis = collected convergence condition",
    "MC": "n = 2e5 (quick) / 2e6 (full) per point, |c| < 1/2 and a < 1/2 (finite variance), rule max(1%, 3 SE)",
}}


def check_gauss(ctx, stated=None, stated_d4_domain=STATED_D4_DOMAIN, n_mc: int = 200_000) -> Verdict:
    """Derived (integrate) == stated for each identity; D.4's derived domain == stated hypothesis;
    divergence outside; Monte Carlo at fixed points."""
    stated = dict(STATED if stated is None else stated)
    derived = {"D.3(i)": G.d3_exp_linear()[0], "D.3(ii)": G.d3_exp_quadratic()[0], "D.4": G.d4_bilinear()[0]}
    parts: dict[str, Verdict] = {}
    for name, expr in derived.items():
        parts[f"{name} symbolic"] = check_identity(expr, stated[name], DOMAINS[name], ctx.seed, rtol=1e-10)
    dom = G.d4_domain()
    if dom == stated_d4_domain and G.divergent_when_not_positive():
        parts["D.4 hypothesis"] = proved("solveset of the collected convergence condition",
                                         f"E e^(cxz) finite iff c in {dom} (derived); divergent outside")
    else:
        parts["D.4 hypothesis"] = refuted("solveset of the collected convergence condition",
                                          f"derived domain {dom} != stated {stated_d4_domain}",
                                          {"derived": str(dom), "stated": str(stated_d4_domain)})
    rng = np.random.default_rng(ctx.seed)
    for name, pts in MC_POINTS.items():
        fn, sym = MC_FUNCS[name]
        f = sp.lambdify(sym, stated[name], "numpy")
        for x in pts:
            est, se = fn(x, n_mc, rng)
            parts[f"{name} MC at {sym}={x}"] = G.mc_verdict(f"{name} at {sym}={x}", est, se, float(f(x)), 0.01,
                                                           n_mc, **{str(sym): x})
    return combine(parts, method="D.3/D.4 identities:")


@CLAIMS.add("ld3-ld4-gauss", location="Lemmas D.3, D.4, App. D (used for Eqs. (19), (22))", kind=Kind.IDENTITY,
            catalogue_id="IH-LD3/LD4-gauss", choices=CHOICES,
            statement="Lemmas D.3/D.4 (contents lost; reading): D.3 E e^{bx} = e^{b²/2} and E e^{a x²/2} = "
                      "(1-a)^{-1/2} (a < 1); D.4 if |c| < 1 then E e^{cxz} = (1-c²)^{-1/2}; verdict on the "
                      "reconstruction.")
def ld3_ld4_gauss(ctx) -> Verdict:
    return check_gauss(ctx, n_mc=200_000 if ctx.profile == "quick" else 2_000_000)
