"""SDWA (sub-dword addressing, GFX8/GFX9; a 32-bit-op subset on GFX10) and
GFX8/GFX9's remaining 16-bit VOP2 ops.

``v_add_u16_sdwa vD, S0, S1 dst_sel:WORD_1 dst_unused:UNUSED_PAD
src0_sel:WORD_1 src1_sel:DWORD``: each source is first narrowed to the part
its ``srcN_sel`` names (BYTE_0..3, WORD_0/1, DWORD), zero-extended, or
sign-extended when written ``sext(vN)``; the op runs on those values; its
result's low 8/16/32 bits go to the part ``dst_sel`` names, and the rest of
D is 0 (``UNUSED_PAD``), the sign of the written part above it and 0 below
(``UNUSED_SEXT``) or D's old bits (``UNUSED_PRESERVE``, the default).  The
modifier is modelled once here: :func:`select`, :func:`place`.  [S:sdwa]
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

from ..backend import Arith, Value
from ..diag import InputError, Span, Warning_
from ..ir import Imm, Instr, SReg, VReg
from ..syntax import Line
from ..target import Target
from .base import LaneFn, Mod, Modifiers, OpDef, register
from .packed16 import PK_FNS, Alu16, high16

if TYPE_CHECKING:
    from ..machine import Machine

# a select: (bit offset, width)
SELS: dict[str, tuple[int, int]] = {
    "BYTE_0": (0, 8), "BYTE_1": (8, 8), "BYTE_2": (16, 8), "BYTE_3": (24, 8),
    "WORD_0": (0, 16), "WORD_1": (16, 16), "DWORD": (0, 32),
}
UNUSED = ("UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE")
M32 = 0xFFFFFFFF


def _choice(name: str, values: tuple[str, ...]) -> Any:
    def parse(value: str | None, span: Span) -> str:
        v = (value or "").strip().upper()
        if v not in values:
            raise InputError(span, f"{name} takes one of {', '.join(values)}, got '{value or ''}'")
        return v
    return parse


def _sel_mod(name: str) -> Mod:
    return Mod(name, _choice(name, tuple(SELS)), tuple(SELS), "DWORD")


DST_SEL = _sel_mod("dst_sel")
DST_UNUSED = Mod("dst_unused", _choice("dst_unused", UNUSED), UNUSED, "UNUSED_PRESERVE")
SRC0_SEL = _sel_mod("src0_sel")
SRC1_SEL = _sel_mod("src1_sel")
VOP1_MODS = Modifiers(DST_SEL, DST_UNUSED, SRC0_SEL)
VOP2_MODS = Modifiers(DST_SEL, DST_UNUSED, SRC0_SEL, SRC1_SEL)


def _mask(w: int) -> int:
    return (1 << w) - 1


def select(B: Arith, x: Value, sel: str, sext: bool) -> Value:
    """The part of a source that `sel` names, zero- or sign-extended.  [S:sdwa]

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> [hex(select(C, 0x8081F0F1, s, False)) for s in ("BYTE_1", "WORD_1", "DWORD")]
    ['0xf0', '0x8081', '0x8081f0f1']
    >>> hex(select(C, 0x8081F0F1, "BYTE_1", True)), hex(select(C, 0x7081F0F1, "WORD_1", True))
    ('0xfffffff0', '0x7081')
    """
    off, w = SELS[sel]
    if w == 32:
        return x
    if sext:
        return B.ashr(B.shl(x, B.const(32 - off - w)), B.const(32 - w))
    return B.and_(B.lshr(x, B.const(off)), B.const(_mask(w)))


def place(B: Arith, r: Value, old: Value, sel: str, unused: str) -> Value:
    """The 32-bit destination value: the low bits of r in the part `sel`
    names, the other bits as `unused` says.  [S:sdwa]

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> [hex(place(C, 0x1234ABCD, 0x55667788, "WORD_1", u)) for u in UNUSED]
    ['0xabcd0000', '0xabcd0000', '0xabcd7788']
    >>> [hex(place(C, 0x80, 0x55667788, "BYTE_1", u)) for u in UNUSED]
    ['0x8000', '0xffff8000', '0x55668088']
    >>> hex(place(C, 0x1234ABCD, 0x55667788, "DWORD", "UNUSED_PRESERVE"))
    '0x1234abcd'
    """
    off, w = SELS[sel]
    if w == 32:
        return r
    field = B.shl(B.and_(r, B.const(_mask(w))), B.const(off))
    if unused == "UNUSED_PAD":
        return field
    if unused == "UNUSED_SEXT":
        above = (M32 << (off + w)) & M32
        return B.or_(field, B.ite(B.bit(r, w - 1), B.const(above), B.const(0)))
    keep = M32 & ~(_mask(w) << off)
    return B.or_(B.and_(old, B.const(keep)), field)


def _strip_sext(line: Line) -> tuple[Line, list[bool]]:
    ops, flags = [], []
    for text, span in line.operands:
        mm = re.fullmatch(r"\s*sext\(\s*([^()]*?)\s*\)\s*", text, re.I)
        flags.append(mm is not None)
        ops.append((mm.group(1) if mm else text, span))
    return dataclasses.replace(line, operands=ops), flags


SDWA32: dict[str, tuple[int, LaneFn, str]] = {  # base -> (sources, fn on 32-bit values, feature)
    "v_mov_b32": (1, lambda B, a: a, "sdwa"),
    "v_not_b32": (1, lambda B, a: B.not_(a), "sdwa"),
    "v_or_b32": (2, lambda B, a, b: B.or_(a, b), "sdwa"),
    "v_and_b32": (2, lambda B, a, b: B.and_(a, b), "sdwa"),
    "v_xor_b32": (2, lambda B, a, b: B.xor(a, b), "sdwa"),
    "v_lshlrev_b32": (2, lambda B, a, b: B.shl(b, B.and_(a, B.const(31))), "sdwa"),
    "v_lshrrev_b32": (2, lambda B, a, b: B.lshr(b, B.and_(a, B.const(31))), "sdwa"),
    "v_ashrrev_i32": (2, lambda B, a, b: B.ashr(b, B.and_(a, B.const(31))), "sdwa"),
    "v_add_u32": (2, lambda B, a, b: B.add(a, b), "sdwa_add_u32"),
    "v_sub_u32": (2, lambda B, a, b: B.sub(a, b), "sdwa_add_u32"),
}
SDWA16: dict[str, LaneFn] = {  # 16-bit ops: on the sources' low 16 bits, a 16-bit result (GFX8/GFX9)
    "v_add_u16": PK_FNS["add_u16"],
    "v_sub_u16": PK_FNS["sub_u16"],
    "v_subrev_u16": lambda B, a, b: PK_FNS["sub_u16"](B, b, a),
    "v_lshlrev_b16": PK_FNS["lshlrev_b16"],
    "v_lshrrev_b16": PK_FNS["lshrrev_b16"],
    "v_ashrrev_i16": PK_FNS["ashrrev_i16"],
    "v_max_u16": PK_FNS["max_u16"],
    "v_min_u16": PK_FNS["min_u16"],
    "v_max_i16": PK_FNS["max_i16"],
    "v_min_i16": PK_FNS["min_i16"],
}


class Sdwa(OpDef):
    """<op>_sdwa vD, [sext(]S0[)], [sext(]S1[)] dst_sel:.. dst_unused:.. src0_sel:.. src1_sel:..  [S:sdwa]"""

    unit = "valu"

    def __init__(self, op: str, nsrc: int, fn: LaneFn, feature: str, bits16: bool):
        self.op, self.fn, self.feature, self.bits16 = op, fn, feature, bits16
        self.base = f"{op}_sdwa"
        self.encs = {"": "sdwa"}
        self.sig = ("vdst",) + ("src",) * nsrc
        self.arg_names = ("vdst",) + tuple(f"src{k}" for k in range(nsrc))
        self.mods = VOP1_MODS if nsrc == 1 else VOP2_MODS

    def parse(self, line: Line, enc: str) -> Instr:
        plain, flags = _strip_sext(line)
        ins = super().parse(plain, enc)
        if flags[0]:
            raise InputError(line.operands[0][1], "the destination takes no sext()")
        for k, op in enumerate(ins.operands[1:], 1):
            if isinstance(op, Imm):
                raise InputError(ins.operand_span(k), f"verify does not model constants in {ins.mnemonic} "
                                                      "(a VGPR or SGPR source)")
            if isinstance(op, SReg) and op.count != 1:
                raise InputError(ins.operand_span(k), f"{ins.mnemonic} takes one SGPR, not a pair")
        mods = dict(ins.mods)
        mods["sext"] = tuple(flags[1:])
        return dataclasses.replace(ins, mods=tuple(sorted(mods.items())))

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        self.require(target, "sdwa", "SDWA", ins.span)
        sgprs = set()
        for k, op in enumerate(ins.operands[1:], 1):
            if isinstance(op, SReg):
                self.require(target, "sdwa_sgpr", f"an SGPR source of {ins.mnemonic}", ins.operand_span(k))
                sgprs.add(op.names)
        if len(sgprs) > 1:
            raise InputError(ins.span, f"{ins.mnemonic} reads {len(sgprs)} SGPRs; SDWA allows 1")
        return []

    def uses(self, ins: Instr) -> list[str]:
        out = super().uses(ins)
        if ins.mod("dst_sel", "DWORD") != "DWORD" and ins.mod("dst_unused", "UNUSED_PRESERVE") == "UNUSED_PRESERVE":
            out.append(f"v{ins.operands[0].index}")
        return out

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst = ins.operands[0]
        sext = ins.mod("sext", ())
        srcs = []
        for k, op in enumerate(ins.operands[1:]):
            sel = ins.mod(f"src{k}_sel", "DWORD")
            srcs.append([select(B, x, sel, bool(sext[k])) for x in m.read(op)])
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        dsel, unused = ins.mod("dst_sel", "DWORD"), ins.mod("dst_unused", "UNUSED_PRESERVE")
        if self.bits16:
            lo = [self.fn(B, *(B.and_(s[i], B.const(0xFFFF)) for s in srcs)) for i in range(m.W)]
            if SELS[dsel][1] == 32:  # a 16-bit result in a whole dword: its bits 31:16  [S:sdwa]
                hi = high16(m, f"v{dst.index}[31:16]@{m.line}")
                res = [B.or_(x, B.shl(h, B.const(16))) for x, h in zip(lo, hi)]
            else:
                res = lo
        else:
            res = [self.fn(B, *(s[i] for s in srcs)) for i in range(m.W)]
        old = m.v(dst.index) if unused == "UNUSED_PRESERVE" and dsel != "DWORD" else [B.const(0)] * m.W
        m.write_v(dst.index, [place(B, r, o, dsel, unused) for r, o in zip(res, old)], en)

    def print(self, ins: Instr, target: Target | None = None) -> str:
        sext = ins.mod("sext", ())
        ops = [f"v{ins.operands[0].index}"]
        for k, op in enumerate(ins.operands[1:]):
            t = f"v{op.index}" if isinstance(op, VReg) else op.text if isinstance(op, SReg) else str(op)
            ops.append(f"sext({t})" if sext[k] else t)
        mods = " ".join(f"{m.name}:{ins.mod(m.name, m.default)}" for m in self.mods)
        return f"{ins.mnemonic} {', '.join(ops)} {mods}"


for _op, (_n, _fn, _feat) in SDWA32.items():
    register(Sdwa(_op, _n, _fn, _feat, False))
for _op, _fn in SDWA16.items():
    register(Sdwa(_op, 2, _fn, "alu16_gfx8", True))


class Alu16Vop3(Alu16):
    """A GFX8/GFX9 16-bit VOP2 op that GFX10+ keeps as VOP3 only: llvm-mc-22
    takes ``v_lshlrev_b16 v0, v1, v2`` and its ``_e64`` there and refuses its
    ``_e32``; bits 31:16 of D are unknown there (packed16.high16).  On GFX11+
    its VOP3 form takes true16 halves (``v_max_u16 v0.l, v0.l, s12``: D.l =
    max(S0.l, S1[15:0]), D.h kept), every VGPR operand's half named, as the
    VOP3-only 16-bit ops do.  [S:packed16] [S:legality] [S:true16-vop3-halves]"""

    halves_in_vop3 = True

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        if not target.has("alu16_gfx8"):
            self.require(target, "add_nc_u32", ins.mnemonic, ins.span)
            if ins.enc == "e32":
                raise InputError(ins.span, f"{ins.mnemonic} is VOP3 only on {target.name}: write "
                                           f"{self.base} or {self.base}_e64")
        return super().check_op(ins, target, wave)


# GFX8/GFX9's other 16-bit VOP2 ops: D[15:0] = fn(S0[15:0], S1[15:0]), D[31:16]
# as ``alu16.high_gfx8`` says (packed16.Alu16), VOP3 only from GFX10 on except
# v_subrev_u16 (GFX8/GFX9 only: llvm-mc-22 refuses it on GFX10+).  Their DPP
# forms are not taken: which source a reversed op's DPP reads is an open
# question [S:dpp-rev].
for _op in ("v_subrev_u16", "v_lshlrev_b16", "v_lshrrev_b16", "v_ashrrev_i16",
            "v_max_u16", "v_min_u16", "v_max_i16", "v_min_i16"):
    _a = (Alu16(_op, SDWA16[_op], "alu16_gfx8", False) if _op == "v_subrev_u16" else
          Alu16Vop3(_op, SDWA16[_op], None, False))
    _a.encs = {"": "", "_e32": "e32", "_e64": "e64"}
    register(_a)
