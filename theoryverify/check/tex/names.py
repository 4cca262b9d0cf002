"""What each name of a paper is, decided from the whole paper, as a careful reader would.

A name followed by ``(…)`` is a **function** when the paper declares it (``% theoryverify: function W, phi``),
defines it (``W(x) := …``), writes it as a map (``f: \\mathbb{R}^d \\to \\mathbb{R}``), applies it to two or more
different arguments, or calls it with several arguments; it is a **number** (so ``η(1 - ηL)`` is a product) when
the paper declares it so (``% theoryverify: scalar eta``) or uses it as a factor elsewhere (``2η``, ``ηL``, ``η^2``)
and never as a function; otherwise it is **unknown** and a step that applies it is *ambiguous*.

A name is **not a number** (a vector or matrix: the step is read in one dimension, see :mod:`.policy`) when the
paper writes ``x \\in \\mathbb{R}^{d}`` / ``\\mathbb{R}^{d \\times k}``, ``x^\\top``, ``\\|x\\|`` or ``\\langle x, ·\\rangle``.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from ..latex import GREEK

NAME_RE = re.compile(
    r"(?P<nested>\\(?:mathbf|boldsymbol|bm)\s*\{\s*\\math(?:cal|scr|frak|bb|rm|sf|it)\s*\{\s*(?P<inner3>[A-Za-z])"
    r"\s*\}\s*\})|(?P<cmd>\\(?:hat|widehat|bar|overline|underline|tilde|widetilde|dot|ddot|check|breve|vec|mathbf|"
    r"boldsymbol|bm|mathcal|"
    r"mathscr|mathfrak|mathbb|mathsf|mathrm|operatorname)\s*\{\s*(?P<inner>\\?[A-Za-z]+)\s*\}|"
    r"\\(?:hat|bar|tilde|dot|vec|bm|mathbf|boldsymbol)\s*(?P<inner2>\\[A-Za-z]+|[A-Za-z]))|"
    r"(?P<greek>\\(?:" + "|".join(sorted(GREEK, key=len, reverse=True)) + r"|ell|pi))(?![A-Za-z])|"
    r"(?<![\\A-Za-z])(?P<letter>[A-Za-z])(?![A-Za-z])|(?<![\\A-Za-z])(?P<word>[A-Za-z]{2,})(?![A-Za-z])")
SUFFIX = {"underline": "ul", "hat": "hat", "widehat": "hat", "bar": "bar", "overline": "bar", "tilde": "tilde", "widetilde": "tilde",
          "dot": "dot", "ddot": "ddot", "check": "check", "breve": "breve", "vec": "vec", "mathcal": "cal",
          "mathscr": "scr", "mathfrak": "frak", "mathbb": "bb", "mathsf": "sf", "mathbf": "bf", "boldsymbol": "bf",
          "bm": "bf"}
DECOR_RE = re.compile(r"\s*(?:'+|\^\s*(?:\*|\\star|\\ast|\\prime|\{\s*(?:\*|\\star|\\ast|\\prime)\s*\}))")
BRACED_DECOR = re.compile(r"\s*\}" + DECOR_RE.pattern)
SIGN_SUP = re.compile(r"\s*\^\s*(?:[+-]|\{\s*[+-]\s*\})(?!\w)")
SCRIPT_RE = re.compile(r"\s*_\s*(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|"
                       r"\\(?:mathrm|text|textrm|rm|mathit|operatorname|mbox)\s*\{[^{}]*\}|"  # r_\mathrm{row}
                       r"\\[A-Za-z]+|[A-Za-z0-9])")
#: an exponent right after a name that is arithmetic in a letter: ``^{t-1}``, ``^{M+1}``, ``^{2M}``, ``^{\\tau - 1}``
ARITH_POWER = re.compile(r"\s*\^\s*\{\s*(?:(?:[A-Za-z]|\\[A-Za-z]+)'*\s*[-+]\s*(?:\d+|[A-Za-z])|\d+\s*(?:[A-Za-z]|\\[A-Za-z]+))\s*\}")
#: a superscript 1 after a name (``V^1_\\gamma``, ``V_\\gamma^{1}``): a numbered variant, never the first power
SUP_ONE = re.compile(r"\s*(?:_\s*(?:\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z0-9])\s*)?\^\s*(?:1(?!\d)|\{\s*1\s*\})")
SUP_LABEL = re.compile(r"\s*\^\s*\{\s*\(\s*[^{}()]{1,12}\)\s*\}")
def _opens(text: str, at: int, name_start: int) -> re.Match | None:
    """A bracket opening right after a name (an application), through a ``}`` only where the name is braced
    (``{\\bm x}(t)``): in ``\\sqrt{2\\pi}\\left(…`` the bracket follows the square root, not π."""
    o = OPEN_RE.match(text, at)
    if o and o.group(0).lstrip().startswith("}") and (not text[:name_start].rstrip().endswith("{") or
                                                      re.search(r"[\^_]\s*\{\s*$", text[:name_start])):
        return None  # V^{\pi}(s): the bracket applies V labelled π, never π itself (π(s) is not written)
    return o


#: the spectral functions λ_max, λ_min, σ_max, σ_min (evidence keys: lam_max, sigma_min)
SPECTRAL = re.compile(r"(?:lam|sigma)_s?(?:max|min)")
OPEN_RE = re.compile(r"\s*\}?\s*(?:\\!\s*)*(?:\\left\s*|\\[bB]igg?l?\s*)?\(")  # λ_max\!\left(A\right): applied
MAP_RE = re.compile(r"\s*:\s*(?:\\mathbb\s*\{?\s*R|\\mathcal|\\R\b|[A-Z])[^=]{0,40}?\\(?:to|rightarrow|mapsto)")
MEMBER_RE = re.compile(r"\s*\\in\s*(?:\\mathbb\s*\{\s*R\s*\}|\\mathbb\s*R|\\R(?![A-Za-z]))\s*\^\s*"
                       r"(?:\{\s*)?(?:[A-Za-z]|[2-9]|\\[A-Za-z])")
# p \in (0, 1), t \in [0, T], x \in \mathbb{R} (no power), \in \mathbb{R}_{+}: a real number
NUMBER_MEMBER = re.compile(r"\s*\\in\s*(?:(?:\\left\s*)?[\(\[]\s*-?(?:\d|\\infty)[^()\[\]]{0,30}?[\)\]]|"
                           r"(?:\\mathbb\s*\{\s*[RNZ]\s*\}|\\mathbb\s*[RNZ]|\\[RNZ](?![A-Za-z]))(?!\s*\^))")
#: ``\in \mathbb{R}`` (not a power of it, not an interval): a real variable, which may still be iterated
REAL_MEMBER = re.compile(r"\s*\\in\s*(?:\\mathbb\s*\{\s*R\s*\}|\\mathbb\s*R|\\R(?![A-Za-z]))(?!\s*[\^_])")
#: "for any integer $k \ge 1$", "a positive integer $n$", "natural number $m$": the letter is a number
INTEGER_WORDS = re.compile(r"\b(?:integers?|natural\s+numbers?|positive\s+reals?|real\s+numbers?|scalars?|constants?)"
                           r"\s*\$\s*([A-Za-z])\s*(?:\$|\\[lg]eq?\b|[<>,=]|\\in\b)")
FACTOR_NEXT = re.compile(r"\s*(?:\\[,;:! ]\s*)*(?:[A-Za-z0-9]|\\(?:cdot|times|frac|sqrt|nabla|sum|prod|" +
                         "|".join(GREEK) + r")(?![A-Za-z])|\^\s*\{?\s*[0-9](?!\s*(?:\*|\\star|\\ast)\s*\}))")
# (Q^{2*}: a starred label, the second optimum — no power, so no evidence that Q is a number)
# one number, or one name that is a time, a point or a matrix (z(0), z(t_1), e(t), phi(x), f(\theta^*), f_1(A)): a
# function applied;
# rho(\alpha) is left to the other evidence (a coefficient times a bracket is written that way too)
# one bold letter, \bm{x}_t, \mathbf x (a point in R^d, session 48: \sigma_{t-1}(\bm{x}_t) beside the noise level
# \sigma^2 had been read as σ times the point): a function applied, as the plain letter is
ATOMIC_ARG = re.compile(r"^\s*(?:-?\d+(?:\.\d+)?|(?:[tsknxyzuvwA-Z]|\\tau|\\theta|\\vartheta|\\xi|\\omega|"
                        r"\\(?:bm|mathbf|boldsymbol|pmb)\s*(?:\{\s*[A-Za-z]\s*\}|\s[A-Za-z]))"
                        r"(?:\s*_\s*(?:\{[^{}]*\}|[A-Za-z0-9]))?"
                        r"(?:\s*\^\s*(?:\*|\{\s*\*\s*\}|\\star|'))?|\\cdot|\\,?\\cdot\\,?)\s*$")
#: one name as an argument, any letter (``S(g^\\star)``, ``T(\\theta_i)``): beside a single use as a factor, evidence
#: that conflicts with it (see :meth:`Names.kind`)
#: an accented letter, ``\\bar s``, ``\\overline{s}``, ``\\hat{\\theta}``: one name (s-bar) — the argument of a map defined
#: on it (``\\Pi_a(\\overline{s}) := …``, LHS_CALL), as plain s is (not NAME_ARG: ``H(\\bar e_t)`` beside αH stays H·ē_t)
ACCENTED = r"\\(?:bar|hat|tilde|overline|widehat|widetilde|check|breve|vec|dot|ddot)\s*(?:\{\s*(?:[A-Za-z]|\\[A-Za-z]+)\s*\}|" \
           r"\s(?:[A-Za-z])|\\[A-Za-z]+)"
#: an integral sign and its lower limit's opening, right before a name: ``\int_A``, ``\iint_{\Omega``
INTEGRAL_DOMAIN = re.compile(r"\\(?:int|iint|iiint|oint)\s*(?:\\(?:no)?limits\s*)?_\s*\{?\s*$")
NAME_ARG = re.compile(r"^\s*(?:[A-Za-z]|\\[A-Za-z]+)(?:\s*_\s*(?:\{[^{}]*\}|[A-Za-z0-9]))?"
                      r"(?:\s*\^\s*(?:\*|\{\s*\*\s*\}|\\star|\{\s*\\star\s*\}|'|"
                      r"\{\s*\(\s*[^{}()]{1,12}\)\s*\}))?\s*$")  # X^{(k)}: a name with an upper label
LHS_CALL = re.compile(r"^\s*(?:\\(?:mathbf|bm|boldsymbol|vec)\s*\{?\s*[A-Za-z]\s*\}?|" + ACCENTED +
                      r"|\\[A-Za-z]+|[A-Za-z])\s*$")  # f(\mathbf x) = …
ROW_START = re.compile(r"(?:^|\\\\|&|,|\\text\s*\{\s*and\s*\}|\\q?quad)(?:\s|\\q?quad|\\text\s*\{\s*and\s*\})*$")
DEFINES_AFTER = re.compile(r"\s*&?\s*(?::=|=|\\coloneqq|\\triangleq|\\defeq)")
STANDARD_FUNCTIONS = {"exp", "log", "ln", "sin", "cos", "tan", "tanh", "sinh", "cosh",
                      "Tr", "tr", "sign", "sgn", "diag", "rank", "dist", "erf", "erfc"}  # Tr(AB) is no product


@dataclass
class Evidence:
    args: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    multi: set[str] = field(default_factory=set)
    atomic: set[str] = field(default_factory=set)  # applied to one number or one name: x(0), z(t_1), e(t)
    maps: set[str] = field(default_factory=set)
    prose_scripted_maps: set[str] = field(default_factory=set)  # "the distribution function $F^B_{n,p}$": F labelled
    prose_maps: set[str] = field(default_factory=set)  # "the function $g$": a map, unless the math uses it as a number
    factor: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    vector: set[str] = field(default_factory=set)
    first: dict[str, int] = field(default_factory=dict)  # first offset at which a name occurs
    pi_name: bool = False
    pi_accented: bool = False  # \hat\pi, \tilde{\pi}: π decorated as a name is (an estimate of π)
    e_power: bool = False  # e^{…} somewhere
    e_name: bool = False  # e_i, e(t), e' somewhere: e is a name in this paper
    e_bare_factor: bool = False  # a bare e next to a factor (e \cdot 0, 2e): e applied to (0) is then undecided
    e_parts: set[str] = field(default_factory=set)  # the names of "e = x̄ - x̲" (e is what they are)
    nabla_value: set[str] = field(default_factory=set)  # \nabla l_i \sum …: the gradient is a value, not a map
    gradient: set[str] = field(default_factory=set)  # \nabla f, \nabla_x f, \nabla^2 f: a gradient of f is taken
    number: set[str] = field(default_factory=set)  # p \in (0, 1), x \in \mathbb{R}: a real number
    reals: set[str] = field(default_factory=set)  # x \in \mathbb{R}: a real variable (no interval, no bound given)
    sup_labels: set[tuple[str, str]] = field(default_factory=set)  # (V, r) of V^r := …, (f, m) of (f^m)_{m ∈ [M]}
    half_steps: set[tuple[str, str]] = field(default_factory=set)  # (y, m) of y^m_t = … beside y_{t+1} = …(y^m_t)
    sup_one: set[str] = field(default_factory=set)  # V of V^1_γ, V^{1}: a superscript 1 (no power) — numbered labels
    # iteration superscripts (x^k, x^{k+1}): the shifts each (name, letter) carries, the (name, letter) the paper
    # shows to be an iterate (an update x^{k+1} = …x^k…, h^k = h(z^k), "x^r is the r-th iterate"), the letters it
    # uses as iteration indices
    sup_shifts: dict[tuple[str, str], set[int]] = field(default_factory=lambda: defaultdict(set))
    iterates: set[tuple[str, str]] = field(default_factory=set)
    iteration_letters: set[str] = field(default_factory=set)
    # the written forms (M_a, r) the paper uses as numbers, never applied there: raised to a power with no bracket
    # after (M_a^2 / s^2), divided, or compared (≤ M_a) — M_a^2 (…) is then M_a^2 times the bracket, or ambiguous
    bare_numbers: set[str] = field(default_factory=set)
    # names raised to an exponent that is arithmetic in a letter (γ^{t-1}, γ^{M+1}, γ^{2M}): powers are powers there
    arith_powers: set[str] = field(default_factory=set)
    bounded: set[str] = field(default_factory=set)  # 0 < δ < 1, σ > 0: a name compared with a number (no power of it
    # is an iterate)
    # the Greek letters the paper integrates against as a measure (∫ dμ(S) f, ∫ f(x) dν(x)): dμ(…) is a measure
    measures: set[str] = field(default_factory=set)
    # names the paper writes as shorthand for their value at a point (Γ_1 := Γ_1(A)): applied, they are applied
    shorthand: set[str] = field(default_factory=set)
    # names whose superscript is an index (ξ^μ inside Σ_μ, ξ_i^μ): the key (xibf) — its other letter superscripts
    # (ξ^n, the n-th sample) are index labels too, never powers of a vector
    index_sups: set[str] = field(default_factory=set)


def key_of(m: re.Match) -> str:
    if m.group("nested"):
        return m.group("inner3") + "bf"
    if m.group("cmd"):
        cmd = re.match(r"\\([A-Za-z]+)", m.group(0)).group(1)
        inner = (m.group("inner") or m.group("inner2") or "").lstrip("\\")
        inner = {"lambda": "lam", "varepsilon": "epsilon", "varphi": "phi", "vartheta": "theta"}.get(inner, inner)
        return inner + SUFFIX.get(cmd, "")
    if m.group("greek"):
        g = m.group("greek")[1:]
        return {"ell": "ell", "pi": "pi"}.get(g, GREEK.get(g, g))
    return m.group("letter") or m.group("word")  # Wealth_{t-1}: a word is one name, as the grammar reads it


def _balanced(text: str, i: int, open_c: str = "(", close_c: str = ")") -> int:
    depth = 0
    for j in range(i, min(len(text), i + 400)):
        if text[j] == open_c:
            depth += 1
        elif text[j] == close_c:
            depth -= 1
            if depth == 0:
                return j
    return -1


_SCRIPT = r"(?:\s*_\s*(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|\\[A-Za-z]+|[A-Za-z0-9]))?"
_NAME = r"(?P<name>\\(?:hat|widehat|bar|overline|tilde|widetilde|mathbf|bm|boldsymbol|mathcal)\s*\{\s*\\?[A-Za-z]+\s*\}|" \
        r"\\[A-Za-z]+|(?<![\\A-Za-z])[A-Za-z])"  # noqa: E501
_LETTER_SUP = r"\s*\^\s*(?:\{\s*(?P<sup>[a-z])\s*\}|(?P<sup2>[a-z])(?![A-Za-z]))"
#: ``V^r := …``, ``B_a^r(k) \eqdef …``, ``\hat V^r(u) \stackrel{def}{=} …``: a name defined with a one-letter
#: superscript carries it as a label (nobody defines a power of a name)
SUP_DEFINED = re.compile(_NAME + _SCRIPT + _LETTER_SUP + _SCRIPT + r"\s*(?P<call>\([^()]*\))?\s*&?\s*(?::=|\\coloneqq|"
                         r"\\triangleq|\\eqdef|\\defeq|\\stackrel\s*\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}\s*\{\s*=\s*\}|"
                         r"\\overset\s*\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}\s*\{\s*=\s*\})")
#: ``f^{i}_{t}(x) = …`` opening its math (inline or displayed): a scripted name applied to a bracket and set equal to
#: something — the paper's family of functions f^i_t (its g^0_t(y) is that function at 0, never a power times y)
SUP_CALL_SET = re.compile(r"\s*" + _NAME + _SCRIPT + _LETTER_SUP + _SCRIPT + r"\s*(?P<call>\([^()]*\))\s*&?\s*=(?!=)")
#: ``y^{m}_{t} = …`` opening a row: a name with a one-letter superscript and a one-letter subscript, set equal to
#: something — a half-step of an update block when the same display also updates ``y_{t+1}`` (see :func:`gather`)
HALF_STEP = re.compile(r"(?:^|\\\\|\\begin\s*\{[^{}]*\}|&)\s*" + _NAME +
                       r"(?:\s*\^\s*(?:\{\s*(?P<sup>[a-z])\s*\}|(?P<sup2>[a-z])(?![A-Za-z]))\s*_\s*(?:\{\s*(?P<idx>[a-z])\s*\}|"
                       r"(?P<idx2>[a-z])(?![A-Za-z]))|\s*_\s*(?:\{\s*(?P<idx3>[a-z])\s*\}|(?P<idx4>[a-z])(?![A-Za-z]))\s*\^\s*"
                       r"(?:\{\s*(?P<sup3>[a-z])\s*\}|(?P<sup4>[a-z])(?![A-Za-z])))\s*&?\s*=")
#: ``(f^m)_{m \in [M]}``, ``\{f^m\}_{m=1}^M``: a family indexed by the superscript letter
SUP_FAMILY = re.compile(r"(?:\(|\\\{|\\left\s*\(|\\left\s*\\\{)\s*" + _NAME + _SCRIPT + _LETTER_SUP +
                        r"\s*(?:\)|\\\}|\\right\s*\)|\\right\s*\\\})\s*_\s*\{\s*(?P<idx>[a-z])\s*(?:\\in|=)")


def _raised_elsewhere(rhs: str, letter: str, base: re.Match | None) -> bool:
    """Whether a definition's right side raises something other than the defined name to ``letter`` (λ_1^t in
    Λ^t := diag(λ_1^t, …)); the defined name's own recursion (U_a^r := max_b U_{ab}^r) does not count."""
    own = key_of(base) if base else None
    for m in re.finditer(r"\^\s*\{?\s*" + letter + r"(?![A-Za-z])", rhs):
        head = re.search(_NAME + _SCRIPT + r"\s*$", rhs[:m.start()])
        if not head or not NAME_RE.match(head.group("name")) or key_of(NAME_RE.match(head.group("name"))) != own:
            return True
    return False


