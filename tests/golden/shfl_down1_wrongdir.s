; Bug: a shift in the wrong direction.  shfl_down reads lane i + 1, which is
; row_shl:1; row_shr:1 reads lane i - 1.
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
v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf
