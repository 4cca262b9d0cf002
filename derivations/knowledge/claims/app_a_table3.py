"""App. A, Table 3 (spec claim KX-A-table3): which one-layer architectures reach the NTP optimum H = log K / 2
on the 3-token data, and extract the facts after FT (OOD accuracy).  The experiment is rebuilt in experiments/table3.py
(sizes, most learning rates, the FT sample form and the standard model's details are lost: ``Config`` and the
module docstring record every choice).  The optimum itself (0.8047 ⇒ K = 5) is checked in claims/s3_data.py.
The "Attention-only" row is checked under several readings (issue 18): the standard attention-only layer
(experiments/table3.py) and, in the authors' favour, their simplified model without its MLP and two variants of the
standard layer (experiments/attention_only.py, kept apart so that table3.run's cached sweeps stay valid).
"""
from __future__ import annotations

import dataclasses
import math

import theoryverify as tv

from ..experiments import attention_only as A
from ..experiments import table3 as T3

CLAIMS = tv.ClaimSet("knowledge")

DELTA = 0.05      # "near-optimal": final PT loss ≤ H + δ (printed gaps 0.0017, 0.0021, 0.0153)
FAIL_GAP = 1.0    # "fails to acquire knowledge": final PT loss ≥ H + 1 (printed gap 4.78)
OOD_MIN = 0.9     # printed OOD accuracies 100%, 100%, 99%
READING = (f"near-optimal = final PT loss ≤ H + {DELTA}; extraction = OOD accuracy at the best FT step ≥ 1 (the model before FT is not scored) ≥ {OOD_MIN}; "
           f"attention-only 'fails' (as printed) = final PT loss ≥ H + {FAIL_GAP}, 'learns' = ≤ H + {DELTA} (refutes), "
           f"in between = 'partial' (an inconclusive part); H = log K / 2")
MODEL_CHOICES = {"architectures": "see experiments/table3.py docstring (pre-LN one-head layer, GELU MLP 4d, untied head; "
                                  "uniform = fixed 1/L weights; attention-only = no MLP; simplified = Eqs. 4–8/20 "
                                  "with one m-neuron block per vocabulary token, κ = √d)",
                 "FT / test samples": "([s_i, r, f] → a_i): ⌊K/2⌋ tuples per pair for FT, the rest for test",
                 "embeddings": "fixed Gaussian N(0, I/d)", "printed Table 3": str(T3.PRINTED)}


def run_rows(run, cfg: T3.Config, seeds, archs, cache: bool = True, claim: str = "knowledge.a-table3",
             desc: str = "Table 3") -> list[dict]:
    """``run(arch, cfg, seed)`` (table3.run, or attention_only.run for the other attention-only readings) for each
    architecture and seed; with ``cache``, kept in the results store under ``claim`` and ``run``'s code key."""
    configs = [{"arch": a, "cfg": cfg.record(), "seed": s} for a in archs for s in seeds]
    fn = lambda c: run(c["arch"], cfg, c["seed"])  # noqa: E731
    if not cache:
        return [fn(c) for c in configs]
    return tv.sweep(tv.Store(), {"claim": claim, "code": tv.code_key(run)}, configs, fn, desc=desc)


#: The attention-only readings, by architecture name: table3.py's "attention-only" is the standard reading; the
#: authors' reading is their own simplified model without its MLP (App. A: "we present additional experimental
#: results for one-layer attention-only transformers"; the only model App. A fully specifies is the simplified one).
STANDARD_READING = "attention-only"
AUTHORS_READINGS = ("simplified-no-mlp", "simplified-no-mlp-k1")
READING_TEXT = {
    "attention-only": "standard reading: one pre-LN single-head layer (W_Q, W_K, W_V, W_O) with residual, untied "
                      "linear head, AdamW as App. A trains 'standard'",
    "simplified-no-mlp": "authors' reading: the simplified model (Eqs. 4–8) without its MLP, F_v = κ⟨x_v, Xα⟩, "
                         "κ = √d, Z trained by GD lr 0.5",
    "simplified-no-mlp-k1": "authors' reading with κ = 1 (logits ≈ 0 off the prompt ⇒ loss ≈ log |V|)",
    "no-residual": "the standard layer without the residual connection (untied head, AdamW)",
    "tied-head": "the standard layer with the fixed embeddings as its readout, logits = E·LN(h) (AdamW)",
    "no-residual-tied": "no residual and the tied readout (AdamW)",
}


