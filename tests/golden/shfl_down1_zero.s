; Bug: bound_ctrl zero-fill gives the last lane of each segment 0, where CUDA
; keeps the lane's own value.
;
; @spec     cuda.shfl_down delta=1 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @expect   refuted
v_mov_b32_e32 v1, v0
s_nop 1
v_mov_b32_dpp v1, v0 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
