"""``python -m theoryverify.check [--context CTX] [--assume A]... ["STATEMENT"]``.

Exit codes (a contract): 0 the statement holds (proved or numerically), 1 refuted, 3 inconclusive
(or the check itself broke), 2 bad input (parse error, unknown name, unknown context, bad option),
with a one-line error on stderr.  Without a statement: an interactive session (:mod:`.repl`).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

PROG = "python -m theoryverify.check"
EPILOG = """\
functions: diff(e, x[, k]) exp log sqrt Abs Max Min softmax(a, b, ...)[j] (j from 1) subs(e, x, value, ...)
numbers are exact (1/9 stays 1/9, 0.1 is 1/10); ** takes numeric exponents.
exit codes: 0 holds (proved or numerically), 1 refuted, 3 inconclusive, 2 bad input.
examples:
  python -m theoryverify.check --context icrecall.n3 "diff(L1, v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)"
  python -m theoryverify.check --assume "T > 0" "exp(log(T)) == T"
  python -m theoryverify.check --given "a == b" --given "c == d" --by "linear(2, -1)" "2*a - c == 2*b - d"
  python -m theoryverify.check --context icrecall.n3          # interactive session (:help)
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        sys.stderr.write(f"theoryverify.check: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    from .parser import DEFAULT_TIMEOUT
    p = _Parser(prog=PROG, description="Check one derivation step: LHS == RHS, <=, >=, < or >.",
                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    p.add_argument("statement", nargs="?", help="the statement; omit it for an interactive session")
    p.add_argument("--context", default="free", help="step context (see --list-contexts); default free")
    p.add_argument("--assume", action="append", default=[], metavar="A",
                   help='domain assumption for the free context, e.g. "T > 0", "0 < x < 1", "simplex(a, b, c)"')
    p.add_argument("--given", action="append", default=[], metavar="EQ", help="a premise (with --by)")
    p.add_argument("--by", metavar="RULE", help="substitute | linear(c1, ..., ck) | clear-denominators | clear(D)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--list-contexts", action="store_true", help="list the step contexts")
    p.add_argument("--symbols", action="store_true", help="list the names of --context with their domains")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="hard time limit per check, seconds")
    return p


def _fail(message: str, as_json: bool = False, statement: str = "", context: str = "") -> int:
    sys.stderr.write(f"theoryverify.check: error: {' '.join(message.split())}\n")
    if as_json:
        print(json.dumps({"statement": statement, "context": context, "verdict": "error",
                          "method": "bad input", "evidence": message, "counterexample": None}))
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not 0 < args.timeout <= 600:
        return _fail("--timeout must be in (0, 600] seconds")
    if args.statement is not None:  # reject hostile text before loading anything heavy
        from .parser import BadInput, parse_statement
        try:
            parse_statement(args.statement)
            for g in args.given:
                parse_statement(g)
        except BadInput as exc:
            return _fail(str(exc), args.json, args.statement if len(args.statement) < 200 else "", args.context)
    from .. import stepcontext
    from .parser import BadInput
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
                          timeout=args.timeout)
    except BadInput as exc:
        return _fail(str(exc), args.json, args.statement or "", args.context)
    if args.symbols:
        print("\n".join(session.symbols()))
        return 0
    if args.statement is None:
        from .repl import run
        return run(session)
    verdict = session.check(args.statement, given=args.given, by=args.by)
    if verdict.bad_input:
        return _fail(verdict.verdict.evidence, args.json, args.statement, args.context)
    print(json.dumps(verdict.to_json(), ensure_ascii=False) if args.json else verdict.line())
    return verdict.exit_code
