"""Integer arithmetic of the IR on values wider than a dword, and on
vectors of 16-bit elements, for `verify tv` (LangRef semantics, per lane,
with poison): i64 `add`, `sub`, `and`, `or` (`disjoint`), `xor`, `shl`,
`lshr`, `ashr` (an amount >= 64 is poison), `icmp` of i64 and of 64-bit
pointers (both halves: the high halves order first), and the same
operations element by element on `<N x i16>` and `<N x i64>` (each
element with its own poison).  An i64 value is a `Lanes` with `hi`; the operations are written
on the 32-bit halves over the backend protocol, so they run concretely
and symbolically alike.  LangRef's flags (`nuw nsw exact disjoint`) make poison
(FLAGS); others are unsupported.
"""

from __future__ import annotations

from typing import Any

from ..ops.addr import mul_hi_u32
from .llir import Inst
from .types import Lanes, ttype

M32 = 0xFFFFFFFF
BINOPS = ("add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr")
# the poison-generating flags LangRef gives each operation  [S:ir-wrap-flags]
FLAGS = {"add": {"nuw", "nsw"}, "sub": {"nuw", "nsw"}, "mul": {"nuw", "nsw"}, "shl": {"nuw", "nsw"},
         "lshr": {"exact"}, "ashr": {"exact"}, "or": {"disjoint"}}


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
    return tt.kind == "int" and tt.bits in (16, 64)


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
    bad = [f for f in flags if f not in FLAGS.get(ins.opcode, set())]
    if bad:
        raise run._unsupported(f"flag '{bad[0]}' on {ins.opcode} of type {ins.type}")
    tt = ttype(ins.type)
    assert tt is not None
    if tt.n is not None and tt.bits == 64:  # <N x i64>: each element an i64 operation with its own poison
        assert a.parts is not None and b.parts is not None
        elems = [_flagged64(run, ins.opcode, flags, x, y) for x, y in zip(a.parts, b.parts)]
        return Lanes(elems[0].vals, elems[0].poison, a.width, False, None, elems, tt.text)
    if tt.n is not None:
        assert a.parts is not None and b.parts is not None
        parts = [_elem16(run, ins.opcode, x, y, "disjoint" in flags) for x, y in zip(a.parts, b.parts)]
        for k, (x, y) in enumerate(zip(a.parts, b.parts)):
            extra = [wrap16(run.B, ins.opcode, set(flags), x.vals[i], y.vals[i]) for i in range(W)]
            parts[k] = Lanes(parts[k].vals, [run.B.or_b(p, e) for p, e in zip(parts[k].poison, extra)], 16)
        return Lanes(parts[0].vals, parts[0].poison, a.width, False, None, parts, tt.text)
    return _flagged64(run, ins.opcode, flags, a, b)


def _flagged64(run: Any, op: str, flags: list[str], a: Lanes, b: Lanes) -> Lanes:
    """One i64 operation (a scalar, or an element of a vector) with its
    LangRef flags' poison."""
    out = _i64(run, op, a, b, "disjoint" in flags)
    if set(flags) - {"disjoint"}:
        assert a.hi is not None and b.hi is not None and out.hi is not None
        out.poison = [run.B.or_b(out.poison[i], wrap64(run.B, op, set(flags), (a.vals[i], a.hi[i]),
                                                      (b.vals[i], b.hi[i]), (out.vals[i], out.hi[i])))
                      for i in range(run.wave)]
    return out


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
        elif op == "mul":
            r = mul64(B, x, y)
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
        if op in ("add", "sub", "mul"):
            r = B.and_({"add": B.add, "sub": B.sub, "mul": B.mul}[op](x, y), M)
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


# --- the product of 64-bit values, and LangRef's poison flags (nuw, nsw, exact) ---


def mul64(B: Any, a: tuple[Any, Any], b: tuple[Any, Any]) -> tuple[Any, Any]:
    """a * b mod 2^64: the low product, and the high half of a0 * b0 plus
    the two cross products' low halves (ops/addr.py's mul_hi_u32, the
    semantics v_mul_hi_u32 and v_mad_u64_u32 run)  [S:ir-mul64]."""
    return B.mul(a[0], b[0]), B.add(B.add(mul_hi_u32(B, a[0], b[0]), B.mul(a[1], b[0])), B.mul(a[0], b[1]))


def _add_at(B: Any, r: list[Any], k: int, v: Any) -> None:
    """r (32-bit limbs, lowest first) += v * 2^(32k), carries propagated (mod the top)."""
    for m in range(k, len(r)):
        s = B.add(r[m], v)
        if m + 1 < len(r):
            v = B.bool_value(B.ult(s, v))
        r[m] = s


def _sub_from(B: Any, r: list[Any], k: int, y: list[Any]) -> list[Any]:
    """r - y * 2^(32k) (limbs, mod the top)."""
    out = list(r)
    borrow: Any = B.const(0)
    for m in range(k, len(r)):
        yi = y[m - k] if m - k < len(y) else B.const(0)
        d = B.sub(B.sub(r[m], yi), borrow)
        borrow = B.bool_value(B.or_b(B.ult(r[m], yi), B.and_b(B.eq(r[m], yi), B.ne(borrow, B.const(0)))))
        out[m] = d
    return out


