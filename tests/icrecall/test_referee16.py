"""Referee 16 on icrecall: the four pairs of findings that share one error of the paper declare one root cause
(so the page counts them once and groups their cards), and the texts say what is measured."""
from theoryverify import registry


def _claims():
    return {c.id.split(".", 1)[1]: c for c in registry.claims(paper="icrecall")}


def test_the_four_pairs_declare_one_root_cause_each():
    cs = _claims()
    pairs = [("t4-unique-crit", "t4-psi-sign-left"), ("l5-crit-dv1", "l5-crit-dv2"), ("l8-diff12", "l8-diff34"),
             ("T3-L10-otime", "l7-logs")]
    causes = []
    for a, b in pairs:
        assert cs[a].cause and cs[a].cause == cs[b].cause, (a, b)
        causes.append(cs[a].cause)
    assert len(set(causes)) == 4  # four distinct causes, none merged with another family
    assert cs["t4-dj"].cause != cs["t4-unique-crit"].cause  # the d_j family is another error
