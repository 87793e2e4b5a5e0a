"""`verify asm`: check real compiler output (AMDGPU assembly as llc prints it)
against specs.

A whole `.s` file is read; directives, labels, comments and metadata are
skipped.  A straight-line region is taken: `--lines A-B`, or by default the
span from the first instruction that writes EXEC, moves data across lanes or
computes a lane id (v_mbcnt) to the last such instruction in the same basic
block.  Registers read before they are written in the region are inputs;
EXEC at entry is symbolic unless `--exec` fixes it.  An instruction outside
the modelled set gives its destinations fresh unknown values and is listed,
so nothing is silently ignored.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import catalog
from .assume import parse_assume
from .diag import InputError, Span, Warning_, read_source
from .ir import Binding, Imm, Instr, Lowering, SReg, VReg
from .lanes import parse_mask
from .machine import Machine
from .ops import MNEMONICS
from .ops.base import UNMODELLED, OpDef, op_of, reg_names
from .refine import Result, prove, prove_exec, static_checks
from .spec import MAX_DEPTH, _depth, _dotted
from .syntax import Line, parse_operand, split_line, strip_comment
from .target import Target, get
from .waits import lgkm_kind

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


class Opaque(OpDef):
    """An instruction verify does not model.  Everything it may write gets
    fresh unknown values (per line, so two runs agree): its destination
    operand(s) as LLVM prints them, a second scalar destination of carry-out
    and VOP3b ops, and EXEC for the ops that write it implicitly (v_cmpx,
    *exec* SALU ops).  Stores, barriers, messages and waits write nothing."""

    unit = "valu"

    def __init__(self, base: str):
        self.base = base
        # the roles the wait tracker reads, from the mnemonic (nothing else is known of it)
        self.wait_counter = "ds" if base.startswith("ds_") else "other" if LGKM_OTHER.match(base) else None
        self.lds_return = bool(DS_RETURNS.match(base))

    def parse(self, line: Line, enc: str) -> Instr:
        ops: list[VReg | SReg | Imm | None] = []
        spans = []
        for text, span in line.operands:
            try:
                ops.append(parse_operand(text, span))
            except InputError:
                ops.append(None)  # an operand form we do not parse (memory offsets, ...)
            spans.append(span)
        mods = tuple(sorted((k, v) for k, v, _ in line.mods))
        return Instr(line.mnemonic, line.mnemonic, tuple(ops), mods, "opaque", line.span, tuple(spans), (), line.text)

    def dests(self, ins: Instr) -> list[VReg | SReg]:
        """The register operands the instruction may write."""
        m = ins.mnemonic
        if not ins.operands or NO_DEST.match(m) or CONTROL.match(m):
            return []
        if "atomic" in m and not any(k in ("glc", "sc0") for k, _ in ins.mods):
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

    def print(self, ins: Instr, target: Target | None = None) -> str:
        return ins.text.split(";")[0].strip()


def parse_line(text: str, span: Span) -> Instr:
    line = split_line(text, span)
    hit = MNEMONICS.get(line.mnemonic)
    if hit is None:
        op = UNMODELLED.setdefault(line.mnemonic, Opaque(line.mnemonic))
        return op.parse(line, "opaque")
    opdef, enc = hit
    return opdef.parse(line, enc)


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


def function_lines(lines: list[AsmLine], name: str | None, path: str) -> list[AsmLine]:
    funcs: dict[str, int] = {}
    for k, ln in enumerate(lines):
        if ln.kind == "label" and not ln.text.startswith(".L"):
            funcs.setdefault(ln.text, k)
    if name is None:
        if not funcs:
            return lines
        name = next(iter(funcs))
    if name not in funcs:
        raise InputError(None, f"{path}: no function '{name}' (functions: {', '.join(funcs) or 'none'})")
    start = funcs[name] + 1
    end = len(lines)
    for k in range(start, len(lines)):
        ln = lines[k]
        if (ln.kind == "label" and not ln.text.startswith(".L")) or \
                (ln.kind == "label" and ln.text.startswith(".Lfunc_end")) or \
                (ln.kind == "directive" and ln.text.startswith(".size")):
            end = k
            break
    return lines[start:end]


def _lane_aware(ins: Instr) -> bool:
    """Writes EXEC, or moves data across lanes / computes a lane id (the op's
    declared role)."""
    op = op_of(ins.base)
    if isinstance(op, Opaque):
        return op.writes_exec(ins)
    return bool({"exec_lo", "exec_hi"} & set(op.defs(ins))) or op.moves_lanes_in(ins)


@dataclass
class Region:
    path: str
    function: str | None
    program: list[Instr]
    first: int
    last: int
    opaque: list[Instr] = field(default_factory=list)
    hoisted: list[Instr] = field(default_factory=list)  # results taken as inputs


def select_region(path: str, lines: list[AsmLine], line_range: tuple[int, int] | None, fname: str | None) -> Region:
    body = [ln for ln in lines]
    for ln in body:
        if ln.kind == "instr":
            ln.ins = parse_line(ln.text, Span(path, ln.lineno, 1))
    if line_range is not None:
        a, b = line_range
        sel = [ln for ln in body if a <= ln.lineno <= b]
        if not any(ln.kind == "instr" for ln in sel):
            raise InputError(None, f"{path}: no instruction in lines {a}-{b}")
        for ln in sel:
            if ln.kind == "label" or (ln.ins is not None and CONTROL.match(ln.ins.mnemonic)):
                what = ln.ins.mnemonic if ln.kind != "label" and ln.ins is not None else "label " + ln.text
                raise InputError(Span(path, ln.lineno, 1),
                                 f"lines {a}-{b} are not straight-line code: {what} at line {ln.lineno}")
        prog = [ln.ins for ln in sel if ln.ins is not None]
    else:
        idx = [k for k, ln in enumerate(body) if ln.ins is not None and _lane_aware(ln.ins)]
        if not idx:
            raise InputError(None, f"{path}: no instruction writes EXEC, moves data across lanes or computes a "
                                   f"lane id; give the region with --lines A-B")
        start = idx[0]
        end = start
        for k in range(start + 1, len(body)):
            ln = body[k]
            if ln.kind == "label" or (ln.ins is not None and CONTROL.match(ln.ins.mnemonic)):
                break
            if ln.ins is not None and _lane_aware(ln.ins):
                end = k
        prog = [ln.ins for ln in body[start:end + 1] if ln.ins is not None]
    # An unmodelled instruction that nothing earlier in the region touches can
    # be moved to the region's start: its result is then simply an input
    # (e.g. the global_load of the value a scan reads).
    kept: list[Instr] = []
    hoisted: list[Instr] = []
    for ins in prog:
        op = op_of(ins.base)
        if isinstance(op, Opaque) and not op.writes_exec(ins) and lgkm_kind(ins) is None:
            # (an LDS or scalar load stays in place: its result lands late)
            mine = set(op.defs(ins)) | set(op.uses(ins))
            earlier = set()
            for e in kept:
                earlier |= set(op_of(e.base).defs(e)) | set(op_of(e.base).uses(e))
            if not (mine & earlier):
                hoisted.append(ins)
                continue
        kept.append(ins)
    opaque = [i for i in kept if isinstance(op_of(i.base), Opaque)]
    return Region(path, fname, kept, prog[0].line, prog[-1].line, opaque, hoisted)


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
    outputs = [Binding(spec.outputs[0], a.lhs, span)]
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


def detect_target(text: str) -> str | None:
    """The target a .s file names in its .amdgcn_target directive, or None."""
    m = re.search(r'\.amdgcn_target\s+"amdgcn-amd-amdhsa--(gfx[0-9a-f]+)', text)
    return m.group(1) if m else None


def detect_wave(text: str, target: Target) -> int | None:
    """The wave size of a .s file for `target`: the only one it runs, else the
    kernel descriptor, else the lane-mask registers the code uses (None: no
    sign of either)."""
    m = re.search(r"\.amdhsa_wavefront_size32\s+(\d)", text)
    if len(target.waves) == 1:
        return target.waves[0]
    if m is not None:
        return 32 if m.group(1) == "1" else 64
    if re.search(r"\b(vcc_lo|exec_lo)\b|saveexec_b32", text):
        return 32
    if re.search(r"\b(vcc|exec)\b|saveexec_b64|s\[\d+:\d+\]", text):
        return 64
    return None


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
        """(instruction, "none" / "input" / "unknown", what it may write), in line order."""
        out = []
        for i in sorted(self.region.hoisted + self.region.opaque, key=lambda i: i.line):
            w = self.writes(i)
            out.append((i, "none" if not w else "input" if i in self.region.hoisted else "unknown", w))
        return out

    def lines(self, times: bool = False, robust: bool = False) -> list[str]:
        """This report as `verify asm` prints it."""
        region = self.region
        out = [f"{self.path}: lines {region.first}-{region.last} ({len(region.program)} instructions) on "
               f"{self.target.name} wave{self.wave}, exec={self.exec_contract}"]
        for i, res, w in self.not_modelled():
            what = {"none": "writes no register", "input": "its result taken as an input"}.get(
                res, "what it writes is unknown: " + ", ".join(w))
            out.append(f"  not modelled, {what}: line {i.line}: {i.text.split(';')[0].strip()}")
        for c in self.checked:
            a, r = c.assertion, c.result
            out.append(f"  {r.verdict:<8} {a.text}" + (f"  ({r.seconds * 1000:.0f} ms)" if times else ""))
            out.append(f"    for {r.scope()}")
            out += r.detail_lines(c.low, robust, cex=a.kind == "spec")
            if c.written_after is not None and isinstance(a.lhs, (VReg, SReg)):
                out.append(f"    note: {a.lhs.text} is written again at line {c.written_after}, after the region "
                           f"(lines {region.first}-{region.last}); --lines {region.first}-{c.written_after} includes it")
        return out

    def to_json(self, times: bool = False) -> dict[str, Any]:
        region = self.region
        return {
            "file": self.path, "function": self.function, "target": self.target.name, "wave": self.wave,
            "exec": self.exec_contract,
            "region": {"first_line": region.first, "last_line": region.last, "instructions": len(region.program)},
            "not_modelled": [{"line": i.line, "instruction": i.text.split(";")[0].strip(), "result": res, "writes": w}
                             for i, res, w in self.not_modelled()],
            "verdict": self.verdict,
            "assertions": [{"assert": c.assertion.text, "verdict": c.result.verdict, "scope": c.result.scope(),
                            "obligations": [{"name": o.name, "verdict": o.verdict, "detail": o.detail}
                                            for o in c.result.obligations],
                            "counterexample": c.result.cex.to_json() if c.result.cex is not None else None,
                            **({"seconds": round(c.result.seconds, 3)} if times else {})}
                           for c in self.checked],
        }


def check_file(path: str, asserts: list[str], target: str | None = None, wave: int | None = None,
               exec: str | None = None, assume: list[str] | None = None, robust: bool = False,
               function: str | None = None, lines: str | None = None, timeout: float = 30.0,
               text: str | None = None) -> AsmReport:
    """Check the assertions `asserts` (``REG == SPEC(...)`` texts) on a region
    of the assembly file `path`: `lines` ("A-B") or the default region of
    `function` (default: the first).  The target and wave size default to
    what the file says; `exec` (a hex mask) fixes EXEC at the region's start;
    `assume` picks variants (NAME=VARIANT).  A vacuous assertion has verdict
    "error" (the caller reports it)."""
    chosen = parse_assume(assume or [])
    if not asserts:
        raise InputError(None, "verify asm needs at least one --assert 'REG == SPEC(...)'")
    if text is None:
        text = read_source(path)
    tname = target or detect_target(text)
    if not tname:
        raise InputError(None, f"{path}: no .amdgcn_target; give --target")
    tgt = get(tname)
    if wave is None:
        wave = detect_wave(text, tgt)
        if wave is None:
            raise InputError(None, f"{path}: cannot tell the wave size; give --wave")
    if wave not in tgt.waves:
        raise InputError(None, f"{tgt.name} runs wave{'/'.join(map(str, tgt.waves))} only, not wave{wave}")
    exec_contract = "any" if not exec else f"{parse_mask(exec, wave):#x}"
    parsed = [parse_assertion(a) for a in asserts]
    body = function_lines(read(path, text), function, path)
    region = select_region(path, body, parse_lines(lines) if lines else None, function)
    checked = []
    for a in parsed:
        if a.kind == "exec":
            low = Lowering(f"{Path(path).name}", path, "", {}, [], [], exec_contract, [], [], None, region.program)
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
