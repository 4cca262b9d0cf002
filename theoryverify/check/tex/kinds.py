"""What a displayed relation is: a derivation step, or one of the things a paper writes that is not one.

``kind`` is one of :data:`KINDS`.  Only a ``step`` is checked as an identity or inequality; the others are
reported with their kind (a definition still defines its left side for the steps after it).

- ``definition``: ``:=``, ``\\coloneqq``, ``\\triangleq``, ``\\stackrel{\\text{def}}{=}``; ``=`` after "define",
  "let", "denote", "we write", "is given by"; the first use of a name on the left of ``=``; a lone ``name = …``
  outside any proof or statement (a remark's parameter choice, a notation line); a display the prose
  then describes ("… \\] is g-convex"), or that stands under a heading with no sentence; a ``where``-clause; a
  ``definition`` environment — but never after "we have", "we obtain", "this gives" (a derived result, checked as a
  step);
- ``update``: ``t+1`` (or ``k+1``) in the index on the left (``f_{t+1}(\\cdot) = T(g_t)`` too), ``\\leftarrow``, a
  recursion ``x_t = … x_{t-1} …`` (``x_{t+2} = A(x_t)``: the same name at an earlier index on the right),
  ``x = x - γ g`` after prose that names an iteration or update;
- ``constraint``: rows of an optimisation problem (``\\min … \\text{s.t.} …``, or the rows under a
  ``\\min_{x}`` row without "s.t."; the objective's own row, ``f(x) = …``, defines the objective);
- ``hypothesis``: a side condition (``\\text{for } x \\le b``, ``\\forall``), an ``assumption`` environment, a
  theorem's "if/assume/suppose" display, ``X \\sim \\mathcal{N}(…)``; an event or condition the prose names ("the
  following two events", "only if … holds", "… \\] is satisfied");
- ``goal``: what is to be shown ("it suffices", "we want", "we set b such that"), a theorem's conclusion (its
  "Then … is given by" after a "Let"), a requirement ("we need the bracket to vanish");
- ``probabilistic``: ``\\mathbb{P}(…)``, "with probability", "w.p.", "almost surely" (before the display, or right
  after it: "… \\] with probability \\[ \\ge 1 - δ \\]"); the links of a chain that bounds the probability's value
  ("fails with probability \\[ \\le A \\le B \\]") after its first are steps between numbers; a relation labelled as
  one between laws (``X \\stackrel{d}{=} -X``, ``\\overset{\\mathcal{D}}{=}``: equal in distribution,
  :func:`in_distribution`);
- ``asymptotic``: ``\\lesssim``, ``\\gtrsim``, ``\\asymp``, ``\\ll``, ``O(·)``, ``\\Theta``, ``\\Omega``, ``o(·)``, ``\\lim``;
- ``approximation``: ``\\approx``, ``\\simeq``, ``\\propto``.
- ``set``: a relation between sets written in braces — events (``\\{τ < n\\} = \\{S_n > 0\\}``,
  ``\\left\\{ … < … \\right\\}``), set-builders, lists — never one between numbers (a name set equal to one is a
  ``definition``; ``|\\{i : …\\}|`` is a number, a step as any other);
- ``elided``: a chain's link to an ellipsis (``x_2 \\le \\cdots`` in ``x_1 \\le x_2 \\le \\cdots \\le x_n``): the terms
  it stands for are not written, so it is never checked (the visible links are classed as any other).

A left side that is computed rather than named (an integral, an expectation, ``Var β̂``, "the derivative of B … is
given by Ḃ = …") is a step even after "is given by"/"as follows"; "there exists u … such that" introduces the
witness's property (a step, or a hypothesis after "suppose" or in a proof; in a statement its conclusion, a goal,
unless the prose supposes the witness — an if-clause its comma closed supposes nothing); "define K₁ such that
∀k_i ∈ K₁ we have" gives the defining property of what it defines (a definition that gives no name a value); an
event the prose writes in inline math ("over the event $\\Omega_n$") is not the display, which stays a step (on the
event, the event an unread condition); "we must have" after a rule states a consequence (a step), "we must show" a
goal; "it is easy to show that" and "we proved" state facts;
"our goal is to minimise the function F(x) = …" defines F; ``E[g] := …`` computes an expectation (a step);
a law used as a value (``(Qθ)^2 = N(0, σ^2)^2``) is an identity in distribution (``probabilistic``).
"""
from __future__ import annotations

import re

from ..latex import GREEK
from .announce import SPECIFICATION_WHY, announced_definition, specification

#: the prose ends naming the rule the display then gives: "… of the recursion", "the iteration:", "the update rule"
NAMED_RULE_BEFORE = re.compile(r"\b(?:the|this|a|its)\s+(?:\w+\s+)?(?:recursion|iteration|update(?:\s+rule)?|"
                               r"recurrence|scheme)\s*[:,]?\s*$", re.I)
KINDS = ("step", "definition", "update", "constraint", "hypothesis", "goal", "probabilistic", "asymptotic",
         "approximation", "elided", "set")
#: a chain's side that is only an ellipsis (x_1 ≤ x_2 ≤ ⋯ ≤ x_n)
ELLIPSIS_SIDE = re.compile(r"\s*(?:\\(?:c|l|v)?dots[bcm]?|\.\.\.|\\dotsc|\\dotsb)\s*")
DEFINITION_OPS = {":=", "\\coloneqq", "\\coloneq", "\\triangleq", "\\eqqcolon", "\\defeq", "=:", "\\eqdef",
                  "\\doteq"}
APPROX_OPS = {"\\approx", "\\simeq", "\\propto", "\\cong", "\\thickapprox", "\\approxeq"}
ASYMP_OPS = {"\\lesssim", "\\gtrsim", "\\asymp", "\\ll", "\\gg", "\\lessapprox", "\\gtrapprox", "\\precsim",
             "\\succsim"}
# a script's letter is no order (f_\\omega(x), h_\\Theta(x), f_O(x): a parametrised function applied, in a Lipschitz bound)
ASYMP_RE = re.compile(r"(?<![A-Za-z\\_^])(?<!_ )(?<!\^ )(?<!\^\{[A-Z] )(?:(?:O|o|\\Theta|\\Omega)"
                      r"(?!\s*(?:\\left\s*)?\(\s*[^(),]*,)|"  # Θ(i, j): an entry of the paper's matrix Θ, not big-Θ
                      r"\\mathcal\s*\{\s*O\s*\}|\\mathcal\s*O|"
                      r"\\widetilde\s*\{?\s*O|\\tilde\s*\{?\s*O|\\tilde\s*\{?\s*\\Theta|\\tilde\s*\{?\s*\\Omega|"
                      r"\\cO|\\bigO|\\Oh|\\poly|\\polylog|\\mathrm\{poly)\s*(?:\\left|\\big|\\Big|\\bigg)?\s*[\(\[\{]|"
                      r"\\lim(?:sup|inf)?(?![A-Za-z])|\\to\s*\\infty|\\rightarrow\s*\\infty")
#: ω applied to one argument (ω(f, δ), a modulus, is no order), outside a script
OMEGA_APPLIED = re.compile(r"(?<![A-Za-z\\_^])(?<!_ )(?<!\^ )\\omega\s*(?:\\left|\\big|\\Big|\\bigg)?\s*\(\s*([^(),]*(?:\([^()]*\)[^(),]*)*)\)")
#: what an order's argument looks like: 1, a count or a growth (n, T, d, \log n, \sqrt{n}, n^2, k \log k)
GROWTH_ARG = re.compile(r"\s*(?:1|[nNTdkmK](?:\s*\^\s*\{?[^{}]{1,6}\}?)?|\\log\b.*|\\sqrt\b.*|\\log\^.*|"
                        r"[nNTdkmK]\s*\\log\b.*)\s*")


def _landau_omega(text: str) -> bool:
    """Little-ω only in an asymptotic use: ω(·) of a growth (ω(1), ω(\\log n), ω(\\sqrt{T})) or right after a relation
    (``= \\omega(…)``, ``\\ge \\omega(…)``), in a display that writes ω nowhere else — ``B(ω) = ω(τ/σ²)`` uses ω as a
    number (a weight), never Landau's symbol (it had been set aside as asymptotic)."""
    uses = list(OMEGA_APPLIED.finditer(text))
    if not uses or len(re.findall(r"\\omega(?![A-Za-z])", text)) != len(uses):
        return False
    for m in uses:
        before = text[:m.start()].rstrip()
        if GROWTH_ARG.fullmatch(m.group(1)) or not before or \
                re.search(r"(?:=|<|>|\\[lg]eq?|\\[lg]eqslant|\\in|\\subseteq)$", before):
            return True
    return False


#: the label over a relation between laws: ``\\stackrel{d}{=}``, ``\\overset{\\mathcal{D}}{=}``, ``\\overset{\\text{law}}{=}``
#: (equal in distribution), ``\\overset{d}{\\le}`` (a stochastic order) — as :func:`.reading.tokens_of` shows it (the
#: ``\\text``/``\\mathrm`` wrapper dropped); a parenthesised ``(d)`` is a citation label, never this
DISTRIBUTION_LABEL = re.compile(r"[dD]|law|\\(?:math(?:cal|scr|rm|sf)|text(?:rm)?|rm)\s*\{?\s*(?:[dDL]|law)\s*\}?")


def in_distribution(label: str) -> bool:
    """Does the label over a relation say it is one between laws (``d``, ``\\mathcal{D}``, ``law``)?"""
    return bool(label) and bool(DISTRIBUTION_LABEL.fullmatch(label.strip()))


def distribution_why(op: str, label: str) -> str:
    """The reason a relation labelled ``label`` (:func:`in_distribution`) is no step."""
    what = "equal in distribution" if op == "=" else "convergence in distribution" if op in (
        "\\to", "\\rightarrow", "\\longrightarrow", "\\xrightarrow") else "a relation between laws (a stochastic order)"
    return (f"'{op}' labelled {label}: {what} — a statement about the laws of random variables, not about their "
            "values: not a step (never checked pointwise)")


PROB_RE = re.compile(r"\\operatorname\s*\{\s*(?:P|Pr|Prob)\s*\}\s*(?:\\left|\\[bB]igg?l?)?\s*[\(\[]|"
                     r"\\mathbb\s*\{\s*P\s*\}(?:\s*_\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+))?\s*(?:\\left|\\[bB]igg?[lr]?)?\s*"
                     r"(?:[\(\[]|\\\{|\\lbrace)|\\Pr(?![A-Za-z])|\\mathbb\s*P(?![A-Za-z])|\\Prob(?![A-Za-z])|"
                     r"\\PP(?![A-Za-z])|(?<![A-Za-z\\_^{])P\s*(?:\\left|\\big|\\Big)?\s*[\(\[]")
# "(Q_i θ)^2 = (N(0, σ^2))^2": a law used as a value, an identity in distribution (not one of numbers)
LAW_VALUE = re.compile(r"\\mathcal\s*\{?\s*N\s*\}?\s*(?:_\s*\{?\s*\w+\s*\}?)?\s*(?:\\left\s*|\\[bB]igg?l?\s*)?\(\s*[^;|,()]{1,40},")
PROB_PROSE = re.compile(r"with (?:high )?probab|w\.\s?p\.|w\.h\.p|\bwhp\b|almost surely|\ba\.s\.|"
                        r"with prob\.|in probability|probability at least", re.I)
# "our goal is to minimize the function": the display after it writes out the function (a definition), not a goal
OPTIMISE_THE = (r"\b(?:minimi[sz]e|maximi[sz]e|optimi[sz]e)\s+(?:the|an?|our)\s+(?:[\w-]+\s+){0,2}"
                r"(?:function|objective|loss|risk|functional|cost)\b")
# "A simple instance of $\hat L_p$ is", "one simple suggestion is": the display gives one choice of the object (defines it)
INSTANCE_IS = (r"\b(?:a|an|one)\s+(?:[\w-]+\s+){0,2}(?:instance|example|choice|suggestion|instantiation|special case)\b"
               r"[^.]{0,80}\b(?:is|are)\s*:?\s*$")
# "For an input x, the network outputs": the display gives the model's function (defines it)
MODEL_OUTPUTS = (r"\b(?:network|model|predictor|layer|classifier|regressor|learner|neuron|architecture)s?\b[^.]{0,40}"
                 r"\b(?:outputs|computes|returns|predicts)\b")
