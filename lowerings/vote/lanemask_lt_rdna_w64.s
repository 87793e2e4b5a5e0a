; lanemask_lt_rdna_w64: lanemask_lt(id) = (1 << id) - 1 as llc-22 -mcpu=gfx1100
; emits it for wave64 (+wavefrontsize64): v_lshlrev_b64, then a 64-bit add of -1 through the carry.
;
; @spec     vote.lanemask_lt
; @targets  gfx11, gfx12
; @waves    64
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3], vcc
v_lshlrev_b64 v[2:3], v0, 1
v_add_co_u32 v2, vcc, v2, -1
s_waitcnt_depctr depctr_va_vcc(0)
v_add_co_ci_u32_e64 v3, null, -1, v3, vcc
