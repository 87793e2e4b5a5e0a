"""The differential legality sweep: every op of the registry, each constant
class, a 16-bit and a 32-bit literal, an SGPR and a VGPR in each source slot,
on a target and wave, compared with what llvm-mc-22 accepts (one llvm-mc run
per target and wave, its errors carrying line numbers).  Used by
tests/test_literals.py (a sample in the fast tier, the whole sweep under the
``corpus`` marker) and benchmarks/legality_sweep.py.  [S:legality]"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass

from verify.diag import InputError, Span
from verify.ir import Instr
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.target import Target

MC = shutil.which("llvm-mc-22")

# the operand forms tried in each source slot: (class, text)
FORMS: list[tuple[str, str]] = [
    *[("int", str(v)) for v in (-64, -17, -16, -1, 0, 1, 16, 63, 64, 65)],
    *[("float", v) for v in ("0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.0", "-0.0")],
    ("inv2pi", "0.15915494"),
    ("f32-pattern", "0x3f800000"), ("f32-pattern", "0xc0800000"), ("f32-pattern", "0x3e22f983"),
    ("f16-pattern", "0x3c00"), ("f16-pattern", "0xc400"), ("f16-pattern", "0x3118"),
    ("lit16", "0x1234"), ("lit16", "0xffff"), ("lit16", "0xfff0"), ("lit16", "-1000"),
    ("float-literal", "0.1"), ("float-literal", "70000.0"), ("float-literal", "1e-10"),
    ("lit32", "0x12345678"), ("lit32", "2.5"), ("lit32", "0x80000000"),
    ("sgpr", "s2"), ("vgpr", "v5"),
]
WIDE = {"s2": "s[2:3]", "v5": "v[4:5]"}  # the register forms in a 64-bit slot
SLOT_KINDS = ("src", "ssrc", "ssrc64", "src64", "src16", "mask")


def base_ops(sig: tuple[str, ...], wave: int) -> list[str]:
    """Register operands for a signature: every VGPR source a different VGPR."""
    mask = "vcc" if wave == 64 else "vcc_lo"
    fixed = {"vdst": "v0", "vdst64": "v[0:1]", "vdst16": "v0.l", "sdst": "s0", "sdst64": "s[0:1]",
             "maskdst": mask, "mask": mask, "ssrc": "s4", "ssrc64": "s[4:5]"}
    out, nv = [], 1
    for kind in sig:
        if kind in fixed:
            out.append(fixed[kind])
        elif kind in ("src", "vgpr"):
            out.append(f"v{nv}")
            nv += 1
        elif kind == "src16":
            out.append(f"v{nv}.l")
            nv += 1
        elif kind == "src64":
            out.append(f"v[{2 * nv + 6}:{2 * nv + 7}]")
            nv += 1
        else:
            raise AssertionError(kind)
    return out


@dataclass(frozen=True)
class Case:
    line: str
    op: str  # base
    mnemonic: str
    slot: int
    form: str  # the operand form's class


def cases(wave: int, bases: Iterable[str] | None = None) -> list[Case]:
    """Every (mnemonic, source slot, operand form) line for a wave size."""
    out: list[Case] = []
    for base in sorted(bases if bases is not None else OPS):
        op = OPS[base]
        if op.schedule_only:
            continue
        for mn, enc in sorted(op.mnemonics().items()):
            sig = op.sig_for(enc)
            mods = op.modifiers(enc)
            mtext = ""
            if mods.one_of:
                m = mods.mods[mods.one_of[0]]
                mtext = " " + m.text(m.values[0])
            regs = base_ops(sig, wave)
            for k, kind in enumerate(sig):
                if kind not in SLOT_KINDS:
                    continue
                for cls, text in FORMS:
                    t = WIDE.get(text, text) if kind in ("ssrc64", "src64") or (kind == "mask" and wave == 64) else text
                    if cls == "sgpr" and kind == "mask":
                        t = "s[2:3]" if wave == 64 else "s2"
                    ops = [t if j == k else r for j, r in enumerate(regs)]
                    out.append(Case(f"{mn} {', '.join(ops)}{mtext}", base, mn, k, cls))
    return out


def assemble(lines: list[str], target: Target, wave: int) -> set[int]:
    """The line numbers (1-based) llvm-mc-22 refuses on target/wave."""
    assert MC is not None
    attr = [] if target.gen < 10 else [f"-mattr=+wavefrontsize{wave}"]
    r = subprocess.run([MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target.llvm_cpu}", *attr, "-show-encoding",
                        "-o", "/dev/null"], input="\n".join(lines) + "\n", capture_output=True, text=True)
    return {int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):\d+: error", r.stderr)}


def parsed(cs: list[Case]) -> list[Instr | None]:
    """Each line as verify parses it (None: refused by the parser, on any target)."""
    out: list[Instr | None] = []
    for c in cs:
        try:
            out.append(parse_instr(c.line, Span("t", 1)))
        except InputError:
            out.append(None)
    return out


def verify_refuses(ins: Instr | None, target: Target, wave: int) -> bool:
    if ins is None:
        return True
    try:
        OPS[ins.base].check(ins, target, wave)
    except InputError:
        return True
    return False


def compare(cs: list[Case], ins: list[Instr | None], target: Target, wave: int) -> list[tuple[str, Case]]:
    """Disagreements: ("verify accepts" | "verify refuses", case)."""
    rejected = assemble([c.line for c in cs], target, wave)
    out = []
    for k, (c, i) in enumerate(zip(cs, ins), 1):
        ours = verify_refuses(i, target, wave)
        if ours != (k in rejected):
            out.append(("verify refuses" if ours else "verify accepts", c))
    return out


_SICI_ALIAS = re.compile(r"^v_(add|sub|subrev)_co_u32(_e64)?$")
_SICI_VOP2 = re.compile(r"^v_(bcnt_u32_b32|mbcnt_(lo|hi)_u32_b32)$")


def sici_gap(line: str, target: Target) -> str | None:
    """Why verify may refuse a line llvm-mc-22 takes on SI/CI (completeness,
    never a false pass; docs/semantics.md [S:sici]), or None."""
    if target.has("gfx8_insts"):
        return None
    mn = line.split()[0]
    if _SICI_ALIAS.match(mn):
        return "llvm-mc-22 takes v_add_co_u32 ... on SI/CI as an alias of v_add_i32 (VOP3); verify does not"
    if _SICI_VOP2.match(mn):
        return "the bare mnemonic is VOP2 on SI/CI (its constant rules); verify reads it as VOP3"
    if mn.startswith("v_cvt_f32_f16") and re.search(r",\s*[-0-9]", line):
        return "a constant in an f16 operand before GFX8 (no 16-bit inline constants) is not modelled"
    return None


def known_gap(c: Case, target: Target) -> str | None:
    """Why verify may refuse a line llvm-mc-22 takes (completeness, never a
    false pass), or None: docs/semantics.md [S:legality] lists each."""
    if sici_gap(c.line, target):
        return sici_gap(c.line, target)
    if c.mnemonic.endswith("_sdwa") and c.form not in ("sgpr", "vgpr"):
        return "a constant as an SDWA source is not modelled"
    if c.mnemonic.endswith("_e64_dpp") and c.form == "lit16":
        return "llvm-mc-22 takes a 16-bit literal in an i16 VOP3 DPP operand and encodes 255 without the literal"
    if c.op == "v_cndmask_b16" and c.form in ("float", "inv2pi", "float-literal", "lit32"):
        return "a float constant in v_cndmask_b16 is not modelled"
    if c.op == "v_pk_mov_b32" and c.form in ("f32-pattern", "inv2pi"):
        return "v_pk_mov_b32's v2f32 inline constants are not modelled"
    return None


def check(cs: list[Case], ins: list[Instr | None], target: Target, wave: int) -> list[tuple[str, Case]]:
    """The disagreements no known gap explains: verify accepting what
    llvm-mc-22 refuses is never allowed."""
    return [(k, c) for k, c in compare(cs, ins, target, wave)
            if k == "verify accepts" or known_gap(c, target) is None]
