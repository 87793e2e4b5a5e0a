"""16-bit multiply-add: ``v_mad_u16 vD, S0, S1, S2`` (GFX8+, VOP3; GFX11's
true16 halves ``v0.l``) and GFX9's ``v_mad_legacy_u16`` (the GFX8
encoding kept under a new name).

D[15:0] = S0[15:0] * S1[15:0] + S2[15:0], wrapping in 16 bits (a true16
source: its named half).  D[31:16]: a half destination keeps the other half
[S:true16]; on GFX8 (`v_mad_u16`) and for GFX9's `v_mad_legacy_u16` zero
under the `alu16.high_gfx8` assumption's default (LLVM's
`zeroesHigh16BitsOfDest`); GFX9's `v_mad_u16` (LLVM: the high bits
preserved) and GFX10+ leave them unknown in verify.  The atomic optimizer
emits it for an 8- or 16-bit add of a uniform value: each lane's
`old + value * mbcnt`.  [S:mad-u16]
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar

from ..backend import Arith, Value
from ..diag import InputError, Warning_
from ..ir import Imm, Instr, VHalf, VReg
from ..syntax import Line, operand_text
from ..target import Target
from .base import NO_MODS, Modifiers, register
from .packed16 import M16, Alu16, _strip_halves, const_half, high16
from .wide16 import half_of, put_half

if TYPE_CHECKING:
    from ..machine import Machine


def mad_u16(B: Arith, a: Value, b: Value, c: Value) -> Value:
    """(a * b + c) mod 2^16 of three 16-bit values."""
    return B.and_(B.add(B.mul(a, b), c), B.const(M16))


class Mad16(Alu16):
    """v_mad_u16 / v_mad_legacy_u16 vD, S0, S1, S2  [S:mad-u16]"""

    sig: tuple[str, ...] = ("vdst", "src", "src", "src")  # type: ignore[assignment]
    arg_names: tuple[str, ...] = ("vdst", "src0", "src1", "src2")  # type: ignore[assignment]
    enc_mods: ClassVar[dict[str, Modifiers]] = {}

    def __init__(self, base: str, gfx9_only: bool):
        super().__init__(base, lambda B, a, b: B.const(0), None, True)
        self.encs = {"": "e64", "_e64": "e64"}
        self.gfx9_only = gfx9_only

    def modifiers(self, enc: str) -> Modifiers:
        return NO_MODS

    def moves_lanes_in(self, ins: Instr) -> bool:
        return False

    def roles(self, ins: Instr) -> frozenset[str]:
        return frozenset()

    def parse(self, line: Line, enc: str) -> Instr:
        plain, hs = _strip_halves(line)
        ins = super(Alu16, self).parse(plain, enc)
        if any(h is not None for h in hs):
            if self.gfx9_only or any(h is None and isinstance(o, VReg) for h, o in zip(hs, ins.operands)):
                raise InputError(line.span, f"{line.mnemonic} with 16-bit halves names every VGPR operand's half")
            ops = tuple(VHalf(o.index, 1, bool(h)) if h is not None else o for h, o in zip(hs, ins.operands))
            ins = dataclasses.replace(ins, operands=ops)
        return ins

    def effective_enc(self, ins: Instr) -> str:
        return "e64"

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        if self.gfx9_only:
            self.require(target, "mad_legacy_u16", ins.mnemonic, ins.span)
        if isinstance(ins.operands[0], VHalf):
            self.require(target, "mov_b16", f"{ins.mnemonic} on 16-bit halves", ins.span)
        return []

    def const_types(self, ins: Instr, target: Target) -> dict[int, str]:
        return {1: "i16", 2: "i16", 3: "i16"}  # [S:legality]

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, *srcs_ops = ins.operands
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        halves: list[list[Any]] = []
        for op in srcs_ops:
            if isinstance(op, Imm):
                c = const_half(op, False)
                if c is None:
                    m.write_v(dst.index, m.unknown_lanes(f"{operand_text(dst)}@{m.line}(a float constant in a "
                                                         "16-bit operand)"), en)
                    return
                halves.append([B.const(c)] * W)
            else:
                halves.append([half_of(B, x, isinstance(op, VHalf) and op.hi) for x in m.read(op)])
        r = [mad_u16(B, a, b, c) for a, b, c in zip(*halves)]
        if isinstance(dst, VHalf):
            old = m.v(dst.index)
            res = [put_half(B, o, x, dst.hi) for o, x in zip(old, r)]
        else:
            name = f"{operand_text(dst)}[31:16]@{m.line}"
            # GFX9+'s v_mad_u16 (packed16: GFX9 on) leaves bits 31:16 unknown here;
            # the GFX8 encoding (v_mad_u16 on GFX8, v_mad_legacy_u16) as high16
            u = m.unknown_lanes(name) if (not self.gfx9_only and m.target is not None
                                          and m.target.has("packed16")) else high16(m, name)
            res = [B.or_(x, B.shl(B.and_(y, B.const(M16)), B.const(16))) for x, y in zip(r, u)]
        m.write_v(dst.index, res, en)

    def uses(self, ins: Instr) -> list[str]:
        out = super(Alu16, self).uses(ins)
        if isinstance(ins.operands[0], VHalf):  # a half kept
            out.append(f"v{ins.operands[0].index}")
        return out


register(Mad16("v_mad_u16", False))
register(Mad16("v_mad_legacy_u16", True))
