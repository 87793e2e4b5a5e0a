; shfl_down1_row: __shfl_down_sync(mask, x, 1, 16): lane i reads lane i + 1 of
; its 16-lane segment, and the last lane of a segment keeps ITS OWN value.
; row_shl:1 is the DPP control where lane i reads lane i + 1 (row_shr reads
; i - 1).  Lane 15 of a row has no source; with bound_ctrl off it is not
; written, so the destination is first set to the lane's own value.  The DPP
; move reads its destination's old value, so on GFX8/9 it needs two wait
; states after the move that wrote it (s_nop 1).
;
; @spec     cuda.shfl_down delta=1 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
v_mov_b32_e32 v1, v0
s_nop 1
v_mov_b32_dpp v1, v0 row_shl:1 row_mask:0xf bank_mask:0xf
