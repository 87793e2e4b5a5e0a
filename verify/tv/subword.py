"""The IR's 8- and 16-bit `atomicrmw`, for `verify tv` (issue 31).

`atomicrmw OP ptr addrspace(1) %p, iN %v ORDERING, align A` with N 8 or
16, OP one of add, sub, and, or, xor, min, max, umin, umax: each active
lane's update is one atomic step on the N/8 bytes at %p, `m := m OP v` in
N bits (add and sub wrap; min/max compare the values sign-extended, umin/
umax zero-extended), and the lane gets `m` from before its step.  The
lanes' steps are serialised in some order, the LangRef allowing any; these
operations commute, so memory afterwards does not depend on the order and
is written lane-ascending; the value each lane gets back follows the order
verify is given for the instruction (`IRRun.atomic_order`, as the 32-bit
atomics: verify/tv/sem.py).  Memory is byte-granular here (verify/tv/
bytemem.py's ByteMemory): each step writes the N/8 bytes at %p, nothing
else.  An access at a poison address, or at one that is not a multiple of
A (A >= N/8), is undefined behaviour; a smaller A, `volatile`, another
address space, or `xchg` and the float operations (whose results depend on
the order of the lanes' steps) are unsupported, named.

The GPU side is LLVM's expansion (AtomicExpandPass: a compare-and-swap
loop on the aligned dword holding the bytes, the other bytes masked back
in) under the atomic optimizer's one lane: verify/tv/casloop.py.
[S:atomic-subword]
"""

from __future__ import annotations

import re
from typing import Any

from ..identities import OPERATIONS
from .types import Lanes

SIZES = {"i8": 1, "i16": 2}
# the operations modelled -> the fold of verify/identities.py (sub: the sum subtracted)
OPS = {"add": "add", "sub": "add", "and": "and", "or": "or", "xor": "xor", "min": "smin", "max": "smax",
       "umin": "umin", "umax": "umax"}


def is_subword(ins: Any) -> bool:
    """An atomicrmw of i8 or i16."""
    return ins.opcode == "atomicrmw" and len(ins.operands) > 1 and ins.operands[1].type in SIZES


def step(B: Any, op: str, old: Any, v: Any, bits: int) -> Any:
    """`old OP v` in `bits` bits (old and v zero-extended below 2^bits; the
    result too)."""
    mask = B.const((1 << bits) - 1)
    fold = OPS[op]
    if fold in ("smin", "smax"):  # compared sign-extended: the bits' own order
        sx, sv = sext(B, old, bits), sext(B, v, bits)
        r = B.ite(B.slt(sx, sv) if fold == "smin" else B.slt(sv, sx), sx, sv)
        return B.and_(r, mask)
    if op == "sub":
        return B.and_(B.sub(old, v), mask)
    return B.and_(getattr(B, OPERATIONS[fold].method)(old, v), mask)


def sext(B: Any, x: Any, bits: int) -> Any:
    """x (below 2^bits) sign-extended to 32 bits."""
    sh = B.const(32 - bits)
    return B.ashr(B.shl(x, sh), sh)


def ir_atomicrmw(run: Any, ins: Any) -> Lanes:
    """The IR's sub-word atomicrmw on `run` (an IRRun whose memory is a
    ByteMemory)  [S:atomic-subword]."""
    B, W = run.B, run.wave
    ty = ins.operands[1].type
    size = SIZES[ty]
    bits = 8 * size
    m = re.match(r"(?:%\S+\s*=\s*)?atomicrmw\s+(volatile\s+)?(\w+)\s+ptr( addrspace\((\d+)\))?[ ,]", ins.text)
    a = re.search(r",\s*align\s+(\d+)", ins.text)
    align = int(a.group(1)) if a else size  # (omitted: the natural alignment, the type's size)
    if m is None or m.group(1) or m.group(2) not in OPS or align < size \
            or (m.group(4) is not None and m.group(4) not in ("1",)):
        raise run._unsupported(f"atomicrmw '{' '.join(ins.text.split('=', 1)[-1].split()[:3])}' of {ty} "
                               f"(modelled: {' '.join(OPS)} of i8/i16 on addrspace(1), align >= the size)")
    if not hasattr(run.memory, "read_bytes"):
        raise run._unsupported(f"atomicrmw of {ty} with other atomics in the function (memory is dword-granular)")
    op = m.group(2)
    mem = run.memory
    ptr = run._pointer(ins.operands[0])
    assert ptr.hi is not None
    val = run.operand(ins.operands[1])
    act = run.lanes_on()
    for i in range(W):  # a poison address, or one the alignment does not hold: UB
        if act[i] is not False:
            bad = ptr.poison[i] if align == 1 else B.or_b(ptr.poison[i],
                                                          B.ne(B.and_(ptr.vals[i], B.const(align - 1)), 0))
            run.ub.append(B.and_b(act[i], bad))
    vmask = B.const((1 << bits) - 1)
    vals = [B.and_(val.vals[i], vmask) for i in range(W)]
    used = any(o.kind == "ref" and o.key == ins.key for i2 in run._fn_insts for o in i2.operands)
    rank = run.atomic_order(run.atomics_used) if used and run.atomic_order is not None else None
    run.atomics_used += used
    pre = [mem.read_bytes(ptr.vals[i], ptr.hi[i], size) if act[i] is not False and rank is not None
           else (B.const(0), True) for i in range(W)]
    seq = []
    for i in range(W):  # lane-ascending: memory afterwards is the same in every order
        if act[i] is False:  # a lane that does not run it: no value (poison to its readers), no store
            seq.append((B.const(0), True))
            continue
        old, oldp = mem.read_bytes(ptr.vals[i], ptr.hi[i], size)
        seq.append((old, oldp))
        new = step(B, op, old, vals[i], bits)
        bs = [B.and_(B.lshr(new, B.const(8 * k)) if k else new, B.const(0xFF)) for k in range(size)]
        mem.write_bytes([(ptr.vals[i], ptr.hi[i], bs, B.or_b(oldp, val.poison[i]), act[i])], lane=i, atomic=True)
    if rank is None:
        return Lanes([v for v, _ in seq], [p for _, p in seq], bits, False)
    # under the order `rank`: memory before the instruction combined with
    # the values of the lanes at the same address that come before this
    # lane's (the operations commute: one fold, as Memory.atomic's)
    fold = OPS[op]
    f = getattr(B, OPERATIONS[fold].method)
    ident = OPERATIONS[fold].identity
    assert ident is not None
    signed = fold in ("smin", "smax")

    def ext(x: Any) -> Any:
        return sext(B, x, bits) if signed else x
    out_v, out_p = [], []
    for i in range(W):
        if act[i] is False:
            out_v.append(B.const(0))
            out_p.append(True)
            continue
        acc: Any = B.const(ident)
        pois = [pre[i][1]]
        for j in range(W):
            if j == i or act[j] is False:
                continue
            c = B.and_b(act[j], B.eq(ptr.vals[j], ptr.vals[i]), B.eq(ptr.hi[j], ptr.hi[i]), B.ult(rank[j], rank[i]))
            if c is False:
                continue
            acc = f(acc, B.ite(c, ext(vals[j]), B.const(ident)))
            pois.append(B.and_b(c, val.poison[j]))
        base = ext(pre[i][0])
        out_v.append(B.and_(B.sub(base, acc) if op == "sub" else f(base, acc), vmask))
        out_p.append(B.or_b(*pois))
    return Lanes(out_v, out_p, bits, False)
