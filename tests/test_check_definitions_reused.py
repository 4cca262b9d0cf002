"""A function definition whose body is integer arithmetic of its own parameters alone (the tex reader's
``inner(a, b) := a*b`` and ``transpose(x) := x``, which it gives to every session it opens) is built once per process
and reused by later sessions: each build was a forked child costing ~20 ms of CPU, about two thirds of the forks of
``check --tex`` (tests/test_check_tex.py: 1484 → 526 forks).  Any body a scope or a setting could read differently
(a name that is not a parameter, a power, a call, a float) is still built in each session, and the reused
function decides as a fresh one does."""
import pytest

from theoryverify.check import decide
from theoryverify.check.session import Session


@pytest.fixture
def builds(monkeypatch):
    """The parameters of every function definition built (forked) from here on."""
    calls = []
    real = decide.build_function

    def counted(scope, params, expr, *args, **kwargs):
        calls.append(params)
        return real(scope, params, expr, *args, **kwargs)

    monkeypatch.setattr(decide, "build_function", counted)
    return calls


def test_parameter_arithmetic_is_built_once_and_decides_as_built(builds):
    body = "hreuse(p, q) := (p - 7*q)/11 + p*q"  # a body no other test defines: this process has not built it
    verdicts = [Session("free", define=(body,)).check("hreuse(x, y) == (x - 7*y)/11 + x*y").status.value
                for _ in range(2)]
    assert builds == [("p", "q")], builds  # the second session reused the first one's Lambda
    assert verdicts[0] == verdicts[1] and verdicts[0] in ("proved", "holds"), verdicts
    planted = Session("free", define=(body,)).check("hreuse(x, y) == (x - 7*y)/11 - x*y")
    assert planted.status.value == "refuted", planted.line()  # the reused function still refutes a wrong step
    assert builds == [("p", "q")], builds


@pytest.mark.parametrize("body", ["kfree(p) := p + c", "kpow(p) := p**2", "kcall(p) := sin(p)",
                                  "kfloat(p) := 0.5*p"])
def test_any_other_body_is_built_in_each_session(builds, body):
    for _ in range(2):
        Session("free", define=(body,))
    assert len(builds) == 2, (body, builds)
