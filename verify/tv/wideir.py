"""Integer arithmetic of the IR on values wider than a dword, and on
vectors of 16-bit elements, for `verify tv` (LangRef semantics, per lane,
with poison): i64 `add`, `sub`, `and`, `or` (`disjoint`), `xor`, `shl`,
`lshr`, `ashr` (an amount >= 64 is poison), `icmp` of i64 and of 64-bit
pointers (both halves: the high halves order first), and the same
operations element by element on `<N x i16>` (each element with its own
poison).  An i64 value is a `Lanes` with `hi`; the operations are written
on the 32-bit halves over the backend protocol, so they run concretely
and symbolically alike.  Flags other than `disjoint` are unsupported.
"""

from __future__ import annotations

from typing import Any

from .llir import Inst
from .types import Lanes, ttype

M32 = 0xFFFFFFFF
BINOPS = ("add", "sub", "and", "or", "xor", "shl", "lshr", "ashr")


def handles(ins: Inst) -> bool:
    """Whether `ins` is an operation of this module: an icmp of 64-bit
    operands, or a binary operation of i64 or of a vector of i16."""
    if ins.opcode == "icmp":
        tt = ttype(ins.operands[0].type) if ins.operands else None
        return tt is not None and tt.n is None and tt.bits == 64 and ins.type == "i1"
    if ins.opcode not in BINOPS:
        return False
    tt = ttype(ins.type)
    if tt is None:
        return False
    if tt.n is None:
        return tt.bits == 64 and tt.kind == "int"
    return tt.kind == "int" and tt.bits == 16


def add64(B: Any, a: tuple[Any, Any], b: tuple[Any, Any]) -> tuple[Any, Any]:
    lo = B.add(a[0], b[0])
    return lo, B.add(B.add(a[1], b[1]), B.bool_value(B.ult(lo, a[0])))


def sub64(B: Any, a: tuple[Any, Any], b: tuple[Any, Any]) -> tuple[Any, Any]:
    return B.sub(a[0], b[0]), B.sub(B.sub(a[1], b[1]), B.bool_value(B.ult(a[0], b[0])))


def shift64(B: Any, op: str, a: tuple[Any, Any], n: Any) -> tuple[Any, Any]:
    """a shifted by n (0 <= n < 64, a 32-bit value); the backend's 32-bit
    shifts give 0 for an amount of 32 or more."""
    lo, hi = a
    small = B.ult(n, B.const(32))
    m = B.sub(B.const(32), n)  # (n = 0: a shift by 32, which gives 0)
    k = B.sub(n, B.const(32))
    if op == "shl":
        s_lo, s_hi = B.shl(lo, n), B.or_(B.shl(hi, n), B.lshr(lo, m))
        return B.ite(small, s_lo, B.const(0)), B.ite(small, s_hi, B.shl(lo, k))
    sign = B.ashr(hi, B.const(31)) if op == "ashr" else B.const(0)
    top = B.ashr(hi, n) if op == "ashr" else B.lshr(hi, n)
    s_lo = B.or_(B.lshr(lo, n), B.shl(hi, m))
    far = B.ashr(hi, k) if op == "ashr" else B.lshr(hi, k)
    return B.ite(small, s_lo, far), B.ite(small, top, sign)


def compare64(B: Any, pred: str, a: tuple[Any, Any], b: tuple[Any, Any]) -> Any:
    """icmp `pred` of two 64-bit values given as (lo, hi)."""
    eq = B.and_b(B.eq(a[0], b[0]), B.eq(a[1], b[1]))
    if pred == "eq":
        return eq
    if pred == "ne":
        return B.not_b(eq)
    x, y = (a, b) if pred[1:] in ("lt", "le") else (b, a)
    strict = pred[1:] in ("lt", "gt")
    high = B.slt(x[1], y[1]) if pred[0] == "s" else B.ult(x[1], y[1])
    low = B.ult(x[0], y[0]) if strict else B.ule(x[0], y[0])
    return B.or_b(high, B.and_b(B.eq(x[1], y[1]), low))


