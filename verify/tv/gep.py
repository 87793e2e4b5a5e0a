"""`getelementptr` over array types, for `verify tv` (docs/tv.md, "Memory").

``getelementptr [4 x i32], ptr addrspace(1) %p, i64 0, i64 %i``: the first
index steps over whole arrays, each further one into the array's elements
(LangRef, getelementptr: the offset is the sum of each index times the
allocation size of the type it indexes), in 64-bit two's complement; an
``i32`` index is sign-extended.  A variable index's scale must be a power
of two (a shift, as verify/tv/sem.py's one-index form); a constant index
may scale by any size.  ``inbounds``/``nuw``/``nusw`` are not used (their
poison cases only make the IR less defined than modelled here: stricter,
never looser).  A 32-bit pointer result (LDS, addrspace(3)) keeps the low
half.
"""

from __future__ import annotations

import re
from typing import Any

from .types import Lanes, ttype

M64 = (1 << 64) - 1
_ARRAY = re.compile(r"\[\s*(\d+)\s+x\s+(.+)\]")


def alloc_size(ty: str) -> int | None:
    """The allocation size in bytes of `ty` (an array of the scalar and
    vector types verify models, nested arrays too), or None."""
    t = ty.strip()
    m = _ARRAY.fullmatch(t)
    if m:
        e = alloc_size(m.group(2))
        return None if e is None else int(m.group(1)) * e
    tt = ttype(t)
    if tt is None or tt.bits == 1 or (tt.n is not None and (tt.n & (tt.n - 1)) != 0):
        return None
    if tt.n is None:
        return max(1, tt.bits // 8)
    return tt.n * tt.bits // 8


def array_gep(run: Any, ins: Any, source: str) -> Lanes:
    """The address `ins` (a getelementptr whose source element type
    `source` is an array type) computes, per lane."""
    B, W = run.B, run.wave
    scales: list[int] = []
    ty = source.strip()
    for k in range(len(ins.operands) - 1):
        size = alloc_size(ty)
        if size is None:
            raise run._unsupported(f"getelementptr over {ty}")
        if k == 0:
            scales.append(size)
            continue
        m = _ARRAY.fullmatch(ty)
        if m is None:  # (a struct or vector: not an array to step into)
            raise run._unsupported(f"getelementptr index into {ty}")
        ty = m.group(2).strip()
        es = alloc_size(ty)
        assert es is not None
        scales.append(es)
    base = run._pointer(ins.operands[0])
    lo, hi, pois = list(base.vals), list(base.hi), list(base.poison)
    for ix, scale in zip(ins.operands[1:], scales):
        if ix.kind == "const" and ix.type in ("i32", "i64"):
            c = ix.value
            if ix.type == "i32" and c >= 1 << 31:
                c -= 1 << 32
            off = (c * scale) & M64
            if off == 0:
                continue
            olo, ohi = [B.const(off & 0xFFFFFFFF)] * W, [B.const(off >> 32)] * W
        else:
            if scale & (scale - 1):
                raise run._unsupported(f"getelementptr: a variable index scaled by {scale} (modelled: powers of two)")
            if ix.type == "i64" and ix.kind == "ref":
                idx = run.env[ix.key]
                ilo, ihi = idx.vals, idx.hi
            elif ix.type == "i32":
                idx = run.operand(ix)
                ilo, ihi = idx.vals, [B.ashr(v, B.const(31)) for v in idx.vals]
            else:
                raise run._unsupported(f"getelementptr index of type {ix.type}")
            pois = [B.or_b(p, q) for p, q in zip(pois, idx.poison)]
            sh = scale.bit_length() - 1
            olo = [B.shl(v, B.const(sh)) if sh else v for v in ilo]
            ohi = [B.or_(B.shl(h, B.const(sh)), B.lshr(v, B.const(32 - sh))) if sh else h for v, h in zip(ilo, ihi)]
        for i in range(W):
            r = B.add(lo[i], olo[i])
            hi[i] = B.add(B.add(hi[i], ohi[i]), B.bool_value(B.ult(r, olo[i])))
            lo[i] = r
    if ins.type == "ptr addrspace(3)":
        return Lanes(lo, pois, 32, False)
    return Lanes(lo, pois, 64, False, hi)


_LDS_GLOBAL = re.compile(r"^(@[\w.$-]+)\s*=\s*(?!.*\bexternal\b).*\baddrspace\(3\)\s+global\b")


def lds_global(run: Any, op: Any, fn_insts: list[Any], choice: Any) -> Lanes | None:
    """The address of an LDS global variable operand (`@0 = internal
    addrspace(3) global [448 x i32] undef`, update.dpp.ll's `dpp_test1`), or
    None for any other operand.  Its address is not the IR's to fix: LLVM
    places a kernel's LDS variables (AMDGPULowerModuleLDS: one struct per
    kernel, at LDS address 0), so verify takes the address LLVM gives the
    only one a function uses, 0, as the IR's choice (a witness: a proof
    under it is a proof; a counterexample is no refutation, the IR might
    place it elsewhere: recorded as a choice, so it is reported unknown).
    A function using two or more, or an `external` (dynamic) one, is
    unsupported; `choice`: verify/tv/sem.py's Choice  [S:mem16-lds-global]."""
    text = getattr(op, "text", "")
    if op.kind != "other" or op.type != "ptr addrspace(3)" or not text.startswith("@"):
        return None
    m = _LDS_GLOBAL.match(text)
    if m is None:
        raise run._unsupported(f"pointer operand '{text.split('=')[0].strip()}' (modelled: a non-external LDS global)")
    names = {o.text.split("=")[0].strip() for i in fn_insts for o in i.operands
             if o.kind == "other" and o.type == "ptr addrspace(3)" and o.text.startswith("@")}
    if len(names) != 1:
        raise run._unsupported(f"{len(names)} LDS globals in one function (modelled: one, at address 0)")
    B, W = run.B, run.wave
    if not any(c.what.startswith("the address of LDS global") for c in run.choices):
        run.choices.append(choice(run.cur.span, f"the address of LDS global {m.group(1)}", [True] * W))
    return Lanes([B.const(0)] * W, [False] * W, 32, False)

