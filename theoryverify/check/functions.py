"""The step checker's vocabulary: the functions a statement may call and the constants it may name.

One table serves the parser (which call names are allowed, before SymPy is loaded), the builder (what
each name means), the LaTeX reader (which ``\\command`` maps to which function), the help text and
the "closest known names" hints.  Nothing here imports SymPy.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Function:
    """``name`` takes between ``lo`` and ``hi`` positional arguments (``hi`` None: no upper limit)."""
    name: str
    lo: int
    hi: int | None
    help: str


_TABLE = [
    Function("diff", 2, 6, "diff(e, x[, k | y, ...]) derivative"),
    Function("subs", 1, None, "subs(e, x, value, ...) evaluate at a point"),
    Function("grad", 2, 2, "grad(e, w) gradient w.r.t. a vector or matrix w"),
    Function("exp", 1, 1, "exp(x)"),
    Function("log", 1, 2, "log(x), log(x, b) (base b)"),
    Function("ln", 1, 1, "ln(x) = log(x)"),
    Function("sqrt", 1, 1, "sqrt(x)"),
    Function("Abs", 1, 1, "Abs(x) = |x|"),
    Function("sin", 1, 1, "sin(x)"),
    Function("cos", 1, 1, "cos(x)"),
    Function("tanh", 1, 1, "tanh(x)"),
    Function("sinh", 1, 1, "sinh(x)"),
    Function("cosh", 1, 1, "cosh(x)"),
    Function("erf", 1, 1, "erf(x)"),
    Function("erfc", 1, 1, "erfc(x)"),
    Function("sigmoid", 1, 1, "sigmoid(x) = 1/(1 + exp(-x))"),
    Function("softplus", 1, 1, "softplus(x) = log(1 + exp(x))"),
    Function("relu", 1, 1, "relu(x) = Max(0, x)"),
    Function("Heaviside", 1, 1, "Heaviside(x) (1/2 at 0)"),
    Function("indicator", 1, 1, "indicator(x > 0): 1 where the condition holds, else 0"),
    Function("floor", 1, 1, "floor(x)"),
    Function("ceiling", 1, 1, "ceiling(x)"),
    Function("Max", 1, 12, "Max(a, b, ...)"),
    Function("Min", 1, 12, "Min(a, b, ...)"),
    Function("softmax", 1, 12, "softmax(a, b, ...)[j] (j from 1)"),
    Function("Sum", 2, 2, "Sum(f, (k, a, b)) for k = a..b (bounds may be symbolic: n)"),
    Function("Product", 2, 2, "Product(f, (k, a, b))"),
    Function("Integral", 2, 2, "Integral(f, (x, a, b)) the definite integral over a real x from a to b (a bound may "
             "be oo or -oo); exact where SymPy finds it, else numerical quadrature with its error stated"),
    Function("binomial", 2, 2, "binomial(n, k)"),
    Function("factorial", 1, 1, "factorial(n)"),
    Function("trace", 1, 1, "trace(W)"),
    Function("det", 1, 1, "det(W)"),
    Function("inv", 1, 1, "inv(W)"),
    Function("norm", 1, 1, "norm(v) (2-norm; Frobenius for a matrix)"),
    Function("E", 1, 1, "E(expr) expectation over the declared random variables (X ~ Normal(mu, s))"),
]

TABLE: dict[str, Function] = {f.name: f for f in _TABLE}
FUNCTIONS: tuple[str, ...] = tuple(TABLE)

#: names that mean a constant (unless a paper context defines the name itself)
CONSTANTS: dict[str, str] = {"pi": "π = 3.14159…", "E": "Euler's number e = 2.71828… (E(expr) is an expectation)",
                             "e": "Euler's number e = 2.71828…"}

#: words of the assumption language
ASSUMPTION_WORDS = ("simplex", "integer", "natural", "real", "positive", "nonnegative", "matrix", "vector",
                    "symmetric", "function")

#: distributions for ``X ~ Dist(...)``: name -> (parameters, help)
DISTRIBUTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "Normal": (("mu", "sigma"), "Normal(mu, sigma): mean mu, standard deviation sigma > 0"),
    "Bernoulli": (("p",), "Bernoulli(p): 1 with probability p, else 0"),
    "Rademacher": ((), "Rademacher(): ±1 with probability 1/2 each"),
    "Binomial": (("n", "p"), "Binomial(n, p): n a whole number ≤ 60"),
    "Poisson": (("lam",), "Poisson(lam), lam > 0"),
    "Uniform": (("a", "b"), "Uniform(a, b), a < b"),
    "Exponential": (("rate",), "Exponential(rate), rate > 0"),
    "Gamma": (("k", "theta"), "Gamma(k, theta): shape k > 0, scale theta > 0"),
    "Beta": (("a", "b"), "Beta(a, b), a, b > 0"),
}


def help_line() -> str:
    """The functions, one short line (for --help and :help)."""
    return " ".join(f.name for f in _TABLE)
