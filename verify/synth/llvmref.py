"""What LLVM itself emits, for the reductions table: the atomic optimizer's DPP
sequence, compiled by llvmlite's LLVM for each target and wave, read back as
assembly and costed under the same model as the synthesised sequences
(cost.py through reduce.instr_cost).

LLVM has no intrinsic that asks for a DPP reduction or scan in a register:
in LLVM 22.1 `llvm.amdgcn.wave.reduce.*` is an iterative loop whatever its
strategy operand says (docs/synthesis-reductions.md).  The one place it emits
its DPP sequences is the atomic optimizer (AMDGPUAtomicOptimizer, strategy
DPP): a divergent `atomicrmw OP` on a uniform address is combined across the
wave first, in whole-wave mode.  So each table row compiles such a kernel:

- ``red.reduce_all``: the atomic's result unused.  LLVM reduces the wave
  (GFX9: an inclusive scan and a readlane of the last lane; GFX10+: a row
  butterfly, permlanex16 and, in wave64, permlane64 or two readlanes).
- ``red.scan_excl``: the atomic's result used.  LLVM computes the inclusive
  scan, shifts it to the exclusive scan and reads the total (the last lane),
  which the table's spec does not ask for.

  For both, counted: every instruction in the whole-wave regions, and every
  instruction after them and before the branch that elects the lane doing
  the atomic that reads what the regions computed (:func:`tail`: the scalar
  combine of two readlanes, the copies).
- ``red.scan_incl``: the same kernel; the inclusive scan is the register
  LLVM reads the total from (``v_readlane_b32 s, v, WAVE-1``).  Counted: the
  instructions in the regions that this register's value depends on, and the
  entry and exit of each region they lie in.

Waits LLVM placed for the counted instructions (``s_nop``, ``s_wait_alu``,
``s_waitcnt_depctr`` just before one) are counted; a GFX11+ dual-issue pair
(``v_dual_X :: v_dual_Y``) is one issue, costed as the dearer of its counted
halves; ``s_delay_alu`` (an issue hint: verify's sequences never carry one)
and waits for the kernel's input load (``s_waitcnt vmcnt``,
``s_wait_loadcnt``) are not.

Compiling runs in a child Python: LLVM's option for the strategy is global to
the process it is set in.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from ..asmcheck import parse_line
from ..diag import InputError, Span
from ..emit import split_vopd
from ..ir import Instr
from ..ops.base import op_of
from ..target import Target, get
from ..tv.compile import _child_env
from .cost import model_for
from .reduce import instr_cost

KERNEL = """target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %in, ptr addrspace(1) %out) {{
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr {ty}, ptr addrspace(1) %in, i32 %id
  %x = load {ty}, ptr addrspace(1) %g
  %old = atomicrmw {op} ptr addrspace(1) %p, {ty} %x syncscope("agent") monotonic{md}
{use}  ret void
}}
!0 = !{{}}
"""

_USE = """  %o = getelementptr {ty}, ptr addrspace(1) %out, i32 %id
  store {ty} %old, ptr addrspace(1) %o
"""

# IR operator per table operator
ATOMIC_OP = {"add": "add", "umax": "umax", "umin": "umin", "smax": "max", "smin": "min", "and": "and",
             "or": "or", "xor": "xor", "fadd": "fadd"}

# the kernels go through verify tv's own compile (verify.tv.compile.by_llvmlite),
# with the atomic optimizer's strategy set first
_CHILD = """
import json, sys
import llvmlite.binding as llvm
from verify.target import get
from verify.tv.compile import by_llvmlite
llvm.set_option("", "-amdgpu-atomic-optimizer-strategy=DPP")
out = [by_llvmlite(ir, get(t), w) for ir, t, w in json.loads(sys.stdin.read())]
json.dump({"version": ".".join(map(str, llvm.llvm_version_info)), "asm": out}, sys.stdout)
"""


def kernel_ir(spec: str, op: str) -> str:
    """The atomic-optimizer kernel that makes LLVM emit its sequence for `spec`."""
    if op not in ATOMIC_OP:
        raise InputError(None, f"no atomicrmw operation for op={op}")
    ty = "float" if op.startswith("f") else "i32"
    use = _USE.format(ty=ty) if spec in ("red.scan_incl", "red.scan_excl") else ""
    # the metadata says what HIP's -munsafe-fp-atomics says: no fine-grained
    # memory, denormals may flush; without it LLVM 22 expands the atomic to
    # a compare-and-swap loop and the optimizer does not run
    md = ", !amdgpu.no.fine.grained.memory !0" + (", !amdgpu.ignore.denormal.mode !0" if ty == "float" else "")
    return KERNEL.format(ty=ty, op=ATOMIC_OP[op], use=use, md=md)


def compile_all(jobs: list[tuple[str, Target, int]]) -> tuple[str, list[str]]:
    """(LLVM version, assembly per (ir, target, wave)), compiled by llvmlite
    with the atomic optimizer's DPP strategy, in one child process."""
    arg = json.dumps([[ir, t.name, w] for ir, t, w in jobs])
    r = subprocess.run([sys.executable, "-c", _CHILD], input=arg, capture_output=True, text=True, timeout=600,
                       check=False, env=_child_env())
    if r.returncode != 0:
        err = (r.stderr.strip().splitlines() or ["?"])[-1]
        raise InputError(None, f"LLVM (llvmlite) failed compiling the atomic-optimizer kernels: {err}")
    got = json.loads(r.stdout)
    return got["version"], got["asm"]


