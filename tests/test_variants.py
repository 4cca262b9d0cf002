"""One claim, several profiles: a Variant replaces the claim's parameters, and (where given) its expectation
and tags, under its profile — no quick/full twins, one claim id."""
from theoryverify.claims import Claim, ClaimSet, Kind, RunContext, Variant
from theoryverify.verdicts import Status, holds, inconclusive


def check(ctx):
    n = ctx.params["n"]
    # a main result (Thm 1) passes only on recorded evidence: the configuration it ran
    return holds("m", f"n = {n}", configurations=[{"n": n}]) if n >= 10 else inconclusive("m", f"only n = {n}")


def make(**kw):
    return Claim("p.c", "p", "Thm 1", "s", Kind.DYNAMICS, check, params={"n": 3},
                 variants={"full": Variant(params={"n": 30}, expect=None, tags=frozenset({"slow"}))},
                 expect=Status.INCONCLUSIVE, **kw)


def test_profile_selects_parameters_expectation_and_tags():
    c = make()
    quick = c.run(RunContext(profile="quick"))
    full = c.run(RunContext(profile="full"))
    assert quick.verdict.evidence == "only n = 3" and quick.as_expected
    assert full.verdict.evidence == "n = 30" and full.as_expected
    assert c.tags_for("quick") == frozenset() and c.tags_for("full") == {"slow"}
    assert full.to_json()["variant"] == "full" and quick.to_json()["variant"] is None
    assert full.to_json()["expected"] == "proved|holds" and quick.to_json()["expected"] == "inconclusive"


def test_planted_wrong_expectation_for_a_variant_is_caught():
    c = Claim("p.c", "p", "Thm 1", "s", Kind.DYNAMICS, check, params={"n": 3},
              variants={"full": Variant(params={"n": 30}, expect=Status.INCONCLUSIVE)}, expect=Status.INCONCLUSIVE)
    assert not c.run(RunContext(profile="full")).as_expected  # holds at n = 30, registered inconclusive


def test_registration_records_source_and_module():
    claims = ClaimSet("p")

    @claims.add("c", location="Lemma 1", statement="s", kind=Kind.IDENTITY)
    def _c(ctx):
        return holds("m", "e")
    (c,) = list(claims)
    path, _, line = c.source.rpartition(":")
    assert path == c.module.replace(".", "/") + ".py" and path.endswith("test_variants.py")
    assert int(line) == _c.__code__.co_firstlineno  # the line of the @claims.add decorator


def test_a_variant_with_its_own_id_is_listed_as_a_pinned_claim():
    c = Claim("p.c", "p", "Thm 1", "s", Kind.DYNAMICS, check, params={"n": 3}, expect=Status.INCONCLUSIVE,
              variants={"full": Variant(params={"n": 30}, expect=None, tags=frozenset({"slow"}), id="c-full")})
    base, full = c.expanded()
    assert base.id == "p.c" and base.variants == {} and full.id == "p.c-full" and full.profile == "full"
    assert full.tags == {"slow"} and full.params == {"n": 30}
    r = full.run(RunContext(profile="quick"))  # pinned: runs its own profile whatever the context says
    assert r.verdict.evidence == "n = 30" and r.as_expected and r.context.profile == "full"
    assert base.run(RunContext()).verdict.evidence == "only n = 3"


def test_the_base_of_an_extracted_full_variant_expects_under_full_what_it_expects_under_quick():
    """A claim refuted on the full grid but inconclusive on the quick grid (span rule): in a full-profile report the
    base claim still runs the quick grid, so it must expect inconclusive there too, not the full variant's refutation."""
    import theoryverify as tv
    c = tv.ClaimSet("demo")
    c.add("rate", location="Thm 1", statement="s", kind=tv.Kind.RATE, expect=tv.Status.REFUTED,
          finding=tv.Finding.ERRATUM, reason="fails on the full grid",
          variants={"quick": tv.Variant(expect=tv.Status.INCONCLUSIVE),
                    "full": tv.Variant(params={"grid": "full"}, tags=frozenset({"slow"}), id="rate-full")})(
        lambda ctx: tv.inconclusive("m", "narrow"))
    base, full = [x for claim in c.claims for x in claim.expanded()]
    assert base.expect_for("full") is tv.Status.INCONCLUSIVE and base.expect_for("quick") is tv.Status.INCONCLUSIVE
    assert full.id == "demo.rate-full" and full.expect_for("full") is tv.Status.REFUTED
    assert not base.expected(tv.Status.REFUTED, "full")  # planted: the old behaviour would accept this
