"""The model, built from primitives where the paper's formulas are lost (every choice a named entry of :mod:`.recon`):

* Section 4: the targets IH_2 / IH_n / GIH_n (:mod:`.targets`), the Thm 4.1 construction (:mod:`.construction41`), the
  Thm 4.3 H-head construction (:mod:`.multihead`) with the Lemma D.2 exponential-sum fits (:mod:`.kernels`), the POD
  and Barron-space tools of Thm 4.4 (:mod:`.pod`, :mod:`.barron`), Lemmas D.1/D.6 (:mod:`.lemmas_d`);
* Section 5: the Alibi RPE (:mod:`.alibi`), Training Stage I (:mod:`.stage1`), the two heads' losses derived in SymPy
  (:mod:`.head1`, :mod:`.head2`, with the Gaussian expectations of :mod:`.gauss`), and the independent six-parameter
  torch model (:mod:`.torch_model`) whose autograd and Monte Carlo the derivations are checked against."""
