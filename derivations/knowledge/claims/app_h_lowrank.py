"""App. H, low-rank fine-tuning: the best rank-1 approximation of the FT gradient, Eqs. (287)–(289)
(Eckart–Young–Mirsky), and the wording of the sentence after (289)."""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import theoryverify as tv

CLAIMS = tv.ClaimSet("knowledge")

matrices = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**31 - 1)).map(
    lambda a: np.random.default_rng(a[2]).standard_normal((a[0], a[1])))


def rank1(G: np.ndarray, use_eigenvalue: bool = False) -> np.ndarray:
    U, S, Vt = np.linalg.svd(G)
    sigma = S[0]
    if use_eigenvalue:            # (289)'s wording: "σ_1 is the largest eigenvalue of G"
        if G.shape[0] != G.shape[1]:
            return np.full_like(G, np.nan)
        sigma = float(np.max(np.linalg.eigvals(G).real))
    return sigma * np.outer(U[:, 0], Vt[0])


@CLAIMS.add("h-eym", location="App. H, Eqs. (287)–(289)", kind=tv.Kind.IDENTITY, catalogue_id="KX-H-EYM",
            statement=("the best rank-1 approximation of G in Frobenius norm is σ_1 u_1 v_1ᵀ with σ_1 the largest "
                       "singular value (Eckart–Young–Mirsky): ‖G − G₁‖²_F = Σ_{i≥2} σ_i²"),
            choices={"matrices": "Gaussian, shapes 1..6 × 1..6 (incl. non-square)"}, params={"use_eigenvalue": False})
@CLAIMS.add("h-eym-wording", location="App. H, text after Eq. (289)", kind=tv.Kind.IDENTITY, catalogue_id="KX-H-EYM",
            statement="(289) as worded: σ_1 \"is the largest eigenvalue of G\" (u_1, v_1 its singular vectors)",
            expect=tv.Status.REFUTED, finding=tv.Finding.TYPO,
            reason=("(289) calls σ_1 'the largest eigenvalue' where the largest singular value is meant (the same "
                    "sentence calls u_1, v_1 its left and right singular vectors; Lemma 24 uses singular values): "
                    "taken literally it is undefined for the (dm)×d gradient and wrong wherever the top eigenvalue is "
                    "not σ_1 (e.g. G = [[−0.65]]); changes no conclusion (h-eym holds)"),
            readings=tv.Readings(tested="σ_1 is the largest eigenvalue of G itself (the argument of 'eigenvalue of' is lost)",
                              others={"σ_1 is the largest singular value of G, i.e. the square root of the largest "
                                      "eigenvalue of GᵀG": "holds: knowledge.h-eym"}),
            choices={"reading": "the wording taken literally: σ_1 = max real eigenvalue (non-square G: undefined)"},
            params={"use_eigenvalue": True})
def check_eym(ctx, use_eigenvalue: bool | None = None):
    """‖G − σ_1 u_1 v_1ᵀ‖_F² = Σ_{i≥2} σ_i² and no rank-1 matrix does better (random competitors, and
    from the best competitor a local polish); σ_1 the largest singular value, or with ``use_eigenvalue`` (default
    ``ctx.params["use_eigenvalue"]``) the largest real eigenvalue, as (289) words it."""
    if use_eigenvalue is None:
        use_eigenvalue = bool(ctx.params.get("use_eigenvalue", False))
    def resid(G):
        return float(np.linalg.norm(G - rank1(G, use_eigenvalue)) ** 2)

    def tail(G):
        return float(np.sum(np.linalg.svd(G, compute_uv=False)[1:] ** 2))
    ident = tv.check_agreement(resid, tail, matrices, seed=ctx.seed, rtol=1e-10, n=60,
                            names=("‖G − G₁‖²_F", "Σ_{i≥2} σ_i²"), describe=lambda G: {"G": G.tolist()})

    def beaten(G):
        rng = np.random.default_rng(G.size)
        best = min(np.linalg.norm(G - np.outer(rng.standard_normal(G.shape[0]), rng.standard_normal(G.shape[1]))) ** 2
                   for _ in range(50))
        return resid(G) - best
    res = tv.search(matrices, beaten, fails=lambda v: v > 1e-9, seed=ctx.seed, max_examples=60)
    if res.failure is not None:
        opt = tv.refuted("random rank-1 competitors", "a rank-1 matrix beats σ_1 u_1 v_1ᵀ",
                      {"G": res.failure.tolist(), "excess": res.failure_score})
    else:
        opt = tv.holds(f"{res.tried} matrices × 50 random rank-1 competitors", "none beats σ_1 u_1 v_1ᵀ")
    return tv.combine({"EYM residual identity": ident, "optimality": opt})


