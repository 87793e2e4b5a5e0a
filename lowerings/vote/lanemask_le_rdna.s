; lanemask_le_rdna: lanemask_le(id) = (2 << id) - 1 (lanes at or below: 2 << 63 wraps to 0, so lane 63 gets every bit)
; in 64 bits as llc-22 -mcpu=gfx1100 (gfx1030 alike; s_delay_alu left out) emits it.
;
; @spec     vote.lanemask_le
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3], vcc_lo
v_lshlrev_b64 v[2:3], v0, 2
v_add_co_u32 v2, vcc_lo, v2, -1
s_waitcnt_depctr depctr_va_vcc(0)
v_add_co_ci_u32_e64 v3, null, -1, v3, vcc_lo
