"""PLANTED FOR THE EXAMPLE — not a display of the paper.

A deliberately mis-transcribed learning time, registered as claim ``deeplinear.t-learn-planted`` with an
expected refutation so that the example shows what a refuted printed display looks like (finding class,
reason, counterexample).  It drops the factor 2 that the paper's learning time (``section2.LEARNING_TIME``,
τ/s · ln(s/ε)) has over the travel-time prefactor τ/(2s): the slip a reader makes by setting uf = s − ε in
the travel time and keeping only one of the two logarithms.
"""
from .section2 import eps, s, tau
import sympy as sp

#: PLANTED: the learning time with its factor 2 dropped (the paper has τ/s · ln(s/ε))
LEARNING_TIME_PLANTED = tau / (2 * s) * sp.log(s / eps)
