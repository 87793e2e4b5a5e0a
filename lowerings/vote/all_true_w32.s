; all_true_w32: all_true(p): icmp eq (ballot !p), 0, on a wave32 as llc-22 -mcpu=gfx1100
; emits it: the compare writes one SGPR, s_mov_b32 s3, 0 widens it for
; s_cmp_eq/lg_u64, and s_cselect_b32 feeds v_cndmask.
;
; @spec     vote.all_true
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1, s[2:3]
v_cmp_eq_u32_e64 s2, 0, v0
s_mov_b32 s3, 0
s_waitcnt_depctr depctr_sa_sdst(0)
s_cmp_eq_u64 s[2:3], 0
s_cselect_b32 s2, -1, 0
s_waitcnt_depctr depctr_sa_sdst(0)
v_cndmask_b32_e64 v1, 0, 1, s2
