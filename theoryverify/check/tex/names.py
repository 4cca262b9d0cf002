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
SCRIPT_RE = re.compile(r"\s*_\s*(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|\\[A-Za-z]+|[A-Za-z0-9])")
SUP_LABEL = re.compile(r"\s*\^\s*\{\s*\(\s*[^{}()]{1,12}\)\s*\}")
def _opens(text: str, at: int, name_start: int) -> re.Match | None:
    """A bracket opening right after a name (an application), through a ``}`` only where the name is braced
    (``{\\bm x}(t)``): in ``\\sqrt{2\\pi}\\left(…`` the bracket follows the square root, not π."""
    o = OPEN_RE.match(text, at)
    if o and o.group(0).lstrip().startswith("}") and not text[:name_start].rstrip().endswith("{"):
        return None
    return o


OPEN_RE = re.compile(r"\s*\}?\s*(?:\\left\s*|\\[bB]igg?l?\s*)?\(")
MAP_RE = re.compile(r"\s*:\s*(?:\\mathbb\s*\{?\s*R|\\mathcal|\\R\b|[A-Z])[^=]{0,40}?\\(?:to|rightarrow|mapsto)")
MEMBER_RE = re.compile(r"\s*\\in\s*(?:\\mathbb\s*\{\s*R\s*\}|\\mathbb\s*R|\\R(?![A-Za-z]))\s*\^\s*"
                       r"(?:\{\s*)?(?:[A-Za-z]|[2-9]|\\[A-Za-z])")
# p \in (0, 1), t \in [0, T], x \in \mathbb{R} (no power), \in \mathbb{R}_{+}: a real number
NUMBER_MEMBER = re.compile(r"\s*\\in\s*(?:(?:\\left\s*)?[\(\[]\s*-?(?:\d|\\infty)[^()\[\]]{0,30}?[\)\]]|"
                           r"(?:\\mathbb\s*\{\s*R\s*\}|\\mathbb\s*R|\\R(?![A-Za-z]))(?!\s*\^))")
FACTOR_NEXT = re.compile(r"\s*(?:\\[,;:! ]\s*)*(?:[A-Za-z0-9]|\\(?:cdot|times|frac|sqrt|nabla|sum|prod|" +
                         "|".join(GREEK) + r")(?![A-Za-z])|\^\s*\{?\s*[0-9])")
# one number, or one name that is a time, a point or a matrix (z(0), z(t_1), e(t), phi(x), f(\theta^*), f_1(A)): a
# function applied;
# rho(\alpha) is left to the other evidence (a coefficient times a bracket is written that way too)
ATOMIC_ARG = re.compile(r"^\s*(?:-?\d+(?:\.\d+)?|(?:[tsknxyzuvwA-Z]|\\tau|\\theta|\\vartheta|\\xi|\\omega)"
                        r"(?:\s*_\s*(?:\{[^{}]*\}|[A-Za-z0-9]))?"
                        r"(?:\s*\^\s*(?:\*|\{\s*\*\s*\}|\\star|'))?|\\cdot|\\,?\\cdot\\,?)\s*$")
LHS_CALL = re.compile(r"^\s*(?:\\[A-Za-z]+|[A-Za-z])\s*$")
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
    factor: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    vector: set[str] = field(default_factory=set)
    first: dict[str, int] = field(default_factory=dict)  # first offset at which a name occurs
    pi_name: bool = False
    e_power: bool = False  # e^{…} somewhere
    e_name: bool = False  # e_i, e(t), e' somewhere: e is a name in this paper
    e_bare_factor: bool = False  # a bare e next to a factor (e \cdot 0, 2e): e applied to (0) is then undecided
    e_parts: set[str] = field(default_factory=set)  # the names of "e = x̄ - x̲" (e is what they are)
    nabla_value: set[str] = field(default_factory=set)  # \nabla l_i \sum …: the gradient is a value, not a map
    number: set[str] = field(default_factory=set)  # p \in (0, 1), x \in \mathbb{R}: a real number
    sup_labels: set[tuple[str, str]] = field(default_factory=set)  # (V, r) of V^r := …, (f, m) of (f^m)_{m ∈ [M]}


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


