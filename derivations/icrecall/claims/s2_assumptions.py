"""Assumptions 1 and 2 (Sections 2.2, 4.2), the sequence classification of Section 4.2, the
Lemma-9 initial logits and counts (App. C) and the Section-5 configurations against the
assumptions.  Exact enumeration (integers / Fractions) over relation families."""
from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import numpy as np

import theoryverify as tv
from theoryverify import ClaimSet, Kind
from theoryverify import rng
from theoryverify import Verdict, combine, holds, inconclusive, proved, refuted
from ..experiments.util import plain

from ..printed import construction as P
from ..model.families import (READINGS, Family, a1_violation, all_sequences, bayes_answer, bayes_first_step,
                       construction_int, f_aff, f_agl, f_all3, f_cyc, f_greedy, f_paper, f_rand, fractions,
                       hypothesis_families, max_agreement, max_pair_agreement, mlp_int, sample_sequences, satisfies_a1, subset)

CLAIMS = ClaimSet("icrecall")

READING_CHOICE = {"Assumption 1 reading": "both: 'printed' (s1 = s2 allowed) and 'distinct' (s1 ≠ s2 only); "
                                          "'distinct' is used where one reading is needed"}


def a1_families(seed: int, hypothesis_sets: int) -> list[Family]:
    """Assumption-1 (distinct reading) families: F-aff(5), F-aff(7), F-agl(8), F-cyc(5..8),
    F-greedy(6), F-greedy(7), ``hypothesis_sets`` Hypothesis sets (n ∈ [4, 8])."""
    g = rng(seed)
    fams = [f_aff(5), f_aff(7), f_agl(4), f_agl(8), f_cyc(5), f_cyc(6), f_greedy(6, g), f_greedy(7, g)]
    fams += hypothesis_families(seed, hypothesis_sets, range(4, 9), lambda n: n * (n - 1), reading="distinct",
                                label="F-hypA1")
    return fams


# --- ICR-A1-size ----------------------------------------------------------------------------

def max_code_size(n: int, reading: str) -> int:
    """Exhaustive maximum |R| under Assumption 1 (max clique of the compatibility graph on S_n)."""
    import networkx as nx
    perms = list(permutations(range(n)))
    limit = max_agreement(reading)
    G = nx.Graph()
    G.add_nodes_from(range(len(perms)))
    A = np.asarray(perms)
    agree = (A[:, None, :] == A[None, :, :]).sum(axis=2)
    G.add_edges_from(zip(*np.nonzero(np.triu(agree <= limit, 1))))
    clique, _ = nx.max_weight_clique(G, weight=None)
    return len(clique)


def a1_bound(n: int, reading: str) -> int:
    """DERIVATION: printed reading: r ↦ r(s0) is injective ⇒ |R| ≤ n; distinct reading:
    r ↦ (r(s1), r(s2)) is injective into ordered pairs of distinct answers ⇒ |R| ≤ n(n − 1)."""
    return n if reading == "printed" else n * (n - 1)


@CLAIMS.add("A1-size", location="Assumption 1 (Sec. 2.2); spec ICR-A1-size derivation task", kind=Kind.IDENTITY,
            catalogue_id="ICR-A1-size", choices=READING_CHOICE,
            statement="DERIVATION: the largest |R| satisfying Assumption 1 is n under the printed reading (s1 = s2 "
                      "allowed) and n(n−1) under the s1 ≠ s2 reading (attained iff a sharply 2-transitive set of "
                      "bijections exists, e.g. the affine group for prime-power n)")
def a1_size_verdict(ctx=None, bound=a1_bound) -> Verdict:
    exhaustive = {}
    for n, reading in ((3, "printed"), (4, "printed"), (5, "printed"), (3, "distinct"), (4, "distinct")):
        best = max_code_size(n, reading)
        exhaustive[f"n={n},{reading}"] = best
        if best != bound(n, reading):
            return refuted("exhaustive max clique over S_n", f"largest Assumption-1 set for n={n} ({reading}) "
                           f"has {best} relations, bound says {bound(n, reading)}",
                           {"n": n, "reading": reading, "max_size": best, "bound": bound(n, reading)})
    attained = {}
    for fam, reading in [(f_cyc(n), "printed") for n in range(3, 9)] + [(f_agl(q), "distinct") for q in (3, 4, 5, 7, 8)]:
        if not satisfies_a1(fam, reading) or fam.m != bound(fam.n, reading):
            return refuted("attaining family", f"{fam.name} does not attain the bound ({reading})",
                           {**fam.describe(), "reading": reading, "bound": bound(fam.n, reading),
                            "violation": a1_violation(fam, reading)})
        attained[fam.name] = (reading, fam.m)
    g = rng(6)
    best6 = max(f_greedy(6, g).m for _ in range(60))
    return holds("pigeonhole proof + exhaustive max clique (n ≤ 5 / n ≤ 4) + attaining families",
                 f"max |R| = n (printed reading), n(n−1) (s1≠s2 reading); exhaustive {exhaustive}; attained by "
                 f"F-cyc(n) (n = 3..8) and the affine groups F-agl(q), q ∈ {{3,4,5,7,8}}; for n = 6 (no sharply "
                 f"2-transitive set) greedy search reached {best6} < 30",
                 exhaustive=exhaustive, attained=attained, greedy_best_n6=best6)


