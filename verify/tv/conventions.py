"""Calling conventions of `verify tv` beyond kernels and plain functions:
the shaders ``amdgpu_ps``, ``amdgpu_cs``, ``amdgpu_vs`` and the callable
``amdgpu_gfx`` (docs/tv.md, "Calling conventions").

What each convention fixes, from LLVM's AMDGPUCallingConv.td and
SIISelLowering (LLVM 22)  [S:shader-cc]:

* shaders: ``inreg`` arguments in s0, s1, ... (a 64-bit one in the next
  two, unaligned), the others in v0, v1, ... (CC_SI); an ``amdgpu_ps`` skips the
  VGPRs of an argument it never uses, and reserves v0-v1 when none of its
  first seven inputs is allocated (SITargetLowering::LowerFormalArguments);
  the result's 32-bit pieces go to s0, s1, ... (integers) and v0, v1, ...
  (floats), RetCC_SI_Shader; the code ends with no return instruction
  ("return to shader part epilog"), or ``s_endpgm`` for a void shader; an
  entry function: no entry wait for a caller's loads;
* ``amdgpu_gfx``: a callable function (returns with ``s_setpc_b64``,
  the result in v0, ...), its ``inreg`` arguments from s4 (s0-s3 hold the
  scratch resource).

The entry EXEC: any non-empty mask (``amdgpu_ps`` under the assumption
``shader.ps_entry_exec``; ``amdgpu_cs`` under ``kernel.entry_exec``, as
a compute dispatch); an integer piece of a shader's result, returned in an
SGPR, is compared under ``shader.sgpr_return``.

Per function, not per file: an HSA triple refuses graphics shaders, so a
module mixing them with kernels is compiled twice: the shaders with the RUN
line's own triple (``amdgcn`` with no OS where it names none), the other
functions with the graphics shaders left out (:func:`compile_input`).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import replace
from typing import Any

from ..assume import ASSUMPTIONS
from .llir import Function, Module
from .runlines import Instance
from .types import TType, ttype

CALLABLE = ("", "ccc", "fastcc", "amdgpu_gfx")
SHADERS = ("amdgpu_ps", "amdgpu_cs", "amdgpu_vs")
# what LLVM refuses to compile for an HSA triple ("unsupported non-compute shaders with HSA": amdgpu_cs and
# amdgpu_gfx too, llc-22)
GRAPHICS = ("amdgpu_ps", "amdgpu_vs", "amdgpu_gs", "amdgpu_hs", "amdgpu_es", "amdgpu_ls", "amdgpu_cs", "amdgpu_gfx")


def is_shader(fn: Function) -> bool:
    return fn.cc in SHADERS


def _shader_type_ok(ty: str, arg: bool = False) -> TType | None:
    """A type a shader's argument or result may have in verify: 32-bit
    scalars and vectors of them, 64-bit scalars (i64, double, a 64-bit
    pointer) and vectors of them, each element two 32-bit pieces, low first,
    integers all (a double result's pieces go to SGPRs, as an i64's: llc-22)
    [S:shader-cc]; and as an argument, a 16-bit scalar (i16, half, bfloat:
    its own register, the value in bits 15:0, the bits above unknown) or an
    even vector of 16-bit elements (two to a register), as CC_SI_SHADER
    assigns them (llc-22)  [S:shader-arg16]."""
    tt = ttype(ty)
    if tt is None or ty.strip() == "i1":
        return None
    if tt.bits == 64 and tt.kind in ("int", "fp", "ptr"):
        return tt
    if tt.n is None:
        if arg and tt.bits == 16 and tt.kind in ("int", "fp"):
            return tt
        return tt if tt.bits == 32 else None
    if arg and tt.bits == 16 and tt.n % 2 == 0 and tt.kind in ("int", "fp"):
        return tt
    return tt if tt.bits == 32 else None


def problems(fn: Function) -> list[str]:
    """Why verify cannot check this function's convention (empty: it can)."""
    where = f"{fn.span.path}:{fn.span.line}:{fn.span.col}"
    if fn.cc not in CALLABLE and fn.cc not in SHADERS:
        return [f"{where}: unsupported: calling convention {fn.cc}"]
    if not is_shader(fn):
        return []
    out: list[str] = []
    for a in fn.args:
        if _shader_type_ok(a.type, arg=True) is None:
            out.append(f"{where}: unsupported: {fn.cc} argument {a.name} of type {a.type}")
    if fn.ret != "void" and _shader_type_ok(fn.ret) is None:
        out.append(f"{where}: unsupported: {fn.cc} return type {fn.ret}")
    if fn.cc == "amdgpu_ps" and "InitialPSInputAddr" in fn.attrs:
        out.append(f"{where}: unsupported: amdgpu_ps with InitialPSInputAddr (its inputs' VGPRs are not modelled)")
    if fn.cc == "amdgpu_ps" and sum(1 for a in fn.args if not a.inreg) > 7:
        out.append(f"{where}: unsupported: amdgpu_ps with more than 7 VGPR inputs (LLVM's PS input rules "
                   f"for them are not modelled)")
    return out


