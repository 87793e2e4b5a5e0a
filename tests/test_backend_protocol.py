"""The backend protocol (verify/backend.py) is explicit: each backend
defines every operation itself, none inherits another's arithmetic, and
the ops never reach the solver."""

from __future__ import annotations

import ast
import inspect
import random
from pathlib import Path

import pytest

from verify import smt
from verify.backend import (
    PROTOCOLS,
    Arith,
    Backend,
    Concrete,
    Partial,
    Symbolic,
    members,
)
from verify.emit import Emitter, HIPEmitter, LLVMEmitter

ROOT = Path(__file__).resolve().parent.parent

# (backend class, the protocol it implements).  No backend may inherit from
# another: a member it forgot would silently run the other's arithmetic.
BACKENDS: list[tuple[type, type]] = [
    (Concrete, Backend),
    (Partial, Backend),
    (smt.Z3, Symbolic),
    (smt.Z3Monoid, Symbolic),
    (Emitter, Arith),
]
# shared bases allowed to hold protocol members: they must hold no arithmetic (none today)
SHARED_BASES: tuple[type, ...] = ()


def _static(c: Concrete, p: Partial, z: smt.Z3, zm: smt.Z3Monoid, ll: LLVMEmitter,
            hp: HIPEmitter) -> tuple[Backend, Backend, Symbolic, Symbolic, Arith, Arith]:
    """Never called: a type checker accepts each backend as its protocol."""
    return c, p, z, zm, ll, hp


@pytest.mark.parametrize("cls,proto", BACKENDS, ids=lambda x: x.__name__)
def test_each_backend_defines_every_member_itself(cls: type, proto: type) -> None:
    own = set(vars(cls))
    for base in cls.__mro__[1:]:
        if base in SHARED_BASES:
            own |= set(vars(base))
    missing = [name for name in members(proto) if name not in own]
    assert not missing, f"{cls.__name__} does not define {missing} itself"


@pytest.mark.parametrize("cls,_", BACKENDS, ids=lambda x: x.__name__)
def test_no_backend_inherits_another(cls: type, _: type) -> None:
    others = {c for c, _ in BACKENDS if c is not cls}
    assert not others & set(cls.__mro__), f"{cls.__name__} inherits {others & set(cls.__mro__)}"
    assert all(b is object or b in SHARED_BASES for b in cls.__mro__[1:]), cls.__mro__


@pytest.mark.parametrize("cls,proto", BACKENDS, ids=lambda x: x.__name__)
def test_signatures_match_the_protocol(cls: type, proto: type) -> None:
    for name in members(proto):
        want = next((vars(p)[name] for p in proto.__mro__ if name in vars(p)), None)
        if want is None:  # an attribute (symbolic)
            assert name in vars(cls), (cls.__name__, name)
            continue
        if isinstance(want, property):  # a read-only attribute (Symbolic.session)
            assert isinstance(vars(cls).get(name), property), (cls.__name__, name)
            continue
        got = getattr(cls, name)
        pw = [(p.name, p.kind) for p in inspect.signature(want).parameters.values()]
        pg = [(p.name, p.kind) for p in inspect.signature(got).parameters.values()]
        assert pg == pw, (cls.__name__, name, pg, pw)


def test_instances_are_their_protocols() -> None:
    assert isinstance(Concrete(), Backend) and isinstance(Partial(), Backend)
    assert isinstance(smt.Z3(), Symbolic) and isinstance(smt.monoid_backend("add"), Symbolic)
    assert not isinstance(Concrete(), Symbolic)
    assert set(members(Arith)) < set(members(Backend)) < set(members(Symbolic))
    assert [p.__name__ for p in PROTOCOLS] == ["Arith", "Backend", "Symbolic"]


def test_no_setattr_completes_a_backend() -> None:
    for mod in ("backend", "smt/terms", "smt/monoid", "emit"):
        tree = ast.parse((ROOT / "verify" / f"{mod}.py").read_text())
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id == "setattr"]
        assert not calls, f"verify/{mod}.py calls setattr"


# ---- the backends agree -------------------------------------------------------

_VALS = [0, 1, 2, 31, 32, 33, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x3F800000, 0xBF800000, 0x7F800000,
         0xFF800000, 0x7FC00000, 0x7F800001, 0x00000001, 0x80000001]
_BINARY = ["add", "sub", "mul", "and_", "or_", "xor", "shl", "lshr", "ashr", "umin", "umax", "smin", "smax",
           "fadd", "fmin", "fmax", "eq", "ne", "ult", "ule", "slt", "sle", "feq"]