def product(B: Any, a: list[Any], b: list[Any], signed: bool) -> list[Any]:
    """The exact product of two values of n 32-bit limbs (lowest first), as
    2n limbs: unsigned, or (signed) two's complement: the unsigned product
    less b * 2^(32n) where a is negative and a * 2^(32n) where b is."""
    n = len(a)
    r = [B.const(0)] * (2 * n)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            _add_at(B, r, i + j, B.mul(x, y))
            _add_at(B, r, i + j + 1, mul_hi_u32(B, x, y))
    if signed:
        neg_a, neg_b = B.slt(a[-1], B.const(0)), B.slt(b[-1], B.const(0))
        ra, rb = _sub_from(B, r, n, b), None
        r = [B.ite(neg_a, u, v) for u, v in zip(ra, r)]
        rb = _sub_from(B, r, n, a)
        r = [B.ite(neg_b, u, v) for u, v in zip(rb, r)]
    return r


def mul_overflows(B: Any, a: list[Any], b: list[Any], flags: set[str]) -> Any:
    """LangRef's `mul nuw`/`mul nsw` poison of n-limb values: the exact
    product does not fit n limbs (unsigned), or is not the sign extension
    of its low n limbs (signed)  [S:ir-wrap-flags]."""
    n = len(a)
    bad: list[Any] = []
    if "nuw" in flags:
        bad += [B.ne(x, B.const(0)) for x in product(B, a, b, False)[n:]]
    if "nsw" in flags:
        r = product(B, a, b, True)
        sign = B.ashr(r[n - 1], B.const(31))
        bad += [B.ne(x, sign) for x in r[n:]]
    return B.or_b(*bad) if bad else False


def wrap64(B: Any, op: str, flags: set[str], x: tuple[Any, Any], y: tuple[Any, Any], r: tuple[Any, Any]) -> Any:
    """The poison LangRef's nuw/nsw/exact add to an i64 `op` of x and y
    whose wrapped result is r (an amount >= 64 is poison already)  [S:ir-wrap-flags]."""
    bad: list[Any] = []
    sx, sy, sr = (B.slt(v[1], B.const(0)) for v in (x, y, r))
    if op == "mul":
        return mul_overflows(B, list(x), list(y), flags)
    if op in ("add", "sub"):
        if "nuw" in flags:
            bad.append(compare64(B, "ult", r, x) if op == "add" else compare64(B, "ult", x, y))
        if "nsw" in flags:  # add: like signs in, the other sign out; sub: unlike signs in, y's sign out
            same = B.eq(B.bool_value(sx), B.bool_value(sy))
            flip = B.ne(B.bool_value(sx), B.bool_value(sr))
            bad.append(B.and_b(same if op == "add" else B.not_b(same), flip))
    else:
        n = B.and_(y[0], B.const(63))
        if op == "shl":
            if "nuw" in flags:
                bad.append(B.not_b(compare64(B, "eq", shift64(B, "lshr", r, n), x)))
            if "nsw" in flags:
                bad.append(B.not_b(compare64(B, "eq", shift64(B, "ashr", r, n), x)))
        elif "exact" in flags:  # lshr, ashr: a set bit shifted out
            bad.append(B.not_b(compare64(B, "eq", shift64(B, "shl", r, n), x)))
    return B.or_b(*bad) if bad else False


def wrap16(B: Any, op: str, flags: set[str], x: Any, y: Any) -> Any:
    """The poison LangRef's nuw/nsw/exact add to an i16 element `op` of x
    and y (zero-extended in 32 bits)  [S:ir-wrap-flags]."""
    M = B.const(0xFFFF)

    def sext(v: Any) -> Any:
        return B.ashr(B.shl(v, B.const(16)), B.const(16))
    bad: list[Any] = []
    if op in ("add", "sub", "mul"):
        f = {"add": B.add, "sub": B.sub, "mul": B.mul}[op]
        if "nuw" in flags:
            full = f(x, y)
            bad.append(B.ne(full, B.and_(full, M)))  # (sub: below 0 wraps to >= 2^16 in 32 bits)
        if "nsw" in flags:
            full = f(sext(x), sext(y))
            bad.append(B.ne(sext(B.and_(full, M)), full))
    elif op in ("shl", "lshr", "ashr"):
        n = B.and_(y, B.const(15))
        if op == "shl":
            r = B.and_(B.shl(x, n), M)
            if "nuw" in flags:
                bad.append(B.ne(B.lshr(r, n), x))
            if "nsw" in flags:
                bad.append(B.ne(B.ashr(sext(r), n), sext(x)))
        elif "exact" in flags:
            r = B.lshr(x, n) if op == "lshr" else B.and_(B.ashr(sext(x), n), M)
            bad.append(B.ne(B.and_(B.shl(r, n), M), x))
    return B.or_b(*bad) if bad else False