# --- ICR-A1-unique and the families under both readings -------------------------------------

@CLAIMS.add("A1-families", location="Assumption 1 (Sec. 2.2); spec §0 'test Assumption 1 on it'",
            kind=Kind.IDENTITY, catalogue_id="ICR-A1-unique", choices=READING_CHOICE,
            statement="F-all3 and F-aff(p) (p ∈ {5,7,11,13}) satisfy Assumption 1 in the s1 ≠ s2 reading and violate "
                      "it in the printed reading (|R| > n); F-cyc(n) satisfies both; F-greedy satisfies the s1 ≠ s2 "
                      "reading")
def a1_families_claim(ctx):
    g = rng(ctx.seed)
    expect = [(f_all3(), True, False)] + [(f_aff(p), True, False) for p in (5, 7, 11, 13)]
    expect += [(f_cyc(n), True, True) for n in (4, 5, 8)] + [(f_greedy(n, g), True, None) for n in (6, 7, 8)]
    table = {}
    for fam, d_ok, p_ok in expect:
        got = (satisfies_a1(fam, "distinct"), satisfies_a1(fam, "printed"))
        table[fam.name] = {"m": fam.m, "distinct": got[0], "printed": got[1]}
        if got[0] != d_ok or (p_ok is not None and got[1] != p_ok):
            return refuted("exact agreement counts", f"{fam.name}: (distinct, printed) = {got}",
                           {**fam.describe(), "distinct": got[0], "printed": got[1],
                            "violation": a1_violation(fam, "printed" if got[0] else "distinct")})
    v = a1_violation(f_all3(), "printed")
    return proved("exact pairwise agreement of the relations", f"readings per family: {table}; printed-reading "
                  f"violation in F-all3: {v['relations']} both map s{v['subjects'][0] + 1} to a{v['answers'][0] + 1}",
                  families=table, printed_violation_all3=v)


def unique_verdict(fams, want: int = 1) -> Verdict:
    total = 0
    for fam in fams:
        if not satisfies_a1(fam, "distinct"):
            return refuted("Assumption 1", f"{fam.name} violates Assumption 1", a1_violation(fam, "distinct"))
        seqs = all_sequences(fam)
        cnt = seqs.consistent.sum(axis=1)
        total += seqs.N
        bad = np.flatnonzero(cnt != want)
        if bad.size:
            i = int(bad[0])
            return refuted("exhaustive enumeration", f"{int(cnt[i])} relations fit the two examples ({fam.name})",
                           {**seqs.row(i), "consistent": int(cnt[i]), "required": want})
    return proved("exhaustive enumeration of every sequence", f"exactly one relation maps (s1, s2) to (a1, a2) "
                  f"on all {total} sequences of {[f.name for f in fams]}", sequences=total)


@CLAIMS.add("A1-unique", location="Section 4, remark after Theorem 1", kind=Kind.IDENTITY,
            catalogue_id="ICR-A1-unique", choices=READING_CHOICE,
            statement="Assumption 1 implies that the hidden relation can be inferred from two in-context examples: "
                      "exactly one r with r(s1) = a1, r(s2) = a2 (F-aff(5), F-aff(7), F-greedy(6), F-greedy(7))")
def a1_unique(ctx):
    g = rng(ctx.seed)
    fams = [f_aff(5), f_aff(7), f_greedy(6, g), f_greedy(7, g)]
    verdict = unique_verdict(fams)
    ctrl = all_sequences(f_paper(8, 64, g))
    frac = float((ctrl.consistent.sum(axis=1) > 1).mean())
    return Verdict(verdict.status, verdict.method, verdict.evidence + f"; control without Assumption 1: "
                   f"F-paper(8,64) has {frac:.3f} of its contexts ambiguous", verdict.counterexample,
                   {**verdict.details, "paper_8_64_ambiguous_fraction": frac})


# --- the sequence classification of Section 4.2 (beyond the catalogue) ----------------------

@CLAIMS.add("seq-partition", location="Section 4.2 definitions (2-matching, confusing, mismatched)",
            kind=Kind.IDENTITY, catalogue_id=None, choices={**READING_CHOICE, "families": "a1_families (quick: 6 "
                                                                                        "Hypothesis sets)"},
            statement="DERIVATION (beyond the catalogue): under Assumption 1 every 2-matching relation other than r* "
                      "is either confusing or mismatched (never both), so I(Z) = 1 + #confusing + #mismatched, with "
                      "#confusing ≤ 1 and #mismatched ≤ 4",
            params={"hypothesis_families": 6},
            variants={"full": tv.Variant(params={"hypothesis_families": 40})})
