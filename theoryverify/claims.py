"""Claims: a paper's checkable statement, defined once and read by every front-end.

A claim is (id, paper, location, statement, kind, check).  The check is a function of a
:class:`RunContext` returning a :class:`~theoryverify.verdicts.Verdict`.  A claim also records
what the registry *expects* its verdict to be: normally "true" (proved or holds); for a printed
statement our checks refute, ``expect=REFUTED`` with a finding class (:class:`~theoryverify.findings.Finding`:
erratum, proof_gap, typo, reading, reconstruction, not_reproducible) and a one-line ``reason``.
A refuted paper claim stays registered; it is never dropped or silently "fixed".

A claim also declares what its statement is conditioned on and ranges over (``conditions``, ``over``;
:mod:`theoryverify.conditions`) and whether it asserts convergence (``converges``).  :meth:`Claim.run`
applies the engine's evidence standards (:mod:`theoryverify.standards`) to whatever the check returns.
"""
from __future__ import annotations

import functools
import inspect
import sys
import time
import traceback
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Callable, Mapping

from .conditions import Condition, Over
from .errors import TheoryverifyError
from .findings import Finding, Readings
from .seeds import DEFAULT_SEED, derive_seed
from .standards import Standards, enforce
from .verdicts import TRUE_STATUSES, Status, Verdict, error, inconclusive


class Unavailable(TheoryverifyError):
    """A check cannot run here because an input outside the repository is missing (e.g. the paper
    text next to the checkout).  :meth:`Claim.run` turns it into an *inconclusive* verdict that says
    so; the pytest front-end skips such a claim instead of failing it."""


class Kind(str, Enum):
    """What kind of statement a claim checks (the report groups and describes claims by it).

    >>> Kind("inequality") is Kind.INEQUALITY, str(Kind.RATE)
    (True, 'rate')
    """
    IDENTITY = "identity"
    INEQUALITY = "inequality"
    AUTOGRAD = "autograd"
    RATE = "rate"
    DYNAMICS = "dynamics"
    REPRODUCTION = "reproduction"

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value


@dataclass(frozen=True)
class Paper:
    id: str
    title: str
    file: str  # path relative to the shared papers folder
    spec: str  # catalogue file name
    #: keys of the paper's reconstruction choices (where its own formulas are lost): a claim choice with one
    #: of these keys makes the claim's verdict depend on the reconstruction (see findings.validate).
    reconstruction: frozenset[str] = frozenset()
    #: the SHA-256 (hex) of the text and of the catalogue the committed reports were made from: an input found
    #: with another checksum (or not found) changes the report (see :mod:`theoryverify.inputs`); None: not recorded
    file_sha256: str | None = None
    spec_sha256: str | None = None
    #: do some claims read the paper's text (then they are "not checkable here" without it, and the text's
    #: checksum is part of every cached result of the paper)?  The catalogue is read by every report.
    reads_text: bool = False


@dataclass(frozen=True)
class RunContext:
    """What a check may depend on besides its claim: the seed, the profile, the device, and the claim's
    parameters for this profile (``params``: the registration's ``params``, updated by the profile's
    :class:`Variant`)."""

    seed: int = DEFAULT_SEED
    profile: str = "quick"  # "quick" (CPU, small grids) or "full" (broad sweeps)
    device: str = "cpu"
    params: Mapping[str, Any] = field(default_factory=dict)
    #: the run's seed before it was derived for this claim (None: ``seed`` is the run's seed)
    run_seed: int | None = None

    def for_claim(self, claim_id: str, params: Mapping[str, Any] | None = None) -> "RunContext":
        return RunContext(derive_seed(self.seed, claim_id), self.profile, self.device, dict(params or {}),
                          self.seed if self.run_seed is None else self.run_seed)

    def shared_seed(self, name: str) -> int:
        """The seed of the shared sweep ``name`` (:func:`theoryverify.shared_sweeps.shared_sweep`): derived from the
        run's seed and the name, not from the claim, so that every claim reading the sweep draws the same points
        (and ``--seed`` still changes them).

        >>> import theoryverify as tv
        >>> a, b = tv.RunContext(seed=1).for_claim("p.x"), tv.RunContext(seed=1).for_claim("p.x-planted")
        >>> a.seed == b.seed, a.shared_seed("times") == b.shared_seed("times")
        (False, True)
        """
        return derive_seed(self.seed if self.run_seed is None else self.run_seed, "shared sweep", name)


