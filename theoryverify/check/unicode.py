"""The Unicode a theorist pastes: accepted (translated to plain syntax) or refused with a hint.

``≤ ≥ · × − π`` and Greek letters are translated (``σ(`` is the sigmoid, a bare ``σ`` the name
``sigma``; ``√(x)`` is ``sqrt(x)``; ``x²`` is ``x**2``); ``∑ ∏ ≠ ∂ ∫ ≈`` and a ``√`` without
parentheses are refused with a one-line hint saying what to write instead.  Any other non-ASCII character
is refused (an Arabic-Indic digit that looks like a 1 is not a 1).
"""
from __future__ import annotations

import re

GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa", "λ": "lam", "μ": "mu", "ν": "nu",
    "ξ": "xi", "ρ": "rho", "ϱ": "rho", "σ": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "ϕ": "phi",
    "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda",
    "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}

SIMPLE = {
    "≤": "<=", "⩽": "<=", "≥": ">=", "⩾": ">=", "·": "*", "⋅": "*", "×": "*", "∗": "*", "−": "-", "–": "-",
    "π": "pi", "∈": " in ", "²": "**2", "³": "**3", "⁴": "**4", "\u00a0": " ", "\u2009": " ", "\u202f": " ",
    "∞": "oo", "ℯ": "e", "’": "'", "‘": "'",
}

REFUSED = {
    "∑": "∑: write Sum(f, (k, a, b)) for a sum over k = a..b (or use --latex with \\sum_{k=a}^{b})",
    "Σ(": "Σ: write Sum(f, (k, a, b)) for a sum over k = a..b (or use --latex)",
    "∏": "∏: write Product(f, (k, a, b)) (or use --latex with \\prod_{k=a}^{b})",
    "≠": "≠: a step cannot assert 'not equal'; check == and expect 'refuted'",
    "∂": "∂: write diff(f, x) for ∂f/∂x",
    "∇": "∇: write grad(f, w) for ∇_w f",
    "∫": "∫: integrals are not supported; write the closed form (or E(...) for an expectation)",
    "≈": "≈: approximate equality cannot be checked; write == (exact) or a bound with <=",
    "∼": "∼: declare a random variable as an assumption: --assume \"X ~ Normal(mu, s)\"",
    "→": "→: limits are not supported",
    "⊤": "⊤: write W.T for the transpose",
    "‖": "‖: write norm(v)",
    "|": "|x|: write Abs(x) (or norm(v) for a vector)",
}


def translate(text: str) -> str:
    """``text`` in plain syntax, or :class:`~.parser.BadInput` with a hint."""
    if "|" in text:
        raise _bad(REFUSED["|"])
    if text.isascii():
        return text
    from .parser import BadInput
    for key in ("Σ(", "Σ ("):
        if key in text:
            raise BadInput(REFUSED["Σ("])
    for ch, hint in REFUSED.items():
        if len(ch) == 1 and ch in text:
            raise BadInput(hint)
    if re.search(r"√\s*[^\s(]", text) or text.rstrip().endswith("√"):
        raise BadInput("√: write sqrt(x) (with parentheses)")
    text = re.sub(r"√\s*\(", "sqrt(", text)
    text = re.sub(r"σ\s*\(", "sigmoid(", text)
    out = []
    for ch in text:
        if ch.isascii():
            out.append(ch)
        elif ch in SIMPLE:
            out.append(SIMPLE[ch])
        elif ch in GREEK:
            out.append(GREEK[ch])
        else:
            raise BadInput(f"character {ch!r} (U+{ord(ch):04X}) is not allowed: use ASCII (≤ ≥ · π σ and Greek "
                           "letters are translated)")
    return "".join(out)


def _bad(message: str):
    from .parser import BadInput
    return BadInput(message)
