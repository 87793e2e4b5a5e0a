"""Memory spaces beyond global, for `verify tv`'s GPU side (docs/tv.md, "Memory").

`verify/tv/kernel.py`'s `Kernel.step` hands each instruction it does not
model itself to `step` here first:

* **Flat** (`flat_load/store_*`, `flat_atomic_*`): a 64-bit VGPR address
  (plus the signed or unsigned immediate offset of GFX9+) into the one
  memory of 64-bit addresses that global and constant pointers share: run
  as the `global_*` instruction with `off`, its result ready after vmcnt,
  under the named assumption `flat.aperture=global` (the default; `any`:
  a flat access is unsupported)  [S:flat-aperture].
* **LDS** (`ds_write/ds_store_b32|b64`, `ds_write2/ds_store_2addr_b32|b64`,
  `ds_read/ds_load_b32|b64`, `ds_read2/ds_load_2addr_b32|b64`, `ds_OP_u32` and `ds_OP_rtn_u32` atomics): a 32-bit VGPR
  address plus the 16-bit unsigned offset (`offset0/offset1` in dwords
  for the two-address forms), in the LDS's own memory; a result is ready
  after lgkmcnt(0) (GFX12: dscnt 0).  Before GFX9 a DS instruction
  compares the address with M0 (out of range: the write is dropped, the
  read gives 0); verify asks that M0 is -1 there (LLVM's
  `s_mov_b32 m0, -1`), else the function is unsupported  [S:ds-m0].
* **Cache invalidates and write-backs** (`buffer_wbinvl1(_vol)`,
  `buffer_gl0_inv`, `buffer_gl1_inv`, `global_inv`, `global_wb`,
  `buffer_inv`, `buffer_invl2`, `buffer_wbl2`): no effect on one wave's memory
  [S:one-wave-fence]; `s_add_u32/s_addc_u32/s_lshr_b32/s_mov_b32` into `flat_scratch_*`
  (gfx803 kernels' scratch setup): only scratch reached through a flat
  address reads it, which verify does not model (SCC after it: unknown).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from .. import smt
from ..asmcheck import Opaque
from ..ir import Instr
from ..ops.base import UNMODELLED
from .sem import Memory

NOT_MINE = "not mine"  # `step` does not know the instruction

FLAT = re.compile(r"^flat_(load|store)_(b32|dword|b64|dwordx2|b96|dwordx3|b128|dwordx4)$")
FLAT_ATOMIC = re.compile(r"^flat_atomic_(add|sub|and|or|xor|smin|smax|umin|umax|min|max)(_u32|_i32|_b32)?$")
# ds atomics -> the IR's atomicrmw operation
_DS_ATOMIC = {"add_u32": "add", "sub_u32": "sub", "and_b32": "and", "or_b32": "or", "xor_b32": "xor",
              "min_i32": "min", "max_i32": "max", "min_u32": "umin", "max_u32": "umax"}
DS_ATOMIC = re.compile(r"^ds_(add|sub|and|or|xor|min|max)(_rtn)?_(u32|b32|i32)$")
DS_ACCESS = re.compile(r"^ds_(write|store|read|load)(2|_2addr)?_(b32|b64)$")
NO_EFFECT = ("buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_gl0_inv", "buffer_gl1_inv", "global_inv", "global_wb",
             "buffer_inv", "buffer_invl2", "buffer_wbl2", "s_wait_dscnt", "s_wait_storecnt", "s_wait_samplecnt", "s_wait_bvhcnt",
             "s_wait_expcnt", "s_wait_storecnt_dscnt")
SCRATCH_SETUP = re.compile(r"^s_(add_u32|addc_u32|mov_b32|lshr_b32)\s+flat_scratch_(lo|hi)\b"
                           r"|^s_setreg_b32\s+hwreg\(HW_REG_FLAT_SCR_(LO|HI)\)")  # (GFX10's form  [S:flat-scratch-setup])


class LdsMemory(Memory):
    """The LDS: 32-bit addresses (the high half of an address is ignored,
    so the IR's dword k at lo + 4k wraps as the hardware's does)."""

    def read(self, lo: Any, hi: Any, upto: int | None = None) -> tuple[Any, Any]:
        return super().read(lo, self.B.const(0), upto)

    def write(self, lanes: list[tuple[Any, Any, Any, Any, Any]], more: bool = False, lane: int | None = None,
              atomic: bool = False) -> None:
        super().write([(lo, self.B.const(0), v, p, en) for lo, _, v, p, en in lanes], more, lane, atomic)

    def atomic(self, op: str, lanes: list[tuple[Any, Any, Any, Any, Any]],
               before: Any) -> list[tuple[Any, Any]]:
        return super().atomic(op, [(lo, self.B.const(0), v, p, en) for lo, _, v, p, en in lanes], before)

    def race_at(self, lo: Any, hi: Any, same_value: bool = False, ordered: bool | None = None) -> Any:
        return super().race_at(lo, self.B.const(0), same_value, ordered)

    def read_race_at(self, lo: Any, hi: Any) -> Any:
        return super().read_race_at(lo, self.B.const(0))

    def gpu_races_at(self, lo: Any, hi: Any) -> tuple[Any, Any]:
        return super().gpu_races_at(lo, self.B.const(0))


def known(mnemonic: str, text: str = "") -> bool:
    """An instruction `step` models (gpu_code lets it through)."""
    return bool(SCRATCH_SETUP.match(text.strip()) or FLAT.match(mnemonic) or FLAT_ATOMIC.match(mnemonic) or DS_ATOMIC.match(mnemonic)
                or DS_ACCESS.match(mnemonic) or mnemonic in NO_EFFECT)


def _regs(text: str) -> list[int]:
    m = re.fullmatch(r"v(\d+)", text)
    if m:
        return [int(m.group(1))]
    m = re.fullmatch(r"v\[(\d+):(\d+)\]", text)
    if m:
        return list(range(int(m.group(1)), int(m.group(2)) + 1))
    raise ValueError(text)


def _as_global(ins: Instr, mnemonic: str) -> Instr:
    """A flat instruction as its global twin with `off` (the same operands)."""
    body = ins.text.split(";")[0].strip()
    _, _, rest = body.partition(" ")
    words = rest.split(",")
    last = words[-1].split()
    words[-1] = " " + last[0] + ", off" + ("" if len(last) == 1 else " " + " ".join(last[1:]))
    UNMODELLED.setdefault(mnemonic, Opaque(mnemonic))  # (as the assembly reader registers it)
    return replace(ins, mnemonic=mnemonic, base=mnemonic, text=mnemonic + " " + ",".join(words).strip())


def step(k: Any, ins: Instr, ops: list[str], mods: dict[str, str]) -> str | None:
    """Run one instruction on Kernel `k` (its machine, memories and pending
    results); NOT_MINE when it is none of this module's."""
    m, B = k.m, k.m.B
    mn = ins.mnemonic
    if mn in NO_EFFECT:
        return None
    if SCRATCH_SETUP.match(ins.text.strip()):
        if mn != "s_mov_b32":  # (SCC: the carry, or whether the result is 0)
            m.scc = B.fresh_bool(f"scc@{ins.line}")
        return None
    f = FLAT.match(mn)
    fa = FLAT_ATOMIC.match(mn)
    d = DS_ACCESS.match(mn)
    da = DS_ATOMIC.match(mn)
    if f is None and fa is None and d is None and da is None:
        return NOT_MINE
    writes = (f is not None and f.group(1) == "load") or (d is not None and d.group(1) in ("read", "load")) or (
        da is not None and da.group(2) is not None) or (fa is not None and len(ops) == 3)
    pending = k.pending_v | k.pending_ds
    for o in ops[1:] if writes else ops:
        if o.startswith("v") and set(_regs(o)) & pending:
            return f"line {ins.line} reads a load result before its wait"
    if f is not None or fa is not None:
        if m.assume("flat.aperture") != "global":  # [S:flat-aperture]
            return f"line {ins.line}: {mn} under flat.aperture=any (the LDS and private apertures are not modelled)"
        why: str | None = k.step(_as_global(ins, "global" + mn[4:]))
        return why
    if k.lds is None:
        return f"line {ins.line}: {mn}: no LDS here"
    if k.ds_m0_limit:  # the address is checked against M0 before GFX9  [S:ds-m0]
        m0 = m.s("m0")
        if not (type(m0) is int and m0 == 0xFFFFFFFF):
            return f"line {ins.line}: {mn} with M0 not -1 (an LDS limit verify does not model)"
    if set(mods) - {"offset", "offset0", "offset1", "gds"} or "gds" in mods:
        return f"line {ins.line}: {mn} with {', '.join(sorted(mods))}"
    try:
        off = int(mods.get("offset", "0"), 0)
        offs = [int(mods.get("offset0", "0"), 0), int(mods.get("offset1", "0"), 0)]
    except ValueError:
        return f"line {ins.line}: {mn} {', '.join(ops)}"
    act = m.actives()
    en = [B.and_b(k.pc, a) for a in act]

    def address(vaddr: str, extra: int) -> list[tuple[Any, Any]]:
        a = m.v(_regs(vaddr)[0])
        return [(B.add(smt.under_all(a[i], act[i]), B.const(extra)) if act[i] is not False else B.const(0),
                 B.const(0)) for i in range(m.W)]

    if da is not None:
        op = _DS_ATOMIC.get(f"{da.group(1)}_{da.group(3)}")
        ret = da.group(2) is not None
        if op is None or len(ops) != (3 if ret else 2):
            return f"line {ins.line}: {mn} {', '.join(ops)}"
        addrs = address(ops[-2], off)
        data = m.v(_regs(ops[-1])[0])
        before = None
        if ret:
            rank = k.atomic_order(k.returning)
            k.returning += 1
            before = lambda j, i: B.ult(rank[j], rank[i])  # noqa: E731
        olds = k.lds.atomic(op, [(addrs[i][0], addrs[i][1], data[i], False, en[i]) for i in range(m.W)], before)
        if ret:
            dst = _regs(ops[0])[0]
            m.write_v(dst, [v for v, _ in olds], act)
            k.pending_ds.add(dst)
        return None
    assert d is not None
    store = d.group(1) in ("write", "store")
    two = d.group(2) is not None
    nd = 2 if d.group(3) == "b64" else 1
    # two addresses: offset0/offset1 in units of the element size
    places = [offs[0] * 4 * nd, offs[1] * 4 * nd] if two else [off]
    if store:
        if two and offs[0] == offs[1]:  # (which of one lane's two writes lands last: no guide verify cites says)
            return f"line {ins.line}: {mn} writes one address twice (offset0 = offset1)"
        if len(ops) != 1 + len(places):
            return f"line {ins.line}: {mn} {', '.join(ops)}"
        datas = [_regs(o) for o in ops[1:]]
        if any(len(r) != nd for r in datas):
            return f"line {ins.line}: {mn} {', '.join(ops)}"
        for n, (place, r) in enumerate((p, r) for p, regs in zip(places, datas) for r in regs):
            j = n % nd
            addrs = address(ops[0], place + 4 * j)
            vals = m.v(r)
            # every dword of the instruction (both places of a write2) in one race group  [S:ir-store-race]
            k.lds.write([(addrs[i][0], addrs[i][1], smt.under(vals[i], act[i]), False, en[i])
                         for i in range(m.W)], more=n > 0)
        return None
    dsts = _regs(ops[0])
    if len(ops) != 2 or len(dsts) != nd * len(places):
        return f"line {ins.line}: {mn} {', '.join(ops)}"
    n = 0
    for place in places:
        for j in range(nd):
            addrs = address(ops[1], place + 4 * j)
            vals = [k.lds.read(*addrs[i])[0] if act[i] is not False else B.const(0) for i in range(m.W)]
            m.write_v(dsts[n], vals, act)
            k.pending_ds.add(dsts[n])
            n += 1
    return None


def retire(k: Any, text: str) -> None:
    """A wait's effect on the LDS results (lgkmcnt(0); GFX12 dscnt 0)."""
    if re.search(r"lgkmcnt\(0\)|s_wait_dscnt 0x0\b|s_wait_loadcnt_dscnt 0x0\b|s_wait_dscnt 0\b", text):
        k.pending_ds.clear()