SAME = "same"  # a Variant field that keeps the claim's own value


@dataclass(frozen=True)
class Variant:
    """A claim under another profile: parameters that replace the claim's (``params``), and — where they
    differ — its expectation (``expect``: a Status, None for proved-or-holds, or ``SAME``) and tags (e.g. the
    full profile's bigger grid is ``slow``).  One claim id, one check, several profiles: no quick/full twins.
    """

    params: Mapping[str, Any] = field(default_factory=dict)
    expect: Any = SAME
    tags: frozenset[str] = frozenset()
    #: a public claim id of its own (the shipped papers' older "<id>-full" twins keep their ids this way):
    #: the registry lists the variant as a claim with that id, always run under this variant's profile
    id: str | None = None


Check = Callable[[RunContext], Verdict]


class Planted:
    """A planted twin of a claim: the same check with some inputs changed, expected to be refuted.

    Give it to :meth:`ClaimSet.add` as ``planted=`` (one, or a list): the registry then lists a second claim,
    ``<id>-planted`` at ``"<location>, PLANTED"`` (or ``id=`` / ``location=``), with this ``statement``, the same
    kind, ranges, hypotheses and parameters, ``expect=REFUTED``, and this ``finding`` class and one-line ``reason``.
    Its check is the claim's check called with the changed inputs as keyword arguments (``**inputs``), so the
    check takes them as keyword parameters whose defaults are the paper's own (``def eq1(ctx, display=p.GRAD)``):
    the true claim and its twin share the check, and a twin cannot drift from it.  A changed input the check does
    not accept is a one-line :class:`~theoryverify.findings.RegistrationError` at registration.

    >>> import sympy as sp, theoryverify as tv
    >>> x = sp.Symbol("x")
    >>> CLAIMS = tv.ClaimSet("demo")
    >>> @CLAIMS.add("eq1", location="Eq. (1)", statement="(x+1)^2 = x^2 + 2x + 1", kind=tv.Kind.IDENTITY,
    ...             planted=tv.Planted("(x+1)^2 = x^2 + 1", tv.Finding.TYPO, "planted: no cross term", rhs=x**2 + 1))
    ... def eq1(ctx, rhs=x**2 + 2*x + 1):
    ...     return tv.check_identity((x + 1)**2, rhs, tv.Domain([tv.Interval(x, -2, 2)]), ctx.seed)
    >>> [(c.id, c.location, c.expect and c.expect.value) for c in CLAIMS]
    [('demo.eq1', 'Eq. (1)', None), ('demo.eq1-planted', 'Eq. (1), PLANTED', 'refuted')]
    >>> [c.run(tv.RunContext(seed=0)).verdict.status.value for c in CLAIMS]
    ['proved', 'refuted']
    """

    def __init__(self, statement: str, finding: "Finding | str", reason: str, *, id: str | None = None,
                 location: str | None = None, **inputs: Any) -> None:
        self.statement, self.finding, self.reason = statement, finding, reason
        self.id, self.location, self.inputs = id, location, dict(inputs)

    def __repr__(self) -> str:
        return f"Planted({self.statement!r}, {str(getattr(self.finding, 'value', self.finding))!r}, {self.reason!r})"

    def claim(self, base: "Claim") -> "Claim":
        """The twin of ``base`` (its check with these inputs; checked against the check's signature)."""
        short = base.id[len(base.paper) + 1:]
        cid = f"{base.paper}.{self.id or short + '-planted'}"
        if not self.inputs:
            raise _registration_error(f"claim {cid}: a planted twin needs at least one changed input "
                                      f"(a keyword argument of the check, e.g. display=...)")
        _takes(base.check, self.inputs, f"claim {cid}", "give it one per changed input, whose default is the paper's")
        return replace(base, id=cid, location=self.location or f"{base.location}, PLANTED",
                       statement=self.statement, check=functools.partial(base.check, **self.inputs),
                       catalogue_id=None, covers=(), expect=Status.REFUTED, finding=Finding(self.finding), reason=self.reason,
                       variants={n: v for n, v in base.variants.items() if not v.id}, cause=None,
                       quote=None, planted_of=base.id)


