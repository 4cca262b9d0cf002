"""Token rewrites the paper grammar makes before it reads a side (pure functions of the tokens, nothing evaluated).

- plain TeX's ``\\over`` inside a group: ``{a \\over b}`` (also under ``\\sqrt{…}``, in a script) and
  ``\\left( a \\over b \\right)`` become ``\\frac{a}{b}`` — ``{\\partial f \\over \\partial x}`` is then the
  grammar's derivative; ``( a \\over b )`` is no TeX group (the bar would take the whole formula) and is left alone;
- a sum or product written with an ellipsis whose written terms determine the index —
  ``x_1 + x_2 + \\cdots + x_n``, ``a_1 \\cdot \\ldots \\cdot a_K``, ``u_0^2 + \\dots + u_{n-1}^2`` — becomes
  ``{\\sum_{ι=1}^{n} x_ι}`` (``\\prod`` for a product): the terms must be the same up to subscripts that are
  consecutive whole numbers before the ellipsis and one expression after it (an entry of a comma subscript counts:
  ``a_{i,1} b_{1,k} + ⋯ + a_{i,n} b_{n,k}``); two or more consecutive whole numbers, ``1 + 2 + ⋯ + n``, are the sum
  of the index itself.  Anything else (``x_1 + x_3 + ⋯``, ``x_1 - x_2 + ⋯``, ``1 + 2 + 4 + ⋯``, a superscript that
  varies) is left as written (the grammar keeps the
  elided terms one unknown, or refuses the row).  :func:`elided` returns, with the tokens, a note per rewrite: the
  written terms imply a lower bound on the last index, which the sum does not state, so a refutation of a step
  that reads one is no verdict (the note is the step's unread side condition).
"""
from __future__ import annotations

from ..latex import DEFINITION_OPS, GREEK, RELATIONS, REFUSED_RELATIONS, Token

ELLIPSES = frozenset({"\\cdots", "\\ldots", "\\dots", "\\dotsb", "\\dotsc", "\\dotsm"})
OPEN = frozenset({"{", "(", "[", "\\{"})
CLOSE = frozenset({"}", ")", "]", "\\}"})
#: what ends a term of a sum (and of a product, with the product's own operators)
_ENDS = frozenset({"+", "-", ",", ";", "&", "\\\\", "\\quad", "\\qquad", "\\text", "\\mid", "|", ":", "\\colon",
                   "\\in", "\\to", "\\wedge", "\\vee"}) | frozenset(RELATIONS) | frozenset(DEFINITION_OPS) | \
    frozenset(REFUSED_RELATIONS)
_PRODUCT_ENDS = _ENDS | {"\\cdot", "\\times", "/", "\\div"}
#: bound-index names for a rewritten sum, the first one the side does not write (rare letters first)
FRESH = ("\\iota", "\\varkappa", "j", "k", "l", "m", "i", "p", "q", "s", "u", "v")


def _t(kind: str, text: str, pos: int) -> Token:
    return Token(kind, text, pos)


