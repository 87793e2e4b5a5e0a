; lanemask_le_gfx9: lanemask_le(id) = (2 << id) - 1 (lanes at or below: 2 << 63 wraps to 0, so lane 63 gets every bit)
; in 64 bits as llc-22 -mcpu=gfx900 emits it.
;
; @spec     vote.lanemask_le
; @targets  gfx900, gfx906, gfx908, gfx90a
; @waves    64
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3], vcc
v_lshlrev_b64 v[2:3], v0, 2
v_add_co_u32_e32 v2, vcc, -1, v2
v_addc_co_u32_e32 v3, vcc, -1, v3, vcc
