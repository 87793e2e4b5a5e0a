; invocation_id_w32: subgroup.invocation_id() on a wave32: mbcnt_lo of -1.
;
; @spec     vote.invocation_id
; @targets  gfx10, gfx11, gfx12
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v1
v_mbcnt_lo_u32_b32 v1, -1, 0