def _closer(toks: list[Token], i: int) -> int:
    """The index of the bracket (any kind) closing the opener at ``i``; -1 if none."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text in OPEN:
            depth += 1
        elif toks[j].text in CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _opener(toks: list[Token], i: int) -> int:
    """The index of the unmatched opener before ``i``; -1 at the top level."""
    depth = 0
    for j in range(i - 1, -1, -1):
        if toks[j].text in CLOSE:
            depth += 1
        elif toks[j].text in OPEN:
            if depth == 0:
                return j
            depth -= 1
    return -1


# --- \over -----------------------------------------------------------------------------------------------------
def plain_over(toks: list[Token]) -> list[Token]:
    """Every ``\\over`` that is alone in a brace group or a ``\\left(…\\right)`` pair, as ``\\frac``."""
    k = 0
    while k < len(toks):
        if toks[k].text != "\\over":
            k += 1
            continue
        j = _opener(toks, k)
        m = _closer(toks, j) if j >= 0 else -1
        left = j > 0 and toks[j - 1].text == "\\left" and toks[j].text in ("(", "[")
        brace = j >= 0 and toks[j].text == "{"
        inner_end = m - 1 if left else m
        if m < 0 or not (brace or left) or (left and toks[m - 1].text != "\\right"):
            k += 1
            continue
        num, den = toks[j + 1:k], toks[k + 1:inner_end]
        same_level = [t for t in (*num, *den) if t.text in ("\\over", "\\choose", "\\atop")]
        if not num or not den or _unbalanced(num) or _unbalanced(den) or \
                any(_opener(toks, toks.index(t, j + 1)) == j for t in same_level):
            k += 1
            continue
        pos = toks[k].pos
        frac = [_t("cmd", "\\frac", pos), _t("sym", "{", pos), *num, _t("sym", "}", pos), _t("sym", "{", pos), *den,
                _t("sym", "}", pos)]
        if left:
            toks = [*toks[:j + 1], *frac, *toks[inner_end:]]
        elif j > 0 and (toks[j - 1].text in ("^", "_", "}") or toks[j - 1].kind == "cmd"):
            toks = [*toks[:j + 1], *frac, *toks[m:]]  # x^{1 \over 2}, \sqrt{a \over b}: the group stays
        else:
            toks = [*toks[:j], *frac, *toks[m + 1:]]  # {\partial f \over \partial x} g: a fraction, as \frac writes
        k = j
    return toks


def _unbalanced(toks: list[Token]) -> bool:
    depth = 0
    for t in toks:
        depth += (t.text in OPEN) - (t.text in CLOSE)
        if depth < 0:
            return True
    return depth != 0


# --- sums and products written with an ellipsis -------------------------------------------------------------------
def _term_back(toks: list[Token], j: int, ends) -> int:
    """The first index of the term that ends at ``j`` (inclusive): back to a top-level end or an unmatched opener."""
    depth = 0
    k = j
    while k >= 0:
        t = toks[k].text
        if t in CLOSE:
            depth += 1
        elif t in OPEN:
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and t in ends:
            break
        k -= 1
    return k + 1


def _term_forward(toks: list[Token], j: int, ends) -> int:
    """One past the last index of the term that starts at ``j``."""
    depth = 0
    k = j
    while k < len(toks):
        t = toks[k]
        if t.kind == "end":
            break
        if t.text in OPEN:
            depth += 1
        elif t.text in CLOSE:
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and t.text in ends:
            break
        k += 1
    while k > j and toks[k - 1].text == "\\right":  # x_n \right): the \right is the bracket's
        k -= 1
    return k


def _script(toks: list[Token], k: int) -> tuple[list[Token], int]:
    """The script group after the ``_`` at ``k`` (braces stripped) and the index after it."""
    if k + 1 >= len(toks):
        return [], k + 1
    if toks[k + 1].text == "{":
        m = _closer(toks, k + 1)
        if m < 0:
            return [], len(toks)
        return toks[k + 2:m], m + 1
    return [toks[k + 1]], k + 2


def _simple_forward(toks: list[Token], k: int) -> int:
    """One past a letter or Greek letter at ``k`` with its sub- and superscripts (``a_1``, ``\\lambda_k^2``); -1 if
    none starts there."""
    if k >= len(toks) or not (toks[k].kind == "letter" or toks[k].kind == "cmd" and toks[k].text[1:] in GREEK):
        return -1
    k += 1
    for _ in range(2):
        if k < len(toks) and toks[k].text in ("_", "^"):
            k = _script(toks, k)[1]
    return k


def _simple_back(toks: list[Token], j: int) -> int:
    """Where a letter with its scripts that ends at ``j`` (inclusive) starts; -1 if none ends there."""
    for k in range(j, max(-1, j - 16), -1):
        if _simple_forward(toks, k) == j + 1:
            return k
    return -1


def _whole(g: list[Token]) -> int | None:
    if len(g) == 1 and g[0].kind == "num" and g[0].text.isdigit():
        return int(g[0].text)
    return None


def _shape(first: list[Token], last: list[Token]) -> tuple[list, int, list[Token]] | None:
    """(template, the first term's index value, the last term's index tokens) where ``first`` and ``last`` are the same
    term up to subscripts that are one whole number in ``first`` and one and the same expression in ``last``; the
    template lists tokens and ``None`` where the index goes.  None where they differ otherwise."""
    template: list = []
    a = b = 0
    value, upper = None, None
    while a < len(first) and b < len(last):
        x, y = first[a], last[b]
        if x.text == "_" and y.text == "_":
            gx, a2 = _script(first, a)
            gy, b2 = _script(last, b)
            if [t.text for t in gx] == [t.text for t in gy]:
                template += first[a:a2]
            elif _commas(gx) and len(_commas(gx)) == len(_commas(gy)) and first[a + 1].text == "{":
                # a_{i,1} b_{1,k} + ⋯ + a_{i,n} b_{n,k}: the entries of a comma subscript compared one by one
                template += [x, first[a + 1]]
                for c, (cx, cy) in enumerate(zip(_commas(gx), _commas(gy))):
                    if c:
                        template.append(Token("sym", ",", x.pos))
                    if [t.text for t in cx] == [t.text for t in cy]:
                        template += cx
                        continue
                    v = _whole(cx)
                    if v is None or not cy or any(t.text in _ENDS and t.text not in ("+", "-") for t in cy) or \
                            value is not None and (v != value or [t.text for t in cy] != [t.text for t in upper]):
                        return None
                    value, upper = v, cy
                    template.append(None)
                template.append(first[a2 - 1])
            else:
                v = _whole(gx)
                if v is None or not gy or any(t.text in _ENDS and t.text not in ("+", "-") for t in gy):
                    return None
                if value is not None and (v != value or [t.text for t in gy] != [t.text for t in upper]):
                    return None
                value, upper = v, gy
                template += [x, None]
            a, b = a2, b2
            continue
        if x.text != y.text or x.kind != y.kind:
            return None
        template.append(x)
        a += 1
        b += 1
    if a != len(first) or b != len(last) or value is None:
        return None
    if _whole(upper) is not None and _whole(upper) <= value:
        return None
    return template, value, upper


def _commas(g: list[Token]) -> list[list[Token]]:
    """The entries of a script group split at its top-level commas; [] where it has none."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for t in g:
        depth += (t.text in OPEN) - (t.text in CLOSE)
        if depth == 0 and t.text == ",":
            parts.append([])
        else:
            parts[-1].append(t)
    return parts if len(parts) > 1 else []