def _takes(check: Callable[..., Any], inputs: Mapping[str, Any], who: str, hint: str) -> None:
    """A one-line registration error unless ``check(ctx, **inputs)`` can be called (a planted twin's or a second
    registration's changed inputs must be keyword arguments of the check)."""
    try:
        inspect.signature(check).bind(None, **inputs)
    except TypeError:
        raise _registration_error(
            f"{who}: the check {getattr(check, '__name__', '?')}(ctx, ...) takes no keyword argument "
            f"{', '.join(sorted(inputs))}: {hint}") from None
    except ValueError:  # a builtin without a signature: let the call itself say
        pass


def _registration_error(text: str):
    from .findings import RegistrationError
    return RegistrationError(text)


@dataclass(frozen=True)
class Claim:
    """One checkable statement of a paper and the check that decides it (registered with :meth:`ClaimSet.add`,
    whose keyword arguments are these fields).  What the statement is:

    - ``id``: ``"<paper>.<short id>"``, never changed once published; ``paper``: the paper's id;
    - ``location``: where the paper states it (``"Thm. 2, Eq. (7)"``; "Theorem", "Proposition", "Corollary"
      make it a main result); ``statement``: the statement in words/formulas, as the report quotes it;
      ``quote``: the paper's own words for it, verbatim (a display as printed), where ``statement`` is the tool's
      sentence (a reading, a checked range): the referee report quotes these, never the tool's sentence;
    - ``kind``: a :class:`Kind` (identity, inequality, autograd, rate, dynamics, reproduction);
    - ``catalogue_id``: its id in the paper's claim catalogue (``**PREFIX-...**``), for coverage — or a tuple of
      ids when the claim decides several entries (a lemma and its displays), all counted; ``covers``: the same
      further ids given apart;
    - ``check``: the function ``check(ctx: RunContext) -> Verdict`` (the decorated function).

    What it quantifies over and assumes (the evidence standards read these):

    - ``over``: the parameters the statement holds for, as :class:`~theoryverify.conditions.Over` ranges —
      ``tv.settings(over, ctx.seed)`` / ``tv.check_over`` generate the settings, and a pass must record values
      spanning each range (else it is downgraded; recording none is an error);
    - ``conditions``: its hypotheses (``tv.at_least("N", 2)``...): a refutation outside them is no refutation;
    - ``converges``: the statement asserts that a run converges (convergence diagnostics are then required);
    - ``standards``: tightened :class:`~theoryverify.standards.Standards` for this claim only;
    - ``main``: a main result (stricter evidence: it must say how it could have failed); None infers it from
      ``kind`` (every rate) and ``location`` (theorem, proposition, corollary).

    How it runs:

    - ``params``: the check's parameters, read as ``ctx.params["..."]`` (grid sizes, sample counts);
      ``variants``: per profile (``"full"``) a :class:`Variant` that replaces them (and the tags/expectation);
    - ``tags``: ``{"slow"}`` (skipped by the quick profile), ``{"gpu"}``; ``threads``: torch/BLAS threads while
      it runs (None leaves them alone); ``choices``: settings the paper leaves open that the check had to choose.

    What is expected (a claim the checks refute stays registered, with its finding declared):

    - ``expect``: None (proved or holds) or ``Status.REFUTED`` (then ``finding`` and ``reason`` are required);
    - ``finding``: the refutation's class (:class:`~theoryverify.findings.Finding`: erratum, proof_gap, typo,
      reading, reconstruction, not_reproducible); ``reason``: one line saying what is wrong;
    - ``readings``: for a ``reading`` finding, :class:`~theoryverify.findings.Readings` (the tested reading and
      the others with their status); ``despite_reconstruction``: why a refutation resting on reconstruction
      choices still stands; ``supports``: for a ``proof_gap``, the ids of the claims whose proof has the gap;
    - ``cause``: a root cause shared by several findings (the report groups their cards by it).

    ``source``, ``module`` and ``profile`` are filled in by the registry.

    >>> import sympy as sp, theoryverify as tv
    >>> x, n = sp.symbols("x n", positive=True)
    >>> CLAIMS = tv.ClaimSet("demo")
    >>> @CLAIMS.add("eq3", location="Thm. 1, Eq. (3)", kind=tv.Kind.INEQUALITY, statement="1/(n+1) ≤ 1/n",
    ...             over=(tv.Over("n", 1, 1000, scale="log", integer=True),), params={"draws": 8})
    ... def eq3(ctx):
    ...     return tv.check_over([tv.Over("n", 1, 1000, scale="log", integer=True)],
    ...                          lambda s: tv.holds("exact", "ok") if 1 / (s["n"] + 1) <= 1 / s["n"]
    ...                          else tv.refuted("exact", "no", s), ctx.seed, draws=ctx.params["draws"])
    >>> @CLAIMS.add("eq3-planted", location="Thm. 1, Eq. (3) (PLANTED)", kind=tv.Kind.IDENTITY,
    ...             statement="(x+1)^2 = x^2 + 1", expect=tv.Status.REFUTED, finding=tv.Finding.TYPO,
    ...             reason="planted: the cross term 2x is dropped")
    ... def planted(ctx):
    ...     return tv.check_identity((x + 1)**2, x**2 + 1, tv.Domain([tv.Interval(x, 0, 2)]), ctx.seed)
    >>> [(c.id, c.main, c.expect) for c in CLAIMS]
    [('demo.eq3', None, None), ('demo.eq3-planted', None, <Status.REFUTED: 'refuted'>)]
    >>> c = CLAIMS.claims[1]
    >>> c.check(tv.RunContext()).status.value
    'refuted'
    >>> tv.ClaimSet("demo").add("bad", location="Eq. 1", statement="s", kind=tv.Kind.IDENTITY,
    ...                         expect=tv.Status.REFUTED)(lambda ctx: None)
    Traceback (most recent call last):
    ...
    theoryverify.findings.RegistrationError: claim demo.bad: an expected refutation needs a finding class ...
    """

    id: str
    paper: str
    location: str
    statement: str
    kind: Kind
    check: Check = field(repr=False, compare=False)
    catalogue_id: str | None = None
    expect: Status | None = None  # None: proved-or-holds; REFUTED for an erratum; ...
    choices: Mapping[str, str] = field(default_factory=dict)  # reconstruction / open choices
    tags: frozenset[str] = frozenset()  # "slow", "gpu"
    finding: Finding | None = None  # the class of an expected refutation
    reason: str | None = None  # one-line reason, required when expect is REFUTED
    readings: Readings | None = None  # required for a 'reading' finding
    despite_reconstruction: str | None = None  # why a refutation on reconstruction choices is still not one
    supports: tuple[str, ...] = ()  # proof_gap: claim ids of the statement whose proof has the gap
    conditions: tuple[Condition, ...] = ()  # the statement's hypotheses
    over: tuple[Over, ...] = ()  # the parameters the statement quantifies over
    converges: bool = False  # the claim asserts that a run converges (diagnostics required)
    standards: Standards | None = None  # tightened evidence standards for this claim
    params: Mapping[str, Any] = field(default_factory=dict)  # the check's parameters (ctx.params)
    variants: Mapping[str, Variant] = field(default_factory=dict)  # profile name -> Variant
    threads: int | None = 1  # torch / BLAS threads while the check runs (None: leave the setting alone)
    source: str = ""  # "path/to/module.py:LINE" of the registration
    module: str = ""  # the module that registered the claim (its source closure keys cached results)
    profile: str | None = None  # a claim that always runs under this profile (a Variant with its own id)
    #: a main result (standards.MAIN_RESULT_RULE)?  None: inferred — every rate claim and every claim located at a
    #: theorem, proposition or corollary; a main lemma or phase duration says main=True
    main: bool | None = None
    cause: str | None = None  # the root cause a finding shares with others (the report groups its cards by it)
    #: the paper's own words for the statement, verbatim (the referee report quotes them; ``statement`` is the
    #: tool's sentence).  None: the report looks for words in quotation marks in the statement or location
    quote: str | None = None
    #: a planted twin (:class:`Planted`): the id of the claim it plants an error in.  Not a finding of the paper:
    #: the report counts it apart ("planted errors: N of N caught"), the proof that the claim's check can fail;
    #: the claim's own id for a slip planted in the paper's LaTeX (``tv.tex_chain(..., planted="why")``)
    planted_of: str | None = None
    #: further catalogue ids the claim decides (a claim checking a lemma and its displays): counted in coverage
    #: like ``catalogue_id``; ``catalogue_id=("A", "B")`` is read as ``catalogue_id="A", covers=("B",)``
    covers: tuple[str, ...] = ()

    @property
    def catalogue_ids(self) -> tuple[str, ...]:
        """Every catalogue id the claim decides: ``catalogue_id`` then ``covers``."""
        return tuple(dict.fromkeys(([self.catalogue_id] if self.catalogue_id else []) + list(self.covers)))

    def __post_init__(self) -> None:
        from .findings import validate

        if isinstance(self.catalogue_id, (tuple, list)):
            ids = [str(i) for i in self.catalogue_id if i]
            object.__setattr__(self, "catalogue_id", ids[0] if ids else None)
            object.__setattr__(self, "covers", tuple(ids[1:]) + tuple(self.covers))
        if isinstance(self.covers, str):
            object.__setattr__(self, "covers", (self.covers,))
        object.__setattr__(self, "covers", tuple(c for c in dict.fromkeys(self.covers) if c != self.catalogue_id))

        if not self.id.startswith(self.paper + "."):
            raise ValueError(f"claim id {self.id!r} must start with its paper id {self.paper!r}.")
        if not self.tags <= {"slow", "gpu"}:
            raise ValueError(f"claim {self.id}: unknown tags {set(self.tags) - {'slow', 'gpu'}}")
        if self.finding is not None and not isinstance(self.finding, Finding):
            object.__setattr__(self, "finding", Finding(self.finding))
        for name, v in self.variants.items():
            if not isinstance(v, Variant):
                raise ValueError(f"claim {self.id}: variant {name!r} must be a theoryverify.Variant")
            if not v.tags <= {"slow", "gpu"}:
                raise ValueError(f"claim {self.id}: unknown tags {set(v.tags) - {'slow', 'gpu'}} in variant {name!r}")
        validate(self)

    # --- profiles ---------------------------------------------------------------------------------
    def variant(self, profile: str) -> Variant | None:
        return self.variants.get(profile)

    def expanded(self) -> list["Claim"]:
        """This claim, and one claim per Variant that has an ``id`` of its own: that id, the variant's
        parameters, expectation and tags, pinned to its profile (the variant is then no longer listed under
        this claim, so nothing runs twice)."""
        own = {name: v for name, v in self.variants.items() if v.id}
        if not own:
            return [self]
        kept = {n: v for n, v in self.variants.items() if not v.id}
        # under a profile whose variant became a claim of its own, the base claim is the quick claim: it runs as under
        # the quick profile (parameters, expectation, tags), not with the extracted variant's expectation
        default = kept.get("quick")
        if default is not None:
            kept.update({name: default for name in own if name not in kept})
        if self.expect is Status.REFUTED:
            base = replace(self, variants=kept)
        else:  # the finding belongs to the refuted variant (findings.validate): the base declares none
            base = replace(self, variants=kept, finding=None, readings=None, despite_reconstruction=None)
        out = [base]
        for name, v in own.items():
            out.append(replace(self, id=v.id if v.id.startswith(self.paper + ".") else f"{self.paper}.{v.id}",
                               params=self.params_for(name), expect=self.expect_for(name), tags=frozenset(v.tags),
                               variants={}, profile=name))
        return out

    def expect_for(self, profile: str = "quick") -> Status | None:
        v = self.variant(profile)
        return self.expect if v is None or v.expect == SAME else v.expect

    def tags_for(self, profile: str = "quick") -> frozenset[str]:
        v = self.variant(profile)
        return self.tags if v is None else frozenset(v.tags)

    def params_for(self, profile: str = "quick") -> dict[str, Any]:
        v = self.variant(profile)
        return {**dict(self.params), **(dict(v.params) if v else {})}

    def expected(self, status: Status, profile: str = "quick") -> bool:
        """Does ``status`` match what the registry expects for this claim (under ``profile``)?"""
        expect = self.expect_for(profile)
        if expect is None:
            return status in TRUE_STATUSES
        return status is expect

    def expected_label_for(self, profile: str = "quick") -> str:
        expect = self.expect_for(profile)
        return "proved|holds" if expect is None else expect.value

    @property
    def expected_label(self) -> str:
        return self.expected_label_for("quick")

    def run(self, ctx: RunContext | None = None) -> "Result":
        base = ctx or RunContext()
        if self.profile and base.profile != self.profile:
            base = replace(base, profile=self.profile)
        ctx = base.for_claim(self.id, self.params_for(base.profile))
        start = time.perf_counter()
        try:
            from .checks.search import hypotheses  # a shrunk counterexample stays inside them
            with _threads(self.threads if ctx.device == "cpu" else None), hypotheses(self.conditions):
                verdict = self.check(ctx)
        except Unavailable as why:
            verdict = inconclusive("not checkable here", f"input unavailable: {why}", unavailable=str(why))
        except Exception as exc:  # a broken check is an error verdict, never a paper verdict
            verdict = error("exception", f"{type(exc).__name__}: {exc}", traceback=traceback.format_exc())
        else:
            try:
                verdict = enforce(self, verdict)
            except Exception as exc:  # a rule that cannot be applied is an error, never a pass
                verdict = error("evidence standards", f"{type(exc).__name__}: {exc}")
        return Result(self, verdict.with_timing(ctx.seed, time.perf_counter() - start), ctx)