#: a one-letter superscript that may be an iteration index: ``^k``, ``^{k}``, ``^{k+1}``, ``^{r-1}``
_ITER_SUP = r"\s*\^\s*(?:\{\s*(?P<it>[a-z])\s*(?:(?P<sign>[+-])\s*(?P<shift>[1-9])\s*)?\}|(?P<it2>[a-z])(?![A-Za-z]))"
ITER_SUP = re.compile(_NAME + _SCRIPT + _ITER_SUP)
#: where a row starts (an update's left side is alone there)
_ROW_HEAD = re.compile(r"(?:^|\\\\|&|,|;|\\q?quad|\\text\s*\{[^{}]*\})\s*&?\s*$")
_UPDATE_OP = re.compile(r"\s*&?\s*(?::=|=|\\coloneqq|\\leftarrow|\\gets)")
#: ``x^{t+1} \in \argmin_x …`` / ``= \arg\min`` / ``\in \operatorname*{Argmin}``: an update by minimisation
_ARGMIN_UPDATE = re.compile(r"\s*&?\s*(?:\\in|=|:=|\\coloneqq|\\leftarrow)\s*(?:\\(?:arg|Arg)\s*\\?min|\\argmin|\\Argmin|"
                            r"\\(?:operatorname\*?|mathop|mathrm|text|rm)\s*\{?\s*(?:\\rm\s*)?[Aa]rg\s*(?:\\[,;!]\s*)?\\?min|"
                            r"\\prox|\\operatorname\s*\{\s*prox)")