DEF_PROSE = re.compile(r"(?:\bdefine[sd]?\b|\bdefining\b|\blet\b|\bdenote[sd]?\b|\bdenoting\b|\bwe write\b|"
                       # "We call the quantity", "which we call", "is called", "we refer to … as": naming
                       r"\b(?:we|which we) call\b|\b(?:is|are) called\b|\bwe refer to\b|"
                       r"\bis given by\b|\bare given by\b|\bdefined (?:as|by)\b|\b(?:computed|chosen|taken) as\b|"
                       r"\bparametri[sz]ation\b|\b(?:has|takes|is of) the (?:\w+ )?form\b|\bthe following (?:[\w-]+ ){0,3}"
                       r"(?:distance|metric|norm|function|loss|objective|estimator|quantity|map|kernel|divergence|"
                       r"operator|risk)\b|\bwe use\b|\bintroduce\b|"
                       r"\bwe set\b|\bset\b|\bsetting\b|\bchoosing\b|\bnotation\b|\bwhere\b|\bwith\b|\bconsider\b|\bis written\b|"
                       r"\bas follows\b|\bis the\b|\bbe the\b|\bbe\b|\bchoices? (?:for|of)\b|" + INSTANCE_IS + "|" +
                       MODEL_OUTPUTS + "|" +
                       OPTIMISE_THE +
                       r")[^.]{0,200}$", re.I)
# ("we must have" is no goal cue: "Then, again from the selection rule, we must have" derives a consequence)
GOAL_CUE = re.compile(r"(?:suffices?|we want|we need|(?:have|need|want) to solve|to be solved|solve the following|need to show|(?<!easy )(?<!simple )(?<!hard )to show|"
                      r"(?<!can )(?<!easy to )(?<!simple to )(?<!hard to )show that|we will (?:show|prove)|"
                      r"we prove(?!d)|our goal|we aim|it remains|we require|we choose|choose|such that|in order for|"
                      r"we must(?!\s+have\b)|must (?:satisfy|hold)|we claim|claim that|we seek|we would like|want to|"
                      r"equivalent to (?:prove|proving|show|showing))", re.I)
GOAL_PROSE = re.compile(GOAL_CUE.pattern + r"[^.]{0,200}$", re.I)
#: "We want to show …, and to that end we evaluate the constant:": after the aim, the sentence turns to a computation
#: (the display is a step, checked; not the goal)
COMPUTE_CUE = re.compile(r"\b(?:to (?:that|this) end,?\s+)?(?:we|let us|let's)\s+(?:now\s+|first\s+|then\s+)?"
                         r"(?:evaluate|compute|calculate)\b|"
                         # "…, and thereto consider the limit:", "to that end, we consider": the means, a computation
                         r"\b(?:thereto|therefor|to (?:that|this) end),?\s+(?:we\s+)?(?:consider|evaluate|compute|"
                         r"calculate|bound|estimate|look at)\b", re.I)
CONCLUSION_CUE = re.compile(r"\b(?:then|we (?:have|get|obtain)|(?:the following|it) holds?|it follows|the following|"
                            r"(?:bounded|estimated|written|expressed) as follows)\b", re.I)
# "…, the expected value of running π' then π can be bounded as follows:": a statement's conclusion after a
# hypothesis clause ("such that each element is selected with probability at most p")
CONCLUSION_AS_FOLLOWS = re.compile(r"\b(?:can|may) be (?:bounded|estimated|written|expressed) as follows\W*$|"
                                   r"\bsuch that\b[^.]{0,200}\bwe (?:get|obtain|have)\W*$", re.I)
# "From this we estimate f(n) as follows": a derivation starts (not a definition)
DERIVATION_AS_FOLLOWS = re.compile(r"\b(?:estimate|bound|derive|compute|calculate|expand|simplify)\w*\b[^.]{0,120}"
                                   r"\bas follows\W*$", re.I)
# "By definition, …", "by the definition of $f$, we have": the display unfolds a definition (a definitional identity)
BY_DEFINITION = re.compile(r"\b(?:by|from|using|recalling|recall)\s+(?:the\s+|our\s+|its\s+)?definitions?\b|"
                           r"\bdefinitionally\b|\bby construction\b", re.I)
HEADED_ASSUMPTION = re.compile(r"\\(?:textbf|textit|emph|textsc|paragraph\*?)\s*\{\s*(?:Assumption|Condition|Hypothesis)\b")
#: a sentence that opens by supposing ("Suppose that …", "Now assume …", "Let us assume …") and draws nothing before
#: the display (no "then", "hence", "so" in it): with SUPPOSED_THEN after the display, the display is supposed
SUPPOSED_DISPLAY = re.compile(r"^\W*(?:\\(?:begin|label)\s*\{[^{}]*\}(?:\s*\[[^\]]*\])?\W*)*"  # a statement's opening
                              r"(?:(?:now|next|first|finally),?\s+)?(?:suppose|assume|let us (?:suppose|assume)|"
                              r"we (?:now |further )?(?:suppose|assume))\b(?![^.]*\b(?:then|hence|thus|therefore|so|"
                              r"consequently|implies|gives?|yields?)\b)", re.I)
SUPPOSED_THEN = re.compile(r"^[\s.,;:]*then\b", re.I)
#: a sentence that names a property and gives its meaning in the display after "if" (referee 33: read a hypothesis)
NAMING_IF = re.compile(r"(?:\b(?:we say|is said to|are said to|is called|are called|we call|is termed|is named)\b|"
                       # "a matrix $C$ is its subspace preserving matrix … if": an indefinite object, what it is called
                       r"\b(?:a|an)\s+(?:[\w-]+\s+){0,3}\$[^$]{1,80}\$\s+is\s+(?:a|an|its|the)\s)"
                       r"[^.]{0,200}\b(?:if|only if|when|whenever)\s*,?\s*(?:for (?:all|every|any|each)\s+"
                       r"\$[^$]{1,80}\$\s*)?[:,]?\s*$", re.I)
HYP_CUE = re.compile(r"\b(?:assum\w*|suppose|if|given(?!\s+by\b)|provided|whenever|let)\b", re.I)  # "is given by": a value
NAME_LIKE = re.compile(r"^\s*(?:\\(?:Delta|delta|nabla|partial)\s*)?(?:\\[A-Za-z]+\s*\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z]+|[A-Za-z])"
                       r"(?:\s*[_^]\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9*]+))*\s*$")
HYP_PROSE = re.compile(r"(?:\bassum|\bsuppose|\bif\b|\bgiven\b(?!\s+by\b)|\bsatisf|\bunder\b|\bprovided\b|\bwhenever\b|"
                       r"\bcondition|\bfor all\b|\bfor any\b|\bfor every\b|\blet\b)[^.]{0,200}$", re.I)
# a statement's sentence that is only a prepositional condition ("Under stationarity and for $w \le w_0$,"): the display
# after it is the main clause, what holds under the condition; not when a verb of supposing or a clause of its own is
# in it ("Under …, assume that", "…, if", "… such that", "the following", "where")
UNDER_PREAMBLE = re.compile(r"^\W*(?:\\(?:begin|label)\s*\{[^{}]*\}(?:\s*\[[^\]]*\])?\W*)*under\b[^.]{0,250}[,:]\s*$",
                            re.I)  # the statement's "\begin{lemma}[Title] \label{…}" before it
UNDER_NOT_ALONE = re.compile(r"\bassum|\bsuppose|\bif\b|\bgiven\b|\bsatisf|\bprovided\b|\bwhenever\b|\blet\b|"
                             r"\bsuch that\b|\bthe following\b|\bwhere\b|\bthat\W*$", re.I)
# a statement's sentence that only quantifies ("For all $w$,", "for every $t \ge 0$:"): no hypothesis cue besides it
QUANTIFIER_ONLY = re.compile(r"\s*for (?:all|any|every)\b", re.I)
OTHER_HYP_CUE = re.compile(r"\bassum|\bsuppose|\bif\b|\bgiven\b(?!\s+by\b)|\bsatisf|\bunder\b|\bprovided\b|"
                           r"\bwhenever\b|\bcondition|\blet\b|\bsuch that\b|\bwith\b", re.I)
RESTATED = re.compile(r"(?:from (?:our|the) assumption|by assumption|we assume|assume that|suppose that|let us assume|"
                      r"assume the following|consider the following (?:[\w-]+ ){0,4}(?:conditions?|assumptions?)\b|"
                      r"(?:following|these) (?:two |three )?conditions? hold|"
                      r"under the (?:condition|assumption)(?!s? (?:of|in) (?:lemma|theorem|proposition|corollary|section|"
                      r"\\c?ref|eq))|"
                      r"is assumed|are assumed)", re.I)
# definition cues that are never part of a goal's wording ("define X …, such that XY = …, and let")
#: a name with a superscript, and perhaps a subscript (``\\Delta_v^{k}``, ``S_t^\\ell``): the left side of "we define:"
SCRIPTED_NAME = re.compile(r"^\s*(?:\\[A-Za-z]+|[A-Za-z])(?:\s*_\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+))?\s*\^\s*(?:\{[^{}]*\}|"
                           r"\\?[A-Za-z0-9]+)(?:\s*_\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+))?\s*$")
#: "…, and consider λ-perturbed policies": the display gives the objects considered
CONSIDER = re.compile(r"\b(?:and\s+)?(?:we\s+|let\s+us\s+)?consider\b", re.I)
STRONG_DEF = re.compile(r"\b(?:define[sd]?|let|denote[sd]?|denoting|we write|notation)\b", re.I)
CHOICE = re.compile(r"^(?:we )?choose$", re.I)
# "our goal is to solve the following bi-level problem:": the display sets up a problem (a definition)
PROBLEM_PROSE = re.compile(r"\b(?:problems?|program|optimi[sz]ation)\b", re.I)
OPTIMUM = re.compile(r"\\(?:min|max|argmin|argmax|arg\s*\\?(?:min|max)|inf|sup|mathrm\s*\{\s*arg)(?![A-Za-z])|"
                     # \argmin declared by \DeclareMathOperator*{\argmin}{arg\,min}, expanded by the reader
                     r"\\operatorname\s*\*?\s*\{\s*arg\s*(?:\\[,;:! ]\s*)?(?:min|max)\s*\}")
#: "convex and L-smooth, meaning that its gradient is Lipschitz continuous:": the display spells out a property
PROPERTY_MEANS = re.compile(r"\b(?:[\w-]*smooth(?:ness)?|lipschitz|[\w-]*convex(?:ity)?|concave|bounded|monotone|"
                            r"continuous|(?:sub)?gaussian|coercive)\b[^.]{0,80}\b(?:meaning that|which means that|"
                            r"in the sense that|that is(?: to say)?|i\.e\.)[^.$]{0,80}:?\s*$", re.I)
#: "The continuous-time limit is the ODE", "follows the dynamics": the display is the model equation studied
MODEL_EQUATION = re.compile(r"\b(?:is|are|be|by|follows?|satisf(?:y|ies)|solves?)\s+(?:the|an?|following)\s+"
                            r"(?:[\w-]+\s+){0,3}(?:ODEs?|SDEs?|PDEs?|differential equations?|dynamics|gradient flow)"
                            r"\s*:?\s*$|"
                            # "In the linear model the rewards are linear in the context, given by:", "the observations
                            # are generated as follows:": the display is the model assumed (Y = Xᵀθ⋆ + η), not a step
                            r"\b(?:in\s+(?:the|a|our|this)\s+(?:[\w-]+\s+){0,2}models?|the\s+(?:[\w-]+\s+){0,2}model\s+"
                            r"(?:is|assumes|posits)|(?:rewards?|observations?|responses?|outcomes?|labels?|data|samples?)"
                            r"\s+(?:are|is)\s+(?:generated|linear|modell?ed|drawn|assumed))\b[^.]{0,120}?"
                            r"(?:given|generated|defined|described)\s+(?:by|as)\s*:?\s*$", re.I)
#: "penalties of the form", "the estimator takes the form", "the solution is sought in the form": the display is the
#: shape of a model or object the paper introduces (a definition), not a step — unless the sentence derives it ("we
#: obtain a bound of the form", "then it takes the form"), or rewrites something ("can be written in the form")
FORM_MODEL = re.compile(r"\b(?:(?:is|are)\s+(?:given|sought|chosen|assumed|taken)\s+in|of|ha(?:s|ve)|takes?|taking)\s+the\s+"
                        r"(?:[\w-]+\s+)?form\s*[:,]?\s*$", re.I)
