"""Which verdict a step of a real paper may get: read in the authors' favour, never from a guess.

The engine decides the step as read (every name a real number unless the paper says otherwise).  Then:

- **Proved / holds** stand only for what was actually read.  If the step applies an unspecified function and was
  not proved for every function, or treats as a number a name the paper uses as a vector or matrix (or an inner
  product, transpose, norm, bold symbol), the verdict is *inconclusive* and says why: a pass on a stand-in is no
  pass.
- **Refuted** needs more.  The counterexample must not rest on something the checker keeps as an unknown (an
  opaque atom such as ``⟦\\max_x f(x)⟧``, an unspecified function, a family ``x_(i)``) nor on a side condition it
  could not read.  The step must not use names the other side lacks in both directions (a substitution from an
  earlier display, which the step may rightly rely on).  And it must fail in the authors' favour too: with every
  name positive, with every name in (0, 1) (small step sizes and probabilities) and with every name at least 1
  (counts and dimensions).  If any of these readings holds, the step is *inconclusive* and the verdict names the
  reading under which it holds.  A refutation read in one dimension says so (a counterexample with d = 1).
"""
from __future__ import annotations

import re

from dataclasses import dataclass, field

FAVOURABLE = (("positive", "every name positive", lambda ns: [f"{', '.join(ns)} > 0"]),
              ("unit", "every name in (0, 1)", lambda ns: [f"0 < {n} < 1" for n in ns]),
              ("large", "every name at least 1", lambda ns: [f"{', '.join(ns)} >= 1"]))


@dataclass
class Caveats:
    """What the reading of one step kept unknown or read in one dimension."""
    opaque: list[str] = field(default_factory=list)  # atoms (their LaTeX)
    atom_names: list[str] = field(default_factory=list)  # the names the atoms have in the read step
    functions: list[str] = field(default_factory=list)  # unspecified functions applied
    families: list[str] = field(default_factory=list)  # x_(i) families
    vector: list[str] = field(default_factory=list)  # why it is read in one dimension
    unread_conditions: list[str] = field(default_factory=list)
    #: scalings the paragraph's prose sets for a name the step writes ("let σ² ∼ 1/M"): no value, but the step may
    #: hold only under one
    prose_scalings: list[str] = field(default_factory=list)
    loose_indices: list[str] = field(default_factory=list)  # a sum's index also written outside it
    product_scope: list[str] = field(default_factory=list)  # ∏_i (…) X: does X belong to the product?
    log_scope: list[str] = field(default_factory=list)  # \ln a \int …: is the integral inside the log?
    set_in_prose: list[str] = field(default_factory=list)  # names an earlier inline equation sets ("x_s (f.tex:80)")
    #: names whose power a definition gives (ŝ² := …) still written otherwise in the step (ŝ, ŝ³): their sign is open
    power_defined: list[str] = field(default_factory=list)
    #: (name, value, where) of a name an earlier inline equation sets, written on both sides of the step
    inline_values: list[tuple[str, str, str]] = field(default_factory=list)
    vector_products: list[str] = field(default_factory=list)  # g·d, ⟨g, d⟩ with g, d the paper's vectors
    scalar_use: list[str] = field(default_factory=list)  # b², 1/b, b ≤ 1 with b a vector of the paper's
    by_definition: bool = False  # the prose says the step holds "by definition" (of something it may not read)
    #: the label set over the relation (\\stackrel{(\\ref{e})}{=}: "(\\ref{e})"), no condition: it may cite a fact the
    #: display does not state (an earlier equation, "(a) by Lemma 3"), so the step is no identity to refute
    cited_label: str = ""
    ring_identity: bool = False  # the two sides agree in every module (sums and numeric multiples of the same terms)
    lhs_names: set[str] = field(default_factory=set)
    written: tuple[frozenset, frozenset] = (frozenset(), frozenset())  # each side's names as written (unsimplified)
    rhs_names: set[str] = field(default_factory=set)

    @property
    def unknowns(self) -> list[str]:
        return [*(f"⟦{a}⟧" for a in self.opaque), *(f"{f}(…) unspecified" for f in self.functions),
                *(f"{f}(i) a family" for f in self.families)]


