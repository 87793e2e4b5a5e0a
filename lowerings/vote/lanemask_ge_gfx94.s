; lanemask_ge_gfx94: lanemask_ge(id) = 0 - (1 << id) (= ~((1 << id) - 1): the lanes at or above)
; in 64 bits as llc-22 -mcpu=gfx942 emits it.
; llc-22 puts s_nop 1 between the VCC write and the v_subb that reads it.
;
; @spec     vote.lanemask_ge
; @targets  gfx942, gfx950
; @waves    64
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3], vcc
v_lshlrev_b64 v[2:3], v0, 1
v_sub_co_u32_e32 v2, vcc, 0, v2
s_nop 1
v_subb_co_u32_e32 v3, vcc, 0, v3, vcc
