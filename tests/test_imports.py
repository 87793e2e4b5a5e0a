"""The import graph of verify/: no cycle, and imports at the top of modules.

The graph is read from the source (every ``import`` and ``from ... import``
statement, those inside functions included), so it is the graph that runs,
not only the one a reader sees at the top of each file.  Importing a
submodule runs its package's ``__init__`` first, so an import of
``verify.ops.base`` is also an edge to ``verify.ops`` (except from inside
that package, which its ``__init__`` is already running).

A function-level import is allowed only where ``LOCAL_IMPORTS`` names it and
says why: heavy libraries kept off the path of commands that do not need
them.  ``python -m verify list`` must not load z3, and ``verify lowering``
must not load sympy or llvmlite (tests/test_repo.py checks the latter).
"""

from __future__ import annotations

import argparse
import ast
import functools
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "verify"

_Z3 = "z3 (through verify.smt) only for the commands that ask the solver: list, show, specs and targets stay without it"
_CMD = ("a command's own modules load with the command (verify.cli imports each command's module of "
        "verify/commands by name, only for the command run): with every command's modules at the top of "
        "cli.py the cold `verify lowering xor5 --wave 64` took 512 ms of CPU instead of 382 ms (medians of 20 runs)")

# (module, function, imported module) -> why it is imported inside the function.
# Function "*": any function of the module; the imported module covers its submodules.
LOCAL_IMPORTS: dict[tuple[str, str, str], str] = {
    ("verify.refine", "prove_one", "verify.smt"): _Z3,
    ("verify.refine", "_prove_one", "verify.smt"): _Z3,
    ("verify.refine", "prove_exec", "verify.smt"): _Z3,
    ("verify.sortnet", "network_sorts", "verify.smt"): _Z3,
    ("verify.sortnet", "prove_sort", "verify.smt"): _Z3,
    ("verify.proofs", "solver_id", "verify.smt"): _Z3 + " (a record's hashes name the solver)",
    ("verify.synth.reach", "analyse", "sympy.combinatorics"): "sympy (about 1.4 s to import) only when synthesising",
    ("verify.synth.reach", "_without_powers", "sympy.combinatorics"): "sympy (about 1.4 s to import) only when synthesising",
    ("verify.emit", "compile_ir", "llvmlite.binding"): "llvmlite (a test dependency) only when compiling emitted IR",
    ("verify.commands.lowering", "cmd_lowering", "verify.gate"): _CMD + " (only `verify lowering --smt2` writes files)",
    ("verify.cli", "main", "traceback"): "traceback only when verify itself fails (exit 5): start-up",
    ("verify.commands.common", "write", "verify.proofs"): _CMD + " (an output file is written atomically)",
    ("verify.commands.common", "progress", "verify.progress"): _CMD + " (tqdm loads with the bar, on a terminal only)",
    ("verify.cli", "main", "verify.about"): _CMD + " (--version)",
    ("verify.about", "versions", "verify.smt"): _Z3 + " (--version names the solver)",
    ("verify.commands.lowering", "cmd_lowering", "verify.smt"): _Z3 + " (the second solver for --double-check)",
    ("verify.commands.lowering", "double_check", "verify.smt"): _Z3 + " (the second solver for --double-check)",
    ("verify.smt.second", "version", "bitwuzla"): "bitwuzla (optional) only for --double-check",
    ("verify.smt.second", "check_bitwuzla", "bitwuzla"): "bitwuzla (optional) only for --double-check",
    ("verify.about", "versions", "llvmlite.binding"): "llvmlite's LLVM library only for --version",
    ("verify.tv.check", "check_files", "verify.workers"): "multiprocessing (about 6 ms of CPU) only for verify tv -j",
    ("verify.tv.cextv", "explain", "verify.svg"): "the picture's module (about 4 ms) only with a counterexample",
    ("verify.refine", "*", "verify.cex"): "the counterexample modules (cex, explain: about 6 ms) only with one "
                                          "(or the f32 search): the cold `verify lowering` start-up, issue #35",
    ("verify.presearch", "counterexample", "verify.cex"): "the counterexample modules only with one (start-up, "
                                                         "issue #35)",
    ("verify.refine", "_prove_sort", "verify.sortnet"): "the sorting-network proof only for sorting specs (start-up)",
    ("verify.commands.lowering", "cmd_lowering", "verify.svg"): _CMD + " (the picture's modules with --svg only)",
    ("verify.tv.cextv", "explain_kernel", "verify.svg"): "the picture's module (about 4 ms) only with a counterexample",
}


