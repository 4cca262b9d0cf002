"""One sub-package per paper: its model built from primitives, and its claims (``claims_*``)."""