#: (a "time step $i$" is no iteration: the impulse response at step i is C A^i B, a power)
ITERATION_WORDS = re.compile(r"\b(?:iterates?|iterations?|iterative|rounds?|epochs?)\b", re.I)
#: "the $r$-th iterate", "iteration $k$", "round $r$": a letter used as the iteration count
ITERATION_LETTER = re.compile(r"\$\s*\{?\s*([a-z])\s*\}?\s*\$\s*-?\s*(?:th|st|nd|rd|\^\{?th\}?)\s+(?:iterat|round|epoch|"
                              r"update)|(?:iteration|iterate|round|epoch)s?\s+\$\s*([a-z])\s*\$", re.I)


#: "the sequence … generated by the algorithm", "produced by Algorithm 1": a sequence of iterates
GENERATED_BY = re.compile(r"\b(?:generated|produced)\s+by\b", re.I)
#: ``\{x^k\}``, ``\{(x^k, \theta^k)\}_{k \ge 0}``, ``\{x^k\}_{k=0}^\infty``: a sequence written in braces (its members)
BRACED_SEQUENCE = re.compile(r"\s*\\(?:left\s*\\)?\{\s*(?:\(\s*)?((?:[^{}$()]|\{[^{}]*\})*?)\s*(?:\)\s*)?"
                             r"\\(?:right\s*\\)?\}\s*(?:_\s*(?:\{[^{}]*\}|[A-Za-z0-9]))?"
                             r"\s*(?:\^\s*(?:\{[^{}]*\}|\\infty|[A-Za-z0-9]))?\s*")


#: "$x^r$ is the $r$-th iterate", "$w^k$ denotes the iterate": what follows a name the sentence calls an iterate
NAMED_ITERATE = re.compile(r"\s*(?:is|be|are|denotes?|as)\s+(?:the|an?)\s+(?:[^\s.]+\s+){0,3}?iterates?\b", re.I)


#: what stands before a name whose gradient is taken: ``\nabla``, ``\nabla_x``, ``\nabla^2``, ``\nabla_{\theta}``
GRADIENT_BEFORE = re.compile(r"\\nabla(?:\s*\^\s*\{?\s*\d\s*\}?)?(?:\s*_\s*(?:\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z0-9]))?"
                             r"(?:\s*\^\s*\{?\s*\d\s*\}?)?\s*$")
_COMPARE = r"(?:<|>|\\le(?:q|qslant)?|\\ge(?:q|qslant)?|\\lt|\\gt)"
BOUND_AFTER = re.compile(r"\s*" + _COMPARE + r"\s*-?\d")
BOUND_BEFORE = re.compile(r"\d\s*" + _COMPARE + r"\s*$")


#: the variable a derivative is taken in — ``\nabla_{\theta}``, ``\nabla_x``, ``\partial \theta``: no factor of the
#: update's right side (θ^{k+1} = θ^k − α∇_θ f(θ^k) writes no bare θ)
DIFF_VARIABLE = re.compile(r"(?<=\\nabla)\s*_\s*(?:\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z])|"
                           r"(?<=\\partial)\s*(?:\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z])")