#: "defined as the value of $\lambda$ that solves", "we define the value according to", "an equation in x": the
#: display is an equation the paper solves for its unknown (or defines a name by), never an identity to check
EQUATION_TO_SOLVE = re.compile(r"\b(?:the\s+)?values?\s+of\s+[^.]{1,60}?\b(?:that|which)\s+solves?\W*$|"
                               r"\bsolutions?\s+(?:of|to)\s+(?:the\s+)?(?:following\s+)?(?:[\w-]+\s+){0,2}equations?\W*$|"
                               r"\bdefine[sd]?\b[^.]{0,120}\baccording\s+to\W*$|"
                               # "schemes that solve the scalar equation (1) given by:", "approaches to solve the linear
                               # system … given by:", "x satisfies the equation": the display is the equation solved
                               r"(?<!have to )(?<!need to )(?<!want to )"  # "we have to solve …": a goal (GOAL_CUE)
                               r"\b(?:solv(?:e|es|ing)|satisf(?:y|ies|ying))\s+(?:the|an?|this|our|their|its)\s+"
                               r"(?:[\w-]+\s+){0,3}(?:equations?|(?:linear\s+)?systems?(?:\s+of\s+equations)?)\b"
                               r"(?:\s*(?:\\eqref\s*\{[^{}]*\}|\(\s*\d+\s*\)|\$[^$]{0,40}\$))?"
                               r"\s*(?:,?\s*(?:given|defined|written)\s+(?:by|as)|as\s+follows|below)?\W*$", re.I)
#: "r is a root of its characteristic polynomial", "the eigenvalues solve", "x satisfies": with a side that is 0, the
#: display is the equation the unknown solves (``det(rI − B) = r² − rs + c = 0``: its ``= 0`` link), not an identity
ROOT_OF = re.compile(r"(?:\b(?:is|are|be|being)\s+(?:a\s+|the\s+|one\s+of\s+the\s+)?(?:roots?|zeros?|solutions?)\s+of|"
                     r"\bcharacteristic\s+(?:polynomial|equation)|\bsolv(?:e|es|ing)\b|\bsatisf(?:y|ies|ying)\b)"
                     r"[^.;:,]{0,80}?\W*$", re.I)
#: "at the saddle point we have stationarity", "setting the derivative to zero", "the first-order condition gives":
#: a display's "… = 0" is the condition the point satisfies (an equation to solve), not an identity
STATIONARY = re.compile(r"\b(?:stationar(?:y|ity)\b|saddle[- ]?points?\b|first[- ]order\s+(?:optimality\s+)?conditions?\b|"
                        r"optimality\s+conditions?\b|critical\s+points?\b|extrem(?:um|a|ali[sz]\w*)\b|"
                        r"(?:setting|set|equating|equate)\s+(?:the|its|their|this|each|both)?\s*(?:[\w-]+\s+){0,3}"
                        r"(?:derivatives?|gradients?|variations?)\b[^.;]{0,60}\b(?:to\s+)?(?:zero|0)\b|"
                        r"(?:derivatives?|gradients?)\b[^.;]{0,60}\b(?:vanish(?:es)?|to\s+zero|equals?\s+zero|(?:is|are)\s+zero)\b)"
                        r"[^.]{0,120}$", re.I)
#: "… which we solve numerically", "which can be solved by bisection": the display was an equation to solve
SOLVED_AFTER = re.compile(r"^\W*(?:which|that)\s+(?:we|one|is|can\s+be|must\s+be|has\s+to\s+be)\s+"
                          r"(?:\w+ly\s+|then\s+|now\s+)?solv", re.I)
# "The objective function for logistic regression is:": the display names the object
OBJECT_IS = re.compile(r"\b(?:objective|loss|risk|estimator|model|update rule|function|functional|kernel|policy|"
                       r"distribution|density|map|layer|convolution|network)\b[^.]{0,120}\b(?:is|are)\s*:?\s*$", re.I)
# "we have", "we obtain", "this gives": what follows is derived, not defined (when it comes after the last
# definition cue of the sentence: "Setting u(x) = x, where w is …, we have")
DERIVED_PROSE = re.compile(r"\b(?:we (?:(?:similarly|likewise|also|then|now|again|thus|clearly|immediately|finally)\s+)?"
                           r"(?:have(?! to\b)|obtain|get|find|see|arrive at|deduce|conclude)|(?:one|it) (?:has|gets|obtains)|"
                           r"gives?(?! rise)|giving(?! rise)|assigning|substituting|plugging|inserting|yields?|leads? to|results? in|implies|implying|it follows|follows that|"
                           r"becomes?|reduces? to|simplif(?:y|ies) to|can be (?:\w+ly\s+)?(?:re)?written as(?:\s+follows)?|"
                           r"rewrite|(?:is|are|can be) (?:\w+ly\s+)?expressed as(?:\s+follows)?|"
                           r"is equal to|equals|thus|hence|therefore|consequently|so that|which means|that is|"
                           r"i\.e\.|namely|provides?(?: us)? with|(?:we )?(?:can )?conclude|(?:we|one) can show|then)"
                           r"(?:\b|(?<=[.·]))", re.I)
DEF_CUE = re.compile(r"\b(?:define[sd]?|defining|let|denote[sd]?|denoting|we write|is given by|are given by|"
                     r"choices? (?:for|of)|"
                     r"defined (?:as|by)|we use|introduce|we set|set|setting|choosing|notation|where|with|consider|"
                     r"is written|"
                     r"as follows|is the|be the|be)\b|" + OPTIMISE_THE + "|" + MODEL_OUTPUTS, re.I)
#: "…, using the fact that \[ … \]": the display is the reason a step cites, not a step
REASON_BEFORE = re.compile(r"\b(?:using|use|by|from|recall(?:ing)?|note)\s+(?:the\s+)?(?:fact|identity|equality|relation)s?"
                           r"\s+that\s*[:,]?\s*$", re.I)  # (not "holds because": a chain that proves it follows)
#: the words that make "x² = …" a definition of the power (not "as follows", "is the": τ̂² = … "which we obtain as
#: follows" is computed)
POWER_DEF_CUE = re.compile(r"\b(?:define[sd]?|defining|let|denote[sd]?|denoting|we write|notation|set|setting)\b[^.]{0,200}$",
                           re.I)
#: "…, where the error terms $ξ_n$ and $ψ_n$ are given by": a where-clause that gives the names (their powers too)
WHERE_GIVEN_BY = re.compile(r"\bwhere\b[^.]{0,160}\b(?:is|are)\s+(?:given|defined)\s+(?:by|as)\W*$", re.I)
#: "The map T obeys \[ |T(x) − T(y)| ≤ L|x − y| \], where L is its Lipschitz constant": a property stated of an
#: object (with the constant it names), not a derivation step
PROPERTY_OBEYED = re.compile(r"\bobeys\W*$", re.I)
AFTER_NAMES_CONSTANT = re.compile(r"^\W{0,3}where\b[^.]{0,80}\b(?:is|denotes)\b[^.]{0,60}\bconstant\b", re.I)
#: "Let m(w) be …, namely \[ … \]": "namely", "i.e.", "that is" after a "let"/"define" restate what is defined
RESTATING = re.compile(r"\bnamely\b|\bi\.e\.|\bi·e·|\bthat is\b", re.I)
# an event or a condition the prose names ("the following two events", "only if … holds"): not a step
EVENT_PROSE = re.compile(r"\b(?:events?|only if|only when|if and only if|whenever)\b", re.I)
# "The constraint on b … can be equivalently expressed as": the display restates a condition
CONDITION_SUBJECT = re.compile(r"^\W*(?:the|this|these|our)\s+(?:[\w-]+\s+)?(?:constraints?|conditions?)\b", re.I)
# "Applying Hoeffding's bound to the two events, …": a derivation that talks about events
DERIVATION_START = re.compile(r"^\W*(?:applying|using|by|from|plugging|substituting|combining|taking|since|as)\b", re.I)
# the prose right after the display: "… \] is satisfied" (a condition), "… \] is g-convex" (the display names an object)
AFTER_CONDITION = re.compile(r"^\W{0,3}(?:is|are) (?:satisfied|met|violated|fulfilled)\b", re.I)
AFTER_DESCRIBES = re.compile(r"^\W{0,3}(?:which we call\b|(?:is|are) (?:called|known as|referred to|(?:a|an|the) \w+|"
                             r"[\w-]*convex|concave|smooth|lipschitz|continuous|differentiable|monotone))", re.I)
LHS_HEAD = re.compile(r"^\s*(?:\\(?:mathbf|boldsymbol|bm|hat|widehat|tilde|widetilde|bar|overline|mathcal)\s*\{?\s*)?"
                      r"(\\(?:" + "|".join(GREEK) + r")|[A-Za-z])(?![A-Za-z])")
HEADING_RE = re.compile(r"\\(?:sub)*(?:section|paragraph)\s*\*?\s*\{[^{}]*\}\W*$|^\W*$")
NUMBER = re.compile(r"^\s*-?\d+(?:\.\d+)?\s*$")
INDEX_NAME = re.compile(r"^\s*[ijklmnst]\s*$")
RANGE_TERM = re.compile(r"^\s*-?(?:\d+(?:\.\d+)?|[A-Za-z]|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]*\}?)?\s*$")
STATEMENT_ENVS = {"theorem", "lemma", "proposition", "corollary", "claim", "fact", "conjecture", "observation",
                  "problem"}
HYPOTHESIS_ENVS = {"assumption", "condition", "hypothesis", "setting"}
DISTRIBUTION_RE = re.compile(r"^\s*(?:\\mathcal\s*\{?\s*[NUDPWBG]|\\text|\\mathrm|\\operatorname|N\b|Unif|Ber|Bern|"
                             r"Bin|Poi|Exp|Lap|Rad|\\mathsf|Wishart|Gamma|\\Gamma\s*\(|Beta|Dir|\\chi|\\operatorname)")
CONSTRAINT_RE = re.compile(r"\\(?:text|mathrm|textrm|mbox)\s*\{\s*(?:s\.\s*t\.|subject to|st\.?)\s*\}|\\st\b|"
                           r"\\subjectto|\{\s*\\(?:rm|textrm|mathrm)\s+(?:s\.\s*t\.|subject(?:\s|\\[;,:! ]|~)*to)\s*\}", re.I)


ENV_PREFIXES = (("restatable", "theorem"), ("thm", "theorem"), ("theo", "theorem"), ("lem", "lemma"),
                ("prop", "proposition"), ("cor", "corollary"), ("clm", "claim"), ("assum", "assumption"),
                ("asm", "assumption"), ("asp", "assumption"), ("hyp", "hypothesis"), ("cond", "condition"),
                ("defn", "definition"), ("dfn", "definition"), ("def", "definition"))


def env_kind(name: str) -> str:
    """The standard name of a theorem-like environment: ``thm``, ``lem``, ``restatable`` (thmtools), ``assump`` …
    are the paper's own names for theorem, lemma, theorem, assumption."""
    low = name.lower().rstrip("*")
    if low in STATEMENT_ENVS or low in HYPOTHESIS_ENVS or low in ("definition", "proof", "remark", "example"):
        return low
    return next((kind for prefix, kind in ENV_PREFIXES if low.startswith(prefix)), low)


def last_sentence(prose: str) -> str:
    """The prose since the last full stop before a display (``e.g.``/``i.e.`` are not full stops)."""
    prose = re.sub(r"\\(?:textit|textbf|emph|textsc|textrm|text|mathrm)\s*\{([^{}$]*)\}", r"\1", prose)  # \emph{distance}
    p = re.sub(r"\b(e\.g|i\.e|cf|resp|w\.r\.t|w\.p|a\.s|et al)\.", lambda m: m.group(0).replace(".", "·"), prose)
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z\\])", p)
    return parts[-1] if parts else p


def _last(pattern: re.Pattern, text: str) -> int:
    ends = [m.end() for m in pattern.finditer(text)]
    return ends[-1] if ends else -1


CALL_WRITTEN = re.compile(r"^\s*(?:\\[A-Za-z]+|[A-Za-z])(?:\s*[_^]\s*\{?\\?[A-Za-z0-9]+\}?){0,2}\s*\(\s*(?:\\[A-Za-z]+|[A-Za-z])"
                          r"(?:\s*(?:,|\||\\mid|\\vert)\s*(?:\\[A-Za-z]+|[A-Za-z]))*\s*\)\s*$")