def _matches(term: list[Token], template: list, value: int) -> bool | None:
    """Whether ``term`` is the template at index ``value`` (True), at another whole number (None: a pattern the
    reading does not follow, such as odd indices), or something else (False)."""
    k = 0
    seen: set[int] = set()
    for piece in template:
        if piece is None:
            if k > 0 and term[k - 1].text == "_":
                g, k2 = _script(term, k - 1)
            elif k < len(term) and term[k].kind == "num":  # an entry of a comma subscript (a_{i,1})
                g, k2 = [term[k]], k + 1
            else:
                g, k2 = [], k
            v = _whole(g)
            if v is None:
                return False
            seen.add(v)
            k = k2
            continue
        if k >= len(term) or term[k].text != piece.text:
            return False
        k += 1
    if k != len(term) or len(seen) != 1:
        return False if k != len(term) else None
    return True if seen == {value} else None


def elided(toks: list[Token]) -> tuple[list[Token], list[str]]:
    """``toks`` with each sum or product written with an ellipsis that its terms determine read as ``\\sum``/``\\prod``,
    and a note for each (see the module docstring)."""
    from .grammar import show_tokens
    notes: list[str] = []
    written = {t.text for t in toks}
    e = 0
    while e < len(toks):
        if toks[e].text not in ELLIPSES or e < 2 or e + 2 >= len(toks):
            e += 1
            continue
        op = toks[e - 1].text
        if op in ("+", "\\cdot", "\\times") and toks[e + 1].text == op:
            ends = _ENDS if op == "+" else _PRODUCT_ENDS
            last_start, last_end = e + 2, _term_forward(toks, e + 2, ends)
            m_start, m_end = _term_back(toks, e - 2, ends), e - 1
        elif _simple_forward(toks, e + 1) > 0 and _simple_back(toks, e - 1) >= 0:
            op, ends = "", _PRODUCT_ENDS  # a_1 a_2 \cdots a_n: factors written side by side
            last_start, last_end = e + 1, _simple_forward(toks, e + 1)
            m_start, m_end = _simple_back(toks, e - 1), e
            if toks[last_end].text in ("(", "[", "\\left", "'", "!", "\\{"):
                e += 1  # a_1 \cdots a_n(x): is a_n applied? left to the grammar
                continue
        else:
            e += 1
            continue
        fresh = next((f for f in FRESH if f not in written), None)
        last, before = toks[last_start:last_end], toks[m_start:m_end]
        counted = _counting(toks, m_start, before, last, op) if fresh else None
        if counted is not None:  # 1 + 2 + ⋯ + n: the sum of the whole numbers from 1 to n
            start, first, count = counted
            toks, e = _replace_elided(toks, start, last_end, e, "\\sum" if op == "+" else "\\prod", fresh, [None],
                                      first, count, last, notes)
            continue
        shape = _shape(before, last) if last and before and fresh else None

        def joins(k: int) -> bool | None:
            """How the term starting at ``k`` joins the one before: by the operator (True), as the first of the
            chain (False), or by another operator that would change it (None: y − x_1 + x_2 + ⋯, a / x_1 · x_2 ⋯)."""
            before = toks[k - 1].text if k > 0 else ""
            if (op == "+" and before in ("-", "\\pm", "\\mp")) or before in ("/", "\\div"):
                return None
            if op:
                return before == op
            return k > 0 and (before == "\\cdot" or _simple_back(toks, k - 1) >= 0)

        def previous(k: int) -> int:
            """Where the term before the one starting at ``k`` starts."""
            if op:
                return _term_back(toks, k - 2, ends)
            return _simple_back(toks, k - 2 if toks[k - 1].text == "\\cdot" else k - 1)

        if shape is None or joins(m_start) is None:
            e += 1  # x_1 - x_2 + ⋯: signs the reading does not follow — left to the grammar
            continue
        template, value, upper = shape
        start, first, count = m_start, value, 1
        while joins(start):  # back over x_{v-1} + x_v + ⋯: the written terms before the one next to the ellipsis
            prev = previous(start)
            if prev < 0:
                break
            ok = _matches(toks[prev:start - 1 if toks[start - 1].text in (op or "\\cdot",) else start], template,
                          first - 1)
            if ok is None or (ok and joins(prev) is None):
                shape = None  # x_1 + x_3 + ⋯ (not consecutive), y − x_1 + x_2 + ⋯ (the first one subtracted)
                break
            if not ok:
                break
            start, first, count = prev, first - 1, count + 1
        if shape is None:
            e += 1
            continue
        toks, e = _replace_elided(toks, start, last_end, e, "\\sum" if op == "+" else "\\prod", fresh, template,
                                  first, count, upper, notes)
    return toks, notes


