"""``python -m theoryverify.check [--context CTX] [--assume A]... ["STATEMENT" | --latex "…" | --tex FILE]``.

Exit codes (a contract): 0 the statement holds (proved or numerically), 1 refuted, 3 inconclusive
(or the check itself broke), 2 bad input (parse error, unknown name, unknown context, bad option, a
refused LaTeX file), with a one-line error on stderr.  Without a statement: an interactive session
(:mod:`.repl`).  A plain statement is parsed before SymPy is imported, so bad input is rejected at once.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

PROG = "python -m theoryverify.check"
EPILOG = """\
statements: LHS == RHS, <=, >=, <, >, and chains A == B <= C (every link is checked; the first failing one named)
functions: diff subs grad exp log ln sqrt Abs sin cos tanh sinh cosh erf erfc sigmoid softplus relu Heaviside
  indicator(x > 0) floor ceiling Max Min softmax(a, b, ...)[j] Sum(f, (k, a, b)) Product binomial factorial
  trace det inv norm E(expr);  W @ v, W.T;  constants pi, E, e
numbers are exact (1/9 stays 1/9, 0.1 is 1/10); ** takes numeric exponents (or an integer variable: r**n).
assumptions (--assume, repeatable): "0 < p < 1", "a < b", "x, y > 0", "n: integer", "n >= 1", "y in {-1, 1}",
  "X ~ Normal(mu, s)", "W: matrix(3, 3)", "v: vector(3)", "f: function", "simplex(a, b, c)"
exit codes: 0 holds (proved or numerically), 1 refuted, 3 inconclusive, 2 bad input.
examples:
  python -m theoryverify.check "(x + 1)**2 == x**2 + 2*x + 1"
  python -m theoryverify.check --assume "x <= 2" "exp(x) <= 1 + x + x**2"
  python -m theoryverify.check --latex "\\frac{d}{dx} \\sigma(x) = \\sigma(x)(1 - \\sigma(x))"
  python -m theoryverify.check --tex docs/examples/derivation.tex     # every display of a paper
  python -m theoryverify.check --tex paper/main.tex --json            # one JSON object
  python -m theoryverify.check --context icrecall.n3 "diff(L1, v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)"
  python -m theoryverify.check --given "a == b" --given "c == d" --by "linear(2, -1)" "2*a - c == 2*b - d"
  python -m theoryverify.check --context icrecall.n3          # interactive session (:help)
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        sys.stderr.write(f"theoryverify.check: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    from .parser import DEFAULT_TIMEOUT
    p = _Parser(prog=PROG, description="Check one derivation step: LHS == RHS, <=, >=, < or > (or a chain).",
                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    p.add_argument("statement", nargs="?", help="the statement; omit it for an interactive session")
    p.add_argument("--latex", metavar="TEX", help="the statement in LaTeX (one line: = \\le \\frac \\sum …)")
    p.add_argument("--tex", metavar="FILE", nargs="+",
                   help="check every displayed relation of a paper: its main file (\\input/\\include inside its "
                        "folder are followed) and any further files")
    p.add_argument("--jobs", type=int, default=None, metavar="N", help="--tex: processes for the checks (default 2)")
    p.add_argument("--context", default="free", help="step context (see --list-contexts); default free")
    p.add_argument("--assume", action="append", default=[], metavar="A",
                   help='an assumption for the free context, e.g. "T > 0", "0 < x < 1", "n: integer"')
    p.add_argument("--define", action="append", default=[], metavar="DEF",
                   help='a definition, e.g. "f(x) := x*sigmoid(x)" or "g := x**2"')
    p.add_argument("--given", action="append", default=[], metavar="EQ", help="a premise (with --by)")
    p.add_argument("--by", metavar="RULE", help="substitute | linear(c1, ..., ck) | clear-denominators | clear(D)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--list-contexts", action="store_true", help="list the step contexts")
    p.add_argument("--symbols", action="store_true", help="list the names of --context with their domains")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="hard time limit per check, seconds")
    return p


def _fail(message: str, as_json: bool = False, statement: str = "", context: str = "") -> int:
    sys.stderr.write(f"theoryverify.check: error: {' '.join(str(message).split())}\n")
    if as_json:
        print(json.dumps({"statement": statement, "context": context, "verdict": "error",
                          "method": "bad input", "evidence": " ".join(str(message).split()), "counterexample": None},
                         ensure_ascii=False))
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    from .parser import DEFAULT_TIMEOUT
    args = build_parser().parse_args(argv)
    if not 0 < args.timeout <= 600:
        return _fail("--timeout must be in (0, 600] seconds")
    given = sum(x is not None for x in (args.statement, args.latex, args.tex))
    if given > 1:
        return _fail("give one of: a statement, --latex or --tex")
    from .parser import BadInput
    text = args.statement if args.statement is not None else args.latex
    if text is not None:  # reject hostile text before loading anything heavy
        try:
            if args.latex is not None:
                from .latex import parse_latex_statement
                parse_latex_statement(args.latex, None)
            else:
                from .parser import parse_statement
                parse_statement(args.statement, None)
            for g in args.given:
                from .parser import parse_statement
                parse_statement(g, None)
        except BadInput as exc:
            return _fail(str(exc), args.json, text if len(text) < 200 else "", args.context)
    if args.tex is not None:
        from .tex.run import check_paper
        try:
            return check_paper(args.tex, args.assume, seed=args.seed, timeout=min(args.timeout, 3.0)
                               if args.timeout == DEFAULT_TIMEOUT else args.timeout, jobs=args.jobs,
                               as_json=args.json, context=args.context)
        except BadInput as exc:
            return _fail(str(exc), args.json, "", args.context)
        except KeyboardInterrupt:
            sys.stderr.write("theoryverify.check: interrupted\n")
            return 130
    from .. import stepcontext
    from .session import Session
    if args.list_contexts:
        for name, ctx in stepcontext.contexts().items():
            print(f"{name}\t{ctx.description}")
        return 0
    if args.by and not args.given or args.given and not args.by:
        return _fail("--given and --by go together")
    from ..seeds import DEFAULT_SEED
    try:
        session = Session(args.context, args.assume, seed=DEFAULT_SEED if args.seed is None else args.seed,
                          timeout=args.timeout, define=args.define)
    except BadInput as exc:
        return _fail(str(exc), args.json, text or "", args.context)
    if args.symbols:
        print("\n".join(session.symbols()))
        return 0
    if text is None:
        from .repl import run
        return run(session)
    verdict = session.check(text, given=args.given, by=args.by, latex=args.latex is not None)
    if verdict.bad_input:
        return _fail(verdict.verdict.evidence, args.json, text, args.context)
    if args.json:
        print(json.dumps(verdict.to_json(), ensure_ascii=False))
    else:
        if verdict.read_as is not None:
            print(f"read as: {verdict.read_as}")
        print(verdict.line())
    return verdict.exit_code
