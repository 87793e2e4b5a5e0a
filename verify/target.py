"""The one table of GPU targets: generations, wave sizes and features.

Every legality rule and every target-dependent semantic rule reads this
table, and error messages are generated from it, so a message can never
disagree with the check.  Sources for each feature: docs/semantics.md,
section "Targets" ([S:targets]).

>>> t = get("gfx1100")
>>> t.gen, t.waves, "dpp_row_xmask" in t.features
(11, (32, 64), True)
>>> [t.name for t in resolve("cdna3")]
['gfx940', 'gfx941', 'gfx942']
>>> needs_text("dpp_row_bcast")
'GFX8/9 family only'
>>> needs_text("permlane64")
'GFX11+ only'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from .diag import InputError, Span


@dataclass(frozen=True)
class Feature:
    name: str
    what: str  # human name of the capability, for `verify targets`
    source: str  # key of its citation in docs/semantics.md


FEATURES: dict[str, Feature] = {
    f.name: f
    for f in [
        Feature("dpp16", "DPP16 quad_perm, row_shl/shr/ror, row_mirror, row_half_mirror", "S:dpp-ctrl"),
        Feature("dpp_wave_shift", "DPP16 wave_shl/wave_rol/wave_shr/wave_ror", "S:dpp-ctrl"),
        Feature("dpp_row_bcast", "DPP16 row_bcast:15 / row_bcast:31", "S:dpp-ctrl"),
        Feature("dpp_row_share", "DPP16 row_share", "S:dpp-ctrl"),
        Feature("dpp_row_newbcast", "DPP16 row_newbcast", "S:dpp-ctrl"),
        Feature("dpp_row_xmask", "DPP16 row_xmask", "S:dpp-ctrl"),
        Feature("dpp_row_share_gfx10", "row_share/row_xmask as GFX10 has them (ACO avoids them there)", "S:dpp-ctrl"),
        Feature("dpp_fi", "DPP fi bit (fetch inactive lanes)", "S:dpp-lane-rule"),
        Feature("dpp8", "DPP8 lane selects", "S:dpp8"),
        Feature("vop3_dpp", "DPP on VOP3 encodings (_e64_dpp)", "S:dpp-encoding"),
        Feature("bound_ctrl_legacy", "assembler spelling bound_ctrl:0 sets the BOUND_CTRL bit", "S:bound-ctrl"),
        Feature("ds_swizzle", "ds_swizzle_b32 quad-perm and bitmask modes", "S:swizzle"),
        Feature("swizzle_fft_rotate", "ds_swizzle_b32 FFT and rotate modes", "S:swizzle"),
        Feature("ds_permute", "ds_permute_b32 / ds_bpermute_b32", "S:permute"),
        Feature("bpermute_half_wave64", "ds_(b)permute in wave64 stays inside each 32-lane half", "S:permute"),
        Feature("ds_bpermute_fi", "ds_bpermute_fi_b32", "S:permute"),
        Feature("bpermute_rdna_pseudocode", "ds_(b)permute pseudocode converts the address to a signed value (RDNA3/RDNA4)", "S:permute"),
        Feature("bpermute_full_wave64_rdna4", "ds_(b)permute in wave64 addresses the whole wave on RDNA4 (GFX12)", "S:permute-half"),
        Feature("vop3_dpp_sgpr_src1", "VOP3 DPP with an SGPR or inline-constant src1 (GFX11.5, GFX12)", "S:dpp-encoding"),
        Feature("dpp_rev_shift_src1", "reversed shifts with DPP (v_lshlrev_b32, ...) are reversed integer ops (before GFX11)", "S:dpp-rev"),
        Feature("permlane16", "v_permlane16_b32 / v_permlanex16_b32", "S:permlane16"),
        Feature("permlane16_var", "v_permlane16_var_b32 / v_permlanex16_var_b32", "S:permlane16"),
        Feature("permlane64", "v_permlane64_b32", "S:permlane64"),
        Feature("permlane_swap", "v_permlane16_swap_b32 / v_permlane32_swap_b32", "S:permlane-swap"),
        Feature("vop3_literal", "a 32-bit literal operand in a VOP3 (_e64) encoding", "S:valu"),
        Feature("constant_bus_2", "two scalar values (SGPRs or literal) per VALU instruction", "S:valu"),
        Feature("add_u32_nocarry", "v_add_u32 / v_sub_u32 / v_subrev_u32 without carry-out (GFX9; an alias of the _nc_ forms on GFX11+)", "S:valu"),
        Feature("wave32", "wave32 mode and the _b32 lane-mask forms", "S:targets"),
        Feature("waitcnt_split", "s_waitcnt_vscnt/_vmcnt/_expcnt/_lgkmcnt", "S:salu"),
        Feature("delay_alu", "s_delay_alu", "S:salu"),
        Feature("wait_gfx12", "the s_wait_* counters of GFX12", "S:salu"),
        Feature("hazard_dpp", "DPP needs 2 wait states after a VGPR write and 5 after a VALU EXEC write", "S:hazards"),
        Feature("hazard_lane_select", "v_readlane/v_writelane need 4 wait states after a VALU writes their lane-select SGPR", "S:hazards"),
        Feature("hazard_gfx101_war", "a VALU or SALU write of a register an earlier SMEM, VMEM, LDS or SALU instruction reads (write after read)", "S:hazards"),
        Feature("hazard_dst_sel", "a VALU read of a VGPR an SDWA instruction wrote with dst_sel other than DWORD needs 1 wait state", "S:hazards"),
        Feature("hazard_partial_forwarding", "wave64: a VALU read of two VGPRs written on either side of an SALU write of EXEC needs s_waitcnt_depctr va_vdst(0)", "S:hazards"),
        Feature("hazard_store_data", "a VALU write of a VGPR a store of more than 64 bits reads needs 1 wait state after the store", "S:hazards"),
        Feature("hazard_store_data_94", "a VALU write of a VGPR a store of more than 64 bits reads needs 2 wait states after the store", "S:hazards"),
        Feature("hazard_vmem_sgpr", "a vector memory instruction needs 5 wait states after a VALU writes an SGPR or EXEC it reads", "S:hazards"),
        Feature("hazard_gfx94_readlane", "readlane/writelane after a VALU EXEC write (4) or VGPR write (1)", "S:hazards"),
        Feature("hazard_gfx94_valu_sgpr", "a VALU read of an SGPR or VCC a VALU instruction wrote needs 2 wait states", "S:hazards"),
        Feature("hazard_permlane_swap", "permlane swaps need 2 wait states after a VGPR write", "S:hazards"),
        Feature("hazard_gfx12_sgpr", "an SGPR an SALU or VALU instruction wrote, read by a VALU (or an SALU) instruction, needs s_wait_alu", "S:hazards"),
        Feature("hazard_valu_mask_write", "wave64: an SALU write of an SGPR a VALU read as a lane mask needs s_waitcnt_depctr sa_sdst(0) before an SALU reads it", "S:hazards"),
        Feature("hazard_vcmpx_permlane", "v_permlane16/x16/64 after a v_cmpx needs a VALU instruction between", "S:hazards"),
        Feature("saveexec_sdst_last", "*_saveexec_* writes SDST after EXEC (the target's ISA guide states it in pseudocode)", "S:saveexec-order"),
        Feature("salu_gfx11_names", "the GFX11 SALU spellings s_ctz_*, s_and_not1_*, s_or_not1_*", "S:salu"),
        Feature("mem_global", "global_* memory instructions (global_load/store, GFX9+)", "S:mem16-legal"),
        Feature("mem_d16", "D16 sub-dword loads and _d16_hi stores", "S:mem16-legal"),
        Feature("mem_gfx11_names", "the GFX11 memory spellings (_b8/_b16/_u8/_i8/_u16/_i16)", "S:mem16-legal"),
        Feature("d16_preserves", "a D16 load keeps the other half of its register (no SRAM ECC)", "S:mem16-d16"),
        Feature("valu_gfx11_names", "the GFX11 VALU spellings v_ctz_i32_b32 / v_clz_i32_u32 of v_ffbl_b32 / v_ffbh_u32", "S:ffb"),
        Feature("salu_gfx12_names", "the GFX12 SALU spellings s_add_co_i32, s_sub_co_i32", "S:salu"),
        Feature("vccz_partial_writes", "a write of vcc_lo or vcc_hi alone updates VCCZ (GFX10+)", "S:vccz-partial"),
        Feature("s_mul_u64", "the 64-bit scalar multiply s_mul_u64 (GFX12)", "S:s-mul-u64"),
        Feature("salu_gfx9_names", "the SALU spellings s_ff1_*, s_andn2_*, s_orn2_* (GFX11+ keeps them as aliases)", "S:salu"),
        Feature("cmp_f32_f_tru", "v_cmp_f_f32 / v_cmp_tru_f32 (before GFX12; llvm-mc-22 rejects them on gfx1200)", "S:f32-order"),
        Feature("salu_float", "SALU binary32 arithmetic s_add_f32 / s_sub_f32 (GFX11.5, GFX12)", "S:salu-f32"),
        Feature("min_num_f32", "v_min_num_f32 / v_max_num_f32 (GFX12: minimumNumber/maximumNumber)", "S:min-num"),
        Feature("add_nc_u32", "v_add_nc_u32 / v_sub_nc_u32 / v_subrev_nc_u32 (GFX10+ spelling)", "S:valu"),
        Feature("valu_3src", "three-source VOP3 v_add3_u32, v_lshl_add_u32, v_add_lshl_u32, v_and_or_b32, v_lshl_or_b32, v_or3_b32", "S:valu"),
        Feature("bitop3", "v_bitop3_b32 (any bitwise function of three sources, by truth table)", "S:valu"),
        Feature("waitcnt_depctr", "s_waitcnt_depctr", "S:salu"),
        Feature("clause", "s_clause (a scheduling hint: keep the next N+1 memory instructions together)", "S:salu"),
        Feature("add_co_u32", "v_add_co_u32 with a carry-out mask (VOP3b; GFX8 spells it v_add_u32)", "S:addr"),
        Feature("add_co_vop2_gfx9", "GFX9's v_addc_co_u32 and the VOP2 (_e32) v_add_co_u32", "S:addr"),
        Feature("add_co_ci", "v_add_co_ci_u32 (carry in and out, GFX10+); `null` as a carry-out destination", "S:addr"),
        Feature("lshlrev_b64_vop2", "v_lshlrev_b64 as VOP2 (_e32, GFX12)", "S:addr"),
        Feature("s_mul_hi", "s_mul_hi_u32", "S:addr"),
        Feature("mad_co_u64", "v_mad_co_u64_u32 (GFX12's name of v_mad_u64_u32)", "S:arith64"),
        Feature("mov_b64", "v_mov_b64 (a 64-bit VGPR move, VOP1/VOP3, gfx940+)", "S:mov-b64"),
        Feature("carry_gfx8", "GFX8's carry spellings v_add_u32 vD, vcc, ... / v_addc_u32 / v_subb_u32", "S:carry-gfx8"),
        Feature("alu16_gfx8", "16-bit VOP2 ops v_add_u16/v_sub_u16 (GFX8, GFX9)", "S:packed16"),
        Feature("mad_legacy_u16", "v_mad_legacy_u16 (GFX9's name of GFX8's v_mad_u16 encoding)", "S:mad-u16"),
        Feature("sdwa", "SDWA forms v_*_sdwa of 32-bit VOP1/VOP2 ops (GFX8, GFX9, GFX10)", "S:sdwa"),
        Feature("sdwa_sgpr", "an SGPR source in an SDWA form (GFX9, GFX10)", "S:sdwa"),
        Feature("sdwa_add_u32", "v_add_u32_sdwa / v_sub_u32_sdwa without a carry (GFX9)", "S:sdwa"),
        Feature("packed16", "packed 16-bit VOP3P ops v_pk_add_u16 ... (GFX9+)", "S:packed16"),
        Feature("pk_mov_b32", "v_pk_mov_b32 (each dword from either dword of a source, gfx90a+)", "S:pk-mov-b32"),
        Feature("mov_b16", "v_mov_b16 on 16-bit VGPR halves v1.l/v1.h (GFX11 true16)", "S:true16"),
        Feature("mad_f32", "v_mad_f32 / v_mac_f32 (GFX8, GFX9 but gfx94x/gfx950, GFX10.1)", "S:f32-mad"),
        Feature("fmac_f32", "v_fmac_f32 (gfx906, gfx908, gfx90a, gfx94x, gfx950, GFX10+)", "S:f32-fma"),
        Feature("lshl_add_u64", "v_lshl_add_u64 (64-bit shift-and-add, VOP3)", "S:addr"),
        Feature("cmpx_sdst", "v_cmpx_* with a destination that is written besides EXEC (GFX8/9)", "S:cmpx"),
        Feature("cmpx_exec_only", "v_cmpx_* without a destination: only EXEC is written (GFX10+)", "S:cmpx"),
        Feature("sub_co_u32", "v_sub_co_u32 / v_subrev_co_u32 with a borrow-out mask (VOP3)", "S:sub-carry"),
        Feature("sub_co_vop2_gfx9", "GFX9's VOP2/DPP v_sub_co_u32, v_subrev_co_u32 and v_subb_co_u32 / v_subbrev_co_u32", "S:sub-carry"),
        Feature("packed_tid", "a kernel's work-item IDs packed into v0 (x bits 0-9, y 10-19, z 20-29)", "S:packed-tid"),
        Feature("ds_m0_limit", "DS instructions check their LDS address against M0 (LLVM sets M0 to -1 first)", "S:ds-m0"),
        Feature("scratch_no_rsrc_args", "callable functions get no scratch resource descriptor in s0-s3: `inreg` arguments start at s0", "S:shader-cc"),
        Feature("sub_co_ci", "v_sub_co_ci_u32 / v_subrev_co_ci_u32 (borrow in and out, GFX10+)", "S:sub-carry"),
        Feature("alu_b16", "16-bit bitwise VOP3 ops v_and_b16 / v_or_b16 / v_xor_b16 (GFX11+)", "S:half2-b16"),
        Feature("gfx8_insts", "the VALU/SALU ops GFX8 added (LLVM's FeatureGFX8Insts: v_perm_b32, v_lshlrev_b64, s_cmp_eq_u64, ...)", "S:sici"),
        Feature("ci_insts", "the ops Sea Islands added (LLVM's FeatureCIInsts: v_mad_u64_u32, ...)", "S:sici"),
        Feature("carry_vop2", "v_addc_u32 / v_subb_u32 / v_subbrev_u32 with a carry-in (GFX6-GFX8 spelling)", "S:carry-gfx8"),
        Feature("carry_gfx6", "SI/CI's carry spellings v_add_i32 / v_sub_i32 / v_subrev_i32 vD, vcc, ...", "S:sici"),
        Feature("inv2pi_inline", "the inline constant 1/(2pi) (0.15915494)", "S:sici"),
        Feature("inline_const16", "16-bit operands read 16-bit inline constants", "S:sici"),
        Feature("clamp_sub_carry", "clamp on the subtracts with a borrow-out (v_sub*_co_u32, GFX8's v_sub_u32 ...)", "S:sici"),
        Feature("smrd_dword_offset", "s_load_* (SMRD) counts its immediate offset in dwords, not bytes", "S:sici"),
        Feature("mbcnt_vop2", "v_mbcnt_lo/hi_u32_b32 also as VOP2 (_e32)", "S:sici"),
        Feature("writelane_vop2", "v_writelane_b32 is a VOP2 op (its value may be a literal)", "S:sici"),
        Feature("vccz_bug", "VCCZ can be stale after a VCC write while a scalar load is in flight (assumption vccz.sici)", "S:vccz-bug"),
        Feature("hazard_smrd_sgpr", "an SMRD read of an SGPR a VALU wrote needs 4 wait states (SI)", "S:hazards"),
    ]
}


@dataclass(frozen=True)
class Target:
    name: str
    gen: int  # major GFX generation: 6, 7, 8, 9, 10, 11, 12
    family: str  # family label used in messages ("GFX9", "gfx94x", ...)
    arch: str  # marketing architecture ("GCN5", "CDNA3", "RDNA3", ...)
    waves: tuple[int, ...]
    features: frozenset[str]
    llvm_cpu: str  # the -mcpu LLVM 22 accepts for this target
    note: str = ""

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "gen": self.gen, "family": self.family, "arch": self.arch, "waves": list(self.waves),
                "features": sorted(self.features), "llvm_cpu": self.llvm_cpu, "note": self.note}

    @property
    def default_wave(self) -> int:
        """The wave size LLVM compiles for when nothing asks for one: wave32
        where the target has it (GFX10+), else its only size  [S:targets]."""
        return 32 if "wave32" in self.features else self.waves[0]

    def offset_range(self, encoding: str) -> tuple[int, int] | None:
        """The immediate offset a memory encoding (a key of MEM_OFFSETS)
        holds on this target: (lowest, highest), None where the target has
        no such encoding  [S:mem-offset]."""
        return MEM_OFFSETS[encoding].get(self.gen)

    def has(self, feature: str) -> bool:
        if feature not in FEATURES:  # a typo in the code, not user input
            raise KeyError(feature)
        return feature in self.features

    def with_llvm_attrs(self, mattr: Iterable[str]) -> Target:
        """The target as LLVM's subtarget attributes (`-mattr=+a,-b`, a
        function's "target-features") change what it encodes: `real-true16`
        turns the 16-bit VGPR halves (feature mov_b16) on or off where the
        processor has them, GFX11 and later (on by default on GFX11 and
        GFX11.5, off on GFX12; llvm-mc-22 takes `v_mov_b16_e32 v0.l, v1.l` on
        gfx1200 only with +real-true16, with GFX11's encoding)  [S:true16-mattr].
        Other attributes change nothing verify models; the name stays."""
        feats = set(self.features)
        for a in mattr:
            a = a.strip()
            if a[1:] == "real-true16" and a[:1] in "+-" and self.gen >= 11:
                (feats.add if a[0] == "+" else feats.discard)("mov_b16")
        return self if feats == self.features else replace(self, features=frozenset(feats))


# The immediate offset each memory encoding holds, per generation: (lowest,
# highest), as llvm-mc-22 takes it (measured at both ends of each range on
# every family; tests/test_tv_offset_range.py), but MUBUF before GFX12:
# llvm-mc-22 takes offset:4096..65535 there and encodes the low 12 bits of
# its 12-bit field.  SI's and CI's SMRD count dwords; CI's takes a 32-bit
# literal above 255  [S:mem-offset] [S:sici]
_S24 = (-(1 << 23), (1 << 23) - 1)
MEM_OFFSETS: dict[str, dict[int, tuple[int, int]]] = {
    "global": {9: (-4096, 4095), 10: (-2048, 2047), 11: (-4096, 4095), 12: _S24},  # and scratch_*
    "flat": {7: (0, 0), 8: (0, 0), 9: (0, 4095), 10: (0, 2047), 11: (0, 4095), 12: _S24},
    "mubuf": {g: (0, 4095) for g in range(6, 12)} | {12: (0, (1 << 23) - 1)},
    "ds": {g: (0, 65535) for g in range(6, 13)},
    "ds_pair": {g: (0, 255) for g in range(6, 13)},  # offset0 / offset1 of the two-address forms
    "s_load": {6: (0, 255), 7: (0, (1 << 32) - 1), 8: (0, (1 << 20) - 1)}
    | {g: (-(1 << 20), (1 << 20) - 1) for g in range(9, 12)} | {12: _S24},
    "s_buffer_load": {6: (0, 255), 7: (0, (1 << 32) - 1)} | {g: (0, (1 << 20) - 1) for g in range(8, 12)}
    | {12: (0, (1 << 23) - 1)},
}


# Southern Islands (GFX6) and Sea Islands (GFX7): wave64, no DPP, SDWA,
# ds_(b)permute or 16-bit VALU; ds_swizzle_b32's quad-perm and bitmask modes;
# the v_add_i32 carry spelling  [S:sici]
_GFX6 = {"ds_swizzle", "salu_gfx9_names", "carry_gfx6", "carry_vop2", "cmp_f32_f_tru", "ds_m0_limit", "mad_f32",
         "cmpx_sdst", "hazard_lane_select", "hazard_smrd_sgpr", "smrd_dword_offset", "mbcnt_vop2",
         "writelane_vop2", "vccz_bug"}
_GFX7 = (_GFX6 - {"hazard_smrd_sgpr"}) | {"ci_insts", "hazard_store_data"}
_ALL_DPP_GCN = {"dpp16", "dpp_wave_shift", "dpp_row_bcast", "bound_ctrl_legacy", "hazard_dpp", "hazard_lane_select", "hazard_vmem_sgpr", "hazard_store_data",
                "dpp_rev_shift_src1", "cmpx_sdst"}
_GFX8 = _ALL_DPP_GCN | {"ds_swizzle", "ds_permute", "salu_gfx9_names", "carry_gfx8", "alu16_gfx8", "cmp_f32_f_tru",
                        "ds_m0_limit", "sdwa", "mad_f32", "gfx8_insts", "ci_insts", "carry_vop2",
                        "inv2pi_inline", "inline_const16", "clamp_sub_carry"}
_GFX9 = (_GFX8 - {"carry_gfx8", "carry_vop2", "ds_m0_limit"}) | {"packed16", "swizzle_fft_rotate", "add_u32_nocarry", "valu_3src", "add_co_u32", "add_co_vop2_gfx9", "s_mul_hi",
                  "sub_co_u32", "sub_co_vop2_gfx9", "sdwa_sgpr", "sdwa_add_u32",
                  "mem_global", "mem_d16", "d16_preserves", "mad_legacy_u16"}
# SRAM ECC (on, or "any": LLVM's default) makes a D16 load zero the other half  [S:mem16-d16]
_SRAMECC = {"d16_preserves"}
_GFX90A = (_GFX9 - _SRAMECC) | {"dpp_row_newbcast", "packed_tid", "pk_mov_b32", "fmac_f32"}
_GFX94X = (_GFX90A - {"mad_f32", "hazard_store_data"}) | {"hazard_store_data_94", "scratch_no_rsrc_args", "hazard_gfx94_readlane", "hazard_gfx94_valu_sgpr", "hazard_dst_sel", "lshl_add_u64", "saveexec_sdst_last",
                     "mov_b64"}
_GFX950 = _GFX94X | {"permlane_swap", "hazard_permlane_swap", "bitop3"}
_GFX10 = {
    "dpp16", "dpp_row_share", "dpp_row_xmask", "dpp_row_share_gfx10", "dpp_fi", "dpp8", "bound_ctrl_legacy",
    "vop3_literal", "constant_bus_2",
    "ds_swizzle", "swizzle_fft_rotate", "ds_permute", "bpermute_half_wave64",
    "permlane16", "add_nc_u32", "wave32", "waitcnt_split", "salu_gfx9_names", "valu_3src", "waitcnt_depctr",
    "clause", "add_co_u32", "add_co_ci", "s_mul_hi",
    "dpp_rev_shift_src1", "sub_co_u32", "sub_co_ci", "cmpx_exec_only", "packed16", "cmp_f32_f_tru",
    "sdwa", "sdwa_sgpr", "fmac_f32", "mem_global", "mem_d16", "d16_preserves", "gfx8_insts", "ci_insts",
    "inv2pi_inline", "inline_const16", "clamp_sub_carry", "vccz_partial_writes",
}
_GFX10_1 = _GFX10 | {"hazard_vcmpx_permlane", "mad_f32", "hazard_gfx101_war"}
_GFX11 = (_GFX10 - {"bound_ctrl_legacy", "dpp_row_share_gfx10", "dpp_rev_shift_src1", "sdwa", "sdwa_sgpr"}) | {"vop3_dpp", "permlane64", "bpermute_rdna_pseudocode", "delay_alu",
                                              "add_u32_nocarry", "salu_gfx11_names", "valu_gfx11_names", "hazard_vcmpx_permlane",
                                              "saveexec_sdst_last", "packed_tid", "hazard_valu_mask_write", "hazard_partial_forwarding",
                                              "mov_b16", "scratch_no_rsrc_args", "alu_b16", "mem_gfx11_names"}
# GFX11.5 (RDNA3.5): VOP3 DPP takes an SGPR or inline constant as src1, as GFX12 does  [S:dpp-encoding]
_GFX115 = _GFX11 | {"vop3_dpp_sgpr_src1", "salu_float"}
_GFX12 = (_GFX11 - {"bpermute_half_wave64", "waitcnt_split", "hazard_valu_mask_write", "hazard_partial_forwarding", "mov_b16", "cmp_f32_f_tru"}) | {
    "ds_bpermute_fi", "permlane16_var", "bpermute_full_wave64_rdna4", "vop3_dpp_sgpr_src1", "wait_gfx12",
    "hazard_gfx12_sgpr", "salu_gfx12_names", "lshlrev_b64_vop2",
    "min_num_f32", "salu_float", "mad_co_u64", "s_mul_u64"}


def _mk(
    names: list[str],
    gen: int,
    family: str,
    arch: str,
    waves: tuple[int, ...],
    feats: set[str],
    llvm_cpu: str | None = None,
    note: str = "",
) -> list[Target]:
    return [
        Target(n, gen, family, arch, waves, frozenset(feats), llvm_cpu or n, note)
        for n in names
    ]


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        # GFX6 (Southern Islands) and GFX7 (Sea Islands)  [S:sici]
        _mk(["gfx600", "gfx601", "gfx602"], 6, "GFX6", "GCN1", (64,), _GFX6)
        + _mk(["gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705"], 7, "GFX7", "GCN2", (64,), _GFX7)
        # gfx801 (carrizo) and gfx802 (iceland, tonga): the GFX8 ISA of gfx803  [S:gfx8-variants]
        + _mk(["gfx801", "gfx802"], 8, "GFX8", "GCN3", (64,), _GFX8, None, "the GFX8 ISA of gfx803 [S:gfx8-variants]")
        + _mk(["gfx803"], 8, "GFX8", "GCN3", (64,), _GFX8)
        + _mk(["gfx900"], 9, "GFX9", "GCN5", (64,), _GFX9)
        + _mk(["gfx906"], 9, "GFX9", "GCN5", (64,), (_GFX9 - _SRAMECC) | {"fmac_f32"})
        + _mk(["gfx908"], 9, "GFX9", "CDNA1", (64,), (_GFX9 - _SRAMECC) | {"fmac_f32"})
        + _mk(["gfx90a"], 9, "gfx90a", "CDNA2", (64,), _GFX90A)
        + _mk(["gfx940", "gfx941"], 9, "gfx94x", "CDNA3", (64,), _GFX94X, "gfx942",
              "pre-production CDNA3; LLVM 21+ dropped it, assembled as gfx942")
        + _mk(["gfx942"], 9, "gfx94x", "CDNA3", (64,), _GFX94X)
        + _mk(["gfx950"], 9, "gfx950", "CDNA4", (64,), _GFX950)
        + _mk(["gfx1010", "gfx1011", "gfx1012"], 10, "GFX10.1", "RDNA1", (32, 64), _GFX10_1)
        + _mk([f"gfx103{k}" for k in range(7)], 10, "GFX10.3", "RDNA2", (32, 64), _GFX10)
        + _mk(["gfx1100", "gfx1101", "gfx1102", "gfx1103"], 11, "GFX11", "RDNA3", (32, 64), _GFX11)
        + _mk(["gfx1150", "gfx1151", "gfx1152", "gfx1153"], 11, "GFX11.5", "RDNA3.5", (32, 64), _GFX115)
        + _mk(["gfx1200", "gfx1201"], 12, "GFX12", "RDNA4", (32, 64), _GFX12)
    )
}

ORDER = list(TARGETS)

# Family aliases a user may write instead of a target name.  Each expands to
# concrete targets; a proof is made per concrete target (targets whose
# relevant features agree share one solver run; see refine.py).
ALIASES: dict[str, list[str]] = {
    "gfx6": ["gfx600", "gfx601", "gfx602"],
    "si": ["gfx600", "gfx601", "gfx602"],
    "gcn1": ["gfx600", "gfx601", "gfx602"],
    "gfx7": [n for n, t in TARGETS.items() if t.gen == 7],
    "ci": [n for n, t in TARGETS.items() if t.gen == 7],
    "gcn2": [n for n, t in TARGETS.items() if t.gen == 7],
    "gfx8": ["gfx803"],
    "gcn3": ["gfx803"],
    "gfx9": [n for n, t in TARGETS.items() if t.gen == 9],
    "vega": ["gfx900", "gfx906"],
    "cdna": ["gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"],
    "cdna1": ["gfx908"],
    "cdna2": ["gfx90a"],
    "cdna3": ["gfx940", "gfx941", "gfx942"],
    "gfx94x": ["gfx940", "gfx941", "gfx942"],
    "cdna4": ["gfx950"],
    "gfx10": [n for n, t in TARGETS.items() if t.gen == 10],
    "gfx10.1": ["gfx1010", "gfx1011", "gfx1012"],
    "rdna1": ["gfx1010", "gfx1011", "gfx1012"],
    "gfx10.3": [f"gfx103{k}" for k in range(7)],
    "rdna2": [f"gfx103{k}" for k in range(7)],
    "gfx11": [n for n, t in TARGETS.items() if t.gen == 11],
    "rdna3": ["gfx1100", "gfx1101", "gfx1102", "gfx1103"],
    "rdna3.5": ["gfx1150", "gfx1151", "gfx1152", "gfx1153"],
    "gfx12": ["gfx1200", "gfx1201"],
    "rdna4": ["gfx1200", "gfx1201"],
    "rdna": [n for n, t in TARGETS.items() if t.gen >= 10],
    "all": ORDER,
}

# Named target groups used to phrase "needs ..." in messages.
_GROUP_LABELS: list[tuple[str, Callable[[Target], bool]]] = [
    ("GFX8/9 family", lambda t: 8 <= t.gen <= 9),
    ("GFX6-GFX9", lambda t: t.gen <= 9),
    ("GFX6-GFX8", lambda t: t.gen <= 8),
    ("GFX6/GFX7", lambda t: t.gen <= 7),
    ("GFX6", lambda t: t.gen == 6),
    ("GFX9 family and GFX11+", lambda t: t.gen == 9 or t.gen >= 11),
    ("GFX9 family", lambda t: t.gen == 9),
    ("GFX9+", lambda t: t.gen >= 9),
    ("GFX10+", lambda t: t.gen >= 10),
    ("GFX11+", lambda t: t.gen >= 11),
    ("GFX12", lambda t: t.gen >= 12),
    ("GFX11.5+", lambda t: t.gen >= 12 or t.family == "GFX11.5"),
    ("GFX10 and GFX11", lambda t: t.gen in (10, 11)),
    ("gfx90a, gfx94x and gfx950", lambda t: t.family in ("gfx90a", "gfx94x", "gfx950")),
    ("gfx950", lambda t: t.family == "gfx950"),
    ("gfx94x and gfx950", lambda t: t.family in ("gfx94x", "gfx950")),
    ("GFX8+", lambda t: t.gen >= 8),
    ("GFX7+", lambda t: t.gen >= 7),
    ("GFX6+", lambda t: True),
]


def needs_text(feature: str) -> str:
    """Describe which targets have `feature`, generated from the table."""
    have = {n for n, t in TARGETS.items() if feature in t.features}
    for label, pred in _GROUP_LABELS:
        if have == {n for n, t in TARGETS.items() if pred(t)}:
            return f"{label} only"
    fams: list[str] = []
    for n in ORDER:
        if n in have and TARGETS[n].family not in fams:
            fams.append(TARGETS[n].family)
    return "only on " + ", ".join(fams) if fams else "no target has it"


def get(name: str, span: Span | None = None) -> Target:
    t = TARGETS.get(name.lower())
    if t is None:
        raise InputError(span, f"unknown target '{name}' (see `verify targets`)")
    return t


def resolve(name: str, span: Span | None = None) -> list[Target]:
    """A target name or family alias, or a comma list of them (as every
    --target takes) -> concrete targets, in table order."""
    if "," in name:
        names = [n.strip() for n in name.split(",")]
        if not all(names):
            raise InputError(span, f"empty name in the target list '{name}'")
        return resolve_all(names, span)
    key = name.lower()
    if key in TARGETS:
        return [TARGETS[key]]
    if key in ALIASES:
        return [TARGETS[n] for n in ALIASES[key]]
    raise InputError(span, f"unknown target '{name}' (see `verify targets` for names and families)")


def resolve_all(names: list[str], span: Span | None = None) -> list[Target]:
    seen: dict[str, Target] = {}
    for n in names:
        for t in resolve(n, span):
            seen.setdefault(t.name, t)
    return sorted(seen.values(), key=lambda t: ORDER.index(t.name))


@dataclass
class FeatureLog:
    """Target view that records which features a run consulted.

    Two targets that answer every consulted question the same way have the
    same semantics for that program, so one solver run proves both.
    """

    target: Target
    asked: dict[str, bool] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.target.name

    def has(self, feature: str) -> bool:
        v = self.target.has(feature)
        self.asked[feature] = v
        return v

    def agrees(self, other: Target) -> bool:
        return all(other.has(f) == v for f, v in self.asked.items())


def markdown() -> str:
    """docs/targets.md: per generation, which primitives exist, and sources."""
    fams: list[tuple[str, list[Target]]] = []
    for n in ORDER:
        t = TARGETS[n]
        if not fams or fams[-1][0] != t.family:
            fams.append((t.family, []))
        fams[-1][1].append(t)
    lines = [
        "# Targets",
        "",
        "Generated by `verify targets --markdown` from `verify/target.py`; do not edit.",
        "Each feature cites its source section in [semantics.md](semantics.md).",
        "",
        "| family | targets | arch | waves |",
        "|---|---|---|---|",
    ]
    for fam, ts in fams:
        lines.append(f"| {fam} | {', '.join(t.name for t in ts)} | {ts[0].arch} | "
                     f"{'/'.join(map(str, ts[0].waves))} |")
    lines += ["", "| feature | " + " | ".join(f for f, _ in fams) + " | source |",
              "|---|" + "---|" * len(fams) + "---|"]
    for f in FEATURES.values():
        cells = ["yes" if all(f.name in t.features for t in ts) else
                 ("some" if any(f.name in t.features for t in ts) else "-") for _, ts in fams]
        lines.append(f"| {f.what} | " + " | ".join(cells) + f" | `[{f.source}]` |")
    notes = [f"- {t.name}: {t.note}" for t in TARGETS.values() if t.note]
    lines += ["", "Aliases: " + ", ".join(f"`{a}`" for a in ALIASES) + ".", ""] + notes + [""]
    return "\n".join(lines)


def table_lines() -> list[str]:
    """`verify targets` as text: one line per target, its features in table order."""
    out = []
    for n in ORDER:
        t = TARGETS[n]
        waves = "/".join(f"wave{w}" for w in t.waves)
        feats = " ".join(f for f in FEATURES if f in t.features)
        note = f"  ({t.note})" if t.note else ""
        out.append(f"{t.name:<8} {t.family:<8} {t.arch:<8} {waves:<13} {feats}{note}")
    return out
