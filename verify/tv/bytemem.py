"""8- and 16-bit global memory accesses, for `verify tv` (docs/tv.md, "Memory").

A function (kernel or not) whose IR loads or stores an ``i8``, ``i16``,
``half`` or ``bfloat`` through a global, flat or constant pointer runs on
`ByteMemory`: one unknown byte per address at entry, each store a byte
store per byte it writes (a dword store four, lowest address first: the
GPU is little-endian), a load the bytes composed.  Two lanes of one store
race only where they write the same byte, so LLVM's 16-bit stores to the
two halves of one dword are no race; memory after the code is compared byte
by byte at a free address (`cell`).  Every other function keeps the
dword-granular `Memory` (verify/tv/sem.py).

The IR side: ``load``/``store`` of those types with ``align`` at least the
type's size (an omitted align is the type's ABI alignment, its size); an
access at a poison address, or a 16-bit one at an odd address, is undefined
behaviour (LangRef: an alignment the address does not have is UB).  A
smaller align, ``volatile``/``atomic``, an LDS or private pointer, or a
function with atomics (their per-lane store indices are dword-granular) is
unsupported, named.

The GPU side: the sub-dword global, flat and buffer loads and stores
(verify/ops/mem16.py: their lane semantics and their legality per target),
with the addresses of their dword twins (verify/tv/kernel.py,
verify/tv/buffer.py)  [S:mem16-access] [S:mem16-d16].
"""

from __future__ import annotations

import re
from typing import Any

from .. import smt
from ..ops import mem16
from . import buffer, subword
from .llir import Function
from .sem import Memory
from .types import Lanes, assemble, ttype

NOT_MINE = "not mine"

SIZES = {"i8": 1, "i16": 2, "half": 2, "bfloat": 2}
_POLICY = {"glc", "slc", "dlc", "sc0", "sc1", "nt", "th", "scope"}


def _access_type(ins: Any) -> str | None:
    """The value type of a sub-dword load or store, else None."""
    if ins.opcode == "load":
        return ins.type if ins.type in SIZES else None
    if ins.opcode == "store" and ins.operands:
        ty = ins.operands[0].type
        # an i1 store writes the byte 0 or 1: LangRef leaves the 7 bits above the value unspecified, so the IR
        # admits more than this one byte (stricter than the IR: a false alarm at worst, never a false proof;
        # LLVM's AMDGPU code stores the zero-extended bit)  [S:mem16-access]
        return ty if ty in SIZES or ty == "i1" else None
    return None


def needs_bytes(fn: Function) -> bool:
    """The function's memory is byte-granular: it loads or stores an 8- or
    16-bit value and has no atomics but 8- and 16-bit atomicrmw
    (verify/tv/subword.py)."""
    if any(i.opcode in ("atomicrmw", "cmpxchg") and not subword.is_subword(i) for i in fn.insts):
        return False  # (the dword atomics' per-lane store indices are dword-granular)
    return any(_access_type(i) is not None or subword.is_subword(i) for i in fn.insts)


def byte_address(B: Any, lo: Any, hi: Any, k: int) -> tuple[Any, Any]:
    """The 64-bit address (lo, hi) plus k bytes, the carry in the high half."""
    if k == 0:
        return lo, hi
    c = B.const(k)
    lo2 = B.add(lo, c)
    return lo2, B.add(hi, B.bool_value(B.ult(lo2, c)))


def known(mnemonic: str) -> bool:
    """A sub-dword access instruction `step` models."""
    return mem16.parse(mnemonic) is not None


