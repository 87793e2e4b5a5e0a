"""Wave scans and reductions as LLVM's AMDGPU atomic optimizer (DPP strategy)
and Mesa ACO build them, for every integer operator, proved over every EXEC
mask: whole-wave mode, inactive lanes filled with the operator's identity
(set.inactive), a Hillis-Steele scan inside 16-lane rows (row_shr 1, 2, 4,
8), then the rows joined (GFX9 family: row_bcast:15 into rows 1 and 3,
row_bcast:31 into rows 2 and 3; GFX10+: v_permlanex16 reading lane 15 of
the other row into rows 1 and 3, and in wave64 lane 31 into rows 2 and 3).
Exclusive scans shift by one lane (GFX9: wave_shr:1; GFX10+: row_shr:1 and
v_writelane for the lanes that start a row).  A reduction reads the last
lane (readlane).  Butterfly reductions (ACO, Quadrants' reduce_all) combine
with lane i ^ 1, i ^ 2 (quad_perm), i ^ 7 (row_half_mirror), i ^ 15
(row_mirror), then join rows with readlane and SALU ops.

Sources: shared reference section 7 (AMDGPUAtomicOptimizer buildScan /
buildShiftRight, ACO emit_reduction); docs/semantics.md [S:reduce-lowerings].
"""

from __future__ import annotations

# op: (GFX9 VALU, GFX10+ VALU, identity (assembly operand), SALU op)
OPS = {
    "add": ("v_add_u32", "v_add_nc_u32", "0", "s_add_u32"),
    "umax": ("v_max_u32", "v_max_u32", "0", "s_max_u32"),
    "umin": ("v_min_u32", "v_min_u32", "-1", "s_min_u32"),
    "smax": ("v_max_i32", "v_max_i32", "0x80000000", "s_max_i32"),
    "smin": ("v_min_i32", "v_min_i32", "0x7fffffff", "s_min_i32"),
    "and": ("v_and_b32", "v_and_b32", "-1", "s_and_b32"),
    "or": ("v_or_b32", "v_or_b32", "0", "s_or_b32"),
    "xor": ("v_xor_b32", "v_xor_b32", "0", "s_xor_b32"),
    # VOP3 only: no DPP form, so each step moves with DPP into v2 first
    "mul": ("v_mul_lo_u32", "v_mul_lo_u32", "1", "s_mul_i32"),
}
DPP = "row_mask:0xf bank_mask:0xf"


