"""The source closure of a module: its file and every *local* module it imports, transitively.

Cached results are keyed by the hash of this closure (:func:`closure_version`), so that a change anywhere in
the code a claim runs — its own module, the model it imports, the engine — invalidates exactly the results
that depend on it, with no hand-listed modules and no "bump this when …" constants.

Local means: a module whose file is not part of the Python installation (the standard library and
``site-packages``/``dist-packages``), i.e. the paper's package, the engine when installed in editable mode,
and the user's own helpers.  Imports are read from the source with :mod:`ast` (nothing is executed); an
import that cannot be resolved is ignored (it cannot be local code that exists).  A package that imports its
submodules lazily (a module-level ``__getattr__``, as ``import theoryverify as tv`` does) hides them from its import
statements.  Such a package's table (a dict literal ``{"name": ("submodule", "attr"), …}`` in its ``__init__``) is
read instead: a file that writes ``tv.check_identity`` or ``from theoryverify import check_identity`` imports the
submodule that name comes from (``theoryverify.checks``), and only that one, so an edit of the engine's LaTeX reader
no longer invalidates the stored results of a claim that never reads LaTeX.  A use that cannot be followed (``tv``
passed around, ``getattr(tv, name)``, ``from theoryverify import *``) imports every submodule the table names, as does
a lazy package without such a table (every string constant naming one of its submodules, as before).
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import sys
import sysconfig
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=None)
def _installation_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {paths.get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots |= {sys.base_prefix, sys.prefix}
    return tuple(str(Path(r).resolve()) for r in roots if r)


def is_local(path: str | Path) -> bool:
    p = str(Path(path).resolve())
    if "site-packages" in p or "dist-packages" in p:
        return False
    return not any(p.startswith(root + "/") for root in _installation_roots())


def _origin(name: str) -> str | None:
    """The source file of module ``name``, or None (not a module, or not Python source).

    ``importlib.util.find_spec`` imports the parent of a dotted name: for ``from .montecarlo import mc_check`` the
    candidate ``theoryverify.checks.montecarlo.mc_check`` imported ``montecarlo`` (and with it scipy.stats, 0.7 s of
    CPU) in every process that computed a closure.  A parent that is not yet imported is looked up first instead:
    when it is no package, ``name`` cannot be a module (``find_spec`` would import the parent only to fail)."""
    parent = name.rpartition(".")[0]
    if parent and parent not in sys.modules:
        try:
            parent_spec = importlib.util.find_spec(parent)
        except (ImportError, ValueError, AttributeError):
            return None
        if parent_spec is None or parent_spec.submodule_search_locations is None:
            return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    origin = getattr(spec, "origin", None) if spec else None
    return origin if origin and origin.endswith(".py") else None


def _imports(path: str, module: str) -> set[str]:
    """Absolute names of the modules ``path`` imports (relative imports resolved against ``module``).

    Cached per file version (path, module, modification time, size): the closures of a paper's claim modules
    share most of their files (the engine, the model), and parsing each of them again for every claim module
    cost seconds per claim module and process; an edited file is read again."""
    try:
        st = Path(path).stat()
    except OSError:
        return set()
    return set(_imports_of_version(path, module, st.st_mtime_ns, st.st_size))


@lru_cache(maxsize=4096)
def _imports_of_version(path: str, module: str, mtime_ns: int, size: int) -> frozenset[str]:
    return frozenset(_parse_imports(path, module))


#: bump when what :func:`_statements` records changes (old entries are then never read)
_CACHE_FORMAT = 2


def _cache_dir() -> Path | None:
    """Where :func:`_statements` keeps what it read of each source text, shared by every process of the user:
    ``$XDG_CACHE_HOME/theoryverify/closure-imports`` (``~/.cache`` when unset); None (nothing kept) when neither
    names an absolute folder (no home: never a folder named "~" in the working directory)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "theoryverify" / "closure-imports" if os.path.isabs(base) else None


