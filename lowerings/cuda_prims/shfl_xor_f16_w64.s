; shfl_xor_f16_w64: __shfl_xor_sync(0xffffffff, (__half)v, 1, 32) on a wave64 holding two 32-lane
; warps: the half's 16 bits move unchanged (cuda_fp16.hpp shuffles them as a half2): ds_bpermute
; from lane ^ 1, then the 16-bit pattern zero-extended (v_and_b32 0xffff).
;
; @spec     cuda.shfl_typed mode=xor param=1 type=f16
; @targets  gfx9
; @waves    64
; @exec     full
; @input    x = v0
; @output   out = v1
; @clobbers v2
v_mbcnt_lo_u32_b32 v2, -1, 0
v_mbcnt_hi_u32_b32 v2, -1, v2
v_xor_b32_e32 v2, 1, v2
v_lshlrev_b32_e32 v2, 2, v2
ds_bpermute_b32 v1, v2, v0
s_waitcnt lgkmcnt(0)
v_and_b32_e32 v1, 0xffff, v1
