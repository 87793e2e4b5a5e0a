"""Functions that take pointers, for `verify tv` (docs/tv.md, "Memory").

A non-kernel function (`define void @f(ptr addrspace(1) %out, i32 %x)`,
LLVM's test shape) gets its arguments as every function does (divergent ones
in v0, v1, ... with a 64-bit pointer in two VGPRs; `inreg` ones in SGPRs:
verify/tv/check.py's `_arg_regs`), EXEC at entry is any non-empty mask, and
its code ends with `s_setpc_b64 s[30:31]`.  Its loads, stores and atomics
run on the kernels' memory model (verify/tv/kernel.py: one unknown value per
byte address at entry, then the stores in order; the GPU's instructions
through `Kernel.step`), and the verdict is the kernels' (`memory_verdict`):
memory at a free address after the function equals the IR's, plus, as for
every function, EXEC at the return equals EXEC at entry and a returned value
refines the IR's in every active lane.

Differences from a kernel: no kernarg segment and no work-item IDs (a
function that reads them is unsupported), the argument VGPRs are ready only
after the entry wait [S:call-entry-wait], and EXEC at entry is any non-empty
mask (not a dispatch's prefix), so code that loops over the lanes is proved
with EXEC symbolic or not at all.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable
from typing import Any

from .. import smt
from ..machine import Machine
from ..ops.base import op_of
from ..target import FeatureLog, Target
from . import addrmeet, atomics, bytemem, cextv, conventions, inlineasm, nondet, private, spaces
from .cfg import run_blocks
from .kernel import STEP_RLIMIT, Kernel, choice_used, fewest_lanes, memory_verdict, used_atomics
from .llir import TYPES, Function, Module
from .sem import IRRun, Lanes, Memory, Unsupported
from .types import from_registers, ttype

MEMORY_OPCODES = ("load", "store", "atomicrmw", "getelementptr", "cmpxchg", "fence")


SPILL = re.compile(r"^(scratch|buffer)_(store|load)_(b32|dword)$")
VM_LOAD = re.compile(r"^(global|flat|buffer)_(load|atomic)")  # a vector-memory load or atomic


def counted_by_vmcnt(ins: Any, target: Any) -> bool:
    """Whether `s_waitcnt vmcnt` (GFX12: `s_wait_loadcnt`) counts the vector
    memory load or atomic `ins`: a load always; an atomic before GFX10 always
    (one counter for every access, in order), from GFX10 on only when it
    returns data (glc, sc0 or th:TH_ATOMIC_RETURN): one that does not is a
    write, counted by vscnt/storecnt (LLVM's SIInsertWaitcnts
    getVmemWaitEventType: VMEM_ACCESS without vscnt, else VMEM_WRITE_ACCESS
    for `isAtomicNoRet`).  [S:scratch-address]"""
    if "_atomic" not in ins.mnemonic:
        return True
    if target is None or not (target.has("waitcnt_split") or target.has("wait_gfx12")):
        return True
    words = ins.text.split(";")[0].replace(",", " ").split()
    return "glc" in words or "sc0" in words or "th:TH_ATOMIC_RETURN" in words


class _Both:
    """The memory instructions (Kernel) and the spills and reloads of
    private memory (check.py's GpuRun) in one run, one state along paths."""

    def __init__(self, k: Kernel, spills: Any) -> None:
        self.k, self.spills = k, spills

    def step(self, ins: Any) -> str | None:
        if SPILL.match(ins.mnemonic) and "addr64" not in ins.text.split(";")[0].split():  # (ADDR64: global, SI/CI)
            why: str | None = self.spills.step(ins)
            return why
        self.spills.retire(ins)  # (a wait: the reloads in flight return)
        if VM_LOAD.match(ins.mnemonic) and counted_by_vmcnt(ins, self.spills.m.target):
            # (counted by vmcnt after the reloads before it: their order)
            self.spills.in_flight.append((-1, [], [], [], ins))
        why = self.k.step(ins)
        # a spill slot whose address registers this instruction writes is
        # forgotten (as GpuRun does for the instructions it runs)
        written = set(op_of(ins.base).defs(ins))
        self.spills.written(written)
        stored = self.spills.stored
        for key in [key for key in stored if any(r in written for a in key[0] for r in _reg_names(a))]:
            del stored[key]
        return why

    def save(self) -> Any:
        return self.k.save(), self.spills.save()

    def load(self, s: Any) -> None:
        self.k.load(s[0])
        self.spills.load(s[1])

    def merge(self, c: Any, a: Any, b: Any) -> Any:
        return self.k.merge(c, a[0], b[0]), self.spills.merge(c, a[1], b[1])

    def set_pc(self, pc: Any) -> None:
        self.k.set_pc(pc)
        self.spills.set_pc(pc)


def _reg_names(operand: str) -> list[str]:
    """Register names in an operand's text ('s32', 's[0:3]', 'v1 offset:4')."""
    out = [f"{kind}{k}" for kind, a, b in re.findall(r"\b([sv])\[(\d+):(\d+)\]", operand)
           for k in range(int(a), int(b) + 1)]
    return out + re.findall(r"\b[sv]\d+\b", operand)


def flat_and_lds(fn: Function) -> bool:
    """Both a flat pointer and an LDS or private one appear in the function."""
    text = " ".join([a.type for a in fn.args] + [i.text for i in fn.insts])
    return bool(re.search(r"\bptr(?! addrspace)", text)) and bool(re.search(r"ptr addrspace\([35]\)", text))


def uses_memory(fn: Function) -> bool:
    """The function reads or writes memory (or computes an address): its
    proof compares memory, not only the returned value."""
    own = private.private_insts(fn)  # (an alloca's memory is the function's own: verify/tv/private.py)
    return any(i.opcode in MEMORY_OPCODES and id(i) not in own for i in fn.insts)


def prove_function_memory(mod: Module, fn: Function, code_of: Any, target: Target, wave: int, timeout: float,
                          res: Any, assume: dict[str, str], arg_regs: list[tuple[str, str, int, int]],
                          spills: Callable[[Machine], Any]) -> Any:
    """Fill `res` (a TVResult) for the non-kernel function `fn` that uses
    memory.  `code_of()` compiles: (assembly, GpuCode) or why it could not;
    `arg_regs`: (argument key, "v"/"s", first register, registers) per
    argument; `spills(m)`: verify/tv/check.py's GpuRun, which runs the
    spills and reloads of private memory.  With an atomicrmw whose result is used, the IR's order is
    first the GPU's returning atomic's own, then lane-ascending, as for
    kernels (docs/tv.md, "Atomics"): each is an order the IR admits, so
    either proof is one; a refutation under one order while the other is
    undecided is no refutation."""
    orders = [True, False] if used_atomics(fn) else [False]
    if used_atomics(fn) and optimized(code_of()):
        # the atomic optimizer's scan: lane-ascending first (its one lane's
        # atomic takes no part in an order: under the GPU's ranks the IR
        # would be asked to agree for every order); then the GPU's order, for
        # a per-lane atomic in code that also counts lanes
        orders = [False, True]
    tried: list[str] = []
    out = res
    for n, shared in enumerate(orders):
        out = _prove_once(mod, fn, code_of, target, wave, timeout, copy.deepcopy(res), assume, arg_regs, shared,
                          spills)
        if out.verdict in ("proved", "unsupported"):
            return out
        if n < len(orders) - 1:
            tried.append(f"{'the GPU' if shared else 'lane-ascending'} order: {out.verdict}")
    if out.verdict == "refuted" and used_atomics(fn):
        # the IR's order is the IR's to choose: the counterexample checked
        # for every order (atomics.FreeOrder), pinned as the last one tried
        out = _prove_once(mod, fn, code_of, target, wave, timeout, copy.deepcopy(res), assume, arg_regs,
                          orders[-1], spills, free=True)
        if out.notes and out.notes[0].startswith(atomics.OTHER_ORDER):
            # an order the counterexample suggests: lane-descending (a scan from the top lane)
            down = _prove_once(mod, fn, code_of, target, wave, timeout, copy.deepcopy(res), assume, arg_regs,
                               False, spills, descending=True)
            if down.verdict == "proved":
                down.notes.append("(with the IR's atomics lane-descending)")
                return down
    if tried:
        out.notes.append(f"(with the IR's atomics in {'; '.join(tried)})")
        if out.verdict == "refuted" and any(t.endswith(": unknown") for t in tried):
            out.verdict = "unknown"
            out.notes.insert(0, "not refuted: the IR's atomics may run in another order, under which the solver "
                                "gave up")
    return out


def optimized(got: Any) -> bool:
    """The GPU code is the atomic optimizer's (a v_mbcnt picks its one
    lane): its lanes' results are a lane-ascending scan."""
    return not isinstance(got, str) and any(i.mnemonic.startswith("v_mbcnt") for i in got[1].program)


def _prove_once(mod: Module, fn: Function, code_of: Any, target: Target, wave: int, timeout: float,
                res: Any, assume: dict[str, str], arg_regs: list[tuple[str, str, int, int]], shared: bool,
                spills: Callable[[Machine], Any], free: bool = False, descending: bool = False) -> Any:
    """One proof, the IR's returning atomics in the GPU's order (`shared`)
    or lane-ascending (`descending`: lane-descending); `free`: as unknowns
    of their own pinned to that order, a counterexample then checked for
    every order."""
    t0 = time.monotonic()
    if fn.ret != "void" and fn.ret not in TYPES:
        res.notes = [f"{fn.span}: unsupported: return type {fn.ret} of a function that uses memory "
                     "(modelled: void and 32-bit or narrower values)"]
        return res
    B = smt.Z3Sums(aci=True, canon_eq=False, lane_arrays=True)  # as kernels: min/max nests and sums canonical
    W = wave
    exec_bits: list[Any] = B.fresh_lanes("exec", W, cond=True)
    lo = B.from_bits(exec_bits[:32])
    hi = B.from_bits(exec_bits[32:]) if W == 64 else B.const(0)
    # the arguments: the registers' lane values, the IR's values cut from them
    raws_of: dict[str, list[list[Any]]] = {}
    ir_args: dict[str, Lanes] = {}
    for a, (key, kind, idx, n) in zip(fn.args, arg_regs):
        raws = [B.fresh_lanes(f"{kind}{idx + r}", W) if kind == "v" else [B.fresh(f"s{idx + r}")] * W
                for r in range(n)]
        raws_of[key] = raws
        if a.type in TYPES:
            w, fl = TYPES[a.type]
            vals = raws[0] if w == 32 else [B.and_(x, B.const((1 << w) - 1)) for x in raws[0]]
            ir_args[key] = Lanes(vals, [False] * W, w, fl)
        elif a.type.startswith("ptr") and n == 2:  # a 64-bit pointer: (lo, hi) as the memory model reads it
            ir_args[key] = Lanes(list(raws[0]), [False] * W, 64, False, list(raws[1]))
        else:
            tt = ttype(a.type)
            assert tt is not None
            ir_args[key] = from_registers(B, tt, raws)
    by_reg = {f"{kind}{idx + r}": raws_of[key][r] for key, kind, idx, n in arg_regs for r in range(n)}
    mem_cache: dict[Any, Any] = {}

    def term_key(t: Any) -> Any:
        return ("i", t) if type(t) is int else t.get_id()

    def initial_mem(alo: Any, ahi: Any) -> Any:  # as kernels: the address in normal form, cached per term
        key = (term_key(alo), term_key(ahi))
        hit = mem_cache.get(key)
        if hit is None:
            hit = mem_cache[key] = (alo, ahi, B.uf("mem", *meet.meet(alo, ahi)))  # [S:tv-address-meet]
        return hit[2]

    meet = addrmeet.AddressMeet(B)

    eqs: dict[Any, Any] = {}
    ir_mem = (bytemem.ByteMemory if bytemem.needs_bytes(fn) else Memory)(B, initial_mem, (eqs, term_key), ordered=False)
    lds_cache: dict[Any, Any] = {}

    def initial_lds(alo: Any, ahi: Any) -> Any:  # the LDS at entry: another unknown function of the address
        key = term_key(alo)
        if key not in lds_cache:
            lds_cache[key] = (alo, B.uf("lds", B.canonical(alo), B.canonical(ahi)))
        return lds_cache[key][1]

    ir_lds = spaces.LdsMemory(B, initial_lds, (eqs, term_key), ordered=False)
    orders: dict[int, list[Any]] = {}

    def atomic_order(n: int) -> list[Any]:  # the n-th returning atomic's ranks, shared by both sides (kernel.py)
        if n not in orders:
            orders[n] = B.fresh_lanes(f"atomic_order#{n}", W)
        return orders[n]

    ir_order: Any = atomic_order if shared else atomics.descending(B, W) if descending else None
    if free:
        ir_order = atomics.FreeOrder(B, W, ir_order)
    run = IRRun(B, W, target, lo, hi, exec_bits, assume=assume, memory=ir_mem,
                fresh=nondet.Choices(B, W, make=lambda n: B.fresh_lanes(n, W)),  # (kept: nondet.settle_stores)
                atomic_order=ir_order, lds=ir_lds)
    run.asm = []  # (inline asm: matched to the GPU code's blocks, verify/tv/inlineasm.py)
    if flat_and_lds(fn):
        res.notes = [f"{fn.span}: unsupported: flat and LDS (or private) pointers in one function (verify keeps "
                     "them in separate memories, and a flat address may reach the LDS)"]
        return res
    try:
        ret = run.run(fn, ir_args)
    except Unsupported as e:
        res.notes = [e.line()]
        return res
    got = code_of()
    if isinstance(got, str):
        res.verdict = "unknown"
        res.notes = [got]
        return res
    _, code = got
    label = code.label
    if not code.problems and (sp := private.scratch_problem(fn, code)) is not None:
        code.problems.append(sp)  # (verify/tv/private.py)
    if code.problems:
        res.notes = [f"{label}: unsupported: {p}" for p in code.problems]
        return res
    why = inlineasm.bind(code, run)
    if why is not None:
        res.notes = [f"{label}: unsupported: {why}"]
        return res
    if conventions.is_shader(fn):  # an entry function, as a kernel: LLVM's GFX12 SGPR hazards track nothing at its start  [S:shader-cc]
        code.kernel = True
    res.warnings, hazard_used = code.hazard_warnings(target, assume, wave)
    res.assumptions.update(hazard_used)
    fresh_v: dict[str, list[Any]] = {}

    def initial(kind: str, name: str, lane: int | None) -> Any:
        if kind == "scc":
            return B.fresh_bool("scc")
        if kind == "v":
            assert lane is not None
            if name not in fresh_v:
                fresh_v[name] = by_reg[name] if name in by_reg else B.fresh_lanes("gpu." + name, W)
            return fresh_v[name][lane]
        if name in by_reg:
            return by_reg[name][0]
        return B.fresh("gpu." + name)

    m = Machine(B, W, initial, FeatureLog(target), assume, waits=True)
    if m.waits is not None:
        # the caller may have loads outstanding into the argument VGPRs  [S:call-entry-wait]
        vregs = tuple(idx + r for _, kind, idx, n in arg_regs if kind == "v" and idx >= 0 for r in range(n))
        if vregs and not conventions.is_shader(fn):  # (a shader is an entry function: no caller)
            m.waits.queue += [("vm", vregs, 0), ("other", vregs, 0)]
    m.set_s("exec_lo", lo)
    m.set_s("exec_hi", hi)
    m.scc = initial("scc", "scc", None)
    gpu_mem = type(ir_mem)(B, initial_mem, (eqs, term_key))  # (bytes where the IR's are)
    k = Kernel(m, gpu_mem, (B.const(0), B.const(0)), {}, atomic_order)  # no kernarg segment: s_load reads memory
    k.lds = spaces.LdsMemory(B, initial_lds, (eqs, term_key))
    k.ds_m0_limit = target.has("ds_m0_limit")
    m.context = [[]]  # one instruction at a time: the hazard windows see those before  [S:hazards]
    m.hazard_entry = "kernel" if code.kernel else "fragment"
    both = _Both(k, spills(m))
    # what the memory instructions wrote: a refutation's explanation (verify/tv/cextv.py)
    replay = cextv.KernelReplay(m, code.program, code.blocks, ir_mem, gpu_mem, initial, target, W, assume)
    replay.kernel = k  # (its store instructions run again on a replay's registers)
    if code.blocks is not None:
        why = run_blocks(m, code.blocks, replay.wrap(both.step), both, timeout)
        if why is not None:
            res.notes = [f"{label}: unsupported: {why}"]
            return res
    for ins in code.program if code.blocks is None else []:
        why = replay.wrap(both.step)(ins)
        if why is not None:
            res.notes = [f"{label}: unsupported: {why}"]
            return res
        m.ran(ins)
    for used_by in (run.machine, run.whole_machine, m):  # the verdict's scope
        if used_by is not None:
            res.assumptions.update(used_by.assumptions_used)
    res.instructions = len(code.program)
    if both.spills.untracked:
        res.notes = [f"{label}: unsupported: line {both.spills.untracked[0].line} reloads private memory verify "
                     "does not track"]
        return res
    q = smt.Query(timeout, session=B.session)
    q.add(B.or_b(*exec_bits))  # any non-empty EXEC
    if free:  # the IR's order pinned; the GPU's a real one (no ties)
        for c in ir_order.pins + [c for n in sorted(orders) for c in atomics.distinct_ranks(B, orders[n])]:
            q.add(c)
    no_ub = B.not_b(B.or_b(*run.ub))
    if run.asm and inlineasm.decide(res, q, B, no_ub, run, m, label):  # the asm blocks' inputs first
        res.seconds = time.monotonic() - t0
        return res
    # first what every function promises: EXEC back as it came, the returned value
    elo, ehi = m.exec_pair()
    exec_bad = B.or_b(B.ne(elo, lo), B.ne(ehi, hi)) if W == 64 else B.ne(elo, lo)
    lane_bad: list[Any] = []
    if ret is not None:
        if (k.pending_v | k.pending_ds) & {0}:
            res.notes = [f"{label}: unsupported: the returned v0 is a load result not waited for"]
            return res
        v0 = m.v(0)
        for i in range(W):
            g = v0[i] if ret.width == 32 else B.and_(v0[i], B.const((1 << ret.width) - 1))
            differ = B.not_b(B.feq(g, ret.vals[i])) if ret.is_float else B.ne(g, ret.vals[i])
            lane_bad.append(B.and_b(exec_bits[i], B.not_b(ret.poison[i]), differ))
    # EXEC = lane 0, then lanes 0-1 (a quick counterexample, on a fixed
    # resource limit), then any EXEC
    r = "unknown"
    q.push()
    q.add(B.and_b(no_ub, B.or_b(exec_bad, *lane_bad)))
    for n in (1, 2, 0):
        q.push()  # (the EXEC pins popped again, the model kept: a counterexample for any EXEC)
        for i, bit in enumerate(exec_bits if n else []):
            q.add(bit if i < n else B.not_b(bit))
        r = q.check(rlimit=STEP_RLIMIT) if n else q.check()
        q.pop()
        if r == "sat" or not n:
            break
    if r == "sat":
        # (a model under EXEC = lanes 0..n-1 has its fewest lanes already: n = 1
        # was asked first; narrowing it again can cost a minute for nothing)
        if not n and not fewest_lanes(q, B, exec_bits):
            q.pop()
            res.verdict = "unknown"
            res.notes = [f"the solver gave up ({q.reason})"]
            return res
        # every order of the IR's atomics first: the search may move the model
        # to one that every order fails (atomics.another_order)
        other = atomics.another_order(q, run, exec_bits, lambda: fewest_lanes(q, B, exec_bits, again=False))
        mask = sum(1 << i for i in range(W) if q.truth(exec_bits[i]))
        res.seconds = time.monotonic() - t0
        if q.truth(exec_bad):
            after = q.value(elo) | q.value(ehi) << 32
            res.notes.append(f"counterexample: EXEC = {mask:#x} at entry, {after:#x} at the return")
            why = cextv.exec_return_cause(q, replay, mask, after)  # (the mask computation that left it so)
            if why is not None:
                res.notes.append(f"  cause: {why}")
        else:
            wrong = [i for i in range(W) if q.truth(lane_bad[i])]
            res.notes.append(f"counterexample: EXEC = {mask:#x}; returned value in lane {wrong[0]}: IR "
                             f"{q.value(ret.vals[wrong[0]]) if ret is not None else 0:#x}, GPU "
                             f"{q.value(m.v(0)[wrong[0]]):#x}")
        used = choice_used(q, run.choices)
        res.verdict = "refuted" if used is None else "unknown"
        if used is not None:
            res.notes.append(f"the counterexample depends on a non-deterministic IR value ({used.what} at "
                             f"{used.span}): the refutation may be spurious")
        if other is not None and res.verdict == "refuted":
            res.verdict = "unknown"
            res.notes.insert(0, other)
        return res
    q.pop()
    if r == "unknown":
        res.verdict = "unknown"
        res.notes = [f"the solver gave up on EXEC and the returned value ({q.reason})"]
        return res
    assert k.lds is not None
    # a counterexample with EXEC = lane 0, then lanes 0-1, then all, first: memory at a
    # free address over 32 or 64 independent lane addresses is a large
    # question, over one or two lanes a small one (only a refutation found
    # so is kept: EXEC is any non-empty mask, so such a model is a
    # counterexample)
    for n in (1, 2, W):  # (and every lane: the atomic optimizer's scan is wrong there first)
        q.push()
        for i, bit in enumerate(exec_bits):  # EXEC = lanes 0..n-1
            q.add(bit if i < n else B.not_b(bit))
        few = memory_verdict(copy.deepcopy(res), t0, q, B, no_ub, ir_mem, gpu_mem, None, exec_bits, [], run,
                             (ir_lds, k.lds), replay)
        q.pop()
        if few.verdict == "refuted":
            return few
    return memory_verdict(res, t0, q, B, no_ub, ir_mem, gpu_mem, None, exec_bits, [], run, (ir_lds, k.lds), replay)

