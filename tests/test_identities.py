"""The one table of identities (verify/identities.py), proved with the
solver, and the ops' declared left identities (what DPP emission moves into
the lanes an instruction does not write)."""

from __future__ import annotations

from typing import Any

import pytest

from verify import smt, spec
from verify.diag import Span
from verify.identities import COUNTS, FOLDS, OPERATIONS
from verify.lowering_file import parse_instr
from verify.machine import Machine
from verify.ops import OPS
from verify.ops.valu import Valu
from verify.target import TARGETS, FeatureLog, get

# the constants DPP emission used to try, in order, asking the solver during emission
_CANDIDATES = (0, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x7F800000, 0xFF800000)
_F32 = ("fadd", "fmin", "fmax")


def _always(B: Any, cond: Any) -> bool:
    """cond (a term of backend B) holds for every value of its unknowns."""
    q = smt.Query(10.0, session=B.session)
    q.add(B.not_b(cond))
    r = q.check()
    assert r in ("sat", "unsat"), r
    return r == "unsat"


def _op(B: Any, name: str) -> Any:
    return getattr(B, OPERATIONS[name].method)


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_exact_identities(name: str) -> None:
    B = smt.Z3()
    y = B.fresh("y")
    row, f = OPERATIONS[name], _op(B, name)
    for side, e in (("left", row.left), ("right", row.right)):
        if e is not None:
            assert _always(B, B.eq(f(e, y) if side == "left" else f(y, e), y)), (name, side, hex(e))
        else:  # none of the constants emission ever tried
            for c in _CANDIDATES:
                assert not _always(B, B.eq(f(c, y) if side == "left" else f(y, c), y)), (name, side, hex(c))


@pytest.mark.parametrize("name", sorted(FOLDS))
def test_fold_identity_and_absorbing_element(name: str) -> None:
    B = smt.Z3()
    x = B.fresh("x")
    row, f = FOLDS[name], _op(B, name)
    assert row.count in COUNTS and row.identity is not None
    e = row.identity
    both = B.and_b(B.eq(f(e, x), x), B.eq(f(x, e), x))
    # binary32: an identity on values that are not NaN
    assert _always(B, B.or_b(B.fis_nan(x), both) if name in _F32 else both), name
    if row.absorbing is not None:
        a = row.absorbing
        assert _always(B, B.and_b(B.eq(f(a, x), a), B.eq(f(x, a), a))), name


def test_the_spec_and_the_monoid_encoding_read_the_table() -> None:
    assert list(spec.OPS) == list(FOLDS)
    for name, row in FOLDS.items():
        assert spec.OPS[name] == (row.method, row.identity, row.absorbing)
        B = smt.monoid_backend(name)
        assert (B.meth, B.ident, B.absorb, B.kind) == (row.method, row.identity, row.absorbing, row.count)


def _lane0(base: str, e: int) -> tuple[Any, Any, Any]:
    """Lane 0 of `base v0, v1, v2` with v1 = e and v2 unknown, every lane
    active, default assumptions; v2's lane 0; and the backend (terms of one
    backend's Session only meet each other)."""
    feat = OPS[base].feature
    t = get(next(n for n in TARGETS if feat is None or get(n).has(feat)))
    B = smt.Z3()
    y = B.fresh("y")

    def initial(kind: str, name: str, lane: int | None) -> Any:
        if kind == "scc":
            return False
        if name == "v1":
            return e
        return y if (name, lane) == ("v2", 0) else B.fresh(f"{name}[{lane}]")

    m = Machine(B, t.waves[0], initial, FeatureLog(t), {}, waits=False)
    m.set_exec_mask((1 << t.waves[0]) - 1)
    m.run([parse_instr(f"{base} v0, v1, v2", Span("t", 1))])
    return m.v(0)[0], y, B


_DPP_ALU = sorted(b for b, op in OPS.items()
                  if isinstance(op, Valu) and "_dpp" in op.encs and op.nsrc == 2 and b != "v_mov_b32")


def test_the_dpp_alu_ops_are_found() -> None:
    assert {"v_add_u32", "v_subrev_u32", "v_min_i32", "v_lshlrev_b32", "v_add_f32", "v_max_f32"} <= set(_DPP_ALU)


@pytest.mark.parametrize("base", _DPP_ALU)
def test_declared_left_identity(base: str) -> None:
    """An op's declared left identity is one (its lane function, as the
    machine runs it); an op declaring none has none among the constants
    emission used to try, so emission is what the solver search gave."""
    op = OPS[base]
    assert isinstance(op, Valu)
    e = op.left_identity
    if e is not None:
        out, y, B = _lane0(base, e)
        assert _always(B, B.eq(out, y)), (base, hex(e))
    else:
        for c in _CANDIDATES:
            out, y, B = _lane0(base, c)
            assert not _always(B, B.eq(out, y)), (base, hex(c))
