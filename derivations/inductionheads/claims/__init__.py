"""The claims, one module per part of the paper, in the paper's order (``ORDER``):

* ``s3_alibi`` — §3, Eq. (3): the Alibi RPE;
* ``s41_vanilla`` — §4.1: Eq. (4) and Theorem 4.1 (App. A.1);
* ``s42_ihn`` — §4.2: Eq. (6) and Theorem 4.3 (App. A.2, R2's Step-1 display);
* ``s42_gihn`` — §4.2: Eq. (7) and Theorem 4.4 with the POD and Barron tools of App. A.3;
* ``s51_setup`` — §5.1: the first layer (Eq. 9), the loss split (Eq. 11), Training Stage I (Lemma 5.3, App. B);
* ``s52_head2`` — §5.2 and App. C.2 on head 2: Eq. (22), Lemma 5.4, the fixed point, the C.2 simplification, driver 2;
* ``s5_experiments`` — §5: Figure 2 and Remark 5.1;
* ``s52_thm55`` — §5.2, Theorem 5.5: the four phases and the drivers;
* ``appc1_head1`` — App. C.1: head 1 (Eqs. 19–21) and Phase IV of head 1;
* ``appc2_dynamics`` — App. C.2: P1.1–P1.3, T_turn, the Lyapunov function of Step II.2;
* ``appd_lemmas`` — App. D: Lemmas D.1–D.4, Def. D.5 and Lemma D.6;
* ``proof_consistency`` — the proof-consistency pass of every result against the surviving text;
* ``rc_alternatives`` — the reconstruction choices' named alternatives, run where a verdict depends on them.

Nearly every formula of the paper is lost: every verdict is a verdict on the reconstruction (RC-1 … RC-20 in
:mod:`..model.recon`), recorded in each claim's ``choices``."""
ORDER = ["s3_alibi", "s41_vanilla", "s42_ihn", "s42_gihn", "s51_setup", "s52_head2", "s5_experiments", "s52_thm55",
         "appc1_head1", "appc2_dynamics", "appd_lemmas", "proof_consistency", "rc_alternatives"]