def seq_partition(ctx):
    return partition_verdict(a1_families(ctx.seed, ctx.params["hypothesis_families"]))


def partition_verdict(fams, bounds=(1, 4)) -> Verdict:
    """Under Assumption 1 (s1 ≠ s2): the 2-matching relations of a sequence are r* plus the
    confusing plus the mismatched ones, disjointly; #confusing ≤ 1, #mismatched ≤ 4."""
    total, worst = 0, {"conf": 0, "mis": 0, "I": 0}
    for fam in fams:
        seqs = all_sequences(fam)
        two = seqs.matching == 2
        star = np.zeros_like(two)
        star[np.arange(seqs.N), seqs.rstar] = True
        conf, mis = seqs.confusing_rel, seqs.mismatched_rel
        parts = star.astype(int) + conf + mis
        total += seqs.N
        bad = np.argwhere((parts != two.astype(int)) | (parts > 1))
        if bad.size:
            i, k = (int(x) for x in bad[0])
            return refuted("exhaustive enumeration", f"relation {fam.relations[k]} breaks the partition",
                           {**seqs.row(i), "relation": fam.relations[k], "two_matching": bool(two[i, k]),
                            "r*": bool(star[i, k]), "confusing": bool(conf[i, k]), "mismatched": bool(mis[i, k])})
        nc, nm = conf.sum(axis=1), mis.sum(axis=1)
        for name, arr, cap in (("conf", nc, bounds[0]), ("mis", nm, bounds[1])):
            if arr.max() > cap:
                i = int(arr.argmax())
                return refuted("exhaustive enumeration", f"#{name} = {int(arr[i])} > {cap}",
                               {**seqs.row(i), f"n_{name}": int(arr[i])})
        worst = {"conf": max(worst["conf"], int(nc.max())), "mis": max(worst["mis"], int(nm.max())),
                 "I": max(worst["I"], int(seqs.I.max()))}
    return proved("exhaustive enumeration of every sequence", f"{total} sequences over {len(fams)} Assumption-1 "
                  f"families: 2-matching = {{r*}} ⊔ confusing ⊔ mismatched, I(Z) = 1 + #conf + #mis; largest "
                  f"#conf, #mis, I seen: {worst}", sequences=total, largest=worst)


@CLAIMS.add("sec42-n3", location="Section 4.2 (parenthesis) and Table 1 / Section 4.1", kind=Kind.IDENTITY,
            catalogue_id=None,
            statement="'all sequences in the simple example are both confusing and mismatched'; Table 1's labels "
                      "(r2 confusing, r3..r6 mismatched) agree with the general-n definitions of Section 4.2")
def sec42_n3(ctx):
    fam = f_all3()
    seqs = all_sequences(fam)
    both = seqs.is_confusing & seqs.is_mismatched
    if not both.all():
        i = int(np.flatnonzero(~both)[0])
        return refuted("exhaustive enumeration", "a sequence that is not both", seqs.row(i))
    base = [i for i in range(seqs.N) if seqs.rstar[i] == 0 and tuple(seqs.s[i]) == (0, 1, 2)][0]
    for k, (name, (img, label)) in enumerate(P.TABLE1.items()):
        derived = ("correct" if k == seqs.rstar[base] else "confusing" if seqs.confusing_rel[base, k]
                   else "mismatched" if seqs.mismatched_rel[base, k] else "other")
        if derived != label:
            return refuted("definitions of Section 4.2", f"{name} is {derived}, Table 1 says {label}",
                           {"relation": name, "images": img, "derived": derived, "printed": label})
    return proved("exhaustive enumeration (36 sequences)", "every F-all3 sequence is confusing and mismatched; "
                  "Table-1 labels r1..r6 match the Section-4.2 definitions")


@CLAIMS.add("A2-fractions", location="Assumption 2 (Sec. 4.2); spec §1.4 p_conf, p_mis", kind=Kind.IDENTITY,
            catalogue_id=None,
            choices={"distribution": "exact P_IC (all sequences, uniform)", "families": "F-aff(p), p ∈ {5,7} (quick), "
                     "{5,7,11,13} (full); general p: a sharply 2-transitive set has the confusing relation (s1→a2, "
                     "s2→a1) and a mismatched one (s1→a2, s3→a1) for every sequence; "
                     "F-cyc(n) odd n ∈ {5,7}; reported: F-greedy(6..8), F-all3"},
            statement="DERIVATION (beyond the catalogue): F-aff(p) (sharply 2-transitive) has p_conf = p_mis = 1, so "
                      "Assumption 2 holds with ζ = 1; F-cyc(n), n odd, has p_conf = 0 < p_mis (no confusing sequence)")
