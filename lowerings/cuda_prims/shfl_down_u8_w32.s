; shfl_down_u8_w32: __shfl_down_sync(0xffffffff, (unsigned char)v, 1, 32) on a wave32: the DPP
; row_shr cannot cross rows, so ds_bpermute from lane + 1 (lane 31 reads itself), then the source
; lane's low 8 bits zero-extended (v_bfe_u32).
;
; @spec     cuda.shfl_typed mode=down param=1 type=u8
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     full
; @input    x = v0
; @output   out = v1
; @clobbers v2, v3
v_mbcnt_lo_u32_b32 v2, -1, 0
v_add_nc_u32_e32 v3, 1, v2
v_min_u32_e32 v3, 31, v3
v_lshlrev_b32_e32 v3, 2, v3
ds_bpermute_b32 v1, v3, v0
s_waitcnt lgkmcnt(0)
v_bfe_u32 v1, v1, 0, 8