#: the mark of an unread entry that is a row's justification (``\\qquad \\text{($\\|x\\| = 1$)}``), not its side
#: condition: its refutation is "refuted as read, but the display's justification could not be read (…)"
JUSTIFICATION_UNREAD = "justification: "


def _loose(caveats: Caveats) -> str:
    return (f"{', '.join(caveats.loose_indices)} indexes a sum or product and is also written outside it: the "
            "operator's scope may be misread (∏_k 1 + a/k: the product of 1, or of 1 + a/k?)")


def _scope(caveats: Caveats) -> str:
    return (f"{', '.join(caveats.product_scope)}: the factors after the product's bracket are read outside the "
            "product (∏_i (a_i) X as (∏_i a_i)·X); inside it they would be raised to the number of terms")


def _log_scope(caveats: Caveats) -> str:
    return ("a log's unbracketed argument is followed by an integral (\\ln a \\int …): read as log(a)·∫, though the "
            "paper may mean log(a·∫) — the log's scope is not settled")


def positive(status: str, method: str, caveats: Caveats) -> tuple[str, str]:
    """(status, reason) of a proved/holds verdict."""
    if caveats.loose_indices:
        return "inconclusive", f"{status} as read, but " + _loose(caveats)
    if caveats.product_scope:
        return "inconclusive", f"{status} as read, but " + _scope(caveats)
    if caveats.log_scope:
        return "inconclusive", f"{status} as read, but " + _log_scope(caveats)
    if caveats.functions and status != "proved":
        return "inconclusive", (f"holds on test functions only: {', '.join(caveats.functions)} "
                                "unspecified in the paper (no proof for every function)")
    if caveats.vector and status == "proved" and caveats.ring_identity:
        return "proved", ("proved: both sides are sums of the same terms (each product, power or function applied "
                          "kept whole), so it holds for vectors, matrices and tensors alike")
    if caveats.vector:
        return "inconclusive", (f"{status} when every name is a number; the paper's "
                                f"{', '.join(sorted(set(caveats.vector)))} make it a statement about vectors or "
                                "matrices, which is not checked")
    if status == "proved" and caveats.unknowns:
        return "proved", f"proved for every value of {', '.join(caveats.unknowns)}"
    if caveats.unknowns:
        return status, f"holds for every value tried of {', '.join(caveats.unknowns)}"
    return status, ""


def refutation_blockers(caveats: Caveats, uses_defined: bool = False, op: str = "=") -> str | None:
    """Why a refutation may not stand (None: it may, subject to the authors'-favour readings)."""
    if caveats.unknowns:
        return f"false for some values of {', '.join(caveats.unknowns[:3])}, which the paper constrains " \
               "in ways the checker does not know"
    side = [u for u in caveats.unread_conditions if not u.startswith(JUSTIFICATION_UNREAD)]
    if side:
        return f"the display's side condition could not be read ({side[0]})"
    if caveats.unread_conditions:  # only a row's justification ("($\\|x\\| = 1$)") was not read
        return ("the display's justification could not be read "
                f"({caveats.unread_conditions[0][len(JUSTIFICATION_UNREAD):]})")
    if caveats.prose_scalings:
        return (f"the prose sets a scaling ({'; '.join(caveats.prose_scalings[:2])}) that the checker cannot use as a "
                "value: the step may hold only under it")
    if caveats.vector_products and op != "=":
        # an inequality between products of vectors rests on their angle (g·d = ‖g‖‖d‖cos θ), which one dimension
        # fixes at 0 or π and the paper constrains by hypotheses the checker does not read; an identity's
        # counterexample with d = 1 is an instance of it, and stands
        return (f"{', '.join(caveats.vector_products[:3])}: an inequality on a product of the paper's vectors, which "
                "one dimension does not represent (g·d = ‖g‖‖d‖cos θ): no counterexample with d = 1 stands for it")
    if caveats.scalar_use:
        return (f"{', '.join(caveats.scalar_use[:3])}: a name the paper uses as a vector or matrix (a norm, an inner "
                "product, ℝ^d elsewhere) is treated here as a number, which has no one meaning for a vector "
                "(b² as ‖b‖² or bᵀb, b ≤ c componentwise): no counterexample with d = 1 stands for it")
    if caveats.loose_indices:
        return _loose(caveats)
    if caveats.product_scope:
        return _scope(caveats)
    if caveats.log_scope:
        return _log_scope(caveats)
    if caveats.by_definition:
        return ("the prose says it holds by definition: it unfolds a definition, which may not be the one read "
                "(a definitional identity, not refuted on its own)")
    if caveats.set_in_prose:
        return (f"{', '.join(caveats.set_in_prose[:3])}: set to a value in the prose earlier (an inline equation), "
                "which this step does not read: the step may rest on it")
    if caveats.power_defined:
        return (f"{', '.join(caveats.power_defined[:3])}: a definition gives a power of the name, not the name "
                "itself (its sign is open): the step may rest on it")
    left, right = caveats.lhs_names, caveats.rhs_names
    if op == "=" and right - left:  # names may cancel on the way right, but new ones come from somewhere
        extra = sorted(right - left)[:4]
        return f"the right side introduces {', '.join(extra)}: the step uses a fact stated elsewhere " \
               "(a definition or an earlier result)"
    wl, wr = caveats.written
    variants = sorted(n for n in wl ^ wr if _decorated_variant(n, set(wr if n in wl else wl)))
    if op == "=" and variants:
        # (q̃ + r̃) − (q + r) = q + ⟨r,e⟩e + r − …: a new value (q̃) on one side only, its old one (q) on the other —
        # the step substitutes the update or definition that relates them, stated elsewhere (an algorithm, prose)
        return (f"{', '.join(variants[:3])} (a new value of a name on the other side) appear on one side only: the "
                "step substitutes the update or definition relating them, stated elsewhere")
    if left - right and right - left and not uses_defined:
        extra = sorted(right - left)[:4]
        return f"the right side introduces {', '.join(extra)} and drops {', '.join(sorted(left - right)[:4])}: " \
               "the step substitutes something stated elsewhere"
    return None


