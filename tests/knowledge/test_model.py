"""Planted errors in the knowledge model's identities and gradients are refuted with counterexamples."""
import sympy as sp
import torch

from derivations.knowledge.claims import s2_model as cm
from derivations.knowledge.model import symbolic as S
from derivations.knowledge.model import transformer as model
from theoryverify import RunContext, Status

CTX = RunContext(seed=11)


def test_claims_hold():
    assert cm.check_e45(CTX).status == Status.HOLDS
    assert cm.check_e20(CTX).status == Status.PROVED


def test_transposed_attention_index_is_refuted():
    v = cm.check_e45(CTX, by_index=lambda x: cm.scores_by_index(x, transpose=True))
    assert v.status == Status.REFUTED and v.counterexample


def test_wrong_block_structure_is_refuted():
    def wrong(inst, h):   # V = 1_mᵀ ⊗ I_d (interleaved) instead of I_d ⊗ 1_mᵀ
        Wm = sp.Matrix.vstack(*[inst.W[j][l].T for j in range(inst.d) for l in range(inst.m)])
        V = sp.kronecker_product(sp.ones(1, inst.m), sp.eye(inst.d))
        return inst.kappa * V * (Wm * h).applyfunc(S.relu)
    assert cm.check_e20(CTX, form=wrong).status == Status.REFUTED


def test_gradient_missing_kappa_is_refuted():
    def planted(Z, W, X, mask, xL, y, kappa):
        gW, gZ = model.per_sample_grads(Z, W, X, mask, xL, y, kappa)
        return gW / kappa, gZ
    v = cm.check_grad(CTX, 0, grads=planted, closed_sym=lambda I, j, l: S.grad_w_closed(I, j, l) / I.kappa)
    assert v.status == Status.REFUTED and v.counterexample


def test_gradient_sign_error_in_Z_is_refuted():
    def planted(Z, W, X, mask, xL, y, kappa):
        gW, gZ = model.per_sample_grads(Z, W, X, mask, xL, y, kappa)
        return gW, -gZ
    v = cm.check_grad(CTX, 1, grads=planted, closed_sym=lambda I: -S.grad_z_closed(I))
    assert v.status == Status.REFUTED


def test_first_ft_gradient_without_format_component_is_refuted():
    from derivations.knowledge.claims import s6_finetuning as cf
    assert cf.check_identity_ft(CTX).status == Status.HOLDS
    v = cf.check_identity_ft(CTX, fn=lambda x: cf.derived(x, drop_alpha_f=True))
    assert v.status == Status.REFUTED and v.counterexample
