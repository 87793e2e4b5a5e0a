; reduce_all_fadd_rowsfirst_w32: the f32 sum of the active lanes in every lane
; of a wave32, as a butterfly that pairs lane i with lane i ^ 16 FIRST
; (v_permlanex16), then inside rows (quad_perm, row_half_mirror, row_mirror).
; Every lane adds the same 32 summands, but in a different tree from the
; balanced adjacent-pairs tree: the reassociation claim holds, the exact claim
; does not (tests/golden/reduce_all_fadd_rowsfirst_exact.s).
;
; @spec     red.reduce_all op=fadd over=active
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
s_mov_b32 s1, 0x76543210
s_mov_b32 s2, 0xfedcba98
s_waitcnt_depctr depctr_sa_sdst(0)
v_permlanex16_b32 v2, v1, s1, s2
v_add_f32_e32 v1, v2, v1
v_add_f32_dpp v1, v1, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_f32_dpp v1, v1, v1 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
v_add_f32_dpp v1, v1, v1 row_half_mirror row_mask:0xf bank_mask:0xf
v_add_f32_dpp v1, v1, v1 row_mirror row_mask:0xf bank_mask:0xf
s_mov_b32 exec_lo, s0