def test_concrete_partial_and_z3_agree_on_values() -> None:
    """Partial without unknowns is Concrete; Z3 folds constants to the same
    value and computes it on terms."""
    rnd = random.Random(10)
    pairs = [(a, b) for a in _VALS for b in _VALS] + [(rnd.getrandbits(32), rnd.getrandbits(32)) for _ in range(40)]
    C, P, Z = Concrete(), Partial(), smt.Z3()
    x, y = Z.fresh("x"), Z.fresh("y")
    for a, b in pairs:
        ev = smt.Evaluator({"x": a, "y": b})
        for name in _BINARY:
            want = getattr(C, name)(a, b)
            assert getattr(P, name)(a, b) == want, (name, a, b)
            assert getattr(P, name)(None, b) is None and getattr(P, name)(a, None) is None
            assert getattr(Z, name)(a, b) == want, (name, a, b)
            got = ev(getattr(Z, name)(x, y))
            if name in ("fadd", "fmin", "fmax"):
                assert C.feq(got, want), (name, a, b)
            else:
                assert got == want, (name, hex(a), hex(b))
        for name in ("not_", "fis_nan"):
            assert getattr(P, name)(a) == getattr(C, name)(a) == getattr(Z, name)(a)
            assert ev(getattr(Z, name)(x)) == getattr(C, name)(a)
        for k in (0, 5, 31):
            assert P.bit(a, k) == C.bit(a, k) == Z.bit(a, k) == ev(Z.bit(x, k))
    bits = [True, False, True, True]
    assert P.from_bits(bits) == C.from_bits(bits) == Z.from_bits(bits) == 13
    assert P.popcount(bits) == C.popcount(bits) == Z.popcount(bits) == 3
    assert P.from_bits([True, None]) is None and P.popcount([None]) is None
    assert P.bool_value(True) == C.bool_value(True) == 1 and P.bool_value(None) is None
    with pytest.raises(TypeError):
        C.fresh("x")
    with pytest.raises(TypeError):
        P.fresh("x")


def test_the_monoid_backend_lowers_what_it_does_not_combine() -> None:
    """Z3Monoid("add") keeps add-combinations as bags and gives every other
    operation the ordinary values, asked of a plain Z3."""
    B = smt.monoid_backend("add")
    lanes = B.fresh_lanes("v", 4)
    s = B.add(B.add(lanes[0], lanes[1]), lanes[2])
    assert isinstance(s, smt.Bag)
    assert B.eq(s, B.add(lanes[2], B.add(lanes[1], lanes[0]))) is not False
    assert not isinstance(B.xor(s, 1), smt.Bag) and not isinstance(B.sub(s, lanes[3]), smt.Bag)
    q = smt.Query(5.0)
    q.add(B.ne(s, B.add(lanes[2], B.add(lanes[1], lanes[0]))))
    assert q.check() == "unsat"
    q = smt.Query(5.0)
    q.add(B.ne(B.xor(s, 0), B.z.add(B.z.add(lanes[0], lanes[1]), lanes[2])))
    assert q.check() == "unsat"


# ---- the ops never reach the solver ---------------------------------------------


def _module_graph() -> dict[str, set[str]]:
    """verify's modules and the verify modules each imports, at the top or
    inside a function."""
    files = {}
    for p in (ROOT / "verify").rglob("*.py"):
        parts = p.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        files[name] = p
    graph: dict[str, set[str]] = {}
    for name, p in files.items():
        pkg = name if p.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(p.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[:len(pkg.split(".")) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in files else mod for a in node.names]
            for t in targets:
                dotted = t.split(".")
                found |= {".".join(dotted[:k]) for k in range(1, len(dotted) + 1)} & set(files)
        graph[name] = found - {name}
    return graph


@pytest.mark.slow
def test_no_op_module_reaches_the_solver() -> None:
    """Nothing under verify/ops imports verify.smt, directly or through
    other modules, at import time or inside a function."""
    graph = _module_graph()
    for start in sorted(m for m in graph if m == "verify.ops" or m.startswith("verify.ops.")):
        seen, todo = {start: [start]}, [start]
        while todo:
            cur = todo.pop()
            for nxt in sorted(graph[cur]):
                if nxt not in seen:
                    seen[nxt] = seen[cur] + [nxt]
                    todo.append(nxt)
        assert "verify.smt" not in seen, " -> ".join(seen["verify.smt"])
