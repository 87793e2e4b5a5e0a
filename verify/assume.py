"""Named assumptions: where AMD's documents leave a behaviour unsettled.

Each open question of the semantics reference (docs/semantics.md,
"Open questions") that the model touches is one named assumption with a
documented default.  Semantics ask for it through ``Machine.assume(name)``
only when the answer can change the outcome, so a verdict lists exactly the
assumptions it rests on; ``--assume NAME=VALUE`` picks a variant and
``--robust`` proves under every combination of the variants a lowering
depends on.

>>> 'dpp.inactive_src' in ASSUMPTIONS, 'dpp.mask_scope' in ASSUMPTIONS
(True, True)
>>> ASSUMPTIONS["dpp.inactive_src"].default
'bound_ctrl'
>>> parse_assume(["dpp.inactive_src=zero"])
{'dpp.inactive_src': 'zero'}
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from .diag import InputError


@dataclass(frozen=True)
class Assumption:
    name: str
    question: str
    variants: dict[str, str]  # variant -> what it means
    default: str
    source: str  # key in docs/semantics.md


ASSUMPTIONS: dict[str, Assumption] = {
    a.name: a
    for a in [
        Assumption(
            "kernel.entry_exec",
            "which EXEC masks a kernel's wave can start with (the dispatcher packs a workgroup's work-items into "
            "lanes in order, so a partial last wave would start with lanes 0..n-1; no AMD document verify cites "
            "states it as a guarantee)",
            {
                "prefix": "lanes 0..n-1 for some n >= 1 (work-items packed in order)",
                "any": "any non-empty mask",
            },
            "prefix",
            "S:kernel-entry-exec",
        ),
        Assumption(
            "ir.inactive_lane",
            "the value an IR instruction or argument has, read across lanes (readlane, a permlane with fi, "
            "whole-wave mode), in a lane that did not execute it (not in EXEC, or not on the path to it): "
            "IntrinsicsAMDGPU.td documents it only for wave.shuffle and call.whole.wave, both poison",
            {
                "poison": "poison: a lane that did not run an instruction has no value for it, as it has none for a "
                          "load (ConvergentOperations.rst: only the threads that execute an operation take part in "
                          "it; IntrinsicsAMDGPU.td: wave.shuffle reading an inactive lane and the arguments of "
                          "call.whole.wave in inactive lanes are poison)",
                "computed": "the value the lane's own operands give, as if it had run every lane-wise instruction "
                            "and been passed the arguments (verify tv's reading before); a load or atomicrmw, "
                            "which a lane that does not run it cannot make, has none (poison)",
            },
            "poison",
            "S:ir-inactive",
        ),
        Assumption(
            "ir.store_race",
            "what memory holds where the stores of two lanes race at one address (no happens-before orders "
            "them: one IR store instruction, or two without a release fence, a workgroup barrier and an acquire "
            "fence between): LangRef's memory model makes a read that may see two writes no happens-before "
            "orders undef, whatever they wrote; LLVM's own tests and GPU code store one value from every lane "
            "of a wave to one address and read that value back",
            {
                "same_value": "lanes that all write the same value there leave it: the IR read more strictly "
                              "than LangRef's letter, as GPU programs and LLVM's tests use it (the IR then has "
                              "fewer behaviours, so a proof holds under `undef` too; a refutation may rest on "
                              "this reading); lanes writing different values, or poison, leave any value",
                "undef": "any value, even where every lane writes the same one (LangRef's letter)",
            },
            "same_value",
            "S:ir-store-race",
        ),
        Assumption(
            "kernel.packed_tid",
            "on a target with packed work-item IDs, what v0 holds at a kernel's entry in the y and z fields (and "
            "bits 30-31) of the IDs its descriptor does not enable (.amdhsa_system_vgpr_workitem_id): LLVM "
            "(SIISelLowering, allocateSpecialEntryInputVGPRs) then takes all of v0 as the x ID, so it relies on "
            "zeros there; AMDGPUUsage and the ISA guides verify cites do not state it",
            {
                "zero": "the fields of disabled IDs and bits 30-31 are 0 (what LLVM's code generation relies on)",
                "any": "v0[31:10] is arbitrary where the descriptor does not enable the ID",
            },
            "zero",
            "S:packed-tid",
        ),
        Assumption(
            "permlane64.wave32",
            "what v_permlane64_b32 does in wave32 (the RDNA3/RDNA4 ISA: no operation; LLVM selects it for the "
            "llvm.amdgcn.permlane64 intrinsic in wave32 and reads its result as the source)",
            {
                "nop": "no operation: the destination keeps its value (the ISA pseudocode: a scalar NOP in wave32)",
                "copy": "the destination gets the source in active lanes, as LLVM's selection takes it",
            },
            "nop",
            "S:permlane64",
        ),
        Assumption(
            "alu16.high_gfx8",
            "what a GFX8/GFX9 16-bit VALU op (v_add_u16, v_lshlrev_b16, ...; an SDWA form with dst_sel:DWORD) "
            "leaves in bits 31:16 of its destination: the GCN3/Vega ISA guides describe 16-bit results only by "
            "their D.u16 bits; LLVM (GCNSubtarget::zeroesHigh16BitsOfDest) takes them as zeroed up to GFX9 "
            "and relies on it (an `or` of two 16-bit results with no mask)",
            {
                "zero": "bits 31:16 are 0 (LLVM's zeroesHigh16BitsOfDest, what llc-22's GFX8/GFX9 code relies on)",
                "unknown": "bits 31:16 are unknown",
            },
            "zero",
            "S:sdwa",
        ),
        Assumption(
            "dpp.inactive_src",
            "DPP16 with fi=0 and bound_ctrl off reads an in-range but inactive source lane",
            {
                "bound_ctrl": "the source is invalid and bound_ctrl decides: off means the lane is not written (LLVM AMDGPUModifierSyntax)",
                "zero": "the lane reads 0 and is written whatever bound_ctrl says (rocjitsu review comment, RDNA)",
            },
            "bound_ctrl",
            "S:dpp-inactive",
        ),
        Assumption(
            "dpp.mask_scope",
            "whether DPP row_mask/bank_mask also disable a lane as a SOURCE",
            {
                "dest": "the masks gate only the destination; a masked lane can still be read (AMD DPP table as quoted, rocjitsu, ACO)",
                "dest+src": "a lane excluded by the masks is also an invalid source",
            },
            "dest",
            "S:dpp-mask-scope",
        ),
        Assumption(
            "dpp.rev_operand",
            "which printed source a reversed integer VOP2 op with DPP (v_subrev_*_u32; v_lshlrev/lshrrev/ashrrev before GFX11) swizzles",
            {
                "src1": "the printed src1: the hardware computes subrev as sub with swapped sources and swizzles its own src0 (llvm/llvm-project#216835, Mesa ACO commit 140ca3bb from hardware tests)",
                "src0": "the printed src0, as the ISA text's 'DPP applies to src0' reads and as verify modelled it before",
            },
            "src1",
            "S:dpp-rev",
        ),
        Assumption(
            "dpp.srcmod_zero",
            "an f32 DPP op's NEG modifier on its swizzled source when the lane reads the zero fill (bound_ctrl)",
            {
                "after": "the modifier applies to what the swizzle delivered: the zero fill reads as -0.0",
                "zero": "the zero fill replaces the modified value: the lane reads +0.0",
            },
            "after",
            "S:f32-srcmods",
        ),
        Assumption(
            "dpp.row_share_gfx10",
            "DPP row_share/row_xmask on GFX10 (ACO emits them only on GFX11+, for a reason it does not give)",
            {
                "works": "as the RDNA1/RDNA2 ISA guides document them, and as LLVM emits row_xmask on GFX10",
                "unreliable": "their result is unknown on GFX10 (ACO's choice read as a hardware quirk)",
            },
            "works",
            "S:dpp-ctrl",
        ),
        Assumption(
            "swizzle.rotate_wrap",
            "ds_swizzle rotate mode: does the rotated lane wrap inside 32 lanes",
            {
                "wrap32": "the rotated index wraps inside each group of 32 lanes (the ISA's example tables)",
                "carry": "no wrap: the ISA pseudocode's sum may carry into bit 5 and read the other half",
            },
            "wrap32",
            "S:swizzle",
        ),
        Assumption(
            "permute.wave64_half",
            "ds_bpermute_b32/ds_permute_b32 in wave64 on GFX10/GFX11: which 32-lane half an address selects",
            {
                "own": "the lane's own half: lane (i & 32) | addr[6:2] (ACO's model for bpermute; permute by analogy)",
                "low": "the low half: lane addr[6:2] (a literal reading of the RDNA3 text's 'mod 32')",
            },
            "own",
            "S:permute-half",
        ),
        Assumption(
            "permute.gfx12_wave64",
            "ds_bpermute_b32/ds_permute_b32 in wave64 on GFX12: the whole wave, or each 32-lane half",
            {
                "full": "the whole wave: lane addr[7:2] (RDNA4 ISA text; ACO treats GFX12 bpermute as working normally)",
                "half": "the lane's own half, as on GFX10/GFX11 (Quadrants' documentation says RDNA gfx10/11/12)",
            },
            "full",
            "S:permute-half",
        ),
        Assumption(
            "permute.addr_sign",
            "RDNA3/RDNA4 ds_(b)permute pseudocode converts addr + offset to a SIGNED value before /4 % N",
            {
                "bits": "the lane is taken from address bits (high bits ignored), as on GCN/CDNA and in the GCN3 article",
                "signed": "an address with bit 31 set is negative and reads 0 (an out-of-range DS read)",
            },
            "bits",
            "S:permute",
        ),
        Assumption(
            "permute.collision",
            "ds_permute_b32: which sender wins when several active lanes send to one lane",
            {
                "highest": "the highest-numbered sender wins (GCN3 article, the GCN/CDNA pseudocode's ascending loop)",
                "any": "any one of the colliding senders may win (RDNA3/RDNA4 ISA: not deterministic; CDNA: LDS arbitration)",
            },
            "highest",
            "S:permute",
        ),
        Assumption(
            "swizzle.gfx8_high",
            "ds_swizzle_b32 on GFX8 with a pattern >= 0xC000 (FFT/rotate encodings on GFX9+)",
            {
                "quad_perm": "GFX8 decodes only bit 15: quad-perm mode (LLVM rejects the FFT/ROTATE macros before GFX9)",
                "gfx9_modes": "GFX8 decodes FFT and rotate as GFX9 does",
            },
            "quad_perm",
            "S:swizzle",
        ),
        Assumption(
            "permlane.inactive_src",
            "v_permlane(x)16 with fi=0 reading an inactive source lane",
            {
                "dpp": "as DPP: the source is invalid; bound_ctrl zero-fills, otherwise the lane is not written (inferred from the 'DPP FI/BOUND_CTRL' wording)",
                "read": "the ISA pseudocode reads every source lane unconditionally: the inactive lane's value is read",
            },
            "dpp",
            "S:permlane16",
        ),
        Assumption(
            "permlane_swap.exec",
            "v_permlane16_swap_b32/v_permlane32_swap_b32: how EXEC gates the exchange (the CDNA4 pseudocode has no EXEC test)",
            {
                "ignore": "every pair is exchanged whatever EXEC says (the pseudocode as written)",
                "dest": "a lane is written only if it is active (reads are unconditional)",
                "pair": "a pair is exchanged only if both of its lanes are active",
            },
            "ignore",
            "S:permlane-swap",
        ),
        Assumption(
            "literal64.negative",
            "the 64-bit value of a literal written negative (-17) in a 64-bit integer SALU operand (s_mov_b64, *_saveexec_b64)",
            {
                "zext": "llvm-mc-22 encodes its low 32 bits, which the hardware zero-extends for B64 operands (ISA 'literal expansion'; llvm/llvm-project#70274, #186575)",
                "sext": "the written value: LLVM-22's signed range check (isInt<32>) reads the 32-bit literal as sign-extended",
            },
            "zext",
            "S:literal64",
        ),
        Assumption(
            "saveexec.order",
            "which write lands last when a *_saveexec_* names EXEC (exec_lo in wave32) as its SDST, on targets "
            "whose ISA guide gives only the older prose (GCN3, Vega, CDNA1/2, RDNA1/2: 'D = EXEC; EXEC = S0 op "
            "EXEC'); the CDNA3/CDNA4/RDNA3/RDNA4 pseudocode writes SDST last, so EXEC ends as the old mask",
            {
                "either": "either order: a proof must hold whichever write lands last (the guides disagree)",
                "exec_last": "EXEC is written last and keeps S0 op EXEC (the GCN3/Vega/RDNA1-2 text's order)",
                "sdst_last": "SDST is written last, so EXEC ends as the old mask (the CDNA3/RDNA3 pseudocode: "
                             "saveexec = EXEC; EXEC = S0 op EXEC; SDST = saveexec)",
            },
            "either",
            "S:saveexec-order",
        ),
        Assumption(
            "valu.carry_inactive",
            "the carry-out or borrow-out bit a v_add*_co* / v_sub*_co* / v_mad_u64_u32 op writes for a lane it does not write (inactive, or left unwritten by DPP)",
            {
                "unknown": "some bit: the ISA pseudocode writes the carry mask only for the lanes it computes",
                "zero": "0, as VOPC compares write 0 for inactive lanes (the GCN3/RDNA3 VOPC rule carried over)",
            },
            "unknown",
            "S:sub-carry",
        ),
        Assumption(
            "vopc.dpp_unwritten",
            "the bit a VOPC compare with DPP (v_cmp_*_e64_dpp, GFX11+) writes for an active lane the DPP lane rule "
            "leaves unwritten (source out of range or inactive without bound_ctrl, or masked by row_mask/bank_mask)",
            {
                "unknown": "some bit: the ISA's VOPC rule speaks of EXEC only, and no AMD document says",
                "zero": "0, as for an inactive lane (rocjitsu zeroes them; the reference's open question 12)",
            },
            "unknown",
            "S:vop3-dpp-more",
        ),
        Assumption(
            "f32.clamp",
            "what the VOP3 clamp bit makes of an f32 NaN or -0.0 result (MODE.DX10_CLAMP)",
            {
                "dx10": "NaN and -0.0 become +0.0 (DX10_CLAMP set: LLVM's default kernel mode, amdhsa_dx10_clamp = 1)",
                "ieee": "NaN and -0.0 pass through; other values are limited to [0.0, 1.0]",
            },
            "dx10",
            "S:clamp",
        ),
        Assumption(
            "f32.denormals",
            "whether f32 VALU ops keep subnormal inputs and results (the MODE register's FP_DENORM field)",
            {
                "ieee": "subnormals are kept (LLVM's default f32 denormal mode for AMDGPU compute, 'ieee')",
                "flush": "subnormal inputs and results are flushed to zero of the same sign",
            },
            "ieee",
            "S:f32",
        ),
        Assumption(
            "f32.ieee_mode",
            "whether f32 min/max ops quiet a signaling NaN operand (the MODE register's IEEE bit; LLVM's "
            "\"amdgpu-ieee\" function attribute, on by default for compute code)",
            {
                "on": "IEEE mode: a signaling NaN operand of v_min_num_f32/v_max_num_f32 gives a quiet NaN",
                "off": "a signaling NaN operand is passed over like a quiet one (the other operand)",
            },
            "on",
            "S:min-num",
        ),
        Assumption(
            "ir.minnum",
            "what llvm.minnum/llvm.maxnum may return for +0.0 vs -0.0 and for a signaling NaN operand "
            "(LangRef changed twice in LLVM 22's cycle: llvm-project PR 112852 made -0.0 < +0.0 and an sNaN "
            "give a qNaN; PR 168838 reverted to 'either one' and a non-deterministic result for an sNaN)",
            {
                "either": "either zero; for an sNaN operand a quiet NaN or the other operand (the union of both texts)",
                "strict": "-0.0 < +0.0; an sNaN operand gives a quiet NaN (IEEE-754-2008 minNum as PR 112852 reads)",
            },
            "either",
            "S:ir-minnum",
        ),
        Assumption(
            "lshl_add_u64.shift",
            "what v_lshl_add_u64 (gfx942, gfx950) computes for a shift amount above 4",
            {
                "unknown": "an unknown value: LLVM emits only amounts 0-4 (llvm/test/CodeGen/AMDGPU/lshl-add-u64.ll shifts by 5 with v_lshlrev_b64 first)",
                "low3": "the amount is S1[2:0], as the CDNA3 pseudocode reads (D = (S0 << S1[2:0]) + S2)",
            },
            "unknown",
            "S:addr",
        ),
        Assumption(
            "hazard.gfx12_sgpr",
            "GFX12: which SGPR reads need an s_wait_alu after an SALU or VALU write of the SGPR (LLVM's "
            "AMDGPUWaitSGPRHazards tracks only SGPR pairs some VALU instruction has read, and takes an SALU read, "
            "SMEM and non-FLAT VMEM as committing the writes; AMD's RDNA4 ISA guide, as far as verify has it, gives "
            "no such conditions)",
            {
                "llvm": "LLVM 22's model: a write of a pair no VALU has read (since a kernel's entry) is no hazard; an "
                        "SALU read of a tracked SGPR commits the VALU writes; SMEM and buffer/image instructions "
                        "commit everything",
                "strict": "every SGPR write is a hazard for the reads after it until an s_wait_alu with the field at "
                          "0 (for code another compiler scheduled)",
            },
            "llvm",
            "S:hazards",
        ),
        Assumption(
            "vccz.sici",
            "SI/CI (the VCCZ bug): when s_cbranch_vccz/vccnz reads a VCCZ that is VCC == 0 (the ISA guides verify "
            "has do not describe the bug; LLVM's SIInsertWaitcnts works around it: a scalar load outstanding at a "
            "write of VCC, or issued after it, may clobber VCCZ when it completes)",
            {
                "llvm": "LLVM 22's model: VCCZ is right after a write of the whole VCC made in the branch's block while "
                        "no scalar load is outstanding, with no scalar load issued after it; elsewhere the branch is "
                        "unsupported",
                "never": "every s_cbranch_vccz/vccnz on SI/CI is unsupported",
            },
            "llvm",
            "S:vccz-bug",
        ),
        Assumption(
            "hazard.gfx94_carry_in",
            "gfx94x/gfx950: a VALU carry-in (v_addc_co, v_subb_co, ...) reading a lane mask a VALU instruction wrote "
            "less than 2 wait states before",
            {
                "unknown": "the carry reads as unknown (LLVM's GCNHazardRecognizer counts every VCC read: llc-22 "
                           "puts s_nop 1 between v_sub_co_u32 and v_subb_co_u32 on gfx942)",
                "ready": "the carry is forwarded (AMD's rocRoller, from the CDNA3 ISA's wait-state table: a read as a "
                         "carry-in needs 0 wait states); the rule is a warning only",
            },
            "unknown",
            "S:hazards",
        ),
        Assumption(
            "hazard.kept_lanes",
            "the lanes a DPP instruction does not write, when a write of its destination is inside the hazard window",
            {
                "unknown": "they are unknown: LLVM counts the tied old destination as a read that needs the wait states",
                "kept": "they keep the value the earlier write left (the hardware does not read them; the GCN3 "
                        "article counts only the operands DPP reads)",
            },
            "unknown",
            "S:hazards",
        ),
        Assumption(
            "shader.ps_entry_exec",
            "which EXEC masks a pixel shader's wave starts with: the live pixels only (LLVM's SIWholeQuadMode saves "
            "EXEC at entry as the live mask and turns the helper lanes of each quad on with s_wqm), or whole quads "
            "(helper lanes already on); no AMD document verify cites settles it",
            {
                "any": "any non-empty mask (live pixels, in any pattern)",
                "quads": "a union of whole quads (each quad's four lanes all on or all off)",
            },
            "any",
            "S:shader-entry-exec",
        ),
        Assumption(
            "shader.sgpr_return",
            "what a shader's integer result (returned in an SGPR, RetCC_SI_Shader) means where the IR's value "
            "differs between active lanes: the LangRef and AMDGPUUsage do not say; LLVM 22 reads the first active "
            "lane (v_readfirstlane_b32 into the SGPR)",
            {
                "uniform": "defined only where it is the same, and not poison, in every active lane: there the SGPR "
                           "must hold it",
                "first": "the SGPR holds the value of the lowest active lane (LLVM 22's readfirstlane)",
            },
            "uniform",
            "S:shader-sgpr-return",
        ),
        Assumption(
            "flat.aperture",
            "where a flat access (an IR `ptr` of address space 0, a GPU flat_* instruction) lands: the flat "
            "address space covers global memory and the LDS and private apertures; a flat access to the LDS is "
            "counted by lgkmcnt, to global memory by vmcnt, and LLVM waits for vmcnt alone after a flat load in "
            "a function that allocates no LDS",
            {
                "global": "global memory (the one memory of 64-bit addresses global and constant pointers share); "
                          "a flat result is ready after vmcnt",
                "any": "anywhere, the LDS and private apertures included, which verify does not model: a flat "
                       "access is unsupported",
            },
            "global",
            "S:flat-aperture",
        ),
        Assumption(
            "buffer.base48",
            "whether a global pointer LLVM turns into a buffer resource (-mattr=-flat-for-global: words 0-1 of the "
            "descriptor are the 64-bit pointer as it is) is a 48-bit address: the ISA guides read word 1's bits 31:16 "
            "as STRIDE and swizzle bits, not address bits, and AMDGPUUsage gives no guarantee on the pointer's upper "
            "bits",
            {
                "canonical": "every ptr addrspace(1) kernel argument is below 2^48 and the accesses through a "
                             "resource stay below 2^48 (the GPU's virtual addresses): the descriptor's base is the "
                             "pointer, its stride and swizzle bits zero",
                "any": "the pointers are unconstrained: where a pointer's upper 16 bits are not zero the GPU's "
                       "address is unknown (a refutation shows it)",
            },
            "canonical",
            "S:mubuf-rsrc",
        ),
        Assumption(
            "f16.denormals",
            "whether f16 VALU ops keep subnormal inputs and results (the MODE register's FP_DENORM f64/f16 field)",
            {
                "ieee": "subnormals are kept (LLVM's default \"denormal-fp-math\" for f16 and f64, 'ieee')",
                "flush": "subnormal inputs and results are flushed to zero of the same sign",
            },
            "ieee",
            "S:half-denorm",
        ),
        Assumption(
            "f32.mad",
            "what v_mad_f32 / v_mac_f32 compute: the ISA guides write D = S0 * S1 + S2 without saying whether "
            "the product is rounded; LLVM selects them for llvm.amdgcn.fmad.ftz and ISD::FMAD (a product "
            "rounded, then the sum, subnormals flushed) and only where f32 denormals are flushed",
            {
                "unfused-flush": "the product rounded to binary32, then the sum rounded; subnormal inputs, product "
                                 "and result flushed to zero (LLVM's FMAD_FTZ)",
                "fused": "one rounding, as v_fma_f32",
            },
            "unfused-flush",
            "S:f32-mad",
        ),
    ]
}


def parse_assume(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for it in items:
        if "=" not in it:
            raise InputError(None, f"--assume expects NAME=VARIANT, got '{it}'")
        k, v = (x.strip() for x in it.split("=", 1))
        a = ASSUMPTIONS.get(k)
        if a is None:
            raise InputError(None, f"unknown assumption '{k}' (known: {', '.join(sorted(ASSUMPTIONS))})")
        if v not in a.variants:
            raise InputError(None, f"assumption {k} has no variant '{v}' (variants: {', '.join(a.variants)})")
        out[k] = v
    return out


def variant_space(used: dict[str, str]) -> list[dict[str, str]]:
    """Every combination of the variants of the assumptions named in `used`
    (what `--robust` proves under)."""
    names = sorted(used)
    return [dict(zip(names, combo)) for combo in itertools.product(*(list(ASSUMPTIONS[n].variants) for n in names))]