def _iteration(ev: Evidence, text: str) -> None:
    """Iteration superscripts in one math text: the shifts each (name, letter) carries, and the updates that make a
    name an iterate — ``x^{k+1} = … x^k …`` (its left side alone on the row, the right side writing x^k and never a
    bare x: x^{k+1} = x·x^k is a power) and ``h^k = h(z^k)``."""
    for m in ITER_SUP.finditer(text):
        base = NAME_RE.match(m.group("name"))
        if not base:
            continue
        key, letter = key_of(base), m.group("it") or m.group("it2")
        shift = int(m.group("shift") or 0) * (-1 if m.group("sign") == "-" else 1)
        ev.sup_shifts[(key, letter)].add(shift)
        if shift > 0 and _ARGMIN_UPDATE.match(text, m.end()) and _ROW_HEAD.search(text[:m.start()]):
            ev.iterates.add((key, letter))  # x^{t+1} \in \argmin_x …: the next iterate, never a power
            ev.iteration_letters.add(letter)
            continue
        op = _UPDATE_OP.match(text, m.end())
        if not op or not _ROW_HEAD.search(text[:m.start()]):
            continue
        rhs = re.split(r"\\\\|&\s*(?:=|\\le|\\ge)|[,;]\s*(?:\\q?quad|\\text)", text[op.end():], maxsplit=1)[0]
        name = re.escape(m.group("name"))
        if re.match(r"\s*" + name + r"\s*(?:\\left\s*)?\(", rhs) and shift == 0:
            ev.iterates.add((key, letter))  # h^k = h(z^k): the value at the k-th iterate
            ev.iteration_letters.add(letter)
            continue
        own = [o for o in ITER_SUP.finditer(rhs) if o.group("name") == m.group("name") and
               (o.group("it") or o.group("it2")) == letter]
        bare = re.search(r"(?<![\\A-Za-z])" + name + r"(?![A-Za-z])(?!\s*[\^_'])", DIFF_VARIABLE.sub("", rhs))
        if shift > 0 and own and not bare:
            ev.iterates.add((key, letter))
            ev.iteration_letters.add(letter)


def prose_numbers(ev: Evidence, prose: str) -> None:
    """What the prose says is a number: "for any integer $k \\ge 1$", "a constant $c$" (then k(2L + 1) is k·(…));
    and what it says is a map: "the function $g$", "the activation function $\\sigma$", "$g$ is a function" (then
    g(a + b) is g applied, as after ``g: ℝ → ℝ``)."""
    for m in INTEGER_WORDS.finditer(prose):
        ev.number.add(m.group(1))
    for m in MAP_WORDS.finditer(prose):
        name = NAME_RE.fullmatch((m.group(1) or m.group(2) or m.group(3)).strip())
        if name:
            ev.prose_maps.add(key_of(name))
    for m in SCRIPTED_MAP_WORDS.finditer(prose):  # (kept apart: F^B_{n,p} called a function says nothing of F)
        name = NAME_RE.fullmatch((m.group(1) or m.group(2)).strip())
        if name:
            ev.prose_scripted_maps.add(key_of(name))


_MAP_NOUN = r"(?:function|map|mapping)"
#: "the function $g$", "an activation function $\sigma$", "$g$ is a function", "$h$ be a map": a name called a map
MAP_WORDS = re.compile(r"\b(?:the|a|an)\s+(?:[A-Za-z-]+\s+){0,2}?" + _MAP_NOUN + r"\s+\$\s*([A-Za-z]|\\[A-Za-z]+)\s*\$|"
                       r"\$\s*([A-Za-z]|\\[A-Za-z]+)\s*\$\s+(?:is|be|denotes?)\s+(?:a|an|the|another)\s+(?:[A-Za-z-]+\s+){0,3}?"
                       + _MAP_NOUN + r"\b|"
                       # "$f$ belongs to a space of functions", "$f$ lies in the class of smooth functions"
                       r"\$\s*([A-Za-z]|\\[A-Za-z]+)\s*\$\s+(?:belongs\s+to|lies\s+in|is\s+in|is\s+an?\s+element\s+of)\s+"
                       r"(?:a|an|the|some)\s+(?:[A-Za-z-]+\s+){0,2}?(?:space|class|set|family|cone)\s+of\s+"
                       r"(?:[A-Za-z-]+\s+){0,2}?functions\b")
_SCRIPTS = r"(?:\s*[_^]\s*(?:\{[^{}$]*\}|\\[A-Za-z]+|[A-Za-z0-9]))+"
#: "the distribution function $F^B_{n,p}$", "$F^B_{n,p}$ be the … function": a scripted name called a map
SCRIPTED_MAP_WORDS = re.compile(r"\b(?:the|a|an)\s+(?:[A-Za-z-]+\s+){0,2}?" + _MAP_NOUN + r"\s+\$\s*([A-Za-z]|\\[A-Za-z]+)"
                                + _SCRIPTS + r"\s*\$|\$\s*([A-Za-z]|\\[A-Za-z]+)" + _SCRIPTS +
                                r"\s*\$\s+(?:is|be|denotes?)\s+(?:a|an|the)\s+(?:[A-Za-z-]+\s+){0,3}?" + _MAP_NOUN + r"\b")


def prose_iterates(ev: Evidence, prose: str) -> None:
    """What the prose says of iterates: a sentence that speaks of iterations (iterate, iteration, round, epoch, at
    step) and sets or names ``x^r`` in its inline math (``Let $f^r = f(w^r)$ … at the $r$-th iterate``, ``the
    iterates $x^k$``) makes x an iterate in r; "the $r$-th iterate", "iteration $k$" make r an iteration letter."""
    for m in ITERATION_LETTER.finditer(prose):
        ev.iteration_letters.add(m.group(1) or m.group(2))
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z\\])|\n\s*\n", prose):
        if not ITERATION_WORDS.search(sentence) and not GENERATED_BY.search(sentence):
            continue
        for math in re.finditer(r"(?<!\\)\$([^$]{1,300})\$", sentence):
            braced = BRACED_SEQUENCE.fullmatch(math.group(1))
            if braced:  # "the sequence $\{(x^k, \theta^k)\}$ generated by …": each member is an iterate in k
                for part in braced.group(1).split(","):
                    m = ITER_SUP.fullmatch(part.strip())
                    base = NAME_RE.match(m.group("name")) if m else None
                    if base is not None and not m.group("shift"):
                        letter = m.group("it") or m.group("it2")
                        ev.iterates.add((key_of(base), letter))
                        ev.iteration_letters.add(letter)
                continue
            if not ITERATION_WORDS.search(sentence):
                continue
            for part in re.split(r",|\\text\s*\{\s*and\s*\}|\\quad", math.group(1)):
                m = ITER_SUP.match(part.strip())
                base = NAME_RE.match(m.group("name")) if m else None
                if base is None or m.group("shift"):
                    continue
                rest = part.strip()[m.end():]
                if rest.strip():
                    if not _UPDATE_OP.match(rest):
                        continue  # $x^k y$: not x^k named alone
                elif not (NAMED_ITERATE.match(sentence, math.end()) or
                          re.search(r"\biterates?\s*(?:\\?,?\s*)?$", sentence[:math.start()], re.I)):
                    continue  # "$\rho^k$ per iteration": written in the sentence, not called an iterate
                letter = m.group("it") or m.group("it2")
                ev.iterates.add((key_of(base), letter))
                ev.iteration_letters.add(letter)


def _half_step(ev: Evidence, text: str, m: re.Match) -> None:
    """``y^{m}_{t} = y_t + …`` in a display that also sets ``y_{t+1} = …`` from it (an extragradient or mirror-prox
    half-step, then the step): y^m is a name of its own (the label m, never a power of y_t), and its row an update.
    Only when the display writes y_t (no superscript) too, updates y_{t+1}, and uses y^m_t again after the row."""
    base = NAME_RE.match(m.group("name"))
    sup = m.group("sup") or m.group("sup2") or m.group("sup3") or m.group("sup4")
    idx = m.group("idx") or m.group("idx2") or m.group("idx3") or m.group("idx4")
    if base is None or sup == idx:
        return
    name = re.escape(m.group("name"))
    one = r"(?:\{\s*%s\s*\}|%s(?![A-Za-z]))"
    update = re.compile(name + r"\s*_\s*\{\s*" + idx + r"\s*\+\s*1\s*\}\s*&?\s*(?::=|=)")
    again = re.compile(name + r"\s*(?:\^\s*" + one % (sup, sup) + r"\s*_\s*" + one % (idx, idx) + r"|_\s*" +
                       one % (idx, idx) + r"\s*\^\s*" + one % (sup, sup) + ")")
    plain = re.compile(name + r"\s*_\s*" + one % (idx, idx) + r"(?!\s*\^)")
    rest = text[m.end():]
    if update.search(text) and again.search(rest) and plain.search(rest):
        ev.sup_labels.add((key_of(base), sup))
        ev.half_steps.add((key_of(base), sup))


