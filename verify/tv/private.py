"""The IR's private memory, for `verify tv` (docs/tv.md, "Private memory").

`alloca ..., addrspace(5)` and the loads, stores and getelementptrs through
its `ptr addrspace(5)` pointers: each lane's private memory is its own (the
AMDGPU private address space is per work-item: AMDGPUUsage, "Address
Spaces"), so it is modelled as one memory of 32-bit addresses (LLVM's
AMDGPU data layout: `p5:32:32`) per lane, the lane's number its high half  [S:private-per-lane].

The IR's allocas are placed by verify, one after another from PRIVATE_BASE,
each at its alignment: a private address is not observable unless it
escapes (a pointer stored or converted to an integer, which verify does not
model: unsupported), so any placement is the IR's.  A load of a byte no
store wrote reads one unknown value per load and lane, an IR choice
(verify/tv/sem.py's Choice: a proof holds for every choice, a refutation
that rests on one is settled with the IR's choices existential, as for
undef; one value where LangRef's undef may differ at each use is stricter,
never looser).  An access through an address outside every alloca is
undefined behaviour in the IR (LangRef, "getelementptr": an out-of-bounds
access); it is modelled as an access to the private memory all the same
(stricter, never looser).  Accesses: whole dwords (i32, float), align >= 4.

The GPU's code for such a function holds the array in registers where
LLVM's AMDGPUPromoteAlloca promotes it (a constant-size array indexed by a
`v_cndmask` chain or `v_movrel`), or in scratch: its spills and reloads are
verify/tv/check.py's (`scratch_store/load_b32` at the same address
operands), other scratch accesses are unsupported.
"""

from __future__ import annotations

import re
from typing import Any

from .gep import alloc_size
from .types import Lanes

PRIVATE = "ptr addrspace(5)"
PRIVATE_BASE = 0x1000  # where verify places the first alloca (any place is the IR's: see above)
M32 = 0xFFFFFFFF
_ALLOCA = re.compile(r"=\s*alloca\s+(.+?)(?:,\s*align\s+(\d+))?,\s*addrspace\(5\)\s*$")
_GEP = re.compile(r"getelementptr\s+(?:inbounds\s+|nuw\s+|nusw\s+)*(.+?),\s*ptr addrspace\(5\) ")
_ARRAY = re.compile(r"^\[\s*(\d+)\s+x\s+(.+)\]$")


def handles(ins: Any) -> bool:
    """`ins` is an alloca in addrspace(5), a load, store or getelementptr
    through a private pointer, a lifetime marker of one, or another
    instruction that reads a private pointer as a value (its address
    escapes: unsupported)."""
    op = ins.opcode
    if op == "alloca" or (op == "call" and str(getattr(ins, "callee", "")).startswith("llvm.lifetime.")):
        return True
    if op in ("ptrtoint", "icmp", "addrspacecast", "call") and any(o.type == PRIVATE for o in ins.operands):
        return True
    if op in ("load", "getelementptr"):
        return bool(ins.operands) and ins.operands[0].type == PRIVATE
    if op == "store":
        return len(ins.operands) > 1 and ins.operands[1].type == PRIVATE
    return False


def private_only(ins: Any) -> bool:
    """An instruction :func:`handles` that touches no other memory (the
    value a store writes is no private pointer)."""
    return handles(ins) and not (ins.opcode == "store" and ins.operands[0].type == PRIVATE)


def _memory(run: Any) -> tuple[Any, Any]:
    """The run's private memory, and beside it one that holds 1 where a
    store wrote (0 elsewhere): where a load reads what no store wrote."""
    mems = getattr(run, "private_memory", None)
    if mems is None:
        from .sem import Memory  # (sem imports this module)
        B = run.B
        mems = (Memory(B, lambda lo, hi: B.const(0)), Memory(B, lambda lo, hi: B.const(0)))
        run.private_memory = mems
    return mems