def _used(fn: Function, key: str) -> bool:
    return any(o.key == key for i in fn.insts for o in i.operands)


def arg_regs(fn: Function, default_first_sgpr: int) -> list[tuple[str, str, int, int]] | None:
    """(arg key, "v"/"s", first register, registers) per argument in `fn`'s
    convention; None: the convention of plain functions (the caller's own
    rule, `default_first_sgpr` its first SGPR)  [S:shader-cc]."""
    if not is_shader(fn) and fn.cc != "amdgpu_gfx":
        return None
    out: list[tuple[str, str, int, int]] = []
    ns = 4 if fn.cc == "amdgpu_gfx" else 0
    nv = 0
    if fn.cc == "amdgpu_ps":
        # LLVM skips an input never used; bits 0-6 (the PERSP/LINEAR inputs) none allocated: v0-v1 reserved
        vargs = [a for a in fn.args if not a.inreg]
        alloc = {k for k, a in enumerate(vargs) if _used(fn, a.key)}
        if not alloc & set(range(7)):
            nv = 2
    for a in fn.args:
        tt = ttype(a.type)
        n = tt.registers if tt is not None else 1
        if a.inreg:
            out.append((a.key, "s", ns, n))
            ns += n
        elif fn.cc == "amdgpu_ps" and not _used(fn, a.key):
            out.append((a.key, "v", -1, n))  # skipped: no register (its value unused)
        else:
            out.append((a.key, "v", nv, n))
            nv += n
    return out


def ret_locations(fn: Function) -> list[tuple[str, int, bool]]:
    """A shader's result: per 32-bit piece (kind "s"/"v", register, float)
    (RetCC_SI_Shader: integers in SGPRs, floats in VGPRs)  [S:shader-cc]."""
    tt = _shader_type_ok(fn.ret)
    assert tt is not None
    count = (tt.n or 1) * (2 if tt.bits == 64 else 1)
    out: list[tuple[str, int, bool]] = []
    ns = nv = 0
    for _ in range(count):
        if tt.kind == "fp" and tt.bits != 64:  # a double's pieces are integers: SGPRs
            out.append(("v", nv, True))
            nv += 1
        else:
            out.append(("s", ns, False))
            ns += 1
    return out


def entry_contract(B: Any, fn: Function, exec_bits: list[Any], assume: dict[str, str]) -> tuple[list[Any], dict[str, str]]:
    """The constraints on a shader's entry EXEC beyond "not empty", and the
    assumptions they rest on  [S:shader-entry-exec]."""
    W = len(exec_bits)
    if fn.cc == "amdgpu_ps":
        v = assume.get("shader.ps_entry_exec", ASSUMPTIONS["shader.ps_entry_exec"].default)
        if v == "quads":  # each quad all on or all off
            return [B.eq(exec_bits[i], exec_bits[i & ~3]) for i in range(W) if i & 3], {"shader.ps_entry_exec": v}
        return [], {"shader.ps_entry_exec": v}
    if fn.cc == "amdgpu_cs":
        v = assume.get("kernel.entry_exec", ASSUMPTIONS["kernel.entry_exec"].default)
        if v == "prefix":
            return ([B.or_b(B.not_b(exec_bits[i + 1]), exec_bits[i]) for i in range(W - 1)] + [exec_bits[0]],
                    {"kernel.entry_exec": v})
        return [], {"kernel.entry_exec": v}
    return [], {}


def ret_check(B: Any, fn: Function, pieces: list[Any], regs: dict[tuple[str, int], list[Any]],
              exec_bits: list[Any], assume: dict[str, str]) -> tuple[list[Any], list[list[Any]], dict[str, str]]:
    """Per lane, whether the shader's result there fails to refine the IR's
    (`pieces`: the IR result's 32-bit pieces, sem.Lanes), the GPU's value of
    each piece per lane, and the assumptions consulted.  A VGPR piece is
    compared lane by lane; an SGPR piece under ``shader.sgpr_return``
    [S:shader-sgpr-return]."""
    W = len(exec_bits)
    locs = ret_locations(fn)
    used: dict[str, str] = {}
    got: list[list[Any]] = []
    bad_per_lane: list[list[Any]] = [[] for _ in range(W)]
    for (kind, r, is_float), p in zip(locs, pieces):
        vals = regs[(kind, r)]
        got.append(vals)
        for i in range(W):
            differ = B.not_b(B.feq(vals[i], p.vals[i])) if is_float else B.ne(vals[i], p.vals[i])
            bad_per_lane[i].append((p, differ))
        if kind == "s":
            used["shader.sgpr_return"] = assume.get("shader.sgpr_return",
                                                    ASSUMPTIONS["shader.sgpr_return"].default)
    lane_bad: list[Any] = []
    # lane i is the lowest active lane
    first = [B.and_b(exec_bits[i], B.not_b(B.or_b(*exec_bits[:i]))) if i else exec_bits[0] for i in range(W)]
    uniform: dict[int, Any] = {}
    for k, ((kind, _r, _f), p) in enumerate(zip(locs, pieces)):
        if kind == "s" and used["shader.sgpr_return"] == "uniform":
            # the IR's value in every active lane is defined and that of the lowest active lane
            low = p.vals[W - 1]
            for i in reversed(range(W - 1)):
                low = B.ite(exec_bits[i], p.vals[i], low)
            uniform[k] = B.and_b(*(B.or_b(B.not_b(exec_bits[j]), B.and_b(B.not_b(p.poison[j]), B.eq(p.vals[j], low)))
                                   for j in range(W)))
    for i in range(W):
        terms = []
        for k, ((kind, _r, _f), (p, differ)) in enumerate(zip(locs, bad_per_lane[i])):
            if kind == "s":  # one SGPR for the wave: checked in the lowest active lane
                base = B.and_b(first[i], B.not_b(p.poison[i]), differ)
                if k in uniform:
                    base = B.and_b(base, uniform[k])
            else:
                base = B.and_b(exec_bits[i], B.not_b(p.poison[i]), differ)
            terms.append(base)
        lane_bad.append(B.or_b(*terms))
    return lane_bad, got, used


