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
`v_cndmask` chain or `v_movrel`), or in scratch: in straight-line code of
a function without other memory its dword `scratch_load/store` run on a
per-lane scratch memory by address (:func:`scratch_run`); elsewhere
verify runs scratch accesses as spills at the same address operands
(verify/tv/check.py), which a private array's computed addresses are not,
so that is unsupported (:func:`scratch_problem`).
"""

from __future__ import annotations

import re
from typing import Any

from ..machine import LaneEvent, Step
from ..ops.base import op_of
from .gep import alloc_size
from .memmodel import Choice, Memory
from .types import Lanes

PRIVATE = "ptr addrspace(5)"
PRIVATE_BASE = 0x1000  # where verify places the first alloca (any place is the IR's: see above)
M32 = 0xFFFFFFFF
_ALLOCA = re.compile(r"=\s*alloca\s+(.+?)(?:,\s*align\s+(\d+))?,\s*addrspace\(5\)\s*$")
_GEP = re.compile(r"getelementptr\s+(?:inbounds\s+|nuw\s+|nusw\s+)*(.+?),\s*ptr addrspace\(5\) ")
_ARRAY = re.compile(r"^\[\s*(\d+)\s+x\s+(.+)\]$")


def _lifetime(ins: Any) -> bool:
    return ins.opcode == "call" and str(getattr(ins, "callee", "")).startswith("llvm.lifetime.")


def handles(run: Any, ins: Any) -> bool:
    """`ins` is an alloca in addrspace(5), or reads a pointer an alloca
    made (its result, or a getelementptr of one: `run.private_keys`): a
    load, store or getelementptr through it, a lifetime marker of it, or
    another instruction that reads it as a value (its address escapes:
    unsupported).  A private pointer from elsewhere (an argument: the
    caller's private memory, which the caller sees) is not this module's."""
    if ins.opcode == "alloca":
        return True
    derived: set[str] | None = getattr(run, "private_keys", None)
    if not derived:
        return False
    return any(o.kind == "ref" and o.key in derived for o in ins.operands)


def private_insts(fn: Any) -> set[int]:
    """The instructions of `fn` (their ids) that touch only the memory its
    allocas make: allocas, getelementptrs of their pointers, lifetime
    markers, loads through them and stores of other values through them."""
    derived: set[str] = set()
    out: set[int] = set()
    for ins in fn.insts:
        refs = [o for o in ins.operands if o.kind == "ref" and o.key in derived]
        if ins.opcode == "alloca" or (ins.opcode == "getelementptr" and refs and ins.operands[0] in refs):
            derived.add(ins.key)
            out.add(id(ins))
        elif (_lifetime(ins) and refs) or (ins.opcode == "load" and refs and ins.operands[0] in refs) or (
                ins.opcode == "store" and refs == ins.operands[1:2]):
            out.add(id(ins))
    return out


def _memory(run: Any) -> tuple[Any, Any]:
    """The run's private memory, and beside it one that holds 1 where a
    store wrote (0 elsewhere): where a load reads what no store wrote."""
    mems = getattr(run, "private_memory", None)
    if mems is None:
        B = run.B
        mems = (Memory(B, lambda lo, hi: B.const(0)), Memory(B, lambda lo, hi: B.const(0)))
        run.private_memory = mems
    return mems


def step(run: Any, ins: Any) -> Lanes:
    """The IR instruction `ins` (:func:`handles`) run on `run` (an IRRun)."""
    B, W = run.B, run.wave
    op = ins.opcode
    derived: set[str] = run.__dict__.setdefault("private_keys", set())
    refs = [o for o in ins.operands if o.kind == "ref" and o.key in derived]
    if op == "alloca":
        derived.add(ins.key)
        m = _ALLOCA.search(ins.text)
        size = alloc_size(m.group(1)) if m is not None else None
        if m is None or size is None or "," in m.group(1).replace(" x ", " "):
            raise run._unsupported(f"alloca '{ins.text.split('=', 1)[-1].strip()}' (modelled: a fixed-size array or "
                                   "scalar in addrspace(5))")
        align = max(4, int(m.group(2) or 4))
        at = getattr(run, "private_next", PRIVATE_BASE)
        at = (at + align - 1) // align * align
        run.private_next = at + max(size, 1)
        bounds(run)[ins.key] = (at, size)
        return Lanes([B.const(at)] * W, [False] * W, 32, False)
    if op == "getelementptr" and ins.operands[0] in refs:
        derived.add(ins.key)
        bounds(run)[ins.key] = bounds(run)[ins.operands[0].key]
        return _gep(run, ins)
    if _lifetime(ins):
        # (no effect: after lifetime.end the IR's memory is undefined, the value kept is one it may hold)
        return Lanes([B.const(0)] * W, [False] * W)
    if not ((op == "load" and ins.operands[0] in refs) or (op == "store" and refs == ins.operands[1:2])):
        raise run._unsupported(f"{op} of an alloca's pointer (its address escapes; verify places the allocas "
                               "itself)")
    a = re.search(r",\s*align\s+(\d+)", ins.text)
    ty = ins.type if op == "load" else ins.operands[0].type
    if ty not in ("i32", "float") or a is None or int(a.group(1)) < 4 or re.search(r"\b(volatile|atomic)\b", ins.text):
        raise run._unsupported(f"{op} of {ty} through {PRIVATE} (modelled: i32 and float, align >= 4)")
    ptr = run.operand(ins.operands[0 if op == "load" else 1])
    act = run.lanes_on()
    mem, written = _memory(run)
    # UB: a poison or misaligned address, or one outside the alloca the pointer comes from (LangRef, load/store:
    # memory that is not dereferenceable; the 4 bytes must lie in the object)
    at, size = bounds(run)[ins.operands[0 if op == "load" else 1].key]
    for i in range(W):
        if act[i] is not False:
            out = B.ult(B.const(size - 4), B.sub(ptr.vals[i], B.const(at))) if size >= 4 else True
            run.ub.append(B.and_b(act[i], B.or_b(ptr.poison[i], B.ne(B.and_(ptr.vals[i], B.const(3)), 0), out)))
    if op == "load":
        # what no store wrote: one unknown per load and lane, a choice of the IR's (LangRef: undef; one
        # value, where each use of undef may differ, is stricter and never looser)
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


def bounds(run: Any) -> dict[str, tuple[int, int]]:
    """Each private pointer's alloca: its address and size in bytes."""
    got: dict[str, tuple[int, int]] = run.__dict__.setdefault("private_bounds", {})
    return got


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
        if sh and re.search(r"\b(inbounds|nusw)\b", ins.text.split("getelementptr", 1)[1].split("[", 1)[0]):
            # (inbounds/nusw: the index times the element size must not wrap in a signed sense, else poison;
            # LangRef, getelementptr) its top sh+1 bits all equal
            top = [B.lshr(B.add(v, B.const(1 << (31 - sh))), B.const(32 - sh)) for v in idx.vals]
            pois = [B.or_b(p, B.ne(t, 0)) for p, t in zip(pois, top)]
    return Lanes(lo, pois, 32, False)


SCRATCH = re.compile(r"^scratch_(store|load)_(b32|dword)$")


def scratch_problem(fn: Any, code: Any, run_cls: Any = None) -> str | None:
    """Why a function whose IR allocates private memory cannot be checked
    against its GPU code, where the GPU keeps some of it in scratch: None
    where the GPU code has no scratch access (LLVM promoted the allocas to
    registers) or the IR allocates nothing, or (`run_cls`: a function
    without other memory, verify/tv/check.py's route and its GpuRun) where every scratch
    access is a dword `scratch_load/store` in straight-line code: those
    run on a per-lane scratch memory by address (:func:`scratch_run`, set
    on `code.gpu_run`).  Otherwise (`buffer_*` scratch, control flow, a
    kernel or a function with other memory, whose scratch verify runs as
    spills at the same address operands: two address operands that name
    one address would be two places there) the first scratch access is
    named."""
    if not code.spills or not any(i.opcode == "alloca" for i in fn.insts):
        return None
    if run_cls is not None and code.blocks is None and all(_scratch_form(i) is not None for i in code.spills):
        code.gpu_run = scratch_run(run_cls)
        return None
    ins = code.spills[0]
    return (f"line {ins.line}: {ins.text.split(';')[0].strip()}: the IR's private memory (alloca) in scratch "
            "(modelled: allocas LLVM promotes to registers, and dword scratch_load/store in straight-line code "
            "of a function without other memory)")


def _scratch_form(ins: Any) -> tuple[str, int, str, str, int] | None:
    """A `scratch_load/store_b32`'s kind, data VGPR, VADDR (a VGPR or
    `off`), SADDR (an SGPR or `off`) and signed instruction offset; None
    for another form."""
    m_ = SCRATCH.match(ins.mnemonic)
    body = ins.text.split(";")[0].strip()
    ops = [o.strip() for o in body.split(None, 1)[1].split(",")] if m_ and " " in body else []
    if m_ is None or len(ops) != 3:
        return None
    kind = m_.group(1)
    data, vaddr = (ops[1], ops[0]) if kind == "store" else (ops[0], ops[1])
    words = ops[2].split()
    saddr, off = words[0], 0
    for w in words[1:]:
        if w.startswith("offset:"):
            off = int(w[7:], 0)
        elif w not in ("glc", "slc", "dlc", "nt"):
            return None
    if not re.fullmatch(r"v\d+", data) or not (vaddr == "off" or re.fullmatch(r"v\d+", vaddr)) \
            or not (saddr == "off" or re.fullmatch(r"s\d+", saddr)):
        return None
    return kind, int(data[1:]), vaddr, saddr, off


def _scratch_address(m: Any, ins: Any) -> tuple[str, int, list[Any]] | None:
    """A `scratch_load/store_b32`'s kind, data VGPR and per-lane address:
    VADDR (a VGPR, or `off`) + SADDR (an SGPR, or `off`) + the signed
    instruction offset, 32 bits  [S:scratch-address]."""
    form = _scratch_form(ins)
    if form is None:
        return None
    kind, data, vaddr, saddr, off = form
    B, W = m.B, m.W
    base = [B.const(off & M32)] * W
    if vaddr != "off":
        base = [B.add(b, v) for b, v in zip(base, m.v(int(vaddr[1:])))]
    if saddr != "off":
        sv = m.s(saddr)
        base = [B.add(b, sv) for b in base]
    return kind, data, base


def scratch_run(base: Any) -> Any:
    """`base` (verify/tv/check.py's GpuRun) with its dword `scratch_load/
    store` run on a per-lane memory by address (the lane's number its high
    half: each lane's scratch is its own  [S:private-per-lane]), unknown
    where no store of the code wrote; each lane's store where it is active,
    its load's result written where it is active.  Straight-line code only
    (:func:`scratch_problem`)."""

    class ScratchRun(base):  # type: ignore[misc]
        def __init__(self, m: Any) -> None:
            super().__init__(m)
            self.scratch = Memory(m.B, lambda lo, hi: m.B.const(0))
            # loads not yet waited for, oldest first: (VGPR, the values it returns, the lanes it writes, the
            # load, its addresses, what the VGPR held after it: a write since is a race with the load)
            self.pending: list[tuple[int, list[Any], list[Any], Any, list[Any], list[Any] | None]] = []

        def _traced(self, ins: Any, r: int, act: list[Any], why: str, addr: list[Any] | None = None) -> None:
            """A replay's trace (verify/tv/cextv.py) notes what the load
            wrote, as a kernel replay notes its memory instructions; with
            `addr` (a concrete replay), each lane's scratch address and
            whether a store of the code wrote it."""
            trace = self.m.trace
            if trace is None:
                return
            st = Step(len(trace), ins)
            trace.append(st)
            for i, a in enumerate(act):
                if a is False:
                    continue
                at = addr[i] if addr is not None else None
                more = ""
                if isinstance(at, int):
                    hit = any(en is True and lo == at and hi == i for lo, hi, _, _, en in self.scratch.stores)
                    more = f" at {at:#x}" + ("" if hit else ", where no store of the code wrote")
                st.events[(f"v{r}", i)] = LaneEvent("written", why=why + more)

        def _read(self, a: Any, lane: int, fresh: Any, tag: str) -> Any:
            """Lane `lane`'s dword at byte address `a`: the newest store of the
            code at `a` where the lane stored, else `fresh`; a store at an
            address 1 to 3 bytes away overlaps that dword in part, after which
            the dword is unknown (not a store that another one hides)."""
            B = self.m.B
            v, junk = fresh, None
            W = self.m.W
            for n, (lo, _, sv, _, en) in enumerate(self.scratch.stores):
                if en is False or n % W != lane:  # (each store instruction writes W entries, lane by lane)
                    continue
                d = B.sub(a, lo)
                near = B.and_b(en, B.and_b(B.ult(B.add(d, B.const(3)), B.const(7)), B.not_b(B.eq(d, B.const(0)))))
                if near is not False:
                    junk = junk if junk is not None else self.m.unknown_lanes(tag)[lane]
                    v = B.ite(near, junk, v)
                v = B.ite(B.and_b(en, B.eq(d, B.const(0))), sv, v)
            return v

        def step(self, ins: Any) -> str | None:
            got = _scratch_address(self.m, ins) if SCRATCH.match(ins.mnemonic) else None
            m, B = self.m, self.m.B
            if got is None:
                left = loads_left(ins)
                if left is not None and left < len(self.pending):  # a wait: the oldest loads return
                    done, self.pending = self.pending[:len(self.pending) - left], self.pending[len(self.pending) - left:]
                    for r, vals, act, load, at, held in done:
                        note = f"loaded by {load.mnemonic} from scratch"
                        where: list[Any] | None = at
                        if held is None or any(x is not y for x, y in zip(m.v(r), held)):  # written since: a race
                            vals = m.unknown_lanes(f"v{r}@{load.line}(scratch load and a write race)")
                            note = f"unknown: v{r} written while {load.mnemonic} was in flight (which lands last?)"
                            where = None
                        m.write_v(r, vals, act)
                        self._traced(load, r, act, note, where)
                why: str | None = super().step(ins)
                names = set(op_of(ins.base).defs(ins))
                self.pending = [(r, v, a, ld, at, None if f"v{r}" in names else h)
                                for r, v, a, ld, at, h in self.pending]
                return why
            kind, r, addr = got
            act = m.actives()
            if kind == "store":
                vals = m.v(r)
                self.scratch.write([(addr[i], B.const(i), vals[i], False, act[i]) for i in range(m.W)])
            else:  # (until a wait returns it, the register holds an unknown value  [S:scratch-address])
                # what no store of the code wrote: an unknown per load and lane (an input the counterexample
                # shows, so that a replay holds the model's value), not one per address: the proof holds for
                # any values, those two loads of one address read too  [S:scratch-address]
                fresh = m.unknown_lanes(f"scratch@{ins.line}")
                loaded: list[Any] = []
                for i in range(m.W):
                    loaded.append(self._read(addr[i], i, fresh[i], f"scratch@{ins.line}(overlap)"))
                m.write_v(r, m.unknown_lanes(f"v{r}@{ins.line}(scratch load in flight)"), act)
                self.pending.append((r, loaded, act, ins, addr, list(m.v(r))))
                self._traced(ins, r, act, "unknown: read before a wait returns it (no s_waitcnt vmcnt covers it)")
            return None

    return ScratchRun


def loads_left(ins: Any) -> int | None:
    """The loads a wait leaves in flight (`s_waitcnt vmcnt(N)`, `s_waitcnt
    0`, GFX12's `s_wait_loadcnt N`); None for any other instruction."""
    text = ins.text.split(";")[0].strip()
    if ins.mnemonic == "s_waitcnt":
        m = re.search(r"vmcnt\((\d+)\)", text)
        if m:
            return int(m.group(1))
        return 0 if re.fullmatch(r"s_waitcnt\s+0(x0)?", text) else None
    if ins.mnemonic == "s_wait_loadcnt":
        m = re.fullmatch(r"s_wait_loadcnt\s+(0x[0-9a-fA-F]+|\d+)", text)
        return int(m.group(1), 0) if m else None
    return None


def trace_load(m: Any, ins: Any, r: int, act: list[Any], why: str) -> None:
    """A replay's trace (verify/tv/cextv.py, `m.trace`) notes what a load
    verify runs beside the machine wrote to VGPR `r` (a reload's unknown
    value in flight, or its value once a wait returned it), as a kernel
    replay notes its memory instructions."""
    trace = m.trace
    if trace is None:
        return
    st = Step(len(trace), ins)
    trace.append(st)
    for i, a in enumerate(act):
        if a is not False:
            st.events[(f"v{r}", i)] = LaneEvent("written", why=why)