# v(q), d^2_R(X, A), π_λ^a(b | s) (a policy's law of b given s)
# "Now we can define the cumulative distribution functions." + display: the sentence that ends before it defines
DEF_SENTENCE = re.compile(r"\b(?:define|denote)\b[^.]{0,200}\.\s*$", re.I)
INDEX_RANGE = re.compile(r"[^,]{1,20},\s*(?:[^,]{1,20},\s*){0,4}\\(?:l|c)?dots\b")
# "there exists a u between … such that": the display is the witness's property (not a goal)
EXISTS_SUCH_THAT = re.compile(r"(?:\\exists|there (?:exists?|is|are)\b)[^.]{0,300}\bsuch that"
                              r"(?:\W*⟨display⟩\W*(?:and|or|as well as))*\W*$", re.I)
# "… and there exists one such f̂ satisfying", "there is a constant C with": in a statement, what the witness
# satisfies is the statement's (existential) conclusion, unless the sentence supposes it
EXISTS_CONCLUSION = re.compile(r"(?:\\exists|there (?:exists?|is|are)\b)[^.]{0,300}\b(?:such that|satisfying|"
                               r"satisf(?:y|ies)|with|for which|so that)\W*$", re.I)
#: "We can define a subset $K_1$ such that $\forall k_i \in K_1$ we have": the display is the defining property of the
#: objects the sentence defines (chosen, not derived) — only quantifiers, inline math and "we have" after "such that"
DEFINE_SUCH_THAT = re.compile(r"\b(?:define[sd]?|defining|construct|extract)\b[^.]{0,200}?\bsuch that\b"
                              r"(?P<rest>[^.]{0,200})$", re.I)
DEFINE_SUCH_THAT_REST = re.compile(r"(?:\s|[,:;]|\bfor (?:all|every|each|any)\b|\bwe have\b|\bit holds\b|\bholds?\b|"
                                   r"\band\b|\bor\b|\bas well as\b|⟨display⟩|\$[^$]*\$)*", re.I)
#: the reason of a defining property: its "=" names no value of its left side (``i(k_i) = \hat i`` for the chosen
#: k_i is no definition of the function i; run.py defines nothing from it)
DEFINING_PROPERTY_WHY = "the defining property of the objects the prose defines ('define … such that'), not a step"
#: "\min_{x_i, x_j} h(x_i, x_j) = f(…) + …": the row names the objective h; its left side (the minimum) gets no value
OBJECTIVE_UNDER_MIN_WHY = ("the objective row of an optimisation problem: it names the objective (the minimum on its "
                           "left is not its value)")
#: reasons of a definition whose "=" gives its left side no value (run.py defines nothing from it)
#: "We say x is a fixed point if \[ x = T(x) \]": the display defines the property, it gives x no value
NAMING_IF_WHY = "the prose defines a property by it ('We say … if', '… is called … if')"
NO_VALUE_WHYS = (DEFINING_PROPERTY_WHY, OBJECTIVE_UNDER_MIN_WHY, NAMING_IF_WHY)
SUPPOSING = re.compile(r"\b(?:if|assume|assuming|suppose|supposing|provided|let|given|whenever)\b", re.I)
#: the conditional cues whose clause a comma closes ("if $n \ge n_0$, there exists", "given $\epsilon > 0$, there
#: is": the main clause follows)
CONDITIONAL = ("if", "provided", "whenever", "given")
#: a comma-separated piece that only quantifies ("for every $Q$"), or nothing
QUANTIFIER_PIECE = re.compile(r"\s*(?:for\s+(?:all|every|any|each|some)\b.*)?\s*", re.I | re.S)
#: a piece that runs on past its comma ("… convex and", "… such that"): no clause closed there
RUN_ON_PIECE = re.compile(r".*\b(?:and|or|that|then)\s*", re.I | re.S)


def _supposes_witness(before: str) -> bool:
    """Whether the words ``before`` a statement's "there exists" suppose the witness ("Suppose that there exists",
    "if there exists", "If, for every $Q$, there is", "if $F$, $G$ satisfy that there are") rather than state it as
    the conclusion after a closed condition ("For every $Q$, if $n \\ge n_0$, there exists": the if-clause ends at
    its comma, and "there exists" opens the main clause).  Commas inside inline math, or between two of them (a list
    "$F$, $G$"), are no clause break."""
    masked = re.sub(r"⟨m⟩(?:\s*,\s*(?:and\s+)?⟨m⟩)+", "⟨m⟩", re.sub(r"\$[^$]*\$", "⟨m⟩", before))
    cues = list(SUPPOSING.finditer(masked))
    if not cues:
        return False
    cue = cues[-1]
    if cue.group(0).lower() not in CONDITIONAL:
        return True  # "suppose", "assume", "let": the rest of the sentence is supposed
    pieces = masked[cue.end():].split(",")
    opens_main = len(pieces) > 1 and QUANTIFIER_PIECE.fullmatch(pieces[-1])  # ", there exists", ", for all Q there"
    closed = any(piece.strip() and not QUANTIFIER_PIECE.fullmatch(piece) and not RUN_ON_PIECE.fullmatch(piece)
                 for piece in pieces[:-1])
    return not (opens_main and closed)
# "We want both terms below ε/2. For the second term, this yields  n ≥ …": the display is the condition the aim
# puts on a name (a requirement), not a consequence
AIM = re.compile(r"\b(?:we|one)\s+(?:can\s+|may\s+|will\s+|would\s+)?(?:want|seek|wish|need|require|aim)\b[^.]{0,200}"
                 r"\b(?:smaller|less|below|larger|greater|above|at most|at least|bounded by)\b", re.I)
AIM_YIELDS = re.compile(r"^\W*(?:for [^,.]{1,60},\s*)?(?:this|which|that|it)\s+(?:yields|gives|requires|means|"
                        r"amounts to|leads to)\W*$", re.I)
SUPPOSED = re.compile(r"(?:^|[.!?]\s+)(?:suppose|assume)\b[^.]{0,300}\.\s+[^.]*$", re.I)
# "The variance of the estimator is given by": an operator's value is computed, not defined
OPERATOR_LHS = re.compile(r"^\s*(?:\\(?:operatorname|mathrm|text|textrm|rm)\s*\{?\s*(?:Var|Cov|Corr|E)\b|\\Var\b|\\Cov\b|"
                          r"\\mathbb\s*\{?\s*(?:E|V)\b|\\E\b|(?:Var|Cov)\s*[\[(])")
DERIVATIVE_LHS = re.compile(r"^\s*(?:\\dot\b|\\dot\s*\{|\\frac\s*\{\s*(?:d|\\partial)|\\partial|\\nabla)")
DERIVATIVE_PROSE = re.compile(r"\b(?:(?:derivatives?|gradients?)\s+(?:of|with respect)\b|differentiat\w*)", re.I)
# "The iteration then is: x = x - γ g": the name on the left, updated in place
UPDATE_PROSE = re.compile(r"\b(?:iterations?|iterates?|updates?|updated|update rule|steps?|recursion|recurrence)\b"
                          r"[^.]{0,120}$", re.I)


def _self_update(lhs_text: str, rhs_text: str) -> bool:
    """``x = x - γ g``: the right side starts with the left side's text and adds or subtracts a term."""
    lhs = "".join(lhs_text.split())
    rhs = "".join(rhs_text.split())
    return bool(lhs) and rhs.startswith(lhs) and rhs[len(lhs):len(lhs) + 1] in ("+", "-")


# "x(t+1)": a name (or indexed name) whose one argument is a letter plus one
TIME_STEP_LHS = re.compile(r"^(?P<name>(?:\\[A-Za-z]+|[A-Za-z])(?:_(?:\{[^{}]*\}|\\?[A-Za-z0-9]))?)"
                           r"(?:\\left|\\[bB]igg?l?)?\((?P<t>[A-Za-z])\+1(?:\\right|\\[bB]igg?r?)?\)$")
# "The regularised algorithm gives", "the update for β changes to", "by updating the weights according to": the
# display is the algorithm's rule, even after a word ("gives", "thus") that usually announces a derived result
ALGORITHM_GIVES = re.compile(r"\b(?:algorithms?|update rules?)\b|\b(?:has|have|with|its|the following) updates\b|"
                             r"\bupdat(?:e|es|ing)\b[^.]{0,80}\b(?:changes? to|according to|as follows|is|are|reads?|"
                             r"becomes?|by)\W*$", re.I)
STRONG_DERIVED = re.compile(r"\bwe (?:have|obtain|get|find|arrive at|deduce|conclude)\b|\b(?:plugging|substituting|"
                            r"inserting|rewrite|rewriting|rewritten)\b", re.I)


def time_step(lhs_text: str, rhs_text: str) -> bool:
    """``β(t+1) = (1 - ηλ(t))β(t) - …``, ``W(t+1) = W(t) - …``: the left side is a name at the argument ``t+1`` and the
    right side writes the same name at ``t`` (the time-argument form of ``x_{t+1} = … x_t …``)."""
    def squeeze(text: str) -> str:  # spaces out, but a command keeps the one that ends it (\cdot W)
        return re.sub(r"\s+", "", re.sub(r"(\\[A-Za-z]+)\s+(?=[A-Za-z])", r"\1~", text))
    m = TIME_STEP_LHS.match(squeeze(lhs_text))
    if not m:
        return False
    name, t = m.group("name"), m.group("t")
    rhs = squeeze(rhs_text)
    pat = re.compile(re.escape(name) + r"(?:\\left|\\[bB]igg?l?)?\(" + t + r"(?:\\right|\\[bB]igg?r?)?\)")
    for hit in pat.finditer(rhs):
        before = rhs[:hit.start()]
        command = re.search(r"\\[A-Za-z]*$", before)  # the W of \bW(t) is no W
        if name[0] != "\\" and command:
            continue
        if name[0] == "\\" or not re.search(r"_$", before):
            return True
    return False


# "With probability $1-\delta$,", "Then, with high probability, we have": the display follows the clause that fixes
# the event (the sentence holds nothing else after it)
EVENT_FIXED = re.compile(r"(?:^|[,;:]\s*|\b(?:then|thus|hence|so|now|therefore)\s*,?\s*)(?:with (?:high )?probability"
                         r"(?: at least)?(?:\s*\$[^$]{1,40}\$)?|w\.\s?h\.\s?p\.?|whp)\s*[,:]?\s*(?:we (?:have|get|obtain)"
                         r"(?: that)?)?\s*[,:]?\s*$", re.I)
EVENT_WHY = "on the event the prose fixes ('with probability …'): a step there"
#: "On the event $\Omega_n$, \[ … \]": the display is a step on the event the prose names (in inline math)
ON_EVENT = re.compile(r"\b(?:on|under|in|within|restricted\s+to|condition(?:ed|ally)\s+on)\s+(?:the\s+|this\s+)?events?$",
                      re.I)
NAMED_EVENT_WHY = "on the event the prose names ('on the event $…$'): a step there"
#: "… fails with probability \[ \le \binom{N}{k} p \le (eN/k)^k p \]": the sentence runs into the display as the
#: probability's value (no math between the words and the display), so the display's chain bounds that number
PROB_VALUE_BEFORE = re.compile(r"\b(?:with|of)\s+(?:a\s+)?probability(?:\s+(?:of|at\s+(?:least|most)|bounded\s+by|"
                               r"no\s+(?:more|less)\s+than|(?:greater|larger|smaller|less)\s+than))?\s*:?\s*$", re.I)
PROB_VALUE_WHY = ("a link between numbers in the chain that bounds the probability the prose names ('fails with "
                  "probability \\le A \\le B'): a step")
#: "\] with probability \[ \ge 1 - δ \]", "\] holds with high probability", "\], which holds almost surely": the
#: prose right after the display states it with probability (the display is an event, not a derivation step)
AFTER_PROB = re.compile(r"^\W{0,3}(?:(?:which|that|and\s+this|this)\s+)?(?:(?:holds?|is\s+true|are\s+true|is\s+satisfied|"
                        r"are\s+satisfied|occurs?)\s+)?(?:simultaneously\s+)?(?:with\s+(?:high\s+|overwhelming\s+)?"
                        r"probab|w\.\s?p\.|w\.\s?h\.\s?p|whp\b|almost\s+surely|a\.\s?s\.)", re.I)


