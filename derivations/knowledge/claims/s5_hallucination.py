"""Sec. 5, Theorem 2(3) (hallucination; App. G.5 (282)–(286), H.5): with too few FT pairs for their phrases to
cover 𝓡, more than c|𝓡| relations stay uncovered and L_OOD ≥ Ω(c N_r / (N − Ñ_f)).  The combinatorial step is
checked exhaustively; the bound is measured on the reconstructed model in both PT regimes (``ood_sweeps.modes``)."""
from __future__ import annotations

from itertools import combinations, product

import numpy as np

import theoryverify as tv

from ..experiments import ood_sweeps as O
from ..experiments.protocol import GIVEN_P1, choices, p1_choices, prop1

CLAIMS = tv.ClaimSet("knowledge")

QUICK, FULL = {"protocol": "quick"}, {"protocol": "full"}


def uncovered_count_check(max_R: int = 7, strict: bool = False) -> tv.Verdict:
    """Combinatorial step of G.5, exhaustively over FT phrase sets: #uncovered ≥ |𝓡| − Ñ_f K (≥ c|𝓡| when
    Ñ_f K ≤ (1 − c)|𝓡|), for every tuple of Ñ_f ≤ 2 K-subsets of [|𝓡|], |𝓡| ≤ max_R."""
    def cases():
        for R in range(2, max_R + 1):
            for K in range(1, R + 1):
                subsets = list(combinations(range(R), K))
                for n in (1, 2):
                    if n * K <= R:
                        for sets in product(subsets, repeat=n):
                            yield f"|R|={R}, K={K}, sets={sets}", {"R": R, "K": K, "N_ft": n, "sets": sets}

    def pred(c):
        unc = c["R"] - len(set().union(*c["sets"]))
        need = c["R"] - c["N_ft"] * c["K"] + (1 if strict else 0)     # strict: the text's "more than"
        return unc >= need, {"R": c["R"], "K": c["K"], "N_ft": c["N_ft"], "sets": c["sets"], "uncovered": unc}
    return tv.check_cases(cases(), pred, exhaustive=True, what="FT phrase-set tuples")


def halluc_decision(rows: list[dict], bound_const: float = 1.0) -> tv.Verdict:
    """rows: {N_ft, K, R, N, N_r, errors}.  Reading of Ω(c N_r/(N − Ñ_f)) with constant 1 (recorded):
    holds if mean L_OOD ≥ c N_r/(N − Ñ_f) at every point (c = 1 − Ñ_f K/|𝓡|); refuted if mean + 2 SE < it."""
    out, bad = [], None
    for r in rows:
        c = 1 - r["N_ft"] * r["K"] / r["R"]
        lower = bound_const * c * r["N_r"] / (r["N"] - r["N_ft"])
        e = np.asarray(r["errors"], float)
        se = float(e.std(ddof=1) / np.sqrt(len(e))) if len(e) > 1 else 0.0
        row = {"N_ft": r["N_ft"], "K": r["K"], "R": r["R"], "c": c, "lower": lower, "L_OOD_mean": float(e.mean()),
               "SE": se}
        out.append(row)
        if e.mean() + 2 * se < lower and bad is None:
            bad = row
    text = "; ".join(f"Ñ_f={r['N_ft']} (c={r['c']:.2f}): L_OOD {r['L_OOD_mean']:.3f}±{r['SE']:.3f} vs "
                     f"c·N_r/(N−Ñ_f) = {r['lower']:.3f}" for r in out)
    if all(r["L_OOD_mean"] >= r["lower"] for r in out):
        return tv.holds("measured L_OOD vs hallucination lower bound", text, points=out)
    if bad is not None:
        return tv.refuted("measured L_OOD vs hallucination lower bound", text, bad, points=out)
    return tv.inconclusive("measured L_OOD vs hallucination lower bound", text, points=out)


def halluc_mode(rec, protocol: str) -> tv.Verdict:
    cfg = O.base_config()
    runs = O.sweep_runs(rec, protocol)
    N = cfg["N_f"] + cfg["N_r"]
    rows = [{"N_ft": n, "K": cfg["K"], "R": cfg["R"], "N": N, "N_r": cfg["N_r"],
             "errors": [1 - r.best for (*_, nn, r, _) in runs if nn == n]}
            for n in O.protocol(protocol)["sizes"] if 0 < n * cfg["K"] < cfg["R"]]
    v = halluc_decision(rows)
    v.details["earlier_protocol"] = O.protocol_note([x for x in runs if 0 < x[2] * cfg["K"] < cfg["R"]])
    return v


HALLUC_STATEMENT = ("Thm 2(3) (App. G.5/H.5, reconstructed): if Ñ_f K ≤ (1 − c)|𝓡| then ≥ c|𝓡| relations are "
                    "uncovered and L_OOD ≥ Ω(c N_r / (N − Ñ_f)) (the fine-tuned model hallucinates)")


@CLAIMS.add("t2-halluc", location="Thm 2(3), Eq. (3); App. G.5 (282)–(286), H.5", kind=tv.Kind.INEQUALITY,
            catalogue_id="KX-T2-halluc", statement=HALLUC_STATEMENT,
            choices=choices(reading="Ω constant = 1 and the best FT iteration (the strongest test of a lower bound); "
                            "c = 1 − Ñ_f K/|𝓡|", grid="Ñ_f = 1 (K = 3, |𝓡| = 6: c = 1/2), 4 replicates; full: 3 "
                            "replicates × PT seeds 0–4, T_FT = 2000",
                            strictness="tested '≥ c|𝓡| uncovered'; the text's 'more than' fails at equality "
                            "(disjoint FT phrase sets with Ñ_f K = (1 − c)|𝓡|)"),
            params=QUICK, variants={"full": tv.Variant(params=FULL, tags={"slow"}, id="t2-halluc-full")})
def t2_halluc(ctx):
    model = O.across_modes({name: halluc_mode(rec, ctx.params["protocol"]) for name, rec in O.modes().items()})
    return tv.combine({"uncovered count (exhaustive)": uncovered_count_check(), "trained model": model})


@CLAIMS.add("t2-halluc-given-p1", location="Thm 2(3), Eq. (3); App. G.5; spec §5", kind=tv.Kind.INEQUALITY,
            catalogue_id="KX-T2-halluc", statement=HALLUC_STATEMENT + GIVEN_P1,
            choices=p1_choices(reading="Ω constant = 1, best FT iteration", grid="Ñ_f = 1, 4 replicates"),
            params=QUICK, variants={"full": tv.Variant(params=FULL)})
def t2_halluc_given_p1(ctx):
    return halluc_mode(prop1(), ctx.params["protocol"])
