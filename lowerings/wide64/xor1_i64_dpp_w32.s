; xor1_i64_dpp_w32: a 64-bit shfl_xor by 1 as two 32-bit DPP moves, one per half
; of the VGPR pair (quad_perm:[1,0,3,2] swaps neighbours).  [S:wide64]
;
; @spec     cuda.shfl_xor_i64 mask=1 width=16
; @targets  gfx1100
; @waves    32
; @exec     any
; @input    x = v[0:1]
; @output   out = v[2:3]
v_mov_b32_dpp v2, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v3, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
