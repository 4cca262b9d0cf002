"""The examples in the public API's docstrings run (and stay true): the package's front page (check_identity,
check_inequality, check_rate, claim registration), each public name that carries one, and the modules of
``new-paper --from-tex`` and its step-check claims."""
from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

import theoryverify as tv

MODULES = ["theoryverify", "theoryverify.texsteps", "theoryverify.environment", "theoryverify.checks.inequality",
           "theoryverify.ranges", "theoryverify.checks.mcgradient",
           "theoryverify.shared_sweeps", "theoryverify.claims", "theoryverify.dependent", "theoryverify.displays",
           "theoryverify.torchgrad"]


def _public_objects():
    seen = set()
    for name in tv.__all__:
        obj = getattr(tv, name)
        if inspect.ismodule(obj) or id(obj) in seen or not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        seen.add(id(obj))
        yield name, obj


def _run(tests) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} doctest failure(s) (see the output above)"


@pytest.mark.parametrize("module", MODULES)
def test_module_examples_run(module):
    mod = importlib.import_module(module)
    tests = [t for t in doctest.DocTestFinder().find(mod) if t.examples]
    assert tests, f"{module} has no example"
    _run(tests)


def test_public_names_examples_run():
    tests, names = [], []
    for name, obj in _public_objects():
        found = [t for t in doctest.DocTestFinder(recurse=False).find(obj, name, globs=vars(inspect.getmodule(obj)))
                 if t.examples]
        if found:
            names.append(name)
        tests += found
    for name in ("check_identity", "check_inequality", "ClaimSet", "check_cases", "at_least", "check_tex_chain",
                 "check_mc_gradient", "shared_sweep", "Within", "check_mc_gradient_over", "printed", "Printed",
                 "check_count_over"):
        assert name in names, f"{name} has no example in its docstring"
    _run(tests)


#: public names still without a docstring of their own (none: every public name has one)
PENDING: set[str] = set()


def test_every_public_name_has_a_docstring():
    missing = {name for name, obj in _public_objects()
               if not (obj.__dict__.get("__doc__") if inspect.isclass(obj) else obj.__doc__)}
    assert missing <= PENDING, sorted(missing - PENDING)
