; shfl_idx_i16_w32: __shfl_sync(0xffffffff, (short)v, lane, 32) on a wave32: the short promotes to
; int, so the source lane's low 16 bits arrive sign-extended: ds_bpermute from lane & 31, then
; v_bfe_i32 of bits 0-15.
;
; @spec     cuda.shfl_typed mode=idx param=@lane type=i16
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0, lane = v3
; @output   out = v1
; @clobbers v4
v_and_b32_e32 v4, 31, v3
v_lshlrev_b32_e32 v4, 2, v4
ds_bpermute_b32 v1, v4, v0
s_waitcnt lgkmcnt(0)
v_bfe_i32 v1, v1, 0, 16