@dataclass(frozen=True)
class Result:
    claim: Claim
    verdict: Verdict
    context: RunContext

    @property
    def as_expected(self) -> bool:
        return self.claim.expected(self.verdict.status, self.context.profile)

    @property
    def finding(self) -> Finding | None:
        """The finding class of a refuted verdict (None when the verdict is not a refutation)."""
        return self.claim.finding if self.verdict.status is Status.REFUTED else None

    @property
    def outside_hypotheses(self) -> bool:
        """A refutation that the hypotheses filter turned into 'fails outside the stated hypotheses'."""
        return "outside_hypotheses" in (self.verdict.details or {}) and \
            (self.verdict.details.get("downgraded") or {}).get("status") == "refuted"

    @property
    def unavailable(self) -> str | None:
        """Why the check could not run here (see :class:`Unavailable`), else None."""
        return (self.verdict.details or {}).get("unavailable") if self.verdict.method == "not checkable here" else None

    def to_json(self) -> dict[str, Any]:
        c, v = self.claim, self.verdict
        return {
            "id": c.id,
            "paper": c.paper,
            "location": c.location,
            "statement": c.statement,
            "kind": c.kind.value,
            "catalogue_id": c.catalogue_id,
            "status": v.status.value,
            "expected": c.expected_label_for(self.context.profile),
            "variant": self.context.profile if c.variant(self.context.profile) else None,
            "source": c.source,
            "as_expected": self.as_expected,
            "unavailable": self.unavailable,
            "finding": self.finding.value if self.finding else None,
            "declared_finding": c.finding.value if c.finding else None,
            "reason": c.reason,
            "readings": c.readings.to_json() if c.readings else None,
            "despite_reconstruction": c.despite_reconstruction,
            "supports": list(c.supports),
            "cause": c.cause,
            "hypotheses": [h.to_json() for h in c.conditions],
            "over": [o.to_json() for o in c.over],
            "outside_hypotheses": self.outside_hypotheses,
            "method": v.method,
            "evidence": v.evidence,
            "counterexample": v.to_json()["counterexample"],
            "details": v.to_json()["details"],
            "choices": dict(c.choices),
            "seed": v.seed,
            "runtime_s": round(v.runtime_s, 4),
            "profile": self.context.profile,
            "device": self.context.device,
            # only on a planted twin, so that the rows of a paper without one are unchanged
            **({"planted_of": c.planted_of} if c.planted_of else {}),
            **({"covers": list(c.covers)} if c.covers else {}),  # likewise only where a claim covers more ids
            **({"quote": c.quote} if c.quote else {}),  # likewise only where a claim records the paper's words
        }


