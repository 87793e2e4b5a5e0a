"""Vector ALU: moves and integer ops (optionally with DPP on src0),
v_cndmask_b32 and v_cmp_* writing a lane mask.

A VALU op writes only the lanes active in EXEC.  With DPP, src0 comes
through the DPP gather (dpp.py) and src1 from the lane itself.
[S:valu] [S:dpp-lane-rule] [S:vopc]
"""

from __future__ import annotations

from typing import Callable

from ..diag import InputError, Warning_
from ..ir import Instr, VReg
from ..syntax import operand_text
from ..target import Target, needs_text
from . import dpp
from .base import OpDef, int_mod, register

Fn = Callable  # fn(B, *srcs) -> value
DPP_ENCS = ("dpp", "e64_dpp")


class Valu(OpDef):
    """A VOP1 / VOP2 / VOP3-only op defined by its lane function."""

    unit = "valu"

    def __init__(self, base: str, nsrc: int, fn: Fn, feature: str | None = None,
                 vop3_only: bool = False, dpp_ok: bool = True):
        self.base = base
        self.nsrc = nsrc
        self.fn = fn
        self.feature = feature
        self.vop3_only = vop3_only
        self.sig = ("vdst",) + ("src",) * nsrc
        self.arg_names = ("vdst",) + tuple(f"src{k}" for k in range(nsrc))
        if vop3_only:
            self.encs = {"": "e64", "_e64": "e64"}
        else:
            self.encs = {"": "", "_e32": "e32", "_e64": "e64"}
            if dpp_ok:
                self.encs["_dpp"] = "dpp"
                self.encs["_e64_dpp"] = "e64_dpp"

    def mod_parsers(self, enc: str) -> dict:
        return dpp.dpp16_mod_parsers() if enc in DPP_ENCS else {}

    def finish_mods(self, mods: dict, line, enc: str) -> dict:
        return dpp.finish(mods, line.mspan) if enc in DPP_ENCS else mods

    def parse(self, line, enc: str) -> Instr:
        ins = super().parse(line, enc)
        if enc in ("dpp", "e32") and self.nsrc == 2 and not isinstance(ins.operands[2], VReg):
            raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR (use _e64 for an SGPR or constant)")
        if enc in DPP_ENCS and not isinstance(ins.operands[1], VReg):
            raise InputError(ins.operand_span(1), f"src0 of {ins.mnemonic} must be a VGPR: DPP reads it from other lanes")
        return ins

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns = super().check(ins, target, wave)
        if ins.enc == "e64_dpp":
            self.require(target, "vop3_dpp", f"{ins.mnemonic} (DPP on a VOP3 encoding)", ins.span)
            if self.nsrc == 2 and not isinstance(ins.operands[2], VReg) and not target.has("vop3_dpp_sgpr_src1"):
                raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR on {target.name}: "
                                                      f"an SGPR src1 needs {needs_text('vop3_dpp_sgpr_src1')}")
        if ins.enc in DPP_ENCS:
            warns += dpp.check(ins, target, wave)
        self.check_constants(ins, target)
        return warns

    def execute(self, ins: Instr, m) -> None:
        B, W = m.B, m.W
        dst = ins.operands[0]
        srcs = [m.read(op) for op in ins.operands[1:]]
        if ins.enc in DPP_ENCS:
            srcs[0], en = dpp.gather(m, ins, srcs[0], operand_text(ins.operands[1]))
        else:
            en = m.actives()
            if m.step is not None:
                src0 = ins.operands[1]
                for i in range(W):
                    if not en[i]:
                        m.note(i, "kept", why=f"lane {i} inactive")
                    elif self.nsrc == 1 and isinstance(src0, VReg):
                        m.note(i, "written", (src0.text, i))
                    else:
                        m.note(i, "written", why=f"computed by {ins.mnemonic}")
        fn = self.fn
        res = [fn(B, *xs) for xs in zip(*srcs)]
        if m.step is not None and self.base != "v_mov_b32":
            other = operand_text(ins.operands[2]) if self.nsrc == 2 else ""
            for i, ev in list(m.step.pending.items()):
                rhs = f" and {other}[{i}]" if other and other[0] == "v" else (f" and {other}" if other else "")
                if ev.status == "written" and ev.src is not None:
                    m.note(i, "written", why=f"= {self.base} of {ev.src[0]}[{ev.src[1]}]{rhs}")
                elif ev.status == "zero":  # the op still runs, on a zero src0
                    m.note(i, "written", why=f"= {self.base} of 0 ({ev.why}){rhs}")
        m.write_v(dst.index, res, en)

    def uses(self, ins: Instr) -> list[str]:
        out = super().uses(ins)
        if ins.enc in DPP_ENCS:  # lanes that are not written keep the old value
            out.append(ins.operands[0].text)
        return out

    def print_mods(self, ins: Instr, target) -> str:
        return dpp.print_mods(ins, target) if ins.enc in DPP_ENCS else ""

    def lane_fn(self):
        """The lane function emission spells (the one execute runs)."""
        return self.fn

    def emit(self, ins: Instr, E) -> None:
        fn = self.lane_fn()
        dst, *srcs = ins.operands
        if ins.enc in DPP_ENCS:
            if self.base == "v_mov_b32":
                E.set(dst, dpp.emit_mov(ins, E, E.get(srcs[0]), dst))
            else:
                E.set(dst, dpp.emit_alu(ins, E, fn, [E.get(s) for s in srcs], dst))
            return
        E.set(dst, fn(E, *[E.get(s) for s in srcs]))  # the semantic function, spelled by E