def gather(texts: list[tuple[int, str]]) -> Evidence:
    """Evidence from math texts (offset, text): displays and inline math, in document order."""
    ev = Evidence()
    terms: set[str] = set()  # names written as a whole term inside a norm or an inner product
    for off, text in texts:
        _iteration(ev, text)
        _measures_and_index_sups(ev, text)
        set_call = SUP_CALL_SET.match(text)
        for m in [*SUP_DEFINED.finditer(text), *SUP_FAMILY.finditer(text), *([set_call] if set_call else [])]:
            letter, base = m.group("sup") or m.group("sup2"), NAME_RE.match(m.group("name"))
            if "idx" not in m.groupdict() and _raised_elsewhere(text[m.end():m.end() + 200], letter, base):
                continue  # Λ^t := diag(λ_1^t, …), P^n := ⊗^n P: the definition of a power, not a label
            if m is set_call and base and (re.search(r"[-+]", m.group("call")) or
                                           re.search(rf"(?<![A-Za-z\\]){re.escape(base.group(0))}(?![A-Za-z])",
                                                     m.group("call"))):
                continue  # γ^t(1 - γ) = γ^t - γ^{t+1}: a power times an expression of itself, no function defined
            if base and ("idx" not in m.groupdict() or m.group("idx") == letter):
                ev.sup_labels.add((key_of(base), letter))
                if m.groupdict().get("call"):  # B_a^r(k) := …: the labelled name is a function the paper defines
                    ev.args[key_of(base) + "sup"].add(m.group("call")[1:-1].strip())
                    ev.atomic.add(key_of(base) + "sup")
        for m in HALF_STEP.finditer(text):
            _half_step(ev, text, m)
        scripts = _subscript_spans(text)
        for m in NAME_RE.finditer(text):
            key = key_of(m)
            end = m.end()
            d = DECOR_RE.match(text, end)
            if not d and m.group("cmd") and re.search(r"\{\s*$", text[:m.start()]):
                d = BRACED_DECOR.match(text, end)  # {\bm C}'(x): the braced name's prime, as for C'(x)
            if d:
                key += "prime" if "'" in d.group(0) or "prime" in d.group(0) else "star"
                end = d.end()
            sign = SIGN_SUP.match(text, end)
            if sign and not d:  # w^+, u^-: the paper's names w-plus and u-minus, as the grammar keys them
                key += "plus" if "+" in sign.group(0) else "minus"
                end = sign.end()
            ev.first.setdefault(key, off + m.start())
            if ARITH_POWER.match(text, end):
                ev.arith_powers.add(key)
            if SUP_ONE.match(text, end):  # V^1_γ(y, λ), V_γ^{1}: nobody writes a first power — the paper numbers V
                ev.sup_one.add(key)
            if key == "pi" and (d or _opens(text, end, m.start())):  # pi' or pi(a|s); pi_theta is another name
                ev.pi_name = True
            if m.group("cmd") and (m.group("inner") or m.group("inner2") or "") == "\\pi":
                ev.pi_accented = True
            if key in ("e", "eprime", "estar"):
                if re.match(r"\s*\^\s*(?:\{|[^*'])", text[end:end + 4]) and key == "e":
                    ev.e_power = True
                elif re.match(r"\s*(?:_|\(|\\left\s*\(|')", text[end:end + 8]) or key != "e" or \
                        re.match(r"\s*&?\s*(?::=|=|\\coloneqq|\\triangleq)", text[end:end + 12]):
                    ev.e_name = True  # e_i, e(t), e', or "e = y - Xw": a name
                    rhs = re.match(r"\s*&?\s*(?::=|=|\\coloneqq|\\triangleq)([^$,;&]{1,80})", text[end:end + 100])
                    if rhs and key == "e":  # e = x̄ - x̲: what e is made of (functions make it one)
                        ev.e_parts |= {key_of(n) for n in NAME_RE.finditer(rhs.group(1))} - {"e"}
            lab = SUP_LABEL.match(text, end)  # X^{(t)}_i: an upper label, not a power
            if lab:
                end = lab.end()
            s = SCRIPT_RE.match(text, end)
            after = s.end() if s else end
            lab = SUP_LABEL.match(text, after)  # alpha_1^{(t)}
            if lab:
                after = lab.end()
            if s and re.fullmatch(r"\s*_\s*\{?\s*\d+\s*\}?", s.group(0)):  # lambda_1 is not lambda(x)
                key = key + "_" + re.sub(r"\D", "", s.group(0))
            elif s and re.search(r"\\(max|min|text|mathrm|rm)|[A-Za-z]{2,}", s.group(0)) and \
                    not GREEK_SCRIPT.fullmatch(s.group(0)):  # S_lambda is S indexed, as the grammar keys it
                inner = re.sub(r"^\s*_\s*(?:\{(.*)\}|(.*))\s*$", lambda g: g.group(1) or g.group(2) or "", s.group(0),
                               flags=re.S).strip()
                one = NAME_RE.fullmatch(inner)
                if one and one.group("cmd"):  # ε_{\hat β}: the label β-hat, as the grammar keys it (epsilon_betahat)
                    key = key + "_" + key_of(one)
                else:
                    key = key + "_" + re.sub(r"[^A-Za-z0-9]", "", s.group(0).replace("\\text", "").replace("\\mathrm", ""))
            ev.first.setdefault(key, off + m.start())  # rho_{\min} is first written here, whatever rho was before
            index = any(a <= m.start() < b for a, b in scripts)  # C_{\epsilon}^\top, C_n(X): an index
            sh = SHORTHAND_DEF.match(text, after)
            if sh and not index and _side_starts(text, m.start()):
                # Γ_1 := Γ_1(A), a whole side each: the bare name is the value at A — applied, it is applied
                written = text[m.start():after].strip()
                o = OPEN_RE.match(text, sh.end() + len(written)) if text.startswith(written, sh.end()) else None
                close = _balanced(text, o.end() - 1) if o else -1
                if close > 0 and SIDE_END.match(text, close + 1):
                    ev.shorthand.add(key)
            o = None if index else _opens(text, after, m.start())
            if o:
                close = _balanced(text, o.end() - 1)
                if close > 0:
                    arg = " ".join(text[o.end():close].split())
                    ev.args[key].add(arg)
                    if _top_comma(arg):
                        ev.multi.add(key)
                    if ATOMIC_ARG.match(arg) or LHS_CALL.match(arg) and \
                            DEFINES_AFTER.match(text, close + 1) and ROW_START.search(text[:m.start()]):
                        ev.atomic.add(key)  # z(0), e(t); "u(q) = …" opening a row: the paper defines u on q
                continue
            tensor = TENSOR_POWER.match(text, after)
            if tensor and not index:  # x^{\otimes p}: x is a vector (or a matrix), never a number raised to p
                ev.vector.add(key)
            if not index and not d and not tensor and _bare_number(text, m.start(), after):
                letter = re.fullmatch(r"\s*_\s*\{?\s*([A-Za-z])\s*\}?", s.group(0)) if s else None
                if not s or letter:
                    ev.bare_numbers.add(key + (f"_{letter.group(1)}" if letter else ""))
            if MAP_RE.match(text, after) and not index:
                ev.maps.add(key)
            if MEMBER_RE.match(text, after) and not index:
                ev.vector.add(key)
            if NUMBER_MEMBER.match(text, after) and not index:
                ev.number.add(key)
                if REAL_MEMBER.match(text, after):
                    ev.reals.add(key)
            before = text[max(0, m.start() - 8):m.start()]
            if not index and (re.match(r"\s*/", text[after:after + 4]) or re.search(r"/\s*$", before) or
                              (re.search(r"\\sqrt\s*\{\s*$", before) and re.match(r"\s*\}", text[after:after + 4]))):
                ev.number.add(key)  # δ/(CB)², 1/δ, √δ: a bare name in arithmetic is a number (δ(…) is then δ·(…))
            if not index and re.match(r"\s*\^\s*(?:\\top|T\b|\{\s*\\top|\\intercal|\{\s*T\s*\})",
                                      text[after:after + 12]):
                ev.vector.add(key)
            if not index and re.search(r"(\\\||\\lVert|\\langle)\s*$", before) and _opens_norm(text, m.start()):
                ev.vector.add(key)
            elif not index and not d and _vector_term(text, m.start(), after):
                terms.add(key)  # ‖a − b‖, ⟨u, v⟩: a whole term of a norm's or inner product's vector
            if not index and m.group("cmd") and re.match(r"\\(mathbf|boldsymbol|bm)", m.group(0)):
                ev.vector.add(key)
            if not index and not s and not d and (BOUND_AFTER.match(text, after) or BOUND_BEFORE.search(before)):
                ev.bounded.add(key)
            if re.search(r"\\nabla\s*$", before) and FACTOR_NEXT.match(text, after) and \
                    not SQUARED_CALL.match(text, after):  # \nabla L^2(v)(…): a Hessian written as a square, applied
                ev.nabla_value.add(key)
            graded = not index and GRADIENT_BEFORE.search(text[max(0, m.start() - 40):m.start()])
            if graded:  # \nabla f = A x: f is a map (its gradient is taken), never a factor of the \nabla before it
                ev.gradient.add(key)
            after_relation = RELATION_BEFORE.search(text[max(0, m.start() - 16):m.start()])
            if index and INTEGRAL_DOMAIN.search(text[max(0, m.start() - 24):m.start()]):
                continue  # \int_A f(x) dμ(x): A is the domain of integration, never a factor of f (s48)
            if FACTOR_NEXT.match(text, after) or not graded and not after_relation and \
                    re.search(r"([0-9A-Za-z}]|\\cdot|\\times)\s*(\\[,;:! ]\s*)*$", before) and \
                    not _command_before(text, m.start()):
                ev.factor[key] += 1
                if key == "e" and not s:
                    ev.e_bare_factor = True
    # a term of a norm's vector is a vector, unless the paper also says the name is a real number (x ∈ ℝ, x/2, 1/x,
    # √x): a paper reuses letters ("a vector x is a subgradient" in one section, ∀ x ∈ ℝ in another), and a term's
    # sign is weaker than the name right after the bar, a transpose or ℝ^d
    ev.vector |= terms - ev.number
    return ev


