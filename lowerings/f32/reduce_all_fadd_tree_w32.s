; reduce_all_fadd_tree_w32: the f32 sum of the active lanes in every lane of a
; wave32 (GFX10+), as a butterfly: each lane adds the lane i ^ 1, i ^ 2
; (quad_perm), i ^ 7 (row_half_mirror), i ^ 15 (row_mirror) partial sums, then
; the other row's total (v_permlanex16, selects 0x76543210 / 0xfedcba98).
; That is a balanced pairwise tree in every lane, bit for bit the tree of
; red.reduce_all_tree: the EXACT claim holds.  Inactive lanes contribute -0.0.
;
; @spec     red.reduce_all_tree op=fadd width=32 over=active
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2, v3, s0, s1, s2
s_or_saveexec_b32 s0, -1
v_mov_b32_e32 v3, 0x80000000
s_waitcnt_depctr depctr_sa_sdst(0)
v_cndmask_b32_e64 v1, v3, v0, s0
v_add_f32_dpp v1, v1, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_f32_dpp v1, v1, v1 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
v_add_f32_dpp v1, v1, v1 row_half_mirror row_mask:0xf bank_mask:0xf
v_add_f32_dpp v1, v1, v1 row_mirror row_mask:0xf bank_mask:0xf
s_mov_b32 s1, 0x76543210
s_mov_b32 s2, 0xfedcba98
s_waitcnt_depctr depctr_sa_sdst(0)
v_permlanex16_b32 v2, v1, s1, s2
v_add_f32_e32 v1, v2, v1
s_mov_b32 exec_lo, s0
