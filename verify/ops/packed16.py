"""Packed 16-bit VOP3P ops (GFX9+: ``v_pk_add_u16 vD, S0, S1 op_sel:[a,b]
op_sel_hi:[c,d]``) and 16-bit VALU ops (``v_add_u16`` GFX8/9,
``v_add_nc_u16`` GFX10+, with GFX11's true16 halves).

A packed op computes both 16-bit halves of D: the low from the halves of S0
and S1 that op_sel picks (0: bits 15:0, 1: bits 31:16), the high from those
op_sel_hi picks (default [1,1]).  An integer inline constant gives its low
16 bits; its high half, and a float constant in a 16-bit operand, are not
pinned by verify's sources: the result is then an unknown value.  A 16-bit
VALU op writes D's low 16 bits; what it leaves in bits 31:16 differs by
generation, so verify leaves them unknown, except for a true16 half
destination (``v0.l``/``v0.h``), whose other half is kept.
[S:packed16] [S:true16]
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any, ClassVar

from ..backend import Arith, Value
from ..diag import InputError, Span, Warning_
from ..ir import Imm, Instr, VHalf, VReg
from ..syntax import FLOAT_INLINE, Line, float_text, operand_text
from ..target import Target
from . import dpp
from .base import NO_MODS, LaneFn, Mod, Modifiers, OpDef, is_inline_constant, register
from .wide16 import half_of, put_half

if TYPE_CHECKING:
    from ..machine import Machine

DPP_ENCS = ("dpp", "e64_dpp")
M16 = 0xFFFF


def _bits2(what: str) -> Any:
    def parse(value: str | None, span: Span) -> tuple[int, int]:
        m = re.fullmatch(r"\[\s*([01])\s*,\s*([01])\s*\]", value or "")
        if m is None:
            raise InputError(span, f"{what} takes two bits: [src0,src1]")
        return int(m.group(1)), int(m.group(2))
    return parse


_PAIRS = [(a, b) for a in (0, 1) for b in (0, 1)]
OP_SEL = Mod("op_sel", _bits2("op_sel"), _PAIRS, (0, 0), lambda v, t: f"[{v[0]},{v[1]}]")
OP_SEL_HI = Mod("op_sel_hi", _bits2("op_sel_hi"), _PAIRS, (1, 1), lambda v, t: f"[{v[0]},{v[1]}]")
PK_MODS = Modifiers(OP_SEL, OP_SEL_HI)


def _sx(B: Arith, x: Value) -> Value:
    return B.ashr(B.shl(x, B.const(16)), B.const(16))


PK_FNS: dict[str, LaneFn] = {  # on 16-bit values zero-extended in 32 bits
    "add_u16": lambda B, a, b: B.and_(B.add(a, b), B.const(M16)),
    "add_i16": lambda B, a, b: B.and_(B.add(a, b), B.const(M16)),
    "sub_u16": lambda B, a, b: B.and_(B.sub(a, b), B.const(M16)),
    "sub_i16": lambda B, a, b: B.and_(B.sub(a, b), B.const(M16)),
    "lshlrev_b16": lambda B, a, b: B.and_(B.shl(b, B.and_(a, B.const(15))), B.const(M16)),
    "lshrrev_b16": lambda B, a, b: B.lshr(b, B.and_(a, B.const(15))),
    "ashrrev_i16": lambda B, a, b: B.and_(B.ashr(_sx(B, b), B.and_(a, B.const(15))), B.const(M16)),
    "max_u16": lambda B, a, b: B.umax(a, b),
    "min_u16": lambda B, a, b: B.umin(a, b),
    "max_i16": lambda B, a, b: B.and_(B.smax(_sx(B, a), _sx(B, b)), B.const(M16)),
    "min_i16": lambda B, a, b: B.and_(B.smin(_sx(B, a), _sx(B, b)), B.const(M16)),
    "mul_lo_u16": lambda B, a, b: B.and_(B.mul(a, b), B.const(M16)),  # [S:arith64]
}


def const_half(op: Imm, hi: bool) -> int | None:
    """The 16 bits of a constant a 16-bit or packed operand reads, or None
    where verify does not pin them (a float constant; the high half of an
    inline constant).  A literal is its 32-bit pattern."""
    if float_text(op.text) is not None and float_text(op.text) in FLOAT_INLINE:
        return None
    if is_inline_constant(op.value):
        return None if hi else op.value & M16
    return (op.value >> 16) & M16 if hi else op.value & M16


class Packed(OpDef):
    """v_pk_<op> vD, S0, S1 [op_sel:[a,b]] [op_sel_hi:[c,d]]  [S:packed16]"""

    sig = ("vdst", "src", "src")
    arg_names = ("vdst", "src0", "src1")
    encs = {"": "e64", "_e64": "e64"}
    feature = "packed16"
    unit = "valu"
    valu_constants = True
    mods = PK_MODS

    def __init__(self, name: str):
        self.base = f"v_pk_{name}"
        self.fn = PK_FNS[name]

    def const_types(self, ins: Instr, target: Target) -> dict[int, str]:
        return {1: "v2i16", 2: "v2i16"}  # [S:legality]

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, s0, s1 = ins.operands
        sel, selhi = ins.mod("op_sel", (0, 0)), ins.mod("op_sel_hi", (1, 1))
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        halves: list[list[list[Any]]] = []  # [operand][lo/hi] -> lane values
        for k, op in enumerate((s0, s1)):
            hs = []
            for hi in (sel[k], selhi[k]):
                if isinstance(op, Imm):
                    c = const_half(op, bool(hi))
                    if c is None:
                        u = m.unknown_lanes(f"{operand_text(dst)}@{m.line}(a constant's unpinned half)")
                        m.write_v(dst.index, u, en)
                        return
                    hs.append([B.const(c)] * W)
                else:
                    hs.append([half_of(B, x, bool(hi)) for x in m.read(op)])
            halves.append(hs)
        res = [B.or_(self.fn(B, halves[0][0][i], halves[1][0][i]),
                     B.shl(self.fn(B, halves[0][1][i], halves[1][1][i]), B.const(16))) if en[i] is not False else 0
               for i in range(W)]
        m.write_v(dst.index, res, en)


for _n in PK_FNS:
    register(Packed(_n))


def _strip_halves(line: Line) -> tuple[Line, list[bool | None]]:
    ops, hs = [], []
    for text, span in line.operands:
        t = text.strip()
        mm = re.fullmatch(r"(v\d+)\.([lh])", t.lower())
        hs.append(None if mm is None else mm.group(2) == "h")
        ops.append((mm.group(1) if mm else text, span))
    return dataclasses.replace(line, operands=ops), hs


class Alu16(OpDef):
    """A 16-bit VALU op: D[15:0] = fn(S0[15:0], S1[15:0]) (with true16 halves:
    the named halves, the other half of D kept); D[31:16] otherwise unknown.
    [S:packed16] [S:true16]"""

    sig = ("vdst", "src", "src")
    arg_names = ("vdst", "src0", "src1")
    unit = "valu"
    valu_constants = True
    enc_mods: ClassVar[dict[str, Modifiers]] = {enc: dpp.MODIFIERS for enc in DPP_ENCS}
    halves_in_vop3 = False  # true16 halves in the VOP3 form of an op that also has a VOP2 one (sdwa.Alu16Vop3)

    def __init__(self, base: str, fn: LaneFn, feature: str | None, vop3_only: bool):
        self.base, self.fn, self.feature, self.vop3_only = base, fn, feature, vop3_only
        self.encs = ({"": "e64", "_e64": "e64", "_e64_dpp": "e64_dpp"} if vop3_only else
                     {"": "", "_e32": "e32", "_e64": "e64", "_dpp": "dpp"})

    def modifiers(self, enc: str) -> Modifiers:
        return dpp.MODIFIERS if enc in DPP_ENCS else NO_MODS

    def moves_lanes_in(self, ins: Instr) -> bool:
        return ins.enc in DPP_ENCS

    def roles(self, ins: Instr) -> frozenset[str]:
        return frozenset({"dpp"}) if ins.enc in DPP_ENCS else frozenset()

    def parse(self, line: Line, enc: str) -> Instr:
        plain, hs = _strip_halves(line)
        ins = super().parse(plain, enc)
        if any(h is not None for h in hs):
            if (not (self.vop3_only or (self.halves_in_vop3 and enc in ("", "e64")))
                    or any(h is None and isinstance(o, VReg) for h, o in zip(hs, ins.operands))):
                raise InputError(line.span, f"{line.mnemonic} with 16-bit halves names every VGPR operand's half")
            ops = tuple(VHalf(o.index, 1, bool(h)) if h is not None else o for h, o in zip(hs, ins.operands))
            ins = dataclasses.replace(ins, operands=ops)
        if enc in ("e32", "dpp") and not isinstance(ins.operands[2], VReg):  # VOP2's src1 field  [S:legality]
            raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR (use _e64)")
        if enc in DPP_ENCS and not isinstance(ins.operands[1], VReg):
            raise InputError(ins.operand_span(1), f"src0 of {ins.mnemonic} must be a VGPR: DPP reads it from other lanes")
        return ins

    def effective_enc(self, ins: Instr) -> str:
        if ins.enc:
            return ins.enc
        if self.vop3_only or any(isinstance(o, VHalf) for o in ins.operands):
            return "e64"
        return "e32" if isinstance(ins.operands[2], VReg) else "e64"

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        if isinstance(ins.operands[0], VHalf):
            self.require(target, "mov_b16", f"{ins.mnemonic} on 16-bit halves", ins.span)
        if ins.enc == "e64_dpp":
            self.require(target, "vop3_dpp", f"{ins.mnemonic} (DPP on a VOP3 encoding)", ins.span)
            if not isinstance(ins.operands[2], VReg) and not target.has("vop3_dpp_sgpr_src1"):
                raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR on {target.name}")
        return dpp.check(ins, target, wave) if ins.enc in DPP_ENCS else []

    def const_types(self, ins: Instr, target: Target) -> dict[int, str]:
        return {1: "i16", 2: "i16"}  # [S:legality]

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, s0, s1 = ins.operands
        srcs: list[list[Any]] = []
        for op in (s0, s1):
            if isinstance(op, Imm):
                c = const_half(op, False)
                if c is None:
                    u = m.unknown_lanes(f"{operand_text(dst)}@{m.line}(a float constant in a 16-bit operand)")
                    m.write_v(dst.index, u, m.actives())
                    return
                srcs.append([B.const(c)] * W)
            else:
                srcs.append(m.read(op))
        if ins.enc in DPP_ENCS:
            srcs[0], en = dpp.gather(m, ins, srcs[0], s0)
        else:
            en = m.actives()
            m.note_lanes(en, f"computed by {ins.mnemonic}")
        a = [half_of(B, x, isinstance(s0, VHalf) and s0.hi) for x in srcs[0]]
        b = [half_of(B, x, isinstance(s1, VHalf) and s1.hi) for x in srcs[1]]
        r = [self.fn(B, x, y) for x, y in zip(a, b)]
        if isinstance(dst, VHalf):
            old = m.v(dst.index)
            res = [put_half(B, o, x, dst.hi) for o, x in zip(old, r)]
        else:  # bits 31:16 differ by generation: zero on GFX8/9 (an assumption), else unknown  [S:packed16] [S:sdwa]
            u = high16(m, f"{dst.text}[31:16]@{m.line}")
            res = [B.or_(x, B.shl(B.and_(y, B.const(M16)), B.const(16))) for x, y in zip(r, u)]
        m.write_v(dst.index, res, en)

    def uses(self, ins: Instr) -> list[str]:
        out = super().uses(ins)
        if ins.enc in DPP_ENCS or isinstance(ins.operands[0], VHalf):  # lanes or a half kept
            out.append(f"v{ins.operands[0].index}")
        return out


for _op in (
    Alu16("v_add_u16", PK_FNS["add_u16"], "alu16_gfx8", False),
    Alu16("v_sub_u16", PK_FNS["sub_u16"], "alu16_gfx8", False),
    Alu16("v_add_nc_u16", PK_FNS["add_u16"], "add_nc_u32", True),
    Alu16("v_sub_nc_u16", PK_FNS["sub_u16"], "add_nc_u32", True),
):
    register(_op)



def high16(m: Machine, name: str) -> list[Value]:
    """What a 16-bit VALU op without true16 halves leaves in bits 31:16 of
    its destination, per lane: on GFX8/GFX9 0 under the ``alu16.high_gfx8``
    assumption's default; elsewhere (or under its variant) unknown.  [S:sdwa]"""
    if m.target is not None and m.target.has("alu16_gfx8") and m.assume("alu16.high_gfx8") == "zero":
        return [m.B.const(0)] * m.W
    return m.unknown_lanes(name)
