; all_equal_f32_w32: all_equal(v) on f32: readfirstlane, v_cmp_neq_f32 (true on NaN,
; false on +0.0 vs -0.0), all_true, on a wave32 as llc-22 -mcpu=gfx1100
; emits it: the compare writes one SGPR, s_mov_b32 s3, 0 widens it for
; s_cmp_eq/lg_u64, and s_cselect_b32 feeds v_cndmask.
;
; @spec     vote.all_equal_f32
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1, s[2:3]
v_readfirstlane_b32 s2, v0
s_waitcnt_depctr depctr_va_sdst(0)
v_cmp_neq_f32_e64 s2, s2, v0
s_mov_b32 s3, 0
s_waitcnt_depctr depctr_sa_sdst(0)
s_cmp_eq_u64 s[2:3], 0
s_cselect_b32 s2, -1, 0
s_waitcnt_depctr depctr_sa_sdst(0)
v_cndmask_b32_e64 v1, 0, 1, s2