class ByteMemory(Memory):
    """Memory of bytes: Memory's store list and read, each entry one byte
    (a value below 256); `read` and `write` keep the dword interface the
    dword instructions use, `read_bytes`/`write_bytes` the sub-dword ones."""

    def __init__(self, B: Any, initial: Any, shared: Any = None, ordered: bool = True) -> None:
        super().__init__(B, lambda lo, hi: B.and_(initial(lo, hi), B.const(0xFF)), shared, ordered)
        self._raw = False  # inside Memory.read (its own recursive reads are of bytes)

    def read(self, lo: Any, hi: Any, upto: int | None = None) -> tuple[Any, Any]:
        if self._raw:
            return Memory.read(self, lo, hi, upto)
        return self.read_bytes(lo, hi, 4, upto)

    def read_bytes(self, lo: Any, hi: Any, n: int, upto: int | None = None) -> tuple[Any, Any]:
        """The n bytes at (lo, hi) composed little-endian, poison where any is."""
        B = self.B
        self._raw = True
        try:
            parts = [Memory.read(self, *byte_address(B, lo, hi, k), upto) for k in range(n)]
        finally:
            self._raw = False
        v = parts[0][0]
        for k in range(1, n):
            v = B.or_(v, B.shl(parts[k][0], B.const(8 * k)))
        return v, B.or_b(*(p for _, p in parts))

    def cell(self, lo: Any, hi: Any) -> tuple[Any, Any]:
        """The byte at (lo, hi): what memory_verdict compares at a free address."""
        self._raw = True
        try:
            return Memory.read(self, lo, hi, len(self.stores))  # (after the program: not one of its reads)
        finally:
            self._raw = False

    def sub_dword(self, run: Any, ins: Any) -> Lanes | None:
        """The IR's sub-dword load or store (`ir_access`), for verify/tv/sem.py."""
        return ir_access(run, ins)

    def write(self, lanes: list[tuple[Any, Any, Any, Any, Any]], more: bool = False, lane: int | None = None,
              atomic: bool = False) -> None:
        B = self.B
        self.write_bytes([(lo, hi, [B.and_(B.lshr(v, B.const(8 * k)) if k else v, B.const(0xFF)) for k in range(4)],
                           p, en) for lo, hi, v, p, en in lanes], more, lane, atomic)

    def write_bytes(self, lanes: list[tuple[Any, Any, list[Any], Any, Any]], more: bool = False,
                    lane: int | None = None, atomic: bool = False) -> None:
        """One store instruction of n bytes per lane: (lo, hi, bytes, poison,
        enable) per lane; its bytes one race group (a byte two lanes write)."""
        B = self.B
        for k in range(len(lanes[0][2])):
            Memory.write(self, [(*byte_address(B, lo, hi, k), bs[k], p, en) for lo, hi, bs, p, en in lanes],
                         more=more or k > 0, lane=lane, atomic=atomic)


def ir_access(run: Any, ins: Any) -> Lanes | None:
    """The IR's sub-dword load or store on `run` (an IRRun); None for any
    other instruction."""
    ty = _access_type(ins)
    if ty is None:
        return None
    B, W = run.B, run.wave
    op = ins.opcode
    size = SIZES.get(ty, 1)  # (i1: a store of one byte)
    ptr_op = ins.operands[0 if op == "load" else 1]
    if ptr_op.type in ("ptr addrspace(3)", "ptr addrspace(5)"):
        raise run._unsupported(f"{op} of {ty} through {ptr_op.type} (modelled: 8- and 16-bit accesses of global, "
                               "flat and constant memory)")
    mem = run.memory
    assert isinstance(mem, ByteMemory)
    if re.search(r"\b(volatile|atomic)\b", ins.text):
        raise run._unsupported(f"{op} of {ty}: volatile or atomic")
    a = re.search(r",\s*align\s+(\d+)", ins.text)
    align = int(a.group(1)) if a else size  # (omitted: the type's ABI alignment, its size on AMDGPU)
    if align < size:
        raise run._unsupported(f"{op} of {ty} with align {align} (modelled: align >= {size}, the type's size)")
    ptr = run._pointer(ptr_op)
    act = run.lanes_on()
    for i in range(W):  # UB: a poison address, or one the alignment does not hold  [S:mem16-access]
        if act[i] is not False:
            bad = ptr.poison[i] if size == 1 else B.or_b(ptr.poison[i], B.ne(B.and_(ptr.vals[i], B.const(1)), 0))
            run.ub.append(B.and_b(act[i], bad))
    tt = ttype(ty)
    assert tt is not None
    if op == "load":
        vals, pois = [], []
        for i in range(W):
            if act[i] is False:
                vals.append(B.const(0))
                pois.append(False)
                continue
            v, p = mem.read_bytes(ptr.vals[i], ptr.hi[i], size)
            vals.append(v)
            pois.append(p)
        return assemble(B, tt, [Lanes(vals, pois, 8 * size)])
    val = run.operand(ins.operands[0])
    lanes = []
    for i in range(W):
        v = val.vals[i]
        bs = [B.and_(B.lshr(v, B.const(8 * k)) if k else v, B.const(0xFF)) for k in range(size)]
        lanes.append((ptr.vals[i], ptr.hi[i], bs, val.poison[i], act[i]))
    mem.write_bytes(lanes)
    return Lanes([B.const(0)] * W, [False] * W)


