; Bug: wrap-around where CUDA keeps the lane's own value.  The byte address
; lane + delta wraps (ds_bpermute uses the lane bits only) into the next warp.
;
; @spec     cuda.shfl_down delta=@delta width=32
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0, delta = v3
; @output   out = v1
; @clobbers v2, v4
; @expect   refuted
v_mbcnt_lo_u32_b32 v2, -1, 0
v_mbcnt_hi_u32_b32 v2, -1, v2
v_and_b32_e32 v4, 31, v3
v_add_u32_e32 v4, v2, v4
v_lshlrev_b32_e32 v4, 2, v4
ds_bpermute_b32 v1, v4, v0
s_waitcnt lgkmcnt(0)
