"""64-bit moves of gfx90a and the gfx940 family: ``v_mov_b64_dpp`` (the DP
ALU's DPP: row_newbcast only) and ``v_pk_mov_b32`` (each dword of the
result from either dword of a source).  [S:mov-b64-dpp] [S:pk-mov-b32]"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..diag import InputError, Span, Warning_
from ..ir import Imm, Instr, VReg
from ..syntax import float_text
from ..target import Target
from . import dpp
from .base import Mod, Modifiers, OpDef, register, written_value

if TYPE_CHECKING:
    from ..machine import Machine


class MovB64Dpp(OpDef):
    """v_mov_b64_dpp vD[2], vS[2] row_newbcast:N ...: both dwords of the
    source pair move by the DPP lane rule with the one control; a lane not
    written keeps both dwords.  [S:mov-b64-dpp] [S:dpp-lane-rule]"""

    base = "v_mov_b64_dpp"
    sig = ("vdst64", "src64")
    arg_names = ("vdst", "src0")
    encs = {"": "dpp"}
    feature = "mov_b64"
    unit = "valu"
    mods = dpp.MODIFIERS
    moves_lanes = True
    hazard_roles = frozenset({"dpp"})

    def parse(self, line: Any, enc: str) -> Instr:
        ins = super().parse(line, enc)
        if not isinstance(ins.operands[1], VReg):
            raise InputError(ins.operand_span(1), f"src0 of {ins.mnemonic} must be a VGPR pair: DPP reads it from other lanes")
        return ins

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        d = dict(ins.mods)
        if "dpp8" in d or d["ctrl"][0] != "row_newbcast":  # llvm-mc-22: "DP ALU dpp only supports row_newbcast"
            raise InputError(ins.span, f"{ins.mnemonic}: DP ALU DPP only supports row_newbcast")
        return dpp.check(ins, target, wave)

    def execute(self, ins: Instr, m: Machine) -> None:
        dst, src = ins.operands
        for k in (0, 1):
            reg = VReg(src.index + k)
            vals, en = dpp.gather(m, ins, m.v(reg.index), reg)
            m.write_v(dst.index + k, vals, en)

    def uses(self, ins: Instr) -> list[str]:  # lanes not written keep their value
        dst: VReg = ins.operands[0]
        return super().uses(ins) + dst.names()


def _op_sel(value: str | None, span: Span) -> tuple[int, int]:
    mm = re.fullmatch(r"\[\s*([01])\s*,\s*([01])\s*\]", value or "")
    if mm is None:
        raise InputError(span, "op_sel of v_pk_mov_b32 takes two bits: [src0,src1]")
    return int(mm.group(1)), int(mm.group(2))


class PkMovB32(OpDef):
    """v_pk_mov_b32 vD[2], S0[2], S1[2] op_sel:[a,b]: D[31:0] = dword a of
    S0, D[63:32] = dword b of S1.  A constant's low dword is its 32-bit
    value; its high dword is pinned only for 0 and -1 (64-bit or repeated,
    the same bits); otherwise the result is unknown.  [S:pk-mov-b32]"""

    base = "v_pk_mov_b32"
    sig = ("vdst64", "src64", "src64")
    arg_names = ("vdst", "src0", "src1")
    encs = {"": "e64"}
    feature = "pk_mov_b32"
    unit = "valu"
    valu_constants = True
    mods = Modifiers(Mod("op_sel", _op_sel, [(a, b) for a in (0, 1) for b in (0, 1)], (0, 0),
                         lambda v, t: f"[{v[0]},{v[1]}]"))

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        for k, op in enumerate(ins.operands[1:], 1):
            if isinstance(op, Imm) and not (-16 <= written_value(op) <= 64 or float_text(op.text) is not None):
                raise InputError(ins.operand_span(k), f"{ins.mnemonic} takes no literal constant")
        return []

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, s0, s1 = ins.operands
        sel = ins.mod("op_sel", (0, 0))
        en = m.actives()
        m.note_lanes(en, f"computed by {ins.mnemonic}")
        for k, (op, hi) in enumerate(((s0, sel[0]), (s1, sel[1]))):
            if isinstance(op, VReg):
                vals = m.v(op.index + hi)
            elif isinstance(op, Imm):
                c = written_value(op)
                if float_text(op.text) is not None or (hi and c not in (0, -1)):
                    vals = m.unknown_lanes(f"v{dst.index + k}@{m.line}(a constant's unpinned dword)")
                else:
                    vals = [B.const(c & 0xFFFFFFFF)] * W
            else:
                vals = [m.s(op.names[hi])] * W
            m.write_v(dst.index + k, vals, en)


register(MovB64Dpp())
register(PkMovB32())
