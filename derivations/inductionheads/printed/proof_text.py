"""The surviving text of the paper's statements and proofs, transcribed once (spec §3, "Uniform instructions:
proof consistency").

For every lemma, proposition, definition and theorem one :class:`Record` holds the verbatim quotes (with their
1-based line numbers in ``induction-heads-approx-optim.txt``; ``[…]`` marks lost material) of (a) the statement and
its appendix restatement, (b) the surviving proof sentences in order and every later use, (c) per use, the
comparison with the statement by aspect, (d) the claims that re-derive each step in the reconstruction, (e) the
prose properties and the claims that test them, the in-text cross-references, the discrepancies the surviving
text itself shows, and the pieces whose loss makes a comparison not checkable.  ``TEXT_ITEMS`` records text-level
slips (no verdict).  The assessment (quotes located in the text, cross-references resolved, a verdict per record)
is :mod:`..experiments.consistency`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

PAPER_PREFIX = "inductionheads."
LOST = "[…]"
ASPECTS = ("symbol", "variables", "window", "hypotheses")
STATUSES = ("match", "differs", "lost", "n/a")


# ---------------------------------------------------------------------------------------------------------------
# data types
# ---------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Quote:
    """A verbatim passage of the paper text at a 1-based line; ``[…]`` stands for lost material."""
    line: int
    text: str


@dataclass(frozen=True)
class Step:
    """A surviving proof sentence and the claims (short ids) that re-derive it in our reconstruction."""
    quote: Quote
    claims: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Use:
    """A later use of the result, compared with the statement aspect by aspect (``ASPECTS`` → ``STATUSES``)."""
    where: str
    quote: Quote
    aspects: Mapping[str, str] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class Prose:
    """A property asserted in words, the reading we test, and the claims that test it (empty: untested)."""
    quote: Quote
    reading: str
    claims: tuple[str, ...] = ()


@dataclass(frozen=True)
class CrossRef:
    """An in-text pointer: ``target`` (a heading label such as "Appendix C" or "C.2") must contain one of
    ``keywords`` (case-insensitive), within its first ``within`` lines when given."""
    quote: Quote
    target: str
    keywords: tuple[str, ...]
    within: int | None = None


@dataclass(frozen=True)
class Discrepancy:
    """A disagreement the surviving text itself shows, between a statement and a use (or a proof step)."""
    kind: str
    statement: tuple[Quote, ...]
    use: tuple[Quote, ...]
    explanation: str


@dataclass(frozen=True)
class Record:
    key: str                      # short claim id, e.g. "pc-lemma53"
    result: str                   # "Lemma 5.3"
    catalogue_id: str
    location: str
    statement: tuple[Quote, ...]
    restatement: tuple[Quote, ...] = ()
    rc: tuple[str, ...] = ()
    completion: str = ""
    tested_by: tuple[str, ...] = ()  # claims testing the (completed) statement itself on the reconstruction
    proof_span: tuple[int, int] | None = None  # lines of the whole surviving proof (reported verbatim, in order)
    proof: tuple[Step, ...] = ()  # its key sentences, linked to the claims that re-derive them
    uses: tuple[Use, ...] = ()
    prose: tuple[Prose, ...] = ()
    crossrefs: tuple[CrossRef, ...] = ()
    discrepancies: tuple[Discrepancy, ...] = ()
    missing: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TextItem:
    """A text-level item (spec §5.5 and similar): recorded, no verdict."""
    name: str
    quotes: tuple[Quote, ...]
    note: str
    attached_to: tuple[str, ...] = ()


def Q(line: int, text: str) -> Quote:
    return Quote(line, text)


def A(symbol: str = "n/a", variables: str = "n/a", window: str = "n/a", hypotheses: str = "n/a") -> dict[str, str]:
    return {"symbol": symbol, "variables": variables, "window": window, "hypotheses": hypotheses}


# ---------------------------------------------------------------------------------------------------------------
# records
# ---------------------------------------------------------------------------------------------------------------

T41 = Record(
    key="pc-thm41", result="Theorem 4.1", catalogue_id="IH-T41-rate", location="Thm 4.1 (§4.1), Thm A.1 + proof (App. A.1)",
    tested_by=("t41-rate", "t41-lindep"),
    proof_span=(229, 236),
    statement=(Q(50, "Let […] satisfy Eq. (4). Then exists a constant […] and a two-layer single-head transformer TF "
                     "(without FFNs), with […], […], […], and […], such that"),),
    restatement=(Q(227, "Theorem A.1 (Restatement of Theorem 4.1)."),
                 Q(228, "Let […] satisfy Eq. (13). Then, there exists a constant […] and a two-layer single-head "
                        "transformer TF (without FFNs), with […], […], […], and […], such that")),
    rc=("RC-1", "RC-3", "RC-4"),
    completion="bound and hyperparameters lost; completed by the derived bound |||IH_2 - TF||| <= 4||W*|| B^3 e^{-p} "
               "of the reconstructed construction (t41-rate), RC-4 metric",
    proof=(
        Step(Q(230, "We consider two-layer single-head transformer without FFN, where the first layer has the residual "
                    "block, while the second layer does not have the residual block."), ("t41-rate",)),
        Step(Q(231, "We first embed each token into […] as […] and take […], then the […]-th output token of the first "
                    "layer is"), ("t41-rate", "e3-alibi", "e9-layer1")),
        Step(Q(232, "Then for the second layer, we choose […],"), ("t41-rate",)),
        Step(Q(233, "and the projection […]."), ("t41-rate",)),
        Step(Q(234, "Then the last output token of the second layer is"), ("t41-rate",)),
        Step(Q(235, "By Lemma D.1 […], for any"), ("ld1-lip", "t41-rate")),
    ),
    uses=(
        Use("Introduction", Q(15, "First, we show that two-layer, single-head transformers without FFNs can efficiently "
                                  "approximate the vanilla induction head (Elhage et al., 2021)."), A(hypotheses="match")),
        Use("Remark 4.2", Q(59, "Our analysis identifies components responsible for these two operations, and reveals that "
                                "single-head transformers suffice to perform them efficiently."), A(hypotheses="match")),
        Use("§4.1 after Thm 4.1", Q(51, "It is worth noting that the approximation efficiency is independent of the "
                                        "sequence length."), A(symbol="lost", variables="lost")),
        Use("§4.1 bullet 1", Q(54, "In the first layer, RPE in SA is used to approximate the memory kernel: […]. Thus, "
                                   "SA can capture the preceding token via […] for each token […], which is crucial for "
                                   "future comparison. Notably, DP in this layer is not essential and can be omitted."),
            A(hypotheses="match"), "matches the proof's first layer (Step 2)"),
        Use("§4.1 bullet 2", Q(57, "Notably, RPE in this layer is not essential and can be omitted."), A(hypotheses="match")),
        Use("§4.2 role of multiple heads", Q(69, "In contrast, Theorem 4.1 only requires approximating a single memory "
                                                 "kernel […], which can be efficiently achieved using a single attention head."),
            A(hypotheses="match"), "single head and one memory kernel, as in the statement and bullet 1"),
        Use("§5.1.2 reparameterisation", Q(92, "Specifically, by Theorem 4.1 and its proof, the first layer does not "
                                               "require DP, and the second layer does not require RPE."),
            A(hypotheses="match"), "agrees with bullets 1-2 ('DP in this layer is not essential', 'RPE in this layer is not essential')"),
        Use("§5.1.3 after Lemma 5.3", Q(121, "This property is crucial for transformers to implement induction heads and "
                                             "aligns with our approximation result in Theorem 4.1."), A(hypotheses="match"),
            "'captures the preceding token' = bullet 1 'SA can capture the preceding token'"),
    ),
    prose=(
        Prose(Q(51, "the approximation efficiency is independent of the sequence length"),
              "the sup-error of the construction does not grow with L", ("t41-lindep",)),
        Prose(Q(54, "Notably, DP in this layer is not essential and can be omitted."),
              "the construction with W_K W_Q = 0 in layer 1 reaches the derived bound", ("t41-rate",)),
        Prose(Q(54, "Thus, SA can capture the preceding token via […] for each token […]"),
              "p -> infinity selects distance 1 (RC-1 strictly causal)", ("e3-alibi", "e9-layer1")),
    ),
    crossrefs=(CrossRef(Q(51, "The proof is provided in Appendix A.1"), "A.1", ("Restatement of Theorem 4.1",)),
               CrossRef(Q(235, "By Lemma D.1"), "Appendix D", ("Lemma D.1",))),
    missing=("the bound display of Thm 4.1 / Thm A.1 (rate symbol and its variables)",
             "Eq. (13), so that Thm A.1's hypothesis 'satisfy Eq. (13)' cannot be compared with Thm 4.1's 'satisfy Eq. (4)'",
             "the four hyperparameters after 'with'"),
    notes=("Main text and restatement agree in every surviving word and in the number of lost hyperparameter slots (4).",
           "Main text 'Then exists a constant' lacks 'there' (restatement: 'Then, there exists'): text-level only."),
)

T43 = Record(
    key="pc-thm43", result="Theorem 4.3", catalogue_id="IH-T43-rate", location="Thm 4.3 (§4.2), Thm A.2 + proof (App. A.2)",
    tested_by=("t43-rate",),
    proof_span=(241, 259),
    statement=(Q(67, "Let […] satisfy Eq. (6). Then for any […], there exists a constant […] and a two-layer […]-head "
                     "transformer (without FFNs), with […], such that:"),
               Q(68, "Notably, the approximation error scales as […], where […] can be arbitrarily large.")),
    restatement=(Q(239, "Theorem A.2 (Restatement of Theorem 4.3)."),
                 Q(240, "Let […] satisfy Eq. (14). Then for any […], there exists a constant […] and a two-layer "
                        "[…]-head transformer (without FFNs), with […], such that:")),
    rc=("RC-1", "RC-4", "RC-15", "RC-16"),
    completion="reading |||IH_n - TF||| <= C_{q,n}||W*||/H^q for every q (spec); D = n d (RC-16); kernels by Lemma D.2 "
               "read as RC-15",
    proof=(
        Step(Q(242, "We consider two-layer multi-head transformer without FFN, where the first layer has the residual "
                    "block, while the second layer does not have the residual block."), ("t43-rate",)),
        Step(Q(243, "First, we choose the embedding dimension […], and parameters in the embedding map"), ("t43-rate",),
             "RC-16: D = n d"),
        Step(Q(248, "Step I. The first layer. We use 1-st Attn with residual to copy the previous tokens of each token […]. "
                    "We use […] attention heads to realize this step, and the following projection matrices are needed:"),
             ("t43-rate", "t43-norm", "t43-norm-modified")),
        Step(Q(249, "By lemma D.2, for any rate […], there exist a constant […] and a function"), ("ld2-kernel",)),
        Step(Q(250, "such that […] and"), ("ld2-kernel",)),
        Step(Q(251, "For […], we choose parameters as follows"), ("t43-norm", "t43-norm-modified")),
        Step(Q(252, "where […] is a shift matrix that takes out the first […] elements of a vector and shifts it backward to "
                    "the […]-th to […]-th elements. Then"), ("t43-norm", "t43-norm-modified"),
             "R2's v3 display of this step: the value scale does not cancel the attention normaliser (t43-norm, "
             "a finding on that stand-in for the lost v1 display, RC-22); the periodised-kernel repair holds (t43-norm-modified)"),
        Step(Q(253, "We denote […], then the approximation error of this step is"), ("t43-rate",)),
        Step(Q(254, "We denote the output of this step as"), ()),
        Step(Q(255, "We choose […] large enough so that […]."), ("t43-rate",),
             "a size condition inside the proof; R1 (e): H must be large and n-dependent"),
        Step(Q(256, "Step II. The second layer. For the second Attn, we only need use the first head (by setting […] for "
                    "[…]). Specifically, we choose […],"), ("t43-rate",)),
        Step(Q(258, "Then the output of this layer is"), ("t43-rate",)),
    ),
    uses=(
        Use("§4.2 role of multiple heads", Q(69, "In Theorem 4.3, multiple heads are employed in the first layer to "
                                                 "approximate the […]-gram interaction, represented by the memory kernels […]."),
            A(hypotheses="match"), "matches Step I ('We use […] attention heads to realize this step')"),
        Use("§4.2 role of multiple heads", Q(69, "Intuitively, as […] increases, more memory kernels are required for "
                                                 "accurate approximation, necessitating more attention heads."),
            A(variables="lost", hypotheses="lost"), "the statement's one condition 'with […]' is lost: whether H must grow "
                                                    "with n (R1 e, j) is not visible"),
        Use("Related works", Q(21, "In contrast, we prove that two-layer transformers are sufficient if multihead attention "
                                   "is used."), A(hypotheses="match")),
        Use("§4.2 after Rajaraman et al.", Q(70, "In contrast, our Theorem 4.3 demonstrates that two layers suffice if "
                                                 "multi-head self-attention is adopted."), A(hypotheses="match")),
        Use("App. A.3.3 Step I (Thm 4.4)", Q(298, "This step is essentially the same as Step I in the proof of Theorem 4.3, "
                                                  "so we write down the error of the first Attn layer directly:"),
            A(symbol="lost", variables="lost"), "inherits Step I (see t43-norm)"),
    ),
    prose=(
        Prose(Q(68, "the approximation error scales as […], where […] can be arbitrarily large"),
              "super-polynomial decay in H: local log-log slopes keep steepening", ("t43-rate", "ld2-kernel")),
        Prose(Q(69, "necessitating more attention heads"), "the smallest working H grows with n", ("t43-rate",)),
    ),
    crossrefs=(CrossRef(Q(68, "The proof of this theorem is provided in Appendix A.2."), "A.2", ("Restatement of Theorem 4.3",)),
               CrossRef(Q(249, "By lemma D.2"), "Appendix D", ("Lemma D.2",))),
    missing=("the bound display of Thm 4.3 / Thm A.2 and Eq. (14) (rate symbol, C_{q,n}, the H-dependence)",
             "the condition after 'with' (whether H or D must scale with n, R1 e/j)",
             "the v1 Step-I display (only R2's v3 display survives, refuted by t43-norm)"),
    notes=("'for any […]' (statement) matches 'for any rate […]' (use of Lemma D.2 in Step I) and '[…] can be "
           "arbitrarily large' (prose).",
           "Step re-derivation: Step I as displayed in v3 (R2) is refuted by inductionheads.t43-norm (a reconstruction finding: the v1 display is lost, RC-22); "
           "the repaired Step I (t43-norm-modified) and the whole construction (t43-rate) hold on the reconstruction.",
           "'Step II. 2-st Attn' (line 246): ordinal typo, text-level only."),
)

T44 = Record(
    key="pc-thm44", result="Theorem 4.4", catalogue_id="IH-T44-rate", location="Thm 4.4 (§4.2), Thm A.8 + proof (App. A.3.3)",
    tested_by=("t44-rate",),
    proof_span=(290, 320),
    statement=(Q(75, "Theorem 4.4 (two-layer multi-head TF with FFNs)."),
               Q(76, "This theorem establishes that if the similarity function is well-behaved, two-layer multi-head "
                     "transformers with FFNs can efficiently implement the generalized induction head (7).")),
    restatement=(Q(289, "Theorem A.8 (Restatement of Theorem 4.4)."),),
    rc=("RC-4", "RC-14", "RC-16"),
    completion="final bound lost; derived rate M^{-beta/(1+2beta)} in the total FFN width under RC-14 (t44-rate)",
    proof=(
        Step(Q(291, "We consider two-layer multi-head transformer with FFN, where the first layer has the residual block."),
             ("t44-rate",)),
        Step(Q(292, "First, we set an constant […], and we will optimize it finally."), ("t44-rate",), "r, optimised in Step IV"),
        Step(Q(296, "Recalling Definition A.7, there exists constants […] such that:"), ("t44-rate",)),
        Step(Q(297, "Additionally, […] implies that there exits a […] such that:"), ()),
        Step(Q(298, "Step I: Error in 1-st Attn layer. This step is essentially the same as Step I in the proof of Theorem "
                    "4.3, so we write down the error of the first Attn layer directly:"), ("t43-norm", "t43-norm-modified", "t43-rate")),
        Step(Q(299, "Moreover, due to […], for all […], we have:"), ()),
        Step(Q(300, "Step II: Error in 1-st FFN layer. The […]-st FFN is used to approximate […]."), ("la6-barron",)),
        Step(Q(301, "Then according to lemma A.6, such FFNs exist and satisfy the following properties hold for all […]:"),
             ("la6-barron",)),
        Step(Q(305, "We denote the rank-[…] truncation of […] as"), ("e15-pod",)),
        Step(Q(308, "First, we consider the error under the first norm, […], which can be divided the total error into "
                    "three components:"), ("t44-rate",)),
        Step(Q(314, "This estimate implies that"), ("t44-rate",)),
        Step(Q(316, "Step IV. Optimizing […] in (18)."), ("t44-rate",)),
        Step(Q(318, "By Young’s inequality, with […] and […], we have:"), ("t44-rate",)),
        Step(Q(319, "Thus, we obtain our final bound:"), ("t44-rate",)),
    ),
    uses=(
        Use("Introduction", Q(15, "Our analysis clarifies the distinct roles of multihead attention, positional encoding, "
                                  "dot-product structure, and FFNs in implementing these generalized induction heads."),
            A(hypotheses="match")),
        Use("§4.2 'The role of FFNs'", Q(77, "In contrast to Theorem 4.3, transformer models in Theorem 4.4 include FFNs."),
            A(hypotheses="match")),
        Use("§4.2 'The role of FFNs'", Q(77, "Intuitively, the FFN in the first layer is used to efficiently approximate "
                                             "bases (’s and ’s)."), A(hypotheses="match"), "= Step II"),
        Use("§4.2 'The role of FFNs'", Q(77, "Then, in the second layer, DP in SA can approximately reconstruct […] by using "
                                             "the truncated sum […]."), A(hypotheses="match"), "= Step III"),
    ),
    prose=(
        Prose(Q(76, "two-layer multi-head transformers with FFNs can efficiently implement the generalized induction head (7)"),
              "error decreases with H and with the FFN width at the derived rate", ("t44-rate",)),
        Prose(Q(77, "DP in SA can approximately reconstruct […] by using the truncated sum […]"),
              "rank-r truncation error = singular-value tail (Eckart-Young)", ("e15-pod",)),
    ),
    crossrefs=(
        CrossRef(Q(77, "The complete proof is deferred to Appendix A.3."), "A.3", ("Restatement of Theorem 4.4",)),
        CrossRef(Q(77, "(see Appendix D for details)"), "Appendix D", ("POD", "orthogonal decomposition")),
        CrossRef(Q(296, "Recalling Definition A.7"), "A.3.2", ("Definition A.7",)),
        CrossRef(Q(301, "according to lemma A.6"), "A.3.1", ("Lemma A.6",)),
    ),
    missing=("the statement of Thm 4.4 and of Thm A.8 (entirely lost: hypotheses, rate, constants)", "Eq. (16)",
             "the norm(s) of the bound: the proof treats 'the first norm' only; a second norm never appears"),
    notes=("Step I inherits Step I of Thm 4.3 (R2's display refuted by t43-norm; repaired in t43-norm-modified).",
           "Def. A.7's bounded Barron norms supply Lemma A.6's hypothesis in Step II (words match); A.6's norm is lost, "
           "while Step II needs bounds 'for all […]' (uniform).",
           "The cross-reference '(see Appendix D for details)' for the POD is unresolved: Appendix D ('Useful "
           "Inequalities') has no POD material; the POD is in A.3.2 (line 273)."),
)

PA4 = Record(
    key="pc-prop-a4", result="Proposition A.4", catalogue_id="IH-LA6-barron", location="Prop. A.4, Remark A.5 (App. A.3.1)",
    statement=(Q(266, "Proposition A.4 (E et al. [2019])."), Q(267, "For any […], […] and […].")),
    completion="standard (E, Ma, Wu 2019): the B_p norms coincide for p >= 1",
    proof=(),
    uses=(Use("Remark A.5", Q(269, "From the Proposition above, the Barron spaces are equivalent for any […]. Consequently, "
                                   "in this paper, we use […] and […] to denote the Barron space and Barron norm."),
              A(variables="lost")),
          Use("Def. A.7", Q(286, "The […] norms, Barron norms, and Lipschitz norms of the POD bases are all uniformly "
                                 "bounded: […]."), A(variables="match"), "uses the p-free 'Barron norms' of Remark A.5")),
    missing=("the statement display (which p, which norm identity)", "no proof (cited); no claim re-derives A.4"),
    notes=("No registered claim re-derives Prop. A.4; la6-barron uses the single Barron norm it licenses.",),
)

LA6 = Record(
    key="pc-lemma-a6", result="Lemma A.6", catalogue_id="IH-LA6-barron", location="Lemma A.6 (App. A.3.1)",
    tested_by=("la6-barron",),
    statement=(Q(271, "Lemma A.6 (Ma et al. [2020])."),
               Q(272, "For any […], there exists a two-layer ReLU neural network […] with […] neurons such that"),
               Q(263, "any function in Barron space can be approximated by a two-layer FFN with […] hidden neurons can "
                      "approximate efficiently, at a rate of […].")),
    completion="the standard Barron rate m^{-1/2} (recovered from the cited source, la6-barron)",
    proof=(),
    uses=(Use("A.3.3 Step II (Thm 4.4)", Q(300, "Each function […] is approximated by a […]-layer neural networks with […] "
                                                "neurons defined on […]"), A(variables="lost", hypotheses="match"),
              "hypothesis 'Barron' supplied by Def. A.7 bullet 2; the layer count of the use is lost"),
          Use("A.3.3 Step II (Thm 4.4)", Q(301, "Then according to lemma A.6, such FFNs exist and satisfy the following "
                                                "properties hold for all […]:"), A(symbol="lost", window="lost"),
              "the use needs bounds 'for all […]' (uniform); A.6's norm is lost"),
          Use("A.3.2 before Def. A.7", Q(278, "Given that two-layer FFNs can efficiently approximate Barron functions "
                                              "[Ma et al., 2020]"), A(hypotheses="match"))),
    prose=(Prose(Q(263, "This rate is remarkably independent of the input dimension"), "exponent in m independent of d",
                 ("la6-barron",)),),
    missing=("the bound display (rate symbol and the norm: L2(mu) or sup)",),
    notes=("'… with […] hidden neurons can approximate efficiently …' (line 263) is ungrammatical: text-level only.",),
)

DA7 = Record(
    key="pc-def-a7", result="Definition A.7", catalogue_id="IH-T44-rate", location="Def. A.7 (App. A.3.2)",
    tested_by=("t44-rate", "e15-pod"),
    statement=(Q(279, "Definition A.7 (Well-behaved POD)."),
               Q(280, "Let the POD of […] be […]. We call the function […] has […]-well-behaved POD ([…]) if:"),
               Q(283, "The decay rate of singular values satisfies […];"),
               Q(286, "The […] norms, Barron norms, and Lipschitz norms of the POD bases are all uniformly bounded: […].")),
    rc=("RC-14",),
    completion="sigma_k <~ k^{-(1+beta)} (RC-14; alternative k^{-beta}); all listed norms of phi_k, psi_k <= C",
    uses=(Use("§4.2 after Thm 4.4", Q(76, "if the similarity function is well-behaved"), A(hypotheses="match")),
          Use("A.3.2", Q(278, "we introduce the following technical definition regarding the well-behavior POD, which is "
                              "used for our theoretical analysis."), A(hypotheses="match")),
          Use("A.3.3 proof of Thm 4.4", Q(296, "Recalling Definition A.7, there exists constants […] such that:"),
              A(symbol="lost", variables="lost")),
          Use("A.3.3 Step I", Q(299, "Moreover, due to […], for all […], we have:"), A(hypotheses="lost"),
              "presumably the Lipschitz bound of bullet 2; the symbol is lost")),
    prose=(Prose(Q(283, "The decay rate of singular values satisfies"), "power-law decay of the POD singular values; "
                 "drives the rank choice r in Step IV", ("t44-rate", "e15-pod")),),
    missing=("the decay display (k^{-(1+beta)} or k^{-beta}, RC-14)", "the first norm of bullet 2 and the bound constant"),
    notes=("Each surviving item of bullet 2 has a use in A.3.3: Barron norms -> Lemma A.6 (Step II), Lipschitz norms -> "
           "'due to […], for all […]' (line 299).",),
)

L53 = Record(
    key="pc-lemma53", result="Lemma 5.3", catalogue_id="IH-L53-stageI", location="Lemma 5.3 (§5.1.3), proof App. B",
    tested_by=("l53-stageI",),
    proof_span=(321, 338),
    statement=(Q(119, "Lemma 5.3 (Training Stage I)."), Q(120, "For the Training Stage I, […]."),
               Q(121, "According to (9), this lemma implies that, at the end of Training Stage I, the first layer captures "
                      "the preceding token […] for each token […], i.e., […].")),
    restatement=(Q(324, "And our goal, the proof of Lemma 5.3 can be deduced from which, is to prove:"),),
    rc=("RC-1", "RC-6", "RC-8", "RC-9", "RC-11", "RC-12"),
    completion="lim_{t->inf} p^(1)(t) = +inf (spec reading); Stage II then uses the limit x~_s = x_{s-1} (RC-9)",
    proof=(
        Step(Q(322, "In this subsection we focus on training the first layer of Transformer model to capture the token "
                    "ahead."), ()),
        Step(Q(324, "We initialize […] while the other parameters are all initialized at […]. In this training stage, we "
                    "only train […]."), ("l53-stageI",), "RC-11"),
        Step(Q(325, "In this stage, the […]-th output token of the first layer is represented as"), ("e9-layer1", "e3-alibi")),
        Step(Q(326, "where […], and the target function and output of transformer are as follows"), ("l53-stageI",)),
        Step(Q(328, "Since we only focus on […] and the other parameters remain the initialization value, the loss function "
                    "can be simplified as"), ("l53-stageI", "e11-split")),
        Step(Q(329, "where the second term is a constant depends on […] and […], produced by calculating the error of the "
                    "second head, i.e., loss of induction head, while the first term is […]-gram loss."),
             ("l53-stageI", "e11-split"),
             "re-derived: under RC-8 (head-2 key x~_s) the IH term depends on p1 at O(sigma^3) only (l53-stageI); "
             "exactly constant iff w_K(0) w_Q(0) = 0 (e11-split records it)"),
        Step(Q(331, "Function I. This function is purely defined for the calculation of […]. Denoted by […], we first "
                    "prove […]."), ()),
        Step(Q(332, "Then we take its derivative of"), ()),
        Step(Q(334, "where […]. Since […], […]."), ()),
        Step(Q(335, "Function II. For simplicity, we define […] and its derivative […]:"), ()),
        Step(Q(336, "Function III. The third function is derivative of softmax. By straightfoward calculation, we obtain:"),
             ("e3-alibi",)),
        Step(Q(337, "Through the quantities and their properties above, we obtain the dynamic of"), ("l53-stageI",)),
        Step(Q(338, "which implies:"), ("l53-stageI",), "derived growth p1(t) ~ log(A t) (slope 1 in log t)"),
    ),
    uses=(
        Use("§5.2 after Lemma 5.4", Q(126, "Additionally, Lemma 5.3 ensures that […] holds during Stage II."),
            A(symbol="lost", variables="lost", window="match", hypotheses="match"),
            "window: 'at the end of Training Stage I' -> 'during Stage II' (first layer frozen, line 117); whether a "
            "limit statement is used as attained (RC-9) depends on the lost display"),
        Use("App. C opening", Q(340, "In this training stage, the first layer is already capable of capturing the token "
                                     "ahead i.e. […]."), A(symbol="lost", window="match", hypotheses="match")),
        Use("§5.1.3 Stage I definition", Q(114, "Training Stage I: In this phase, only the parameter in the first layer, "
                                                "i.e., […], is trained."), A(hypotheses="match"),
            "= App. B 'In this training stage, we only train […]'"),
    ),
    prose=(
        Prose(Q(121, "the first layer captures the preceding token […] for each token […]"),
              "p1 -> infinity and the previous-token weight -> 1", ("l53-stageI", "e9-layer1", "e3-alibi")),
        Prose(Q(329, "the second term is a constant depends on […] and […]"),
              "IH term of the Stage-I loss independent of p1", ("l53-stageI", "e11-split")),
    ),
    crossrefs=(CrossRef(Q(121, "The proof of Lemma 5.3 is deferred to Appendix B."), "Appendix B", ("Lemma 5.3",)),),
    missing=("the statement display of Lemma 5.3 (limit or finite-time form), needed to check the window of the "
             "Stage-II use 'holds during Stage II'", "the closing display after 'which implies:' (line 338)"),
    notes=("Stage-II uses treat x~_s = x_{s-1} as exact; a limit lim p1 = inf gives it only asymptotically "
           "(e9-layer1: |x~_s - x_{s-1}| <= 2 e^{-p1} max|x|).",),
)

L54 = Record(
    key="pc-lemma54", result="Lemma 5.4", catalogue_id="IH-L54-balance", location="Lemma 5.4 (§5.2), Lemma C.1 + proof (App. C)",
    tested_by=("l54-balance",),
    proof_span=(344, 347),
    statement=(Q(124, "Lemma 5.4 (Parameter balance)."), Q(125, "In Training Stage II, it holds that […].")),
    restatement=(Q(342, "Lemma C.1 (Restate of Lemma 5.4)."), Q(343, "In Training Stage II, it holds that […].")),
    rc=("RC-8", "RC-11"),
    completion="w_K^2 - w_Q^2 conserved (derived, l54-balance); with RC-11 w_K(0) = w_Q(0): w_K = w_Q, w_KQ := w_K w_Q",
    proof=(Step(Q(341, "We start from proving the parameter balance lemma:"), ()),
           Step(Q(345, "Notice that"), ("l54-balance",)),
           Step(Q(346, "Thus, we have:"), ("l54-balance",))),
    uses=(
        Use("§5.2", Q(126, "By this lemma, we can define […]."), A(symbol="lost", variables="lost", window="match",
                                                                     hypotheses="match"),
            "defining one DP parameter needs balanced initial values: App. B 'the other parameters are all initialized "
            "at […]' (line 324) supplies them"),
        Use("§5.2", Q(126, "Consequently, the training dynamics are reduced for four parameters"),
            A(variables="match"), "5 second-layer parameters (line 99) minus 1 merged by the balance = 4 (checked)"),
        Use("App. C", Q(349, "and notations for initialization […]."), A(variables="lost")),
    ),
    prose=(Prose(Q(126, "Lemma 5.4 is similar to the balance result for homogeneous networks (Du et al., 2018)"),
                 "a conserved difference of squares, as for homogeneous layers", ("l54-balance",)),),
    crossrefs=(CrossRef(Q(126, "its proof can be found at the start of Appendix C"), "Appendix C",
                        ("parameter balance lemma",), within=4),),
    missing=("the identity of Lemma 5.4 / C.1 and the definition after 'we can define'",),
    notes=("Statement and restatement agree word for word.",
           "Parameter counts agree: 1 first-layer + 5 second-layer = 6; 5 - 1 (balance) = 4 reduced parameters."),
)

T55 = Record(
    key="pc-thm55", result="Theorem 5.5", catalogue_id="IH-T55-plateau", location="Thm 5.5 (§5.2) and its main-text uses",
    tested_by=("t55-phaseI", "t55-plateau", "t55-width", "t55-expgrowth", "t55-conv-g4", "t55-conv-IH", "f2-repro"),
    proof_span=(494, 507),
    statement=(
        Q(132, "Theorem 5.5 (Learning transition and […]-phase dynamics)."),
        Q(133, "Let […] and […], and we consider the regime of small initialization ([…]) and long input sequences ([…]). "
               "Then we have the following results:"),
        Q(136, "Phase I (partial learning). In this phase, most of the […]-gram component in the mixed target is learned, "
               "while a considerable number of induction head component have not yet been learned. Specifically, let […], "
               "then we have the following estimates:"),
        Q(139, "Phase II (plateau) + Phase III (emergence). In these two phases, the learning of the induction head first "
               "gets stuck in a plateau for […] time, then is learned suddenly. Specifically, denoted by an observation "
               "time […], we have the following tight estimate of the duration:"),
        Q(140, "During these phases, the parameter […] (for learning […] in […]) increases exponentially:"),
        Q(143, "Phase IV (convergence). In this phase, the loss convergences. Specifically, the following convergence rates "
               "hold for all"),
        Q(144, "and […]."),
    ),
    rc=("RC-5", "RC-8", "RC-9", "RC-11", "RC-12", "RC-13", "RC-17", "RC-19"),
    completion="phases read off the reduced Stage-II flow with the §4.3 markers; derived T_G4 = (1/a) log min(1/s, L), "
               "T_IH(0.5) = c_s log(1/s) + O(N), c_s = N(1-w^2)^2/((1-a)^2 w); k grows at rate "
               "2(1-a)^2 w/(N(1-w^2)^2); L_G4 ~ 1/(4t), L_IH exponential",
    proof=(Step(Q(131, "The next theorem provides a precise characterization of the four phases, whose proof can be found in "
                       "Appendix C."), ()),
           Step(Q(495, "This theorem is a direct corollary of our analysis of the entire training dynamics in Appendix C.1 "
                       "and C.2, leveraging the relationship between the parameters and the loss."),
                ("t55-phaseI", "t55-plateau", "t55-conv-g4", "t55-conv-IH"), "see pc-thm55-c1/-c2/-c3")),
    uses=(
        Use("Abstract", Q(3, "uncover an abrupt transition from lazy (4-gram) to rich (induction head) mechanisms as "
                             "training progresses"), A(window="match")),
        Use("App. C regime", Q(355, "For the initialization scale and the sequence length, we consider the case:"),
            A(hypotheses="lost"), "one relation between sigma_init and L; the statement shows two separate regime "
                                  "conditions ('small initialization ([…])', 'long input sequences ([…])')"),
        Use("Remark 5.1", Q(87, "though our analysis extends straightforwardly to the 2- or 3-gram scenarios"),
            A(hypotheses="lost"), "tested on the reconstruction by r51-23gram"),
        Use("§5.2 transition", Q(146, "During this phase, the […]-gram component has been learned well but the induction "
                                      "head component remains underdeveloped, demonstrating a distinct learning transition."),
            A(window="match"), "Phase II: the Phase-I outcome persists"),
        Use("Conclusion", Q(155, "On the optimization side, we analyze a toy setting, where we clearly characterize how "
                                 "learning transitions from […]-grams to induction heads."), A(window="match")),
        Use("Introduction", Q(18, "Specifically, we show that learning progresses through four phases: partial learning of "
                                  "the 4-gram, plateau of induction head learning, emergence of the induction head, and "
                                  "final convergence"), A(window="match")),
        Use("§5.2 after Thm 5.5", Q(145, "By this theorem, the […]-gram mechanism is first learned, taking time […]."),
            A(symbol="lost", window="match"), "'first learned' vs the statement's 'most of the […]-gram component … is "
                                              "learned' (Phase I): wording stronger, window the same"),
        Use("§5.2 after Thm 5.5", Q(145, "Then, the learning of the induction head mechanism enters a plateau, taking time "
                                         "[…], followed by a sudden emergence of learning, taking time […]."),
            A(symbol="lost", window="lost"), "two separate durations; the statement gives one 'tight estimate of the "
                                             "duration' of Phases II+III (C.3: 'two-sided bounds for both […] and […]')"),
        Use("§5.2 after Thm 5.5", Q(145, "Finally, the loss for both components converges to zero."),
            A(symbol="match", window="match"), "= Phase IV"),
        Use("§5.2 transition", Q(146, "When any one of […] is sufficiently large, Phase II lasts for […]."),
            A(symbol="lost", window="lost", hypotheses="lost"), "attributes the Phases II+III estimate to Phase II alone; "
                                                                "consistent to leading order iff the emergence is "
                                                                "short (t55-width: W/T_IH(0.5) -> 0)"),
        Use("§5.2 driver 1", Q(149, "This time-scale separation accounts for the […] term in the plateau time […]."),
            A(symbol="lost", variables="lost")),
        Use("§5.2 driver 2", Q(152, "This proportion disparity accounts for the […] term in the plateau time […]."),
            A(symbol="lost", variables="lost")),
        Use("§5.2 proof idea", Q(153, "1) the dynamics of two heads can be decoupled; 2) there exist a distinct transition "
                                      "point in the dynamics of each head"), A(hypotheses="match"),
            "= App. C 'the dynamics of […] and […] are decoupled' (line 353); T1 (C.1) and the turning point (C.2)"),
        Use("§5.2 proof idea", Q(153, "These insights lead us to divide the analysis of each head into two phases: a "
                                      "monotonic phase and a convergence phase."), A(window="match"),
            "= C.1 'a monotonic phase […], and a stable convergence phase […]' (line 363)"),
    ),
    prose=(
        Prose(Q(136, "most of the […]-gram component in the mixed target is learned, while a considerable number of "
                     "induction head component have not yet been learned"),
              "L_G4(T_I) <= 0.1 L_G4(0) while L_IH(T_I) stays a sizeable fraction of L_IH(0)", ("t55-phaseI", "f2-repro")),
        Prose(Q(139, "first gets stuck in a plateau for […] time, then is learned suddenly"),
              "plateau T_IH(0.5) ~ c_s log(1/s); emergence width W/T_IH(0.5) -> 0", ("t55-plateau", "t55-width")),
        Prose(Q(139, "we have the following tight estimate of the duration"), "upper and lower bounds with one scaling",
              ("t55-plateau", "c2-turn")),
        Prose(Q(140, "increases exponentially"), "log k linear in t during the plateau at the derived rate",
              ("t55-expgrowth",)),
        Prose(Q(143, "the loss convergences"), "L_G4 power law 1/(4t); L_IH exponential", ("t55-conv-g4", "t55-conv-IH")),
        Prose(Q(149, "a clear time-scale separation emerges"), "|dk/dt| / |dp/dt| -> 0 with s", ("t55-timescale",)),
        Prose(Q(152, "is significantly smaller than"), "IH proportion ~ 1/L against alpha*^2", ("e8-proportion",)),
        Prose(Q(87, "our analysis extends straightforwardly to the 2- or 3-gram scenarios"),
              "x_L / x_{L-1} targets: same phase picture, learned before the IH", ("r51-23gram",)),
        Prose(Q(146, "demonstrating a distinct learning transition"), "four phases; distinct transition points per head",
              ("f2-repro",)),
        Prose(Q(127, "In this stage, GF has a unique fixed point: […], which corresponds to a global minimizer of the "
                     "objective (11)."), "unique stationary point (head 1 only as p -> inf)", ("s52-fixedpoint",)),
    ),
    crossrefs=(CrossRef(Q(131, "whose proof can be found in Appendix C"), "Appendix C", ("Proof of Theorem 5.5",)),),
    missing=("the two hypotheses after 'Let' (RC-13) and the regime displays",
             "every estimate display: Phase I estimates, the duration estimate and the observation time, the growth "
             "law of w_KQ, the convergence rates and the time after 'hold for all'",
             "whether the Phases II+III display holds one duration or separate plateau/emergence durations"),
    notes=("All word-level comparisons agree (phase names, order, 'exponentially', 'tight', decoupling, two phases per head).",
           "'Phase II lasts for […]' (line 146) and the plateau-time uses (149, 152) attribute the combined Phases II+III "
           "estimate to the plateau; consistent on the reconstruction to leading order (t55-width).",
           "Text-level: 'the loss convergences' (line 143), 'without loss of ambiguity' (line 127).",
           "§5.2's 'unique fixed point' (line 127): on the reconstruction head 2's is finite, (k, v2) = (w*, 1-alpha*), "
           "head 1's only a limit (p -> inf, v1 -> alpha*) (s52-fixedpoint) — consistent with C.1's windows ending "
           "'finally to […]' only in the extended sense."),
)

C1 = Record(
    key="pc-thm55-c1", result="Theorem 5.5, App. C.1 (head 1)", catalogue_id="IH-C1-T1",
    location="App. C.1, Eqs. (19)-(21)",
    tested_by=("cf-g4", "c1-t1", "c1-lyap", "t55-conv-g4"),
    proof_span=(356, 406),
    statement=(Q(358, "Then, a straightforward calculation, combined with Lemma D.3 and Lemma D.4, yields the explicit "
                      "formulation of […] and the GF dynamics of […] and […]:"),
               Q(361, "Notice that at the initialization, it holds that […] and […]. Then we first define a hitting time:"),
               Q(363, "Our subsequent proof can be divided into two phases: a monotonic phase […], and a stable convergence "
                      "phase […].")),
    rc=("RC-1", "RC-5", "RC-7", "RC-9", "RC-10", "RC-11", "RC-19"),
    completion="T1 := first time dL_G4/dv1 = 0 (c1-t1 reading); closed form (19) derived (cf-g4)",
    proof=(
        Step(Q(357, "First, we define two useful auxiliary functions:"), ("cf-g4",)),
        Step(Q(358, "a straightforward calculation, combined with Lemma D.3 and Lemma D.4, yields the explicit "
                    "formulation"), ("cf-g4", "ld3-ld4-gauss")),
        Step(Q(362, "Noticing […] and the continuity, […]."), ("c1-t1",), "T1 < inf"),
        Step(Q(365, "It is easy to see that […] are monotonically increasing for […]."), ("c1-t1",)),
        Step(Q(372, "from which we infer that p barely increases when […]."), ("c1-t1",)),
        Step(Q(380, "Hence, putting the two part of time together we have"), ("c1-t1",), "Eq. (20)"),
        Step(Q(383, "We will prove that, in this phase, […] keep in a stable region, and the convergence occurs."),
             ("c1-lyap", "cf-g4-decomp")),
        Step(Q(386, "which means […] has entered a stable region (although it is possible that […] is non-monotonic), "
                    "while […] keeps increase."), ("c1-lyap", "cf-g4-decomp", "c1-t1")),
        Step(Q(390, "For simplicity, we consider the transform:"), ("cf-g4-decomp",)),
        Step(Q(392, "Notice that this dynamics are controlled by high-order terms. Consequently, we construct a variable to "
                    "reflect the dynamics of high-order term:"), ("cf-g4-decomp", "c1-lyap")),
        Step(Q(394, "Now we consider the Lyapunov function about […]:"), ("c1-lyap",)),
        Step(Q(404, "which implies:"), ("t55-conv-g4",), "Eq. (21)"),
    ),
    uses=(
        Use("C.3", Q(495, "This theorem is a direct corollary of our analysis of the entire training dynamics in Appendix "
                          "C.1 and C.2"), A(window="match")),
        Use("C.3 Phase I", Q(497, "Thus, there exists a sufficiently large […], such that:"), A(symbol="lost", window="lost"),
            "the Phase-I estimate presumably from (20); its display is lost"),
        Use("C.3 Phase IV", Q(507, "Proof of Phase IV (convergence)."), A(symbol="lost", window="lost"),
            "no sentence of this proof survives; (21) is not cited by number"),
        Use("C.1 summary", Q(406, "Notably, these proofs capture the entire training dynamics of […], from […] to […], and "
                                  "finally to […], providing a fine-gained analysis for each phase."), A(window="match"),
            "two windows [0, T1], [T1, inf) = the two phases of line 363"),
    ),
    prose=(
        Prose(Q(365, "are monotonically increasing"), "p and v1 non-decreasing on [0, T1]", ("c1-t1",)),
        Prose(Q(372, "p barely increases when"), "an early window with little change in p", ("c1-t1",)),
        Prose(Q(386, "(although it is possible that […] is non-monotonic), while […] keeps increase"),
              "after T1: p non-decreasing, v1 possibly non-monotone; stable region forward-invariant",
              ("c1-t1", "c1-lyap", "cf-g4-decomp")),
        Prose(Q(392, "this dynamics are controlled by high-order terms"), "q = e^{-p} high-order variable; power-law "
              "(not exponential) convergence", ("cf-g4-decomp", "t55-conv-g4")),
    ),
    crossrefs=(CrossRef(Q(358, "combined with Lemma D.3 and Lemma D.4"), "Appendix D", ("Lemma D.4",)),),
    missing=("the hitting-time condition of T1 and the phase windows", "Eqs. (19), (20), (21) and the Lyapunov function",
             "the C.3 proof of Phase IV (no sentence survives)"),
    notes=("Two phases announced (line 363) = Part I (line 364) + Part II (line 382) = summary windows (line 406).",
           "C.1 never calls its rate exponential; C.2 does ('exponential bound', line 490) and contrasts the two (line 486): "
           "consistent with the derived power law for L_G4 (t55-conv-g4) and exponential L_IH (t55-conv-IH).",
           "On the reconstruction (19) needs only E[x_i x_j] = delta_ij and geometric sums (cf-g4); the exponential-moment readings of D.3/D.4 (ld3-ld4-gauss) serve only (22). C.1 citing D.3 and D.4 for (19) suggests the lost lemmas, or the paper's head-1 loss, differ from that reading (not checkable)."),
)

C2 = Record(
    key="pc-thm55-c2", result="Theorem 5.5, App. C.2 (head 2)", catalogue_id="IH-C2-turn",
    location="App. C.2, Eqs. (22)-(30)",
    tested_by=("cf-ih", "c2-lin", "c2-P1", "c2-turn", "c2-lyap", "t55-conv-IH"),
    proof_span=(407, 493),
    statement=(
        Q(409, "Thus, we adopt the simplification used in Bai et al. [2023], resulting in the following approximation of "
               "the loss function:"),
        Q(419, "(P1.1) […] initially increases beyond […], and then remains above this value."),
        Q(422, "(P1.2) […] keeps increasing but always stays below […]."),
        Q(425, "(P1.3) […] increases before […], but decreases after […]."),
        Q(453, "from which we deduce that (C.2) is a tight estimation of […] instead of an upper bound"),
        Q(490, "Consequently, we have the exponential bound for all […]:"),
    ),
    rc=("RC-8", "RC-9", "RC-11", "RC-12", "RC-13", "RC-19"),
    completion="RC-12 loss (22) derived (cf-ih); T_turn = first zero of dv2/dt (nullcline reading, c2-P1/c2-turn)",
    proof=(
        Step(Q(409, "In Bai et al. [2023], the authors consider a simplified transformer model, which replaces the softmax "
                    "with […]. This approximation is nearly tight when […]."), ("c2-lin",)),
        Step(Q(410, "Then by a straightforward calculation with Lemma D.3, we can derive its explicit formulation:"),
             ("cf-ih", "ld3-ld4-gauss")),
        Step(Q(426, "(P1.1) […] initially increases beyond […], and then remains above this value."), ("c2-P1",)),
        Step(Q(433, "Hence, […], which means that […] always remains above […] for […]."), ("c2-P1",)),
        Step(Q(434, "(P1.2) […] keeps increasing but always below […]."), ("c2-P1",)),
        Step(Q(438, "which leads to a contradiction. Hence […] does not exist and […] keeps increasing."), ("c2-P1",)),
        Step(Q(439, "(P1.3) After the tuning point […], […] will be monotonically decreasing."), ("c2-P1",)),
        Step(Q(440, "The first sign-changing zero point of […] is […], then […]."), ("c2-P1", "c2-turn"), "Eq. (23)"),
        Step(Q(447, "At the first stage, we prove that […] grows first and […] barely increases."), ("t55-expgrowth",),
             "not in tension with Thm 5.5's 'increases exponentially' in Phases II+III: slow exponential growth from "
             "sigma^2 first looks flat (t55-expgrowth checks the order of events)"),
        Step(Q(453, "from which we deduce that (C.2) is a tight estimation of […] instead of an upper bound"), ("c2-turn",)),
        Step(Q(461, "For the second stage, […] barely changes and […] starts to grow exponentially fast"),
             ("t55-expgrowth",)),
        Step(Q(475, "From the above inequality, (C.2) is not only an upper bound, but a tight estimation of […]"),
             ("c2-turn",)),
        Step(Q(483, "Then by Monotone convergence theorem, we obtain:"), ("s52-fixedpoint",)),
        Step(Q(486, "We only need to consider the simplest Lyapunov function:"), ("c2-lyap",)),
        Step(Q(490, "Consequently, we have the exponential bound for all […]:"), ("t55-conv-IH", "c2-lyap"), "Eq. (30)"),
    ),
    uses=(
        Use("C.2 Part I list vs proof heading", Q(426, "(P1.1) […] initially increases beyond […], and then remains above "
                                                       "this value."), A(window="match", hypotheses="match"),
            "word for word the list item (line 419)"),
        Use("C.2 Part I list vs proof heading", Q(434, "(P1.2) […] keeps increasing but always below […]."),
            A(window="match"), "list item (line 422) minus 'stays'"),
        Use("C.2 Part I list vs proof heading", Q(439, "(P1.3) After the tuning point […], […] will be monotonically "
                                                       "decreasing."), A(window="match"),
            "the heading keeps only the 'after' half; 'increases before' follows from T_turn = first sign change"),
        Use("C.3 Phase I", Q(498, "Recalling our proof in Appendix C.2, for […], it holds that […]."),
            A(symbol="lost", window="lost")),
        Use("C.3 Phases II+III", Q(501, "The exponential growth of […] further implies:"), A(symbol="match"),
            "= 'starts to grow exponentially fast' (line 461)"),
        Use("C.3 Phases II+III", Q(502, "Regarding the dynamics of […], by (26), we have […]."), A(symbol="lost")),
        Use("C.3 Phases II+III", Q(506, "we obtain the two-sided bounds for both […] and […]:"), A(symbol="match"),
            "two-sided = the 'tight estimation' of lines 453, 475"),
        Use("Thm 5.5 Phase IV", Q(143, "the following convergence rates hold for all"), A(symbol="lost", window="lost"),
            "(30): 'exponential bound for all […]'"),
    ),
    prose=(
        Prose(Q(409, "This approximation is nearly tight when […]."), "exact/RC-12 loss ratio near 1 near small init and "
              "for most sequences", ("c2-lin",)),
        Prose(Q(409, "In fact, our analysis shows that […] is maintained over a long period."),
              "the small-k condition persists through the plateau", ("c2-lin",)),
        Prose(Q(419, "initially increases beyond […], and then remains above this value"), "P1.1", ("c2-P1",)),
        Prose(Q(422, "keeps increasing but always stays below"), "P1.2", ("c2-P1",)),
        Prose(Q(425, "increases before […], but decreases after"), "P1.3: one turning point", ("c2-P1",)),
        Prose(Q(447, "grows first and […] barely increases"), "v2 grows first while k barely changes", ("t55-expgrowth",)),
        Prose(Q(461, "barely changes and […] starts to grow exponentially fast"), "then v2 flat, k exponential",
              ("t55-expgrowth",)),
        Prose(Q(475, "is not only an upper bound, but a tight estimation"), "upper and lower bounds of T_turn scale alike",
              ("c2-turn",)),
        Prose(Q(469, "is a monotonically increasing convex function on"), "object lost; untested", ()),
        Prose(Q(460, "By some computation, we can prove that […] is an increasing function of […], and is always above "
                     "[…]."), "objects lost; untested", ()),
        Prose(Q(409, "which implies that […] for most input sequence"), "fraction of sequences whose softmax "
              "denominator deviates from N by > 10%", ("c2-lin",)),
        Prose(Q(482, "It is easy to verify the monotonicity that […] and […] for […]."),
              "after T_turn k rises to w* and v2 falls to 1-alpha* monotonically", ("c2-lyap", "c2-P1")),
        Prose(Q(486, "the dynamics of […] can be approximately characterized by their linearized dynamics"),
              "linearisation at (sqrt w*, 1-alpha*) governs the tail", ("c2-lyap", "t55-conv-IH")),
    ),
    crossrefs=(CrossRef(Q(410, "with Lemma D.3"), "Appendix D", ("Lemma D.3",)),),
    missing=("the thresholds of P1.1-P1.2 and the T_turn condition (23)", "Eqs. (22), (24)-(30) and the Lyapunov function",
             "the equation '(C.2)' that lines 453 and 475 call a tight estimation (no display carries that label)"),
    notes=("'(C.2)' is used as an equation reference (lines 453, 475) but is the subsection's own label: the estimate it "
           "denotes cannot be identified.",
           "Two headings 'Part II.' (lines 446, 476); 'tuning' for 'turning' (lines 415, 439): text-level only.",
           "The simplification is justified near small initialisation and 'over a long period'; Part II after T_turn "
           "(k -> w* = O(1)) is analysed on the same simplified loss (c2-lin measures where it breaks down)."),
)

C3 = Record(
    key="pc-thm55-c3", result="Theorem 5.5, App. C.3 (proof)", catalogue_id="IH-T55-plateau",
    location="App. C.3, proof of Thm 5.5",
    tested_by=("t55-phaseI", "t55-plateau", "t55-plateau-exact-full", "c2-lin"),
    proof_span=(494, 507),
    statement=(Q(108, "Gradient flow (GF). We analyze the GF for minimizing the objective (11):"),
               Q(133, "Let […] and […], and we consider the regime of small initialization ([…]) and long input sequences "
                      "([…]). Then we have the following results:")),
    rc=("RC-12", "RC-13", "RC-17"),
    completion="as pc-thm55; the phase checks are run on the RC-12 loss and, as control, on the exact softmax "
               "(t55-plateau-exact-full)",
    proof=(
        Step(Q(495, "This theorem is a direct corollary of our analysis of the entire training dynamics in Appendix C.1 "
                    "and C.2, leveraging the relationship between the parameters and the loss."), ()),
        Step(Q(496, "Proof of Phase I (partial learning)."), ("t55-phaseI",)),
        Step(Q(497, "Thus, there exists a sufficiently large […], such that:"), ("t55-phaseI", "c1-t1")),
        Step(Q(498, "Recalling our proof in Appendix C.2, for […], it holds that […]. Additionally, since […], it follows "
                    "that"), ("t55-phaseI",)),
        Step(Q(499, "Proof of Phase II (plateau) + Phase III (emergence)."), ("t55-plateau",)),
        Step(Q(500, "Now we define the observation time […]. Notably,"), ("t55-plateau",)),
        Step(Q(501, "The exponential growth of […] further implies:"), ("t55-expgrowth",)),
        Step(Q(502, "Regarding the dynamics of […], by (26), we have […]."), ("c2-turn",)),
        Step(Q(503, "Now we incorporate these facts ( […], […], […], […]) into the loss (22). By the Lipschitz continuity "
                    "of […], it is straightforward that"), ("t55-plateau", "c2-lin")),
        Step(Q(504, "Thus, we have established the lower bound for […]:"), ("t55-plateau",)),
        Step(Q(505, "This implies the upper bound for […]:"), ("t55-plateau",)),
        Step(Q(506, "Combining the fact […], the lower bound for […], and the uppper bound for […], we obtain the two-sided "
                    "bounds for both […] and […]:"), ("t55-plateau", "t55-width")),
        Step(Q(507, "Proof of Phase IV (convergence)."), ("t55-conv-g4", "t55-conv-IH"), "no sentence survives"),
    ),
    uses=(
        Use("Thm 5.5 Phases II+III", Q(139, "denoted by an observation time […]"), A(variables="match"),
            "= C.3 'Now we define the observation time […]'"),
        Use("Thm 5.5 Phases II+III", Q(139, "we have the following tight estimate of the duration:"), A(symbol="match"),
            "= C.3 'two-sided bounds'"),
        Use("Thm 5.5 Phases II+III", Q(140, "increases exponentially"), A(symbol="match"),
            "= C.3 'The exponential growth of […]'"),
        Use("C.3 Phases II+III", Q(503, "Now we incorporate these facts ( […], […], […], […]) into the loss (22)."),
            A(hypotheses="differs"), "the proof bounds the approximated loss (22); the statement has no such hypothesis"),
    ),
    crossrefs=(CrossRef(Q(498, "Recalling our proof in Appendix C.2"), "C.2", ("induction head",), within=1),
               CrossRef(Q(502, "by (26)"), "C.2", ("(26)",)),
               CrossRef(Q(503, "into the loss (22)"), "C.2", ("(22)",))),
    discrepancies=(Discrepancy(
        kind="hypotheses",
        statement=(Q(108, "We analyze the GF for minimizing the objective (11):"),
                   Q(133, "Let […] and […], and we consider the regime of small initialization ([…]) and long input "
                          "sequences ([…]). Then we have the following results:")),
        use=(Q(409, "Thus, we adopt the simplification used in Bai et al. [2023], resulting in the following approximation "
                    "of the loss function:"),
             Q(412, "Furthermore, we can calculate GF dynamics as follows:"),
             Q(503, "Now we incorporate these facts ( […], […], […], […]) into the loss (22).")),
        explanation="Thm 5.5 is stated for GF (12) on the objective (11) under the small-initialisation / long-sequence "
                    "regime only; its Phase II-III proof (C.3) inserts the parameter facts into the loss (22), which C.2 "
                    "derives from the Bai et al. softmax simplification ('approximation of the loss function'), and the "
                    "head-2 GF analysed in C.2 is the GF of that approximation.  No surviving sentence bounds the "
                    "approximation error along the trajectory or transfers the estimates back to (11); the surviving "
                    "statement does not carry the simplification as a hypothesis (its two lost hypotheses after 'Let' "
                    "are read as ranges of alpha*, w*, RC-13; the main text never mentions the softmax simplification)."),),
    missing=("the Phase IV proof (no sentence survives)", "every display of C.3"),
    notes=("On the reconstruction the gap matters quantitatively but not qualitatively: exact-softmax GD keeps "
           "T_IH(0.5) linear in log(1/sigma) (t55-plateau-exact-full, slow) while c2-lin reports where RC-12 breaks down.",
           "Text-level: 'uppper' (line 506)."),
)

LD1 = Record(
    key="pc-lemma-d1", result="Lemma D.1", catalogue_id="IH-LD1-lip", location="Lemma D.1 (App. D); used in App. A.1",
    tested_by=("ld1-lip",),
    statement=(Q(509, "Lemma D.1 (Corollary A.7 in Edelman et al. [2022])."), Q(510, "For any […], we have")),
    completion="recovered from the cited source: ||softmax(x) - softmax(y)||_1 <= 2 ||x - y||_inf (ld1-lip; sharp constant 1)",
    uses=(Use("A.1 proof of Thm 4.1", Q(235, "By Lemma D.1 […], for any"), A(symbol="lost", variables="lost")),),
    prose=(),
    missing=("the inequality display (norms and constant)",),
    notes=("No proof (cited). ld1-lip: the cited constant 2 holds; the sharp constant is 1.",),
)

LD2 = Record(
    key="pc-lemma-d2", result="Lemma D.2", catalogue_id="IH-LD2-kernel", location="Lemma D.2 (App. D); used in App. A.2",
    tested_by=("ld2-kernel",),
    statement=(Q(511, "Lemma D.2 (lemma E.1 in Wang and E [2024])."),
               Q(512, "For any […], […], there exists and absolute constant […] only depending on […] and a […] such that"),
               Q(513, "where […] holds for any […].")),
    rc=("RC-15",),
    completion="RC-15: for all T, q there are C(T, q) and phi_m = sum_k alpha_k e^{-beta_k (t-1)}, 0 < beta_k <= b_max, "
               "with ||delta_T - phi_m||_{l1(N)} <= C m^{-q}",
    uses=(Use("A.2 Step I", Q(249, "By lemma D.2, for any rate […], there exist a constant […] and a function"),
              A(symbol="lost", variables="match"), "'for any rate' = the statement's universally quantified rate; "
                                                   "constant + function = 'an absolute constant … and a […]'"),
          Use("A.2 Step I", Q(250, "such that […] and"), A(symbol="lost", hypotheses="lost"),
              "two conclusions; the statement has one plus a side condition 'where […] holds for any […]'")),
    prose=(Prose(Q(68, "where […] can be arbitrarily large"), "every q: the l1 error falls faster than any power",
                 ("ld2-kernel",)),),
    missing=("the approximation display and the side condition", "the source lemma (Wang & E 2024, Lemma E.1, not "
                                                                  "retrieved, R7)"),
    notes=("'exists and absolute constant only depending on […]': an 'absolute' constant that depends on something; "
           "text-level.",),
)

LD3 = Record(
    key="pc-lemma-d3", result="Lemma D.3", catalogue_id="IH-LD3/LD4-gauss", location="Lemma D.3 (App. D); used in C.1, C.2",
    tested_by=("ld3-ld4-gauss",),
    proof_span=(516, 517),
    statement=(Q(514, "Lemma D.3."), Q(515, "[…], […].")),
    completion="reading (ld3-ld4-gauss): E e^{bx} = e^{b^2/2}; E e^{a x^2/2} = (1-a)^{-1/2}, a < 1",
    proof=(Step(Q(516, "Proof of Lemma D.3."), ("ld3-ld4-gauss",), "body lost"),),
    uses=(Use("C.1 (19)", Q(358, "combined with Lemma D.3 and Lemma D.4, yields the explicit formulation of […]"),
              A(symbol="lost"), "derived (19) uses no exponential moment (cf-g4): D.3 may serve only (22)"),
          Use("C.2 (22)", Q(410, "Then by a straightforward calculation with Lemma D.3, we can derive its explicit "
                                 "formulation:"), A(symbol="lost"))),
    missing=("both identities and the proof",),
    notes=("On the reconstruction (19) needs only E[x_i x_j] = delta_ij and geometric sums (cf-g4); the exponential-moment readings of D.3/D.4 (ld3-ld4-gauss) serve only (22). C.1 citing D.3 and D.4 for (19) suggests the lost lemmas, or the paper's head-1 loss, differ from that reading (not checkable).",),
)

LD4 = Record(
    key="pc-lemma-d4", result="Lemma D.4", catalogue_id="IH-LD3/LD4-gauss", location="Lemma D.4 (App. D); used in C.1",
    tested_by=("ld3-ld4-gauss",),
    statement=(Q(518, "Lemma D.4."), Q(519, "Let […], then it holds that")),
    completion="reading (ld3-ld4-gauss): if |c| < 1 then E e^{c x z} = (1 - c^2)^{-1/2}",
    uses=(Use("C.1 (19)", Q(358, "combined with Lemma D.3 and Lemma D.4, yields the explicit formulation of […]"),
              A(symbol="lost", hypotheses="lost")),),
    missing=("hypothesis and conclusion of D.4", "any proof: none follows D.4 in the text (D.3 keeps 'Proof of Lemma D.3.')"),
    notes=("On the reconstruction (19) needs only E[x_i x_j] = delta_ij and geometric sums (cf-g4); the exponential-moment readings of D.3/D.4 (ld3-ld4-gauss) serve only (22). C.1 citing D.3 and D.4 for (19) suggests the lost lemmas, or the paper's head-1 loss, differ from that reading (not checkable).",),
)

DD5 = Record(
    key="pc-def-d5", result="Definition D.5", catalogue_id="IH-LD6-karamata", location="Def. D.5 (App. D)",
    tested_by=("ld6-karamata",),
    statement=(Q(520, "Definition D.5 (weakly majorizes)."),
               Q(521, "A vector […] is said to weakly majorize another vector […], denoted by […], if the following "
                      "conditions hold:"),
               Q(524, "for all […],"),
               Q(528, "where […] and […] are the components of […] and […], respectively, arranged in decreasing order.")),
    completion="condition 1: partial sums of the decreasingly ordered entries dominate; condition 2 lost (equality of "
               "totals = majorisation, or an inequality = weak majorisation); both readings searched (ld6-karamata)",
    uses=(Use("Lemma D.6", Q(530, "If […] weakly majorizes […] (i.e., […]),"), A(variables="match", hypotheses="lost")),),
    missing=("condition 2 (line 527 is empty): equality or inequality of the totals",
             "any use of Def. D.5 / Lemma D.6 in the proofs (none survives; the text ends inside Lemma D.6)"),
    notes=("If condition 2 is an equality the defined relation is (strong) majorisation, not the 'weak' one of the name.",),
)

LD6 = Record(
    key="pc-lemma-d6", result="Lemma D.6", catalogue_id="IH-LD6-karamata", location="Lemma D.6 (App. D)",
    tested_by=("ld6-karamata",),
    statement=(Q(529, "Lemma D.6 (Weighted Karamata Inequality)."),
               Q(530, "Let […] be a convex function, and let […] and […] be two vectors in […]. If […] weakly majorizes […] "
                      "(i.e., […]), and […] are non-negative weights such that")),
    completion="readings of ld6-karamata: (majorisation, convex f, uniform weights) and (weak majorisation, convex "
               "non-decreasing f, non-increasing weights)",
    missing=("the weight condition and the conclusion (the text ends mid-statement)", "any use of D.6 in the proofs"),
    notes=("'convex' alone is not enough under weak majorisation (f must also be non-decreasing); the lost part may "
           "carry it — ld6-karamata's planted controls show which readings fail.",),
)

RECORDS: tuple[Record, ...] = (T41, T43, T44, PA4, LA6, DA7, L53, L54, T55, C1, C2, C3, LD1, LD2, LD3, LD4, DD5, LD6)

TEXT_ITEMS: tuple[TextItem, ...] = (
    TextItem("'T-2' in f_G4 (R1 b)", (Q(85, "Note that […] denotes a “simplest” 4-gram target, where the next token is "
                                            "predicted according to the conditional probability […]."),),
             "The seed text lost the index; R1 (b) reports v1 prints 'T-2'; reading x_{L-2} (RC-5).",
             ("IH-E8-proportion",)),
    TextItem("'without loss of ambiguity' (R1 i)", (Q(127, "where we still denote the set of parameters as […] without "
                                                           "loss of ambiguity."),), "for 'without ambiguity'/'without "
             "loss of generality'.", ("IH-T55-plateau",)),
    TextItem("'the loss convergences' (R1 i)", (Q(143, "In this phase, the loss convergences."),), "for 'converges'.",
             ("IH-T55-conv-G4", "IH-T55-conv-IH")),
    TextItem("Eq. (4)/(6) softmax notation (R1 d)", (Q(42, "(4) |"), Q(43, "Specifically, […] retrieves in-context "
                                                                      "information based on the similarities of in-context "
                                                                      "bi-gram pairs […]."), Q(63, "(6) |")),
             "Both displays are lost; R1 (d): scalar softmax argument and '{(x_s, x_L)}'. Readings RC-3 / spec 2.3.",
             ("IH-E4-multiocc", "IH-E6-def")),
    TextItem("'Then exists a constant' (Thm 4.1)", (Q(50, "Then exists a constant"),), "missing 'there' (Thm A.1 has it).",
             ("IH-T41-rate",)),
    TextItem("'2-st Attn'", (Q(246, "Step II. 2-st Attn"), Q(293, "Step III. 2-st Attn")), "ordinal typo.", ("IH-T43-rate",)),
    TextItem("'(C.2)' as an equation reference", (Q(453, "(C.2) is a tight estimation"),
                                                  Q(475, "(C.2) is not only an upper bound")),
             "the subsection label used where an equation number is expected.", ("IH-C2-turn",)),
    TextItem("two 'Part II.' headings in C.2", (Q(446, "Part II. Estimation of"), Q(476, "Part II. Dynamics after the "
                                                                                         "critical point")),
             "the second is presumably Part III.", ("IH-C2-turn", "IH-C2-lyap")),
    TextItem("'tuning point'", (Q(415, "we denote the tuning time point of"), Q(439, "After the tuning point")),
             "for 'turning'.", ("IH-C2-P1",)),
    TextItem("'fine-gained'", (Q(406, "providing a fine-gained analysis"), Q(493, "providing a fine-gained analysis")),
             "for 'fine-grained'.", ()),
    TextItem("'exists and absolute constant'", (Q(512, "there exists and absolute constant"),), "for 'an'.",
             ("IH-LD2-kernel",)),
    TextItem("'See Appendix D' for the POD", (Q(77, "(see Appendix D for details)"),),
             "the POD is in A.3.2 (see pc-thm44).", ("IH-T44-rate",)),
)


def record_by_key(key: str) -> Record:
    for r in RECORDS:
        if r.key == key:
            return r
    raise KeyError(key)