def a2_fractions(ctx):
    out = {}
    for p in (5, 7) if ctx.profile == "quick" else (5, 7, 11, 13):
        fam = f_aff(p)
        fr = _fractions_fast(fam)
        out[fam.name] = fr
        if fr != {"p_conf": 1, "p_mis": 1}:
            return refuted("exact enumeration", f"{fam.name}: {fr}", {**fam.describe(), **plain(fr)})
    for n in (5, 7):
        fr = fractions(all_sequences(f_cyc(n)))
        out[f"F-cyc({n})"] = fr
        if not (fr["p_conf"] == 0 and fr["p_mis"] > 0):
            return refuted("exact enumeration", f"F-cyc({n}): {fr}", {"family": f"F-cyc({n})", **plain(fr)})
    g = rng(ctx.seed)
    report = {f.name: fractions(all_sequences(f)) for f in [f_all3()] + [f_greedy(n, g) for n in (6, 7, 8)]}
    return proved("exact enumeration of P_IC", f"p_conf, p_mis: {plain(out)}; others: {plain(report)}",
                  fractions=plain(out), reported=plain(report))


def _fractions_fast(fam: Family) -> dict[str, Fraction]:
    """p_conf, p_mis by enumeration in chunks (F-aff(13) has 267k sequences)."""
    seqs = all_sequences(fam)
    conf = mis = 0
    step = 20000
    for lo in range(0, seqs.N, step):
        part = subset(seqs, np.arange(lo, min(lo + step, seqs.N)))
        conf += int(part.is_confusing.sum())
        mis += int(part.is_mismatched.sum())
    return {"p_conf": Fraction(conf, seqs.N), "p_mis": Fraction(mis, seqs.N)}


# --- Lemma 9 proof: initial logits and counts -------------------------------------------------

def init_logits_36(seqs) -> np.ndarray:
    """36 · l(r) at θ = 0 from the full model: v = 1/6 everywhere, h = (1 + 1/6) φ(EoS) +
    (1/6) Σ_{i≤5} φ(u_i), so 6h = 7 φ(EoS) + Σ_{i≤5} φ(u_i) and 36 l = φ(r)ᵀ Vᵀ(W·6h)² (integers)."""
    fam = seqs.fam
    W, V = construction_int(fam)
    voc = fam.vocab
    X = np.zeros((voc.d, seqs.N), dtype=np.int64)
    cols = np.arange(seqs.N)
    for i in range(3):
        X[seqs.s[:, i], cols] += 1
    for j in range(2):
        X[fam.n + fam.m + seqs.a[:, j], cols] += 1
    X[voc.eos, cols] += 7
    F = mlp_int(W, V, X)
    return F[fam.n: fam.n + fam.m].T  # N × m


def init_logit_verdict(fams, printed=P.L9_INIT_LOGITS) -> Verdict:
    for k, (expr, value) in printed.items():  # the printed arithmetic
        if expr != value:
            return refuted("exact rational arithmetic", f"printed step for {k}-matching: {expr} ≠ {value}",
                           {"k": k, "expression_value": expr, "printed": value})
    total = 0
    for fam in fams:
        seqs = all_sequences(fam)
        L = init_logits_36(seqs)
        match = seqs.matches  # Eq. (18) at v = 1/6: 36 l = 2 · #matches + 5
        eq18 = 2 * match.sum(axis=(2, 3)) + 5
        lut = np.array([int(printed[k][1] * 36) if (printed[k][1] * 36).denominator == 1 else -1
                        for k in range(3)], dtype=np.int64)  # −1: a printed value that is not an integer / 36
        want = lut[seqs.matching]
        for name, arr in (("full model", L), ("Eq. (18)", eq18)):
            bad = np.argwhere(arr != want)
            if bad.size:
                i, k = (int(x) for x in bad[0])
                return refuted(f"exact evaluation at θ = 0 ({name})",
                               f"{int(seqs.matching[i, k])}-matching relation has logit {Fraction(int(arr[i, k]), 36)}",
                               {**seqs.row(i), "relation": fam.relations[k], "k": int(seqs.matching[i, k]),
                                "derived": Fraction(int(arr[i, k]), 36), "printed": printed[int(seqs.matching[i, k])][1]})
        total += L.size
    return proved("exact rational evaluation at θ = 0 (full model and Eq. (18)), exhaustive",
                  f"{total} (sequence, relation) pairs over {[f.name for f in fams]}: k-matching ⇒ logit "
                  "1/4, 7/36, 5/36 for k = 2, 1, 0; printed arithmetic correct", pairs=total)


@CLAIMS.add("L9-init-logits", location="Lemma 9 proof (App. C)", kind=Kind.IDENTITY, catalogue_id="ICR-L9-init-logits",
            choices={"families": "F-all3, F-aff(5), F-aff(7), F-greedy(7), F-rand(6,20) (all sequences)"},
            statement="At θ = 0: 2-matching relations have logit 2·(1/6+1/6)² + 1/6² = 1/4, 1-matching (1/6+1/6)² + "
                      "3·(1/6²) = 7/36, 0-matching 5/6² = 5/36")
def l9_init_logits(ctx):
    g = rng(ctx.seed)
    return init_logit_verdict([f_all3(), f_aff(5), f_aff(7), f_greedy(7, g), f_rand(6, 20, g)])