class ClaimSet:
    """The claims one module of a paper folder declares.

    >>> CLAIMS = ClaimSet("icrecall")
    >>> @CLAIMS.add("eq4", location="Eq. (4), App. B", statement="...", kind=Kind.IDENTITY,
    ...             catalogue_id="ICR-B-eq4")
    ... def eq4(ctx): ...
    >>> [c.id for c in CLAIMS], CLAIMS.claims[0].catalogue_id
    (['icrecall.eq4'], 'ICR-B-eq4')

    The registry collects the ``CLAIMS`` ClaimSet of every module of the paper package's ``claims/`` folder
    (``claims/<module>.py``, as ``new-paper`` writes it; older papers' ``claims_*`` modules too).
    """

    def __init__(self, paper: str) -> None:
        self.paper = paper
        self.claims: list[Claim] = []

    def add(self, short_id: str, *, location: str, statement: str, kind: Kind,
            catalogue_id: "str | tuple[str, ...] | None" = None, expect: Status | None = None,
            finding: Finding | str | None = None, reason: str | None = None,
            readings: Readings | None = None, despite_reconstruction: str | None = None,
            supports: tuple[str, ...] | list[str] = (), conditions: tuple[Condition, ...] | list[Condition] = (),
            over: tuple[Over, ...] | list[Over] = (), converges: bool = False, standards: Standards | None = None,
            choices: Mapping[str, str] | None = None, params: Mapping[str, Any] | None = None,
            variants: Mapping[str, Variant] | None = None, threads: int | None = 1,
            tags: frozenset[str] | set[str] = frozenset(), main: bool | None = None,
            cause: str | None = None, planted: "Planted | list[Planted] | tuple[Planted, ...]" = (),
            covers: "tuple[str, ...] | list[str]" = (), quote: str | None = None,
            inputs: Mapping[str, Any] | None = None) -> Callable[[Check], Check]:
        """Register the decorated check ``check(ctx) -> Verdict`` as claim ``<paper>.<short_id>``.

        Required: ``location`` (where the paper states it), ``statement`` (as the report quotes it), ``kind``
        (a :class:`Kind`).  The others, each described under :class:`Claim` (with a worked example):
        ``catalogue_id``; ``over`` (declared ranges: the settings a pass must span), ``conditions``
        (hypotheses), ``converges``, ``standards``, ``main``; ``params``, ``variants``, ``tags``, ``threads``,
        ``choices``; ``expect`` with ``finding`` and ``reason`` (an expected refutation), ``readings``,
        ``despite_reconstruction``, ``supports``, ``cause``; ``quote`` (the paper's words); ``planted``: one :class:`Planted` twin or a list (each a
        second claim: the same check with inputs changed, expected refuted); ``inputs``: keyword arguments the check is
        called with — a corollary (or any statement) checked by another claim's check on its own display is that
        check decorated twice, the second registration with ``inputs={"display": p.eq_fast}`` (no wrapper function;
        the decorator returns the check unchanged, so registrations stack).  An inconsistent declaration (a refutation without
        its finding class or reason, a reading finding without readings...) raises a one-line
        :class:`~theoryverify.findings.RegistrationError` here.  The claim records where it was registered
        (``source``: file and line) and its module.

        >>> import theoryverify as tv
        >>> CLAIMS = tv.ClaimSet("demo")
        >>> @CLAIMS.add("rate", location="Thm. 2", statement="the error decays as 1/N", kind=tv.Kind.RATE,
        ...             over=(tv.Over("N", 10, 1e4, scale="log", integer=True),), params={"points": 6},
        ...             variants={"full": tv.Variant(params={"points": 12}, tags=frozenset({"slow"}))})
        ... def rate(ctx): ...
        >>> c = CLAIMS.claims[0]
        >>> c.id, c.params_for("quick"), c.params_for("full"), sorted(c.tags_for("full"))
        ('demo.rate', {'points': 6}, {'points': 12}, ['slow'])
        >>> @CLAIMS.add("cor", location="Cor. 1", statement="1/N ≤ 1/3 for N ≥ 2", kind=tv.Kind.INEQUALITY,
        ...             inputs={"bound": 1 / 3})                 # the theorem's check, the corollary's bound
        ... @CLAIMS.add("thm", location="Thm. 1", statement="1/N ≤ 1 for N ≥ 2", kind=tv.Kind.INEQUALITY)
        ... def thm(ctx, bound=1.0):
        ...     return tv.holds("exact", "1/2 ≤ bound") if 0.5 <= bound else tv.refuted("exact", "no", {"N": 2})
        >>> [(c.id, c.check(tv.RunContext()).status.value) for c in CLAIMS.claims[1:]]
        [('demo.thm', 'holds'), ('demo.cor', 'refuted')]
        """
        caller = sys._getframe(1)
        while caller.f_back is not None and caller.f_code in REGISTRARS:  # through @tv.claim, tv.tex_chain
            caller = caller.f_back
        module = caller.f_globals.get("__name__", "")
        source = f"{_module_path(module, caller.f_code.co_filename)}:{caller.f_lineno}"

        twins = [planted] if isinstance(planted, Planted) else list(planted)
        if not all(isinstance(t, Planted) for t in twins):
            raise _registration_error(f"claim {self.paper}.{short_id}: planted= takes tv.Planted(...) twins")

        cid = f"{self.paper}.{short_id}"
        if inputs is not None and not isinstance(inputs, Mapping):
            raise _registration_error(f"claim {cid}: inputs= is a dict of the check's keyword arguments")

        def register(check: Check) -> Check:
            run = check
            if inputs:
                _takes(check, inputs, f"claim {cid}", "give it one (inputs=), whose default is the other claim's")
                run = functools.partial(check, **inputs)
            self.claims.append(Claim(
                id=f"{self.paper}.{short_id}", paper=self.paper, location=location,
                statement=statement, kind=kind, check=run, catalogue_id=catalogue_id,
                expect=expect, choices=dict(choices or {}), tags=frozenset(tags),
                finding=Finding(finding) if finding is not None else None, reason=reason, readings=readings,
                despite_reconstruction=despite_reconstruction, supports=tuple(supports),
                conditions=tuple(conditions), over=tuple(over), converges=converges, standards=standards,
                params=dict(params or {}), variants=dict(variants or {}), threads=threads, source=source,
                module=module, main=main, cause=cause, covers=tuple(covers), quote=quote))
            self.claims.extend([t.claim(self.claims[-1]) for t in twins])
            return check
        return register

    def __iter__(self):
        return iter(self.claims)

    def __len__(self) -> int:
        return len(self.claims)


