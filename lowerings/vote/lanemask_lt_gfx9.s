; lanemask_lt_gfx9: Quadrants' lanemask_lt(id) = (1 << id) - 1 (the lanes below) in 64 bits
; as llc-22 -mcpu=gfx900 emits it: v_lshlrev_b64, then -1 through the carry.
; @spec     vote.lanemask_lt
; @targets  gfx900, gfx906, gfx908, gfx90a
; @waves    64
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3], vcc
v_lshlrev_b64 v[2:3], v0, 1
v_add_co_u32_e32 v2, vcc, -1, v2
v_addc_co_u32_e32 v3, vcc, -1, v3, vcc