#: a definition sign after a name, then (for a shorthand) the same name applied: ``\\Gamma_1 := \\Gamma_1(A)``
#: what may stand right before a whole side (a row break, an alignment, a relation, a comma)
SIDE_OPENERS = ("&", "\\\\", ":=", "=", "\\coloneqq", "\\quad", ",")


#: a control word right before a name (spacing between): ``\\forall f``, ``\\lVert f``, ``\\alpha f``
_COMMAND_BEFORE = re.compile(r"\\([A-Za-z]+)\s*(?:\\[,;:! ]\s*)*$")


def _command_before(text: str, at: int) -> bool:
    """A command that is no name right before ``at`` (``\\forall f``, ``\\lVert f - g \\rVert``): its letters are
    no factor, so the name after it is no number for that (f(x) had been read f·x); a Greek name (``\\alpha f``) and
    ``\\cdot`` / ``\\times`` are."""
    m = _COMMAND_BEFORE.search(text[max(0, at - 40):at])
    return bool(m) and m.group(1) not in GREEK and m.group(1) not in ("ell", "pi", "hbar", "imath", "jmath", "cdot", "times")


def _side_starts(text: str, at: int) -> bool:
    """Does a side of a relation begin at offset ``at`` of ``text`` (only spaces, or a row break, an alignment,
    a relation or a comma before it)?  Looks back a few characters only."""
    before = text[max(0, at - 12):at].rstrip()
    return not before or before.endswith(SIDE_OPENERS)


SIDE_END = re.compile(r"\s*(?:$|&|\\\\|=|:=|\\coloneqq|,|\.|\\quad|\\label|\\nonumber|\\notag)")
SHORTHAND_DEF = re.compile(r"\s*&?\s*(?::=|=:|\\coloneqq|\\triangleq|\\defeq|\\equiv|=)\s*&?\s*")
#: a measure's differential: ``d\\mu(S)``, ``\\mathrm{d}\\nu_0(x)`` (a Greek letter applied right after d)
MEASURE_RE = re.compile(r"(?<![A-Za-z\\])(?:d|\\mathrm\s*\{\s*d\s*\}|\\mathrm\s+d)\s*\\([A-Za-z]+)\s*"
                        r"(?:_\s*(?:\{[^{}]*\}|[A-Za-z0-9])\s*)?\(")
#: the index of a sum or product: ``\\sum_{\\mu=1}^n``, ``\\sum_\\mu``, ``\\prod_{i}``
SUMMED_RE = re.compile(r"\\(?:sum|prod)\s*(?:\\limits\s*)?_\s*\{?\s*(\\[A-Za-z]+|[A-Za-z])(?![A-Za-z])")
#: a name with a one-letter superscript (``\\boldsymbol{\\xi}^{\\mu}``, ``\\xi_i^\\mu``, ``x^{n}``)
LETTER_SUP = re.compile(r"\s*(?:_\s*(?:\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z0-9])\s*)?\^\s*(?:\{\s*(\\[A-Za-z]+|[A-Za-z])\s*\}|"
                        r"(\\[A-Za-z]+|[A-Za-z]))")


def _measures_and_index_sups(ev: Evidence, text: str) -> None:
    """Measures (``\\int d\\mu(S)\\, f``: μ is a measure) and names whose superscript is a summed index
    (``\\sum_\\mu (\\boldsymbol{\\xi}^\\mu)^\\top \\boldsymbol{\\xi}^\\mu``: ξ's superscript names a pattern, not a power) in
    one math text.  A latin index counts on a bold name only (``\\sum_k x^k`` is a power series); a Greek one on any
    name the paper does not otherwise raise to a power."""
    if "\\int" in text:
        for m in MEASURE_RE.finditer(text):
            if m.group(1) in GREEK and not re.search(r"\\frac\s*\{\s*$", text[max(0, m.start() - 10):m.start()]):
                ev.measures.add(GREEK[m.group(1)])
    summed = {m.group(1) for m in SUMMED_RE.finditer(text)}
    if not summed:
        return
    for m in NAME_RE.finditer(text):
        sup = LETTER_SUP.match(text, m.end())
        if not sup:
            continue
        letter = sup.group(1) or sup.group(2)
        if letter not in summed or letter.startswith("\\") and letter[1:] not in GREEK:
            continue
        bold = bool(m.group("cmd") and re.match(r"\\(mathbf|boldsymbol|bm)", m.group(0)) or m.group("nested"))
        if bold or letter.startswith("\\"):
            ev.index_sups.add(key_of(m))


#: a power right after a name, then a bracket: ``\nabla \mathcal{L}^2(v_n)`` (the Hessian written sloppily as a square,
#: or the gradient of a square) — the name is applied there, whatever the power means: no evidence that the gradient
#: before it is a value times what follows (one such row had made every ∇L(v_n) of a thesis a product)
SQUARED_CALL = re.compile(r"\s*\^\s*\{?\s*[0-9]\s*\}?\s*(?:\\left\s*|\\[bB]igg?l?\s*)?\(")

#: a relation or arrow command just before a name (``\\pi \\in \\Pi``, ``x \\le C``, ``f: X \\to Y``): the letters that end the
#: command are no factor of the name (``\\in \\Pi`` had counted as "n·Π", so Π_a(\\bar s) was read as Π_a times s̄)
RELATION_BEFORE = re.compile(r"\\(?:in|notin|ni|leq?|geq?|leqslant|geqslant|subset|subseteq|supset|supseteq|to|mapsto|"
                             r"rightarrow|leftarrow|gets|sim|equiv|approx|neq?|mid|cup|cap|setminus|coloneqq|"
                             r"triangleq|defeq|eqdef|quad|qquad|colon)\s*(?:\\[,;:! ]\s*)*$")


#: a tensor power right after a name: ``x^{\otimes p}``, ``x^\otimes``
TENSOR_POWER = re.compile(r"\s*\^\s*\{?\s*\\otimes(?![A-Za-z])")


