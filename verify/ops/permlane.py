"""The GFX10+ row permutes and the gfx950 swaps: v_permlane16_b32,
v_permlanex16_b32 (and their GFX12 _var forms), v_permlane16_swap_b32,
v_permlane32_swap_b32.  [S:permlane16] [S:permlane-swap]

permlane16 reads, for lane i in row r, lane ``16r + sel[p]`` (permlanex16:
the other row of the pair, ``16(r ^ 1) + sel[p]``), where sel is the 64-bit
{src2, src1} split in nibbles, nibble p for lane p of the row:

>>> [permlane_src(i, 0x76543210, 0xFEDCBA98, x=True) for i in (0, 15, 16, 31, 47)]
[16, 31, 0, 15, 63]
>>> [permlane_src(i, 0xFFFFFFFF, 0xFFFFFFFF, x=True) for i in (0, 20)]
[31, 15]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from ..diag import InputError, Span
from ..ir import Instr
from ..lanes import Read
from ..syntax import parse_int
from .base import AnyEmitter, Mod, Modifiers, OpDef, Tuples, int_modifier, lane_list_text, register
from .ds import Bpermute

if TYPE_CHECKING:  # annotations only: the machine runs the ops, the ops never import it
    from ..machine import Machine


def permlane_src(i: int, sel0: int, sel1: int, x: bool) -> int:
    r, p = i >> 4, i & 15
    nib = (sel0 >> (4 * p)) & 15 if p < 8 else (sel1 >> (4 * (p - 8))) & 15
    return 16 * (r ^ 1 if x else r) + nib


def _op_sel(value: str | None, span: Span) -> tuple[int, int]:
    if value is None or not (value.startswith("[") and value.endswith("]")):
        raise InputError(span, "op_sel expects [fi,bound_ctrl]")
    parts = [x.strip() for x in value[1:-1].split(",")]
    if len(parts) != 2:
        raise InputError(span, "op_sel of a permlane takes two bits: [fi,bound_ctrl]")
    bits = tuple(parse_int(p, span, "0 or 1") for p in parts)
    if any(b not in (0, 1) for b in bits):
        raise InputError(span, "op_sel bits must be 0 or 1")
    return bits[0], bits[1]


class Permlane16(OpDef):
    """vD = permlane[x]16(vS, sel0, sel1) op_sel:[fi,bound_ctrl]; the _var
    form takes the select per lane from a VGPR (low 4 bits)."""

    cost_class = "permlane"
    encs = {"": "e64", "_e64": "e64"}
    unit = "valu"
    valu_constants = True
    moves_lanes = True
    mods = Modifiers(Mod("op_sel", _op_sel, Tuples(2, 1), (0, 0), lane_list_text))

    def __init__(self, x: bool, var: bool):
        self.x = x
        self.var = var
        self.base = f"v_permlane{'x' if x else ''}16{'_var' if var else ''}_b32"
        self.feature = "permlane16_var" if var else "permlane16"
        self.sig = ("vdst", "vgpr", "vgpr") if var else ("vdst", "vgpr", "ssrc", "ssrc")
        self.arg_names = ("vdst", "vsrc", "vsel") if var else ("vdst", "vsrc", "sel0", "sel1")
        self.lane_select = (2,) if var else (2, 3)
        # after a v_cmpx a VALU instruction must come first  [S:hazards]
        self.hazard_roles = frozenset({"permlane"})
        self.components = () if var else (f"permlane{'x' if x else ''}16",)

    def uses(self, ins: Instr) -> list[str]:
        return super().uses(ins) + [ins.operands[0].text]  # lanes not written keep vD

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        dst, src = ins.operands[0], ins.operands[1]
        fi, bc = ins.mod("op_sel")
        data = m.v(src.index)
        act = m.actives()
        if self.var:
            sels = [B.and_(s, B.const(15)) for s in m.v(ins.operands[2].index)]
        else:
            s0, s1 = m.scalar(ins.operands[2]), m.scalar(ins.operands[3])
            sels = []
            for i in range(W):
                p = i & 15
                word, sh = (s0, 4 * p) if p < 8 else (s1, 4 * (p - 8))
                sels.append(B.and_(B.lshr(word, B.const(sh)), B.const(15)))

        def reads() -> Iterator[Read]:
            rule = None
            for i in range(W):
                r = i >> 4
                row = (r ^ 1) if self.x else r
                base = 16 * row
                j = B.add(sels[i], B.const(base))
                valid: Any = True
                if not fi:
                    valid = B.select(act, j)
                    if valid is not True:
                        # FI/BC on permlane: inferred from DPP.  [S:permlane16]
                        rule = rule or m.assume("permlane.inactive_src")
                        if rule == "read":
                            valid = True
                yield Read(j, valid, act[i], bool(bc))

        m.gather(dst, src, reads(), data, zero="bound_ctrl zero-fill", off="fi/bound_ctrl are off")

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        fi, bc = ins.mod("op_sel")
        dst, src = ins.operands[0], ins.operands[1]
        x = "x" if self.x else ""
        sels = [E.get(o) for o in ins.operands[2:]]
        name = f"permlane{x}16.var" if self.var else f"permlane{x}16.i32"
        hip = f"__builtin_amdgcn_permlane{x}16" + ("_var" if self.var else "")
        n = 2 + len(sels)
        E.set(dst, E.call(f"llvm.amdgcn.{name}", hip, [E.get(dst), E.get(src), *sels, bool(fi), bool(bc)],
                          imm=(n, n + 1)))


class PermlaneSwap(OpDef):
    """gfx950: both operands are read and written.
    16_swap: vD[32h+16+p] <-> vS[32h+p]; 32_swap: vD[32+p] <-> vS[p]."""

    cost_class = "permlane_swap"
    sig = ("vdst", "vgpr")
    arg_names = ("vdst", "vsrc")
    encs = {"": "e32", "_e32": "e32", "_e64": "e64"}
    feature = "permlane_swap"
    unit = "valu"
    moves_lanes = True
    hazard_roles = frozenset({"permlane_swap"})
    components = ("swap",)
    enc_mods: ClassVar[dict[str, Modifiers]] = {"e64": Modifiers(int_modifier("fi", 0, 1), int_modifier("bound_ctrl", 0, 1))}

    def __init__(self, width: int):
        self.width = width
        self.base = f"v_permlane{width}_swap_b32"

    def pairs(self, W: int) -> list[tuple[int, int]]:
        """(lane of vD, lane of vS) exchanged."""
        if self.width == 32:
            return [(32 + p, p) for p in range(32)] if W == 64 else []
        return [(32 * h + 16 + p, 32 * h + p) for h in range(W // 32) for p in range(16)]

    def defs(self, ins: Instr) -> list[str]:
        return [ins.operands[0].text, ins.operands[1].text]

    def uses(self, ins: Instr) -> list[str]:
        return [ins.operands[0].text, ins.operands[1].text]

    def execute(self, ins: Instr, m: Machine) -> None:
        B, W = m.B, m.W
        d, s = ins.operands
        vd, vs = list(m.v(d.index)), list(m.v(s.index))
        act = m.actives()
        # The CDNA4 pseudocode has no EXEC test.  [S:permlane-swap]
        rule = m.assume("permlane_swap.exec")
        from_s: dict[int, Read] = {}  # lane of vD -> the lane of vS it takes
        from_d: dict[int, Read] = {}  # lane of vS -> the lane of vD it takes
        for ld, ls in self.pairs(W):
            wd: Any
            if rule == "ignore":
                wd = ws = True
            elif rule == "dest":
                wd, ws = act[ld], act[ls]
            else:  # "pair": both lanes must be active
                wd = ws = B.and_b(act[ld], act[ls])
            from_s[ld] = Read(ls, True, wd)
            from_d[ls] = Read(ld, True, ws)
        for reg, src, data, plan in ((d, s, vs, from_s), (s, d, vd, from_d)):
            # a lane outside every pair reads nothing and keeps its value
            m.gather(reg, src, [plan.get(i, Read(i, True, False)) for i in range(W)], data, excluded="not exchanged")

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        d, s = ins.operands
        r = E.call(f"llvm.amdgcn.permlane{self.width}.swap", f"__builtin_amdgcn_permlane{self.width}_swap",
                   [E.get(d), E.get(s), bool(ins.mod("fi", 0)), bool(ins.mod("bound_ctrl", 0))], imm=(2, 3),
                   ret="pair", hint="swap")
        new_d, new_s = E.part(r, 0, d.text), E.part(r, 1, s.text)
        if d != s:
            E.set(d, new_d)
            E.set(s, new_s)
            return
        # one register: the lanes of vD's side of each pair (odd rows for 16,
        # the high half for 32) take the first result, the others the second
        side = E.ne(E.and_(E.lane_id(), self.width), 0)
        E.set(d, E.ite(side, new_d, new_s))


class BpermuteFi(Bpermute):
    """ds_bpermute_fi_b32 (GFX12): ds_bpermute that also reads inactive lanes."""

    base = "ds_bpermute_fi_b32"
    feature = "ds_bpermute_fi"
    reads_inactive = True

    def emit(self, ins: Instr, E: AnyEmitter) -> None:
        dst, addr, data = ins.operands
        a = E.add(E.get(addr), ins.mod("offset"))
        E.set(dst, E.call("llvm.amdgcn.ds.bpermute.fi.b32", "__builtin_amdgcn_ds_bpermute_fi_b32", [a, E.get(data)]))


for _op in (Permlane16(False, False), Permlane16(True, False), Permlane16(False, True), Permlane16(True, True),
            PermlaneSwap(16), PermlaneSwap(32), BpermuteFi()):
    register(_op)