#: "letting σ denote the i-th permutation with probability $q_i$", "each index is chosen with probability $p$": the
#: words describe how a random object is drawn (a verb of drawing, then "with probability" and a bare value) — no
#: bound that holds with some probability ("with probability at least $1-δ$" is not matched)
DRAWN_WITH_PROB = re.compile(r"\b(?:chosen|drawn|selected|sampled|picked|denot(?:e|es|ed|ing)|assigned|included|kept|"
                             r"retained|removed|deleted|flipped|generated|permuted)\b[^.;$]{0,80}(?:\$[^$]{0,40}\$"
                             r"[^.;$]{0,40}){0,2}\bwith\s+probability\s*\$(?![^$]*\\[lg]e)[^$<>]{1,30}\$(?!\s*(?:or|and)\b)", re.I)


def drawn_probability(sentence: str, match: re.Match) -> bool:
    """Does the ``PROB_PROSE`` match ``match`` in ``sentence`` only describe how a random object is drawn ("is chosen
    with probability $q_i$")?  Then the display after it states no bound that holds with some probability."""
    return any(d.start() < match.start() < d.end() for d in DRAWN_WITH_PROB.finditer(sentence))


#: "…, we have functions \[ g_1(y) = …, g_2(y) = … \]", "consider the functions", "define the following functions:":
#: the sentence runs into the display, which introduces (defines) the functions on the left — even in a later proof
#: that redefines a name an earlier one used
FUNCTIONS_INTRO = re.compile(r"\b(?:we\s+(?:have|get|obtain|define|introduce|use|consider)|consider|define|introduce)\s+"
                             r"(?:the\s+|two\s+|new\s+)?(?:following\s+)?(?:[\w-]+\s+){0,2}functions?\s*"
                             r"(?:\$[^$]{1,40}\$\s*(?:(?:,|and)\s*\$[^$]{1,40}\$\s*)*)?[:,]?\s*$", re.I)
#: the left side a function of a name applied to its arguments (``g_{1}(\boldsymbol y_1)``)
APPLIED_NAME_LHS = re.compile(r"^\s*(?:\\[A-Za-z]+\s*\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z])(?:\s*[_^]\s*(?:\{[^{}]*\}|"
                              r"\\?[A-Za-z0-9]+))*\s*(?:\\left)?\((?:[^()]|\([^()]*\))*(?:\\right)?\)\s*$")


# "we need the quantity in the brackets to go to zero, this gives: [...] = 0": the display is the requirement
REQUIREMENT = re.compile(r"\b(?:we|one) (?:need|needs|require|requires|want)\b[^.]{0,120}?"
                         r"(\bto (?:go to|tend to|converge|vanish|be (?:zero|equal|non-?negative|positive|negative|"
                         r"bounded|at (?:most|least))|equal|become)\b)[^.]{0,160}\.?\s*$", re.I)
RESTATES = re.compile(r"[,;]?\s*\b(?:this|which|that)\s+(?:provides|gives|yields|means|reads)\W*$", re.I)


# "we take a degree d polynomial $P$ so that …", "let $P$ be a polynomial": the paper's P(…) is no probability
P_NOT_PROBABILITY = re.compile(r"\b(?:polynomials?|functions?|maps?|operators?|kernels?|projections?|permutations?)"
                               r"\s*\$\s*P\s*\$|\$\s*P\s*\$\s*(?:be|is|denotes?)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,3}"
                               r"(?:polynomial|function|map|operator|kernel|projection|permutation)s?\b", re.I)


def p_is_not_probability(text: str) -> bool:
    """Whether the paper says in words that its letter P is a polynomial, a function, a map … (then ``P(…)`` is that
    object applied, not a probability)."""
    return bool(P_NOT_PROBABILITY.search(text))