def _statements(source: bytes, module: str, is_pkg: bool) -> tuple[list[str], list[str] | None, dict[str, str] | None]:
    """The absolute names ``source``'s import statements name (relative ones resolved against ``module``), with the
    attributes it reads of a module it imports (``tv.check_identity`` → ``theoryverify.check_identity``; a bare use of
    the module → ``theoryverify.*``), and, for a package with a module-level ``__getattr__``, its identifier string
    constants and its lazy table (name → submodule; else None) — a pure function of its arguments and the Python
    grammar, so it is kept on disk under their hash (:func:`_cache_dir`): parsing the ~100 files of a claim's closure
    cost ~1.3 CPU-s in every ``verify``/``report``/pytest process, most of them reading the same files.  An entry
    that cannot be read or does not hold what is recorded here is parsed again; a folder that cannot be written is
    no error (nothing is kept).  Raises SyntaxError/ValueError as ast.parse."""
    key = hashlib.sha256(b"\0".join([str(_CACHE_FORMAT).encode(), sys.version.encode(), module.encode(),
                                      b"1" if is_pkg else b"0", source])).hexdigest()
    folder = _cache_dir()
    if folder is None:
        return _read_statements(source, module, is_pkg)
    entry = folder / key[:2] / f"{key[2:]}.json"
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
        names, constants, table = data["imports"], data["lazy_constants"], data["lazy_table"]
        if isinstance(names, list) and all(isinstance(n, str) for n in names) and (
                constants is None or isinstance(constants, list) and all(isinstance(c, str) for c in constants)) \
                and (table is None or isinstance(table, dict) and
                     all(isinstance(k, str) and isinstance(v, str) for k, v in table.items())):
            return names, constants, table
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    names, constants, table = _read_statements(source, module, is_pkg)
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"imports": names, "lazy_constants": constants, "lazy_table": table}),
                       encoding="utf-8")
        os.replace(tmp, entry)  # whole or absent: a reader never sees half an entry
    except OSError:
        pass
    return names, constants, table