def gather(texts: list[tuple[int, str]]) -> Evidence:
    """Evidence from math texts (offset, text): displays and inline math, in document order."""
    ev = Evidence()
    for off, text in texts:
        for m in [*SUP_DEFINED.finditer(text), *SUP_FAMILY.finditer(text)]:
            letter, base = m.group("sup") or m.group("sup2"), NAME_RE.match(m.group("name"))
            if "idx" not in m.groupdict() and _raised_elsewhere(text[m.end():m.end() + 200], letter, base):
                continue  # Λ^t := diag(λ_1^t, …), P^n := ⊗^n P: the definition of a power, not a label
            if base and ("idx" not in m.groupdict() or m.group("idx") == letter):
                ev.sup_labels.add((key_of(base), letter))
                if m.groupdict().get("call"):  # B_a^r(k) := …: the labelled name is a function the paper defines
                    ev.args[key_of(base) + "sup"].add(m.group("call")[1:-1].strip())
                    ev.atomic.add(key_of(base) + "sup")
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
            if key == "pi" and (d or _opens(text, end, m.start())):  # pi' or pi(a|s); pi_theta is another name
                ev.pi_name = True
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
                key = key + "_" + re.sub(r"[^A-Za-z0-9]", "", s.group(0).replace("\\text", "").replace("\\mathrm", ""))
            ev.first.setdefault(key, off + m.start())  # rho_{\min} is first written here, whatever rho was before
            index = any(a <= m.start() < b for a, b in scripts)  # C_{\epsilon}^\top, C_n(X): an index
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
            if MAP_RE.match(text, after) and not index:
                ev.maps.add(key)
            if MEMBER_RE.match(text, after) and not index:
                ev.vector.add(key)
            if NUMBER_MEMBER.match(text, after) and not index:
                ev.number.add(key)
            before = text[max(0, m.start() - 8):m.start()]
            if not index and (re.match(r"\s*/", text[after:after + 4]) or re.search(r"/\s*$", before) or
                              (re.search(r"\\sqrt\s*\{\s*$", before) and re.match(r"\s*\}", text[after:after + 4]))):
                ev.number.add(key)  # δ/(CB)², 1/δ, √δ: a bare name in arithmetic is a number (δ(…) is then δ·(…))
            if not index and re.match(r"\s*\^\s*(?:\\top|T\b|\{\s*\\top|\\intercal|\{\s*T\s*\})",
                                      text[after:after + 12]):
                ev.vector.add(key)
            if not index and re.search(r"(\\\||\\lVert|\\langle)\s*$", before) and _opens_norm(text, m.start()):
                ev.vector.add(key)
            if not index and m.group("cmd") and re.match(r"\\(mathbf|boldsymbol|bm)", m.group(0)):
                ev.vector.add(key)
            if re.search(r"\\nabla\s*$", before) and FACTOR_NEXT.match(text, after):
                ev.nabla_value.add(key)
            if FACTOR_NEXT.match(text, after) or re.search(r"([0-9A-Za-z}]|\\cdot|\\times)\s*(\\[,;:! ]\s*)*$",
                                                           before):
                ev.factor[key] += 1
                if key == "e" and not s:
                    ev.e_bare_factor = True
    return ev


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

    @property
    def euler_e(self) -> bool:
        """A bare e is Euler's number where the paper never uses e as a name (e_i, e(t), e'): in ``\\log(T/e)`` or
        ``1/e`` a theorist means the constant, whether or not the paper also writes ``e^{…}`` (``\\exp`` is
        common).  Declared ``% theoryverify: scalar e`` it is a name."""
        return not self.ev.e_name and "e" not in self.declared_scalars

    @property
    def e_both(self) -> bool:
        """The paper writes e^{…} and also uses e as a name: a bare e could be either."""
        return self.ev.e_power and self.ev.e_name and "e" not in self.declared_scalars

    def _known(self, key: str) -> bool:
        ev = self.ev
        return key in ev.args or key in ev.factor or key in ev.maps or key in self.declared_functions or \
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
        ev = self.ev
        if key in STANDARD_FUNCTIONS or key in ev.maps or key in ev.multi or key in ev.atomic:
            return "function"  # nobody writes z(0) for z·0 or η(t) for η·t
        if ev.factor.get(key, 0) >= 1 or key in ev.number:  # 2η, ηL, η^2, p ∈ (0, 1): a number, even when η(1 - ηL) and η(a + b) both occur
            return "scalar"
        if len(ev.args.get(key, ())) >= 2:
            return "function"
        word = re.fullmatch(r"([A-Za-z]+)_(min|max|inf|sup)", key)
        if word and any(self.kind(f"{word.group(1)}_{w}") == "function" for w in ("min", "max") if w != word.group(2)):
            return "function"  # λ_min(·) where the paper applies λ_max(·): the same kind of map
        return None

    def weak_function(self, key: str) -> bool:
        """Is ``key`` a function only because the paper applies it to two or more different arguments — no
        declaration, definition, map, several arguments or atomic argument?  ``\\eta(\\Sigma w - …)`` and
        ``\\eta(\\lambda_1 - \\lambda_2)`` make η such a function, though a step size times a bracket is written
        the same way: a transcription (``new-paper --from-tex``) marks such a reading for review, with the product
        reading beside it.  The step checker's own verdicts do not change."""
        if not self._known(key):
            key = next((k for k in self.evidence_keys(key)[1:] if self._known(k)), key.split("_")[0])
        ev = self.ev
        if self.kind(key) != "function" or key in self.declared_functions or key in self.defined or \
                key in STANDARD_FUNCTIONS or key in ev.maps or key in ev.multi or key in ev.atomic:
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

    def nonscalar(self, key: str) -> bool:
        return key in self.ev.vector

    def atom(self, text: str, kind: str) -> str:
        if text in self._atom_names:
            return self._atom_names[text]
        base = re.sub(r"[^A-Za-z]", "", kind)[:6] or "atom"
        name = f"{base}{len(self.atoms) + 1}"
        self.atoms[name] = text
        self._atom_names[text] = name
        return name
