"""Saxe, McClelland, Ganguli — "Exact solutions to the nonlinear dynamics of learning in deep linear neural
networks" (ICLR 2014, arXiv:1312.6120): a worked example of a paper package for theoryverify.

What is checked (the two-layer — "three-layer" in the paper's count of layers of units — linear network
y = W32 W21 x, trained by gradient flow on the squared error): the gradients of the loss, the reduction of
the flow to independent modes of the input-output correlation's SVD, the closed-form sigmoidal trajectory of a
mode from balanced initial conditions, the time to learn a mode ∝ (1/s)·log(s/u0), the order in which modes
are learnt, the conserved balance quantity, and one planted erratum (``claims/s21_timescales.py``).

Layout (the uniform paper layout): ``printed/`` (each display of the paper that a claim checks, transcribed
once), ``model/`` (the network built from its primitives: SymPy and an independent torch model),
``experiments/`` (gradient-flow simulations and learning-time measurements), ``claims/`` (one module per
part of the paper, in the paper's order), ``contexts.py`` (the step context ``deeplinear.mode``).

The paper's text and a catalogue are not shipped with this package (``file`` and ``spec`` below name files
that may be absent; nothing here reads them).  Section and equation references are those of arXiv v3 as the
authors of this example transcribed them; see ``printed/`` for what was transcribed.
"""
import theoryverify as tv

__version__ = "0.1.0"

PAPER = tv.Paper(
    id="deeplinear",
    title="Exact solutions to the nonlinear dynamics of learning in deep linear neural networks",
    file="saxe2014-deep-linear.txt",
    spec="deeplinear.md",
)
