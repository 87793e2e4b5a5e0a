; lanemask_ge_gfx9: lanemask_ge(id) = 0 - (1 << id) (= ~((1 << id) - 1): the lanes at or above)
; in 64 bits as llc-22 -mcpu=gfx900 emits it.
;
; @spec     vote.lanemask_ge
; @targets  gfx900, gfx906, gfx908, gfx90a
; @waves    64
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3], vcc
v_lshlrev_b64 v[2:3], v0, 1
v_sub_co_u32_e32 v2, vcc, 0, v2
v_subb_co_u32_e32 v3, vcc, 0, v3, vcc