VALU_OPS = [
    Valu("v_mov_b32", 1, lambda B, a: a),
    Valu("v_not_b32", 1, lambda B, a: B.not_(a)),
    Valu("v_add_u32", 2, lambda B, a, b: B.add(a, b), "add_u32_nocarry"),
    Valu("v_sub_u32", 2, lambda B, a, b: B.sub(a, b), "add_u32_nocarry"),
    Valu("v_subrev_u32", 2, lambda B, a, b: B.sub(b, a), "add_u32_nocarry"),
    Valu("v_add_nc_u32", 2, lambda B, a, b: B.add(a, b), "add_nc_u32"),
    Valu("v_sub_nc_u32", 2, lambda B, a, b: B.sub(a, b), "add_nc_u32"),
    Valu("v_subrev_nc_u32", 2, lambda B, a, b: B.sub(b, a), "add_nc_u32"),
    Valu("v_and_b32", 2, lambda B, a, b: B.and_(a, b)),
    Valu("v_or_b32", 2, lambda B, a, b: B.or_(a, b)),
    Valu("v_xor_b32", 2, lambda B, a, b: B.xor(a, b)),
    Valu("v_min_u32", 2, lambda B, a, b: B.umin(a, b)),
    Valu("v_max_u32", 2, lambda B, a, b: B.umax(a, b)),
    Valu("v_min_i32", 2, lambda B, a, b: B.smin(a, b)),
    Valu("v_max_i32", 2, lambda B, a, b: B.smax(a, b)),
    # shifts take the amount from src0's low 5 bits ("rev" forms)
    Valu("v_lshlrev_b32", 2, lambda B, a, b: B.shl(b, B.and_(a, B.const(31)))),
    Valu("v_lshrrev_b32", 2, lambda B, a, b: B.lshr(b, B.and_(a, B.const(31)))),
    Valu("v_ashrrev_i32", 2, lambda B, a, b: B.ashr(b, B.and_(a, B.const(31)))),
    # GFX9's three-source VOP3 ops, which LLVM fuses address arithmetic into
    Valu("v_add3_u32", 3, lambda B, a, b, c: B.add(B.add(a, b), c), "valu_3src", vop3_only=True),
    Valu("v_lshl_add_u32", 3, lambda B, a, b, c: B.add(B.shl(a, B.and_(b, B.const(31))), c), "valu_3src", vop3_only=True),
    Valu("v_add_lshl_u32", 3, lambda B, a, b, c: B.shl(B.add(a, b), B.and_(c, B.const(31))), "valu_3src", vop3_only=True),
    Valu("v_and_or_b32", 3, lambda B, a, b, c: B.or_(B.and_(a, b), c), "valu_3src", vop3_only=True),
    Valu("v_lshl_or_b32", 3, lambda B, a, b, c: B.or_(B.shl(a, B.and_(b, B.const(31))), c), "valu_3src", vop3_only=True),
    Valu("v_or3_b32", 3, lambda B, a, b, c: B.or_(B.or_(a, b), c), "valu_3src", vop3_only=True),
    Valu("v_max3_i32", 3, lambda B, a, b, c: B.smax(B.smax(a, b), c), vop3_only=True),
    Valu("v_max3_u32", 3, lambda B, a, b, c: B.umax(B.umax(a, b), c), vop3_only=True),
    Valu("v_min3_i32", 3, lambda B, a, b, c: B.smin(B.smin(a, b), c), vop3_only=True),
    Valu("v_min3_u32", 3, lambda B, a, b, c: B.umin(B.umin(a, b), c), vop3_only=True),
    Valu("v_bfrev_b32", 1, lambda B, a: B.from_bits([B.bit(a, 31 - k) for k in range(32)])),
]