def counts_verdict(fams, b1=P.l9_bound_one_matching, b0=P.l9_bound_zero_matching, i_range=P.L9_I_RANGE) -> Verdict:
    largest = {}
    for fam in fams:
        if not satisfies_a1(fam, "distinct"):
            return refuted("Assumption 1", f"{fam.name} violates Assumption 1", a1_violation(fam, "distinct"))
        seqs = all_sequences(fam)
        k = seqs.matching
        n1, n0, I = (k == 1).sum(axis=1), (k == 0).sum(axis=1), seqs.I
        n = fam.n
        checks = (("#1-matching ≤ 6(n−3)", n1, b1(n), "<="), ("#0-matching ≤ n(n−1)−6(n−2)", n0, b0(n), "<="),
                  ("#0-matching < n²", n0, P.l9_bound_zero_matching_loose(n), "<"),
                  ("I(Z) ≥ 1", I, i_range[0], ">="), ("I(Z) ≤ 6", I, i_range[1], "<="))
        for name, arr, bound, op in checks:
            ok = {"<=": arr <= bound, "<": arr < bound, ">=": arr >= bound}[op]
            if not ok.all():
                i = int(np.flatnonzero(~ok)[0])
                return refuted("exhaustive enumeration", f"{name} fails: {int(arr[i])} vs {bound} ({fam.name})",
                               {**seqs.row(i), "bound": name, "value": int(arr[i]), "printed_bound": bound})
        for key, val, pick in (("n1", int(n1.max()), max), ("n0", int(n0.max()), max), ("I_max", int(I.max()), max),
                               ("I_min", int(I.min()), min)):
            row = largest.setdefault(key, {})
            row[fam.name] = pick(row.get(fam.name, val), val)
    return holds("exhaustive enumeration of every sequence of each family + counting proof",
                 f"all bounds hold on {len(fams)} Assumption-1 families; largest counts {largest}. Proof: each "
                 "bound counts ordered choices of two (s, a) pairs with distinct subjects (6, 6(n−3), (n−3)(n−4) = "
                 "n(n−1)−6(n−2)), each fixing ≤ 1 relation; tight on sharply 2-transitive sets", largest=largest)


def greedy_codes(seed: int, count: int, ns=(6, 7)) -> list[Family]:
    g = rng(seed)
    return [f_greedy(ns[i % len(ns)], g) for i in range(count)]


def hill_climb(n: int, g: np.random.Generator, objective, steps: int = 150) -> Family:
    """Local search over Assumption-1 codes maximising ``objective(family)``: replace a random
    relation by a random compatible bijection; keep if not worse."""
    fam = f_greedy(n, g)
    best = objective(fam)
    for _ in range(steps):
        rels = list(fam.relations)
        rels.pop(int(g.integers(len(rels))))
        arr = np.asarray(rels)
        for _ in range(50):
            c = g.permutation(n)
            if int((arr == c).sum(axis=1).max()) <= 1 and tuple(c) not in rels:
                rels.append(tuple(int(x) for x in c))
                break
        cand = Family(f"F-hillclimb({n})", n, tuple(rels))
        val = objective(cand)
        if val >= best:
            fam, best = cand, val
    return fam


@CLAIMS.add("L9-counts", location="Lemma 9 proof (App. C)", kind=Kind.INEQUALITY, catalogue_id="ICR-L9-counts",
            choices={**READING_CHOICE, "families": "F-aff(5), F-aff(7) (all sequences) + 30 F-greedy codes n ∈ {6,7} "
                     "(quick); the slow variant adds F-aff(11) and 600 greedy codes + hill-climbing"},
            statement="Under Assumption 1: #1-matching ≤ 6(n−3), #0-matching ≤ n(n−1) − 6(n−2) < n², 1 ≤ I(Z) ≤ 6",
            params={"broad": False},
            variants={"full": tv.Variant(params={"broad": True}, tags={"slow"}, id="L9-counts-sweep")})
def l9_counts(ctx):
    """Quick: F-aff(5), F-aff(7) + 30 greedy codes, with a control that violates Assumption 1; broad (the full
    variant): F-aff(5, 7, 11), 600 greedy codes n ∈ {6, 7} and hill-climbing (150 steps) maximising max #1-matching,
    max #0-matching, max I(Z) (n ∈ {6, 7})."""
    if ctx.params["broad"]:
        g = rng(ctx.seed + 3)

        def obj(kind):
            def f(fam):
                k = all_sequences(fam).matching
                return int({"n1": (k == 1).sum(1), "n0": (k == 0).sum(1), "I": (k == 2).sum(1)}[kind].max())
            return f
        climbed = [hill_climb(n, g, obj(kind)) for n in (6, 7) for kind in ("n1", "n0", "I")]
        return counts_verdict([f_aff(5), f_aff(7), f_aff(11)] + greedy_codes(ctx.seed, 600) + climbed)
    v = counts_verdict([f_aff(5), f_aff(7)] + greedy_codes(ctx.seed, 30))
    ctrl = all_sequences(f_paper(8, 64, rng(ctx.seed + 5)))  # without Assumption 1 (control, not a verdict)
    k = ctrl.matching
    control = {"max I": int(ctrl.I.max()), "max #1-matching": int((k == 1).sum(1).max()),
               "max #0-matching": int((k == 0).sum(1).max()), "bounds (n=8)": [6, 30, 20]}
    return Verdict(v.status, v.method, v.evidence + f"; control F-paper(8,64) (violates Assumption 1): {control}",
                   v.counterexample, {**v.details, "control_F_paper_8_64": control})