# ---------------------------------------------------------------------------
# compiling per function


def _raw_triple(cmd: str) -> str:
    """The -mtriple (or -march) the RUN line's llc command names, as written."""
    try:
        words = shlex.split(cmd)
    except ValueError:
        words = cmd.split()
    triple = march = ""
    for k, w in enumerate(words):
        for name in ("mtriple", "march"):
            if w.lstrip("-").startswith(name + "=") and w.startswith("-"):
                val = w.split("=", 1)[1]
            elif w.lstrip("-") == name and w.startswith("-") and k + 1 < len(words):
                val = words[k + 1]
            else:
                continue
            if name == "mtriple":
                triple = val
            else:
                march = val
    return triple or march


def _module_triple(text: str) -> str:
    m = re.search(r'^\s*target\s+triple\s*=\s*"([^"]+)"', text, re.M)
    return m.group(1) if m and m.group(1).startswith("amdgcn") else ""


def _is_hsa(triple: str) -> bool:
    parts = triple.split("-")
    return len(parts) > 2 and parts[2].lower().startswith("amdhsa")


def without(text: str, mod: Module, names: set[str]) -> str:
    """The module text with the definitions of the functions `names` left
    out (each from its `define` line to the closing brace at column 0)."""
    lines = text.splitlines(keepends=True)
    drop: set[int] = set()
    for f in mod.functions:
        if f.name not in names:
            continue
        k = f.span.line - 1
        while k < len(lines) and not lines[k].startswith("define"):
            k += 1
        start = k
        while k < len(lines) and lines[k].rstrip() != "}" and not (k == start and lines[k].rstrip().endswith("}")):
            k += 1
        drop.update(range(start, k + 1))
    return "".join(ln for k, ln in enumerate(lines) if k not in drop)


def compile_input(text: str, mod: Module, fn: Function | None, ins: Instance) -> tuple[str, str, Instance]:
    """How `fn` is compiled for `ins`: (tag, module text, instance).  Tag ''
    is the module as the RUN line compiles it (every function of the file
    shares that code).  A shader gets the RUN line's triple (a triple
    without OS where the RUN line and module name none, not the HSA triple
    verify uses for kernels); the other functions of a module that defines
    graphics shaders get the module without them when their triple is HSA
    (which refuses graphics shaders for the whole module)."""
    if fn is None:
        return "", text, ins
    usual = ins.triple or _module_triple(text) or "amdgcn-amd-amdhsa"
    if fn.cc in GRAPHICS:
        triple = (_raw_triple(ins.cmd) if ins.cmd else "") or _module_triple(text) or "amdgcn--"
        if triple.split("-")[0].lower() != "amdgcn":  # (an amdgpuN.N subarch spelling: its normal form)
            triple = ins.triple or "amdgcn--"
        if triple == usual:
            return "", text, ins
        return f"triple:{triple}", text, replace(ins, triple=triple)
    graphics = {f.name for f in mod.functions if f.cc in GRAPHICS}
    if graphics and _is_hsa(usual):
        return "no-graphics", without(text, mod, graphics), ins
    return "", text, ins


def alone(text: str, mod: Module, fn: Function) -> str:
    """The module with only `fn` and the functions it refers to (in turn)
    defined: when the module does not compile as a whole, a function LLVM
    fails on affects that function alone."""
    by_name = {f.name: f for f in mod.functions}
    keep = {fn.name}
    todo = [fn]
    while todo:
        f = todo.pop()
        for i in f.insts:
            for name in re.findall(r"@([\w.$-]+)", i.text):
                if name in by_name and name not in keep:
                    keep.add(name)
                    todo.append(by_name[name])
    return without(text, mod, {f.name for f in mod.functions} - keep)
