; xor32_bpermute: on a 64-lane warp, lane i reads lane i ^ 32 on the GFX9
; family, which has no permlane64: ds_bpermute with the byte address
; (lane ^ 32) * 4.  The lane id comes from the mbcnt pair.
;
; @spec     cuda64.shfl_xor mask=32 width=64
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2
v_mbcnt_lo_u32_b32 v2, -1, 0
v_mbcnt_hi_u32_b32 v2, -1, v2
v_xor_b32_e32 v2, 32, v2
v_lshlrev_b32_e32 v2, 2, v2
ds_bpermute_b32 v1, v2, v0
s_waitcnt lgkmcnt(0)