def _outside_braces(text: str) -> str:
    """``text`` without its ``{…}`` groups: the ``\\in`` of ``\\sum_{i \\in A}`` is a range of summation, not where
    the display's left side lies."""
    out, depth = [], 0
    for i, c in enumerate(text):
        if c == "{" and (i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif c == "}" and (i == 0 or text[i - 1] != "\\") and depth:
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


# "… < ε if the following holds:": the display after it is the condition the statement's conclusion needs
IF_FOLLOWING = re.compile(r"\b(?:if|provided(?: that)?|whenever|when)\s+the following (?:condition )?holds?\W*$", re.I)
# "Q = … \in G": the display names Q and says where it lies
NAMED_MEMBER = re.compile(r"\\in\s*(?:\\mathcal|\\mathbb|\\mathrm|[A-Z])[^=<>]{0,40}$")
#: ``i(k) = i^\\star \\quad \\forall k \\in K_1``, ``… \\text{for all } k \\in K``: the display holds on a set its
#: quantifier names (the ``\\in`` is the quantifier's, not the left side's)
QUANTIFIED_MEMBER = re.compile(r"(?:\\forall|\\text\s*\{\s*(?:for|as)\s+(?:all|every|any|each)\b[^{}]*\}|"
                               r"\\quad\s*(?:\\text\s*\{\s*)?(?:for\s+)?(?:all|every|any|each)\b)"
                               r"[^=<>]{0,40}?\\in(?!\s*(?:\\mathbb|\\R(?![A-Za-z])|\\N(?![A-Za-z])))\s*[^=<>]{1,40}$")
#: (a whole number line — ``f(x) = x^2 \\quad \\forall x \\in \\mathbb{R}`` — is the function's domain: defined there)
# "…, assuming X, the update improves the objective by:": the display is the statement's conclusion
CONCLUSION_AFTER_CLAUSE = re.compile(r",\s*(?:the|this|our|then|we|it|each|every)\b[^,]{10,200}(?::|\bby|\bas follows|"
                                     r"\bis|\bare|\bsatisf(?:y|ies))\s*:?\s*$|"
                                     # "If 0 < η ≤ 1, one step satisfies": the main clause after the condition
                                     r",\s*(?:one|a|an|any|all|both|its|their)\s[^,]{1,120}\bsatisf(?:y|ies)\s*:?\s*$|"
                                     # "If 0 < η ≤ 1/L, one step of GD decreases the loss by": the main clause's
                                     # verb of change (or bound) and its "by" — the display is the amount, concluded
                                     r",\s*(?:one|a|an|any|all|both|its|their)\s[^,]{1,120}\b(?:decreas|increas|reduc|"
                                     r"improv|lower|rais|shrink|grow|contract|(?:is|are|remains?|stays?)\s+bounded)\w*"
                                     r"(?:\s+[\w$\\{}^_]+){0,4}?\s+(?:by|as follows)\s*:?\s*$",
                                     re.I)
SET_BUILDER = re.compile(r"\s*(?:\\left\s*)?(?:\\\{|\\lbrace)[^:|]*?(?::|\\mid|\|)(?!=)")


EVENT_OPEN = re.compile(r"\s*(?:\\left\s*|\\[bB]igg?l?\s*)?(?:\\\{|\\lbrace(?![A-Za-z]))")
EVENT_COMPARISON = re.compile(r"(?<!\\)[<>=]|\\(?:le|leq|ge|geq|ne|neq|leqslant|geqslant|lt|gt)(?![A-Za-z])")


def braced_set(text: str) -> str | None:
    """What set ``text`` writes as one braced whole side: ``"event"`` for ``\\{τ < n\\}`` (``\\left\\{ … \\right\\}``
    alike: a comparison at the braces' own top level, no ``:``/``\\mid``/``,`` there), ``"set"`` for a set-builder
    ``\\{x : …\\}`` or a list ``\\{a, b\\}``; None for anything else (``|\\{i : …\\}|`` is a number)."""
    m = EVENT_OPEN.match(text)
    if not m:
        return None
    depth, i, n, body_start = 1, m.end(), len(text), m.end()
    while i < n:
        if text.startswith("\\{", i) or text.startswith("\\lbrace", i):
            depth += 1
        elif text.startswith("\\}", i) or text.startswith("\\rbrace", i):
            depth -= 1
            if depth == 0:
                end = i
                rest = text[i + 2 if text.startswith("\\}", i) else i + 7:]
                break
        i += 1
    else:
        return None
    if re.sub(r"\\[,;:!]|\\quad|\\qquad|[.,;]", "", rest).strip():
        return None
    body = re.sub(r"\\(?:right|[bB]igg?r?)\s*$", "", text[body_start:end])
    top, d = [], 0
    for k, c in enumerate(body):  # the body outside its own brackets
        if c in "([{" and (k == 0 or body[k - 1] != "\\"):
            d += 1
        elif c in ")]}" and (k == 0 or body[k - 1] != "\\"):
            d -= 1
        top.append(c if d == 0 else " ")
    top = "".join(top)
    if re.search(r"(?<!\\)[:,|]|\\(?:colon|mid)(?![A-Za-z])", top):
        return "set"
    return "event" if EVENT_COMPARISON.search(top) else None


def set_difference(text: str) -> str | None:
    """``"set"`` where ``text`` writes a set difference ``A \\setminus B`` at its top level (outside brackets and
    outside bars: ``|A \\setminus B|`` is a number, a cardinality), else None."""
    text = re.sub(r"\\(?:left|right|[bB]igg?[lr]?)(?![A-Za-z])", "", text)
    depth, bars, i = 0, 0, 0
    while i < len(text):
        if text.startswith("\\setminus", i) and depth == 0 and bars % 2 == 0:
            return "set"
        c = text[i]
        if text.startswith("\\{", i) or text.startswith("\\|", i):
            depth += 1 if text[i + 1] == "{" else 0
            bars += text[i + 1] == "|"
            i += 2
            continue
        if text.startswith("\\}", i):
            depth -= 1
            i += 2
            continue
        if c == "\\":
            m = re.compile(r"\\[A-Za-z]+").match(text, i)
            i = m.end() if m else i + 2
            continue
        depth += (c in "([{") - (c in ")]}")
        bars += c == "|"
        i += 1
    return None


BRACE_LABEL = re.compile(r"\\(underbrace|overbrace)\s*\{")


def without_brace_labels(text: str) -> str:
    """``text`` without the labels of its ``\\underbrace{…}_{label}`` / ``\\overbrace{…}^{label}``: a label names the
    braced expression (``_{N(\\ldots)}``, ``_{o(1)}``), it is no law, probability or order of the display."""
    out, last = [], 0
    for m in BRACE_LABEL.finditer(text):
        if m.start() < last:
            continue
        depth, j = 0, m.end() - 1
        while j < len(text):
            depth += (text[j] == "{" and text[j - 1] != "\\") - (text[j] == "}" and text[j - 1] != "\\")
            j += 1
            if depth == 0:
                break
        script = re.compile(r"\s*" + ("_" if m.group(1) == "underbrace" else r"\^") + r"\s*").match(text, j)
        if depth or not script:
            continue
        k = script.end()
        if k < len(text) and text[k] == "{":
            depth = 0
            while k < len(text):
                depth += (text[k] == "{" and text[k - 1] != "\\") - (text[k] == "}" and text[k - 1] != "\\")
                k += 1
                if depth == 0:
                    break
        else:
            k = re.compile(r"\\[A-Za-z]+|.").match(text, k).end() if k < len(text) else k
        out.append(text[last:j])
        last = k
    out.append(text[last:])
    return "".join(out)


#: the argument of a kernel P(s'|s, a): names (primed, indexed) on both sides of one bar, no relation, no event
KERNEL_ARGS = re.compile(r"\s*\\?[A-Za-z][\w'{}^\\ ]*\s*(?:\\mid|\||\\vert)\s*\\?[A-Za-z][\w'{}^\\ ]*"
                         r"(?:\s*,\s*\\?[A-Za-z][\w'{}^\\ ]*)*\s*")  # P(s'|s, a), P(\rstate'|\rstate, \pure)
#: a side that is a probability itself (P(E) ≤ δ, ℙ(A | B) = …): a probability statement, whatever its factors
PROB_SIDE = re.compile(r"^\s*(?:-\s*)?(?:\\left\s*|\\[bB]igg?l?\s*)?[(\[]?\s*(?:P\b|P\s*[_^(\[]|\\Pr\b|\\mathbb\s*\{?\s*P|"
                       r"\\operatorname\s*\{\s*(?:P|Pr|Prob)\b|\\(?:PP|Prob|prob|pr|PR|probability)\b)")  # \prob: a paper's own P


def _kernel_factor(text: str, m: re.Match, lhs_text: str, rhs_text: str) -> bool:
    """A bare ``P(s'|s,a)`` (a transition kernel, a conditional law of named states) written as a factor of a side
    that is not itself a probability: a number in an identity or a bound (∑_{s'} w(s') P(s'|s,a) x_{s'}), not a
    statement that holds with some probability."""
    if not m.group(0).startswith("P") or PROB_SIDE.match(lhs_text) or PROB_SIDE.match(rhs_text):
        return False
    depth, i = 1, m.end()
    while i < len(text) and depth:
        depth += (text[i] in "([") - (text[i] in ")]")
        i += 1
    if depth:
        return False
    inner = text[m.end():i - 1]
    return bool(KERNEL_ARGS.fullmatch(inner)) and not re.search(r"[<>=]|\\(?:[lg]eq?|in|neq)(?![A-Za-z])", inner)


def _shorthand(lhs_text: str, rhs_text: str) -> bool:
    """``\\Gamma_1 = \\Gamma_1(\\hat A)`` (either way round): one side a name, the other that name applied to a
    bracket and nothing more."""
    left, right = (t.strip().rstrip(".,;").strip() for t in (lhs_text, rhs_text))
    for name, applied in ((left, right), (right, left)):
        if name and NAME_LIKE.fullmatch(name) and applied.startswith(name) and \
                re.fullmatch(r"\s*(?:\\left\s*)?\((?:[^()]|\([^()]*\))*(?:\\right\s*)?\)", applied[len(name):]):
            return True
    return False


#: a problem's first row: ``\min_{x,θ}``, ``\max_{…}``, ``\operatorname*{minimize}_{…}`` (with its variables), after
#: alignment and spacing
PROBLEM_HEAD = re.compile(r"^(?:\s|&|\\(?:quad|qquad|[,;:! ]))*(?:\\(?:min|max|argmin|argmax|minimize|maximize)|"
                          r"\\(?:operatorname\*?|mathop|text|mathrm)\s*\{\s*(?:\\rm\s*)?(?:arg\s*)?(?:min|max)\w*\s*\})"
                          r"(?![A-Za-z])\s*(?:\\limits\s*)?_\s*(\{(?:[^{}]|\{[^{}]*\})*\}|\\?[A-Za-z])")
ROW_LEADING_RELATION = re.compile(r"^(?:\s|&|\\(?:quad|qquad|[,;:! ]))*(?:=|<|>|\\(?:le|ge|leq|geq|leqslant|geqslant|"
                                  r"ne|neq|approx|sim)(?![A-Za-z]))")


def _squeeze(text: str) -> str:
    return re.sub(r"\s+|\\(?:left|right|[bB]igg?[lr]?)(?![A-Za-z])|\\[,;:! ]|\\q?quad\b", "", text)


def _top_rows(body: str) -> list[str]:
    """The rows of a display body, split at ``\\\\`` outside braces and nested environments."""
    out, depth, env, start, i = [], 0, 0, 0, 0
    while i < len(body):
        if body.startswith("\\begin", i):
            env += 1
        elif body.startswith("\\end", i):
            env -= 1
        if body.startswith("\\\\", i) and depth == 0 and env <= 0:
            out.append(body[start:i])
            i += 2
            start = i
            continue
        if body[i] == "\\":
            i += 2
            continue
        depth += (body[i] == "{") - (body[i] == "}")
        i += 1
    out.append(body[start:])
    return [r for r in out if r.strip()]


def problem_row(display_text: str, lhs_text: str, rhs_text: str) -> str:
    r"""Where a link lies in an optimisation problem written row by row (``\min_{x_i, x_j} h(x_i, x_j) = … \\
    x_i + x_j = c \\ l \le x_i``): "objective" in the first row (it starts with ``\min_{vars}`` / ``\max_{vars}``),
    "row" in a later row that writes one of the problem's variables and starts no relation of its own (a row that
    opens with a relation continues a derivation, ``\min_x f &= … \\ &= …``; a row that opens with another min/max
    is another statement); "" when the display is no such problem or the link is in neither."""
    rows = _top_rows(display_text)
    head = PROBLEM_HEAD.match(rows[0]) if len(rows) > 1 else None
    if head is None:
        return ""
    if any(ROW_LEADING_RELATION.match(r) or PROBLEM_HEAD.match(r) for r in rows[1:]):
        return ""
    lhs, rhs = _squeeze(lhs_text), _squeeze(rhs_text)
    first = _squeeze(rows[0])
    if lhs and lhs in first and rhs in first:
        return "objective"
    variables = {v for v in re.findall(r"\\[A-Za-z]+|[A-Za-z]", head.group(1)) if v not in ("\\in", "\\mathbb")}
    for r in rows[1:]:
        if lhs in _squeeze(r) and rhs in _squeeze(r) and any(
                re.search(re.escape(v) + r"(?![A-Za-z])", r) for v in variables):
            return "row"
    return ""


def classify(op: str, lhs_text: str, rhs_text: str, **how) -> tuple[str, str]:
    """:func:`_classify`, except that a link to an ellipsis (``ν_2 ≥ ⋯`` and ``⋯ ≥ ν_n`` in ``ν_1 ≥ ν_2 ≥ ⋯ ≥ ν_n``)
    stands for terms that are not written: ``elided``, never checked — or a hypothesis where the prose makes the
    display one ("Let the eigenvalues be ordered").  An ellipsis inside a side (``|f(x_1, …, x_n)| ≤ L``) is no
    ordering: that link is classed as any other (it had been a hypothesis whenever the display held another ≤)."""
    kind, why = _classify(op, lhs_text, rhs_text, **how)
    sets = [braced_set(lhs_text) or set_difference(lhs_text), braced_set(rhs_text) or set_difference(rhs_text)]
    if kind == "step" and op in ("=", "<", ">", "<=", ">=") and any(sets):
        # {τ < n} = {S_n > 0}, {x : x ≥ 0} = {y : y ≥ 0}: sets (of outcomes), whose relation is no identity of
        # numbers (what the prose makes of it otherwise — a goal, a hypothesis — stands)
        if op == "=" and how.get("first_in_chain") and not sets[0]:
            # A = {τ < n}, T(x, δ) = {τ : Δ(τ) ≤ c}: the left side named (defined) as a set, not a number
            what = "an event {… < …}" if sets[1] == "event" else "a set {…}" if braced_set(rhs_text) else \
                "a set difference (\\setminus)"
            return "definition", f"the left side set equal to {what} is defined as that set, not a number"
        what = "events (sets {… < …})" if "event" in sets else "sets ({… : …}, {a, b})" if \
            braced_set(lhs_text) or braced_set(rhs_text) else "sets (a set difference \\setminus)"
        return "set", f"a relation between {what}, not between numbers: not a step"
    if op in ("<", ">", "<=", ">=", "=") and kind != "hypothesis" and \
            (ELLIPSIS_SIDE.fullmatch(lhs_text) or ELLIPSIS_SIDE.fullmatch(rhs_text)):
        return "elided", "a link to an ellipsis (ν_2 ≥ ⋯ ≥ ν_n): the terms it stands for are not written, nothing to check"
    return kind, why


def _classify(op: str, lhs_text: str, rhs_text: str, *, first_in_chain: bool, role: str, display_text: str,
              prose: str, scope: tuple, lhs_index_plus_one: bool, recursion: bool, lhs_is_name: bool,
              lhs_first_use: bool, after: str = "", lhs_opaque: bool = False,
              lone_name: bool = False, p_not_probability: bool = False, lhs_power: bool = False, lead: str = ""
              ) -> tuple[str, str]:
    """(kind, why) for one link ``lhs op rhs`` (``after``: the prose right after the display; ``lhs_opaque``: the
    left side is an integral, a sum, an expectation, a gradient … kept as written, not a name; ``lone_name``: the
    link is its chain's only relation and its left side a plain or indexed name, ``n`` or ``n_0``, not ``f(x)``;
    ``lead``: the longer prose before the display, for the cues checked against the display's own text;
    ``p_not_probability``: the paper calls its P a polynomial or a function, so a bare ``P(…)`` is no probability)."""
    link_text = without_brace_labels(f"{lhs_text} {rhs_text}")
    sentence = last_sentence(prose)
    derived_at = _last(DERIVED_PROSE, sentence)
    strong_at = _last(STRONG_DEF, sentence)
    # "Let m(w) be a mixture of the two, namely": the display restates what "let" defines
    restating = derived_at >= 0 and strong_at >= 0 and _last(DERIVED_PROSE, RESTATING.sub(" ", sentence)) < strong_at
    derived = derived_at >= 0 and derived_at >= _last(DEF_CUE, sentence) and not restating  # "… where w is …, we have": a result
    if DERIVATION_AS_FOLLOWS.search(sentence) and _last(STRONG_DEF, sentence) < 0:
        derived = True  # "we estimate f(n) as follows": a derivation, whatever "as follows" usually announces
    envs = [env_kind(name) for name, _ in scope]
    inner = envs[-1] if envs else ""
    if role == "equivalence":
        return "equivalence", "a side of a chain of equivalent conditions (⟺): the chain is one statement, not a step"
    if role == "implication":
        return "implication", "a side of a chain of implications (⟹): the chain is one statement, not a step"
    if op == "=:":
        return "definition", "'=:' defines the right side"
    if op == "=" and _shorthand(lhs_text, rhs_text):
        # Γ_1 = Γ_1(Â): the paper writes a name as its value at a point (the variable it now depends on) — notation
        return "definition", "the name is written as its value at a point (X = X(a)): notation, not a step"
    if op in DEFINITION_OPS and OPERATOR_LHS.match(lhs_text) and not NAME_LIKE.match(rhs_text) and \
            _last(STRONG_DEF, sentence) < 0:
        # "this gradient is unbiased: E[g] := a a^T E[Q(x)] + a b = … = g": the expectation of a name the paper
        # has defined is computed, whatever the sign says
        return "step", f"'{op}' on an expectation or variance: a value computed, not a name defined"
    if op in DEFINITION_OPS:
        return "definition", f"'{op}' defines the left side"
    if PROPERTY_MEANS.search(sentence):
        # "f is convex and L-smooth, meaning that its gradient is Lipschitz: ‖∇f(u) − ∇f(w)‖ ≤ L‖u − w‖ ∀u, w"
        return "hypothesis", "the prose spells out a property it assumes (what '…-smooth' means): not a step"
    if SUPPOSED_DISPLAY.search(sentence) and SUPPOSED_THEN.match(after or ""):
        # "Suppose that for all $x$ we have \[ g(x) \le 2x^2 \]. Then $g(1) \le 2$": what the sentence supposes,
        # the "Then" after it draws the consequence — a hypothesis, even after "we have" (referee 33: read as a goal)
        return "hypothesis", "the sentence supposes it ('Suppose …'), and the prose after it draws the consequence ('Then …')"
    if MODEL_EQUATION.search(sentence):
        # "The continuous-time limit is the ODE  Ẍ + (3/t)Ẋ + ∇f(X) = 0": the equation the paper studies
        return "definition", "the prose introduces the equation as the model studied (an ODE, dynamics, a data model): not a step"
    if op == "=" and first_in_chain and not derived and inner not in STATEMENT_ENVS and FORM_MODEL.search(sentence):
        return "definition", "the prose introduces the display as the form of a model or object ('of the form'): not a step"
    if op == "=" and (EQUATION_TO_SOLVE.search(sentence) or SOLVED_AFTER.match(after or "")):
        # "λ is the value that solves λ = a + γλ²", "… reduces to λ = …, which we solve numerically"
        return "definition", "the prose presents an equation to solve (or a definition by one): not a step"
    if op == "=" and "0" in (lhs_text.strip().rstrip(".,;").strip(), rhs_text.strip().rstrip(".,;").strip()) and \
            ROOT_OF.search(sentence):
        # "r is a root of its characteristic polynomial det(rI − B) = r² − rs + c = 0": the equation r solves
        return "definition", "the prose presents an equation its unknown solves (a root, a characteristic equation): not a step"
    if op == "=" and "0" in (lhs_text.strip().rstrip(".,;").strip(), rhs_text.strip().rstrip(".,;").strip()) and \
            STATIONARY.search(sentence) and re.search(r"[A-Za-z]", re.sub(r"\\[A-Za-z]+", "", lhs_text + rhs_text)):
        # "at the saddle point we have stationarity, ∂I/∂a = −b + 1/(2a) = 0": the condition that fixes the point
        # (the link that computes the derivative stays a step)
        return "constraint", ("the stationarity (saddle-point, first-order) condition the prose states: an equation "
                              "the point solves, not an identity")
    if op in ("\\leftarrow", "\\gets"):
        return "update", "an assignment (\\leftarrow)"
    if op in APPROX_OPS:
        return "approximation", f"'{op}' is an approximation"
    if op in ASYMP_OPS:
        return "asymptotic", f"'{op}' hides constants"
    if op == "\\sim":
        if DISTRIBUTION_RE.match(rhs_text):
            return "hypothesis", "a random variable's law (X ~ …)"
        return "asymptotic", "'\\sim' (asymptotically equal)"
    if op in ("\\ne", "\\neq"):
        return "hypothesis", "'≠' states a condition"
    if op == "=" and re.fullmatch(r"\s*[a-zA-Z]\s*", lhs_text) and INDEX_RANGE.match(rhs_text):
        return "hypothesis", "the range of an index (i = 1, …, n)"
    if op == "=" and first_in_chain and NAME_LIKE.match(lhs_text) and SET_BUILDER.match(rhs_text):
        return "definition", "a name set equal to a set-builder {… : …} defines the set"
    if role != "constraint" and first_in_chain and op == "=" and lhs_is_name and OPTIMUM.match(rhs_text.lstrip()):
        return "definition", "the left side is defined as the value of an optimisation problem (min/max … s.t. …)"
    where_in_problem = problem_row(display_text, lhs_text, rhs_text)
    if where_in_problem == "objective" and first_in_chain and op == "=" and \
            (lhs_is_name or CALL_WRITTEN.match(lhs_text) or PROBLEM_HEAD.match(lhs_text)):
        # "\min_{x,θ} f(x, θ) = Σ(x_i(Qx)_i − θ)² \\ s.t. …": the objective's row names the objective (it had been
        # called a constraint, or checked as a step)
        if PROBLEM_HEAD.match(lhs_text):  # \min_{x} h(x) = …: it names h, the min is no value of the right side
            return "definition", OBJECTIVE_UNDER_MIN_WHY
        return "definition", "the objective row of an optimisation problem: it names (defines) the objective"
    if role == "constraint" or CONSTRAINT_RE.search(display_text):
        return "constraint", "a row of an optimisation problem (s.t.)"
    if where_in_problem == "row":
        # "\min_{x_i, x_j} h(x_i, x_j) \\ x_i + x_j = c^k \\ l ≤ x_i": the rows under the min are its constraints,
        # written without "s.t."
        return "constraint", "a row of an optimisation problem (under its min/max row, without 's.t.')"
    if role == "where":
        return "definition", "a 'where' clause defines its left side"
    if role == "condition":
        return "hypothesis", "a side condition of the display"
    if ASYMP_RE.search(link_text) or _landau_omega(link_text):
        return "asymptotic", "O(·)/Θ/Ω/o or a limit"
    if any(not (p_not_probability and m.group(0).startswith("P")) and not _kernel_factor(link_text, m, lhs_text, rhs_text)
           for m in PROB_RE.finditer(link_text)):
        return "probabilistic", "a probability (P(…))"
    if op == "=" and LAW_VALUE.search(link_text) and not re.search(r"\\mid|;", link_text):
        return "probabilistic", "a law used as a value (N(…)): an identity in distribution"
    prob = [m for m in PROB_PROSE.finditer(sentence) if not drawn_probability(sentence, m)]  # not "chosen w.p. q_i"
    if prob and inner in STATEMENT_ENVS and CONCLUSION_AS_FOLLOWS.search(sentence[prob[-1].end():]) and \
            re.search(r"\b(?:such that|if|assum\w*|suppose|provided)\b", sentence[:prob[-1].start()], re.I):
        prob = []  # "π selects each element with probability at most p, …; then E f ≥ …": the hypothesis says it
    if prob and not PROB_PROSE.search(display_text) and PROB_VALUE_BEFORE.search(sentence) and \
            inner not in STATEMENT_ENVS and lhs_text.strip() and rhs_text.strip():
        # "(1) fails with probability \[ \le \binom{N}{k} p \le (eN/k)^k p \]": the first link (its left side the
        # prose's probability) bounds the probability; a link between the numbers that follow is a step
        return "step", PROB_VALUE_WHY
    if prob and not PROB_PROSE.search(display_text) and inner not in STATEMENT_ENVS and \
            any(e.startswith("proof") for e in envs) and EVENT_FIXED.search(sentence):
        # "With probability 1 − δ, \[ cos∠ = … ≥ … \]" in a proof: each row is a derivation on that event —
        # checked, a proof stands (it holds everywhere), a counterexample refutes nothing (it may lie off the event)
        return "step", EVENT_WHY
    if prob and not PROB_PROSE.search(display_text) and first_in_chain and op == "=" and \
            (lhs_index_plus_one or recursion or time_step(lhs_text, rhs_text)) and \
            NAMED_RULE_BEFORE.search(sentence[prob[-1].end():]):
        # "convergence with probability one of the recursion \[ W_{n+1} = W_n - h_n(…) \]": the probability is
        # the rule's convergence; the display is the rule
        return "update", "an update rule the prose names (the probability it mentions is about its convergence)"
    if prob or PROB_PROSE.search(display_text):
        return "probabilistic", "stated with probability (w.p.)"
    if inner in HYPOTHESIS_ENVS:
        return "hypothesis", f"inside an {inner} environment"
    if AFTER_PROB.match(after or ""):
        # "\[ (1-δ)‖q‖² ≤ ‖Φq‖² ≤ (1+δ)‖q‖² \] with probability \[ ≥ 1 - … \]": the prose after the display says
        # with what probability it holds (an assumption's "\[ ‖g‖ ≤ G \] almost surely" stays its hypothesis)
        return "probabilistic", "stated with probability (the prose right after it: 'with probability …')"
    if HEADED_ASSUMPTION.search(prose) and \
            _last(DERIVED_PROSE, re.sub(r"i[.·]e[.·]|namely|that is", " ", sentence, flags=re.I)) < 0:  # "i.e." restates
        return "hypothesis", "under an 'Assumption' heading"
    if inner == "definition":
        return "definition", "inside a definition environment"
    if first_in_chain and op == "=" and lhs_is_name and BY_DEFINITION.search(sentence) and inner not in STATEMENT_ENVS \
            and _last(BY_DEFINITION, sentence) > derived_at:  # "by definition T(y) = y and therefore": derived
        return "definition", "the prose says it holds by definition: it gives the name's definition, not a step"
    if first_in_chain and re.search(r"\b(?:if|only if|when|whenever|unless)\s*[:,]?\s*$", sentence, re.I):
        if NAMING_IF.search(sentence):
            # "We say that θ satisfies the KKT conditions if \[ … \]", "x is called stationary if": the display is
            # what the property means — a definition, neither a step nor a condition something is stated under
            return "definition", NAMING_IF_WHY
        return "hypothesis", "the condition of the prose's 'if …' (the sentence before the display ends in 'if')"
    if first_in_chain and NAMING_IF.search(sentence):
        # "a matrix $C$ is its subspace preserving matrix if, for all $x$, \[ … \]": the property defined
        return "definition", NAMING_IF_WHY
    if first_in_chain and REASON_BEFORE.search(sentence) and inner not in STATEMENT_ENVS:
        return "hypothesis", "a fact the prose cites as the reason for a step ('using the fact that', 'since'), not a step"
    if first_in_chain and op in ("<", ">", "<=", ">=") and (PROPERTY_OBEYED.search(sentence) or
                                                           AFTER_NAMES_CONSTANT.match(after) and
                                                           re.search(r"\bsatisf(?:y|ies)\W*$", sentence, re.I)):
        return "hypothesis", "a property the prose states an object obeys (with the constant it names), not a step"
    if first_in_chain and op == "=" and not lhs_is_name and re.match(r"^\s*-", lhs_text) and NAME_LIKE.match(lhs_text.strip()[1:]) and AFTER_DESCRIBES.match(after) \
            and not derived:
        return "definition", "the display names an object (its negative written on the left) the prose then describes"
    if role == "implied" and inner not in STATEMENT_ENVS and \
            not (GOAL_PROSE.search(sentence) and derived_at <= _last(GOAL_CUE, sentence)):  # "we need: a ⇒ b"
        return "step", "the consequent of ⇒ is derived from what precedes it"
    used = re.search(r"\b(?:we (?:have|get|obtain)|it follows|this gives|hence|thus|so)\b[^.]{0,40}"
                     r"\bby (?:the |our )?assumptions?\W*$", sentence, re.I)
    if _last(RESTATED, sentence) > derived_at and not used:  # not "Under the conditions of Prop. 2, we have"
        return "hypothesis", "the prose states it as an assumption or a condition"
    if op in ("<", ">", "<=", ">=") and RANGE_TERM.match(lhs_text) and RANGE_TERM.match(rhs_text) and \
            (NUMBER.match(lhs_text) or NUMBER.match(rhs_text) or INDEX_NAME.match(lhs_text) or
             INDEX_NAME.match(rhs_text)):  # 1 ≤ k, t ≤ T; not H_2 ≤ H_1 (a fact about two quantities)
        return "hypothesis", "a range of a name (1 ≤ k ≤ d)"
    if first_in_chain and op == "=" and (lhs_index_plus_one or recursion):
        return "update", "an update rule (t+1 on the left)" if lhs_index_plus_one else "a recursion"
    if first_in_chain and op == "=" and time_step(lhs_text, rhs_text) and \
            (inner not in STATEMENT_ENVS or ALGORITHM_GIVES.search(sentence)) and (not derived or ALGORITHM_GIVES.search(sentence) and not STRONG_DERIVED.search(sentence)):
        # "The algorithm gives β(t+1) = (1 - ηλ(t))β(t) - …": the rule itself; "we can rewrite the iteration as
        # e(t+1) = e(t) - …" stays a step (derived from the rule)
        return "update", "an update rule (the name at t+1 on the left, at t on the right)"
    if first_in_chain and op == "=" and lhs_is_name and _self_update(lhs_text, rhs_text) and \
            UPDATE_PROSE.search(sentence):
        return "update", "an assignment x = x ± … after the prose names an iteration or update (not an identity)"
    events = list(EVENT_PROSE.finditer(sentence))
    named_event = bool(events) and events[-1].group(0).lower().startswith("event") and \
        bool(re.match(r"\s*(?:\$|\\\()", sentence[events[-1].end():]))
    # "We then split the expectation over the event $\Omega_n$, and use …:": the prose writes the event itself (its
    # name in inline math), so the display that follows is not that event — a derivation, checked as any other
    if named_event and _last(EVENT_PROSE, sentence) > derived_at and not DERIVATION_START.match(sentence) and \
            inner not in STATEMENT_ENVS and ON_EVENT.search(sentence[:events[-1].end()]):
        # "On the event $\Omega_n$: \[ … \]": a step that holds there — a counterexample off the event refutes nothing
        return "step", NAMED_EVENT_WHY
    if _last(EVENT_PROSE, sentence) > derived_at and not named_event and not DERIVATION_START.match(sentence) or \
            AFTER_CONDITION.match(after) or CONDITION_SUBJECT.match(sentence) and \
            (derived_at < 0 or re.search(r"\bequivalently\b", sentence, re.I)):  # a condition restated
        return "hypothesis", "an event or a condition the prose names, not a derivation step"
    defines = DEFINE_SUCH_THAT.search(sentence)
    if defines and inner not in STATEMENT_ENVS and DEFINE_SUCH_THAT_REST.fullmatch(defines.group("rest")):
        return "definition", DEFINING_PROPERTY_WHY
    exists = EXISTS_SUCH_THAT.search(sentence)
    if exists and inner in STATEMENT_ENVS:
        # "For every Q, if n ≥ n_0, there exists f such that \[ … \]": in a statement, what the witness satisfies
        # is the statement's (existential) conclusion — unless the prose supposes the witness ("Suppose there exists",
        # "If there exists … such that \[ … \], then")
        before = sentence[:exists.start()]
        then_at = _last(CONCLUSION_CUE, before)
        if _supposes_witness(before[max(then_at, 0):]) or then_at < 0 and SUPPOSED.search(prose):
            return "hypothesis", "the property of a witness that the supposition provides ('∃ … such that')"
        return "goal", (f"the existential conclusion of a {inner} ('there exists … such that'): its proof is checked, "
                        "not the statement")
    if exists:  # "there exists u … such that |â − a| = …": not a goal
        # "Suppose …. In particular, ∃ M such that …", "if F satisfies that there is L such that": supposed
        if SUPPOSED.search(prose) or re.search(r"\b(?:if|assume|assuming|suppose|provided)\b",
                                               sentence[:exists.start()], re.I):
            return "hypothesis", "the property of a witness that the supposition provides ('∃ … such that')"
        if inner not in STATEMENT_ENVS and any(e.startswith("proof") for e in envs):
            # "We can say that there exist î and l(k), m(k) such that: k ≤ l(k) < m(k) ≤ 2n" in a proof: what the
            # witnesses the proof obtains satisfy (it had been checked as a step, and its "=" links proved from a
            # misread fact); the steps after it may use it
            return "hypothesis", "the property of the witnesses the proof obtains ('there exist … such that'), not a step"
        if inner not in STATEMENT_ENVS:
            return "step", "the property of a witness a cited result provides ('there exists … such that')"
    witness = EXISTS_CONCLUSION.search(sentence) if inner in STATEMENT_ENVS else None
    if witness:
        before = sentence[:witness.start()]
        then_at = _last(CONCLUSION_CUE, before)
        if not SUPPOSING.search(before[max(then_at, 0):]) and (then_at >= 0 or not SUPPOSED.search(prose)):
            return "goal", (f"the existential conclusion of a {inner} ('there exists … satisfying'): its proof is "
                            "checked, not the statement")
    if op in ("<", ">", "<=", ">=") and NAME_LIKE.match(lhs_text) and AIM_YIELDS.search(sentence) and \
            AIM.search(prose[max(0, len(prose) - len(sentence) - 400):]):
        return "goal", "a requirement the aim stated before puts on the name ('we want … below ε/2; this yields')"
    goal_cues = list(GOAL_CUE.finditer(sentence))
    goal_at = goal_cues[-1].end() if goal_cues else -1
    if first_in_chain and op == "=" and (lhs_is_name or NAME_LIKE.match(lhs_text)) and goal_cues and \
            CHOICE.match(goal_cues[-1].group(0)) and "such that" not in sentence[goal_at:].lower():
        return "definition", "a choice the proof makes ('we choose …')"
    if first_in_chain and op == "=" and PROBLEM_PROSE.search(sentence) and OPTIMUM.search(rhs_text) and \
            not derived:
        return "definition", "an optimisation problem the paper sets up"
    head = LHS_HEAD.match(lhs_text)
    # phi(z) = z phi(1); a command's own letters are no use of a letter name (the m of \\mathrm d in m_k = ∫ … \\mathrm d λ)
    own = bool(head and re.search((r"(?<![A-Za-z\\])" if head.group(1)[0] != "\\" else "") + re.escape(head.group(1)) +
                                  r"(?![A-Za-z])", rhs_text if head.group(1)[0] == "\\" else
                                  re.sub(r"\\[A-Za-z]+", " ", rhs_text)))
    if first_in_chain and op == "=" and lhs_is_name and AFTER_DESCRIBES.match(after):
        return "definition", "the display names an object the prose then describes"
    lhs_is_name = lhs_is_name or bool(CALL_WRITTEN.match(lhs_text))  # "Define v(q) = …": v applied, whatever v is
    if first_in_chain and op == "=" and lhs_is_name and QUANTIFIED_MEMBER.search(display_text.strip().rstrip(".,; ")):
        # "We extract K_1 such that i(k) = i^⋆ ∀k ∈ K_1": a fact on K_1, never a definition of i for every argument
        # (it had been, and i(l(k)) = i(m(k)) was then "proved" with l(k), m(k) nowhere said to lie in K_1)
        return "hypothesis", "a property of the left side on the set its quantifier names (∀k ∈ K): not a definition"
    if first_in_chain and op == "=" and lhs_is_name and \
            NAMED_MEMBER.search(_outside_braces(display_text).strip().rstrip(".,; ")):
        return "definition", "the display names its left side and says where it lies (Q = … \\in G)"
    computed_lhs = first_in_chain and op == "=" and _last(STRONG_DEF, sentence) < 0 and bool(
        OPERATOR_LHS.match(lhs_text) or lhs_opaque or DERIVATIVE_LHS.match(lhs_text) and DERIVATIVE_PROSE.search(sentence))
    if computed_lhs:
        # "The variance of … is given by Var β = …", "The integral … can be simplified as follows: ∫… = …",
        # "The derivative of B with respect to time is given by Ḃ = …": computed, not defined
        lhs_is_name = False
    defines_at = max(_last(STRONG_DEF, sentence), _last(re.compile(r"\bwhere\b", re.I), sentence))
    if inner in STATEMENT_ENVS and (defines_at < 0 or _last(re.compile(r"\bthen\b", re.I), sentence) > defines_at):
        # a statement's display is its hypothesis or conclusion unless it says "let/define/denote": "Suppose X, Z
        # are Gaussian with: Corr = ρ", "When optimizing with GF …, i.e., d/dt(…) = 0"; "Let μ = …. Then the
        # correlation is given by: ρ = …" (the "then" after the last "let" starts the conclusion)
        lhs_is_name = False
    if first_in_chain and op == "=" and not lhs_is_name and not derived and SCRIPTED_NAME.match(lhs_text) and \
            re.search(r"\b(?:we|to)\s+define\b|\bdefine\b\s*[:,]?\s*$|\bdenote\b", sentence, re.I) and \
            inner not in STATEMENT_ENVS:
        # "We define: Δ_v^k = …": the name with its superscript is what is defined (an index or label, not a power of
        # a name defined elsewhere, which would leave the display a step with Δ free)
        return "definition", "the prose defines the left side (its superscript an index or label, not a power)"
    statement_defines = inner in STATEMENT_ENVS and defines_at >= 0 and \
        _last(re.compile(r"\bthen\b", re.I), sentence) <= defines_at  # "…, where the error terms are given by"
    if first_in_chain and op == "=" and lhs_power and not derived and \
            (inner not in STATEMENT_ENVS or statement_defines) and \
            (POWER_DEF_CUE.search(sentence) or WHERE_GIVEN_BY.search(sentence)):
        # "I set ŝ² = â² − b̂²", "define σ̂_v^2 = …": the power of a name is defined (the right side does not write it)
        return "definition", "the prose before it defines the left side (a power of a name, which the right side does not write)"
    if first_in_chain and op == "=" and statement_defines and not derived and WHERE_GIVEN_BY.search(sentence) and \
            NAME_LIKE.match(lhs_text):
        # "…, where the error terms ξ_n, b_n and ψ_n are given by ξ_n = …, b_n = …, ψ_n² = …": the statement's
        # where-clause names them (a name or its power, read or not)
        return "definition", "a 'where … are given by' clause of the statement: it names the left side"
    long_sentence = last_sentence(lead or prose)
    if first_in_chain and op == "=" and \
            announced_definition(long_sentence, lhs_text, _last(DERIVED_PROSE, long_sentence)):
        # "let $vEll(θ, X, y)$ denote the volume of the ellipsoidal solid … (a long description):": the display's
        # left side is the name the sentence announces, word for word
        return "definition", "the prose before it announces the left side ('let $…$ denote …')"
    if first_in_chain and op == "=" and inner not in STATEMENT_ENVS and FUNCTIONS_INTRO.search(sentence) and \
            APPLIED_NAME_LHS.match(lhs_text):
        # "…, we have functions \[ g_1(y_1) = \sum_i y(s_i) \]": the display introduces the functions it names
        return "definition", "the prose introduces the functions on the left ('we have functions …')"
    if first_in_chain and op == "=" and lhs_is_name and not derived:
        if OBJECT_IS.search(sentence):
            return "definition", "the prose names the object the display gives"
        if DEF_PROSE.search(sentence) or DEF_SENTENCE.search(sentence):
            return "definition", "the prose before it defines the left side"
        if lhs_first_use and not own:
            return "definition", "the first use of the left side's name"
        if HEADING_RE.search(sentence) and head and not own:
            return "definition", ("a name set equal to an expression of other names under a heading, "
                                       "with no sentence before it")
    if inner in STATEMENT_ENVS:  # a statement: "if …, then", "Then for all t,", "Assume … such that", "… satisfies"
        conclusion = f"the conclusion of a {inner} (its proof is checked, not the statement)"
        where_at = _last(re.compile(r"\bwhere\b", re.I), sentence)
        if op in ("<", ">", "<=", ">=") and where_at >= 0 and where_at > _last(CONCLUSION_CUE, sentence):
            # "…, where σ is the upper bound of the mean variance \[ σ² ≥ … \]": what the statement assumes of σ
            return "hypothesis", f"a 'where' clause of the {inner}: a condition its conclusion is stated under"
        if IF_FOLLOWING.search(sentence):
            return "hypothesis", f"a hypothesis of the {inner} (the condition its conclusion is stated under)"
        if re.search(r"\b(then|we have|holds?|it follows)\W*$", sentence, re.I) or \
                re.match(r"^\W*then\b", sentence, re.I):
            return "goal", conclusion
        said = _last(CONCLUSION_CUE, sentence)  # "Assume …, we have the following bounds hold for all t,"
        hyp_at = _last(HYP_CUE, sentence)
        if CONCLUSION_AS_FOLLOWS.search(sentence):  # "… such that …, we get", "… can be bounded as follows:"
            return "goal", conclusion
        if hyp_at >= 0 and CONCLUSION_AFTER_CLAUSE.search(sentence[hyp_at:]):
            return "goal", conclusion  # "assuming ε' < ε, the update improves the objective by:"
        if hyp_at > said:
            return "hypothesis", f"a hypothesis of the {inner}"
        if said >= 0:
            return "goal", conclusion
        if re.search(r"\bsatisf(?:y|ies)\W*$", sentence, re.I):
            return "goal", conclusion
    if specification(sentence, envs) and derived_at < 0:
        return "goal", SPECIFICATION_WHY
    need = REQUIREMENT.search(sentence)
    if need and _last(DERIVED_PROSE, RESTATES.sub("", sentence[need.end(1):])) < 0:
        return "goal", "a requirement the prose imposes ('we need … to go to zero'), not a consequence"
    if GOAL_PROSE.search(sentence) and not max(derived_at, _last(COMPUTE_CUE, sentence)) > goal_at and \
            not max(_last(STRONG_DEF, sentence), _last(CONSIDER, sentence)) > goal_at:
        # "we set b such that …, that is"; "…, such that …, and let"; "…, such that ‖u‖ = 1, and consider"
        return "goal", "the prose states it as what is to be shown or chosen"
    if inner in STATEMENT_ENVS:
        if re.search(r"\b(then|we have|holds?|it follows|satisf(?:y|ies)\b.*:)\W*$", sentence, re.I):
            return "goal", f"the conclusion of a {inner} (its proof is checked, not the statement)"
        hyp = HYP_PROSE.search(sentence)
        if hyp and QUANTIFIER_ONLY.match(hyp.group(0)) and not OTHER_HYP_CUE.search(sentence):
            # "Let L = … and η ≤ 1/L. For all w, f(w − η∇f) ≤ …": a universal quantifier that introduces the
            # display quantifies the conclusion; the hypotheses were stated before it
            return "goal", f"the conclusion of a {inner}, quantified ('{hyp.group(0).strip().rstrip(',:')}')"
        if hyp and UNDER_PREAMBLE.match(sentence) and not UNDER_NOT_ALONE.search(sentence):
            # "Under stationarity of the chain and for $w \le w_0$, \[ E[J] = wΔ + R(w) \]": the prose states the
            # conditions, the display what holds under them (not "Assume … satisfy \[ … \]")
            return "goal", f"the conclusion of a {inner}, stated under the conditions the prose names ('under …,')"
        if hyp:
            return "hypothesis", f"a hypothesis of the {inner}"
        return "goal", f"the conclusion of a {inner} (its proof is checked, not the statement)"
    outside = not any(e.startswith("proof") or e in STATEMENT_ENVS for e in envs)
    if lone_name and NAME_LIKE.match(lhs_text) and first_in_chain and op == "=" and not derived and not own and \
            outside and not computed_lhs:
        return "definition", ("a name set to a value outside any proof or statement (a parameter choice or "
                              "notation; no 'we have', 'hence' … before it)")
    return "step", ""
