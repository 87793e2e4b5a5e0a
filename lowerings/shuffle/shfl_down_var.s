; shfl_down_var: __shfl_down_sync(mask, x, delta, 32) with a per-lane delta,
; one 32-lane warp per wave64 half, through ds_bpermute.  CUDA's rule is
; explicit in the address: when (lane & 31) + (delta & 31) leaves the warp the
; lane reads ITSELF, where a raw bpermute address would wrap into the other
; warp (tests/golden/shfl_down_var_wrap.s is that bug).
;
; @spec     cuda.shfl_down delta=@delta width=32
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0, delta = v3
; @output   out = v1
; @clobbers v2, v4, v5, vcc
v_mbcnt_lo_u32_b32 v2, -1, 0
v_mbcnt_hi_u32_b32 v2, -1, v2
v_and_b32_e32 v4, 31, v3
v_and_b32_e32 v5, 31, v2
v_add_u32_e32 v5, v5, v4
v_cmp_gt_u32_e32 vcc, 32, v5
v_add_u32_e32 v4, v2, v4
s_nop 0  ; gfx94x/gfx950: VCC read 2 wait states after the compare [S:hazards]
v_cndmask_b32_e32 v4, v2, v4, vcc
v_lshlrev_b32_e32 v4, 2, v4
ds_bpermute_b32 v1, v4, v0
s_waitcnt lgkmcnt(0)