def step(k: Any, ins: Any, ops: list[str], mods: dict[str, str]) -> str | None:
    """Run one sub-dword access on Kernel `k`; NOT_MINE for any other
    instruction  [S:mem16-access] [S:mem16-d16]."""
    acc = mem16.parse(ins.mnemonic)
    if acc is None:
        return NOT_MINE
    m, B = k.m, k.m.B
    mn = ins.mnemonic
    text = f"line {ins.line}: {mn} {', '.join(ops)}"
    if not isinstance(k.mem, ByteMemory):
        return f"{text}: an 8- or 16-bit access where the IR has none (memory is dword-granular there)"
    act = m.actives()
    if acc.space == "buffer":
        got = buffer.resolve(k, ins, ops, mods, acc.size, acc.store)
        if isinstance(got, str):
            return got
        addrs, act, data, _ = got
        if len(data) != 1:
            return text
        reg = data[0]
    else:
        if set(mods) - {"offset"}:
            return f"{text} with {', '.join(sorted(mods))}"
        if acc.space == "flat":
            if m.assume("flat.aperture") != "global":  # [S:flat-aperture]
                return f"line {ins.line}: {mn} under flat.aperture=any (the LDS and private apertures are not modelled)"
            if len(ops) != 2:
                return text
            ops = [*ops, "off"]
        if len(ops) != 3:
            return text
        data_op, addr_op = (ops[1], ops[0]) if acc.store else (ops[0], ops[1])
        try:
            off = int(mods.get("offset", "0"), 0)
        except ValueError:
            return text
        regs = _vregs(addr_op) + _vregs(data_op if acc.store else "")
        if set(regs) & (k.pending_v | k.pending_ds) or (ops[2] != "off" and _sregs(ops[2]) & k.pending_s):
            return f"line {ins.line} reads a load result before its wait"
        got_addrs = k._addresses(addr_op, ops[2], off, act)
        if got_addrs is None or len(_vregs(data_op)) != 1:
            return text
        addrs, reg = got_addrs, _vregs(data_op)[0]
    if acc.store:
        data_v = m.v(reg)
        k.mem.write_bytes([(addrs[i][0], addrs[i][1], mem16.store_bytes(B, smt.under(data_v[i], act[i]), acc), False,
                            B.and_b(k.pc, act[i])) for i in range(m.W)])
        k.vm_write()
        return None
    target = m.target.target if m.target is not None else None
    olds = m.v(reg) if target is not None and mem16.d16_preserves(target) else B.fresh_lanes(
        f"d16.other@{ins.line}", m.W)
    vals = []
    for i in range(m.W):
        if act[i] is False:  # a lane that does not run it reads nothing
            vals.append(B.const(0))
            continue
        loaded, _ = k.mem.read_bytes(addrs[i][0], addrs[i][1], acc.size)
        vals.append(mem16.load_value(B, loaded, olds[i], acc))
    m.write_v(reg, vals, act)
    k.pending_v.add(reg)
    if k.vm_order is not None:
        k.vm_order.append(reg)
    return None


def _vregs(text: str) -> list[int]:
    mm = re.fullmatch(r"v(\d+)", text)
    if mm:
        return [int(mm.group(1))]
    mm = re.fullmatch(r"v\[(\d+):(\d+)\]", text)
    return list(range(int(mm.group(1)), int(mm.group(2)) + 1)) if mm else []


def _sregs(text: str) -> set[int]:
    mm = re.fullmatch(r"s\[(\d+):(\d+)\]", text)
    return set(range(int(mm.group(1)), int(mm.group(2)) + 1)) if mm else set()
