"""The interactive session: one statement, definition or expression per line.

Piped (stdin not a terminal): no banner or prompt, one output line per input line (blank lines and
``#`` comments give none), so scripts can pair inputs with verdicts.  At a terminal: a prompt,
readline editing and history (``~/.theoryverify_history``).
"""
from __future__ import annotations

import os
import sys
from typing import IO

from .session import Session

HELP = """\
statements   LHS == RHS, LHS <= RHS, >=, <, >, chains A == B <= C   e.g.  diff(L1, v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)
definitions  name := expr,  f(x, y) := expr                         e.g.  g := diff(L1, v1);  f(x) := x*sigmoid(x)
expressions  a bare expression prints its value
functions    diff subs grad exp log ln sqrt Abs sin cos tanh sinh cosh erf erfc sigmoid softplus relu Heaviside
             indicator(x > 0) floor ceiling Max Min softmax(a, b, ...)[j] Sum(f, (k, a, b)) Product binomial
             factorial trace det inv norm E(expr);  W @ v, W.T;  constants pi, E, e
numbers      exact: 1/9 stays 1/9, 0.1 is 1/10; ** takes numeric exponents |e| <= 100 (or an integer variable)
verdicts     proved (symbolic or exact) > holds (exact rational / float64 points, with the domain searched) >
             inconclusive; refuted with a counterexample shrunk to simple values and both sides' values
assumptions  :assume 0 < p < 1 | a < b | n: integer | y in {-1, 1} | X ~ Normal(mu, s) | W: matrix(3, 3) |
             v: vector(3) | f: function | simplex(a, b, c)   (free context only)
latex        :latex \\frac{d}{dx} x^2 = 2x      one statement in LaTeX
typed step   :given EQ (repeatable), :by RULE, then the statement; the premises are used once
             RULE: substitute | linear(c1, ..., ck) | clear-denominators | clear(D)   (:clear drops them)
commands     :symbols  names in scope with their domains    :help  this text    :quit  leave"""

HISTORY = os.path.join(os.path.expanduser("~"), ".theoryverify_history")


def handle(session: Session, line: str) -> str | None:
    """The output for one input line (None: nothing to print; raises EOFError on :quit)."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    if text.startswith(":"):
        cmd = text[1:].strip().lower()
        if cmd in ("q", "quit", "exit"):
            raise EOFError
        if cmd in ("h", "help", "?"):
            return HELP
        if cmd in ("s", "symbols"):
            return "\n".join(session.symbols())
        word, _, rest = text[1:].partition(" ")
        if word == "given" and rest.strip():
            session.pending_given.append(rest.strip())
            return f"given {len(session.pending_given)}: {rest.strip()}"
        if word == "assume" and rest.strip():
            try:
                return session.assume(rest.strip())
            except Exception as exc:  # BadInput (one line)
                return f"error: {exc}"
        if word == "latex" and rest.strip():
            return session.check(rest.strip(), latex=True).line()
        if word == "by" and rest.strip():
            session.pending_by = rest.strip()
            return f"rule: {session.pending_by}"
        if cmd == "clear":
            session.pending_given, session.pending_by = [], None
            return "premises cleared"
        return (f"error: unknown command {text.split()[0][:20]!r} (:help, :symbols, :assume, :latex, :given, :by, "
                ":clear, :quit)")
    if session.pending_given or session.pending_by:
        given, by = session.pending_given, session.pending_by
        session.pending_given, session.pending_by = [], None
        if not (given and by):
            return "error: a typed step needs both :given premises and a :by rule"
        return session.check(text, given=given, by=by).line()
    out, _ = session.line(text)
    return out


def run(session: Session, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
        interactive: bool | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if interactive is None:
        interactive = stdin.isatty() and stdout.isatty()
    if interactive:
        _readline()
        stdout.write(f"theoryverify check — context {session.context.name} (:help, :symbols, :quit)\n")
    while True:
        try:
            line = input("check> ") if interactive else stdin.readline()
        except (EOFError, KeyboardInterrupt):
            break
        if not interactive and line == "":
            break
        try:
            out = handle(session, line)
        except EOFError:
            break
        except KeyboardInterrupt:  # Ctrl-C stops the running check, not the session
            out = "interrupted"
        if out is not None:
            stdout.write(out + "\n")
            stdout.flush()
    if interactive:
        _save_history()
    return 0


def _readline() -> None:
    try:
        import readline
        if os.path.exists(HISTORY):
            readline.read_history_file(HISTORY)
        readline.set_history_length(1000)
    except (ImportError, OSError):  # pragma: no cover
        pass


def _save_history() -> None:
    try:
        import readline
        readline.write_history_file(HISTORY)
    except (ImportError, OSError):  # pragma: no cover
        pass
