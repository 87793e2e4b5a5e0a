; quadrants_shuffle: Quadrants' wave64 shuffle(value, lane) on RDNA, where
; ds_bpermute only reaches the reading lane's own 32-lane half: one
; bpermute reads the value, a second reads the value with its halves swapped
; by v_permlane64, and a select keeps the second when the target lane is in
; the other half (seeds/quadrants-subgroup-primitives.txt, "AMDGPU wave64
; cross-half lowering").
;
; Contract: every lane active (@exec full).  Under a partial EXEC it is wrong:
; a cross-half read goes through the swapped copy in lane target ^ 32, which
; v_permlane64 does not write when that lane is inactive (see
; tests/golden/quadrants_shuffle_anyexec.s).  On GFX12 it is right only if
; bpermute is SIMD32-scoped there, as Quadrants' note says; the RDNA4 ISA and
; ACO say GFX12's bpermute addresses the whole wave, and then the swapped read
; returns the wrong half (`--target gfx1200` refutes it; quadrants_shuffle_x32
; is a form that is right either way).
;
; @spec     cuda64.shfl_idx lane=@lane width=64
; @targets  gfx11
; @waves    64
; @exec     full
; @input    x = v0, lane = v3
; @output   out = v1
; @clobbers v2, v4, v5, v6, v7, v8, vcc
v_mbcnt_lo_u32_b32 v2, -1, 0
v_mbcnt_hi_u32_b32 v2, -1, v2
v_and_b32_e32 v4, 63, v3
v_lshlrev_b32_e32 v5, 2, v4
v_permlane64_b32 v6, v0
ds_bpermute_b32 v7, v5, v0
ds_bpermute_b32 v8, v5, v6
v_xor_b32_e32 v4, v4, v2
v_and_b32_e32 v4, 32, v4
v_cmp_ne_u32_e32 vcc, 0, v4
s_waitcnt lgkmcnt(0)
v_cndmask_b32_e32 v1, v7, v8, vcc
