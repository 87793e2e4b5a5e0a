"""Which source gives a proof its meaning, its revision, and ``proofs.lock``.

A proof record depends on the instructions its lowering executed and on the
checker.  Their revisions are kept apart from the records, one line each, in
``proofs.lock`` at the catalogue root (beside ``proofs/``):

* ``core``: ``r<verify.SEMANTICS_REVISION>-<hash>`` of the checker, every
  module of ``verify/`` and of the solver package ``verify/smt/`` except :data:`NOT_CORE` (the CLI, the reports, the
  record and lock code, the catalogue search, emission, the counterexample
  explanation (verify.explain), ``verify asm``'s
  region finder, diagnostics and the lowering parser, whose
  output the lowering hash covers).  A new module is core until it is listed
  there, so nothing a verdict depends on is left out by default;
* one line per registered op: a hash of the source that gives it its
  meaning (:func:`op_text`): its class and base classes in ``verify/ops``,
  its own data (the table row: its lane function's source, its parameters)
  and every ``verify/ops`` definition those name, transitively, found by
  reading the source (an op that reaches the registry, and so any op, depends
  on all of ``verify/ops``).

Sources are compared without comments, docstrings or blank lines, and the
parts of an op's text in sorted order, so moving a helper, rewording a
docstring or adding an op leaves every other line as it was.  The solver's
version stays in each record (``hashes.solver``).  This module never calls
the solver.

>>> parse_lock("core r1-00\\nv_mov_b32 ab\\n", "proofs.lock")
{'core': 'r1-00', 'v_mov_b32': 'ab'}
"""

from __future__ import annotations

import ast
import hashlib
import io
import tokenize
import types
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from . import SEMANTICS_REVISION
from .diag import InputError, Span, read_source
from .ops import OPS

_PKG = Path(__file__).resolve().parent
_OPS = _PKG / "ops"

# verify/*.py modules no verdict depends on (all others are the core)
NOT_CORE = ("__init__.py", "__main__.py", "cli.py", "gate.py", "proofs.py", "revisions.py", "catalog.py",
            "emit.py", "asmcheck.py", "diag.py", "primitives.py", "about.py",
            "svg.py", "report.py", "summary.py", "progress.py",  # pictures and reports; hazards.py is semantics: core
            "explain.py")  # a counterexample's cause, pattern and table: it runs once cex.py has replayed a failing state

# names through which an op could reach any other op
_REGISTRY = {"OPS", "MNEMONICS", "UNMODELLED", "op_of", "lookup"}


def _h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def read(path: Path) -> str:
    """A source file's text (tests replace it to simulate an edit)."""
    return path.read_text()


# ---------------------------------------------------------------------------
# sources without comments, docstrings and blank lines


_DEFS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _definitions(tree: ast.Module) -> list[ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef]:
    """The module and every class and function in it (statements only: a
    docstring is never inside an expression)."""
    out: list[ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef] = []
    todo: list[ast.AST] = [tree]
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Module,) + _DEFS) and n.body:
            out.append(n)
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo += [c for c in getattr(n, name, []) or [] if isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case))]
    return out


def _clean_lines(src: str, tree: ast.Module | None) -> list[str]:
    """The source's lines with comments and whole-line docstrings blanked and
    trailing blanks removed; line k of the file is element k - 1."""
    lines = src.replace("\r\n", "\n").split("\n")
    try:
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type == tokenize.COMMENT:
                r, c = tok.start
                lines[r - 1] = lines[r - 1][:c]
    except (tokenize.TokenError, SyntaxError):
        pass
    if tree is not None:
        for node in _definitions(tree):
            doc = node.body[0]
            if not (isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
                    and isinstance(doc.value.value, str)) or doc.end_lineno is None:
                continue
            first, last = lines[doc.lineno - 1], lines[doc.end_lineno - 1]
            if first[:doc.col_offset].strip() or last.encode()[doc.end_col_offset or 0:].decode().strip():
                continue  # shares a line with code: keep it
            for k in range(doc.lineno - 1, doc.end_lineno):
                lines[k] = ""
    return [ln.rstrip() for ln in lines]