def step(run: Any, ins: Any) -> Lanes:
    """The IR instruction `ins` (:func:`handles`) run on `run` (an IRRun)."""
    B, W = run.B, run.wave
    op = ins.opcode
    if op == "alloca":
        m = _ALLOCA.search(ins.text)
        size = alloc_size(m.group(1)) if m is not None else None
        if m is None or size is None or "," in m.group(1).replace(" x ", " "):
            raise run._unsupported(f"alloca '{ins.text.split('=', 1)[-1].strip()}' (modelled: a fixed-size array or "
                                   "scalar in addrspace(5))")
        align = max(4, int(m.group(2) or 4))
        at = getattr(run, "private_next", PRIVATE_BASE)
        at = (at + align - 1) // align * align
        run.private_next = at + max(size, 1)
        return Lanes([B.const(at)] * W, [False] * W, 32, False)
    if op == "getelementptr":
        return _gep(run, ins)
    if op == "call" and str(getattr(ins, "callee", "")).startswith("llvm.lifetime."):
        # (no effect: after lifetime.end the IR's memory is undefined, the value kept is one it may hold)
        return Lanes([B.const(0)] * W, [False] * W)
    if op != "load" and op != "store":
        raise run._unsupported(f"{op} of a private pointer (its address escapes; verify places the allocas itself)")
    if op == "store" and ins.operands[0].type == PRIVATE:
        raise run._unsupported("a private pointer stored to memory (its address escapes)")
    a = re.search(r",\s*align\s+(\d+)", ins.text)
    ty = ins.type if op == "load" else ins.operands[0].type
    if ty not in ("i32", "float") or a is None or int(a.group(1)) < 4 or re.search(r"\b(volatile|atomic)\b", ins.text):
        raise run._unsupported(f"{op} of {ty} through {PRIVATE} (modelled: i32 and float, align >= 4)")
    ptr = run.operand(ins.operands[0 if op == "load" else 1])
    act = run.lanes_on()
    mem, written = _memory(run)
    for i in range(W):  # UB: a poison or misaligned address
        if act[i] is not False:
            run.ub.append(B.and_b(act[i], B.or_b(ptr.poison[i], B.ne(B.and_(ptr.vals[i], B.const(3)), 0))))
    if op == "load":
        # what no store wrote: one unknown per load and lane, a choice of the IR's (LangRef: undef; one
        # value, where each use of undef may differ, is stricter and never looser)
        from .sem import Choice  # (sem imports this module)
        fresh = run._new_choice("a load of private memory no store wrote")
        vals, pois, used = [], [], []
        for i in range(W):
            if act[i] is False:  # (a lane that does not run the load has no value)
                vals.append(B.const(0))
                pois.append(False)
                used.append(False)
                continue
            mem.initial = lambda lo, hi, f=fresh[i]: f
            v, p = mem.read(ptr.vals[i], B.const(i))
            w, _ = written.read(ptr.vals[i], B.const(i))
            vals.append(v)
            pois.append(p)
            used.append(B.and_b(act[i], B.eq(w, B.const(0))))
        run.choices.append(Choice(ins.span, "a load of private memory no store wrote", used))
        return Lanes(vals, pois, 32, ty == "float")
    val = run.operand(ins.operands[0])
    mem.write([(ptr.vals[i], B.const(i), val.vals[i], val.poison[i], act[i]) for i in range(W)])
    written.write([(ptr.vals[i], B.const(i), B.const(1), False, act[i]) for i in range(W)])
    return Lanes([B.const(0)] * W, [False] * W)


def _gep(run: Any, ins: Any) -> Lanes:
    """A getelementptr through a private pointer: 32-bit address arithmetic
    (the data layout's index width for addrspace(5) is 32), over an array
    type or a scalar one, constant indices or variable ones scaled by a
    power of two."""
    B = run.B
    m = _GEP.search(ins.text)
    if m is None:
        raise run._unsupported(f"getelementptr '{ins.text}'")
    ty = m.group(1).strip()
    base = run.operand(ins.operands[0])
    lo, pois = list(base.vals), list(base.poison)
    for k, ix in enumerate(ins.operands[1:]):
        if k:
            arr = _ARRAY.fullmatch(ty)
            if arr is None:
                raise run._unsupported(f"getelementptr index into {ty}")
            ty = arr.group(2).strip()
        scale = alloc_size(ty)
        if scale is None:
            raise run._unsupported(f"getelementptr over {ty}")
        if ix.kind == "const" and ix.type in ("i32", "i64"):
            off = (ix.value * scale) & M32
            if off:
                lo = [B.add(x, B.const(off)) for x in lo]
            continue
        if ix.type not in ("i32", "i64") or scale & (scale - 1):
            raise run._unsupported(f"getelementptr index of type {ix.type} scaled by {scale}")
        idx = run.operand(ix) if ix.type == "i32" else run.env[ix.key]  # (i64: its low half, the address's width)
        sh = scale.bit_length() - 1
        lo = [B.add(x, B.shl(v, B.const(sh)) if sh else v) for x, v in zip(lo, idx.vals)]
        pois = [B.or_b(p, q) for p, q in zip(pois, idx.poison)]
    return Lanes(lo, pois, 32, False)


def scratch_problem(fn: Any, code: Any) -> str | None:
    """Why a function whose IR allocates private memory cannot be checked
    against its GPU code: the GPU keeps some of it in scratch
    (`scratch_*`/`buffer_*` accesses, which verify runs as spills at the
    same address operands: two address operands that name one address would
    be two places there, so a private array in scratch is not modelled).
    None where the GPU code has no scratch access (LLVM promoted the
    allocas to registers) or the IR allocates nothing."""
    if not code.spills or not any(i.opcode == "alloca" for i in fn.insts):
        return None
    ins = code.spills[0]
    return (f"line {ins.line}: {ins.text.split(';')[0].strip()}: the IR's private memory (alloca) in scratch "
            "(modelled: allocas LLVM promotes to registers)")
