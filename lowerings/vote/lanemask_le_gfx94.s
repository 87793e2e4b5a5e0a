; lanemask_le_gfx94: lanemask_le(id) = (2 << id) - 1 (lanes at or below: 2 << 63 wraps to 0, so lane 63 gets every bit)
; in 64 bits as llc-22 -mcpu=gfx942 emits it.
;
; @spec     vote.lanemask_le
; @targets  gfx942, gfx950
; @waves    64
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3]
v_lshlrev_b64 v[2:3], v0, 2
v_lshl_add_u64 v[2:3], v[2:3], 0, -1
