"""`verify tv`: prove, per function, target and wave, that the GPU code a
compiler made refines the LLVM IR it came from (docs/tv.md).

For a non-kernel function (the AMDGPU calling convention: divergent
arguments in v0, v1, ...; ``inreg`` arguments in s0, s1, ...; the result in
v0; the code ends with ``s_setpc_b64 s[30:31]``) and EXEC at entry any
non-empty mask, for every active lane i:

    the IR's result in lane i is poison, or v0[i] at the return equals it

(floats: equal, or both NaN), and EXEC at the return equals EXEC at entry.
This is refinement as Alive2 defines it, per lane, with undefined behaviour
absent from the IR we model (no memory, no division).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from .. import smt
from ..asmcheck import CONTROL, Opaque, asm_target, function_lines, parse_line, read
from ..assume import ASSUMPTIONS
from ..cex import deciding_first
from ..diag import InputError, Span
from ..emit import split_vopd
from ..hazards import SgprState, pending_at_return, sgpr_block_states
from ..hazards import check as hazards
from ..ir import Instr
from ..machine import Machine
from ..ops.base import op_of
from ..refine import JOINT_RLIMIT, variant_runs
from ..summary import counts, line
from ..target import FeatureLog, Target, get
from . import aggregate, atomic64, barrier, casloop, cextv, conventions, halfsem, inlineasm, legality, nondet, probe
from . import private as private
from .buffer import known as buffer_instruction
from .bytemem import known as sub_dword
from .cfg import Block, hazard_instrs, run_blocks, split_blocks
from .compile import ToolError, by_llc, by_llvmlite_batch, by_llvmlite_isolated, instances, plan
from .features import function_target
from .immediates import dpp_masks, immediate_notes
from .kernel import ATOMIC, GLOBAL, SLOAD, fewest_lanes, prove_kernel
from .llir import TYPES, Function, Module, read_module
from .memory import prove_function_memory, uses_memory
from .runlines import Instance, Skipped, wave_fits
from .sem import IRRun, Lanes, Unsupported
from .spaces import known as memory_instruction
from .types import from_registers, pieces_of, register_image, ret_pieces, rtype, ttype

SPILL = re.compile(r"^(scratch|buffer)_(store|load)_(b32|dword|b64|dwordx2)$")  # [S:spill64]
CFG_BRANCH = re.compile(r"^(s_branch|s_cbranch_\w+)$")


@dataclass
class LaneRow:
    lane: int
    inputs: dict[str, int]
    ir: int | None  # None: poison
    gpu: int
    wrong: bool = True  # the GPU value does not refine the IR's here


@dataclass
class Counterexample:
    exec_mask: int
    rows: list[LaneRow]
    exec_after: int | None = None  # EXEC at the return when it was not restored
    ir_at: str = ""  # the IR instruction responsible: "path:line:col: text"
    tgt_poison: list[bool] | None = None  # IR-to-IR: the target's value is poison (per row)
    gpu_at: str = ""  # the GPU line responsible
    explained: Any = None  # cextv.Explained: lane tags, traces, the pattern (non-kernel functions)

    def to_json(self) -> dict[str, Any]:
        ex = self.explained
        traced: dict[int, Any] = {}  # lane -> its deciding row; several: a result of several registers (pieces)
        pieces: dict[int, list[Any]] = {}
        for t in (deciding_first(ex.rows) if ex is not None else []):
            traced.setdefault(t.lane, t)
            pieces.setdefault(t.lane, []).append(t)
        cause = (ex.cause if ex is not None else "") or self.gpu_at
        return {"exec": f"{self.exec_mask:#x}", "exec_after": None if self.exec_after is None else f"{self.exec_after:#x}",
                "active_lanes": [i for i in range(64) if self.exec_mask >> i & 1],
                "tagged_inputs": bool(ex is not None and ex.tagged),
                "inputs": {} if ex is None else {ex.labels.get(k, k): v for k, v in ex.inputs.items()},
                "lanes": [{"lane": r.lane, "inputs": {k: f"{v:#x}" for k, v in r.inputs.items()},
                           "ir": None if r.ir is None else f"{r.ir:#x}", "gpu": f"{r.gpu:#x}", "differs": r.wrong,
                           "expected": r.ir, "actual": r.gpu,
                           **({"responsible": traced[r.lane].responsible, "trace": traced[r.lane].chain}
                              if r.lane in traced else {}),
                           **({"pieces": [{"output": t.output, "expected": t.expected, "actual": t.actual,
                                           "responsible": t.responsible, "trace": t.chain} for t in pieces[r.lane]]}
                              if ex is not None and len(ex.outputs) > 1 and r.lane in pieces else {})}
                          for r in self.rows],
                "ir_instruction": self.ir_at, "gpu_instruction": self.gpu_at,
                "cause": cause, "pattern": [] if ex is None else ex.pattern}


@dataclass
class TVResult:
    path: str
    function: str
    target: str
    wave: int
    compiler: str
    verdict: str  # proved, refuted, unknown, unsupported
    notes: list[str] = field(default_factory=list)
    cex: Counterexample | cextv.KernelCex | None = None
    seconds: float = 0.0  # proving (the IR and GPU runs, the solver), compiling not included
    compile_seconds: float = 0.0  # compiling, for the first function of each target/wave
    warnings: list[str] = field(default_factory=list)
    instructions: int = 0
    # the scope of a verdict, as verify lowering names it (refine.Result.scope)
    exec_contract: str = "any"  # kernels: "dispatch" (lanes 0..n-1, n >= 1)
    assumptions: dict[str, str] = field(default_factory=dict)  # the assumptions the verdict relied on
    robust_over: list[str] | None = None  # --robust: the assumptions varied
    variants: list[dict[str, Any]] = field(default_factory=list)  # --robust: every variant's verdict
    run: str = ""  # "path:line" of the RUN line the instance came from ('': --target)
    cpu_seconds: float = 0.0  # the instance's CPU time in the process that proved it (not compiling in a child)
    queries: int = 0  # the solver checks it asked

    def head(self) -> str:
        if self.function == "(every function)":  # a RUN line verify cannot use
            return f"RUN line {self.run} ({self.compiler})"
        wave = f" wave{self.wave}" if self.wave else ""
        # the RUN line is named where its flags make the instance one of several alike
        run = f" [RUN {self.run}]" if self.run and any(w.startswith("-") for w in self.compiler.split()[1:]) else ""
        return f"{self.function} on {self.target}{wave} ({self.compiler}){run}"

    def assumption_text(self) -> str:
        if self.robust_over is not None and self.verdict == "proved":
            return ("every variant of " + ", ".join(self.robust_over)) if self.robust_over else "none consulted"
        return ", ".join(f"{k}={v}" for k, v in sorted(self.assumptions.items())) or "none"

    def scope(self) -> str:
        return f"{self.target} wave{self.wave} under exec={self.exec_contract}, assumptions: {self.assumption_text()}"

    def lines(self) -> list[str]:
        out = [f"{self.head()}: {self.verdict}" + (f" ({self.instructions} GPU instructions)" if self.instructions else "")]
        if self.verdict in ("proved", "refuted"):
            out.append(f"  for {self.scope()}")
        for v in self.variants if len(self.variants) >= 2 else []:
            va = ", ".join(f"{k}={x}" for k, x in sorted(v["assumptions"].items())) or "none"
            out.append(f"  {v['verdict']:<8} under {va}{' (the defaults)' if v.get('default') else ''}")
        out += [f"  {n}" for n in self.notes]
        out += [f"  {w}" for w in self.warnings]
        c = self.cex
        if isinstance(c, cextv.KernelCex):  # (a kernel's: in the notes)
            pass
        elif c is not None and c.explained is not None and c.explained.rows:  # verify/tv/cextv.py
            out += cextv.render(c.explained, self.wave)
            if c.exec_after is not None:
                out.append(f"  EXEC at the return is {c.exec_after:#x}, not EXEC at entry")
            if c.ir_at:
                out.append(f"  IR:  {c.ir_at}")
            if c.gpu_at:
                out.append(f"  GPU: {c.gpu_at}")
        elif c is not None:
            out.append(f"  counterexample: EXEC = {c.exec_mask:#x}")
            if c.exec_after is not None:
                out.append(f"  EXEC at the return is {c.exec_after:#x}, not EXEC at entry")
            if c.rows:
                names = list(c.rows[0].inputs)
                ir2 = c.tgt_poison is not None
                head = ["lane", *names, "src" if ir2 else "IR value", "tgt" if ir2 else "GPU v0", ""]
                table = [[str(r.lane), *[f"{r.inputs[n]:#x}" for n in names],
                          "poison" if r.ir is None else f"{r.ir:#x}",
                          "poison" if c.tgt_poison is not None and c.tgt_poison[k] else f"{r.gpu:#x}",
                          "<- differs" if r.wrong else ""]
                         for k, r in enumerate(c.rows)]
                widths = [max(len(h), *(len(t[k]) for t in table)) for k, h in enumerate(head)]
                out.append(("    " + "  ".join(h.rjust(w) for h, w in zip(head, widths))).rstrip())
                out += [("    " + "  ".join(x.rjust(w) for x, w in zip(t, widths))).rstrip() for t in table]
            if c.ir_at:
                out.append(f"  IR:  {c.ir_at}")
            if c.gpu_at:
                out.append(f"  GPU: {c.gpu_at}")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"file": self.path, "function": self.function, "target": self.target, "wave": self.wave,
                "compiler": self.compiler, "run_line": self.run, "verdict": self.verdict, "scope": self.scope(), "exec": self.exec_contract,
                "assumptions": dict(sorted(self.assumptions.items())), "variants": self.variants,
                "notes": self.notes, "warnings": self.warnings,
                "counterexample": None if self.cex is None else self.cex.to_json(),
                "cpu_seconds": round(self.cpu_seconds, 3), "solver_queries": self.queries}


# verify tv's own verdicts beside the four: a compiler that crashed or failed;
# a file of a tree with no llc RUN line for AMDGPU (not counted: not a codegen test)
TV_VERDICTS: dict[str, str | None] = {"compiler error": "compiler-errors", "not codegen": None}


def summary(results: list[TVResult]) -> str:
    return line(counts((r.verdict for r in results), TV_VERDICTS))


def used_assumptions(*machines: Machine | None) -> dict[str, str]:
    """The assumptions these machines consulted (a verdict's scope)."""
    out: dict[str, str] = {}
    for m in machines:
        if m is not None:
            out.update(m.assumptions_used)
    return out


def robustly(prove: Callable[[dict[str, str]], TVResult], assume: dict[str, str], robust: bool,
             seconds: float | None = None) -> TVResult:
    """_budgeted, with the instance's CPU time (this process's: compiling in
    a child is not counted) and its solver checks (--json)."""
    c0, q0 = time.process_time(), smt.query_count()
    res = _budgeted(prove, assume, robust, seconds)
    res.cpu_seconds, res.queries = time.process_time() - c0, smt.query_count() - q0
    return res


def _budgeted(prove: Callable[[dict[str, str]], TVResult], assume: dict[str, str], robust: bool,
              seconds: float | None = None) -> TVResult:
    """`prove` under `assume`; with `robust`, under every variant of every
    assumption it relied on (and those the variants rely on in turn): proved
    only if every variant is, else the worst variant's result (as
    refine.prove does for lowerings).  `seconds` (--timeout): the whole
    instance's solver budget, z3 resource units and no clock (smt.Budget;
    docs/tv.md, "Timeouts"), so the verdict is the same under any load."""
    if seconds is None:
        return _robustly(prove, assume, robust)
    with smt.budget(seconds) as b:
        res = _robustly(prove, assume, robust)
    if b.spent and res.verdict == "unsupported" and any("of a shape verify does not accept" in n for n in res.notes):
        # (a loop whose shape the solver could not finish checking within the budget: undecided)
        res.verdict = "unknown"
    if b.spent and res.verdict == "unknown" and not any(b.reason() in n for n in res.notes):
        res.notes.append(b.reason())
    return res


def _robustly(prove: Callable[[dict[str, str]], TVResult], assume: dict[str, str], robust: bool) -> TVResult:
    res = _hazard_verdict(prove(assume))
    if not robust or res.verdict == "unsupported":
        return res
    runs = variant_runs(res, lambda r: r.assumptions, lambda v: _hazard_verdict(prove({**assume, **v})))
    order = {"refuted": 0, "compiler error": 0, "error": 0, "unknown": 1, "unsupported": 2, "proved": 3}
    worst = min(runs, key=lambda r: order[r.verdict])
    names = sorted({k for r in runs for k in r.assumptions})
    worst.variants = [{"assumptions": r.assumptions, "verdict": r.verdict, "default": r is res}
                      for r in sorted(runs, key=lambda r: (r is not res, order[r.verdict]))]
    worst.robust_over = names
    if worst.verdict == "proved":
        worst.assumptions = {k: "*" for k in names}
    worst.seconds = sum(r.seconds for r in runs)
    return worst


# ---------------------------------------------------------------------------
# the GPU side


@dataclass
class GpuCode:
    program: list[Instr]
    problems: list[str]  # why it is unsupported (empty: supported)
    spills: list[Instr]
    label: str
    blocks: list[Block] | None = None  # control flow: the basic blocks (program: their instructions)
    kernel: bool = False  # a kernel: its first instruction is the entry (the GFX12 SGPR hazards track nothing there)
    returns: bool = False  # a function that returns to its caller (s_setpc_b64): GFX12 waits before it  [S:trust-hazards]
    # hazard_warnings per target and assumptions (a looping kernel asks once per entry EXEC)
    warned: dict[tuple[Target, tuple[tuple[str, str], ...], int | None], tuple[list[str], dict[str, str]]] = field(
        default_factory=dict, repr=False)
    gpu_run: Any = None  # the class that runs it (None: GpuRun; verify/tv/private.py's scratch memory)

    def hazard_warnings(self, target: Target, assume: dict[str, str] | None = None,
                        wave: int | None = None) -> tuple[list[str], dict[str, str]]:
        """The hazard checker's warnings on the code as it runs: straight-line
        code as a whole; with control flow, each block after each of its
        predecessors, the branch left out (a window that spans more than two
        blocks is not seen).  A rule that names an assumption warns only under
        its "unknown" variant (the default; `assume` may choose another, as
        for the machine).  Also the assumptions so consulted, with their
        values: they are part of the verdict's scope.  New objects each call
        (a result may extend them)."""
        key = (target, tuple(sorted((assume or {}).items())), wave)
        if key not in self.warned:
            used: dict[str, str] = {}

            def variant(name: str) -> str:
                used[name] = (assume or {}).get(name, ASSUMPTIONS[name].default)
                return used[name]

            self.warned[key] = (self._hazard_warnings(target, variant, wave), used)
        warns, used = self.warned[key]
        return list(warns), dict(used)

    def _hazard_warnings(self, target: Target, variant: Callable[[str], str], wave: int | None) -> list[str]:
        entry = "kernel" if self.kernel else "fragment"
        if self.blocks is None:
            return [str(w) for w in hazards(self.program, target, variant, entry, wave)] + \
                [str(w) for w in pending_at_return(self.program, target, entry) if self.returns]
        # the GFX12 SGPR state at each block's start: LLVM's fixed point over the control flow
        states = sgpr_block_states([b.instrs for b in self.blocks],
                                   [[s for s in (b.taken, b.fall) if s is not None] for b in self.blocks], entry)
        seqs: list[tuple[list[Instr], SgprState]] = [(self.blocks[0].instrs, states[0])]
        for k, b in enumerate(self.blocks):
            for s in (b.taken, b.fall):
                if s is not None:
                    # (without the branch: verify does not model it as an instruction, and a
                    # window without it is shorter: never a hazard missed)
                    seqs.append((hazard_instrs(b) + self.blocks[s].instrs, states[k]))
        # and over three blocks: LLVM's searches go on into every predecessor (GFX11's partial
        # forwarding reaches back 8 VALU instructions whatever the blocks)  [S:trust-hazards]
        preds: list[list[int]] = [[] for _ in self.blocks]
        for k, b in enumerate(self.blocks):
            for s in (b.taken, b.fall):
                if s is not None:
                    preds[s].append(k)
        for k, b in enumerate(self.blocks):
            for p in preds[k]:
                for pp in preds[p]:
                    seqs.append((hazard_instrs(self.blocks[pp]) + hazard_instrs(self.blocks[p]) + b.instrs,
                                 states[pp]))
        out: list[str] = []
        for seq, st in seqs:
            out += [str(w) for w in hazards(seq, target, variant, st, wave) if str(w) not in out]
        for k, b in enumerate(self.blocks):  # a block with no successor returns
            if self.returns and b.taken is None and b.fall is None:
                out += [str(w) for w in pending_at_return(b.instrs, target, states[k]) if str(w) not in out]
        return out


def gpu_code(asm: str, fname: str, label: str, kernel: bool, end: str | None = None, memory: bool = False) -> GpuCode:
    """The function's code from printed assembly, as straight-line
    instructions ending with the return (which is dropped).  `end`: the
    return instruction when it is not the kernel's or function's ('': none,
    a shader returning to its epilog, verify/tv/conventions.py)."""
    problems: list[str] = []
    asm, asm_bodies, problems = inlineasm.mark(asm)  # inline asm blocks: one pseudo-instruction each
    try:
        pairs = split_vopd(list(enumerate(asm.splitlines(), 1)))
        text = "\n".join(t for _, t in pairs)
        lines = function_lines(read(label, text), fname, label)
        for ln in lines:  # a dual-issue line is two lines of `text`: the file's line numbers back
            ln.lineno = pairs[ln.lineno - 1][0] if 0 < ln.lineno <= len(pairs) else ln.lineno
    except InputError as e:
        return GpuCode([], [f"the assembly: {e.message}"], [], label)
    prog: list[Instr] = []
    spills: list[Instr] = []
    items: list[tuple[str, Any]] = []
    for ln in lines:
        if ln.kind == "label":
            items.append(("label", (ln.text, ln.lineno)))
            continue
        if ln.kind != "instr":
            continue
        try:
            ins = inlineasm.placeholder(ln.text, asm_bodies, Span(label, ln.lineno, 1)) or \
                parse_line(ln.text, Span(label, ln.lineno, 1))
        except InputError as e:
            problems.append(f"GPU line {ln.lineno}: {ln.text.split(';')[0].strip()}: {e.message}")
            continue
        items.append(("instr", ins))
        prog.append(ins)
    returns = end is None and not kernel
    end = end if end is not None else "s_endpgm" if kernel else "s_setpc_b64"
    blocks: list[Block] | None = None
    if end == "" and (any(k == "label" for k, _ in items) or any(CFG_BRANCH.match(i.mnemonic) for i in prog)):
        # a shader returning to its epilog: the end of its code is its exit (an s_setpc_b64 stands for it)
        last = max((ln.lineno for ln in lines), default=0)
        items.append(("instr", parse_line("s_setpc_b64 s[30:31]", Span(label, last + 1, 1))))
        end = "s_setpc_b64"
    if any(k == "label" for k, _ in items) or any(CFG_BRANCH.match(i.mnemonic) for i in prog):
        blocks, cf_problems = split_blocks(items, end)
        problems += cf_problems
        prog = [i for b in blocks for i in b.instrs]
    elif end and (not prog or prog[-1].mnemonic != end):
        problems.append(f"the GPU code does not end with {end}")
    elif end:
        prog = prog[:-1]
    for ins in prog:
        op = op_of(ins.base)
        text = ins.text.split(";")[0].strip()
        if CONTROL.match(ins.mnemonic):
            problems.append(f"control flow in the GPU code: line {ins.line}: {text}")
        elif isinstance(op, Opaque):
            if SPILL.match(ins.mnemonic) and _spill_key(ins) is not None:
                spills.append(ins)
            elif barrier.GPU.match(ins.mnemonic):
                pass  # one wave: no effect on registers or memory  [S:one-wave-barrier]
            elif kernel and ins.mnemonic == "s_clause":
                pass  # groups the memory instructions after it: no effect on values
            elif (kernel or memory) and (GLOBAL.match(ins.mnemonic) or SLOAD.match(ins.mnemonic)
                                         or ATOMIC.match(ins.mnemonic) or memory_instruction(ins.mnemonic, text)
                                         or atomic64.GPU.match(ins.mnemonic) or casloop.is_cmpswap(ins.mnemonic)
                                         or (kernel and buffer_instruction(ins.mnemonic))
                                         or (sub_dword(ins.mnemonic) and (kernel or not ins.mnemonic.startswith("buffer_")))):
                pass  # memory: verify/tv/kernel.py, verify/tv/memory.py
            else:
                problems.append(f"an instruction verify does not model: line {ins.line}: {text}")
    return GpuCode(prog, problems, spills, label, blocks, kernel, returns)


def _spill_key(ins: Instr) -> tuple[str, list[int], tuple[str, ...]] | None:
    """A spill or reload (private memory, per lane) as (kind, its VGPRs, the
    address operands): "store"/"load"; a 64-bit one (`_dwordx2`/`_b64`) moves
    a VGPR pair, dword k of it at the address plus 4k  [S:spill64]."""
    m = SPILL.match(ins.mnemonic)
    body = ins.text.split(";")[0].strip()
    ops = [o.strip() for o in body.split(None, 1)[1].split(",")] if m and " " in body else []
    if m is None or len(ops) < 3:
        return None
    if m.group(1) == "buffer" and any(w == "addr64" for o in ops for w in o.split()):
        return None  # ADDR64 (SI/CI): a 64-bit VGPR address into global memory, never a spill  [S:sici]
    if m.group(1) == "scratch":
        data, addr = (ops[1], [ops[0], *ops[2:]]) if m.group(2) == "store" else (ops[0], ops[1:])
    else:
        data, addr = ops[0], ops[1:]
    if m.group(3) in ("b64", "dwordx2"):
        pair = re.fullmatch(r"v\[(\d+):(\d+)\]", data)
        if pair is None or int(pair.group(2)) != int(pair.group(1)) + 1:
            return None
        return m.group(2), [int(pair.group(1)), int(pair.group(2))], tuple(addr)
    if not re.fullmatch(r"v\d+", data):
        return None
    return m.group(2), [int(data[1:])], tuple(addr)


def _spill_addr(addr: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    """A spill's address operands as (the operands without `offset:N`, N)."""
    base, off = [], 0
    for a in addr:
        for w in a.split():
            if w.startswith("offset:"):
                off = int(w[7:], 0)
            else:
                base.append(w)
    return tuple(base), off


class GpuRun:
    """Runs the GPU code one instruction at a time.  Spills and reloads of a
    VGPR to private memory at the same address (nothing in between writes
    the address registers) give each lane back what it stored where that
    lane was active at the store; anything else a reload reads is unknown
    (those reloads are listed in `untracked`).  With control flow this is
    the extra state of verify/tv/cfg.py: a spill two paths disagree on is
    forgotten at their join."""

    def __init__(self, m: Machine) -> None:
        self.m = m
        self.stored: dict[tuple[tuple[str, ...], int], tuple[list[Any], list[Any]]] = {}
        self.untracked: list[Instr] = []
        # reloads not yet waited for, oldest first: (VGPR, its value, the lanes it writes, what the VGPR held
        # after the reload): until a wait returns it, the VGPR holds an unknown value  [S:scratch-address]
        # (None for what the VGPR held: an instruction has written it since)
        self.in_flight: list[tuple[int, list[Any], list[Any], list[Any] | None, Instr]] = []

    def retire(self, ins: Instr) -> None:
        """`ins`, a wait (`s_waitcnt vmcnt(N)`, `s_wait_loadcnt N`): the
        oldest reloads in flight return their values (in order)."""
        m = self.m
        left = private.loads_left(ins)
        if left is None or left >= len(self.in_flight):
            return
        done, self.in_flight = self.in_flight[:len(self.in_flight) - left], self.in_flight[len(self.in_flight) - left:]
        for r, vals, act, held, load in done:
            if r < 0:  # (another memory instruction's load, counted in order: verify/tv/memory.py)
                continue
            why = f"reloaded by {load.mnemonic}"
            if held is None or any(x is not y for x, y in zip(m.v(r), held)):  # written meanwhile: which lands last?
                vals = m.unknown_lanes(f"v{r}@{ins.line}(reload and a write race)")
                why = f"unknown: v{r} written while {load.mnemonic} was in flight (which lands last?)"
            m.write_v(r, vals, act)
            private.trace_load(m, load, r, act, why)

    def step(self, ins: Instr) -> str | None:
        m, B = self.m, self.m.B
        stored = self.stored
        self.retire(ins)
        key = _spill_key(ins)
        # private memory as dwords keyed by (the address operands but the
        # offset, the byte offset): dword k of an access is at offset + 4k
        if key is not None and key[0] == "store":
            base, off = _spill_addr(key[2])
            for old in [o for o in stored if o[0] == base and off - 4 < o[1] < off + 4 * len(key[1])]:
                del stored[old]  # (a dword this store overlaps without covering it exactly: forgotten)
            for j, r in enumerate(key[1]):
                stored[(base, off + 4 * j)] = (list(m.v(r)), m.actives())
            return None
        if key is not None and key[0] == "load":
            base, off = _spill_addr(key[2])
            for j, r in enumerate(key[1]):
                hit = stored.get((base, off + 4 * j))
                if hit is None and ins not in self.untracked:
                    self.untracked.append(ins)
                fresh = m.unknown_lanes(f"v{r}@{ins.line}")
                vals = fresh if hit is None else [B.ite(hit[1][i], hit[0][i], fresh[i]) for i in range(m.W)]
                act = m.actives()
                m.write_v(r, m.unknown_lanes(f"v{r}@{ins.line}(reload in flight)"), act)
                self.in_flight.append((r, vals, act, list(m.v(r)), ins))
                private.trace_load(m, ins, r, act, "unknown: read before a wait returns it (no s_waitcnt vmcnt covers it)")
            return None
        m.run([ins])
        written = set(op_of(ins.base).defs(ins))
        for k in [k for k in stored if any(r in written for a in k[0] for r in _names(a))]:
            del stored[k]
        self.written(written)
        return None

    def written(self, names: set[str]) -> None:
        """An instruction wrote the registers `names`: a reload in flight to
        one of them races that write (even where the write puts back the
        very value the VGPR held)."""
        self.in_flight = [(r, v, a, None if f"v{r}" in names else h, ld) for r, v, a, h, ld in self.in_flight]

    def save(self) -> Any:
        return dict(self.stored), list(self.in_flight)

    def load(self, s: Any) -> None:
        self.stored, self.in_flight = dict(s[0]), list(s[1])

    def merge(self, c: Any, a: Any, b: Any) -> Any:
        # (a reload in flight on one path only stays unknown after the join: never returned)
        return ({k: v for k, v in a[0].items() if b[0].get(k) is v},
                [x for x in a[1] if any(x is y for y in b[1])])

    def set_pc(self, pc: Any) -> None:
        pass


def run_gpu(m: Machine, code: GpuCode, timeout: float = 30.0) -> list[Instr]:
    """Run the GPU code (straight-line, or its blocks: verify/tv/cfg.py);
    returns the reloads of untracked private memory.  InputError when it
    cannot be run."""
    g = (code.gpu_run or GpuRun)(m)
    m.context = [[]]  # one instruction at a time: the hazard windows see those before  [S:hazards]
    m.hazard_entry = "kernel" if code.kernel else "fragment"
    if code.blocks is None:
        for ins in code.program:
            g.step(ins)
            m.ran(ins)
    else:
        why = run_blocks(m, code.blocks, g.step, g, timeout)
        if why is not None:
            raise InputError(None, why)
    return g.untracked


def _names(operand: str) -> list[str]:
    """Register names in an operand's text ('s32', 's[0:3]', 'v1 offset:4')."""
    out = []
    for kind, a, b in re.findall(r"\b([sv])(?:\[(\d+):(\d+)\]|(?=\d))", operand):
        if a:
            out += [f"{kind}{k}" for k in range(int(a), int(b) + 1)]
    out += re.findall(r"\b[sv]\d+\b", operand)
    return out


def _responsible_gpu(prog: list[Instr], reg: str) -> str:
    for ins in reversed(prog):
        if reg in op_of(ins.base).defs(ins):
            return f"line {ins.line}: {ins.text.split(';')[0].strip()}"
    return f"({reg} is never written: its value at entry)"


# ---------------------------------------------------------------------------
# one proof


def first_sgpr_arg(target: Target) -> int:
    """The first SGPR of `inreg` arguments in LLVM's calling convention for
    callable functions: s0 where scratch is architected (GFX940+, GFX11+),
    else s16, after the scratch resource and the other preloaded SGPRs
    (AMDGPUUsage "Call Convention"; what llc-22 does on the six targets)."""
    return 0 if target.has("scratch_no_rsrc_args") else 16


def _arg_regs(fn: Function, target: Target) -> list[tuple[str, str, int, int]]:
    """(arg key, register kind "v"/"s", first index, registers) per argument
    (an i64, a double, a 64-bit pointer, a vector: consecutive registers,
    16-bit vector elements two to one; verify/tv/types.py)."""
    conv = conventions.arg_regs(fn, first_sgpr_arg(target))
    if conv is not None:  # a shader's or amdgpu_gfx's own rules
        return conv
    out, nv, ns = [], 0, first_sgpr_arg(target)
    for a in fn.args:
        tt = ttype(a.type)
        n = tt.registers if tt is not None else 1
        if a.inreg:
            out.append((a.key, "s", ns, n))
            ns += n
        else:
            out.append((a.key, "v", nv, n))
            nv += n
    return out


# A vector type longer than this in a function's signature is unsupported
# before anything runs, and the function is not compiled to see whether the
# compiler fails on it: LLVM legalises a vector element by element, and a
# `<808551 x i32>` argument keeps llvmlite's LLVM busy for minutes. No
# register file holds more than 1,024 dwords (256 VGPRs of a wave64 lane
# are 256 dwords), so no such value is a cross-lane test's  [S:compile-failure]
MAX_VECTOR = 1024
NOT_COMPILED = "not compiled: a vector of more than 1024 elements"


def _huge_vector(ty: str) -> bool:
    return any(int(n) > MAX_VECTOR for n in re.findall(r"<\s*(\d+)\s+x\b", ty))


# A callable function's VGPR arguments: v0-v30 for a plain function, whose
# v31 carries the packed work-item IDs (allocateSpecialInputVGPRsFixed
# reserves it before the arguments are assigned, unless the function is
# "amdgpu-no-workitem-id-x/y/z", which LLVM's tests do not say; verify then
# stays at v30, which can only cost an "unsupported"), v0-v31 for an
# amdgpu_gfx one (a graphics function has no work-item IDs: llc-22 passes its
# 32nd dword in v31); the pieces past them go to the stack (CC_AMDGPU_Func),
# which verify does not model  [S:shader-cc]
VGPR_ARGS = 31
VGPR_ARGS_GFX = 32


def _stack_args(fn: Function, where: str) -> list[str]:
    """A callable function whose VGPR arguments do not fit its registers:
    the rest are passed on the stack (llc-22: a <32 x i32> after a pointer
    has its last three elements at s32+0, +4, +8), not in v31 and up."""
    limit = VGPR_ARGS_GFX if fn.cc == "amdgpu_gfx" else VGPR_ARGS
    held = f"v0-v{limit - 1}" + ("" if limit == VGPR_ARGS_GFX else ", v31 holds the work-item IDs")
    n = 0
    for a in fn.args:
        tt = ttype(a.type)
        if a.inreg or tt is None:
            continue
        n += tt.registers
        if n > limit:
            return [f"{where}: unsupported: argument {a.name} is passed on the stack in part (the VGPR arguments "
                    f"fill {held}; stack arguments are not modelled)"]
    return []


def static_problems(fn: Function) -> list[str]:
    """Why a function cannot be checked at all (before running anything)."""
    where = f"{fn.span.path}:{fn.span.line}:{fn.span.col}"
    out: list[str] = []
    for a in fn.args:
        if _huge_vector(a.type):
            out.append(f"{where}: unsupported: argument {a.name} of type {a.type} ({NOT_COMPILED})")
    if _huge_vector(fn.ret):
        out.append(f"{where}: unsupported: return type {fn.ret} ({NOT_COMPILED})")
    if fn.kernel or out:
        return out  # (verify/tv/kernel.py checks a kernel's arguments)
    out += conventions.problems(fn)
    for a in fn.args:
        # (an i1 of a callable function: bit 0 of its register, the bits above unknown, as an i16's
        # are; both of LLVM's selectors mask it before use; a shader's: conventions.problems)
        if ttype(a.type) is None:
            out.append(f"{where}: unsupported: argument {a.name} of type {a.type}")
    if not out and not conventions.is_shader(fn):
        out += _stack_args(fn, where)
    if fn.ret != "void" and (rtype(fn.ret) is None or fn.ret == "i1"):
        out.append(f"{where}: unsupported: return type {fn.ret}")
    return out


def _fewest_lanes(q: smt.Query, B: Any, exec_bits: list[Any]) -> None:
    """After a sat check: a model with 1, 2 or 4 active lanes where there is
    one (the query's model is left on the last sat check)."""
    if not fewest_lanes(q, B, exec_bits):
        raise smt_gave_up(q)


def smt_gave_up(q: smt.Query) -> InputError:
    return InputError(None, f"the solver gave up on a counterexample it had found ({q.reason}); try a larger --timeout")


def prove_function(mod: Module, fn: Function, compile_asm: Any, target: Target, wave: int, compiler: str,
                   timeout: float = 30.0, assume: dict[str, str] | None = None) -> TVResult:
    res = _prove_function(mod, fn, compile_asm, target, wave, compiler, timeout, assume)
    if res.verdict == "unsupported" and not any(n.startswith("could not compile:") or " is not available on " in n
                                                or NOT_COMPILED in n for n in res.notes):
        # what verify cannot model in the IR does not hide that the compiler failed on the function: a
        # compiler error is decided (`_finish` makes it the verdict); but an intrinsic whose instruction
        # the target lacks (ops' legality: "... is not available on T") stays that: LLVM's failure on
        # it is expected, not a compiler error  [S:compile-failure]
        try:
            compile_asm(target, wave)
        except ToolError:
            raise
        except InputError as e:
            res.notes = [f"could not compile: {e.message}"]
    return res


def _prove_function(mod: Module, fn: Function, compile_asm: Any, target: Target, wave: int, compiler: str,
                    timeout: float = 30.0, assume: dict[str, str] | None = None) -> TVResult:
    t0 = time.monotonic()
    assume = assume or {}
    res = TVResult(mod.path, fn.name, target.name, wave, compiler, "unsupported")
    probs = static_problems(fn)
    if probs:
        res.notes = probs
        return res
    if fn.kernel or uses_memory(fn):
        def code_of() -> tuple[str, GpuCode] | str:
            try:
                asm = compile_asm(target, wave)
            except ToolError:  # the --llc command is unusable: an error, no verdict
                raise
            except InputError as e:
                return f"could not compile: {e.message}"
            return asm, gpu_code(asm, fn.name, f"<{compiler} {target.name} wave{wave}>", fn.kernel,
                                 ("s_endpgm" if fn.ret == "void" else "") if conventions.is_shader(fn) else None,
                                 memory=True)

        first = code_of()  # an instruction the target cannot encode: a compiler error, as below
        bad = [] if isinstance(first, str) else legality.illegal(first[1].program, target, wave)
        if bad:
            assert not isinstance(first, str)
            res.verdict, res.notes = "compiler error", [f"{first[1].label}: {b}" for b in bad]
            return res
        if not fn.kernel:  # a function that takes pointers: verify/tv/memory.py
            mres: TVResult = prove_function_memory(mod, fn, code_of, target, wave, timeout, res, assume,
                                                   _arg_regs(fn, target), GpuRun)
            return mres

        res.exec_contract = "dispatch"
        kres: TVResult = prove_kernel(mod, fn, code_of, target, wave, timeout, res, assume)
        return kres
    B = smt.Z3()
    W = wave
    exec_bits = B.fresh_lanes("exec", W, cond=True)
    lo = B.from_bits(exec_bits[:32])
    hi = B.from_bits(exec_bits[32:]) if W == 64 else B.const(0)
    regs = _arg_regs(fn, target)
    arg_lanes: dict[str, list[list[Any]]] = {}  # per argument, its registers' lane values
    args: dict[str, Lanes] = {}
    for a, (key, kind, idx, n) in zip(fn.args, regs):
        raws = [B.fresh_lanes(f"unused.{a.name}.{r}", W) if idx < 0 else  # (an amdgpu_ps input LLVM skips)
                B.fresh_lanes(f"v{idx + r}", W) if kind == "v" else [B.fresh(f"s{idx + r}")] * W for r in range(n)]
        arg_lanes[key] = raws
        if a.type in TYPES:
            w, fl = TYPES[a.type]
            raw = raws[0]
            vals = raw if w == 32 else [B.and_(x, B.const((1 << w) - 1)) for x in raw]
            args[key] = Lanes(vals, [False] * W, w, fl)
        else:
            tt = ttype(a.type)
            assert tt is not None
            args[key] = from_registers(B, tt, raws)
    rec = nondet.Choices(B, W)  # the IR's non-deterministic values: the source's to choose
    run = IRRun(B, W, target, lo, hi, exec_bits, assume=assume, fresh=rec)
    run.asm = []  # (inline asm: matched to the GPU code's blocks, verify/tv/inlineasm.py)
    try:
        ret = run.run(fn, args)
    except Unsupported as e:
        res.notes = [e.line()]
        return res
    # the compiled code
    try:
        asm = compile_asm(target, wave)
    except ToolError:  # the --llc command is unusable: an error, no verdict
        raise
    except InputError as e:
        res.verdict = "unknown"
        res.notes = [f"could not compile: {e.message}"]
        return res
    shader = conventions.is_shader(fn)
    code = gpu_code(asm, fn.name, f"<{compiler} {target.name} wave{wave}>", fn.kernel,
                    ("s_endpgm" if fn.ret == "void" else "") if shader else None)
    if shader:  # an entry function, as a kernel: LLVM's GFX12 SGPR hazards track nothing at its start  [S:shader-cc]
        code.kernel = True
    if not code.problems and (sp := private.scratch_problem(fn, code, GpuRun)) is not None:
        code.problems.append(sp)  # (verify/tv/private.py)
    if code.problems:
        res.notes = [f"{code.label}: unsupported: {p}" for p in code.problems]
        return res
    why = inlineasm.bind(code, run)
    if why is not None:
        res.notes = [f"{code.label}: unsupported: {why}"]
        return res
    bad = legality.illegal(code.program, target, wave)  # an instruction the target cannot encode
    if bad:
        res.verdict, res.notes = "compiler error", [f"{code.label}: {b}" for b in bad]
        return res
    res.instructions = len(code.program)
    res.warnings, hazard_used = code.hazard_warnings(target, assume, wave)
    fresh_v: dict[str, list[Any]] = {}
    by_reg = {f"{kind}{idx + r}": arg_lanes[key][r] for key, kind, idx, n in regs for r in range(n) if idx >= 0}

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
        if name not in fresh_s:  # (an SGPR read unwritten: one value, every lane's)
            fresh_s[name] = B.fresh("gpu." + name)
        return fresh_s[name]

    fresh_s: dict[str, Any] = {}
    made: dict[tuple[str, str, int | None], Any] = {}  # every initial value read (cextv replays them)

    def initial_made(kind: str, name: str, lane: int | None) -> Any:
        if (kind, name, lane) not in made:
            made[(kind, name, lane)] = initial(kind, name, lane)
        return made[(kind, name, lane)]

    def entry_waits(m: Machine) -> None:
        if m.waits is not None:
            # a callee cannot take its argument VGPRs as ready: the caller may still
            # have loads outstanding into them (LLVM's SIInsertWaitcnts waits at the
            # entry of every non-entry function for this reason); until a vmcnt(0)
            # and an lgkmcnt(0) cover them, a read gets an unknown value  [S:call-entry-wait]
            vregs = tuple(idx + r for _, kind, idx, n in regs if kind == "v" and idx >= 0 for r in range(n))
            if vregs and not shader:  # (a shader is an entry function: no caller)
                m.waits.queue += [("vm", vregs, 0), ("other", vregs, 0)]

    m = Machine(B, W, initial_made, FeatureLog(target), assume, waits=True)
    entry_waits(m)
    m.set_s("exec_lo", lo)
    m.set_s("exec_hi", hi)
    m.scc = initial_made("scc", "scc", None)
    try:
        untracked = run_gpu(m, code, timeout)
    except InputError as e:
        res.notes = [f"{code.label}: unsupported: {e.message}"]
        return res
    res.assumptions = {**used_assumptions(run.machine, run.whole_machine, m), **hazard_used}
    v0 = m.v(0) if ret is not None else []
    elo, ehi = m.exec_pair()
    lane_bad: list[Any] = []
    rtt = rtype(fn.ret)  # (a struct: its members' pieces  [S:ir-aggregate])
    wide_ret = ret is not None and fn.ret not in TYPES and rtt is not None
    if wide_ret and not shader:  # several registers, or 16-bit elements packed: piece by piece
        assert ret is not None and rtt is not None
        got = ret_pieces(B, rtt, [m.v(r) for r in range(rtt.registers)])
        pieces = pieces_of(ret, rtt)
        if rtt.members is not None:  # a struct: lane by lane, its pieces' forms local to each lane read
            meet = aggregate.pieces_meet(B, exec_bits, got, [p.vals for p in pieces])  # [S:lane-normal-lane-local]
        else:  # every piece the same normal form where it is not poison: no lane needs a question
            met = all(_lanes_meet(B, exec_bits, g, p.vals, p.poison)  # [S:lane-normal-pieces]
                      for g, p in zip(got, pieces))
            meet = [met] * W
        for i in range(W):
            lane_bad.append(False if meet[i] else B.and_b(exec_bits[i], B.or_b(*(B.and_b(
                B.not_b(p.poison[i]), halfsem.piece_differ(B, rtt, g[i], p.vals[i])) for g, p in zip(got, pieces)))))
    elif shader and ret is not None:  # the pieces in SGPRs and VGPRs  [S:shader-cc]
        assert rtt is not None
        pieces = pieces_of(ret, rtt)
        locs = conventions.ret_locations(fn)
        regs_at = {(k, r): (m.v(r) if k == "v" else [m.s(f"s{r}")] * W) for k, r, _ in locs}
        lane_bad, got, cc_used = conventions.ret_check(B, fn, pieces, regs_at, exec_bits, assume)
        res.assumptions.update(cc_used)
        wide_ret = True
    elif ret is not None:
        gots = [v0[i] if ret.width == 32 else B.and_(v0[i], B.const((1 << ret.width) - 1)) for i in range(W)]
        same = _lanes_meet(B, exec_bits, gots, ret.vals, ret.poison)  # [S:lane-normal]
        free_regs = [v for k, v in fresh_v.items() if k not in by_reg] + [[x] * W for x in fresh_s.values()]
        if not same and run.choices and free_regs and not ret.is_float and ret.alt is None:
            # the IR's choices set to the GPU's registers they stand for (nondet's
            # witness (f), a function of the target's values): the same normal forms?
            eqs = nondet.register_witness(rec, [(i, ret.vals[i], gots[i]) for i in range(W)], free_regs, exec_bits)
            if eqs and _lanes_meet(B, exec_bits, gots, [smt.replaced(v, eqs) for v in ret.vals]) and not any(
                    smt.mentions(p, rec.consts(), {}) for p in ret.poison if type(p) is not bool):
                same = True
                res.notes.append("proved with the IR's non-deterministic values chosen from the target's "
                                 "(the GPU's registers they stand for, lane normal forms)")
        if not same and run.choices and not ret.is_float and ret.alt is None:
            # the IR's choices set to the target's terms where they stand in the normal forms  [S:lane-normal-witness]
            eqs = nondet.normal_witness(B, rec, exec_bits, gots, ret.vals)
            if eqs and _lanes_meet(B, exec_bits, gots, [smt.replaced(v, eqs) for v in ret.vals]) and not any(
                    smt.mentions(p, rec.consts(), {}) for p in ret.poison if type(p) is not bool):
                same = True
                res.notes.append("proved with the IR's non-deterministic values chosen from the target's "
                                 "(the target's terms where they stand, lane normal forms)")
        for i in range(W):
            g = gots[i]
            if same:  # every lane: the same term where it runs, equal for every input  [S:lane-normal]
                lane_bad.append(False)
                continue
            differ = B.not_b(B.feq(g, ret.vals[i])) if ret.is_float else B.ne(g, ret.vals[i])
            if (d16 := halfsem.differ(B, fn.ret, g, ret.vals[i])) is not None:  # a 16-bit float: NaN as any NaN
                differ = d16
            if ret.alt is not None and ret.alt_when is not None:  # LangRef allows either value  [S:ir-minnum]
                other = halfsem.differ(B, fn.ret, g, ret.alt[i])
                alt_same = B.not_b(other) if other is not None else B.feq(g, ret.alt[i])
                differ = B.and_b(differ, B.not_b(B.and_b(ret.alt_when[i], alt_same)))
            lane_bad.append(B.and_b(exec_bits[i], B.not_b(ret.poison[i]), differ))
    exec_bad = B.or_b(B.ne(elo, lo), B.ne(ehi, hi)) if W == 64 else B.ne(elo, lo)
    if shader and fn.ret == "void":  # (s_endpgm: the wave's EXEC ends with it)
        exec_bad = False
    q = smt.Query(timeout, session=B.session)
    q.add(B.or_b(*exec_bits))
    contract, cc_assumed = conventions.entry_contract(B, fn, exec_bits, assume)
    res.assumptions.update(cc_assumed)
    if contract:  # (the scope names it: a compute dispatch's prefix, a pixel shader's whole quads)
        res.exec_contract = "dispatch" if cc_assumed.get("kernel.entry_exec") == "prefix" else "quads"
    for c in contract:
        q.add(c)
    if run.ub:  # undefined behaviour in the IR (a branch on poison): any GPU code refines it
        q.add(B.not_b(B.or_b(*run.ub)))
    if run.asm and inlineasm.decide(res, q, B, True, run, m, code.label):  # the asm blocks' inputs first
        res.seconds = time.monotonic() - t0
        return res
    # all lanes at once with a fixed resource limit, then lane by lane
    twins = _lane_twins(B, q, lane_bad, run)  # [S:tv-lane-twins]
    q.push()
    q.add(B.or_b(exec_bad, *lane_bad))
    # (the IR's non-deterministic values are the source's to choose: verify/tv/nondet.py)
    outs = ([(i, p.vals[i], g[i]) for g, p in zip(got, pieces) for i in range(W)] if wide_ret else
            [(i, ret.vals[i], v0[i] if ret.width == 32 else B.and_(v0[i], B.const((1 << ret.width) - 1)))
             for i in range(W)] if ret is not None else [])
    if not run.choices and _lane_local_unsat(q, B, exec_bad, lane_bad):  # one lane asked for all
        r = "unsat"
    else:
        r = q.check(rlimit=JOINT_RLIMIT) if twins is None else "unknown"  # (twins: lane by lane at once)
    free_regs = [v for k, v in fresh_v.items() if k not in by_reg] + [[x] * W for x in fresh_s.values()]
    settled = nondet.settle(q, B, run.choices, rec, outs, split=(q.assertions[:-1], [exec_bad, *lane_bad]),
                            target_free=free_regs, exec_bits=exec_bits) if r == "sat" and run.choices else None
    probed = False  # a wide result's question with every input fixed first: verify/tv/probe.py
    if r == "unknown" and wide_ret and twins is None and not run.choices:
        inputs = [v for (k, _, _), v in made.items() if k != "scc"] + [x for a in arg_lanes.values() for g in a for x in g]
        if probe.refute(q, B, exec_bits, inputs, [v for (k, _, _), v in made.items() if k == "scc"]):
            r, probed = "sat", True
    if r == "unknown":
        q.pop()
        r = "unsat"
        variant = [-1]  # (the one witness every lane's proof uses)
        for k, cond in enumerate([exec_bad, *lane_bad]):
            if twins is not None and k and twins[k - 1] is not None:
                continue  # another lane's question with the two lanes swapped: its answer  [S:tv-lane-twins]
            q.push()
            q.add(cond)
            # a wide result's lane: bit-blasted whole first, on the joint question's
            # limit (a ballot compared with EXEC: milliseconds), its unsat alone taken
            # (and EXEC at the return against EXEC at entry: two whole lane masks)
            r = q.check(rlimit=JOINT_RLIMIT, plain=True) if (wide_ret or k == 0) and cond is not False else "unknown"
            if r == "unknown" or (r == "sat" and k):  # (EXEC's question: the plain solver's model stands)
                r = q.check()
            # lane by lane, only the one witness proves (a choice per lane is not one choice for all)
            settled = nondet.settle(q, B, run.choices, rec, outs, joint=False, variant=variant,
                                    target_free=free_regs, exec_bits=exec_bits) if r == "sat" and run.choices else None
            if settled is not None and settled.verdict == "proved":
                r = "unsat"
            if r != "unsat":
                break
            q.pop()
    if settled is not None and settled.verdict != "refuted":
        r = "unsat" if settled.verdict == "proved" else "unknown"
    res.seconds = time.monotonic() - t0
    if r == "unsat":
        res.verdict = "proved"
        if settled is not None:
            res.notes.append(settled.note)
        return res
    if r == "unknown":
        res.verdict = "unknown"
        res.notes = [settled.note if settled is not None else f"the solver gave up ({q.reason})"]
        return res
    found = q.model
    if probed:  # (fewer lanes where a question on its own limit finds them, else the probe's)
        fewest_lanes(q, B, exec_bits, again=False)
    else:
        _fewest_lanes(q, B, exec_bits)
    if run.choices and nondet.depends(q, run.choices) is not None and not nondet.genuine(q, rec):
        q.model = found  # (fewer lanes only where a source choice cannot save them)
    explained = None
    if ret is not None and not wide_ret and not shader:  # the lane table: verify/tv/cextv.py
        arg_regs = {f"{kind}{idx + r}": arg_lanes[key][r] for key, kind, idx, n in regs for r in range(n) if idx >= 0}
        labels = {f"{kind}{idx + r}": a.name + (f".{r}" if n > 1 else "")
                  for a, (key, kind, idx, n) in zip(fn.args, regs) for r in range(n) if idx >= 0}
        explained = cextv.explain(q, B, W, target, assume, arg_regs, labels, exec_bits, ret.vals, ret.poison,
                                  v0, ret.width, cextv.replay_straight(code, code.gpu_run or GpuRun, target, W, assume, entry_waits),
                                  made, lane_bad, retag=not run.choices)
    elif ret is not None and wide_ret and not shader:  # each whole register of the result: verify/tv/cextv.py
        assert rtt is not None
        arg_regs = {f"{kind}{idx + r}": arg_lanes[key][r] for key, kind, idx, n in regs for r in range(n) if idx >= 0}
        labels = {f"{kind}{idx + r}": a.name + (f".{r}" if n > 1 else "")
                  for a, (key, kind, idx, n) in zip(fn.args, regs) for r in range(n) if idx >= 0}
        explained = cextv.explain_pieces(q, B, W, target, assume, arg_regs, labels, exec_bits, pieces, got,
                                         rtt.slots(), lambda g, w: halfsem.piece_differ(B, rtt, g, w),
                                         cextv.replay_straight(code, code.gpu_run or GpuRun, target, W, assume, entry_waits), made,
                                         retag=not run.choices)
    elif ret is not None and shader:  # a shader's pieces, VGPRs and SGPRs: verify/tv/cextv.py
        arg_regs = {f"{kind}{idx + r}": arg_lanes[key][r] for key, kind, idx, n in regs for r in range(n) if idx >= 0}
        labels = {f"{kind}{idx + r}": a.name + (f".{r}" if n > 1 else "")
                  for a, (key, kind, idx, n) in zip(fn.args, regs) for r in range(n) if idx >= 0}
        locs = conventions.ret_locations(fn)
        explained = cextv.explain_pieces(q, B, W, target, assume, arg_regs, labels, exec_bits, pieces, got,
                                         [(r, 0, 32) for _, r, _ in locs],
                                         lambda g, w: B.not_b(B.feq(g, w)) if ret.is_float else B.ne(g, w),
                                         cextv.replay_straight(code, code.gpu_run or GpuRun, target, W, assume, entry_waits), made,
                                         retag=not run.choices, kinds=[k for k, _, _ in locs], lane_bad=lane_bad)
    mask = sum(1 << i for i in range(W) if q.truth(exec_bits[i]))
    rows: list[LaneRow] = []
    # every active lane (up to 8, the differing ones first), so that the
    # lanes a lane reads from are in the table too
    active = [i for i in range(W) if mask >> i & 1]
    differ = [i for i in active if lane_bad and q.truth(lane_bad[i])]
    shown = sorted(set(differ) | set([i for i in active if i not in differ][:8]))  # (every differing lane)
    for i in shown if ret is not None else []:
        assert ret is not None
        ins = {a.name: sum(q.value(r[i]) << (32 * k) for k, r in enumerate(arg_lanes[a.key])) for a in fn.args}
        if wide_ret:
            assert rtt is not None
            ir = register_image(rtt, [None if q.truth(p.poison[i]) else q.value(p.vals[i]) for p in pieces])
            gpu = register_image(rtt, [q.value(g[i]) for g in got])
            rows.append(LaneRow(i, ins, ir, gpu or 0, bool(q.truth(lane_bad[i]))))
            continue
        rows.append(LaneRow(i, ins, None if q.truth(ret.poison[i]) else q.value(ret.vals[i]), q.value(v0[i]),
                            bool(q.truth(lane_bad[i]))))
    cex = Counterexample(mask, rows, explained=explained)
    if q.truth(exec_bad):
        cex.exec_after = q.value(elo) | (q.value(ehi) << 32 if W == 64 else 0)
        cex.gpu_at = _responsible_gpu(code.program, "exec_lo")
    if any(r.wrong for r in rows):
        ret_ins = next((i for i in fn.insts if i.opcode == "ret"), None)
        src = ret_ins.operands[0].key if ret_ins is not None and ret_ins.operands else ""
        d = next((i for i in fn.insts if i.key == src), ret_ins)
        if d is not None:
            cex.ir_at = f"{d.span}: {d.text}"
        loc = conventions.ret_locations(fn)[0] if shader else ("v", 0, False)
        cex.gpu_at = _responsible_gpu(code.program, f"{loc[0]}{loc[1]}")
    res.cex = cex
    if settled is not None:
        res.notes.append("a counterexample for every choice of the IR's non-deterministic values")
    if untracked:
        res.verdict = "unknown"
        res.notes.append(f"the GPU code reloads a register from private memory verify does not track (line "
                         f"{untracked[0].line}): the refutation may be spurious")
    else:
        res.verdict = "refuted"
    return res


def _lane_local_unsat(q: smt.Query, B: Any, exec_bad: Any, lane_bad: list[Any]) -> bool:
    """A lane-local function (every lane's question lane 0's, with the
    lanes renamed, and the rest of the query blind to the renaming:
    smt.Z3.lane_local): lane 0's question and EXEC's, each unsatisfiable
    within the joint question's resource limit, prove every lane.  Anything
    else (a satisfiable or undecided question, lanes that differ) is asked
    as before, jointly then lane by lane: the same verdicts and the same
    counterexamples, with W questions made one where the lanes are twins."""
    base = q.assertions[:-1]  # (the joint question is the last)
    if len(lane_bad) < 2 or not B.lane_local(lane_bad, base):
        return False
    joint = q.assertions[len(base):]
    try:
        for cond in (exec_bad, lane_bad[0]):
            if cond is False:
                continue
            q.assertions[len(base):] = [cond]  # (in place of the joint question)
            if q.check(rlimit=JOINT_RLIMIT) != "unsat":
                return False
    finally:
        q.assertions[len(base):] = joint
    return True


def _lane_twins(B: Any, q: Any, lane_bad: list[Any], run: Any) -> list[int | None] | None:
    """For each lane's question, a lower lane whose question it is with the
    two lanes swapped in every register and EXEC (smt.Z3.lane_twins), when
    the query holds nothing else but that some lane runs (symmetric under any
    swap: no entry contract, undefined behaviour, asm block or source choice)
    and most lanes have one (a lane-local function); else None.  [S:tv-lane-twins]"""
    if run.ub or run.choices or run.asm or len(q.assertions) != 1 or len(lane_bad) < 4:
        return None
    twins: list[int | None] = B.lane_twins(lane_bad)
    return twins if 4 * sum(t is not None for t in twins) >= 3 * len(twins) else None


def _lanes_meet(B: Any, exec_bits: list[Any], got: list[Any], want: list[Any],
                poison: list[Any] | None = None) -> bool:
    """Every lane i's two values have the same normal form where exec[i]
    holds (smt.LaneNormal): equal for every input, so no lane needs a
    question.  Otherwise the questions are asked on the terms as they always
    were (the same questions, the same counterexamples).  Each lane is tried
    with lane reads normalised locally first (LaneNormal(local=True): a
    chain of reads that revisits lanes stays linear  [S:lane-normal-local]),
    with the IR's `poison` where it is not poison with no EXEC bit decided
    (LaneNormal.given, lane None: one set of normal forms for every lane
    whose poison is one condition, a chain of lane reads), then without the
    poison, then as before: the whole context kept, and where lane i is not poison
    (LaneNormal.given: a NaN test that nnan makes poison is false there),
    last with operations on a select of an EXEC bit lifted into its branches
    (LaneNormal(lift=True), [S:lane-normal-mask]).  Any of them meeting
    proves the lane.  [S:lane-normal-given]

    First, every lane with the local forms alone and no poison assumed, one
    set of forms for all lanes (a `given` is made per poison condition, and
    each lane's is its own: a wave64 warp sum's 64 of them cost 20 times its
    local forms); where every lane meets so, that is the answer.  Otherwise
    the steps above run as they always have, on forms of their own (the same
    limits counted from nothing, so the same lanes meet).  A speed-up only:
    any form meeting proves its lane."""
    quick = smt.LaneNormal(B.session, exec_bits, limit=LOCAL_NORMAL_LIMIT, local=True)
    if all(_meet(quick, g, w, i) for i, (g, w) in enumerate(zip(got, want))):
        return True
    local = smt.LaneNormal(B.session, exec_bits, limit=LOCAL_NORMAL_LIMIT, local=True, share=quick)
    shared: dict[int, Any] = {}  # a poison condition's ast id -> its LaneNormal (None: nothing to assume)
    norm = None
    for i, (g, w) in enumerate(zip(got, want)):
        p = poison[i] if poison is not None else False
        if type(p) is not bool:  # (where the lane is not poison first: its facts only add to the local forms')
            if p.get_id() not in shared:
                pn = smt.LaneNormal(B.session, exec_bits, limit=LOCAL_NORMAL_LIMIT, local=True, share=local)
                shared[p.get_id()] = pn if pn.given(p, None) else None
            pn = shared[p.get_id()]
            if pn is not None and _meet(pn, g, w, i):
                continue
        if _meet(local, g, w, i):
            continue
        if norm is None:
            norm = smt.LaneNormal(B.session, exec_bits, share=local)
        n = norm.normal(g, i)
        if n is not None and n == norm.normal(w, i):
            continue
        if n is None or type(p) is bool:
            return False
        lane = smt.LaneNormal(B.session, exec_bits, share=local)
        if lane.given(p, i) and _meet(lane, g, w, i):
            continue
        # last, an operation on a select of an EXEC bit pushed into its branches  [S:lane-normal-mask]
        lane = smt.LaneNormal(B.session, exec_bits, lift=True, share=local)
        if not lane.given(p, i) or not _meet(lane, g, w, i):
            return False
    return True


LOCAL_NORMAL_LIMIT = 250_000  # memo entries of the local and shared normal forms (then the forms as before)


def _meet(norm: Any, g: Any, w: Any, i: int) -> bool:
    n = norm.normal(g, i)
    return n is not None and n == norm.normal(w, i)


def prove_ir_pair(mod: Module, src: Function, tgt: Function, target: Target, wave: int,
                  timeout: float = 30.0, assume: dict[str, str] | None = None) -> TVResult:
    """IR-to-IR refinement (Alive2's src/tgt): for every EXEC and input, in
    every active lane, src's value is poison or tgt's is not poison and equal
    to it.  Non-deterministic values of tgt range over every choice; those
    of src are src's to choose: some choice must match (verify/tv/nondet.py)."""
    t0 = time.monotonic()
    res = TVResult(mod.path, f"{src.name} -> {tgt.name}", target.name, wave, "IR", "unsupported")
    probs = static_problems(src) + static_problems(tgt)
    if [a.type for a in src.args] != [a.type for a in tgt.args] or src.ret != tgt.ret:
        probs.append(f"{tgt.span}: error: @{tgt.name} does not have @{src.name}'s signature")
    if probs:
        res.notes = probs
        return res
    B = smt.Z3()
    W = wave
    exec_bits = B.fresh_lanes("exec", W, cond=True)
    lo = B.from_bits(exec_bits[:32])
    hi = B.from_bits(exec_bits[32:]) if W == 64 else B.const(0)
    raw: list[list[Any]] = []
    wraw: list[list[list[Any]]] = []  # an argument of several registers: each register's lanes
    for k, a in enumerate(src.args):
        raw.append(B.fresh_lanes(f"arg{k}", W) if not a.inreg else [B.fresh(f"arg{k}")] * W)
        att = ttype(a.type)
        n = att.registers if att is not None else 1
        wraw.append([raw[-1]] + [B.fresh_lanes(f"arg{k}.{r}", W) if not a.inreg else [B.fresh(f"arg{k}.{r}")] * W
                                 for r in range(1, n)])
    outs = []
    runs = []
    recs: list[nondet.Choices] = []
    for fn in (src, tgt):
        args = {}
        for a, lanes, regs in zip(fn.args, raw, wraw):
            if a.type not in TYPES:
                att = ttype(a.type)
                assert att is not None
                args[a.key] = from_registers(B, att, regs)
                continue
            w, fl = TYPES[a.type]
            args[a.key] = Lanes(lanes if w == 32 else [B.and_(x, B.const((1 << w) - 1)) for x in lanes],
                                [False] * W, w, fl)
        # (src's choices existential, tgt's universal; named apart also where
        # the two files' functions have one name)
        rec = nondet.Choices(B, W, f"{'tgt' if recs else 'src'}.{fn.name}")
        recs.append(rec)
        run = IRRun(B, W, target, lo, hi, exec_bits, assume=assume or {}, fresh=rec)
        try:
            outs.append(run.run(fn, args))
        except Unsupported as e:
            res.notes = [e.line()]
            return res
        runs.append(run)
    s_out, t_out = outs
    res.assumptions = used_assumptions(*(m for r in runs for m in (r.machine, r.whole_machine)))
    if s_out is None or t_out is None:
        res.verdict = "proved"
        return res
    lane_bad = []
    rtt = rtype(src.ret)
    sp: list[Lanes] = []
    tp: list[Lanes] = []
    if src.ret not in TYPES and rtt is not None:  # piece by piece (each element's poison its own)
        sp, tp = pieces_of(s_out, rtt), pieces_of(t_out, rtt)
        for i in range(W):
            lane_bad.append(B.and_b(exec_bits[i], B.or_b(*(
                B.and_b(B.not_b(a.poison[i]), B.or_b(b.poison[i], B.ne(a.vals[i], b.vals[i]))) for a, b in zip(sp, tp)))))
    for i in range(W) if not lane_bad else []:
        differ = B.not_b(B.feq(t_out.vals[i], s_out.vals[i])) if s_out.is_float else B.ne(t_out.vals[i], s_out.vals[i])
        lane_bad.append(B.and_b(exec_bits[i], B.not_b(s_out.poison[i]), B.or_b(t_out.poison[i], differ)))
    q = smt.Query(timeout, session=B.session)
    q.add(B.or_b(*exec_bits))
    if runs[0].ub:  # src has undefined behaviour: any tgt refines it
        q.add(B.not_b(B.or_b(*runs[0].ub)))
    base = list(q.assertions)
    q.add(B.or_b(*lane_bad, *runs[1].ub))  # (tgt's undefined behaviour where src has none)
    r = q.check()
    settled = None
    if r == "sat" and runs[0].choices:  # is there a choice of src's values that matches?
        pairs = [(i, a.vals[i], b.vals[i]) for a, b in zip(sp, tp) for i in range(W)] if sp else \
            [(i, s_out.vals[i], t_out.vals[i]) for i in range(W)]
        settled = nondet.settle(q, B, runs[0].choices, recs[0], pairs, f"@{src.name}",
                                split=(base, [*lane_bad, *runs[1].ub]))
        if settled is not None and settled.verdict != "refuted":
            r = "unsat" if settled.verdict == "proved" else "unknown"
    res.seconds = time.monotonic() - t0
    if r != "sat":
        res.verdict = "proved" if r == "unsat" else "unknown"
        if settled is not None:
            res.notes.append(settled.note)
        elif r == "unknown":
            res.notes = [f"the solver gave up ({q.reason})"]
        return res
    found = q.model
    _fewest_lanes(q, B, exec_bits)
    if runs[0].choices and nondet.depends(q, runs[0].choices) is not None and not nondet.genuine(q, recs[0]):
        q.model = found  # (fewer lanes only where a choice of src cannot save them)
    mask = sum(1 << i for i in range(W) if q.truth(exec_bits[i]))
    rows = []
    for i in [i for i in range(W) if mask >> i & 1][:8] if sp else []:  # (the registers' bits, poison pieces 0)
        assert rtt is not None
        rows.append(LaneRow(i, {a.name: q.value(raw[k][i]) for k, a in enumerate(src.args)},
                            register_image(rtt, [None if q.truth(p.poison[i]) else q.value(p.vals[i]) for p in sp]),
                            register_image(rtt, [None if q.truth(p.poison[i]) else q.value(p.vals[i]) for p in tp])
                            or 0, bool(q.truth(lane_bad[i]))))
    for i in [i for i in range(W) if mask >> i & 1][:8] if not sp else []:
        rows.append(LaneRow(i, {a.name: q.value(raw[k][i]) for k, a in enumerate(src.args)},
                            None if q.truth(s_out.poison[i]) else q.value(s_out.vals[i]),
                            q.value(t_out.vals[i]), bool(q.truth(lane_bad[i]))))
    res.cex = Counterexample(mask, rows, tgt_poison=[all(q.truth(p.poison[r.lane]) for p in tp) if tp else
                                                     q.truth(t_out.poison[r.lane]) for r in rows])
    if settled is not None:
        res.notes.append(f"a counterexample for every choice of @{src.name}'s non-deterministic values")
    res.verdict = "refuted"
    return res


def has_src_tgt(text: str) -> bool:
    """The file defines @src and @tgt (Alive2's convention for IR-to-IR)."""
    return all(re.search(rf"^\s*define\b[^@\n]*@{n}\s*\(", text, re.M) for n in ("src", "tgt"))


def check_pair_files(path: str, text: str, tgt_path: str | None, tgt_text: str | None, targets: list[str],
                     wave: int | None, timeout: float = 30.0, assume: dict[str, str] | None = None,
                     robust: bool = False, functions: list[str] | None = None) -> list[TVResult]:
    """IR-to-IR: the functions of `path` against those of the same name in
    `tgt_path` (those named in `functions`, when given), or, in one file,
    @src against @tgt."""
    mod = read_module(path, text)
    inst = instances(path, mod.run_lines, targets, wave)
    pairs: list[tuple[Module, Function, Function]] = []
    if tgt_path is not None and tgt_text is not None:
        tmod = read_module(tgt_path, tgt_text)
        by_name = {f.name: f for f in tmod.functions}
        pairs = [(mod, f, by_name[f.name]) for f in mod.functions if f.name in by_name]
        if not pairs:
            raise InputError(None, f"{path} and {tgt_path} define no function of the same name")
        for n in functions or []:
            if n not in {s.name for _, s, _ in pairs}:
                raise InputError(None, f"{path} and {tgt_path} have no function '{n}' in both")
        pairs = [p for p in pairs if not functions or p[1].name in functions]
    else:
        fs = {f.name: f for f in mod.functions}
        if "src" not in fs or "tgt" not in fs:
            raise InputError(None, f"{path}: IR-to-IR refinement needs @src and @tgt (or a second file)")
        pairs = [(mod, fs["src"], fs["tgt"])]
        if functions and set(functions) - {"src", "tgt"}:
            raise InputError(None, f"{path}: IR-to-IR in one file checks @src against @tgt; no function "
                                   f"'{sorted(set(functions) - {'src', 'tgt'})[0]}' to check")
    for _, s, t in pairs:  # a --wave that contradicts a function's own wave size: an error before any proof
        all(wave_fits(f, w, wave) for f in (s, t) for _, w in inst)
    return [robustly(partial(prove_ir_pair, m, s, t, tg, w, timeout), assume or {}, robust, timeout)
            for m, s, t in pairs for tg, w in inst if wave_fits(s, w, wave) and wave_fits(t, w, wave)]


def check_file(path: str, text: str, targets: list[str], wave: int | None, llc: list[str],
               functions: list[str] | None = None, timeout: float = 30.0,
               asm: tuple[str, str] | None = None, assume: dict[str, str] | None = None,
               robust: bool = False, jobs: int = 1, runs: list[str] | None = None) -> list[TVResult]:
    """Check every function of the module `text` (or those named) on each
    target/wave: compiled by llvmlite, or by each `llc` command, or against
    the given assembly `asm` = (path, text) (one target and wave).  With
    `jobs` > 1 the instances are proved in that many worker processes (the
    code compiled first, here); the results are the same, in the same order.
    `runs`: only the instances of these RUN lines ("path:line")."""
    if jobs > 1 and runs is None:
        return check_files([(path, text)], targets, wave, llc, functions, timeout, asm, assume, robust, jobs)
    mod = read_module(path, text)
    planned = plan(path, text, targets, wave)
    if runs is not None:
        planned.instances = [i for i in planned.instances if i.run in runs]
        planned.skipped = [sk for sk in planned.skipped if sk.run in runs]
    inst = planned.instances
    if asm is not None and len(inst) != 1:
        raise InputError(None, f"--asm {asm[0]} is code for one target and wave: give --target and --wave "
                               f"({len(inst)} instances)")
    if asm is not None:  # its .amdgcn_target must be that target
        asm_target(asm[0], asm[1], inst[0].target.name)
    fns = [f for f in mod.functions if not functions or f.name in functions]
    if functions:
        missing = [n for n in functions if n not in {f.name for f in mod.functions}]
        if missing:
            raise InputError(None, f"{path}: no function '{missing[0]}'")
    for f in fns:  # a --wave that contradicts a function's own wave size: an error before any proof
        all(wave_fits(f, i.wave, wave) for i in inst)
    cache: dict[tuple[Any, ...], str | InputError] = {}
    keys: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # (function, compiler, instance) -> its cache key
    batched: list[bool] = []
    compiling = [0.0]  # seconds spent compiling so far

    def make(name: str, cmd: str | None) -> Callable[[Instance, Function | None], Any]:
        def for_instance(ins: Instance, fn: Function | None = None) -> Any:
            def compile_asm(t: Target, w: int) -> str:
                t0 = time.perf_counter()
                try:
                    return cached()
                finally:
                    compiling[0] += time.perf_counter() - t0

            def cached() -> str:
                # per function: a shader with its own triple, the others without graphics shaders
                tag, ftext, fins = conventions.compile_input(text, mod, fn, ins)
                key = (name, *ins.key()) if not tag else (name, *fins.key(), tag)
                if fn is not None:
                    keys[(fn.name, name, ins.key())] = key
                if key not in cache and cmd is None and not batched and not tag:
                    # every instance of the file in one child (a failure: each alone)
                    batched.append(True)
                    cache.update({(name, *k): a for k, a in by_llvmlite_batch(text, inst).items()})
                if key not in cache:
                    try:
                        cache[key] = (by_llvmlite_isolated(ftext, fins) if cmd is None
                                      else by_llc(cmd, path, ftext, fins))
                    except ToolError:  # the --llc command is unusable: an error for the run
                        raise
                    except InputError as e:  # failed once: failed for every function
                        cache[key] = e
                got = cache[key]
                if isinstance(got, InputError) and fn is not None:  # then this function on its own
                    akey = (*key, "alone", fn.name)
                    atext = conventions.alone(ftext, mod, fn)
                    if akey not in cache:
                        try:
                            cache[akey] = got if atext == ftext else (
                                by_llvmlite_isolated(atext, fins) if cmd is None else by_llc(cmd, path, atext, fins))
                        except ToolError:
                            raise
                        except InputError as e:
                            cache[akey] = e
                    keys[(fn.name, name, ins.key())] = akey
                    got = cache[akey]
                if isinstance(got, InputError):
                    raise got
                return dpp_masks(got)[0]
            return compile_asm
        return for_instance

    compilers: list[tuple[str, Callable[[Instance, Function | None], Any]]]
    if asm is not None:
        asm_text = asm[1]

        def given(ins: Instance, fn: Function | None = None) -> Callable[[Target, int], str]:
            return lambda t, w: asm_text
        compilers = [(asm[0], given)]
    elif llc:
        compilers = [(c, make(c, c)) for c in llc]
    else:
        compilers = [("llvmlite", make("llvmlite", None))]
    out = [skipped_result(path, s, compilers[0][0]) for s in planned.skipped if s.counts]
    for fn in fns:
        for ins in inst:
            if ins.only and ins.only != fn.name:  # from another function's target attributes
                continue
            if not wave_fits(fn, ins.wave, wave):  # (its "target-features" fix the other wave size)
                continue
            for cname, comp in compilers:
                label = " ".join([cname, *ins.flags])
                if cname == "llvmlite" and ins.llvmlite_problem():
                    r = TVResult(path, fn.name, ins.target.name, ins.wave, label, "unsupported",
                                 [f"{ins.run}: unsupported: {ins.llvmlite_problem()}"])
                    r.run = ins.run
                    out.append(r)
                    continue
                before = compiling[0]
                try:
                    cpu0 = time.process_time()
                    ftarget = function_target(ins.target, ins.mattr, fn)  # its own "target-features" too
                    r = robustly(partial(prove_function, mod, fn, comp(ins, fn), ftarget, ins.wave, label, timeout),
                                 assume or {}, robust, timeout)
                    r.cpu_seconds = time.process_time() - cpu0
                except ToolError:  # the --llc command is unusable: an error for the run, no verdict
                    raise
                except InputError as e:  # bad input in this function only (an immediate LLVM rejects)
                    r = TVResult(path, fn.name, ins.target.name, ins.wave, label, "error", [str(e)])
                r.compile_seconds = compiling[0] - before
                r.run = ins.run
                got = cache.get(keys.get((fn.name, cname, ins.key()), (cname, *ins.key())))
                r.notes += immediate_notes(fn, got if isinstance(got, str) else None)
                out.append(_finish(r))
    return out


def _finish(r: TVResult) -> TVResult:
    r.seconds = max(0.0, r.seconds - r.compile_seconds)
    if r.verdict in ("unknown", "unsupported") and any(n.startswith("could not compile:") for n in r.notes):
        r.verdict = "compiler error"  # the compiler crashed or failed: a verdict of its own (exit 1)
    return _hazard_verdict(r)


def skipped_result(path: str, s: Skipped, compiler: str) -> TVResult:
    """A RUN line verify cannot use: an unsupported instance of no function,
    naming the line and why (never dropped without a word)."""
    r = TVResult(path, "(every function)", "RUN line", 0, compiler, "unsupported",
                 [f"{s.run}: unsupported: RUN line not used: {s.why}"])
    r.run = s.run
    return r


def _hazard_verdict(r: TVResult) -> TVResult:
    """A proof of code with a hazard warning is unknown: the hazard is not
    covered, so the hardware may not compute what the model does (each
    --robust variant is judged so, before the worst is taken)."""
    if r.verdict == "proved" and r.warnings:
        r.verdict = "unknown"
        r.notes.append("proved for the modelled semantics, but the code has the hazard(s) below")
    return r


@dataclass(frozen=True)
class _Task:
    """One (function, target, wave, compiler) proof, its code compiled."""
    path: str
    text: str
    function: str
    target: str
    wave: int
    compiler: str
    asm: str | None  # None: `error` says why it did not compile
    error: str
    compile_seconds: float
    timeout: float
    assume: tuple[tuple[str, str], ...]
    robust: bool
    run: str = ""  # the instance's RUN line
    fixed: TVResult | None = None  # a result known without proving (a RUN line not used)
    features: frozenset[str] | None = None  # the instance's target's (-mattr: Target.with_llvm_attrs)


_MODULES: dict[tuple[str, str], Module] = {}


def _prove_task(task: _Task) -> TVResult:
    if task.fixed is not None:
        return task.fixed
    key = (task.path, task.text)
    if key not in _MODULES:  # a worker proves many instances of one file
        _MODULES.clear()
        _MODULES[key] = read_module(task.path, task.text)
    mod = _MODULES[key]
    fn = next(f for f in mod.functions if f.name == task.function)

    def compiled(t: Target, w: int) -> str:
        if task.asm is None:
            raise InputError(None, task.error)
        return dpp_masks(task.asm)[0]  # DPP masks as LLVM encodes them (immediates.py)

    try:
        cpu0 = time.process_time()
        target = get(task.target)
        if task.features is not None:  # (the RUN line's -mattr: Target.with_llvm_attrs)
            target = replace(target, features=task.features)
        r = robustly(partial(prove_function, mod, fn, compiled, target, task.wave, task.compiler,
                             task.timeout), dict(task.assume), task.robust, task.timeout)
        r.cpu_seconds = time.process_time() - cpu0
    except InputError as e:  # bad input in this function only (an immediate LLVM rejects)
        r = TVResult(task.path, fn.name, task.target, task.wave, task.compiler, "error", [str(e)])
    r.compile_seconds = task.compile_seconds
    r.seconds += task.compile_seconds  # _finish takes it off again, as for a sequential run
    r.run = task.run
    r.notes += immediate_notes(fn, task.asm)
    return _finish(r)


def check_files(files: list[tuple[str, str]], targets: list[str], wave: int | None, llc: list[str],
                functions: list[str] | None = None, timeout: float = 30.0,
                asm: tuple[str, str] | None = None, assume: dict[str, str] | None = None,
                robust: bool = False, jobs: int = 2) -> list[TVResult]:
    """check_file over several modules, (path, text) each, every instance of
    every file proved in a pool of `jobs` worker processes; the results in
    file order, then as check_file orders them.  Each file's code is
    compiled here first (llvmlite: one child per file), so an input error is
    raised before any proof starts."""
    tasks: list[_Task] = []
    frozen = tuple(sorted((assume or {}).items()))
    for path, text in files:
        mod = read_module(path, text)
        planned = plan(path, text, targets, wave)
        inst = planned.instances
        if asm is not None and len(inst) != 1:
            raise InputError(None, f"--asm {asm[0]} is code for one target and wave: give --target and --wave "
                                   f"({len(inst)} instances)")
        if asm is not None:  # its .amdgcn_target must be that target
            asm_target(asm[0], asm[1], inst[0].target.name)
        if functions:
            missing = [n for n in functions if n not in {f.name for f in mod.functions}]
            if missing:
                raise InputError(None, f"{path}: no function '{missing[0]}'")
        fns = [f for f in mod.functions if not functions or f.name in functions]
        for f in fns:  # a --wave that contradicts a function's own wave size: an error before any proof
            all(wave_fits(f, i.wave, wave) for i in inst)
        codes: dict[tuple[Any, ...], tuple[str | None, str, float]] = {}
        names = [asm[0]] if asm is not None else llc or ["llvmlite"]
        tasks += [_Task(path, text, "", "", 0, names[0], None, "", 0.0, timeout, frozen, robust, sr.run,
                        skipped_result(path, sr, names[0])) for sr in planned.skipped if sr.counts]
        for cname in names:
            t0 = time.perf_counter()
            batch = by_llvmlite_batch(text, inst) if asm is None and not llc and fns else {}
            share = (time.perf_counter() - t0) / max(1, len(inst))
            for ins in inst:
                t1 = time.perf_counter()
                if cname == "llvmlite" and ins.llvmlite_problem():
                    continue
                try:
                    code = (asm[1] if asm is not None else batch.get(ins.key())
                            or (by_llvmlite_isolated(text, ins) if not llc else by_llc(cname, path, text, ins)))
                    got: tuple[str | None, str, float] = (code, "", 0.0)
                except ToolError:  # the --llc command is unusable: an error, no verdict
                    raise
                except InputError as e:
                    got = (None, e.message, 0.0)
                codes[(cname, ins.key())] = (got[0], got[1], share + time.perf_counter() - t1)
        for fn in fns:
            for ins in inst:
                if ins.only and ins.only != fn.name:  # from another function's target attributes
                    continue
                if not wave_fits(fn, ins.wave, wave):  # (its "target-features" fix the other wave size)
                    continue
                for cname in names:
                    label = " ".join([cname, *ins.flags])
                    if cname == "llvmlite" and ins.llvmlite_problem():
                        fixed = TVResult(path, fn.name, ins.target.name, ins.wave, label, "unsupported",
                                         [f"{ins.run}: unsupported: {ins.llvmlite_problem()}"])
                        fixed.run = ins.run
                        tasks.append(_Task(path, text, fn.name, ins.target.name, ins.wave, label, None, "", 0.0,
                                           timeout, frozen, robust, ins.run, fixed, ins.target.features))
                        continue
                    made, err, secs = codes[(cname, ins.key())]
                    tag, ftext, fins = conventions.compile_input(text, mod, fn, ins)
                    for attempt in ("", "alone") if asm is None else ():  # (conventions.py)
                        if attempt:  # the module failed: this function on its own
                            if made is not None:
                                break
                            tag, ftext = f"{tag} alone:{fn.name}", conventions.alone(ftext, mod, fn)
                        if not tag:
                            continue
                        if (cname, fins.key(), tag) not in codes:
                            t2 = time.perf_counter()
                            try:
                                fcode: str | None = (by_llvmlite_isolated(ftext, fins) if not llc
                                                     else by_llc(cname, path, ftext, fins))
                                ferr = ""
                            except ToolError:
                                raise
                            except InputError as e:
                                fcode, ferr = None, e.message
                            codes[(cname, fins.key(), tag)] = (fcode, ferr, time.perf_counter() - t2)
                        made, err, secs = codes[(cname, fins.key(), tag)]
                    first = fn is fns[0]  # the compile time goes with the first function, as in check_file
                    tasks.append(_Task(path, text, fn.name, ins.target.name, ins.wave, label, made, err,
                                       secs if first else 0.0, timeout, frozen, robust, ins.run,
                                       features=function_target(ins.target, ins.mattr, fn).features))
    if jobs <= 1 or len(tasks) <= 1:
        return [_prove_task(t) for t in tasks]
    # the likely longest proofs first (wave64, long code: a wave64 loop runs
    # one proof per EXEC), so that no long one starts last while the other
    # workers idle; the results in the tasks' order all the same
    order = sorted(range(len(tasks)), key=lambda k: (-_weight(tasks[k]), k))
    from ..workers import pool as worker_pool  # (multiprocessing loads with -j only: start-up, issue 35)
    with worker_pool(min(jobs, len(tasks)), ["verify.tv.check", "verify.smt"]) as pool:
        done = list(pool.imap(_prove_task, [tasks[k] for k in order], chunksize=1))
    out: list[TVResult | None] = [None] * len(tasks)
    for k, r in zip(order, done):
        out[k] = r
    return [r for r in out if r is not None]


def _weight(task: _Task) -> int:
    """A task's expected proof cost, for scheduling only: the wave times the
    instructions in its code (no clock: the same order on every run)."""
    n = sum(1 for ln in (task.asm or "").splitlines() if ln.startswith("\t") and ln[1:2].isalpha())
    return task.wave * n
