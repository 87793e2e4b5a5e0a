; reduce_all_add_u64_gfx9: the 64-bit add of the active lanes, in every lane
; (GFX9 family, wave64).  Inactive lanes give 0 (v_cndmask of each half under
; the saved EXEC, in whole-wave mode); a butterfly inside each row moves the
; two halves with v_mov_b32_dpp and adds them with the carry chain
; v_add_co_u32 / v_addc_co_u32; the four row totals meet in SGPRs
; (s_add_u32 / s_addc_u32) and are broadcast back.  [S:wide64] [S:addr]
;
; @spec     red.reduce_all_u64 op=add over=active
; @targets  gfx9, gfx90a, gfx942, gfx950
; @waves    64
; @exec     any
; @input    x = v[0:1]
; @output   out = v[2:3]
; @clobbers v4, v5, v6, v7, vcc, s[0:1], s4, s5, s6, s7
s_or_saveexec_b64 s[0:1], -1
v_cndmask_b32_e64 v4, 0, v0, s[0:1]
v_cndmask_b32_e64 v5, 0, v1, s[0:1]
s_nop 1
v_mov_b32_dpp v6, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v7, v5 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_co_u32_e32 v4, vcc, v4, v6
v_addc_co_u32_e32 v5, vcc, v5, v7, vcc
s_nop 1
v_mov_b32_dpp v6, v4 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v7, v5 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
v_add_co_u32_e32 v4, vcc, v4, v6
v_addc_co_u32_e32 v5, vcc, v5, v7, vcc
s_nop 1
v_mov_b32_dpp v6, v4 row_half_mirror row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v7, v5 row_half_mirror row_mask:0xf bank_mask:0xf
v_add_co_u32_e32 v4, vcc, v4, v6
v_addc_co_u32_e32 v5, vcc, v5, v7, vcc
s_nop 1
v_mov_b32_dpp v6, v4 row_mirror row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v7, v5 row_mirror row_mask:0xf bank_mask:0xf
v_add_co_u32_e32 v4, vcc, v4, v6
v_addc_co_u32_e32 v5, vcc, v5, v7, vcc
s_nop 0
v_readlane_b32 s4, v4, 0
v_readlane_b32 s5, v5, 0
v_readlane_b32 s6, v4, 16
v_readlane_b32 s7, v5, 16
s_add_u32 s4, s4, s6
s_addc_u32 s5, s5, s7
v_readlane_b32 s6, v4, 32
v_readlane_b32 s7, v5, 32
s_add_u32 s4, s4, s6
s_addc_u32 s5, s5, s7
v_readlane_b32 s6, v4, 48
v_readlane_b32 s7, v5, 48
s_add_u32 s4, s4, s6
s_addc_u32 s5, s5, s7
v_mov_b32_e32 v2, s4
v_mov_b32_e32 v3, s5
s_mov_b64 exec, s[0:1]