def _bare_number(text: str, start: int, after: int) -> bool:
    """The name written at ``start`` (its script ending at ``after``) is used as a number: raised to a power with no
    bracket after it (``M_a^2 / s^2``, ``\\frac{M_a^2}{s}``), divided or dividing, or compared (``\\le M_a``)."""
    power = re.match(r"\s*\^\s*(?:\{[^{}]*\}|[0-9A-Za-z])", text[after:after + 20])
    if power and "," in power.group(0):  # K_e^{dec, gauss}: a label of several words, never a power
        return False
    if power:
        return not OPEN_RE.match(text, after + power.end()) and not re.match(r"\s*\\left\s*[\[.]|\s*\[",
                                                                          text[after + power.end():])
    before = text[max(0, start - 12):start]
    return bool(re.match(r"\s*/", text[after:after + 4]) or re.search(r"/\s*$", before) or
                BOUND_AFTER.match(text, after) or re.search(_COMPARE + r"\s*$", before) and
                not OPEN_RE.match(text, after))


def _vector_term(text: str, start: int, after: int) -> bool:
    """The name written at ``start`` (its script ending at ``after``) is a whole term of the vector inside a norm or
    an inner product — after ``+``, ``−`` or the inner product's comma, before ``+``, ``−``, ``,`` or the closing
    bar/bracket, with no bracket opened between the norm and it: ``b`` in ``\\|a - b\\|``, ``v`` in
    ``\\langle u, v\\rangle``.  A term added to or subtracted from a vector is a vector (a factor, ``\\|\\eta g\\|``,
    or an argument, ``\\|W(a - b)\\|``, is not taken for one)."""
    if not re.search(r"[-+,]\s*$", text[max(0, start - 6):start]) or \
            not re.match(r"\s*(?:\\\||\\rVert|\\Vert(?![A-Za-z])|\\rangle|\\right\b|,|[-+])", text[after:after + 8]):
        return False
    head = text[:start]
    opener = -1
    bars = [m.start() for m in re.finditer(r"\\\||\\[lr]?Vert(?![A-Za-z])", head)]
    if len(bars) % 2 == 1:
        opener = bars[-1]
    depth = 0
    for m in re.finditer(r"\\langle|\\rangle", head):  # the innermost unclosed ⟨, if it is nearer
        depth += 1 if m.group(0) == "\\langle" else -1
    if depth > 0:
        opens = [m.start() for m in re.finditer(r"\\langle", head)]
        opener = max(opener, opens[-1]) if opens else opener
    if opener < 0:
        return False
    between = re.sub(r"\\[{}]", "", head[opener:])
    return all(between.count(a) == between.count(b) for a, b in ("()", "[]", "{}"))


def _opens_norm(text: str, at: int) -> bool:
    """Whether the double bar just before ``at`` opens a norm (``\\|x``), not closes one (``\\|e(T)\\|\\gamma``: a
    factor after a norm is no vector for that): an odd count of ``\\|``/``\\Vert`` bars before ``at``."""
    head = text[:at]
    if re.search(r"\\(lVert|langle)\s*$", head):
        return True
    return len(re.findall(r"\\\||\\Vert(?![A-Za-z])", head)) % 2 == 1


GREEK_SCRIPT = re.compile(r"\s*_\s*(?:\{\s*)?\\(?:" + "|".join(GREEK) + r")(?:\s*_\s*\{?\s*\d+\s*\}?)?\s*\}?")


def _subscript_spans(text: str) -> list[tuple[int, int]]:
    """Where subscripts are: ``_{…}``, ``_\\cmd``, ``_x``."""
    out = []
    for m in re.finditer(r"_\s*", text):
        j = m.end()
        if text.startswith("{", j):
            close = _balanced(text, j, "{", "}")
            if close > 0:
                out.append((j, close))
        else:
            c = re.match(r"\\[A-Za-z]+|[A-Za-z0-9]", text[j:])
            if c:
                out.append((j, j + c.end()))
    return out


def _top_comma(arg: str) -> bool:
    """A comma between arguments (``f(x, y)``); ``\\,`` is a thin space, not a comma."""
    depth = 0
    for i, c in enumerate(arg):
        if c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
        elif c == "," and depth == 0 and not (i and arg[i - 1] == "\\"):
            return True
    return False