@dataclass(frozen=True)
class Line:
    text: str
    ins: Instr
    src: int  # the printed line: both halves of a GFX11+ dual-issue pair share it


def _body(asm: str) -> list[Line]:
    """The kernel's instructions, in order (labels, directives, comments and
    the metadata dropped; a `v_dual_X :: v_dual_Y` pair as its two ops)."""
    out: list[Line] = []
    raw = [(k, ln.split(";")[0].strip()) for k, ln in enumerate(asm.split("\n.Lfunc_end")[0].splitlines(), 1)]
    for k, s in split_vopd(raw):
        if s and re.match(r"^[a-z][a-z0-9_]*(\s|$)", s) and not s.endswith(":"):
            out.append(Line(s, parse_line(s, Span("<llvm>", k, 1)), k))
    return out


def cost_of(body: list[Line], idx: list[int], target: Target, wave: int) -> int:
    """The cost of the instructions `idx` under the target's model; a
    dual-issue pair is one issue: the dearer of its counted halves."""
    model = model_for(target)
    per: dict[int, int] = {}
    for k in idx:
        per[body[k].src] = max(per.get(body[k].src, 0), instr_cost(body[k].ins, model, wave))
    return sum(per.values())


_ENTRY = re.compile(r"^s_or_saveexec_b(32|64) (s\d+|s\[\d+:\d+\]), -1$")
_NOT_COUNTED = re.compile(r"^(s_delay_alu|s_wait_loadcnt|s_waitcnt vmcnt\(\d+\)$)")
_WAIT = re.compile(r"^(s_nop|s_wait_alu|s_waitcnt_depctr)\b")


def regions(body: list[Line]) -> list[tuple[int, int]]:
    """(entry, exit) index pairs of the whole-wave regions: an
    `s_or_saveexec_bNN X, -1` and the next `s_mov_bNN exec, X`."""
    out: list[tuple[int, int]] = []
    k = 0
    while k < len(body):
        m = _ENTRY.match(body[k].text)
        if m:
            restore = re.compile(rf"^s_mov_b{m.group(1)} exec(_lo)?, {re.escape(m.group(2))}$")
            end = next((j for j in range(k + 1, len(body)) if restore.match(body[j].text)), None)
            if end is None:
                raise InputError(None, f"LLVM's whole-wave region at '{body[k].text}' has no exit")
            out.append((k, end))
            k = end
        k += 1
    return out


def _defs(ins: Instr) -> set[str]:
    return set(op_of(ins.base).defs(ins)) - {"scc"}


def _uses(ins: Instr) -> set[str]:
    # EXEC is the regions' framing, counted by entries and exits, not data
    return set(op_of(ins.base).uses(ins)) - {"exec_lo", "exec_hi"}


def slice_back(body: list[Line], start: int, regs: set[str], lo: int) -> set[int]:
    """Indices in [lo, start) of the instructions the value of `regs` just
    before `start` depends on (a backward data slice)."""
    live, out = set(regs), set()
    for k in range(start - 1, lo - 1, -1):
        ins = body[k].ins
        d = _defs(ins) & live
        if d:
            out.add(k)
            live -= d
            live |= _uses(ins)
    return out


def _with_waits(body: list[Line], idx: set[int]) -> set[int]:
    """`idx` and the waits directly before each of its instructions."""
    out = set(idx)
    for k in sorted(idx):
        j = k - 1
        while j >= 0 and (_WAIT.match(body[j].text) or _NOT_COUNTED.match(body[j].text)):
            if _WAIT.match(body[j].text):
                out.add(j)
            j -= 1
    return out


def tail(body: list[Line], regs: list[tuple[int, int]]) -> set[int]:
    """The instructions outside the regions, before the branch that elects
    the lane doing the atomic (the first `s_cbranch_execz` after the last
    region), that read a value the regions computed, directly or through
    another such instruction: LLVM's copies and scalar combines of the
    regions' results.  EXEC and the saved masks are framing, not results."""
    in_wwm = {k for a, b in regs for k in range(a, b + 1)}
    end = next((k for k in range(regs[-1][1], len(body)) if body[k].text.startswith("s_cbranch_execz")), len(body))
    tainted: set[str] = set()
    out: set[int] = set()
    for k in range(regs[0][0], end):
        ins = body[k].ins
        if k in in_wwm:
            if k not in {a for a, _ in regs}:
                tainted |= _defs(ins)
            tainted -= {"exec_lo", "exec_hi"}
            continue
        if _uses(ins) & tainted:
            out.add(k)
            tainted |= _defs(ins)
        else:
            tainted -= _defs(ins)
    return out


