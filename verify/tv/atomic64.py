"""64-bit atomics for `verify tv` (issue 31): the IR's `atomicrmw` of i64
and the GPU's `global_atomic_*_x2`/`_u64` and `buffer_atomic_*_x2`/`_u64`.

A 64-bit atomic at address P is one atomic step per lane on the two dwords
at P and P + 4 (low half first, as LLVM's little-endian layout puts them):
`m := m OP v` in 64 bits (add and sub carry from the low half into the high
one; and/or/xor act on each half; min/max compare the high halves first).
On memory (dword-granular, verify/tv/sem.py's Memory) each lane's step is
two stores, P then P + 4, lane after lane (lane-ascending: one order the
LangRef admits for the IR; memory afterwards does not depend on the order
when the lanes' addresses are equal or disjoint, which 8-byte alignment
gives).  The IR's access at an address that is not a multiple of 8 (its
`align 8`) is undefined behaviour; the GPU's 64-bit atomic in such a lane
is a fault (the ISA guides leave an unaligned atomic undefined), which the
memory verdict must rule out like any other difference.  A GPU 64-bit
atomic that several lanes may run (not the atomic optimizer's one lane,
proved) is unsupported.  [S:atomic64]
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from .. import smt
from ..identities import OPERATIONS
from ..ops.addr import add_carry, mul_hi_u32
from ..wide import IDENT64, Wide, split
from .types import Lanes, dword_address

# the IR's atomicrmw operations on i64 -> the 64-bit fold (`sub`: the
# values folded with add, the sum subtracted)
OPS = {"add": "add", "sub": "add", "and": "and", "or": "or", "xor": "xor", "min": "smin", "max": "smax",
       "umin": "umin", "umax": "umax"}

# the GPU's 64-bit atomics: GFX9/10 `_x2`, GFX11+ `_u64`/`_i64`/`_b64`
GPU = re.compile(r"^(global|buffer)_atomic_(add|sub|and|or|xor|smin|smax|umin|umax|min|max)(_x2|_u64|_i64|_b64)$")
_GPU_OP = {("smin", "_x2"): "min", ("smax", "_x2"): "max", ("umin", "_x2"): "umin", ("umax", "_x2"): "umax",
           ("min", "_i64"): "min", ("max", "_i64"): "max", ("min", "_u64"): "umin", ("max", "_u64"): "umax"}


def gpu_op(mnemonic: str) -> str | None:
    """The IR operation a GPU 64-bit atomic performs (None: not one)."""
    a = GPU.match(mnemonic)
    if a is None:
        return None
    kind, suffix = a.group(2), a.group(3)
    if kind in ("min", "max") and suffix in ("_x2", "_b64"):
        return None
    return _GPU_OP.get((kind, suffix), kind)


class _Pairs:
    """64-bit values as (lo, hi) pairs (verify/wide.py): any backend."""

    def __init__(self, B: Any, mem: Any) -> None:
        self.W = Wide(B)
        self.B = B

    def join(self, lo: Any, hi: Any) -> Any:
        return lo, hi

    def split(self, v: Any) -> tuple[Any, Any]:
        return v[0], v[1]

    def const(self, n: int) -> Any:
        lo, hi = split(n)
        return self.B.const(lo), self.B.const(hi)

    def op(self, name: str, a: Any, b: Any) -> Any:
        return self.W.sub(a, b) if name == "sub" else getattr(self.W, OPERATIONS[name].method)(a, b)

    def ite(self, c: Any, a: Any, b: Any) -> Any:
        return self.W.ite(c, a, b)

    def stored(self, v: Any) -> None:
        pass


class _Terms:
    """64-bit values as one z3 term (verify/smt/wide64.py), so that a chain
    of the lanes' updates is one 64-bit sum to z3's rewriting; the halves a
    value was stored as are read back as that term (a table on the memory,
    the terms kept so their ids stay theirs).

    A sum `X + k*Y` (X, Y values of known halves, k a constant, 2 <= k < 2^32 (k = 1
    is a plain sum, whose halves the backend's 64-bit carry terms give):
    the IR's `old + V + V ...` of a uniform V) is split into halves as the
    GPU computes them, `v_mad_u64_u32`'s `Y.lo * k + X` and then `Y.hi * k`
    added to the high half (verify/ops/addr.py's own functions on the same
    backend): the atomic optimizer's product of a 64-bit value by a lane
    count then meets the IR's sum term for term  [S:atomic64-mul]."""

    def __init__(self, B: Any, mem: Any) -> None:
        self.B = B
        self.table: dict[tuple[Any, Any], tuple[Any, Any, Any]] = vars(mem).setdefault("_wide64", {})
        # a value's id -> (value, its halves)
        self.parts: dict[int, tuple[Any, tuple[Any, Any]]] = vars(mem).setdefault("_wide64_parts", {})
        # a sum's id -> (sum, [(leaf, coefficient)] in the order added)
        self.sums: dict[int, tuple[Any, list[tuple[Any, int]]]] = vars(mem).setdefault("_wide64_sums", {})

    @staticmethod
    def _key(t: Any) -> Any:
        return ("i", t) if type(t) is int else t.get_id()

    def join(self, lo: Any, hi: Any) -> Any:
        hit = self.table.get((self._key(lo), self._key(hi)))
        if hit is not None:
            return hit[2]
        v = smt.wide64.join(self.B, lo, hi)
        if not smt.wide64.is_value(v):
            self.parts.setdefault(v.get_id(), (v, (lo, hi)))
            prod = self._product(lo, hi, v)
            if prod is not None:
                self.sums.setdefault(v.get_id(), (v, [prod]))
        return v

    def _product(self, lo: Any, hi: Any, v: Any = None) -> tuple[Any, int] | None:
        """(Y, k) where (lo, hi) are the halves of k * Y as the GPU's scalar
        code computes them (s_mul_i32 lo = a * k; s_mul_hi_u32 and s_mul_i32
        hi = mulhi(a, k) + b * k, Y = (a, b)): the terms the ops build, or
        the 64-bit product `v` the symbolic backend made of them (k * (b:a),
        terms.Z3._product64)."""
        got = smt.wide64.mul_parts(lo)
        if got is None:
            return None
        a, k = got
        whole = None if v is None else smt.wide64.mul_parts(v)
        if whole is not None and whole[1] == k and whole[0].num_args() == 2:
            b, a2 = whole[0].children()  # (Y = b:a, its halves' terms)
            if smt.wide64.same(a2, a):
                return self.join(a, b), k
        for x, y in smt.wide64.add_parts(hi):
            by = smt.wide64.mul_parts(y)
            if by is not None and by[1] == k and smt.wide64.same(x, mul_hi_u32(self.B, a, k)):
                return self.join(a, by[0]), k
        return None

    def _terms(self, v: Any) -> list[tuple[Any, int]]:
        hit = None if smt.wide64.is_value(v) else self.sums.get(v.get_id())
        return list(hit[1]) if hit is not None else [(v, 1)]

    def split(self, v: Any) -> tuple[Any, Any]:
        if not smt.wide64.is_value(v):
            hit = self.parts.get(v.get_id())
            if hit is not None:
                return hit[1]
            got = self._mad(v)
            if got is not None:
                return got
        return smt.wide64.halves(v)

    def _halves_of(self, t: Any) -> tuple[Any, Any] | None:
        """A constant's halves (ints), or those a value was joined from."""
        if smt.wide64.is_value(t):
            return smt.wide64.halves(t)
        hit = self.parts.get(t.get_id())
        return None if hit is None else hit[1]

    def _mad(self, v: Any) -> tuple[Any, Any] | None:
        """The halves of a sum X + k*Y as v_mad_u64_u32 computes them."""
        hit = self.sums.get(v.get_id())
        if hit is None or len(hit[1]) != 2 or hit[1][0][1] != 1 or not 1 < hit[1][1][1] < 1 << 32:
            return None
        (x, _), (y, k) = hit[1]
        xp, yp = self._halves_of(x), self._halves_of(y)
        if xp is None or yp is None:
            return None
        B = self.B
        (xl, xh), (yl, yh) = xp, yp
        lo, c = add_carry(B, B.mul(yl, k), xl)
        hi, _ = add_carry(B, mul_hi_u32(B, yl, k), xh, c)
        hi = B.add(B.mul(yh, k), hi)
        self.parts[v.get_id()] = (v, (lo, hi))
        return lo, hi

    def const(self, n: int) -> Any:
        return smt.wide64.const(self.B, n)

    def op(self, name: str, a: Any, b: Any) -> Any:
        r = smt.wide64.op(name, a, b)
        if name == "add" and not smt.wide64.is_value(r):
            terms = self._terms(a)
            for t, c in self._terms(b):
                at = next((j for j, (u, _) in enumerate(terms) if u.get_id() == t.get_id()), None)
                if at is None:
                    terms.append((t, c))
                else:
                    terms[at] = (t, (terms[at][1] + c) % (1 << 64))
            self.sums.setdefault(r.get_id(), (r, terms))
        return r

    def ite(self, c: Any, a: Any, b: Any) -> Any:
        return smt.wide64.ite(self.B, c, a, b)

    def stored(self, v: Any) -> None:
        lo, hi = self.split(v)
        self.table[(self._key(lo), self._key(hi))] = (lo, hi, v)
        return None


def atomic(mem: Any, op: str, lanes: list[tuple[Any, Any, tuple[Any, Any], Any, Any]],
           before: Callable[[int, int], Any] | None, ascending: Any) -> list[tuple[tuple[Any, Any], Any]]:
    """One 64-bit atomic instruction on `mem`: (lo, hi, (vlo, vhi), poison,
    enable) per lane; two stores per lane (P, then P + 4), lane-ascending.
    Returns ((old lo, old hi), poison) per lane: under `ascending` what each
    lane's update read; under another order `before(j, i)` memory before the
    instruction combined with the values of the lanes at the same address
    before it (exact when the lanes' addresses are equal or 8 bytes apart or
    more: the IR's align 8, else undefined); None: no value is read.
    The instruction's inputs are recorded as 2 stores' worth per lane
    (`mem.atomics`, op `OP:64`), so two atomics with the same inputs pair
    store by store.  [S:atomic64]"""
    B = mem.B
    A: Any = _Terms(B, mem) if B.symbolic and hasattr(B, "s") else _Pairs(B, mem)
    fold = OPS[op]
    step = "sub" if op == "sub" else fold
    pre = []
    if before not in (None, ascending):
        for lo, hi, _, _, en in lanes:
            if en is False:
                pre.append((A.const(0), True))
                continue
            (vl, pl), (vh, ph) = mem.read(lo, hi), mem.read(*dword_address(B, lo, hi, 1))
            pre.append((A.join(vl, vh), B.or_b(pl, ph)))
    flat = []
    for lo, hi, (vlo, vhi), p, en in lanes:
        flat += [(lo, hi, vlo, p, en), (*dword_address(B, lo, hi, 1), vhi, p, en)]
    mem.atomics[len(mem.stores)] = (op + ":64", flat)
    seq: list[tuple[Any, Any]] = []
    chain: tuple[Any, Any, Any, Any] | None = None
    for i, (lo, hi, v, p, en) in enumerate(lanes):
        lo4, hi4 = dword_address(B, lo, hi, 1)
        if en is False:  # a lane that does not run it: no value, its stores never read
            seq.append((A.const(0), True))
            mem.write([(lo, hi, B.const(0), True, en)], lane=i, atomic=True)
            mem.write([(lo4, hi4, B.const(0), True, en)], lane=i, atomic=True)
            continue
        if chain is not None and en is True and B.same(lo, chain[0]) and B.same(hi, chain[1]):
            # the lane before ran it at the same address: memory there is its
            # update (its two stores, at P and P + 4 != P), the 64-bit term itself
            old, pois = chain[2], chain[3]
        else:
            (ol, pl), (oh, ph) = mem.read(lo, hi), mem.read(lo4, hi4)
            pois = B.or_b(pl, ph)
            old = A.join(ol, oh)
        seq.append((old, pois))
        new = A.op(step, old, A.join(*v))
        A.stored(new)
        nl, nh = A.split(new)
        mem.write([(lo, hi, nl, B.or_b(pois, p), en)], lane=i, atomic=True)
        mem.write([(lo4, hi4, nh, B.or_b(pois, p), en)], lane=i, atomic=True)
        chain = (lo, hi, new, B.or_b(pois, p)) if en is True and isinstance(A, _Terms) else None
    if before is None:
        return [((B.const(0), B.const(0)), False)] * len(lanes)
    if before is ascending:
        return [(A.split(v), p) for v, p in seq]
    ident = A.const(IDENT64[fold])
    out = []
    for i in range(len(lanes)):
        if lanes[i][4] is False:
            out.append((A.split(pre[i][0]), pre[i][1]))
            continue
        acc: Any = ident
        ps: list[Any] = [pre[i][1]]
        for j in range(len(lanes)):
            if j == i or lanes[j][4] is False:
                continue
            c = B.and_b(lanes[j][4], B.eq(lanes[j][0], lanes[i][0]), B.eq(lanes[j][1], lanes[i][1]), before(j, i))
            if c is False:
                continue
            acc = A.op(fold, acc, A.ite(c, A.join(*lanes[j][2]), ident))
            ps.append(B.and_b(c, lanes[j][3]))
        out.append((A.split(A.op(step, pre[i][0], acc)), B.or_b(*ps)))
    return out


def misaligned(B: Any, lo: Any) -> Any:
    """The low half of an address is not a multiple of 8."""
    return B.ne(B.and_(lo, B.const(7)), B.const(0))


def ir_atomicrmw(run: Any, ins: Any, op: str, align: int, ascending: Any) -> Lanes:
    """The IR's `atomicrmw OP ptr %p, i64 %v ... align A` (A >= 8): per
    lane a 64-bit atomic step in the order run.atomic_order gives (else
    lane-ascending); an access at a poison address or one not a multiple
    of 8 is undefined behaviour  [S:atomic64]."""
    B, Wv = run.B, run.wave
    if align < 8:
        raise run._unsupported("atomicrmw of i64 with align below 8")
    ptr = run._pointer(ins.operands[0])
    assert ptr.hi is not None
    val = run.operand(ins.operands[1])
    if val.hi is None:
        raise run._unsupported("atomicrmw of i64: the value's halves")
    act = run.lanes_on()
    for i in range(Wv):
        if act[i] is not False:
            run.ub.append(B.and_b(act[i], B.or_b(ptr.poison[i], misaligned(B, ptr.vals[i]))))
    order: Callable[[int, int], Any] = ascending
    used = any(o.kind == "ref" and o.key == ins.key for i2 in run._fn_insts for o in i2.operands)
    if used and run.atomic_order is not None:
        rank = run.atomic_order(run.atomics_used)
        order = lambda j, i: B.ult(rank[j], rank[i])  # noqa: E731
    run.atomics_used += used
    olds = atomic(run.memory, op, [(ptr.vals[i], ptr.hi[i], (val.vals[i], val.hi[i]), val.poison[i], act[i])
                                   for i in range(Wv)], order, ascending)
    return Lanes([v[0] for v, _ in olds], [p for _, p in olds], 64, False, [v[1] for v, _ in olds])


def same_place(B: Any, stores: list[Any]) -> tuple[Any, Any] | None:
    """The one address (lo, hi) every enabled store of `stores` writes, or
    None (none enabled, or two addresses not the same term)."""
    live = [s for s in stores if s[4] is not False]
    if not live:
        return None
    for s in live[1:]:
        if B.eq(s[0], live[0][0]) is not True or B.eq(s[1], live[0][1]) is not True:
            return None
    return live[0][0], live[0][1]


def group_pairs(B: Any, ir_mem: Any, gpu_mem: Any, n0: int, n: int) -> list[Any] | None:
    """atomics.group_pairs for a 64-bit atomic (n = 2 stores per lane): every
    lane of each side at one address P (its P + 4 then one address too):
    memory at P and at P + 4 after it, each one store enabled where some
    lane ran it, then no-ops; None when the lanes' addresses differ."""
    ir = ir_mem.stores[n0:n0 + n]
    gpu = gpu_mem.stores[n0:n0 + n]
    noop = (B.const(0), B.const(0), B.const(0), False, False)

    got = gpu_mem.atomics.get(n0)
    if got is None or not got[0].endswith(":64") or len(got[1]) != n:
        return None
    pi, pg = same_place(B, ir[0::2]), same_place(B, gpu[0::2])
    if pi is None or pg is None:
        return None
    out = []
    for k in (0, 1):
        ia, ga = dword_address(B, pi[0], pi[1], k), dword_address(B, pg[0], pg[1], k)
        iv, ip = ir_mem.read(ia[0], ia[1], n0 + n)
        gv, gp = gpu_mem.read(ga[0], ga[1], n0 + n)
        out.append(((ia[0], ia[1], iv, ip, B.or_b(*(s[4] for s in ir[k::2]))),
                    (ga[0], ga[1], gv, gp, B.or_b(*(s[4] for s in gpu[k::2])))))
    return out + [(noop, noop)] * (n - 2)


def gpu_atomic(k: Any, ins: Any, op: str, ret: bool, addrs: list[tuple[Any, Any]], data: list[tuple[Any, Any]],
               act: list[Any], dst: list[int] | None, ascending: Any, one_lane: Callable[..., Any]) -> str | None:
    """The GPU's 64-bit atomic on Kernel `k`: per lane (lo, hi) address and
    (lo, hi) data, `dst` the result's two VGPRs (returning).  Run as one
    lane's step where at most one lane runs it (each lane's enable known,
    or the atomic optimizer's one lane proved: `one_lane`); else
    unsupported.  A lane's address not a multiple of 8 is a fault
    (k.mem.faults)  [S:atomic64]."""
    m, B = k.m, k.m.B
    ens = [B.and_b(k.pc, act[i]) for i in range(m.W)]
    live = [i for i, e in enumerate(ens) if e is not False]
    one: Any = None
    if len(live) <= 1:
        one = ens[live[0]] if live else False
    else:
        one = one_lane(B, addrs, [d[0] for d in data], ens)
        if one is not None and not all(B.same(data[i][1], data[live[0]][1]) for i in live[1:]):
            one = None
    if one is None:
        return (f"line {ins.line}: {ins.mnemonic}: a 64-bit atomic that several lanes may run (verify models the "
                "atomic optimizer's one lane)")
    W = m.W
    first = live[0] if live else 0
    faults = getattr(k.mem, "faults", None)
    if faults is not None and one is not False:
        faults.append((B.and_b(one, misaligned(B, addrs[first][0])), ins.line))
    if live:  # (one lane, known or proved: its effect compared whole, atomics.group_pairs)
        k.mem.one_lane.add(len(k.mem.stores))
    noop = (B.const(0), B.const(0), (B.const(0), B.const(0)), False, False)
    lanes = [(addrs[first][0], addrs[first][1], data[first], False, one)] + [noop] * (W - 1)
    olds = atomic(k.mem, op, lanes, ascending, ascending)
    if ret:
        assert dst is not None
        k.returning += 1  # (one lane: no order)
        for h, d in enumerate(dst):
            m.write_v(d, [olds[0][0][h]] * W, act)
            k.pending_v.add(d)
            if k.vm_order is not None:
                k.vm_order.append(d)
    return None


def fault_verdict(res: Any, t0: float, q: Any, B: Any, no_ub: Any, gpu_mem: Any, exec_bits: list[Any]) -> Any:
    """Where the GPU's code may fault (gpu_mem.faults: a 64-bit atomic at
    an address not a multiple of 8) while the IR is defined: refuted (a
    model: EXEC and the line), unknown (the solver gave up); None: it
    cannot  [S:atomic64]."""
    q.push()
    q.add(B.and_b(no_ub, B.or_b(*(c for c, _ in gpu_mem.faults))))
    r = q.check()
    if r == "unsat":
        q.pop()
        return None
    res.seconds = time.monotonic() - t0
    if r == "sat":
        line = next((ln for c, ln in gpu_mem.faults if q.truth(c)), gpu_mem.faults[0][1])
        mask = sum(1 << i for i, e in enumerate(exec_bits) if e is True or (e is not False and q.truth(e)))
        res.verdict = "refuted"
        res.notes = [f"counterexample: EXEC = {mask:#x}; the GPU's 64-bit atomic at line {line} runs at an "
                     "address that is not a multiple of 8 (undefined on the GPU) where the IR is defined"]
    else:
        res.verdict = "unknown"
        res.notes = [f"the solver gave up ({q.reason}) on whether the GPU's 64-bit atomics run at addresses "
                     "that are multiples of 8"]
    q.pop()
    return res