def clean_source(src: str) -> str:
    """Python source without comments, docstrings and blank lines.

    >>> clean_source('def f():\\n    "Doc."\\n    return 1  # one\\n\\n# gone\\n')
    'def f():\\n    return 1'
    """
    try:
        tree: ast.Module | None = ast.parse(src)
    except SyntaxError:
        tree = None
    return "\n".join(ln for ln in _clean_lines(src, tree) if ln)


# ---------------------------------------------------------------------------
# the core


def core_files() -> list[Path]:
    """verify/*.py and the solver package verify/smt/*.py, less NOT_CORE."""
    return [p for p in sorted(_PKG.glob("*.py")) if p.name not in NOT_CORE] + sorted((_PKG / "smt").glob("*.py"))


def core_text() -> str:
    return "".join(f"== {p.relative_to(_PKG).as_posix()}\n{clean_source(read(p))}\n" for p in core_files())


# ---------------------------------------------------------------------------
# an op's meaning, read from verify/ops


_Node = ast.stmt | ast.expr  # a unit of source text: a statement, or an expression (a lambda)


@dataclass
class _Module:
    name: str  # verify.ops.valu
    lines: list[str]  # cleaned (see _clean_lines)
    tree: ast.Module
    binds: dict[str, list[ast.stmt]] = field(default_factory=dict)  # top-level statements binding a name
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # local -> (module, name | None)
    refs: dict[int, list[tuple[str, str]]] = field(default_factory=dict)  # node id -> names it uses
    functions: dict[tuple[str, int], list[_Node]] = field(default_factory=dict)  # (name, first line) -> nodes

    def names_in(self, node: ast.AST) -> list[tuple[str, str]]:
        """(module, name) for every name `node` uses that an ops module may
        define: plain names here, and `mod.name` for an imported ops module."""
        got = self.refs.get(id(node))
        if got is None:
            seen: dict[tuple[str, str], None] = {}
            for n in ast.walk(node):
                if isinstance(n, ast.Name):
                    seen[(self.name, n.id)] = None
                elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
                    imp = self.imports.get(n.value.id)
                    if imp is not None and imp[1] is None:
                        seen[(imp[0], n.attr)] = None
            got = self.refs[id(node)] = list(seen)
        return got


def _module_path(name: str) -> Path:
    parts = name.split(".")[2:]
    return _OPS.joinpath(*parts).with_suffix(".py") if parts else _OPS / "__init__.py"


def _is_ops_module(name: str) -> bool:
    return (name == "verify.ops" or name.startswith("verify.ops.")) and _module_path(name).is_file()


_SCOPES = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)


def _walk_scope(node: ast.AST) -> list[ast.AST]:
    """The nodes of `node` outside nested scopes (lambdas, comprehensions)."""
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        out.append(n)
        todo += [c for c in ast.iter_child_nodes(n) if not isinstance(c, _SCOPES)]
    return out


