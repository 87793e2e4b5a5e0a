"""Upper bounds of IR values, for `verify tv` (docs/tv.md): `and %v, 2^k - 1`
is `%v` where `%v` is surely below 2^k.

LLVM's llvm.amdgcn.mbcnt.ll `mbcnt_lo_known_bits_3` and its kin mask an
`llvm.amdgcn.mbcnt.lo/hi(%x, 15)` with 127 or 63, and LLVM drops the mask:
the count is at most 32 (a popcount of 32 bits), so the result is at most
15 + 32 = 47.  The GPU's `v_mbcnt_*_u32_b32 v0, v0, 15` and the IR's masked
value are then two terms the solver must prove equal by bounding a popcount
(an adder chain), which spent the whole budget (unknown).  Here the IR's mask
is left out where the operand's upper bound, computed from the IR (below),
fits in it: the same value, one term.  The bounds are facts of arithmetic,
never assumptions:

* a constant is its value;
* `llvm.amdgcn.mbcnt.lo/hi(m, b)` is at most bound(b) + 32, where that does
  not wrap ([S:mbcnt]: b plus a popcount of at most 32 bits);
* `and a, b` is at most min(bound(a), bound(b)) (an AND clears bits);
* `zext` of an iN is below 2^N.

Anything else has no bound, and the mask stays.  [S:tv-known-bits]
"""

from __future__ import annotations

from typing import Any

M32 = 0xFFFFFFFF


def upper_bound(defs: dict[str, Any], o: Any, depth: int = 0) -> int | None:
    """A number that the i32 operand `o` never exceeds (unsigned), or None.
    `defs`: the function's instructions by key."""
    if o.kind == "const":
        return int(o.value) & M32
    if o.kind != "ref" or depth > 8:
        return None
    ins = defs.get(o.key)
    if ins is None or ins.type != "i32":
        return None
    if ins.opcode == "call" and ins.callee in ("llvm.amdgcn.mbcnt.lo", "llvm.amdgcn.mbcnt.hi") \
            and len(ins.operands) >= 3:
        b = upper_bound(defs, ins.operands[1], depth + 1)
        return b + 32 if b is not None and b + 32 <= M32 else None  # [S:mbcnt]
    if ins.opcode == "and" and len(ins.operands) == 2:
        got = [x for x in (upper_bound(defs, p, depth + 1) for p in ins.operands) if x is not None]
        return min(got) if got else None
    if ins.opcode == "zext" and ins.operands and ins.operands[0].type in ("i1", "i8", "i16"):
        return (1 << int(ins.operands[0].type[1:])) - 1
    return None


def mask_is_identity(defs: dict[str, Any], ins: Any) -> int | None:
    """For `and` of i32 with a constant 2^k - 1: the index (0 or 1) of the
    other operand where its upper bound fits in the mask (the AND then
    changes nothing), else None."""
    if ins.opcode != "and" or ins.type != "i32" or len(ins.operands) != 2:
        return None
    for k in (0, 1):
        c, other = ins.operands[1 - k], ins.operands[k]
        if c.kind != "const" or other.kind != "ref":
            continue
        m = int(c.value) & M32
        if m & (m + 1):  # not 2^k - 1
            continue
        ub = upper_bound(defs, other)
        if ub is not None and ub <= m:
            return k
    return None