def counted(spec: str, body: list[Line], wave: int) -> list[int]:
    """The indices of the instructions counted for `spec` (module docstring)."""
    regs = regions(body)
    if not regs:
        raise InputError(None, "LLVM's code has no whole-wave region: the atomic optimizer did not use DPP")
    in_wwm = {k for a, b in regs for k in range(a, b + 1)}
    if spec == "red.scan_incl":
        last = rf"^v_readlane_b32 s\d+, (v\d+), {wave - 1}$"
        k = next((i for i in sorted(in_wwm) if re.match(last, body[i].text)), None)
        if k is None:
            raise InputError(None, f"LLVM's code reads no total from lane {wave - 1}: no inclusive scan found")
        src = re.match(last, body[k].text).group(1)  # type: ignore[union-attr]
        idx = slice_back(body, k, {src}, regs[0][0]) & in_wwm
        idx |= {x for a, b in regs if any(a <= i <= b for i in idx) for x in (a, b)}
    else:
        idx = in_wwm | tail(body, regs)
    idx = _with_waits(body, idx)
    return sorted(k for k in idx if not _NOT_COUNTED.match(body[k].text))


def construct(spec: str, op: str) -> str:
    use = "result used" if spec in ("red.scan_incl", "red.scan_excl") else "result unused"
    return f"atomicrmw {ATOMIC_OP[op]}, {use}"


def reference(spec: str, op: str, target: Target, wave: int, asm: str, version: str) -> dict[str, Any]:
    """The table's LLVM entry: what was compiled, the counted sequence and
    its cost under the target's model."""
    body = _body(asm)
    idx = counted(spec, body, wave)
    return {"llvm": version, "construct": construct(spec, op), "cost": cost_of(body, idx, target, wave),
            "sequence": [body[k].text for k in idx]}


def references(rows: list[tuple[str, str, Target, int]]) -> list[dict[str, Any]]:
    """:func:`reference` for each (spec, op, target, wave), compiled together;
    a row LLVM does not optimise gets {"llvm": version, "none": why}."""
    version, asms = compile_all([(kernel_ir(s, o), t, w) for s, o, t, w in rows])
    out: list[dict[str, Any]] = []
    for (s, o, t, w), asm in zip(rows, asms):
        try:
            out.append(reference(s, o, t, w, asm, version))
        except InputError as e:
            out.append({"llvm": version, "construct": construct(s, o), "none": e.message})
    return out


def add_to(index: list[dict[str, Any]]) -> None:
    """Fill each reductions-table entry's "llvm" field (compiled now)."""
    got = references([(e["spec"], e["op"], get(e["target"]), e["wave"]) for e in index])
    for e, ll in zip(index, got):
        e["llvm"] = ll


def compare_lines(spec: str, params: dict[str, Any], targets: list[Target], wave: int,
                  cost: int | None) -> tuple[list[str], list[dict[str, Any]]]:
    """What `verify synth red.*` prints (and puts in its json) beside its
    answer: LLVM's own sequence for the same spec on each target, compiled
    now, with its cost; nothing where LLVM has no such sequence (a tile
    narrower than the wave, over=all, an operator the atomic optimizer does
    not take) or verify searches none (an f32 scan).  A compile that fails is a line saying so, never an error:
    it does not change the search's answer."""
    op = params.get("op")
    if (spec not in ("red.reduce", "red.reduce_all", "red.scan_incl", "red.scan_excl") or op not in ATOMIC_OP
            or params.get("over", "active") != "active" or params.get("width", wave) not in (wave, "wave")
            or (op == "fadd" and spec != "red.reduce_all" and spec != "red.reduce")):
        return [], []
    table_spec = "red.reduce_all" if spec == "red.reduce" else spec
    try:
        got = references([(table_spec, op, t, wave) for t in targets])
    except InputError as e:
        return [f"  LLVM (llvmlite): not compiled: {e.message}"], []
    groups: dict[tuple[Any, ...], list[str]] = {}
    for t, ll in zip(targets, got):
        groups.setdefault((ll.get("cost"), ll.get("none", "")), []).append(t.name)
    out: list[str] = []
    for (c, none), names in groups.items():
        where = ", ".join(names)
        head = f"  LLVM {got[0]['llvm']} (llvmlite; atomic optimizer, DPP; `{got[0]['construct']}`) for {where}"
        if c is None:
            out.append(f"{head}: no sequence read ({none})")
        else:
            diff = "" if cost is None else (f"; this one is cheaper by {c - cost}" if c > cost
                                            else " (the same cost)" if c == cost else f"; LLVM's is cheaper by {cost - c}")
            out.append(f"{head}: cost {c}{diff}")
    js = [{"target": t.name, **ll} for t, ll in zip(targets, got)]
    return out, js
