; lanemask_gt_rdna_w64: lanemask_gt(id) = 0 - (2 << id) (= ~((2 << id) - 1): the lanes above)
; in 64 bits as llc-22 -mcpu=gfx1100 -mattr=+wavefrontsize64 emits it.
;
; @spec     vote.lanemask_gt
; @targets  gfx10, gfx11, gfx12
; @waves    64
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3], vcc
v_lshlrev_b64 v[2:3], v0, 2
v_sub_co_u32 v2, vcc, 0, v2
s_waitcnt_depctr depctr_va_vcc(0)
v_sub_co_ci_u32_e64 v3, null, 0, v3, vcc
