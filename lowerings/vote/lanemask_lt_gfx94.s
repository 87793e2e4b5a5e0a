; lanemask_lt_gfx94: Quadrants' lanemask_lt(id) = (1 << id) - 1 in 64 bits as
; llc-22 -mcpu=gfx942 emits it: v_lshlrev_b64 (shift by id & 63), then
; v_lshl_add_u64 adding -1.
;
; @spec     vote.lanemask_lt
; @targets  gfx942, gfx950
; @waves    64
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3]
v_lshlrev_b64 v[2:3], v0, 1
v_lshl_add_u64 v[2:3], v[2:3], 0, -1
