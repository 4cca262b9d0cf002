"""Theorems 3 and 1 across families, n and temperatures: Algorithm 1 (t1 = 1) at recorded constants, every run
evaluated on every IC-recall sequence of its family.

A point of the sweep is (family, n, T·log n, constants, data, seeds); its value is, per seed, what Theorem 3 and
Theorem 1 say about the run: the minimum over all sequences of p1(r*) from each candidate t2 = ⌈(C2/T)·log(1/T)⌉
on (to the end of the budget), the first step after which that minimum stays ≥ 0.999, the argmax accuracy, the
sequence that is worst at the end (its type and relation counts), and — for Theorem 1 — the second decoding step
along the same run (ℓ2 is the same for every sequence given r*, ``stage2_dynamics.step2_path``), combined as
min over sequences of p1(r*)·p_{2,r*}(a3).

Families (Assumption 1 holds for all of them; Assumption 2's ζ is recorded per family):

* F-aff(p): the affine maps of Z_p (sharply 2-transitive): every sequence has every competitor at its maximal
  count (one confusing, four mismatched, the most 1-matching relations) — the per-sequence worst case — but every
  sequence is identical (one key), so p_conf = p_mis = 1 and |D| has no effect;
* F-aff-half(q), F-aff-quarter(q): a random half / quarter of the affine maps of GF(q): sequences differ, p_conf ≈
  ½ / ¼ (the training signal that breaks the saddle is weaker) while the worst sequences keep the F-aff competitor
  counts — the hardest Assumption-1 families constructed here;
* F-greedy(n): random bijections added while Assumption 1 holds (p_conf ≈ 0.28 at n = 7, decaying with n).

Data: ``"population"`` is the |D| → ∞ limit (the key weights of P_IC itself); an integer is |D| i.i.d. draws from
P_IC per seed.  Arithmetic: torch float64, one thread (set by the engine), every iterate recorded.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np

from ..model import families as FM
from . import sample_size as Z
from . import stage2_dynamics as S

LEVEL = 0.999  # Theorem 3's accuracy
LEVEL_T1 = 0.99  # Theorem 1's accuracy


def family(name: str, n: int, seed: int = 0) -> FM.Family:
    """The families above (``seed`` picks the random subset of F-aff-half / F-aff-quarter and the F-greedy code)."""
    if name == "F-aff-quarter":
        full = FM.f_agl(n)
        idx = np.sort(np.random.default_rng([seed, n, 4]).choice(full.m, full.m // 4, replace=False))
        return FM.Family(f"F-aff-quarter({n}, seed {seed})", n, tuple(full.relations[i] for i in idx))
    return Z.family(name, n, seed)


def keys_for(name: str, n: int, seed: int = 0) -> S.Keys:
    fam = family(name, n, seed)
    return Z.one_sequence_keys(fam) if name == "F-aff" else Z.population_keys(fam)


def describe_family(name: str, n: int, seed: int = 0) -> dict:
    fam = family(name, n, seed)
    keys = keys_for(name, n, seed)
    d = keys.describe()
    d.update({"m": fam.m, "Assumption 1 (s1 ≠ s2 reading)": bool(FM.satisfies_a1(fam, "distinct"))})
    return d


def t2_of(T: float, C2: float) -> int:
    return int(math.ceil(C2 / T * math.log(1.0 / T)))


def run_point(config: Mapping[str, Any]) -> dict:
    """One sweep point (see the module docstring); a pure function of ``config`` (its randomness from
    config["seed"])."""
    name, n, fT = config["family"], int(config["n"]), float(config["TlogN"])
    c1, c2, c_rho = float(config["c1"]), float(config["c2"]), float(config["c_rho"])
    C2s, seeds, seed, data = [float(c) for c in config["C2s"]], int(config["seeds"]), int(config["seed"]), config["data"]
    T = fT / math.log(n)
    keys = keys_for(name, n, int(config.get("family_seed", 0)))
    p = keys.mult / keys.mult.sum()
    if data == "population":
        w = np.tile(p, (seeds, 1))
    else:
        w = np.stack([np.bincount(S.run_rng(seed, "D", name, n, fT, int(data), s).choice(keys.K, size=int(data), p=p),
                                  minlength=keys.K) / int(data) for s in range(seeds)])
    Tb = np.full(seeds, T)
    labels = [("thm3", name, n, fT, str(data), s) for s in range(seeds)]
    xi = S.perturbations13(seed, labels, S.radius(Tb, c_rho))
    steps = t2_of(T, max(C2s))
    e1, e2 = S.eta1(Tb, c1), S.eta2(Tb, c2)
    res = S.algorithm1(keys, w, Tb, e1, e2, xi[:, :6], np.full(seeds, steps))
    lvl = math.log(LEVEL)
    out_seeds = []
    for b in range(seeds):
        mp = res.min_logp1[:, b]
        below = np.flatnonzero(mp < lvl)
        k_stay = int(below.max() + 1) if len(below) else 0
        le2 = S.step2_path(n, T, float(e1[b]), float(e2[b]), xi[b, 6:], steps)  # log(1 − p2) along the run
        p1p2 = np.exp(mp) * -np.expm1(le2)
        per_C2 = {}
        for C2 in C2s:
            t2 = t2_of(T, C2)
            per_C2[f"{C2:g}"] = {"t2": t2, "min p1(r*) over sequences and steps ≥ t2": float(np.exp(mp[t2:].min())),
                                 "min argmax accuracy, steps ≥ t2": float(res.acc[t2:, b].min()),
                                 "min p1(r*)·p2(a3) over sequences and steps ≥ t2": float(p1p2[t2:].min())}
        out_seeds.append({"k_stay(0.999)": k_stay if k_stay <= steps else None,
                          "C2 needed = k_stay·T/log(1/T)": (k_stay * T / math.log(1 / T)) if k_stay <= steps else None,
                          "per C2": per_C2, "final min p1(r*)": float(np.exp(mp[-1])),
                          "max log(1 − p2) after Stage 1": float(le2.max()),
                          "v after Stage 1": res.v_tilde[b].tolist(), "v at the end": res.v_final[b].tolist()})
    worst = worst_sequences(keys, res.theta_final, Tb)
    for b, wst in enumerate(worst):
        out_seeds[b]["worst sequence at the end"] = wst
    return {"family": describe_family(name, n, int(config.get("family_seed", 0))), "T": T, "steps": steps,
            "seeds": out_seeds}


def worst_sequences(keys: S.Keys, theta: np.ndarray, T: np.ndarray) -> list[dict]:
    """Per run, the population key with the smallest p1(r*) at θ: its p1, type and relation counts per form."""
    import torch

    kl = S.KeyLoss(keys)
    th = torch.as_tensor(theta, dtype=torch.float64)
    Tt = torch.as_tensor(T, dtype=torch.float64)
    with torch.no_grad():
        _, _, x, lse, ell = kl.per_key(th, Tt)
    out = []
    for b in range(len(T)):
        k = int(torch.argmax(ell[b]))
        out.append({"p1(r*)": float(math.exp(-float(ell[b, k]))), "confusing": bool(keys.confusing[k]),
                    "mismatched": bool(keys.mismatched[k]), "relation counts per logit form": keys.counts[k].tolist(),
                    "sequences with this key": int(keys.mult[k])})
    return out


# --- the constants search (Theorems 3 and 1 across families, n and T) ----------------------------------------

def c2_grid(lo: float, hi: float, ratio: float = math.sqrt(2.0)) -> list[float]:
    """Candidate C2 values lo·ratio^j ≤ hi (the checkpoints t2 = ⌈(C2/T)·log(1/T)⌉ of a run)."""
    out, c = [], float(lo)
    while c <= hi * (1 + 1e-12):
        out.append(c)
        c *= ratio
    return out


def smallest_C2(C2s: list[float], minp: np.ndarray, level: float, stay: int) -> float | None:
    """The smallest candidate C2 from whose checkpoint on every evaluated checkpoint has min p1(r*) ≥ level,
    with at least ``stay`` of them evaluated (the accuracy must hold for every t2 ≥ (C2/T)·log(1/T); a run is
    followed to ``stay − 1`` checkpoints past the first success, a factor ratio^(stay−1) in t2).  None if no
    candidate qualifies within the budget."""
    ok = np.asarray(minp) >= level
    seen = ~np.isnan(np.asarray(minp, float))
    for j in range(len(C2s)):
        tail_ok, tail_seen = ok[j:][seen[j:]], int(seen[j:].sum())
        if tail_seen >= stay and bool(tail_ok.all()):
            return float(C2s[j])
    return None


def constants_point(config: Mapping[str, Any]) -> dict:
    """One point of the constants search: family, n, T = TlogN/log n, every c1 of config["c1s"] × seeds in one
    batch, trained on its own data (``"population"``: the |D| → ∞ limit; an integer: |D| i.i.d. draws from
    P_IC per seed, the same D for every c1) with the lean key loop of ``sample_size.algorithm1_datasets``; at the
    checkpoints t2(C2) of ``c2_grid(C2_lo, C2_hi)`` the minimum over EVERY sequence of the family (the population,
    not D) of p1(r*) is evaluated, and a run stops once it has been ≥ ``level`` at ``stay`` consecutive
    checkpoints.  Also: the same minimum over the run's own D (generalisation gap), the dataset's p_conf and
    p_mis, and Theorem 1's second step along the run (``stage2_dynamics.step2_path`` for ``omega_steps`` steps:
    min over them of p_{2,r*}(a3))."""
    name, n, f = config["family"], int(config["n"]), float(config["TlogN"])
    c1s, c2, c_rho = [float(c) for c in config["c1s"]], float(config["c2"]), float(config["c_rho"])
    seeds, seed, data = int(config["seeds"]), int(config["seed"]), config["data"]
    level, stay = float(config["level"]), int(config["stay"])
    fam_seed = int(config.get("family_seed", 0))
    T = f / math.log(n)
    keys = keys_for(name, n, fam_seed)
    runs = [(c1, s) for c1 in c1s for s in range(seeds)]
    if data == "population" or keys.K == 1:
        idx = np.tile(np.arange(keys.K), (len(runs), 1))
        w = np.tile(keys.mult / keys.mult.sum(), (len(runs), 1))
    else:
        rngs = [S.run_rng(seed, "D", name, n, f, int(data), s) for _, s in runs]
        idx, w = Z.dataset_keys(keys, [int(data)] * len(runs), rngs)
    Tb = np.full(len(runs), T)
    xi = S.perturbations13(seed, [("thm3-constants", name, n, f, str(data), s) for _, s in runs],
                           S.radius(Tb, c_rho))
    first: dict[int, float] = {}
    for C2 in c2_grid(float(config["C2_lo"]), float(config["C2_hi"])):
        first.setdefault(t2_of(T, C2), C2)  # distinct checkpoints, each with its smallest C2
    cps, C2s = sorted(first), [first[k] for k in sorted(first)]
    e1, e2 = S.eta1(Tb, np.array([c for c, _ in runs])), S.eta2(Tb, c2)
    out = Z.algorithm1_datasets(keys, idx, w, Tb, e1, e2, xi[:, :6], cps[-1], checkpoints=cps, stop_level=level,
                                stop_after=stay)
    minp = np.exp(out["checkpoint_min_logp1"])
    mint = np.exp(out["checkpoint_min_logp1_train"])
    conf_w = (w * keys.confusing[idx]).sum(1)
    mis_w = (w * keys.mismatched[idx]).sum(1)
    om_steps = min(int(config.get("omega_steps", 0)), int(out["steps_run"]))
    rows = []
    for b, (c1, s) in enumerate(runs):
        le2 = S.step2_path(n, T, float(e1[b]), float(e2[b]), xi[b, 6:], om_steps)
        p2 = float(-np.expm1(le2.max()))
        C2 = smallest_C2(C2s, minp[:, b], level, stay)
        rows.append({"c1": c1, "seed": s, "C2 needed (grid)": C2,
                     "min p1(r*) over the population at the checkpoints": [None if np.isnan(m) else float(m)
                                                                          for m in minp[:, b]],
                     "min p1(r*) over D at the checkpoints": [None if np.isnan(m) else float(m) for m in mint[:, b]],
                     "final min p1(r*) (population)": float(np.exp(out["min_logp1"][b])),
                     "min p2(a3) over the first Stage-2 steps": p2, "ω steps followed": om_steps,
                     "min p1·p2 at the last checkpoint": float(np.exp(out["min_logp1"][b])) * p2,
                     "D: p_conf, p_mis": [float(conf_w[b]), float(mis_w[b])],
                     "|D| distinct sequences-keys": int((w[b] > 0).sum()),
                     "v after Stage 1": out["v_tilde"][b].tolist(), "v at the end": out["v_final"][b].tolist()})
    return {"family": describe_family(name, n, fam_seed), "T": T, "TlogN": f, "n": n, "C2 candidates": C2s,
            "checkpoints": cps, "steps run": int(out["steps_run"]), "runs": rows}


#: The constants search of Theorems 3 and 1 (claims icrecall.T3-main-full, icrecall.T3-T1-full): Assumption-1
#: families with their data (an integer: |D| i.i.d. draws from P_IC per seed; F-aff is one key, so its data is
#: irrelevant), n, T·log n (one decade), and the fixed constants; C2 is searched on the geometric grid
#: C2_lo·√2^j ≤ C2_hi (per run: the smallest from which min p1(r*) ≥ level holds at ``stay`` consecutive
#: checkpoints, i.e. over a factor 2 of t2).
CONST_FAMILIES = (("F-aff", "population"), ("F-aff-half", 512), ("F-aff-quarter", 512), ("F-greedy", 512))
CONST_N = (5, 7, 11)
CONST_TLOGN = (0.00316, 0.001, 0.000316)
CONST_BASE = {"c1s": (100.0,), "c2": 640.0, "c_rho": 1.0, "seeds": 2, "level": LEVEL, "stay": 3,
              "C2_lo": 1 / 16, "C2_hi": 4.0, "omega_steps": 300}
#: smallest-c1 scan and the c2·C2 invariance check, at n = 7 on the two families with the smallest p_conf
C1_SCAN = {"families": (("F-aff-half", 512), ("F-aff-quarter", 512)), "n": 7, "TlogN": (0.00316, 0.001),
           "c1s": (10.0, 30.0, 100.0, 300.0)}
C2_CHECK = {"family": ("F-aff-quarter", 512), "n": 7, "TlogN": 0.00316, "c2": 160.0, "C2_lo": 1 / 4, "C2_hi": 16.0}


def constants_configs(seed: int) -> dict[str, list[dict]]:
    """The sweep points of the constants search, by role ("grid", "c1 scan", "c2 check")."""
    grid = [{**CONST_BASE, "family": name, "data": data, "n": n, "TlogN": f, "seed": seed}
            for name, data in CONST_FAMILIES for n in CONST_N for f in CONST_TLOGN]
    scan = [{**CONST_BASE, "family": name, "data": data, "n": C1_SCAN["n"], "TlogN": f, "seed": seed,
             "c1s": C1_SCAN["c1s"]} for name, data in C1_SCAN["families"] for f in C1_SCAN["TlogN"]]
    (name, data) = C2_CHECK["family"]
    check = [{**CONST_BASE, "family": name, "data": data, "n": C2_CHECK["n"], "TlogN": C2_CHECK["TlogN"],
              "seed": seed, "c2": C2_CHECK["c2"], "C2_lo": C2_CHECK["C2_lo"], "C2_hi": C2_CHECK["C2_hi"]}]
    return {"grid": grid, "c1 scan": scan, "c2 check": check}