def _module_path(module: str, filename: str) -> str:
    """``pkg/sub/mod.py`` for a module name (stable across machines), or the file name if unknown."""
    if not module or module == "__main__":
        return filename
    return module.replace(".", "/") + ("/__init__.py" if filename.endswith("__init__.py") else ".py")


class _threads:
    """Torch's intra-op threads (and the BLAS pools, when threadpoolctl is installed) set to ``n`` while a
    check runs and restored afterwards — once, by the engine, so that results do not depend on the machine's
    core count or on what ran before (``None``: leave the settings alone)."""

    def __init__(self, n: int | None):
        self.n = n
        self._stack: list = []

    def __enter__(self):
        if self.n:
            from . import threads
            cm = threads.single_threaded(self.n) if hasattr(threads, "single_threaded") else threads.torch_threads(self.n)
            cm.__enter__()
            self._stack.append(cm)
        return self

    def __exit__(self, *exc):
        while self._stack:
            self._stack.pop().__exit__(*exc)
        return False


def claim(short_id: str, **registration: Any) -> Callable[[Check], Check]:
    """Register the decorated check as a claim of the paper whose package holds the calling module — the
    :meth:`ClaimSet.add` of an implicit ``CLAIMS`` that this sets in the module, so a claims module needs no
    ``CLAIMS = tv.ClaimSet("paper")`` line.  The paper id is the package's ``PAPER.id`` if it declares one, else
    the package name.  Takes exactly :meth:`ClaimSet.add`'s arguments.

    >>> import theoryverify as tv
    >>> @tv.claim("eq1", location="Eq. (1)", statement="1 + 1 = 2", kind=tv.Kind.IDENTITY)
    ... def eq1(ctx):
    ...     return tv.proved("arithmetic", "1 + 1 = 2")
    >>> [c.id for c in CLAIMS][-1:]  # the module's implicit ClaimSet
    ['theoryverify.eq1']
    """
    return implicit_claims(sys._getframe(1).f_globals).add(short_id, **registration)


#: the engine's functions that register a claim for their caller (:func:`claim`, ``tv.tex_chain``): the claim's
#: ``source`` and ``module`` are their caller's
REGISTRARS: set = {claim.__code__}


def implicit_claims(module: dict) -> ClaimSet:
    """The ``CLAIMS`` ClaimSet of the module whose globals are ``module``, set there if it has none."""
    claim_set = module.get("CLAIMS")
    if not isinstance(claim_set, ClaimSet):
        claim_set = ClaimSet(_paper_id_of(str(module.get("__name__", "paper"))))
        module["CLAIMS"] = claim_set
    return claim_set


def _paper_id_of(module_name: str) -> str:
    """The id of the paper a module belongs to: its top package's ``PAPER.id``, else that package's name."""
    top = module_name.split(".")[0]
    paper = getattr(sys.modules.get(top), "PAPER", None)
    return paper.id if isinstance(paper, Paper) else top
