; reduce_fadd_scan_w32: the f32 sum of the active lanes of a wave32 into an
; SGPR, the way LLVM's atomic optimizer gets it: an inclusive scan (row_shr
; 1, 2, 4, 8, then lane 15 of row 0 into row 1) and lane 31.  The EXACT claim
; holds: in a Hillis-Steele scan the last lane of each power-of-two block adds
; two halves that are themselves balanced trees, so lane 31 holds exactly the
; balanced pairwise tree.  (reduce_all_fadd_rowsfirst_w32 is a butterfly whose
; tree is not that one.)
;
; @spec     red.reduce_all_tree op=fadd width=32 over=active
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = s4
; @clobbers v1, v2, v3, s0, s4
s_or_saveexec_b32 s0, -1
v_mov_b32_e32 v3, 0x80000000
s_waitcnt_depctr depctr_sa_sdst(0)
v_cndmask_b32_e64 v1, v3, v0, s0
v_add_f32_dpp v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf
v_add_f32_dpp v1, v1, v1 row_shr:2 row_mask:0xf bank_mask:0xf
v_add_f32_dpp v1, v1, v1 row_shr:4 row_mask:0xf bank_mask:0xf
v_add_f32_dpp v1, v1, v1 row_shr:8 row_mask:0xf bank_mask:0xf
v_permlanex16_b32 v2, v1, -1, -1
v_add_f32_dpp v1, v2, v1 quad_perm:[0,1,2,3] row_mask:0xa bank_mask:0xf
v_readlane_b32 s4, v1, 31
s_mov_b32 exec_lo, s0
