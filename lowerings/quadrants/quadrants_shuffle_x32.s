; quadrants_shuffle_x32: the Quadrants cross-half shuffle with the swapped
; read addressed at lane ^ 32.  With a SIMD32-scoped bpermute (GFX11) the
; address's bit 5 is ignored, so nothing changes; with a whole-wave bpermute
; (GFX12 per the RDNA4 ISA) the swapped copy's lane target ^ 32 holds
; value[target].  So this form is right on GFX11 and on GFX12 under either
; reading of GFX12's bpermute (`verify lowering quadrants_shuffle_x32 --robust`).
;
; @spec     cuda64.shfl_idx lane=@lane width=64
; @targets  gfx11, gfx12
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
v_xor_b32_e32 v5, 0x80, v5
ds_bpermute_b32 v8, v5, v6
v_xor_b32_e32 v4, v4, v2
v_and_b32_e32 v4, 32, v4
v_cmp_ne_u32_e32 vcc, 0, v4
s_waitcnt lgkmcnt(0)
s_waitcnt_depctr depctr_va_vcc(0)
v_cndmask_b32_e32 v1, v7, v8, vcc