def attention_only_outcome(r: dict, delta: float = DELTA, fail_gap: float = FAIL_GAP) -> str:
    """'fails' as Table 3 prints (L ≥ H + fail_gap), 'learns' (near-optimal: L ≤ H + δ, which the text denies),
    or 'partial' (neither)."""
    return "fails" if r["gap"] >= fail_gap else "learns" if r["gap"] <= delta else "partial"


def _row_text(r: dict) -> str:
    log_v = f", log|V| {r['log_V']:.4f}" if "log_V" in r else ""
    return (f"seed {r['seed']}: loss {r['loss']:.4f} (H {r['H']:.4f}{log_v}), OOD {r['ood_best']:.2f} "
            f"(before FT {r['ood_pre_ft']:.2f})")


def finding_by_evidence(rows: list[dict], delta: float = DELTA, fail_gap: float = FAIL_GAP) -> str | None:
    """The finding class the attention-only evidence supports: 'reading' when the standard reading learns and
    the authors' reading fails as printed; 'every reading learns' when the authors' reading learns too (no longer a
    matter of reading); None when the standard reading does not learn (nothing refuted) or a reading is missing."""
    by = {}
    for r in rows:
        by.setdefault(r["arch"], []).append(attention_only_outcome(r, delta, fail_gap))
    if STANDARD_READING not in by or not any(a in by for a in AUTHORS_READINGS):
        return None
    if any(o != "learns" for o in by[STANDARD_READING]):
        return None
    authors = [o for a in AUTHORS_READINGS for o in by.get(a, [])]
    return "reading" if all(o == "fails" for o in authors) else "every reading learns"


def check_table3(rows: list[dict], delta: float = DELTA, fail_gap: float = FAIL_GAP, ood_min: float = OOD_MIN,
                 readings: list[dict] = ()):
    """Standard, uniform, simplified: near-optimal and OOD ≥ ood_min; each attention-only reading: fails as printed
    (L ≥ H + fail_gap; refuted when it learns, inconclusive when partial).  ``readings``: rows of the other
    attention-only readings (attention_only.run); with them the verdict records the finding class they support."""
    parts = {}
    every = list(rows) + list(readings)
    table = [{k: r[k] for k in ("arch", "seed", "loss", "gap", "ood_best", "ood_pre_ft", "ood_final", "answer_acc_pt")}
             | ({"log_V": r["log_V"]} if "log_V" in r else {}) for r in every]
    for arch in T3.ARCHS:
        mine = [r for r in rows if r["arch"] == arch]
        if arch == STANDARD_READING:
            continue
        summary = ", ".join(_row_text(r) for r in mine)
        bad = [r for r in mine if r["gap"] > delta or r["ood_best"] < ood_min]
        name = f"{arch} acquires and extracts"
        if bad:
            r = bad[0]
            parts[name] = tv.refuted("Table 3 reproduction", f"{arch}: " + summary,
                                     {"arch": arch, "seed": r["seed"], "loss": r["loss"], "H": r["H"], "gap": r["gap"],
                                      "ood_best": r["ood_best"]})
        else:
            parts[name] = tv.holds("Table 3 reproduction", f"every run ≤ H + {delta} with OOD ≥ {ood_min}: {summary}")
    arch_order = [STANDARD_READING] + [a for a in A.ARCHS if any(r["arch"] == a for r in readings)]
    for arch in arch_order:
        mine = [r for r in every if r["arch"] == arch]
        if not mine:
            continue
        summary = ", ".join(_row_text(r) for r in mine)
        name = "attention-only fails" + ("" if arch == STANDARD_READING else f" ({arch})")
        method = f"Table 3 reproduction, {READING_TEXT[arch]}"
        outcomes = [attention_only_outcome(r, delta, fail_gap) for r in mine]
        if "learns" in outcomes:
            r = mine[outcomes.index("learns")]
            parts[name] = tv.refuted(method, f"{arch} reaches the optimum (L ≤ H + {delta}): " + summary,
                                     {"arch": arch, "seed": r["seed"], "loss": r["loss"], "H": r["H"], "gap": r["gap"],
                                      "ood_best": r["ood_best"]})
        elif "partial" in outcomes:
            parts[name] = tv.inconclusive(method, f"{arch} neither reaches the optimum nor fails as printed "
                                                  f"(H + {delta} < L < H + {fail_gap}): " + summary)
        else:
            vacuous = (" — by construction: h = Xα lies in the span of the prompt's embeddings, and every target is "
                       "absent from its prompt, so this reading could not have learned" if arch in AUTHORS_READINGS
                       else "")
            parts[name] = tv.holds(method, f"every run ends ≥ H + {fail_gap}{vacuous}: {summary}")
    v = tv.combine(parts)
    v.details["table"] = table
    v.details["printed_attention_only_loss_as_log_V"] = {"exp(5.5875)": math.exp(5.5875),
                                                         "reading": "the printed loss equals log of a uniform "
                                                                    "prediction over ≈ 267 tokens"}
    if readings:
        v.details["attention_only_readings"] = {a: [attention_only_outcome(r, delta, fail_gap) for r in every
                                                    if r["arch"] == a] for a in arch_order}
        v.details["finding_by_evidence"] = finding_by_evidence(every, delta, fail_gap)
    return v


