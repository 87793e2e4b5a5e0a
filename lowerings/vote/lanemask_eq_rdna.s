; lanemask_eq_rdna: lanemask_eq(id) = 1 << id
; in 64 bits as llc-22 for every target (one 64-bit shift) emits it.
;
; @spec     vote.lanemask_eq
; @targets  gfx10, gfx11, gfx12
; @waves    32, 64
; @exec     any
; @input    id = v0
; @output   lo = v2, hi = v3
; @clobbers v[2:3]
v_lshlrev_b64 v[2:3], v0, 1
