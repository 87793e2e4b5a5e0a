; shfl_up1_xor_zero: __shfl_up(x, 1, 16) with the DPP move zero-filling (bound_ctrl)
; where lane 0 of a row must keep its own value, then a lane-local xor of 0.
; The wrong value is computed by the xor, but the path goes on through it (one
; lane, one VGPR) to the DPP move that zero-filled the lane: that is the cause.
;
; @spec     cuda.shfl_up delta=1 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2
; @expect   refuted
v_mov_b32_e32 v2, v0
s_nop 1
v_mov_b32_dpp v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
v_xor_b32_e32 v1, 0, v2