# --- Assumption-2 remark (Section 4.2) ---------------------------------------------------------

def _logits_theta(tm, batch, theta):
    import torch
    v = torch.softmax(theta, 0)
    return tm.relation_logits(batch["step1"], v.expand(batch["step1"].shape[0], 6))


def remark_accuracy(fam: Family, seqs, theta, T: float) -> dict:
    """argmax accuracy (exact ties credited 1/#tied, tolerance 1e-12) and min / mean p1(r*)."""
    import torch
    from ..model.torch_model import ICModel
    tm = ICModel(fam.n, fam.relations)
    cases = [(tuple(int(x) for x in seqs.s[i]), int(seqs.rstar[i])) for i in range(seqs.N)]
    batch = tm.batch(cases)
    with torch.no_grad():
        L = _logits_theta(tm, batch, theta)
        top = L.max(1, keepdim=True).values
        tied = L >= top - 1e-12
        r = batch["r_star"][:, None]
        acc = (tied.gather(1, r)[:, 0].double() / tied.sum(1)).mean()
        logp = torch.log_softmax(L / T, 1).gather(1, r)[:, 0]
    return {"argmax_acc": float(acc), "min_p1": float(logp.exp().min()), "mean_p1": float(logp.exp().mean()),
            "sequences": seqs.N}


def one_gd_step(fam: Family, seqs, T: float, eta: float):
    """θ after one GD step of L1 over D from θ = 0 (Algorithm 1, Stage 1 with t1 = 1)."""
    import torch
    from ..model.torch_model import ICModel
    tm = ICModel(fam.n, fam.relations)
    cases = [(tuple(int(x) for x in seqs.s[i]), int(seqs.rstar[i])) for i in range(seqs.N)]
    batch = tm.batch(cases)
    theta = torch.zeros(6, dtype=torch.float64, requires_grad=True)
    loss = tm.L1(theta, torch.zeros(7, dtype=torch.float64), T, batch)
    loss.backward()
    return (theta - eta * theta.grad).detach()


A2_CHOICES = {
    "families": "no confusing and no mismatched: |R| = 1 (F-single(6)), and D restricted to the non-confusing, "
                "non-mismatched sequences of F-greedy(6), F-greedy(7), F-cyc(5); no confusing only: F-cyc(5), F-cyc(7) "
                "(all sequences; p_conf = 0 < p_mis) and F-greedy(7) restricted to its non-confusing sequences",
    "after Stage 1": "one GD step from θ = 0 (t1 = 1) with η1 = T^{3/2} log(1/T) (Θ-constant 1), T = 0.02, D = the "
                     "sequences named above (population for F-cyc)",
    "accuracy": "verdict on argmax accuracy (ties credited 1/#tied); p1(r*) reported (at θ = 0 it is < 1 for every "
                "finite T: exact gaps 2/36 and 4/36 to the 1- and 0-matching logits)",
    "Assumption 1": "s1 ≠ s2 reading (holds for every family used)"}


@CLAIMS.add("A2-remark", location="Section 4.2, after Assumption 2", kind=Kind.IDENTITY, catalogue_id="ICR-A2-remark",
            choices=A2_CHOICES,
            statement="No confusing and no mismatched sequences ⇒ the initial solution (θ = 0) has 100% accuracy; no "
                      "confusing sequences ⇒ the Stage-1 point has 100% accuracy (checked after one recorded GD step)")
def a2_remark(ctx):
    import torch
    g = rng(ctx.seed)
    T = 0.02
    parts, info = {}, {}
    # (a) θ = 0, no confusing and no mismatched sequences: exact (integer logits, 36 l)
    single = Family("F-single(6)", 6, (tuple(int(x) for x in g.permutation(6)),))
    pools = [all_sequences(single)]
    for fam in (f_greedy(6, g), f_greedy(7, g), f_cyc(5)):
        s = all_sequences(fam)
        pools.append(subset(s, ~s.is_confusing & ~s.is_mismatched))
    total = 0
    for seqs in pools:
        if seqs.N == 0:
            continue
        L = init_logits_36(seqs)
        star = L[np.arange(seqs.N), seqs.rstar]
        other = np.where(np.arange(seqs.fam.m)[None, :] == seqs.rstar[:, None], -1, L).max(axis=1)
        bad = np.flatnonzero(star <= other)
        total += seqs.N
        if bad.size:
            i = int(bad[0])
            parts["θ = 0"] = refuted("exact logits at θ = 0", f"r* not the unique argmax ({seqs.fam.name})",
                                     {**seqs.row(i), "l(r*)·36": int(star[i]), "best other·36": int(other[i])})
            break
        acc = remark_accuracy(seqs.fam, seqs, torch.zeros(6, dtype=torch.float64), T)
        info[f"θ=0 {seqs.fam.name}"] = acc
    else:
        parts["θ = 0"] = proved("exact integer logits, exhaustive", f"r* is the unique argmax at θ = 0 on all {total} "
                                "non-confusing, non-mismatched sequences (gap ≥ 2/36)", sequences=total)
    # (b) after one Stage-1 GD step, no confusing sequences
    eta = T ** 1.5 * np.log(1 / T)
    worst = 1.0
    for fam, restrict in ((f_cyc(5), False), (f_cyc(7), False), (f_greedy(7, g), True)):
        seqs = all_sequences(fam)
        if restrict:
            seqs = subset(seqs, ~seqs.is_confusing)
        theta = one_gd_step(fam, seqs, T, eta)
        acc = remark_accuracy(fam, seqs, theta, T)
        acc["v"] = [round(float(x), 6) for x in torch.softmax(theta, 0)]
        info[f"1 step {fam.name}{' (non-confusing D)' if restrict else ''}"] = acc
        worst = min(worst, acc["argmax_acc"])
        if acc["argmax_acc"] < 1.0:
            parts["after Stage 1"] = refuted("one GD step (torch_model)", f"argmax accuracy {acc['argmax_acc']:.4f} "
                                             f"< 1 on {fam.name}", {**fam.describe(), "T": T, "eta1": eta, **acc})
            break
    else:
        parts["after Stage 1"] = holds("one GD step from θ = 0 (torch_model, float64)",
                                       f"argmax accuracy 1 on every sequence after one step (η1 = {eta:.4g}, T = {T})")
    # control: with confusing sequences the same step leaves ties (F-aff(5))
    ctrl = all_sequences(f_aff(5))
    info["control F-aff(5) (all confusing)"] = remark_accuracy(f_aff(5), ctrl, one_gd_step(f_aff(5), ctrl, T, eta), T)
    v = combine(parts, method="Assumption-2 remark:")
    return Verdict(v.status, v.method, v.evidence + f"; accuracies: {plain(info)}", v.counterexample,
                   {**v.details, "accuracies": plain(info)})


# --- Section 5 configurations (ICR-E-assumptions) ----------------------------------------------

def paper_draws(seed: int, n: int, m: int, draws: int) -> list[Family]:
    g = rng(seed)
    return [f_paper(n, m, g) for _ in range(draws)]


E_CHOICES = {**READING_CHOICE, "draws": "20 relation draws per configuration from ctx.seed (F-paper(8,64) and "
             "F-paper(8,512), distinct random bijections)", "3-example analogue of Assumption 1":
             "any three (s, a) pairs identify at most one relation (two relations agree on ≤ 2 subjects)",
             "p_conf, p_mis": "2-example definitions; quick: 500 sampled sequences per draw; slow variant: exact over "
                              "all sequences for (8,64)",
             "ceiling": "Bayes-optimal first-step accuracy, exact: E over P_IC of 1/#(relations consistent with the "
                        "in-context pairs)"}
E_STATEMENT = ("DERIVATION (not a paper statement): the Section-5 relation sets F-paper(8,64) (2 examples) and "
               "F-paper(8,512) (3 examples) violate Assumption 1 (and its 3-example analogue) under both readings "
               "for every draw, since 64 > 8·7 and 512 > 8·7·6 (ICR-A1-size); their Bayes-optimal first-step "
               "accuracy is far below the 0.999 of Theorem 3")


@CLAIMS.add("E-assumptions", location="Section 5 configurations vs Assumptions 1, 2 (spec ICR-E-assumptions)",
            kind=Kind.INEQUALITY, catalogue_id="ICR-E-assumptions", choices=E_CHOICES, statement=E_STATEMENT,
            params={"exact": False},
            variants={"full": tv.Variant(params={"exact": True}, tags={"slow"}, id="E-assumptions-exact")})
def e_assumptions_verdict(ctx) -> Verdict:
    seed, exact = ctx.seed, ctx.params["exact"]
    rows = {}
    for cfg in P.SECTION5_CONFIGS:
        n, m, k = cfg["n"], cfg["m"], cfg["examples"]
        fams = paper_draws(seed + m, n, m, 20)
        agree = [max_pair_agreement(f) for f in fams]
        sat = {r: float(np.mean([a <= max_agreement(r, k) for a in agree])) for r in READINGS}
        sat_2ex = {r: float(np.mean([a <= max_agreement(r, 2) for a in agree])) for r in READINGS}
        ceil = [float(bayes_first_step(f, k)) for f in fams]
        g = rng(seed + 11)
        if exact and m <= 64:
            fr = [fractions(all_sequences(f)) for f in fams]
            ans = [float(bayes_answer(all_sequences(f))) for f in fams[:3]]
        else:
            fr = [fractions(sample_sequences(f, 500, g)) for f in fams]
            ans = None
        pc = [float(x["p_conf"]) for x in fr]
        pm = [float(x["p_mis"]) for x in fr]
        key = f"F-paper({n},{m}), {k} examples"
        rows[key] = {
            "A1 satisfied (fraction of draws, k-example analogue)": sat, "A1 satisfied (2-example form)": sat_2ex,
            "largest |R| allowed": {"distinct": int(np.prod([n - i for i in range(k)])), "printed": n},
            "p_conf mean [min, max]": [np.mean(pc), min(pc), max(pc)],
            "p_mis mean [min, max]": [np.mean(pm), min(pm), max(pm)],
            "Bayes first-step ceiling mean, sd, min, max": [np.mean(ceil), np.std(ceil), min(ceil), max(ceil)],
            "Bayes answer ceiling without the relation step (3 draws)": ans}
        if any(sat.values()) or max(ceil) >= 0.999:
            return refuted("exact enumeration over 20 draws", f"a draw of F-paper({n},{m}) satisfies Assumption 1 or "
                           f"has ceiling ≥ 0.999", {"config": cfg, **plain(rows[key])})
    return holds("exact Assumption-1 test + exact Bayes ceiling over 20 draws per configuration",
                 "; ".join(f"{k}: A1 holds in {v['A1 satisfied (fraction of draws, k-example analogue)']} of draws, "
                           f"Bayes first-step ceiling {v['Bayes first-step ceiling mean, sd, min, max'][0]:.4f} "
                           f"(sd {v['Bayes first-step ceiling mean, sd, min, max'][1]:.4f}), "
                           f"p_conf {v['p_conf mean [min, max]'][0]:.3f}, p_mis {v['p_mis mean [min, max]'][0]:.3f}"
                           for k, v in rows.items()), configs=plain(rows))


@CLAIMS.add("A2-remark-stage1", location="Section 4.2, after Assumption 2", kind=Kind.DYNAMICS,
            catalogue_id="ICR-A2-remark", tags={"slow"},
            choices={**A2_CHOICES, "after Stage 1": "plain GD on L1(θ) from θ = 0 over all sequences of F-cyc(5) "
                     "(p_conf = 0, p_mis = 2/3), η1 = 2T², T = 0.02, 3000 steps, checkpoints every 500 steps"},
            statement="No confusing sequences ⇒ along Stage 1 towards its limit point the accuracy is 100%: argmax "
                      "accuracy 1 at every checkpoint after the first step, and min p1(r*) increasing towards 1")
def a2_remark_stage1(ctx):
    import torch
    from ..model.torch_model import ICModel
    T, steps, every = 0.02, 3000, 500
    fam = f_cyc(5)
    seqs = all_sequences(fam)
    tm = ICModel(fam.n, fam.relations)
    batch = tm.batch([(tuple(int(x) for x in seqs.s[i]), int(seqs.rstar[i])) for i in range(seqs.N)])
    theta = torch.zeros(6, dtype=torch.float64, requires_grad=True)
    omega = torch.zeros(7, dtype=torch.float64)
    trace = []
    for k in range(steps + 1):
        if k % every == 0 or k == 1:
            acc = remark_accuracy(fam, seqs, theta.detach(), T)
            trace.append({"step": k, "argmax_acc": acc["argmax_acc"], "min_p1": acc["min_p1"],
                          "v": [round(float(x), 5) for x in torch.softmax(theta.detach(), 0)]})
        if k < steps:
            grad, = torch.autograd.grad(tm.L1(theta, omega, T, batch), theta)
            with torch.no_grad():
                theta -= 2 * T * T * grad
    trace0, trace = trace[0], trace[1:]  # θ = 0 (ties with mismatched relations) is the initial point
    accs = [t["argmax_acc"] for t in trace]
    mins = [t["min_p1"] for t in trace]
    if min(accs) < 1.0:
        bad = trace[accs.index(min(accs))]
        return refuted("GD on L1 (torch_model)", f"argmax accuracy {bad['argmax_acc']:.4f} at step {bad['step']}",
                       {**fam.describe(), "T": T, **bad})
    if any(b < a - 1e-12 for a, b in zip(mins, mins[1:])):
        return inconclusive("GD on L1 (torch_model)", f"min p1(r*) not monotone along Stage 1: {mins}", trace=trace)
    trace = [trace0] + trace
    return holds("GD on L1 (torch_model, float64)", f"θ = 0: argmax accuracy {trace0['argmax_acc']:.4f} (ties with "
                 f"mismatched relations); from step 1 on: argmax accuracy 1 at every checkpoint; min p1(r*) rises "
                 f"{mins[0]:.3f} → {mins[-1]:.3f} over {steps} steps (v5 → {trace[-1]['v'][4]}); the probability "
                 "reading of '100%' is reached only in the limit t1 → ∞, T → 0", trace=trace)