def _stored_names(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for n in _walk_scope(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, ast.Store):
            root = n.value
            while isinstance(root, (ast.Subscript, ast.Attribute)):
                root = root.value
            if isinstance(root, ast.Name):
                out.add(root.id)
    return out


@cache
def _module(name: str) -> _Module:
    src = read(_module_path(name))
    tree = ast.parse(src)
    m = _Module(name, _clean_lines(src, tree), tree)
    package = name if _module_path(name).name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                full = ".".join(base + ([node.module] if node.module else []))
            else:
                full = node.module or ""
            for a in node.names:
                local = a.asname or a.name
                if _is_ops_module(f"{full}.{a.name}"):
                    m.imports[local] = (f"{full}.{a.name}", None)
                elif _is_ops_module(full):
                    m.imports[local] = (full, a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname and _is_ops_module(a.name):
                    m.imports[a.asname] = (a.name, None)
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            m.functions.setdefault(("<lambda>", node.lineno), []).append(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            m.functions.setdefault((node.name, _start(node)), []).append(node)
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = {st.name}
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            continue
        else:  # assignments, loops, and calls that change a name: X.update(...), setattr(X, ...)
            names = _stored_names(st)
            if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
                f = st.value.func
                if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                    names.add(f.value.id)
                elif isinstance(f, ast.Name) and f.id == "setattr" and st.value.args \
                        and isinstance(st.value.args[0], ast.Name):
                    names.add(st.value.args[0].id)
        for n in names:
            m.binds.setdefault(n, []).append(st)
    return m


def _start(node: _Node) -> int:
    """The first line of a statement, its decorators included."""
    first = node.lineno
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([first] + [d.lineno for d in decorators])


def _unit_text(m: _Module, node: _Node) -> str:
    """The cleaned source of a statement (whole lines) or of an expression."""
    if isinstance(node, ast.stmt):
        return "\n".join(ln for ln in m.lines[_start(node) - 1:node.end_lineno] if ln)
    lo, hi = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    rows = [ln.encode() for ln in m.lines[lo:hi + 1]]
    rows[-1] = rows[-1][:node.end_col_offset]
    rows[0] = rows[0][node.col_offset:]
    return " ".join(r.decode().strip() for r in rows if r.strip())


class _Closure:
    """The ops definitions reachable from some seeds, as cleaned text."""

    def __init__(self) -> None:
        self.units: dict[tuple[str, int], str] = {}  # (module, node id) -> text
        self.todo: list[tuple[_Module, _Node]] = []
        self.everything = False

    def add(self, m: _Module, node: _Node) -> None:
        key = (m.name, id(node))
        if key not in self.units:
            self.units[key] = _unit_text(m, node)
            self.todo.append((m, node))

    def resolve(self, m: _Module, name: str, depth: int = 0) -> None:
        if name in _REGISTRY:
            self.everything = True
        for st in m.binds.get(name, []):
            self.add(m, st)
        imp = m.imports.get(name)
        if imp is not None and imp[1] is not None and depth < 8:
            self.resolve(_module(imp[0]), imp[1], depth + 1)

    def run(self) -> None:
        while self.todo:
            m, node = self.todo.pop()
            for mod, name in m.names_in(node):
                self.resolve(_module(mod), name)

    def text(self) -> str:
        if self.everything:
            return "".join(f"== {p.name}\n{clean_source(read(p))}\n" for p in sorted(_OPS.glob("*.py")))
        return "\n\n".join(sorted(set(self.units.values())))


def _class_node(cls: type) -> tuple[_Module, ast.ClassDef] | None:
    if not _is_ops_module(cls.__module__):
        return None
    m = _module(cls.__module__)
    body: list[ast.stmt] = m.tree.body
    node: ast.ClassDef | None = None
    for part in cls.__qualname__.split("."):
        node = next((s for s in body if isinstance(s, ast.ClassDef) and s.name == part), None)
        if node is None:
            return None
        body = node.body
    return (m, node) if node is not None else None


def _function_nodes(fn: types.FunctionType) -> tuple[_Module, list[_Node]] | None:
    path = Path(fn.__code__.co_filename).resolve()
    if path.parent != _OPS:
        return None
    name = "verify.ops" if path.name == "__init__.py" else f"verify.ops.{path.stem}"
    m = _module(name)
    nodes = m.functions.get((fn.__code__.co_name, fn.__code__.co_firstlineno), [])
    return m, sorted(nodes, key=lambda n: (n.lineno, n.col_offset))


class _State:
    """An op's own data (constructor arguments: the table row) as text."""

    def __init__(self, closure: _Closure, classes: tuple[type, ...]):
        self.closure = closure
        self.inside = tuple(c.__qualname__ + "." for c in classes)

    def render(self, v: Any, depth: int = 0) -> str:
        if depth > 6:
            return "..."
        if v is None or isinstance(v, (bool, int, float, str, bytes)):
            return repr(v)
        if isinstance(v, (tuple, list)):
            inner = ", ".join(self.render(x, depth + 1) for x in v)
            return f"({inner})" if isinstance(v, tuple) else f"[{inner}]"
        if isinstance(v, (set, frozenset)):
            return "{" + ", ".join(sorted(self.render(x, depth + 1) for x in v)) + "}"
        if isinstance(v, dict):
            items = sorted((self.render(k, depth + 1), self.render(x, depth + 1)) for k, x in v.items())
            return "{" + ", ".join(f"{k}: {x}" for k, x in items) + "}"
        if isinstance(v, types.MethodType):
            return "bound " + self.render(v.__func__, depth + 1)
        if isinstance(v, types.FunctionType):
            return self.function(v, depth)
        if isinstance(v, type):
            found = _class_node(v)
            if found is not None:
                self.closure.add(*found)
            return f"<class {v.__qualname__}>"
        if _is_ops_module(type(v).__module__):
            self.classes(type(v))
            return f"{type(v).__qualname__}{self.render(dict(vars(v)), depth + 1)}"
        r = repr(v)
        return f"<{type(v).__qualname__}>" if " at 0x" in r else r

    def function(self, fn: types.FunctionType, depth: int) -> str:
        found = _function_nodes(fn)
        if found is None:
            return f"<function {fn.__module__}.{fn.__qualname__}>"
        m, nodes = found
        parts = []
        for n in nodes:
            parts.append(_unit_text(m, n))
            self.closure.todo.append((m, n))  # what it names
        cells = []
        for c in fn.__closure__ or ():
            try:
                cells.append(self.render(c.cell_contents, depth + 1))
            except ValueError:  # an empty cell
                cells.append("<empty>")
        extra = [self.render(fn.__defaults__, depth + 1)] if fn.__defaults__ else []
        extra += [self.render(fn.__kwdefaults__, depth + 1)] if fn.__kwdefaults__ else []
        extra += [f"closure {', '.join(cells)}"] if cells else []
        return " | ".join([" ; ".join(parts)] + extra)

    def classes(self, cls: type) -> None:
        for c in cls.__mro__:
            found = _class_node(c)
            if found is not None:
                self.closure.add(*found)

    def skipped(self, v: Any) -> bool:
        """Set only while an op runs (a function of the op's own class, or
        None before its first run): its class's source is its meaning."""
        return v is None or (isinstance(v, types.FunctionType) and v.__qualname__.startswith(self.inside))


def op_text(name: str) -> str:
    """The source that gives the registered op `name` its meaning."""
    op = OPS[name]
    closure = _Closure()
    classes = tuple(c for c in type(op).__mro__ if _is_ops_module(c.__module__))
    state = _State(closure, classes)
    state.classes(type(op))
    own = [f"{k} = {state.render(v)}" for k, v in sorted(vars(op).items()) if not state.skipped(v)]
    closure.run()
    return f"op {name}: {type(op).__qualname__}\n" + "\n".join(own) + "\n--\n" + closure.text() + "\n"


# ---------------------------------------------------------------------------
# revisions now, and the lock file


@cache
def current() -> dict[str, str]:
    """{"core": the checker's revision, op name: the op's revision} now."""
    out = {"core": f"r{SEMANTICS_REVISION}-{_h(core_text())}"}
    for name in sorted(OPS):
        out[name] = _h(op_text(name))
    return out


def clear_cache() -> None:
    """Forget computed revisions (after the sources were replaced)."""
    current.cache_clear()
    _module.cache_clear()


_HEADER = ("# proofs.lock: the revision of the checker (core) and of each instruction (op) that the\n"
           "# records in proofs/ were proved under; written by `verify prove` (see docs/ci.md).\n")


def render_lock(revs: dict[str, str]) -> str:
    lines = [f"core {revs['core']}"] + [f"{k} {v}" for k, v in sorted(revs.items()) if k != "core"]
    return _HEADER + "\n".join(lines) + "\n"


def parse_lock(text: str, path: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2:
            raise InputError(Span(path, n, 1), "not a proofs.lock line: expected 'NAME REVISION'")
        if parts[0] in out:
            raise InputError(Span(path, n, 1), f"proofs.lock names {parts[0]} twice")
        out[parts[0]] = parts[1]
    if "core" not in out:
        raise InputError(Span(path, 1, 1), "proofs.lock has no 'core' line")
    return out


def load_lock(path: Path) -> dict[str, str] | None:
    """The lock file's lines, or None when there is none."""
    if not Path(path).exists():
        return None
    return parse_lock(read_source(path), str(path))


def stale_lines(lock: dict[str, str] | None) -> set[str]:
    """The names whose revision in `lock` is not the current one ("core"
    and every op when there is no lock)."""
    now = current()
    if lock is None:
        return set(now)
    return {k for k in set(now) | set(lock) if lock.get(k) != now.get(k)}