PREDS = ("eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge")


def step(run: Any, ins: Inst) -> Lanes:
    """Run `ins` (handles(ins) holds) on the IR run `run` (verify/tv/sem.py's IRRun)."""
    B, W = run.B, run.wave
    flags = run._flags(ins)
    a, b = (run.operand(o) for o in ins.operands[:2])
    if ins.opcode == "icmp":
        preds = [f for f in flags if f in PREDS]
        if len(preds) != 1 or len(flags) != 1:
            raise run._unsupported(f"icmp '{' '.join(flags)}' of type {ins.operands[0].type}")
        assert a.hi is not None and b.hi is not None
        vals = [B.bool_value(compare64(B, preds[0], (a.vals[i], a.hi[i]), (b.vals[i], b.hi[i]))) for i in range(W)]
        return Lanes(vals, [B.or_b(p, q) for p, q in zip(a.poison, b.poison)], 1)
    bad = [f for f in flags if f != "disjoint" or ins.opcode != "or"]
    if bad:
        raise run._unsupported(f"flag '{bad[0]}' on {ins.opcode} of type {ins.type}")
    tt = ttype(ins.type)
    assert tt is not None
    if tt.n is not None:
        assert a.parts is not None and b.parts is not None
        parts = [_elem16(run, ins.opcode, x, y, "disjoint" in flags) for x, y in zip(a.parts, b.parts)]
        return Lanes(parts[0].vals, parts[0].poison, a.width, False, None, parts, tt.text)
    return _i64(run, ins.opcode, a, b, "disjoint" in flags)


def _i64(run: Any, op: str, a: Lanes, b: Lanes, disjoint: bool) -> Lanes:
    B, W = run.B, run.wave
    assert a.hi is not None and b.hi is not None
    lo, hi, pois = [], [], []
    for i in range(W):
        x, y = (a.vals[i], a.hi[i]), (b.vals[i], b.hi[i])
        bad = [a.poison[i], b.poison[i]]
        if op == "add":
            r = add64(B, x, y)
        elif op == "sub":
            r = sub64(B, x, y)
        elif op in ("and", "or", "xor"):
            f = {"and": B.and_, "or": B.or_, "xor": B.xor}[op]
            r = (f(x[0], y[0]), f(x[1], y[1]))
            if disjoint:
                bad.append(B.or_b(B.ne(B.and_(x[0], y[0]), B.const(0)), B.ne(B.and_(x[1], y[1]), B.const(0))))
        else:  # an amount >= 64 is poison
            bad.append(B.or_b(B.ne(y[1], B.const(0)), B.ule(B.const(64), y[0])))
            r = shift64(B, op, x, B.and_(y[0], B.const(63)))
        lo.append(r[0])
        hi.append(r[1])
        pois.append(B.or_b(*bad))
    return Lanes(lo, pois, 64, False, hi)


def _elem16(run: Any, op: str, a: Lanes, b: Lanes, disjoint: bool) -> Lanes:
    """One i16 element of a vector operation (values zero-extended in 32 bits)."""
    B, W = run.B, run.wave
    M = B.const(0xFFFF)
    vals, pois = [], []
    for i in range(W):
        x, y = a.vals[i], b.vals[i]
        bad = [a.poison[i], b.poison[i]]
        if op in ("add", "sub"):
            r = B.and_(B.add(x, y) if op == "add" else B.sub(x, y), M)
        elif op in ("and", "or", "xor"):
            r = {"and": B.and_, "or": B.or_, "xor": B.xor}[op](x, y)
            if disjoint:
                bad.append(B.ne(B.and_(x, y), B.const(0)))
        else:
            bad.append(B.ule(B.const(16), y))
            if op == "shl":
                r = B.and_(B.shl(x, y), M)
            elif op == "lshr":
                r = B.lshr(x, y)
            else:
                r = B.and_(B.ashr(B.ashr(B.shl(x, B.const(16)), B.const(16)), y), M)
        vals.append(r)
        pois.append(B.or_b(*bad))
    return Lanes(vals, pois, 16)