def _replace_elided(toks, start, last_end, e, big, fresh, template, first, count, upper, notes):
    """``toks[start:last_end]`` as ``{\\sum_{ι=first}^{upper} term(ι)}`` (the template with ι where ``None`` is), a note
    of the bound the written terms imply; the new tokens and the index after them."""
    from .grammar import show_tokens
    pos = toks[e].pos
    idx = _t("cmd", fresh, pos) if fresh.startswith("\\") else _t("letter", fresh, pos)
    body: list[Token] = []
    for piece in template:
        body += [_t("sym", "{", pos), idx, _t("sym", "}", pos)] if piece is None else [piece]
    new = [_t("sym", "{", pos), _t("cmd", big, pos), _t("sym", "_", pos), _t("sym", "{", pos), idx,
           _t("sym", "=", pos), _t("num", str(first), pos), _t("sym", "}", pos), _t("sym", "^", pos),
           _t("sym", "{", pos), *upper, _t("sym", "}", pos), *body, _t("sym", "}", pos)]
    shown = show_tokens(toks[start:last_end])
    kind = "sum" if big == "\\sum" else "product"
    notes.append(f"{shown} read as a {kind} from {first} to "
                 f"{show_tokens(upper)}, which assumes {show_tokens(upper)} ≥ {first + count - 1}")
    return [*toks[:start], *new, *toks[last_end:]], start + len(new)


def _counting(toks: list[Token], m_start: int, before: list[Token], last: list[Token], op: str):
    """``1 + 2 + ⋯ + n``, ``1 \\cdot 2 \\cdots n``: two or more consecutive whole numbers written before the ellipsis
    (each joined by the operator, the first one not subtracted nor a divisor) and one expression after it — (where the
    numbers start, the first number, how many are written); else None (``1 + 2 + 4 + ⋯``, ``1 + ⋯ + n``,
    ``x - 1 + 2 + ⋯``)."""
    v = _whole(before)
    if v is None or op not in ("+", "\\cdot", "\\times") or not last or _unbalanced(last):
        return None
    upper = _whole(last)
    if upper is not None and upper <= v:
        return None
    start, first, count = m_start, v, 1
    while start >= 2 and toks[start - 1].text == op:
        prev = toks[start - 2]
        if prev.kind != "num":
            return None  # x + 2 + 3 + ⋯: a term that is no number before the counting
        if _whole([prev]) != first - 1:
            return None  # 1 + 2 + 4 + ⋯: not consecutive
        start, first, count = start - 2, first - 1, count + 1
    if count < 2:
        return None
    if start > 0 and toks[start - 1].text in ("-", "\\pm", "\\mp", "/", "\\div", "^", "_", "\\cdot", "\\times") | {op}:
        return None  # y - 1 + 2 + ⋯, a/1 · 2 ⋯, x^1 + …, x \\cdot 1 + 2: the first number is no plain term
    if start > 0 and toks[start - 1].kind in ("letter", "num"):
        return None
    return start, first, count