def as_registered(v: tv.Verdict, finding: str = "reading") -> tv.Verdict:
    """A refutation whose evidence no longer supports the registered finding class is reported as inconclusive
    (so that a registry re-expectation is forced) rather than kept under a class the evidence contradicts."""
    if v.status is not tv.Status.REFUTED or v.details.get("finding_by_evidence") == finding:
        return v
    return tv.inconclusive(v.method, f"refuted, but the attention-only readings support "
                                     f"{v.details.get('finding_by_evidence')!r}, not the registered {finding!r}: "
                                     + v.evidence, **v.details)


QUOTES = ("App. A, Table 3: 'Attention-only | 5.5875 (0.8047) | -'; App. A: 'Table 3 shows that attention-only "
          "transformers fail to acquire knowledge (achieve near-optimal training loss), implying that MLP is necessary "
          "for transformers to acquire knowledge during pre-training'; Sec. 1: 'attention-only transformers often fail "
          "to acquire knowledge effectively, as evidenced by their inability to achieve near-optimal training loss'")
_READINGS = tv.Readings(
    tested="'attention-only transformer' = the standard one-layer attention-only transformer (pre-LN single-head "
           "layer with residual, untied linear head, AdamW as App. A trains 'standard'), which the generalisation "
           "'MLP is necessary for transformers to acquire knowledge' is about: it reaches the optimum (quick "
           "L − H = 0.011; full L − H = 0.0029, 0.0013, 0.0031 at seeds 0, 1, 2) and extracts after FT (OOD 97%; 100%)",
    others={"the authors' own simplified model (Eqs. 4–8) with its MLP removed, F_v = κ⟨x_v, Xα⟩, Z by GD lr 0.5 "
            "(the only attention model App. A specifies)":
                "holds (part 'attention-only fails (simplified-no-mlp)' of this claim's verdict): full sizes L = 8.96 "
                "at κ = √d and L = 5.408 ≈ log|V| = 5.398 at κ = 1, the printed row's form (5.5875 = log 267) — but "
                "by construction: its output lies in the span of the prompt's embeddings, so it cannot put mass on "
                "any target and could not have learned",
            "the standard layer without the residual and/or with the embeddings as a tied readout (AdamW)":
                "partial (parts 'attention-only fails (no-residual / tied-head / no-residual-tied)', inconclusive): "
                "L − H = 0.28 / 0.46 / 0.15 at the full sizes (quick 0.17 / 0.52 / 0.51) — not near-optimal, but far "
                "from the printed 5.59, and they extract after FT (OOD ≥ 0.99 at the full sizes)"})
_REASON = ("Table 3's 'Attention-only | 5.5875' reproduces only under the authors' reading (their simplified model "
           "without its MLP: L ≈ log|V| at κ = 1, failing by construction), while the text's generalisation "
           "'attention-only transformers fail to acquire knowledge … MLP is necessary' is refuted by a standard "
           "one-layer attention-only transformer, which reaches the optimum and extracts after FT (quick "
           "L − H = 0.011, OOD 97%; full L − H ≤ 0.0031 at seeds 0–2, OOD 100%); standard, uniform and simplified reproduce")
_DESPITE = ("the refuting model is the standard one-layer attention-only transformer, which uses none of the "
            "reconstructed simplified-model choices (κ, m, σ0) recorded here; it reaches the optimum at both sizes "
            "tried (N = 10, d = 16 and N = 100, d = 128) and for every seed run, and one attention-only transformer "
            "that acquires the facts refutes 'MLP is necessary for transformers to acquire knowledge' whatever the "
            "lost sizes; what remains uncertain is which model the row meant, hence 'reading'")
FULL_SEEDS = (0, 1, 2)   # the refuting reading (standard attention-only) at the full sizes; seed 0 for the others


# Re-expected (issue 18, s24): refuted, finding 'reading' (was 'reconstruction'): the authors' reading of the row
# (their simplified model without its MLP) is now tested and fails as printed, while the standard attention-only
# transformer refutes the text's generalisation; the refutation no longer rests on a reconstruction alone.
@CLAIMS.add("a-table3", location="App. A, Table 3 (and Sec. 1)", kind=tv.Kind.REPRODUCTION,
            catalogue_id="KX-A-table3", expect=tv.Status.REFUTED, reason=_REASON, finding=tv.Finding.READING,
            readings=_READINGS, despite_reconstruction=_DESPITE,
            statement="On the 3-token data, self-attention + MLP (standard), uniform attention + MLP and the simplified "
                      "model reach the NTP optimum (0.8047) and extract the facts after FT (OOD ≈ 100%); attention-only "
                      "fails (5.5875). " + QUOTES,
            choices={**T3.QUICK.record(), **MODEL_CHOICES, "reading": READING, "seeds": "0",
                     "attention-only readings": "; ".join(f"{a}: {t}" for a, t in READING_TEXT.items()),
                     "profile": "small quick variant (N = 10, d = 16); full: the spec sizes (N = 100, d = 128, K = 5, "
                                "|𝓡| = 20), standard attention-only at seeds 0, 1, 2",
                     "full sizes": str(T3.Config().record())},
            params={"cfg": T3.QUICK, "cache": False, "seeds": (0,)},
            variants={"full": tv.Variant(params={"cfg": T3.Config(), "cache": True, "seeds": FULL_SEEDS},
                                         tags={"slow"}, id="a-table3-full")})
def a_table3(ctx):
    cfg, cache, seeds = ctx.params["cfg"], ctx.params["cache"], ctx.params["seeds"]
    rows = run_rows(T3.run, cfg, (0,), T3.ARCHS, cache)
    rows += run_rows(T3.run, cfg, tuple(s for s in seeds if s != 0), (STANDARD_READING,), cache)
    readings = run_rows(A.run, cfg, (0,), A.ARCHS, cache, desc="Table 3, attention-only readings")
    return as_registered(check_table3(rows, readings=readings))


# --- App. A, last paragraph: the 5-token data with a context token -----------------------------------------------

CONTEXT_NORM = 3.0   # ‖c‖ relative to the other tokens' ≈ 1 (μ_c lost; the main default is μ_c = 3)
QUICK_C = dataclasses.replace(T3.QUICK, context_norm=CONTEXT_NORM)
FULL_C = T3.Config(N=20, K=5, R=10, d=32, pt_steps=1000, gd_steps=4000, ft_steps=100, context_norm=CONTEXT_NORM)
CONTEXT_READING = ("'uniform attention + MLP' read two ways: (a) the standard layer (residual, LN, AdamW) with "
                   "attention fixed to 1/L; (b) the paper's simplified model with Z frozen at 0 (α uniform), GD lr 0.5. "
                   f"'fails' = final PT loss > H + {DELTA} or best OOD accuracy < {OOD_MIN}")


def acquires(r: dict, delta: float = DELTA, ood_min: float = OOD_MIN) -> bool:
    return r["gap"] <= delta and r["ood_best"] >= ood_min


def check_context(cfg: T3.Config, archs, seed: int = 0, rows: list[dict] | None = None) -> tv.Verdict:
    """With c: does uniform attention + MLP fail (each reading), and (if run) does the simplified model succeed?"""
    rows = rows if rows is not None else [T3.run(a, cfg, seed) for a in archs]
    by = {r["arch"]: r for r in rows}
    text = "; ".join(f"{a}: L − H = {r['gap']:.3g}, OOD {r['ood_best']:.2f} (before FT {r['ood_pre_ft']:.2f})"
                     for a, r in by.items())
    det = {"table": [{k: r[k] for k in ("arch", "loss", "gap", "ood_best", "ood_pre_ft", "answer_acc_pt")}
                     for r in rows], "context_norm": cfg.context_norm}
    method = f"5-token data (context token of norm {cfg.context_norm}), N = {cfg.N}, d = {cfg.d}"
    if "simplified" in by and not acquires(by["simplified"]):
        r = by["simplified"]
        return tv.refuted(method, "the simplified model does not acquire the knowledge either: " + text,
                       {"arch": "simplified", "gap": r["gap"], "ood_best": r["ood_best"], "context_norm": cfg.context_norm},
                       **det)
    fails = {a: not acquires(by[a]) for a in ("uniform", T3.UNIFORM_SIMPLIFIED) if a in by}
    if all(fails.values()):
        return tv.holds(method, "uniform attention + MLP fails under every reading: " + text, **det)
    if not any(fails.values()):
        a = next(iter(fails))
        return tv.refuted(method, "uniform attention + MLP acquires the knowledge under every reading: " + text,
                       {"arch": a, "gap": by[a]["gap"], "ood_best": by[a]["ood_best"]}, **det)
    return tv.inconclusive(method, "the outcome flips with the reading of 'uniform attention + MLP' — " + text, **det)


def check_context_norms(cfgs, archs, seed: int = 0, runs=None) -> tv.Verdict:
    """check_context at each context norm; one status across norms is the verdict, otherwise inconclusive."""
    if runs is None:
        runs = [run_rows(T3.run, c, (seed,), archs, claim="knowledge.a-table3-context", desc="Table 3, 5-token")
                for c in cfgs]
    parts = {f"‖c‖ = {c.context_norm:g}": check_context(c, archs, seed, runs[k]) for k, c in enumerate(cfgs)}
    statuses = {v.status for v in parts.values()}
    if len(statuses) == 1:
        return tv.combine(parts)
    text = "; ".join(f"[{k}] {v.status.value}: {v.evidence}" for k, v in parts.items())
    return tv.inconclusive("5-token data at several context norms", "the outcome flips with ‖c‖ (lost): " + text,
                        **{k: v.to_json() for k, v in parts.items()})


# One function, registered twice: the quick profile runs the two uniform readings at ‖c‖ = 3 only (inconclusive),
# the full profile adds the simplified model and ‖c‖ = 1 (refuted, with its finding class — which a profile
# Variant cannot add to an inconclusive registration).
@CLAIMS.add("a-table3-context", location="App. A, last paragraph", kind=tv.Kind.REPRODUCTION, catalogue_id="KX-A-table3",
            expect=tv.Status.INCONCLUSIVE,
            statement="On the 5-token data with a context token, 'uniform attention + MLP' fails to acquire and extract "
                      "knowledge (while the simplified transformer can).",
            choices={**QUICK_C.record(), **MODEL_CHOICES, "reading": CONTEXT_READING, "seeds": "0",
                     "profile": "quick: the two uniform readings only (the simplified model is in -full)"},
            params={"full": False})
@CLAIMS.add("a-table3-context-full", location="App. A, last paragraph", kind=tv.Kind.REPRODUCTION,
            catalogue_id="KX-A-table3", expect=tv.Status.REFUTED, finding=tv.Finding.RECONSTRUCTION,
            reason="on the reconstruction (sizes, ‖c‖, κ, m, the FT sample form lost; Gaussian embeddings, FT of W only, "
                   "seed 0): with a context token the simplified model does not extract the facts (OOD 0.05 at ‖c‖ = 3 "
                   "with L − H = 0.21; 0.88 at ‖c‖ = 1 with L − H = 0.002); uniform attention + MLP fails only at "
                   "‖c‖ = 3 and only in the simplified-architecture reading. Paper, App. A: 'we extend the above "
                   "three-token dataset to a five-token … dataset, described in Section 3, under which 'uniform "
                   "attention + MLP' fails to acquire and extract knowledge while our simplified transformer can'" + "; m, d: held at the reconstruction's single values, not swept "
                   "(issue 27): how far the finding reaches over Condition 1's m and d is untested",
            readings=tv.Readings(
                tested="the 5-token variant in App. A's own setting: Gaussian embeddings, the table's sizes (ours: N = 20, "
                       "d = 32, lost), the simplified model trained by GD lr 0.5 and fine-tuned on W",
                others={"the authors' favour: Section 3's setting, which the sentence cites (orthogonal embeddings, "
                        "Sec. 4's three-stage GD: the model the theorems are about)":
                        "acquires at the default (t2-ptloss: L − H = 0.011 at T = 1500; but t2-ptloss-full finds "
                        "plateaus ≈ 0.44 above H in swept reconstructions) and extracts only partly (best post-FT OOD "
                        "accuracy 0.63–0.86 over Ñ_f = 1–16 at μ_c = 3: t2-trend-nf; lower at μ_c = 4) — 'can' holds "
                        "there in the weak sense; the outcome turns on the lost embeddings and sizes, hence "
                        "reconstruction"}),
            statement="The 5-token variant with the simplified model trained as well (N = 20, d = 32, 4000 GD steps), "
                      "at context norms ‖c‖ ∈ {1, 3}.",
            choices={**FULL_C.record(), **MODEL_CHOICES, "reading": CONTEXT_READING, "seeds": "0",
                     "context norms": "1, 3 (μ_c lost)"}, tags={"slow"},
            params={"full": True})
def a_table3_context(ctx):
    if not ctx.params["full"]:
        return check_context(QUICK_C, ("uniform", T3.UNIFORM_SIMPLIFIED))
    cfgs = [dataclasses.replace(FULL_C, context_norm=c) for c in (1.0, CONTEXT_NORM)]
    return check_context_norms(cfgs, ("uniform", T3.UNIFORM_SIMPLIFIED, "simplified"))