class Gen:
    def __init__(self, op: str, rdna: bool, wave: int, gfx12: bool = False):
        self.op, self.rdna, self.wave, self.gfx12 = op, rdna, wave, gfx12
        self.valu = OPS[op][1 if rdna else 0]
        self.ident = OPS[op][2]
        self.salu = OPS[op][3]
        self.lines: list[str] = []
        self.nop = not rdna  # GFX8/9: s_nop 1 between a VGPR write and a DPP read of it
        self.exec = "exec_lo" if wave == 32 else "exec"
        self.save = "s0" if wave == 32 else "s[0:1]"
        self.b = "b32" if wave == 32 else "b64"

    def emit(self, *ls: str) -> None:
        self.lines += ls

    def dpp(self, text: str) -> None:
        if self.nop:
            self.emit("s_nop 1")
        self.emit(text)

    def enter(self) -> None:
        """Whole-wave mode; inactive lanes of v1 get the identity."""
        self.emit(f"s_or_saveexec_{self.b} {self.save}, -1")
        if self.ident in ("0", "-1"):
            self.emit(f"v_cndmask_b32_e64 v1, {self.ident}, v0, {self.save}")
        else:  # a literal: GFX9 VOP3 takes none, so go through a VGPR
            self.emit(f"v_mov_b32_e32 v3, {self.ident}", f"v_cndmask_b32_e64 v1, v3, v0, {self.save}")

    def leave(self) -> None:
        self.emit(f"s_mov_{self.b} {self.exec}, {self.save}")

    def step(self, ctrl: str, src: str = "v1") -> None:
        """v1 = OP(src gathered by ctrl, v1); lanes with no valid source keep v1."""
        if self.op != "mul":
            self.dpp(f"{self.valu}_dpp v1, {src}, v1 {ctrl}")
            return
        self.emit(f"v_mov_b32_e32 v4, {self.ident}")  # no DPP on VOP3: gather into v4 (identity where invalid)
        self.dpp(f"v_mov_b32_dpp v4, {src} {ctrl}")
        self.emit("v_mul_lo_u32 v1, v1, v4")

    def scan_rows(self) -> None:
        for k in (1, 2, 4, 8):
            self.step(f"row_shr:{k} {DPP}")

    def join_rows(self) -> None:
        if not self.rdna:
            self.step("row_bcast:15 row_mask:0xa bank_mask:0xf")
            self.step("row_bcast:31 row_mask:0xc bank_mask:0xf")
            return
        self.emit("v_permlanex16_b32 v2, v1, -1, -1")
        self.step("quad_perm:[0,1,2,3] row_mask:0xa bank_mask:0xf", "v2")
        if self.wave == 64:
            self.emit("v_readlane_b32 s2, v1, 31", "v_mov_b32_e32 v2, s2")
            self.step("quad_perm:[0,1,2,3] row_mask:0xc bank_mask:0xf", "v2")

    def shift_right(self) -> None:
        """v2 = v1 moved up one lane, identity in lane 0."""
        self.emit(f"v_mov_b32_e32 v2, {self.ident}")
        if not self.rdna:
            self.dpp(f"v_mov_b32_dpp v2, v1 wave_shr:1 {DPP}")
            return
        self.emit(f"v_mov_b32_dpp v2, v1 row_shr:1 {DPP}")
        for lane in range(16, self.wave, 16):  # lanes that start a row read the previous row's last lane
            self.emit(f"v_readlane_b32 s3, v1, {lane - 1}")
            if self.gfx12:  # GFX12: a VALU SGPR write read by writelane needs s_wait_alu
                self.emit("s_wait_alu depctr_va_sdst(0)")
            self.emit(f"v_writelane_b32 v2, s3, {lane}")

    def readlane(self, sdst: str, lane: int) -> None:
        if not self.rdna:  # gfx94x/gfx950: v_readlane one wait state after a VALU write of its VGPR
            self.emit("s_nop 0")
        self.emit(f"v_readlane_b32 {sdst}, v1, {lane}")

    def butterfly_rows(self) -> None:
        for ctrl in ("quad_perm:[1,0,3,2]", "quad_perm:[2,3,0,1]", "row_half_mirror", "row_mirror"):
            self.step(f"{ctrl} {DPP}")


def header(desc: list[str], spec: str, targets: str, wave: int, out: str, clobbers: str) -> list[str]:
    return [f"; {d}" for d in desc] + [
        "; Generated by lowerings/_gen/scans.py: edit the generator, not this file.", ";",
        f"; @spec     {spec}", f"; @targets  {targets}", f"; @waves    {wave}", "; @exec     any",
        "; @input    x = v0", f"; @output   out = {out}", f"; @clobbers {clobbers}",
    ]


def variants():
    for op in OPS:
        yield op, False, 64, "gfx9"
        for wave in (32, 64):
            yield op, True, wave, "gfx10, gfx11, gfx12"


def name(kind: str, op: str, rdna: bool, wave: int) -> str:
    return f"{kind}_{op}_" + (f"rdna_w{wave}" if rdna else "gfx9")


def files() -> dict[str, str]:
    out: dict[str, str] = {}
    for op, rdna, wave, targets in variants():
        where = f"{'GFX10+' if rdna else 'GFX9 family'}, wave{wave}"
        sv = "s0" if wave == 32 else "s[0:1]"
        # inclusive scan
        g = Gen(op, rdna, wave)
        g.enter(), g.scan_rows(), g.join_rows(), g.leave()
        clob = f"v2, v3, v4, {sv}, s2" if rdna else f"v3, v4, {sv}"
        out[f"scan/{name('scan', op, rdna, wave)}.s"] = "\n".join(header(
            [f"{name('scan', op, rdna, wave)}: inclusive {op} scan over the active lanes ({where}),",
             "as LLVM's atomic optimizer builds it (DPP strategy)."],
            f"red.scan_incl op={op} over=active", targets, wave, "v1", clob) + g.lines) + "\n"
        # reduction into an SGPR: the inclusive scan's last lane
        g = Gen(op, rdna, wave)
        g.enter(), g.scan_rows(), g.join_rows()
        g.readlane("s4", wave - 1)
        g.leave()
        out[f"scan/{name('reduce', op, rdna, wave)}.s"] = "\n".join(header(
            [f"{name('reduce', op, rdna, wave)}: the {op} of the active lanes into an SGPR ({where}):",
             "the inclusive scan's last lane (LLVM's atomic optimizer)."],
            f"red.reduce_all op={op} over=active", targets, wave, "s4", f"v1, {clob}, s4") + g.lines) + "\n"
        # exclusive scan (GFX12 needs s_wait_alu between readlane and writelane)
        for gfx12 in ((False, True) if rdna else (False,)):
            g = Gen(op, rdna, wave, gfx12)
            g.enter(), g.scan_rows(), g.join_rows(), g.shift_right(), g.leave()
            nm = name("scan_excl", op, rdna, wave).replace("rdna", "gfx12" if gfx12 else "rdna")
            tg = "gfx12" if gfx12 else ("gfx10, gfx11" if rdna else targets)
            out[f"scan/{nm}.s"] = "\n".join(header(
                [f"{nm}: exclusive {op} scan over the active lanes ({'GFX12, ' if gfx12 else ''}{where}):",
                 "the inclusive scan moved up one lane, the identity in lane 0."],
                f"red.scan_excl op={op} over=active", tg, wave, "v2", f"v1, {clob}, s3") + g.lines) + "\n"
        # butterfly: every lane gets its row's reduction, then the rows join through SGPRs
        g = Gen(op, rdna, wave)
        g.enter(), g.butterfly_rows()
        g.readlane("s4", 0)
        for lane in range(16, wave, 16):
            g.emit(f"v_readlane_b32 s5, v1, {lane}", f"{g.salu} s4, s4, s5")
        g.emit("v_mov_b32_e32 v1, s4")
        g.leave()
        out[f"scan/{name('reduce_all', op, rdna, wave)}.s"] = "\n".join(header(
            [f"{name('reduce_all', op, rdna, wave)}: the {op} of the active lanes in every lane ({where}):",
             "a butterfly inside each row (ACO: quad_perm, row_half_mirror, row_mirror), rows joined by",
             "readlane and SALU ops, the total broadcast back."],
            f"red.reduce_all op={op} over=active", targets, wave, "v1", f"v3, v4, {sv}, s4, s5") + g.lines) + "\n"
        # ACO's p_reduce: the in-row butterfly, then rows joined as ACO does it
        g = Gen(op, rdna, wave)
        g.enter(), g.butterfly_rows()
        if not rdna:  # GFX8/9: row_bcast:15 into rows 1, 3; row_bcast:31 into rows 2, 3; lane 63 has it all
            g.step("row_bcast:15 row_mask:0xa bank_mask:0xf")
            g.step("row_bcast:31 row_mask:0xc bank_mask:0xf")
            g.readlane("s4", 63)
        else:  # GFX10+: every lane adds lane 0 of the other row (permlanex16 sel 0, 0), then readlane
            g.emit("v_permlanex16_b32 v2, v1, 0, 0")
            if op == "mul":
                g.emit("v_mul_lo_u32 v1, v1, v2")
            else:
                g.emit(f"{g.valu}_e32 v1, v2, v1")
            g.emit("v_readlane_b32 s4, v1, 0")
            if wave == 64:
                g.emit("v_readlane_b32 s5, v1, 32", f"{g.salu} s4, s4, s5")
        g.leave()
        nm = name("reduce_aco", op, rdna, wave)
        out[f"scan/{nm}.s"] = "\n".join(header(
            [f"{nm}: the {op} of the active lanes into an SGPR ({where}) as Mesa ACO reduces:",
             "quad_perm, row_half_mirror, row_mirror, then " +
             ("row_bcast:15/31 and lane 63." if not rdna else "permlanex16 (lane 0 of the other row) and readlane.")],
            f"red.reduce_all op={op} over=active", targets, wave, "s4", f"v1, v2, v3, v4, {sv}, s4, s5") + g.lines) + "\n"
    return out
