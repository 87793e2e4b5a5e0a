"""16-bit register halves (GFX11 true16) and the bitfield/byte ops LLVM
emits around 16-bit and 64-bit values.

* ``v_mov_b16 vD.{l,h}, src`` (GFX11): the destination half is the source's
  16 bits; the other half of the destination VGPR keeps its value.  A VGPR
  source is a half (``v0.l``/``v0.h``); an SGPR or a constant gives its low
  16 bits, or its high 16 bits under ``op_sel:[1,x]`` (VOP3).  With DPP the
  source lane comes through the DPP lane rule (the whole 32-bit source VGPR
  moves, then its half is taken).  [S:true16]
* ``v_bfi_b32``, ``v_alignbit_b32``, ``v_alignbyte_b32``, ``v_perm_b32``:
  three-source VOP3 ops, lane-wise.  [S:bitfield-ops]
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

from ..backend import Arith, Value
from ..diag import InputError, Span, Warning_
from ..ir import Instr, VHalf, VReg
from ..syntax import Line, operand_text
from ..target import Target
from . import dpp
from .base import NO_MODS, Mod, Modifiers, OpDef, register
from .valu import Valu

if TYPE_CHECKING:
    from ..machine import Machine

DPP_ENCS = ("dpp", "e64_dpp")


def _op_sel(value: str | None, span: Span) -> tuple[int, int]:
    m = re.fullmatch(r"\[\s*([01])\s*,\s*([01])\s*\]", value or "")
    if m is None:
        raise InputError(span, "op_sel of v_mov_b16 takes two bits: [src0,dst]")
    return int(m.group(1)), int(m.group(2))


OP_SEL = Mod("op_sel", _op_sel, [(a, b) for a in (0, 1) for b in (0, 1)], (0, 0),
             lambda v, t: f"[{v[0]},{v[1]}]")
OPSEL_MODS = Modifiers(OP_SEL)
DPP_OPSEL = dpp.DppModifiers(*dpp.MODIFIERS, OP_SEL, one_of=dpp.MODIFIERS.one_of, excludes=dpp.MODIFIERS.excludes)
DPP_OPSEL.carried = ("op_sel",)


def half_of(B: Arith, x: Value, hi: bool) -> Value:
    """The 16 bits of a 32-bit value (zero-extended)."""
    return B.lshr(x, B.const(16)) if hi else B.and_(x, B.const(0xFFFF))


def put_half(B: Arith, old: Value, x16: Value, hi: bool) -> Value:
    """`old` with one half replaced by the 16-bit value x16, the other kept.  [S:true16]

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> hex(put_half(C, 0x11112222, 0xABCD, False)), hex(put_half(C, 0x11112222, 0xABCD, True))
    ('0x1111abcd', '0xabcd2222')
    """
    if hi:
        return B.or_(B.and_(old, B.const(0xFFFF)), B.shl(x16, B.const(16)))
    return B.or_(B.and_(old, B.const(0xFFFF0000)), x16)


class Mov16(OpDef):
    """v_mov_b16 vD.{l,h}, src  (GFX11 true16)  [S:true16]"""

    base = "v_mov_b16"
    sig = ("vdst16", "src16")
    arg_names = ("vdst", "src0")
    encs = {"": "", "_e32": "e32", "_e64": "e64", "_dpp": "dpp", "_e64_dpp": "e64_dpp"}
    feature = "mov_b16"
    unit = "valu"
    valu_constants = True
    enc_mods: ClassVar[dict[str, Modifiers]] = {"": NO_MODS, "e32": NO_MODS, "e64": OPSEL_MODS,
                                                "dpp": dpp.MODIFIERS, "e64_dpp": DPP_OPSEL}

    def moves_lanes_in(self, ins: Instr) -> bool:
        return ins.enc in DPP_ENCS

    def roles(self, ins: Instr) -> frozenset[str]:
        return frozenset({"dpp"}) if ins.enc in DPP_ENCS else frozenset()

    def parse(self, line: Line, enc: str) -> Instr:
        ins = super().parse(line, enc)
        dst, src = ins.operands
        if enc in DPP_ENCS and not isinstance(src, VReg):
            raise InputError(ins.operand_span(1), f"src0 of {ins.mnemonic} must be a VGPR half: DPP reads it from other lanes")
        if enc in ("e32", "dpp"):  # VOP1 names v0..v127 halves only  [S:true16]
            for k, op in enumerate(ins.operands):
                if isinstance(op, VHalf) and op.index > 127:
                    raise InputError(ins.operand_span(k), f"{ins.mnemonic} reaches v0-v127 only (use _e64)")
        if ins.enc in ("e64", "e64_dpp"):
            # the halves of VGPR operands are the op_sel bits (llvm-mc-22 encodes them so, whatever is written)
            a, _ = ins.mod("op_sel", (0, 0))
            sel = (int(src.hi) if isinstance(src, VHalf) else a, int(dst.hi))
            mods = tuple(sorted({**dict(ins.mods), "op_sel": sel}.items()))
            ins = Instr(ins.mnemonic, ins.base, ins.operands, mods, ins.enc, ins.span, ins.operand_spans,
                        ins.mod_spans, ins.text)
        return ins

    def effective_enc(self, ins: Instr) -> str:
        if ins.enc:
            return ins.enc
        big = any(isinstance(o, VHalf) and o.index > 127 for o in ins.operands)
        return "e64" if big else "e32"

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        if ins.enc == "e64_dpp":
            self.require(target, "vop3_dpp", f"{ins.mnemonic} (DPP on a VOP3 encoding)", ins.span)
        return dpp.check(ins, target, wave) if ins.enc in DPP_ENCS else []

    def src_hi(self, ins: Instr) -> bool:
        src = ins.operands[1]
        if isinstance(src, VHalf):
            return src.hi
        return bool(ins.mod("op_sel", (0, 0))[0])

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, src = ins.operands
        if ins.enc in DPP_ENCS:
            vals, en = dpp.gather(m, ins, m.v(src.index), src)
        else:
            vals, en = m.read(src), m.actives()
            m.note_lanes(en, f"computed by {ins.mnemonic}")
        hi = self.src_hi(ins)
        old = m.v(dst.index)
        res = [put_half(B, o, half_of(B, x, hi), dst.hi) if e is not False else o
               for x, o, e in zip(vals, old, en)]
        m.write_v(dst.index, res, en)

    def uses(self, ins: Instr) -> list[str]:
        # the destination's other half is kept: the VGPR is read too
        return super().uses(ins) + [f"v{ins.operands[0].index}"]

    def print(self, ins: Instr, target: Target | None = None) -> str:
        ops = ", ".join(operand_text(o) for o in ins.operands)
        mods = self.modifiers(ins.enc).print(ins, target)
        return " ".join(x for x in (ins.mnemonic, ops, mods) if x)


register(Mov16())


def _alignbit(B: Arith, a: Value, b: Value, c: Value) -> Value:
    """({a, b} >> c[4:0])[31:0]: b is the low dword.  [S:bitfield-ops]

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> [hex(_alignbit(C, 0x12345678, 0x9ABCDEF0, n)) for n in (0, 16, 4, 36)]
    ['0x9abcdef0', '0x56789abc', '0x89abcdef', '0x89abcdef']
    """
    n = B.and_(c, B.const(31))
    return B.or_(B.lshr(b, n), B.shl(a, B.sub(B.const(32), n)))  # (n = 0: a shift by 32 gives 0)


def _alignbyte(B: Arith, a: Value, b: Value, c: Value) -> Value:
    """({a, b} >> 8 * c[1:0])[31:0].  [S:bitfield-ops]

    >>> from verify.backend import Concrete
    >>> hex(_alignbyte(Concrete(), 0x12345678, 0x9ABCDEF0, 6))
    '0x56789abc'
    """
    return _alignbit(B, a, b, B.shl(B.and_(c, B.const(3)), B.const(3)))


def _perm_byte(B: Arith, a: Value, b: Value, sel: Value) -> Value:
    """One result byte of v_perm_b32: sel 0-7 a byte of {a, b} (b low),
    8-11 the sign of byte 1, 3, 5, 7 replicated, 12 zero, 13-255 0xff."""
    r = B.const(0xFF)
    r = B.ite(B.eq(sel, B.const(12)), B.const(0), r)
    for k, bit in ((8, 15), (9, 31), (10, 15), (11, 31)):
        src = b if k < 10 else a
        r = B.ite(B.eq(sel, B.const(k)), B.ite(B.bit(src, bit), B.const(0xFF), B.const(0)), r)
    for k in range(8):
        src = b if k < 4 else a
        r = B.ite(B.eq(sel, B.const(k)), B.and_(B.lshr(src, B.const(8 * (k % 4))), B.const(0xFF)), r)
    return r


def _perm(B: Arith, a: Value, b: Value, c: Value) -> Value:
    """v_perm_b32: byte i of the result is byte_permute({a, b}, c.byte[i]).  [S:bitfield-ops]

    >>> from verify.backend import Concrete
    >>> C = Concrete()
    >>> hex(_perm(C, 0x11223344, 0x55667788, 0x07060100)), hex(_perm(C, 0x80000000, 0x8000, 0x0C0D0B08))
    ('0x11227788', '0xffffff')
    """
    out: Any = B.const(0)
    for i in range(4):
        sel = B.and_(B.lshr(c, B.const(8 * i)), B.const(0xFF))
        out = B.or_(out, B.shl(_perm_byte(B, a, b, sel), B.const(8 * i)))
    return out


class Align(Valu):
    """v_alignbit_b32 / v_alignbyte_b32: on GFX11+ (true16) the shift operand
    src2 is a 16-bit operand: it takes 16-bit constants only.  [S:bitfield-ops]"""

    def const_types(self, ins: Instr, target: Target) -> dict[int, str]:
        return {3: "i16"} if target.has("vop3_dpp") else {}


for _op in (
    Valu("v_bfi_b32", 3, lambda B, a, b, c: B.or_(B.and_(a, b), B.and_(B.not_(a), c)), vop3_only=True),
    Align("v_alignbit_b32", 3, _alignbit, vop3_only=True),
    Align("v_alignbyte_b32", 3, _alignbyte, vop3_only=True),
    Valu("v_perm_b32", 3, _perm, vop3_only=True),
):
    register(_op)

