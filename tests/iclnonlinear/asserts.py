"""Verdict assertions shared by this paper's tests: a refutation must carry its counterexample."""
from theoryverify.verdicts import Status


def refuted(v):
    assert v.status is Status.REFUTED, (v.status, v.evidence)
    assert v.counterexample
    return v


def held(v):
    assert v.status in (Status.HOLDS, Status.PROVED), (v.status, v.evidence)
    return v
