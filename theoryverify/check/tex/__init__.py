"""Reading a real paper's LaTeX: every displayed relation found, read, classified and checked.

The pieces, in the order data flows through them (one idea per module):

- :mod:`.source` — the paper's files: the main file, what it ``\\input``s / ``\\include``s / ``\\subfile``s inside
  its folder (never outside), comments blanked, ``% theoryverify:`` directives kept, every position mapped back to
  ``FILE:LINE``;
- :mod:`theoryverify.check.macros` — the paper's own macros, expanded by a bounded expander (never TeX);
- :mod:`.displays` — every display (``equation``, ``align``, ``gather``, ``multline``, ``eqnarray``, ``\\[ \\]``,
  ``$$ $$``, starred forms), its rows, prose segments and side conditions, split into chains;
- :mod:`.names` — what each name is, from the whole paper (a function, a number, a vector, Euler's e or not);
- :mod:`.kinds` — what a relation is (a derivation step, a definition, an update, a constraint, …);
- :mod:`.reading` — one chain's terms as the checker's syntax trees (or the reason they cannot be read);
- :mod:`.policy` — the verdict a step may get, read in the authors' favour, and never from a guess;
- :mod:`.run` — the whole paper, in parallel, with the coverage line, first wrong step per chain and ``--json``.
"""