class ValuF32(Valu):
    """v_add_f32 / v_min_f32 / v_max_f32: binary32, round to nearest even;
    subnormals pass unless assumption f32.denormals=flush (no NEG/ABS source
    modifiers yet).  [S:f32]"""

    def __init__(self, base: str, op: str):
        super().__init__(base, 2, None)
        self.op = op

    def execute(self, ins: Instr, m) -> None:
        flush = m.assume("f32.denormals") == "flush"
        B = m.B
        op = getattr(B, self.op)

        def ftz(a):
            return B.ite(B.eq(B.and_(a, B.const(0x7F800000)), B.const(0)), B.and_(a, B.const(0x80000000)), a)

        self.fn = (lambda B_, a, b: ftz(op(ftz(a), ftz(b)))) if flush else (lambda B_, a, b: op(a, b))
        super().execute(ins, m)

    def lane_fn(self):
        # the default assumption (f32.denormals: subnormals pass), the one records are made under
        return lambda E, a, b: getattr(E, self.op)(a, b)


class Bitop3(Valu):
    """v_bitop3_b32 vD, s0, s1, s2 bitop3:TT: bit i of vD is
    TT[{s0[i], s1[i], s2[i]}] (s0 the high index bit).  [S:valu]

    >>> from verify.backend import Concrete
    >>> f = Bitop3.table(0x80); g = Bitop3.table(0xFE); h = Bitop3.table(0xF0)
    >>> f(Concrete(), 0b1100, 0b1010, 0b1111), g(Concrete(), 0b1100, 0b1010, 0), h(Concrete(), 5, 6, 7)
    (8, 14, 5)
    """

    def __init__(self):
        super().__init__("v_bitop3_b32", 3, None, "bitop3", vop3_only=True)

    def mod_parsers(self, enc: str) -> dict:
        return {"bitop3": int_mod(0, 255, "bitop3")}

    def finish_mods(self, mods: dict, line, enc: str) -> dict:
        mods.setdefault("bitop3", 0)
        return mods

    def print_mods(self, ins: Instr, target) -> str:
        t = ins.mod("bitop3")
        return f"bitop3:{t:#x}" if t else ""

    @staticmethod
    def table(tt: int):
        def fn(B, a, b, c):
            acc = B.const(0)
            for k in range(8):
                if (tt >> k) & 1:
                    term = B.const(0xFFFFFFFF)
                    for src, bit in ((a, (k >> 2) & 1), (b, (k >> 1) & 1), (c, k & 1)):
                        term = B.and_(term, src if bit else B.not_(src))
                    acc = B.or_(acc, term)
            return acc

        return fn

    def execute(self, ins: Instr, m) -> None:
        self.fn = self.table(ins.mod("bitop3"))
        super().execute(ins, m)

    def emit(self, ins: Instr, E) -> None:
        self.fn = self.table(ins.mod("bitop3"))
        super().emit(ins, E)


VALU_OPS += [
    Bitop3(),
    ValuF32("v_add_f32", "fadd"),
    ValuF32("v_min_f32", "fmin"),
    ValuF32("v_max_f32", "fmax"),
    Valu("v_mul_lo_u32", 2, lambda B, a, b: B.mul(a, b), vop3_only=True),
]

for _op in VALU_OPS:
    register(_op)


