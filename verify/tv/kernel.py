"""Kernels (``amdgpu_kernel``) with global memory, for `verify tv`.

The kernel's arguments are in the kernarg segment, read by ``s_load_*`` from
the kernarg pointer the dispatch puts in a user SGPR pair (which pair follows
from the ``.amdhsa_user_sgpr_*`` directives); an argument's offset is its
natural alignment after the previous one (the HSA ABI layout LLVM's metadata
lists).  ``llvm.amdgcn.workitem.id.x`` is v0 at entry: on targets with packed
work-item IDs (the `packed_tid` feature) v0 = x | y << 10 | z << 20, where
the fields of the IDs the kernel descriptor does not enable
(``.amdhsa_system_vgpr_workitem_id``) and bits 30-31 are zero under the
assumption ``kernel.packed_tid`` (LLVM then uses all of v0 as x), and a field
whose work-group size is 1 (``reqd_work_group_size``, or a flat size of 1) is
zero by the dispatch; elsewhere v0 = x.  x is at most LLVM's maximum x ID
(the reqd size, or the ``amdgpu-flat-work-group-size`` maximum, less 1) in
every lane  [S:packed-tid].

Global memory is dword-granular: one unknown value per byte address at entry
(an uninterpreted function of the address), then the stores in order.  Loads
and stores of i32/float with align >= 4 are modelled, on the IR side and as
``global_load_b32/dword`` and ``global_store_b32/dword`` (and ``s_load_*`` of
global memory) on the GPU side.  A load result is used only after its wait
(``s_waitcnt vmcnt(0)``/``lgkmcnt(0)``, ``s_wait_loadcnt/kmcnt 0``), else the
function is unsupported.

Refinement: for every entry EXEC a dispatch gives (lanes 0..n-1, n >= 1), and
every work-item ID, unless the IR has undefined behaviour (an access at a
poison or misaligned address), memory at a free address A after the kernel
equals the IR's, unless the IR stored poison there or two lanes' IR stores
race at A (no happens-before orders them: any value, [S:ir-store-race]);
two lanes of the GPU's last store at A, or of a store the code reads A after,
writing A with the IR's value defined is a failure.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import smt
from ..asmcheck import Opaque
from ..assume import ASSUMPTIONS
from ..ir import Instr
from ..machine import Machine
from ..ops.base import op_of
from ..refine import JOINT_RLIMIT  # all lanes at once, with a fixed resource limit
from ..target import FeatureLog, Target
from . import addrmeet, atomic64, atomics, barrier, buffer, bytemem, casloop, cextv, inlineasm, nondet, private, spaces
from .cfg import run_blocks, self_loop
from .legality import operands as _operands
from .llir import TYPES, Function, Module
from .sem import ASCENDING as atomics_ascending
from .sem import Choice, IRRun, Lanes, Memory, Unsupported
from .storeorder import reorder, unit_order
from .types import dword_address, from_registers, kernarg_layout, ttype

# z3 resource units for a question whose answer steers what is asked next
# (one lane's stores, the address where they differ, the fewest active lanes
# of a counterexample): a count of solver steps, the same under any load.
# A 32-lane masked-store refutation's narrowing questions take about 63
# million (2 s) each; 8 million left its counterexample at 4 lanes.
STEP_RLIMIT = 250_000_000
# z3's own solver in `steer`: bit-blasting spends its resource units far
# slower than the tactic (100M units: 42 s on atomics_optimizer's
# add_i32_varying_ret mutant), so it gets a limit of its own
PLAIN_RLIMIT = 10_000_000
FEW_VALUES = 4  # memory_verdict: the parts first where the lanes store at most this many values

USER_SGPRS = (("private_segment_buffer", 4), ("dispatch_ptr", 2), ("queue_ptr", 2), ("kernarg_segment_ptr", 2),
              ("dispatch_id", 2), ("flat_scratch_init", 2), ("private_segment_size", 1))

GLOBAL = re.compile(r"^global_(load|store)_(b32|dword|b64|dwordx2|b96|dwordx3|b128|dwordx4)$")
_DWORDS = {"b32": 1, "dword": 1, "b64": 2, "dwordx2": 2, "b96": 3, "dwordx3": 3, "b128": 4, "dwordx4": 4}
SLOAD = re.compile(r"^s_load_(b32|dword|b64|dwordx2|b96|dwordx3|b128|dwordx4|b256|dwordx8)$")
# global atomics -> the IR's atomicrmw operation (GFX9/10 names; GFX11+ with the type suffix)
ATOMIC = re.compile(r"^global_atomic_(add|sub|and|or|xor|smin|smax|umin|umax|min|max)(_u32|_i32|_b32)?$")
_ATOMIC_OP = {("smin", ""): "min", ("smax", ""): "max", ("min", "_i32"): "min", ("max", "_i32"): "max",
              ("min", "_u32"): "umin", ("max", "_u32"): "umax"}
WAIT_VM = re.compile(r"^(s_waitcnt|s_waitcnt_vmcnt|s_wait_loadcnt|s_wait_storecnt|s_wait_loadcnt_dscnt)$")


def kernarg_sgpr(asm: str, fname: str) -> int | None:
    """The first SGPR of the kernarg segment pointer, from the kernel's
    .amdhsa_user_sgpr_* directives (None: not enabled or not found)."""
    m = re.search(r"\.amdhsa_kernel\s+" + re.escape(fname) + r"\b(.*?)\.end_amdhsa_kernel", asm, re.S)
    if m is None:
        return None
    body = m.group(1)
    n = 0
    for name, size in USER_SGPRS:
        d = re.search(r"\.amdhsa_user_sgpr_" + name + r"\s+(\d+)", body)
        on = d is not None and d.group(1) == "1"
        if name == "kernarg_segment_ptr":
            return n if on else None
        n += size if on else 0
    return None


def _atomic_form(ins: Instr, ops: list[str], mods: dict[str, str]) -> str | None:
    """A global atomic's operands and modifiers as verify models them (a
    result register exactly with a return flag), else why not."""
    if set(mods) - {"offset", "glc", "sc0", "sc1", "nt", "th", "scope", "slc", "dlc"} or len(ops) not in (3, 4):
        return f"line {ins.line}: {ins.mnemonic} {', '.join(ops)} {' '.join(sorted(mods))}"
    if (len(ops) == 4) != ("glc" in mods or "sc0" in mods or mods.get("th") == "TH_ATOMIC_RETURN"):
        return f"line {ins.line}: {ins.mnemonic}: a result register without a return flag, or the reverse"
    return None


@dataclass(frozen=True)
class WorkItems:
    """A kernel's work-item IDs as LLVM's code generation reads its attributes
    (SIMachineFunctionInfo, AMDGPUSubtarget::getMaxWorkitemID): the largest
    ID per dimension (the !reqd_work_group_size, else the
    "amdgpu-flat-work-group-size" maximum, less 1; default 1024), and whether
    the y and z IDs are inputs: not "amdgpu-no-workitem-id-y/z" and a largest
    ID above 0; z implies y  [S:packed-tid]."""

    max_id: tuple[int, int, int]
    has_y: bool
    has_z: bool

    @property
    def enabled(self) -> int:
        """The .amdhsa_system_vgpr_workitem_id LLVM gives it: 0 (x), 1 (x, y), 2 (x, y, z)."""
        return 2 if self.has_z else 1 if self.has_y else 0


def workitems(fn: Function) -> WorkItems:
    flat = 1024  # getDefaultFlatWorkGroupSize: (1, the subtarget's maximum, 1024)
    m = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*", fn.attrs.get("amdgpu-flat-work-group-size", ""))
    if m is not None and 1 <= int(m.group(1)) <= int(m.group(2)) <= 1024:  # (else LLVM takes the default)
        flat = int(m.group(2))
    reqd = fn.reqd_work_group_size
    mx = tuple(max(0, (reqd[d] if reqd is not None else flat) - 1) for d in range(3))
    has_z = "amdgpu-no-workitem-id-z" not in fn.attrs and mx[2] != 0
    has_y = has_z or ("amdgpu-no-workitem-id-y" not in fn.attrs and mx[1] != 0)
    return WorkItems((mx[0], mx[1], mx[2]), has_y, has_z)


def descriptor_workitems(asm: str, fname: str) -> int | None:
    """The kernel descriptor's .amdhsa_system_vgpr_workitem_id (None: not found)."""
    m = re.search(r"\.amdhsa_kernel\s+" + re.escape(fname) + r"\b(.*?)\.end_amdhsa_kernel", asm, re.S)
    d = None if m is None else re.search(r"\.amdhsa_system_vgpr_workitem_id\s+(\d+)", m.group(1))
    return None if d is None else int(d.group(1))


def entry_v0_mask(target: Target, wi: WorkItems, enabled: int, variant: Callable[[], str]) -> int:
    """The bits of v0 at a kernel's entry that are not known zero (x, bits
    0-9, always): on a packed-TID target the y and z fields of enabled IDs
    (unless the dispatch makes them 0), and, when the descriptor leaves an ID
    out, what `kernel.packed_tid` says of the rest (`variant()` consults it)
    [S:packed-tid]."""
    if not target.has("packed_tid"):
        return 0x3FF
    mask = 0x3FF
    rest = "zero" if enabled == 2 else variant()
    for d, field_ in ((1, 0x3FF << 10), (2, 0x3FF << 20)):
        if wi.max_id[d] != 0 and (enabled >= d or rest == "any"):
            mask |= field_
    if enabled == 2 or rest == "any":
        mask |= 0xC0000000
    return mask


