; shfl_up1_row: __shfl_up_sync(mask, x, 1, 16): lane i reads lane i - 1 of its
; 16-lane segment; the first lane keeps its own value.  row_shr:1 reads i - 1;
; lane 0 of a row has no source and keeps the value written first (s_nop 1:
; the DPP move reads its destination's old value; GFX8/9 need two wait states).
;
; @spec     cuda.shfl_up delta=1 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
v_mov_b32_e32 v1, v0
s_nop 1
v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf
