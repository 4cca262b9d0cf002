"""Section 5 reproductions (Figures 2–4, "Experiment setup"), run by ``experiments.py``.

Quick variants (untagged, CI) are tiny; the full-size variants are tagged slow and cache their
sweep points in ``theoryverify.store`` (``.theoryverify-cache``).  Every unstated choice is in
``choices``; thresholds we invented are marked "proposed".
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

import theoryverify as tv
from theoryverify import ClaimSet, Kind
from theoryverify import Finding
from theoryverify import Store, sweep
from theoryverify import code_key
from theoryverify import Status, Verdict, holds, inconclusive, refuted
from ..experiments.util import plain
from ..experiments.util import fmt_error

from ..experiments import section5 as X
from ..experiments.section5 import Config
from ..model.families import f_paper

CLAIMS = ClaimSet("icrecall")

COMMON = {
    "embeddings": "Haar random orthonormal Φ ∈ R^{d×|V|} (QR of a Gaussian), d = |V| = 2n + |R| + 1, one per seed",
    "positions": "one-hot e_i ∈ R^{d_P}, d_P = step-2 input length (7 for 2 examples, 9 for 3)",
    "trained parameters": "the full W^KQ ∈ R^{(d_P+d)×(d_P+d)}, initialised at 0 (the theory's init); MLP frozen",
    "optimizer": "Adam lr 1e-3, torch defaults β = (0.9, 0.999), ε = 1e-8, no weight decay, full batch over D",
    "loss": "CoT loss L1 + L2 (Eq. (3)), masked temperature softmax; step 2 conditioned on the true r*",
    "relations": "F-paper(n, m): m distinct uniformly random bijections, a fresh draw per seed",
    "data": "D and the test set drawn i.i.d. from P_IC (overlap allowed), per seed",
    "accuracy": "argmax accuracy (exact ties credited 1/#tied, tolerance 1e-12 relative) is the verdict quantity; "
                "mean probability of the target reported",
    "precision": "float64; device cpu (auto picks cuda when present)",
    "seeds": "seed s of a batch uses numpy default_rng([ctx.seed, s]) for relations, Φ, D, test set; all seeds "
             "trained together as one batched tensor (independent Adam states, summed losses)"}


def _store_key(claim: str) -> dict:
    """Points are keyed by the computation's source (experiments.py), not by the verdict code."""
    return {"claim": claim, "code": code_key(X)}


def _run_points(claim: str, cfgs: list[Config], seed: int, device: str, cache: bool) -> list[dict]:
    if not cache:
        return [X.cached_experiment(c, seed, device) for c in cfgs]
    configs = [{**c.describe(), "seed": seed} for c in cfgs]
    fn = lambda conf: X.run_experiment(Config(**{k: v for k, v in conf.items() if k != "seed"}), conf["seed"],  # noqa: E731
                                       device)
    return sweep(Store(), _store_key(claim), configs, fn, desc=claim)


# --- ICR-E-setup ----------------------------------------------------------------------------------

def lemma1_storage(fam, phi: np.ndarray, perm: np.ndarray | None = None) -> dict:
    """Lemma 1 storage of the constructed MLP under the random orthonormal Φ: the argmax over V of
    φ(u)ᵀ f(φ(x) + φ(y)) for the three orders (s, r) → a, (a, s) → r, (a, r) → s; for (a, s) → r the
    argmax set must be ⊆ R(s, a) (the relations are not identified by one pair)."""
    import torch
    from ..model.torch_model import lemma3_coefficients
    cw, cv = lemma3_coefficients(fam.n, fam.relations)
    if perm is not None:  # planted error: scrambled rows of V
        cv = cv[perm]
    W = torch.as_tensor(cw @ phi.T)  # rows w_j ∈ R^d
    V = torch.as_tensor(cv @ phi.T)
    P = torch.as_tensor(phi)
    n, m = fam.n, fam.m
    s = np.repeat(np.arange(n), m)
    r = np.tile(np.arange(m), n)
    a = fam.array[r, s]
    ok = {}
    for name, x, y, want in (("(s,r)->a", s, n + r, n + m + a), ("(a,r)->s", n + m + a, n + r, s),
                             ("(a,s)->r", n + m + a, s, None)):
        h = P[:, x] + P[:, y]  # d × N
        lg = (P.T @ (V.T @ (W @ h) ** 2)).T  # N × |V|
        top = lg.max(1, keepdim=True).values
        tied = lg >= top - 1e-9 * top.abs()
        if want is not None:
            ok[name] = bool((tied.sum(1) == 1).all() and (lg.argmax(1).numpy() == want).all())
        else:
            allowed = np.zeros((len(s), lg.shape[1]), dtype=bool)
            for i in range(len(s)):
                allowed[i, n + np.flatnonzero(fam.array[:, s[i]] == a[i])] = True
            ok[name] = bool((~tied.numpy() | allowed).all())
    return ok


@CLAIMS.add("E-setup", location="Section 5, 'Experiment setup'", kind=Kind.REPRODUCTION, catalogue_id="ICR-E-setup",
            choices=COMMON,
            statement="The Section-5 setup: one attention head + MLP, Adam lr 1e-3, n fixed, R random bijections, fixed "
                      "random orthonormal embeddings. CHECK (ours): the batched experiment model equals the independent "
                      "full model (torch_model.ICModel) on random W^KQ for 2 and 3 examples, Φ is orthonormal, and the "
                      "Lemma-1 MLP stores every fact of F-paper(8,64) under the random Φ")
def e_setup(ctx):
    errs = {"n=8,|R|=64,2 ex": X.fast_vs_full(Config(n=8, m=64, T=0.05, n_test=64), ctx.seed),
            "n=6,|R|=30,3 ex": X.fast_vs_full(Config(n=6, m=30, T=0.01, examples=3, n_test=64), ctx.seed)}
    g = np.random.default_rng(ctx.seed)
    fam = f_paper(8, 64, g)
    phi = X.orthonormal_embedding(fam.n * 2 + fam.m + 1, fam.n * 2 + fam.m + 1, g)
    orth = float(np.abs(phi.T @ phi - np.eye(phi.shape[1])).max())
    store = lemma1_storage(fam, phi)
    config = {"Figure 2(a)/4(a)": {"n": 8, "|R|": 64, "T": 0.05, "examples": 2},
              "Figure 2(b)/4(b)": {"n": 8, "|R|": 512, "T": 0.01, "examples": 3}, **COMMON}
    if max(errs.values()) > 1e-10 or orth > 1e-12 or not all(store.values()):
        return refuted("batched model vs ICModel; Lemma-1 storage", f"relative logit error {errs}, orthonormality "
                       f"error {orth:.2e}, storage {store}", {"errors": errs, "orthonormality": orth, "storage": store})
    return holds("batched model vs independent full model (float64) + exact storage check",
                 f"max relative logit error {fmt_error(max(errs.values()))} (2 and 3 examples); ‖ΦᵀΦ − I‖∞ = {fmt_error(orth)}; "
                 f"Lemma-1 MLP stores (s,r)→a and (a,r)→s uniquely, (a,s)→r up to R(s,a) ties: {store}",
                 errors=errs, orthonormality=orth, storage=store, configuration=config)


# --- ICR-E-fig3-8samples ------------------------------------------------------------------------------

FIG3_CRIT = ("proposed: the paper's random-bijection families F-paper(n, m) decide (the Assumption-1 family F-agl is "
             "beyond the paper and only reported); HOLDS if for every F-paper family the mean (10 seeds; quick: 3) first-step argmax test "
             "accuracy at |D| = 8 is within 0.05 of the plateau (the mean at the largest |D|) and ≥ 0.9 × the mean "
             "Bayes-optimal ceiling of the drawn relation sets; REFUTED if for some family it is below either bound by "
             "more than 2 standard errors of the mean; INCONCLUSIVE otherwise")


def fig3_verdict(families: dict[str, list[Config]], points: dict[str, list[dict]], can_refute: bool = True) -> Verdict:
    """The FIG3_CRIT rule; ``can_refute=False`` (the under-trained quick smoke run) turns a miss into
    INCONCLUSIVE."""
    table, fails, unsure = {}, [], []
    curve = None
    for name, cfgs in families.items():
        pts = points[name]
        xs = [c.n_train for c in cfgs]
        mean = [float(np.mean(p["acc1"])) for p in pts]
        sd = [float(np.std(p["acc1"])) for p in pts]
        ceil = float(np.mean(pts[0]["ceiling"]))
        i8 = xs.index(8)
        se = sd[i8] / np.sqrt(len(pts[i8]["acc1"]))
        plateau = mean[-1]
        gaps = {"plateau - 0.05 - acc@8": plateau - 0.05 - mean[i8], "0.9 ceiling - acc@8": 0.9 * ceil - mean[i8]}
        table[name] = {"|D|": xs, "acc1 mean": mean, "acc1 sd": sd, "p1 mean": [float(np.mean(p["p1"])) for p in pts],
                       "acc2 mean": [float(np.mean(p["acc2"])) for p in pts], "Bayes ceiling": ceil,
                       "acc@8": mean[i8], "plateau": plateau}
        table[name]["decides the verdict"] = name.startswith("F-paper")
        if not name.startswith("F-paper"):  # beyond the paper (Assumption-1 family): reported only
            continue
        if max(gaps.values()) > 2 * se:
            fails.append((name, gaps))
        elif max(gaps.values()) > 0:
            unsure.append(name)
        if curve is None:
            curve = {"x": xs, "y": mean, "yerr": sd, "label": f"{name}: mean first-step acc (ceiling {ceil:.3f})",
                     "xlabel": "number of fine-tuning samples |D|", "ylabel": "first-step test accuracy",
                     "logx": True, "paper_points": [], "ceiling": ceil, "yerr_label": "± one sd over seeds",
                     "thresholds": [{"value": 0.9 * ceil, "label": f"0.9 × Bayes ceiling = {0.9 * ceil:.3f} (criterion)"},
                                    {"value": plateau - 0.05, "label": f"plateau − 0.05 = {plateau - 0.05:.3f} "
                                                                       "(criterion)"},
                                    {"value": 8, "axis": "x", "label": "|D| = 8 (the paper's '8 samples')"}]}
    details = {"table": plain(table), "curve": curve, "criterion": FIG3_CRIT}
    summary = "; ".join(f"{k}: acc@8 {v['acc@8']:.3f}, plateau {v['plateau']:.3f}, ceiling {v['Bayes ceiling']:.3f}"
                        for k, v in table.items())
    if fails and not can_refute:
        return inconclusive("Adam fine-tuning sweep over |D| (quick smoke run, under-trained)",
                            f"{[f[0] for f in fails]} miss the criterion after {families[fails[0][0]][0].steps} steps "
                            f"(a quick run cannot refute; see E-fig3-8samples-full): {summary}", **details)
    if fails:
        name, gaps = fails[0]
        return refuted("Adam fine-tuning sweep over |D|", f"{name} fails the criterion: {summary}",
                       {"family": name, **plain(gaps), **plain(table[name])}, **details)
    if unsure:
        return inconclusive("Adam fine-tuning sweep over |D|", f"within 2 s.e. of a bound ({unsure}): {summary}",
                            **details)
    return holds("Adam fine-tuning sweep over |D|", summary, **details)


def fig3_configs(quick: bool) -> dict[str, list[Config]]:
    if quick:
        base = dict(T=0.05, seeds=3, steps=150, n_test=256)
        return {"F-agl(4)": [Config(n=4, m=12, family="agl", n_train=k, **base) for k in (2, 8, 32)],
                "F-paper(5,25)": [Config(n=5, m=25, n_train=k, **base) for k in (2, 8, 32)]}
    base = dict(T=0.05, seeds=10, steps=600, n_test=512)
    grid = (2, 4, 8, 16, 32, 64)
    return {"F-paper(8,64)": [Config(n=8, m=64, n_train=k, **base) for k in grid],
            "F-agl(8)": [Config(n=8, m=56, family="agl", n_train=k, **base) for k in grid]}


def fig3_position_configs() -> dict[str, list[Config]]:
    return {k: [replace(c, train="position", steps=1500) for c in v] for k, v in fig3_configs(False).items()}


FIG3_STATEMENT = ("Figure 3 / Sec. 1.1: first-step test accuracy is already high with 8 fine-tuning samples (mean of "
                  "10 seeds), compared here with the Bayes-optimal ceiling of each relation set (random-bijection sets "
                  "violate Assumption 1: ceiling ≈ 0.58 for F-paper(8,64))")


@CLAIMS.add("E-fig3-8samples", location="Section 5, Figure 3; Section 1.1", kind=Kind.REPRODUCTION,
            catalogue_id="ICR-E-fig3-8samples", statement=FIG3_STATEMENT, expect=Status.INCONCLUSIVE,
            choices={**COMMON, "criterion": FIG3_CRIT, "quick grid": "F-agl(4) (Assumption 1, ceiling 1) and "
                     "F-paper(5,25); |D| ∈ {2, 8, 32}; T = 0.05; 3 seeds; 150 Adam steps (under-trained smoke run: a miss is "
                     "inconclusive, never refuted); 256 test sequences"},
            params={"grid": "quick", "cache": False, "store": "icrecall.E-fig3-8samples"})
@CLAIMS.add("E-fig3-8samples-full", location="Section 5, Figure 3; Section 1.1", kind=Kind.REPRODUCTION,
            catalogue_id="ICR-E-fig3-8samples", statement=FIG3_STATEMENT, tags={"slow"}, expect=Status.REFUTED,
            finding=Finding.NOT_REPRODUCIBLE,
            reason="depends on unstated settings: with the full W^KQ (Adam 1e-3, init 0, 600 steps) the mean first-step "
                   "accuracy at |D| = 8 is 0.37 vs Bayes ceiling 0.60 (F-paper(8,64), 10 seeds), but training only the "
                   "position block (E-fig3-8samples-position) reaches the ceiling at |D| = 2; the text of Sec. 5 / Fig. 3 "
                   "states neither the trained block, the number of steps, T nor |R|",
            choices={**COMMON, "criterion": FIG3_CRIT, "grid": "F-paper(8,64) and F-agl(8) (Assumption 1, ceiling 1); "
                     "|D| ∈ {2,4,8,16,32,64}; T = 0.05; 10 seeds; 600 Adam steps; 512 test sequences; n = 16, 32 "
                     "and T = 0.01 not run (CPU budget)"},
            # a registration of its own, not a Variant: its expected refutation (finding, reason) differs from the quick
            # smoke run's (a Variant cannot carry a finding class)
            params={"grid": "full", "cache": True, "store": "icrecall.E-fig3-8samples-full"})
@CLAIMS.add("E-fig3-8samples-position", location="Section 5, Figure 3; Section 1.1; Sec. 2.3 partial fine-tuning",
            kind=Kind.REPRODUCTION, catalogue_id="ICR-E-fig3-8samples", tags={"slow"}, expect=None,
            statement=FIG3_STATEMENT + " (variant: only the position-position block of W^KQ trained)",
            choices={**COMMON, "trained parameters": "variant: the position block W^KQ_{1:d_P,1:d_P} only, init 0",
                     "criterion": FIG3_CRIT, "grid": "as E-fig3-8samples-full, 1500 Adam steps"},
            params={"grid": "position", "cache": True, "store": "icrecall.E-fig3-8samples-position"})
def fig3(ctx) -> Verdict:
    """Figure 3 on the grid named by the param ``grid`` (quick smoke run, the full grid, or the position-block
    variant), points cached under the param ``store`` (the full grids)."""
    quick, position, claim = ctx.params["grid"] == "quick", ctx.params["grid"] == "position", ctx.params["store"]
    fams = fig3_position_configs() if position else fig3_configs(quick)
    points = {k: _run_points(claim, v, ctx.seed, ctx.device, cache=ctx.params["cache"]) for k, v in fams.items()}
    return fig3_verdict(fams, points, can_refute=not quick)


# --- ICR-E-fig2a / fig2b / fig4a / fig4b ----------------------------------------------------------

PAIR_CRIT = ("proposed (spec): row 1 pairwise if Σ_j |v_{2j−1} − v_{2j}| ≤ 0.1 · min_{j<j'} |(v_{2j−1}+v_{2j}) − "
             "(v_{2j'−1}+v_{2j'})| (reduces to |v1−v2|+|v3−v4| ≤ 0.1|v1+v2−v3−v4| for 2 examples); row 2 "
             "concentrated if q(query subject) ≥ 0.8; rows averaged over the test set and the seeds")
EOS_CRIT = "proposed: row 2 puts non-negligible weight on EoS if q(EoS) ≥ 0.05"


def attention_verdict(cfg: Config, res: dict, eos: bool = False) -> Verdict:
    row1 = np.mean(res["row1"], axis=0)
    row2 = np.mean(res["row2"], axis=0)
    k = cfg.examples
    st = X.pairwise_stats(row1, k)
    q_query = float(row2[2 * k])
    q_eos = float(row2[2 * k + 1])
    checks = {"row 1 pairwise": st["within"] <= 0.1 * st["across"]}
    if eos:
        checks["row 2 weight on EoS ≥ 0.05"] = q_eos >= 0.05
    else:
        checks["row 2 on query subject ≥ 0.8"] = q_query >= 0.8
    details = {"row1": row1.tolist(), "row2": row2.tolist(), "pairwise": st, "q_query": q_query, "q_eos": q_eos,
               "checks": checks, "acc1": res["acc1"], "acc2": res["acc2"], "ceiling": res["ceiling"],
               "criterion": PAIR_CRIT + ("; " + EOS_CRIT if eos else ""),
               "curve": {"x": list(range(1, len(row1) + 1)), "y": row1.tolist(), "label": "row 1 (from EoS), mean",
                         "xlabel": "position", "ylabel": "attention", "logx": False, "paper_points": []},
               **({"pretrain": res["pretrain"]} if "pretrain" in res else {})}
    ev = (f"row 1 = {np.round(row1, 3).tolist()} (within {st['within']:.3f}, across {st['across']:.3f}); row 2 = "
          f"{np.round(row2, 3).tolist()}; acc1 {np.mean(res['acc1']):.3f} (ceiling {np.mean(res['ceiling']):.3f}), "
          f"acc2 {np.mean(res['acc2']):.3f}")
    if all(checks.values()):
        return holds("Adam fine-tuning, averaged attention rows", ev, **details)
    # proposed thresholds and an unstated training length: a miss is not a refutation
    return inconclusive("Adam fine-tuning, averaged attention rows",
                        f"failed (proposed thresholds): {[k for k, v in checks.items() if not v]}; " + ev, **details)


FIG2A = Config(n=8, m=64, T=0.05, examples=2, n_train=256, n_test=1024, steps=2000, seeds=3)
FIG2A_QUICK = replace(FIG2A, n_train=64, n_test=256, steps=300, seeds=2)
FIG2B = Config(n=8, m=512, T=0.01, examples=3, n_train=256, n_test=1024, steps=1500, seeds=2)
FIG2B_QUICK = replace(FIG2B, n_train=32, n_test=128, steps=60, seeds=1)
FIG4A = replace(FIG2A, mlp="pretrain", pre_steps=2000, seeds=1, steps=1500)
FIG4A_QUICK = Config(n=5, m=10, T=0.05, examples=2, n_train=64, n_test=256, steps=200, seeds=1, mlp="pretrain",
                     pre_steps=300)
FIG4B = replace(FIG2B, mlp="pretrain", pre_steps=2000, seeds=1)
# CPU scale of Figure 4(b): panel (b)'s T = 0.01 and 3 examples kept, |R| = 512 → 64 (the pretraining set,
# 6·n·|R| sequences with |V|-way logits, is what makes |R| = 512 GPU-sized: ≈ 2 s per Adam step on 2 CPU cores)
FIG4B_CPU = replace(FIG4B, m=64)
FIG4B_QUICK = replace(FIG2B_QUICK, m=16, mlp="pretrain", pre_steps=100)


def _choices(cfg: Config, extra: dict | None = None) -> dict:
    return {**COMMON, "criterion": PAIR_CRIT, "run": str(cfg.describe()), **(extra or {})}


FIG2A_STATEMENT = ("Figure 2(a): n = 8, |R| = 64, T = 0.05, 2 examples, Lemma-1 MLP frozen: at convergence the EoS "
                   "attention (row 1) is pairwise (v1 ≈ v2, v3 ≈ v4, v1 ≠ v3) and the r* attention (row 2) concentrates "
                   "on the query subject s3")
FIG2B_STATEMENT = ("Figure 2(b) / Sec. 4.1: n = 8, |R| = 512, T = 0.01, 3 examples (s1,a1,s2,a2,s3,a3,s4,EoS): the "
                   "pairwise pattern over three pairs emerges; row 2 concentrates on s4")


FIG2A_POS = replace(FIG2A, train="position", steps=5000)


PRE_CHOICES = {"pretraining": "the same one-layer model on (u1, u2) (all 6 ordered choices of two elements of every "
                              "fact), W^KQ and the MLP both trained by Adam lr 1e-3, full batch, unmasked cross-entropy "
                              "over V at temperature 1, σ(x) = x², d_MLP = 3n², init W ~ N(0, 1/d), V ~ N(0, 1/d_MLP)",
               "fine-tuning": "W^KQ continues from its pretrained value (not reset); MLP frozen",
               "storage": "§2.1 argmax storage accuracy reported per (u1, u2) order with its Bayes ceiling "
                          "((s, a) → r is ambiguous among R(s, a))"}
FIG4_STATEMENT = ("Figure 4: with a pretrained (then frozen) MLP, fine-tuning W^KQ still gives the pairwise pattern in "
                  "row 1, and row 2 also puts weight on EoS (unlike Figure 2)")


FIG4B_SCALE = {"scale": "CPU variant of panel (b): T = 0.01 and 3 examples as printed, |R| reduced from 512 (GPU-sized "
                          "pretraining set) — a verdict on the reduced configuration, not on |R| = 512"}


CONFIGS = {"FIG2A": FIG2A, "FIG2A_QUICK": FIG2A_QUICK, "FIG2A_POS": FIG2A_POS, "FIG2B": FIG2B, "FIG2B_QUICK": FIG2B_QUICK,
           "FIG4A": FIG4A, "FIG4A_QUICK": FIG4A_QUICK, "FIG4B": FIG4B, "FIG4B_CPU": FIG4B_CPU, "FIG4B_QUICK": FIG4B_QUICK}


@CLAIMS.add("E-fig2a", location="Figure 2(a), Sec. 4.1", kind=Kind.REPRODUCTION, catalogue_id="ICR-E-fig2a",
            statement=FIG2A_STATEMENT, expect=Status.INCONCLUSIVE, choices=_choices(FIG2A_QUICK),
            params={"config": "FIG2A_QUICK", "cache": False, "eos": False, "store": "icrecall.E-fig2a"},
            variants={"full": tv.Variant(params={"config": "FIG2A", "cache": True, "eos": False, "store": "icrecall.E-fig2a-full"}, tags={"slow"}, id="E-fig2a-full")})
@CLAIMS.add("E-fig2a-position", location="Figure 2(a), Sec. 4.1; Sec. 2.3 partial fine-tuning",
            kind=Kind.REPRODUCTION, catalogue_id="ICR-E-fig2a", tags={"slow"}, expect=Status.INCONCLUSIVE,
            statement=FIG2A_STATEMENT + " (variant: only the position-position block W^KQ_{1:d_P,1:d_P} trained)",
            choices=_choices(FIG2A_POS, {"trained parameters": "variant: the position block only (Sec. 2.3), init 0"}),
            params={"config": "FIG2A_POS", "cache": True, "eos": False, "store": "icrecall.E-fig2a-position"})
@CLAIMS.add("E-fig2b", location="Figure 2(b), Sec. 4.1", kind=Kind.REPRODUCTION, catalogue_id="ICR-E-fig2b",
            statement=FIG2B_STATEMENT, expect=Status.INCONCLUSIVE, choices=_choices(FIG2B_QUICK),
            params={"config": "FIG2B_QUICK", "cache": False, "eos": False, "store": "icrecall.E-fig2b"},
            variants={"full": tv.Variant(params={"config": "FIG2B", "cache": True, "eos": False, "store": "icrecall.E-fig2b-full"}, tags={"slow"}, id="E-fig2b-full")})
@CLAIMS.add("E-fig4a", location="Figure 4(a), Section 5 'pretrained MLP'", kind=Kind.REPRODUCTION,
            catalogue_id="ICR-E-fig4a", statement=FIG4_STATEMENT + " (n = 8, |R| = 64, T = 0.05, 2 examples)",
            expect=Status.INCONCLUSIVE, choices=_choices(FIG4A_QUICK, {**PRE_CHOICES, "eos": EOS_CRIT}),
            params={"config": "FIG4A_QUICK", "cache": False, "eos": True, "store": "icrecall.E-fig4a"},
            variants={"full": tv.Variant(params={"config": "FIG4A", "cache": True, "eos": True, "store": "icrecall.E-fig4a-full"}, expect=None, tags={"slow"}, id="E-fig4a-full")})
@CLAIMS.add("E-fig4b", location="Figure 4(b), Section 5 'pretrained MLP'", kind=Kind.REPRODUCTION,
            catalogue_id="ICR-E-fig4b", statement=FIG4_STATEMENT + " (n = 8, |R| = 512, T = 0.01, 3 examples)",
            expect=Status.INCONCLUSIVE, choices=_choices(FIG4B_QUICK, {**PRE_CHOICES, "eos": EOS_CRIT, **FIG4B_SCALE}),
            params={"config": "FIG4B_QUICK", "cache": False, "eos": True, "store": "icrecall.E-fig4b"},
            variants={"full": tv.Variant(params={"config": "FIG4B", "cache": True, "eos": True, "store": "icrecall.E-fig4b-full"}, tags={"slow", "gpu"}, id="E-fig4b-full")})
@CLAIMS.add("E-fig4b-cpu", location="Figure 4(b), Section 5 'pretrained MLP'", kind=Kind.REPRODUCTION,
            catalogue_id="ICR-E-fig4b", statement=FIG4_STATEMENT + " (n = 8, |R| = 512, T = 0.01, 3 examples)",
            tags={"slow"}, expect=Status.INCONCLUSIVE,
            choices=_choices(FIG4B_CPU, {**PRE_CHOICES, "eos": EOS_CRIT, **FIG4B_SCALE}),
            params={"config": "FIG4B_CPU", "cache": True, "eos": True, "store": "icrecall.E-fig4b-cpu"})
def attention_claim(ctx) -> Verdict:
    """The averaged attention rows of one run (params: the configuration's name in ``CONFIGS``, whether its points
    are cached under ``store``, and whether row 2's EoS weight is the criterion)."""
    p = ctx.params
    cfg = CONFIGS[p["config"]]
    res = _run_points(p["store"], [cfg], ctx.seed, ctx.device, p["cache"])[0]
    return attention_verdict(cfg, res, p["eos"])


# --- ICR-E-second-perfect --------------------------------------------------------------------------

SECOND_CRIT = ("CHECK (spec): step-2 argmax accuracy = 1 on every test sequence for every configuration and seed run. "
               "One rule with Figure 3 (FIG3_CRIT, issue 27): HOLDS if every run is perfect; in the full profile "
               "REFUTED (not_reproducible: the runs rest on settings the paper leaves open — |D|, steps, trained "
               "block, recorded in choices) if some configuration's mean over seeds is below 1 by more than 2 standard "
               "errors of that mean; INCONCLUSIVE if a miss is within 2 s.e., and for every miss of the under-trained "
               "quick smoke run (it cannot refute)")


def second_verdict(runs: dict[str, dict], can_refute: bool = False) -> Verdict:
    """SECOND_CRIT; ``can_refute=False`` (the quick smoke run) turns a miss into INCONCLUSIVE."""
    table = {k: {"acc2 per seed": r["acc2"], "min per-sequence acc2": r["min_acc2"]} for k, r in runs.items()}
    bad = {k: v for k, v in table.items() if min(v["acc2 per seed"]) < 1.0}
    ev = "; ".join(f"{k}: acc2 {np.round(v['acc2 per seed'], 3).tolist()}" for k, v in table.items())
    method = "step-2 test accuracy over the Section-5 runs"
    if not bad:
        return holds(method, f"perfect in all {len(table)} runs: {ev}", table=plain(table), criterion=SECOND_CRIT)
    clear = {}
    for k, v in bad.items():
        a = np.asarray(v["acc2 per seed"], float)
        se = float(a.std() / np.sqrt(len(a))) if len(a) > 1 else 0.0
        if 1.0 - a.mean() > 2 * se and len(a) > 1:
            clear[k] = {"mean acc2": float(a.mean()), "2 s.e.": 2 * se}
    summary = f"{len(bad)}/{len(table)} runs below perfect ({len(clear)} beyond 2 s.e.): {ev}"
    if clear and can_refute:
        k = next(iter(clear))
        return refuted(method, summary, {"configuration": k, **clear[k]}, table=plain(table), criterion=SECOND_CRIT,
                       beyond_noise=clear)
    return inconclusive(method, summary + ("" if can_refute else " (a quick run cannot refute; see "
                                                                 "E-second-perfect-full)"),
                        table=plain(table), criterion=SECOND_CRIT, beyond_noise=clear)


SECOND_STATEMENT = ("The second decoding step consistently achieves perfect test accuracy across all hyperparameter "
                    "settings and random seeds")


@CLAIMS.add("E-second-perfect", location="Section 5 (after Figure 3)", kind=Kind.REPRODUCTION,
            catalogue_id="ICR-E-second-perfect", expect=Status.INCONCLUSIVE, choices={**COMMON, "runs": "quick runs "
            "with the configurations of E-fig3-8samples (F-agl(4), |D| = 32) and E-fig2a (own seed)", "criterion": SECOND_CRIT},
            statement=SECOND_STATEMENT, params={"runs": "quick"})
@CLAIMS.add("E-second-perfect-full", location="Section 5 (after Figure 3)", kind=Kind.REPRODUCTION,
            catalogue_id="ICR-E-second-perfect", statement=SECOND_STATEMENT, tags={"slow"}, expect=Status.REFUTED,
            finding=Finding.NOT_REPRODUCIBLE,
            # issue 27: was inconclusive by a rule of its own while E-fig3-8samples-full, on the same kind of runs, was
            # not_reproducible; one rule now (SECOND_CRIT = FIG3_CRIT's): a full-profile miss beyond 2 s.e. is a
            # not_reproducible refutation. A registration of its own (a Variant cannot carry a finding class).
            reason="depends on unstated settings: with the full W^KQ (Adam 1e-3, init 0, 600 steps) 15 of 28 "
                   "configurations fall short of perfect step-2 accuracy (F-paper(8,64) at |D| = 2, 4, 8: 0.41-0.59 on every "
                   "seed shown in the committed report), far beyond seed noise; the text of Sec. 5 states neither the trained block, the "
                   "number of steps, T nor |D| of the runs it summarises",
            choices={**COMMON, "runs": "the full Figure-3 grids (full W^KQ and position block; F-paper(8,64) and "
                     "F-agl(8), |D| ∈ {2,…,64}, 10 seeds) and the Figure 2(a), 2(b), 4(a), 2(a)-position configurations, "
                     "trained with this claim's own seed", "criterion": SECOND_CRIT},
            params={"runs": "full"})
def e_second(ctx):
    """Step-2 test accuracy over Section-5 runs, every run trained here with this claim's own seed (quick: the
    E-fig3-8samples F-agl(4), |D| = 32 and E-fig2a smoke configurations; full: the full Figure-3 grids (full W^KQ and
    position block) and the Figure 2(a), 2(b), 4(a) configurations, cached under this claim's own key).  The result
    is a function of this claim's seed only: no other claim's cached runs are read."""
    runs = {}
    if ctx.params["runs"] == "quick":
        for c in fig3_configs(True)["F-agl(4)"][2:]:
            runs[f"fig3 F-agl(4) |D|={c.n_train}"] = X.cached_experiment(c, ctx.seed, ctx.device)
        for name, c in (("fig2a", FIG2A_QUICK),):
            runs[name] = X.cached_experiment(c, ctx.seed, ctx.device)
        return second_verdict(runs, can_refute=False)
    store = "icrecall.E-second-perfect-full"
    for name, cfgs in fig3_configs(False).items():
        for c, p in zip(cfgs, _run_points(store, cfgs, ctx.seed, ctx.device, True)):
            runs[f"fig3 {name} |D|={c.n_train}"] = p
    for name, cfgs in fig3_position_configs().items():
        for c, p in zip(cfgs, _run_points(store, cfgs, ctx.seed, ctx.device, True)):
            runs[f"fig3 (position block) {name} |D|={c.n_train}"] = p
    for name, c in (("fig2a", FIG2A), ("fig2b", FIG2B), ("fig4a", FIG4A), ("fig2a (position block)", FIG2A_POS)):
        runs[name] = _run_points(store, [c], ctx.seed, ctx.device, True)[0]
    return second_verdict(runs, can_refute=True)