def allowed_by(module: str, func: str, target: str) -> tuple[str, str, str] | None:
    """The LOCAL_IMPORTS entry that allows this function-level import, or None."""
    for m, f, t in LOCAL_IMPORTS:
        if m == module and f in (func, "*") and (target == t or target.startswith(t + ".")):
            return m, f, t
    return None


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(mod: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _type_checking_only(node: ast.AST) -> bool:
    """An ``if TYPE_CHECKING:`` block (annotations only; Python never runs it)."""
    return (isinstance(node, ast.If) and not node.orelse
            and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")


def imports(path: Path, modules: set[str]) -> list[tuple[str, str | None, int]]:
    """(imported module, enclosing function or None, line) for every import
    statement in `path`; `from X import name` counts as importing X.name
    when that is a module."""
    mod = module_name(path)
    is_pkg = path.name == "__init__.py"
    tree = ast.parse(path.read_text(), str(path))
    out: list[tuple[str, str | None, int]] = []

    def visit(node: ast.AST, func: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                continue  # `if TYPE_CHECKING:` imports are read by type checkers, never run
            f = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and func is None else func
            if isinstance(child, ast.Import):
                out.extend((a.name, func, child.lineno) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                target = _resolve(mod, is_pkg, child)
                if target == "__future__":
                    continue
                subs = [f"{target}.{a.name}" for a in child.names if f"{target}.{a.name}" in modules]
                if len(subs) < len(child.names):
                    out.append((target, func, child.lineno))
                out.extend((s, func, child.lineno) for s in subs)
            elif isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == "__import__":
                arg = child.args[0] if child.args else None
                out.append((str(arg.value) if isinstance(arg, ast.Constant) else "?", func, child.lineno))
            visit(child, f)

    visit(tree, None)
    return out


@functools.cache
def graph() -> tuple[dict[str, set[str]], list[tuple[str, str | None, str, int]]]:
    """Edges between verify modules, and every import statement as
    (module, function or None, imported module, line). Built once per test
    process (about 1.5 s); callers only read it."""
    files = sorted(PKG.rglob("*.py"))
    modules = {module_name(p) for p in files}
    edges: dict[str, set[str]] = {m: set() for m in modules}
    stmts: list[tuple[str, str | None, str, int]] = []
    for p in files:
        mod = module_name(p)
        own_pkgs = {".".join(mod.split(".")[:k]) for k in range(1, mod.count(".") + 2)}
        for target, func, line in imports(p, modules):
            stmts.append((mod, func, target, line))
            parts = target.split(".")
            for k in range(1, len(parts) + 1):  # the target and every package it runs on the way
                t = ".".join(parts[:k])
                if t in modules and t != mod and (t == target or t not in own_pkgs):
                    edges[mod].add(t)
    return edges, stmts


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (or a
    module importing itself), each sorted (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in edges[v]:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


def test_graph_sees_function_level_imports() -> None:
    edges, stmts = graph()
    assert "verify.smt" in edges["verify.refine"]  # imported inside prove_one only
    assert ("verify.refine", "prove_one", "verify.smt") in {(m, f, t) for m, f, t, _ in stmts}
    assert {"verify.ops", "verify.ops.base"} <= edges["verify.machine"]
    assert "verify.ops" not in edges["verify.ops.valu"]  # its own package
    assert "verify.machine" not in edges["verify.ops.dpp"]  # imported under TYPE_CHECKING only


def test_no_import_cycle() -> None:
    found = cycles(graph()[0])
    assert not found, "import cycles in verify/: " + "; ".join(" <-> ".join(c) for c in found)


def test_imports_at_the_top() -> None:
    _, stmts = graph()
    local = {(m, f, t): line for m, f, t, line in stmts if f is not None}
    unexplained = [f"{m}:{line} imports {t} inside {f}()" for (m, f, t), line in sorted(local.items())
                   if allowed_by(m, f, t) is None]
    assert not unexplained, "imports inside functions, not in LOCAL_IMPORTS:\n" + "\n".join(unexplained)
    stale = sorted(set(LOCAL_IMPORTS) - {allowed_by(m, f, t) for m, f, t in local})
    assert not stale, f"LOCAL_IMPORTS names imports that are no longer there: {stale}"
    assert all(why.strip() for why in LOCAL_IMPORTS.values())


def test_syntax_sits_below_the_registry() -> None:
    """The lexer imports only diag and ir; ops/ reads syntax, never the loader."""
    edges, _ = graph()
    assert edges["verify.syntax"] <= {"verify.diag", "verify.ir"}
    for m, targets in edges.items():
        if m.startswith("verify.ops"):
            assert "verify.lowering_file" not in targets, m


def test_listing_loads_no_solver() -> None:
    code = ("import sys, io; from verify.cli import main; main(['list'], io.StringIO(), io.StringIO()); "
            "main(['targets'], io.StringIO(), io.StringIO()); print('z3' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_help_loads_no_command_and_every_command_resolves() -> None:
    """`verify --help` imports no command's module (nor the catalogue or the
    solver); each command names a module and function that exist."""
    code = ("import sys\nfrom verify.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('verify.commands') or m in "
            "('verify.catalog', 'verify.spec', 'z3', 'json', 'tempfile', 'dataclasses', 'typing')), file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip() == "['verify.commands']"
    from verify.cli import COMMANDS, build_parser, command

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(COMMANDS) == set(sub.choices)
    assert all(callable(command(name)) for name in COMMANDS)
