"""v_cndmask_b16 (GFX11 true16, VOP3 only): one 16-bit half selected per
lane by a lane mask, written into a half of the destination VGPR, the other
half kept.  LLVM 22 selects it for an i1/i16 select on gfx1100-gfx1153.
[S:cndmask16] [S:true16]"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..diag import InputError
from ..ir import Imm, Instr, VHalf
from ..syntax import Line, float_text, operand_text
from .base import OpDef, register
from .wide16 import half_of, put_half

if TYPE_CHECKING:  # annotations only: the machine runs the ops, the ops never import it
    from ..machine import Machine


class Cndmask16(OpDef):
    """v_cndmask_b16 vD.{l,h}, src0, src1, mask: D.half = mask[i] ? S1 : S0
    (16 bits each: a VGPR half, or an SGPR's or integer constant's low 16
    bits).  [S:cndmask16]"""

    base = "v_cndmask_b16"
    unit = "valu"
    sig = ("vdst16", "src16", "src16", "mask")
    arg_names = ("vdst", "src0", "src1", "mask")
    encs = {"": "e64", "_e64": "e64"}  # llvm-mc-22: "e32 variant of this instruction is not supported"
    feature = "mov_b16"
    valu_constants = True

    def parse(self, line: Line, enc: str) -> Instr:
        ins = super().parse(line, enc)
        for k in (1, 2):
            op = ins.operands[k]
            if isinstance(op, Imm) and float_text(op.text) is not None:  # an f16 inline constant: not modelled
                raise InputError(ins.operand_span(k), f"a float constant in {ins.mnemonic} is not modelled")
        return ins

    def _half(self, m: Machine, op: Any) -> list[Any]:
        vals = m.read(op)
        return [half_of(m.B, x, isinstance(op, VHalf) and op.hi) for x in vals]

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, s0, s1, mask = ins.operands
        a, b = self._half(m, s0), self._half(m, s1)
        lo, hi = m.scalar64(mask)
        en = m.actives()
        old = m.v(dst.index)
        res = [put_half(B, o, B.ite(m.mask_bit(lo, hi, i), y, x), dst.hi) if en[i] is not False else o
               for i, (x, y, o) in enumerate(zip(a, b, old))]
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        m.write_v(dst.index, res, en)

    def uses(self, ins: Instr) -> list[str]:  # the destination's other half is kept: the VGPR is read too
        return super().uses(ins) + [f"v{ins.operands[0].index}"]

    def print(self, ins: Instr, target: object = None) -> str:
        return f"{ins.mnemonic} " + ", ".join(operand_text(o) for o in ins.operands)


register(Cndmask16())
