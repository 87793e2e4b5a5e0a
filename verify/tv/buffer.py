"""MUBUF buffer memory in kernels, for `verify tv`  [S:mubuf-rsrc].

With ``-mattr=-flat-for-global`` (and on targets without global
instructions) LLVM reaches global memory through a buffer resource
descriptor (V#) it builds from the IR's pointer: words 0-1 the pointer,
word 2 ``-1`` (NUM_RECORDS), word 3 its default data format
(``s_mov_b32 s3, 0xf000``; ``0x31016000`` on GFX10+), then
``buffer_store_dword v0, off, s[0:3], 0``.  Modelled here, exactly as the
ISA guides give the address of an access with neither OFFEN nor IDXEN:

    ADDR = V#.base + SGPR offset + instruction offset

where V#.base is bits 47:0 of words 0-1 (word 1 bits 15:0), STRIDE word 1
bits 29:16 and the swizzle bits 31:30.  Where the descriptor's word 1 has
a bit above 15 set (a stride or swizzling verify does not model), the
lane's address is unknown (a fresh value): a store there can land anywhere,
so nothing is proved through it.  Words 2 and 3 must be constants with
ADD_TID_ENABLE (word 3 bit 23, LLVM's ``RSRC_TID_ENABLE``) clear and every
dword of the access below NUM_RECORDS (in range under every range-checking
rule of GFX6-GFX12), else the instruction is unsupported.  The VGPR address
forms (OFFEN, IDXEN, ADDR64), LDS DMA and TFE are unsupported.

LLVM copies the 64-bit pointer into words 0-1 as it is, so the base is the
pointer only when its upper 16 bits are zero: the named assumption
``buffer.base48`` (default ``canonical``) takes every ``ptr addrspace(1)``
kernel argument to be a 48-bit address (the GPU's virtual address space)
and the accesses through it to stay below 2^48, where the 64-bit sum is the
hardware's; under ``any`` the pointers are unconstrained (the GPU then
writes elsewhere than the IR, and verify says so).

Loads and stores are dword-granular here (``_dword``..``_dwordx4``, GFX11+
``_b32``..``_b128``; the 8- and 16-bit ones: verify/tv/bytemem.py, through `resolve`); the returning and non-returning 32-bit atomics map to
the IR's atomicrmw as the global atomics do (verify/tv/kernel.py).
"""

from __future__ import annotations

import re
from typing import Any

from .. import smt
from ..ir import Instr
from . import atomic64
from .atomics import one_lane
from .sem import ASCENDING
from .types import dword_address

NOT_MINE = "not mine"

BUFFER = re.compile(r"^buffer_(load|store)_(b32|dword|b64|dwordx2|b96|dwordx3|b128|dwordx4)$")
BUFFER_ATOMIC = re.compile(r"^buffer_atomic_(add|sub|and|or|xor|smin|smax|umin|umax|min|max)(_u32|_i32|_b32)?$")
_DWORDS = {"b32": 1, "dword": 1, "b64": 2, "dwordx2": 2, "b96": 3, "dwordx3": 3, "b128": 4, "dwordx4": 4}
_ATOMIC_OP = {("smin", ""): "min", ("smax", ""): "max", ("min", "_i32"): "min", ("max", "_i32"): "max",
              ("min", "_u32"): "umin", ("max", "_u32"): "umax"}
# cache policy bits: no effect on one wave's values
_POLICY = {"glc", "slc", "dlc", "sc0", "sc1", "nt", "th", "scope"}
TID_ENABLE = 1 << 23  # word 3: ADD_TID_ENABLE (LLVM's RSRC_TID_ENABLE, 1 << (32 + 23))  [S:mubuf-rsrc]


def known(mnemonic: str) -> bool:
    """An instruction `step` models (gpu_code lets it through)."""
    return bool(BUFFER.match(mnemonic) or BUFFER_ATOMIC.match(mnemonic)
                or (mnemonic.startswith("buffer_") and atomic64.gpu_op(mnemonic) is not None))


def _regs(text: str, kind: str) -> list[int] | None:
    m = re.fullmatch(kind + r"(\d+)", text)
    if m:
        return [int(m.group(1))]
    m = re.fullmatch(kind + r"\[(\d+):(\d+)\]", text)
    if m:
        return list(range(int(m.group(1)), int(m.group(2)) + 1))
    return None


def pointer_contract(B: Any, his: list[Any]) -> list[Any]:
    """`buffer.base48=canonical`: each global pointer argument's high half
    below 2^16 (a 48-bit address)  [S:mubuf-rsrc]."""
    return [B.ult(h, B.const(0x10000)) for h in his]


def step(k: Any, ins: Instr, ops: list[str], mods: dict[str, str]) -> str | None:
    """Run one buffer instruction on Kernel `k`; NOT_MINE for any other."""
    m, B = k.m, k.m.B
    mn = ins.mnemonic
    b = BUFFER.match(mn)
    a = BUFFER_ATOMIC.match(mn)
    if b is None and a is None:
        if mn.startswith("buffer_") and atomic64.gpu_op(mn) is not None:
            return _atomic64(k, ins, ops, mods)
        return NOT_MINE
    nd = 1 if a is not None else _DWORDS[b.group(2)] if b is not None else 1
    stores = a is not None or (b is not None and b.group(1) == "store")
    got = resolve(k, ins, ops, mods, 4 * nd, stores)
    if isinstance(got, str):
        return got
    addrs, act, data, where = got
    if a is not None:
        return _atomic(k, ins, a, data, mods, addrs, act)
    assert b is not None
    if len(data) != nd:
        return f"{where}: {len(data)} data registers for {nd} dwords"
    if b.group(1) == "load":
        for j, d in enumerate(data):
            vals = [k.mem.read(*dword_address(B, alo, ahi, j))[0] if act[i] is not False else B.const(0)
                    for i, (alo, ahi) in enumerate(addrs)]
            m.write_v(d, vals, act)
            k.pending_v.add(d)
            if k.vm_order is not None:
                k.vm_order.append(d)
        return None
    for j, r in enumerate(data):
        vals = m.v(r)
        k.mem.write([(*dword_address(B, addrs[i][0], addrs[i][1], j), smt.under(vals[i], act[i]), False,
                      B.and_b(k.pc, act[i])) for i in range(m.W)], more=j > 0)
    k.vm_write()
    return None


def _atomic(k: Any, ins: Instr, a: re.Match[str], data: list[int], mods: dict[str, str],
            addrs: list[tuple[Any, Any]], act: list[Any]) -> str | None:
    """`buffer_atomic_OP vdata, off, s[N:N+3], soffset`: with the return flag
    (glc, sc0 or th:TH_ATOMIC_RETURN) vdata receives each lane's value
    before its update, serialised as the global atomics are
    (Kernel.atomic)  [S:global-atomic]."""
    m, B = k.m, k.m.B
    kind, suffix = a.group(1), a.group(2) or ""
    op = _ATOMIC_OP.get((kind, suffix), kind)
    if (kind in ("min", "max") and not suffix) or len(data) != 1:
        return f"line {ins.line}: {ins.mnemonic}"
    ret = "glc" in mods or "sc0" in mods or mods.get("th") == "TH_ATOMIC_RETURN"
    before = None
    if ret:
        rank = k.atomic_order(k.returning)
        k.returning += 1
        before = lambda j, i: B.ult(rank[j], rank[i])  # noqa: E731
    vals = m.v(data[0])
    olds = k.mem.atomic(op, [(addrs[i][0], addrs[i][1], vals[i], False, B.and_b(k.pc, act[i]))
                             for i in range(m.W)], before)
    if ret:
        m.write_v(data[0], [v for v, _ in olds], act)
        k.pending_v.add(data[0])
        if k.vm_order is not None:
            k.vm_order.append(data[0])
    else:
        k.vm_write()
    return None


def _atomic64(k: Any, ins: Instr, ops: list[str], mods: dict[str, str]) -> str | None:
    """`buffer_atomic_OP_x2/_u64 v[N:N+1], off, s[N:N+3], soffset`: a
    64-bit atomic (verify/tv/atomic64.py) at the resource's address
    [S:atomic64] [S:mubuf-rsrc]."""
    m = k.m
    got = resolve(k, ins, ops, mods, 8, True)
    if isinstance(got, str):
        return got
    addrs, act, data, where = got
    if len(data) != 2:
        return f"{where}: {len(data)} data registers for a 64-bit atomic"
    op = atomic64.gpu_op(ins.mnemonic)
    assert op is not None
    ret = "glc" in mods or "sc0" in mods or mods.get("th") == "TH_ATOMIC_RETURN"
    lo, hi = m.v(data[0]), m.v(data[1])
    vals = [(smt.under_conjuncts(lo[i], act[i]), smt.under_conjuncts(hi[i], act[i])) for i in range(m.W)]
    return atomic64.gpu_atomic(k, ins, op, ret, addrs, vals, act, data if ret else None, ASCENDING, one_lane)