class Names:
    """Answers :meth:`kind` for the grammar and names opaque atoms paper-wide."""

    def __init__(self, evidence: Evidence, functions: set[str] = frozenset(), scalars: set[str] = frozenset(),
                 defined: set[str] = frozenset()):
        self.ev = evidence
        self.declared_functions = set(functions)
        self.declared_scalars = set(scalars)
        self.defined = set(defined)
        self.atoms: dict[str, str] = {}
        self._atom_names: dict[str, str] = {}
        self.labels: dict[str, str] = {}  # a norm's label (norm_Gt1) -> the LaTeX of its subscript: one name per text
        self.in_context = False  # read for a step context (--context): its definitions say what each name is

    @property
    def euler_e(self) -> bool:
        """A bare e is Euler's number where the paper never uses e as a name (e_i, e(t), e'): in ``\\log(T/e)`` or
        ``1/e`` a theorist means the constant, whether or not the paper also writes ``e^{…}`` (``\\exp`` is
        common).  Declared ``% theoryverify: scalar e`` it is a name."""
        return not self.ev.e_name and "e" not in self.declared_scalars

    @property
    def pi_both(self) -> bool:
        """The paper writes an accented π (\\hat\\pi: an estimate of a quantity π) but never shows that a bare π is
        that name: a bare π could be the constant or the name."""
        return self.ev.pi_accented and not self.ev.pi_name

    @property
    def e_both(self) -> bool:
        """The paper writes e^{…} and also uses e as a name: a bare e could be either."""
        return self.ev.e_power and self.ev.e_name and "e" not in self.declared_scalars

    def _known(self, key: str) -> bool:
        ev = self.ev
        return key in ev.args or key in ev.factor or key in ev.maps or key in ev.gradient or key in ev.prose_maps or \
            key in self.declared_functions or \
            key in self.declared_scalars or key in self.defined

    @staticmethod
    def evidence_keys(name: str) -> list[str]:
        """The keys the paper-wide evidence may keep a grammar name under, most specific first: ``rho_smin`` is
        written ``\\rho_{\\min}`` (key ``rho_min``); ``alphasup_1_t`` is ``\\alpha_1^{(t)}`` (key ``alpha_1``)."""
        keys = [name, re.sub(r"_s(min|max)\b", r"_\1", name)]
        sup = re.fullmatch(r"([A-Za-z]+?)sup(?:_(\d+))?(?:_\w*)?", name)
        if sup:
            keys += [sup.group(1) + ("_" + sup.group(2) if sup.group(2) else ""), sup.group(1)]
        keys.append(name.split("_")[0])
        return list(dict.fromkeys(keys))

    def first_at(self, name: str) -> int | None:
        """Where the paper first writes ``name`` (its most specific evidence key)."""
        for key in self.evidence_keys(name):
            if key in self.ev.first:
                return self.ev.first[key]
        return None

    def kind(self, key: str) -> str | None:
        """"function", "scalar", "name" (only for pi: a name rather than the constant) or None (unknown)."""
        if not self._known(key):
            key = next((k for k in self.evidence_keys(key)[1:] if self._known(k)), key.split("_")[0])
        if key == "pi":
            return "name" if self.ev.pi_name else None
        if key == "pivar":  # pi as a name (pi_theta(s, a)): its evidence is kept under pi
            key = "pi"
        if key == "evar":  # e as a name (e(t), e_i(t) = y_i - f_i(t)): its evidence is kept under e
            made_of_functions = any(self.kind(n) == "function" for n in self.ev.e_parts if n not in ("e", "evar"))
            if self.ev.e_bare_factor and len(self.ev.args.get("e", ())) < 2 and "e" not in self.declared_functions \
                    and not made_of_functions:  # e = x̄ - x̲ with x̄(t), x̲(t) functions: e(t) is applied too
                return None  # e(0) beside e·0 and nothing else: a function applied, or a name times a bracket
            key = "e"
        plain = re.fullmatch(r"(\w+?)(prime|star|hat|tilde|bar)", key)
        if plain and key not in self.declared_scalars and not self.ev.factor.get(key) and \
                self.kind(plain.group(1)) == "function":
            return "function"  # v'(q), f^*(x), \hat f(x) of a function f
        if key in self.declared_functions or key in self.defined:
            return "function"
        if key in self.declared_scalars:
            return "scalar"
        if key in self.ev.shorthand:  # Γ_1 := Γ_1(A): the paper's shorthand for a value at a point — its bare uses
            return "function"  # (× Γ_1) are that value, Γ_1(A) is applied, never Γ_1 times A
        if SPECTRAL.fullmatch(key):
            # λ_max(A), σ_min(X): the largest eigenvalue (smallest singular value) of a matrix, a function of it —
            # never a number times the bracket because the paper also writes 2λ_max(A) (read so, the false
            # λ_max(A + B) = λ_max(A) + λ_max(B) had been proved)
            return "function"
        ev = self.ev
        if key in STANDARD_FUNCTIONS or key in ev.maps or key in ev.multi or key in ev.atomic or key in ev.gradient:
            return "function"  # nobody writes z(0) for z·0 or η(t) for η·t, nor takes the gradient of a number
        if key in ev.prose_maps:  # "the function $g$": applied, unless the math also writes 2g, g/2, g ∈ (0, 1), g²
            conflict = ev.factor.get(key) or key in ev.number or key in ev.bare_numbers
            return None if conflict else "function"  # (then both readings, never a silent product)
        if (ev.factor.get(key, 0) >= 1 or key in ev.number) and \
                any(NAME_ARG.match(a) and not re.match(r"^\s*\\(?:in|cdot|ldots|dots)\b", a) for a in ev.args.get(key, ())):
            # S > 0, η_t = S/t beside "there exists S(g^⋆)": the paper uses the letter both ways — S(g^⋆) is S
            # applied, or S·g^⋆? Ambiguous (checked under both readings), never a silent product
            return None
        if ev.factor.get(key, 0) >= 1 or key in ev.number:  # 2η, ηL, η^2, p ∈ (0, 1): a number, even when η(1 - ηL) and η(a + b) both occur
            return "scalar"
        if len(ev.args.get(key, ())) >= 2:
            return "function"
        word = re.fullmatch(r"([A-Za-z]+)_(min|max|inf|sup)", key)
        if word and any(self.kind(f"{word.group(1)}_{w}") == "function" for w in ("min", "max") if w != word.group(2)):
            return "function"  # λ_min(·) where the paper applies λ_max(·): the same kind of map
        return None

    def bare_number(self, form: str) -> bool:
        """Whether the paper uses the written form ``form`` (``M_a``, ``r``) as a number (:attr:`Evidence.bare_numbers`)
        and never declares or defines it a function."""
        return form in self.ev.bare_numbers and form not in self.declared_functions and form not in self.defined and \
            not self.called_with_several(form)

    def called_with_several(self, name: str) -> bool:
        """Does the paper call ``name`` (or the name its evidence is kept under: ``K`` for ``K_e``) with two or more
        arguments (``K(x, z)``), or write it as a map (``K_e: \\mathcal{X} \\to …``)?  Then it is a function (issue
        26's rule), whatever power or comparison it is also written in: ``K_e(2δ)`` is the signature applied, never
        ambiguous with a product because the paper also writes ``K_e^{2}`` or ``≤ K_e``."""
        return any(k in self.ev.multi or k in self.ev.maps for k in self.evidence_keys(name))

    def weak_function(self, key: str) -> bool:
        """Is ``key`` a function only because the paper applies it to two or more different arguments — no
        declaration, definition, map, several arguments or atomic argument?  ``\\eta(\\Sigma w - …)`` and
        ``\\eta(\\lambda_1 - \\lambda_2)`` make η such a function, though a step size times a bracket is written
        the same way: a transcription (``new-paper --from-tex``) marks such a reading for review, with the product
        reading beside it.  The step checker's own verdicts do not change.  Never λ_max, σ_min (a spectral function of
        a matrix, whatever it is applied to: :meth:`kind`)."""
        if not self._known(key):
            key = next((k for k in self.evidence_keys(key)[1:] if self._known(k)), key.split("_")[0])
        ev = self.ev
        if self.kind(key) != "function" or key in self.declared_functions or key in self.defined or \
                SPECTRAL.fullmatch(key) or key in STANDARD_FUNCTIONS or key in ev.maps or key in ev.multi or key in ev.atomic or key in ev.gradient:
            return False
        plain = re.fullmatch(r"(\w+?)(prime|star|hat|tilde|bar)", key)
        return not (plain and self.kind(plain.group(1)) == "function")

    def may_vary(self, key: str) -> bool:
        """Could ``key`` depend on a differentiation variable?  Yes for a name the paper applies as a function
        (``F(t)``) or a capital letter with no evidence of being a number; a declared scalar never does."""
        if key in self.declared_scalars:
            return False
        base = key.split("_")[0]
        if base[:1].isupper():  # F, L(t), Y: a capital is often a function of time; declare constants scalar
            return True
        kind = self.kind(base)
        if kind == "scalar":
            return False
        return kind == "function" or base in self.ev.args

    def iteration(self, key: str, letter: str) -> str | None:
        """What ``key^letter`` (or ``key^{letter±c}``) is: "index" where the paper shows key to be an iterate in that
        letter (an update x^{k+1} = …x^k…, h^k = h(z^k), prose that calls it an iterate) or key is a lowercase vector
        and the letter an iteration index or shifted on it (x^k beside x^{k+1}: a vector has no powers); "either"
        where the letter is such an index and nothing says what key is (a power, or the value at iteration k?);
        None for a power (a name that is a number — 0 < δ < 1, δ ∈ (0, 1), declared scalar — a capital, whose
        shifted powers A^{k+1} = A A^k are a matrix's, or a letter that indexes no iteration)."""
        ev = self.ev
        if key in self.declared_scalars or key in ("e", "pi"):
            return None
        if (key, letter) in ev.iterates:
            return "index"
        def shifted(name: str) -> bool:  # x^k beside x^{k+1} (A^{k+1} = A A^k is a matrix's power)
            shifts = ev.sup_shifts.get((name, letter), set())
            return len(shifts) >= 2 and any(shifts) and name[:1].islower()
        if key in ev.number or key in ev.bounded and key not in ev.iteration_letters:  # r ≥ 0 bounds the count r,
            if key in ev.reals and key not in ev.bounded and not ev.factor.get(key) and shifted(key) and \
                    (letter in ev.iteration_letters or any(k == letter for _, k in ev.iterates)):
                # θ ∈ ℝ (never a bare factor: no a·a^k), but θ^k beside θ^{k+1} where x^k is an iterate: a power, or
                return "either"  # θ's k-th iterate?
            return None  # not the r of r^k
        indexes = {b for (b, k) in ev.sup_shifts if k == letter and b in ev.vector and shifted(b)}  # v^k, v^{k+1}
        if letter not in ev.iteration_letters and not shifted(key) and not indexes:
            return None
        if key in ev.vector and key[:1].islower():
            return "index"
        return "either"

    def power_base(self, key: str) -> bool:
        """Does the paper raise ``key`` to powers (γ^{t-1}, γ^{M+1}, γ^{2M}) — with no sign that its superscripts are
        iterates (an update, a vector's x^k beside x^{k+1})?  Then its capital exponent (γ^M) is a power too."""
        ev = self.ev
        return key in ev.arith_powers and key not in ev.vector and key not in self.declared_functions and \
            all(self.iteration(k, letter) is None for k, letter in list(ev.sup_shifts) if k == key)

    def nonscalar(self, key: str) -> bool:
        """Is ``key`` a vector or matrix in the paper?  A ``% theoryverify: scalar`` declaration wins over the paper's
        other uses (the author said so; the run notes the conflict once)."""
        if key in self.declared_scalars or key.endswith("sup") and key[:-3] in self.declared_scalars:
            return False
        return key in self.ev.vector or key.endswith("sup") and key[:-3] in self.ev.vector  # g^r of a vector g

    def atom(self, text: str, kind: str) -> str:
        if text in self._atom_names:
            return self._atom_names[text]
        base = re.sub(r"[^A-Za-z]", "", kind)[:6] or "atom"
        name = f"{base}{len(self.atoms) + 1}"
        self.atoms[name] = text
        self._atom_names[text] = name
        return name
