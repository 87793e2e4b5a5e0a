"""`verify asm`: check real compiler output (AMDGPU assembly as llc prints it)
against specs.

A whole `.s` file is read; directives, labels, comments and metadata are
skipped.  Every function is checked (`--function` picks one), each in its
wave size: the kernel descriptor's, else the target's default, never the
register names [S:asm-wave].  A straight-line region is taken: `--lines
A-B`, or by default the span from the first instruction that writes EXEC,
moves data across lanes or computes a lane id (v_mbcnt) to the last such
instruction in the same basic block, run after the SGPR setup it reads from
its block; a region inside a loop is refused [S:asm-region].  Registers read
before they are written in the region are inputs; a register whose first
access is a memory load's write means the loaded value [S:asm-loads].  EXEC
at entry is symbolic unless `--exec` fixes it.  An instruction outside the
modelled set gives its destinations fresh unknown values and is listed, so
nothing is silently ignored.

An assertion compares a register at the END of the region with a spec
applied to registers at the START:

    v1 == cuda.shfl_xor(v0, mask=5, width=16)   lanes active at entry
    s6 == reduce_add(v4)                         a scalar, against every active lane
    v3 == exclusive_add(v4)
    v1 == hip.shfl(v0, lane=v2)                  a register as a per-lane parameter
    exec == exec                                 EXEC restored
    exec == first_lane(exec)                     EXEC is the first lane active at entry

Each assertion is checked by the same engine as `verify lowering`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import catalog
from .assume import parse_assume
from .diag import InputError, Span, Warning_, read_source
from .ir import Binding, Imm, Instr, Lowering, SReg, VReg
from .lanes import parse_mask
from .machine import Machine
from .ops import MNEMONICS
from .ops import OPS as MODELLED
from .ops.base import UNMODELLED, OpDef, op_of, reg_names
from .refine import Result, prove, prove_exec, static_checks
from .spec import MAX_DEPTH, _depth, _dotted
from .syntax import Line, parse_operand, split_line, strip_comment
from .target import Target, get
from .waits import scalar_early, waits_of

CONTROL = re.compile(r"^(s_cbranch\w*|s_branch|s_setpc_b64|s_swappc_b64|s_endpgm\w*|s_trap|s_rfe_b64|s_call_b64)$")
NO_DEST = re.compile(r"^(global_store|buffer_store|flat_store|scratch_store|ds_write|ds_store|s_store|s_buffer_store|"
                     r"exp|s_barrier|s_sendmsg|s_dcache|s_icache|s_wait|s_setreg|s_ttracedata|s_code_end|"
                     r"buffer_wbinvl|buffer_gl|global_wb|global_inv|s_set)")


# Unmodelled VALU ops whose second operand is a destination (a carry-out or
# VOP3b scalar result, printed explicitly by LLVM: `v_add_co_u32 v5, vcc, ...`).
# [S:asm-unmodelled]
SECOND_DEST = re.compile(r"^v_(\w+_co_\w*|addc_\w+|subb_\w+|subbrev_\w+|div_scale_\w+|mad_u64_u32\w*|mad_i64_i32\w*)$")
# Unmodelled operations counted by s_waitcnt lgkmcnt besides LDS (ds_*): scalar
# memory.  [S:waitcnt]
LGKM_OTHER = re.compile(r"^(s_load|s_buffer_load|s_memtime|s_memrealtime|s_scratch_load|s_atc_probe|s_dcache)")
# DS operations that return a VGPR (the others' first operand is an address)
DS_RETURNS = re.compile(r"^ds_(read|load|swizzle|permute|bpermute|consume|append|ordered_count|gws_sema_release_all)|"
                        r"^ds_\w*_rtn")


# What an unmodelled instruction may write beyond its printed destination, or
# why it cannot be bounded.  [S:asm-unmodelled]


@dataclass(frozen=True)
class Effect:
    """operands: the operand positions it writes (None: the default rule of
    Opaque.dests); scc: it writes SCC; mode: it changes the float rounding /
    denormal mode (MODE), so no float result after it is known; refuse: why
    what it may write cannot be bounded (verify asm refuses the region);
    persists: it sets a mode that later instructions run under, so it is
    refused anywhere in the function (a branch or loop may carry the mode
    into the region)."""

    operands: tuple[int, ...] | None = None
    scc: bool = False
    mode: bool = False
    refuse: str = ""
    persists: bool = False  # a mode it sets stays in effect: it matters anywhere in the function


# first match wins; an instruction matching none follows Opaque.dests' default rule
EFFECTS: tuple[tuple[re.Pattern[str], Effect], ...] = (
    (re.compile(r"^v_(movrel\w*|swaprel\w*)$"),
     Effect((), refuse="it may read or write any VGPR: M0 selects it")),
    (re.compile(r"^s_movrel\w*$"),
     Effect((), refuse="it may read or write any SGPR: M0 selects it")),
    (re.compile(r"^s_set_gpr_idx_(on|mode)$"),
     Effect((), refuse="it may write any VGPR: GPR index mode makes the VGPR operands of the VALU instructions "
                       "after it relative to M0", persists=True)),
    (re.compile(r"^s_set_gpr_idx_idx$"),
     Effect((), refuse="it may write any VGPR: GPR index mode makes the VGPR operands of the VALU instructions "
                       "after it relative to M0")),
    (re.compile(r"^s_setvskip$"),
     Effect((), refuse="it may write any VGPR or none: VSKIP makes the hardware skip the VALU instructions after it",
            persists=True)),
    (re.compile(r"^s_set_vgpr_msb$"),
     Effect((), refuse="it may write any VGPR: it sets the high bits of the VGPR numbers of the instructions after "
                       "it", persists=True)),
    (re.compile(r"^s_(round|denorm)_mode$"), Effect((), mode=True, persists=True)),
    (re.compile(r"^ds_bvh_stack\w*$"), Effect((0, 1))),  # the stack address operand is read and written
    (re.compile(r"^v_(swap_b(16|32)|permlane(16|32)_swap_b32)(_e32|_e64)?$"), Effect((0, 1))),
    (re.compile(r"^s_(cmpk?|bitcmp[01])_\w+$"), Effect((), scc=True)),
    (re.compile(r"^s_sendmsg_rtn_\w+$"), Effect((0,))),
)
# s_setreg*: the MODE bits it may write without refusal (FP_ROUND [3:0],
# FP_DENORM [7:4]); anything else (GFX9's GPR_IDX_EN and VSKIP, the trap and
# exception state) is refused.  [S:asm-unmodelled]
_HWREG = re.compile(r"hwreg\(\s*(\w+)\s*(?:,\s*(\d+)\s*,\s*(\d+)\s*)?\)")
_MODE_NAMES = ("HW_REG_MODE", "HW_REG_WAVE_MODE", "1")
# floating-point instructions: what MODE changes
FLOAT_OP = re.compile(r"(^|_)(b?f16|f32|f64|bf16)($|_)")
# vector memory instructions: what counter their result waits for  [S:waitcnt]
VMEM_KIND: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^flat_(load|atomic)"), "flat"),
    (re.compile(r"^image_bvh"), "bvh"),
    (re.compile(r"^image_"), "sample"),
    (re.compile(r"^(global|buffer|tbuffer|scratch)_(load|atomic)"), "vm"),
)


def effect_of(ins: Instr) -> Effect:
    """The EFFECTS row of an unmodelled instruction (s_setreg decoded from its
    hwreg operand)."""
    m = ins.mnemonic
    if m.startswith("s_setreg"):
        h = _HWREG.search(ins.text.split(";")[0])
        if h is not None and h.group(1) in _MODE_NAMES and h.group(2) is not None \
                and int(h.group(2)) + int(h.group(3)) <= 8:
            return Effect((), mode=True, persists=True)
        return Effect((), persists=True,
                      refuse="it may write any hardware register field, GFX9's GPR index and VALU skip modes "
                             "included; only hwreg(HW_REG_MODE, OFFSET, SIZE) within bits 0-7, the rounding and "
                             "denormal fields, is bounded")
    for pat, eff in EFFECTS:
        if pat.match(m):
            return eff
    return Effect()


class Opaque(OpDef):
    """An instruction verify does not model.  Everything it may write gets
    fresh unknown values (per line, so two runs agree): its destination
    operand(s) as LLVM prints them, a second scalar destination of carry-out
    and VOP3b ops, both operands of swaps, SCC for SALU ops, and EXEC for the
    ops that write it implicitly (v_cmpx, *exec* SALU ops).  Stores, barriers,
    messages and waits write nothing.  What cannot be bounded (M0-relative
    moves, GPR index mode, s_setreg beyond the float mode) is refused, and
    a float instruction after a MODE change is refused (`refusal`).
    [S:asm-unmodelled]"""

    unit = "valu"

    def __init__(self, base: str):
        self.base = base
        # its pipeline, from the mnemonic: a VALU instruction produces and separates
        # VALU hazards; a memory or scalar instruction does neither  [S:hazards]
        self.unit = "valu" if base.startswith("v_") else "salu" if base.startswith("s_") else \
            "ds" if base.startswith("ds_") else "memory"
        # the roles the wait tracker reads, from the mnemonic (nothing else is known of it)
        vm = next((k for pat, k in VMEM_KIND if pat.match(base)), None)
        self.wait_counter = "ds" if base.startswith("ds_") else "other" if LGKM_OTHER.match(base) else vm
        self.lds_return = bool(DS_RETURNS.match(base))

    def parse(self, line: Line, enc: str) -> Instr:
        ops: list[VReg | SReg | Imm | None] = []
        spans = []
        for text, span in line.operands:
            half = re.fullmatch(r"([vs](\d+|\[\d+:\d+\]))\.[lh]", text)
            try:  # a 16-bit half (GFX11+ true16 `v1.l`) stands for its whole register: sound as a write
                ops.append(parse_operand(half.group(1) if half else text, span))
            except InputError:
                ops.append(None)  # an operand form we do not parse (memory offsets, ...)
            spans.append(span)
        mods = tuple(sorted((k, v) for k, v, _ in line.mods))
        return Instr(line.mnemonic, line.mnemonic, tuple(ops), mods, "opaque", line.span, tuple(spans), (), line.text)

    def dests(self, ins: Instr) -> list[VReg | SReg]:
        """The register operands the instruction may write."""
        m = ins.mnemonic
        eff = effect_of(ins)
        if eff.operands is not None:
            return [op for k, op in enumerate(ins.operands) if k in eff.operands and isinstance(op, (VReg, SReg))]
        if not ins.operands or NO_DEST.match(m) or CONTROL.match(m):
            return []
        if "atomic" in m and not any(k in ("glc", "sc0") or "RETURN" in str(v).upper() for k, v in ins.mods):
            return []
        first = ins.operands[0]
        out: list[VReg | SReg] = []
        if m.startswith("v_cmpx"):
            # GFX9 `v_cmpx_* s[0:1], a, b` (or vcc) also writes its first operand;
            # GFX10+ `v_cmpx_* a, b` writes only EXEC, and `a` is a source
            if len(ins.operands) == 3 and isinstance(first, SReg):
                out.append(first)
        elif isinstance(first, (VReg, SReg)):
            out.append(first)
        if len(ins.operands) > 2 and SECOND_DEST.match(m) and isinstance(ins.operands[1], SReg):
            out.append(ins.operands[1])
        return out

    def writes_exec(self, ins: Instr) -> bool:
        m = ins.mnemonic
        return (m.startswith("v_cmpx") or (m.startswith("s_") and "exec" in m)) and not NO_DEST.match(m)

    def writes_scc(self, ins: Instr) -> bool:
        """SALU instructions may write SCC (those that write a register or compare)."""
        return effect_of(ins).scc or (ins.mnemonic.startswith("s_") and bool(self.dests(ins)))

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        return []

    def defs(self, ins: Instr) -> list[str]:
        out = [n for d in self.dests(ins) for n in reg_names(d)]
        if self.writes_exec(ins):
            out += [n for n in ("exec_lo", "exec_hi") if n not in out]
        return out

    def uses(self, ins: Instr) -> list[str]:
        mine = [id(d) for d in self.dests(ins)]
        out = []
        for op in ins.operands:
            if op is not None and id(op) not in mine:
                out += reg_names(op)
        return out + (["exec_lo", "exec_hi"] if self.writes_exec(ins) else [])

    def execute(self, ins: Instr, m: Machine) -> None:
        why = effect_of(ins).refuse
        if why:  # `refusal` stops verify asm before this; nothing else runs an Opaque
            raise InputError(ins.span, f"verify does not model {ins.mnemonic} ({why})")
        for d in self.dests(ins):
            if isinstance(d, VReg):
                for k in range(d.count):
                    name = f"v{d.index + k}@{ins.line}"
                    vals = [m.initial("v", name, i) for i in range(m.W)]
                    m.inputs_read.append(name)
                    m.vregs[d.index + k] = vals
            else:
                for n in d.names:
                    m.set_s(n, m.initial("s", f"{n}@{ins.line}", None))
        if self.writes_exec(ins):
            for n in ("exec_lo", "exec_hi") if m.W == 64 else ("exec_lo",):
                if not any(n in d.names for d in self.dests(ins) if isinstance(d, SReg)):
                    m.set_s(n, m.initial("s", f"{n}@{ins.line}", None))
        if self.writes_scc(ins):
            m.scc = m.initial("scc", f"scc@{ins.line}", None)

    def print(self, ins: Instr, target: Target | None = None) -> str:
        return ins.text.split(";")[0].strip()


def refusal(program: list[Instr], hoisted: list[Instr], outside: Sequence[Instr] = ()) -> InputError | None:
    """Why `verify asm` cannot check a region (the instructions it runs, and
    those moved to its start), or None: an unmodelled instruction whose writes
    cannot be bounded, or a MODE change before a modelled float instruction;
    or, among the function's other instructions (`outside`), one that sets a
    mode the region may run under.  [S:asm-unmodelled]"""
    order = hoisted + program  # hoisted instructions act before everything
    floats = [i for i in order if FLOAT_OP.search(i.mnemonic) and not isinstance(op_of(i.base), Opaque)]
    for k, ins in enumerate(list(outside) + order):
        if not isinstance(op_of(ins.base), Opaque):
            continue
        inside = k >= len(outside)
        eff = effect_of(ins)
        where = "" if inside else f"; a mode it sets may be in effect in the region, lines {min(i.line for i in order)}-" \
                                  f"{max(i.line for i in order)}"
        if eff.refuse and (inside or eff.persists):
            return InputError(ins.span, f"verify does not model {ins.mnemonic} ({eff.refuse}{where})")
        if eff.mode:
            later = next((i for i in floats if not inside or order.index(i) > order.index(ins)), None)
            if later is not None:
                return InputError(ins.span, f"verify does not model {ins.mnemonic} (it changes MODE: the rounding and "
                                            f"denormal handling of {later.mnemonic} at line {later.line} are not "
                                            f"known{where})")
    return None


def parse_line(text: str, span: Span) -> Instr:
    line = split_line(text, span)
    hit = MNEMONICS.get(line.mnemonic)
    if hit is None:
        op = UNMODELLED.setdefault(line.mnemonic, Opaque(line.mnemonic))
        return op.parse(line, "opaque")
    opdef, enc = hit
    try:
        return opdef.parse(line, enc)
    except InputError as e:
        # an operand the syntax does not know (ttmp9, src_shared_base, ...) in
        # compiler output: the instruction is listed as not modelled instead
        if not e.message.startswith("bad operand"):
            raise
        key = f"{line.mnemonic}@opaque"  # not the modelled op's base
        op = UNMODELLED.setdefault(key, Opaque(key))
        return replace(op.parse(line, "opaque"), base=key)


@dataclass
class AsmLine:
    lineno: int
    text: str
    kind: str  # "instr", "label", "directive"
    ins: Instr | None = None


def read(path: str, text: str | None = None) -> list[AsmLine]:
    if text is None:
        text = read_source(path)
    out: list[AsmLine] = []
    in_meta = False
    for k, raw in enumerate(text.splitlines(), 1):
        body = strip_comment(raw).strip()
        if not body:
            continue
        if body.startswith(".amdgpu_metadata") or body == "---":
            in_meta = True
            continue
        if body.startswith(".end_amdgpu_metadata") or body == "...":
            in_meta = False
            continue
        if in_meta:
            continue
        if body.endswith(":") and " " not in body:
            out.append(AsmLine(k, body[:-1], "label"))
        elif body.startswith("."):
            out.append(AsmLine(k, body, "directive"))
        elif re.match(r"^[a-z][a-z0-9_]*(\s|$)", body):
            out.append(AsmLine(k, raw, "instr"))
    return out


def function_spans(lines: list[AsmLine]) -> dict[str, tuple[int, int]]:
    """Every function of the file (a label not starting with `.L`), in file
    order: name -> (index of its first body line, index past its last)."""
    starts = [(ln.text, k) for k, ln in enumerate(lines) if ln.kind == "label" and not ln.text.startswith(".L")]
    out: dict[str, tuple[int, int]] = {}
    for name, k in starts:
        if name in out:
            continue
        end = len(lines)
        for j in range(k + 1, len(lines)):
            ln = lines[j]
            if (ln.kind == "label" and (not ln.text.startswith(".L") or ln.text.startswith(".Lfunc_end"))) or \
                    (ln.kind == "directive" and ln.text.startswith(".size")):
                end = j
                break
        out[name] = (k + 1, end)
    return out


def function_names(lines: list[AsmLine]) -> list[str]:
    """The functions of the file, in file order."""
    return list(function_spans(lines))


def function_lines(lines: list[AsmLine], name: str | None, path: str) -> list[AsmLine]:
    funcs = function_spans(lines)
    if name is None:
        if not funcs:
            return lines
        name = next(iter(funcs))
    if name not in funcs:
        raise InputError(None, f"{path}: no function '{name}' (functions: {', '.join(funcs) or 'none'})")
    a, b = funcs[name]
    return lines[a:b]


def _lane_aware(ins: Instr) -> bool:
    """Writes EXEC, or moves data across lanes / computes a lane id (the op's
    declared role)."""
    op = op_of(ins.base)
    if isinstance(op, Opaque):
        return op.writes_exec(ins)
    return bool({"exec_lo", "exec_hi"} & set(op.defs(ins))) or op.moves_lanes_in(ins)


# A load from memory into VGPRs (not the LDS-writing forms).  [S:asm-loads]
VMEM_LOAD = re.compile(r"^(global|buffer|flat)_load_(?!lds)\w+$")


class LoadedInput(Opaque):
    """A memory load some of whose destination registers are first accessed,
    in the region, by this load: those keep the value they are named by at
    the region's entry (an unknown value, read by nothing else in the region
    but the assertion's inputs), which is thus the value the load delivers.
    The rest of what it writes is fresh and unknown, as for any load.
    [S:asm-loads]"""

    def __init__(self, base: str, keep: tuple[int, ...]):
        super().__init__(base)
        self.keep = keep

    def execute(self, ins: Instr, m: Machine) -> None:
        held = {n: m.v(n) for n in self.keep}
        super().execute(ins, m)
        for n, vals in held.items():
            m.vregs[n] = vals


# A wait for every outstanding vector memory load (vmcnt 0; GFX12 loadcnt 0).  [S:asm-loads]


def _waited_for(after: list[Instr], reg: str) -> bool:
    """Whether nothing in `after` (the region after a load) reads or writes
    `reg` before a wait for every vector memory load: a read before the data
    returns sees the old value, which then may differ from the loaded one."""
    for ins in after:
        if any(c in ("vm", "load") and n == 0 for c, n in waits_of(ins)):
            return True
        op = op_of(ins.base)
        if reg in op.uses(ins) or reg in op.defs(ins):
            return False
    return True


def _is_control(ln: AsmLine) -> bool:
    return ln.kind == "label" or (ln.ins is not None and CONTROL.match(ln.ins.mnemonic) is not None)


def _branch_target(ins: Instr) -> str | None:
    """The label a branch names, or None (an indirect jump, a return)."""
    if not ins.mnemonic.startswith(("s_cbranch", "s_branch")):
        return None
    m = re.search(r"\s(\.?[A-Za-z_.$][\w.$]*)\s*$", ins.text.split(";")[0].strip())
    return m.group(1) if m else None


def back_edge(body: list[AsmLine], first: int, last: int) -> tuple[int, str, int] | None:
    """A branch in the function to a label at or before lines first-last,
    from a line at or after them (the region is in a loop): (branch line,
    label, label line), or None.  [S:asm-region]"""
    labels = {ln.text: ln.lineno for ln in body if ln.kind == "label"}
    for ln in body:
        if ln.ins is None or ln.lineno < last:
            continue
        tgt = _branch_target(ln.ins)
        if tgt is not None and tgt in labels and labels[tgt] <= first:
            return ln.lineno, tgt, labels[tgt]
    return None


def _reads_first(prog: list[Instr]) -> list[str]:
    """The registers the instructions read before writing them, in order."""
    written: set[str] = set()
    out: list[str] = []
    for ins in prog:
        op = op_of(ins.base)
        for n in op.uses(ins):
            if n not in written and n not in out:
                out.append(n)
        written |= set(op.defs(ins))
    return out


EXEC_REGS = {"exec_lo", "exec_hi"}


def _scalar(name: str) -> bool:
    """A scalar register other than EXEC (SGPRs, VCC, M0)."""
    return name.startswith("s") or name.startswith("vcc") or name == "m0"


def sgpr_setup(body: list[AsmLine], start: int, prog: list[Instr]) -> tuple[list[Instr], list[tuple[str, int]]]:
    """The SGPR setup the region (body[start:], program `prog`) depends on:
    the instructions before it, in its basic block, that last write a scalar
    register it reads before writing (and their own such reads, in turn),
    when nothing between them and the region writes what they read; and the
    scalar registers written earlier that stay inputs, with the line of their
    last write.  [S:asm-region]"""
    block = start
    while block > 0 and not _is_control(body[block - 1]):
        block -= 1
    defs: dict[int, set[str]] = {}
    uses: dict[int, set[str]] = {}
    for j in range(start):
        ins = body[j].ins
        if ins is not None:
            op = op_of(ins.base)
            defs[j], uses[j] = set(op.defs(ins)), set(op.uses(ins))
    taken: list[int] = []  # indices into body
    inputs: list[tuple[str, int]] = []
    want = [n for n in _reads_first(prog) if _scalar(n)]
    seen: set[str] = set()
    while want:
        n = want.pop(0)
        if n in seen:
            continue
        seen.add(n)
        k = next((j for j in range(start - 1, -1, -1) if j in defs and j not in taken and n in defs[j]), None)
        if k is None:
            continue
        between = {d for j in range(k + 1, start) if j in defs for d in defs[j]}
        if k >= block and not (EXEC_REGS & (defs[k] | uses[k])) and not ((uses[k] | defs[k]) & between):
            taken.append(k)
            want += [u for u in sorted(uses[k]) if _scalar(u)]
        else:
            inputs.append((n, body[k].lineno))
    return [i for i in (body[j].ins for j in sorted(taken)) if i is not None], inputs


@dataclass
class Region:
    path: str
    function: str | None
    program: list[Instr]
    first: int
    last: int
    opaque: list[Instr] = field(default_factory=list)
    setup: list[Instr] = field(default_factory=list)  # SGPR setup before the region, run first
    sgpr_inputs: list[tuple[str, int]] = field(default_factory=list)  # (register, line of its last write before)
    loaded: dict[str, int] = field(default_factory=dict)  # VGPR -> line of the load that delivers its entry value


def select_region(path: str, lines: list[AsmLine], line_range: tuple[int, int] | None, fname: str | None) -> Region:
    body = [ln for ln in lines]
    for ln in body:
        if ln.kind == "instr" and ln.ins is None:
            ln.ins = parse_line(ln.text, Span(path, ln.lineno, 1))
    setup: list[Instr] = []
    sgpr_inputs: list[tuple[str, int]] = []
    if line_range is not None:
        a, b = line_range
        sel = [ln for ln in body if a <= ln.lineno <= b]
        if not any(ln.kind == "instr" for ln in sel):
            raise InputError(None, f"{path}: no instruction in lines {a}-{b}")
        for ln in sel:
            if _is_control(ln):
                what = ln.ins.mnemonic if ln.kind != "label" and ln.ins is not None else "label " + ln.text
                raise InputError(Span(path, ln.lineno, 1),
                                 f"lines {a}-{b} are not straight-line code: {what} at line {ln.lineno}")
        prog = [ln.ins for ln in sel if ln.ins is not None]
    else:
        idx = [k for k, ln in enumerate(body) if ln.ins is not None and _lane_aware(ln.ins)]
        if not idx:
            raise InputError(None, f"{path}: {fname + ': ' if fname else ''}no instruction writes EXEC, moves data "
                                   f"across lanes or computes a lane id; give the region with --lines A-B")
        start = idx[0]
        end = start
        for k in range(start + 1, len(body)):
            if _is_control(body[k]):
                break
            ins = body[k].ins
            if ins is not None and _lane_aware(ins):
                end = k
        prog = [ln.ins for ln in body[start:end + 1] if ln.ins is not None]
        setup, sgpr_inputs = sgpr_setup(body, start, prog)
    first, last = prog[0].line, prog[-1].line
    loop = back_edge(body, first, last)
    if loop is not None:
        bl, label, ll = loop
        raise InputError(Span(path, first, 1),
                         f"{fname + ': ' if fname else ''}lines {first}-{last} are inside a loop (line {bl} branches "
                         f"back to {label} at line {ll}); verify asm checks straight-line code only, not proved")
    program = setup + prog
    # A memory load writes a fresh unknown value per (line, lane); a register
    # whose first access in the region is such a write keeps the name of its
    # entry value (an input of an assertion then means the loaded value).
    loaded: dict[str, int] = {}
    firsts: dict[str, Instr] = {}
    for ins in program:
        op = op_of(ins.base)
        for n in op.uses(ins) + op.defs(ins):
            firsts.setdefault(n, ins)
    out: list[Instr] = []
    for p, ins in enumerate(program):
        op = op_of(ins.base)
        if isinstance(op, Opaque) and VMEM_LOAD.match(ins.base):
            keep = tuple(int(n[1:]) for n in op.defs(ins)
                         if n.startswith("v") and firsts.get(n) is ins and n not in op.uses(ins)
                         and _waited_for(program[p + 1:], n))
            if keep:
                key = f"{ins.base}@keep:" + ",".join(map(str, keep))
                UNMODELLED.setdefault(key, LoadedInput(ins.base, keep))
                loaded.update({f"v{n}": ins.line for n in keep})
                ins = replace(ins, base=key)
        out.append(ins)
    opaque = [i for i in out if isinstance(op_of(i.base), Opaque)]
    return Region(path, fname, out, first, last, opaque, setup, sgpr_inputs, loaded)


def sound_region(region: Region, body: Sequence[AsmLine] = ()) -> Region:
    """The region, after `refusal` found nothing to refuse among its
    instructions and the rest of the function; a read of a scalar load's SGPR
    before its wait is refused too.  (A VMEM result read before its wait is an
    unknown value: the machine tracks vmcnt/loadcnt.)  [S:asm-unmodelled]
    [S:waitcnt]"""
    mine = {id(i) for i in region.program}
    outside = [ln.ins for ln in body if ln.ins is not None and id(ln.ins) not in mine]
    why = refusal(region.program, [], outside)
    if why is not None:
        raise why
    # the function's text up to the region's end, so that the waits of the
    # SGPR setup the region runs first are seen
    upto = [ln.ins for ln in body if ln.ins is not None and ln.lineno <= region.last] or region.program
    for ins, r, line in scalar_early(upto, lambda i: op_of(i.base).uses(i), lambda i: op_of(i.base).defs(i)):
        if id(ins) not in mine:
            continue
        verb = "reads" if r in op_of(ins.base).uses(ins) else "overwrites"
        raise InputError(ins.span, f"{ins.mnemonic} {verb} {r} before the scalar load of line {line} has returned "
                                   f"(no s_waitcnt lgkmcnt(0) / s_wait_kmcnt 0 covers it): verify does not model "
                                   f"its value there")
    return region


# ---------------------------------------------------------------------------
# assertions


@dataclass
class Assertion:
    text: str
    kind: str  # "spec" or "exec"
    lhs: VReg | SReg | Imm | None = None
    spec: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    args: list[VReg | SReg | Imm] = field(default_factory=list)  # positional input registers
    reg_params: dict[str, VReg | SReg | Imm] = field(default_factory=dict)  # param -> register (per-lane)
    param_spans: dict[str, Span] = field(default_factory=dict)  # param -> its column in the --assert text
    spec_span: Span | None = None
    exec_rhs: str = ""  # "exec" or "first_lane"
    more: list[VReg | SReg] = field(default_factory=list)  # the spec's other outputs, in its order (verify emit)


def _reg(name: str, span: Span) -> VReg | SReg | Imm:
    return parse_operand(name, span)


def parse_assertion(text: str) -> Assertion:
    span = Span("--assert", 1, 1)
    lead = len(text) - len(text.lstrip())

    def at(node: ast.AST) -> Span:  # the column of a part of the assertion text
        return span.shifted(getattr(node, "col_offset", 0) + lead)

    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as e:
        raise InputError(span.shifted((e.offset or 1) - 1), f"cannot parse assertion '{text}': {e.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise InputError(span, f"cannot parse assertion: nested more than {MAX_DEPTH} deep") from None
    if _depth(tree) > MAX_DEPTH:
        raise InputError(span, f"cannot parse assertion: nested more than {MAX_DEPTH} deep")
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.Eq)
            and isinstance(tree.left, ast.Name)):
        raise InputError(span, f"an assertion is REGISTER == SPEC(...), got '{text}'")
    lhs_name = tree.left.id
    rhs = tree.comparators[0]
    if lhs_name in ("exec", "exec_lo"):
        if isinstance(rhs, ast.Name) and rhs.id == lhs_name:
            return Assertion(text, "exec", _reg(lhs_name, span), exec_rhs="exec")
        if isinstance(rhs, ast.Call) and _dotted(rhs.func) == "first_lane" and len(rhs.args) == 1 \
                and isinstance(rhs.args[0], ast.Name) and rhs.args[0].id == lhs_name:
            return Assertion(text, "exec", _reg(lhs_name, span), exec_rhs="first_lane")
        raise InputError(span, f"an EXEC assertion is '{lhs_name} == {lhs_name}' or '{lhs_name} == first_lane({lhs_name})'")
    lhs = _reg(lhs_name, at(tree.left))
    name = _dotted(rhs.func) if isinstance(rhs, ast.Call) else None
    if not isinstance(rhs, ast.Call) or name is None:
        raise InputError(at(rhs), f"the right side of '{text}' must be a spec call, e.g. cuda.shfl_xor(v0, mask=5)")
    a = Assertion(text, "spec", lhs, name)
    a.spec_span = at(rhs)
    for arg in rhs.args:
        if not isinstance(arg, ast.Name):
            raise InputError(at(arg), f"spec inputs are registers, got '{ast.unparse(arg)}'")
        a.args.append(_reg(arg.id, at(arg)))
    for kw in rhs.keywords:
        v = kw.value
        if kw.arg is None:
            raise InputError(at(kw), f"spec parameters are NAME=VALUE, got '**{ast.unparse(v)}'")
        if kw.arg in a.param_spans:
            raise InputError(at(kw), f"parameter {kw.arg} given twice")
        a.param_spans[kw.arg] = at(kw)
        if isinstance(v, ast.Constant) and isinstance(v.value, (int, str)) and not isinstance(v.value, bool):
            a.params[kw.arg] = v.value
        elif isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub) and isinstance(v.operand, ast.Constant) \
                and type(v.operand.value) is int:
            a.params[kw.arg] = -v.operand.value
        elif isinstance(v, ast.Name) and re.fullmatch(r"[vs]\d+", v.id):
            a.reg_params[kw.arg] = _reg(v.id, at(v))
        elif isinstance(v, ast.Name):
            a.params[kw.arg] = v.id  # a bare word: op=add
        else:
            raise InputError(at(v), f"parameter {kw.arg} must be a constant or a register, got '{ast.unparse(v)}'")
        if isinstance(a.params.get(kw.arg), int) and not -(1 << 31) <= a.params[kw.arg] < (1 << 32):
            raise InputError(at(v), f"parameter {kw.arg}={a.params[kw.arg]} does not fit in 32 bits")
    return a


def lowering_for(region: Region, a: Assertion, exec_contract: str) -> Lowering:
    """The region and one assertion as a Lowering for the checker."""
    span = a.spec_span or Span("--assert", 1, 1)
    lib = catalog.speclib()
    spec = lib.get(a.spec, span)
    if len(a.args) != len(spec.inputs):
        raise InputError(span, f"{a.spec} takes {len(spec.inputs)} input register(s) ({', '.join(spec.inputs)}), "
                               f"got {len(a.args)}")
    inputs = [Binding(n, r, span) for n, r in zip(spec.inputs, a.args)]
    params = dict(a.params)
    for p, r in a.reg_params.items():
        params[p] = f"@{p}"
        inputs.append(Binding(p, r, span))
    if a.more and len(a.more) + 1 != len(spec.outputs):
        raise InputError(span, f"{a.spec} has {len(spec.outputs)} outputs, got {len(a.more) + 1}")
    outputs = [Binding(n, r, span) for n, r in zip(spec.outputs, [a.lhs] + list(a.more))]
    low = Lowering(f"{Path(region.path).name}:{region.first}-{region.last}", region.path, a.spec, params, [], [],
                   exec_contract, inputs, outputs, None, region.program,
                   spans={"spec": span, "exec": span}, param_spans=dict(a.param_spans))
    low.check_exec = False
    return low


def parse_lines(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)-(\d+)", text.strip())
    if not m or int(m.group(1)) > int(m.group(2)):
        raise InputError(None, f"--lines expects A-B with A <= B, got '{text}'")
    return int(m.group(1)), int(m.group(2))



# ---------------------------------------------------------------------------
# a whole check: the file, its target and wave, the region, every assertion


@dataclass(frozen=True)
class TargetDirective:
    """One `.amdgcn_target "TRIPLE-PROCESSOR(:FEATURE+|-)*"` line.  [S:asm-target]"""

    text: str  # the quoted string, as written
    processor: str  # gfx900, gfx90a, gfx9-generic
    features: tuple[str, ...]  # ("sramecc+", "xnack-")
    span: Span


_WORD = re.compile(r"(?<![\w.])\.amdgcn_target(?![\w.])")
_DIRECTIVE = re.compile(r'(?<![\w.])\.amdgcn_target\s+"([^"]*)"')
# the target triple's four components (the environment empty), then the target id  [S:asm-target]
_TARGET_ID = re.compile(r"amdgcn-[^-]*-[^-]*-[^-]*-([A-Za-z0-9][A-Za-z0-9-]*)((?::[A-Za-z0-9_-]+[+-])*)")


def target_directives(path: str, text: str) -> list[TargetDirective]:
    """Every `.amdgcn_target` directive of a .s file (comments ignored), in
    order; one whose string is not a target id is an error at its column."""
    out = []
    for k, raw in enumerate(text.splitlines(), 1):
        body = strip_comment(raw)
        word = _WORD.search(body) if ".amdgcn_target" in body else None
        if word is None:
            continue
        m = _DIRECTIVE.search(body)
        if m is None:
            col = word.start() + 1
            raise InputError(Span(path, k, col), '.amdgcn_target expects a quoted target id, e.g. '
                                                 '"amdgcn-amd-amdhsa--gfx900:xnack-"')
        t = _TARGET_ID.fullmatch(m.group(1))
        if t is None:
            raise InputError(Span(path, k, m.start(1) + 1), f'not an AMDGPU target id: "{m.group(1)}" '
                                                        '(expected e.g. "amdgcn-amd-amdhsa--gfx900:xnack-")')
        feats = tuple(f for f in t.group(2).split(":") if f)
        out.append(TargetDirective(m.group(1), t.group(1).lower(), feats, Span(path, k, m.start(0) + 1)))
    return out


def detect_target(text: str) -> str | None:
    """The processor a .s file names in its (first) .amdgcn_target directive, or None."""
    ds = target_directives("<asm>", text)
    return ds[0].processor if ds else None


def asm_target(path: str, text: str, target: str | None) -> Target:
    """The target code in a .s file is checked for: its `.amdgcn_target`
    processor, which a `--target` must agree with (code for one target is
    never validated as another's), else `--target`.  A target LLVM 22 no
    longer knows agrees with the processor it is compiled as (gfx940 with
    gfx942: target.py's llvm_cpu).  Two directives naming different
    processors are an error too.  [S:asm-target]"""
    ds = target_directives(path, text)
    for d in ds[1:]:
        if d.processor != ds[0].processor:
            raise InputError(d.span, f'.amdgcn_target "{d.text}" names {d.processor}, but line '
                                     f'{ds[0].span.line} named {ds[0].processor}: code for one target only')
    if ds and target is not None and ds[0].processor not in (get(target).name, get(target).llvm_cpu):
        d = ds[0]
        raise InputError(d.span, f'--target {target} contradicts .amdgcn_target "{d.text}": this is code '
                                 f'for {d.processor}, not {get(target).name} (drop --target, or compile for it)')
    if ds and target is None:
        return get(ds[0].processor, ds[0].span)
    if target is None:
        raise InputError(None, f"{path}: no .amdgcn_target; give --target")
    return get(target)


def descriptor_wave(text: str, function: str | None = None) -> tuple[int, int] | None:
    """(wave size, line) from the kernel descriptor of `function` (the first
    descriptor of the file when None): `.amdhsa_wavefront_size32 1|0` inside
    `.amdhsa_kernel NAME`.  None: no descriptor (not a kernel), or one that
    leaves the field out (then the target's default).  [S:asm-wave]"""
    cur: str | None = None
    for k, raw in enumerate(text.splitlines(), 1):
        body = strip_comment(raw).strip()
        m = re.match(r"\.amdhsa_kernel\s+(\S+)", body)
        if m:
            cur = m.group(1)
            continue
        if body.startswith(".end_amdhsa_kernel"):
            if function is None and cur is not None:
                return None
            cur = None
            continue
        m = re.match(r"\.amdhsa_wavefront_size32\s+(\d+)", body)
        if m and cur is not None and (function is None or cur == function):
            return (32 if m.group(1) == "1" else 64), k
    return None


# VALU lane-mask operands: `vcc`/`exec` are what LLVM prints in wave64 code,
# `vcc_lo` in wave32 code.  Used to refuse a wave size the code contradicts,
# never to choose one.
_MASK64 = re.compile(r"^(vcc|exec)$")


def lane_mask_conflict(body: list[AsmLine], wave: int) -> tuple[int, int, str] | None:
    """(line, column, operand) of the first VALU lane-mask operand spelled for
    the other wave size (`vcc` in wave32, `vcc_lo` in wave64), or None.  In
    wave64 code `vcc_lo` may also be a 32-bit scalar source (LLVM's gfx12
    `v_writelane_b32 v1, vcc_lo, 0` for a wave32-sized ballot half): only a
    lane-mask operand of a modelled instruction counts then."""
    for ln in body:
        ins = ln.ins
        if ins is None or not ins.mnemonic.startswith("v_"):
            continue
        op = op_of(ins.base)
        kinds = op.sig_for(ins.enc) if ins.base in MODELLED else ()
        for k, (text, span) in enumerate(split_line(ln.text, Span("", ln.lineno, 1)).operands):
            t = text.strip()
            if wave == 64 and t == "vcc_lo" and k < len(kinds) and kinds[k] not in ("mask", "maskdst"):
                continue  # a 32-bit scalar operand
            if (wave == 32 and _MASK64.match(t)) or (wave == 64 and t == "vcc_lo"):
                return ln.lineno, span.col, t
    return None


def detect_wave(text: str, target: Target, function: str | None = None) -> int:
    """The wave size `function` of a .s file runs in on `target`: its kernel
    descriptor's (`.amdhsa_wavefront_size32`), else the target's default
    (wave64 on GFX9, wave32 on GFX10+: LLVM prints no wave size for a
    non-kernel function, nor `+wavefrontsize64` in `.amdgcn_target`).
    Never from register spellings.  [S:asm-wave]"""
    d = descriptor_wave(text, function)
    return d[0] if d is not None else target.waves[0]


def _wave_for(path: str, text: str, tgt: Target, function: str | None, wave: int | None,
              body: list[AsmLine]) -> int:
    """The wave size to check `function` in: --wave, the descriptor or the
    target's default; a conflict between them is an error."""
    d = descriptor_wave(text, function)
    who = f"{function}'s kernel descriptor" if function else "the kernel descriptor"
    if d is not None and d[1] and d[0] not in tgt.waves:
        raise InputError(Span(path, d[1], 1), f"{who} says wave{d[0]}, but {tgt.name} runs "
                                              f"wave{'/'.join(map(str, tgt.waves))} only")
    if wave is not None and d is not None and wave != d[0]:
        raise InputError(Span(path, d[1], 1), f"--wave {wave} contradicts {who}: "
                                              f".amdhsa_wavefront_size32 {1 if d[0] == 32 else 0} (wave{d[0]})")
    if wave is not None and wave not in tgt.waves:
        raise InputError(None, f"{tgt.name} runs wave{'/'.join(map(str, tgt.waves))} only, not wave{wave}")
    w = wave if wave is not None else d[0] if d is not None else tgt.waves[0]
    bad = lane_mask_conflict(body, w)
    if bad is not None:
        line, col, name = bad
        why = ("--wave" if wave is not None else who if d is not None else
               f"{tgt.name}'s default: no kernel descriptor says otherwise")
        raise InputError(Span(path, line, col),
                         f"'{name}' is a wave{64 if w == 32 else 32} lane mask, but {function or 'the code'} runs "
                         f"wave{w} ({why}); give --wave {64 if w == 32 else 32} if it was compiled for it")
    return w


def written_after(lines: list[AsmLine], last: int, reg: VReg | SReg) -> int | None:
    """The first line after `last`, in the same straight-line block, whose
    instruction writes `reg` (the default region may stop before the copy
    that delivers the result)."""
    want = set(reg_names(reg))
    for ln in lines:
        if ln.lineno <= last:
            continue
        if ln.kind == "label" or (ln.ins is not None and CONTROL.match(ln.ins.mnemonic)):
            return None
        if ln.ins is not None and want & set(op_of(ln.ins.base).defs(ln.ins)):
            return ln.lineno
    return None


@dataclass
class Checked:
    """One assertion, the lowering it was checked as, and its result."""

    assertion: Assertion
    low: Lowering
    result: Result
    written_after: int | None = None  # refuted: the line after the region that writes its register


@dataclass
class AsmReport:
    path: str
    function: str | None
    target: Target
    wave: int
    exec_contract: str
    region: Region
    checked: list[Checked]

    @property
    def verdict(self) -> str:
        vs = {c.result.verdict for c in self.checked}
        return next((v for v in ("error", "refuted", "unknown") if v in vs), "proved")

    def warnings(self) -> list[Warning_]:
        """Every assertion's warnings, each once."""
        seen: dict[str, Warning_] = {}
        for c in self.checked:
            for w in c.result.warnings:
                seen.setdefault(str(w), w)
        return list(seen.values())

    def writes(self, ins: Instr) -> list[str]:
        """What an unmodelled instruction may write, in this wave size."""
        return [r for r in op_of(ins.base).defs(ins) if not (self.wave == 32 and r in ("exec_hi", "vcc_hi"))]

    def not_modelled(self) -> list[tuple[Instr, str, list[str]]]:
        """(instruction, "none" / "loaded" / "unknown", what it may write), in line order."""
        out = []
        for i in sorted(self.region.opaque, key=lambda i: i.line):
            w = self.writes(i)
            kept = [r for r in w if self.region.loaded.get(r) == i.line]
            out.append((i, "none" if not w else "loaded" if kept else "unknown", w))
        return out

    def loaded_inputs(self, a: Assertion) -> dict[str, int]:
        """The assertion's input registers that mean the value a load in the
        region delivers: register -> the load's line."""
        regs = [*a.args, *a.reg_params.values()]
        return {n: self.region.loaded[n] for r in regs for n in reg_names(r) if n in self.region.loaded}

    def half_wave_note(self, r: Result) -> str | None:
        """A refutation in which a ds_(b)permute lane wanted a lane of the
        other 32-lane half, under the half-wave rule: that rule, named."""
        half = r.assumptions.get("permute.wave64_half")
        if r.cex is None or r.wave != 64 or half is None or r.assumptions.get("permute.gfx12_wave64") == "full":
            return None
        for row in r.cex.rows:
            m = re.search(r"\[(\d+)\]$", row.expected_src)
            if m and re.search(r"ds_(b)?permute", row.responsible) and int(m.group(1)) // 32 != row.lane // 32:
                reach = "its own 32-lane half" if half == "own" else "lanes 0-31 only"
                return (f"half-wave rule: on {self.target.name} wave64 ds_bpermute/ds_permute reach {reach} "
                        f"(assumption permute.wave64_half={half}, [S:permute-half]); lane {row.lane} wants lane "
                        f"{m.group(1)}, in the other half")
        return None

    def lines(self, times: bool = False, robust: bool = False) -> list[str]:
        """This report as `verify asm` prints it."""
        region = self.region
        fn = f"{self.function}, " if self.function else ""
        out = [f"{self.path}: {fn}lines {region.first}-{region.last} ({len(region.program) - len(region.setup)} "
               f"instructions) on {self.target.name} wave{self.wave}, exec={self.exec_contract}"]
        for i in region.setup:
            if not isinstance(op_of(i.base), Opaque):  # (an unmodelled one is listed below)
                out.append(f"  SGPR setup before the region, run first: line {i.line}: {i.text.split(';')[0].strip()}")
        for n, ln in region.sgpr_inputs:
            out.append(f"  input {n}: written at line {ln}, outside the region's block; taken as an unknown input")
        for i, res, w in self.not_modelled():
            kept = [r for r in w if region.loaded.get(r) == i.line]
            rest = [r for r in w if r not in kept]
            what = {"none": "writes no register",
                    "loaded": f"a load: {', '.join(kept)} at entry means the value it loads"
                              + (f"; unknown: {', '.join(rest)}" if rest else "")}.get(
                res, "what it writes is unknown: " + ", ".join(w))
            before = " (SGPR setup before the region, run first)" if i in region.setup else ""
            out.append(f"  not modelled, {what}: line {i.line}: {i.text.split(';')[0].strip()}{before}")
        for c in self.checked:
            a, r = c.assertion, c.result
            out.append(f"  {r.verdict:<8} {a.text}" + (f"  ({r.seconds * 1000:.0f} ms)" if times else ""))
            out.append(f"    for {r.scope()}")
            for n, ln in self.loaded_inputs(a).items():
                out.append(f"    input {n}: loaded at line {ln} (its value as that load delivers it)")
            out += r.detail_lines(c.low, robust, cex=a.kind == "spec")
            note = self.half_wave_note(r)
            if note is not None:
                out.append(f"    note: {note}")
            if c.written_after is not None and isinstance(a.lhs, (VReg, SReg)):
                out.append(f"    note: {a.lhs.text} is written again at line {c.written_after}, after the region "
                           f"(lines {region.first}-{region.last}); --lines {region.first}-{c.written_after} includes it")
        return out

    def to_json(self, times: bool = False) -> dict[str, Any]:
        region = self.region
        return {
            "file": self.path, "function": self.function, "target": self.target.name, "wave": self.wave,
            "exec": self.exec_contract,
            "region": {"first_line": region.first, "last_line": region.last,
                       "instructions": len(region.program) - len(region.setup),
                       "sgpr_setup": [{"line": i.line, "instruction": i.text.split(";")[0].strip()} for i in region.setup],
                       "sgpr_inputs": [{"register": n, "written_at": ln} for n, ln in region.sgpr_inputs]},
            "not_modelled": [{"line": i.line, "instruction": i.text.split(";")[0].strip(), "result": res, "writes": w}
                             for i, res, w in self.not_modelled()],
            "verdict": self.verdict,
            "assertions": [{"assert": c.assertion.text, "verdict": c.result.verdict, "scope": c.result.scope(),
                            "obligations": [{"name": o.name, "verdict": o.verdict, "detail": o.detail}
                                            for o in c.result.obligations],
                            "loaded": self.loaded_inputs(c.assertion),
                            "note": self.half_wave_note(c.result),
                            "counterexample": c.result.cex.to_json() if c.result.cex is not None else None,
                            **({"seconds": round(c.result.seconds, 3)} if times else {})}
                           for c in self.checked],
        }


class NoRegion(InputError):
    """A function with no cross-lane code to check."""


class InLoop(InputError):
    """A region inside a loop: refused, never proved."""


def _target_of(path: str, text: str, target: str | None) -> Target:
    return asm_target(path, text, target)


def _function_of_lines(lines: list[AsmLine], line_range: tuple[int, int]) -> str | None:
    """The function whose body holds line A of --lines A-B (None: no function labels)."""
    for name, (a, b) in function_spans(lines).items():
        if a < len(lines) and lines[a - 1].lineno <= line_range[0] and (b >= len(lines) or line_range[0] < lines[b].lineno):
            return name
    return None


def check_file(path: str, asserts: list[str], target: str | None = None, wave: int | None = None,
               exec: str | None = None, assume: list[str] | None = None, robust: bool = False,
               function: str | None = None, lines: str | None = None, timeout: float = 30.0,
               text: str | None = None) -> AsmReport:
    """Check the assertions `asserts` (``REG == SPEC(...)`` texts) on a region
    of one function of the assembly file `path`: `lines` ("A-B", in the
    function that holds line A) or the default region of `function`
    (default: the first).  The target and wave size default to what the
    file says (`.amdgcn_target`; the kernel descriptor, else the target's
    default wave size); `exec` (a hex mask) fixes EXEC at the region's
    start; `assume` picks variants (NAME=VARIANT).  A vacuous assertion has
    verdict "error" (the caller reports it)."""
    chosen = parse_assume(assume or [])
    if not asserts:
        raise InputError(None, "verify asm needs at least one --assert 'REG == SPEC(...)'")
    if text is None:
        text = read_source(path)
    tgt = _target_of(path, text, target)
    parsed = [parse_assertion(a) for a in asserts]
    span = parse_lines(lines) if lines else None
    all_lines = read(path, text)
    if function is None:
        names = function_names(all_lines)
        function = (_function_of_lines(all_lines, span) if span else None) or (names[0] if names else None)
    body = function_lines(all_lines, function, path)
    for ln in body:
        if ln.kind == "instr" and ln.ins is None:
            ln.ins = parse_line(ln.text, Span(path, ln.lineno, 1))
    wave = _wave_for(path, text, tgt, function, wave, body)
    exec_contract = "any" if not exec else f"{parse_mask(exec, wave):#x}"
    try:
        region = select_region(path, body, span, function)
    except InputError as e:
        if span is None and "no instruction writes EXEC" in e.message:
            raise NoRegion(e.span, e.message) from None
        if "inside a loop" in e.message:
            raise InLoop(e.span, e.message) from None
        raise
    region = sound_region(region, body)
    checked = []
    for a in parsed:
        if a.kind == "exec":
            low = Lowering(f"{Path(path).name}", path, "", {}, [], [], exec_contract, [], [], None, region.program)
            for ins in low.program:  # legality on the target, as for a spec claim (its warnings are static_checks')
                op_of(ins.base).check(ins, tgt, wave)
            r = prove_exec(low, tgt, wave, a.exec_rhs, timeout, chosen)
        else:
            low = lowering_for(region, a, exec_contract)
            warns = static_checks(low, tgt, wave)
            r, _ = prove(low, tgt, wave, timeout, chosen, robust)
            r.warnings = warns
        later = None
        if r.verdict == "refuted" and a.kind == "spec" and not lines and isinstance(a.lhs, (VReg, SReg)):
            later = written_after(body, region.last, a.lhs)
        checked.append(Checked(a, low, r, later))
    return AsmReport(path, function, tgt, wave, exec_contract, region, checked)


@dataclass
class Skipped:
    """A function of the file that was not checked: "skipped" (no cross-lane
    code) or "refused" (its region is inside a loop)."""

    function: str
    kind: str
    message: str


@dataclass
class AsmFile:
    """`verify asm` on a file: one block per function checked."""

    path: str
    blocks: list[AsmReport | Skipped]

    @property
    def reports(self) -> list[AsmReport]:
        return [b for b in self.blocks if isinstance(b, AsmReport)]

    @property
    def checked(self) -> list[Checked]:
        return [c for r in self.reports for c in r.checked]

    @property
    def refused(self) -> list[Skipped]:
        return [b for b in self.blocks if isinstance(b, Skipped) and b.kind == "refused"]

    @property
    def verdict(self) -> str:
        vs = {r.verdict for r in self.reports} | ({"unknown"} if self.refused else set())
        return next((v for v in ("error", "refuted", "unknown") if v in vs), "proved")

    def lines(self, times: bool = False, robust: bool = False) -> list[str]:
        out: list[str] = []
        for b in self.blocks:
            if isinstance(b, AsmReport):
                out += b.lines(times, robust)
            else:
                out.append(f"{self.path}: {b.function}: {b.kind}: {b.message}")
        return out

    def to_json(self, times: bool = False) -> dict[str, Any]:
        """One function: its report; several: {"file", "verdict", "functions": [...]}."""
        if len(self.blocks) == 1 and isinstance(self.blocks[0], AsmReport):
            return self.blocks[0].to_json(times)
        return {"file": self.path, "verdict": self.verdict,
                "functions": [b.to_json(times) if isinstance(b, AsmReport) else
                              {"function": b.function, "verdict": b.kind, "message": b.message}
                              for b in self.blocks]}


def check_all(path: str, asserts: list[str], target: str | None = None, wave: int | None = None,
              exec: str | None = None, assume: list[str] | None = None, robust: bool = False,
              function: str | None = None, lines: str | None = None, timeout: float = 30.0,
              text: str | None = None) -> AsmFile:
    """`verify asm`: with `function` or `lines`, that one function (as
    check_file); else every function of the file, each in its own wave size.
    In a file of several functions, one without cross-lane code is skipped
    and one whose region is in a loop refused (both named in the output);
    with one function, or when every function is skipped, that is an
    error."""
    if text is None:
        text = read_source(path)
    names = function_names(read(path, text))
    if function is not None or lines is not None or len(names) <= 1:
        return AsmFile(path, [check_file(path, asserts, target, wave, exec, assume, robust, function, lines, timeout,
                                         text)])
    blocks: list[AsmReport | Skipped] = []
    first_error: InputError | None = None
    for name in names:
        try:
            blocks.append(check_file(path, asserts, target, wave, exec, assume, robust, name, None, timeout, text))
        except NoRegion as e:
            first_error = first_error or e
            blocks.append(Skipped(name, "skipped", e.message.split(": ", 2)[-1]))
        except InLoop as e:
            blocks.append(Skipped(name, "refused", f"line {e.span.line if e.span else '?'}: "
                                                   + e.message.split(": ", 1)[-1]))
    if not any(isinstance(b, AsmReport) for b in blocks) and not any(b.kind == "refused" for b in blocks
                                                                         if isinstance(b, Skipped)):
        assert first_error is not None
        raise first_error
    return AsmFile(path, blocks)