def _regs(text: str) -> list[int]:
    m = re.fullmatch(r"([sv])(\d+)", text)
    if m:
        return [int(m.group(2))]
    m = re.fullmatch(r"([sv])\[(\d+):(\d+)\]", text)
    if m:
        return list(range(int(m.group(2)), int(m.group(3)) + 1))
    raise ValueError(text)


class Kernel:
    """The GPU side of a kernel: memory, the kernarg segment, waits."""

    def __init__(self, m: Machine, mem: Memory, kernarg: tuple[Any, Any], args: dict[int, Any],
                 atomic_order: Callable[[int], list[Any]]) -> None:
        self.atomic_order = atomic_order  # n -> the ranks of the n-th returning atomic (shared with the IR)
        self.returning = 0
        self.m = m
        self.mem = mem
        self.kernarg = kernarg
        self.args = args  # kernarg dword offset -> value
        self.pending_v: set[int] = set()
        self.vm_order: list[int] | None = []  # the destinations of outstanding loads, oldest first
        self.pending_s: set[int] = set()
        self.pc: Any = True  # control flow: the path condition of the running block (verify/tv/cfg.py)
        self.loop_once = mem.loop_once  # the loops run once: going round again (verify/tv/casloop.py)
        # LDS (verify/tv/spaces.py): its memory, the results waiting for lgkmcnt/dscnt
        self.lds: Memory | None = None
        self.ds_m0_limit = True  # every DS instruction asks that M0 is -1 unless the target ignores M0  [S:ds-m0]
        self.pending_ds: set[int] = set()
        # verify/tv/buffer.py: the global pointer arguments' high halves, the input constraints it adds
        self.pointer_his: list[Any] = []
        self.contract: list[Any] = []

    def vm_write(self) -> None:
        """A vector-memory write just issued (a store, an atomic returning
        nothing): before GFX10 one counter, vmcnt, counts every vector memory
        access and they complete in issue order, so a later `vmcnt(N)` counts
        it among the N (SIInsertWaitcnts: VMEM_ACCESS where the target has no
        vscnt); from GFX10 on vscnt/storecnt counts it, vmcnt does not.  Kept
        as a placeholder in `vm_order` (no register: it returns none)
        [S:global-atomic]."""
        t = self.m.target
        if self.vm_order is not None and t is not None and not (t.has("waitcnt_split") or t.has("wait_gfx12")):
            self.vm_order.append(-1)

    # the state verify/tv/cfg.py carries along paths: the loads not yet waited for
    # and their order (for vmcnt(N)); None once paths with different
    # outstanding loads merged: then only vmcnt(0) retires a load
    def save(self) -> Any:
        return (set(self.pending_v), set(self.pending_s), None if self.vm_order is None else list(self.vm_order),
                set(getattr(self, "pending_ds", ())))

    def load(self, s: Any) -> None:
        self.pending_v, self.pending_s = set(s[0]), set(s[1])
        self.vm_order = None if s[2] is None else list(s[2])
        self.pending_ds = set(s[3]) if len(s) > 3 else set()  # (a state saved without the LDS's)

    def merge(self, c: Any, a: Any, b: Any) -> Any:
        order = a[2] if a[2] == b[2] else None
        ds = (a[3] if len(a) > 3 else set()) | (b[3] if len(b) > 3 else set())
        return a[0] | b[0], a[1] | b[1], order, ds  # waited for on one path only: still pending

    def set_pc(self, pc: Any) -> None:
        self.pc = pc

    def _kernarg_or_memory(self, lo: Any, hi: Any, off: int) -> Any:
        B = self.m.B
        klo, khi = self.kernarg
        # (symbolic runs only: a concrete replay reads the kernarg memory)
        if B.symbolic and B.same(lo, klo) and B.same(hi, khi) and off in self.args:
            return self.args[off]
        alo = B.add(lo, B.const(off))  # a 64-bit address: the offset carries into the high half
        return self.mem.read(alo, B.add(hi, B.bool_value(B.ult(alo, B.const(off)))))[0]

    def step(self, ins: Instr) -> str | None:
        """Run one instruction; a reason when it cannot be modelled."""
        m, B = self.m, self.m.B
        mn = ins.mnemonic
        op = op_of(ins.base)
        if mn == "s_clause":
            return None  # a hint grouping the memory instructions that follow: no effect on values
        if barrier.GPU.match(mn):
            return None  # one wave: no effect on registers or memory  [S:one-wave-barrier]
        if not isinstance(op, Opaque):
            if self.pending_v or self.pending_s or self.pending_ds:
                used = set(op.uses(ins))
                if any(f"v{r}" in used for r in self.pending_v | self.pending_ds) or any(
                        f"s{r}" in used for r in self.pending_s):
                    return f"line {ins.line} reads a load result before its wait"
            m.run([ins])
            if mn.startswith(("s_waitcnt", "s_wait_loadcnt", "s_wait_kmcnt")):  # (the waits that retire loads)
                text = ins.text
                if re.search(r"vmcnt\(0\)|s_wait_loadcnt 0x0|s_wait_loadcnt_dscnt 0x0", text):
                    self.pending_v.clear()
                    self.vm_order = []
                else:  # vmcnt(N): the loads return in order, all but the last N are back  [S:global-atomic]
                    n = re.search(r"vmcnt\((\d+)\)|s_wait_loadcnt (0x[0-9a-fA-F]+|\d+)\b", text)
                    if n is not None and self.vm_order is not None:
                        keep = int(n.group(1) or n.group(2), 0)
                        done = self.vm_order[:max(0, len(self.vm_order) - keep)]
                        self.vm_order = self.vm_order[len(done):]
                        self.pending_v -= set(done) - set(self.vm_order)
                if re.search(r"lgkmcnt\(0\)|s_wait_kmcnt 0x0", text):
                    self.pending_s.clear()
            spaces.retire(self, ins.text)
            return None
        if mn == "s_clause":  # a scheduling hint, no effect on results (RDNA3 ISA, S_CLAUSE)
            return None
        ops, mods = _operands(ins)
        try:  # an offset verify cannot read (e.g. a leading zero, octal to llvm-mc) is unsupported, not guessed
            off = int(mods.get("offset", "0"), 0)
            if SLOAD.match(mn) and len(ops) == 3:
                off = int(ops[2], 0)
                # SI/CI's SMRD counts its immediate offset in dwords, GFX8+'s SMEM in bytes  [S:sici]
                if m.target is None or m.target.has("smrd_dword_offset"):
                    if m.target is None:
                        return f"line {ins.line}: {mn} on a target verify was not told"
                    off *= 4
        except ValueError:
            return f"line {ins.line}: {mn} {', '.join(ops)}"
        if SLOAD.match(mn):
            dst, base = _regs(ops[0]), _regs(ops[1])
            if len(base) != 2 or len(ops) != 3:
                return f"line {ins.line}: {mn} {', '.join(ops)}"
            lo, hi = m.s(f"s{base[0]}"), m.s(f"s{base[1]}")
            for k, r in enumerate(dst):
                m.set_s(f"s{r}", self._kernarg_or_memory(lo, hi, off + 4 * k))
                self.pending_s.add(r)
            return None
        if casloop.is_cmpswap(mn):  # [S:cas-loop]
            return casloop.gpu_cmpswap(self, ins, ops, mods, _regs, self._addresses, buffer.resolve, atomics.one_lane)
        am = ATOMIC.match(mn)
        if am is not None:
            return self.atomic(ins, am, ops, mods)
        if mn.startswith("global_") and atomic64.gpu_op(mn) is not None:
            return self.atomic_64(ins, ops, mods)
        if mn.startswith("s_wait"):
            spaces.retire(self, ins.text)
        other = bytemem.step(self, ins, ops, mods)  # 8- and 16-bit accesses (verify/tv/bytemem.py)
        if other != bytemem.NOT_MINE:
            return other
        other = buffer.step(self, ins, ops, mods)  # MUBUF through a resource descriptor (verify/tv/buffer.py)
        if other != buffer.NOT_MINE:
            return other
        other = spaces.step(self, ins, ops, mods)  # flat, LDS, cache invalidates
        if other != spaces.NOT_MINE:
            return other
        g = GLOBAL.match(mn)
        if g is None:
            return f"an instruction verify does not model: line {ins.line}: {ins.text.split(';')[0].strip()}"
        if set(mods) - {"offset"}:
            return f"line {ins.line}: {mn} with {', '.join(sorted(mods))}"
        addr_op, saddr = (ops[1], ops[2]) if g.group(1) == "load" else (ops[0], ops[2])
        # a lane's address matters only where the lane runs: every select on
        # its EXEC bit in the address is taken there (smt.under_all), so the
        # GPU's loads read the IR's very memory terms
        act = m.actives()
        if saddr == "off":
            a = _regs(addr_op)
            if len(a) != 2:
                return f"line {ins.line}: {mn} address {addr_op}"
            lo_l, hi_l = m.v(a[0]), m.v(a[1])
            addrs = [(smt.under_all(lo_l[i], act[i]), smt.under_all(hi_l[i], act[i])) for i in range(m.W)]
        else:
            s = _regs(saddr)
            v = _regs(addr_op)
            if len(s) != 2 or len(v) != 1:
                return f"line {ins.line}: {mn} address {addr_op}, {saddr}"
            slo, shi = m.s(f"s{s[0]}"), m.s(f"s{s[1]}")
            vo = m.v(v[0])
            addrs = []
            for i in range(m.W):
                if act[i] is False:  # a lane known not to run it: no access (its address is never asked)
                    addrs.append((B.const(0), B.const(0)))
                    continue
                o = smt.under_all(vo[i], act[i])  # a 32-bit unsigned offset added to the 64-bit base
                lo = B.add(slo, o)
                addrs.append((lo, B.add(shi, B.bool_value(B.ult(lo, o)))))
        nd = _DWORDS[g.group(2)]  # dword k at the address plus 4k  [S:global-mem]

        def at(i: int, k: int) -> tuple[Any, Any]:
            # lane i's dword k: base + offset + 4k; a non-negative offset of
            # whole dwords as one sum, the IR's own form of a wide access's
            # dwords (dword_address)  [S:tv-store-order]
            lo, hi = addrs[i]
            if off >= 0 and off % 4 == 0 and off + 4 * nd < 1 << 32:  # (dword_address's 32-bit constant)
                return dword_address(B, lo, hi, off // 4 + k)
            return dword_address(B, *offset_address(B, lo, hi, off), k)
        if g.group(1) == "load":
            ds = _regs(ops[0])
            if len(ds) != nd:
                return f"line {ins.line}: {mn} {', '.join(ops)}"
            for k, d in enumerate(ds):
                # an inactive lane reads nothing (its register keeps its value)
                vals = [self.mem.read(*at(i, k))[0] if act[i] is not False else B.const(0) for i in range(m.W)]
                m.write_v(d, vals, act)
                self.pending_v.add(d)
                if self.vm_order is not None:
                    self.vm_order.append(d)
            return None
        rs = _regs(ops[1])
        if len(rs) != nd:
            return f"line {ins.line}: {mn} {', '.join(ops)}"
        for k, r in enumerate(rs):
            data = m.v(r)
            # every dword of one store instruction in one race group (lane 1's dword 0 at lane 0's dword 1
            # races, in whichever order the hardware writes them)  [S:ir-store-race]
            self.mem.write([(*at(i, k), smt.under(data[i], act[i]), False, B.and_b(self.pc, act[i]))
                            for i in range(m.W)], more=k > 0)
        self.vm_write()
        return None


    def atomic(self, ins: Instr, a: re.Match[str], ops: list[str], mods: dict[str, str]) -> str | None:
        """`global_atomic_OP [vdst,] vaddr, vdata, saddr|off`: the returning
        form (vdst; glc, sc0 or th:TH_ATOMIC_RETURN) gives each lane the value
        before its update.  The hardware serialises the lanes' updates in an
        order verify does not know: each lane's returned value is read under
        any order (a fresh rank per lane; ties admit even more than real
        orders, which can only cost a false alarm), memory afterwards does
        not depend on it.  [S:global-atomic]"""
        m, B = self.m, self.m.B
        kind, suffix = a.group(1), a.group(2) or ""
        op = _ATOMIC_OP.get((kind, suffix), kind)
        if kind in ("min", "max") and not suffix:
            return f"line {ins.line}: {ins.mnemonic}"
        ret = len(ops) == 4
        if (bad := _atomic_form(ins, ops, mods)) is not None:
            return bad
        addr_op, data_op, saddr = ops[-3:]
        off = int(mods.get("offset", "0"), 0)
        act = m.actives()
        addrs = self._addresses(addr_op, saddr, off, act)
        if addrs is None:
            return f"line {ins.line}: {ins.mnemonic} address {addr_op}, {saddr}"
        data = [smt.under_conjuncts(d, a) for d, a in zip(m.v(_regs(data_op)[0]), act)]  # (read where it runs)
        before = None
        ens = [B.and_b(self.pc, act[i]) for i in range(m.W)]
        one = atomics.one_lane(B, addrs, data, ens)  # the atomic optimizer's one lane, proved
        if one is not None:
            first = next(i for i, e in enumerate(ens) if e is not False)
            self.mem.one_lane.add(len(self.mem.stores))
            olds = self.mem.atomic(op, [(addrs[first][0], addrs[first][1], data[first], False, one)]
                                   + [(B.const(0), B.const(0), B.const(0), False, False)] * (m.W - 1), atomics_ascending)
            if ret:
                self.returning += 1  # (its ranks unused: one lane, no order)
                d = _regs(ops[0])[0]
                m.write_v(d, [olds[0][0]] * m.W, act)
                self.pending_v.add(d)
                if self.vm_order is not None:
                    self.vm_order.append(d)
            else:
                self.vm_write()
            return None
        if ret:
            rank = self.atomic_order(self.returning)
            self.returning += 1
            before = lambda j, i: B.ult(rank[j], rank[i])  # noqa: E731
        olds = self.mem.atomic(op, [(addrs[i][0], addrs[i][1], data[i], False, B.and_b(self.pc, act[i]))
                                    for i in range(m.W)], before)
        if ret:
            d = _regs(ops[0])[0]
            m.write_v(d, [v for v, _ in olds], act)
            self.pending_v.add(d)
            if self.vm_order is not None:
                self.vm_order.append(d)
        else:
            self.vm_write()
        return None

    def atomic_64(self, ins: Instr, ops: list[str], mods: dict[str, str]) -> str | None:
        """`global_atomic_OP_x2/_u64 [vdst,] vaddr, vdata, saddr|off`: the
        64-bit atomics (verify/tv/atomic64.py)  [S:atomic64] [S:global-atomic]"""
        m = self.m
        op = atomic64.gpu_op(ins.mnemonic)
        assert op is not None
        ret = len(ops) == 4
        if (bad := _atomic_form(ins, ops, mods)) is not None:
            return bad
        addr_op, data_op, saddr = ops[-3:]
        act = m.actives()
        addrs = self._addresses(addr_op, saddr, int(mods.get("offset", "0"), 0), act)
        dr = _regs(data_op)
        dst = _regs(ops[0]) if ret else None
        if addrs is None or len(dr) != 2 or (dst is not None and len(dst) != 2):
            return f"line {ins.line}: {ins.mnemonic} {', '.join(ops)}"
        lo, hi = m.v(dr[0]), m.v(dr[1])
        data = [(smt.under_conjuncts(lo[i], act[i]), smt.under_conjuncts(hi[i], act[i])) for i in range(m.W)]
        return atomic64.gpu_atomic(self, ins, op, ret, addrs, data, act, dst, atomics_ascending, atomics.one_lane)

    def _addresses(self, addr_op: str, saddr: str, off: int, act: list[Any]) -> list[tuple[Any, Any]] | None:
        """Each lane's 64-bit address of a global access: a 64-bit VGPR
        address (saddr off), or saddr plus a 32-bit VGPR offset; (0, 0) in a
        lane known not to run it (`act`: its address is never asked)."""
        m, B = self.m, self.m.B
        if saddr == "off":
            a = _regs(addr_op)
            if len(a) != 2:
                return None
            lo_l, hi_l = m.v(a[0]), m.v(a[1])
            return [offset_address(B, smt.under_conjuncts(lo_l[i], act[i]), smt.under_conjuncts(hi_l[i], act[i]), off)
                    if act[i] is not False else (B.const(0), B.const(0)) for i in range(m.W)]
        s = _regs(saddr)
        v = _regs(addr_op)
        if len(s) != 2 or len(v) != 1:
            return None
        slo, shi = m.s(f"s{s[0]}"), m.s(f"s{s[1]}")
        vo = m.v(v[0])
        addrs = []
        for i in range(m.W):
            if act[i] is False:
                addrs.append((B.const(0), B.const(0)))
                continue
            o = smt.under_conjuncts(vo[i], act[i])  # a 32-bit unsigned offset added to the 64-bit base
            lo = B.add(slo, o)
            addrs.append(offset_address(B, lo, B.add(shi, B.bool_value(B.ult(lo, o))), off))
        return addrs


def offset_address(B: Any, lo: Any, hi: Any, off: int) -> tuple[Any, Any]:
    """The 64-bit address (lo, hi) plus an instruction's signed immediate
    offset, in 64 bits (the carry or borrow reaches the high half): the
    global/flat address is VGPR64 (or SGPR64 + zext(VGPR32)) +
    sext(offset)  [S:global-mem]."""
    if off == 0:
        return lo, hi
    c = off & 0xFFFFFFFF
    lo2 = B.add(lo, B.const(c))
    hi2 = B.add(hi, B.bool_value(B.ult(lo2, B.const(c))))
    return lo2, (B.add(hi2, B.const(0xFFFFFFFF)) if off < 0 else hi2)


def _value_key(t: Any) -> Any:
    return ("c", t) if type(t) in (int, bool) else t.get_id()


def few_values(pairs: list[tuple[Any, Any]], most: int = FEW_VALUES) -> bool:
    """Do the lanes store at most `most` distinct (IR value, GPU value, IR
    poison) terms (a readlane's, a reduction's: one value many lanes store)?
    (The terms are held by `pairs`, so their ids are theirs.)"""
    return len({(_value_key(i[2]), _value_key(g[2]), _value_key(i[3])) for i, g in pairs}) <= most


def _peel(B: Any, ival: Any, gval: Any) -> tuple[Any, Any]:
    """(c, g) with gval == ival exactly where c does not hold, and gval == g
    where it does: the selects at the top of `gval` one of whose branches
    is the very term `ival` peeled off (the GPU's lane loop entered with no
    lane left, ite(R == 0, its one run, the fold the IR's is), so that the
    solver is not asked to see that the IR's fold equals itself)."""
    where: list[Any] = []
    while (parts := smt.ite_parts(gval)) is not None:
        c, a, b = parts
        if B.same(b, ival):
            where.append(c)
            gval = a
        elif B.same(a, ival):
            where.append(B.not_b(c))
            gval = b
        else:
            break
    return B.and_b(*where), gval


def _split_by_values(q: smt.Query, B: Any, no_ub: Any, pairs: list[tuple[Any, Any]],
                     value_rlimit: int = STEP_RLIMIT, skeletons: bool = False) -> bool:
    """Are the store sequences equal, asked in parts: per lane, the enables
    and addresses; then once per distinct (IR value, GPU value, IR poison)
    terms, the values in any lane that stores them (each on `value_rlimit`).
    A uniform value (a readlane, a reduction) is one question instead of one
    per lane, each of which reasons through the same cross-lane select.  A
    value is first asked as a Boolean skeleton (`smt.skeleton_unsat`, the
    selects both values reach left whole): the GPU's value that wraps the
    IR's fold in selects of its own (a lane loop's) is settled there without
    the solver.  The parts cover the lane-by-lane question (a lane differs
    in its enable or address, or stores another value), so "unsat" for all
    of them is that question's "unsat"; anything else (each on a fixed
    resource limit) returns False and the lane-by-lane questions are asked
    as before.  `skeletons`: False at once unless every value is settled by
    its skeleton (then the enables and addresses), so that a kernel whose
    values need the solver asks nothing here."""
    key = _value_key
    groups: dict[tuple[Any, Any, Any], tuple[Any, Any, Any, list[Any]]] = {}
    for (_, _, ival, ipois, ien), (_, _, gval, _, _) in pairs:
        groups.setdefault((key(ival), key(gval), key(ipois)), (ival, gval, ipois, []))[3].append(ien)
    differs = []
    for ival, gval, ipois, ens in groups.values():
        where, gval = _peel(B, ival, gval)
        differs.append(B.and_b(B.or_b(*ens), B.not_b(ipois), where, B.ne(ival, gval)))
    settled = [False] * len(differs)
    for n, differ in enumerate(differs):
        settled[n] = smt.skeleton_unsat(differ, JOINT_RLIMIT, shared=True)
        if skeletons and not settled[n]:
            return False
    for (ilo, ihi, _, _, ien), (glo, ghi, _, _, gen) in pairs:
        where = B.or_b(B.and_b(ien, B.not_b(gen)), B.and_b(gen, B.not_b(ien)),
                       B.and_b(ien, B.or_b(B.ne(ilo, glo), B.ne(ihi, ghi))))
        if _check(q, B.and_b(no_ub, where), JOINT_RLIMIT) != "unsat":
            return False
    distinct = len(groups) == len(pairs)  # nothing shared: the lane-by-lane questions as they are
    for differ, done in zip(differs, settled):
        if not done and (distinct or _check(q, B.and_b(no_ub, differ), value_rlimit) != "unsat"):
            return False
    return True


def _joined_overlap(B: Any, ir_mem: Any, gpu_mem: Any) -> bool:
    """The GPU writes two dwords in one instruction (one race group) where
    the IR has two store instructions, and the lanes' addresses are not all
    one term per dword, so that one lane's dword may land on another
    lane's other dword.  There the GPU's lanes race (any order) where the
    IR orders its stores, and equal store sequences need not leave equal
    memory: the question at a free address decides  [S:ir-store-race].
    Not where the two IR stores are of one epoch of unordered IR memory:
    there the IR's lanes race as the GPU's do (a GPU race at an address no
    later store writes is two lanes' last writes there in the IR too)."""
    def uniform(grp: list[Any]) -> bool:
        on = [(lo, hi) for lo, hi, en in grp if en is not False]
        return all(B.same(lo, on[0][0]) and B.same(hi, on[0][1]) for lo, hi in on)

    def ordered(g: int) -> bool:  # the IR orders its stores g - 1 and g across lanes
        return bool(ir_mem.ordered or ir_mem.meta[g][0] != ir_mem.meta[g - 1][0] or ir_mem.meta[g][2]
                    or ir_mem.meta[g - 1][2])

    return any(join and not ir_join and ordered(g) and not (uniform(gpu_mem.groups[g]) and uniform(gpu_mem.groups[g - 1]))
               for g, (join, ir_join) in enumerate(zip(gpu_mem.joins, ir_mem.joins)))


def _stores_differ(B: Any, no_ub: Any, pairs: list[tuple[Any, Any]]) -> list[Any]:
    """Per store pair (IR, GPU): defined, and they differ in enable or
    address, or in value where the IR's is not poison."""
    out: list[Any] = []
    for (ilo, ihi, ival, ipois, ien), (glo, ghi, gval, _, gen) in pairs:
        differ = B.or_b(B.and_b(ien, B.not_b(gen)), B.and_b(gen, B.not_b(ien)),
                        B.and_b(ien, B.or_b(B.ne(ilo, glo), B.ne(ihi, ghi),
                                            B.and_b(B.not_b(ipois), B.ne(ival, gval)))))
        out.append(B.and_b(no_ub, differ))
    return out


def _check(q: smt.Query, cond: Any, rlimit: int | None = None) -> str:
    if cond is False:
        return "unsat"
    q.push()
    q.add(cond)
    r = q.check(rlimit=rlimit)  # with a resource limit, no clock (smt.Query.check)
    q.pop()
    return r


def arg_offsets(fn: Function) -> list[int] | None:
    """Each argument's kernarg offset (natural alignment, in order)."""
    out, off = [], 0
    for a in fn.args:
        lay = kernarg_layout(a.type)
        if lay is None:
            return None
        size, align, _ = lay
        off = (off + align - 1) // align * align
        out.append(off)
        off += size
    return out


@dataclass(frozen=True)
class MetaArg:
    """One entry of a kernel's `.args` in the printed `.amdgpu_metadata`."""

    name: str
    offset: int
    size: int
    value_kind: str
    line: int  # 1-based line of the entry in the assembly


_META_KEY = re.compile(r"^( *)(- )?(\.?[A-Za-z_][\w.]*):[ \t]*(.*?)\s*$")


def metadata_args(asm: str, fname: str) -> list[MetaArg] | None:
    """Kernel `fname`'s `.args` (hidden ones included) from the YAML of the
    assembly's `.amdgpu_metadata` block, as LLVM prints it (None: no block or
    no entry for `fname`)."""
    lines = asm.split("\n")
    try:
        start = next(k for k, ln in enumerate(lines) if ln.strip() == ".amdgpu_metadata")
    except StopIteration:
        return None
    kernels: list[tuple[str | None, list[dict[str, tuple[str, int]]]]] = []
    entry_dash: int | None = None  # the indent of "- " that starts a kernel entry
    in_kernels = in_args = False
    for k in range(start + 1, len(lines)):
        text = lines[k]
        if text.strip() == ".end_amdgpu_metadata":
            break
        m = _META_KEY.match(text)
        if m is None:
            continue
        indent, dash, key, value = len(m.group(1)), m.group(2) is not None, m.group(3), m.group(4).strip("'\"")
        col = indent + (2 if dash else 0)
        if col == 0:
            in_kernels = key == "amdhsa.kernels"
            continue
        if not in_kernels:
            continue
        if entry_dash is None and dash:
            entry_dash = indent
        if dash and indent == entry_dash:
            kernels.append((None, []))
        if entry_dash is None or not kernels:
            continue
        if col == entry_dash + 2:  # a key of the kernel entry
            in_args = key == ".args"
            if key == ".name":
                kernels[-1] = (value, kernels[-1][1])
            continue
        if in_args and col > entry_dash + 2:
            if dash:
                kernels[-1][1].append({})
            if kernels[-1][1]:
                kernels[-1][1][-1][key] = (value, k + 1)
    for name, args in kernels:
        if name == fname:
            out = []
            for a in args:
                try:
                    out.append(MetaArg(a.get(".name", ("", 0))[0], int(a[".offset"][0], 0), int(a[".size"][0], 0),
                                       a[".value_kind"][0], a[".offset"][1]))
                except (KeyError, ValueError):
                    continue  # an entry without offset, size or kind: not an argument verify reads
            return out
    return None


def metadata_problems(fn: Function, offs: list[int], meta: list[MetaArg], label: str) -> list[str]:
    """Where the metadata's explicit arguments disagree with the ABI rule
    (natural alignment, in order) `offs` came from: one error line each."""
    explicit = [a for a in meta if not a.value_kind.startswith("hidden_")]
    if len(explicit) != len(fn.args):
        return [f"{label}: error: the .amdgpu_metadata of {fn.name} lists {len(explicit)} kernel arguments, "
                f"the IR has {len(fn.args)}"]
    out = []
    for a, off, ir in zip(explicit, offs, fn.args):
        lay = kernarg_layout(ir.type)
        assert lay is not None
        size, _, kind = lay
        if (a.offset, a.size, a.value_kind) != (off, size, kind):
            out.append(f"{label}:{a.line}: error: kernel argument {ir.name}: the .amdgpu_metadata says offset "
                       f"{a.offset}, size {a.size}, {a.value_kind}; the ABI rule gives offset {off}, size {size}, "
                       f"{kind}")
    return out


def used_atomics(fn: Function) -> bool:
    """Some atomicrmw's result is used."""
    keys = {i.key for i in fn.insts if i.opcode == "atomicrmw"}
    return any(o.kind == "ref" and o.key in keys for i in fn.insts for o in i.operands)


def prove_kernel(mod: Module, fn: Function, code_of: Any, target: Target, wave: int, timeout: float,
                 result: Any, assume: dict[str, str] | None = None) -> Any:
    """Fill `result` (a TVResult) for kernel `fn` against its compiled code:
    `code_of()` compiles, giving (assembly, GpuCode) or why it could not.
    With an atomicrmw whose result is used, the IR's order is first the
    GPU's returning atomic's own, then lane-ascending (docs/tv.md, Atomics):
    each is an order the IR admits, so either proof is one."""
    got = code_of()

    def once() -> Any:
        return got

    if isinstance(got, str) or got[1].blocks is None or not (used_atomics(fn) or any(
            self_loop(got[1].blocks, k) for k in range(len(got[1].blocks)))):
        return _prove_orders(mod, fn, once, target, wave, timeout, result, assume, None, [True, False])[0]
    # A loop over the lanes (the Iterative atomic optimizer, wave.reduce), or
    # branches around a returning atomic (the DPP atomic optimizer): one
    # proof per entry EXEC the dispatch contract admits (lanes 0..n-1,
    # n = 1..W: every one, so together they are the proof), each with EXEC
    # concrete, so the loop's iterations and the IR's folds are too.  One
    # symbolic EXEC leaves the solver a 32/64-step reduction it does not
    # finish (docs/tv.md, "Loops").
    t0 = time.monotonic()
    if (assume or {}).get("kernel.entry_exec", ASSUMPTIONS["kernel.entry_exec"].default) != "prefix":
        result.verdict = "unknown"
        result.assumptions["kernel.entry_exec"] = assume["kernel.entry_exec"] if assume else "any"
        result.notes = ["not checked under kernel.entry_exec=any: this kernel loops over the lanes or branches "
                        "around an atomic, and verify proves such kernels once per prefix EXEC only"]
        return result
    orders: list[Any] = [False, True] if used_atomics(fn) else [False]  # the loops scan lane-ascending
    res = result
    # one solver session for every EXEC's proof: the terms the lanes below
    # n share with earlier proofs (loads, scans) are built once
    terms: dict[str, Any] = {}
    used: dict[str, str] = {}
    for n in range(1, wave + 1):
        res, shared = _prove_orders(mod, fn, once, target, wave, timeout, copy.deepcopy(result), assume, n, orders,
                                    terms)
        used.update(res.assumptions)
        res.assumptions = dict(used)
        if res.verdict != "proved":
            if res.verdict != "unsupported":  # (an unsupported construct is so under every EXEC)
                res.notes.insert(0, f"with EXEC = lanes 0..{n - 1} (one proof per dispatch EXEC: the GPU code loops "
                                    "over the lanes or branches around an atomic)")
            break
        orders = [shared] + [o for o in orders if o != shared]  # the order that proved: first next time
    res.seconds = time.monotonic() - t0
    return res


def _prove_orders(mod: Module, fn: Function, code_of: Any, target: Target, wave: int, timeout: float,
                  result: Any, assume: dict[str, str] | None, lanes: int | None,
                  orders: list[Any], terms: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """The kernel's proof with the IR's atomic order True (the GPU's),
    False (lane-ascending) or "down" (lane-descending), in the order
    `orders` lists them, until one proves; a refutation then checked for
    every order (atomics.FreeOrder)."""
    if not used_atomics(fn):
        orders = [False]
    res = result
    clean = copy.deepcopy(result) if used_atomics(fn) else result
    tried: list[str] = []
    for k, shared in enumerate(orders):
        last = k == len(orders) - 1
        res = _prove_kernel(mod, fn, code_of, target, wave, timeout, result if last else copy.deepcopy(result),
                            assume, shared=shared is True, lanes=lanes, terms=terms, descending=shared == "down")
        if res.verdict in ("proved", "unsupported"):
            return res, shared
        if not last:
            tried.append(f"{'the GPU' if shared is True else 'lane-descending' if shared == 'down' else 'lane-ascending'}"
                         f" order: {res.verdict}")
    if res.verdict == "refuted" and used_atomics(fn):
        # the IR's order is the IR's to choose: the counterexample checked
        # for every order (atomics.FreeOrder), pinned as the last one tried
        res = _prove_kernel(mod, fn, code_of, target, wave, timeout, copy.deepcopy(clean), assume,
                            shared=orders[-1] is True, lanes=lanes, terms=terms, free=True)
        if res.notes and res.notes[0].startswith(atomics.OTHER_ORDER) and "down" not in orders:
            # an order the counterexample suggests: lane-descending (a scan from the top lane)
            down = _prove_kernel(mod, fn, code_of, target, wave, timeout, clean, assume, shared=False, lanes=lanes,
                                 terms=terms, descending=True)
            if down.verdict == "proved":
                down.notes.append("(with the IR's atomics lane-descending)")
                return down, "down"
    if res.verdict != "proved" and tried:
        res.notes.append(f"(with the IR's atomics in {'; '.join(tried)})")
    if res.verdict == "refuted" and any(t.endswith(": unknown") for t in tried):
        # the IR may order its atomics either way: a difference under one order
        # while the other is undecided refutes nothing
        res.verdict = "unknown"
        res.notes.insert(0, "not refuted: the IR's atomics may run in another order, under which the solver "
                            "gave up; the difference below is under the GPU's order only")
    return res, orders[-1]


def _inputs(B: Any, fn: Function, offs: list[int], W: int, target: Target) -> tuple[Any, ...]:
    """A kernel's inputs: the kernarg values by dword offset, the IR's
    arguments, the entry v0 and workitem.id.x per lane, the kernarg pointer."""
    kargs: dict[int, Any] = {}
    ir_args: dict[str, Lanes] = {}
    subs: dict[int, list[tuple[int, int, Any]]] = {}  # dword offset -> (shift, mask, value) of its sub-dword arguments
    for a, off in zip(fn.args, offs):
        tt = ttype(a.type)
        lay = kernarg_layout(a.type)
        if lay is not None and lay[0] < 4 and tt is not None:  # bytes of a shared dword
            mask = (1 << 8 * lay[0]) - 1
            v = B.and_(B.fresh(a.name), B.const(mask))
            subs.setdefault(off // 4 * 4, []).append((8 * (off % 4), mask, v))
            ir_args[a.key] = (Lanes([v] * W, [False] * W, *TYPES[a.type]) if a.type in TYPES
                              else from_registers(B, tt, [[v] * W]))
        elif a.type not in ("i32", "float", "ptr addrspace(1)") and tt is not None:
            # dword k of the argument at offset + 4k, cut as registers hold it
            dws = [B.fresh(f"{a.name}.{k}") for k in range(tt.registers)]
            for k, d in enumerate(dws):
                kargs[off + 4 * k] = d
            ir_args[a.key] = from_registers(B, tt, [[d] * W for d in dws])
        elif a.type.startswith("ptr"):
            plo, phi = B.fresh(f"{a.name}.lo"), B.fresh(f"{a.name}.hi")
            kargs[off], kargs[off + 4] = plo, phi
            ir_args[a.key] = Lanes([plo] * W, [False] * W, 64, False, [phi] * W)
        else:
            v = B.fresh(a.name)
            kargs[off] = v
            w, fl = TYPES[a.type]
            ir_args[a.key] = Lanes([v] * W, [False] * W, w, fl)
    for d, parts in subs.items():  # the dword: its arguments' bytes, unknown padding between them
        covered = 0
        word = B.const(0)
        for shift, mask, v in parts:
            covered |= mask << shift
            word = B.or_(word, B.shl(v, B.const(shift)) if shift else v)
        kargs[d] = B.or_(word, B.and_(B.fresh(f"kernarg.pad{d}"), B.const(~covered & 0xFFFFFFFF)))
    raw = B.fresh_lanes("v0", W)  # x in bits 0-9 (< 1024, the largest work-group); the rest: entry_v0_mask
    tid = [B.and_(v, B.const(0x3FF)) for v in raw]
    kptr = (B.fresh("kernarg.lo"), B.fresh("kernarg.hi"))
    return kargs, ir_args, raw, tid, kptr


def _prove_kernel(mod: Module, fn: Function, code_of: Any, target: Target, wave: int, timeout: float,
                  result: Any, assume: dict[str, str] | None, shared: bool, lanes: int | None = None,
                  terms: dict[str, Any] | None = None, free: bool = False, descending: bool = False) -> Any:
    """One proof; `lanes`: EXEC is lanes 0..lanes-1 (else any the dispatch gives);
    `free`: the IR's order unknowns of their own pinned to `shared`'s
    (atomics.FreeOrder), a counterexample checked for every order.
    `terms`: the backend and initial-memory cache of earlier proofs of this
    kernel, to share (filled on first use)."""
    t0 = time.monotonic()
    res = result
    offs = arg_offsets(fn)
    if offs is None:
        bad = next((a for a in fn.args if kernarg_layout(a.type) is None), fn.args[0] if fn.args else None)
        res.notes = [f"{fn.span}: unsupported: kernel argument {bad.name if bad else ''} of type "
                     f"{bad.type if bad else '?'} (modelled: whole dwords, 8- and 16-bit scalars)"]
        return res
    terms = {} if terms is None else terms
    if "B" not in terms:
        terms["B"] = smt.Z3(aci=True, canon_eq=False, lane_arrays=True)  # min/max nests canonical: the atomic optimizer's scan meets the IR's chain
        terms["mem"] = {}
    B = terms["B"]
    W = wave
    exec_bits: list[Any] = B.fresh_lanes("exec", W, cond=True) if lanes is None else [i < lanes for i in range(W)]
    lo = B.from_bits(exec_bits[:32])
    hi = B.from_bits(exec_bits[32:]) if W == 64 else B.const(0)
    # the dispatch contract: a prefix of the lanes, or any non-empty mask  [S:kernel-entry-exec]
    entry = (assume or {}).get("kernel.entry_exec", ASSUMPTIONS["kernel.entry_exec"].default)
    res.assumptions["kernel.entry_exec"] = entry
    if entry == "any":
        contract = [B.or_b(*exec_bits)]
    else:
        contract = [B.or_b(B.not_b(exec_bits[i + 1]), exec_bits[i]) for i in range(W - 1)] + [exec_bits[0]]
    contract = [c for c in contract if c is not True]
    # the inputs: made once per kernel (the same objects in every EXEC's
    # proof, so that the IR's lane-wise results can be shared: IRRun.memo)
    if "inputs" not in terms:
        terms["inputs"] = _inputs(B, fn, offs, W, target)
    kargs, ir_args, raw_v0, tid, kptr = terms["inputs"]
    wi = workitems(fn)
    if wi.max_id[0] < 0x3FF:  # the dispatch: no x ID above the work-group's size  [S:packed-tid]
        contract += [B.ule(t, B.const(wi.max_id[0])) for t in tid]

    mem_cache: dict[tuple[Any, Any], tuple[Any, Any, Any]] = terms["mem"]

    def term_key(t: Any) -> Any:
        return ("i", t) if type(t) is int else t.get_id()

    def initial_mem(alo: Any, ahi: Any) -> Any:
        # the address in normal form: the IR's `in + 4 * zext(id)` and the
        # GPU's shift-and-carry read the same unknown, not two the solver
        # must first prove equal.  Cached per address term (the terms are
        # kept, so their ids stay theirs): a uniform address is read by
        # every lane
        key = (term_key(alo), term_key(ahi))
        hit = mem_cache.get(key)
        if hit is None:
            hit = mem_cache[key] = (alo, ahi, B.uf("mem", *meet.meet(alo, ahi)))  # [S:tv-address-meet]
        return hit[2]

    meet = terms.setdefault("meet", addrmeet.AddressMeet(B))
    ir_mem = (bytemem.ByteMemory if bytemem.needs_bytes(fn) else Memory)(B, initial_mem, (terms.setdefault("eqs", {}), term_key), ordered=False)
    lds_cache: dict[Any, Any] = terms.setdefault("lds", {})

    def initial_lds(alo: Any, ahi: Any) -> Any:  # the LDS at entry: another unknown function (verify/tv/spaces.py)
        key = term_key(alo)
        if key not in lds_cache:
            lds_cache[key] = (alo, B.uf("lds", B.canonical(alo), B.canonical(ahi)))
        return lds_cache[key][1]

    ir_lds = spaces.LdsMemory(B, initial_lds, (terms.setdefault("eqs", {}), term_key), ordered=False)
    assume = assume or {}
    orders: dict[int, list[Any]] = {}

    def atomic_order(n: int) -> list[Any]:
        """The n-th returning atomic's serialisation, a rank per lane: the
        GPU's (any order: ties admit more than real orders, which can only
        cost a false alarm) and the IR's (the same: whatever order the
        hardware takes, the IR may take it too)."""
        if n not in orders:
            orders[n] = B.fresh_lanes(f"atomic_order#{n}", W)
        return orders[n]

    ir_order: Any = atomic_order if shared else atomics.descending(B, W) if descending else None
    if free:
        ir_order = atomics.FreeOrder(B, W, ir_order)
    run = IRRun(B, W, target, lo, hi, exec_bits, assume=assume, memory=ir_mem,
                fresh=nondet.Choices(B, W, make=lambda n: B.fresh_lanes(n, W)),  # (kept: nondet.settle_stores)
                workitem_x=tid, atomic_order=ir_order, memo=terms.setdefault("ir", {}),
                lds=ir_lds)
    run.asm = []  # (inline asm: matched to the GPU code's blocks, verify/tv/inlineasm.py)
    try:
        run.run(fn, ir_args)
    except Unsupported as e:
        res.notes = [e.line()]
        return res
    got = code_of()
    if isinstance(got, str):
        res.verdict = "unknown"
        res.notes = [got]
        return res
    asm, code = got
    label, prog = code.label, code.program
    if not code.problems and (sp := private.scratch_problem(fn, code)) is not None:
        code.problems.append(sp)  # (verify/tv/private.py)
    if code.problems:
        res.notes = [f"{label}: unsupported: {p}" for p in code.problems]
        return res
    why = inlineasm.bind(code, run)
    if why is not None:
        res.notes = [f"{label}: unsupported: {why}"]
        return res
    # the argument offsets: the metadata's, checked against the ABI rule
    meta = metadata_args(asm, fn.name)
    if meta is None:
        res.notes.append(f"{label}: no .amdgpu_metadata entry for {fn.name}: kernel argument offsets by the ABI rule")
    else:
        errors = metadata_problems(fn, offs, meta, label)
        if errors:
            res.notes = errors
            return res
    res.warnings, hazard_used = code.hazard_warnings(target, assume, wave)
    res.assumptions.update(hazard_used)
    ks = kernarg_sgpr(asm, fn.name)
    if ks is None:
        res.notes = [f"{label}: unsupported: no kernarg segment pointer in the kernel descriptor"]
        return res
    enabled = descriptor_workitems(asm, fn.name)
    if enabled is None:  # no descriptor: the IDs LLVM enables for these attributes
        enabled = wi.enabled

    def packed_variant() -> str:
        v = (assume or {}).get("kernel.packed_tid", ASSUMPTIONS["kernel.packed_tid"].default)
        res.assumptions["kernel.packed_tid"] = v
        return v

    v0_mask = entry_v0_mask(target, wi, enabled, packed_variant)
    v0 = [B.and_(v, B.const(v0_mask)) for v in raw_v0]
    fresh_v: dict[str, list[Any]] = {}

    def initial(kind: str, name: str, lane: int | None) -> Any:
        if kind == "scc":
            return B.fresh_bool("scc")
        if kind == "v":
            assert lane is not None
            if name == "v0":
                return v0[lane]
            if name not in fresh_v:
                fresh_v[name] = B.fresh_lanes("gpu." + name, W)
            return fresh_v[name][lane]
        if name == f"s{ks}":
            return kptr[0]
        if name == f"s{ks + 1}":
            return kptr[1]
        return B.fresh("gpu." + name)

    m = Machine(B, W, initial, FeatureLog(target), assume, waits=True)
    m.set_s("exec_lo", lo)
    m.set_s("exec_hi", hi)
    m.scc = initial("scc", "scc", None)
    gpu_mem = type(ir_mem)(B, initial_mem, (terms.setdefault("eqs", {}), term_key))  # (bytes where the IR's are)
    k = Kernel(m, gpu_mem, kptr, kargs, atomic_order)
    k.lds, k.ds_m0_limit = spaces.LdsMemory(B, initial_lds, (terms.setdefault("eqs", {}), term_key)), target.has("ds_m0_limit")
    k.pointer_his = [ir_args[a.key].hi[0] for a in fn.args if a.type == "ptr addrspace(1)"]
    m.context = [[]]  # one instruction at a time: the hazard windows see those before  [S:hazards]
    m.hazard_entry = "kernel"  # the code starts at the kernel's entry (the GFX12 SGPR hazards track nothing there)
    replay = cextv.KernelReplay(m, prog, code.blocks, ir_mem, gpu_mem, initial, target, W, assume)  # (a refutation's explanation)
    replay.kernel = k  # (its store instructions run again on a replay's registers)
    if code.blocks is not None:
        why = run_blocks(m, code.blocks, replay.wrap(k.step), k, timeout, kernel=True)
        if why is not None:
            res.notes = [f"{label}: unsupported: {why}"]
            return res
    for ins in prog if code.blocks is None else []:
        replay.before(ins)
        why = k.step(ins)
        if why is not None:
            res.notes = [f"{label}: unsupported: {why}"]
            return res
        m.ran(ins)
        replay.after(ins)
    for used_by in (run.machine, run.whole_machine, m):  # the verdict's scope
        if used_by is not None:
            res.assumptions.update(used_by.assumptions_used)
    q = smt.Query(timeout, session=B.session)
    for c in contract + k.contract:  # (k.contract: buffer.base48  [S:mubuf-rsrc])
        q.add(c)
    if free:  # the IR's order pinned; the GPU's a real one (no ties)
        for c in ir_order.pins + [c for n in sorted(orders) for c in atomics.distinct_ranks(B, orders[n])]:
            q.add(c)
    no_ub = B.not_b(B.or_b(*run.ub))
    res.instructions = len(prog)
    if run.asm and inlineasm.decide(res, q, B, no_ub, run, m, label):  # the asm blocks' inputs first
        res.seconds = time.monotonic() - t0
        return res
    return memory_verdict(res, t0, q, B, no_ub, ir_mem, gpu_mem, lanes, exec_bits, tid, run, (ir_lds, k.lds), replay)


def memory_verdict(res: Any, t0: float, q: smt.Query, B: Any, no_ub: Any, ir_mem: Memory, gpu_mem: Memory,
                   lanes: int | None, exec_bits: list[Any], tid: list[Any], run: IRRun,
                   lds: tuple[Memory, Memory] | None = None, replay: Any = None, witness: bool = True) -> Any:
    """The verdict on memory after the code (`q` holds the entry contract):
    the IR's and the GPU's stores compared, then memory at a free address.
    Kernels and functions that take pointers (verify/tv/memory.py) alike;
    `lds`: the IR's and the GPU's LDS, compared after global memory
    proved (each a memory of its own: proved only if both are).
    `witness`: the IR's choices may be set from the GPU's stores
    (nondet.settle_stores); False where this is one of two questions (one
    choice must serve both)."""
    if lds is not None and (lds[0].stores or lds[1].stores):
        q.push()
        # (each memory proved on its own: no witness for the IR's choices, which
        # must be one choice for both  [S:tv-nondet-stores])
        first = memory_verdict(copy.deepcopy(res), t0, q, B, no_ub, ir_mem, gpu_mem, lanes, exec_bits, tid, run,
                               replay=replay, witness=False)
        q.pop()
        if first.verdict != "proved":
            return first
        res.assumptions.update(first.assumptions)  # (ir.store_race, where global memory's proof asked it)
        out = memory_verdict(res, t0, q, B, no_ub, lds[0], lds[1], lanes, exec_bits, tid, run, witness=False,
                             replay=replay.view(lds[0], lds[1]) if replay is not None else None)
        if out.verdict == "refuted":
            out.notes = [n.replace("memory at", "LDS at", 1) for n in out.notes]
        return out
    W = len(exec_bits)
    if gpu_mem.loop_once:  # a loop run once may go round again: unsupported  [S:cas-loop]
        out = casloop.once_verdict(res, t0, q, B, no_ub, gpu_mem.loop_once)
        if out is not None:
            return out
    if gpu_mem.faults:  # the GPU's code faults where the IR is defined: a refutation  [S:atomic64]
        out = atomic64.fault_verdict(res, t0, q, B, no_ub, gpu_mem, exec_bits)
        if out is not None:
            return out
    # First the stronger, easier question: the same stores, lane by lane, in
    # the same order (same enables and addresses; equal values where the IR's
    # is not poison).  Equal store sequences leave equal memory.
    hint: tuple[Any, Any] | None = None
    pairs: list[Any] | None = None
    # (not where the GPU's code reads memory after a store two lanes may race
    # in: the load gets one racing lane's value, which lane unstated, where
    # the GPU's memory holds the last lane's: the store pairs alone prove
    # nothing then; the question at a free address asks it)  [S:ir-store-race]
    if len(ir_mem.groups) == len(gpu_mem.groups) and not _joined_overlap(B, ir_mem, gpu_mem) \
            and not gpu_mem.may_read_race():
        # an atomic on both sides with the same operation: the same inputs
        # per lane (enable, address, value) leave the same memory, an easier
        # question than the values it stores
        pairs = list(zip(ir_mem.stores, gpu_mem.stores))
        for n0, (iop, ins_) in ir_mem.atomics.items():
            got = gpu_mem.atomics.get(n0)
            if got is not None and n0 in gpu_mem.one_lane:
                # the atomic optimizer's one lane: the instructions' effects
                # compared whole (atomics.group_pairs)
                pairs[n0:n0 + len(ins_)] = atomics.group_pairs(B, ir_mem, gpu_mem, n0, len(ins_))
                continue
            if got is not None and got[0] == iop:
                for kk, (ia, ga) in enumerate(zip(ins_, got[1])):
                    pairs[n0 + kk] = (ia, ga)
        if lanes is not None and any(type(i[4]) is bool and type(g[4]) is bool and i[4] != g[4] for i, g in pairs):
            # with EXEC concrete, a store one side makes and the other does not
            # (the atomic optimizer's one lane for the IR's many) settles the
            # question below as sat, which refutes nothing there: straight to
            # memory at a free address
            pairs = None
    if pairs is not None:
        per_lane = _stores_differ(B, no_ub, pairs)
        # all lanes at once (bounded), then lane by lane for the first that
        # differs; with EXEC symbolic and few values stored (a readlane's, a
        # reduction's), the parts first, each value on the joint question's
        # limit: the all-lanes question reasons through every lane's
        # cross-lane select and often spends its limit where the parts are
        # settled at once (kernel_readlane_inreg: 5 of 9 joint questions
        # unknown after 0.9 s each).  Either "unsat" proves the stores equal;
        # a part not unsat leaves the questions below as they were.
        joint = "unsat" if (lanes is None and few_values(pairs) and _split_by_values(
            q, B, no_ub, pairs, 4 * JOINT_RLIMIT)) or (lanes is not None and _split_by_values(
                q, B, no_ub, pairs, skeletons=True)) else _check(q, B.or_b(*per_lane), 4 * JOINT_RLIMIT)
        if joint != "unsat" and not (lanes is not None and joint == "sat") and _split_by_values(q, B, no_ub, pairs):
            joint = "unsat"
        if joint != "unsat":
            # a wide IR store whose dwords the GPU writes in another order
            # (two store instructions, the higher one first)  [S:tv-store-order]
            perm = unit_order(q, ir_mem, gpu_mem, JOINT_RLIMIT, no_ub)  # (a model of the contract: quick)
            if perm is not None and _check(q, B.or_b(*_stores_differ(
                    B, no_ub, list(zip(ir_mem.stores, reorder(gpu_mem, perm))))), 4 * JOINT_RLIMIT) == "unsat":
                joint = "unsat"
        if joint != "unsat" and witness and run.choices and isinstance(run.fresh, nondet.Choices) \
                and not ir_mem.atomics:
            # the IR's non-deterministic values chosen from the GPU's stores  [S:tv-nondet-stores]
            settled = nondet.settle_stores(q, B, run.choices, run.fresh, B.or_b(*per_lane), [
                (j, i[2], g[2]) for grp, n in _lane_of(ir_mem) for j, (i, g) in zip(grp, pairs[n:n + len(grp)])])
            if settled is not None:
                joint = "unsat"
                res.notes.append(settled.note)
        if joint == "unsat":
            res.seconds = time.monotonic() - t0
            res.verdict = "proved"
            return res
        # with EXEC concrete, the stores differing (sat) is no refutation
        # (the atomic optimizer's one lane adds what the IR's lanes add), and
        # the question at a free address is quick: no lane-by-lane hint
        for n, c in enumerate(per_lane):
            if lanes is not None and joint == "sat":
                break  # (not the for's else: nothing is proved here)
            r0 = _check(q, c, STEP_RLIMIT)  # steers what is asked next: a fixed limit
            if r0 == "sat" and hint is None:
                hint = ir_mem.stores[n][:2]  # a lane whose stores differ: look at its address first
                # the same address, different values, and no other lane of
                # either side stores there: memory differs at that address
                ilo, ihi, ival, ipois, ien = ir_mem.stores[n]
                glo, ghi, gval, _, gen = gpu_mem.stores[n]
                alone = [B.not_b(B.and_b(e, B.eq(a, ilo), B.eq(b, ihi)))
                         for k2, (a, b, _, _, e) in enumerate(ir_mem.stores + gpu_mem.stores)
                         if k2 not in (n, n + len(ir_mem.stores))]
                q.push()
                q.add(B.and_b(no_ub, ien, gen, B.eq(ilo, glo), B.eq(ihi, ghi), B.not_b(ipois), B.ne(ival, gval),
                              *alone))
                if q.check(rlimit=STEP_RLIMIT) == "sat":
                    res.seconds = time.monotonic() - t0
                    out = _refuted(copy.deepcopy(res), q, B, W, exec_bits, tid, run, (ilo, ihi, ival, gval), None,
                                   replay)
                    q.pop()  # (after: these constraints say what differs; the caller's push/pop stays balanced)
                    if not order_unknown(out):
                        return out
                    # another order of the IR's atomics matches this lane's store:
                    # the question at a free address below, where the search over
                    # the orders (atomics.another_order) may find another address
                    hint = None
                    break
                q.pop()
            if r0 != "unsat":
                break
        else:
            res.seconds = time.monotonic() - t0
            res.verdict = "proved"
            return res
    # memory at a free address
    alo, ahi = B.fresh("A.lo"), B.fresh("A.hi")
    iv, ip = ir_mem.cell(alo, ahi)  # (a dword, or a byte: verify/tv/bytemem.py)
    gv, _ = gpu_mem.cell(alo, ahi)
    # two lanes' racing IR stores at A: the same value stays, under the default
    # reading of LangRef's racing writes (ir.store_race); two lanes of one GPU
    # store at A leave their common value whichever lands last  [S:ir-store-race]
    same = True
    if ir_mem.may_race():
        res.assumptions["ir.store_race"] = run._m().assume("ir.store_race")  # (the scope was taken before)
        same = res.assumptions["ir.store_race"] == "same_value"
    # read_race: a GPU race the code read after (a later store may hide it)
    # fails even where the IR's memory is free there: the value read may be
    # anywhere now; where the IR is free at A it is no refutation (the IR's
    # own load there, if any, reads undef by LangRef), and unknown if nothing
    # else fails  [S:ir-store-race].  (Both terms from one walk of the stores.)
    gpu_race, read_race = gpu_mem.gpu_races_at(alo, ahi)
    # the IR's races by LangRef (`exact`: stores of two lanes no
    # happens-before orders) are asked only where the fewer races of its
    # last store instruction at A (`cheap`, a part of them) leave a
    # counterexample: the exact question reasons through every lane's writes
    # of every store (kernel_atomic_add_optimizer: unknown after 90 s, where
    # the last store's races prove it in 2 s)  [S:ir-store-race]
    exact = ir_mem.race_at(alo, ahi, same_value=same)
    cheap = exact if ir_mem.ordered or len(ir_mem.groups) < 2 else \
        ir_mem.race_at(alo, ahi, same_value=same, ordered=True)

    def bad(race: Any) -> Any:
        free = B.or_b(ip, race)
        return B.and_b(no_ub, B.or_b(B.and_b(B.not_b(free), B.or_b(B.ne(iv, gv), gpu_race)), read_race))

    q.add(bad(cheap))

    def spurious() -> bool:
        """The model's counterexample rests on the fewer races (the IR races
        at A by LangRef there): from now on the exact question."""
        nonlocal cheap
        if cheap is exact or q.truth(bad(exact)):
            return False
        q.add(bad(exact))
        cheap = exact
        return True

    def excused() -> bool:
        """The model's failure may be only a GPU race read after, where the
        IR's memory is free (by LangRef: the exact races)."""
        return read_race is not False and q.truth(read_race) and q.truth(B.or_b(ip, exact))

    r = "unknown"
    if hint is not None:  # memory at the address where the stores differ
        q.push()
        q.add(B.and_b(B.eq(alo, hint[0]), B.eq(ahi, hint[1])))
        r = steer(q)
        if r == "sat" and ((cheap is not exact and not q.truth(bad(exact))) or excused()):
            r = "unknown"  # (the IR races there: asked again below, exactly)
        if r == "sat":
            res.seconds = time.monotonic() - t0
            if cheap is not exact:  # (true in the model: the counterexample's search keeps to it)
                q.add(bad(exact))
            out = _refuted(copy.deepcopy(res), q, B, W, exec_bits, tid, run, (alo, ahi, iv, gv),
                           gpu_race, replay)
            q.pop()
            if not order_unknown(out):
                return out
            r = "unknown"  # (another order matches there: the address let go, asked again)
        else:
            q.pop()
    if r != "sat":
        r = steer(q, last=None)  # (the last on what is left of the budget)
    read_only = False  # a GPU race read where the IR is free was the only failure found
    while r == "sat":
        if spurious():
            r = steer(q, last=None)
        elif excused():
            q.add(B.not_b(B.and_b(read_race, B.or_b(ip, exact))))
            read_only = True
            r = steer(q, last=None)
        else:
            break
    if r == "sat" and cheap is not exact:  # (true in the model: the counterexample's search keeps to it)
        q.add(bad(exact))
    res.seconds = time.monotonic() - t0
    if r == "unsat" and read_only:
        res.verdict = "unknown"
        res.notes = ["not proved: the GPU's code reads an address where two lanes of one of its stores wrote "
                     "different values (which lane's value the load gets, the guides verify cites do not say), "
                     "and the IR's memory there is free"]
        return res
    if r == "unsat":
        res.verdict = "proved"
        return res
    if r == "unknown":
        res.verdict = "unknown"
        res.notes = [f"the solver gave up ({q.reason})"]
        return res
    return _refuted(res, q, B, W, exec_bits, tid, run, (alo, ahi, iv, gv), gpu_race, replay)


def _lane_of(mem: Memory) -> list[tuple[range, int]]:
    """Each store instruction's lanes and the index of its first store."""
    out, n = [], 0
    for g in mem.groups:
        out.append((range(len(g)), n))
        n += len(g)
    return out


def order_unknown(res: Any) -> bool:
    """The verdict is unknown because another order of the IR's atomics
    matches the counterexample (atomics.another_order)."""
    return res.verdict == "unknown" and bool(res.notes) and res.notes[0].startswith("not refuted: ")


def steer(q: smt.Query, last: int | None = STEP_RLIMIT) -> str:
    """A question that steers what is asked next, on fixed limits: the
    tactic on a small limit, then bit-blasted, then the tactic on `last`
    (None: what is left of the budget).  The tactic's contextual
    simplification can spend the whole step limit where every lane stores
    one value at one address (sici_crosslane swizzle_quad's mutant on gfx701:
    unknown after 11 s; sat bit-blasted in 0.5 s)."""
    r = q.check(rlimit=JOINT_RLIMIT)
    if r == "unknown":
        r = q.check(rlimit=PLAIN_RLIMIT, plain=True)
        if r == "sat":  # (its values small where they can be: read at a glance, no all-ones coincidences)
            q.prefer_small(PLAIN_RLIMIT)
    if r == "unknown":
        r = q.check(rlimit=last)
    return r


def fewest_lanes(q: smt.Query, B: Any, exec_bits: list[Any], again: bool = True) -> bool:
    """After a sat check: leave on `q` a model with 1, 2 or 4 active lanes
    where there is one, else the model of asking again, else the first
    model (False: there was none).  Each narrowing question has a
    resource limit, so the lanes shown do not depend on the machine's load."""
    first = q.model  # the model of the sat check
    for k in (1, 2, 4):
        q.push()
        q.add(B.at_most(exec_bits, k))
        if steer(q) == "sat":
            q.pop()
            return True
        q.pop()
    if again and steer(q, last=None) == "sat":  # (the tactic on what is left of the budget last)
        return True
    if first is not None:  # (asking again gave up: the budget of --timeout is spent)
        q.model = first
        return True
    return False


def choice_used(q: smt.Query, choices: list[Choice]) -> Choice | None:
    """The first non-deterministic IR value (undef, freeze of poison...) the
    model on `q` relies on: a refutation through it may be spurious."""
    return next((c for c in choices if any(q.truth(u) for u in c.used)), None)


def _refuted(res: Any, q: smt.Query, B: Any, W: int, exec_bits: list[Any], tid: list[Any], run: IRRun,
             at: tuple[Any, Any, Any, Any], race: Any, replay: Any = None) -> Any:
    """A kernel's counterexample (q has a model), fewest lanes first."""
    alo, ahi, iv, gv = at
    if not fewest_lanes(q, B, exec_bits):  # (the solver gave up the second time)
        res.verdict = "unknown"
        res.notes = [f"the solver gave up ({q.reason})"]
        return res
    # every order of the IR's atomics checked first: the search may move the
    # model to one that every order fails (atomics.another_order)
    other = atomics.another_order(q, run, exec_bits, lambda: fewest_lanes(q, B, exec_bits, again=False))
    mask = sum(1 << i for i in range(W) if q.truth(exec_bits[i]))
    addr = q.value(alo) | q.value(ahi) << 32
    res.notes.append(f"counterexample: EXEC = {mask:#x}; memory at {addr:#x} after the kernel: IR "
                     f"{q.value(iv):#x}, GPU {q.value(gv):#x}"
                     + ("; two lanes of one GPU store write it" if race is not None and q.truth(race) else ""))
    # every active lane's work-item ID, folded (a function: no work-item IDs)  (verify/tv/cextv.py)
    kc = cextv.KernelCex(mask, addr, q.value(iv), q.value(gv),
                         {ln: q.value(tid[ln]) for ln in range(W) if mask >> ln & 1} if tid else {},
                         race is not None and q.truth(race))
    if replay is not None:  # the lanes' stores and their causes (verify/tv/cextv.py)
        cextv.explain_kernel(kc, q, replay, (alo, ahi))
    res.notes += kc.lane_lines()
    res.cex = kc
    used = choice_used(q, run.choices)
    if used is not None:
        res.verdict = "unknown"
        res.notes.append(f"the counterexample depends on a non-deterministic IR value ({used.what} at "
                         f"{used.span}): the refutation may be spurious")
    else:
        res.verdict = "refuted"
        if other is not None:
            res.verdict = "unknown"
            res.notes.insert(0, other)
    return res
