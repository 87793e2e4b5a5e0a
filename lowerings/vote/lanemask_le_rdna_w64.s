; lanemask_le_rdna_w64: lanemask_le(id) = (2 << id) - 1 (lanes at or below: 2 << 63 wraps to 0, so lane 63 gets every bit)
; in 64 bits as llc-22 -mcpu=gfx1100 -mattr=+wavefrontsize64 emits it.
;
; @spec     vote.lanemask_le
; @targets  gfx10, gfx11, gfx12
; @waves    64
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3], vcc
v_lshlrev_b64 v[2:3], v0, 2
v_add_co_u32 v2, vcc, v2, -1
s_waitcnt_depctr depctr_va_vcc(0)
v_add_co_ci_u32_e64 v3, null, -1, v3, vcc
