"""theoryverify: a symbolic-plus-numeric verifier for machine-learning theory papers.

``import theoryverify as tv`` is the authoring API: everything a paper author needs is an attribute of
``tv`` (claims and claim sets, checks, domains and Hypothesis strategies, rate and phase tools, flows,
verdicts, finding classes and hypotheses, evidence standards, step contexts, the results store, and the one
exception base class :class:`TheoryverifyError`).  Paper code imports nothing private.  Attributes are
imported on first use, so ``import theoryverify`` stays light.

The engine knows no paper.  Papers are plugins (entry point group ``theoryverify.papers``, see
:mod:`theoryverify.registry`); ``python -m theoryverify new-paper NAME --dir DIR`` writes a new one in the
uniform layout, and ``docs/tutorial.md`` walks through it.

The main calls, each returning a :class:`Verdict` (``proved``, ``holds``, ``refuted`` with a counterexample, or
``inconclusive`` and why) — every check can fail:

>>> import sympy as sp, theoryverify as tv
>>> x, N = sp.symbols("x N")
>>> tv.check_identity((x + 1)**2, x**2 + 2*x + 1, tv.Domain([tv.Interval(x, -3, 3)]), seed=0).status.value
'proved'
>>> tv.check_identity((x + 1)**2, x**2 + 1, tv.Domain([tv.Interval(x, -3, 3)]), seed=0).status.value
'refuted'
>>> tv.check_inequality(1 + 2/N, ">", 0, tv.Domain([tv.Interval(N, 1, 100)]), seed=0).method
'sign analysis'
>>> import numpy as np
>>> n = np.array([10.0, 20, 40, 80, 160, 320])
>>> tv.check_rate(n, 3.0 / n, predicted_exponent=-1.0, margin=0.1, seed=0, param="n").status.value
'holds'
>>> tv.check_rate(n, 3.0 / n**2, predicted_exponent=-1.0, margin=0.1, seed=0, param="n").status.value
'refuted'

A paper registers each checkable statement as a claim (``python -m theoryverify verify`` runs them):

>>> CLAIMS = tv.ClaimSet("mypaper")
>>> @CLAIMS.add("eq1", location="Eq. (1)", statement="(x + 1)^2 = x^2 + 2x + 1", kind=tv.Kind.IDENTITY)
... def eq1(ctx: tv.RunContext) -> tv.Verdict:
...     return tv.check_identity((x + 1)**2, x**2 + 2*x + 1, tv.Domain([tv.Interval(x, -3, 3)]), ctx.seed)
>>> [claim.id for claim in CLAIMS], CLAIMS.claims[0].run(tv.RunContext(seed=0)).verdict.status.value
(['mypaper.eq1'], 'proved')
"""
from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: public name -> (module, attribute); a module itself when the attribute is None
_API: dict[str, tuple[str, str | None]] = {
    # claims and the registry
    "Claim": ("claims", "Claim"), "ClaimSet": ("claims", "ClaimSet"), "Kind": ("claims", "Kind"),
    "claim": ("claims", "claim"),
    "Paper": ("claims", "Paper"), "Result": ("claims", "Result"), "RunContext": ("claims", "RunContext"),
    "Variant": ("claims", "Variant"), "Planted": ("claims", "Planted"), "Unavailable": ("claims", "Unavailable"), "registry": ("registry", None),
    # verdicts
    "Status": ("verdicts", "Status"), "Verdict": ("verdicts", "Verdict"), "proved": ("verdicts", "proved"),
    "holds": ("verdicts", "holds"), "refuted": ("verdicts", "refuted"), "inconclusive": ("verdicts", "inconclusive"),
    "error": ("verdicts", "error"), "combine": ("verdicts", "combine"),
    # findings, hypotheses, evidence standards
    "Finding": ("findings", "Finding"), "Readings": ("findings", "Readings"),
    "Condition": ("conditions", "Condition"), "Over": ("conditions", "Over"), "ANY": ("conditions", "ANY"),
    "at_least": ("conditions", "at_least"), "at_most": ("conditions", "at_most"), "above": ("conditions", "above"),
    "below": ("conditions", "below"), "STANDARDS": ("standards", "STANDARDS"), "Standards": ("standards", "Standards"),
    "with_fixed": ("evidence", "with_fixed"), "diagnose": ("convergence", "diagnose"),
    # references a figure draws (not evidence): a threshold the claim is about, the paper's reported values
    "Threshold": ("evidence_types", "Threshold"), "Reported": ("evidence_types", "Reported"),
    "attach": ("evidence_types", "attach"), "Configurations": ("evidence_types", "Configurations"),
    "CouldHaveFailed": ("evidence_types", "CouldHaveFailed"), "Proof": ("evidence_types", "Proof"),
    "Coverage": ("evidence_types", "Coverage"), "Sampling": ("evidence_types", "Sampling"),
    "check_converged": ("convergence", "check_converged"),
    # checks
    "check_identity": ("checks", "check_identity"), "check_inequality": ("checks", "check_inequality"),
    "check_agreement": ("checks", "check_agreement"), "check_cases": ("checks", "check_cases"),
    "check_agreement_over": ("checks.agreement", "check_agreement_over"),
    "check_inequality_over": ("checks.inequality", "check_inequality_over"),
    "check_count_over": ("checks.agreement", "check_count_over"),
    "printed": ("displays", "printed"), "Printed": ("displays", "Printed"),
    "torch_gradient": ("torchgrad", "torch_gradient"),
    "examples": ("checks.search", "examples"), "search": ("checks.search", "search"),
    "check_conserved": ("invariants", "check_conserved"), "check_nonincreasing": ("invariants", "check_nonincreasing"),
    "prove_nonpositive": ("invariants", "prove_nonpositive"),
    "check_mc_mean": ("checks.montecarlo", "check_mc_mean"), "check_mc_bound": ("checks.montecarlo", "check_mc_bound"),
    "check_mc_means": ("checks.montecarlo", "check_mc_means"),
    "check_mc_means_over": ("checks.montecarlo", "check_mc_means_over"),
    "check_mc_gradient": ("checks.mcgradient", "check_mc_gradient"),
    "check_mc_gradient_over": ("checks.mcgradient", "check_mc_gradient_over"),
    "check_gaussian_expectation": ("gaussian", "check_gaussian_expectation"),
    "gaussian_expectation": ("gaussian", "gaussian_expectation"), "isserlis_moment": ("gaussian", "isserlis_moment"),
    "check_flow_converges": ("flows", "check_flow_converges"),
    "check_tex_chain": ("texsteps", "check_tex_chain"), "tex_chain": ("texsteps", "tex_chain"),
    "settings": ("ranges", "settings"), "grid": ("ranges", "grid"), "check_over": ("ranges", "check_over"),
    # domains and strategies
    "Domain": ("domains", "Domain"), "Interval": ("domains", "Interval"), "LogUniform": ("domains", "LogUniform"),
    "Simplex": ("domains", "Simplex"), "FlooredSimplex": ("domains", "FlooredSimplex"), "Fixed": ("domains", "Fixed"),
    "IntegerRange": ("domains", "IntegerRange"), "MatrixVar": ("domains", "MatrixVar"), "VectorVar": ("domains", "VectorVar"),
    "Within": ("dependent", "Within"), "lambda_max": ("dependent", "lambda_max"),
    "lambda_min": ("dependent", "lambda_min"), "dependent": ("dependent", None),
    "strategies": ("strategies", None),
    # rates, phases, flows, dynamics
    "check_rate": ("scaling", "check_rate"), "check_rate_over": ("scaling", "check_rate_over"),
    "check_coefficient": ("scaling", "check_coefficient"),
    "fit_power_law": ("scaling", "fit_power_law"), "sweep_details": ("scaling", "sweep_details"),
    "compare_laws": ("scaling", "compare_laws"), "scaling": ("scaling", None), "phases": ("phases", None),
    "flows": ("flows", None), "runner": ("runner", None),
    # step contexts, results store, seeds, errors
    "StepContext": ("stepcontext", "StepContext"), "assumed_context": ("check.assume", "assumed_context"), "Reparametrisation": ("stepcontext", "Reparametrisation"),
    "softmax_reparametrisation": ("stepcontext", "softmax_reparametrisation"),
    "Store": ("store", "Store"), "sweep": ("store", "sweep"), "shared_sweep": ("shared_sweeps", "shared_sweep"), "closure_version": ("closure", "closure_version"),
    "code_key": ("closure", "code_key"),
    "rng": ("seeds", "rng"), "derive_seed": ("seeds", "derive_seed"),
    "TheoryverifyError": ("errors", "TheoryverifyError"),
    # round-off-level printing and float/high-precision evaluation (so papers need no copies of their own)
    "NOISE_FLOOR": ("roundoff", "NOISE_FLOOR"), "fmt_error": ("roundoff", "fmt_error"),
    "fmt_signed": ("roundoff", "fmt_signed"), "compile_float": ("numeric", "compile_float"),
    "high_precision": ("numeric", "high_precision"), "evaluate": ("numeric", "evaluate"), "resolve_device": ("devices", "resolve_device"),
    "plain": ("verdicts", "plain"),
    "check": ("check", None),
    # GPU sweeps (python -m theoryverify.gpu)
    "GpuSweep": ("gpu.sweep", "GpuSweep"), "GpuContext": ("gpu.sweep", "GpuContext"),
    "GpuResult": ("gpu.sweep", "GpuResult"),
}

__all__ = sorted(_API)


def __getattr__(name: str):
    """``tv.<name>``: the public API, imported on first use."""
    if name not in _API:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = _API[name]
    mod = importlib.import_module(f".{module}", __name__)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