#: a decoration that makes a new value of a name (x̃, x̂, x̄, x', x⋆, x⁺)
DECORATION = re.compile(r"(tilde|hat|bar|prime|star|check|breve|plus|new)")


def _decorated_variant(name: str, others: set[str]) -> bool:
    """``name`` is a decorated variant of one of ``others`` (``qbftilde_t`` of ``qbf_t``), or the reverse."""
    def plain(n: str) -> str:
        return DECORATION.sub("", n)
    return any(o != name and plain(o) == plain(name) and (DECORATION.search(name) or DECORATION.search(o))
               for o in others)


def ring_identity(lhs, rhs) -> bool:
    """Whether ``lhs = rhs`` holds in every module, whatever its elements are (vectors, matrices, tensors) and
    whatever its products mean: sums, differences and multiples by written numbers are expanded, every other
    subexpression (a name, a product, a power, a function applied, ``tensorpow(x, 2)``, ``inner(a, b)``) is one
    unknown, the same for the same text.  ``⟨β^{⊗2}, x^{⊗2}⟩ + 0 = ⟨β^{⊗2}, x^{⊗2}⟩`` and ``a ⊗ b + c = c + a ⊗ b``
    are such identities; ``a ⊗ b = b ⊗ a``, ``x y = y x`` and ``(a·b) c = a (b c)`` (false for dot and cross
    products) are not."""
    import ast
    import sympy as sp
    atoms: dict[str, sp.Symbol] = {}

    def number(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and \
                not isinstance(node.value, bool):
            return sp.Rational(str(node.value))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = number(node.operand)
            return None if inner is None else -inner
        return None

    def conv(node) -> sp.Expr:
        value = number(node)
        if value is not None:
            return value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = conv(node.operand)
            return -inner if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, (ast.Add, ast.Sub)):
                a, b = conv(node.left), conv(node.right)
                return a + b if isinstance(node.op, ast.Add) else a - b
            left, right = number(node.left), number(node.right)
            if isinstance(node.op, ast.Mult) and (left is not None or right is not None):
                return left * conv(node.right) if left is not None else conv(node.left) * right
            if isinstance(node.op, ast.Div) and right is not None and right != 0:
                return conv(node.left) / right
        key = ast.dump(node)
        if key not in atoms:
            atoms[key] = sp.Symbol(f"A{len(atoms)}")
        return atoms[key]

    try:
        return sp.expand(conv(lhs) - conv(rhs)) == 0
    except (RecursionError, ValueError, TypeError):
        return False