def _read_statements(source: bytes, module: str, is_pkg: bool) \
        -> tuple[list[str], list[str] | None, dict[str, str] | None]:
    tree = ast.parse(source.decode("utf-8"))
    package = module if is_pkg else module.rpartition(".")[0]
    out: set[str] = set()
    bound: dict[str, str] = {}  # a name ``import X as a`` binds -> X (``import a.b`` binds a -> a)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
            for a in node.names:
                top = a.name.partition(".")[0]
                bound[a.asname or top] = a.name if a.asname else top
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                root = ".".join(base + ([node.module] if node.module else []))
            else:
                root = node.module or ""
            if root:
                out.add(root)
                out.update(f"{root}.{a.name}" if a.name != "*" else f"{root}.*" for a in node.names)
    if bound:
        # what the file reads of each module it binds: ``tv.name`` names ``X.name``; any other use of the bound
        # name (passed on, ``getattr(tv, …)``, rebound) may read anything: ``X.*``
        attribute_values = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
                out.add(f"{bound[node.value.id]}.{node.attr}")
                attribute_values.add(id(node.value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in bound and id(node) not in attribute_values:
                out.add(f"{bound[node.id]}.*")
    constants = table = None
    if is_pkg and _lazy(tree):
        constants = sorted({c.value for c in ast.walk(tree)
                            if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value.isidentifier()})
        table = {}
        for node in ast.walk(tree):  # {"name": ("submodule", "attr" | None), …}
            if isinstance(node, ast.Dict) and node.keys and all(
                    isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys) and all(
                    isinstance(v, ast.Tuple) and v.elts and isinstance(v.elts[0], ast.Constant) and
                    isinstance(v.elts[0].value, str) for v in node.values):
                table.update({k.value: v.elts[0].value for k, v in zip(node.keys, node.values)})
        table = table or None
    return sorted(out), constants, table


def _parse_imports(path: str, module: str) -> set[str]:
    try:
        source = Path(path).read_bytes()
        names, constants, table = _statements(source, module, Path(path).name == "__init__.py")
    except (OSError, SyntaxError, ValueError):
        return set()
    out = set(names)
    if constants is not None and table is None:
        # a package with a module-level __getattr__ (PEP 562) and no table to read imports its submodules on first
        # attribute access, which the import statements do not show: every string constant naming one counts
        out.update(f"{module}.{c}" for c in constants if _origin(f"{module}.{c}") is not None)
    for name in list(out):  # parents of a module run their __init__ too
        parts = name.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return out


def _lazy_table(package: str) -> dict[str, str] | None:
    """The lazy table of local package ``package`` (name → its submodule, absolute), or None when it has none."""
    origin = _origin(package) if package and not _in_installed_package(package) else None
    if origin is None or Path(origin).name != "__init__.py" or not is_local(origin):
        return None
    try:
        st = Path(origin).stat()
    except OSError:
        return None
    return _table_of_version(origin, package, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=256)
def _table_of_version(path: str, package: str, mtime_ns: int, size: int) -> dict[str, str] | None:
    try:
        _, _, table = _statements(Path(path).read_bytes(), package, True)
    except (OSError, SyntaxError, ValueError):
        return None
    return None if table is None else {k: f"{package}.{v}" for k, v in table.items()}


def _lazy(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body)


def _in_installed_package(name: str) -> bool:
    """Whether ``name`` (dotted) lies in an installed package: every folder of its top-level package (the imported
    package's ``__path__``, else the search locations of its spec, found without importing it) is outside the
    project, so no submodule of it is local.  :func:`_origin` would import the parents of ``name`` to find it
    (looking up ``scipy.stats.qmc``, a name the engine imports, imported ``scipy.stats``: 0.7 s of CPU in every
    process that computed a closure).  A namespace package with a local portion is not skipped."""
    top = name.partition(".")[0]
    module = sys.modules.get(top)
    if module is not None:
        path = getattr(module, "__path__", None)
    else:
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError, AttributeError):
            return False
        path = spec.submodule_search_locations if spec else None
    folders = list(path or [])
    return bool(folders) and not any(is_local(f) for f in folders)


@lru_cache(maxsize=None)
def module_closure(module: str) -> tuple[str, ...]:
    """Sorted files of ``module`` and of every local module it imports, transitively."""
    seen: dict[str, str] = {}
    todo = [module]
    root_table = _lazy_table(module)
    if root_table:  # the closure of a lazy package itself: everything it can load
        todo.extend(root_table.values())
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        head, _, attr = name.rpartition(".")
        table = _lazy_table(head) if head and not attr.startswith("__") else None
        if table is not None and (attr == "*" or attr in table and table[attr] != name):
            seen[name] = ""  # tv.check_identity: theoryverify.checks (tv.scaling, a submodule, is read as one)
            todo.extend(table.values() if attr == "*" else [table[attr]])
            continue
        if attr == "*":
            seen[name] = ""
            continue
        origin = None if "." in name and _in_installed_package(name) else _origin(name)
        if origin is None or not is_local(origin):
            seen[name] = ""
            continue
        seen[name] = origin
        todo.extend(n for n in _imports(origin, name) if n not in seen)
    return tuple(sorted({p for p in seen.values() if p}))


def closure_version(*modules: str) -> str:
    """SHA-256 (16 hex) of the source closure of ``modules``: names and contents of every file."""
    h = hashlib.sha256()
    files = sorted({f for m in modules for f in module_closure(m)})
    for f in files:
        h.update(Path(f).name.encode() + b"\0" + Path(f).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def code_key(*objects) -> str:
    """:func:`closure_version` of the modules that define ``objects`` (functions, classes or modules) — the
    ``code`` part of a results-store key for a sweep: ``tv.sweep(store, {"claim": cid, "code": code_key(fn)},
    configs, fn)`` is recomputed exactly when the code ``fn`` runs changes."""
    names = []
    for obj in objects:
        name = obj.__name__ if hasattr(obj, "__file__") else getattr(obj, "__module__", None)
        if not name:
            raise TypeError(f"code_key needs functions, classes or modules, got {type(obj).__name__}")
        names.append(name)
    return closure_version(*names)