class Cndmask(OpDef):
    """v_cndmask_b32 vD, src0, src1, mask: D = mask[i] ? src1 : src0."""

    base = "v_cndmask_b32"
    unit = "valu"
    sig = ("vdst", "src", "src", "mask")
    arg_names = ("vdst", "src0", "src1", "mask")
    encs = {"": "", "_e32": "e32", "_e64": "e64"}

    def parse(self, line, enc: str) -> Instr:
        ins = super().parse(line, enc)
        if enc == "e32":
            if not isinstance(ins.operands[2], VReg):
                raise InputError(ins.operand_span(2), "src1 of v_cndmask_b32_e32 must be a VGPR (use _e64)")
            if ins.operands[3].names[0] != "vcc_lo":
                raise InputError(ins.operand_span(3), "v_cndmask_b32_e32 reads its mask from vcc (use _e64 for an SGPR mask)")
        return ins

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns = super().check(ins, target, wave)
        self.check_constants(ins, target)
        return warns

    def execute(self, ins: Instr, m) -> None:
        B, W = m.B, m.W
        dst, s0, s1, mask = ins.operands
        a, b = m.read(s0), m.read(s1)
        lo, hi = m.scalar64(mask)
        sel = [m.mask_bit(lo, hi, i) for i in range(W)]
        en = m.actives()
        if m.step is not None:
            for i in range(W):
                pick = s1 if sel[i] else s0
                if not en[i]:
                    m.note(i, "kept", why=f"lane {i} inactive")
                else:
                    m.note(i, "written", (pick.text, i) if isinstance(pick, VReg) else None,
                           why=f"{operand_text(mask)}[{i}]={int(bool(sel[i]))} selects {operand_text(pick)}")
        m.write_v(dst.index, [B.ite(c, y, x) for c, x, y in zip(sel, a, b)], en)

    def emit(self, ins: Instr, E) -> None:
        dst, s0, s1, mask = ins.operands
        c = E.get_mask(mask)
        if c == "entry-exec":  # in whole-wave mode, on the saved EXEC: set.inactive's meaning  [S:wwm]
            E.set(dst, E.entry_select(E.get(s1, raw=True), E.get(s0, raw=True)))
        else:
            E.set(dst, E.ite(c, E.get(s1), E.get(s0)))


register(Cndmask())

CMP_OPS = {
    "eq": lambda B, a, b, s: B.eq(a, b),
    "ne": lambda B, a, b, s: B.ne(a, b),
    "lt": lambda B, a, b, s: B.slt(a, b) if s else B.ult(a, b),
    "le": lambda B, a, b, s: B.sle(a, b) if s else B.ule(a, b),
    "gt": lambda B, a, b, s: B.slt(b, a) if s else B.ult(b, a),
    "ge": lambda B, a, b, s: B.sle(b, a) if s else B.ule(b, a),
}


class Cmp(OpDef):
    """v_cmp_<op>_<u32|i32> sdst, src0, src1: a lane mask; inactive lanes
    write 0.  [S:vopc]"""

    sig = ("maskdst", "src", "src")
    arg_names = ("sdst", "src0", "src1")
    unit = "valu"
    encs = {"": "", "_e32": "e32", "_e64": "e64"}

    def __init__(self, op: str, ty: str):
        self.base = f"v_cmp_{op}_{ty}"
        self.op = CMP_OPS[op]
        self.signed = ty == "i32"

    def parse(self, line, enc: str) -> Instr:
        ins = super().parse(line, enc)
        if enc == "e32":
            if ins.operands[0].names[0] != "vcc_lo":
                raise InputError(ins.operand_span(0), f"{ins.mnemonic} writes vcc (use _e64 for an SGPR destination)")
            if not isinstance(ins.operands[2], VReg):
                raise InputError(ins.operand_span(2), f"src1 of {ins.mnemonic} must be a VGPR (use _e64)")
        return ins

    def check(self, ins: Instr, target: Target, wave: int) -> list[Warning_]:
        warns = super().check(ins, target, wave)
        self.check_constants(ins, target)
        return warns

    def execute(self, ins: Instr, m) -> None:
        B, W = m.B, m.W
        dst, s0, s1 = ins.operands
        a, b = m.read(s0), m.read(s1)
        bits = [B.and_b(m.active(i), self.op(B, a[i], b[i], self.signed)) for i in range(W)]
        lo, hi = m.from_lane_bits(bits)
        m.write_scalar64(dst, lo, hi)

    def emit(self, ins: Instr, E) -> None:
        dst, s0, s1 = ins.operands
        E.set_mask(dst, self.op(E, E.get(s0), E.get(s1), self.signed))


for _op in CMP_OPS:
    for _ty in ("u32", "i32"):
        register(Cmp(_op, _ty))
