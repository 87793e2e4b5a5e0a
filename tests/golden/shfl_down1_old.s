; Bug: the last lane of each segment must keep ITS OWN value (CUDA), but with
; bound_ctrl off an out-of-range DPP source leaves the destination's OLD value.
;
; @spec     cuda.shfl_down delta=1 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @expect   refuted
v_mov_b32_dpp v1, v0 row_shl:1 row_mask:0xf bank_mask:0xf
