"""Lane <-> scalar moves, lane counting and the wave64 half swap:
v_readlane_b32, v_readfirstlane_b32, v_writelane_b32, v_mbcnt_lo/hi_u32_b32,
v_permlane64_b32.  [S:lane-scalar] [S:mbcnt] [S:permlane64]
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from ..backend import Value
from ..diag import InputError, Warning_
from ..ir import Imm, Instr, SReg, VReg
from ..lanes import Read
from ..syntax import Line
from ..target import Target
from . import dpp
from .base import AnyEmitter, Modifiers, OpDef, is_inline_constant, is_inv2pi, register

if TYPE_CHECKING:  # annotations only: the machine runs the ops, the ops never import it
    from ..machine import Machine


class Readlane(OpDef):
    """sD = vS[ssel & (W-1)]; ignores EXEC (may read an inactive lane)."""

    cost_class = "readlane"
    base = "v_readlane_b32"
    unit = "valu"
    sig = ("sdst", "vgpr", "ssrc")
    arg_names = ("sdst", "vsrc", "lane")
    lane_select = (2,)
    moves_lanes = True
    hazard_roles = frozenset({"lane_select", "readlane", "readlane_vgpr"})
    components = ("readlane",)

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        sel = ins.operands[2]
        if isinstance(sel, Imm) and (not is_inline_constant(sel.value) or (is_inv2pi(sel, False) and not target.has("inv2pi_inline"))):
            raise InputError(ins.operand_span(2), "the lane select of v_readlane_b32 must be an SGPR, M0 or an inline constant")
        return []

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, src, sel = ins.operands
        idx = B.and_(m.scalar(sel), B.const(m.W - 1))
        m.write_scalar(dst, B.select(m.v(src.index), idx))

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, src, sel = ins.operands
        lane = E.and_(E.get(sel), E.wave - 1)
        made = E.made_in_wwm(src)  # a lane a region wrote, maybe inactive now: read in whole-wave mode  [S:wwm]
        r = E.call("llvm.amdgcn.readlane.i32", "__builtin_amdgcn_readlane", [made or E.get(src), lane], uniform=True)
        E.set(dst, E.strict_wwm(r, dst.names[0]) if made is not None else r)


class Readfirstlane(OpDef):
    """sD = vS[first active lane], lane 0 when EXEC is empty."""

    cost_class = "readlane"
    base = "v_readfirstlane_b32"
    unit = "valu"
    moves_lanes = True
    # gfx94x: a VALU write of its VGPR needs a wait state, as v_readlane's does  [S:trust-hazards]
    hazard_roles = frozenset({"readlane", "readlane_vgpr"})
    sig = ("sdst", "vgpr")
    arg_names = ("sdst", "vsrc")
    encs = {"": "", "_e32": "e32"}  # llvm-mc-22: "e64 variant of this instruction is not supported"

    def execute(self, ins: Instr, m: Machine) -> None:
        B = m.B
        dst, src = ins.operands
        v = m.v(src.index)
        res = v[0]
        for k in reversed(range(m.W)):  # the lowest active lane wins
            res = B.ite(m.active(k), v[k], res)
        m.write_scalar(dst, res)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, src = ins.operands
        E.set(dst, E.call("llvm.amdgcn.readfirstlane.i32", "__builtin_amdgcn_readfirstlane", [E.get(src)],
                          uniform=True))


class Writelane(OpDef):
    """vD[ssel & (W-1)] = ssrc, even in an inactive lane; others unchanged."""

    cost_class = "writelane"
    base = "v_writelane_b32"
    unit = "valu"
    sig = ("vdst", "ssrc", "ssrc")
    arg_names = ("vdst", "ssrc", "lane")
    lane_select = (2,)
    encs = {"": "e64"}  # VOP3 only, but llvm-mc-22 rejects the `_e64` spelling on every target
    valu_constants = True
    moves_lanes = True
    hazard_roles = frozenset({"lane_select", "readlane"})

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        sel = ins.operands[2]
        if isinstance(sel, Imm) and (not is_inline_constant(sel.value) or (is_inv2pi(sel, False) and not target.has("inv2pi_inline"))):
            raise InputError(ins.operand_span(2), "the lane select of v_writelane_b32 must be an SGPR, M0 or an inline constant")
        return []

    def check_constants(self, ins: Instr, target: Target, reads_vcc: bool = False) -> None:
        """The VALU constant-bus rule, except that an M0 lane select does not
        count where the limit is one scalar value (GFX8/GFX9, CDNA):
        `v_writelane_b32 v1, s2, m0` is legal there, `v_writelane_b32 v1, s2,
        s3` is not.  On SI/CI v_writelane_b32 is a VOP2 op, so its value may
        be a literal (`v_writelane_b32 v1, 0x1234, m0`, as llvm-mc-22 takes on
        gfx600/gfx701).  [S:lane-scalar] [S:sici]"""
        sel = ins.operands[2]
        if isinstance(sel, SReg) and sel.names == ("m0",) and not target.has("constant_bus_2"):
            ins = replace(ins, operands=ins.operands[:2] + (Imm(0, "0"),))
        if target.has("writelane_vop2"):  # SI/CI: VOP2, a literal value is legal  [S:sici]
            ins = replace(ins, enc="e32")
        super().check_constants(ins, target, reads_vcc)

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, val, sel = ins.operands
        x = m.scalar(val)
        idx = B.and_(m.scalar(sel), B.const(W - 1))
        en = [i == idx for i in range(W)] if type(idx) is int else [B.eq(idx, B.const(i)) for i in range(W)]
        m.note_lanes(en, f"v_writelane writes lane {idx}", kept="")
        m.write_v(dst.index, [x] * W, en)

    def uses(self, ins: Instr) -> list[str]:
        return super().uses(ins) + [ins.operands[0].text]

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, val, sel = ins.operands
        lane = E.and_(E.get(sel), E.wave - 1)
        E.set(dst, E.call("llvm.amdgcn.writelane.i32", "__builtin_amdgcn_writelane", [E.get(val), lane, E.get(dst)]))


class Mbcnt(OpDef):
    """D = popcount(S0 & lanes-below-i, low or high 32 bits) + S1."""

    sig = ("vdst", "src", "src")
    arg_names = ("vdst", "mask", "base")
    unit = "valu"
    # _e64_dpp: GFX11+, DPP on the mask operand (src0)  [S:vop3-dpp-more]
    # _e32: VOP2 on SI/CI only (GFX8 made it VOP3-only)  [S:sici]
    encs = {"": "e64", "_e32": "e32", "_e64": "e64", "_e64_dpp": "e64_dpp"}
    enc_mods: ClassVar[dict[str, Modifiers]] = {"e64_dpp": dpp.MODIFIERS}
    valu_constants = True
    moves_lanes = True  # computes from the lane index

    def roles(self, ins: Instr) -> frozenset[str]:
        return frozenset({"dpp"}) if ins.enc == "e64_dpp" else frozenset()

    def uses(self, ins: Instr) -> list[str]:  # lanes DPP does not write keep the old value
        return super().uses(ins) + ([ins.operands[0].text] if ins.enc == "e64_dpp" else [])

    def check_op(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        if ins.enc == "e32":
            self.require(target, "mbcnt_vop2", f"{ins.mnemonic} (VOP2)", ins.span)
        return dpp.check_vop3(self, ins, target, wave, 2) if ins.enc == "e64_dpp" else []

    def parse(self, line: Line, enc: str) -> Instr:
        ins = super().parse(line, enc)
        if enc == "e64_dpp":
            dpp.require_vgpr_src0(ins, 1)
        if enc == "e32" and not isinstance(ins.operands[2], VReg):
            raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR (use _e64 for an SGPR or constant)")
        return ins

    def __init__(self, half: str):
        self.base = f"v_mbcnt_{half}_u32_b32"
        self.hi = half == "hi"

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, s0, s1 = ins.operands
        mask, base = m.read(s0), m.read(s1)
        if ins.enc == "e64_dpp":  # the mask swizzled; a lane the rule does not write keeps vD  [S:dpp-lane-rule]
            mask, en = dpp.gather(m, ins, mask, s0)
        else:
            en = m.actives()
        out = []
        for i in range(W):
            if en[i] is False:  # not written: not computed
                out.append(0)
                continue
            # bits of the 64-bit thread mask (1 << i) - 1 that fall in this half
            below = max(0, min(32, i - 32)) if self.hi else min(32, i)
            out.append(B.add(base[i], B.popcount([B.bit(mask[i], k) for k in range(below)])))
        m.note_lanes(en, "lane count")
        m.write_v(dst.index, out, en)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, s0, s1 = ins.operands
        half = "hi" if self.hi else "lo"

        def fn(E_: Any, x: Value, y: Value) -> Value:
            return E_.call(f"llvm.amdgcn.mbcnt.{half}", f"__builtin_amdgcn_mbcnt_{half}", [x, y])

        if ins.enc == "e64_dpp":
            E.set(dst, dpp.emit_alu(ins, E, fn, [E.get(s0), E.get(s1)], dst, None))
            return
        E.set(dst, fn(E, E.get(s0), E.get(s1)))


class Permlane64(OpDef):
    """wave64: D[i] = S[i ^ 32] for active i, reading inactive lanes too;
    wave32: no operation, or D = S (the assumption permlane64.wave32)."""

    cost_class = "permlane"
    base = "v_permlane64_b32"
    unit = "valu"
    sig = ("vdst", "vgpr")
    arg_names = ("vdst", "vsrc")
    encs = {"": "", "_e32": "e32"}
    feature = "permlane64"
    moves_lanes = True
    hazard_roles = frozenset({"permlane"})  # after a v_cmpx  [S:hazards]
    components = ("permlane64",)

    def execute(self, ins: Instr, m: Machine) -> None:
        dst, src = ins.operands
        if m.W == 32 and m.assume("permlane64.wave32") == "nop":
            return  # the ISA: no operation in wave32  [S:permlane64]
        v = m.v(src.index)
        act = m.actives()
        flip = 32 if m.W == 64 else 0  # wave32 under permlane64.wave32=copy: D = S
        m.gather(dst, src, [Read(i ^ flip, True, act[i]) for i in range(m.W)], v)

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, src = ins.operands
        if E.wave == 32:
            return  # no operation: the destination keeps its value
        E.set(dst, E.call("llvm.amdgcn.permlane64.i32", "__builtin_amdgcn_permlane64", [E.get(src)]))


for _op in (Readlane(), Readfirstlane(), Writelane(), Mbcnt("lo"), Mbcnt("hi"), Permlane64()):
    register(_op)