def resolve(k: Any, ins: Instr, ops: list[str], mods: dict[str, str], nbytes: int,
            stores: bool) -> tuple[list[tuple[Any, Any]], list[Any], list[int], str] | str:
    """A buffer access's per-lane addresses (lo, hi), the lanes that run it,
    its data registers and its text for notes; or why it is not modelled.
    `nbytes`: the bytes it reaches past its offset; `stores`: it reads
    its data registers (a store or an atomic)  [S:mubuf-rsrc]."""
    m, B = k.m, k.m.B
    mn = ins.mnemonic
    where = f"line {ins.line}: {mn} {', '.join(ops)}{' ' if mods else ''}{' '.join(sorted(mods))}"
    if len(ops) != 4 or set(mods) - _POLICY - {"offset"}:
        return f"{where} (modelled: vdata, off, s[N:N+3], soffset with offset:N and cache bits)"
    if ops[1] != "off":
        return f"{where}: a VGPR address (OFFEN/IDXEN/ADDR64) is not modelled"
    rsrc = _regs(ops[2], "s")
    data = _regs(ops[0], "v")
    if rsrc is None or len(rsrc) != 4 or data is None:
        return f"{where}: not a resource s[N:N+3] and VGPR data"
    try:
        inst_off = int(mods.get("offset", "0"), 0)
    except ValueError:
        return where
    if ops[3] in ("0", "null", "off"):
        soff: Any = 0
    else:
        sr = _regs(ops[3], "s")
        if sr is None or len(sr) != 1:
            try:
                soff = int(ops[3], 0) & 0xFFFFFFFF
            except ValueError:
                return f"{where}: SGPR offset {ops[3]}"
        else:
            soff = m.s(f"s{sr[0]}")
    reads = [f"s{r}" for r in rsrc] + ([ops[3]] if ops[3].startswith("s") else [])
    if any(int(r[1:]) in k.pending_s for r in reads):
        return f"line {ins.line} reads a load result before its wait"
    if stores and set(data) & (k.pending_v | k.pending_ds):
        return f"line {ins.line} reads a load result before its wait"
    words = [m.s(f"s{r}") for r in rsrc]
    nrec, w3 = words[2], words[3]
    if type(soff) is not int:
        return f"{where}: an SGPR offset that is not a constant"
    if type(nrec) is not int or type(w3) is not int:
        return f"{where}: descriptor words 2-3 (NUM_RECORDS, format) not constants"
    if w3 & TID_ENABLE:
        return f"{where}: a descriptor with ADD_TID_ENABLE (a swizzled scratch resource) is not modelled"
    if inst_off + nbytes > nrec:
        return f"{where}: an access at or past NUM_RECORDS {nrec:#x} (range checking is not modelled)"
    base48 = m.assume("buffer.base48")
    if base48 == "canonical" and not getattr(k, "buffer_contract_added", False):
        k.contract = getattr(k, "contract", []) + pointer_contract(B, getattr(k, "pointer_his", []))
        k.buffer_contract_added = True
    w0, w1 = words[0], words[1]
    act = m.actives()
    plain = B.eq(B.lshr(w1, B.const(16)), B.const(0))  # no stride, no swizzle: the base is words 0-1
    if plain is not True and base48 == "canonical" and any(B.same(w1, h) for h in getattr(k, "pointer_his", [])):
        plain = True  # word 1 a pointer argument's high half: below 2^16 by the contract just added
    off = (soff + inst_off) & 0xFFFFFFFF
    lo = B.add(w0, B.const(off))  # the 64-bit sum: base + SGPR offset + instruction offset (unsigned)
    hi = B.add(w1, B.bool_value(B.ult(lo, B.const(off)))) if off else w1
    if plain is not True:
        fresh = (B.fresh(f"buffer.addr@{ins.line}.lo"), B.fresh(f"buffer.addr@{ins.line}.hi"))
        lo, hi = B.ite(plain, lo, fresh[0]), B.ite(plain, hi, fresh[1])
    addrs = [(lo, hi) if act[i] is not False else (B.const(0), B.const(0)) for i in range(m.W)]
    return addrs, act, data, where
